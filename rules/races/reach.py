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
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rules.hexgrid import Facing, Hex, parse_label
from rules.races import queries
from rules.races.movement import (
    CAP,
    Field,
    Lookahead,
    Plan,
    _push,
    has_step,
    pushed_path,
    static_moves,
    step_plans,
)
from rules.races.state import PHASE_MOVE
from rules.races.track import Track

if TYPE_CHECKING:
    from rules.races.engine import Races

#: how many free steps from a trap, a jump or a kart to bump the look-ahead is sure to go all the way
#: without walking (see :meth:`_Table.near_stops`)
SURE_LEVELS = 6

#: how many points a state may have left to be dropped as settled (see :meth:`_Grid.settled`): a walk
#: longer than that seldom stays on cells known as ends
SETTLED_STEPS = 12

#: states each part of the exact search may visit (states that differ only in bumps the kart can no
#: longer come near count once, states whose every walk stays on known ends are not followed; a roll
#: of 18 among eight karts visits about 5,000); past that the search starts again without following
#: each bump. 10,000 keeps the slowest search of the chat benchmark near 16 ms (the answer must come
#: within 20 ms) and answers as many of its crowded positions exactly as 15,000 did before the search
#: was split in parts (305 of 456)
EXACT_BUDGET = 10_000


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
    return Field(fld.track, karts, fld.bumped, fld.stop_cells, fld.bump_reach, (frozenset(karts.items()), fld.bumped),
                 fld.fixed_stops, fld.oils, fld.mover, fld.bombs)


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
    fld = queries.field(game)
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
    :func:`_forward_reach` decides), by layers.

    The exact search first drives every way that bumps nobody, then every way that bumps at most one
    kart (when no way bumps more, either is the whole search): the cells they end on are ends of the
    move, and the next part need not follow a state whose every walk stays on such cells (see
    :func:`_layered_reach`); the last part follows every bump. Each part has the budget (the second
    half of it: it only helps the last)."""
    look = _Look()
    ways = _Ways(fld, seat, True, look)
    tables: dict[Bumps, _Table] = {}
    tally = _Tally()
    found = _layered_reach(fld, seat, cell, facing, points, EXACT_BUDGET, ways, tables=tables, unbumped=tally)
    grid = _grid(fld.track)
    known = 0
    if found is not None and tally.bumped:
        for end in found.ends:
            known |= 1 << grid.bit(end)
        once = _Tally(1)
        more = _layered_reach(fld, seat, cell, facing, points, EXACT_BUDGET // 2, ways, known, tables, unbumped=once)
        if more is not None and not once.bumped:
            return more
        if more is not None:
            for end in more.ends:
                known |= 1 << grid.bit(end)
        known |= once.ends
        found = _layered_reach(fld, seat, cell, facing, points, EXACT_BUDGET, ways, known, tables,
                               expect=(once if more is not None else tally).layers)
    if found is None:
        found = _layered_reach(fld, seat, cell, facing, points, None, _Ways(fld, seat, False, look))
    assert found is not None
    return found


@dataclass
class _Tally:
    """What a search that leaves out the ways bumping more than ``most`` karts met."""

    most: int = 0
    bumped: bool = False  # some way bumped one more kart (and was left out)
    ends: int = 0  # when it gave up: the cells (a bit each) it had found ends of the move
    layers: dict[int, int] = field(default_factory=dict)  # how many states it visited with so many points left


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
        #: the look-ahead on the field after some bumps, when a search keeps its own (else ``look``)
        self.longest: Callable[[Bumps, Hex, Facing], int] | None = None
        self.home = {s: c for c, s in self.fields[()].karts.items()}  # where each kart stood before any bump
        self._touched: dict[tuple[int, Hex], tuple[Hex, ...]] = {}

    def touched(self, seat: int, to: Hex) -> tuple[Hex, ...]:
        """The cells a bump may change: where the kart stood, where it was pushed and each cell an Oil
        could throw it on to from there (with nobody in the way: the longest the path can be)."""
        hit = self._touched.get((seat, to))
        if hit is None:
            home = self.home[seat]
            path, _, _ = pushed_path(self.fields[()], {}, to, home)
            hit = self._touched[(seat, to)] = (home, *path)
        return hit

    def changed(self, bumps: Bumps) -> list[Hex]:
        """The cells where the field after ``bumps`` may differ from the one before any bump: the cells
        each bump touches, and an Oil whose arrow points at one of them."""
        cells = [cell for seat, to in bumps for cell in self.touched(seat, to)]
        base = self.fields[()]
        cells += [oil for oil, arrow in base.oils if arrow in cells]
        return cells

    def field(self, bumps: Bumps) -> Field:
        """The field after ``bumps``: each kart pushed from where it stood, in turn, as the engine
        resolves a bump (:meth:`Field.with_bump`)."""
        hit = self.fields.get(bumps)
        if hit is None:
            hit = self.fields[()]
            for seat, to in bumps:
                hit = hit.with_bump(seat, self.home[seat], to)
            self.fields[bumps] = hit
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
                after, nb = f, bumps
                if plan.bump is not None and exact:
                    nb = tuple(sorted((*bumps, (plan.bump[0], plan.bump[2]))))  # bumped once a turn
                    if nb not in fields:
                        fields[nb] = self.field(bumps).with_bump(*plan.bump)
                    after = fields[nb] if not first else f.with_bump(*plan.bump)
                if plan.rule_stop:
                    out.append(_Way(plan, CAP, True, nb))
                    continue
                if not first and self.longest is not None:
                    far = self.longest(nb, plan.end, plan.heading)
                else:
                    far = look.longest(after, plan.end, plan.heading)
                # a bump with no way round stops the kart; on the bumped field a look-ahead that drives
                # on has found a way
                stuck = False
                if plan.bump is not None and (far == 0 or not exact):
                    bumped = after if exact else f.with_bump(*plan.bump)
                    stuck = not has_step(bumped, plan.end, plan.heading, left)
                out.append(_Way(plan, CAP if stuck else plan.cost + far, stuck, nb))
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
        go(rest, plan.end, plan.heading, way.bumps)


# The layered search ------------------------------------------------------------------------------
#
# A layer of states is a bit set: bit ``facing * plane + cell`` for each (cell, facing), cells laid out
# by their axial coordinates so that a step in one direction is the same shift for every cell. A state
# whose every way is a plain step (no kart it can bump, no jump; a kart it cannot bump is no way at all)
# moves with its whole layer, a mask and a shift per (facing, direction), whenever R9 weighs its ways
# alike: always when it has one way or every way stops or leads on for ever, else once more points are
# left than its longest short drive; below that :meth:`_Table.weigh` weighs it from the reaches it
# keeps. A state with a kart to bump or a jump goes one at a time through :func:`_spread`, exactly as
# in :func:`_forward_reach`. R9's look-ahead is :meth:`Lookahead.longest` walked on state bits, per field
# (:meth:`_Table.far`).
#
# The exact search has three parts (see :func:`_layered`): the ways that bump nobody, those that bump
# at most one kart, and all. Each part's ends are ends of the move, so the next part drops a state whose
# every walk with the points it has left stays on such cells (:meth:`_Grid.settled`): it could add
# nothing. A budget bounds each part; past it the search does not follow bumps.


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
        #: the shift a step of each kind makes in the state bits
        self.shift = [(int(d) - int(f)) * self.plane + self.delta[d] for f, d in _TURNS]
        #: per state bit: its steps on an empty track, as (step kind, cell entered, facing after, is a jump,
        #: the shift to the state after it when it is not a jump)
        self.out: dict[int, tuple[tuple[int, Hex, Facing, bool, int], ...]] = {}
        for (cell, facing), static in self.moves.items():
            kinds = [3 * int(facing) + (int(after) - int(facing) + 1) % 6 for _, after, _, _, _ in static]
            self.out[self.state(cell, facing)] = tuple(
                (k, target, after, jump, self.shift[k])
                for k, (target, after, _, _, jump) in zip(kinds, static, strict=True))
        self.jump_states = {i for i, steps in self.out.items() if any(step[3] for step in steps)}
        #: the states with a step of each kind on the empty track (jumps aside), with a jump, on the track
        self.steps = [0] * len(_TURNS)
        self.jumps = self.track_states = 0
        for i, steps in self.out.items():
            self.track_states |= 1 << i
            for k, _, _, jump, _ in steps:
                if jump:
                    self.jumps |= 1 << i
                else:
                    self.steps[k] |= 1 << i
        self.state_bytes = (len(Facing) * self.plane + 7) // 8  # bytes that hold a bit for every state
        self._back: tuple[list[tuple[int, int]], list[tuple[int, int]]] | None = None
        self._cones: dict[tuple[Hex, int], tuple[list[int], bool]] = {}

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

    def settled(self, known: int, steps: int) -> list[int]:
        """``[n]`` for ``n`` up to ``steps``: the states from which every walk of at most ``n`` forward
        steps (jumps aside: a state with one is never settled) stays on cells in ``known`` (a bit per
        cell), this state's included. The list ends early when the states run out."""
        plane = self.plane
        spread = known
        for f in range(1, len(Facing)):
            spread |= known << (f * plane)
        start = here = spread & self.track_states & ~self.jumps
        out = [here]
        while here and len(out) <= steps:
            leave = 0
            for k, sh in enumerate(self.shift):
                leave |= self.steps[k] & ~(here >> sh if sh >= 0 else here << -sh)
            here = start & ~leave
            out.append(here)
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

    def entering(self, cells: int, k: int) -> int:
        """The states whose step of kind ``k`` (no jump) enters one of ``cells`` (a bit per cell)."""
        f, d = _TURNS[k]
        back = self.delta[d]
        return ((cells >> back if back >= 0 else cells << -back) << (int(f) * self.plane)) & self.steps[k]

    def _around(self, cell: Hex, radius: int) -> int:
        """The states (every facing) of the board's cells within ``radius`` of ``cell``."""
        cells = 0
        for dq in range(-radius, radius + 1):
            for dr in range(max(-radius, -dq - radius), min(radius, radius - dq) + 1):
                near = Hex(cell.q + dq, cell.r + dr)
                bit = self.bit(near)
                if self.cell_at.get(bit) == near:
                    cells |= 1 << bit
        return sum(cells << (int(f) * self.plane) for f in Facing)

    def cones(self, cell: Hex, points: int, radius: int) -> list[int]:
        """``[n]`` is :meth:`near` with ``n`` points, for ``n`` up to ``points`` (shorter when the
        last one holds for more points)."""
        self.near(cell, points, radius)
        cones, _ = self._cones[(cell, radius)]
        return cones

    def near(self, cell: Hex, points: int, radius: int) -> int:
        """The states from which a kart could come within ``radius`` cells of ``cell`` driving at most
        ``points`` forward steps (every plain step and jump of the track counted as one step, whatever
        karts and traps stand about)."""
        key = (cell, radius)
        cones, done = self._cones.get(key) or ([self._around(cell, radius)], False)
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
        self._cones[key] = (cones, done)
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
    at a time; states are sorted when a layer first brings them.

    A kart it cannot bump (already bumped, or nothing behind it to go to) is no way at all, as in
    :func:`step_plans`: a state beside one moves by mask with its other ways. A state whose ways R9
    weighs apart (some lead to an early stop) keeps them, each with its reach, and is weighed for the
    points left by :meth:`weigh`, without building its plans. The reaches come from R9's look-ahead
    walked on state bits (:meth:`far`), which skips the states it is sure of (:meth:`near_stops`; a
    bumped field takes the base field's where the bumps cannot be seen, :meth:`near_base`)."""

    def __init__(self, grid: _Grid, fld: Field, ways: _Ways | None = None) -> None:
        self.grid, self.fld = grid, fld
        self.ways = ways if ways is not None and not ways.exact else None  # bumps leave the field as it is
        self.known = 0
        self.single = 0  # states that go one at a time: a jump, or a kart to bump
        self.blocked = 0  # states with no way on: the kart stops there
        self.move = [0] * len(_TURNS)  # states whose step (facing, direction) drives on
        self.stop = [0] * len(_TURNS)  # states whose step (facing, direction) ends on a trap
        self.low: dict[int, int] = {}  # states whose ways R9 weighs apart up to so many points left
        self.weighed: dict[int, list[tuple[int, int, bool]]] = {}  # such a state: (step kind, reach, stops)
        self.steps: list[tuple[int, int, int]] = []  # (shift, move, stop) for each step kind in use
        self._pushable: dict[tuple[Hex, Facing, bool], bool] = {}
        self._memo: dict[int, int] = {}  # the look-ahead's answers on this field, by state bit
        self.sure = 0  # states from which the look-ahead surely goes all the way (see :meth:`near_stops`)
        self._sure_bytes = bytes(grid.state_bytes)  # the same, a byte for eight states (quicker to ask one by one)
        self.sooner: list[int] = []
        self._from_base: tuple[_Table, list[Hex], int] | None = None

    def near_stops(self, levels: int) -> None:
        """Work out ``sooner[n]``: the states from which at most ``n`` free steps lead to a step the
        look-ahead counts as going all the way (a trap, a jump, a kart it can bump), on this field."""
        grid, fld = self.grid, self.fld
        shift = grid.shift
        karts = stops = 0
        for cell in fld.karts:
            karts |= 1 << grid.bit(cell)
        for cell in fld.stop_cells:
            stops |= 1 << grid.bit(cell)
        bumpable = [0] * len(Facing)
        for cell in fld.karts:
            for d in Facing:
                if self._bumps(cell, d, True):
                    bumpable[d] |= 1 << grid.bit(cell)
        ends = grid.jumps
        free = []
        for k, (_, d) in enumerate(_TURNS):
            ends |= grid.entering(stops | bumpable[d], k)
            free.append(grid.steps[k] & ~grid.entering(karts | stops, k))
        # a kart that can drive six turns one way round, all free, is back where it began: it can
        # drive on for ever
        for turn in (0, 2):  # left, right
            ring = grid.track_states
            for _ in range(len(Facing)):
                ring = _back_along(ring, [(shift[k], free[k]) for k in range(turn, len(_TURNS), 3)])
            ends |= ring
        self.sooner = [ends]
        for _ in range(levels):
            here = ends
            for k, sh in enumerate(shift):
                if free[k]:
                    here |= free[k] & (ends >> sh if sh >= 0 else ends << -sh)
            if here == ends:
                break
            self.sooner.append(here)
            ends = here
        self.sure = ends
        self._sure_bytes = ends.to_bytes(grid.state_bytes, "little")

    def near_base(self, base: _Table, changed: list[Hex], radius: int) -> None:
        """What the base field's :meth:`near_stops` says for this field: a state whose way to such a
        step stays clear of the cells where this field differs from the base one (the ``changed``
        cells, as far as a step looks: ``radius``) has the same way here. Worked out when first
        asked (see :meth:`far`)."""
        self._from_base = (base, changed, radius)

    def _sure(self) -> bytes:
        if self._from_base is not None:
            base, changed, radius = self._from_base
            self._from_base = None
            grid = self.grid
            cones = [grid.cones(cell, len(base.sooner), radius) for cell in changed]
            sure = 0
            for n, sooner in enumerate(base.sooner):
                near = 0
                for cone in cones:
                    near |= cone[min(n, len(cone) - 1)]
                sure |= sooner & ~near
            self.sure = sure
            self._sure_bytes = sure.to_bytes(grid.state_bytes, "little")
        return self._sure_bytes

    def learn(self, states: int) -> None:
        """Sort the states not seen yet."""
        self.known |= states
        while states:
            low = states & -states
            states ^= low
            self._sort(low.bit_length() - 1, low)
        self.steps = [(shift, move, stop) for shift, move, stop in zip(self.grid.shift, self.move, self.stop,
                                                                        strict=True) if move or stop]

    def _sort(self, i: int, low: int) -> None:
        """Sort state ``i`` (its bit ``low``): one at a time (a jump, a kart to bump), blocked, or its steps
        kept as the ways that drive on or stop on a trap."""
        grid, karts = self.grid, self.fld.karts
        if i in grid.jump_states:
            self.single |= low
            return
        moves = grid.out.get(i, ())
        if any(m[1] in karts for m in moves):  # a kart ahead
            if any(self._bumps(target, facing) for _, target, facing, _, _ in moves if target in karts):
                self._bump_ahead(i, low)
                return
            moves = tuple(m for m in moves if m[1] not in karts)  # no way past a kart it cannot bump
        if not moves:
            self.blocked |= low
            return
        if len(moves) == 1:
            # one way is always the best way (R9): no need to ask the look-ahead how far it leads
            self._keep(moves[0][0], moves[0][1], low)
            return
        self._weigh_ways(i, low, moves)

    def _keep(self, kind: int, target: Hex, low: int) -> None:
        """State bit ``low`` takes its step of ``kind`` onto ``target``: it stops there on a trap, or drives on."""
        if target in self.fld.stop_cells:
            self.stop[kind] |= low
        else:
            self.move[kind] |= low

    def _bump_ahead(self, i: int, low: int) -> None:
        """State ``i`` can bump a kart: one at a time, unless the bumps leave the field as it is and the
        ways from there can be folded in."""
        grid = self.grid
        cell = grid.cell_at[i % grid.plane]
        if self.ways is None or cell in self.fld.track.gap_from:
            self.single |= low
            return
        facing = Facing(i // grid.plane)
        options = self.ways(cell, facing, (), 0, False)
        if any(w.plan.spun for w in options):
            self.single |= low  # a blast spins the kart round: no plain step's shift
        else:
            self._fold(i, cell, facing, options)

    def _weigh_ways(self, i: int, low: int, moves: tuple[tuple[int, Hex, Facing, bool, int], ...]) -> None:
        """State ``i`` has several ways on: how far each leads decides which R9 allows."""
        stops, memo = self.fld.stop_cells, self._memo
        reaches = []
        for _, target, _, _, sh in moves:
            if target in stops:
                reaches.append(CAP)
                continue
            far = memo.get(i + sh)
            if far is None:
                far = self.far(i + sh)
            reaches.append(far + 1 if far < CAP else CAP)
        short = [r for r in reaches if r < CAP]
        if short:
            # R9 weighs these ways differently up to the longest short drive: way by way up to
            # there, and past it the ways that use the most points, with the layer
            top = max(short)
            self.low[top] = self.low.get(top, 0) | low
            self.weighed[i] = [(m[0], r, m[1] in stops) for m, r in zip(moves, reaches, strict=True)]
            keep = top if len(short) == len(reaches) else CAP
        else:
            keep = 0
        for m, r in zip(moves, reaches, strict=True):
            if r >= keep:
                self._keep(m[0], m[1], low)

    def far(self, i: int) -> int:
        """How far a kart can still drive from state ``i``: :meth:`Lookahead.longest` on state bits."""
        hit = self._memo.get(i)
        if hit is None:
            if self._sure()[i >> 3] >> (i & 7) & 1:
                return CAP
            hit, _ = self._walk(i, set(), 0)
        return hit

    def _walk(self, i: int, on_path: set[int], depth: int) -> tuple[int, bool]:
        """(longest walk from state ``i`` capped at CAP, whether that value is exact), step for step as
        :meth:`Lookahead._walk`: a trap, a jump or a kart that can be bumped lets the kart go all the way."""
        memo = self._memo
        hit = memo.get(i)
        if hit is not None:
            return hit, True
        if self._sure_bytes[i >> 3] >> (i & 7) & 1:
            return CAP, True
        if i in on_path:
            return CAP, True  # a loop: the kart can drive on for ever
        if depth >= CAP:
            return CAP - depth, False
        on_path.add(i)
        best, exact = 0, True
        stops, karts = self.fld.stop_cells, self.fld.karts
        for _, target, facing, jump, shift in self.grid.out.get(i, ()):
            if jump or target in stops:
                best = CAP
                break
            if target in karts:
                if self._bumps(target, facing, True):
                    best = CAP
                    break
                continue
            sub, sub_exact = self._walk(i + shift, on_path, depth + 1)
            value = sub + 1 if sub < CAP else CAP
            if value > best:
                best, exact = value, sub_exact
            elif value == best:
                exact = exact and sub_exact
            if best >= CAP:
                break
        on_path.discard(i)
        if best >= CAP:
            best, exact = CAP, True
        if exact:
            memo[i] = best
        return best, exact

    def _bumps(self, target: Hex, direction: Facing, first: bool = False) -> bool:
        """Whether the kart on ``target`` can be bumped on in ``direction`` (as :func:`step_plans` asks)."""
        key = (target, direction, first)
        hit = self._pushable.get(key)
        if hit is None:
            fld = self.fld
            reaches = fld.bump_reach[:1] if first else fld.bump_reach  # the look-ahead tries the first
            hit = self._pushable[key] = any(not isinstance(_push(fld, fld.karts[target], target, direction, r), str)
                                            for r in reaches)
        return hit

    def _fold(self, i: int, cell: Hex, facing: Facing, options: list[_Way]) -> None:
        """A state beside a kart, when a bump leaves the field as it is (the search that does not follow
        bumps): every way is one step, so R9 weighs them alike once more points are left than the
        longest of their short drives, and past that they move with the layer like plain steps."""
        low = 1 << i
        kinds = [3 * int(facing) + (int(w.plan.facing) - int(facing) + 1) % 6 for w in options]
        if not options:
            self.blocked |= low
            return
        short = [w.reach for w in options if not w.stops and w.reach < CAP]
        if short:
            top = max(short)
            self.low[top] = self.low.get(top, 0) | low
            self.weighed[i] = [(k, w.reach, w.stops) for k, w in zip(kinds, options, strict=True)]
            kept = [w for w in options if w.stops or w.reach >= CAP]
            if not kept:
                kept = [w for w in options if w.reach == top]
        else:
            kept = options
        for k, way in zip(kinds, options, strict=True):
            if way not in kept:
                continue
            if way.stops:
                self.stop[k] |= low
            else:
                self.move[k] |= low

    def weigh(self, states: int, left: int) -> tuple[int, int]:
        """R9 for states whose ways lead to early stops (see :meth:`learn`), as :func:`_spread` weighs
        them: (the states where a kept way stops, the states its other kept ways drive on to)."""
        ends = moved = 0
        shift = self.grid.shift
        while states:
            low = states & -states
            states ^= low
            i = low.bit_length() - 1
            ways = self.weighed[i]
            values = [left if stops or left <= 1 else min(left, r) for _, r, stops in ways]
            best = max(values)
            for (k, _, stops), value in zip(ways, values, strict=True):
                if value == best:
                    if stops or left <= 1:
                        ends |= 1 << (i + shift[k])
                    else:
                        moved |= 1 << (i + shift[k])
        return ends, moved

    def short_of(self, left: int) -> int:
        """The states R9 weighs way by way with ``left`` points (see :meth:`learn`)."""
        out = 0
        for top, bits in self.low.items():
            if top >= left:
                out |= bits
        return out


def _layered_reach(fld: Field, seat: int, cell: Hex, facing: Facing, points: int, budget: int | None,
                   ways: _Ways | None = None, known: int = 0, tables: dict[Bumps, _Table] | None = None,
                   unbumped: _Tally | None = None, expect: dict[int, int] | None = None) -> Reach | None:
    """:func:`_forward_reach` with whole layers moved at once, and each state keeping only the bumps
    that can still matter to it (see :func:`_merge`): the same answers from fewer states, so the budget
    counts states that differ in what lies ahead of the kart.

    ``ways`` works out the ways out of each state (built for the kind of search when not given);
    ``tables`` keeps the sorted states of each field (shared by searches with the same ``ways``).

    A state is dropped when every cell any walk of the points left could touch from it is already an
    end: cells found so far and ``known``, a bit per cell of cells known to be ends of this move (see
    :meth:`_Grid.settled`). It cannot change the answer, and it is not counted. With ``unbumped`` the
    search follows only the ways that bump nobody (its ends are some of the move's ends, found
    cheaply) and notes whether it left any out.

    With a budget the search gives up (None) when it forecasts an overflow (see
    :meth:`_LayeredSearch.overflows`)."""
    search = _LayeredSearch(fld, seat, budget, ways, known, tables, unbumped, expect)
    return search.run(cell, facing, points)


class _LayeredSearch:
    """The state of one :func:`_layered_reach`: the layers still to move (per points left, the states
    of each set of bumps as bits), the ends and passes found so far, and how many states it visited."""

    __slots__ = ("budget", "end_states", "ends", "expect", "grid", "known", "layers", "pass_states", "passes",
                 "settled_by", "settled_for", "tables", "unbumped", "visited", "ways")

    def __init__(self, fld: Field, seat: int, budget: int | None, ways: _Ways | None, known: int,
                 tables: dict[Bumps, _Table] | None, unbumped: _Tally | None, expect: dict[int, int] | None
                 ) -> None:
        self.grid = _grid(fld.track)
        self.ways = ways or _Ways(fld, seat, budget is not None)
        self.tables: dict[Bumps, _Table] = {} if tables is None else tables
        self.budget = budget
        self.known = known
        self.unbumped = unbumped
        self.expect = expect
        self.ends: set[Hex] = set()
        self.passes: set[Hex] = set()
        self.end_states = self.pass_states = 0  # as state bits, folded into cells at the end
        self.layers: dict[int, dict[Bumps, int]] = {}
        self.visited = 0
        self.settled_for, self.settled_by = -1, [0]
        # the ways' look-ahead asks the table of the field it looks on (in the search that does not
        # follow bumps, the field as it is)
        self.ways.longest = self.longest

    def table_of(self, bumps: Bumps) -> _Table:
        """The table of the field after ``bumps``, built the first time it is asked for."""
        table = self.tables.get(bumps)
        if table is None:
            ways = self.ways
            table = self.tables[bumps] = _Table(self.grid, ways.field(bumps), ways)
            if bumps:
                table.near_base(self.table_of(()), ways.changed(bumps), near_radius(ways.fld))
            else:
                table.near_stops(SURE_LEVELS)
        return table

    def longest(self, bumps: Bumps, end: Hex, face: Facing) -> int:
        """R9's look-ahead from (``end``, ``face``) on the field after ``bumps``."""
        return self.table_of(bumps).far(self.grid.state(end, face))

    def go(self, rest: int, end: Hex, face: Facing, bumps: Bumps) -> None:
        """Take the state (``end``, ``face``, ``bumps``) into the layer with ``rest`` points left (a
        search that bumps nobody leaves out, and notes, a way that bumps one kart more)."""
        unbumped = self.unbumped
        if unbumped is not None and len(bumps) > unbumped.most:
            unbumped.bumped = True
            return
        group = self.layers.setdefault(rest, {})
        group[bumps] = group.get(bumps, 0) | 1 << self.grid.state(end, face)

    def run(self, cell: Hex, facing: Facing, points: int) -> Reach | None:
        """Move the layers from ``points`` left down to 1; None when the search gives up."""
        grid, ways = self.grid, self.ways
        self.go(points, cell, facing, ())
        for left in range(points, 0, -1):
            groups = self.layers.pop(left, None)
            if not groups:
                continue
            if ways.exact and (len(groups) > 1 or () not in groups):
                groups = _merge(grid, ways, groups, left)
            if self.known and left <= SETTLED_STEPS:
                groups = self.unsettled(groups, left)
            count = sum(layer.bit_count() for layer in groups.values())
            self.visited += count
            if self.overflows(count, left):
                self.give_up()
                return None
            if left == points:  # the first step, on the engine's own field
                _spread(ways(cell, facing, (), left, True), cell, left, self.ends, self.passes, self.go)
                continue
            for bumps, layer in groups.items():
                self.expand(bumps, layer, left)
        return self.answer()

    def known_ends(self) -> int:
        """``known`` with the ends found so far (a bit per cell)."""
        grid = self.grid
        known = self.known | grid.cells(self.end_states)
        for end in self.ends:
            known |= 1 << grid.bit(end)
        return known

    def unsettled(self, groups: dict[Bumps, int], left: int) -> dict[Bumps, int]:
        """``groups`` without the states whose every walk of the ``left`` points stays on known ends
        (:meth:`_Grid.settled`)."""
        known = self.known = self.known_ends()
        if known != self.settled_for:
            self.settled_for, self.settled_by = known, self.grid.settled(known, SETTLED_STEPS)
        settled = self.settled_by[left] if left < len(self.settled_by) else 0
        if settled:
            groups = {bumps: layer & ~settled for bumps, layer in groups.items() if layer & ~settled}
        return groups

    def overflows(self, count: int, left: int) -> bool:
        """Whether to give up with a layer of ``count`` states and ``left`` points: when the states
        visited and, for each layer still to come, as many as this one overflow the budget (the kart fans
        out as it drives on, so the layers seldom shrink and a search that would overflow is dropped
        early, before it has spent its time). A search that bumps nobody gives up past three fifths of
        the budget once it has left out a bump, as the whole search would then overflow; given
        ``expect``, the layer sizes of the search that bumped nobody, a search also gives up when the
        layers to come, as many times those as this one is, would overflow it (forecasts, not bounds: on
        the positions of the benchmark and of the tests they never dropped one that fits). A search that
        bumps nobody notes the layer's size."""
        budget, unbumped, expect, visited = self.budget, self.unbumped, self.expect, self.visited
        if budget is not None and visited + count * (left - 1) > budget:
            return True
        if (unbumped is not None and unbumped.most == 0 and unbumped.bumped and budget is not None
                and visited + count * (left - 1) > budget * 3 // 5):
            return True  # the ways that bump nobody are most of the budget: following the bumps too overflows
        if unbumped is not None:
            unbumped.layers[left] = count
            return False
        # the layers still to come as many times the first part's as this one is
        return bool(budget is not None and expect and expect.get(left)
                    and visited + count * sum(expect.get(n, 0) for n in range(1, left)) / expect[left] > budget)

    def give_up(self) -> None:
        """No answer; a search that left out some bumps keeps the ends it found (ends of the move)."""
        if self.unbumped is not None:
            self.unbumped.ends = self.known_ends()

    def expand(self, bumps: Bumps, layer: int, left: int) -> None:
        """Move the states ``layer`` of the field after ``bumps`` one step on with ``left`` points: plain
        steps with the whole layer, the states beside a kart or a jump one at a time."""
        grid = self.grid
        table = self.tables.get(bumps) or self.table_of(bumps)
        new = layer & ~table.known
        if new:
            table.learn(new)
        single = layer & table.single
        end_states = moved = 0
        if table.low:
            short = table.short_of(left) & layer
            if short:
                layer ^= short
                stopped, moved = table.weigh(short, left)
                end_states |= stopped
        for shift, move, stop in table.steps:
            stopped = layer & stop
            if stopped:
                end_states |= stopped << shift if shift >= 0 else stopped >> -shift
            going = layer & move
            if going:
                moved |= going << shift if shift >= 0 else going >> -shift
        end_states |= layer & table.blocked
        if moved:
            if left <= 1:
                end_states |= moved
            else:
                self.pass_states |= moved
                group = self.layers.setdefault(left - 1, {})
                group[bumps] = group.get(bumps, 0) | moved
        self.end_states |= end_states
        ways, ends, passes, go = self.ways, self.ends, self.passes, self.go
        while single:
            low = single & -single
            single ^= low
            i = low.bit_length() - 1
            here = grid.cell_at[i % grid.plane]
            _spread(ways(here, Facing(i // grid.plane), bumps, left, False), here, left, ends, passes, go)

    def answer(self) -> Reach:
        """The cells of the end and pass states found, with ``known`` among the ends."""
        grid = self.grid
        ends = self.ends | _cells_of(grid, grid.cells(self.end_states) | self.known)
        passes = self.passes | _cells_of(grid, grid.cells(self.pass_states))
        return Reach(frozenset(ends), frozenset(passes - ends), self.budget is not None)


def _merge(grid: _Grid, ways: _Ways, groups: dict[Bumps, int], left: int) -> dict[Bumps, int]:
    """Each state with only the bumps that can still matter to it; the others are forgotten, as if that
    kart had stayed where it stood, so states that differ only in such bumps are one state.

    A bump changes the field in the cells it touches (:meth:`_Ways.touched`): the one the bumped kart
    left, the one it was pushed to and any an Oil there throws it on to (and whether that kart may still
    be bumped, which is only asked on the cell it stands on). With
    ``left`` points the kart is in states at most ``left - 1`` steps ahead when it looks at cells, and
    from each it looks at most ``1 + push`` cells away (see :func:`near_radius`); its look-ahead's walks
    within the points left stay among the same states. A bump matters while the kart can come that
    near one of those cells (:meth:`_Grid.near`); if it cannot, nothing it can still ask tells the two
    fields apart: its ways, the look-ahead's answers up to the points left, and every cell it can
    still reach are the same."""
    out: dict[Bumps, int] = {}
    track = ways.fld.track
    radius = near_radius(ways.fld)
    for bumps, layer in groups.items():
        parts: list[tuple[Bumps, int]] = [((), layer)]
        for bump in bumps:
            near = 0
            for cell in ways.touched(*bump):
                if track.on_track(cell):  # a kart pushed or thrown into the stream has left the field
                    near |= grid.near(cell, left - 1, radius)
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


def near_radius(fld: Field) -> int:
    """How far from the cell a kart stands on its step can look: the cell it enters (1), a kart pushed
    on from there (1 + the longest push), an Oil's arrow cell next to the cell entered (2); the kart's
    look-ahead and its check for a way round a bump look the same way from the states they pass."""
    return max(2, 1 + max(fld.bump_reach))


def _back_along(states: int, steps: list[tuple[int, int]]) -> int:
    """The states with a step (shift, states that may take it) into ``states``."""
    out = 0
    for sh, movers in steps:
        if movers:
            out |= movers & (states >> sh if sh >= 0 else states << -sh)
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
