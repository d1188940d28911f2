"""Junkyard Races turn engine: setup, phases, Phase 3 dice limits, reversing and delivery.

Each test states its situation with the position format on the Proving Ground (see conftest.py) and
names its rulebook section or ruling.
"""

from __future__ import annotations

from typing import Any

import pytest

from rules.contract import IllegalAction
from rules.hexgrid import Facing, parse_label
from rules.races import Races, queries
from rules.races.track import Track
from tests.races.conftest import kart, legal, position

RED_BLUE = [{"colour": "red", "cell": "J3", "facing": "SE"}, {"colour": "blue", "cell": "B12", "facing": "N"}]




# Setup ---------------------------------------------------------------------------------------------


def test_r15_first_kart_chooses_a_free_start_cell() -> None:
    """R15 / Game Set Up 6: karts start off the board and enter on a start cell of the player's choice."""
    g = Races.create({"seats": [{"name": "Ann"}, {"name": "Bo"}], "options": {"track": "T"}}, seed=3)
    assert all(k.cell is None for k in g.karts)
    assert sorted(legal(g)) == ["choose D2", "choose D3", "choose D4"]
    seat = g.to_act
    assert seat is not None
    g.apply("choose D3")
    k = g.karts[seat]
    assert k.cell == parse_label("D3") and k.facing is Facing.SE
    assert g.phase == "roll"  # phases 1 and 2 offer nothing and are skipped


def test_r15_second_kart_chooses_among_the_remaining_start_cells() -> None:
    """R15: taken start cells are not offered."""
    g = position([{"colour": "red", "cell": "D3", "facing": "SE"}, {"colour": "blue"}], turn="blue")
    assert sorted(legal(g)) == ["choose D2", "choose D4"]


def test_r15_all_start_cells_taken_uses_nearest_free_cells_behind_the_line() -> None:
    """R15: with all three start cells taken the kart goes on the nearest free cell behind the line."""
    g = position(
        [
            {"colour": "red", "cell": "D2", "facing": "SE"},
            {"colour": "blue", "cell": "D3", "facing": "SE"},
            {"colour": "green", "cell": "D4", "facing": "SE"},
            {"colour": "yellow"},
        ],
        turn="yellow",
    )
    options = {a.option for a in g.legal_actions()}  # type: ignore[union-attr]
    starts = [parse_label(c) for c in ("D2", "D3", "D4")]
    assert options
    for label in options:
        cell = parse_label(label)
        assert min(cell.distance(s) for s in starts) == 1
        assert not label.startswith("F")  # never ahead of the line
    g.apply(f"choose {sorted(options)[0]}")
    assert kart(g, "yellow").facing is Facing.SE


def test_r24_fewest_steps_counts_forward_steps_not_hexes() -> None:
    """R24: with D2–D4 taken, E3 is one hex from D3, but a kart facing SE on it cannot drive onto a start
    cell without crossing the line; only the cells one forward step behind the start cells are offered."""
    taken = (("red", "D2"), ("blue", "D3"), ("green", "D4"))
    g = position([*({"colour": c, "cell": cell, "facing": "SE"} for c, cell in taken), {"colour": "yellow"}],
                 turn="yellow")
    assert {a.option for a in g.legal_actions()} == {"C2", "C3", "C4", "C5"}  # type: ignore[union-attr]


def test_r24_a_kart_may_enter_two_hexes_away_while_a_cell_one_hex_away_is_free() -> None:
    """R24: with the start cells and C2–C5 taken, E4 (one hex from D3 and D4) is free, but facing SE it is
    many forward steps from a start cell; the two-step cells are offered, B3 (two hexes away) among them."""
    taken = (("red", "D2"), ("blue", "D3"), ("green", "D4"), ("orange", "C2"), ("purple", "C3"), ("white", "C4"),
             ("black", "C5"))
    g = position([*({"colour": c, "cell": cell, "facing": "SE"} for c, cell in taken), {"colour": "yellow"}],
                 turn="yellow")
    options = {a.option for a in g.legal_actions()}  # type: ignore[union-attr]
    assert options == {"B1", "B2", "B3", "B4", "B5", "C6", "E1", "E2", "E3"}
    assert "E4" not in options and min(parse_label("E4").distance(parse_label(c)) for c in ("D3", "D4")) == 1
    g.apply("choose B3")
    assert kart(g, "yellow").cell == parse_label("B3") and kart(g, "yellow").facing is Facing.SE


def test_r15_a_kart_entering_onto_a_trap_gets_its_effect() -> None:
    """R15 with R8: a kart put on a start cell that holds a trap meets it before moving; Glue ends its turn."""
    g = position([{"colour": "red"}, {"colour": "blue", "cell": "B12", "facing": "N"}], turn="red",
                 board={"D3": "glue"})
    g.apply("choose D3")
    assert kart(g, "red").cell == parse_label("D3") and kart(g, "red").glued
    assert g.turn.seat == queries.seat_by_colour(g, "blue")


def test_r15_the_only_free_start_cell_with_oil_skids_the_entering_kart() -> None:
    """R15 with R8: the one free start cell is taken without asking, and its Oil throws the kart."""
    g = position([{"colour": "red", "cell": "D2", "facing": "SE"}, {"colour": "blue", "cell": "D4", "facing": "SE"},
                  {"colour": "green"}], turn="green", board={"D3": "oil NW"})
    green = kart(g, "green")
    assert green.cell == parse_label("C3") and green.facing is Facing.NW  # spun round from SE
    assert g.turn.seat == 0


def test_r13_starting_player_is_drawn_with_the_seeded_dice() -> None:
    """R13: the starting player is drawn at random, and the same seed draws the same player."""
    setup = {"seats": [{"name": n} for n in "ABCD"], "options": {"track": "T"}}
    starters = {seed: Races.create(setup, seed).turn.seat for seed in range(40)}
    assert set(starters.values()) == {0, 1, 2, 3}
    assert all(Races.create(setup, s).turn.seat == starters[s] for s in range(10))


def test_setup_refuses_bad_seat_counts_and_colours() -> None:
    """R13: 2 to 8 players, one kart colour each."""
    from rules.contract import SetupError

    with pytest.raises(SetupError, match="2 to 8"):
        Races.create({"seats": [{"name": "solo"}], "options": {"track": "T"}}, 1)
    with pytest.raises(SetupError, match="same kart colour"):
        Races.create({"seats": [{"colour": "red"}, {"colour": "red"}], "options": {"track": "T"}}, 1)
    with pytest.raises(SetupError, match="teams"):
        Races.create({"seats": [{"team": 0}, {"team": 0}, {"team": 1}], "options": {"track": "T", "teams": True}}, 1)


def test_sequence_of_play_phases_cannot_be_returned_to() -> None:
    """Sequence of Play: once a phase is left it cannot be returned to."""
    g = position(RED_BLUE, phase="roll", dice=[2, 2])
    g.apply("roll 2")
    assert g.phase == "move"
    with pytest.raises(IllegalAction, match="Phase 5"):
        g.apply("roll 1")
    with pytest.raises(IllegalAction):
        g.apply("done")


# Phase 3 -------------------------------------------------------------------------------------------


def test_phase3_tarmac_allows_one_to_three_green_dice() -> None:
    """Phase 3: normally up to three green dice, never fewer than one."""
    g = position(RED_BLUE, phase="roll")
    assert legal(g) == ["roll 1", "roll 2", "roll 3", "reverse"]
    with pytest.raises(IllegalAction, match="1 to 3 green"):
        g.apply("roll 4")
    with pytest.raises(IllegalAction):
        g.apply("roll 0")


@pytest.mark.parametrize(("cell", "terrain"), [("G2", "grass"), ("J12", "mud"), ("M7", "bridge")])
def test_phase3_grass_mud_and_bridge_starts_allow_one_green_die(cell: str, terrain: str) -> None:
    """Phase 3 (Grass, Mud, Bridge): starting there allows one green die and no fuel dice."""
    facing = "S" if cell == "M7" else "SE" if cell != "J12" else "NW"
    g = position(
        [{"colour": "red", "cell": cell, "facing": facing, "parts": {"6": "turbo-engine"}, "fuel": {"white": 2}},
         RED_BLUE[1]],
        phase="roll",
    )
    assert [a for a in legal(g) if a.startswith("roll")] == ["roll 1"]
    with pytest.raises(IllegalAction, match=terrain):
        g.apply("roll 2")
    with pytest.raises(IllegalAction, match="Fuel dice"):
        g.apply("roll 1 1w")


def test_phase3_turbo_fuel_dice_roll_with_the_green_and_go_back_to_the_supply() -> None:
    """Turbo Engine: white dice on a fitted engine are rolled together with the green; used ones return."""
    g = position(
        [{"colour": "red", "cell": "J3", "facing": "SE", "parts": {"6": "turbo-engine"}, "fuel": {"white": 2}},
         RED_BLUE[1]],
        phase="roll", dice=[1, 1, 2],
    )
    assert "roll 2 1w" in legal(g) and "roll 3 2w" in legal(g) and "roll 1 3w" not in legal(g)
    before = g.dice_left["white"]
    g.apply("roll 2 1w")
    assert g.turn.dice == {"green": [1, 1], "white": [2]} and g.turn.points == 4
    assert kart(g, "red").fuel["white"] == 1 and g.dice_left["white"] == before + 1


def test_phase3_fuel_dice_need_the_engine() -> None:
    """Fuel: white dice only with a Turbo Engine fitted."""
    g = position([{"colour": "red", "cell": "J3", "facing": "SE", "fuel": {"white": 1}}, RED_BLUE[1]], phase="roll")
    with pytest.raises(IllegalAction, match="engine"):
        g.apply("roll 1 1w")


def test_phase3_grass_tyres_add_one_each() -> None:
    """Grass / Grass Tyres: +1 per Grass Tyre fitted when starting on grass."""
    g = position(
        [{"colour": "red", "cell": "H3", "facing": "SE", "parts": {"3": "grass-tyres", "4": "grass-tyres"}},
         RED_BLUE[1]],
        phase="roll", dice=[4],
    )
    g.apply("roll 1")
    assert g.turn.total == 6 and g.turn.points == 6


def test_phase3_stuck_in_mud_on_one_or_two() -> None:
    """Mud: a 1 or 2 without Mud Tyres leaves the kart stuck until its next turn."""
    g = position([{"colour": "red", "cell": "J12", "facing": "NW"}, RED_BLUE[1]], phase="roll", dice=[2])
    g.apply("roll 1")
    assert kart(g, "red").cell == parse_label("J12")
    assert any(e.kind == "stuck" for e in g.last_events)
    assert g.turn.seat == queries.seat_by_colour(g, "blue")


def test_phase3_two_mud_tyres_never_stick() -> None:
    """Mud Tyres: +1 each; with two fitted a roll of 1 still moves 3."""
    g = position(
        [{"colour": "red", "cell": "J12", "facing": "NW", "parts": {"3": "mud-tyres", "4": "mud-tyres"}}, RED_BLUE[1]],
        phase="roll", dice=[1],
    )
    g.apply("roll 1")
    assert g.phase == "move" and g.turn.points == 3


def test_phase3_one_mud_tyre_and_a_one_is_still_stuck() -> None:
    """Mud: the total with tyres below 3 is stuck (1 + one Mud Tyre = 2)."""
    g = position(
        [{"colour": "red", "cell": "J12", "facing": "NW", "parts": {"3": "mud-tyres"}}, RED_BLUE[1]],
        phase="roll", dice=[1],
    )
    g.apply("roll 1")
    assert any(e.kind == "stuck" for e in g.last_events)


# Reversing -----------------------------------------------------------------------------------------


def test_reversing_one_to_three_cells_keeps_the_front_toward_the_cell_left() -> None:
    """Reversing / R5: back, back-left or back-right; the kart faces the cell it just left."""
    g = position(RED_BLUE, phase="roll")
    g.apply("reverse")
    assert sorted(legal(g)) == ["step I3", "step I4", "step J2"]
    g.apply("step I3")
    red = kart(g, "red")
    assert red.cell == parse_label("I3") and red.facing is Facing.SE
    assert "done" in legal(g)
    g.apply("step H3")
    g.apply("step G3")
    assert g.turn.seat == queries.seat_by_colour(g, "blue")  # three cells is the most


def test_reversing_needs_at_least_one_cell_before_done() -> None:
    """Reversing: 1, 2 or 3 cells: stopping before the first is not allowed."""
    g = position(RED_BLUE, phase="roll")
    g.apply("reverse")
    assert "done" not in legal(g)
    with pytest.raises(IllegalAction, match="at least one"):
        g.apply("done")


def test_reversing_is_forced_when_no_forward_step_exists() -> None:
    """Bumping Other Karts (last movement rule): no forward step but room behind: the kart must reverse."""
    g = position([{"colour": "red", "cell": "O2", "facing": "NE"}, RED_BLUE[1]], phase="roll")
    assert legal(g) == ["reverse"]
    with pytest.raises(IllegalAction, match="must reverse"):
        g.apply("roll 3")


def test_reversing_never_bumps() -> None:
    """Reversing: you may not bump another kart when reversing."""
    g = position(
        [{"colour": "red", "cell": "J3", "facing": "SE"}, {"colour": "blue", "cell": "I3", "facing": "N"}],
        phase="roll",
    )
    g.apply("reverse")
    assert "step I3" not in legal(g)
    with pytest.raises(IllegalAction, match="while reversing"):
        g.apply("step I3")


# Phase 4 -------------------------------------------------------------------------------------------

GREEN_FOR = {n: dice for n, dice in [
    (3, [1, 2]), (4, [2, 2]), (5, [2, 3]), (6, [3, 3]), (7, [3, 4]), (8, [4, 4]), (9, [4, 5]), (10, [5, 5]),
    (11, [5, 6]), (12, [6, 6]), (13, [6, 6, 1]), (14, [6, 6, 2]), (15, [6, 6, 3]), (16, [6, 6, 4]),
    (17, [6, 6, 5]), (18, [6, 6, 6]),
]}


@pytest.mark.parametrize("number", range(3, 19))
def test_phase4_delivers_a_face_down_tile_on_the_green_total(number: Any, track: Track) -> None:
    """Phase 4 / R12: a face-down junk tile goes to the Delivery Point of the green total."""
    dice = GREEN_FOR[number]
    g = position([{"colour": "red", "cell": "J3", "facing": "SE"}, {"colour": "blue", "cell": "L12", "facing": "N"}],
                 phase="roll", dice=dice)
    pile = len(g.junk)
    g.apply(f"roll {len(dice)}")
    cell = track.deliveries[number]
    assert g.board[cell].face_down
    assert len(g.junk) == pile - 1
    public = g.view(None)
    assert public["board"][cell.label] == {"kind": "junk", "face_down": True}


def test_phase4_only_green_dice_count() -> None:
    """Phase 4: only the green total counts for deliveries."""
    g = position(
        [{"colour": "red", "cell": "J3", "facing": "SE", "parts": {"6": "turbo-engine"}, "fuel": {"white": 1}},
         RED_BLUE[1]],
        phase="roll", dice=[1, 1, 2],
    )
    g.apply("roll 2 1w")  # green 2: no delivery, though the total is 4
    assert not g.board


@pytest.mark.parametrize("occupant", ["kart", "tile", "trap"])
def test_phase4_occupied_delivery_point_gets_nothing(occupant: str, track: Track) -> None:
    """Phase 4: a kart, a trap or another tile on the Delivery Point blocks the delivery."""
    cell = track.deliveries[7]
    karts = [{"colour": "red", "cell": "J3", "facing": "SE"}, {"colour": "blue", "cell": "B12", "facing": "N"}]
    board = {}
    if occupant == "kart":
        karts[1]["cell"] = cell.label
    elif occupant == "tile":
        board = {cell.label: "junk:oil"}
    else:
        board = {cell.label: "glue"}
    g = position(karts, phase="roll", dice=[3, 4], board=board)
    pile = len(g.junk)
    g.apply("roll 2")
    assert len(g.junk) == pile
    assert any(e.kind == "no-delivery" for e in g.last_events)
