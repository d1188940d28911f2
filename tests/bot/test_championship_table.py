"""A championship's table and what each driver needs (bot.standing.championship), checked against a plain
reference written here on its own: points per place, dropped worst rounds, autopilot rounds scoring
nothing, the countback of places and the latest rounds, and every finishing order of the rounds left."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.standing.championship import (
    BadPoints,
    Finish,
    Need,
    Options,
    PointsTable,
    Round,
    Verdict,
    changes,
    needs,
    needs_text,
    table,
)

# The reference ---------------------------------------------------------------------------------------


def ref_score(f: Finish | None, pts: Sequence[int], bonus: int) -> int:
    if f is None or f.place is None or f.autopilot:
        return 0
    base = pts[f.place - 1] if f.place <= len(pts) else 0
    return base + (bonus if f.led else 0)


def ref_lines(rounds: Sequence[Round], pts: Sequence[int], drop: int, bonus: int) -> dict[int, dict[str, object]]:
    """Per driver: its scores, the indices struck, its total, its places in person (None otherwise)."""
    out: dict[int, dict[str, object]] = {}
    for d in sorted({f.driver for r in rounds for f in r}):
        finishes = [next((f for f in r if f.driver == d), None) for r in rounds]
        scores = [ref_score(f, pts, bonus) for f in finishes]
        k = min(drop, len(scores) - 1)
        order = sorted(range(len(scores)), key=lambda i: (scores[i], i))
        struck = set(order[:k])
        places = [f.place if f is not None and f.place is not None and not f.autopilot else None for f in finishes]
        out[d] = {"scores": scores, "struck": struck, "places": places,
                  "total": sum(s for i, s in enumerate(scores) if i not in struck)}
    return out


def ref_compare(a: dict[str, object], b: dict[str, object]) -> int:
    """Negative when ``a`` is ahead of ``b``, 0 when they are level on everything."""
    ta, tb = a["total"], b["total"]
    assert isinstance(ta, int) and isinstance(tb, int)
    if ta != tb:
        return -1 if ta > tb else 1
    pa, pb = a["places"], b["places"]
    assert isinstance(pa, list) and isinstance(pb, list)
    for place in range(1, 30):
        ca, cb = pa.count(place), pb.count(place)
        if ca != cb:
            return -1 if ca > cb else 1
    for x, y in zip(reversed(pa), reversed(pb), strict=True):
        if x != y:
            if x is None:
                return 1
            if y is None:
                return -1
            return -1 if x < y else 1
    return 0


def ref_champion(rounds: Sequence[Round], pts: Sequence[int], drop: int, bonus: int) -> int | None:
    lines = ref_lines(rounds, pts, drop, bonus)
    for d, line in lines.items():
        if all(ref_compare(line, other) < 0 for o, other in lines.items() if o != d):
            return d
    return None


# Strategies ------------------------------------------------------------------------------------------

PRESETS = [PointsTable.formula_one(), PointsTable.cup(), PointsTable.n_to_one(3), PointsTable.n_to_one(5)]


@st.composite
def points_tables(draw: st.DrawFn) -> PointsTable:
    if draw(st.booleans()):
        return draw(st.sampled_from(PRESETS))
    values = draw(st.lists(st.integers(0, 12), min_size=1, max_size=6))
    return PointsTable.own(sorted(values, reverse=True))


@st.composite
def a_round(draw: st.DrawFn, drivers: int, gaps: bool = True) -> list[Finish]:
    order = draw(st.permutations(range(1, drivers + 1)))
    present = [d for d in order if not gaps or draw(st.integers(0, 5)) > 0]
    leader = draw(st.sampled_from([None, *present]))
    out = [Finish(d, place, autopilot=gaps and draw(st.integers(0, 5)) == 0,
                  team=draw(st.sampled_from([None, 1, 2])), led=d == leader)
           for place, d in enumerate(present, start=1)]
    out += [Finish(d, None) for d in order if d not in present and draw(st.booleans())]
    return out


@st.composite
def seasons(draw: st.DrawFn, most_drivers: int = 5, most_rounds: int = 4,
            gaps: bool = True) -> tuple[list[list[Finish]], PointsTable, Options]:
    n = draw(st.integers(2, most_drivers))
    rounds = draw(st.lists(a_round(n, gaps), min_size=1, max_size=most_rounds))
    return rounds, draw(points_tables()), Options(draw(st.integers(0, 3)), draw(st.sampled_from([0, 0, 1, 3])))


# Properties ------------------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(seasons())
def test_totals_drops_and_order_agree_with_the_reference(
        season: tuple[list[list[Finish]], PointsTable, Options]) -> None:
    rounds, points, options = season
    standing = table(rounds, points, options)
    ref = ref_lines(rounds, points.points, options.drop_worst, options.lead_bonus)
    assert sorted(r.driver for r in standing.rows) == sorted(ref)
    for row in standing.rows:
        line = ref[row.driver]
        kept = [s.points for s in row.rounds if not s.dropped]
        struck = [s.points for s in row.rounds if s.dropped]
        assert row.points == sum(kept) == line["total"]
        assert [s.points for s in row.rounds] == line["scores"]
        # the dropped results are the worst ones, as many as asked (one round always counts)
        assert len(struck) == min(options.drop_worst, len(rounds) - 1)
        assert not struck or not kept or max(struck) <= min(kept)
    for a, b in zip(standing.rows, standing.rows[1:], strict=False):
        c = ref_compare(ref[a.driver], ref[b.driver])
        assert c <= 0
        assert (a.position == b.position) == (c == 0)
    for row in standing.rows:
        assert row.position == 1 + sum(ref_compare(ref[o], ref[row.driver]) < 0 for o in ref)
    # a team's points are its drivers' kept points in the rounds they drove for it
    for team in standing.teams:
        expected = [sum(s.points for f in r if f.team == team.team
                        for s in [next(x for x in standing.rows if x.driver == f.driver).rounds[i]] if not s.dropped)
                    for i, r in enumerate(rounds)]
        assert list(team.rounds) == expected and team.points == sum(expected)


@st.composite
def contests(draw: st.DrawFn) -> tuple[list[list[Finish]], int, PointsTable, Options]:
    rounds, points, options = draw(seasons(most_drivers=4, most_rounds=3))
    field = {f.driver for r in rounds for f in r}
    left = draw(st.integers(0 if len(field) < 4 else 1, 2))
    if len(field) == 4 and left == 2 and options.lead_bonus:
        left = 1
    return rounds, left, points, options


def brute_needs(rounds: list[list[Finish]], left: int, points: PointsTable, options: Options) -> dict[int, Need]:
    """Every finishing order of the field in each round left (and each leader with a bonus), each tabled by
    the reference."""
    field = sorted({f.driver for r in rounds for f in r})
    leaders: list[int | None] = list(field) if options.lead_bonus else [None]
    runs: list[tuple[tuple[tuple[int, ...], int | None], ...]] = list(
        product(product(permutations(field), leaders), repeat=left))
    champs = [ref_champion(rounds + [[Finish(d, i + 1, led=d == lead) for i, d in enumerate(order)]
                                     for order, lead in run], points.points, options.drop_worst, options.lead_bonus)
              for run in runs]
    out = {}
    for d in field:
        won = [c == d for c in champs]
        if all(won):
            out[d] = Need(Verdict.CHAMPION)
        elif not any(won):
            out[d] = Need(Verdict.OUT_OF_REACH)
        else:
            wins_all = all(w for w, run in zip(won, runs, strict=True) if all(o[0] == d for o, _ in run))
            if left != 1:
                out[d] = Need(Verdict.OPEN, wins_all)
                continue
            by_place = {p: [w for w, run in zip(won, runs, strict=True) if run[0][0].index(d) + 1 == p]
                        for p in range(1, len(field) + 1)}
            sure = 0
            while sure < len(field) and all(by_place[sure + 1]):
                sure += 1
            chances = tuple(p for p, ws in by_place.items() if any(ws) and not all(ws))
            out[d] = Need(Verdict.OPEN, wins_all, sure or None, chances)
    return out


@settings(max_examples=150, deadline=None)
@given(contests())
def test_what_each_needs_agrees_with_every_finishing_order(
        contest: tuple[list[list[Finish]], int, PointsTable, Options]) -> None:
    rounds, left, points, options = contest
    assert needs(rounds, left, points, options) == brute_needs(rounds, left, points, options)


@settings(max_examples=100, deadline=None)
@given(seasons(most_drivers=5, most_rounds=3), st.integers(0, 3))
def test_the_bounds_beyond_enumeration_are_never_wrong(
        season: tuple[list[list[Finish]], PointsTable, Options], left: int) -> None:
    """Beyond :data:`MAX_OUTCOMES` a verdict the bounds give agrees with the exact one (worked out here with
    the limit lifted on a field small enough to enumerate)."""
    rounds, points, options = season
    field = {f.driver for r in rounds for f in r}
    if len(field) > 3:
        left = min(left, 1)
    import bot.standing.championship as championship
    exact = needs(rounds, left, points, options)
    saved = championship.MAX_OUTCOMES
    championship.MAX_OUTCOMES = 0
    try:
        bounded = needs(rounds, left, points, options)
    finally:
        championship.MAX_OUTCOMES = saved
    for d, need in bounded.items():
        if need.verdict is Verdict.UNDECIDED:
            if need.wins_all:
                assert exact[d].verdict is Verdict.CHAMPION or exact[d].wins_all is True
        else:
            assert need.verdict is exact[d].verdict


# Examples --------------------------------------------------------------------------------------------

F1 = PointsTable.formula_one()


def race(*order: int, led: int | None = None, teams: dict[int, int] | None = None,
         autopilot: frozenset[int] = frozenset()) -> list[Finish]:
    return [Finish(d, i, autopilot=d in autopilot, team=(teams or {}).get(d), led=d == led)
            for i, d in enumerate(order, start=1)]


def test_formula_one_points_over_three_rounds_a_tie_goes_to_more_wins() -> None:
    """F1 over three rounds of ten: driver 1 is 1st, 2nd, 10th (25 + 18 + 1 = 44), driver 2 is 2nd, 6th,
    2nd (18 + 8 + 18 = 44). Level on points, driver 1's win puts it ahead, although driver 2 was better in
    the latest round."""
    rounds = [race(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), race(3, 1, 4, 5, 6, 2, 7, 8, 9, 10),
              race(3, 2, 4, 5, 6, 7, 8, 9, 10, 1)]
    rows = {r.driver: r for r in table(rounds, F1).rows}
    assert rows[1].points == rows[2].points == 44
    assert rows[1].places[0] == 1 and rows[2].places[0] == 0
    assert rows[1].position < rows[2].position
    assert rows[3].position == 1 and rows[3].points == 15 + 25 + 25


def test_level_on_points_and_places_the_latest_round_decides() -> None:
    """Driver 1: 1st then 2nd; driver 2: 2nd then 1st (43 each, one win and one second each): driver 2 won
    the latest round and is ahead; with one more round where both are absent it still is."""
    rows = {r.driver: r for r in table([race(1, 2), race(2, 1)], F1).rows}
    assert (rows[2].position, rows[1].position) == (1, 2)
    rows = {r.driver: r for r in table([race(1, 2), race(2, 1), race(3)], F1).rows}
    assert (rows[2].position, rows[1].position) == (1, 2)


def test_drivers_level_on_everything_share_their_position() -> None:
    standing = table([race(1, 2), [Finish(3, None)]], F1)
    assert [(r.driver, r.position) for r in standing.rows] == [(1, 1), (2, 2), (3, 3)]
    standing = table([[Finish(1, 1, autopilot=True), Finish(2, 2, autopilot=True)]], F1)
    assert [r.position for r in standing.rows] == [1, 1]


def test_a_dropped_worst_round_does_not_count() -> None:
    rounds = [race(1, 2), race(2, 1), race(2, 1)]
    standing = table(rounds, F1, Options(drop_worst=1))
    one = standing.row(1)
    assert one is not None
    assert [s.dropped for s in one.rounds] == [False, True, False]
    assert one.points == 25 + 18


def test_an_autopilot_round_scores_nothing_but_shows() -> None:
    """Driver 1 won round 2 with the autopilot playing most of its turns: 0 points, place still shown, and
    the win does not count for the countback."""
    rounds = [race(2, 1), race(1, 2, autopilot=frozenset({1}))]
    one = table(rounds, F1).row(1)
    assert one is not None
    assert [s.points for s in one.rounds] == [18, 0]
    assert one.rounds[1].place == 1 and one.rounds[1].autopilot
    assert one.places[0] == 0


def test_a_team_scores_its_drivers_kept_points_per_round() -> None:
    teams = {1: 7, 2: 8, 3: 7, 4: 8}
    rounds = [race(1, 2, 3, 4, teams=teams), race(2, 4, 1, 3, teams=teams)]
    by_team = {t.team: t for t in table(rounds, F1).teams}
    assert by_team[7].rounds == (25 + 15, 15 + 12) and by_team[7].points == 67
    assert by_team[8].rounds == (18 + 12, 25 + 18) and by_team[8].points == 73
    assert by_team[8].position == 1 and by_team[7].position == 2


def test_the_lead_bonus_goes_to_who_led_most_laps() -> None:
    row = table([race(1, 2, led=2)], F1, Options(lead_bonus=1)).row(2)
    assert row is not None and row.points == 19 and row.rounds[0].led


def test_changes_after_a_round() -> None:
    first = table([race(1, 2, 3)], F1)
    second = table([race(1, 2, 3), race(3, 2, 1), race(3, 4, 1)], F1)
    assert changes(first, second) == {3: 2, 1: -1, 2: -1, 4: None}


def test_needs_with_one_round_left() -> None:
    """F1, one round done (1-2-3: 25, 18, 15), one left. Driver 1 is surely champion as winner (50); as 2nd
    (43) only if driver 2 does not win (43 each, one win and one second each, and driver 2 won the latest);
    as 3rd (40) never (driver 3 or 2 wins and is ahead). Driver 2 wins it by winning (43, the latest round
    decides against driver 1). Driver 3 only by winning while driver 1 is 3rd (40 each, latest round)."""
    result = needs([race(1, 2, 3)], 1, F1)
    assert result[1] == Need(Verdict.OPEN, True, 1, (2,))
    assert result[2] == Need(Verdict.OPEN, True, 1, ())
    assert result[3] == Need(Verdict.OPEN, False, None, (1,))
    assert "1st" in needs_text(result[1], "en") and "2." in needs_text(result[1], "de")
    assert "not enough" in needs_text(result[3], "en")
    # two rounds done (50, 36, 30, 24): driver 1's worst, 62, beats driver 2's best, 61
    two = needs([race(1, 2, 3, 4), race(1, 2, 3, 4)], 1, F1)
    assert two[1] == Need(Verdict.CHAMPION)
    assert {two[d].verdict for d in (2, 3, 4)} == {Verdict.OUT_OF_REACH}
    assert needs([race(1, 2, 3)], 0, F1)[1] == Need(Verdict.CHAMPION)


def test_needs_beyond_enumeration_uses_sound_bounds() -> None:
    """Eight drivers are too many orders to try (8! > MAX_OUTCOMES). After four F1 rounds finished 1 to 8
    (100, 72, 60, …, 16): with one round left driver 1's worst (104) beats driver 2's best (97); with three
    left driver 8's best (91) falls short of driver 1's worst (112), and driver 1 is undecided (driver 2 can
    reach 147) though winning all three surely makes it champion."""
    rounds = [race(1, 2, 3, 4, 5, 6, 7, 8)] * 4
    assert needs(rounds, 1, F1)[1] == Need(Verdict.CHAMPION)
    three = needs(rounds, 3, F1)
    assert three[8] == Need(Verdict.OUT_OF_REACH)
    assert three[1] == Need(Verdict.UNDECIDED, True)
    assert three[2] == Need(Verdict.UNDECIDED, None)
    assert needs_text(three[1], "de").count("\n") == 1


@pytest.mark.parametrize("values, msg", [
    ([], "championship.points.empty"),
    ([3, 5], "championship.points.rising"),
    ([3, -1], "championship.points.not_whole"),
    ([3, 1.5], "championship.points.not_whole"),
    (list(range(21, 0, -1)), "championship.points.too_long"),
])
def test_a_bad_points_list_is_refused_with_its_reason(values: list[object], msg: str) -> None:
    with pytest.raises(BadPoints) as caught:
        PointsTable.own(values)
    assert caught.value.msg == msg
    assert caught.value.say("de") != str(caught.value)


def test_the_presets() -> None:
    assert PointsTable.formula_one().points == (25, 18, 15, 12, 10, 8, 6, 4, 2, 1)
    assert PointsTable.cup().of(12) == 1 and PointsTable.cup().of(13) == 0
    assert PointsTable.n_to_one(4).points == (4, 3, 2, 1)
