"""The where-can-I-go search moves whole layers of states at once; it must name exactly the cells the
plain one-state-at-a-time search names (which tests/render/test_overlay.py checks against driving every
legal way through the engine), with R5, R6, R7, R9 and bumps (rulebook: Bumping Other Karts)."""

from __future__ import annotations

import random

import pytest

from rules.contract import SetupError
from rules.hexgrid import Facing
from rules.races.engine import Races
from rules.races.reach import EXACT_BUDGET, _forward_reach, _layered_reach, reach
from rules.races.track import get_track


def crowded(track_name: str, points: int, rng: random.Random) -> Races:
    """The mover anywhere on the track with any facing, seven karts and two traps about."""
    track = get_track(track_name)
    cells = sorted(track.track_cells)
    while True:
        cell = rng.choice(cells)
        near = [c for c in cells if 1 <= c.distance(cell) <= 6]
        crowd = rng.sample(near, 7)
        karts = [{"colour": "red", "cell": cell.label, "facing": rng.choice(list(Facing)).name}]
        karts += [{"cell": c.label, "facing": rng.choice(list(Facing)).name} for c in crowd]
        free = [c for c in near if c not in crowd]
        board = {c.label: kind for c, kind in zip(rng.sample(free, 2), ("glue", "acid"), strict=True)}
        try:
            game = Races.from_position({"track": track_name, "karts": karts, "board": board, "phase": "move",
                                        "points": points})
        except SetupError:
            continue
        if game.phase == "move" and game.turn.seat == 0 and game.choice is None:
            return game


@pytest.mark.parametrize("track", ["A", "B"])
@pytest.mark.parametrize("points", [3, 7, 12, 20])
def test_the_layered_search_names_the_same_cells_as_the_plain_one(track: str, points: int) -> None:
    rng = random.Random(f"layers-{track}-{points}")
    for _ in range(3):
        game = crowded(track, points, rng)
        kart = game.karts[0]
        assert kart.cell is not None
        fld = game.field()
        for budget in (EXACT_BUDGET, None):  # following every bump, and the approximation past the budget
            plain = _forward_reach(fld, 0, kart.cell, kart.facing, points, budget)
            layered = _layered_reach(fld, 0, kart.cell, kart.facing, points, budget)
            assert plain == layered, (game.to_dict(), budget)


def test_a_roll_of_90_is_answered_on_the_track() -> None:
    """Fifteen dice of six: the answer covers cells on the track (and the stream a kart may fall in)."""
    game = crowded("B", 90, random.Random("ninety"))
    found = reach(game)
    assert found.ends
    assert all(game.track.on_track(c) or game.track.is_stream(c) for c in found.cells)


def plain_reach(game: Races) -> object:
    """What the one-state-at-a-time search answers: exact within its budget, else without bumps."""
    kart = game.karts[game.turn.seat]
    assert kart.cell is not None
    fld = game.field()
    points = game.turn.points
    return (_forward_reach(fld, kart.seat, kart.cell, kart.facing, points, EXACT_BUDGET)
            or _forward_reach(fld, kart.seat, kart.cell, kart.facing, points, None))


@pytest.mark.parametrize(("track", "points"), [("A", 9), ("B", 16), ("A", 24), ("B", 40)])
def test_reach_answers_as_the_plain_search_small_rolls_and_big(track: str, points: int) -> None:
    """Big rolls skip the exact search when the states that bumped nobody already overflow its budget:
    the answer is still the one the plain search gives."""
    rng = random.Random(f"whole-{track}-{points}")
    for _ in range(2):
        game = crowded(track, points, rng)
        assert reach(game) == plain_reach(game), game.to_dict()
