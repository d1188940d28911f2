"""Championships: a series of races whose finishing places score points. Pure arithmetic, no store, no game.

- **Points.** A :class:`PointsTable` gives the points of each place (1st, 2nd, …; a place past its end
  scores 0): the presets :meth:`PointsTable.formula_one` (25, 18, 15, 12, 10, 8, 6, 4, 2, 1),
  :meth:`PointsTable.cup` (a four-race cup in the manner of kart racing: 15, 12, 10, 9, 8, 7, 6, 5, 4, 3,
  2, 1, so every place of a twelve-car field scores), :meth:`PointsTable.n_to_one` (N for the winner down to
  1 for the last of N), or the host's own list (:meth:`PointsTable.own`, checked; :class:`BadPoints`).
- **A round** is one :class:`Finish` per driver. A driver who is not listed, or has no place, did not take
  part; a seat the autopilot mostly played (:func:`bot.standing.ratings.mostly_autopilot`) scores nothing
  and counts as an absent round, but its place still shows. The driver who led most laps earns
  :attr:`Options.lead_bonus` on top of the place's points (not when absent).
- **Leading a lap.** A driver *led* a lap when it was the first to complete that lap (the game's own count
  of completed laps, watched move by move over the round's log: :meth:`bot.games.unit.Laps.leaders`).
  The round's bonus goes to one driver (:func:`bonus_driver`): the one who led most laps; level on laps,
  the better finishing place; still level, the one who led a lap first.
- **Dropped rounds.** :attr:`Options.drop_worst` of a driver's round scores are struck, the lowest first
  (an absent round scores 0, so it goes first); among equal scores the earliest round goes first. At least
  one round always counts: of R rounds at most R − 1 are dropped.
- **Order** (:func:`table`): more points; then more wins, then more second places, and so on down the places
  (every place a driver took in person counts here, dropped rounds included; absent and autopilot rounds do
  not); then the better place in the latest round, then in the one before, … (an absent or autopilot round
  is behind every place). Drivers still level share their position.
- **Teams.** A team's score in a round is the sum of the kept (not dropped) scores of its drivers in that
  round, so each driver's own drop rule applies before the sum; the team of a driver is the one its finish
  names in that round. Teams are ordered by points, then by the better score in the latest round, the one
  before, …; still level, they share their position.
- **What each needs** (:func:`needs`): the champion is the sole first of the final table. The rounds left
  are taken as run by the whole field (everyone who appears in the rounds done), each driver in person,
  and, with a lead bonus, led by one of them. While the number of outcomes (finishing orders of the field,
  times its leaders with a bonus, for every round left) is at most :data:`MAX_OUTCOMES` (six drivers with
  one round left; four drivers with two rounds left, bonus or not; five with two left and no bonus), every
  outcome is tried and the answer is exact: :attr:`Verdict.CHAMPION`, :attr:`Verdict.OUT_OF_REACH` or
  :attr:`Verdict.OPEN` with whether winning every round left surely makes them champion and, with one round
  left, the places that surely do and those that keep a chance. Beyond that a bound decides: champion when
  their worst total beats everyone's best, out of reach when their best total falls short of someone's
  worst; otherwise :attr:`Verdict.UNDECIDED`. Both bounds are sound (never wrong), not complete.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from itertools import pairwise, permutations, product
from math import factorial
from typing import Any

from bot import texts

#: the longest points table a host may give
MAX_PLACES = 20
#: the outcomes of the rounds left :func:`needs` tries one by one at most; beyond, it bounds
MAX_OUTCOMES = 20_000


class BadPoints(ValueError):
    """A points table that can't be used; the message (in English; :meth:`say` in another language) says
    what is expected."""

    def __init__(self, msg: str, **params: Any) -> None:
        super().__init__(texts.say(msg, **params))
        self.msg, self.params = msg, params

    def say(self, lang: str) -> str:
        return texts.say(self.msg, lang, **self.params)


@dataclass(frozen=True, slots=True)
class PointsTable:
    """Points per place: ``points[0]`` for a win, ``points[1]`` for second…; places past the end score 0."""

    points: tuple[int, ...]

    def of(self, place: int) -> int:
        """The points of ``place`` (1 is first)."""
        return self.points[place - 1] if 1 <= place <= len(self.points) else 0

    @classmethod
    def formula_one(cls) -> PointsTable:
        return cls((25, 18, 15, 12, 10, 8, 6, 4, 2, 1))

    @classmethod
    def cup(cls) -> PointsTable:
        """A four-race cup's table: every place of a twelve-car field scores, the top ones a little more."""
        return cls((15, 12, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1))

    @classmethod
    def n_to_one(cls, n: int) -> PointsTable:
        """N points for the winner of a field of N down to 1 for its last."""
        if not 1 <= n <= MAX_PLACES:
            raise BadPoints("championship.points.field", most=MAX_PLACES)
        return cls(tuple(range(n, 0, -1)))

    @classmethod
    def own(cls, values: Iterable[object]) -> PointsTable:
        """The host's own list, checked: 1 to :data:`MAX_PLACES` whole numbers, none negative, none above
        the one before. Raises :class:`BadPoints`."""
        points = list(values)
        if not points:
            raise BadPoints("championship.points.empty")
        if len(points) > MAX_PLACES:
            raise BadPoints("championship.points.too_long", most=MAX_PLACES)
        for value in points:
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise BadPoints("championship.points.not_whole", value=value)
        whole = [int(v) for v in points if isinstance(v, int)]
        for place, (before, after) in enumerate(pairwise(whole), start=2):
            if after > before:
                raise BadPoints("championship.points.rising", place=place, points=after, before=before)
        return cls(tuple(whole))


@dataclass(frozen=True, slots=True)
class Options:
    """``drop_worst`` round scores struck per driver (0: none); ``lead_bonus`` points for leading most laps
    in a round (0: none)."""

    drop_worst: int = 0
    lead_bonus: int = 0


@dataclass(frozen=True, slots=True)
class Finish:
    """A driver's result in a round: its ``place`` (None: did not take part), whether the ``autopilot``
    mostly played its seat, its ``team`` (None: none) and whether it ``led`` most laps."""

    driver: int
    place: int | None
    autopilot: bool = False
    team: int | None = None
    led: bool = False

    @property
    def scores(self) -> bool:
        """Whether the result earns points (the driver took part in person)."""
        return self.place is not None and not self.autopilot


Round = Sequence[Finish]


@dataclass(frozen=True, slots=True)
class RoundScore:
    """A driver's round in the table: the ``points`` it earned, the ``place`` it shows (None: absent), and
    whether it was an ``autopilot`` seat, is ``dropped``, or ``led`` most laps."""

    points: int
    place: int | None
    autopilot: bool = False
    dropped: bool = False
    led: bool = False


@dataclass(frozen=True, slots=True)
class Row:
    """A driver's line: its ``position`` (shared when level), total ``points`` (kept rounds), its
    ``rounds`` and ``places`` (``places[0]`` wins, ``places[1]`` second places…)."""

    driver: int
    position: int
    points: int
    rounds: tuple[RoundScore, ...]
    places: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TeamRow:
    """A team's line: its ``position``, total ``points`` and the points of each round."""

    team: int
    position: int
    points: int
    rounds: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Standing:
    """The drivers' table and the teams' table, best first."""

    rows: tuple[Row, ...]
    teams: tuple[TeamRow, ...]

    def row(self, driver: int) -> Row | None:
        return next((r for r in self.rows if r.driver == driver), None)


def laps_led(leaders: Sequence[int]) -> dict[int, int]:
    """How many laps each driver led, from who led lap 1, lap 2, … (``leaders``)."""
    out: dict[int, int] = {}
    for driver in leaders:
        out[driver] = out.get(driver, 0) + 1
    return out


def bonus_driver(leaders: Sequence[int], places: Mapping[int, int]) -> int | None:
    """The one driver a round's lead bonus goes to (see the module's description), from who led each lap
    (``leaders``) and each driver's finishing place; None when nobody led a lap."""
    led = laps_led(leaders)
    if not led:
        return None
    return min(led, key=lambda d: (-led[d], places.get(d, _BEHIND), leaders.index(d)))


def score(finish: Finish | None, points: PointsTable, options: Options) -> int:
    """The points a round's result earns (0 absent or autopilot)."""
    if finish is None or finish.place is None or finish.autopilot:
        return 0
    return points.of(finish.place) + (options.lead_bonus if finish.led else 0)


def dropped(scores: Sequence[int], drop: int) -> frozenset[int]:
    """The indices of the round scores struck: the ``drop`` lowest (earliest first among equals), leaving
    at least one."""
    k = max(0, min(drop, len(scores) - 1))
    return frozenset(sorted(range(len(scores)), key=lambda i: (scores[i], i))[:k])


def _kept(scores: Sequence[int], drop: int) -> int:
    k = max(0, min(drop, len(scores) - 1))
    return sum(scores) - sum(sorted(scores)[:k])


#: the place an absent round compares as (behind every place)
_BEHIND = 10**6


def _key(total: int, counts: Sequence[int], places: Sequence[int | None]) -> tuple[Any, ...]:
    """The order's key (smaller is better): points, the counts of places, the latest rounds' places."""
    return (-total, tuple(-c for c in counts), tuple(_BEHIND if p is None else p for p in reversed(places)))


def _positions(keys: Sequence[tuple[Any, ...]]) -> list[int]:
    """Each key's position: one more than the number of keys strictly better."""
    return [1 + sum(other < key for other in keys) for key in keys]


def _result(r: Round, driver: int) -> Finish | None:
    return next((f for f in r if f.driver == driver), None)


def table(rounds: Sequence[Round], points: PointsTable, options: Options = Options()) -> Standing:
    """The drivers' and the teams' table after ``rounds`` (see the module's description)."""
    drivers = sorted({f.driver for r in rounds for f in r})
    width = max((f.place for r in rounds for f in r if f.place is not None), default=0)
    lines: list[tuple[int, tuple[RoundScore, ...], tuple[int, ...], tuple[Any, ...]]] = []
    kept_by_round: dict[tuple[int, int], int] = {}
    for d in drivers:
        finishes = [_result(r, d) for r in rounds]
        scores = [score(f, points, options) for f in finishes]
        struck = dropped(scores, options.drop_worst)
        counts = [0] * width
        for f in finishes:
            if f is not None and f.scores and f.place is not None and f.place <= width:
                counts[f.place - 1] += 1
        shown = tuple(RoundScore(s, f.place if f else None, bool(f and f.autopilot), i in struck,
                                 bool(f and f.led and f.scores))
                      for i, (f, s) in enumerate(zip(finishes, scores, strict=True)))
        total = sum(s for i, s in enumerate(scores) if i not in struck)
        for i, s in enumerate(scores):
            kept_by_round[(d, i)] = 0 if i in struck else s
        places = [f.place if f is not None and f.scores else None for f in finishes]
        lines.append((d, shown, tuple(counts), _key(total, counts, places)))
    positions = _positions([line[3] for line in lines])
    rows = sorted((Row(d, pos, -key[0], shown, counts)
                   for (d, shown, counts, key), pos in zip(lines, positions, strict=True)),
                  key=lambda row: (row.position, row.driver))
    return Standing(tuple(rows), _teams(rounds, kept_by_round))


def _teams(rounds: Sequence[Round], kept: Mapping[tuple[int, int], int]) -> tuple[TeamRow, ...]:
    teams = sorted({f.team for r in rounds for f in r if f.team is not None})
    per: dict[int, list[int]] = {t: [0] * len(rounds) for t in teams}
    for i, r in enumerate(rounds):
        for f in r:
            if f.team is not None:
                per[f.team][i] += kept[(f.driver, i)]
    keys = [(-sum(per[t]), tuple(-s for s in reversed(per[t]))) for t in teams]
    positions = _positions(keys)
    return tuple(sorted((TeamRow(t, pos, sum(per[t]), tuple(per[t])) for t, pos in zip(teams, positions, strict=True)),
                        key=lambda row: (row.position, row.team)))


def changes(previous: Standing, current: Standing) -> dict[int, int | None]:
    """Each driver's move in the table: positions gained (negative: lost), None for a newcomer."""
    before = {r.driver: r.position for r in previous.rows}
    return {r.driver: (before[r.driver] - r.position if r.driver in before else None) for r in current.rows}


# What each needs ----------------------------------------------------------------------------------------


class Verdict(Enum):
    CHAMPION = "champion"  # no outcome of the rounds left lets anyone catch them
    OUT_OF_REACH = "out_of_reach"  # no outcome makes them champion
    OPEN = "open"  # some outcomes do, some don't
    UNDECIDED = "undecided"  # beyond the limits of trying every outcome, and the bounds decide nothing


@dataclass(frozen=True, slots=True)
class Need:
    """What a driver needs. For :attr:`Verdict.OPEN`: ``wins_all`` whether winning every round left surely
    makes them champion; with one round left, ``sure_place`` the worst place that with every better one
    surely makes them champion (None: no place does) and ``chance_places`` the places that make them
    champion for some finish of the others but not for all. For :attr:`Verdict.UNDECIDED` ``wins_all`` is
    True when a bound proves it, else None."""

    verdict: Verdict
    wins_all: bool | None = None
    sure_place: int | None = None
    chance_places: tuple[int, ...] = ()


def outcomes(field: int, rounds_left: int, lead_bonus: int) -> int:
    """How many outcomes of the rounds left there are for a field of ``field`` drivers."""
    each: int = factorial(field) * (field if lead_bonus else 1)
    return int(each ** max(rounds_left, 0))


def needs(rounds_done: Sequence[Round], rounds_left: int, points: PointsTable,
          options: Options = Options()) -> dict[int, Need]:
    """What each driver of the field (everyone in ``rounds_done``) needs from the ``rounds_left`` (see the
    module's description)."""
    field = sorted({f.driver for r in rounds_done for f in r})
    if not field:
        return {}
    if outcomes(len(field), rounds_left, options.lead_bonus) > MAX_OUTCOMES:
        return _bounded(rounds_done, field, rounds_left, points, options)
    return _enumerated(rounds_done, field, rounds_left, points, options)


def _base(rounds_done: Sequence[Round], field: Sequence[int], points: PointsTable, options: Options,
          width: int) -> dict[int, tuple[list[int], list[int], list[int | None]]]:
    """Per driver: its round scores, its counts of places and its places (None: absent) so far."""
    out = {}
    for d in field:
        finishes = [_result(r, d) for r in rounds_done]
        counts = [0] * width
        for f in finishes:
            if f is not None and f.scores and f.place is not None and f.place <= width:
                counts[f.place - 1] += 1
        out[d] = ([score(f, points, options) for f in finishes], counts,
                  [f.place if f is not None and f.scores else None for f in finishes])
    return out


def _enumerated(rounds_done: Sequence[Round], field: Sequence[int], rounds_left: int, points: PointsTable,
                options: Options) -> dict[int, Need]:
    n = len(field)
    width = max([n] + [f.place for r in rounds_done for f in r if f.place is not None])
    base = _base(rounds_done, field, points, options, width)
    leaders: Sequence[int | None] = list(field) if options.lead_bonus else [None]
    one_round = list(product(permutations(field), leaders))
    ever = dict.fromkeys(field, False)
    always = dict.fromkeys(field, True)
    wins_all = dict.fromkeys(field, True)
    at_place: dict[tuple[int, int], list[bool]] = {}  # (driver, place) → [ever champion, always champion]
    for outcome in product(one_round, repeat=rounds_left):
        keys = {}
        for d in field:
            scores, counts, places = base[d]
            scores, counts, places = list(scores), list(counts), list(places)
            for order, leader in outcome:
                place = order.index(d) + 1
                scores.append(points.of(place) + (options.lead_bonus if leader == d else 0))
                counts[place - 1] += 1
                places.append(place)
            keys[d] = _key(_kept(scores, options.drop_worst), counts, places)
        best = min(keys.values())
        champion = next(d for d in field if keys[d] == best) if list(keys.values()).count(best) == 1 else None
        for d in field:
            won = champion == d
            ever[d] |= won
            always[d] &= won
            if all(order[0] == d for order, _ in outcome):
                wins_all[d] &= won
            if rounds_left == 1:
                cell = at_place.setdefault((d, outcome[0][0].index(d) + 1), [False, True])
                cell[0] |= won
                cell[1] &= won
    out = {}
    for d in field:
        if always[d]:
            out[d] = Need(Verdict.CHAMPION)
        elif not ever[d]:
            out[d] = Need(Verdict.OUT_OF_REACH)
        elif rounds_left != 1:
            out[d] = Need(Verdict.OPEN, wins_all[d])
        else:
            sure = 0
            while sure < n and at_place[(d, sure + 1)][1]:
                sure += 1
            chances = tuple(p for p in range(1, n + 1) if at_place[(d, p)][0] and not at_place[(d, p)][1])
            out[d] = Need(Verdict.OPEN, wins_all[d], sure or None, chances)
    return out


def _bounded(rounds_done: Sequence[Round], field: Sequence[int], rounds_left: int, points: PointsTable,
             options: Options) -> dict[int, Need]:
    n = len(field)
    scores = {d: [score(_result(r, d), points, options) for r in rounds_done] for d in field}
    top, last = points.of(1) + options.lead_bonus, points.of(n)

    def total(d: int, each: int) -> int:
        return _kept(scores[d] + [each] * rounds_left, options.drop_worst)

    worst = {d: total(d, last) for d in field}
    best = {d: total(d, top) for d in field}
    second = {d: total(d, points.of(2) + options.lead_bonus) for d in field}
    out = {}
    for d in field:
        others = [o for o in field if o != d]
        if all(worst[d] > best[o] for o in others):
            out[d] = Need(Verdict.CHAMPION)
        elif any(best[d] < worst[o] for o in others):
            out[d] = Need(Verdict.OUT_OF_REACH)
        else:
            sure = rounds_left > 0 and all(total(d, points.of(1)) > second[o] for o in others)
            out[d] = Need(Verdict.UNDECIDED, True if sure else None)
    return out


def needs_text(need: Need, lang: str = texts.DEFAULT) -> str:
    """What a :class:`Need` says, in ``lang``: one line per thing it knows."""
    if need.verdict is Verdict.CHAMPION:
        return texts.say("championship.need.champion", lang)
    if need.verdict is Verdict.OUT_OF_REACH:
        return texts.say("championship.need.out_of_reach", lang)
    lines = []
    if need.verdict is Verdict.UNDECIDED:
        lines.append(texts.say("championship.need.undecided", lang))
    if need.wins_all is True:
        lines.append(texts.say("championship.need.wins_all", lang))
    elif need.wins_all is False:
        lines.append(texts.say("championship.need.wins_not_enough", lang))
    if need.sure_place is not None:
        lines.append(texts.say("championship.need.sure_place", lang, place=texts.ordinal(need.sure_place, lang)))
    if need.chance_places:
        lines.append(texts.say("championship.need.chance_places", lang,
                               places=", ".join(texts.ordinal(p, lang) for p in need.chance_places)))
    return "\n".join(lines)


__all__ = ["MAX_OUTCOMES", "MAX_PLACES", "BadPoints", "Finish", "Need", "Options", "PointsTable", "Round",
           "RoundScore", "Row", "Standing", "TeamRow", "Verdict", "bonus_driver", "changes", "dropped", "laps_led",
           "needs", "needs_text", "outcomes", "score", "table"]
