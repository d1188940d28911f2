"""``junkyard demo``: computers play a whole game; pictures, the race replay and the standings."""

from __future__ import annotations

import re

import pytest
from PIL import Image

from bot import texts
from bot.cli import main


def test_the_channel_line_counts_each_thing_in_its_own_number() -> None:
    """One edit reads "1 edit", never "1 edits": each count of the demo's channel line is a plural entry."""
    def line(lang: str, n: int) -> str:
        return texts.say("demo.channel", lang, messages=texts.say("demo.messages", lang, count=n),
                         edits=texts.say("demo.edits", lang, count=n), wholes=texts.say("demo.wholes", lang, count=n),
                         moves=texts.say("demo.moves", lang, count=n))

    assert line("en", 1) == "The channel: 1 message, 1 edit of a turn's message, 1 whole board (1 move)."
    assert line("en", 3) == "The channel: 3 messages, 3 edits of a turn's message, 3 whole boards (3 moves)."
    assert line("de", 1) == "Der Kanal: 1 Nachricht, 1 Bearbeitung einer Zugnachricht, 1 ganzes Brett (1 Zug)."
    assert line("de", 3) == "Der Kanal: 3 Nachrichten, 3 Bearbeitungen einer Zugnachricht, 3 ganze Bretter (3 Züge)."


def test_a_short_race_leaves_pictures_a_replay_and_the_standings(tmp_path, capsys):
    out_dir = tmp_path / "demo"
    assert main(["demo", "--seats", "2", "--laps", "1", "--seed", "11", "--out", str(out_dir)]) == 0
    captured = capsys.readouterr()
    out = captured.out
    assert "Junkyard Races on Sump Creek Loop: 2 smart computers, 1 lap, seed 11." in out
    moves = int(re.search(r"The game is over after (\d+) moves", out).group(1))
    table = re.search(r"^Place\s+Name\s+Colour\s+Flags\s+Bottle tops\n((?:.+\n){2})", out, re.M)
    assert table is not None
    rows = [line.split() for line in table.group(1).splitlines()]
    assert [r[0] for r in rows] == ["1", "2"]
    assert rows[0][-2] == "1/1"  # the winner took the one flag of a one-lap race
    assert {r[-3] for r in rows} == {"red", "blue"}
    # the pictures a channel shows: one message per turn, as its last edit left it; the replay has one frame
    # per move and the start
    shown = re.search(r"The channel: (\d+) messages?, (\d+) edits? of a turn's message, (\d+) whole boards?", out)
    messages = int(shown.group(1))
    pictures = sorted(out_dir.glob("message-*.png"))
    assert [p.name.split("-")[1].split(".")[0] for p in pictures] == [f"{i:04d}" for i in range(1, messages + 1)]
    assert 2 < messages < moves // 2  # a turn is a roll and a drive at least: far fewer messages than moves
    with Image.open(pictures[-1]) as img:
        assert img.format == "PNG" and img.width >= 550  # the chat picture: at least as wide as a chat shows it
    with Image.open(out_dir / "replay.gif") as gif:
        assert gif.format == "GIF"
        assert gif.n_frames == moves + 1
    assert f"Replay: {out_dir / 'replay.gif'}" in out
    # progress on standard error: laps per kart
    assert re.search(r"move\s+\d+\s+red \[[#-]{10}\] [01]/1\s+blue \[[#-]{10}\] [01]/1", captured.err)


def test_a_game_of_junkyard_for_a_piecepack_with_every_fifth_picture(tmp_path, capsys):
    out_dir = tmp_path / "demo"
    assert main(["demo", "--game", "piecepack", "--seats", "3", "--seed", "3", "--every", "5",
                 "--out", str(out_dir)]) == 0
    out = capsys.readouterr().out
    moves = int(re.search(r"The game is over after (\d+) moves", out).group(1))
    assert re.search(r"^Place\s+Name\s+Suit\s+Trash\s+Good stuff$", out, re.M)
    assert re.search(r"^1\s+.+carrying$", out, re.M)  # the winner brought the good stuff home
    with Image.open(out_dir / "replay.gif") as gif:  # every game's demo leaves its animated replay
        assert gif.format == "GIF" and gif.n_frames == moves + 1
    messages = int(re.search(r"The channel: (\d+) messages?", out).group(1))
    names = sorted(p.name for p in out_dir.glob("message-*.png"))
    # the first message, then every fifth one
    assert names[0] == "message-0001.png" and names[1] == "message-0006.png"
    assert len(names) == 1 + (messages - 1) // 5 and messages <= moves


def test_demo_usage_errors(capsys):
    assert main(["demo", "--seats", "1"]) == 2
    assert "seats 2 to 8, not 1" in capsys.readouterr().err
    assert main(["demo", "--kind", "genius"]) == 2
    assert main(["demo", "--every", "0"]) == 2


def test_a_race_of_laps_shows_the_whole_board_when_the_first_kart_starts_a_new_lap(tmp_path, capsys):
    out_dir = tmp_path / "demo"
    assert main(["demo", "--seats", "2", "--laps", "2", "--seed", "11", "--out", str(out_dir)]) == 0
    out = capsys.readouterr().out
    wholes = int(re.search(r"(\d+) whole boards?", out).group(1))
    boards = sorted(out_dir.glob("message-*-whole.png"))
    assert len(boards) == wholes >= 1  # the leader's second lap (and the flag that ends the race)
    with Image.open(boards[0]) as whole, Image.open(out_dir / "message-0001.png") as close:
        # the whole track with every player's row and the key under it, not the close-up of a move
        assert whole.width <= 740 and whole.height > close.height


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize(("game", "options"), [("rally", ["--laps", "1", "--seats", "3"]), ("piecepack", [])])
def test_every_chat_picture_of_a_demo_game_has_one_size(tmp_path, capsys, game: str, options: list[str],
                                                        lang: str) -> None:
    """A channel's pictures never jump: every turn's close-up, the game-over one too, has the same size (the
    whole board a new lap brings is a picture of its own, at its own size)."""
    out_dir = tmp_path / "demo"
    assert main(["demo", "--game", game, "--lang", lang, "--seed", "5", *options, "--out", str(out_dir)]) == 0
    capsys.readouterr()
    pictures = sorted(p for p in out_dir.glob("message-*.png") if not p.stem.endswith("-whole"))
    sizes = set()
    for path in pictures:
        with Image.open(path) as img:
            sizes.add(img.size)
    assert len(pictures) > 10 and len(sizes) == 1, sizes
    if game == "rally":
        from render.rally.chat import canvas_size

        assert sizes == {canvas_size("A")}
