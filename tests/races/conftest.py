"""Shared fixtures for the Junkyard Races rule tests: the Proving Ground test track and positions.

The Proving Ground (tests/races/data/proving-ground.track, alias T) is a small loop with every feature
in a known place, so rule tests keep working whatever happens to the real tracks:

- Checkered Line between columns E and F on rows 2–4, crossed eastwards; start cells D2 D3 D4 facing SE.
- Stream: rows 7–8 right across the board. Crossing 1 (southbound, right side): whole bridge M7→M8
  (entered from L6, M6 or N6), collapsed bridge O6 → gap O7 O8 → O9. Crossing 2 (northbound, left side):
  whole bridge C8→C7, collapsed bridge E9 → gap E8 E7 → E6. Landing Points N10 (S) and B6 (N).
- Grass G2 H2 H3; mud J12 K12 J13; a one-cell-wide pass at G12; Bottle Tops M7 (2), C7 (1), O9 (3).
- Green Pit Stop B1 C1 D1 E1; red Pit Stop H14 I14 J14 K14.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rules.races import Races, queries
from rules.races.track import load_track_file, register_track

PROVING_GROUND = load_track_file(Path(__file__).parent / "data" / "proving-ground.track")
register_track(PROVING_GROUND)


FAR = {"colour": "blue", "cell": "B12", "facing": "N"}  # a kart parked out of everyone's way


def legal(g: Races) -> list[str]:
    """The legal actions in notation."""
    return [str(a) for a in g.legal_actions()]


def steps(g: Races) -> list[str]:
    return [a for a in legal(g) if a.startswith("step")]


def kart(g: Races, colour: str):
    seat = queries.seat_by_colour(g, colour)
    assert seat is not None
    return g.karts[seat]


def at(g: Races, colour: str) -> str | None:
    """The label of the cell a kart stands on (None before it enters)."""
    cell = kart(g, colour).cell
    return None if cell is None else cell.label


def position(karts: list[dict[str, Any]], **rest: Any) -> Races:
    """A game on the Proving Ground from the position format."""
    return Races.from_position({"track": "T", "karts": karts, **rest})


@pytest.fixture
def track():
    return PROVING_GROUND
