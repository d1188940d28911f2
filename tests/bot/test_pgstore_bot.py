"""The whole bot on each store, through the offline Discord harness: a game played to its end by commands and
buttons, its end recorded, every board delivered; reminders on a fake clock; a second process's view of the
same database. The PostgreSQL variants need ``JUNKYARD_TEST_PG`` (they skip without it)."""

from __future__ import annotations

import pytest

from bot.discord import JunkyardBot
from bot.play.service import Service
from bot.upkeep.consistency import check_consistency
from tests.bot.harness import CHANNEL_ID, DiscordHarness
from tests.bot.helpers import ANN, BOB, USERS, public, started
from tests.bot.timing_helpers import Clock, channel_posts, created, later

pytestmark = pytest.mark.parametrize("twin_stores", ["sqlite", "postgresql"], indirect=True)


def bot_on(store, clock: Clock | None = None) -> JunkyardBot:
    counter = iter(range(1, 10**6))
    bot = JunkyardBot(service=Service(store, seed_source=lambda: next(counter)))
    if clock is not None:
        bot.timers.clock = clock
    return bot


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
async def ph(twin_stores, clock):
    """The harness around a bot on a fresh database, its store and timers on a fake clock."""
    async with DiscordHarness(bot_on(twin_stores(clock=clock), clock)) as harness:
        harness.users.update(USERS)
        yield harness


async def test_a_game_is_played_to_its_end_and_recorded(ph, twin_stores):
    board = await started(ph)
    for turn in range(80):
        _, game, _ = await ph.bot.service.current(CHANNEL_ID)
        if game is None:
            break
        user = [ANN, BOB][game.to_act]
        sent = await ph.press(user, board, "Roll") if game.rolled is None else await ph.slash(
            user, "game play", action=f"move {game.rolled}" if turn % 2 else "move 1")
        board = public(sent)[-1] if public(sent) else board
    else:
        raise AssertionError("the game did not end")
    await ph.settle()
    store = ph.bot.store
    [rec] = await store.games.channel_history(CHANNEL_ID)
    assert rec.status == "finished"
    await check_consistency(store.games, rec.id)
    # every board is delivered; only the end message waits, due a moment after the last board
    assert [d.payload.get("finale") for d in await store.outbox.deliveries(pending=True)] == [True]
    assert all(d.message_id for d in await store.outbox.deliveries() if not d.payload.get("finale"))
    results = await store.standings.results(game_id=rec.id)
    assert sorted(r.user_id for r in results) == [ANN, BOB] and sum(r.winner for r in results) == 1
    async with twin_stores() as other:  # another process sees the same game, seat by seat
        assert [g.id for g in await other.games.games_of_user(BOB, "finished")] == [rec.id]


async def test_reminders_fire_once(ph, clock):
    await started(ph)
    assert not created(await later(ph, clock, 0))
    assert not created(await later(ph, clock, 11.9))
    texts = [r.content for step in (0.1, 12, 12) for r in channel_posts(await later(ph, clock, step))]
    assert len(texts) == 3 and "last reminder" in texts[2]
    assert not created(await later(ph, clock, 200))
    assert all(t.fired_at is not None for t in await ph.bot.store.turns.timers())
