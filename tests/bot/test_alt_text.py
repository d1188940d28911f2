"""Every picture the bot posts carries a description (Discord's alt text, read aloud by screen readers in
the picture's place): worded from the public view in the message's language, at most 1,024 characters,
never naming a hidden tile; and the text board a player asks for (``/game board text:True``)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from bot.drivers import driver_for
from bot.games import GAMES, unit_for
from bot.games.unit import ALT_TEXT_CHARS, fitted
from rules.contract import Event
from rules.races import Races
from rules.races import texts as race_texts
from rules.races.reach import reach
from tests.bot.harness import CHANNEL_ID, DiscordHarness, Sent
from tests.bot.helpers import ANN, BOB

#: a race stated as a position: red leads with a flag on H12 and drives; a face-down magnet lies on K3 and
#: blue carries a hidden time bomb (neither may be named to anyone but blue)
STATED: dict[str, Any] = {"track": "A", "phase": "move", "points": 2, "board": {"K3": "junk:magnet", "H11": "oil"},
                          "karts": [{"colour": "red", "name": "Ann", "cell": "H12", "facing": "N", "flags": 1},
                                    {"colour": "blue", "name": "Bob", "cell": "I12", "facing": "N",
                                     "bags": {"7": ["time-bomb"]}}]}


def tile_words(kind: str) -> set[str]:
    """A tile kind's name in both languages (``magnet``, ``Magnet``), lower case."""
    return {race_texts.CATALOGUE.say(f"tile.{kind}", lang).lower() for lang in ("en", "de")}


@pytest.mark.parametrize(("lang", "cell", "leader", "turn"), [
    ("en", "H12", "Ann (red, kart 1) leads with 1 of", "Now Ann (red, kart 1) on H12: 2 points to drive"),
    ("de", "H12", "Ann (rot, Kart 1) führt mit 1 von", "Jetzt Ann (rot, Kart 1) auf H12: 2 Punkte zum Fahren")])
def test_a_stated_race_is_described_by_its_cell_leader_and_turn(lang: str, cell: str, leader: str, turn: str) -> None:
    """The picture of a stated race says whose turn it is, where they are and what they can do, and who
    leads; the others' gap follows in cells (blue is behind by most of a lap)."""
    said = unit_for("races").alt_text(Races.from_position(STATED), [], lang=lang)
    assert turn in said and leader in said and cell in said, said
    assert ("Bob (blue, kart 2)" if lang == "en" else "Bob (blau, Kart 2)") in said
    assert len(said) <= ALT_TEXT_CHARS


@pytest.mark.parametrize(("lang", "told", "gap"), [
    ("en", "Ann (red) drives 2 cells from H12 to H10.", "Bob (blue, kart 2) is "),
    ("de", "Ann (rot) fährt 2 Felder von H12 nach H10.", "Bob (blau, Kart 2) liegt ")])
def test_a_drive_is_described_by_where_it_started_and_ended(lang: str, told: str, gap: str) -> None:
    """Heard, a route cell by cell is too long: the description says the drive's start, end and length, not
    the cells between (the chat's narration still lists them), and a word parts the kart's number from its
    gap in the standings."""
    game = Races.from_position({**STATED, "board": {}})
    game.apply("move H11 H10")
    events = [Event.from_dict(e) for e in game.view(None)["events"]]
    said = unit_for("races").alt_text(game, events, lang=lang)
    assert said.startswith(told) and "H11" not in said.split(".")[0], said
    assert gap in said, said
    assert "H11, H10" in race_texts.narrate(events, "en")


def test_hidden_tiles_are_never_described() -> None:
    """The description is worded from the public view: another kind under the face-down tile and in blue's
    saddlebag changes nothing, and neither kind is named; only blue's own text board names its tile."""
    unit = unit_for("races")
    other = {**STATED, "board": {"K3": "junk:glue", "H11": "oil"},
             "karts": [STATED["karts"][0], {**STATED["karts"][1], "bags": {"7": ["acid"]}}]}
    for lang in ("en", "de"):
        said = unit.alt_text(Races.from_position(STATED), [], lang=lang)
        assert said == unit.alt_text(Races.from_position(other), [], lang=lang)
        public_board = unit.text_board(Races.from_position(STATED), None, lang=lang)
        for words in (said, public_board):
            assert not (tile_words("magnet") | tile_words("time-bomb")) & set(words.lower().replace(".", " ")
                                                                              .replace(",", " ").split()), words
    assert "time bomb" in unit.text_board(Races.from_position(STATED), 1, lang="en").lower()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_text_board_tells_every_kart_and_what_lies_next_to_it(lang: str) -> None:
    """Per kart: cell and facing, flags, and the neighbours (the oil on H11 lies north of red and north-west
    of blue; the karts stand side by side)."""
    board = unit_for("races").text_board(Races.from_position(STATED), None, lang=lang)
    red, blue = (line for line in board.splitlines() if line.startswith(("Ann", "Bob")))
    oil = race_texts.CATALOGUE.say("tile.oil", lang)
    north, north_west = (race_texts.CATALOGUE.say(f"facing.{f}", lang) for f in ("N", "NW"))
    assert "H12" in red and f"H11 ({north}): {oil}" in red and "I12" in red
    assert "I12" in blue and f"H11 ({north_west}): {oil}" in blue


def test_a_long_narration_gives_way_and_the_turn_and_standings_stay() -> None:
    """What to leave out: the narration keeps its first sentences and a "…"; the rest stays whole."""
    told = " ".join(f"Kart {i} drives over F{i}, G{i} and H{i}." for i in range(80))
    said = fitted([told, "Now Ann on H12: roll.", "Standings: Ann leads."])
    assert len(said) <= ALT_TEXT_CHARS and said.startswith("Kart 0 drives")
    assert said.endswith("… Now Ann on H12: roll. Standings: Ann leads.")
    assert fitted(["x " * 900], 100).endswith("…") and len(fitted(["x " * 900], 100)) <= 100


def descriptions(sent: list[Sent]) -> list[tuple[str, str]]:
    """(filename, description) of every picture the requests attached."""
    out = []
    for s in sent:
        if not s.files:
            continue
        attached = {a.get("filename"): a.get("description") or "" for a in s.body.get("attachments") or []}
        out += [(name, attached.get(name, "")) for name, _ in s.files]
    return out


async def play(h: DiscordHarness, key: str, lang: str, moves: int = 60) -> list[Sent]:
    """Ann and Bob (their Discord in ``lang``) play ``key`` for ``moves`` moves, ask for the board, its text
    and the status, then the game is ended; every request the bot made."""
    h.guild_locale = lang
    h.locales.update({ANN: lang, BOB: lang})
    bot: Any = h.bot
    service = bot.service
    await h.slash(ANN, "game new", game=key, laps=1)
    await h.slash(ANN, "game join")
    await h.slash(BOB, "game join")
    await h.slash(ANN, "game start")
    users = {0: ANN, 1: BOB}
    drivers = {seat: driver_for(key, "smart", 3 + seat) for seat in users}
    for turn in range(moves):
        _, game, _ = await service.current(CHANNEL_ID)
        if game is None or game.is_over:
            break
        seat = game.to_act
        await h.slash(users[seat], "game play", action=str(drivers[seat].choose(game, seat)))
        if turn == 5:
            await h.slash(ANN, "game board")
            await h.slash(ANN, "game board", private=True)
            await h.slash(ANN, "game status")
    bot.outbox.clock = lambda: time.time() + 60
    await bot.outbox.flush()
    return list(h.sent)


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("module", GAMES)
async def test_every_picture_through_discord_carries_a_description(h: DiscordHarness, module: str, lang: str) -> None:
    """Through the offline Discord stack: every attached picture has a description of at most 1,024
    characters, in the reader's language; a race's names no hidden tile."""
    key = unit_for(module.rsplit(".", 1)[-1]).key
    sent = await play(h, key, lang)
    described = descriptions(sent)
    assert len(described) > 5, described
    for name, words in described:
        assert words and len(words) <= ALT_TEXT_CHARS, (name, words)
    if key == "races":
        _, game, _ = await h.bot.service.current(CHANNEL_ID)  # type: ignore[attr-defined]
        hidden = {t.kind for t in (game.board.values() if game else ()) if t.face_down}
        public = " ".join(s.content for s in sent if not s.ephemeral).lower()
        for kind in hidden:
            for word in tile_words(kind) - {w for w in tile_words(kind) if w in public}:
                assert all(word not in d.lower() for _, d in described), (kind, word)


async def test_the_text_board_is_private_and_in_words(h: DiscordHarness) -> None:
    """``/game board text:True``: the position in words, only for the asker, in their language, no picture."""
    await h.slash(ANN, "game new", game="races", track="A", laps=1)
    await h.slash(BOB, "game join")
    await h.slash(ANN, "game start")
    h.locales[BOB] = "de"
    answer = [s for s in await h.slash(BOB, "game board", text=True) if s.content]
    assert len(answer) == 1 and answer[0].ephemeral and not answer[0].files
    assert "Kart 2" in answer[0].content and "Stand:" in answer[0].content, answer[0].content


def test_events_keep_their_public_words() -> None:
    """The description tells only public events: an event's secret (what only its player saw) is left out."""
    game = Races.from_position(STATED)
    secret = Event("said", "Bob draws a tile.", 1, {}, secret="time bomb")
    assert "time bomb" not in unit_for("races").alt_text(game, [secret], lang="en")


#: a rally stated as a position: red leads by laps on 12a and is to roll on yellow; blue has a stop more,
#: parked in the pit lane's spot 1
RALLY: dict[str, Any] = {"players": ["Ann", "Bob"], "track": "A", "direction": "clockwise", "laps": 3,
                         "cars": {"red": {"at": "12a", "lap": 2, "lever": "yellow", "stops": 1},
                                  "blue": {"at": "pit.1", "lap": 1, "stops": 2, "parked": 1}},
                         "order": ["red", "blue"], "to_act": "red", "round": 4}


@pytest.mark.parametrize(("lang", "turn", "lead", "parked"), [
    ("en", "Now Red (Ann), on 12a, lever on yellow: shift and roll.",
     "Standings: Red (Ann) leads with 1 of 3 laps done and 1 stop",
     "Blue (Bob) is parked in pit spot 1, with 2 stops"),
    ("de", "Jetzt Rot (Ann), auf 12a, Hebel auf gelb: schalten und würfeln.",
     "Stand: Rot (Ann) führt mit 1 von 3 Runden und 1 Stopp",
     "Blau (Bob) steht geparkt auf Boxenplatz 1, mit 2 Stopps")])
def test_a_stated_rally_is_described_turn_first_and_standings_in_one_sentence(lang: str, turn: str, lead: str,
                                                                              parked: str) -> None:
    """The rally's picture says whose turn it is, where and what they can do, then the standings (S8) in one
    sentence; places are words (no ``pit.1`` nor ``1/3``), and the track's name, gears and fuel are left out."""
    from rules.rally.game import RallyGame

    said = unit_for("rally").alt_text(RallyGame.from_position(RALLY), [], lang=lang)
    assert said.startswith(turn) and lead in said and parked in said, said
    assert "pit.1" not in said and "/" not in said and "·" not in said, said


#: a one-lap rally stated as a position: red, on 2b with 3 points to drive, is about to cross the finish
RALLY_FINISH: dict[str, Any] = {"players": ["Ann", "Bob"], "track": "A", "direction": "clockwise", "laps": 1,
                                "cars": {"red": {"at": "2b", "lap": 1, "lever": "yellow"},
                                         "blue": {"at": "40a", "lap": 1}},
                                "order": ["red", "blue"], "to_act": "red", "phase": "move", "points": 3}


@pytest.mark.parametrize(("lang", "ending"), [
    ("en", "The race is over: Red (Ann) won and stands on 5b, past the finish line."),
    ("de", "Das Rennen ist vorbei: Rot (Ann) hat gewonnen und steht auf 5b, hinter der Ziellinie.")])
def test_the_game_over_picture_is_described_as_the_finish_it_shows(lang: str, ending: str) -> None:
    """S8: the first car to finish its laps wins; the last picture is a close-up of the finish, so its
    description says where the winner's car stands past the line, and the picture frames that car."""
    from render.rally.chat import chat_frame
    from render.rally.layout import layout_for
    from render.rally.picture import place_point
    from rules.rally.game import RallyGame

    game = RallyGame.from_position(RALLY_FINISH)
    events = game.apply("move 5b")
    assert game.is_over and game.winners == [0]
    said = unit_for("rally").alt_text(game, events, lang=lang)
    assert ending in said and "whole track" not in said, said
    x0, y0, x1, y1 = chat_frame(game.view(None)).box
    x, y = place_point(layout_for(game.track), game.track, True, "5b")[0]
    assert x0 < x < x1 and y0 < y < y1


@pytest.mark.parametrize(("lang", "head", "far", "within"), [
    ("en", "Where Ann (red, kart 1) can go from H12 with 2 points: it can end on ",
     "The farthest along the track is ", "Within reach: a face-down tile on H10"),
    ("de", "Wohin Ann (rot, Kart 1) von H12 mit 2 Punkten kommt: auf ",
     "Am weitesten auf der Strecke liegt ", "In Reichweite: ein verdecktes Plättchen auf H10")])
def test_the_reach_picture_says_where_the_kart_can_go_in_words(lang: str, head: str, far: str, within: str) -> None:
    """"Where can I go?": its description says from where and with how many points, how many cells the kart
    can end on and pass, the farthest one, and what lies within reach; a face-down tile only as one (the
    magnet under it is not named)."""
    game = Races.from_position({**STATED, "board": {"H10": "junk:magnet"}})
    drawn = unit_for("races").reach_picture(game, 0, lang)
    assert drawn is not None and drawn.png.startswith(b"\x89PNG")
    said = drawn.description
    assert said.startswith(head) and far in said and within in said, said
    ends = {c.label for c in reach(game).ends}
    assert said.split(far)[1].split(".")[0] in ends
    assert not tile_words("magnet") & set(said.lower().replace(".", " ").split()), said


@pytest.mark.parametrize(("lang", "turn", "standing"), [
    ("en", "Now Moons (Player 2), on a5: roll the die.", "Standings: Suns (Player 1) on c1 with 3 pieces of trash"),
    ("de", "Jetzt Monde (Player 2), auf a5: würfeln.", "Stand: Sonnen (Player 1) auf c1 mit 3 Stück Müll")])
def test_a_stated_piecepack_game_is_described_with_trash_counted(lang: str, turn: str, standing: str) -> None:
    """The piecepack picture says whose turn it is, where and what they do, then every seat's square and
    how many pieces of trash it holds: counted, not read out as codes (``SA SB``)."""
    from rules.piecepack import PiecepackGame

    game = PiecepackGame.from_position({"players": ["Player 1", "Player 2"],
                                        "pawns": {"Suns": "c1", "Moons": "a5"}, "to_act": "Moons"})
    said = unit_for("piecepack").alt_text(game, [], lang=lang)
    assert said.startswith(turn) and standing in said, said
    assert "SA" not in said.split() and "MA" not in said.split(), said
