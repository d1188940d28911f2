"""The board's edges: a neighbour off the board does not exist, wherever a kart stands.

The Whole Board track (tests/races/data/whole-board.track, alias W) is the Proving Ground with every
cell of its 16 × 14 board on the track, so karts can stand in every border cell.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.contract import IllegalAction
from rules.hexgrid import Facing, Hex
from rules.races import Races
from rules.races.track import load_track_file, register_track

WHOLE = load_track_file(Path(__file__).parent / "data" / "whole-board.track")
register_track(WHOLE)

EDGE = sorted(c for c in WHOLE.track_cells
              if c.col in (0, WHOLE.columns - 1) or c.row in (0, WHOLE.rows - 1))
ARSENAL = ["glue", "oil", "acid", "spring", "time-bomb", "missile", "bomb", "magnet"]


def test_the_whole_board_track_reaches_every_edge() -> None:
    assert {c.col for c in EDGE} >= {0, WHOLE.columns - 1} and {c.row for c in EDGE} >= {0, WHOLE.rows - 1}
    assert all(Hex.from_offset(c, r) in WHOLE.terrain for c in range(WHOLE.columns) for r in range(WHOLE.rows))


def test_a_trap_held_in_column_a_lists_its_cells_on_the_board() -> None:
    """Phase 1 at the left edge: listing placements names only cells that exist (no column -1)."""
    g = Races.from_position({"track": "W", "phase": "deeds", "karts": [
        {"colour": "red", "cell": "A3", "facing": "N", "bags": {"7": ["glue"]}},
        {"colour": "blue", "cell": "P12", "facing": "N"}]})
    assert sorted(str(a) for a in g.legal_actions() if str(a).startswith("trap")) == [
        "trap glue A2", "trap glue A4", "trap glue B2", "trap glue B3"]


@pytest.mark.parametrize(("cell", "facing", "way"), [("A3", "NW", "straight"), ("P5", "NE", "straight"),
                                                      ("H1", "N", "straight"), ("A3", "NW", "left")])
def test_a_relative_step_off_the_board_is_refused(cell: str, facing: str, way: str) -> None:
    """Phase 5: 'step left/straight/right' past the edge is a friendly refusal that changes nothing."""
    g = Races.from_position({"track": "W", "phase": "move", "points": 2, "karts": [
        {"colour": "red", "cell": cell, "facing": facing}, {"colour": "blue", "cell": "H10", "facing": "N"}]})
    before = g.to_dict()
    with pytest.raises(IllegalAction, match="off the board"):
        g.apply(f"step {way}")
    assert g.to_dict() == before


@st.composite
def edge_positions(draw: st.DrawFn) -> dict[str, Any]:
    cell = draw(st.sampled_from(EDGE))
    others = [c for c in WHOLE.track_cells if c != cell]
    neighbours = [c for c in cell.neighbours() if c in WHOLE.track_cells]
    near = draw(st.lists(st.sampled_from(neighbours), max_size=3, unique=True))
    far = draw(st.lists(st.sampled_from(sorted(others)), min_size=1, max_size=3, unique=True))
    cells = list(dict.fromkeys([*near, *far]))[:4]
    colours = ["blue", "green", "yellow", "orange"]
    karts = [{"colour": "red", "cell": cell.label, "facing": draw(st.sampled_from([f.name for f in Facing])),
              "bags": {"7": draw(st.lists(st.sampled_from(ARSENAL), max_size=5))},
              "parts": draw(st.sampled_from([{}, {"6": "battering-ram"}, {"3": "mud-tyres", "8": "bomb-catcher"},
                                             {"2": "bomb-launcher", "9": "missile-deflector"}]))}]
    karts += [{"colour": colour, "cell": c.label, "facing": draw(st.sampled_from([f.name for f in Facing])),
               "bags": {"7": ["glue"]}}
              for colour, c in zip(colours, cells, strict=False) if c != cell]
    phase = draw(st.sampled_from(["deeds", "roll", "move", "start"]))
    pos: dict[str, Any] = {"track": "W", "karts": karts, "phase": phase, "seed": draw(st.integers(0, 99))}
    if phase == "move":
        pos["points"] = draw(st.integers(1, 12))
        pos["reversing"] = draw(st.booleans()) and pos["points"] <= 3
    return pos


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edge_positions(), st.integers(0, 10_000))
def test_legal_actions_at_every_edge_never_crash_and_apply(pos: Any, pick: Any) -> None:
    """Fuzz: a kart on any border cell, any facing, with traps and weapons: listing the legal actions
    works, the player to act has one, and a legal action (and each relative step) applies or is refused."""
    g = Races.from_position(pos)
    actions = g.legal_actions()
    assert g.is_over or actions
    for way in ("left", "straight", "right"):
        with contextlib.suppress(IllegalAction):
            Races.from_dict(g.to_dict()).apply(f"step {way}")
    if actions:
        g.apply(actions[pick % len(actions)])
        assert g.is_over or g.legal_actions()
