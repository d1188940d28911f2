"""One test (or a few) per section of the Schrottplatz Rally rule text and per ruling S1–S14.

Sections are named by their German titles; every situation is stated with the position format.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from rules import IllegalAction, SetupError, game_class
from rules.rally import RallyGame, find_track, queries
from rules.rally import board as B
from tests.rally.conftest import cells, kinds, legal, pos, setup


def play_others(g: RallyGame, seat: int) -> None:
    """The other cars take their turns (first legal action) until ``seat`` is to act."""
    while g.to_act != seat:
        g.apply(g.legal_actions()[0])


# Spielvorbereitung und -aufbau / S7 -------------------------------------------------------------------


def test_registered_under_the_rally_key() -> None:
    assert game_class("rally") is RallyGame
    assert (RallyGame.min_seats, RallyGame.max_seats) == (2, 6)


def test_spielvorbereitung_s7_each_player_owns_8_6_6_3() -> None:
    """Spielvorbereitung, S7: 8 mechanics (2 on the counters, 2 on the car, 4 in reserve), 6 body parts,
    6 engine parts, 3 fuel cans (2 on the car)."""
    g = RallyGame.create(setup(3), seed=4)
    for car in g.cars:
        assert B.count(car.gears, "M") == 2 and B.count(car.gears, "B") == 2 and B.count(car.gears, "E") == 2
        assert car.fuel == 2
        assert car.reserve() == {"mechanic": 4, "body": 4, "engine": 4, "fuel": 1}


def test_s7_a_spot_gives_only_from_the_reserve() -> None:
    """S7: with no engine part left in reserve, the warehouse gives nothing."""
    g = pos(cars={"red": {"at": "17a", "board": "1:BE 2:BE 3:BE 4:BE 5:BE 6:BE"}}, phase="move", points=2)
    assert g.cars[0].reserve()["engine"] == 0
    assert "park E18.1" in legal(g)
    events = g.apply("park E18.1")
    assert "take_none" in kinds(events)
    assert g.cars[0].reserve()["engine"] == 0


# Vor der ersten Runde ---------------------------------------------------------------------------------


def test_vor_der_ersten_runde_step2_board_needs_a_working_gear_per_range() -> None:
    """Setup step 2: two mechanics, two body and two engine parts, each range with a working gear."""
    g = RallyGame.create(setup(2, boards=["2:M 4:M 5:BE 1:BE", ""]), seed=1)
    assert g.cars[0].gears == ["BE", "M", "", "M", "BE", ""]
    assert g.cars[1].gears == B.parse_board(B.DEFAULT_BOARD)
    with pytest.raises(SetupError, match="red range needs a working gear"):
        RallyGame.create(setup(2, boards=["1:M 2:M 3:BE 4:BE"]), seed=1)
    with pytest.raises(SetupError, match="2 mechanics"):
        RallyGame.create(setup(2, boards=["1:M 3:BE 5:BE"]), seed=1)


def test_vor_der_ersten_runde_steps3_4_two_fuel_cans_and_the_lever_on_green() -> None:
    g = RallyGame.create(setup(2), seed=2)
    assert all(c.fuel == 2 and c.lever == "green" for c in g.cars)


def test_vor_der_ersten_runde_step2_each_seat_places_its_own_parts() -> None:
    """Setup step 2: each player places their parts so every range has a working gear; a seat's own board
    wins over the game's ``boards`` option, which wins over the default (decision 25)."""
    seats = [{"name": "Ann", "board": "1:M 3:M 2:BE 5:BE"}, {"name": "Bob"}, {"name": "Cy", "board": ""}]
    g = RallyGame.create({"seats": seats, "options": {"boards": ["", "1:M 2:M 4:BE 6:BE"]}}, 1)
    assert [B.board_text(c.gears) for c in g.cars] == ["1:M 2:BE 3:M 5:BE", "1:M 2:M 4:BE 6:BE", B.DEFAULT_BOARD]
    for bad, words in (("1:M 2:M 3:BE 5:B 6:E", "the red range needs a working gear"),
                       ("1:MBE 3:M 5:B", "a car starts with 2 engine parts on its board, not 1"),
                       ("7:M", "is not a gear")):
        seats[0]["board"] = bad
        with pytest.raises(SetupError, match=re.escape(words)) as info:
            RallyGame.create({"seats": seats}, 1)
        assert str(info.value).startswith("Seat 1's board: ")


def test_vor_der_ersten_runde_step5_grid_by_roll_ties_roll_again() -> None:
    """Setup step 5: highest roll takes pole; tied players roll again among themselves for their places."""
    g = RallyGame.create(setup(3), seed=5)  # rolls 6, 4, 6; the tie re-rolled 3 against 1
    assert kinds(g.events)[:6] == ["grid_roll", "grid_roll", "grid_roll", "grid_tie", "grid_roll", "grid_roll"]
    assert g.order == [0, 2, 1]
    grid = g.course.grid(3)
    assert [g.cars[s].at for s in g.order] == grid == ["3a", "3b", "3c"]
    assert all(queries.lap_of(g, s) == 0 for s in range(3))


def test_vor_der_ersten_runde_step5_direction_is_chosen() -> None:
    """Setup step 5: the players choose the direction; anticlockwise the grid lies on the other side."""
    g = RallyGame.create(setup(2, direction="anticlockwise"), seed=5)
    assert {c.at for c in g.cars} == {"4c", "4b"}
    assert g.course.next_row(4) == 3


def test_start_grid_is_reproducible_from_the_seed() -> None:
    a, b = RallyGame.create(setup(6), seed=9), RallyGame.create(setup(6), seed=9)
    assert a == b and a.order == b.order


@pytest.mark.parametrize("options", [{"laps": 0}, {"laps": 6}, {"direction": "sideways"}, {"track": "Z"},
                                     {"colour": "red"}])
def test_setup_options_are_checked(options: dict[str, object]) -> None:
    with pytest.raises(SetupError):
        RallyGame.create(setup(2, **options), seed=1)


def test_s9_two_to_six_players() -> None:
    with pytest.raises(SetupError, match="2 to 6"):
        RallyGame.create(setup(1), seed=1)
    with pytest.raises(SetupError, match="2 to 6"):
        RallyGame.create(setup(7), seed=1)
    assert len(RallyGame.create(setup(6), seed=1).cars) == 6


# Anfahren und funktionstüchtiger Gang / S2 / S3 -----------------------------------------------------


def test_anfahren_first_round_only_green() -> None:
    """Anfahren, S3: in the first round every lever stands on green."""
    g = RallyGame.create(setup(2), seed=3)
    assert legal(g) == {"roll green", "roll green boost"}
    with pytest.raises(IllegalAction, match="must be on green"):
        g.apply("roll yellow")


def test_s3_a_position_in_the_first_round_rolls_green_only() -> None:
    """S3 (decision 22) in the position format: with ``round: 1`` a car that has not had its first turn must
    roll green, as in a race ``create`` set up; a car that moved already in round 1 is not held back."""
    g = pos(round=1, cars={"red": {"at": "8a"}, "blue": {"at": "6b"}})
    assert legal(g) == {"roll green", "roll green boost"}
    with pytest.raises(IllegalAction, match="must be on green"):
        g.apply("roll yellow")
    later = pos(round=1, order=["blue", "red"], to_act="red", cars={"red": {"at": "8a"}, "blue": {"at": "12b"}})
    assert legal(later) == {"roll green", "roll green boost"}
    assert later.cars[1].restart is False  # blue has had its first turn
    assert "roll yellow" in legal(pos(round=2, cars={"red": {"at": "8a"}}))  # from round 2 on, S3 as usual


@pytest.mark.parametrize(("car", "why"), [({"at": "8a", "lever": "yellow"}, "every lever stands on green"),
                                          ({"at": "8a", "restart": False}, "`restart` cannot be false")])
def test_s3_a_first_round_position_the_rules_could_not_reach_is_refused(car: dict[str, Any], why: str) -> None:
    with pytest.raises(SetupError, match=re.escape(why)):
        pos(round=1, cars={"red": car})


def test_s3_up_one_range_at_most_down_any() -> None:
    g = pos(cars={"red": {"at": "8a", "lever": "green"}})
    assert {"roll green", "roll yellow"} <= legal(g) and "roll red" not in legal(g)
    with pytest.raises(IllegalAction, match="up one range at most"):
        g.apply("roll red")
    g = pos(cars={"red": {"at": "8a", "lever": "red"}})
    assert {"roll green", "roll yellow", "roll red"} <= legal(g)


def test_s3_no_range_without_a_working_gear() -> None:
    """Anfahren, S3: a range with no working gear cannot be chosen (the lever goes to green)."""
    g = pos(cars={"red": {"at": "8a", "lever": "green", "board": "1:M 2:M 5:BE"}})
    assert "roll yellow" not in legal(g)
    with pytest.raises(IllegalAction, match="No gear works in yellow"):
        g.apply("roll yellow")


def test_s2_gears_by_die_and_what_makes_a_gear_work() -> None:
    """Rundenablauf B, S2: dice 1–3 the lower gear, 4–6 the higher; 1/2, 3/4, 5/6 cells."""
    assert [B.gear_for(r, d) for r in B.RANGES for d in (1, 6)] == [1, 2, 3, 4, 5, 6]
    assert B.works("M") and B.works("BE") and B.works("MB")
    assert not B.works("B") and not B.works("E") and not B.works("")
    g = pos(cars={"red": {"at": "5b", "lever": "yellow", "board": "1:M 2:M 4:BE 5:BE"}}, load=[5])
    events = g.apply("roll yellow")
    assert events[-1].data["gear"] == 4 and g.points == 4


def test_s4_mis_shift_no_move_lever_green_booster_lost() -> None:
    """Anfahren (Roadbook 5), S4: the die names a broken gear: no move, lever back to green, booster lost."""
    g = pos(cars={"red": {"at": "5b", "lever": "yellow", "board": "1:M 2:M 4:BE 5:BE"}}, load=[2])
    events = g.apply("roll yellow boost")
    assert kinds(events) == ["booster", "roll", "misshift", "booster_lost"]
    car = g.cars[0]
    assert car.at == "5b" and car.lever == "green" and car.restart and car.fuel == 1
    assert g.to_act == 1
    g.apply("roll green")
    g.apply(str(g.legal_actions()[0]))
    assert legal(g) <= {"roll green", "roll green boost"}


# Rundenablauf A: booster ------------------------------------------------------------------------------


def test_rundenablauf_a_booster_gives_a_second_move() -> None:
    g = pos(cars={"red": {"at": "5b"}, "blue": {"at": "40a"}}, load=[1, 4])
    g.apply("roll green boost")
    assert g.points == 1 and g.cars[0].fuel == 1
    events = g.apply("move 6b")
    assert kinds(events)[-1] == "booster_roll" and g.points == 2 and g.to_act == 0
    g.apply("move 8b")
    assert g.cars[0].at == "8b" and g.to_act == 1 and g.cars[0].fuel == 1


def test_rundenablauf_a_booster_lost_when_first_roll_cannot_be_used() -> None:
    """A) A first roll the car cannot use wastes the booster: here every way on is blocked."""
    g = pos(cars={"red": {"at": "21a"}, "blue": {"at": "22a"}, "orange": {"at": "21b"}}, players=3, load=[1])
    events = g.apply("roll green boost")
    assert "booster_lost" in kinds(events) and g.cars[0].fuel == 1 and g.to_act == 1


@pytest.mark.parametrize(("position", "roll", "move", "ending"), [
    ({"cars": {"red": {"at": "17a"}}, "load": [4]}, "roll green boost", "park E18.1 e4", "park"),
    ({"cars": {"red": {"at": "pit.1"}}, "load": [4]}, "roll green boost", "move stop", "halt"),
    ({"cars": {"red": {"at": "22a", "lever": "yellow"}}, "load": [2, 2]}, "roll red boost", "move 25b", "spin"),
    ({"players": 3, "cars": {"red": {"at": "21a"}, "blue": {"at": "22a"}, "orange": {"at": "22b"}}, "load": [4]},
     "roll green boost", "move 21b", "accident"),
])
def test_s12_a_first_move_that_ends_the_turn_loses_the_booster(position: dict[str, Any], roll: str, move: str,
                                                                ending: str) -> None:
    """S12: parking, the stop sign, a spin or an accident in the first move ends the turn, and the fuel can
    spent on the booster is gone without a booster move."""
    g = pos(**position)
    g.apply(roll)
    assert g.cars[0].fuel == 1 and g.boost == "pending"
    assert g.endings()[move.split()[1]].kind == ending
    events = g.apply(move)
    assert "booster_lost" in kinds(events) and "booster_roll" not in kinds(events)
    assert g.boost == "none" and g.cars[0].fuel == 1 and g.to_act != 0


def test_s13_the_booster_move_keeps_the_lever() -> None:
    """S13: between the first move and the booster move there is no shifting: the booster die names a gear
    of the same range."""
    g = pos(cars={"red": {"at": "5a"}, "blue": {"at": "9b"}}, to_act="red", load=[2, 1])
    g.apply("roll yellow boost")
    g.apply("move 8a")
    assert g.phase == "move" and g.to_act == 0 and g.cars[0].lever == "yellow"
    assert g.points == 3  # die 1 in yellow: gear 3
    assert not any(a.startswith("roll") for a in legal(g))
    with pytest.raises(IllegalAction):
        g.apply("roll green")
    assert g.cars[0].lever == "yellow" and g.points == 3


def test_rundenablauf_a_no_booster_without_fuel() -> None:
    g = pos(cars={"red": {"at": "8a", "fuel": 0}})
    assert legal(g) == {"roll green", "roll yellow"}
    with pytest.raises(IllegalAction, match="No fuel can"):
        g.apply("roll green boost")


# Rundenablauf C: moving -----------------------------------------------------------------------------


def test_rundenablauf_c_forward_or_sideways_whole_roll() -> None:
    """C) forward or sideways onto free cells, never back, every point used."""
    g = pos(cars={"red": {"at": "5b", "lever": "yellow"}, "blue": {"at": "6b"}}, phase="move", points=3)
    assert cells(g) == {"7a", "7c"}
    with pytest.raises(IllegalAction, match="taken by Blue"):
        g.apply("move 6b")
    with pytest.raises(IllegalAction, match="behind you"):
        g.apply("move 4b")
    with pytest.raises(IllegalAction, match="exactly 3 points"):
        g.apply("move 6a")


def test_rundenablauf_c_at_most_two_lane_changes() -> None:
    g = pos(cars={"red": {"at": "5a", "lever": "yellow"}}, phase="move", points=3)
    assert "5c" not in cells(g)  # 5a-5b-5c is two changes but only two points
    assert "6c" in cells(g)  # 5a 5b 5c 6c
    g = pos(cars={"red": {"at": "5a", "lever": "yellow", "board": "1:M 2:M 4:BE 5:BE"}}, phase="move", points=4)
    assert "6b" not in cells(g)  # only 5b 5c 6c 6b has four steps, and it changes lanes three times
    assert "9a" in cells(g) and "7c" in cells(g)
    with pytest.raises(IllegalAction):
        g.apply("move 5b 5c 6c 6b")


def test_rundenablauf_c_road_signs_are_cells() -> None:
    """C) a road sign is a cell like any other (row 8's middle lane carries one)."""
    track = find_track("A")
    assert track.row(8).signs == ("b",)
    g = pos(cars={"red": {"at": "7b"}}, phase="move", points=1)
    assert "8b" in cells(g)


def test_rundenablauf_c_a_whole_path_may_be_written() -> None:
    g = pos(cars={"red": {"at": "5a", "lever": "yellow"}}, phase="move", points=3)
    assert str(g.parse_action("move 5b 6b 7b")) == "move 7b"
    with pytest.raises(IllegalAction, match="not a legal way"):
        g.parse_action("move 5b 7b")


# Rundenablauf D, Parken -----------------------------------------------------------------------------


def test_rundenablauf_d_parking_takes_the_resource_and_goes_on_the_parking_bar() -> None:
    """D), Parken: braking into a spot ends the move; lever to green, onto the parking bar, resource on
    the board at once."""
    g = pos(cars={"red": {"at": "5a", "lever": "red"}}, phase="move", points=5)
    assert "park F7.1" in legal(g)  # 6a 7a F7.1: three of five points, braking allowed
    events = g.apply("park F7.1")
    car = g.cars[0]
    assert kinds(events)[:2] == ["move", "park"] and car.at == "F7.1"
    assert car.fuel == 3 and car.lever == "green" and car.restart and car.stops == 1
    assert car.parked is not None


def test_parken_spots_open_by_player_count() -> None:
    """Parken: a spot is open from the number beside its P (F7: spots from 2 and from 3 players)."""
    g = pos(cars={"red": {"at": "6a"}}, phase="move", points=2)
    assert {a for a in legal(g) if a.startswith("park")} == {"park F7.1"}
    g = pos(players=3, cars={"red": {"at": "6a"}}, phase="move", points=2)
    assert {a for a in legal(g) if a.startswith("park")} == {"park F7.1", "park F7.2"}


def test_parken_a_full_car_park_cannot_be_used() -> None:
    g = pos(cars={"red": {"at": "6a"}, "blue": {"at": "F7.1"}}, phase="move", points=2)
    assert not any(a.startswith("park") for a in legal(g))
    with pytest.raises(IllegalAction, match="taken by Blue"):
        g.apply("park F7.1")


def test_parken_a_car_before_the_entry_is_driven_round_and_counted() -> None:
    """Parken: a car in front of the entry does not bar the way in; its cell counts as a step."""
    g = pos(cars={"red": {"at": "6a"}, "blue": {"at": "7a"}}, phase="move", points=2)
    assert g.endings()["F7.1"].path == ("7a", "F7.1")
    assert "move 7a" not in legal(g)
    g = pos(cars={"red": {"at": "6a"}, "blue": {"at": "7a"}}, phase="move", points=1)
    assert "park F7.1" not in legal(g)


def test_s11_pulling_out_with_one_point_behind_the_car_in_front() -> None:
    """Parken, S11: pulling out with one point while a car stands in front of the spot, the car is placed
    on the first free cell behind that car in race order (the row before it), never past it."""
    g = pos(cars={"red": {"at": "F7.1"}, "blue": {"at": "7a"}}, phase="move", points=1)
    before = g.cars[0].progress
    assert cells(g) == {"6a"} and legal(g) == {"move 6a"}
    assert g.endings()["6a"].kind == "squeeze" and g.endings()["6a"].path == ("6a",)
    with pytest.raises(IllegalAction):
        g.apply("move 8a")  # the old reading, past the blocking car
    events = g.apply("move 6a")
    assert "squeeze" in kinds(events) and g.cars[0].at == "6a" and g.cars[0].parked is None
    assert g.cars[0].progress == before - 1  # one row back: Blue stays ahead of it in the race


def test_s11_the_lane_behind_taken_the_nearest_lane_of_that_row_then_further_back() -> None:
    """S11: with the cell straight behind the blocking car taken, the nearest free lane of that row; a row
    full of cars sends the car one row further back."""
    g = pos(cars={"red": {"at": "F7.1"}, "blue": {"at": "7a"}, "orange": {"at": "6a"}}, players=3,
            phase="move", points=1)
    assert cells(g) == {"6b"}
    g = pos(players=5, cars={"red": {"at": "F7.1"}, "blue": {"at": "7a"}, "orange": {"at": "6a"},
                             "purple": {"at": "6b"}, "white": {"at": "6c"}}, phase="move", points=1)
    assert cells(g) == {"5a"}


def test_s11_behind_where_the_blocking_car_s_lane_ends() -> None:
    """S11: F23 lies beside lane c of row 23; row 22 has no lane c, so its nearest lane, b, is behind."""
    g = pos(players=4, cars={"red": {"at": "F23.1"}, "blue": {"at": "23c"}}, phase="move", points=1)
    assert cells(g) == {"22b"}


def test_s11_behind_follows_the_driving_direction() -> None:
    """S11: driven anticlockwise, the row behind row 7 is row 8."""
    g = pos(direction="anticlockwise", cars={"red": {"at": "F7.1"}, "blue": {"at": "7a"}}, phase="move", points=1)
    assert cells(g) == {"8a"}


def test_s11_leaving_the_stop_sign_with_one_point_behind_the_car_on_the_exit() -> None:
    """Boxengasse, S11: the stop sign is left like a spot; a car on its exit cell sends the car behind it."""
    g = pos(cars={"red": {"at": "stop"}, "blue": {"at": "35c"}}, phase="move", points=1)
    assert cells(g) == {"34c"}


def test_parken_pulling_out_with_more_points_drives_round() -> None:
    g = pos(cars={"red": {"at": "F7.1"}, "blue": {"at": "7a"}}, phase="move", points=2)
    assert cells(g) == {"8a", "7b"}


def test_parken_order_wait_the_parked_car_moves_last() -> None:
    """Festlegen der Zugreihenfolge: a parked car leads but moves after those on the track."""
    g = pos(cars={"red": {"at": "E18.1"}, "blue": {"at": "9b"}}, order=["red", "blue"], load=[1, 1])
    assert g.next_order() == [1, 0]


# Ausstattung der Schrottkarre -------------------------------------------------------------------------


@pytest.mark.parametrize(("start", "spot", "placement", "supply"), [
    ("6a", "F7.1", "", "fuel"),
    ("17a", "E18.1", " e4", "engine"),
    ("19a", "B20.1", " b6", "body"),
    ("9c", "M10.1", " m3", "mechanic"),
])
def test_ausstattung_each_service_gives_its_resource(start: str, spot: str, placement: str, supply: str) -> None:
    """Ausstattung: petrol stations fuel, warehouses engine parts, scrap heaps body parts, workshops mechanics."""
    g = pos(cars={"red": {"at": start, "fuel": 1}}, phase="move", points=2)
    before = g.cars[0].reserve()[supply]
    g.apply(f"park {spot}{placement}")
    assert g.cars[0].reserve()[supply] == before - 1
    if placement:
        letter, gear = placement.strip()[0].upper(), int(placement.strip()[1])
        assert letter in g.cars[0].gears[gear - 1]


def test_ausstattung_placing_needs_a_free_place_on_that_gear() -> None:
    g = pos(cars={"red": {"at": "17a"}}, phase="move", points=2)  # gear 3 already has an engine part
    with pytest.raises(IllegalAction, match="cannot place e3"):
        g.apply("park E18.1 e3")
    assert g.cars[0].at == "17a"


# Boxengasse -----------------------------------------------------------------------------------------


def test_boxengasse_one_spot_two_parts_of_one_kind_or_a_mechanic_fuel_included() -> None:
    """Boxengasse and house ruling S10: one spot per stop gives fuel (the tank is filled) and either one
    mechanic or two parts of one kind; a body and an engine part together is no choice."""
    g = pos(cars={"red": {"at": "29c", "fuel": 0, "lever": "yellow"}}, phase="move", points=3)
    options = {a for a in legal(g) if a.startswith("park pit.1")}
    assert {"park pit.1 m3", "park pit.1 b4 b6", "park pit.1 e4 e6"} <= options
    assert not [a for a in options if " b" in a and " e" in a]  # S10: never a mixed pair
    assert "park pit.1 m3 b4" not in options and "park pit.1 e4" not in options
    g.apply("park pit.1 e4 e6")
    car = g.cars[0]
    assert car.at == "pit.1" and car.fuel == 3 and "E" in car.gears[3] and "E" in car.gears[5] and car.stops == 1


@pytest.mark.parametrize("placed", ["b4 e4", "m3 b4", "b4 b6 e4", "m3 m4"])
def test_s10_a_pit_stop_refuses_anything_but_a_mechanic_or_two_parts_of_one_kind(placed: str) -> None:
    """S10: a mixed pair, a mechanic with a part, three parts or two mechanics are refused, saying what a pit
    stop gives, and the game is unchanged."""
    g = pos(cars={"red": {"at": "29c", "fuel": 0, "lever": "yellow"}}, phase="move", points=3)
    before = g.to_dict()
    with pytest.raises(IllegalAction, match=r"one mechanic or two parts of one kind.*\(S10\)"):
        g.apply(f"park pit.1 {placed}")
    assert g.to_dict() == before


def test_s10_a_reserve_with_one_part_of_a_kind_gives_that_one() -> None:
    """S10 with S7: the parts come from the reserve; with one engine part left there, the pit stop offers
    that one (on any free place), and two body parts as before."""
    # 5 engine parts on the board: one left in the reserve (S7: six in all)
    g = pos(cars={"red": {"at": "29c", "lever": "yellow", "board": "1:ME 2:ME 3:BE 4:E 5:BE"}}, phase="move",
            points=3)
    assert g.cars[0].reserve()["engine"] == 1
    options = {a for a in legal(g) if a.startswith("park pit.1")}
    assert "park pit.1 e6" in options and not [a for a in options if a.count(" e") == 2]
    assert "park pit.1 b4 b6" in options
    g.apply("park pit.1 e6")
    assert g.cars[0].reserve()["engine"] == 0


def test_boxengasse_waiting_cell_is_one_cell_for_many_cars() -> None:
    """Boxengasse: the hatched area counts as one cell and holds several cars."""
    g = pos(cars={"red": {"at": "29c"}, "blue": {"at": "pit"}}, phase="move", points=2)
    assert "pit" in cells(g)
    g.apply("move pit")
    assert g.cars[0].at == g.cars[1].at == "pit"


def test_boxengasse_halt_at_the_stop_sign_rest_lost_then_start_green() -> None:
    """Boxengasse: on the way out the car halts at the stop sign, losing its other points; it starts off
    from there on green next round (Anfahren)."""
    g = pos(cars={"red": {"at": "pit.1", "lever": "green"}, "blue": {"at": "50a"}}, phase="move", points=2)
    events = g.apply("move stop")
    assert "halt" in kinds(events) and g.cars[0].at == "stop" and g.cars[0].restart
    play_others(g, 0)
    assert legal(g) <= {"roll green", "roll green boost"}


def test_boxengasse_stop_sign_leads_back_onto_the_track() -> None:
    g = pos(cars={"red": {"at": "stop"}}, phase="move", points=2)
    assert cells(g) == {"36c", "35b"}


# Fahrbereitschaft / S5 / S6 -------------------------------------------------------------------------


def test_s5_spin_in_a_curve_taken_too_fast() -> None:
    """S5: entering a green curve in yellow spins the car there; a die (1–3) takes a body part from the
    highest gear that has one; next turn starts on green."""
    g = pos(cars={"red": {"at": "22a", "lever": "red"}}, phase="move", points=5, load=[2])
    assert cells(g) == {"25b", "25c"}  # five points cannot be spent before the curve
    events = g.apply("move 25b")
    assert kinds(events)[:4] == ["move", "spin", "loss_roll", "lose"]
    car = g.cars[0]
    assert car.at == "25b" and car.gears[4] == "E" and car.lever == "green" and car.restart


def test_s5_a_yellow_curve_allows_yellow() -> None:
    g = pos(cars={"red": {"at": "11b", "lever": "yellow"}}, phase="move", points=3)
    assert "14b" in cells(g) and g.endings()["14b"].kind == "drive"
    g = pos(cars={"red": {"at": "11b", "lever": "red"}}, phase="move", points=5)
    assert {e.kind for e in g.endings().values()} == {"spin"}


def test_s5_spin_die_names_an_engine_part() -> None:
    g = pos(cars={"red": {"at": "22a", "lever": "red"}}, phase="move", points=5, load=[5])
    g.apply("move 25b")
    assert g.cars[0].gears == ["M", "M", "BE", "", "B", ""]


def test_s14_a_spin_die_naming_a_kind_the_car_lacks_takes_nothing() -> None:
    """S14: the spin's die names one kind of part (1–3 body); a car with no body part loses nothing, not an
    engine part instead."""
    g = pos(cars={"red": {"at": "22a", "lever": "red", "board": "1:M 2:M 5:M 3:E"}}, phase="move", points=5,
            load=[2])
    events = g.apply("move 25b")
    assert kinds(events)[:4] == ["move", "spin", "loss_roll", "lose_none"]
    assert g.cars[0].gears == ["M", "M", "E", "", "M", ""]


def test_s5_accident_when_boxed_in() -> None:
    """S5: with points left and every cell ahead and beside taken, the car stops and loses a body part."""
    g = pos(players=3, cars={"red": {"at": "21a"}, "blue": {"at": "22a"}, "orange": {"at": "22b"}},
            phase="move", points=2)
    assert cells(g) == {"21b"}  # one step, then boxed in
    assert {e.kind for e in g.endings().values()} == {"accident"}
    events = g.apply("move 21b")
    assert "accident" in kinds(events) and g.cars[0].gears[4] == "E" and g.cars[0].restart


def test_s6_not_roadworthy_forced_parking_and_repair() -> None:
    """Fahrbereitschaft, S6: no working green gear: onto the last free spot passed; next turn the parts for
    gear 1 come from the reserve (never a mechanic), and the car may wait a round for gear 2."""
    g = pos(players=2, cars={"red": {"at": "22a", "lever": "red", "board": "1:BE 3:M 5:M"},
                             "blue": {"at": "50a"}}, phase="move", points=5, load=[1])
    events = g.apply("move 25b")  # a spin; the die takes gear 1's body part, the only one
    car = g.cars[0]
    assert "forced_park" in kinds(events)
    assert car.at == "B20.1" and car.repair == 1 and car.parked is not None and car.stops == 1
    play_others(g, 0)
    assert legal(g) == {"roll green", "roll green boost", "repair"}
    events = g.apply("repair")
    assert kinds(events)[:2] == ["repair", "repair_wait"] and g.cars[0].gears[0] == "BE"
    assert B.count(g.cars[0].gears, "M") == 2  # no mechanic taken
    play_others(g, 0)
    events = g.apply("roll green")
    assert kinds(events)[0] == "repair" and g.cars[0].gears[1] == "BE" and g.cars[0].repair == 0


def test_s6_a_forced_car_may_drive_on_after_one_round() -> None:
    g = pos(cars={"red": {"at": "B20.1", "board": "1:E 3:M 4:M", "repair": 1, "restart": True}}, load=[1])
    events = g.apply("roll green")
    assert kinds(events)[0] == "repair" and g.cars[0].gears[0] == "BE" and g.cars[0].repair == 0


# Festlegen der Zugreihenfolge / S9 ------------------------------------------------------------------


def test_s9_order_by_position_driver_side_first_parked_last() -> None:
    """Festlegen der Zugreihenfolge, S9: cars on the track by position; on one row the car with nobody on
    its driver's side (left lane, clockwise) is ahead; parked cars after them in the order they parked."""
    g = pos(players=5, cars={"red": {"at": "12c"}, "blue": {"at": "12b"}, "orange": {"at": "F7.1", "parked": 2},
                             "purple": {"at": "30a"}, "white": {"at": "M10.1", "parked": 1}})
    assert g.next_order() == [3, 1, 0, 4, 2]


def test_s9_driver_side_is_the_right_lane_anticlockwise() -> None:
    g = pos(direction="anticlockwise", cars={"red": {"at": "50a"}, "blue": {"at": "50c"}})
    assert g.next_order() == [1, 0]


def test_s9_order_is_recomputed_at_the_end_of_each_round() -> None:
    g = pos(cars={"red": {"at": "5b"}, "blue": {"at": "9b"}}, order=["red", "blue"], load=[1, 1])
    g.apply("roll green")
    g.apply("move 6b")
    g.apply("roll green")
    events = g.apply("move 10b")
    assert "round" in kinds(events) and g.order == [1, 0] and g.round == 3


# S1 track -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["A", "B"])
def test_s1_builtin_tracks_have_everything(key: str) -> None:
    """S1: 48–64 rows of 2–3 lanes, curves of both limits, every service with spots for 2 to 6 players,
    a pit lane with a waiting cell and spots."""
    t = find_track(key)
    assert 48 <= t.length <= 64
    assert all(len(r.lanes) in (2, 3) for r in t.rows)
    assert {r.curve for r in t.rows} == {None, "green", "yellow"}
    assert {a.kind for a in t.areas} == {"fuel", "engine", "body", "mechanic"}
    assert {s for a in t.areas for s in a.spots} == {2, 3, 4, 5, 6}
    assert t.pit.waiting_rows and t.pit.spots


# S8 winning -----------------------------------------------------------------------------------------


def test_s8_first_to_finish_wins_at_once_stops_break_ties() -> None:
    """S8: the first car to complete the laps wins at once; standings rank laps, then fewer stops."""
    g = pos(laps=1, players=3, cars={"red": {"at": "2b", "lap": 1}, "blue": {"at": "50b", "lap": 1, "stops": 2},
                                     "orange": {"at": "40b", "lap": 1, "stops": 0}},
            phase="move", points=2)
    events = g.apply("move 4b")
    assert kinds(events)[-2:] == ["lap", "win"]
    assert g.is_over and g.winners == [0] and g.to_act is None and g.legal_actions() == []
    assert g.standings() == [0, 2, 1]
    with pytest.raises(IllegalAction, match="race is over"):
        g.apply("roll green")


def test_laps_count_from_one_to_five() -> None:
    assert RallyGame.create(setup(2), 1).laps == 3
    assert RallyGame.create(setup(2, laps=5), 1).laps == 5


def test_a_lap_is_counted_when_crossing_the_arch() -> None:
    g = pos(cars={"red": {"at": "2b", "lap": 1}, "blue": {"at": "40a"}}, phase="move", points=2)
    events = g.apply("move 4b")
    assert "lap" in kinds(events) and queries.laps_done(g, 0) == 1


# Contract -------------------------------------------------------------------------------------------


def test_refusal_changes_nothing_and_names_its_message() -> None:
    g = pos(cars={"red": {"at": "5b", "lever": "yellow"}, "blue": {"at": "6b"}}, phase="move", points=3)
    before = json.dumps(g.to_dict(), sort_keys=True)
    with pytest.raises(IllegalAction) as info:
        g.apply("move 6b")
    assert info.value.msg == "cell_taken"  # type: ignore[attr-defined]
    assert json.dumps(g.to_dict(), sort_keys=True) == before


@pytest.mark.parametrize(("position", "text", "words"), [
    ({"cars": {"red": {"at": "5b", "lever": "yellow"}, "blue": {"at": "6b"}}, "phase": "move", "points": 3},
     "move 6b", "6b is taken by Blue: a move ends on a free cell."),
    ({"cars": {"red": {"at": "5b", "lever": "yellow"}}, "phase": "move", "points": 3}, "move 5b",
     "You must use your 3 points: standing still is not allowed."),
    ({"cars": {"red": {"at": "5b", "lever": "green", "fuel": 0}}}, "roll green boost",
     "No fuel can on the car: the booster needs one."),
    ({"cars": {"red": {"at": "5b", "lever": "green"}}}, "roll red", "From green the lever goes up one range at "
     "most, so not to red."),
    ({"cars": {"red": {"at": "5b", "lever": "green"}}}, "move 6b", "Red must roll first."),
])
def test_refusals_say_what_is_wrong_without_listing_the_legal_actions(position: dict[str, Any], text: str,
                                                                     words: str) -> None:
    """A refusal says what is wrong; what is possible now is the front end's to add (``describe_legal``),
    so the legal actions are never listed twice."""
    g = RallyGame.from_position(position)
    with pytest.raises(IllegalAction) as info:
        g.apply(text)
    assert str(info.value) == words
    assert "Legal" not in str(info.value) and g.describe_legal() not in str(info.value)


def test_a_wrong_placement_names_a_few_examples() -> None:
    """Rule text "Parken": a spot's placements are the player's choice; a wrong one gets three examples."""
    g = pos(cars={"red": {"at": "8c", "lever": "yellow"}}, phase="move", points=3)
    with pytest.raises(IllegalAction) as info:
        g.apply("park M10.1 e3")
    assert str(info.value) == "At M10.1 you cannot place e3. For example: park M10.1 m3, park M10.1 m4, park M10.1 m5."


def test_apply_accepts_exactly_the_legal_actions() -> None:
    g = pos(cars={"red": {"at": "29c", "lever": "yellow"}}, phase="move", points=3)
    for action in g.legal_actions():
        trial = RallyGame.from_dict(g.to_dict())
        trial.apply(action)
    for text in ("park pit.1", "park pit.1 m1", "move 33c", "park F7.1"):
        with pytest.raises(IllegalAction):
            RallyGame.from_dict(g.to_dict()).apply(text)


def test_view_hides_nothing_but_the_dice() -> None:
    g = RallyGame.create(setup(3), seed=1)
    v = g.view(None)
    assert v == g.view(0) | {"viewer": None}
    assert "dice" not in v and len(v["seats"]) == 3
    json.dumps(v)
