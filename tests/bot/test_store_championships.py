"""The store's championships on both backends: one running per channel, rounds mapped to games (a round opened
again takes its new game), ended once, and copied whole by ``db copy``'s row reads and writes."""

from __future__ import annotations

import pytest

from bot.store import CHAMPIONSHIP_ENDED, CHAMPIONSHIP_RUNNING, ChampionshipRunning
from tests.bot.test_store import started

ROUNDS = [{"track": "A", "laps": 1}, {"track": "B", "laps": 2}, {"track": "A", "laps": 3}]


async def create(store, channel: int = 100, name: str = "Cup"):
    return await store.championships.create_championship(
        guild_id=5, channel_id=channel, host_id=1, name=name, game_key="toy", rounds=ROUNDS,
        points=[10, 6, 4], options={"drop_worst": 1, "lead_bonus": 0})


async def test_a_championship_is_stored_and_read_back(any_store):
    champ = await create(any_store)
    assert champ.status == CHAMPIONSHIP_RUNNING
    assert champ.rounds == tuple(ROUNDS) and champ.points == (10, 6, 4)
    assert champ.options == {"drop_worst": 1, "lead_bonus": 0}
    assert await any_store.championships.championship(champ.id) == champ
    assert await any_store.championships.running_championship(100) == champ
    assert await any_store.championships.running_championship(101) is None
    assert await any_store.championships.championship(champ.id + 99) is None


async def test_a_channel_runs_one_championship_at_a_time(any_store):
    first = await create(any_store)
    with pytest.raises(ChampionshipRunning):
        await create(any_store, name="Second")
    other = await create(any_store, channel=200)
    assert other.id != first.id
    assert await any_store.championships.end_championship(first.id)
    assert not await any_store.championships.end_championship(first.id)
    assert (await any_store.championships.championship(first.id)).status == CHAMPIONSHIP_ENDED
    assert await any_store.championships.running_championship(100) is None
    ended = await any_store.championships.championship(first.id)
    assert await any_store.championships.latest_championship(100) == ended  # an ended one is still the newest
    again = await create(any_store, name="Again")
    assert await any_store.championships.running_championship(100) == again
    assert await any_store.championships.latest_championship(100) == again
    assert await any_store.championships.latest_championship(300) is None


async def test_rounds_map_to_games_and_a_reopened_round_takes_its_new_game(any_store):
    champ = await create(any_store)
    one, _ = await started(any_store, channel=100)
    await any_store.games.set_status(one.id, "finished")
    two, _ = await started(any_store, channel=100, seed=8)
    await any_store.championships.set_round(champ.id, 1, one.id)
    await any_store.championships.set_round(champ.id, 2, two.id)
    assert await any_store.championships.round_games(champ.id) == [(1, one.id), (2, two.id)]
    await any_store.games.set_status(two.id, "aborted")
    three, _ = await started(any_store, channel=100, seed=9)
    await any_store.championships.set_round(champ.id, 2, three.id)
    assert await any_store.championships.round_games(champ.id) == [(1, one.id), (2, three.id)]
    assert await any_store.championships.championship_of_game(three.id) == (champ, 2)
    assert await any_store.championships.championship_of_game(one.id) == (champ, 1)
    assert await any_store.championships.championship_of_game(two.id) is None


async def test_championships_are_copied_with_their_rounds(twin_stores):
    source = twin_stores("source")
    await source.open()
    champ = await create(source)
    game, _ = await started(source, channel=100)
    await source.championships.set_round(champ.id, 1, game.id)
    target = twin_stores("target")
    await target.open()
    for table in source.tables():
        rows = [row async for row in source.rows(table)]
        await target.insert_rows(table, rows)
    assert await target.championships.championship(champ.id) == champ
    assert await target.championships.round_games(champ.id) == [(1, game.id)]
    await target.championships.end_championship(champ.id)
    later = await create(target, name="Later")
    assert later.id > champ.id


async def test_a_forgotten_host_leaves_their_championship_anonymous(any_store):
    from bot.upkeep.forget import ANONYMOUS, scrub_store

    host = 987654321098765432
    champ = await any_store.championships.create_championship(
        guild_id=5, channel_id=100, host_id=host, name="Cup", game_key="toy", rounds=ROUNDS, points=[3, 2, 1],
        options={})
    await scrub_store(any_store, host)
    after = await any_store.championships.championship(champ.id)
    assert after is not None and after.host_id == ANONYMOUS
    assert [row["host_id"] async for row in any_store.rows("championships")] == [ANONYMOUS]
