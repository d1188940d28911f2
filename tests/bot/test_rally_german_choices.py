"""The rally's choices offered while typing, for a German player: the way to a destination says "über",
the parking spots and their placements are worded in German; the values stay the notation typed."""

from __future__ import annotations

from bot.games.rally.commands import ac_items, ac_move, ac_range, ac_spot
from bot.games.unit import Ask
from rules.rally import RallyGame
from tests.rally.conftest import pos


def _ask(game: RallyGame, current: str = "", lang: str = "de", **values: str) -> Ask:
    return Ask(game=game, seat=game.to_act, current=current, values=values, legal_of=game.legal_actions, lang=lang)


def _at_the_pit() -> RallyGame:
    """Red's move of 4 from 29c: the stop sign and the pit lane are in reach (rule text "Boxengasse")."""
    return pos(players=3, to_act="red", phase="move", points=4,
               cars={"red": {"at": "29c", "lever": "yellow", "restart": False, "fuel": 1,
                             "board": "1:M 2:M 3:BE 4:BE 5:B"}})


def test_a_destination_says_its_way_in_german() -> None:
    assert ac_move(_ask(_at_the_pit(), "st")) == [("stop: über 30c pit, hält am Stoppschild", "stop")]
    assert ac_move(_ask(_at_the_pit(), "st", lang="en")) == [("stop: via 30c pit, halts at the stop sign", "stop")]


def test_parking_spots_and_placements_read_german() -> None:
    spots = ac_spot(_ask(_at_the_pit()))
    assert [v for _, v in spots] == ["pit.2", "pit.1"] and spots[0][0] == "pit.2: Boxengasse, am besten m6"
    items = ac_items(_ask(_at_the_pit(), spot="pit.1"))
    assert items[0] == ("m6: Mechaniker auf Gang 6 (am besten)", "m6")
    for name, _ in spots + items:
        assert ", best " not in name and "(best)" not in name and " on gear" not in name, name


def test_the_lever_ranges_say_which_gears_work_in_german() -> None:
    game = pos(players=3, to_act="red", phase="turn", cars={"red": {"lever": "green", "restart": False}})
    ranges = ac_range(_ask(game))
    assert ranges and all("funktionier" in name for name, _ in ranges), ranges
