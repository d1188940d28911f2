"""The championship table after a round, drawn (bot/standing/championship_picture.py and render/championship):
its size for the chat, a description that names the leader, their points and every row in order in the
reader's language, the moves since the round before, the contenders' needs, and the champions crowned."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.standing.championship import Finish, Options, PointsTable, Standing, needs, needs_text, table
from bot.standing.championship_picture import draw_table, picture_table
from render.championship import DESCRIPTION_LIMIT, WIDTH, Move, Pictured

F1 = PointsTable.formula_one()
NAMES = {1: "Ann", 2: "Björn", 3: "Zoë", 4: "**Max_the_Mad**"}


def race(*order: int, teams: dict[int, int] | None = None) -> list[Finish]:
    return [Finish(d, i, team=(teams or {}).get(d)) for i, d in enumerate(order, start=1)]


def season(drivers: int, rounds: int, seed: int = 11) -> list[list[Finish]]:
    """``rounds`` shuffled finishes of ``drivers`` drivers in five teams (driver d in team d % 5)."""
    rng = random.Random(seed)
    out = []
    for _ in range(rounds):
        order = list(range(1, drivers + 1))
        rng.shuffle(order)
        out.append([Finish(d, i, team=d % 5) for i, d in enumerate(order, start=1)])
    return out


def twenty(lang: str) -> tuple[Standing, Pictured]:
    rounds = season(20, 10)
    options = Options(drop_worst=2)
    standing = table(rounds, F1, options)
    drawn = draw_table(standing, title="Autumn Cup", round_no=10, rounds=12,
                       names={d: f"Driver number {d:02d}" for d in range(1, 21)},
                       previous=table(rounds[:-1], F1, options), needs=needs(rounds, 2, F1, options),
                       team_names={t: f"Team {t}" for t in range(5)}, lang=lang)
    return standing, drawn


def size(png: bytes) -> tuple[int, int]:
    return Image.open(io.BytesIO(png)).size


@pytest.mark.parametrize("lang, leader", [("en", "**Max_the_Mad** leads with 25 points"),
                                          ("de", "**Max_the_Mad** führt mit 25 Punkten")])
def test_four_drivers_after_one_round(lang: str, leader: str) -> None:
    """One F1 round finished 4-1-2-3: a low picture the chat's width, the description names the leader with
    their points and then every driver in table order."""
    drawn = draw_table(table([race(4, 1, 2, 3)], F1), title="Cup", round_no=1, rounds=6, names=NAMES, lang=lang)
    width, height = size(drawn.png)
    assert width == WIDTH and 250 <= height <= 600
    text = drawn.description
    assert leader in text
    spots = [text.index(f"{i}. {NAMES[d]}") for i, d in enumerate((4, 1, 2, 3), start=1)]
    assert spots == sorted(spots)
    assert ("after round 1 of 6" in text) == (lang == "en") and ("nach Lauf 1 von 6" in text) == (lang == "de")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_twenty_drivers_after_ten_rounds_with_teams_and_drops(lang: str) -> None:
    """Twenty drivers, ten of twelve rounds, two worst rounds dropped, five teams: the picture is tall but
    the chat's width, and the description names every driver in order within Discord's limit."""
    standing, drawn = twenty(lang)
    width, height = size(drawn.png)
    assert width == WIDTH and 1000 <= height <= 1900
    text = drawn.description
    assert len(text) <= DESCRIPTION_LIMIT
    spots = [text.index(f"{row.position}. Driver number {row.driver:02d}") for row in standing.rows]
    assert spots == sorted(spots)
    leader = standing.rows[0]
    assert f"Driver number {leader.driver:02d} {'leads with' if lang == 'en' else 'führt mit'} {leader.points} " \
        in text


def test_the_value_carries_moves_drops_teams_and_the_needs_of_contenders_only() -> None:
    """F1: round 1 finished 1-2-3-4, round 2 4-3-2-1 (teams 7: drivers 1, 3; 8: drivers 2, 4), one worst round
    dropped, one round left. Driver 4 climbs from 4th, driver 1 falls; each driver's worse round is struck;
    the needs listed are those of drivers who can still be champion, worded as the standing's needs_text."""
    teams = {1: 7, 3: 7, 2: 8, 4: 8}
    rounds = [race(1, 2, 3, 4, teams=teams), race(4, 3, 2, 1, teams=teams)]
    options = Options(drop_worst=1)
    standing = table(rounds, F1, options)
    found = needs(rounds, 1, F1, options)
    value = picture_table(standing, title="Cup", round_no=2, rounds=3, names=NAMES,
                          previous=table(rounds[:1], F1, options), needs=found, team_names={7: "Red", 8: "Blue"})
    by_name = {d.name: d for d in value.drivers}
    assert by_name["**Max_the_Mad**"].move is Move.UP and by_name["**Max_the_Mad**"].by == 3
    assert by_name["Ann"].move is Move.DOWN
    assert all(sum(c.dropped for c in d.rounds) == 1 for d in value.drivers)
    colours = {7: "Red", 8: "Blue"}
    assert [(t.name, t.points, t.rounds) for t in value.teams] == [(colours[t.team], t.points, t.rounds)
                                                                   for t in standing.teams]
    contenders = [NAMES[r.driver] for r in standing.rows if found[r.driver].verdict.value != "out_of_reach"]
    assert [n.name for n in value.needs] == contenders
    assert all(n.need == needs_text(found[d], "en") for d, n in
               zip([r.driver for r in standing.rows if NAMES[r.driver] in contenders], value.needs, strict=True))
    assert not value.final and not any(d.champion for d in value.drivers)


@pytest.mark.parametrize("lang, word", [("en", "Champion: Ann"), ("de", "Meister: Ann")])
def test_the_final_table_crowns_its_champions(lang: str, word: str) -> None:
    """F1, the last of two rounds run (1-2-3, then 1-3-2; teams 5: drivers 1, 2; 6: driver 3): driver 1 is
    champion and team 5 team champion; the description says so and no needs are listed."""
    teams = {1: 5, 2: 5, 3: 6}
    rounds = [race(1, 2, 3, teams=teams), race(1, 3, 2, teams=teams)]
    standing = table(rounds, F1)
    value = picture_table(standing, title="Cup", round_no=2, rounds=2, names=NAMES, previous=table(rounds[:1], F1),
                          needs=needs(rounds, 0, F1), team_names={5: "Gold", 6: "Rust"}, lang=lang)
    assert value.final and [d.champion for d in value.drivers] == [True, False, False]
    assert [t.champion for t in value.teams] == [True, False] and value.needs == ()
    drawn = draw_table(standing, title="Cup", round_no=2, rounds=2, names=NAMES, lang=lang)
    assert word in drawn.description


def test_a_shared_lead_crowns_nobody_and_says_the_lead_is_shared() -> None:
    """Two drivers level on everything in the final table share first place: nobody is crowned."""
    standing = table([[Finish(1, 1, autopilot=True), Finish(2, 2, autopilot=True)]], F1)
    value = picture_table(standing, title="Cup", round_no=1, rounds=1, names=NAMES)
    assert not any(d.champion for d in value.drivers)
    drawn = draw_table(standing, title="Cup", round_no=1, rounds=1, names=NAMES)
    assert "Ann, Björn share the lead with 0 points" in drawn.description


def test_long_names_keep_the_description_within_the_limit_and_count_the_rest() -> None:
    """Twenty drivers with forty-character names: the rows do not all fit 1,024 characters, so as many as fit
    are named in order and the rest counted."""
    rounds = season(20, 3)
    standing = table(rounds, F1)
    names = {d: f"{d:02d} " + "Schrottplatzkönigin " * 2 for d in range(1, 21)}
    drawn = draw_table(standing, title="Cup", round_no=3, rounds=8, names=names)
    assert len(drawn.description) <= DESCRIPTION_LIMIT
    assert "more" in drawn.description
    assert names[standing.rows[0].driver].strip() in drawn.description
