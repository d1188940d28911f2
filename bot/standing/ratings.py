"""Ratings from finishing orders: pure arithmetic over openskill's Plackett–Luce model, no store, no game.

A finished game is a list of :class:`Entry` (one per seat: who, the place, the team, the computer kind,
whether the autopilot played most of the seat's turns). :func:`rate` turns it and the players' current
:class:`Skill` into their new skills:

- **Sides.** Seats with the same team number are one side (teams as teams); every other seat is a side of
  its own. A side's place is its best member's.
- **Computers** sit at a fixed skill per driver kind (:data:`COMPUTER_SKILL`), so beating the smart driver
  counts for more than beating the random one; their skill never changes.
- **Autopilot.** A person whose seat the autopilot played mostly (more than half of their turns) did not
  play the game. The game then rates the others among the people who played it only: the absent seats and
  the computer seats are left out, and each side keeps its place among those left: a team with an absent
  member is its members who played, at the best of their places (the absent seat's own place does not count;
  a place the game gives the whole team, as a won Races team's shared first, does). The absent person is
  rated as having lost to every side that was played (people and computers), behind the last of them;
  their seat's win, if the autopilot won, is not theirs.
- A game with no person left to rate, or with one person in two seats, changes nothing.

:func:`shown` is the number players read: ``1000 + 40 × (μ − 3σ)``, a conservative figure that starts at
1000 and rises as the rating grows surer. :func:`simulate` measures how well a model predicts races
between drivers of known strength (the bench's ``rating_predicts``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import BradleyTerryFull, PlackettLuce, ThurstoneMostellerFull

#: a new player's skill (openskill's defaults)
MU, SIGMA = 25.0, 25.0 / 3.0

#: the fixed skill (μ, σ) of a computer seat per driver kind; other kinds take :data:`OTHER_COMPUTER`
COMPUTER_SKILL: Mapping[str, tuple[float, float]] = {"random": (15.0, 1.0), "smart": (28.0, 1.0)}
OTHER_COMPUTER = (22.0, 1.0)

#: the models :func:`simulate` compares; :data:`MODEL` is the one the ladder uses (the bench says why)
MODELS: Mapping[str, Callable[[], Any]] = {
    "plackett-luce": PlackettLuce,
    "bradley-terry": BradleyTerryFull,
    "thurstone-mosteller": ThurstoneMostellerFull,
}
MODEL = "plackett-luce"


@dataclass(frozen=True, slots=True)
class Skill:
    """A rating: the mean ``mu`` and the uncertainty ``sigma``."""

    mu: float = MU
    sigma: float = SIGMA

    @property
    def shown(self) -> int:
        return shown(self.mu, self.sigma)


@dataclass(frozen=True, slots=True)
class Entry:
    """One seat of a finished game: ``who`` (a person's id; computers' ids are ignored), its ``place``
    (1 is first), its ``team`` (None: no team), its computer ``driver`` kind (None: a person) and whether the
    autopilot played most of its turns (``absent``)."""

    who: int
    place: int
    team: int | None = None
    driver: str | None = None
    absent: bool = False

    @property
    def person(self) -> bool:
        return self.driver is None


def shown(mu: float, sigma: float) -> int:
    """The conservative rating players read: 1000 + 40 × (μ − 3σ), rounded."""
    return round(1000 + 40 * (mu - 3 * sigma))


def computer_skill(driver: str) -> Skill:
    """The fixed skill of a computer seat of kind ``driver``."""
    mu, sigma = COMPUTER_SKILL.get(driver, OTHER_COMPUTER)
    return Skill(mu, sigma)


def mostly_autopilot(turns: int, autopilot: int) -> bool:
    """Whether the autopilot played most of a seat's turns (more than half)."""
    return turns > 0 and 2 * autopilot > turns


def _sides(entries: Sequence[Entry]) -> list[list[Entry]]:
    """Seats grouped into sides (one per team number, else one per seat), in seat order of first member."""
    sides: dict[tuple[str, int], list[Entry]] = {}
    for i, e in enumerate(entries):
        key = ("team", e.team) if e.team is not None else ("seat", i)
        sides.setdefault(key, []).append(e)
    return list(sides.values())


def _run(model: Any, sides: Sequence[Sequence[tuple[Entry, Skill]]], ranks: Sequence[int]) -> list[list[Skill]]:
    teams = [[model.rating(mu=s.mu, sigma=s.sigma) for _, s in side] for side in sides]
    rated = model.rate(teams, ranks=list(ranks))
    return [[Skill(float(r.mu), float(r.sigma)) for r in team] for team in rated]


def rate(entries: Sequence[Entry], current: Mapping[int, Skill], *, model: str = MODEL) -> dict[int, Skill]:
    """The new skills of the people of a finished game (by id), from their ``current`` skills (a missing id
    is a new player). See the module's description for sides, computers and the autopilot."""
    people = [e.who for e in entries if e.person]
    if len(set(people)) != len(people):
        return {}
    engine = MODELS[model]()

    def skill(e: Entry) -> Skill:
        return computer_skill(e.driver) if e.driver is not None else current.get(e.who, Skill())

    played: list[list[tuple[Entry, Skill]]] = []
    for side in _sides(entries):
        present = [(e, skill(e)) for e in side if not (e.person and e.absent)]
        if present:
            played.append(present)
    ranks = [min(e.place for e, _ in side) for side in played]
    # with an absent person, the others are rated among the people who played only
    rated = played if not any(e.person and e.absent for e in entries) else \
        [humans for side in played if (humans := [(e, s) for e, s in side if e.person])]
    out: dict[int, Skill] = {}
    if len(rated) >= 2 and any(e.person for side in rated for e, _ in side):
        places = [min(e.place for e, _ in side) for side in rated]
        for members, moved in zip(rated, _run(engine, rated, places), strict=True):
            for (member, _), after in zip(members, moved, strict=True):
                if member.person:
                    out[member.who] = after
    last = max(ranks, default=0) + 1
    for e in entries:
        if e.person and e.absent and played:
            alone = _run(engine, [*played, [(e, skill(e))]], [*ranks, last])
            out[e.who] = alone[-1][0]
    return out


# Measuring a model -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Prediction:
    """How often the higher-rated of two drivers finished ahead, over the pairs of the test races."""

    model: str
    right: int
    pairs: int

    @property
    def share(self) -> float:
        return self.right / self.pairs if self.pairs else 0.0


def race(strengths: Sequence[float], field: Sequence[int], rng: random.Random, noise: float = 1.0) -> list[int]:
    """A simulated race of the drivers ``field``: each drives its strength plus Gaussian luck; the order
    of finish, best first."""
    return sorted(field, key=lambda d: -(strengths[d] + rng.gauss(0.0, noise)))


def simulate(model: str = MODEL, *, drivers: int = 24, learn: int = 400, test: int = 400, seed: int = 7
             ) -> Prediction:
    """Rate ``learn`` races of 2–8 drivers of known strength (a standard normal spread, luck of the same
    size), then count over ``test`` further races how often the higher-rated of each pair finished ahead.
    The same seed gives every model the same races."""
    rng = random.Random(seed)
    strengths = [rng.gauss(0.0, 1.0) for _ in range(drivers)]
    skills: dict[int, Skill] = {}
    for _ in range(learn):
        order = race(strengths, rng.sample(range(drivers), rng.randint(2, 8)), rng)
        skills.update(rate([Entry(d, i + 1) for i, d in enumerate(order)], skills, model=model))
    right = pairs = 0
    for _ in range(test):
        order = race(strengths, rng.sample(range(drivers), rng.randint(2, 8)), rng)
        for i, ahead in enumerate(order):
            for behind in order[i + 1:]:
                a, b = skills.get(ahead, Skill()), skills.get(behind, Skill())
                if a.mu != b.mu:
                    pairs += 1
                    right += a.mu > b.mu
    return Prediction(model, right, pairs)


__all__ = ["COMPUTER_SKILL", "MODEL", "MODELS", "Entry", "Prediction", "Skill", "computer_skill",
           "mostly_autopilot", "rate", "shown", "simulate"]
