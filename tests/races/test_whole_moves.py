"""Whole moves (Phase 5 as one path): on positions drawn at random, the paths ``full_moves`` lists are
exactly the cells plain steps can end on with the whole roll (R5, R9), each path made of plain steps
that bump nobody, enter no trap and jump no gap, passing no cell it must avoid."""

from __future__ import annotations

import random

import pytest

from rules.hexgrid import Facing, Hex
from rules.races.movement import Field, full_moves, static_moves
from rules.races.track import get_track


def plain_ends(fld: Field, cell: Hex, facing: Facing, points: int, avoid: frozenset[Hex]) -> set[Hex]:
    """The cells plain steps end on after exactly ``points`` steps, by sets of states."""
    moves = static_moves(fld.track)
    layer = {(cell, facing)}
    for step in range(points):
        last = step == points - 1
        layer = {(end, new_facing) for state in layer for target, new_facing, _, end, jump in moves.get(state, ())
                 if not jump and target not in fld.karts and target not in fld.stop_cells
                 and (last or target not in avoid)}
    return {c for c, _ in layer}


@pytest.mark.parametrize("track_name", ["A", "B"])
def test_whole_moves_end_on_every_cell_plain_steps_reach_and_only_there(track_name: str) -> None:
    track = get_track(track_name)
    cells = sorted(track.track_cells)
    rng = random.Random(f"whole-{track_name}")
    moves = static_moves(track)
    for _ in range(40):
        cell = rng.choice(cells)
        karts = {c: seat for seat, c in enumerate(rng.sample([c for c in cells if c != cell], 7), start=1)}
        fld = Field(track, karts, stop_cells=frozenset(rng.sample(cells, 2)))
        avoid = frozenset(rng.sample(cells, 3)) if rng.random() < 0.5 else frozenset()
        facing = rng.choice(list(Facing))
        points = rng.randint(2, 30)
        found = full_moves(fld, cell, facing, points, avoid)
        assert set(found) == plain_ends(fld, cell, facing, points, avoid)
        for end, path in found.items():
            assert len(path) == points and path[-1] == end
            here, face = cell, facing
            for i, nxt in enumerate(path):
                step = [m for m in moves[(here, face)] if m[0] == nxt and not m[4]]
                assert step, (here, face, nxt)
                assert nxt not in karts and nxt not in fld.stop_cells
                assert i == points - 1 or nxt not in avoid
                here, face = nxt, step[0][1]
