"""A player who was away never gains rating: Junkyard Races played to the end through the offline Discord stack
with one player on ``/game away`` from the start (the autopilot plays every one of their turns), and the
arithmetic over any finishing order with away seats, teams and computers
(bot/standing/ratings.py, bot/standing/ladder.py).

The rule (ARCHITECTURE.md, "Ratings"): a seat the autopilot played mostly is a loss for its person, and the
others are rated among the people who played only, that seat and the computers left out. A teammate who
played stays on their team's side, alone, at the place of the best seat played on it: the absent seat's own
place does not count for the team, but a place the game gives the team as a whole (Races: a winning team
shares first place) is the teammate's as well.
"""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.drivers import driver_for
from bot.standing import ladder
from bot.standing.ratings import Entry, Skill, rate
from bot.store import EVERLASTING, Result
from tests.bot.harness import CHANNEL_ID, DiscordHarness
from tests.bot.helpers import ANN, BOB, EVE, MOD, USERS, answer
from tests.bot.timing_helpers import Clock, later, timed_bot

# Through the bot --------------------------------------------------------------------------------------


async def away_race(db_path, seed: int, kind: str) -> tuple[list[Result], dict[int, tuple[Skill, Skill]]]:
    """A one-lap race on track A (new games seeded from ``seed``): Ann, Bob and Eve, and for ``kind``
    "computer" a smart computer, for "teams" Mod too (Ann and Eve team 1, Bob and Mod team 2). Eve goes away
    before the start; the others play the smart driver's move by ``/game play``. The game's result rows and
    each person's (before, after) skill in the everlasting season."""
    clock = Clock()
    bot = timed_bot(db_path, clock)
    seeds = itertools.count(seed)
    bot.service.seed_source = lambda: next(seeds)
    async with DiscordHarness(bot) as h:
        h.users.update(USERS)
        teams = kind == "teams"
        answer(await h.slash(ANN, "game new", game="races", track="A", laps=1, **({"teams": True} if teams else {})))
        for user, colour, team in ((ANN, "red", 1), (BOB, "blue", 2), (EVE, "green", 1)) + (
                ((MOD, "yellow", 2),) if teams else ()):
            answer(await h.slash(user, "game join", colour=colour, **({"team": team} if teams else {})))
        if kind == "computer":
            await h.slash(ANN, "game computer", kind="smart")
        answer(await h.slash(EVE, "game away"))
        await h.slash(ANN, "game start")
        rec = await h.bot.store.games.channel_game(CHANNEL_ID)
        assert rec is not None
        for _ in range(2000):
            await later(h, clock, 0)  # the ticker plays Eve's turn at once
            rec = await h.bot.store.games.get_game(rec.id)
            if rec.status != "active":
                break
            game = await h.bot.service.load(rec)
            seat = rec.seats[game.to_act]
            if seat.user_id in (EVE,) or seat.is_computer:
                continue
            action = str(driver_for("races", "smart", seed * 100 + rec.version).choose(game, game.to_act))
            await h.slash(seat.user_id, "game play", action=action)
        assert rec.status == "finished"
        eve = [a for a in await h.bot.store.games.actions(rec.id) if a.user_id == EVE]
        # she pressed nothing: the autopilot played her moves, her only moves played themselves
        assert eve and not any(a.narration.startswith("Eve (green)") for a in eve)
        assert any(a.narration.startswith("**Autopilot** for Eve") for a in eve)
        rows = await h.bot.store.standings.results(game_id=rec.id)
        moved = {c.user_id: (Skill(c.mu_before, c.sigma_before), Skill(c.mu, c.sigma))
                 for c in await h.bot.store.standings.game_changes(rec.id) if c.season_id == EVERLASTING}
        rebuilt_before = await h.bot.store.standings.ratings(rec.guild_id or 0, "races")
        assert await ladder.rebuild(h.bot.store, rec.guild_id or 0) == 1
        rebuilt = await h.bot.store.standings.ratings(rec.guild_id or 0, "races")
        assert [(r.user_id, round(r.mu, 9), round(r.sigma, 9), r.wins) for r in rebuilt] == \
            [(r.user_id, round(r.mu, 9), round(r.sigma, 9), r.wins) for r in rebuilt_before]
        return rows, moved


def people_only(rows: list[Result]) -> list[Entry]:
    """The entries of the people who played a game: its absent seats and computers left out."""
    return [Entry(r.user_id, r.place, r.team) for r in rows
            if ladder.kind_of(r) is None and not 2 * r.autopilot > r.turns]


@pytest.mark.parametrize(("seed", "kind", "eve_place"), [
    (2001, "plain", 1),      # the autopilot drove Eve's kart to the win
    (1, "plain", 3),
    (2001, "computer", 2),   # beside a smart computer, which is left out
    (3001, "teams", 1),      # Eve's team won: Ann, her teammate, played
    (1, "teams", 3),
])
async def test_an_away_player_whose_every_move_the_autopilot_played_loses_and_the_others_are_rated_alone(
        db_path, seed, kind, eve_place):
    """Junkyard Races, one lap of track A: Eve is away from the start. Whatever her kart's place, her rating
    falls (mean and the number shown), her win is not counted, and Ann's and Bob's (and Mod's) new ratings
    are those of the people who played rated among themselves."""
    rows, moved = await away_race(db_path, seed, kind)
    eve = next(r for r in rows if r.user_id == EVE)
    assert eve.place == eve_place and eve.turns > 0 and 2 * eve.autopilot > eve.turns
    before, after = moved[EVE]
    assert after.mu < before.mu and after.shown < before.shown
    alone = rate(people_only(rows), {})
    assert set(moved) == {*alone, EVE}
    for user, skill in alone.items():
        assert math.isclose(moved[user][1].mu, skill.mu, abs_tol=1e-9)
        assert math.isclose(moved[user][1].sigma, skill.sigma, abs_tol=1e-9)
    if kind == "teams" and eve_place == 1:
        assert moved[ANN][1].mu > 25.0  # the teammate who played keeps the team's shared first place


# The arithmetic, over any finishing order -------------------------------------------------------------


@st.composite
def games(draw: st.DrawFn) -> tuple[list[Entry], dict[int, Skill]]:
    """A finished game of 2–8 seats: people (some away) and computers, places with ties, sometimes teams;
    the people's current skills, some of them new players."""
    size = draw(st.integers(2, 8))
    teams = draw(st.booleans())
    entries, skills = [], {}
    for seat in range(size):
        place = draw(st.integers(1, size))
        team = draw(st.sampled_from([1, 2, 3])) if teams else None
        if draw(st.integers(0, 4)) == 0:
            entries.append(Entry(-1 - seat, place, team, driver=draw(st.sampled_from(["smart", "random", "x"]))))
            continue
        who = 10 + seat
        entries.append(Entry(who, place, team, absent=draw(st.integers(0, 2)) == 0))
        if draw(st.booleans()):
            skills[who] = Skill(draw(st.floats(-20.0, 60.0)), draw(st.floats(0.3, 25.0 / 3.0)))
    if draw(st.booleans()):  # an away seat across the line first
        first = draw(st.integers(0, size - 1))
        if entries[first].person:
            e = entries[first]
            entries[first] = Entry(e.who, 1, e.team, absent=True)
    return entries, skills


@settings(max_examples=300, deadline=None)
@given(games())
def test_an_away_person_never_rises_and_the_others_are_rated_as_the_people_who_played_among_themselves(
        game: tuple[list[Entry], dict[int, Skill]]) -> None:
    """Any order, with away seats (the first across the line among them), teams and computers: each away
    person's mean and shown rating do not rise; the others' equal rating the people who played alone."""
    entries, skills = game
    new = rate(entries, skills)
    for e in entries:
        if e.person and e.absent and e.who in new:
            old = skills.get(e.who, Skill())
            assert new[e.who].mu < old.mu and new[e.who].shown <= old.shown
    if not any(e.person and e.absent for e in entries):
        return
    played = [Entry(e.who, e.place, e.team) for e in entries if e.person and not e.absent]
    alone = rate(played, skills)
    assert {e.who for e in played if e.who in new} == set(alone)
    for who, skill in alone.items():
        assert math.isclose(new[who].mu, skill.mu, abs_tol=1e-9)
        assert math.isclose(new[who].sigma, skill.sigma, abs_tol=1e-9)


def test_a_team_with_one_away_member_rates_the_teammate_alone_at_the_team_s_place() -> None:
    """Races team racing, four karts: Ann and Eve are team 1, Bob and Mod team 2; Eve is away. Team 1 won
    (both share first place): Ann, who played, is rated as a side of one that beat team 2; Eve loses. Team 1
    lost with Eve's kart ahead of Ann's: Ann's side is placed by her own kart, behind team 2."""
    a, b, e, m = 1, 2, 3, 4
    won = rate([Entry(a, 1, 1), Entry(b, 3, 2), Entry(e, 1, 1, absent=True), Entry(m, 4, 2)], {})
    assert won == {**rate([Entry(a, 1, 1), Entry(b, 3, 2), Entry(m, 4, 2)], {}), e: won[e]}
    assert won[a].mu > 25.0 > won[b].mu and won[e].mu < 25.0 and won[e].shown < 1000
    lost = rate([Entry(a, 4, 1), Entry(b, 1, 2), Entry(e, 2, 1, absent=True), Entry(m, 3, 2)], {})
    assert lost[a].mu < 25.0 < lost[b].mu and lost[e].mu < 25.0
