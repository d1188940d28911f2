"""The Rally smart driver plays legal actions only, beats the random driver in nine of ten 2-player races
(``python -m bench rally`` measures it over many more), never shifts into a range where the die may name
a broken gear while a sound one is allowed (S4), parks for the parts that mend a range, and in races of
four smart cars none stalls: every car completes laps and hardly ever mis-shifts."""

from __future__ import annotations

import collections

import pytest

from bot.drivers.base import Driver, RandomDriver
from bot.drivers.rally import DRIVERS, SmartDriver, approach, speed
from rules.rally import RallyGame, queries
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


def test_red_counts_only_through_a_sound_yellow() -> None:
    """S3: the lever goes up one range a turn, so red is reached through yellow; with yellow's gear 4 broken
    a sound red adds nothing the driver would risk a mis-shift for."""
    gears = B.parse_board("1:M 2:M 3:BE 5:BE 6:M")
    mended = B.parse_board("1:M 2:M 3:BE 4:M 5:BE 6:M")
    assert speed(gears) == speed(B.parse_board(B.DEFAULT_BOARD)) < speed(mended)


@pytest.mark.parametrize("lever", ["yellow", "red"])
def test_it_never_shifts_into_a_range_with_a_broken_gear(lever: str) -> None:
    """S4: with gear 4 (and 6) broken the die names a broken gear half the time in yellow (and red), so the
    driver stays in green, whose gears both work."""
    g = pos(cars={"red": {"at": "40a", "lever": lever, "restart": False, "board": "1:M 2:M 3:BE 5:BE 6:E"}})
    assert SmartDriver(1).choose(g, 0).startswith("roll green")


def test_it_leaves_green_when_green_has_the_broken_gear() -> None:
    """S4 the other way round: gear 2 broken, yellow sound: yellow is the safe range."""
    g = pos(cars={"red": {"at": "40a", "lever": "green", "restart": False, "board": "1:M 2:B 3:M 4:BE 5:E 6:E"}})
    assert SmartDriver(1).choose(g, 0).startswith("roll yellow")


def test_it_lines_up_for_a_workshop_that_would_mend_yellow() -> None:
    """Rule text "Parken": a car turns into a car park from the lane on its side; with gear 4 broken and the
    workshop M10 on the right two rows ahead, the right lane is worth more than the left one."""
    g = pos(cars={"red": {"at": "7a", "lever": "green"}}, phase="move", points=1)
    assert approach(g, 0, "8c") > approach(g, 0, "8b") > approach(g, 0, "8a") > 0
    assert SmartDriver(1).choose(g, 0) == "move 7b"


def smart_race(seed: int) -> tuple[RallyGame, collections.Counter[int]]:
    g = RallyGame.create({"seats": [{"name": f"P{i}"} for i in range(4)], "options": {"track": "AB"[seed % 2]}},
                         seed)
    drivers = [SmartDriver(seed * 16 + i) for i in range(4)]
    misshifts: collections.Counter[int] = collections.Counter()
    while not g.is_over:
        seat = g.to_act
        assert seat is not None
        for event in g.apply(drivers[seat].choose(g, seat)):
            if event.kind == "misshift":
                misshifts[event.seat or 0] += 1
    return g, misshifts


@pytest.mark.parametrize("seed", [0, 1])
def test_four_smart_cars_all_complete_laps_and_hardly_mis_shift(seed: int) -> None:
    """No seat stalls: in a 3-lap race of four smart cars every car completes at least one lap, and none
    mis-shifts more than a handful of times (S4)."""
    g, misshifts = smart_race(seed)
    assert all(queries.laps_done(g, s) >= 1 for s in range(4)), [queries.laps_done(g, s) for s in range(4)]
    assert max(misshifts.values(), default=0) <= 3, misshifts
