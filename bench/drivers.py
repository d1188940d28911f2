"""Junkyard Races computer drivers: how often the racing driver beats the random one, and the soak.

``races_drivers`` plays 2-seat races, racing driver against random driver, 100 seeds on each built-in
track, and prints the racing driver's win rate, the average actions and turns per race and the racing
driver's time per decision.

``python -m bench --soak N`` runs :func:`soak`: N whole races between racing and random drivers on
every built-in track with 2 to 8 seats (mixed drivers, sometimes team racing, sometimes the crew
setup). After every action it checks the engine's invariants (see :func:`check_invariants`), pokes
the game with an illegal action that must be refused with ``IllegalAction`` and change nothing, and at
the end of each race replays ``Races.create(setup, seed)`` plus the action log and compares the final
state. Every failure is printed with its seed so it can be played again.
"""

from __future__ import annotations

import random
import statistics
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bench.registry import Figures, benchmark
from bot.drivers import driver_for
from rules.contract import IllegalAction
from rules.races import Races, catalogue
from rules.races.track import builtin_tracks

SUPPLY = {"junk": 100, "parts": 80, "bottle_tops": 80, "flags": 48, "white": 5, "red": 7}
TURN_CAP = 400  # turns per seat and lap: a race still running after this many is a failure
SEEDS = 100


@dataclass
class RaceResult:
    setup: dict[str, Any]
    seed: int
    kinds: list[str]
    winners: list[int] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    turns: int = 0
    decide_s: dict[str, float] = field(default_factory=dict)
    decisions: dict[str, int] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)


# ---------------------------------------------------------------------------------------------------
# Invariants


def check_invariants(game: Races) -> list[str]:
    """What is wrong with the state (empty when nothing is)."""
    problems: list[str] = []
    track = game.track
    if not game.is_over:
        if game.to_act is None:
            problems.append("nobody is to act but the race is not over")
        elif not game.legal_actions():
            problems.append(f"seat {game.to_act} is to act but has no legal action")
    seen: dict[Any, int] = {}
    for k in game.karts:
        if k.cell is None:
            continue
        if not (track.on_track(k.cell) or track.is_stream(k.cell)):
            problems.append(f"{k.colour} is off the track at {k.cell.label}")
        if track.on_track(k.cell):
            if k.cell in seen:
                problems.append(f"{k.colour} and seat {seen[k.cell]} share {k.cell.label}")
            seen[k.cell] = k.seat
    counts = game.supply_counts()
    if counts != SUPPLY:
        problems.append(f"supplies {counts} are not {SUPPLY}")
    for viewer in [None, *range(len(game.karts))]:
        problems += _view_leaks(game, viewer)
    return problems


def _view_leaks(game: Races, viewer: int | None) -> list[str]:
    """Hidden tiles (R12) a view shows that its viewer may not see."""
    out: list[str] = []
    view = game.view(viewer)
    who = "the public" if viewer is None else f"seat {viewer}"
    for cell, tile in game.board.items():
        if tile.face_down and view["board"].get(cell.label) != {"kind": "junk", "face_down": True}:
            out.append(f"{who} sees the face-down tile on {cell.label}: {view['board'].get(cell.label)}")
    for k, shown in zip(game.karts, view["karts"], strict=True):
        if k.seat == viewer:
            continue
        for loc, tiles in k.bags.items():
            expect = [t.to_json() if t.face_up else "hidden" for t in tiles]
            if shown["bags"].get(str(loc)) != expect:
                out.append(f"{who} sees {k.colour}'s saddlebag {loc}: {shown['bags'].get(str(loc))}")
    for e in view["events"]:
        if e.get("secret") and e.get("seat") != viewer:
            out.append(f"{who} reads another seat's secret: {e}")
    if view.get("choice") and "context" in view["choice"]:
        out.append(f"{who} sees the context of a choice: {view['choice']}")
    return out


def _probe(rng: random.Random, game: Races) -> str:
    """An action text that is most likely illegal now."""
    cells = sorted(game.track.terrain)
    cell = rng.choice(cells).label
    colour = rng.choice([k.colour for k in game.karts])
    options = [
        "roll 3", "roll 9", "roll 2 7w", "reverse", "done", f"step {cell}", f"move {cell} {rng.choice(cells).label}",
        "choose Z9", f"choose {cell}", "buy jet-engine 7", "buy mud-tyres 9", f"trap glue {cell}",
        f"trap oil {cell} N", f"missile {cell} {colour}", f"magnet {cell} {colour}", f"bomb {cell} {colour}",
        "refuel white", f"swap {colour} give oil", "bag oil 7 4", "show magnet", "return 6", f"smash {colour}",
        "zzz", "", "step Q999", "move", "roll x", "choose", f"snatch {colour}",
    ]
    return rng.choice(options)


# ---------------------------------------------------------------------------------------------------
# Playing races


def play_race(setup: dict[str, Any], seed: int, kinds: list[str], *, check: bool = False,
              turn_cap: int | None = None) -> RaceResult:
    """Play one race with a driver of each kind per seat; with ``check`` every invariant is watched."""
    result = RaceResult(setup, seed, kinds)
    game = Races.create(setup, seed)
    drivers = [driver_for("races", kind, seed * 16 + i) for i, kind in enumerate(kinds)]
    rng = random.Random(seed)
    cap = turn_cap or TURN_CAP * len(kinds) * game.laps
    if check:
        result.failures += [f"at the start: {p}" for p in check_invariants(game)]
    while not game.is_over and not result.failures:
        if game.turn.number > cap:
            result.failures.append(f"the race is still running after {cap} turns")
            break
        if check:
            _poke(game, rng, result)
            if result.failures or game.is_over:
                break
        seat = game.to_act
        assert seat is not None
        kind = kinds[seat]
        start = time.perf_counter()
        try:
            action = drivers[seat].choose(game, seat)
        except Exception as exc:  # a driver bug: report it with the seed
            result.failures.append(f"{kind} driver of seat {seat} raised {exc!r}\n{traceback.format_exc()}")
            break
        result.decide_s[kind] = result.decide_s.get(kind, 0.0) + time.perf_counter() - start
        result.decisions[kind] = result.decisions.get(kind, 0) + 1
        if check and action not in {str(a) for a in game.legal_actions()}:
            result.failures.append(f"{kind} driver of seat {seat} chose {action!r}, which is not listed as legal")
            break
        try:
            game.apply(action)
        except Exception as exc:  # an engine bug: a listed action must be accepted
            result.failures.append(f"applying the listed action {action!r} raised {exc!r}\n{traceback.format_exc()}")
            break
        result.actions.append(action)
        if check:
            result.failures += [f"after {action!r} (action {len(result.actions)}): {p}"
                                for p in check_invariants(game)]
    result.winners = game.winners
    result.turns = game.turn.number
    if check and not result.failures:
        replay = Races.create(setup, seed)
        try:
            for action in result.actions:
                replay.apply(action)
        except Exception as exc:
            result.failures.append(f"the replay refused an action: {exc!r}")
        else:
            if replay.to_dict() != game.to_dict():
                result.failures.append("the replay of the action log does not reproduce the final state")
    return result


def _poke(game: Races, rng: random.Random, result: RaceResult) -> None:
    """Try a probably illegal action: it must be refused with IllegalAction and change nothing."""
    text = _probe(rng, game)
    before = game.to_dict()
    try:
        game.apply(text)
    except IllegalAction:
        if game.to_dict() != before:
            result.failures.append(f"the refused action {text!r} changed the game")
        return
    except Exception as exc:
        result.failures.append(f"the action {text!r} raised {exc!r} instead of IllegalAction\n"
                               f"{traceback.format_exc()}")
        return
    result.actions.append(text)  # it was legal after all: it is part of the race now
    result.failures += [f"after the probe {text!r}: {p}" for p in check_invariants(game)]


def soak_setup(index: int, rng: random.Random) -> tuple[dict[str, Any], list[str]]:
    """Race ``index`` of a soak: track, 2–8 seats, a mix of drivers, sometimes teams or the crew setup."""
    tracks = sorted(builtin_tracks())
    track = tracks[index % len(tracks)]
    seats = rng.randint(2, 8)
    options: dict[str, Any] = {"track": track, "laps": rng.choice([1, 1, 2, 3, 5])}
    seat_list: list[dict[str, Any]] = [{"name": f"Driver {i + 1}"} for i in range(seats)]
    kinds = [rng.choice(["smart", "random"]) for _ in range(seats)]
    if "smart" not in kinds:
        kinds[rng.randrange(seats)] = "smart"
    teams = _team_plan(seats, rng) if rng.random() < 0.3 else None
    if teams is not None:
        options["teams"] = True
        options["laps"] = rng.choice([1, 2])
        for s, team in zip(seat_list, teams, strict=True):
            s["team"] = team
        # a team of random drivers only would take ages to finish every lap: give each team a racer
        for team in set(teams):
            members = [i for i, t in enumerate(teams) if t == team]
            if all(kinds[i] == "random" for i in members):
                kinds[members[0]] = "smart"
    if rng.random() < 0.3:
        options["crew"] = True
        crew = rng.sample(sorted(catalogue.crew()), seats)
        for s, member in zip(seat_list, crew, strict=True):
            s["crew"] = member
            s["crew_set"] = rng.choice([1, 2])
    if "random" in kinds and options["laps"] > 2 and rng.random() < 0.5:
        options["laps"] = 2
    return {"seats": seat_list, "options": options}, kinds


def _team_plan(seats: int, rng: random.Random) -> list[int] | None:
    """Team numbers per seat (R13: 2 teams of 3 or 4, or 2–4 teams of 2), or None when none fits."""
    plans = []
    if seats in (4, 6, 8):
        plans.append([i // 2 for i in range(seats)])
    if seats in (6, 8):
        plans.append([i // (seats // 2) for i in range(seats)])
    if not plans:
        return None
    plan = rng.choice(plans)
    rng.shuffle(plan)
    return plan


def soak(races: int, first_seed: int = 0, out: Callable[[str], None] = print) -> int:
    """Play ``races`` checked races; print progress, failures with their seeds and races per second."""
    start = time.perf_counter()
    failures = 0
    actions = 0
    for i in range(races):
        seed = first_seed + i
        setup, kinds = soak_setup(i, random.Random(seed))
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
            wins += bool(r.winners) and kinds[r.winners[0]] == "smart"
            actions.append(len(r.actions))
            turns.append(r.turns)
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
