"""Where can I go? The cells the current move's remaining points can reach.

A search over the same step rules the engine uses (:func:`rules.races.movement.legal_plans`, whole-roll
rule R9 included), from the kart whose turn it is: every state is a cell, a facing, the points left
and the karts' positions (a bump moves a kart, and a kart is bumped at most once a turn). A cell is an
*end* when some legal way of driving can stop there (the points run out, a trap or a bump with no way
round stops the kart, it falls into the stream, every way on is blocked) and a *pass* when some legal
way drives through it. Cells with a trap count as ends: whether the trap stops the kart is up to a
die. Reversing (rulebook: Reversing) reaches up to the reverse steps left, and may stop after any.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules.hexgrid import Facing, Hex, parse_label
from rules.races.movement import CAP, Field, Lookahead, Plan, static_moves, step_plans
from rules.races.state import PHASE_MOVE
from rules.races.track import Track

if TYPE_CHECKING:
    from rules.races.engine import Races

#: states the exact search may visit (states that differ only in bumps the kart can no longer come near
#: count once; a roll of 18 among eight karts visits about 8,000); past that the search starts again
#: without following each bump
EXACT_BUDGET = 15_000

#: how near (in cells) a difference between two fields must come to a kart's way to change what its
#: steps may do: a step looks at the cell entered, a push up to two cells past it, an Oil's arrow cell,
#: and whether the bumping kart can step on from the cell it took (one more)
NEAR = 4


@dataclass(frozen=True)
class Reach:
    """The cells a move can end on and the further cells it can only drive through."""

    ends: frozenset[Hex] = frozenset()
    passes: frozenset[Hex] = frozenset()
    exact: bool = True  # False: a huge roll among many karts, searched without following each bump

    @property
    def cells(self) -> frozenset[Hex]:
        return self.ends | self.passes

    def labels(self) -> tuple[set[str], set[str]]:
        """(end labels, pass-only labels)."""
        return {c.label for c in self.ends}, {c.label for c in self.passes}


def _without(fld: Field, seat: int) -> Field:
    """The field with the mover taken off, so it stays the same while the mover drives on (the
    look-ahead's memo is kept per field: that is what makes the search quick)."""
    karts = {c: s for c, s in fld.karts.items() if s != seat}
    return Field(fld.track, karts, fld.bumped, fld.stop_cells, fld.bump_reach, (frozenset(karts.items()), fld.bumped))


def reach(game: Races) -> Reach:
    """Where the player to act can still drive this move; when a kart enters the race (R15), the start
    cells it may choose. Empty otherwise (before the roll, or while another question waits)."""
    if game.choice is not None and game.choice.kind == "enter":
        return Reach(frozenset(parse_label(o) for o in game.choice.options))
    if game.phase != PHASE_MOVE or game.choice is not None:
        return Reach()
    kart = game.karts[game.turn.seat]
    if kart.cell is None or not game.track.on_track(kart.cell):
        return Reach()
    fld = game.field()
    points = game.turn.points
    if points <= 0:
        return Reach()
    if game.turn.reversing:
        return _reverse_reach(fld, kart.seat, kart.cell, kart.facing, points)
    if points > CAP:
        found = _forward_reach(fld, kart.seat, kart.cell, kart.facing, points, EXACT_BUDGET)
        return found or _forward_reach(fld, kart.seat, kart.cell, kart.facing, points, None) or Reach()
    return _layered(fld, kart.seat, kart.cell, kart.facing, points)


def _layered(fld: Field, seat: int, cell: Hex, facing: Facing, points: int) -> Reach:
    """The exact search, or past its budget the one that does not follow bumps (as
    :func:`_forward_reach` decides), by layers."""
    look = _Look()
    found = _layered_reach(fld, seat, cell, facing, points, EXACT_BUDGET, _Ways(fld, seat, True, look))
    if found is None:
        found = _layered_reach(fld, seat, cell, facing, points, None, _Ways(fld, seat, False, look))
    assert found is not None
    return found


def _reverse_reach(fld: Field, seat: int, cell: Hex, facing: Facing, points: int) -> Reach:
    ends: set[Hex] = set()
    free = _without(fld, seat)
    layer = {(cell, facing)}
    for _ in range(points):
        nxt: set[tuple[Hex, Facing]] = set()
        for here, face in layer:
            for plans in step_plans(free, here, face, 1, reversing=True).values():
                if isinstance(plans, str):
                    continue
                plan = plans[0]
                ends.add(plan.end)
                if not plan.trap:
                    nxt.add((plan.end, plan.facing))
        layer = nxt
    return Reach(frozenset(ends), frozenset())


Bumps = tuple[tuple[int, Hex], ...]  # (seat, cell it was pushed to) for each kart bumped so far


@dataclass(frozen=True, slots=True)
class _Way:
    """One legal-by-itself step from a state, with what R9 needs to weigh it for any points left."""

    plan: Plan
    reach: int  # plan cost + the look-ahead's longest drive after it (points are capped by the roll)
    stops: bool  # a rule stops the kart here (trap, fall, bump with no way round): it uses every point
    bumps: Bumps  # the bumps so far after this step

    def value(self, left: int) -> int:
        """Points out of ``left`` this step lets the kart use (as :meth:`Lookahead.plan_value`)."""
        if self.stops or self.plan.cost >= left:
            return left
        return min(left, self.reach)


class _Ways:
    """The ways out of a state, worked out once per state and weighed again for each number of points
    left: every step exactly as :func:`legal_plans` allows it, with what R9 needs to weigh it.

    In an ``exact`` search a state's bumps so far change the field its ways are worked out on; otherwise
    a bumped kart is taken to stay where it was (an approximation whose size is bounded by cells x
    facings x points)."""

    def __init__(self, fld: Field, seat: int, exact: bool, look: Lookahead | None = None) -> None:
        self.fld = fld
        self.exact = exact
        self.look = look or _Look()
        self.fields: dict[Bumps, Field] = {(): _without(fld, seat)}
        self._ways: dict[tuple[Hex, Facing, Bumps, bool, int], list[_Way]] = {}
        self.home = {s: c for c, s in self.fields[()].karts.items()}  # where each kart stood before any bump

    def field(self, bumps: Bumps) -> Field:
        """The field after ``bumps`` (each kart moved from where it stood to where it was pushed)."""
        hit = self.fields.get(bumps)
        if hit is None:
            base = self.fields[()]
            karts = dict(base.karts)
            for seat, _ in bumps:
                karts.pop(self.home[seat], None)
            track = base.track
            karts.update((to, seat) for seat, to in bumps if track.on_track(to))
            bumped = base.bumped | {seat for seat, _ in bumps}
            hit = self.fields[bumps] = Field(track, karts, bumped, base.stop_cells, base.bump_reach,
                                             (frozenset(karts.items()), bumped))
        return hit

    def __call__(self, here: Hex, face: Facing, bumps: Bumps, left: int, first: bool) -> list[_Way]:
        fld, fields, look, exact = self.fld, self.fields, self.look, self.exact
        key = (here, face, bumps, first, left if here in fld.track.gap_from else 0)
        hit = self._ways.get(key)
        if hit is not None:
            return hit
        f = fld if first else self.field(bumps)
        out = []
        for plans in step_plans(f, here, face, left).values():
            if isinstance(plans, str):
                continue
            for plan in plans:
                after, nb, stuck = f, bumps, False
                if plan.bump is not None:
                    if exact:
                        nb = tuple(sorted((*bumps, (plan.bump[0], plan.bump[2]))))  # bumped once a turn
                        if nb not in fields:
                            fields[nb] = self.field(bumps).with_bump(*plan.bump)
                        after = fields[nb] if not first else f.with_bump(*plan.bump)
                    bumped = after if exact else f.with_bump(*plan.bump)
                    stuck = not any(not isinstance(p, str) for p in step_plans(bumped, plan.end, plan.facing,
                                                                                 left).values())
                reach_ = CAP if plan.rule_stop or stuck else plan.cost + look.longest(after, plan.end, plan.facing)
                out.append(_Way(plan, reach_, plan.rule_stop or stuck, nb))
        self._ways[key] = out
        return out


class _Look(Lookahead):
    """The look-ahead with a memo per field that is never thrown away during one search: a search among
    many karts meets hundreds of fields (one per set of bumps)."""

    def _memo(self, fld: Field) -> dict[tuple[Hex, Facing], int]:
        key = (fld.track.name, fld.cache_key(), fld.stop_cells, fld.bump_reach)
        memo = self._memos.get(key)
        if memo is None:
            memo = self._memos[key] = {}
        return memo


def _forward_reach(fld: Field, seat: int, cell: Hex, facing: Facing, points: int, budget: int | None
                   ) -> Reach | None:
    """Breadth first, one layer per point spent. A state is (cell, facing, bumps so far); the mover is
    off the field (it never blocks itself) except on the first step, which uses the engine's own field.
    Each step is allowed exactly as :func:`legal_plans` allows it (R9 included): the ways out of a
    state are worked out once and weighed again for each number of points left.

    With a ``budget`` the search gives up (None) after visiting that many states. Without one it does
    not follow bumps: a bumped kart is taken to stay where it was (an approximation whose size is
    bounded by cells x facings x points).

    This is the plain form of the search, one state at a time; :func:`_layered_reach` gives the same
    answers by moving whole layers of states at once."""
    ways = _Ways(fld, seat, budget is not None)
    ends: set[Hex] = set()
    passes: set[Hex] = set()
    layers: dict[int, set[tuple[Hex, Facing, Bumps]]] = {points: {(cell, facing, ())}}
    visited = 0
    for left in range(points, 0, -1):
        layer = layers.pop(left, set())
        visited += len(layer)
        if budget is not None and visited > budget:
            return None
        first = left == points
        for here, face, bumps in layer:
            _spread(ways(here, face, bumps, left, first and not bumps), here, left, ends, passes,
                    lambda rest, end, face_, bumps_: layers.setdefault(rest, set()).add((end, face_, bumps_)))
    return Reach(frozenset(ends), frozenset(passes - ends), budget is not None)


def _spread(options: list[_Way], here: Hex, left: int, ends: set[Hex], passes: set[Hex],
            go: Callable[[int, Hex, Facing, Bumps], None]) -> None:
    """One state's part of a layer: R9 weighs its ways for the points ``left``; the ways kept mark the
    cells they end on or pass, and ``go(points left, cell, facing, bumps)`` takes each state after them."""
    if not options:
        ends.add(here)  # every way on is blocked: the kart stops here
        return
    # a way's value (as Lookahead.plan_value): a rule stop or a last step uses every point
    values = [left if w.stops or w.plan.cost >= left else min(left, w.reach) for w in options]
    best = max(values)
    for way, value in zip(options, values, strict=True):
        if value < best:
            continue  # R9: this way would strand the kart short of its roll
        plan = way.plan
        if plan.over:
            passes.update(plan.over)
        rest = left - plan.cost
        if way.stops or rest <= 0:
            ends.add(plan.end)
            continue
        passes.add(plan.end)
        go(rest, plan.end, plan.facing, way.bumps)


# The layered search ------------------------------------------------------------------------------
#
# A layer of states is a bit set: bit ``facing * plane + cell`` for each (cell, facing), cells laid out
# by their axial coordinates so that a step in one direction is the same shift for every cell. A state
# whose every way is a plain step (no kart to bump, no jump) moves with its whole layer, a mask and a
# shift per (facing, direction), whenever R9 weighs its ways alike: always when it has one way or every
# way stops or leads on for ever, else once more points are left than its longest short drive. Every
# other state goes one at a time through :func:`_spread`, exactly as in :func:`_forward_reach`.


class _Grid:
    """The bit layout of a track's cells and states."""

    def __init__(self, track: Track) -> None:
        cells = [Hex.from_offset(c, r) for c in range(track.columns) for r in range(track.rows)]
        self.r0 = min(h.r for h in cells) - 1
        self.width = track.columns + 2
        self.plane = self.width * (max(h.r for h in cells) - self.r0 + 2)
        self.plane_mask = (1 << self.plane) - 1
        self.cell_at: dict[int, Hex] = {self.bit(h): h for h in cells}
        self.moves = static_moves(track)
        origin = Hex(0, 0)
        self.delta = {f: self.bit(origin.neighbour(f)) - self.bit(origin) for f in Facing}
        self._back: tuple[list[tuple[int, int]], list[tuple[int, int]]] | None = None
        self._cones: dict[Hex, tuple[list[int], bool]] = {}

    def bit(self, cell: Hex) -> int:
        return cell.q + 1 + (cell.r - self.r0) * self.width

    def state(self, cell: Hex, facing: Facing) -> int:
        return int(facing) * self.plane + self.bit(cell)

    def cells(self, states: int) -> int:
        """The cells of a set of states (the facings folded together)."""
        out = 0
        plane, mask = self.plane, self.plane_mask
        while states:
            out |= states & mask
            states >>= plane
        return out

    def _backward(self) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
        """(shift, states with that plain step) per kind of step, and (jump state, the far end's states)."""
        if self._back is None:
            steps = [0] * len(_TURNS)
            jumps = []
            far_facings = sum(1 << (int(f) * self.plane) for f in Facing)
            for (cell, facing), moves in self.moves.items():
                bit = 1 << self.state(cell, facing)
                for _, new_facing, _, end, jump in moves:
                    if jump:
                        jumps.append((bit, far_facings << self.bit(end)))
                    else:
                        steps[3 * int(facing) + (int(new_facing) - int(facing) + 1) % 6] |= bit
            shifts = [(int(d) - int(f)) * self.plane + self.delta[d] for f, d in _TURNS]
            self._back = ([(sh, st) for sh, st in zip(shifts, steps, strict=True) if st], jumps)
        return self._back

    def near(self, cell: Hex, points: int) -> int:
        """The states from which a kart could come within :data:`NEAR` cells of ``cell`` driving at most
        ``points`` forward steps (every plain step and jump of the track counted as one step, whatever
        karts and traps stand about): a superset of the states whose moves can depend on that cell."""
        cones, done = self._cones.get(cell) or ([sum(1 << self.state(c, f) for c in self.cell_at.values()
                                                         if c.distance(cell) <= NEAR for f in Facing)], False)
        if done or len(cones) > points:
            return cones[min(points, len(cones) - 1)]
        steps, jumps = self._backward()
        here = cones[-1]
        while len(cones) <= points:
            grown = here
            for shift, movers in steps:
                grown |= (here >> shift if shift >= 0 else here << -shift) & movers
            for src, far in jumps:
                if here & far:
                    grown |= src
            if grown == here:
                done = True  # no more growth: every later cone is this one
                break
            cones.append(grown)
            here = grown
        self._cones[cell] = (cones, done)
        return here


_GRIDS: dict[str, tuple[Track, _Grid]] = {}


def _grid(track: Track) -> _Grid:
    hit = _GRIDS.get(track.name)
    if hit is None or hit[0] is not track:
        hit = _GRIDS[track.name] = (track, _Grid(track))
    return hit[1]


#: the (facing, direction) pairs of a forward step, and the shift each makes in the state bits
_TURNS = tuple((f, d) for f in Facing for d in (f.left, f, f.right))


class _Table:
    """For one field (one set of bumps): which states move with their layer, by mask, and which go one
    at a time; states are sorted when a layer first brings them."""

    def __init__(self, grid: _Grid, fld: Field, look: Lookahead, ways: _Ways | None = None) -> None:
        self.grid, self.fld, self.look = grid, fld, look
        self.ways = ways if ways is not None and not ways.exact else None  # bumps leave the field as it is
        self.known = 0
        self.single = 0  # states that go one at a time
        self.blocked = 0  # states with no way on: the kart stops there
        self.move = [0] * len(_TURNS)  # states whose step (facing, direction) drives on
        self.stop = [0] * len(_TURNS)  # states whose step (facing, direction) ends on a trap
        self.low: dict[int, int] = {}  # states whose ways R9 weighs apart up to so many points left
        self.shift = [(int(d) - int(f)) * grid.plane + grid.delta[d] for f, d in _TURNS]

    def learn(self, states: int) -> None:
        """Sort the states not seen yet."""
        grid, fld, look = self.grid, self.fld, self.look
        self.known |= states
        karts, stops = fld.karts, fld.stop_cells
        while states:
            low = states & -states
            states ^= low
            i = low.bit_length() - 1
            facing = Facing(i // grid.plane)
            cell = grid.cell_at[i % grid.plane]
            moves = grid.moves.get((cell, facing), ())
            if not moves:
                self.blocked |= low
                continue
            if any(jump or target in karts for target, _, _, _, jump in moves):
                if self.ways is None or any(jump for *_, jump in moves) or cell in fld.track.gap_from:
                    self.single |= low
                else:
                    self._fold(low, cell, facing, self.ways(cell, facing, (), 0, False))
                continue
            # one way is always the best way (R9): no need to ask the look-ahead how far it leads
            reaches = [CAP if target in stops or len(moves) == 1 else look.longest(fld, target, new_facing) + 1
                       for target, new_facing, _, _, _ in moves]
            short = [r for r in reaches if r < CAP]
            if short and len(moves) > 1:
                # R9 weighs these ways differently up to the longest short drive: one at a time up to
                # there, and past it the ways that use the most points, with the layer
                top = max(short)
                self.low[top] = self.low.get(top, 0) | low
                keep = top if len(short) == len(reaches) else CAP
            else:
                keep = 0
            for (target, new_facing, _, _, _), r in zip(moves, reaches, strict=True):
                if r < keep:
                    continue
                k = 3 * int(facing) + (int(new_facing) - int(facing) + 1) % 6
                if target in stops:
                    self.stop[k] |= low
                else:
                    self.move[k] |= low

    def _fold(self, low: int, cell: Hex, facing: Facing, options: list[_Way]) -> None:
        """A state beside a kart, when a bump leaves the field as it is (the search that does not follow
        bumps): every way is one step, so R9 weighs them alike once more points are left than the
        longest of their short drives, and past that they move with the layer like plain steps."""
        if not options:
            self.blocked |= low
            return
        short = [w.reach for w in options if not w.stops and w.reach < CAP]
        if short:
            top = max(short)
            self.low[top] = self.low.get(top, 0) | low
            kept = [w for w in options if w.stops or w.reach >= CAP]
            if not kept:
                kept = [w for w in options if w.reach == top]
        else:
            kept = options
        for way in kept:
            k = 3 * int(facing) + (int(way.plan.facing) - int(facing) + 1) % 6
            if way.stops:
                self.stop[k] |= low
            else:
                self.move[k] |= low

    def short_of(self, left: int) -> int:
        """The states R9 weighs way by way with ``left`` points (see :meth:`learn`)."""
        out = 0
        for top, bits in self.low.items():
            if top >= left:
                out |= bits
        return out


def _layered_reach(fld: Field, seat: int, cell: Hex, facing: Facing, points: int, budget: int | None,
                   ways: _Ways | None = None) -> Reach | None:
    """:func:`_forward_reach` with whole layers moved at once, and each state keeping only the bumps
    that can still matter to it (see :func:`_merge`): the same answers from fewer states, so the budget
    counts states that differ in what lies ahead of the kart.

    ``ways`` works out the ways out of each state (built for the kind of search when not given).

    With a budget the search gives up when the states visited and, for each layer still to come, as
    many as the layer in hand overflow it: the kart fans out as it drives on, so the layers seldom
    shrink and a search that would overflow is dropped early, before it has spent its time (a forecast,
    not a bound: on the positions of the benchmark and of the tests it never dropped one that fits)."""
    grid = _grid(fld.track)
    ways = ways or _Ways(fld, seat, budget is not None)
    tables: dict[Bumps, _Table] = {}
    ends: set[Hex] = set()
    passes: set[Hex] = set()
    end_bits = pass_bits = 0
    layers: dict[int, dict[Bumps, int]] = {}

    def go(rest: int, end: Hex, face: Facing, bumps: Bumps) -> None:
        group = layers.setdefault(rest, {})
        group[bumps] = group.get(bumps, 0) | 1 << grid.state(end, face)

    go(points, cell, facing, ())
    visited = 0
    for left in range(points, 0, -1):
        groups = layers.pop(left, None)
        if not groups:
            continue
        if ways.exact and (len(groups) > 1 or () not in groups):
            groups = _merge(grid, ways, groups, left)
        count = sum(layer.bit_count() for layer in groups.values())
        visited += count
        if budget is not None and visited + count * (left - 1) > budget:
            return None
        if left == points:  # the first step, on the engine's own field
            _spread(ways(cell, facing, (), left, True), cell, left, ends, passes, go)
            continue
        for bumps, layer in groups.items():
            table = tables.get(bumps)
            if table is None:
                table = tables[bumps] = _Table(grid, ways.field(bumps), ways.look, ways)
            new = layer & ~table.known
            if new:
                table.learn(new)
            short = table.short_of(left) if table.low else 0
            single = layer & (table.single | short)
            layer &= ~short
            moved = 0
            for k, shift in enumerate(table.shift):
                stopped = layer & table.stop[k]
                if stopped:
                    end_bits |= grid.cells(stopped << shift if shift >= 0 else stopped >> -shift)
                going = layer & table.move[k]
                if going:
                    moved |= going << shift if shift >= 0 else going >> -shift
            blocked = layer & table.blocked
            if blocked:
                end_bits |= grid.cells(blocked)
            if moved:
                if left <= 1:
                    end_bits |= grid.cells(moved)
                else:
                    pass_bits |= grid.cells(moved)
                    group = layers.setdefault(left - 1, {})
                    group[bumps] = group.get(bumps, 0) | moved
            while single:
                low = single & -single
                single ^= low
                i = low.bit_length() - 1
                here = grid.cell_at[i % grid.plane]
                _spread(ways(here, Facing(i // grid.plane), bumps, left, False), here, left, ends, passes, go)
    ends |= _cells_of(grid, end_bits)
    passes |= _cells_of(grid, pass_bits)
    return Reach(frozenset(ends), frozenset(passes - ends), budget is not None)


def _merge(grid: _Grid, ways: _Ways, groups: dict[Bumps, int], left: int) -> dict[Bumps, int]:
    """Each state with only the bumps that can still matter to it: a bump matters while the kart can
    come near the cell the bumped kart left or the cell it was pushed to with the points ``left`` (see
    :meth:`_Grid.near`); the others are forgotten, as if that kart had stayed where it stood. Nothing
    within the kart's reach tells the two fields apart, so the state's ways, the look-ahead's answers
    up to the points left, and every cell it can still reach are the same: states that differ only in
    such bumps are one state."""
    out: dict[Bumps, int] = {}
    home = ways.home
    for bumps, layer in groups.items():
        parts: list[tuple[Bumps, int]] = [((), layer)]
        for bump in bumps:
            seat, to = bump
            near = grid.near(home[seat], left) | grid.near(to, left)
            split: list[tuple[Bumps, int]] = []
            for kept, bits in parts:
                inside = bits & near
                if inside:
                    split.append(((*kept, bump), inside))
                if bits ^ inside:
                    split.append((kept, bits ^ inside))
            parts = split
        for kept, bits in parts:
            out[kept] = out.get(kept, 0) | bits
    return out


def _cells_of(grid: _Grid, bits: int) -> set[Hex]:
    out = set()
    while bits:
        low = bits & -bits
        bits ^= low
        out.add(grid.cell_at[low.bit_length() - 1])
    return out


def reachable_cells(game: Races) -> set[str]:
    """Labels of every cell the current move can end on or drive through."""
    r = reach(game)
    return {c.label for c in r.cells}
