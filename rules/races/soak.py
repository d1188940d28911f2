"""Random race setups and probably-illegal input for checked play (the drivers' soak, the property tests).

:func:`random_setup` gives race ``index`` of a soak: a built-in track, 2–8 seats, a mix of driver kinds,
sometimes team racing (R13), sometimes the crew setup. :func:`unlikely_action` gives a text that is most
likely illegal now, to check that refusals change nothing. :func:`turn_limit` says when a race has run
for so long that it must be stuck.
"""

from __future__ import annotations

import random
from typing import Any

from rules.races import catalogue
from rules.races.engine import Races
from rules.races.track import builtin_tracks

#: turns per seat and lap: a race still running after this many is stuck
TURNS_PER_SEAT_AND_LAP = 400


def turn_limit(game: Races) -> str | None:
    """Why the race must be stuck (it has run far too many turns), or None while it may go on."""
    cap = TURNS_PER_SEAT_AND_LAP * len(game.karts) * game.laps
    return f"the race is still running after {cap} turns" if game.turn.number > cap else None


def random_setup(index: int, rng: random.Random) -> tuple[dict[str, Any], list[str]]:
    """Race ``index`` of a soak and a driver kind per seat ("smart" or "random", at least one smart)."""
    tracks = sorted(builtin_tracks())
    track = tracks[index % len(tracks)]
    seats = rng.randint(2, 8)
    options: dict[str, Any] = {"track": track, "laps": rng.choice([1, 1, 2, 3, 5])}
    seat_list: list[dict[str, Any]] = [{"name": f"Driver {i + 1}"} for i in range(seats)]
    kinds = [rng.choice(["smart", "random"]) for _ in range(seats)]
    if "smart" not in kinds:
        kinds[rng.randrange(seats)] = "smart"
    teams = team_plan(seats, rng) if rng.random() < 0.3 else None
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


def team_plan(seats: int, rng: random.Random) -> list[int] | None:
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


def unlikely_action(rng: random.Random, game: Races) -> str:
    """An action text that is most likely illegal now: every action word, odd cells, and plain noise."""
    cells = sorted(game.track.terrain)
    cell = rng.choice(cells).label
    colour = rng.choice([k.colour for k in game.karts])
    options = [
        "roll 3", "roll 9", "roll 2 7w", "roll 1 9w", "reverse", "done", f"step {cell}",
        f"move {cell} {rng.choice(cells).label}", "choose Z9", f"choose {cell}", "buy jet-engine 7",
        "buy mud-tyres 9", f"trap glue {cell}", f"trap oil {cell} N", f"missile {cell} {colour}",
        f"magnet {cell} {colour}", f"bomb {cell} {colour}", "refuel white", f"swap {colour} give oil",
        "bag oil 7 4", "show magnet", "return 6", f"smash {colour}", f"snatch {colour}", "zzz", "",
        "step Q999", "step left", "move", "move B2 C3", "roll x", "choose", "fly",
    ]
    return rng.choice(options)
