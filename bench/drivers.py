"""Junkyard Races computer drivers: how often the racing driver beats the random one, and the soak.

``races_drivers`` plays 2-seat races, racing driver against random driver, 100 seeds on each built-in
track, and prints the racing driver's win rate, the average actions and turns per race and the racing
driver's time per decision.

``python -m bench --soak N`` runs :func:`soak`: N whole races between racing and random drivers on
every built-in track with 2 to 8 seats (mixed drivers, sometimes team racing, sometimes the crew
setup; see ``rules.races.soak``). After every action it checks the race's invariants
(``rules.races.invariants``), pokes the game with an illegal action that must be refused with
``IllegalAction`` and change nothing, and at the end of each race replays ``Races.create(setup, seed)``
plus the action log and compares the final state (``bot.drivers.match``). Every failure is printed with
its seed so it can be played again.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from bench.registry import Figures, benchmark
from bot.drivers.match import MatchResult, play_match
from rules.races.engine import Races
from rules.races.invariants import problems
from rules.races.soak import random_setup, turn_limit, unlikely_action
from rules.races.track import builtin_tracks

SEEDS = 100


def play_race(setup: dict[str, Any], seed: int, kinds: list[str], *, check: bool = False) -> MatchResult:
    """One race with a driver of each kind per seat; with ``check`` every invariant is watched."""
    if check:
        return play_match("races", setup, seed, kinds, problems=problems, probe=unlikely_action, limit=turn_limit)
    return play_match("races", setup, seed, kinds, limit=turn_limit)


def soak(races: int, first_seed: int = 0, out: Callable[[str], None] = print) -> int:
    """Play ``races`` checked races; print progress, failures with their seeds and races per second."""
    start = time.perf_counter()
    failures = 0
    actions = 0
    for i in range(races):
        seed = first_seed + i
        setup, kinds = random_setup(i, random.Random(seed))
        result = play_race(setup, seed, kinds, check=True)
        actions += len(result.actions)
        if result.failures:
            failures += 1
            out(f"FAIL seed {seed} setup {setup} kinds {kinds}:")
            for f in result.failures[:5]:
                out(f"  {f}")
            out(f"  actions: {result.actions}")
    elapsed = time.perf_counter() - start
    out(f"soak: {races} races, {actions} actions, {failures} failed, {elapsed:.1f} s, "
        f"{races / elapsed:.2f} races/s, {actions / elapsed:.0f} actions/s")
    return failures


# ---------------------------------------------------------------------------------------------------
# The benchmark


def match(seeds: int = SEEDS) -> Figures:
    """Racing against random, 2 seats, ``seeds`` races per track, each driver in each seat half the time."""
    figures: Figures = {}
    total_wins = total = 0
    for name in sorted(builtin_tracks()):
        wins = 0
        actions: list[int] = []
        turns: list[int] = []
        smart_s = 0.0
        smart_n = 0
        for seed in range(seeds):
            kinds = ["smart", "random"] if seed % 2 == 0 else ["random", "smart"]
            setup = {"seats": [{"name": "A"}, {"name": "B"}], "options": {"track": name}}
            r = play_race(setup, seed, kinds)
            assert isinstance(r.game, Races)
            wins += bool(r.winners) and kinds[r.winners[0]] == "smart"
            actions.append(len(r.actions))
            turns.append(r.game.turn.number)
            smart_s += r.decide_s.get("smart", 0.0)
            smart_n += r.decisions.get("smart", 0)
        key = name.lower().replace(" ", "_")
        figures[f"{key}.win_rate"] = round(wins / seeds, 3)
        figures[f"{key}.actions_avg"] = round(statistics.mean(actions), 1)
        figures[f"{key}.turns_avg"] = round(statistics.mean(turns), 1)
        figures[f"{key}.smart_ms_per_decision"] = round(1000 * smart_s / max(1, smart_n), 2)
        total_wins += wins
        total += seeds
    figures["win_rate"] = round(total_wins / total, 3)
    return figures


@benchmark("races_drivers")
def races_drivers() -> Figures:
    return match(SEEDS)
