"""The SQLite store: migrations, compare-and-swap writes, one open game per channel, snapshot = replay."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from bot.store import (
    MIGRATIONS,
    ChannelBusy,
    GameNotFound,
    InconsistentSnapshot,
    Outgoing,
    Seat,
    SqliteStore,
    StaleVersion,
    default_db_path,
)
from tests.bot.toygame import ToyGame


@pytest.fixture
def store(any_store):
    """The contract tests run on every backend."""
    return any_store


SEATS = [Seat(1, "Ann", {"colour": "red"}), Seat(2, "Bob", {})]
SETUP = {"seats": [{"name": "Ann", "colour": "red"}, {"name": "Bob"}], "options": {}}


async def started(store: SqliteStore, channel: int = 100, seed: int = 7):
    rec = await store.create_game(guild_id=5, channel_id=channel, game_key="toy", host_id=1, setup={"options": {}},
                                  seed=seed, seats=SEATS)
    game = ToyGame.create(SETUP, seed)
    rec = await store.start_game(rec.id, setup=SETUP, seats=SEATS, state=game.to_dict())
    return rec, game


async def play(store: SqliteStore, rec, game: ToyGame, text: str):
    game.apply(text)
    return await store.append_action(rec.id, expected_version=rec.version, seat=0, user_id=1, action=text,
                                     state=game.to_dict(), status="finished" if game.is_over else "active")


async def test_migrations_from_empty_file(db_path):
    async with SqliteStore(db_path) as store:
        assert await store.schema_version() == len(MIGRATIONS)
    with sqlite3.connect(db_path) as con:
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"games", "actions", "schema_version"} <= tables


async def test_reopening_does_not_migrate_again(db_path):
    async with SqliteStore(db_path) as store:
        await started(store)
    async with SqliteStore(db_path) as store:
        assert await store.schema_version() == len(MIGRATIONS)
        assert (await store.channel_game(100)) is not None


async def test_newer_schema_is_refused(db_path):
    async with SqliteStore(db_path):
        pass
    with sqlite3.connect(db_path) as con:
        con.execute("UPDATE schema_version SET version = 999")
    with pytest.raises(Exception, match="newer"):
        async with SqliteStore(db_path):
            pass


async def test_new_game_is_a_lobby(store):
    rec = await store.create_game(guild_id=5, channel_id=100, game_key="toy", host_id=1, setup={"options": {"a": 1}},
                                  seed=3, seats=SEATS[:1])
    assert (rec.status, rec.version, rec.state, rec.host_id) == ("lobby", 0, None, 1)
    assert rec.seats == SEATS[:1] and rec.setup == {"options": {"a": 1}} and rec.seed == 3
    assert rec.seat_of(1) == 0 and rec.seat_of(2) is None


async def test_one_open_game_per_channel(store):
    await store.create_game(guild_id=5, channel_id=100, game_key="toy", host_id=1, setup={}, seed=1)
    with pytest.raises(ChannelBusy):
        await store.create_game(guild_id=5, channel_id=100, game_key="toy", host_id=2, setup={}, seed=2)
    other = await store.create_game(guild_id=5, channel_id=101, game_key="toy", host_id=2, setup={}, seed=2)
    assert other.channel_id == 101


async def test_finished_game_frees_the_channel_and_stays_readable(store):
    rec, game = await started(store)
    game.pos[0] = 9
    rec = await store.append_action(rec.id, expected_version=0, seat=0, user_id=1, action="roll",
                                    state=game.to_dict())
    rec = await store.set_status(rec.id, "finished")
    assert await store.channel_game(100) is None
    again = await store.get_game(rec.id)
    assert again.status == "finished" and again.version == 1
    assert [a.action for a in await store.actions(rec.id)] == ["roll"]
    new = await store.create_game(guild_id=5, channel_id=100, game_key="toy", host_id=1, setup={}, seed=1)
    assert new.id != rec.id
    assert [g.id for g in await store.channel_history(100)] == [new.id, rec.id]


async def test_action_and_snapshot_written_together(store):
    rec, game = await started(store)
    rec = await play(store, rec, game, "roll")
    assert rec.version == 1 and rec.state == game.to_dict()
    [a] = await store.actions(rec.id)
    assert (a.index, a.seat, a.user_id, a.action) == (0, 0, 1, "roll")


async def test_stale_write_is_refused_and_changes_nothing(store):
    rec, _ = await started(store)
    before = await store.get_game(rec.id)
    with pytest.raises(StaleVersion) as err:
        await store.append_action(rec.id, expected_version=3, seat=0, user_id=1, action="roll", state={"x": 1})
    assert err.value.actual == 0 and "expected move 3" in str(err.value)
    assert await store.get_game(rec.id) == before
    assert await store.actions(rec.id) == []


async def test_doubled_write_is_applied_once(store):
    rec, game = await started(store)
    game.apply("roll")
    args = dict(expected_version=0, seat=0, user_id=1, action="roll", state=game.to_dict())
    await store.append_action(rec.id, **args)
    with pytest.raises(StaleVersion):
        await store.append_action(rec.id, **args)
    assert len(await store.actions(rec.id)) == 1
    assert (await store.get_game(rec.id)).version == 1


async def test_concurrent_writes_with_one_expected_version_apply_once(store):
    rec, game = await started(store)
    game.apply("roll")
    results = await asyncio.gather(
        *(store.append_action(rec.id, expected_version=0, seat=0, user_id=1, action="roll", state=game.to_dict())
          for _ in range(5)),
        return_exceptions=True)
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert all(isinstance(r, StaleVersion) for r in results if isinstance(r, Exception))


async def test_no_actions_on_a_lobby_or_finished_game(store):
    rec = await store.create_game(guild_id=5, channel_id=100, game_key="toy", host_id=1, setup={}, seed=1)
    with pytest.raises(StaleVersion):
        await store.append_action(rec.id, expected_version=0, seat=0, user_id=1, action="roll", state={})
    rec, _ = await started(store, channel=101)
    await store.set_status(rec.id, "aborted")
    with pytest.raises(StaleVersion):
        await store.append_action(rec.id, expected_version=0, seat=0, user_id=1, action="roll", state={})


async def test_lobby_updates_only_in_the_lobby(store):
    rec = await store.create_game(guild_id=5, channel_id=100, game_key="toy", host_id=1, setup={}, seed=1)
    rec = await store.update_lobby(rec.id, seats=SEATS)
    assert rec.seats == SEATS
    rec, _ = await started(store, channel=101)
    with pytest.raises(StaleVersion):
        await store.update_lobby(rec.id, seats=[])
    with pytest.raises(StaleVersion):
        await store.start_game(rec.id, setup=SETUP, seats=SEATS, state={})


async def test_snapshot_equals_replay(store):
    rec, game = await started(store)
    for text in ["roll", "move 1", "roll", "pass", "roll"]:
        rec = await play(store, rec, game, text)
    replayed = await store.replay(rec.id)
    assert replayed == game
    await store.check_consistency(rec.id)


async def test_consistency_check_catches_a_bad_snapshot(store):
    rec, game = await started(store)
    rec = await play(store, rec, game, "roll")
    game.pos[1] = 5
    await store.db.execute("UPDATE games SET state = ? WHERE id = ?", (__import__("json").dumps(game.to_dict()),
                                                                       rec.id))
    with pytest.raises(InconsistentSnapshot):
        await store.check_consistency(rec.id)


async def test_restart_sees_everything(db_path):
    async with SqliteStore(db_path) as store:
        rec, game = await started(store)
        rec = await play(store, rec, game, "roll")
    async with SqliteStore(db_path) as store:
        again = await store.channel_game(100)
        assert again == rec
        assert ToyGame.from_dict(again.state) == game
        await store.check_consistency(rec.id)


async def test_unknown_game(store):
    with pytest.raises(GameNotFound):
        await store.get_game(12345)


def test_db_path_from_environment(monkeypatch):
    monkeypatch.setenv("JUNKYARD_DB", "/data/x.db")
    assert default_db_path() == "/data/x.db"
    monkeypatch.delenv("JUNKYARD_DB")
    assert default_db_path() == "junkyard.db"


async def test_lobby_write_from_stale_seats_is_refused(store):
    """Two processes joining at once: the second write read seats that are gone, so it is refused."""
    rec = await store.create_game(guild_id=5, channel_id=100, game_key="toy", host_id=1, setup={}, seed=1,
                                  seats=SEATS[:1])
    await store.update_lobby(rec.id, seats=SEATS, expected_seats=rec.seats)
    with pytest.raises(StaleVersion):
        await store.update_lobby(rec.id, seats=[*SEATS[:1], Seat(3, "Cat")], expected_seats=rec.seats)
    with pytest.raises(StaleVersion):
        await store.start_game(rec.id, setup=SETUP, seats=SEATS[:1], state={})
    assert (await store.get_game(rec.id)).seats == SEATS


async def test_a_new_migration_upgrades_an_existing_file(db_path, monkeypatch):
    """A database made by an older program gains the new migration and keeps its games."""
    import bot.store as store_module

    async with SqliteStore(db_path) as store:
        rec, _ = await started(store)
    upgraded = [*MIGRATIONS, "ALTER TABLE games ADD COLUMN note TEXT NOT NULL DEFAULT '';"]
    monkeypatch.setattr(store_module, "MIGRATIONS", upgraded)
    async with SqliteStore(db_path) as store:
        assert await store.schema_version() == len(upgraded)
        assert (await store.get_game(rec.id)).seats == SEATS
    with sqlite3.connect(db_path) as con:
        assert con.execute("SELECT note FROM games").fetchall() == [("",)]


async def test_a_failing_migration_leaves_the_file_as_it_was(db_path, monkeypatch):
    import bot.store as store_module

    async with SqliteStore(db_path) as store:
        await started(store)
    broken = [*MIGRATIONS, "ALTER TABLE games ADD COLUMN note TEXT; THIS IS NOT SQL;"]
    monkeypatch.setattr(store_module, "MIGRATIONS", broken)
    with pytest.raises(Exception, match="syntax"):
        async with SqliteStore(db_path):
            pass
    with sqlite3.connect(db_path) as con:
        assert con.execute("SELECT version FROM schema_version").fetchone()[0] == len(MIGRATIONS)
        columns = [r[1] for r in con.execute("PRAGMA table_info(games)")]
    assert "note" not in columns


# Delivery records ----------------------------------------------------------------------------------


async def test_an_action_and_its_delivery_record_commit_together(store):
    rec, game = await started(store)
    game.apply("roll")
    out = Outgoing({"lines": ["Ann rolled."]}, owner="me", lease=60)
    rec = await store.append_action(rec.id, expected_version=0, seat=0, user_id=1, action="roll",
                                    state=game.to_dict(), outgoing=out)
    [d] = await store.deliveries(game_id=rec.id)
    assert (d.id, d.version, d.channel_id, d.payload, d.claimed_by) == (out.id, 1, 100, {"lines": ["Ann rolled."]},
                                                                        "me")
    assert not d.delivered and d.message_id is None
    game.apply("pass")  # the same reply's next move updates the same record
    out.payload = {"lines": ["Ann rolled.", "Ann passed."]}
    await store.append_action(rec.id, expected_version=1, seat=0, user_id=1, action="pass", state=game.to_dict(),
                              outgoing=out)
    [d] = await store.deliveries(game_id=rec.id)
    assert d.version == 2 and d.payload["lines"] == ["Ann rolled.", "Ann passed."]


async def test_a_refused_write_leaves_no_delivery_record(store):
    rec, _ = await started(store)
    out = Outgoing({"lines": ["x"]})
    with pytest.raises(StaleVersion):
        await store.append_action(rec.id, expected_version=5, seat=0, user_id=1, action="roll", state={},
                                  outgoing=out)
    assert out.id is None and await store.deliveries() == []


async def test_delivery_records_are_claimed_once_and_delivered_once(store):
    rec, _ = await started(store)
    held = Outgoing({"lines": ["held"]}, owner="writer", lease=60)
    free = Outgoing({"lines": ["free"]})
    await store.set_status(rec.id, "aborted", outgoing=held)
    rec2, _ = await started(store, channel=-5)
    await store.set_status(rec2.id, "aborted", outgoing=free)
    now = store._clock()
    assert [d.id for d in await store.claim_deliveries("worker", now=now, lease=10)] == [free.id]
    assert await store.claim_deliveries("worker2", now=now, lease=10) == []  # both held now
    assert [d.id for d in await store.claim_deliveries("worker2", now=now + 11, lease=10)] == [free.id]
    taken = await store.claim_deliveries("restarted", now=now + 12, lease=10, takeover=True, min_channel_id=1)
    assert [d.id for d in taken] == [held.id]  # a restarted process takes over; terminal channels are skipped
    assert await store.mark_delivered(held.id, 42) and not await store.mark_delivered(held.id, 43)
    [d] = await store.deliveries(game_id=rec.id)
    assert d.message_id == 42 and d.delivered
    await store.release_delivery(free.id, due_at=now + 100)
    assert await store.claim_deliveries("w", now=now + 50, lease=1, takeover=True) == []
    assert [d.id for d in await store.deliveries(pending=True)] == [free.id]


async def test_the_queue_of_games_waiting_on_computers(store):
    rec, game = await started(store)
    game.apply("roll")
    await store.append_action(rec.id, expected_version=0, seat=0, user_id=1, action="roll", state=game.to_dict(),
                              computers_waiting=True)
    assert await store.waiting_on_computers() == [(rec.id, 100)]
    game.apply("pass")
    await store.append_action(rec.id, expected_version=1, seat=0, user_id=1, action="pass", state=game.to_dict())
    assert await store.waiting_on_computers() == []
