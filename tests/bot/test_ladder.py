"""Ladders through the bot: the end message's rating changes, ``/stats``' ladder and card (with its chart),
``/season`` (managers start and end seasons, past ones stay readable), the autopilot's games, the
seats' timekeeping, and a rebuild from the results giving the ratings the games gave, on both stores."""

from __future__ import annotations

import io
import time

from PIL import Image

from bot.standing import ladder
from bot.standing.ratings import Skill
from bot.store import EVERLASTING, ActionRecord, Result
from tests.bot.helpers import ANN, BOB, EVE, answer, started
from tests.bot.test_history import toy_win

MANAGE_GUILD = 1 << 5


async def end_message(h) -> str:
    h.bot.outbox.clock = lambda: time.time() + 60
    start = len(h.sent)
    await h.bot.outbox.flush()
    return "\n".join(s.content for s in h.sent[start:] if s.creates_message and s.content)


async def test_the_end_message_shows_each_player_s_rating_change_and_the_winner_gains(h):
    board = await started(h)
    await toy_win(h, board, ANN, BOB)
    text = await end_message(h)
    assert "**Ratings**" in text
    ann = next(line for line in text.splitlines() if line.startswith("Ann: 1000 → "))
    bob = next(line for line in text.splitlines() if line.startswith("Bob: 1000 → "))
    assert "(+" in ann and "(−" in bob
    [a] = await h.bot.store.standings.ratings(h.guild_id, "toy", user_id=ANN)
    assert a.games == 1 and a.wins == 1 and a.turns > 0 and a.missed == 0


async def test_stats_shows_the_ladder_and_a_player_s_card_with_a_chart(h):
    for _ in range(2):
        board = await started(h)
        await toy_win(h, board, ANN, BOB)
        await h.bot.outbox.flush()  # its end message, before the next game's news
    lines = answer(await h.slash(EVE, "stats")).content.splitlines()
    assert lines[0] == "**Ladder, all time**" and lines[1] == "__Race to Ten__"
    assert lines[2].startswith(f"1. <@{ANN}> **") and "games 2 · wins 2 · on time 100 %" in lines[2]
    assert lines[3].startswith(f"2. <@{BOB}> **") and "wins 0" in lines[3] and "missed 0" in lines[3]
    card = answer(await h.slash(EVE, "stats", player=BOB))
    assert "**Ratings, all time**" in card.content and "rank 2 of 2" in card.content
    [(name, png)] = card.files
    assert name == "rating.png" and Image.open(io.BytesIO(png)).size == (1000, 440)


async def test_seasons_are_started_and_ended_by_managers_and_past_ladders_stay_readable(h):
    refused = answer(await h.slash(ANN, "season", action="start"))
    assert refused.ephemeral and "Manage Server" in refused.content
    assert "no seasons yet" in answer(await h.slash(ANN, "season", action="list")).content
    start = answer(await h.slash(ANN, "season", action="start", name="Spring", permissions=MANAGE_GUILD))
    assert "Season **Spring** (#1) has started" in start.content
    again = answer(await h.slash(ANN, "season", action="start", permissions=MANAGE_GUILD))
    assert "still running" in again.content
    board = await started(h)
    await toy_win(h, board, BOB, ANN)
    await h.bot.outbox.flush()  # its end message, before the next game's news
    assert answer(await h.slash(EVE, "stats")).content.startswith("**Ladder, season Spring (#1, since <t:")
    ended = answer(await h.slash(ANN, "season", action="end", permissions=MANAGE_GUILD))
    assert "has ended" in ended.content and "/stats season:1" in ended.content
    board = await started(h)
    await toy_win(h, board, ANN, BOB)  # after the season: the all-time ladder only
    await h.bot.outbox.flush()  # its end message, before the next game's news
    spring = await h.bot.store.standings.ratings(h.guild_id, "toy", 1)
    assert [(r.user_id, r.games) for r in spring] == [(BOB, 1), (ANN, 1)]
    everlasting = await h.bot.store.standings.ratings(h.guild_id, "toy")
    assert {r.games for r in everlasting} == {2}
    past = answer(await h.slash(EVE, "stats", season=1)).content.splitlines()
    assert past[0].startswith("**Ladder, season Spring (#1, <t:") and past[2].startswith(f"1. <@{BOB}>")
    assert "no season #7" in answer(await h.slash(EVE, "stats", season=7)).content
    rebuilt = answer(await h.slash(ANN, "season", action="rebuild", number=1, permissions=MANAGE_GUILD))
    assert "rated again from the results (1 game)." in rebuilt.content
    assert await h.bot.store.standings.ratings(h.guild_id, "toy", 1) == spring


def test_a_seat_s_turns_waits_and_missed_turns_come_from_its_actions_and_the_timing_s_counts():
    acts = [ActionRecord(1, i, seat, None, "x", "", at) for i, (seat, at) in
            enumerate([(0, 10.0), (0, 11.0), (1, 71.0), (0, 101.0), (1, 401.0), (1, 402.0)])]
    timing = ladder.seat_timing(acts, {"missed": {"1": 1}, "autopilot": {"1": 1}})
    assert timing[0] == ladder.Timing(turns=2, timed=1, think=30.0, missed=0, autopilot=0)
    assert timing[1] == ladder.Timing(turns=2, timed=2, think=360.0, missed=2, autopilot=1)


def rows_of(game_id: int, at: float, order: list[tuple[int, int, int]]) -> list[Result]:
    """Result rows of a finished game: (user, place, autopilot turns of 4)."""
    return [Result(game_id, seat, user, f"P{user}", place, place == 1, 9, "toy", 5, 100, at - 1, at, turns=4,
                   timed=3, autopilot=auto, missed=auto, think=30.0)
            for seat, (user, place, auto) in enumerate(order)]


async def test_a_rebuild_gives_the_ratings_the_games_gave_and_the_autopilot_s_person_loses(any_store):
    from tests.bot.test_store import started as store_started

    games = [[(1, 1, 0), (2, 2, 0), (3, 3, 0)], [(2, 1, 0), (3, 2, 0)], [(3, 1, 4), (1, 2, 0), (2, 3, 0)]]
    for i, order in enumerate(games):
        rec, _ = await store_started(any_store, channel=100 + i, guild=5)
        await any_store.games.set_status(rec.id, "finished")
        rows = rows_of(rec.id, 10.0 + i, order)
        ratings, changes = await ladder.rate_end(any_store, rows)
        assert await any_store.standings.record_results(rec.id, rows, [], ratings, changes)
    last = await any_store.standings.game_changes(rec.id)
    moved = {c.user_id: Skill(c.mu, c.sigma).shown - Skill(c.mu_before, c.sigma_before).shown for c in last}
    assert moved[3] < 0  # first across the line, but on autopilot: a loss
    assert moved[1] > 0
    before = await any_store.standings.ratings(5, "toy")
    assert await ladder.rebuild(any_store, 5) == 3
    after = await any_store.standings.ratings(5, "toy")
    assert [(r.user_id, round(r.mu, 9), round(r.sigma, 9), r.games, r.wins, r.missed) for r in after] == \
        [(r.user_id, round(r.mu, 9), round(r.sigma, 9), r.games, r.wins, r.missed) for r in before]
    assert [r.wins for r in after if r.user_id == 3] == [0]  # its autopilot's win is not the person's
    assert EVERLASTING == 0


def test_a_computer_s_row_stored_before_kinds_were_kept_is_still_a_computer():
    old = [Result(1, 0, ANN, "Ann", 1, True, 9, "toy", 5, 100, 1.0, 2.0),
           Result(1, 1, -1, "Smart", 2, False, 9, "toy", 5, 100, 1.0, 2.0)]
    ratings, _ = ladder.season_step(old, {}, EVERLASTING, 5)
    assert [r.user_id for r in ratings] == [ANN] and ratings[0].mu > 25.0


def test_a_team_race_s_seats_carry_their_team_and_teammates_move_together_on_the_ladder():
    from bot.standing.history import _result
    from bot.store import GameRecord, Seat

    # Races team play: Ann and Bob are team 1 (1st and 4th), Cy and Di team 2 (2nd and 3rd)
    seats = [Seat(1, "Ann", {"team": 1}), Seat(3, "Cy", {"team": 2}), Seat(4, "Di", {"team": 2}),
             Seat(2, "Bob", {"team": 1})]
    rec = GameRecord(7, 5, 100, "races", "finished", 1, {}, 1, seats, 30, None, 1.0, 2.0)
    rows = [_result(rec, seat, seat + 1, seat in (0, 3), 1.0, ladder.Timing(turns=5)) for seat in range(4)]
    assert [r.team for r in rows] == [1, 2, 2, 1]
    ratings, changes = ladder.season_step(rows, {}, EVERLASTING, 5)
    new = {r.user_id: r for r in ratings}
    assert new[1].mu == new[2].mu > 25.0 > new[3].mu == new[4].mu  # Bob came last, but his team won
    assert new[2].wins == 1 and new[3].wins == 0 and len(changes) == 4


def test_counts_in_stats_and_the_rebuild_take_the_catalogue_s_plural_forms():
    from bot import texts
    from bot.standing.history import _record_lines, _server_lines
    from bot.store import PlayerTally, ServerTally

    class NoTitles:
        def classes(self, key: str) -> object:
            raise KeyError(key)

    one = ServerTally("toy", 1, 1, 4, 1, 4, ((ANN, 1),))
    mine = PlayerTally("toy", 1, 1, 1, 1, 1, 4, 1, 4, "Ann", 2.0)
    assert "shortest: 1 move (#4); longest: 1 move (#4)" in _server_lines([one], NoTitles().classes, "en")[0]
    assert "kürzestes: 1 Zug (#4); längstes: 1 Zug (#4)" in _server_lines([one], NoTitles().classes, "de")[0]
    assert "best: 1st in 1 move (#4); longest: 1 move (#4)" in _record_lines([mine], NoTitles().classes, "en")[0]
    assert "bestes: 1. in 1 Zug (#4); längstes: 1 Zug (#4)" in _record_lines([mine], NoTitles().classes, "de")[0]
    many = PlayerTally("toy", 3, 1, 6, 1, 7, 4, 9, 5, "Ann", 2.0)
    assert "in 7 Zügen (#4); längstes: 9 Züge (#5)" in _record_lines([many], NoTitles().classes, "de")[0]
    assert texts.say("season.rebuilt", "de", season="x", count=1).endswith("(1 Spiel).")
    assert texts.say("season.rebuilt", "en", season="x", count=2).endswith("(2 games).")
