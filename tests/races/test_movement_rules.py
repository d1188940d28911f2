"""Junkyard Races Phase 5: steps, bridges, collapsed bridges, the stream, bumping, the whole roll, laps.

Each test states its situation with the position format on the Proving Ground (see conftest.py) and
names its rulebook section or ruling.
"""

from __future__ import annotations

from typing import Any

import pytest

from rules.contract import IllegalAction
from rules.hexgrid import Facing, parse_label
from rules.races import Races, queries
from tests.races.conftest import FAR, at, kart, legal, position, steps


def moving(red: dict[str, Any], *others: dict[str, Any], points: int, **rest: Any) -> Races:
    return position([{"colour": "red", **red}, *others], phase="move", points=points, **rest)


# Steps and facing -------------------------------------------------------------------------------


def test_r5_forward_step_goes_ahead_or_sixty_degrees_and_faces_the_step() -> None:
    """Phase 5 / R5: ahead, ahead-left or ahead-right; the back faces the cell left."""
    g = moving({"cell": "K3", "facing": "SE"}, FAR, points=3)
    assert sorted(steps(g)) == ["step K4", "step L2", "step L3"]
    g.apply("step L2")
    assert kart(g, "red").facing is Facing.NE
    assert g.turn.points == 2


def test_step_accepts_left_straight_right() -> None:
    """Notation: 'step left/straight/right' names the cell relative to the kart's facing."""
    g = moving({"cell": "K3", "facing": "SE"}, FAR, points=3)
    g.apply("step left")
    assert at(g, "red") == "L2"


def test_step_to_a_cell_that_is_not_a_neighbour_is_refused_with_the_choices() -> None:
    """Phase 5: one cell at a time."""
    g = moving({"cell": "K3", "facing": "SE"}, FAR, points=3)
    with pytest.raises(IllegalAction, match="you can step to L2, L3, K4"):
        g.apply("step N3")


def test_walls_never_crossed_r2() -> None:
    """Junkyard Layout / R2: a kart may never cross a wall (the track's edge)."""
    g = moving({"cell": "O3", "facing": "SE"}, FAR, points=2)
    with pytest.raises(IllegalAction, match="off the track"):
        g.apply("step P3")


def test_must_use_the_whole_roll_r9_refuses_a_dead_end_with_the_reason() -> None:
    """R9 / movement rules: a step into a dead end is refused while another way uses the whole roll."""
    g = moving({"cell": "J3", "facing": "SE"}, FAR, points=4)
    assert "step J4" not in legal(g)
    with pytest.raises(IllegalAction, match=r"whole roll \(R9\).*stuck after 1 of your 4"):
        g.apply("step J4")


def test_r9_dead_end_is_fine_when_it_uses_the_last_point() -> None:
    """R9: the last point may end anywhere."""
    g = moving({"cell": "J3", "facing": "SE"}, FAR, points=1)
    assert "step J4" in legal(g)
    g.apply("step J4")
    assert at(g, "red") == "J4"


def test_no_crashing_into_a_wall_to_stop_early() -> None:
    """Movement rules: you may not crash into a wall to stop while you can turn and go on."""
    g = moving({"cell": "J3", "facing": "SE"}, FAR, points=4)
    g.apply("step K4")
    # every later step must still leave a way to use all the points
    for _ in range(3):
        assert g.turn.seat == 0
        g.apply(g.legal_actions()[0])
    assert g.turn.seat == 1


def test_r9_a_trap_may_be_entered_to_stop_early() -> None:
    """Movement rules: a player may choose to enter a trap to stop early (it is a rule stop)."""
    g = moving({"cell": "J3", "facing": "SE"}, FAR, points=5, board={"J4": "glue"})
    assert "step J4" in legal(g)


def test_r9_acid_does_not_stop_a_kart_on_standard_tyres() -> None:
    """R9 / Acid: without Mud or Grass Tyres the kart drives over Acid, so it is no stop: the dead end
    behind it is refused while another way uses the whole roll. With Mud Tyres it may stop there."""
    g = moving({"cell": "J3", "facing": "SE"}, FAR, points=4, board={"J4": "acid"})
    assert "step J4" not in legal(g)
    with pytest.raises(IllegalAction, match=r"whole roll \(R9\)"):
        g.apply("step J4")
    tyres = moving({"cell": "J3", "facing": "SE", "parts": {"3": "mud-tyres"}}, FAR, points=4, board={"J4": "acid"})
    assert "step J4" in legal(tyres)


def test_r9_oil_whose_arrow_cell_holds_a_kart_is_no_stop() -> None:
    """R9 / Oil: with a kart where its arrow points Oil does not fire, so it stops nobody; with that cell
    free it throws the kart and may be used to stop."""
    blocked = moving({"cell": "J3", "facing": "SE"}, {"colour": "blue", "cell": "I4", "facing": "N"}, points=4,
                     board={"J4": "oil NW"})
    assert "step J4" not in legal(blocked)
    with pytest.raises(IllegalAction, match=r"whole roll \(R9\)"):
        blocked.apply("step J4")
    free = moving({"cell": "J3", "facing": "SE"}, FAR, points=4, board={"J4": "oil NW"})
    assert "step J4" in legal(free)
    free.apply("step J4")
    assert at(free, "red") == "I4" and free.turn.seat == 1


def test_r9_oil_pointing_back_at_the_movers_own_cell_still_fires() -> None:
    """R9 / Oil: the mover has left the cell the arrow points at, so the Oil fires and is a stop."""
    g = moving({"cell": "J3", "facing": "SE"}, FAR, points=4, board={"J4": "oil N"})
    assert "step J4" in legal(g)
    g.apply("step J4")
    assert at(g, "red") == "J3" and kart(g, "red").facing is Facing.N


def test_move_drives_a_whole_path() -> None:
    """Notation: 'move' is a path of steps, each checked when it is reached."""
    g = moving({"cell": "J3", "facing": "SE"}, FAR, points=3)
    g.apply("move K4 L4 L5")
    assert at(g, "red") == "L5"
    assert g.turn.seat == 1


def test_move_with_an_illegal_step_changes_nothing() -> None:
    """apply: a refused path leaves the game exactly as it was."""
    g = moving({"cell": "J3", "facing": "SE"}, FAR, points=3)
    before = g.to_dict()
    with pytest.raises(IllegalAction, match="Step 2"):
        g.apply("move K4 K6 L5")
    assert g.to_dict() == before


# Bridges ----------------------------------------------------------------------------------------


def test_r6_bridge_entered_only_from_its_entry_cells() -> None:
    """Moving Across Bridges / R6: only from the cells its white arrows come from."""
    g = moving({"cell": "C6", "facing": "S"}, FAR, points=2)
    with pytest.raises(IllegalAction, match="bridge can't be entered"):
        g.apply("step C7")
    ok = moving({"cell": "M6", "facing": "S"}, FAR, points=2)
    ok.apply("step M7")
    assert at(ok, "red") == "M7"


def test_r6_bridge_with_two_entry_cells() -> None:
    """Moving Across Bridges: some bridges have two entry points."""
    for cell, facing in (("L6", "SE"), ("M6", "S"), ("N6", "SW")):
        g = moving({"cell": cell, "facing": facing}, FAR, points=3)
        assert "step M7" in legal(g), cell


def test_r6_bridge_left_only_to_its_exit_cells() -> None:
    """Moving Across Bridges / R6: a kart leaves a bridge only where the white exit arrows point."""
    g = moving({"cell": "M7", "facing": "SE"}, FAR, points=3)
    with pytest.raises(IllegalAction, match="white arrows"):
        g.apply("step N6")
    assert steps(g) == ["step M8"]


def test_r6_turned_round_on_a_bridge_must_reverse_off_with_the_arrows() -> None:
    """Reversing: a kart facing the wrong way on a bridge reverses off in the arrows' direction."""
    g = position([{"colour": "red", "cell": "M8", "facing": "N"}, FAR], phase="roll")
    assert legal(g) == ["reverse"]
    g.apply("reverse")
    assert steps(g) == ["step M9"]


def test_r4_crossing_a_bridge_is_remembered_for_the_lap() -> None:
    """R4: leaving a bridge by its exit counts as crossing a bridge."""
    g = moving({"cell": "M8", "facing": "S"}, FAR, points=2)
    g.apply("step M9")
    assert kart(g, "red").bridge_since_line


# Collapsed bridges (R7) -----------------------------------------------------------------------------


def test_r7_jump_made_lands_on_the_far_end_and_moves_on() -> None:
    """R7 / Phase 3 (Bridge): enough movement to reach the far end lands the kart and it keeps going."""
    g = moving({"cell": "O5", "facing": "S"}, FAR, points=6)
    g.apply("step O6")
    g.apply("step O7")
    red = kart(g, "red")
    assert at(g, "red") == "O9" and red.facing is Facing.S
    assert g.turn.points == 2
    assert red.bottle_tops == 3  # O9 is a collection point
    assert any(e.kind == "jump" for e in g.last_events)


def test_r7_jump_failed_falls_into_the_gap_where_movement_ran_out() -> None:
    """R7: short of the far end the kart falls into the stream in the gap."""
    g = moving({"cell": "O5", "facing": "S"}, FAR, points=3)
    g.apply("step O6")
    g.apply("step O7")
    assert at(g, "red") == "O8"
    assert any(e.kind == "fall" for e in g.last_events)
    assert g.turn.seat == 1


def test_r7_jump_with_one_point_falls_in_the_first_gap_cell() -> None:
    """R7: one point left enters only the first gap cell."""
    g = moving({"cell": "O6", "facing": "S"}, FAR, points=1)
    g.apply("step O7")
    assert at(g, "red") == "O7"


def test_r7_bridge_end_start_allows_one_die() -> None:
    """R7 / Phase 3 (Bridge): starting on a bridge end allows one green die."""
    g = position([{"colour": "red", "cell": "O6", "facing": "S"}, FAR], phase="roll")
    assert [a for a in legal(g) if a.startswith("roll")] == ["roll 1"]


def test_r7_a_jump_counts_as_a_step_choice_even_when_other_ways_use_the_roll() -> None:
    """R9/R7: attempting a jump is always allowed; falling short is a stop the rules cause."""
    g = moving({"cell": "O6", "facing": "S"}, FAR, points=2)
    assert "step O7" in legal(g)


# The stream and Landing Points (R8) -------------------------------------------------------------


def test_r8_kart_in_the_stream_restarts_on_its_landing_point() -> None:
    """R8 / Bumping Other Karts Into The Stream: at the start of its turn it is put on the Landing Point."""
    g = position([{"colour": "red", "cell": "O7", "facing": "S"}, FAR], turn="red")
    red = kart(g, "red")
    assert red.cell == parse_label("N10") and red.facing is Facing.S
    assert g.phase == "roll"


def test_r8_occupied_landing_point_loses_the_turn() -> None:
    """R8: if a kart stands on the Landing Point, the turn is lost."""
    g = position([{"colour": "red", "cell": "O7", "facing": "S"}, {"colour": "blue", "cell": "N10", "facing": "N"}],
                 turn="red")
    assert at(g, "red") == "O7"
    assert g.turn.seat == queries.seat_by_colour(g, "blue")
    assert any(e.kind == "turn-lost" for e in g.last_events) or g.turn.seat == 1


def test_r8_landing_point_for_the_other_crossing() -> None:
    """R8: each stream cell names its own Landing Point (crossing 2 here)."""
    g = position([{"colour": "red", "cell": "E8", "facing": "N"}, FAR], turn="red")
    assert at(g, "red") == "B6" and kart(g, "red").facing is Facing.N


def landing(trap: str, **red: object) -> Races:
    """Red swims at O7 and starts its turn: its Landing Point N10 (facing S) holds ``trap``."""
    dice = red.pop("dice", [])
    return position([{"colour": "red", "cell": "O7", "facing": "S", **red}, FAR], turn="red", board={"N10": trap},
                    dice=dice)


def test_r8_glue_on_the_landing_point_holds_the_kart_and_ends_its_turn() -> None:
    """R8 / Bumping Other Karts Into The Stream: a trap on the Landing Point takes effect before moving;
    Glue stops the kart, so the turn ends (and the kart stays glued for its next turn)."""
    g = landing("glue")
    assert at(g, "red") == "N10" and kart(g, "red").glued
    assert g.turn.seat == 1 and parse_label("N10") in g.board


def test_r8_oil_on_the_landing_point_skids_the_kart_and_ends_its_turn() -> None:
    """R8 / Oil: put on Oil, the kart skids along the arrow, spun round, and its turn ends."""
    g = landing("oil SE")
    assert at(g, "red") == "O11" and kart(g, "red").facing is Facing.N
    assert g.turn.seat == 1 and parse_label("N10") not in g.board


def test_r8_time_bomb_on_the_landing_point_explodes() -> None:
    """R8 / Time Bomb: put on a Time Bomb, the kart sets it off, is spun round and rolls for damage."""
    g = landing("time-bomb", parts={"3": "mud-tyres"}, dice=[1, 2])
    red = kart(g, "red")
    assert parse_label("N10") not in g.board and red.facing is Facing.N and red.parts == {}
    assert g.turn.seat == 1


def test_r8_acid_on_the_landing_point_melts_tyres_but_not_standard_ones() -> None:
    """R8 / Acid: standard tyres cross it unharmed and the turn goes on; a Mud Tyre at the location
    rolled melts and the turn ends."""
    plain = landing("acid")
    assert plain.turn.seat == 0 and plain.phase == "roll" and parse_label("N10") in plain.board
    tyres = landing("acid", parts={"3": "mud-tyres"}, dice=[3])
    assert kart(tyres, "red").parts == {} and tyres.turn.seat == 1


def test_r8_spring_on_the_landing_point_flings_the_kart_back_to_where_its_move_began() -> None:
    """R8 / Spring: 1–3 flings the kart back to where its move began (the Landing Point itself),
    facing as its player chooses, and the turn ends."""
    g = landing("spring", dice=[2])
    assert at(g, "red") == "N10" and g.choice is not None and g.choice.kind == "facing" and g.to_act == 0
    g.apply("choose NE")
    assert kart(g, "red").facing is Facing.NE and g.turn.seat == 1 and parse_label("N10") not in g.board


def test_r8_junk_on_the_landing_point_is_picked_up_and_the_turn_goes_on() -> None:
    """R8: a face-down tile on the Landing Point is taken, like any tile a kart comes to."""
    g = landing("junk:magnet")
    assert [t.kind for t in kart(g, "red").bags[7]] == ["magnet"] and g.turn.seat == 0


# Bumping ----------------------------------------------------------------------------------------


def test_bump_pushes_in_the_direction_of_travel_and_keeps_the_facing() -> None:
    """Bumping Other Karts: one cell in the mover's direction; the bumped kart does not turn."""
    g = moving({"cell": "J3", "facing": "SE"}, {"colour": "blue", "cell": "K4", "facing": "N"}, points=3)
    g.apply("step K4")
    assert at(g, "blue") == "L4" and kart(g, "blue").facing is Facing.N
    assert at(g, "red") == "K4"
    assert g.turn.bumped == [1]


def test_bump_no_chains() -> None:
    """Bumping: two karts in a row cannot be bumped."""
    g = moving({"cell": "J3", "facing": "SE"}, {"colour": "blue", "cell": "K4", "facing": "N"},
               {"colour": "green", "cell": "L4", "facing": "N"}, points=3)
    with pytest.raises(IllegalAction, match="only one kart"):
        g.apply("step K4")


def test_bump_not_over_a_wall() -> None:
    """Bumping: you may not bump a kart over a wall."""
    g = moving({"cell": "N3", "facing": "SE"}, {"colour": "blue", "cell": "O3", "facing": "N"}, points=3)
    with pytest.raises(IllegalAction, match="wall"):
        g.apply("step O3")


def test_bump_each_kart_once_per_turn() -> None:
    """Bumping: the same kart may not be bumped twice in one turn."""
    g = moving({"cell": "J3", "facing": "SE"}, {"colour": "blue", "cell": "K4", "facing": "N"}, points=3,
               bumped=["blue"])
    with pytest.raises(IllegalAction, match="already been bumped"):
        g.apply("step K4")


def test_bump_into_the_stream_from_the_bank() -> None:
    """Bumping Other Karts Into The Stream: pushed off an open bank, a kart lands in the water."""
    g = moving({"cell": "L5", "facing": "S"}, {"colour": "blue", "cell": "L6", "facing": "N"}, points=2)
    g.apply("step L6")
    assert at(g, "blue") == "L7"
    assert any(e.kind == "splash" for e in g.last_events)


def test_bump_off_a_bridge_into_the_stream_on_a_red_side() -> None:
    """Moving Across Bridges: red arrows show where a kart on a bridge can be bumped into the stream."""
    g = moving({"cell": "L6", "facing": "SE"}, {"colour": "blue", "cell": "M7", "facing": "S"}, points=2)
    g.apply("step M7")
    assert at(g, "blue") == "N7"
    assert at(g, "red") == "M7"


def test_bump_onto_a_bridge_against_its_arrows_is_refused() -> None:
    """Bumping: a kart is bumped onto or off a bridge only in the direction of the arrows."""
    g = moving({"cell": "M10", "facing": "N"}, {"colour": "blue", "cell": "M9", "facing": "N"}, points=2)
    with pytest.raises(IllegalAction, match="bridge arrows"):
        g.apply("step M9")


def test_bump_along_a_bridge_with_its_arrows() -> None:
    """Bumping: along the arrows a bridge kart can be pushed on."""
    g = moving({"cell": "M6", "facing": "S"}, {"colour": "blue", "cell": "M7", "facing": "S"}, points=2)
    g.apply("step M7")
    assert at(g, "blue") == "M8"


def test_bumped_onto_a_collection_point_takes_its_bottle_tops() -> None:
    """Bumping: a kart bumped onto a Bottle Top Collection Point takes its bottle tops."""
    g = moving({"cell": "M5", "facing": "S"}, {"colour": "blue", "cell": "M6", "facing": "S"}, points=1)
    g.apply("step M6")
    assert at(g, "blue") == "M7" and kart(g, "blue").bottle_tops == 2


def test_bumping_a_kart_off_a_collection_point_collects_for_the_mover() -> None:
    """Bumping: bump a kart off a collection point and take its place: you collect."""
    g = moving({"cell": "M6", "facing": "S"}, {"colour": "blue", "cell": "M7", "facing": "S"}, points=2)
    g.apply("step M7")
    assert kart(g, "red").bottle_tops == 2


def test_bumped_onto_a_junk_tile_picks_it_up() -> None:
    """Bumping: a kart bumped onto a face-down junk tile takes it."""
    g = moving({"cell": "L2", "facing": "S"}, {"colour": "blue", "cell": "L3", "facing": "S"}, points=3,
               board={"L4": "junk:magnet"})
    g.apply("step L3")
    blue = kart(g, "blue")
    assert [t.kind for t in blue.bags[7]] == ["magnet"]
    pickup = next(e for e in g.last_events if e.kind == "pickup")
    assert pickup.seat == 1 and pickup.secret and "magnet" in pickup.secret and "magnet" not in pickup.text


def test_bump_with_no_way_round_stops_in_the_bumped_karts_place() -> None:
    """Bumping: with no way round the mover stays where the bumped kart was and loses the rest."""
    g = moving(
        {"cell": "H12", "facing": "NW"},
        {"colour": "blue", "cell": "G12", "facing": "N"},
        {"colour": "green", "cell": "F12", "facing": "N"},
        {"colour": "yellow", "cell": "E13", "facing": "N"},
        points=5,
    )
    g.apply("step G12")
    assert at(g, "red") == "G12" and at(g, "blue") == "F11"
    assert any(e.kind == "blocked" for e in g.last_events)
    assert g.turn.seat == 1


def test_bump_then_overtake_and_carry_on() -> None:
    """Bumping: with room past the bumped kart the mover keeps moving."""
    g = moving({"cell": "J3", "facing": "SE"}, {"colour": "blue", "cell": "K4", "facing": "N"}, points=3)
    g.apply("step K4")
    assert g.turn.points == 2 and g.phase == "move"
    assert "step L4" not in legal(g)  # blue stands there now


def test_one_space_wide_stretch_either_way() -> None:
    """Moving Through One Space Wide Areas: karts may drive either way along a narrow stretch."""
    east = moving({"cell": "F12", "facing": "NE"}, FAR, points=2)
    assert "step G12" in legal(east)
    west = moving({"cell": "H12", "facing": "NW"}, FAR, points=2)
    assert "step G12" in legal(west)


# Pick-ups and bottle tops ---------------------------------------------------------------------------


def test_driving_over_a_face_down_tile_picks_it_up_when_there_is_room() -> None:
    """Junk Tiles: driving onto a face-down tile keeps it (printed saddlebag holds 5)."""
    g = moving({"cell": "J3", "facing": "SE"}, FAR, points=3, board={"K3": "junk:oil"})
    g.apply("step K3")
    assert [t.kind for t in kart(g, "red").bags[7]] == ["oil"] and not g.board


def test_full_saddlebags_leave_the_tile_on_the_board() -> None:
    """Junk Tile Storage: no room, no pick-up; tiles are never discarded to make room."""
    g = moving({"cell": "J3", "facing": "SE", "bags": {"7": ["glue", "glue", "acid", "oil", "bomb"]}}, FAR,
               points=3, board={"K3": "junk:oil"})
    g.apply("step K3")
    assert kart(g, "red").tile_count == 5 and parse_label("K3") in g.board


def test_r18_a_step_may_leave_the_junk_tile_face_down() -> None:
    """R18: picking up is optional; 'step CELL leave' drives on and the tile stays face down where it lies."""
    g = moving({"cell": "J3", "facing": "SE"}, FAR, points=3, board={"K3": "junk:oil"})
    assert "step K3 leave" in legal(g) and "step K4 leave" not in legal(g)  # only where a tile lies
    g.apply("step K3 leave")
    assert kart(g, "red").tile_count == 0 and g.board[parse_label("K3")].face_down
    assert any(e.kind == "leave" for e in g.last_events) and not any(e.kind == "pickup" for e in g.last_events)
    assert g.turn.points == 2 and g.choice is None


def test_r18_leave_where_there_is_nothing_to_leave_is_refused() -> None:
    """R18: 'leave' with no face-down tile on the way, or with full saddlebags, is refused and changes nothing."""
    g = moving({"cell": "J3", "facing": "SE"}, FAR, points=3, board={"K3": "junk:oil"})
    before = g.to_dict()
    with pytest.raises(IllegalAction, match="nothing to leave"):
        g.apply("step K4 leave")
    full = moving({"cell": "J3", "facing": "SE", "bags": {"7": ["glue"] * 5}}, FAR, points=3, board={"K3": "junk"})
    assert "step K3 leave" not in legal(full)
    with pytest.raises(IllegalAction, match="full"):
        full.apply("step K3 leave")
    assert g.to_dict() == before


def test_r18_a_whole_move_may_leave_the_tiles_on_its_path() -> None:
    """R18: 'move … leave' passes every face-down tile on the path; listed only beside moves that pass one."""
    g = moving({"cell": "J3", "facing": "SE"}, FAR, points=2, board={"K3": "junk:oil"})
    listed = legal(g)
    assert "move K3 L2 leave" in listed and "move K4 L4 leave" not in listed
    assert listed.index("move K3 L2") < listed.index("move K3 L2 leave")  # the plain move comes first
    g.apply("move K3 L2 leave")
    assert at(g, "red") == "L2" and kart(g, "red").tile_count == 0 and g.board[parse_label("K3")].face_down
    taken = moving({"cell": "J3", "facing": "SE"}, FAR, points=2, board={"K3": "junk:oil"})
    taken.apply("move K3 L2")
    assert [t.kind for t in kart(taken, "red").bags[7]] == ["oil"]  # by default the kart takes it


def test_r18_leaving_asks_no_saddlebag_question() -> None:
    """R18 with R14: a tile left behind needs no saddlebag, so nothing is asked."""
    g = moving({"cell": "J3", "facing": "SE", "parts": {"4": "saddlebag-4"}}, FAR, points=3, board={"K3": "junk"})
    g.apply("step K3 leave")
    assert g.choice is None and g.turn.points == 2


def test_r18_a_jump_may_leave_the_tile_on_the_far_end() -> None:
    """R18 / R7: the far end of a collapsed bridge is on the way of the step into its gap."""
    g = moving({"cell": "O6", "facing": "S"}, FAR, points=4, board={"O9": "junk:glue"})
    assert "step O7 leave" in legal(g)
    g.apply("step O7 leave")
    assert at(g, "red") == "O9" and kart(g, "red").tile_count == 0 and g.board[parse_label("O9")].face_down


def test_bottle_tops_are_capped_at_ten() -> None:
    """Bottle Top Tokens: no player holds more than 10."""
    g = moving({"cell": "M6", "facing": "S", "bottle_tops": 9}, FAR, points=2)
    g.apply("step M7")
    assert kart(g, "red").bottle_tops == 10


# Laps and winning (R4) -------------------------------------------------------------------------------


def lap_position(flags: int = 0, bridge: bool = True, armed: bool = True, **rest: Any) -> Races:
    return moving({"cell": "E3", "facing": "SE", "flags": flags, "bridge": bridge, "armed": armed}, FAR, points=2,
                  **rest)


def test_r4_lap_counts_after_a_bridge() -> None:
    """R4 / Object of the Game: crossing the line forwards with a bridge crossed since earns a flag."""
    g = lap_position()
    g.apply("step F3")
    assert kart(g, "red").flags == 1
    assert not kart(g, "red").bridge_since_line


def test_r4_no_lap_without_a_bridge() -> None:
    """R4: at least one bridge must be crossed between two crossings of the line."""
    g = lap_position(bridge=False)
    g.apply("step F3")
    assert kart(g, "red").flags == 0


def test_r4_first_crossing_only_arms_the_count() -> None:
    """R4: the first crossing after the start does not count."""
    g = lap_position(armed=False)
    g.apply("step F3")
    red = kart(g, "red")
    assert red.flags == 0 and red.armed


def test_r4_crossing_backwards_never_counts() -> None:
    """R4: backwards across the line earns nothing and needs a new bridge."""
    g = moving({"cell": "F3", "facing": "NW", "bridge": True}, FAR, points=2)
    g.apply("step E3")
    red = kart(g, "red")
    assert red.flags == 0 and not red.bridge_since_line


def test_r4_fifth_flag_wins() -> None:
    """Object of the Game: the first to five flags wins."""
    g = lap_position(flags=4)
    g.apply("step F3")
    assert g.is_over and g.winners == [0] and g.to_act is None
    assert g.legal_actions() == []
    with pytest.raises(IllegalAction, match="over"):
        g.apply("step G3")


def test_r4_short_race_option() -> None:
    """Setup: a shorter race (1 to 5 laps) for quick games."""
    g = lap_position(flags=1, options={"laps": 2})
    g.apply("step F3")
    assert g.is_over


def test_team_racing_whole_team_must_reach_five() -> None:
    """Team Racing / R4: a team wins when every member has five flags; flags stop at five."""
    karts = [
        {"colour": "red", "cell": "E3", "facing": "SE", "flags": 4, "bridge": True, "team": 0},
        {"colour": "blue", "cell": "B12", "facing": "N", "flags": 2, "team": 1},
        {"colour": "green", "cell": "L12", "facing": "N", "flags": 3, "team": 0},
        {"colour": "yellow", "cell": "N12", "facing": "N", "flags": 0, "team": 1},
    ]
    g = position(karts, phase="move", points=2, options={"teams": True})
    g.apply("step F3")
    assert kart(g, "red").flags == 5 and not g.is_over
    karts[0]["flags"] = 5
    g = position(karts, phase="move", points=2, options={"teams": True})
    g.apply("step F3")
    assert kart(g, "red").flags == 5  # no sixth flag: the member races on to help the team
    assert not g.is_over


def test_team_member_with_five_flags_completes_the_team_win() -> None:
    """Team Racing: the last member's fifth flag wins for the team."""
    karts = [
        {"colour": "red", "cell": "E3", "facing": "SE", "flags": 4, "bridge": True, "team": 0},
        {"colour": "blue", "cell": "B12", "facing": "N", "flags": 2, "team": 1},
        {"colour": "green", "cell": "L12", "facing": "N", "flags": 5, "team": 0},
        {"colour": "yellow", "cell": "N12", "facing": "N", "flags": 0, "team": 1},
    ]
    g = position(karts, phase="move", points=2, options={"teams": True})
    g.apply("step F3")
    assert g.is_over and sorted(g.winners) == [0, 2]


def test_whole_moves_are_listed_for_every_end_cell_of_plain_steps() -> None:
    """Phase 5 as a whole path: every listed move spends all points and applies as written."""
    g = moving({"cell": "J3", "facing": "SE"}, FAR, points=3)
    moves = [a for a in legal(g) if a.startswith("move")]
    assert "move K4 L4 L5" in moves
    ends = [m.split()[-1] for m in moves]
    assert len(ends) == len(set(ends))
    for m in moves:
        copy = Races.from_dict(g.to_dict())
        copy.apply(m)
        assert copy.turn.seat == 1 and at(copy, "red") == m.split()[-1]


def test_whole_moves_go_round_karts_and_traps() -> None:
    """Whole moves are plain: no bumps, no traps; those are driven step by step."""
    g = moving({"cell": "J3", "facing": "SE"}, {"colour": "blue", "cell": "K4", "facing": "N"}, points=2,
               board={"K3": "glue"})
    moves = [a for a in legal(g) if a.startswith("move")]
    assert all("K4" not in m and "K3" not in m for m in moves)


def test_r6_turned_round_on_a_collapsed_bridge_end_reverses_off_over_the_gap() -> None:
    """Reversing / R6 / R7: turned round on a bridge end, the kart reverses off with the arrows: into the gap,
    flying it tail first; three cells reach the far end of a two-cell gap."""
    g = position([{"colour": "red", "cell": "O6", "facing": "N"}, FAR], phase="roll")
    assert legal(g) == ["reverse"]
    g.apply("reverse")
    assert steps(g) == ["step O7"]
    g.apply("step O7")
    assert at(g, "red") == "O9" and kart(g, "red").facing is Facing.N
    assert g.turn.seat == 1


def test_r7_reversing_into_a_gap_short_of_the_far_end_falls_in() -> None:
    g = position([{"colour": "red", "cell": "O6", "facing": "N"}, FAR], phase="move", points=2, reversing=True,
                 reverse_steps=1)
    g.apply("step O7")
    assert at(g, "red") == "O8" and g.turn.seat == 1
