"""The Schrottplatz Rally unit: registered in the one list of games, its setup options (S1, S8, setup step
2), buttons and shorthands drawn from the legal actions, narration and refusals in English and German,
the standings with the stop counter (S8), the replay, ``junkyard play`` from standard input and
``junkyard demo``. Situations are stated in the position format."""

from __future__ import annotations

import io
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import bot.games as games
import rules.registry
from bot.cli import main
from bot.drivers import driver_for, driver_kinds
from bot.drivers.rally import SmartDriver
from bot.games.rally import GAME
from bot.games.rally.commands import RALLY_COMMANDS, ac_items, ac_move, ac_range, ac_spot
from bot.games.rally.setup import setup_options, starting_boards
from bot.games.rally.words import language, narrate, refusal
from bot.games.unit import Ask, Refusal
from bot.terminal import database_folder
from rules.contract import IllegalAction, NotationError, SetupError
from rules.rally import RallyGame
from rules.rally import board as B
from tests.rally.conftest import legal, pos

# The unit in the registry ------------------------------------------------------------------------------


def test_the_rally_is_one_of_the_games() -> None:
    assert games.unit_for("rally") is GAME and games.resolve("Schrottplatz Rally") == "rally"
    assert games.game_class("rally") is RallyGame and "rally" in games.playable_keys()
    assert driver_kinds("rally") == ["random", "smart"] and isinstance(driver_for("rally", "smart"), SmartDriver)
    assert GAME.has_replay and GAME.players == 3
    assert rules.registry.lookup_sources()["rally"] == ("rules.rally", ("data", "lookup.toml"))


# Setup -----------------------------------------------------------------------------------------------


def test_setup_defaults_three_laps_track_a_clockwise() -> None:
    """S8: three laps unless agreed otherwise; S1: the direction is chosen at setup."""
    opts, notes = GAME.setup_options({})
    assert opts == {"laps": 3} and notes == []
    game = RallyGame.create({"seats": ["Ann", "Bob"], "options": opts}, 1)
    assert (game.laps, game.track.alias, game.clockwise) == (3, "A", True)


def test_setup_options_are_checked_and_normalised() -> None:
    opts = setup_options({"track": "kurbelwellen-kurs", "laps": 5, "direction": "ACW", "board": "5:eb 1:M 2:m 3:BE"})
    assert opts == {"track": "B", "laps": 5, "direction": "anticlockwise", "boards": "1:M 2:M 3:BE 5:BE"}
    opts, notes = GAME.setup_options({"laps": 1, "crew": True})
    assert opts["laps"] == 1 and notes == ["`crew` is not used by Schrottplatz Rally; ignored."]


@pytest.mark.parametrize(("raw", "words"), [
    ({"laps": 6}, "from 1 to 5"), ({"laps": 0}, "from 1 to 5"), ({"laps": "three"}, "whole number"),
    ({"track": "C"}, "no track 'C'"), ({"direction": "up"}, "clockwise or anticlockwise"),
    ({"board": "1:M 2:M"}, "on its board, not 0 (setup step 2)"),
    ({"board": "1:M 2:M 3:B 4:E 5:BE"}, "the yellow range needs a working gear"),
])
def test_bad_setup_options_are_refused(raw: dict[str, Any], words: str) -> None:
    with pytest.raises(SetupError, match=re.escape(words)):
        GAME.setup_options(raw)


def test_a_seat_brings_its_own_starting_board() -> None:
    """Setup step 2: each player places their car's parts; ``/game join board:`` is checked like the game's
    board and carried in the seat, which the rules read before the game's board and the default."""
    seat, notes = GAME.seat_options({"board": " 5:eb 1:M 2:m 3:BE "}, {"laps": 3}, [])
    assert seat == {"board": "1:M 2:M 3:BE 5:BE"} and notes == []
    assert GAME.seat_options({}, {}, []) == ({}, [])
    with pytest.raises(SetupError, match=re.escape("`board`: a car starts with 2 mechanics on its board, not 1")):
        GAME.seat_options({"board": "1:M 2:BE 3:BE 5:BE"}, {}, [])
    assert [o.name for o in GAME.join_options] == ["board"]


def test_every_offered_starting_board_is_legal_and_the_default_comes_first() -> None:
    """Setup step 2: 2 mechanics, 2 body and 2 engine parts, a working gear in every range."""
    boards = starting_boards()
    assert boards[0] == B.DEFAULT_BOARD and len(set(boards)) == len(boards) > 20
    for text in boards:
        assert B.check_start_board(B.parse_board(text)) is None, text
    names = [value for _, value in GAME.choices("board", "3:M")]
    assert names and "3:M" in names[0] and len(names) <= 25


# Buttons and shorthands ------------------------------------------------------------------------------


def test_first_round_buttons_roll_green_only() -> None:
    """S3: the lever must be green in the first round; the booster needs a fuel can."""
    game = RallyGame.create({"seats": ["Ann", "Bob", "Cy"], "options": {}}, 3)
    seat = game.to_act
    assert seat is not None
    assert [(b.label, b.action) for b in GAME.buttons(game, seat)] == [
        ("Roll green", "roll green"), ("Roll green + boost", "roll green boost")]
    assert GAME.buttons(game, (seat + 1) % 3) == []  # not their turn


def test_roll_buttons_follow_the_lever_and_its_working_gears() -> None:
    """S3: up one range at most, down any number; never a range without a working gear. The kept lever is
    the primary button; German labels for a German player."""
    game = pos(cars={"red": {"at": "12a", "lever": "yellow", "restart": False, "board": "1:M 2:M 3:BE 5:BE"}})
    buttons = GAME.buttons(game, 0)
    assert [b.action for b in buttons] == ["roll green", "roll yellow", "roll red", "roll green boost",
                                           "roll yellow boost", "roll red boost"]
    assert [b.style for b in buttons[:3]] == ["secondary", "primary", "secondary"]
    assert {b.action for b in buttons} <= legal(game)
    assert GAME.buttons(game, 0, "de")[2].label == "Würfeln rot"
    no_fuel = pos(cars={"red": {"at": "12a", "lever": "green", "restart": False, "fuel": 0,
                                "board": "1:M 2:M 3:BE 5:B 6:E"}})
    assert [b.action for b in GAME.buttons(no_fuel, 0)] == ["roll green", "roll yellow"]


def test_a_car_due_for_repairs_has_a_repair_button() -> None:
    """S6 / rule text "Fahrbereitschaft": roll green at once, or wait a round for gear 2 too."""
    game = pos(cars={"red": {"at": "F7.1", "repair": 1, "board": "3:BE 5:BE 6:M", "restart": True}})
    assert [b.action for b in GAME.buttons(game, 0)] == ["roll green", "roll green boost", "repair"]
    assert "repairs due" in GAME.situation(game)


def test_move_buttons_are_the_best_destinations_and_the_parking_spots() -> None:
    """After the roll: the best few cells and the car-park spots within reach (rule text "Parken": a car may
    brake to park), each a legal action, best first (gear 4 is broken, so lining up on the right lane for
    the workshop M10 comes first)."""
    game = pos(players=["Ann", "Bob", "Cy"], to_act="Ann", phase="move", points=3,
               cars={"Ann": {"at": "5a", "lever": "yellow", "restart": False}, "Bob": {"at": "9b"},
                     "Cy": {"at": "12c"}})
    buttons = GAME.buttons(game, 0)
    assert [b.action for b in buttons] == ["move 6c", "move 7b", "move 8a", "move 6a", "park F7.1", "park F7.2"]
    assert buttons[0].label == "→ 6c" and buttons[-1].label == "Park F7.2"
    assert {b.action for b in buttons} == legal(game)


def test_a_pit_stop_button_places_what_helps_most() -> None:
    """Rule text "Boxengasse": a mechanic or two parts; the button offers the placement that mends the most
    (here a mechanic on gear 6, which had nothing); the other placements stay legal through /rally park."""
    game = pos(players=3, to_act="red", phase="move", points=4,
               cars={"red": {"at": "29c", "lever": "yellow", "restart": False, "fuel": 1,
                             "board": "1:M 2:M 3:BE 4:BE 5:B"}})
    buttons = GAME.buttons(game, 0)
    pits = [b for b in buttons if b.action.startswith("park pit.")]
    assert [b.label for b in pits] == ["Pit spot 2: m6", "Pit spot 1: m6"]
    assert {b.action for b in buttons} <= legal(game) and len(buttons) <= 8
    assert len(legal(game)) > 20  # every placement is legal; only the best ones are buttons


def test_spins_are_marked_on_their_buttons() -> None:
    """S5: a destination where the car would spin is shown as such."""
    game = pos(to_act="red", phase="move", points=6,
               cars={"red": {"at": "7a", "lever": "red", "restart": False, "board": "1:M 2:M 3:BE 6:BE"}})
    spins = [b for b in GAME.buttons(game, 0) if "spin" in b.label]
    assert spins and all(b.style == "danger" for b in spins)
    assert all(game.endings()[b.action.split()[1]].kind == "spin" for b in spins)


def test_shorthands_at_the_terminal() -> None:
    game = pos(cars={"red": {"at": "12a", "lever": "yellow", "restart": False}})
    assert GAME.expand(game, "y") == "roll yellow"
    assert GAME.expand(game, "r+") == "roll red boost"
    assert GAME.expand(game, "roll") == "roll yellow" and GAME.expand(game, "boost") == "roll yellow boost"
    assert GAME.expand(game, "gelb b") == "roll yellow boost"
    assert GAME.expand(game, "move 14b") == "move 14b"
    parking = pos(players=3, to_act="red", phase="move", points=4,
                  cars={"red": {"at": "29c", "lever": "yellow", "restart": False, "fuel": 1,
                                "board": "1:M 2:M 3:BE 4:BE 5:B"}})
    assert GAME.expand(parking, "pit.1") == "park pit.1 m6"
    assert GAME.expand(parking, "park pit.2") == "park pit.2 m6"
    assert GAME.expand(parking, "park pit.2 e1 e5") == "park pit.2 e1 e5"


def test_short_list_offers_every_destination_once_best_first() -> None:
    game = pos(players=3, to_act="red", phase="move", points=4,
               cars={"red": {"at": "29c", "lever": "yellow", "restart": False, "fuel": 1,
                             "board": "1:M 2:M 3:BE 4:BE 5:B"}})
    items = GAME.short_list(game, 0)
    ends = [a.split()[1] for a, _ in items]
    assert sorted(ends) == sorted(game.endings()) and all(a in legal(game) for a, _ in items)
    assert items[0][1] == "via 30c pit, pit lane: mechanic on gear 6"
    assert dict(items)["move stop"] == "via 30c pit, halts at the stop sign"
    assert GAME.situation(game) == "Round 2: gear 4 (yellow): drive 4"


def test_the_car_board_as_text() -> None:
    """S2, S7: gears and what makes them work, fuel, stops, and the reserve."""
    game = pos(players=["Ann", "Bob"], cars={"Ann": {"at": "F7.1", "stops": 1, "fuel": 3}})
    text = GAME.hand_text(game, 0)
    assert text.startswith("Your car: Red (Ann), at F7.1 (petrol station, parked), 0/3 laps done.")
    assert "Gears 1:M✓ 2:M✓ 3:BE✓ 4:- 5:BE✓ 6:-" in text and "Fuel cans 3. Stops 1." in text
    assert "Reserve: 4 mechanics, 4 body parts, 4 engine parts, 0 fuel cans." in text


# Words in two languages ------------------------------------------------------------------------------


def test_a_turn_is_narrated_in_english_and_in_german() -> None:
    game = pos(players=["Ann", "Bob"], cars={"Ann": {"at": "5a"}, "Bob": {"at": "9b"}}, to_act="Ann", load=[2, 1])
    events = game.apply("roll yellow boost")
    assert narrate(events) == ("Red (Ann) shifts to yellow. Red (Ann) spends a fuel can on the booster (1 left). "
                               "Red (Ann) rolls 2: gear 3 (yellow).")
    assert narrate(events, "de") == ("Rot (Ann) schaltet auf gelb. Rot (Ann) opfert einen Benzinkanister für den "
                                     "Booster (noch 1). Rot (Ann) würfelt 2: Gang 3 (gelb).")
    assert GAME.narrate(game.apply("move 8a"), "de").startswith(
        "Rot (Ann) fährt 3 Felder, von 5a bis 8a. Rot (Ann) würfelt mit")


def test_the_start_grid_is_narrated_in_german_without_english_words() -> None:
    """Setup step 5: a roll-off, ties rolled again; the lists of cars are worded in German too."""
    game = RallyGame.create({"seats": ["Ann", "Bob", "Cy"], "options": {}}, 1)
    assert any(e.kind == "grid_tie" for e in game.events)
    german = narrate(game.events, "de")
    assert "würfeln ihre Plätze neu aus" in german and "Startaufstellung: 1. " in german
    for english in ("Red", "Blue", "rolls", "Start grid", "tie"):
        assert english not in german, english
    assert "Start grid: 1. " in narrate(game.events)


def test_a_repair_is_narrated_with_german_part_names() -> None:
    game = pos(cars={"red": {"at": "F7.1", "repair": 1, "board": "3:BE 5:BE 6:M", "restart": True}}, load=[1])
    text = narrate(game.apply("repair"), "de")
    assert "repariert Gang 1 (Karosserieteil + Motorteil)" in text and "body" not in text


def test_refusals_in_german_and_english() -> None:
    """Refusals of the rules (here S3: green when starting off) and notation errors come from the
    catalogue, in the player's language."""
    game = RallyGame.create({"seats": ["Ann", "Bob"], "options": {}}, 3)
    with pytest.raises(IllegalAction) as caught:
        game.apply("roll red")
    assert refusal(caught.value).startswith("Starting off, the lever must be on green, not red.")
    assert GAME.refusal(caught.value, "de").startswith("Beim Anfahren muss der Hebel auf grün stehen, nicht auf rot.")
    with pytest.raises(NotationError) as bad:
        game.apply("fly away")
    assert refusal(bad.value).startswith("Unknown action 'fly'")
    assert refusal(bad.value, "de").startswith("Unbekannte Aktion 'fly'")


@pytest.mark.parametrize(("locale", "lang"), [("de", "de"), ("de-AT", "de"), ("en-US", "en"), ("fr", "en"),
                                              (None, "en")])
def test_discord_locales_choose_the_language(locale: str | None, lang: str) -> None:
    assert language(locale) == lang == GAME.language(locale)


# Status and standings --------------------------------------------------------------------------------


def test_standings_put_fewer_stops_ahead_on_equal_laps() -> None:
    """S8: laps first; on equal laps the stop counter breaks the tie (fewer stops ahead), shown in the
    standings, whatever the places on the track."""
    game = pos(players=["Ann", "Bob", "Cy"], laps=3,
               cars={"Ann": {"at": "30a", "lap": 2, "stops": 2}, "Bob": {"at": "10a", "lap": 2, "stops": 0},
                     "Cy": {"at": "40b", "lap": 3, "stops": 4}})
    table = GAME.standings(game)
    assert table.head == ("Name", "Car", "Laps done", "Stops", "At")
    assert [(seat, cells[2], cells[3]) for seat, cells in table.rows] == [(2, "2/3", "4"), (1, "1/3", "0"),
                                                                          (0, "1/3", "2")]
    status = GAME.describe(game, None).splitlines()
    assert status[1] == "1. Orange (Cy): laps 2/3 · stops 4 · at 40b · lever green · gears 1 2 3 5 · fuel 2"
    assert status[2].startswith("2. Blue (Bob): laps 1/3 · stops 0") and status[3].startswith("3. Red (Ann)")


def test_status_in_german_with_the_parking_bar() -> None:
    """S9: parked cars follow the others, in the order they parked; the status says so in German too."""
    game = pos(players=["Ann", "Bob", "Cy"], to_act="Ann",
               cars={"Ann": {"at": "30a"}, "Bob": {"at": "F7.1", "repair": 1, "board": "3:BE 5:BE 6:M"},
                     "Cy": {"at": "40b"}})
    lines = GAME.describe(game, 0, "de").splitlines()
    assert lines[0].startswith(
        "**Schrottplatz Rally** · Rostbogen-Ring (A) · Durchgang 2 · 3 Runden · im Uhrzeigersinn")
    assert "Blau (Bob): Runden 0/3 · Stopps 0 · auf F7.1 · Hebel grün · Gänge 3 5 6 · Benzin 2 · geparkt · " \
           "Reparatur fällig" in lines[3]
    assert lines[4] == "Zugreihenfolge: Rot, Orange · Parkleiste: Blau"
    assert lines[5] == "Rot (Ann): schalten und würfeln"
    assert lines[6] == "Deine Befehle: `/rally roll`, `/rally shift`, `/rally boost`"


def test_progress_line_per_car() -> None:
    game = pos(players=2, laps=1, cars={"red": {"at": "30a", "lap": 1, "stops": 1}})
    line, key = GAME.progress(game)
    assert re.search(r"red \[#{4,6}-+\] 0/1 s1\s+blue \[-+\] 0/1 s0", line) and key == ((0, 1), (0, 0))


# The replay ------------------------------------------------------------------------------------------


def test_the_replay_has_a_frame_per_action_and_one_palette() -> None:
    setup = {"seats": [{"name": "A"}, {"name": "B"}], "options": {"laps": 1}}
    game = RallyGame.create(setup, 9)
    driver = SmartDriver(9)
    actions = []
    for _ in range(12):
        assert game.to_act is not None
        action = driver.choose(game, game.to_act)
        game.apply(action)
        actions.append(action)
    made = GAME.replay(setup, 9, actions)
    assert made is not None
    data, frames = made
    assert frames == len(actions) + 1
    gif: Any = Image.open(io.BytesIO(data))
    assert gif.format == "GIF" and gif.n_frames >= 2 and gif.size[0] < 1572  # scaled down from the board
    gif.seek(gif.n_frames - 1)
    assert gif.info.get("duration") == 4000


# The terminal and the demo ---------------------------------------------------------------------------


def test_a_person_races_two_computers_to_the_end_in_the_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """``junkyard play --game rally``: each turn the first of the numbered list (the best roll or
    destination), read from standard input, until a car finishes its lap."""
    db, out_dir = tmp_path / "rally.db", tmp_path / "pictures"
    monkeypatch.setattr("sys.stdin", io.StringIO("hand\ny\n" + "1\n" * 400))
    code = main(["play", "--game", "rally", "--seats", "human:Ann,smart,smart", "--laps", "1", "--seed", "6",
                 "--db", str(db), "--out", str(out_dir)])
    out = capsys.readouterr().out
    assert code == 0, out[-2000:]
    with sqlite3.connect(db) as con:
        status, version = con.execute("SELECT status, version FROM games ORDER BY id DESC").fetchone()
    assert status == "finished"
    assert "=== Ann (red) to act (move 0) ===" in out and "Your car: Red (Ann)" in out
    assert "1. roll green   (gears 1 and 2 work)" in out
    assert re.search(r"^Place\s+Name\s+Car\s+Laps done\s+Stops\s+At\n1\s+\S.*\s1/1\s", out, re.M)
    assert len(list((out_dir / database_folder(str(db)) / "game-1").glob("move-*.png"))) == version + 1


def test_computers_race_in_the_demo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_dir = tmp_path / "demo"
    assert main(["demo", "--game", "rally", "--seats", "2", "--laps", "1", "--seed", "4", "--out", str(out_dir)]) == 0
    captured = capsys.readouterr()
    assert "Schrottplatz Rally on Rostbogen-Ring (A), clockwise: 2 smart computers, 1 lap, seed 4." in captured.out
    over = re.search(r"The game is over after (\d+) moves", captured.out)
    assert over is not None
    moves = int(over.group(1))
    assert re.search(r"^Place\s+Name\s+Car\s+Laps done\s+Stops\s+At$", captured.out, re.M)
    assert 0 < len(list(out_dir.glob("message-*.png"))) <= moves  # the channel's messages: one a turn
    assert (out_dir / "replay.gif").stat().st_size > 0 and f"{moves + 1} frames" in captured.out
    assert re.search(r"move\s+\d+\s+red \[[#-]{10}\] \d/1 s\d", captured.err)


# The /rally commands as data -------------------------------------------------------------------------


def _ask(game: RallyGame, current: str = "", **values: Any) -> Ask:
    return Ask(game=game, seat=game.to_act, current=current, values=values, legal_of=game.legal_actions)


def test_park_and_move_commands_build_the_notation() -> None:
    """Rule text "Boxengasse": a park without placements takes the one that helps most; a path is passed on
    for the rules to check; a spot typed into `move` is pointed to `park`."""
    game = pos(players=3, to_act="red", phase="move", points=4,
               cars={"red": {"at": "29c", "lever": "yellow", "restart": False, "fuel": 1,
                             "board": "1:M 2:M 3:BE 4:BE 5:B"}})
    park, move = RALLY_COMMANDS.command("park").play, RALLY_COMMANDS.command("move").play
    assert park is not None and move is not None
    assert park(_ask(game, spot="PIT.1")) == "park pit.1 m6"
    assert park(_ask(game, spot="pit.1", items="E1, e5")) == "park pit.1 e1 e5"
    assert move(_ask(game, to="30c 31c 32c 33c")) == "move 30c 31c 32c 33c"
    assert game.parse_action("move 30c 31c 32c 33c") == game.parse_action("move 33c")
    with pytest.raises(Refusal, match="is a parking spot"):
        move(_ask(game, to="pit.2"))


def test_park_autocomplete_lists_spots_then_their_placements_best_first() -> None:
    game = pos(players=3, to_act="red", phase="move", points=4,
               cars={"red": {"at": "29c", "lever": "yellow", "restart": False, "fuel": 1,
                             "board": "1:M 2:M 3:BE 4:BE 5:B"}})
    spots = ac_spot(_ask(game))
    assert [v for _, v in spots] == ["pit.2", "pit.1"] and spots[0][0] == "pit.2: pit lane, best m6"
    items = ac_items(_ask(game, spot="pit.1"))
    # S10: a mechanic (4 free gears), two body parts (3 pairs of free places) or two engine parts (6 pairs)
    assert items[0] == ("m6: mechanic on gear 6 (best)", "m6") and len(items) == 4 + 3 + 6
    assert {v for _, v in ac_items(_ask(game, "e5", spot="pit.1"))} == {"e1 e5", "e2 e5", "e5 e6", "m5"}
    moves = ac_move(_ask(game, "st"))
    assert moves == [("stop: via 30c pit, halts at the stop sign", "stop")]
    assert ac_range(_ask(game)) == []  # the roll is made: no range to choose
