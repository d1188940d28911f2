"""Whole games between computer drivers, optionally checked after every action (the soak).

:func:`play_match` seats a driver of each kind, plays until the game ends or ``limit`` says it is stuck,
and records the winners, the action log and each kind's thinking time. With ``problems`` (a game's
invariant checker, see ``rules.<game>.invariants``) it also checks the state after every action, pokes
the game with ``probe`` texts that must be refused with ``IllegalAction`` and change nothing, checks
that each driver's choice is listed as legal, and finally replays the setup, seed and log to the same
state. Every failure is recorded as a sentence; play stops at the first one.
"""

from __future__ import annotations

import random
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.drivers import driver_for
from bot.games import game_class
from rules.contract import Game
from rules.invariants import refusal_problems, replay_problems

Checker = Callable[[Any], list[str]]
Probe = Callable[[random.Random, Any], str]
Limit = Callable[[Any], str | None]


@dataclass
class MatchResult:
    setup: dict[str, Any]
    seed: int
    kinds: list[str]
    game: Game
    winners: list[int] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    decide_s: dict[str, float] = field(default_factory=dict)
    decisions: dict[str, int] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)


def play_match(game_key: str, setup: dict[str, Any], seed: int, kinds: list[str], *,
               problems: Checker | None = None, probe: Probe | None = None,
               limit: Limit | None = None) -> MatchResult:
    """Play one game of ``game_key`` with a driver of each kind per seat (seat ``i`` gets seed
    ``seed * 16 + i``); with ``problems`` every invariant is watched."""
    game = game_class(game_key).create(setup, seed)
    result = MatchResult(setup, seed, kinds, game)
    drivers = [driver_for(game_key, kind, seed * 16 + i) for i, kind in enumerate(kinds)]
    rng = random.Random(seed)
    if problems is not None:
        result.failures += [f"at the start: {p}" for p in problems(game)]
    while not game.is_over and not result.failures:
        stuck = limit(game) if limit is not None else None
        if stuck:
            result.failures.append(stuck)
            break
        if problems is not None and probe is not None:
            _poke(game, probe(rng, game), problems, result)
            if result.failures or game.is_over:
                break
        _drive(game, drivers, problems, result)
    result.winners = list(game.winners)
    if problems is not None and not result.failures:
        result.failures += replay_problems(game, setup, seed, result.actions)
    return result


def _drive(game: Game, drivers: list[Any], problems: Checker | None, result: MatchResult) -> None:
    """The seat to act's driver chooses and the game applies it; failures are recorded."""
    seat = game.to_act
    assert seat is not None
    kind = result.kinds[seat]
    start = time.perf_counter()
    try:
        action = drivers[seat].choose(game, seat)
    except Exception as exc:  # a driver bug: report it with the seed
        result.failures.append(f"{kind} driver of seat {seat} raised {exc!r}\n{traceback.format_exc()}")
        return
    result.decide_s[kind] = result.decide_s.get(kind, 0.0) + time.perf_counter() - start
    result.decisions[kind] = result.decisions.get(kind, 0) + 1
    if problems is not None and action not in {str(a) for a in game.legal_actions()}:
        result.failures.append(f"{kind} driver of seat {seat} chose {action!r}, which is not listed as legal")
        return
    try:
        game.apply(action)
    except Exception as exc:  # an engine bug: a listed action must be accepted
        result.failures.append(f"applying the listed action {action!r} raised {exc!r}\n{traceback.format_exc()}")
        return
    result.actions.append(action)
    if problems is not None:
        result.failures += [f"after {action!r} (action {len(result.actions)}): {p}" for p in problems(game)]


def _poke(game: Game, text: str, problems: Checker, result: MatchResult) -> None:
    """Try a probably illegal action: refused, it must change nothing; taken, it joins the log."""
    accepted, faults = refusal_problems(game, text)
    result.failures += faults
    if accepted:
        result.actions.append(text)
        result.failures += [f"after the probe {text!r}: {p}" for p in problems(game)]
