"""Kart movement: what one step does, and the look-ahead behind the whole-roll rule (R9).

A :class:`Field` is a snapshot of what matters to movement (where karts stand, who was bumped this
turn, which cells hold a trap that may stop a kart). :func:`step_plans` says, for each of the three
cells a kart could step to, what that step would do or why it cannot be made. :func:`usable` looks
ahead: how many of its movement points a kart can still use, where a stop that a rule causes (a trap,
a bump with no way round, a fall into the stream) counts as using them all.

The arsenal plugs in through the Field: ``stop_cells`` (traps that may stop a kart) and
``bump_reach`` (how far the mover pushes a kart: a Battering Ram offers two cells).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from rules.hexgrid import Facing, Hex
from rules.races.texts import said
from rules.races.track import Gap, Track

Key = tuple[object, ...]  # a hashable summary of a field, for caches
Move = tuple[Hex, Facing, int, Hex, bool]  # (cell stepped into, facing after, cost, where it ends, is a jump)
Moves = dict[tuple[Hex, Facing], tuple[Move, ...]]


@dataclass(frozen=True, slots=True)
class Field:
    """What movement depends on. ``stop_cells`` are the traps that would stop the mover now (R9).

    Oil stops a kart only while the cell its arrow points at holds no other kart, so Oil is kept apart
    in ``oils`` as (trap cell, arrow cell) and folded into ``stop_cells`` again whenever a bump moves a
    kart (see :meth:`make`); ``fixed_stops`` are the traps that stop the mover wherever karts stand.
    """

    track: Track
    karts: dict[Hex, int]  # track cell -> seat of the kart on it (karts in the stream are not here)
    bumped: frozenset[int] = frozenset()
    stop_cells: frozenset[Hex] = frozenset()
    bump_reach: tuple[int, ...] = (1,)
    key: Key = field(default=(), compare=False)
    fixed_stops: frozenset[Hex] | None = None  # None: ``stop_cells`` never change
    oils: tuple[tuple[Hex, Hex], ...] = ()
    mover: int | None = None
    bombs: frozenset[Hex] = frozenset()  # face-up Time Bombs: a kart bumped or thrown onto one sets it off

    @classmethod
    def make(cls, track: Track, karts: dict[Hex, int], bumped: frozenset[int], fixed_stops: frozenset[Hex],
             oils: tuple[tuple[Hex, Hex], ...], bump_reach: tuple[int, ...], mover: int | None,
             key: Key = (), bombs: frozenset[Hex] = frozenset()) -> Field:
        """A field whose Oil stops follow the karts: an Oil with a kart (not the mover) on its arrow cell
        does not fire, so it stops nobody."""
        def taken(cell: Hex) -> bool:
            return karts.get(cell, mover) != mover

        live = frozenset(cell for cell, arrow in oils if oil_skid(arrow, taken) is not None)
        return cls(track, karts, bumped, fixed_stops | live, bump_reach, key, fixed_stops, oils, mover, bombs)

    def with_bump(self, seat: int, frm: Hex, to: Hex) -> Field:
        """The field once the kart ``seat`` on ``frm`` is pushed to ``to`` and the mover has taken its
        place, with what the engine then does for certain where it lands (:func:`pushed_path`)."""
        return self.after_bump(seat, frm, to)[0]

    def after_bump(self, seat: int, frm: Hex, to: Hex) -> tuple[Field, bool]:
        """:meth:`with_bump`, and whether the mover (on ``frm``) is in the blast of a Time Bomb the
        pushed kart sets off, which spins it round (rulebook: Time Bomb)."""
        karts = dict(self.karts)
        if karts.get(frm) == seat:
            del karts[frm]
        path, oils, bomb = pushed_path(self, karts, to, frm)
        if self.track.on_track(path[-1]):
            karts[path[-1]] = seat
        key = (frozenset(karts.items()), self.bumped | {seat})
        gone = frozenset() if bomb is None else frozenset((bomb,))  # the bomb goes back to the pile
        spun = bomb is not None and in_blast(bomb, frm)
        if self.fixed_stops is None:
            return Field(self.track, karts, self.bumped | {seat}, self.stop_cells - gone, self.bump_reach, key,
                         bombs=self.bombs - gone), spun
        return Field.make(self.track, karts, self.bumped | {seat}, self.fixed_stops - gone, oils, self.bump_reach,
                          self.mover, key, self.bombs - gone), spun

    def cache_key(self) -> Key:
        return self.key or (frozenset(self.karts.items()), self.bumped)


@dataclass(frozen=True, slots=True)
class Plan:
    """What one step (or one jump over a collapsed bridge) does."""

    target: Hex  # the neighbouring cell stepped into
    facing: Facing  # the mover's facing afterwards
    cost: int  # movement points used
    end: Hex  # where the mover ends up (a jump: the far end, or the gap cell it fell into)
    over: tuple[Hex, ...] = ()  # gap cells flown over before ``end``
    bump: tuple[int, Hex, Hex] | None = None  # (seat, from, to) of a kart pushed out of the way
    falls: bool = False  # the mover ends in the stream
    trap: bool = False  # the mover enters a cell whose trap may stop it
    spun: bool = False  # the bumped kart sets off a Time Bomb whose blast spins the mover round

    @property
    def rule_stop(self) -> bool:
        return self.falls or self.trap

    @property
    def heading(self) -> Facing:
        """The mover's facing once the step is over, the way it drives on."""
        return self.facing.opposite if self.spun else self.facing


def oil_skid(arrow: Hex, taken: Callable[[Hex], bool]) -> Hex | None:
    """Oil (rulebook: Junk Tile List): the cell a kart on it skids to, the one its arrow points at; None
    while a kart stands there, when the Oil does nothing (NOTATION: cases the engine decides)."""
    return None if taken(arrow) else arrow


def in_blast(bomb: Hex, cell: Hex) -> bool:
    """Time Bomb (rulebook: Exploding Traps): a blast hits a kart on the bomb's cell or next to it."""
    return cell.distance(bomb) <= 1


def pushed_path(fld: Field, karts: dict[Hex, int], at: Hex, mover_at: Hex
                ) -> tuple[tuple[Hex, ...], tuple[tuple[Hex, Hex], ...], Hex | None]:
    """Where a kart pushed onto ``at`` goes as the engine resolves it, the Oils left on the field and the
    Time Bomb it sets off (None when none).

    Each Oil it lands on throws it on (:func:`oil_skid`, with the mover standing on ``mover_at``, the
    cell the pushed kart left) and goes back to the pile; thrown onto another Oil it skids again
    (NOTATION). The path is ``at`` and each cell it is thrown to; it stays on the last, and a Time Bomb
    there goes off. ``karts`` is the field without the pushed kart (a stale entry of the mover counts as
    the cell it has left). What the engine leaves to a die (a Time Bomb next to the kart, the blast's
    damage) is taken not to happen (NOTATION)."""
    if not fld.oils:
        return (at,), fld.oils, at if at in fld.bombs else None
    oils = dict(fld.oils)
    path = [at]

    def taken(cell: Hex) -> bool:
        return cell == mover_at or karts.get(cell, fld.mover) != fld.mover

    while fld.track.on_track(path[-1]) and path[-1] in oils:
        to = oil_skid(oils[path[-1]], taken)
        if to is None:
            break
        del oils[path[-1]]
        path.append(to)
    bomb = path[-1] if path[-1] in fld.bombs else None
    if len(path) == 1:
        return (at,), fld.oils, bomb
    return tuple(path), tuple(oil for oil in fld.oils if oil[0] in oils), bomb


def forward_cells(cell: Hex, facing: Facing) -> list[tuple[Hex, Facing]]:
    """R5: ahead-left, ahead, ahead-right, with the facing after each step."""
    return [(cell.neighbour(f), f) for f in (facing.left, facing, facing.right)]


def reverse_cells(cell: Hex, facing: Facing) -> list[tuple[Hex, Facing]]:
    """R5: behind-left, behind, behind-right; the kart keeps its front toward the cell it left."""
    back = facing.opposite
    return [(cell.neighbour(d), d.opposite) for d in (back.right, back, back.left)]


def _push(fld: Field, victim: int, at: Hex, direction: Facing, reach: int) -> Hex | str:
    """Where a kart on ``at`` ends when pushed ``reach`` cells, or why it cannot be pushed."""
    track = fld.track
    if victim in fld.bumped:
        return said("why.bumped_once")
    cur = at
    for _ in range(reach):
        nxt = cur.neighbour(direction)
        if track.wall_between(cur, nxt):
            return said("why.wall_behind")
        if not track.may_bump(cur, nxt):
            return said("why.bridge_push")
        if nxt in fld.karts:
            return said("why.kart_behind")
        cur = nxt
        if track.is_stream(cur):
            break
    return cur


def step_plans(
    fld: Field, cell: Hex, facing: Facing, points: int, reversing: bool = False
) -> dict[Hex, list[Plan] | str]:
    """For each cell one step away (forward, or backward when reversing): its plans or why not.

    A step has several plans only when the player chooses how far to push a kart (Battering Ram).
    """
    track = fld.track
    out: dict[Hex, list[Plan] | str] = {}
    cells = reverse_cells(cell, facing) if reversing else forward_cells(cell, facing)
    for target, new_facing in cells:
        if not target.on_board(track.columns, track.rows):
            continue  # past the board's edge there is no cell at all
        direction = cell.facing_to(target)
        assert direction is not None
        gap = track.gap_from.get(cell)
        if gap is not None and target == gap.cells[0]:
            # Forwards this is a jump; backwards it is the way a kart turned round on the bridge end
            # must leave it (with the arrows, R6), flying the gap tail first.
            out[target] = _jump_plans(fld, gap, points, new_facing)
            continue
        if target not in track.terrain:
            out[target] = said("why.off_track")
            continue
        if track.is_stream(target):
            out[target] = said("why.stream")
            continue
        if track.wall_between(cell, target):
            out[target] = said("why.wall")
            continue
        if not track.may_step(cell, target):
            if track.is_bridge(target):
                out[target] = said("why.bridge_enter")
            else:
                out[target] = said("why.bridge_leave")
            continue
        trap = target in fld.stop_cells
        victim = fld.karts.get(target)
        if victim is None:
            out[target] = [Plan(target, new_facing, 1, target, trap=trap)]
            continue
        if reversing:
            out[target] = said("why.no_bump_reversing")
            continue
        plans: list[Plan] = []
        reason: str = ""
        for reach in fld.bump_reach:
            dest = _push(fld, victim, target, direction, reach)
            if isinstance(dest, str):
                reason = reason or dest
                continue
            after, spun = fld.after_bump(victim, target, dest) if fld.oils or fld.bombs else (fld, False)
            plans.append(Plan(target, new_facing, 1, target, bump=(victim, target, dest),
                              trap=target in after.stop_cells, spun=spun))
        out[target] = plans if plans else said("why.no_bump", reason=reason)
    return out


def _jump_plans(fld: Field, gap: Gap, points: int, facing: Facing) -> list[Plan] | str:
    """R7: a kart entering the gap flies straight on; short of the far end it falls in."""
    need = len(gap.cells) + 1
    first = gap.cells[0]
    if points < need:
        fell_in = gap.cells[points - 1]
        return [Plan(first, facing, points, fell_in, over=gap.cells[:points], falls=True)]
    victim = fld.karts.get(gap.far)
    trap = gap.far in fld.stop_cells
    if victim is None:
        return [Plan(first, facing, need, gap.far, over=gap.cells, trap=trap)]
    dest = _push(fld, victim, gap.far, gap.facing, fld.bump_reach[0])
    if isinstance(dest, str):
        # Nowhere to land: the kart on the far end stays put and the jumper drops into the water.
        return [Plan(first, facing, len(gap.cells), gap.cells[-1], over=gap.cells, falls=True)]
    after, spun = fld.after_bump(victim, gap.far, dest) if fld.oils or fld.bombs else (fld, False)
    return [Plan(first, facing, need, gap.far, over=gap.cells, bump=(victim, gap.far, dest),
                 trap=gap.far in after.stop_cells, spun=spun)]


CAP = 128  # more movement points than any roll can give (15 dice of 6)


_STATIC: dict[int, tuple[Track, Moves]] = {}


def static_moves(track: Track) -> Moves:
    """Per track: the forward moves from every (cell, facing) on an empty board.

    Each move is (cell stepped into, facing after, points it costs, where it ends, is a jump).
    """
    cached = _STATIC.get(id(track))
    if cached is not None and cached[0] is track:
        return cached[1]
    out: Moves = {}
    for cell in track.track_cells:
        gap = track.gap_from.get(cell)
        for facing in Facing:
            moves = []
            for target, new_facing in forward_cells(cell, facing):
                if gap is not None and target == gap.cells[0]:
                    moves.append((target, gap.facing, len(gap.cells) + 1, gap.far, True))
                elif track.may_step(cell, target):
                    moves.append((target, new_facing, 1, target, False))
            out[(cell, facing)] = tuple(moves)
    _STATIC[id(track)] = (track, out)
    return out


class Lookahead:
    """How far a kart can still drive from a cell and facing on a given field (R9).

    ``longest`` is the longest walk of forward steps, capped at :data:`CAP`, where reaching a trap,
    a kart that can be bumped or a collapsed-bridge gap counts as going all the way: each is a stop
    the rules allow. The answers depend only on the field, so they are kept per field and shared by
    every check of a move; the first step's own bump is weighed exactly by :meth:`plan_value`.
    """

    def __init__(self) -> None:
        self._memos: dict[Key, dict[tuple[Hex, Facing], int]] = {}

    def clear(self) -> None:
        self._memos.clear()

    def _memo(self, fld: Field) -> dict[tuple[Hex, Facing], int]:
        key = (fld.track.name, fld.cache_key(), fld.stop_cells, fld.bump_reach)
        memo = self._memos.get(key)
        if memo is None:
            if len(self._memos) > 64:
                self._memos.clear()
            memo = self._memos[key] = {}
        return memo

    def longest(self, fld: Field, cell: Hex, facing: Facing) -> int:
        memo = self._memo(fld)
        value, _ = self._walk(fld, static_moves(fld.track), memo, set(), (cell, facing), 0)
        return value

    def _walk(self, fld: Field, moves: Moves, memo: dict[tuple[Hex, Facing], int], on_path: set[tuple[Hex, Facing]],
              state: tuple[Hex, Facing], depth: int) -> tuple[int, bool]:
        """(longest walk from ``state`` capped at CAP, whether that value is exact)."""
        hit = memo.get(state)
        if hit is not None:
            return hit, True
        if state in on_path:
            return CAP, True  # a loop: the kart can drive on for ever
        if depth >= CAP:
            return CAP - depth, False
        on_path.add(state)
        best, exact = 0, True
        for target, new_facing, cost, end, jump in moves.get(state, ()):
            if jump or target in fld.stop_cells:
                best = CAP
                break
            victim = fld.karts.get(target)
            if victim is not None:
                if not isinstance(_push(fld, victim, target, new_facing, fld.bump_reach[0]), str):
                    best = CAP
                    break
                continue
            sub, sub_exact = self._walk(fld, moves, memo, on_path, (end, new_facing), depth + cost)
            value = min(CAP, cost + sub)
            if value > best:
                best, exact = value, sub_exact
            elif value == best:
                exact = exact and sub_exact
            if best >= CAP:
                break
        on_path.discard(state)
        if best >= CAP:
            best, exact = CAP, True
        if exact:
            memo[state] = best
        return best, exact

    def plan_value(self, fld: Field, plan: Plan, m: int) -> int:
        """Points a plan lets the kart use out of ``m``; a stop a rule causes uses them all."""
        if plan.rule_stop or plan.cost >= m:
            return m
        after = fld
        if plan.bump is not None:
            seat, frm, to = plan.bump
            after = fld.with_bump(seat, frm, to)
            if not has_step(after, plan.end, plan.heading, m - plan.cost):
                return m  # a bump with no way round stops the kart in the bumped kart's place
        return min(m, plan.cost + self.longest(after, plan.end, plan.heading))


LOOKAHEAD = Lookahead()


def has_step(fld: Field, cell: Hex, facing: Facing, points: int, reversing: bool = False) -> bool:
    return any(not isinstance(p, str) for p in step_plans(fld, cell, facing, points, reversing).values())


def legal_plans(
    fld: Field, cell: Hex, facing: Facing, points: int, look: Lookahead | None = None
) -> tuple[dict[Hex, list[Plan]], dict[Hex, str]]:
    """Forward steps allowed by every rule including R9, and the reason for each refused cell."""
    look = look or LOOKAHEAD
    allowed: dict[Hex, list[Plan]] = {}
    refused: dict[Hex, str] = {}
    options = step_plans(fld, cell, facing, points)
    values: dict[Hex, list[tuple[Plan, int]]] = {}
    best = 0
    for target, plans in options.items():
        if isinstance(plans, str):
            refused[target] = plans
            continue
        values[target] = [(p, look.plan_value(fld, p, points)) for p in plans]
        best = max(best, max(v for _, v in values[target]))
    for target, scored in values.items():
        ok = [p for p, v in scored if v >= best]
        if ok:
            allowed[target] = ok
        else:
            used = max(v for _, v in scored)
            refused[target] = said("why.whole_roll", used=used, count=points, best=best)
    return allowed, refused


_FULL_CACHE: dict[Key, dict[Hex, tuple[Hex, ...]]] = {}

#: per track: every (cell, facing) numbered, and from each the plain steps (no jump) as (state, cell entered)
_PLAIN: dict[int, tuple[Track, dict[tuple[Hex, Facing], int], list[tuple[Hex, Facing]],
                        list[tuple[tuple[int, Hex], ...]]]] = {}


def _plain_steps(track: Track) -> tuple[dict[tuple[Hex, Facing], int], list[tuple[Hex, Facing]],
                                        list[tuple[tuple[int, Hex], ...]]]:
    cached = _PLAIN.get(id(track))
    if cached is not None and cached[0] is track:
        return cached[1], cached[2], cached[3]
    moves = static_moves(track)
    states = list(moves)
    index = {state: i for i, state in enumerate(states)}
    succ: list[tuple[tuple[int, Hex], ...]] = []
    for state in states:
        out = []
        for target, new_facing, _cost, end, jump in moves[state]:
            after = (end, new_facing)
            if jump:
                continue
            if after not in index:
                index[after] = len(states)
                states.append(after)
            out.append((index[after], target))
        succ.append(tuple(out))
    succ += [()] * (len(states) - len(succ))
    _PLAIN[id(track)] = (track, index, states, succ)
    return index, states, succ


def full_moves(
    fld: Field, cell: Hex, facing: Facing, points: int, avoid: frozenset[Hex] = frozenset()
) -> dict[Hex, tuple[Hex, ...]]:
    """Every cell that plain steps can end on using exactly ``points``, with one path to each.

    Plain steps bump nobody, enter no trap and jump no gap, so the field stays as it is and every such
    path obeys the whole-roll rule (R9) at each step. Cells in ``avoid`` may end a path but not be
    passed through (a pick-up there would stop to ask which saddlebag takes the tile). The search
    keeps, for each state, the first way that found it (states taken in the order they were found,
    steps ahead-left, ahead, ahead-right), and each cell's path ends on its lowest facing.
    """
    key = (fld.track.name, fld.cache_key(), fld.stop_cells, cell, facing, points, avoid)
    hit = _FULL_CACHE.get(key)
    if hit is not None:
        return hit
    index, states, succ = _plain_steps(fld.track)
    start = index.get((cell, facing))
    if start is None:
        index = dict(index)
        start = index[(cell, facing)] = len(states)
        states = [*states, (cell, facing)]
        succ = [*succ, ()]
    blocked = set(fld.karts) | fld.stop_cells
    blocked_avoid = blocked | avoid
    layers: list[dict[int, int]] = []
    frontier: list[int] = [start]
    for step in range(points):
        bad = blocked if step == points - 1 else blocked_avoid
        nxt: dict[int, int] = {}
        for state in frontier:
            for after, target in succ[state]:
                if after not in nxt and target not in bad:
                    nxt[after] = state
        if not nxt:
            frontier = []
            break
        layers.append(nxt)
        frontier = list(nxt)
    out: dict[Hex, tuple[Hex, ...]] = {}
    for final in sorted(frontier, key=states.__getitem__):
        end_cell = states[final][0]
        if end_cell in out:
            continue
        path = []
        here = final
        for layer in reversed(layers):
            path.append(states[here][0])
            here = layer[here]
        out[end_cell] = tuple(reversed(path))
    if len(_FULL_CACHE) > 256:
        _FULL_CACHE.clear()
    _FULL_CACHE[key] = out
    return out
