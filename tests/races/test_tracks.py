"""The built-in Junkyard Races tracks: every point of ruling R3, checked on each track.

Ruling R3 (RULINGS.md) lists what a track must have; each test below checks one point on every
bundled track. The rulebook's "Junkyard Layout", "Moving Across Bridges" and "Pit Stops" sections are
the source of the points it takes from the printed game.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from rules.hexgrid import Facing, Hex
from rules.races.paths import shortest_paths
from rules.races.track import LapState, PitColour, Terrain, Track, builtin_tracks, get_track

TRACKS = sorted(builtin_tracks().values(), key=lambda t: t.alias)
ALIASES = [t.alias for t in TRACKS]

State = tuple[Hex, Facing]


@pytest.fixture(params=ALIASES)
def track(request: pytest.FixtureRequest) -> Track:
    return get_track(request.param)


# Helpers ---------------------------------------------------------------------------------------------


def components(cells: set[Hex], track: Track, walls: bool = True) -> list[set[Hex]]:
    left = set(cells)
    out = []
    while left:
        todo = [left.pop()]
        comp = set(todo)
        while todo:
            c = todo.pop()
            for n in c.neighbours():
                if n in left and not (walls and track.wall_between(c, n)):
                    left.discard(n)
                    comp.add(n)
                    todo.append(n)
        out.append(comp)
    return out


def drives_into(track: Track, start: Iterable[Hex], allowed: set[Hex], use_gaps: bool) -> set[Hex]:
    """Every cell a forward move (R5; a jump too with ``use_gaps``) enters, driving from ``start`` in any
    facing through ``allowed`` cells only."""
    entered: set[Hex] = set()

    def moves(state: State) -> Iterator[tuple[State, int]]:
        for nxt, steps in track.drive_moves(state[0], state[1], use_gaps):
            entered.add(nxt[0])
            if nxt[0] in allowed:
                yield nxt, steps

    shortest_paths({(c, f): 0 for c in start for f in Facing}, moves)
    return entered


@cache
def sides(alias: str) -> tuple[frozenset[Hex], frozenset[Hex]]:
    """The two stretches of track the stream cuts the loop into: the start cells' stretch ("home"), then the other."""
    track = get_track(alias)
    land = {c for c in track.track_cells if not track.is_bridge(c)}
    parts = components(land, track)
    assert len(parts) == 2, f"the stream should cut the loop into two stretches, found {len(parts)}"
    a, b = parts
    if track.starts[0].cell in b:
        a, b = b, a
    return frozenset(a), frozenset(b)


@cache
def to_line(alias: str) -> dict[State, int]:
    return get_track(alias).distances_to_line()


def cell_to_line(alias: str, cell: Hex) -> int:
    d = to_line(alias)
    return min(d.get((cell, f), 1 << 30) for f in Facing)


def crossing_ids(track: Track) -> list[str]:
    return sorted({b.bridge[0] for b in track.bridges.values()})


def bridges_of(track: Track, crossing: str) -> dict[str, tuple[Hex, ...]]:
    return {name: cells for name, cells in track.bridge_names.items() if name[0] == crossing}


def collapsed_names(track: Track) -> set[str]:
    return {track.bridges[g.near].bridge for g in track.gaps}


def crossing_direction(track: Track, crossing: str) -> tuple[str, str]:
    """Which stretch ("home": the start cells' side, "away") a crossing's bridges lead from and to."""
    home, away = sides(track.alias)

    def side(c: Hex) -> str | None:
        return "home" if c in home else "away" if c in away else None

    froms = {side(e) for cells in bridges_of(track, crossing).values() for c in cells
             for e in track.bridges[c].entries} - {None}
    tos = {side(x) for cells in bridges_of(track, crossing).values() for c in cells
           for x in track.bridges[c].exits} - {None}
    assert len(froms) == 1 and len(tos) == 1, (crossing, froms, tos)
    return str(froms.pop()), str(tos.pop())


def step_facing(a: Hex, b: Hex) -> Facing:
    """The facing of the step from ``a`` to its neighbour ``b``."""
    facing = a.facing_to(b)
    assert facing is not None, (a, b)
    return facing


@cache
def lap_search(alias: str) -> tuple[int, dict[LapState, int], dict[LapState, int]]:
    """The lap graph (states: cell, facing, crossings done) from just past the line round to it.

    A lap may not cross the line forwards between its start and its finish, so the steps from the start
    give how far round the lap a cell lies. Returns the shortest lap, each state's steps from the start
    and each state's steps to the finish.
    """
    track = get_track(alias)
    back: dict[LapState, list[tuple[LapState, int]]] = {}  # the lap graph's edges, walked backwards
    finish_from: dict[LapState, int] = {}  # states one step before crossing the line forwards with both crossings done

    def moves(state: LapState) -> Iterator[tuple[LapState, int]]:
        for nxt, cost in track.lap_moves(state):
            if nxt is None:
                finish_from[state] = 1
            else:
                back.setdefault(nxt, []).append((state, cost))
                yield nxt, cost

    forward, _ = shortest_paths(track.lap_starts(), moves)
    best = min(forward[s] + 1 for s in finish_from)
    to_finish, _ = shortest_paths(finish_from, lambda s: back.get(s, ()))
    return best, forward, to_finish


@cache
def lap_position(alias: str) -> dict[Hex, tuple[int, int]]:
    """For each cell a lap can pass: the fewest steps from the line to it and from it on to the line."""
    _, forward, to_finish = lap_search(alias)
    out: dict[Hex, tuple[int, int]] = {}
    for s, d in forward.items():
        if s in to_finish:
            done, rest = out.get(s[0], (1 << 30, 1 << 30))
            out[s[0]] = (min(done, d), min(rest, to_finish[s]))
    return out


def share_of_lap(alias: str, cell: Hex) -> float:
    """How far round the lap a cell lies: 0 at the line, 1 back at it."""
    done, rest = lap_position(alias)[cell]
    return done / (done + rest)


@cache
def racing_line(alias: str, slack: int = 2) -> frozenset[Hex]:
    """Cells on some lap no more than ``slack`` steps longer than the shortest."""
    best, forward, to_finish = lap_search(alias)
    return frozenset(s[0] for s, d in forward.items() if s in to_finish and d + to_finish[s] <= best + slack)


# R3: the set of tracks and their size ------------------------------------------------------------------


def test_r3_two_tracks_one_per_side_of_the_board_called_a_and_b() -> None:
    assert ALIASES == ["A", "B"]
    assert len({t.name for t in TRACKS}) == 2
    assert all(t.description for t in TRACKS)


def test_r3_track_loads_and_is_about_30_columns_by_22_rows(track: Track) -> None:
    assert 28 <= track.columns <= 32
    assert 20 <= track.rows <= 24
    assert all(0 <= c.col < track.columns and 0 <= c.row < track.rows for c in track.terrain)


def test_r3_a_looping_track_several_cells_wide(track: Track) -> None:
    steps, path = track.shortest_lap()
    assert steps > 0 and path  # a way round exists
    assert len(track.track_cells) >= 5 * steps  # on average well over three cells wide
    # across the track: the cells the same number of steps round from the line
    across: dict[int, int] = {}
    for done, _ in lap_position(track.alias).values():
        across[done] = across.get(done, 0) + 1
    widths = sorted(across.get(d, 0) for d in range(2, steps - 1))
    assert widths[len(widths) // 2] >= 3


def test_r3_tracks_differ_in_shape_and_stream_course() -> None:
    a, b = TRACKS
    assert a.track_cells != b.track_cells
    shared = len(a.stream_cells & b.stream_cells)
    assert shared < min(len(a.stream_cells), len(b.stream_cells)) // 3


# R3: Checkered Line and start cells ---------------------------------------------------------------------


def test_r3_checkered_line_is_a_chain_of_edges_across_the_track(track: Track) -> None:
    assert track.line
    for behind, ahead in track.line:
        assert behind.distance(ahead) == 1
        assert track.on_track(behind) and track.on_track(ahead)
        assert not track.is_bridge(behind) and not track.is_bridge(ahead)
    behind_cells = {a for a, _ in track.line}
    ahead_cells = {b for _, b in track.line}
    assert not behind_cells & ahead_cells
    # nothing gets round the end of the line: with the line and the bridges taken away, the cells ahead
    # of it cannot reach the cells behind it
    cut = {frozenset(e) for e in track.line}
    land = {c for c in track.track_cells if not track.is_bridge(c)}
    seen = set(ahead_cells)
    todo = list(ahead_cells)
    while todo:
        c = todo.pop()
        for n in track.open_neighbours(c):
            if n in land and n not in seen and frozenset((c, n)) not in cut:
                seen.add(n)
                todo.append(n)
    assert not seen & behind_cells


def test_r3_three_start_cells_behind_the_line_with_white_arrows_towards_it(track: Track) -> None:
    assert len(track.starts) == 3
    assert len({s.cell for s in track.starts}) == 3
    ahead_cells = {b for _, b in track.line}
    home, _ = sides(track.alias)
    for s in track.starts:
        assert track.on_track(s.cell) and not track.is_bridge(s.cell) and s.cell not in track.pits
        assert s.cell not in ahead_cells and s.cell in home
        # facing the line: one or two forward steps cross it
        assert to_line(track.alias)[(s.cell, s.facing)] <= 2


# R3: the stream and its crossings ------------------------------------------------------------------------


def test_r3_stream_crosses_the_whole_board(track: Track) -> None:
    water = set(track.stream_cells) | set(track.bridges)
    parts = components(water, track, walls=False)
    last_col, last_row = track.columns - 1, track.rows - 1
    assert any({c.row for c in p} >= {0, last_row} or {c.col for c in p} >= {0, last_col} for p in parts)


def test_r3_the_track_crosses_the_stream_twice_out_and_back(track: Track) -> None:
    assert len(sides(track.alias)) == 2  # the stream cuts the loop into exactly two stretches
    assert crossing_ids(track) == ["1", "2"]
    directions = {c: crossing_direction(track, c) for c in ("1", "2")}
    assert sorted(directions.values()) == [("away", "home"), ("home", "away")]


def test_r3_each_crossing_has_a_whole_and_a_collapsed_bridge(track: Track) -> None:
    collapsed = collapsed_names(track)
    for crossing in ("1", "2"):
        names = bridges_of(track, crossing)
        assert len(names) >= 2
        whole = [n for n in names if n not in collapsed]
        broken = [n for n in names if n in collapsed]
        assert whole and broken, crossing
        for name in whole:
            assert 1 <= len(names[name]) <= 3
        for name in broken:
            assert len(names[name]) == 2  # the two ends


def test_r3_whole_bridges_are_one_chain_from_bank_to_bank(track: Track) -> None:
    collapsed = collapsed_names(track)
    for name, cells in track.bridge_names.items():
        if name in collapsed:
            continue
        firsts = [c for c in cells if not track.bridges[c].entries & set(cells)]
        lasts = [c for c in cells if not track.bridges[c].exits & set(cells)]
        assert len(firsts) == 1 and len(lasts) == 1, name
        c, walked = firsts[0], [firsts[0]]
        while c != lasts[0]:
            (c,) = track.bridges[c].exits & set(cells)
            walked.append(c)
        assert sorted(walked) == sorted(cells)
        assert all(track.on_track(e) and not track.is_bridge(e) for e in track.bridges[firsts[0]].entries)
        assert all(track.on_track(x) and not track.is_bridge(x) for x in track.bridges[lasts[0]].exits)


def test_r3_collapsed_bridges_have_a_straight_gap_of_two_or_three_stream_cells(track: Track) -> None:
    assert track.gaps
    for gap in track.gaps:
        assert 2 <= len(gap.cells) <= 3
        line = gap.near.line(gap.facing, len(gap.cells) + 1)
        assert tuple(line[:-1]) == gap.cells and line[-1] == gap.far
        assert all(track.is_stream(c) for c in gap.cells)
        assert track.bridges[gap.near].bridge == track.bridges[gap.far].bridge


def test_r3_at_least_one_bridge_has_two_entry_cells(track: Track) -> None:
    assert any(len({e for e in b.entries if track.on_track(e)}) >= 2 for b in track.bridges.values())


def test_r3_bridge_arrows_point_one_way_only(track: Track) -> None:
    for cell, b in track.bridges.items():
        assert b.entries and b.exits
        assert not b.entries & b.exits
        for n in cell.neighbours():
            if track.may_step(n, cell):
                assert n in b.entries
            if track.may_step(cell, n):
                assert n in b.exits
        for e in b.entries:
            assert not track.may_step(cell, e), f"{cell} can be driven back to {e}"
        for x in b.exits:
            assert not track.may_step(x, cell), f"{cell} can be entered from its exit {x}"


def test_r3_driving_a_bridge_against_its_arrows_is_impossible(track: Track) -> None:
    """From the stretch a crossing leads to, nothing drives back over that crossing to where it came from."""
    home, away = sides(track.alias)
    for crossing in ("1", "2"):
        _, to = crossing_direction(track, crossing)
        start_side, goal_side = (home, away) if to == "home" else (away, home)
        allowed = set(start_side) | {c for cells in bridges_of(track, crossing).values() for c in cells}
        wrong = drives_into(track, start_side, allowed, use_gaps=True) & goal_side
        assert not wrong, f"crossing {crossing} driven backwards into {sorted(wrong)}"


def test_r3_red_arrows_mark_every_side_a_kart_on_a_bridge_can_be_bumped_into_the_stream(track: Track) -> None:
    """A bump pushes the way the bumping kart drives; it drives onto a bridge cell only from an entry."""
    for cell, b in track.bridges.items():
        pushes = {e.facing_to(cell) for e in b.entries}
        into_water = {f for f in pushes if f is not None and track.is_stream(cell.neighbour(f))}
        assert b.bump_sides == into_water, (cell, b.bump_sides, into_water)
    assert any(b.bump_sides for b in track.bridges.values())


def test_r3_one_landing_point_per_crossing_beside_the_stream_past_the_crossing(track: Track) -> None:
    assert sorted(track.landings) == ["1", "2"]
    home, away = sides(track.alias)
    for crossing, lp in track.landings.items():
        assert lp.crossing == crossing
        assert track.on_track(lp.cell) and not track.is_bridge(lp.cell) and lp.cell not in track.pits
        assert any(track.is_stream(n) for n in lp.cell.neighbours()), "beside the stream"
        _, to = crossing_direction(track, crossing)
        assert lp.cell in (home if to == "home" else away), "past the crossing"
        exits = {x for cells in bridges_of(track, crossing).values() for c in cells for x in track.bridges[c].exits
                 if track.on_track(x) and not track.is_bridge(x)}
        assert min(lp.cell.distance(x) for x in exits) <= 3, "near the crossing"
        # the blue arrow points on round the lap: a forward step is possible and brings the line nearer
        assert list(track.forward_successors(lp.cell, lp.facing))
        assert to_line(track.alias)[(lp.cell, lp.facing)] <= cell_to_line(track.alias, lp.cell) + 1


def test_r3_every_stream_cell_names_a_landing_point(track: Track) -> None:
    assert set(track.stream_landing) == set(track.stream_cells)
    for cell in track.stream_cells:
        assert track.landing_for(cell).crossing in track.landings


def test_r3_a_kart_that_falls_at_a_crossing_lands_past_that_crossing(track: Track) -> None:
    for gap in track.gaps:
        crossing = track.bridges[gap.near].bridge[0]
        assert {track.stream_landing[c] for c in gap.cells} == {crossing}
    for cell, b in track.bridges.items():
        for f in b.bump_sides:
            assert track.stream_landing[cell.neighbour(f)] == b.bridge[0]


# R3: Pit Stops ----------------------------------------------------------------------------------------


def pit_cells(track: Track, colour: PitColour) -> list[Hex]:
    return sorted(c for c, p in track.pits.items() if p is colour)


def test_r3_a_green_and_a_red_pit_stop_of_four_cells(track: Track) -> None:
    assert set(track.pits.values()) == {PitColour.GREEN, PitColour.RED}
    for colour in PitColour:
        cells = pit_cells(track, colour)
        assert len(cells) == 4
        assert all(track.terrain[c] is Terrain.TARMAC for c in cells)


@pytest.mark.parametrize("colour", list(PitColour))
def test_r3_each_pit_stop_is_a_lane_beside_the_track_entered_from_either_end(track: Track, colour: Any) -> None:
    cells = set(pit_cells(track, colour))
    links = {c: {n for n in c.neighbours() if n in cells and not track.wall_between(c, n)} for c in cells}
    ends = [c for c in cells if len(links[c]) == 1]
    assert len(ends) == 2 and sum(len(v) for v in links.values()) == 6, "four cells in a row"
    for c in cells:
        outside = [n for n in c.neighbours() if track.on_track(n) and n not in cells and track.may_step(n, c)]
        if c in ends:
            assert outside, f"the lane end {c} cannot be driven into"
        else:
            assert not outside, f"the lane is open to the track in its middle at {c}"
    # the two ends open on to different cells, so the lane can be driven through either way
    first, last = ends
    way_in = {n for n in first.neighbours() if n not in cells and track.may_step(n, first)}
    way_out = {n for n in last.neighbours() if n not in cells and track.may_step(last, n)}
    assert way_in and way_out and not way_in & way_out


def test_r3_green_pit_stop_is_just_before_the_checkered_line(track: Track) -> None:
    home, _ = sides(track.alias)
    ahead_cells = {b for _, b in track.line}
    for c in pit_cells(track, PitColour.GREEN):
        assert c in home and c not in ahead_cells
        assert lap_position(track.alias)[c][1] <= 6, "steps on to the line"
        assert share_of_lap(track.alias, c) >= 0.8


def test_r3_red_pit_stop_is_about_halfway_round_by_lap_distance(track: Track) -> None:
    for c in pit_cells(track, PitColour.RED):
        share = share_of_lap(track.alias, c)
        assert 0.35 <= share <= 0.65, (c, share)


# R3: Delivery Points and Bottle Tops -------------------------------------------------------------------------


def test_r3_delivery_points_3_to_18_each_once(track: Track) -> None:
    assert sorted(track.deliveries) == list(range(3, 19))
    cells = list(track.deliveries.values())
    assert len(set(cells)) == 16
    starts = {s.cell for s in track.starts}
    landings = {lp.cell for lp in track.landings.values()}
    for c in cells:
        assert track.on_track(c) and c not in track.pits and c not in starts and c not in landings


def test_r3_delivery_points_are_spread_round_the_lap(track: Track) -> None:
    quarters = [0, 0, 0, 0]
    for c in track.deliveries.values():
        quarters[min(3, int(share_of_lap(track.alias, c) * 4))] += 1
    assert min(quarters) >= 2, quarters


def test_r3_three_to_five_bottle_top_points_on_bridges_worth_one_to_three(track: Track) -> None:
    assert 3 <= len(track.bottle_tops) <= 5
    for cell, value in track.bottle_tops.items():
        assert track.is_bridge(cell)
        assert 1 <= value <= 3
    assert {track.bridges[c].bridge[0] for c in track.bottle_tops} == {"1", "2"}


# R3: terrain -------------------------------------------------------------------------------------------


def patches(track: Track, terrain: Terrain) -> list[set[Hex]]:
    return components({c for c, t in track.terrain.items() if t is terrain}, track, walls=False)


def near_line(track: Track, patch: set[Hex]) -> bool:
    line = racing_line(track.alias)
    return any(c in line or any(n in line for n in c.neighbours()) for c in patch)


def test_r3_tarmac_is_most_of_the_track(track: Track) -> None:
    land = [t for c, t in track.terrain.items() if track.on_track(c)]
    assert sum(t is Terrain.TARMAC for t in land) > 0.75 * len(land)


def test_r3_three_grass_and_two_mud_patches_on_or_beside_the_racing_line(track: Track) -> None:
    grass = [p for p in patches(track, Terrain.GRASS) if near_line(track, p)]
    mud = [p for p in patches(track, Terrain.MUD) if near_line(track, p)]
    assert len(grass) >= 3, [sorted(c.label for c in p) for p in patches(track, Terrain.GRASS)]
    assert len(mud) >= 2, [sorted(c.label for c in p) for p in patches(track, Terrain.MUD)]


def test_r3_a_stretch_only_one_cell_wide(track: Track) -> None:
    """Two neighbouring land cells that every lap must drive through, one after the other."""
    _, path = track.shortest_lap()
    pinch = []
    for cell in path:
        if track.is_bridge(cell) or cell in track.pits:
            continue
        terrain = {c: t for c, t in track.terrain.items() if c != cell}
        if dataclasses.replace(track, terrain=terrain).shortest_lap()[0] == 0:
            pinch.append(cell)
    assert any(a.distance(b) == 1 for a in pinch for b in pinch), [c.label for c in pinch]


# R3: the lap ---------------------------------------------------------------------------------------------


def test_r3_shortest_lap_is_26_to_36_steps(track: Track) -> None:
    steps, _ = track.shortest_lap()
    assert 26 <= steps <= 36
    best, _, _ = lap_search(track.alias)
    assert best == steps  # our own search over may_step agrees
    assert track.shortest_lap(use_gaps=True)[0] <= steps


def test_r3_the_shortest_lap_is_a_legal_drive_over_both_crossings(track: Track) -> None:
    steps, path = track.shortest_lap()
    assert len(path) == steps - 1  # the cells between the two crossings of the line
    first_edge = [(b, a) for b, a in track.line if a == path[0]]
    assert first_edge
    facing = first_edge[0][0].facing_to(path[0])
    assert facing is not None
    crossed = set()
    for a, b in itertools.pairwise(path):
        f = a.facing_to(b)
        assert f in (facing, facing.left, facing.right), f"{a}->{b} turns too sharply"
        assert track.may_step(a, b)
        assert track.line_edges.get((a, b)) is None
        if track.is_bridge(a) and not track.is_bridge(b):
            crossed.add(track.bridges[a].bridge[0])
        facing = f
    assert crossed == {"1", "2"}
    assert any(track.line_edges.get((path[-1], n)) == 1 for n in path[-1].neighbours())


def test_r3_every_track_cell_is_reachable_from_the_start_and_can_reach_the_line(track: Track) -> None:
    assert {c for c, _ in track.reachable_from_starts()} == set(track.track_cells)
    assert {c for c, _ in to_line(track.alias)} == set(track.track_cells)


def test_r3_each_crossing_can_be_made_over_a_whole_bridge(track: Track) -> None:
    home, away = sides(track.alias)
    collapsed = collapsed_names(track)
    for crossing in ("1", "2"):
        frm, _ = crossing_direction(track, crossing)
        src, goal = (home, away) if frm == "home" else (away, home)
        for name, cells in bridges_of(track, crossing).items():
            if name in collapsed:
                continue
            allowed = set(src) | set(goal) | set(cells)
            made = drives_into(track, src, allowed, use_gaps=False) & goal
            assert made, f"bridge {name} cannot be driven over"


def test_r3_r7_each_crossing_can_be_attempted_over_a_collapsed_bridge_and_lands_on_the_far_end(track: Track) -> None:
    home, away = sides(track.alias)
    for crossing in ("1", "2"):
        gaps = [g for g in track.gaps if track.bridges[g.near].bridge[0] == crossing]
        assert gaps
        _, to = crossing_direction(track, crossing)
        goal = away if to == "away" else home
        for gap in gaps:
            ways_in = [(e, step_facing(gap.near, e).opposite) for e in track.bridges[gap.near].entries]
            jumps = [track.jump_landing(gap.near, f) for _, f in ways_in]
            assert any(j is not None and j[0] == gap for j in jumps), f"no way to drive into the gap at {gap.near}"
            assert all(j is None or j == (gap, len(gap.cells) + 1) for j in jumps)
            # from the far end the kart drives on to the far bank
            assert any(n in goal for n, _ in list(track.forward_successors(gap.far, gap.facing)))


def test_the_track_folder_readme_lists_the_bundled_tracks_as_they_are() -> None:
    readme = (Path(__file__).parents[2] / "rules" / "races" / "tracks" / "README.md").read_text(encoding="utf-8")
    for t in TRACKS:
        row = (f"| {t.alias} | {t.name} | `{t.source}` | {t.shortest_lap()[0]} | {len(t.track_cells)} | "
               f"{len(t.stream_cells)} |")
        assert row in readme
