"""Junkyard Races arsenal: placing traps and weapons, every junk tile, damage, parts, gadgets, teams.

Each test states its situation with the position format on the Proving Ground (see conftest.py) and
names its rulebook section or ruling.
"""

from __future__ import annotations

from typing import Any

import pytest

from rules.contract import IllegalAction
from rules.hexgrid import Facing, parse_label
from rules.races import Races, queries
from tests.races.conftest import FAR, at, kart, legal, position


def tile_at(g: Races, label: str) -> Any:
    return g.board.get(parse_label(label))


def red(**kw: Any) -> dict[str, Any]:
    return {"colour": "red", "cell": "J3", "facing": "SE", **kw}


def deeds(*karts: dict[str, Any], **rest: Any) -> Races:
    return position(list(karts), phase="deeds", **rest)


# Phase 1: placing traps and weapons ------------------------------------------------------------------


def test_phase1_trap_goes_on_a_cell_next_to_your_kart() -> None:
    """Phase 1: traps are set in one of the six cells around your own kart."""
    g = deeds(red(bags={"7": ["glue"]}), FAR)
    assert "trap glue K3" in legal(g) and "trap glue L5" not in legal(g)
    g.apply("trap glue K3")
    t = tile_at(g, "K3")
    assert t.kind == "glue" and not t.face_down and t.owner == 0
    assert kart(g, "red").tile_count == 0
    assert g.phase == "roll"  # nothing more to do in Phases 1 and 2: they pass by themselves
    with pytest.raises(IllegalAction, match="not next to your kart"):
        deeds(red(bags={"7": ["glue"]}), FAR).apply("trap glue L5")


def test_phase1_not_across_a_wall() -> None:
    """Phase 1: no trap across a solid wall."""
    g = deeds(red(cell="N12", facing="N", bags={"7": ["glue"]}), FAR)
    with pytest.raises(IllegalAction, match="wall"):
        g.apply("trap glue N13")


@pytest.mark.parametrize(
    ("cell", "where", "message"),
    [("J3", "K4", "a kart is on"), ("L6", "L7", "stream"), ("B2", "B1", "Pit Stop"), ("J3", "K3", "already holds")],
)
def test_phase1_placement_restrictions(cell: str, where: str, message: str) -> None:
    """Phase 1: not on a kart, a trap, the stream or a Pit Stop."""
    g = deeds(red(cell=cell, bags={"7": ["glue"]}), {"colour": "blue", "cell": "K4", "facing": "N"},
              board={"K3": "oil N"})
    before = g.to_dict()
    with pytest.raises(IllegalAction, match=message):
        g.apply(f"trap glue {where}")
    assert g.to_dict() == before


def test_phase1_allowed_on_bridges_collection_and_delivery_points() -> None:
    """Phase 1: Delivery Points, Bottle Top Collection Points and bridges may hold traps."""
    g = deeds(red(cell="M6", facing="S", bags={"7": ["glue", "acid"]}), FAR)
    g.apply("trap glue M7")  # a bridge and a collection point
    g2 = deeds(red(bags={"7": ["acid"]}), FAR)
    g2.apply("trap acid K4")  # Delivery Point 6
    assert tile_at(g, "M7").kind == "glue" and tile_at(g2, "K4").kind == "acid"


def test_phase1_done_moves_on_and_phases_without_offers_are_skipped() -> None:
    """Sequence of Play: Phase 1 ends on 'done'; Phase 2 with nothing to offer passes by itself."""
    g = deeds(red(bags={"7": ["glue"]}), FAR)
    g.apply("done")
    assert g.phase == "roll"


def test_oil_needs_an_arrow_that_does_not_point_into_a_wall() -> None:
    """Oil: its arrow is chosen when it is set."""
    g = deeds(red(cell="O3", facing="SE", bags={"7": ["oil"]}), FAR)
    with pytest.raises(IllegalAction, match="arrow"):
        g.apply("trap oil N3")
    with pytest.raises(IllegalAction, match="wall"):
        g.apply("trap oil O4 SE")
    g.apply("trap oil O4 SW")
    assert tile_at(g, "O4").arrow is Facing.SW


# Fuel ------------------------------------------------------------------------------------------------


def test_turbo_fuel_trades_for_the_white_dice_left() -> None:
    """Turbo Fuel / R11: a fuel tile buys the white dice still in the supply; the tile goes back."""
    g = position([red(parts={"6": "turbo-engine"}, bags={"7": ["turbo-fuel"]}),
                  {"colour": "blue", "cell": "B12", "facing": "N", "parts": {"6": "turbo-engine"},
                   "fuel": {"white": 3}}], phase="parts")
    g.apply("refuel white")
    assert kart(g, "red").fuel["white"] == 2 and g.dice_left["white"] == 0
    assert g.junk[-1] == "turbo-fuel" and kart(g, "red").tile_count == 0


def test_fuel_needs_its_engine() -> None:
    """Fuel: no dice without the engine fitted."""
    g = position([red(cell="I14", facing="NE", parts={"3": "mud-tyres"}, bags={"7": ["jet-fuel"]}), FAR])
    assert g.phase == "parts" and "refuel red" not in legal(g)
    with pytest.raises(IllegalAction, match="Jet Engine"):
        g.apply("refuel red")


def test_jet_fuel_explosion_on_five_sixes() -> None:
    """Jet Fuel: five or more sixes with red dice blow the Jet Engine away and end the turn."""
    g = position([red(parts={"7": "jet-engine"}, fuel={"red": 4}), FAR], phase="roll", dice=[6, 6, 6, 6, 6])
    g.apply("roll 2 3r")
    r = kart(g, "red")
    assert "jet-engine" not in r.parts.values() and r.fuel["red"] == 0 and g.dice_left["red"] == 7
    assert g.parts_left["jet-engine"] == 4 and any(e.kind == "jet-explodes" for e in g.last_events)
    assert g.turn.seat == 1 and 7 in r.bags  # the printed saddlebag is uncovered again


def test_jet_dice_without_five_sixes_just_move() -> None:
    """Jet Engine: red dice add to the green; unused ones stay on the engine."""
    g = position([red(parts={"7": "jet-engine"}, fuel={"red": 4}), FAR], phase="roll", dice=[6, 6, 6, 6, 1])
    g.apply("roll 2 3r")
    assert g.turn.points == 25 and kart(g, "red").fuel["red"] == 1


# Magnet ----------------------------------------------------------------------------------------------


def test_magnet_pulls_a_kart_onto_it_and_its_player_picks_the_facing() -> None:
    """Magnet / R14: a kart within 10 cells is pulled onto the Magnet, facing the way its user chooses."""
    g = deeds(red(bags={"7": ["magnet"]}), {"colour": "blue", "cell": "N3", "facing": "S"})
    g.apply("magnet K3 blue")
    assert at(g, "blue") == "K3" and g.choice is not None and g.to_act == 0
    g.apply("choose NW")
    assert kart(g, "blue").facing is Facing.NW and g.junk[-1] == "magnet"


def test_magnet_range_is_ten_cells_counting_both() -> None:
    """Magnet: at most 10 cells, the target's and the Magnet's included."""
    g = deeds(red(cell="B12", facing="N", bags={"7": ["magnet"]}), {"colour": "blue", "cell": "N3", "facing": "S"})
    assert not [a for a in legal(g) if a.startswith("magnet") and a.endswith("blue")]
    with pytest.raises(IllegalAction, match="at most 10"):
        g.apply("magnet B11 blue")


def test_magnet_blocked_by_field_generator() -> None:
    """Anti-magnetic Field Generator: magnets don't work on that kart."""
    g = deeds(red(bags={"7": ["magnet"]}), {"colour": "blue", "cell": "N3", "facing": "S",
                                            "parts": {"9": "field-generator"}})
    with pytest.raises(IllegalAction, match="Anti-magnetic"):
        g.apply("magnet K3 blue")


def test_magnet_counts_round_karts() -> None:
    """Magnet: a kart is not pulled through another kart; count round it."""
    g = deeds(red(cell="G12", facing="NW", bags={"7": ["magnet"]}),
              {"colour": "blue", "cell": "J12", "facing": "N"}, {"colour": "green", "cell": "H12", "facing": "N"},
              {"colour": "yellow", "cell": "H11", "facing": "N"})
    assert "magnet F12 blue" not in legal(g)


def test_magnet_never_pulls_over_a_bridge_the_wrong_way() -> None:
    """Magnet: no pull over a bridge against its arrows."""
    g = deeds(red(cell="M5", facing="N", bags={"7": ["magnet"]}), {"colour": "blue", "cell": "M10", "facing": "N"})
    assert "magnet M6 blue" not in legal(g)


def test_magnet_pulls_your_own_kart_one_cell() -> None:
    """Magnet: you may pull your own kart along one cell."""
    g = deeds(red(bags={"7": ["magnet"]}), FAR)
    g.apply("magnet K3 red")
    assert at(g, "red") == "K3"
    g.apply("choose SE")
    assert kart(g, "red").facing is Facing.SE


# Spring ----------------------------------------------------------------------------------------------


def test_spring_flings_back_on_one_to_three() -> None:
    """Spring / R14: 1–3 flings the kart back to where its move began, facing its choice; turn over."""
    g = position([red(), FAR], phase="roll", board={"K3": "spring"}, dice=[3, 3, 2])
    g.apply("roll 2")
    g.apply("step K3")
    assert at(g, "red") == "J3" and g.choice is not None and g.choice.kind == "facing"
    g.apply("choose N")
    assert kart(g, "red").facing is Facing.N and tile_at(g, "K3") is None and g.turn.seat == 1


def test_spring_stuck_on_four_to_six_drives_on() -> None:
    """Spring: 4–6 and the Spring is stuck: it stays and the kart moves on."""
    g = position([red(), FAR], phase="move", points=4, board={"K3": "spring"}, dice=[5])
    g.apply("step K3")
    assert at(g, "red") == "K3" and g.turn.points == 3 and tile_at(g, "K3").kind == "spring"


def test_spring_does_not_trigger_when_bumped_onto() -> None:
    """Spring: a kart bumped onto a Spring is not flung."""
    g = position([red(), {"colour": "blue", "cell": "K4", "facing": "N"}], phase="move", points=2,
                 board={"L4": "spring"})
    g.apply("step K4")
    assert at(g, "blue") == "L4" and tile_at(g, "L4").kind == "spring"


def test_r23_a_spring_whose_way_back_is_taken_leaves_the_kart_on_its_cell() -> None:
    """R23: Red bumps Blue onto B2, the cell Red's move began on, then meets a Spring that fires (2): with
    Blue standing on B2 Red stays on the Spring's cell; the Spring is used up and the turn is over."""
    g = position([{"colour": "red", "cell": "B2", "facing": "N"}, {"colour": "blue", "cell": "B3", "facing": "N"}],
                 phase="move", points=8, board={"C3": "spring"}, dice=[2])
    g.apply("move C2 D2 D3 D4 C5 B4 B3 C3")
    assert at(g, "blue") == "B2" and at(g, "red") == "C3" and tile_at(g, "C3") is None
    assert "event.spring_start_taken" in [e.data.get("msg") for e in g.last_events]
    assert g.choice is not None and g.choice.kind == "facing"  # R14: the facing is still Red's choice
    g.apply("choose S")
    assert at(g, "red") == "C3" and kart(g, "red").facing is Facing.S and g.turn.seat == 1


# Acid ------------------------------------------------------------------------------------------------


def test_acid_is_harmless_on_standard_tyres() -> None:
    """Acid: the printed standard tyres are acid-proof; the kart drives over."""
    g = position([red(), FAR], phase="move", points=3, board={"K3": "acid"})
    g.apply("step K3")
    assert g.turn.points == 2 and tile_at(g, "K3").kind == "acid"


def test_acid_melts_the_tyre_the_die_names() -> None:
    """Acid: with Mud or Grass Tyres, 2–5 melts the tyre at that location and ends the move."""
    g = position([red(parts={"3": "mud-tyres", "4": "grass-tyres"}), FAR], phase="move", points=3,
                 board={"K3": "acid"}, dice=[4])
    g.apply("step K3")
    r = kart(g, "red")
    assert r.parts == {3: "mud-tyres"} and g.parts_left["grass-tyres"] == 16
    assert tile_at(g, "K3") is None and g.turn.seat == 1


def test_acid_avoided_on_one_or_six() -> None:
    """Acid: 1 or 6 and the kart gets through; the trap stays."""
    g = position([red(parts={"3": "mud-tyres"}), FAR], phase="move", points=3, board={"K3": "acid"}, dice=[6])
    g.apply("step K3")
    assert g.turn.points == 2 and kart(g, "red").parts == {3: "mud-tyres"} and tile_at(g, "K3")


def test_r20_acid_ends_the_move_even_with_no_tyre_where_the_die_points() -> None:
    """R20: with Mud Tyres at location 3 only, a 4 names an empty location: nothing melts, but the move ends
    there and the Acid is removed all the same."""
    g = position([red(parts={"3": "mud-tyres"}), FAR], phase="move", points=3, board={"K3": "acid"}, dice=[4])
    g.apply("step K3")
    assert at(g, "red") == "K3" and kart(g, "red").parts == {3: "mud-tyres"}
    assert tile_at(g, "K3") is None and g.junk[-1] == "acid"
    assert "event.acid_no_tyre" in [e.data.get("msg") for e in g.last_events]
    assert g.turn.seat == 1  # two points were left, and the move (so the turn) is over


# Glue ------------------------------------------------------------------------------------------------


def test_glue_stops_the_kart_and_next_turn_allows_one_die() -> None:
    """Glue: entering it ends the turn; next turn the Glue is peeled off and one die is rolled."""
    g = position([red(), FAR], phase="move", points=4, board={"K3": "glue"})
    g.apply("step K3")
    assert g.turn.seat == 1 and kart(g, "red").glued
    g2 = position([red(cell="K3", glued=True), FAR], board={"K3": "glue"})
    assert tile_at(g2, "K3") is None and g2.junk[-1] == "glue"
    assert [a for a in legal(g2) if a.startswith("roll")] == ["roll 1"]


def test_glue_catches_a_bumped_kart() -> None:
    """Glue: a kart bumped onto Glue is stuck there too."""
    g = position([red(), {"colour": "blue", "cell": "K4", "facing": "N"}], phase="move", points=2,
                 board={"L4": "glue"})
    g.apply("step K4")
    assert kart(g, "blue").glued


# Oil -------------------------------------------------------------------------------------------------


def test_oil_throws_the_kart_along_its_arrow_spun_round() -> None:
    """Oil: the kart skids into the cell the arrow points at, facing the other way; the turn ends."""
    g = position([red(), FAR], phase="move", points=4, board={"K3": "oil SE"})
    g.apply("step K3")
    assert at(g, "red") == "L3" and kart(g, "red").facing is Facing.SW
    assert g.turn.seat == 1 and tile_at(g, "K3") is None and g.junk[-1] == "oil"  # set off once, then gone


def test_oil_blocked_by_a_kart_on_its_arrow_cell() -> None:
    """Oil: with a kart where the arrow points, the trap does not go off."""
    g = position([red(), {"colour": "blue", "cell": "L3", "facing": "N"}], phase="move", points=4,
                 board={"K3": "oil SE"})
    g.apply("step K3")
    assert at(g, "red") == "K3" and g.turn.points == 3


def test_oil_at_the_edge_of_the_stream() -> None:
    """Oil: set at the stream's edge it throws karts into the water."""
    g = position([red(cell="L5", facing="S"), FAR], phase="move", points=3, board={"L6": "oil S"})
    g.apply("step L6")
    assert at(g, "red") == "L7"


# Time Bomb (R16) ---------------------------------------------------------------------------------------


def test_time_bomb_driven_over_explodes_on_everyone_around() -> None:
    """Time Bomb: driving over it sets it off; every kart on or next to it spins and rolls for damage."""
    g = position([red(), {"colour": "blue", "cell": "L3", "facing": "N", "parts": {"3": "mud-tyres"}}],
                 phase="move", points=4, board={"K3": "time-bomb"}, dice=[1, 2, 2, 1])
    g.apply("step K3")
    assert tile_at(g, "K3") is None and g.junk[-1] == "time-bomb"
    assert kart(g, "red").facing is Facing.SW and kart(g, "blue").facing is Facing.S
    assert kart(g, "blue").parts == {}  # damage 3: the Mud Tyres at location 3
    assert g.turn.seat == 1


def test_r16_time_bomb_rolls_for_every_kart_next_to_it_when_the_move_ends() -> None:
    """R16: when Phase 5 ends, each kart next to a Time Bomb rolls; 1–3 sets it off."""
    g = position([red(), {"colour": "blue", "cell": "L12", "facing": "N"}], phase="move", points=1,
                 board={"M12": "time-bomb"}, dice=[2, 6, 6])
    g.apply("step K3")
    assert [e.kind for e in g.last_events][-4:] == ["time-bomb", "hit", "damage", "enter"] or \
        "time-bomb" in [e.kind for e in g.last_events]
    assert tile_at(g, "M12") is None and kart(g, "blue").facing is Facing.S


def test_r16_time_bomb_keeps_ticking_on_four_to_six() -> None:
    """Time Bomb: 4–6 and it keeps ticking."""
    g = position([red(), {"colour": "blue", "cell": "L12", "facing": "N"}], phase="move", points=1,
                 board={"M12": "time-bomb"}, dice=[4])
    g.apply("step K3")
    assert tile_at(g, "M12").kind == "time-bomb"


def exploded(g: Races, label: str) -> bool:
    return tile_at(g, label) is None and g.junk[-1] == "time-bomb"


def test_r16_time_bomb_rolls_when_the_turn_ends_stuck_in_mud() -> None:
    """R16 (amended): stuck in the mud ends the turn, and a kart next to a Time Bomb rolls for it."""
    g = position([red(cell="J12", facing="NW"), FAR], phase="roll", board={"I12": "time-bomb"}, dice=[2, 1])
    g.apply("roll 1")
    assert [e.kind for e in g.last_events if e.kind in ("stuck", "time-bomb")] == ["stuck", "time-bomb"]
    assert exploded(g, "I12") and g.turn.seat == 1


def test_r16_time_bomb_rolls_when_the_turn_ends_boxed_in() -> None:
    """R16 (amended): a kart boxed in loses its turn, and the karts next to a Time Bomb roll for it."""
    g = position([red(cell="J4", facing="S"), {"colour": "blue", "cell": "J3", "facing": "N"},
                  {"colour": "green", "cell": "K4", "facing": "N"}, {"colour": "yellow", "cell": "I4", "facing": "N"}],
                 phase="roll", board={"J2": "time-bomb"}, dice=[1])
    assert exploded(g, "J2") and kart(g, "blue").facing is Facing.S  # Blue, next to it, is caught in the blast
    assert g.turn.seat == 1


def test_r16_time_bomb_rolls_when_a_jet_explosion_ends_the_turn() -> None:
    """R16 (amended): the Jet Engine blowing off ends the turn, and the Time Bomb next to the kart is rolled for."""
    g = position([red(parts={"7": "jet-engine"}, fuel={"red": 3}), FAR], phase="roll", board={"J2": "time-bomb"},
                 dice=[6, 6, 6, 6, 6, 3])
    g.apply("roll 2 3r")
    assert any(e.kind == "jet-explodes" for e in g.last_events)
    assert exploded(g, "J2") and g.turn.seat == 1


def test_r16_time_bomb_rolls_when_the_turn_is_lost_at_the_landing_point() -> None:
    """R16 (amended) with R8: a turn lost to a taken Landing Point still ends, and Blue, standing on that
    Landing Point next to a Time Bomb, rolls for it."""
    g = position([{"colour": "red", "cell": "O7", "facing": "S"}, {"colour": "blue", "cell": "N10", "facing": "N"}],
                 turn="red", board={"N11": "time-bomb"}, dice=[2])
    assert at(g, "red") == "O7" and exploded(g, "N11") and g.turn.seat == 1


def test_r16_no_roll_when_the_time_bomb_keeps_ticking_at_a_turn_lost() -> None:
    """R16: on 4–6 the Time Bomb stays."""
    g = position([{"colour": "red", "cell": "O7", "facing": "S"}, {"colour": "blue", "cell": "N10", "facing": "N"}],
                 turn="red", board={"N11": "time-bomb"}, dice=[5])
    assert tile_at(g, "N11").kind == "time-bomb"


def test_r21_driving_onto_a_time_bomb_explodes_it_and_ends_the_move_there() -> None:
    """R21: the kart that drives onto a Time Bomb sets it off and its move ends on that cell, points left
    or not."""
    g = position([red(), FAR], phase="move", points=4, board={"K3": "time-bomb"}, dice=[6, 6])
    g.apply("step K3")
    assert at(g, "red") == "K3" and tile_at(g, "K3") is None and g.junk[-1] == "time-bomb"
    assert kart(g, "red").facing is Facing.SW  # caught in its own blast: spun round from NE, the way it stepped
    assert g.turn.seat == 1


@pytest.mark.parametrize(("dice", "explodes"), [([5, 5], False), ([5, 2, 6, 6], True)])
def test_r22_a_kart_bumped_next_to_a_time_bomb_rolls_at_once_and_again_at_the_turn_end(dice: list[int],
                                                                                        explodes: bool) -> None:
    """R22: Blue, bumped next to a Time Bomb, rolls at once (5: it ticks on); still next to it when Red's turn
    ends, it rolls again under R16, and this second roll can set it off."""
    g = position([red(), {"colour": "blue", "cell": "K4", "facing": "N"}], phase="move", points=1,
                 board={"M4": "time-bomb"}, dice=dice)
    g.apply("step K4")
    assert at(g, "blue") == "L4"
    blue = queries.seat_by_colour(g, "blue")
    rolls = [e for e in g.last_events if e.kind == "tick" and e.seat == blue]
    assert len(rolls) == (1 if explodes else 2)
    assert (tile_at(g, "M4") is None) is explodes
    assert any(e.kind == "time-bomb" for e in g.last_events) is explodes
    assert g.turn.seat == 1


def test_time_bomb_frozen_by_a_freezer_next_to_it() -> None:
    """Time Bomb Freezer: while a kart with a Freezer is next to it, the Time Bomb does not go off."""
    g = position([red(), {"colour": "blue", "cell": "L12", "facing": "N", "parts": {"8": "freezer"}},
                  {"colour": "green", "cell": "M11", "facing": "N"}],
                 phase="move", points=1, board={"M12": "time-bomb"}, dice=[1, 1, 1])
    g.apply("step K3")
    assert tile_at(g, "M12").kind == "time-bomb"
    assert not [e for e in g.last_events if e.kind == "tick"]


def test_time_bomb_driven_over_explodes_even_with_a_freezer() -> None:
    """Time Bomb Freezer: driving straight over a Time Bomb still sets it off."""
    g = position([red(parts={"8": "freezer"}), FAR], phase="move", points=4, board={"K3": "time-bomb"},
                 dice=[6, 6])
    g.apply("step K3")
    assert tile_at(g, "K3") is None


def test_time_bomb_bumped_next_to_rolls_at_once() -> None:
    """R16 / Time Bomb: a kart bumped next to a Time Bomb rolls for it immediately."""
    g = position([red(), {"colour": "blue", "cell": "K4", "facing": "N"}], phase="move", points=3,
                 board={"M4": "time-bomb"}, dice=[2, 6, 6, 6, 6])
    g.apply("step K4")
    assert tile_at(g, "M4") is None
    assert any(e.kind == "time-bomb" for e in g.last_events)


# Missile -----------------------------------------------------------------------------------------------


def missile_game(target: dict[str, Any], dice: list[int], **red_kw: Any) -> Races:
    return deeds(red(bags={"7": ["missile"]}, **red_kw), target, dice=dice)


def test_missile_hits_a_kart_in_reach() -> None:
    """Missile: two dice; reaching the target spins it round and it rolls two dice for damage."""
    g = missile_game({"colour": "blue", "cell": "N3", "facing": "S", "parts": {"6": "turbo-engine"},
                      "fuel": {"white": 2}}, [3, 2, 3, 3])
    g.apply("missile K3 blue")
    b = kart(g, "blue")
    assert b.facing is Facing.N and "turbo-engine" not in b.parts.values()
    assert b.fuel["white"] == 0 and g.dice_left["white"] == 5  # fuel on a destroyed engine is lost
    assert g.junk[-1] == "missile"


def test_missile_short_is_a_dud() -> None:
    """Missile: too short a roll and it is a dud, back to the pile."""
    g = missile_game({"colour": "blue", "cell": "N3", "facing": "S"}, [1, 1])
    g.apply("missile K3 blue")
    assert kart(g, "blue").facing is Facing.S and g.junk[-1] == "missile"


def test_missile_launcher_rolls_three_dice() -> None:
    """Missile Launcher: three dice instead of two."""
    g = missile_game({"colour": "blue", "cell": "N3", "facing": "S"}, [1, 1, 1, 6, 6], parts={"2": "missile-launcher"})
    g.apply("missile K3 blue")
    assert kart(g, "blue").facing is Facing.N


def test_smoke_screen_takes_two_off_the_roll() -> None:
    """Smoke Screen Generator: 2 off every Missile or Bomb roll against you."""
    g = missile_game({"colour": "blue", "cell": "N3", "facing": "S", "parts": {"7": "smoke-screen"}}, [2, 2])
    g.apply("missile K3 blue")
    assert kart(g, "blue").facing is Facing.S


def test_missile_deflected_back_and_forth() -> None:
    """Missile Deflector: 5 or 6 sends it back; the sender's Deflector may return it; a miss is a hit."""
    g = missile_game({"colour": "blue", "cell": "N3", "facing": "S", "parts": {"9": "missile-deflector"}},
                     [3, 3, 6, 5, 2, 6, 6], parts={"9": "missile-deflector"})
    g.apply("missile K3 blue")
    kinds = [e.kind for e in g.last_events]
    assert kinds.count("deflected") == 2 and "deflect-missed" in kinds
    assert kart(g, "blue").facing is Facing.N and kart(g, "red").facing is Facing.SE


def test_missile_flies_over_walls_and_destroys_a_tile() -> None:
    """Missile: it flies over anything and destroys a trap or junk tile it reaches."""
    g = deeds(red(cell="N12", facing="N", bags={"7": ["missile"]}), FAR, board={"N13": "glue"}, dice=[1, 1])
    g.apply("missile O12 N13")
    assert tile_at(g, "N13") is None


@pytest.mark.parametrize("what", ["glue", "junk:oil", "kart"])
def test_r17_a_missile_may_be_set_on_a_trap_a_junk_tile_or_a_kart(what: str) -> None:
    """R17: a Missile may be set on a cell holding a trap, a junk tile or a kart; it leaves at once and
    does not touch what is there. Other traps still may not be set there."""
    board = {} if what == "kart" else {"K3": what}
    karts = [red(bags={"7": ["missile", "glue"]}), {"colour": "blue", "cell": "N3", "facing": "S"}]
    if what == "kart":
        karts.append({"colour": "green", "cell": "K3", "facing": "N"})
    g = deeds(*karts, board=board, dice=[3, 3, 1, 1])
    assert "missile K3 blue" in legal(g) and "trap glue K3" not in legal(g)
    before = tile_at(g, "K3")
    g.apply("missile K3 blue")
    assert kart(g, "blue").facing is Facing.N
    assert tile_at(g, "K3") == before
    if what == "kart":
        assert at(g, "green") == "K3" and kart(g, "green").facing is Facing.N  # untouched


def test_r17_a_missile_cannot_aim_at_what_is_on_its_own_cell() -> None:
    """R17: the Missile leaves the cell it is set on, so it cannot hit what stands there."""
    g = deeds(red(bags={"7": ["missile"]}), {"colour": "blue", "cell": "K3", "facing": "S"}, dice=[3, 3])
    assert "missile K3 blue" not in legal(g) and "missile K4 blue" in legal(g)
    before = g.to_dict()
    with pytest.raises(IllegalAction, match="R17"):
        g.apply("missile K3 blue")
    assert g.to_dict() == before


def test_r17_a_bomb_may_be_set_on_a_trap() -> None:
    """R17: a Bomb set on a trap rolls from there; the trap stays."""
    g = deeds(red(cell="M3", facing="S", bags={"7": ["bomb"]}), {"colour": "blue", "cell": "M6", "facing": "N"},
              board={"M4": "acid"}, dice=[2, 6, 6])
    assert "bomb M4 blue" in legal(g)
    g.apply("bomb M4 blue")
    assert kart(g, "blue").facing is Facing.S and tile_at(g, "M4").kind == "acid"


# Bomb --------------------------------------------------------------------------------------------------


def bomb_game(blue: dict[str, Any], dice: list[int], **red_kw: Any) -> Races:
    return deeds(red(cell="M3", facing="S", bags={"7": ["bomb", "glue"]}, **red_kw),
                 {"colour": "blue", "cell": "M6", "facing": "N", **blue}, dice=dice)


def test_bomb_rolls_in_a_straight_clear_line() -> None:
    """Bomb: only along a straight line of empty track from its cell to the target."""
    g = bomb_game({}, [3])
    assert "bomb M4 blue" in legal(g) and "bomb N3 blue" not in legal(g)
    with pytest.raises(IllegalAction, match="straight"):
        g.apply("bomb N3 blue")
    blocked = deeds(red(cell="M3", facing="S", bags={"7": ["bomb", "glue"]}),
                    {"colour": "blue", "cell": "M6", "facing": "N"}, board={"M5": "acid"})
    assert "bomb M4 blue" not in legal(blocked)


def test_bomb_hits_in_a_straight_line() -> None:
    """Bomb: one die; reaching the target explodes: spin and damage."""
    g = bomb_game({}, [2, 6, 6])
    g.apply("bomb M4 blue")
    assert kart(g, "blue").facing is Facing.S and g.junk[-1] == "bomb"


def test_bomb_short_is_a_dud() -> None:
    g = bomb_game({}, [1])
    g.apply("bomb M4 blue")
    assert kart(g, "blue").facing is Facing.N


def test_bomb_caught_by_a_bomb_catcher() -> None:
    """Bomb Catcher: on 4–6 the Bomb is caught and does nothing."""
    g = bomb_game({"parts": {"8": "bomb-catcher"}}, [5, 4])
    g.apply("bomb M4 blue")
    assert kart(g, "blue").facing is Facing.N and any(e.kind == "caught" for e in g.last_events)


def test_bomb_catcher_fumbles_on_one_to_three() -> None:
    """Bomb Catcher: 1–3 and the Bomb explodes as usual."""
    g = bomb_game({"parts": {"8": "bomb-catcher"}}, [5, 2, 6, 6])
    g.apply("bomb M4 blue")
    assert kart(g, "blue").facing is Facing.S


def test_bomb_over_a_wall_only_with_a_launcher() -> None:
    """Bomb Launcher: two dice, and the Bomb may be set over a wall."""
    no = deeds(red(cell="N12", facing="N", bags={"7": ["bomb"]}), FAR, board={"O13": "glue"})
    with pytest.raises(IllegalAction, match="wall"):
        no.apply("bomb N13 O13")
    yes = deeds(red(cell="N12", facing="N", bags={"7": ["bomb"]}, parts={"2": "bomb-launcher"}), FAR,
                board={"O13": "glue"}, dice=[1, 1])
    yes.apply("bomb N13 O13")
    assert tile_at(yes, "O13") is None


# Damage and saddlebags --------------------------------------------------------------------------------


def test_damage_on_location_seven_loses_the_printed_saddlebags_tiles() -> None:
    """Damage / R10: a hit on location 7 empties the saddlebag there; its tiles go back to the pile."""
    g = missile_game({"colour": "blue", "cell": "N3", "facing": "S", "bags": {"7": ["glue", "oil"]}}, [3, 3, 3, 4])
    pile = len(g.junk)
    g.apply("missile K3 blue")
    assert kart(g, "blue").tile_count == 0 and len(g.junk) == pile + 3


def test_damage_ten_to_twelve_hits_nothing() -> None:
    """Damage: only 2–9 name a location."""
    g = missile_game({"colour": "blue", "cell": "N3", "facing": "S", "parts": {"3": "mud-tyres"}}, [3, 3, 5, 6])
    g.apply("missile K3 blue")
    assert kart(g, "blue").parts == {3: "mud-tyres"}


def test_saddlebag_choice_when_several_have_room() -> None:
    """Junk Tile Storage / R14: with room in two saddlebags the player says which takes the tile."""
    g = position([red(parts={"4": "saddlebag-4"}), FAR], phase="move", points=3, board={"K3": "junk:oil"})
    g.apply("step K3")
    assert g.choice is not None and g.choice.options == ["7", "4"]
    g.apply("choose 4")
    assert [t.kind for t in kart(g, "red").bags[4]] == ["oil"]


def test_saddlebag_part_holds_four() -> None:
    """Saddlebags: an extra saddlebag holds 4 tiles."""
    g = position([red(parts={"4": "saddlebag-4"}, bags={"4": ["oil"] * 4, "7": ["glue"] * 5}), FAR],
                 phase="move", points=3, board={"K3": "junk:acid"})
    g.apply("step K3")
    assert tile_at(g, "K3").face_down and kart(g, "red").tile_count == 9


def test_tiles_move_between_saddlebags_in_your_own_turn() -> None:
    """Saddlebags: tiles may be moved between your saddlebags in your own turn, and shown or hidden."""
    g = position([red(parts={"4": "saddlebag-4"}, bags={"7": ["oil", "glue"]}), FAR], phase="deeds")
    g.apply("bag oil 7 4")
    assert [t.kind for t in kart(g, "red").bags[4]] == ["oil"]
    g.apply("show glue")
    assert g.view(1)["karts"][0]["bags"]["7"] == ["glue+"]
    g.apply("hide glue")
    assert g.view(1)["karts"][0]["bags"]["7"] == ["hidden"]


def test_showing_a_tile_turns_the_same_one_in_a_game_loaded_from_its_snapshot() -> None:
    """Saddlebags / R12: 'show' turns the first such tile in location order, whatever order the bags came in,
    so a stored game (played from its JSON) and one never stored agree on which tile everyone sees."""
    g = position([red(parts={"5": "saddlebag-5"}, bags={"7": ["oil"], "5": ["oil"]}), FAR],
                 phase="deeds")
    stored = type(g).from_dict(g.to_dict())
    for game in (g, stored):
        game.apply("show oil")
    assert g.to_dict() == stored.to_dict()
    assert g.view(1)["karts"][0]["bags"] == {"5": ["oil+"], "7": ["hidden"]}


def test_covering_location_seven_loses_its_tiles_but_jet_fuel_is_traded_first() -> None:
    """Jet Engine / R10: fitting it over the printed saddlebag loses its tiles; a Jet Fuel may fill it first."""
    g2 = position([red(cell="H14", facing="NE", bottle_tops=7, bags={"7": ["jet-fuel", "turbo-fuel"]}), FAR])
    assert g2.phase == "parts"
    g2.apply("buy jet-engine")
    r = kart(g2, "red")
    assert r.parts == {7: "jet-engine"} and r.fuel["red"] == 7 and 7 not in r.bags and r.bottle_tops == 0
    assert g2.junk[-2:] == ["jet-fuel", "turbo-fuel"]


FULL_BOX = {"junk": 100, "parts": 80, "bottle_tops": 80, "flags": 48, "white": 5, "red": 7}


def test_r10_jet_engine_moves_the_printed_saddlebags_tiles_to_an_empty_saddlebag_4() -> None:
    """R10 / Jet Engine: the printed saddlebag's tiles are lost only without another saddlebag with room;
    with an empty Saddlebag No.4 fitted they move there (and a Jet Fuel that fits is kept, not traded)."""
    g = position([red(cell="I14", facing="NE", bottle_tops=7, parts={"4": "saddlebag-4"},
                      bags={"7": ["jet-fuel", "glue", "oil+"]}), FAR])
    g.apply("buy jet-engine")
    r = kart(g, "red")
    assert r.parts == {4: "saddlebag-4", 7: "jet-engine"} and 7 not in r.bags
    assert [t.to_json() for t in r.bags[4]] == ["jet-fuel", "glue", "oil+"] and r.fuel["red"] == 0
    assert not [e for e in g.last_events if e.kind == "tiles-lost"] and queries.supply_counts(g) == FULL_BOX


def test_r10_covering_location_seven_loses_only_the_tiles_that_find_no_room() -> None:
    """R10: with room for three in Saddlebag No.4, three tiles move and the other two are lost."""
    g = position([red(cell="C1", facing="SE", bottle_tops=4, parts={"4": "saddlebag-4"},
                      bags={"4": ["bomb"], "7": ["glue", "oil", "acid", "spring", "magnet"]}), FAR])
    pile = len(g.junk)
    g.apply("buy smoke-screen")
    r = kart(g, "red")
    assert [t.kind for t in r.bags[4]] == ["bomb", "glue", "oil", "acid"]
    assert g.junk[pile:] == ["spring", "magnet"] and queries.supply_counts(g) == FULL_BOX


def test_r10_r14_with_two_saddlebags_the_player_says_where_each_tile_goes() -> None:
    """R10 with R14: with room in Saddlebags No.4 and No.5 the player chooses a bag for each tile in turn;
    the question shows no tile kind to the others (R12)."""
    g = position([red(cell="C1", facing="SE", bottle_tops=4, parts={"4": "saddlebag-4", "5": "saddlebag-5"},
                      bags={"5": ["bomb"] * 3, "7": ["glue", "missile"]}), FAR], phase="parts")
    g.apply("buy smoke-screen")
    assert g.choice is not None and g.choice.kind == "bag" and g.choice.options == ["4", "5"] and g.to_act == 0
    assert queries.supply_counts(g) == FULL_BOX and "'glue'" not in str(g.view(1))
    g.apply("choose 5")
    # Saddlebag No.5 is now full, so the last tile goes to No.4 without a question
    r = kart(g, "red")
    assert g.choice is None and [t.kind for t in r.bags[5]] == ["bomb"] * 3 + ["glue"]
    assert [t.kind for t in r.bags[4]] == ["missile"] and queries.supply_counts(g) == FULL_BOX


# Pit Stops ---------------------------------------------------------------------------------------------


def pit(colour: str, **kw: Any) -> Races:
    cell = "C1" if colour == "green" else "I14"
    return position([red(cell=cell, facing="SE", **kw), FAR])


def test_pit_stop_buys_parts_of_its_colour() -> None:
    """Pit Stops / R11: bought where the turn began, from that Pit Stop's pile, paid in bottle tops."""
    g = pit("green", bottle_tops=5)
    assert g.phase == "parts"
    assert "buy mud-tyres 3" in legal(g) and "buy turbo-engine 6" not in legal(g)
    g.apply("buy mud-tyres 3")
    r = kart(g, "red")
    assert r.parts == {3: "mud-tyres"} and r.bottle_tops == 3 and g.parts_left["mud-tyres"] == 15
    assert g.bottle_tops_left == 80 - 3


def test_pit_stop_wrong_colour_refused() -> None:
    g = pit("green", bottle_tops=9)
    with pytest.raises(IllegalAction, match="red Pit Stop"):
        g.apply("buy turbo-engine")


def test_pit_stop_needs_enough_bottle_tops() -> None:
    g = pit("red", bottle_tops=4)
    with pytest.raises(IllegalAction, match="costs 5"):
        g.apply("buy turbo-engine")


def test_pit_stop_occupied_location_must_be_returned_first() -> None:
    """Pit Stops: a location holds one part; return the old one first, then buy."""
    g = pit("red", bottle_tops=9, parts={"6": "battering-ram"})
    with pytest.raises(IllegalAction, match="return 6"):
        g.apply("buy turbo-engine")
    g.apply("return 6")
    g.apply("buy turbo-engine")
    assert kart(g, "red").parts == {6: "turbo-engine"} and g.parts_left["battering-ram"] == 4


def test_pit_stop_only_when_the_turn_began_there() -> None:
    """Pit Stops: parts only in Phase 2 of a turn that began stopped in the Pit Stop."""
    g = position([red(bottle_tops=9, parts={"6": "turbo-engine"}, bags={"7": ["turbo-fuel"]}), FAR], phase="parts")
    assert g.phase == "parts" and not [a for a in legal(g) if a.startswith("buy")]
    with pytest.raises(IllegalAction, match="began stopped in a Pit Stop"):
        g.apply("buy mud-tyres 3")


def test_pit_stop_supply_runs_out() -> None:
    """R11: the card supply is finite."""
    g = pit("red", bottle_tops=9)
    g.parts_left["turbo-engine"] = 0
    assert not [a for a in legal(g) if a.startswith("buy turbo")]
    with pytest.raises(IllegalAction, match="No Turbo Engine cards"):
        g.apply("buy turbo-engine")


# Gadgets -----------------------------------------------------------------------------------------------


def test_snatch_draws_a_tile_blind_from_the_saddlebag_hit() -> None:
    """Bomb Catcher / R12: snatch rolls two dice; on a saddlebag, one of its tiles is drawn blind by the
    game's dice: no question, so a tile kept face up can't be picked on purpose."""
    g = deeds(red(parts={"8": "bomb-catcher"}), {"colour": "blue", "cell": "K4", "facing": "N",
                                                 "bags": {"7": ["missile+", "glue"]}}, dice=[3, 4])
    expected = ["missile", "glue"][g.dice.copy().below(2)]  # the draw uses the seeded generator
    g.apply("snatch blue")
    assert g.choice is None
    assert [t.kind for t in kart(g, "red").bags[7]] == [expected] and kart(g, "blue").tile_count == 1
    snatched = next(e for e in g.last_events if e.kind == "snatched")
    assert expected in (snatched.secret or "") and expected not in snatched.text
    assert "snatch blue" not in legal(g)  # one attempt a turn


def test_snatch_draws_face_up_and_face_down_tiles_alike() -> None:
    """R12: over many seeds the face-up tile is drawn about as often as the face-down one."""
    drawn = []
    for seed in range(40):
        g = deeds(red(parts={"8": "bomb-catcher"}), {"colour": "blue", "cell": "K4", "facing": "N",
                                                     "bags": {"7": ["missile+", "glue"]}}, dice=[3, 4], seed=seed)
        g.apply("snatch blue")
        drawn.append(kart(g, "red").bags[7][0].kind)
    assert 8 <= drawn.count("missile") <= 32


def test_snatch_misses_elsewhere_and_needs_room() -> None:
    """Bomb Catcher: a roll that names no saddlebag takes nothing; no room, no snatch."""
    g = deeds(red(parts={"8": "bomb-catcher"}), {"colour": "blue", "cell": "K4", "facing": "N",
                                                 "bags": {"7": ["missile"]}}, dice=[1, 1])
    g.apply("snatch blue")
    assert kart(g, "blue").tile_count == 1
    full = deeds(red(parts={"8": "bomb-catcher"}, bags={"7": ["oil"] * 5}),
                 {"colour": "blue", "cell": "K4", "facing": "N", "bags": {"7": ["missile"]}})
    with pytest.raises(IllegalAction, match="full"):
        full.apply("snatch blue")


def test_smash_destroys_the_part_hit() -> None:
    """Missile Deflector: smash rolls two dice and destroys the part at that location."""
    g = deeds(red(parts={"9": "missile-deflector"}, bags={"7": ["glue"]}),
              {"colour": "blue", "cell": "K4", "facing": "N", "parts": {"6": "battering-ram"}}, dice=[2, 4])
    g.apply("smash blue")
    assert kart(g, "blue").parts == {} and g.parts_left["battering-ram"] == 4
    with pytest.raises(IllegalAction, match="One smash"):
        g.apply("smash blue")


def test_smash_only_at_an_adjacent_kart() -> None:
    g = deeds(red(parts={"9": "missile-deflector"}, bags={"7": ["glue"]}), FAR)
    with pytest.raises(IllegalAction, match="not next to"):
        g.apply("smash blue")


def test_battering_ram_pushes_one_or_two_cells_as_chosen() -> None:
    """Battering Ram / R14: the bumped kart goes one or two cells, the player's choice."""
    g = position([red(parts={"6": "battering-ram"}), {"colour": "blue", "cell": "K4", "facing": "N"}],
                 phase="move", points=3)
    g.apply("step K4")
    assert g.choice is not None and g.choice.options == ["1", "2"]
    g.apply("choose 2")
    assert at(g, "blue") == "M5"


# Team racing -------------------------------------------------------------------------------------------


def team(red_kw: dict[str, Any], blue_kw: dict[str, Any], **rest: Any) -> Races:
    karts = [red(team=0, **red_kw), {"colour": "blue", "facing": "N", "team": 0, **blue_kw},
             {"colour": "green", "cell": "B12", "facing": "N", "team": 1},
             {"colour": "yellow", "cell": "L12", "facing": "N", "team": 1}]
    return position(karts, options={"teams": True}, **rest)


def test_team_mates_swap_tiles_when_adjacent() -> None:
    """Team Racing: team mates next to each other swap junk tiles in Phase 2, started by the active player."""
    g = team({"bags": {"7": ["oil"]}}, {"cell": "K4", "bags": {"7": ["glue"]}}, phase="parts")
    assert "swap blue give oil" in legal(g) and "swap blue take glue" in legal(g)
    g.apply("swap blue give oil")
    assert [t.kind for t in kart(g, "blue").bags[7]] == ["glue", "oil"]
    with pytest.raises(IllegalAction, match="not on your team"):
        g.apply("swap green take oil")


def test_r12_a_tile_given_to_a_team_mate_is_named_to_them_alone() -> None:
    """R12 / Team Racing: the receiving team mate learns the tile's kind privately; the public sees a tile."""
    g = team({"bags": {"7": ["oil"]}}, {"cell": "K4", "bags": {"7": ["glue"]}}, phase="parts")
    blue = queries.seat_by_colour(g, "blue")
    g.apply("swap blue give oil")
    swap = next(e for e in g.last_events if e.kind == "swap")
    assert swap.seat == blue and swap.secret is not None and "oil" in swap.secret
    public = swap.for_viewer(None)
    assert public is not None and "oil" not in public.text and public.secret is None


def test_team_swaps_need_adjacent_karts() -> None:
    g = team({"bags": {"7": ["oil", "turbo-fuel"]}, "parts": {"6": "turbo-engine"}}, {"cell": "N3"}, phase="parts")
    with pytest.raises(IllegalAction, match="next to each other"):
        g.apply("swap blue give oil")


def test_team_mates_swap_parts_in_the_same_pit_stop() -> None:
    """Team Racing: parts change hands when both karts stand in the same Pit Stop."""
    g = team({"cell": "C1", "parts": {"6": "battering-ram"}}, {"cell": "E1", "facing": "SE"})
    assert g.phase == "parts"
    g.apply("swap blue give part 6")
    assert kart(g, "blue").parts == {6: "battering-ram"} and kart(g, "red").parts == {}


# The Race-Kart Crew ------------------------------------------------------------------------------------


@pytest.mark.parametrize("crew_set", [1, 2])
@pytest.mark.parametrize("member", ["pockets", "tilly", "tiny", "gears", "candy", "jack", "professor", "orlando"])
def test_crew_starting_sets(member: str, crew_set: int) -> None:
    """Race-Kart Crew (optional setup): each character's two starting sets fit and are taken from the supplies."""
    from rules.races import catalogue

    seats = [{"name": "A", "crew": member, "crew_set": crew_set},
             {"name": "B", "crew": "tiny" if member != "tiny" else "jack", "crew_set": 1}]
    g = Races.create({"seats": seats, "options": {"track": "T", "crew": True}}, 4)
    chosen = catalogue.crew()[member].sets[crew_set - 1]
    k = g.karts[0]
    assert sorted(k.parts.items()) == sorted((loc, p) for p, loc in chosen.parts)
    assert sorted(t.kind for ts in k.bags.values() for t in ts) == sorted(chosen.tiles)
    assert k.bottle_tops == chosen.bottle_tops
    assert queries.supply_counts(g) == {"junk": 100, "parts": 80, "bottle_tops": 80, "flags": 48, "white": 5, "red": 7}


def test_crew_setup_needs_everyone() -> None:
    """Optional setup: every player takes part, each with a crew member and a set."""
    from rules.contract import SetupError

    with pytest.raises(SetupError, match="crew"):
        Races.create({"seats": [{"crew": "tiny", "crew_set": 1}, {}], "options": {"track": "T", "crew": True}}, 1)


def test_oil_skid_onto_another_oil_skids_again() -> None:
    """Oil: laid next to another trap it does the most damage; each Oil goes off once."""
    g = position([red(), FAR], phase="move", points=4, board={"K3": "oil SE", "L3": "oil NE"})
    g.apply("step K3")
    assert at(g, "red") == "M3" and not g.board and kart(g, "red").facing is Facing.NE
