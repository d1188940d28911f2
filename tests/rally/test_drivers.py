"""The Rally smart driver plays legal actions only and beats the random driver in nine of ten 2-player
races (``python -m bench rally`` measures it over many more)."""

from __future__ import annotations

from bot.drivers.base import Driver, RandomDriver
from bot.drivers.rally import DRIVERS, SmartDriver, speed
from rules.rally import RallyGame
from rules.rally import board as B
from tests.rally.conftest import legal, pos


def race(seed: int) -> tuple[RallyGame, int]:
    smart_seat = seed % 2
    g = RallyGame.create({"seats": [{"name": "A"}, {"name": "B"}], "options": {"track": "AB"[seed // 2 % 2]}}, seed)
    drivers: dict[int, Driver] = {smart_seat: SmartDriver(seed), 1 - smart_seat: RandomDriver(seed)}
    while not g.is_over:
        seat = g.to_act
        assert seat is not None
        action = drivers[seat].choose(g, seat)
        assert action in legal(g)
        g.apply(action)
    return g, smart_seat


def test_smart_beats_random_in_nine_of_ten_races() -> None:
    wins = sum(g.winners == [seat] for g, seat in (race(seed) for seed in range(10)))
    assert wins >= 9


def test_the_unit_finds_the_smart_driver() -> None:
    assert DRIVERS["smart"] is SmartDriver


def test_a_working_part_is_worth_more_than_a_spare_one() -> None:
    gears = B.parse_board(B.DEFAULT_BOARD)
    on_gear_4 = list(gears)
    on_gear_4[3] = "M"
    on_gear_3 = list(gears)
    on_gear_3[2] = "MBE"
    assert speed(on_gear_4) > speed(on_gear_3) == speed(gears)


def test_it_parks_for_a_part_that_makes_red_work() -> None:
    """Passing the workshop with red's upper gear broken, a mechanic there beats three rows."""
    g = pos(cars={"red": {"at": "8c", "lever": "yellow"}}, phase="move", points=3)
    choice = SmartDriver(1).choose(g, 0)
    assert choice == "park M10.1 m6" or choice == "park M10.1 m4"


def test_it_takes_a_yellow_curve_in_yellow_not_red() -> None:
    g = pos(cars={"red": {"at": "11b", "lever": "yellow", "board": "1:M 2:M 3:BE 4:BE 5:BE 6:BE"}})
    assert SmartDriver(1).choose(g, 0).startswith("roll yellow")
