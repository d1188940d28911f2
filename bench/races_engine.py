"""Junkyard Races engine speed: one apply, and the slowest legal-step check over every movement total
from 1 to 90 (``legal_step_worst_points`` names the total of the slowest).

Each check is a fresh position whose move memories (the look-ahead's and the whole moves') are cleared
before it is timed, as a new position meets them in the product; it is timed three times and its best
time kept, so a busy machine's pauses do not pass for the check's own cost. Every total from 1 to 90 is
checked on cells all over each track (``legal_step_totals`` counts the totals seen)."""

from __future__ import annotations

import random
import statistics
import time

from bench.registry import benchmark
from rules.hexgrid import Facing
from rules.races import Races
from rules.races.movement import _FULL_CACHE, LOOKAHEAD
from rules.races.track import builtin_tracks


def _apply_times(track: str, seed: int, actions: int) -> list[float]:
    g = Races.create({"seats": [{"name": n} for n in "ABCD"], "options": {"track": track}}, seed)
    rng = random.Random(seed)
    out = []
    for _ in range(actions):
        if g.is_over:
            break
        action = str(rng.choice(g.legal_actions()))
        start = time.perf_counter()
        g.apply(action)
        out.append(time.perf_counter() - start)
    return out


def _legal_step_times(track_name: str, others: int, seed: int, passes: int = 2, repeat: int = 3
                      ) -> list[tuple[float, int]]:
    """Time legal_actions() for a kart on every cell and facing, other karts about; the points to move
    go round every total from 1 to 90, so each total is timed on cells all over the track. Returns
    (seconds, points) pairs."""
    track = builtin_tracks()[track_name]
    rng = random.Random(seed)
    cells = sorted(track.track_cells)
    times = []
    spots = [(cell, facing) for _ in range(passes) for cell in cells for facing in Facing]
    for i, (cell, facing) in enumerate(spots):
        points = 1 + (i * 37) % 90
        crowd = rng.sample([c for c in cells if c != cell], others)
        karts = [{"colour": "red", "cell": cell.label, "facing": facing.name}]
        karts += [{"cell": c.label, "facing": rng.choice(list(Facing)).name} for c in crowd]
        g = Races.from_position({"track": track_name, "karts": karts, "phase": "move", "points": points})
        if g.phase != "move" or g.turn.seat != 0:
            continue
        best = float("inf")
        for _ in range(repeat):
            LOOKAHEAD.clear()  # time the whole search, not a remembered answer
            _FULL_CACHE.clear()
            start = time.perf_counter()
            g.legal_actions()
            best = min(best, time.perf_counter() - start)
        times.append((best, points))
    return times


@benchmark("races_engine")
def races_engine() -> dict[str, float | int | str]:
    applies: list[float] = []
    for track in sorted(builtin_tracks()):
        for seed in range(3):
            applies += _apply_times(track, seed, 600)
    worst = (0.0, 0)
    checks = 0
    totals: set[int] = set()
    for track in sorted(builtin_tracks()):
        t = _legal_step_times(track, others=7, seed=1)
        checks += len(t)
        totals.update(p for _, p in t)
        worst = max(worst, *t)
    return {
        "apply_us": round(statistics.median(applies) * 1e6, 1),
        "apply_p95_us": round(sorted(applies)[int(len(applies) * 0.95)] * 1e6, 1),
        "legal_step_worst_ms": round(worst[0] * 1000, 2),
        "legal_step_worst_points": worst[1],
        "legal_step_checks": checks,
        "legal_step_totals": len(totals),
    }
