"""Lap progress (R4): the lap state a kart carries, how a move changes it, and how far round the race it is.

A kart's lap state is two facts from its card: *armed* (the first forward crossing of the Checkered
Line after the start only arms the count) and *bridged* (a bridge crossed since the line). Crossing
the line forwards, armed and bridged, scores a flag; crossing it either way clears *bridged*; crossing
it backwards never scores. :func:`lap_step` is that rule for one cell-to-cell move, driven or bumped;
the engine counts flags with it and everything that looks ahead (the racing driver, the standings)
weighs moves with it.

For looking ahead the two facts fold into one number, the *mode* (:data:`UNARMED`, :data:`ARMED`,
:data:`BRIDGED`), and :class:`LapDistances` knows, for every cell, facing and mode, how many forward
steps are left to the next crossing that scores.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from rules.hexgrid import Facing, Hex
from rules.races.movement import static_moves
from rules.races.paths import shortest_paths

if TYPE_CHECKING:
    from rules.races.state import Kart
    from rules.races.track import Track

UNARMED, ARMED, BRIDGED = 0, 1, 2  # not yet armed, armed, armed with a bridge crossed since the line
MODES = (UNARMED, ARMED, BRIDGED)

#: a kart in the stream counts as standing on its Landing Point this many steps further back
FALL_STEPS = 2.0

LapState = tuple[Hex, Facing, int]  # cell, facing, mode
#: a forward move on an empty board (see :func:`rules.races.movement.static_moves`) with the mode and
#: whether it scores after it, for each mode before it: (target, facing, cost, end, jump, modes)
Transition = tuple[Hex, Facing, int, Hex, bool, tuple[tuple[int, bool], ...]]


def lap_step(track: Track, frm: Hex, to: Hex, armed: bool, bridged: bool) -> tuple[bool, bool, bool]:
    """R4 for one move from ``frm`` to the neighbouring ``to``: (armed, bridged, scores a flag) after it.

    Leaving a bridge for a track cell counts as crossing it. Crossing the line forwards arms the count
    or, when armed with a bridge crossed, scores; crossing it either way starts the next lap's bridge
    count afresh.
    """
    if track.is_bridge(frm) and track.on_track(to) and not track.is_bridge(to):
        bridged = True
    crossing = track.line_edges.get((frm, to))
    if crossing is None:
        return armed, bridged, False
    if crossing < 0:
        return armed, False, False
    return True, False, armed and bridged


def lap_mode(armed: bool, bridged: bool) -> int:
    """The mode of a lap state: bridges crossed before the count is armed do not matter."""
    if not armed:
        return UNARMED
    return BRIDGED if bridged else ARMED


def mode_of(kart: Kart) -> int:
    """A kart's lap mode (R4)."""
    return lap_mode(kart.armed, kart.bridge_since_line)


def mode_step(track: Track, frm: Hex, to: Hex, mode: int) -> tuple[int, bool]:
    """:func:`lap_step` on a mode: the mode after moving from ``frm`` to ``to`` and whether it scores."""
    armed, bridged, scored = lap_step(track, frm, to, mode != UNARMED, mode == BRIDGED)
    return lap_mode(armed, bridged), scored


@dataclass
class LapDistances:
    """Forward steps left to the next scoring crossing of the line, per cell, facing and mode."""

    track: Track
    dist: dict[LapState, float]
    lap: float  # the shortest lap: one flag is worth this many steps
    big: float  # the distance given to a state from which no scoring crossing can be driven
    moves: dict[tuple[Hex, Facing], tuple[tuple[Hex, Facing, int, Hex, bool], ...]] = field(default_factory=dict)
    transitions: dict[tuple[Hex, Facing], tuple[Transition, ...]] = field(default_factory=dict)
    preds: dict[LapState, list[LapState]] = field(default_factory=dict, repr=False)
    sources: list[LapState] = field(default_factory=list, repr=False)
    with_traps_cache: dict[tuple[frozenset[Hex], float], LapDistances] = field(default_factory=dict, repr=False)
    moves_cache: dict[tuple[Hex, Hex, int], tuple[Facing | None, int, bool]] = field(default_factory=dict,
                                                                                   repr=False)

    def with_traps(self, traps: frozenset[Hex], extra: float) -> LapDistances:
        """The same data with distances that count entering a trap cell as ``extra`` more steps."""
        if not traps:
            return self
        key = (traps, extra)
        hit = self.with_traps_cache.get(key)
        if hit is None:
            if len(self.with_traps_cache) > 32:
                self.with_traps_cache.clear()
            hit = replace(self, dist=_distances(self.preds, self.sources, traps, extra), with_traps_cache={})
            self.with_traps_cache[key] = hit
        return hit

    def step_mode(self, a: Hex, b: Hex, mode: int) -> tuple[int, bool]:
        """The mode after driving (or being pushed) from ``a`` to ``b``, and whether it scores (R4)."""
        return mode_step(self.track, a, b, mode)

    def moved(self, a: Hex, b: Hex, mode: int) -> tuple[Facing | None, int, bool]:
        """:meth:`step_mode` with the facing of the step (None: ``b`` is not next to ``a``), remembered per
        track: ranking a turn's paths walks the same few hundred steps again and again."""
        key = (a, b, mode)
        hit = self.moves_cache.get(key)
        if hit is None:
            hit = self.moves_cache[key] = (a.facing_to(b), *mode_step(self.track, a, b, mode))
        return hit

    def remaining(self, cell: Hex, facing: Facing, mode: int) -> float:
        """Steps left to the next flag (a kart in the stream is carried to its Landing Point, R8)."""
        if self.track.is_stream(cell):
            landing = self.track.landing_for(cell)
            return self.dist.get((landing.cell, landing.facing, mode), self.big) + FALL_STEPS
        return self.dist.get((cell, facing, mode), self.big)

    def best_facing(self, cell: Hex, mode: int) -> Facing:
        """The facing on ``cell`` with the fewest steps to the next flag."""
        return min(Facing, key=lambda f: (self.remaining(cell, f, mode), f.value))


def _distances(preds: dict[LapState, list[LapState]], sources: list[LapState], traps: frozenset[Hex],
               extra: float) -> dict[LapState, float]:
    """Search back from the states one step before a scoring crossing; a trap cell entered costs ``extra``."""

    def back(state: LapState) -> Iterator[tuple[LapState, float]]:
        cost = 1.0 + extra if state[0] in traps else 1.0
        for p in preds.get(state, ()):
            yield p, cost

    return shortest_paths(dict.fromkeys(sources, 1.0), back)[0]


_CACHE: dict[str, tuple[Track, LapDistances]] = {}


def lap_distances(track: Track) -> LapDistances:
    """The lap distances of a track over walls and one-way bridges (R2, R6), computed once per track."""
    hit = _CACHE.get(track.name)
    if hit is not None and hit[0] is track:
        return hit[1]
    preds: dict[LapState, list[LapState]] = {}
    sources: list[LapState] = []
    for cell in track.track_cells:
        for facing in Facing:
            for mode in MODES:
                state = (cell, facing, mode)
                for nxt, nf in track.forward_successors(cell, facing):
                    nmode, scored = mode_step(track, cell, nxt, mode)
                    if scored:
                        sources.append(state)
                    else:
                        preds.setdefault((nxt, nf, nmode), []).append(state)
    dist = _distances(preds, sources, frozenset(), 0.0)
    laps = []
    for behind, ahead in track.line:
        f = behind.facing_to(ahead)
        if f is not None and (ahead, f, ARMED) in dist:
            laps.append(1 + dist[(ahead, f, ARMED)])
    lap = min(laps) if laps else 30
    moves = static_moves(track)
    transitions = {
        key: tuple((target, nf, cost, end, jump, tuple(mode_step(track, key[0], target, m) for m in MODES))
                   for target, nf, cost, end, jump in options)
        for key, options in moves.items()
    }
    info = LapDistances(track, dist, lap, 3 * lap, moves, transitions, preds, sources)
    _CACHE[track.name] = (track, info)
    return info


def progress(info: LapDistances, kart: Kart) -> float:
    """How far round the race a kart is, in steps (larger is further on); off the board: two laps back."""
    if kart.cell is None:
        return -2.0 * info.lap
    return kart.flags * info.lap - info.remaining(kart.cell, kart.facing, mode_of(kart))
