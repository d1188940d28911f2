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

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rules.hexgrid import Facing, Hex, parse_label
from rules.races.movement import CAP, Field, Lookahead, Plan, step_plans
from rules.races.state import PHASE_MOVE

if TYPE_CHECKING:
    from rules.races.engine import Races

#: states the exact search may visit (a roll of 18 among eight karts visits about 10,000 in a quarter
#: of a second); past that the search starts again without following each bump
EXACT_BUDGET = 15_000


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
    found = _forward_reach(fld, kart.seat, kart.cell, kart.facing, points, EXACT_BUDGET)
    if found is None:
        found = _forward_reach(fld, kart.seat, kart.cell, kart.facing, points, None)
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


def _forward_reach(fld: Field, seat: int, cell: Hex, facing: Facing, points: int, budget: int | None
                   ) -> Reach | None:
    """Breadth first, one layer per point spent. A state is (cell, facing, bumps so far); the mover is
    off the field (it never blocks itself) except on the first step, which uses the engine's own field.
    Each step is allowed exactly as :func:`legal_plans` allows it (R9 included): the ways out of a
    state are worked out once and weighed again for each number of points left.

    With a ``budget`` the search gives up (None) after visiting that many states. Without one it does
    not follow bumps: a bumped kart is taken to stay where it was (an approximation whose size is
    bounded by cells x facings x points)."""
    look = Lookahead()
    track = fld.track
    ends: set[Hex] = set()
    passes: set[Hex] = set()
    fields: dict[Bumps, Field] = {(): _without(fld, seat)}
    ways_of: dict[tuple[Hex, Facing, Bumps, bool, int], list[_Way]] = {}
    layers: dict[int, set[tuple[Hex, Facing, Bumps]]] = {points: {(cell, facing, ())}}
    visited = 0
    exact = budget is not None

    def ways(here: Hex, face: Facing, bumps: Bumps, left: int, first: bool) -> list[_Way]:
        key = (here, face, bumps, first, left if here in track.gap_from else 0)
        hit = ways_of.get(key)
        if hit is not None:
            return hit
        f = fld if first else fields[bumps]
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
                            fields[nb] = fields[bumps].with_bump(*plan.bump)
                        after = fields[nb] if not first else f.with_bump(*plan.bump)
                    bumped = after if exact else f.with_bump(*plan.bump)
                    stuck = not any(not isinstance(p, str) for p in step_plans(bumped, plan.end, plan.facing,
                                                                                 left).values())
                reach_ = CAP if plan.rule_stop or stuck else plan.cost + look.longest(after, plan.end, plan.facing)
                out.append(_Way(plan, reach_, plan.rule_stop or stuck, nb))
        ways_of[key] = out
        return out

    for left in range(points, 0, -1):
        layer = layers.pop(left, set())
        visited += len(layer)
        if budget is not None and visited > budget:
            return None
        first = left == points
        for here, face, bumps in layer:
            options = ways(here, face, bumps, left, first and not bumps)
            if not options:
                ends.add(here)  # every way on is blocked: the kart stops here
                continue
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
                nxt = layers.get(rest)
                if nxt is None:
                    nxt = layers[rest] = set()
                nxt.add((plan.end, plan.facing, way.bumps))
    return Reach(frozenset(ends), frozenset(passes - ends), exact)


def reachable_cells(game: Races) -> set[str]:
    """Labels of every cell the current move can end on or drive through."""
    r = reach(game)
    return {c.label for c in r.cells}
