"""The store's ratings and seasons on both backends: a rating is written over its predecessor only, the ladder
is ordered by the conservative rating, seasons start and end once, and a rebuild replaces a season whole."""

from __future__ import annotations

import pytest

from bot.store import EVERLASTING, Outgoing, Rating, RatingChange, Result, SeasonRunning, StaleRating
from tests.bot.test_store import started

GUILD = 5


def rating(user: int, mu: float, sigma: float, games: int, season: int = EVERLASTING, name: str = "") -> Rating:
    return Rating(GUILD, "toy", season, user, name or f"P{user}", mu, sigma, games, 0, games * 3, games * 2, 0,
                  60.0 * games, 2.0)


async def finished_game(store, channel: int = 100):
    rec, _ = await started(store, channel=channel, guild=GUILD)
    await store.games.set_status(rec.id, "finished")
    rows = [Result(rec.id, seat, user, f"P{user}", place, place == 1, 3, "toy", GUILD, channel, 1.0, 2.0,
                   turns=3, timed=2, missed=1 if user == 2 else 0, think=90.0)
            for seat, user, place in ((0, 1, 1), (1, 2, 2))]
    return rec, rows


async def test_a_game_s_ratings_and_changes_are_stored_with_its_results(any_store):
    rec, rows = await finished_game(any_store)
    change = RatingChange(rec.id, EVERLASTING, 1, GUILD, "toy", 25.0, 8.3, 27.6, 8.0, 2.0)
    end = Outgoing({"lines": ["end"]})
    assert await any_store.standings.record_results(rec.id, rows, [end], [rating(1, 27.6, 8.0, 1),
                                                                          rating(2, 22.4, 8.0, 1)], [change])
    got = await any_store.standings.results(game_id=rec.id)
    assert {(r.user_id, r.turns, r.timed, r.missed, r.think) for r in got} == {(1, 3, 2, 0, 90.0), (2, 3, 2, 1, 90.0)}
    assert [r.user_id for r in await any_store.standings.ratings(GUILD, "toy")] == [1, 2]
    assert await any_store.standings.game_changes(rec.id) == [change]
    assert await any_store.standings.rating_history(GUILD, "toy", EVERLASTING, 1) == [change]


async def test_a_rating_that_moved_meanwhile_writes_nothing_of_the_game(any_store):
    first, rows = await finished_game(any_store, 100)
    assert await any_store.standings.record_results(first.id, rows, [], [rating(1, 27.0, 8.0, 1)])
    second, rows2 = await finished_game(any_store, 101)
    rows2 = [Result(second.id, r.seat, r.user_id, r.name, r.place, r.winner, 3, "toy", GUILD, 101, 1.0, 2.0)
             for r in rows]
    with pytest.raises(StaleRating):  # read before the first game's write: claims to be a first game again
        await any_store.standings.record_results(second.id, rows2, [Outgoing({"x": 1})], [rating(1, 30.0, 7.0, 1)])
    assert await any_store.standings.results(game_id=second.id) == []
    assert [(r.mu, r.games) for r in await any_store.standings.ratings(GUILD, "toy")] == [(27.0, 1)]
    with pytest.raises(StaleRating):  # a successor of a game count that is not the stored one
        await any_store.standings.record_results(second.id, rows2, [], [rating(1, 30.0, 7.0, 3)])
    assert await any_store.standings.record_results(second.id, rows2, [], [rating(1, 30.0, 7.0, 2)])
    assert [(r.mu, r.games) for r in await any_store.standings.ratings(GUILD, "toy")] == [(30.0, 2)]


async def test_the_ladder_is_ordered_by_the_conservative_rating_not_the_mean(any_store):
    sure, unsure, low = rating(1, 28.0, 2.0, 9), rating(2, 32.0, 6.0, 2), rating(3, 20.0, 2.0, 9)
    other_game = Rating(GUILD, "races", EVERLASTING, 4, "P4", 40.0, 1.0, 3, 3, 0, 0, 0, 0.0, 1.0)
    await any_store.standings.replace_ratings(GUILD, EVERLASTING, [unsure, low, sure, other_game], [])
    assert [r.user_id for r in await any_store.standings.ratings(GUILD, "toy")] == [1, 3, 2]
    assert [r.user_id for r in await any_store.standings.ratings(GUILD, "toy", limit=1)] == [1]
    assert [r.user_id for r in await any_store.standings.ratings(GUILD, user_id=4)] == [4]
    assert await any_store.standings.ratings(GUILD + 1, "toy") == []


async def test_seasons_start_and_end_once_and_stay_readable(any_store):
    spring = await any_store.standings.start_season(GUILD, "Spring", at=10.0, by=7)
    with pytest.raises(SeasonRunning):
        await any_store.standings.start_season(GUILD, "Again", at=11.0, by=7)
    other = await any_store.standings.start_season(GUILD + 1, "Elsewhere", at=11.0, by=8)  # another server's
    ended = await any_store.standings.end_season(GUILD, at=20.0)
    assert ended is not None and ended.id == spring.id and ended.ended_at == 20.0
    assert await any_store.standings.end_season(GUILD, at=21.0) is None
    summer = await any_store.standings.start_season(GUILD, "Summer", at=30.0, by=7)
    assert [(s.name, s.ended_at) for s in await any_store.standings.seasons(GUILD)] == [("Summer", None),
                                                                                      ("Spring", 20.0)]
    assert ended.holds(10.0) and ended.holds(19.9) and not ended.holds(20.0) and not ended.holds(9.0)
    assert summer.holds(1e12) and other.id not in {spring.id, summer.id}


async def test_a_rebuild_replaces_one_season_of_one_server_whole(any_store):
    rec, _ = await finished_game(any_store)
    old = RatingChange(rec.id, 9, 1, GUILD, "toy", 25.0, 8.3, 20.0, 8.0, 2.0)
    await any_store.standings.replace_ratings(GUILD, 9, [rating(1, 20.0, 8.0, 1, 9), rating(2, 21.0, 8.0, 1, 9)],
                                              [old])
    await any_store.standings.replace_ratings(GUILD, EVERLASTING, [rating(1, 26.0, 8.0, 1)], [])
    new = RatingChange(rec.id, 9, 1, GUILD, "toy", 25.0, 8.3, 29.0, 7.0, 2.0)
    await any_store.standings.replace_ratings(GUILD, 9, [rating(1, 29.0, 7.0, 1, 9)], [new])
    assert [(r.user_id, r.mu) for r in await any_store.standings.ratings(GUILD, "toy", 9)] == [(1, 29.0)]
    assert [r.mu for r in await any_store.standings.ratings(GUILD, "toy")] == [26.0]  # the other season stays
    assert await any_store.standings.game_changes(rec.id) == [new]
