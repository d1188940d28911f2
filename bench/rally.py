"""Schrottplatz Rally: how often the smart driver beats the random one, and how fast the engine runs.

``rally_drivers`` plays 200 two-player races, smart against random, the smart driver's seat alternating,
100 on each built-in track, and prints the smart driver's win rate, the average rounds per race and the
time per decision. ``rally_smart_table`` plays 3-lap races of four smart cars and prints how often a car
mis-shifts (S4: the mean and the worst per car), the fewest laps any car completed and the rounds per race.
``rally_engine`` plays random races and prints the time per applied action. ``rally_soak`` plays checked
races, smart against random (:func:`bot.drivers.match.play_match` with the rally's invariants,
``rules.rally.invariants``, after every action and a probe that must be refused), and prints the failures
with their seeds (none expected) and the time per checked action.
"""

from __future__ import annotations

import collections
import random
import statistics
import time

from bench.registry import Figures, benchmark
from bot.drivers.base import Driver, RandomDriver
from bot.drivers.match import play_match
from bot.drivers.rally import SmartDriver
from rules.rally import RallyGame, queries
from rules.rally.invariants import problems

RACES = 200


def duel(seed: int) -> tuple[bool, int, float, int]:
    """One race; (smart won, rounds, seconds the smart driver thought, its decisions)."""
    smart_seat = seed % 2
    setup = {"seats": [{"name": "Smart"}, {"name": "Random"}] if smart_seat == 0 else
             [{"name": "Random"}, {"name": "Smart"}], "options": {"track": "AB"[seed // 2 % 2]}}
    g = RallyGame.create(setup, seed)
    drivers: dict[int, Driver] = {smart_seat: SmartDriver(seed), 1 - smart_seat: RandomDriver(seed)}
    thought, decisions = 0.0, 0
    while not g.is_over:
        seat = g.to_act
        assert seat is not None
        start = time.perf_counter()
        action = drivers[seat].choose(g, seat)
        if seat == smart_seat:
            thought += time.perf_counter() - start
            decisions += 1
        g.apply(action)
    return g.winners == [smart_seat], g.round, thought, decisions


@benchmark("rally_drivers")
def rally_drivers(races: int = RACES) -> Figures:
    results = [duel(seed) for seed in range(races)]
    wins = sum(r[0] for r in results)
    return {
        "rally_races": races,
        "rally_smart_win_rate": round(wins / races, 3),
        "rally_rounds_mean": round(statistics.mean(r[1] for r in results), 1),
        "rally_smart_decision_ms": round(1000 * sum(r[2] for r in results) / max(1, sum(r[3] for r in results)), 2),
    }


@benchmark("rally_engine")
def rally_engine(races: int = 20) -> Figures:
    applied, spent = 0, 0.0
    for seed in range(races):
        g = RallyGame.create({"seats": [{"name": f"P{i}"} for i in range(4)]}, seed)
        driver = RandomDriver(seed)
        while not g.is_over:
            action = driver.choose(g, g.to_act or 0)
            start = time.perf_counter()
            g.apply(action)
            spent += time.perf_counter() - start
            applied += 1
    return {"rally_apply_us": round(1e6 * spent / applied, 1), "rally_actions_per_race": applied // races}


@benchmark("rally_smart_table")
def rally_smart_table(races: int = 20) -> Figures:
    misshifts: list[int] = []
    laps: list[int] = []
    rounds: list[int] = []
    for seed in range(races):
        g = RallyGame.create({"seats": [{"name": f"P{i}"} for i in range(4)],
                              "options": {"track": "AB"[seed % 2]}}, seed)
        drivers = [SmartDriver(seed * 16 + i) for i in range(4)]
        count: collections.Counter[int] = collections.Counter()
        while not g.is_over:
            seat = g.to_act
            assert seat is not None
            for event in g.apply(drivers[seat].choose(g, seat)):
                if event.kind == "misshift":
                    count[event.seat or 0] += 1
        misshifts += [count[s] for s in range(4)]
        laps += [queries.laps_done(g, s) for s in range(4)]
        rounds.append(g.round)
    return {
        "rally_table_races": races,
        "rally_table_misshifts_mean": round(statistics.mean(misshifts), 2),
        "rally_table_misshifts_max": max(misshifts),
        "rally_table_fewest_laps": min(laps),
        "rally_table_rounds_mean": round(statistics.mean(rounds), 1),
    }


PROBES = ("roll red boost", "move 99a", "park pit.9 m1", "repair", "move stop", "park F7.1 e9", "roll yellow")


def probe(rng: random.Random, game: object) -> str:
    """An action that is usually illegal here: the game must refuse it and change nothing."""
    return rng.choice(PROBES)


@benchmark("rally_soak")
def rally_soak(races: int = 10) -> Figures:
    failures: list[str] = []
    actions, spent = 0, 0.0
    for seed in range(races):
        n = 2 + seed % 5
        setup = {"seats": [{"name": f"P{i}"} for i in range(n)],
                 "options": {"track": "AB"[seed % 2], "laps": 1 + seed % 2,
                             "direction": ("clockwise", "anticlockwise")[seed // 2 % 2]}}
        start = time.perf_counter()
        result = play_match("rally", setup, seed, (["smart", "random"] * 3)[:n], problems=problems, probe=probe)
        spent += time.perf_counter() - start
        actions += len(result.actions)
        failures += [f"seed {seed}: {f}" for f in result.failures]
    for failure in failures:
        print(failure)
    return {"rally_soak_races": races, "rally_soak_failures": len(failures),
            "rally_soak_checked_action_ms": round(1000 * spent / max(1, actions), 2)}
