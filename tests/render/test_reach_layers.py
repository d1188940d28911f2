"""The where-can-I-go search moves whole layers of states at once and forgets bumps that can no longer
matter; it must name exactly the cells the plain one-state-at-a-time search names when that one follows
every bump (which tests/render/test_overlay.py checks against driving every legal way through the
engine), with R5, R6, R7, R9 and bumps (rulebook: Bumping Other Karts)."""

from __future__ import annotations

import random

import pytest

from rules.contract import SetupError
from rules.hexgrid import Facing
from rules.races.engine import Races
from rules.races.reach import EXACT_BUDGET, Reach, _forward_reach, _layered_reach, reach
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


def every_bump(game: Races) -> Reach:
    """The plain search following every bump, with no budget: the exact answer."""
    kart = game.karts[game.turn.seat]
    assert kart.cell is not None
    found = _forward_reach(game.field(), kart.seat, kart.cell, kart.facing, game.turn.points, 10**7)
    assert found is not None
    return found


@pytest.mark.parametrize("track", ["A", "B"])
@pytest.mark.parametrize("points", [3, 7, 12, 20])
def test_the_layered_search_names_the_same_cells_as_the_plain_one(track: str, points: int) -> None:
    rng = random.Random(f"layers-{track}-{points}")
    for _ in range(2):
        game = crowded(track, points, rng)
        kart = game.karts[0]
        assert kart.cell is not None
        fld = game.field()
        for budget in (EXACT_BUDGET, None):  # following every bump, and the approximation past the budget
            plain = _forward_reach(fld, 0, kart.cell, kart.facing, points, budget)
            layered = _layered_reach(fld, 0, kart.cell, kart.facing, points, budget)
            if layered is None:
                # the layered search counts no more states than the plain one: both give up
                assert plain is None, game.to_dict()
            else:
                assert layered == (plain or every_bump(game)), (game.to_dict(), budget)


def test_forgetting_bumps_that_no_longer_matter_answers_exactly_where_the_plain_search_gives_up() -> None:
    """A roll of 20 among seven karts: following every bump the plain search meets more states than its
    budget; states that differ only in bumps the kart can no longer come near count once, the search
    fits and names exactly the cells of the plain search without a budget (rulebook: Bumping Other
    Karts, R9)."""
    game = crowded("A", 20, random.Random("forget-A-20"))
    kart = game.karts[0]
    assert kart.cell is not None
    fld = game.field()
    assert _forward_reach(fld, 0, kart.cell, kart.facing, 20, EXACT_BUDGET) is None
    found = reach(game)
    assert found.exact
    assert found == every_bump(game)


def test_a_roll_of_90_is_answered_on_the_track() -> None:
    """Fifteen dice of six: the answer covers cells on the track (and the stream a kart may fall in)."""
    game = crowded("B", 90, random.Random("ninety"))
    found = reach(game)
    assert found.ends
    assert all(game.track.on_track(c) or game.track.is_stream(c) for c in found.cells)


def plain_reach(game: Races, exact: bool) -> Reach:
    """What the one-state-at-a-time search answers: following every bump, or else not following them."""
    if exact:
        return every_bump(game)
    kart = game.karts[game.turn.seat]
    assert kart.cell is not None
    found = _forward_reach(game.field(), kart.seat, kart.cell, kart.facing, game.turn.points, None)
    assert found is not None
    return found


@pytest.mark.parametrize(("track", "points"), [("A", 9), ("B", 16), ("A", 24), ("B", 40)])
def test_reach_answers_as_the_plain_search_small_rolls_and_big(track: str, points: int) -> None:
    """Big rolls skip the exact search when the states that bumped nobody already overflow its budget:
    the answer is still the one the plain search gives, following every bump when it says it is exact."""
    rng = random.Random(f"whole-{track}-{points}")
    for _ in range(2):
        game = crowded(track, points, rng)
        found = reach(game)
        assert found == plain_reach(game, found.exact), game.to_dict()
