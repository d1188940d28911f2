"""``junkyard play``: whole games in the terminal driven through standard input, as a script would.

The people's moves come from a game the computers played first with the same seed (``junkyard demo
--db``): a computer's choice depends only on the game, its seat and the move number, so the person in
seat 1 can replay what the computer in seat 1 chose, and the other seat's computer chooses as before.
"""

from __future__ import annotations

import asyncio
import io
import re
from pathlib import Path

import pytest

from bot.cli import main
from bot.store import SqliteStore
from bot.terminal import SeatSpec, database_folder, expand, parse_seats, plain
from rules.literal import Person

RACE_SEED = 11  # a one-lap race of a few dozen moves on track A
#: two-lap races, tried in turn until one has a kart picking up a junk tile (hidden from the other player)
HAND_SEEDS = (3, 6, 7, 8, 1)
PIECEPACK_SEED = 6  # a short game (a few dozen moves)


def stored(db: Path, game_id: int = 1, narration: bool = False) -> tuple[str, list[tuple[int | None, str]]]:
    """The status of a stored game and its (seat, action) log; with ``narration``, (seat, narration)."""

    async def read() -> tuple[str, list[tuple[int | None, str]]]:
        async with SqliteStore(db) as store:
            rec = await store.games.get_game(game_id)
            acts = await store.games.actions(game_id)
            return rec.status, [(a.seat, a.narration if narration else a.action) for a in acts]

    return asyncio.run(read())


def computers_play(tmp_path: Path, game: str, seed: int, laps: int | None = None) -> list[tuple[int | None, str]]:
    """The log of a game two computers play with ``seed`` (pictures only at its start and end)."""
    db = tmp_path / f"computers-{game}-{seed}.db"
    args = ["demo", "--game", game, "--seats", "2", "--seed", str(seed), "--db", str(db), "--every", "1000",
            "--out", str(tmp_path / "computers")]
    if laps is not None:
        args += ["--laps", str(laps)]
    assert main(args) == 0
    status, log = stored(db)
    assert status == "finished"
    return log


def play(monkeypatch, capsys, args: list[str], lines: list[str]) -> tuple[int, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    code = main(["play", *args])
    return code, capsys.readouterr().out


def test_a_person_races_a_computer_to_the_finish_through_standard_input(tmp_path, monkeypatch, capsys):
    log = computers_play(tmp_path, "races", RACE_SEED, laps=1)
    mine = [action for seat, action in log if seat == 0]
    db, out_dir = tmp_path / "play.db", tmp_path / "out"
    code, out = play(monkeypatch, capsys, ["--track", "A", "--laps", "1", "--seats", "human,smart", "--seed",
                                           str(RACE_SEED), "--db", str(db), "--out", str(out_dir)], mine)
    assert code == 0
    status, played = stored(db)
    assert status == "finished"
    assert played == log  # the same race, move for move
    assert "=== Player 1 (red) to act" in out
    assert "Your moves" in out
    standings = out.split("=== Final standings ===")[1]
    assert re.search(r"Place\s+Name\s+Colour\s+Flags\s+Bottle tops", standings)
    assert re.search(r"^1\s+\S.*\s1/1\s", standings, re.M)
    # a board picture after every move, each named in the output, in the game's own folder
    assert not list(out_dir.glob("move-*.png"))
    pictures = sorted((out_dir / database_folder(str(db)) / "game-1").glob("move-*.png"))
    assert [p.name for p in pictures] == [f"move-{i:04d}.png" for i in range(len(log) + 1)]
    assert all(p.read_bytes().startswith(b"\x89PNG") for p in pictures)
    assert f"[board: {pictures[-1]}]" in out


@pytest.mark.presses_every_move
def test_a_game_of_junkyard_for_a_piecepack_in_the_terminal(tmp_path, monkeypatch, capsys):
    log = computers_play(tmp_path, "piecepack", PIECEPACK_SEED)
    mine = [action for seat, action in log if seat == 0]
    db, out_dir = tmp_path / "play.db", tmp_path / "out"
    code, out = play(monkeypatch, capsys, ["--game", "piecepack", "--seats", "human,smart", "--seed",
                                           str(PIECEPACK_SEED), "--db", str(db), "--out", str(out_dir)], mine)
    assert code == 0
    status, played = stored(db)
    assert (status, played) == ("finished", log)
    assert "=== Player 1 (Suns) to act" in out
    assert re.search(r"Place\s+Name\s+Suit\s+Trash\s+Good stuff", out)
    assert len(list((out_dir / database_folder(str(db)) / "game-1").glob("move-*.png"))) == len(log) + 1


def test_hotseat_shows_each_players_hidden_tiles_only_on_their_own_turn(tmp_path, monkeypatch, capsys):
    """Two people at one keyboard: every private block belongs to the player whose turn it is."""
    for seed in HAND_SEEDS:
        log = computers_play(tmp_path, "races", seed, laps=2)
        told = stored(tmp_path / f"computers-races-{seed}.db", narration=True)[1]
        if any("picks up a junk tile" in text for _, text in told):
            break
    else:
        pytest.fail(f"no race of seeds {HAND_SEEDS} picks up a junk tile")
    code, out = play(monkeypatch, capsys, ["--laps", "2", "--seats", "human,human", "--seed", str(seed),
                                           "--db", str(tmp_path / "play.db"), "--out", str(tmp_path / "out")],
                     [action for _, action in log])
    assert code == 0
    assert "=== Final standings ===" in out
    turn = None
    blocks = []
    for line in out.splitlines():
        if m := re.match(r"=== (.+) to act", line):
            turn = m.group(1)
        elif m := re.match(r"--- (.+?): (your hand|only)", line):
            blocks.append(m.group(1))
            assert m.group(1) == turn, f"{m.group(1)}'s private block shown while {turn} is to act"
    assert {"Player 1 (red)", "Player 2 (blue)"} <= set(blocks)
    # what a picked-up tile is shows only in a private block, never in the public narration
    picked = [i for i, line in enumerate(out.splitlines()) if "You picked up" in line]
    assert picked
    public = [line for line in out.splitlines() if "picks up a junk tile" in line and "You picked up" not in line]
    assert public and all("oil" not in line and "glue" not in line for line in public)


def test_terminal_commands_numbers_and_refusals(tmp_path, monkeypatch, capsys):
    db = tmp_path / "play.db"
    code, out = play(monkeypatch, capsys, ["--laps", "1", "--seats", "smart,human", "--seed", "5", "--db", str(db),
                                           "--out", str(tmp_path / "out")],
                     ["# a comment line", "help", "legal", "status", "hand", "log", "fly away", "99", "1", "quit"])
    assert code == 0
    assert "Commands:" in out and "legal" in out
    # the game's own commands, from the same description the Discord group is built from
    assert "The game's actions (/race on Discord):" in out and re.search(r"^  roll\s+Phase 3: roll", out, re.M)
    assert "Every legal action of Player 2 (blue)" in out
    assert "Sump Creek Loop" in out  # status
    assert "--- Player 2 (blue): your hand (only for Player 2's eyes) ---" in out
    assert "Computer 1 (smart)" in out  # the log names the computer's moves
    assert "unknown action 'fly'" in out and "Possible now:" in out
    assert "There is no number 99" in out
    assert "Stopped: game 1 waits at move" in out and f"`junkyard play --db {db}` offers to resume it" in out
    status, played = stored(db)
    assert status == "active"  # quit leaves the game as it is
    # "1" picked the first action of the list shown last: the full legal list
    first = re.search(r"Every legal action of .*\n\s+1\. (.+)", out).group(1)
    assert (1, first) in played


def test_end_of_input_stops_the_game_cleanly(tmp_path, monkeypatch, capsys):
    db = tmp_path / "play.db"
    code, out = play(monkeypatch, capsys, ["--game", "piecepack", "--db", str(db), "--out", str(tmp_path / "o")],
                     ["roll"])
    assert code == 0
    assert "End of input: game 1 waits at move" in out
    assert stored(db)[0] == "active"


def test_bad_seats_are_refused(capsys, tmp_path):
    assert main(["play", "--seats", "human,robot", "--db", str(tmp_path / "x.db")]) == 2
    assert "'robot' is not a seat" in capsys.readouterr().err
    assert main(["play", "--game", "piecepack", "--seats", "human,smart,smart,smart,smart"]) == 2
    assert "seats 2 to 4, not 5" in capsys.readouterr().err


def test_seat_specs_and_plain_text():
    assert parse_seats("human, smart,human:Ann,random", ["random", "smart"]) == [
        SeatSpec("human"), SeatSpec("smart"), SeatSpec("human", "Ann"), SeatSpec("random")]
    with pytest.raises(ValueError, match="not a seat"):
        parse_seats("human,genius", ["random", "smart"])
    said = f"{Person(1001, 'A*nn')} played `roll 2`; **Computer 1** waits. {Person(-1, 'Computer 2')}"
    assert plain(said) == "A*nn played roll 2; Computer 1 waits. Computer 2"


def test_race_shorthands_become_legal_notation():
    """A lone cell answers the start-cell question; ``move CELL`` is the whole move ending there."""
    from bot.games.races import destinations
    from rules.races import Races

    game = Races.create({"seats": [{"name": "A"}, {"name": "B"}], "options": {"track": "A", "laps": 1}}, 3)
    assert game.choice is not None
    first = game.choice.options[0]
    assert expand(game, first.lower()) == f"choose {first}"
    game.apply(f"choose {first}")
    game.apply("roll 3")
    moves = {cell: m for cell, m in destinations(game, game.legal_actions()).items() if len(m.cells) > 1}
    cell, move = next(iter(moves.items()))
    assert expand(game, f"move {cell}") == str(move)
    assert expand(game, "left") == "step left"
    assert expand(game, "roll 2") == "roll 2"  # anything else is passed on unchanged
