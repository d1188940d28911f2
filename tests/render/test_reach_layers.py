"""The where-can-I-go search moves whole layers of states at once and forgets bumps that can no longer
matter; it must name exactly the cells the plain one-state-at-a-time search names when that one follows
every bump (which tests/render/test_overlay.py checks against driving every legal way through the
engine), with R5, R6, R7, R9 and bumps (rulebook: Bumping Other Karts)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules.contract import SetupError
from rules.hexgrid import Facing
from rules.races import queries
from rules.races.engine import Races
from rules.races.movement import Lookahead
from rules.races.reach import (
    EXACT_BUDGET,
    Bumps,
    Reach,
    _forward_reach,
    _grid,
    _layered_reach,
    _Table,
    _Tally,
    _Ways,
    reach,
)
from rules.races.track import get_track


def crowded(track_name: str, points: int, rng: random.Random, ram: bool = False, oils: int = 0) -> Races:
    """The mover anywhere on the track with any facing, seven karts and two traps about; with ``ram``
    the mover has a Battering Ram, and ``oils`` Oils lie about too, their arrows at a kart when they can."""
    track = get_track(track_name)
    cells = sorted(track.track_cells)
    while True:
        cell = rng.choice(cells)
        near = [c for c in cells if 1 <= c.distance(cell) <= 6]
        crowd = rng.sample(near, 7)
        karts: list[dict[str, Any]] = [{"colour": "red", "cell": cell.label, "facing": rng.choice(list(Facing)).name}]
        karts += [{"cell": c.label, "facing": rng.choice(list(Facing)).name} for c in crowd]
        if ram:
            karts[0]["parts"] = {"6": "battering-ram"}
        free = [c for c in near if c not in crowd]
        board = {c.label: kind for c, kind in zip(rng.sample(free, 2), ("glue", "acid"), strict=True)}
        for spot in rng.sample([c for c in free if c.label not in board], oils):
            aims = [f for f in Facing if spot.neighbour(f) in crowd] or list(Facing)
            board[spot.label] = f"oil {rng.choice(aims).name}"
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
    found = _forward_reach(queries.field(game), kart.seat, kart.cell, kart.facing, game.turn.points, 10**7)
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
        fld = queries.field(game)
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
    fld = queries.field(game)
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
    found = _forward_reach(queries.field(game), kart.seat, kart.cell, kart.facing, game.turn.points, None)
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


@pytest.mark.parametrize(("track", "points", "ram", "oils"),
                         [("A", 8, True, 0), ("B", 12, True, 0), ("A", 10, False, 2), ("B", 14, True, 2)])
def test_a_battering_ram_and_oils_give_the_same_cells_as_following_every_bump(track: str, points: int, ram: bool,
                                                                              oils: int) -> None:
    """A Battering Ram pushes a kart one or two cells (rulebook: Bumping Other Karts, R14), so a bump
    matters from one cell further away; an Oil stops a kart only while no kart stands on its arrow
    cell, which a bump can change (R9). Forgetting bumps and skipping settled states, the search still
    names exactly the cells of the plain search following every bump."""
    rng = random.Random(f"ram-oil-{track}-{points}")
    for _ in range(2):
        game = crowded(track, points, rng, ram, oils)
        found = reach(game)
        assert found.exact, game.to_dict()
        assert found == every_bump(game), game.to_dict()


@pytest.mark.parametrize("track", ["A", "B"])
def test_the_look_ahead_on_state_bits_answers_as_the_engines(track: str) -> None:
    """R9's look-ahead: the search's own walk on state bits (with the states it is sure of without
    walking) gives :meth:`Lookahead.longest` on every field it met, bumped fields included."""
    game = crowded(track, 14, random.Random(f"look-{track}"), oils=1)
    kart = game.karts[0]
    assert kart.cell is not None
    fld = queries.field(game)
    ways = _Ways(fld, 0, True)
    tables: dict[Bumps, _Table] = {}
    assert _layered_reach(fld, 0, kart.cell, kart.facing, 14, EXACT_BUDGET, ways, tables=tables) is not None
    assert len(tables) > 3  # some bumped fields
    grid = _grid(game.track)
    look = Lookahead()
    for table in tables.values():
        for state in list(grid.out)[::7]:
            cell, facing = grid.cell_at[state % grid.plane], Facing(state // grid.plane)
            assert table.far(state) == look.longest(table.fld, cell, facing), (cell.label, facing.name)


@pytest.mark.parametrize("track", ["A", "B"])
def test_settled_states_walk_only_on_known_cells(track: str) -> None:
    """A state counts as settled for ``n`` points exactly when every walk of at most ``n`` forward
    steps from it (R5, R6; a jump over a collapsed bridge never settles, R7) stays on known cells."""
    grid = _grid(get_track(track))
    rng = random.Random(f"settled-{track}")
    cells = sorted(grid.cell_at)
    for _ in range(3):
        known = sum(1 << bit for bit in rng.sample(cells, len(cells) * 3 // 4))
        by_points = grid.settled(known, 7)
        for points in (0, 1, 2, 4, 7):
            settled = by_points[points] if points < len(by_points) else 0
            for state in list(grid.out)[::5]:
                walks, seen, fine = {state}, set(), state not in grid.jump_states
                seen.add(state % grid.plane)
                for _ in range(points):
                    walks = {s + step[4] for s in walks for step in grid.out.get(s, ()) if not step[3]}
                    fine = fine and not any(s in grid.jump_states for s in walks)
                    seen |= {s % grid.plane for s in walks}
                fine = fine and all(known >> cell & 1 for cell in seen)
                assert bool(settled >> state & 1) == fine, (state, points)


@pytest.mark.parametrize("most", [0, 1])
def test_the_ways_that_bump_at_most_so_many_karts_end_on_ends_of_the_move(most: int) -> None:
    """The first parts of the exact search drive only the ways that bump nobody, then at most one kart:
    every cell they end on or drive through is one the move can end on or drive through (R9 weighs
    those ways as in the move itself, rulebook: Bumping Other Karts), so the cells they end on may
    settle states of the next part."""
    for points in (6, 12, 18):
        game = crowded("B", points, random.Random(f"unbumped-{points}"))
        kart = game.karts[0]
        assert kart.cell is not None
        tally = _Tally(most)
        fld = queries.field(game)
        part = _layered_reach(fld, 0, kart.cell, kart.facing, points, None, _Ways(fld, 0, True), unbumped=tally)
        whole = every_bump(game)
        assert part is not None
        assert part.ends <= whole.ends and part.cells <= whole.cells
        if not tally.bumped:  # no way was left out: that part is the whole search
            assert part == whole
        if most == 0:  # these crowded positions have cells only a bump reaches
            assert tally.bumped and part != whole


def test_a_part_that_gives_up_keeps_only_ends_of_the_move() -> None:
    """A part of the exact search that overflows its budget hands on the cells it found ends on: each
    came from a legal way of driving (R9, rulebook: Bumping Other Karts), so each is an end of the move."""
    game = crowded("A", 16, random.Random("give-up"))
    kart = game.karts[0]
    assert kart.cell is not None
    fld = queries.field(game)
    tally = _Tally(1)
    assert _layered_reach(fld, 0, kart.cell, kart.facing, 16, 400, _Ways(fld, 0, True), unbumped=tally) is None
    grid = _grid(game.track)
    found = {cell for bit, cell in grid.cell_at.items() if tally.ends >> bit & 1}
    assert found and found <= every_bump(game).ends


def test_a_kart_bumped_onto_oil_skids_on_in_the_search_as_in_the_engine() -> None:
    """Bumping Other Karts / Oil / R9, R14: red's Battering Ram pushes green two cells from T7 onto the
    Oil on V8, which throws it on to U9 and goes back to the pile, so red may end its roll on V8 (U8,
    V8). The search follows that skid (the look-ahead's field after a bump is the engine's) and names
    exactly the cells that driving every legal way through the engine ends on and passes."""
    from tests.render.test_overlay import drive_every_way

    colours = ["red", "blue", "green", "yellow", "orange", "purple", "white", "black"]
    spots = ["S7 NE", "P5 NE", "T7 NE", "O4 SW", "M7 S", "V10 NE", "W7 SE", "M8 SW"]
    karts: list[dict[str, Any]] = [{"colour": colour, "cell": spot.split()[0], "facing": spot.split()[1]}
                                   for colour, spot in zip(colours, spots, strict=True)]
    karts[0]["parts"] = {"6": "battering-ram"}
    game = Races.from_position({"track": "A", "karts": karts, "phase": "move", "points": 3,
                                "board": {"V11": "glue", "W6": "acid", "P8": "oil S", "V8": "oil SW", "V5": "oil SW"}})
    ends, passes = drive_every_way(game)
    assert "V8" in ends
    assert reach(game).labels() == (ends, passes)


def test_a_kart_spun_by_a_time_bomb_it_bumps_a_kart_onto_drives_on_in_the_search_as_in_the_engine() -> None:
    """Bumping Other Karts / Time Bomb / R9: red on M9 (Proving Ground) bumps blue from M10 onto the Time
    Bomb on M11, whose blast spins red round to face north, the bomb gone. The search drives on from the
    reversed facing, naming exactly the cells that driving every legal way through the engine ends on and
    passes (the damage dice are taken to miss, NOTATION); so does the layered search that does not follow
    bumps, as the plain one. Likewise when the bump comes at the second step (blue on M11, the bomb on M12)."""
    from tests.races.conftest import position
    from tests.render.test_overlay import drive_every_way

    for blue, bomb, points in [("M10", "M11", 3), ("M10", "M11", 5), ("M11", "M12", 4)]:
        karts = [{"colour": "red", "cell": "M9", "facing": "S"}, {"colour": "blue", "cell": blue, "facing": "N"}]
        game = position(karts, phase="move", points=points, board={bomb: "time-bomb"}, dice=[6] * 8)
        ends, passes = drive_every_way(game)
        assert blue in passes
        assert reach(game).labels() == (ends, passes)
        assert reach(game) == every_bump(game)
        fld, red = queries.field(game), game.karts[0]
        assert red.cell is not None
        assert (_layered_reach(fld, 0, red.cell, red.facing, points, None)
                == _forward_reach(fld, 0, red.cell, red.facing, points, None))
