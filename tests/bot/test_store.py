"""The store's contract, on SQLite and on PostgreSQL: migrations, compare-and-swap writes, one open game per
channel, snapshot = replay, delivery records and timers claimed once, shards, raw rows for copying.

The PostgreSQL variants run against ``JUNKYARD_TEST_PG`` (each test in a schema of its own) and skip without
it; "two processes" are two stores with pools of their own on one database."""

from __future__ import annotations

import asyncio
import json
import sqlite3

import pytest

from bot.store import (
    ChannelBusy,
    GameNotFound,
    InconsistentSnapshot,
    MoveRead,
    NewTimer,
    Outgoing,
    Rating,
    RatingChange,
    Result,
    Seat,
    SettingsWrite,
    SqliteStore,
    StaleVersion,
    Store,
    StoreError,
    default_db_path,
    is_database_url,
    open_store,
    shard_of,
)
from bot.store.sqlite import MIGRATIONS
from bot.upkeep.consistency import check_consistency, rebuilt
from tests.bot.toygame import ToyGame


@pytest.fixture
def store(any_store):
    """The contract tests run on every backend."""
    return any_store


SEATS = [Seat(1, "Ann", {"colour": "red"}), Seat(2, "Bob", {})]
SETUP = {"seats": [{"name": "Ann", "colour": "red"}, {"name": "Bob"}], "options": {}}


async def started(store: Store, channel: int = 100, seed: int = 7, guild: int | None = 5):
    rec = await store.games.create_game(guild_id=guild, channel_id=channel, game_key="toy", host_id=1,
                                        setup={"options": {}}, seed=seed, seats=SEATS)
    game = ToyGame.create(SETUP, seed)
    rec = await store.games.start_game(rec.id, setup=SETUP, seats=SEATS, state=game.to_dict())
    return rec, game


async def raw_execute(store: Store, sql: str, *params: object) -> None:
    """Run one statement with ``?`` placeholders behind the store's back (to damage a row on purpose)."""
    if isinstance(store, SqliteStore):
        await store.db.execute(sql, params)
        return
    parts = sql.split("?")
    await store.pool.execute("".join(p + (f"${i + 1}" if i < len(parts) - 1 else "") for i, p in enumerate(parts)),
                             *params)


async def play(store: Store, rec, game: ToyGame, text: str):
    game.apply(text)
    return await store.games.append_action(rec.id, expected_version=rec.version, seat=0, user_id=1, action=text,
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
        assert (await store.games.channel_game(100)) is not None


async def test_newer_schema_is_refused(db_path):
    async with SqliteStore(db_path):
        pass
    with sqlite3.connect(db_path) as con:
        con.execute("UPDATE schema_version SET version = 999")
    with pytest.raises(Exception, match="newer"):
        async with SqliteStore(db_path):
            pass


async def test_new_game_is_a_lobby(store):
    rec = await store.games.create_game(guild_id=5, channel_id=100, game_key="toy", host_id=1,
                                        setup={"options": {"a": 1}}, seed=3, seats=SEATS[:1])
    assert (rec.status, rec.version, rec.state, rec.host_id) == ("lobby", 0, None, 1)
    assert rec.seats == SEATS[:1] and rec.setup == {"options": {"a": 1}} and rec.seed == 3
    assert rec.seat_of(1) == 0 and rec.seat_of(2) is None


async def test_one_open_game_per_channel(store):
    await store.games.create_game(guild_id=5, channel_id=100, game_key="toy", host_id=1, setup={}, seed=1)
    with pytest.raises(ChannelBusy):
        await store.games.create_game(guild_id=5, channel_id=100, game_key="toy", host_id=2, setup={}, seed=2)
    other = await store.games.create_game(guild_id=5, channel_id=101, game_key="toy", host_id=2, setup={}, seed=2)
    assert other.channel_id == 101


async def test_finished_game_frees_the_channel_and_stays_readable(store):
    rec, game = await started(store)
    game.pos[0] = 9
    rec = await store.games.append_action(rec.id, expected_version=0, seat=0, user_id=1, action="roll",
                                          state=game.to_dict())
    rec = await store.games.set_status(rec.id, "finished")
    assert await store.games.channel_game(100) is None
    again = await store.games.get_game(rec.id)
    assert again.status == "finished" and again.version == 1
    assert [a.action for a in await store.games.actions(rec.id)] == ["roll"]
    new = await store.games.create_game(guild_id=5, channel_id=100, game_key="toy", host_id=1, setup={}, seed=1)
    assert new.id != rec.id
    assert [g.id for g in await store.games.channel_history(100)] == [new.id, rec.id]


async def test_action_and_snapshot_written_together(store):
    rec, game = await started(store)
    rec = await play(store, rec, game, "roll")
    assert rec.version == 1 and rec.state == game.to_dict()
    [a] = await store.games.actions(rec.id)
    assert (a.index, a.seat, a.user_id, a.action) == (0, 0, 1, "roll")


async def test_stale_write_is_refused_and_changes_nothing(store):
    rec, _ = await started(store)
    before = await store.games.get_game(rec.id)
    with pytest.raises(StaleVersion) as err:
        await store.games.append_action(rec.id, expected_version=3, seat=0, user_id=1, action="roll", state={"x": 1})
    assert err.value.actual == 0 and "expected move 3" in str(err.value)
    assert await store.games.get_game(rec.id) == before
    assert await store.games.actions(rec.id) == []


async def test_doubled_write_is_applied_once(store):
    rec, game = await started(store)
    game.apply("roll")
    args = dict(expected_version=0, seat=0, user_id=1, action="roll", state=game.to_dict())
    await store.games.append_action(rec.id, **args)
    with pytest.raises(StaleVersion):
        await store.games.append_action(rec.id, **args)
    assert len(await store.games.actions(rec.id)) == 1
    assert (await store.games.get_game(rec.id)).version == 1


async def test_settings_written_with_an_action_stand_or_fall_with_it(store):
    """A plan that gives up its first step is stored with the move that played it: a stale move leaves the
    plan as it was, a stored one carries the plan's new state."""
    rec, game = await started(store)
    await store.settings.put_settings("plan", 1, rec.id, {"items": ["roll", "move 1"]})
    game.apply("roll")
    args = dict(seat=0, user_id=1, action="roll", state=game.to_dict(),
                settings=[SettingsWrite("plan", 1, rec.id, {"items": ["move 1"]})])
    with pytest.raises(StaleVersion):
        await store.games.append_action(rec.id, expected_version=4, **args)
    assert await store.settings.get_settings("plan", 1, rec.id) == {"items": ["roll", "move 1"]}
    await store.games.append_action(rec.id, expected_version=0, **args)
    assert await store.settings.get_settings("plan", 1, rec.id) == {"items": ["move 1"]}
    assert [a.action for a in await store.games.actions(rec.id)] == ["roll"]


async def test_concurrent_writes_with_one_expected_version_apply_once(store):
    rec, game = await started(store)
    game.apply("roll")
    results = await asyncio.gather(
        *(store.games.append_action(rec.id, expected_version=0, seat=0, user_id=1, action="roll", state=game.to_dict())
          for _ in range(5)),
        return_exceptions=True)
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert all(isinstance(r, StaleVersion) for r in results if isinstance(r, Exception))


async def test_no_actions_on_a_lobby_or_finished_game(store):
    rec = await store.games.create_game(guild_id=5, channel_id=100, game_key="toy", host_id=1, setup={}, seed=1)
    with pytest.raises(StaleVersion):
        await store.games.append_action(rec.id, expected_version=0, seat=0, user_id=1, action="roll", state={})
    rec, _ = await started(store, channel=101)
    await store.games.set_status(rec.id, "aborted")
    with pytest.raises(StaleVersion):
        await store.games.append_action(rec.id, expected_version=0, seat=0, user_id=1, action="roll", state={})


async def test_lobby_updates_only_in_the_lobby(store):
    rec = await store.games.create_game(guild_id=5, channel_id=100, game_key="toy", host_id=1, setup={}, seed=1)
    rec = await store.games.update_lobby(rec.id, seats=SEATS)
    assert rec.seats == SEATS
    rec, _ = await started(store, channel=101)
    with pytest.raises(StaleVersion):
        await store.games.update_lobby(rec.id, seats=[])
    with pytest.raises(StaleVersion):
        await store.games.start_game(rec.id, setup=SETUP, seats=SEATS, state={})


async def test_snapshot_equals_replay(store):
    rec, game = await started(store)
    for text in ["roll", "move 1", "roll", "pass", "roll"]:
        rec = await play(store, rec, game, text)
    replayed = await rebuilt(store.games, rec.id)
    assert replayed == game
    await check_consistency(store.games, rec.id)


async def test_consistency_check_catches_a_bad_snapshot(store):
    rec, game = await started(store)
    rec = await play(store, rec, game, "roll")
    game.pos[1] = 5
    await raw_execute(store, "UPDATE games SET state = ? WHERE id = ?", json.dumps(game.to_dict()), rec.id)
    with pytest.raises(InconsistentSnapshot):
        await check_consistency(store.games, rec.id)


async def test_restart_sees_everything(twin_stores):
    async with twin_stores() as store:
        rec, game = await started(store)
        rec = await play(store, rec, game, "roll")
    async with twin_stores() as store:
        again = await store.games.channel_game(100)
        assert again == rec
        assert ToyGame.from_dict(again.state) == game
        await check_consistency(store.games, rec.id)


async def test_unknown_game(store):
    with pytest.raises(GameNotFound):
        await store.games.get_game(12345)


def test_db_path_from_environment(monkeypatch):
    monkeypatch.setenv("JUNKYARD_DB", "/data/x.db")
    assert default_db_path() == "/data/x.db"
    monkeypatch.delenv("JUNKYARD_DB")
    assert default_db_path() == "junkyard.db"


async def test_lobby_write_from_stale_seats_is_refused(store):
    """Two processes joining at once: the second write read seats that are gone, so it is refused."""
    rec = await store.games.create_game(guild_id=5, channel_id=100, game_key="toy", host_id=1, setup={}, seed=1,
                                        seats=SEATS[:1])
    await store.games.update_lobby(rec.id, seats=SEATS, expected_seats=rec.seats)
    with pytest.raises(StaleVersion):
        await store.games.update_lobby(rec.id, seats=[*SEATS[:1], Seat(3, "Cat")], expected_seats=rec.seats)
    with pytest.raises(StaleVersion):
        await store.games.start_game(rec.id, setup=SETUP, seats=SEATS[:1], state={})
    assert (await store.games.get_game(rec.id)).seats == SEATS


async def test_a_new_migration_upgrades_an_existing_file(db_path, monkeypatch):
    """A database made by an older program gains the new migration and keeps its games."""
    import bot.store.sqlite as store_module

    async with SqliteStore(db_path) as store:
        rec, _ = await started(store)
    upgraded = [*MIGRATIONS, "ALTER TABLE games ADD COLUMN note TEXT NOT NULL DEFAULT '';"]
    monkeypatch.setattr(store_module, "MIGRATIONS", upgraded)
    async with SqliteStore(db_path) as store:
        assert await store.schema_version() == len(upgraded)
        assert (await store.games.get_game(rec.id)).seats == SEATS
    with sqlite3.connect(db_path) as con:
        assert con.execute("SELECT note FROM games").fetchall() == [("",)]


async def test_a_failing_migration_leaves_the_file_as_it_was(db_path, monkeypatch):
    import bot.store.sqlite as store_module

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
    rec = await store.games.append_action(rec.id, expected_version=0, seat=0, user_id=1, action="roll",
                                          state=game.to_dict(), outgoing=[out])
    [d] = await store.outbox.deliveries(game_id=rec.id)
    assert (d.id, d.version, d.channel_id, d.payload, d.claimed_by) == (out.id, 1, 100, {"lines": ["Ann rolled."]},
                                                                        "me")
    assert not d.delivered and d.message_id is None
    game.apply("pass")  # the same reply's next move updates the same record
    out.payload = {"lines": ["Ann rolled.", "Ann passed."]}
    await store.games.append_action(rec.id, expected_version=1, seat=0, user_id=1, action="pass", state=game.to_dict(),
                                    outgoing=[out])
    [d] = await store.outbox.deliveries(game_id=rec.id)
    assert d.version == 2 and d.payload["lines"] == ["Ann rolled.", "Ann passed."]


async def test_a_refused_write_leaves_no_delivery_record(store):
    rec, _ = await started(store)
    out = Outgoing({"lines": ["x"]})
    with pytest.raises(StaleVersion):
        await store.games.append_action(rec.id, expected_version=5, seat=0, user_id=1, action="roll", state={},
                                        outgoing=[out])
    assert out.id is None and await store.outbox.deliveries() == []


async def test_delivery_records_are_claimed_once_and_delivered_once(store):
    rec, _ = await started(store)
    held = Outgoing({"lines": ["held"]}, owner="writer", lease=60)
    free = Outgoing({"lines": ["free"]})
    await store.games.set_status(rec.id, "aborted", outgoing=[held])
    rec2, _ = await started(store, channel=-5)
    await store.games.set_status(rec2.id, "aborted", outgoing=[free])
    now = store._clock()
    assert [d.id for d in await store.outbox.claim_deliveries("worker", now=now, lease=10)] == [free.id]
    assert await store.outbox.claim_deliveries("worker2", now=now, lease=10) == []  # both held now
    assert [d.id for d in await store.outbox.claim_deliveries("worker2", now=now + 11, lease=10)] == [free.id]
    taken = await store.outbox.claim_deliveries("restarted", now=now + 12, lease=10, takeover=True, min_channel_id=1)
    assert [d.id for d in taken] == [held.id]  # a restarted process takes over; terminal channels are skipped
    assert await store.outbox.mark_delivered(held.id, 42) and not await store.outbox.mark_delivered(held.id, 43)
    [d] = await store.outbox.deliveries(game_id=rec.id)
    assert d.message_id == 42 and d.delivered
    await store.outbox.release_delivery(free.id, due_at=now + 100)
    assert await store.outbox.claim_deliveries("w", now=now + 50, lease=1, takeover=True) == []
    assert [d.id for d in await store.outbox.deliveries(pending=True)] == [free.id]


async def test_one_record_of_a_channel_is_claimed_alone_when_free_and_due(store):
    """Keeping a channel's order, a worker claims the one earlier record it must deliver first: only while it is
    undelivered, due and nobody holds it."""
    rec, _ = await started(store)
    held = Outgoing({"lines": ["held"]}, owner="writer", lease=60)
    later = Outgoing({"lines": ["later"]}, due_at=store._clock() + 30)
    free = Outgoing({"lines": ["free"]})
    await store.games.set_status(rec.id, "aborted", outgoing=[held, later, free])
    now = store._clock()
    assert [d.id for d in await store.outbox.deliveries(channel_id=rec.channel_id, pending=True)] == [
        held.id, later.id, free.id]
    assert await store.outbox.deliveries(channel_id=rec.channel_id + 1) == []
    assert await store.outbox.claim_delivery(held.id, "w", now=now, lease=10) is None  # held by its writer
    assert await store.outbox.claim_delivery(later.id, "w", now=now, lease=10) is None  # not due
    mine = await store.outbox.claim_delivery(free.id, "w", now=now, lease=10)
    assert mine is not None and mine.claimed_by == "w" and mine.attempts == 1
    assert await store.outbox.claim_delivery(free.id, "v", now=now, lease=10) is None  # once
    assert await store.outbox.mark_delivered(free.id, 7)
    assert await store.outbox.claim_delivery(free.id, "v", now=now + 60, lease=10) is None  # delivered


async def test_the_next_timer_due_is_known_without_claiming_it(store):
    from bot.store import NewTimer

    rec, _ = await started(store)
    assert await store.turns.next_due() is None
    await store.turns.mark_turn(rec.id, version=rec.version, seat=0, started_at=10.0,
                                timers=[NewTimer("remind", 0, 500.0), NewTimer("deadline", 0, 200.0)])
    assert await store.turns.next_due() == 200.0
    [t] = await store.turns.claim_timers("a", now=300.0, lease=60)
    assert t.due_at == 200.0 and await store.turns.next_due() == 360.0  # held until then
    await store.turns.finish_timer(t.id)
    assert await store.turns.next_due() == 500.0


async def test_the_queue_of_games_waiting_on_computers(store):
    rec, game = await started(store)
    game.apply("roll")
    await store.games.append_action(rec.id, expected_version=0, seat=0, user_id=1, action="roll", state=game.to_dict(),
                                    computers_waiting=True)
    assert await store.games.waiting_on_computers() == [(rec.id, 100)]
    game.apply("pass")
    await store.games.append_action(rec.id, expected_version=1, seat=0, user_id=1, action="pass", state=game.to_dict())
    assert await store.games.waiting_on_computers() == []



#: a read that keeps the connection's thread busy for a moment
SLOW = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000000) SELECT count(*) FROM c"


async def test_a_write_cancelled_while_its_commit_waits_raises_the_cancellation_and_stands(db_path):
    """A bot that closes cancels its ticker wherever it waits, also on a COMMIT still queued on the connection's
    thread. That COMMIT runs anyway, so there is nothing left to roll back: the caller must get the cancellation,
    not the failed ROLLBACK (the ticker would take that for a failed write, go on, and the bot never close). The
    write stands, and the store writes on."""
    async with SqliteStore(db_path) as store:
        rec, _ = await started(store)
        real = store.db.execute
        queued: list[asyncio.Future[object]] = []

        def execute(sql: str, *args: object) -> object:
            if sql != "COMMIT":
                return real(sql, *args)

            async def cancelled() -> None:  # the thread is busy, the COMMIT waits behind, its caller is cancelled
                queued.append(asyncio.ensure_future(real(SLOW)))
                queued.append(asyncio.ensure_future(real("COMMIT")))
                await asyncio.sleep(0)  # both on the thread's queue
                raise asyncio.CancelledError

            return cancelled()

        store.db.execute = execute  # type: ignore[method-assign,assignment]
        with pytest.raises(asyncio.CancelledError):
            await store.turns.mark_turn(rec.id, version=rec.version, seat=0, started_at=5.0, timers=[])
        store.db.execute = real  # type: ignore[method-assign]
        await asyncio.gather(*queued)
        assert (await store.turns.turn_mark(rec.id)).started_at == 5.0
        await store.turns.mark_turn(rec.id, version=rec.version, seat=1, started_at=6.0, timers=[])
        assert (await store.turns.turn_mark(rec.id)).seat == 1

# Timers, settings, results, undo, players' games ------------------------------------------------------------


async def test_a_timer_is_claimed_by_one_owner_and_fires_once(store):
    rec = await store.games.create_game(guild_id=1, channel_id=5, game_key="toy", host_id=1, setup={}, seed=1)
    await store.turns.mark_turn(rec.id, version=0, seat=0, started_at=10.0,
                                timers=[NewTimer("remind", 0, 100.0, {"n": 1})])
    assert await store.turns.claim_timers("a", now=99.0, lease=60) == []
    [claimed] = await store.turns.claim_timers("a", now=100.0, lease=60)
    assert (claimed.kind, claimed.data, claimed.claimed_by, claimed.claimed_until) == ("remind", {"n": 1}, "a", 160.0)
    assert await store.turns.claim_timers("b", now=120.0, lease=60) == []  # held by a
    assert [c.id for c in await store.turns.claim_timers("b", now=120.0, lease=60, takeover=True)] == [claimed.id]
    assert await store.turns.finish_timer(claimed.id, then=NewTimer("remind", 0, 200.0, {"n": 2}))
    assert not await store.turns.finish_timer(claimed.id)
    [pending] = await store.turns.timers(game_id=rec.id, pending=True)
    assert (pending.due_at, pending.data, pending.version) == (200.0, {"n": 2}, 0)
    assert len(await store.turns.timers(game_id=rec.id)) == 2
    await store.turns.mark_turn(rec.id, version=0, seat=1, started_at=20.0, timers=[])  # a new turn replaces them
    assert await store.turns.timers(game_id=rec.id, pending=True) == []
    mark = await store.turns.turn_mark(rec.id)
    assert (mark.version, mark.seat, mark.started_at) == (0, 1, 20.0)


async def test_unmarked_turns_are_running_games_at_a_version_the_timing_has_not_seen(store):
    rec, game = await started(store)
    assert [g.id for g in await store.turns.unmarked_turns()] == [rec.id]
    await store.turns.mark_turn(rec.id, version=0, seat=0, started_at=1.0, timers=[])
    assert await store.turns.unmarked_turns() == []
    await play(store, rec, game, "roll")
    assert [g.version for g in await store.turns.unmarked_turns()] == [1]


async def test_settings_by_scope_owner_and_target(store):
    assert await store.settings.get_settings("game", 7) == {}
    await store.settings.put_settings("game", 7, 0, {"notify": "dm"})
    await store.settings.put_settings("game", 7, 0, {"notify": "off"})  # replaced, not merged
    await store.settings.put_settings("game", 7, 9, {"notify": "channel"})
    await store.settings.put_settings("server", 7, 0, {"remind_hours": 6})
    assert await store.settings.get_settings("game", 7) == {"notify": "off"}
    assert await store.settings.all_settings("game") == [(7, 0, {"notify": "off"}), (7, 9, {"notify": "channel"})]
    assert await store.settings.settings_of([("server", 7, 0), ("game", 7, 1), ("game", 7, 9), ("game", 7, 0)]) \
        == [{"remind_hours": 6}, {}, {"notify": "channel"}, {"notify": "off"}]  # in the order asked, {} where none
    assert await store.settings.settings_of([]) == []


async def test_results_are_recorded_once_with_their_end_message(store):
    rec, _ = await started(store)
    assert await store.standings.unrecorded_ends() == []
    with pytest.raises(StaleVersion):  # not finished: nothing to record, and a running game can't be re-finished
        await store.games.set_status(rec.id, "finished", from_statuses=("lobby",))
    rows = [Result(rec.id, seat, user, name, place, place == 1, 3, "toy", 5, 100, 1.0, 2.0)
            for seat, user, name, place in ((0, 1, "Ann", 2), (1, 2, "Bob", 1))]
    assert not await store.standings.record_results(rec.id, rows)  # still running
    await store.games.set_status(rec.id, "finished")
    assert [g.id for g in await store.standings.unrecorded_ends()] == [rec.id]
    end = Outgoing({"lines": ["Bob won."]})
    assert await store.standings.record_results(rec.id, rows, [end])
    assert end.id is not None and (await store.outbox.delivery(end.id)).payload == {"lines": ["Bob won."]}
    assert not await store.standings.record_results(rec.id, rows, [Outgoing({"lines": ["again"]})])
    assert len(await store.outbox.deliveries(game_id=rec.id)) == 1
    assert await store.standings.unrecorded_ends() == []
    assert [(r.name, r.place, r.winner) for r in await store.standings.results(game_id=rec.id)] == [("Bob", 1, True),
                                                                                                    ("Ann", 2, False)]
    assert [r.seat for r in await store.standings.results(user_id=1)] == [0]
    assert await store.standings.results(guild_id=6) == [] and len(await store.standings.results(channel_id=100)) == 2


async def test_take_back_drops_the_last_actions_at_the_expected_version(store):
    rec, game = await started(store)
    before = game.to_dict()
    rec = await play(store, rec, game, "roll")
    rec = await play(store, rec, game, "pass")
    with pytest.raises(StaleVersion):
        await store.games.take_back(rec.id, expected_version=1, count=1, state=before)
    with pytest.raises(ValueError):
        await store.games.take_back(rec.id, expected_version=2, count=3, state=before)
    back = await store.games.take_back(rec.id, expected_version=2, count=2, state=before, outgoing=[Outgoing({"l": 1})])
    assert (back.version, back.state) == (0, before) and await store.games.actions(rec.id) == []
    assert (await store.outbox.latest_delivery(rec.id)).version == 0


async def test_a_users_games_follow_the_seats(store):
    rec = await store.games.create_game(guild_id=5, channel_id=100, game_key="toy", host_id=1, setup={}, seed=1,
                                        seats=SEATS[:1])
    assert [g.id for g in await store.games.games_of_user(1, "lobby")] == [rec.id]
    assert await store.games.games_of_user(2, "lobby") == []
    await store.games.update_lobby(rec.id, seats=[*SEATS, Seat(1, "Ann again")])
    assert [g.id for g in await store.games.games_of_user(1, "lobby")] == [rec.id]  # two seats, one game
    assert [g.id for g in await store.games.games_of_user(2, "lobby")] == [rec.id]
    await store.games.update_lobby(rec.id, seats=SEATS[1:])
    assert await store.games.games_of_user(1, "lobby") == []


async def test_hosts_seats_and_posted_messages(store):
    rec, game = await started(store)
    await store.games.set_host(rec.id, 2)
    assert (await store.games.get_game(rec.id)).host_id == 2
    robot = [SEATS[0], Seat(-1, "Robot", driver="smart")]
    with pytest.raises(StaleVersion):
        await store.games.replace_seats(rec.id, version=0, seats=robot, expected_seats=robot)  # seats were not these
    rec = await store.games.replace_seats(rec.id, version=0, seats=robot, expected_seats=SEATS, computers_waiting=True)
    assert rec.seats == robot and await store.games.waiting_on_computers() == [(rec.id, 100)]
    out = Outgoing({"lines": ["a"]})
    await play(store, rec, game, "roll")
    rec = await store.games.append_action(rec.id, expected_version=1, seat=0, user_id=1, action="pass",
                                          state=game.to_dict(), outgoing=[out])
    assert await store.outbox.delivery(out.id) == await store.outbox.latest_delivery(rec.id)
    assert await store.outbox.delivery(out.id + 1000) is None
    assert await store.outbox.mark_delivered(out.id, 555)
    assert await store.outbox.posted_messages(rec.id) == [555]
    assert await store.outbox.posted_messages(rec.id, after_version=2) == []


# Across processes: two stores with connections of their own on one database ---------------------------------


async def test_fifty_concurrent_presses_from_two_processes_apply_once(twin_stores):
    a, b = twin_stores(), twin_stores()
    await a.open()
    await b.open()
    rec, game = await started(a)
    game.apply("roll")
    presses = [(a if i % 2 else b).games.append_action(rec.id, expected_version=0, seat=0, user_id=1, action="roll",
                                                 state=game.to_dict(), outgoing=[Outgoing({"press": i})])
               for i in range(50)]
    results = await asyncio.gather(*presses, return_exceptions=True)
    assert [type(r) for r in results if isinstance(r, BaseException) and not isinstance(r, StaleVersion)] == []
    assert sum(not isinstance(r, BaseException) for r in results) == 1
    assert len(await b.games.actions(rec.id)) == 1 and (await a.games.get_game(rec.id)).version == 1
    assert len(await a.outbox.deliveries(game_id=rec.id)) == 1  # the refused presses left no record


async def test_two_processes_claim_each_delivery_and_timer_once(twin_stores):
    a, b = twin_stores(), twin_stores()
    await a.open()
    await b.open()
    for channel in range(1, 25):
        rec, _ = await started(a, channel=channel)
        await a.turns.mark_turn(rec.id, version=0, seat=0, started_at=0.0, timers=[NewTimer("remind", 0, 5.0)])
        await a.games.set_status(rec.id, "aborted", outgoing=[Outgoing({"channel": channel})])
    now = a._clock()

    async def drain(store: Store, owner: str, claim) -> list[int]:
        got: list[int] = []
        while batch := await claim(store, owner):
            got += [x.id for x in batch]
            await asyncio.sleep(0)
        return got

    for claim in (lambda s, o: s.outbox.claim_deliveries(o, now=now, lease=60, limit=3),
                  lambda s, o: s.turns.claim_timers(o, now=now, lease=60, limit=3)):
        taken = await asyncio.gather(*(drain(s, f"{name}{i}", claim) for i in range(3) for name, s in
                                       (("a", a), ("b", b))))
        every = [i for ids in taken for i in ids]
        assert len(every) == len(set(every)) == 24


async def test_a_dead_processs_lease_passes_to_another_once(twin_stores):
    a, b, c = twin_stores(), twin_stores(), twin_stores()
    for s in (a, b, c):
        await s.open()
    rec, _ = await started(a)
    await a.turns.mark_turn(rec.id, version=0, seat=0, started_at=0.0, timers=[NewTimer("deadline", 0, 1.0)])
    board = Outgoing({"lines": ["board"]}, owner="a", lease=10)  # held by its writer: no attempt yet
    await a.games.set_status(rec.id, "aborted", outgoing=[board])
    now = a._clock()
    assert [t.claimed_by for t in await a.turns.claim_timers("a", now=now, lease=10)] == ["a"]
    await a.close()  # killed while holding the board and the deadline
    assert await b.outbox.claim_deliveries("b", now=now + 5, lease=10) == []
    assert await b.turns.claim_timers("b", now=now + 5, lease=10) == []
    late = await asyncio.gather(b.outbox.claim_deliveries("b", now=now + 10.5, lease=10),
                                c.outbox.claim_deliveries("c", now=now + 10.5, lease=10))
    assert sorted(len(x) for x in late) == [0, 1] and [*late[0], *late[1]][0].attempts == 1
    timers = await asyncio.gather(b.turns.claim_timers("b", now=now + 10.5, lease=10),
                                  c.turns.claim_timers("c", now=now + 10.5, lease=10))
    assert sorted(len(x) for x in timers) == [0, 1]
    [timer] = [*timers[0], *timers[1]]
    assert await c.turns.finish_timer(timer.id) and not await b.turns.finish_timer(timer.id)


async def test_a_new_turn_and_a_firing_timer_from_two_processes_leave_only_the_new_turns_timers(twin_stores):
    """A fired reminder schedules its follower in the same transaction; a new turn seen meanwhile by another
    process replaces the game's pending timers. Whichever goes first, only the new turn's timers stay."""
    a, b = twin_stores(), twin_stores()
    await a.open()
    await b.open()
    games = []
    for channel in range(1, 13):
        rec, _ = await started(a, channel=channel)
        await a.turns.mark_turn(rec.id, version=0, seat=0, started_at=0.0, timers=[NewTimer("remind", 0, 1.0)])
        games.append(rec.id)
    claimed = {t.game_id: t for t in await a.turns.claim_timers("a", now=2.0, lease=60)}
    await asyncio.gather(*(job for g in games for job in (
        a.turns.finish_timer(claimed[g].id, then=NewTimer("remind", 0, 50.0, {"follower": True})),
        b.turns.mark_turn(g, version=0, seat=1, started_at=3.0, timers=[NewTimer("remind", 1, 99.0)]))))
    for g in games:
        assert [(t.seat, t.due_at) for t in await b.turns.timers(game_id=g, pending=True)] == [(1, 99.0)]


# Shards ------------------------------------------------------------------------------------------------------


def test_a_servers_shard_is_discords():
    """Discord's rule: shard = (guild_id >> 22) % shard_count; games outside a server are shard 0's."""
    assert shard_of(41771983423143937, 1) == 0
    assert shard_of(3 << 22, 2) == 1 and shard_of(3 << 22, 4) == 3 and shard_of(4 << 22, 4) == 0
    assert shard_of(None, 3) == 0


async def test_shards_narrow_every_query_that_finds_work(store):
    even, odd = 2 << 22, 3 << 22  # shard 0 and shard 1 of 2
    games = {}
    for channel, guild in ((1, even), (2, odd), (3, None)):
        rec, game = await started(store, channel=channel, guild=guild)
        game.apply("roll")
        await store.games.append_action(rec.id, expected_version=0, seat=0, user_id=1, action="roll",
                                        state=game.to_dict(), computers_waiting=True,
                                        outgoing=[Outgoing({"c": channel})])
        await store.turns.mark_turn(rec.id, version=0, seat=0, started_at=0.0, timers=[NewTimer("remind", 0, 1.0)])
        games[guild] = rec.id
    ended, _ = await started(store, channel=4, guild=odd)
    await store.games.set_status(ended.id, "finished")
    now = store._clock()

    async def seen() -> dict[str, set[int]]:
        return {
            "open": {g.id for g in await store.games.open_games()},
            "computers": {g for g, _ in await store.games.waiting_on_computers()},
            "unmarked": {g.id for g in await store.turns.unmarked_turns()},
            "ends": {g.id for g in await store.standings.unrecorded_ends()},
            "deliveries": {d.game_id for d in await store.outbox.claim_deliveries("x", now=now, lease=0.001)},
            "timers": {t.game_id for t in await store.turns.claim_timers("x", now=now, lease=0.001)},
        }

    store.set_shards(2, [1])
    assert await seen() == {"open": {games[odd]}, "computers": {games[odd]}, "unmarked": {games[odd]},
                            "ends": {ended.id}, "deliveries": {games[odd]}, "timers": {games[odd]}}
    now += 1
    store.set_shards(2, [0])
    assert await seen() == {"open": {games[even], games[None]}, "computers": {games[even], games[None]},
                            "unmarked": {games[even], games[None]}, "ends": set(),
                            "deliveries": {games[even], games[None]}, "timers": {games[even], games[None]}}
    now += 1
    store.set_shards(2)  # every shard again
    assert store.shards is None and (await seen())["deliveries"] == {*games.values()}
    assert await store.games.channel_game(2) is not None  # a game found by its channel is any shard's


def test_impossible_shards_are_refused():
    store = SqliteStore(":memory:")
    for count, ids in ((0, None), (2, [2]), (2, [-1]), (2, [])):
        with pytest.raises(ValueError):
            store.set_shards(count, ids)
    store.set_shards(4, [3, 1, 1])
    assert store.shards == (4, (1, 3))


# Raw rows for copying --------------------------------------------------------------------------------------


async def filled(store: Store) -> list[int]:
    """A store with a bit of everything: running, finished and lobby games, records, timers, settings, results."""
    ids = []
    for channel in (10, 11, 12):
        rec, game = await started(store, channel=channel, guild=channel << 22)
        for text in ("roll", "pass", "roll"):
            rec = await play(store, rec, game, text)
        await store.turns.mark_turn(rec.id, version=rec.version, seat=0, started_at=1.5,
                                    timers=[NewTimer("remind", 0, 9.25)])
        ids.append(rec.id)
    out = Outgoing({"lines": ["the end"]}, owner="w", lease=5)
    await store.games.set_status(ids[0], "finished", outgoing=[out])
    await store.outbox.mark_delivered(out.id, 123456789012345678)
    await store.standings.record_results(ids[0], [Result(ids[0], 0, 1, "Ann", 1, True, 3, "toy", 10 << 22, 10, 1.0,
                                                         2.5)])
    await store.games.create_game(guild_id=None, channel_id=-7, game_key="toy", host_id=1, setup={}, seed=2**61,
                                  seats=SEATS)
    await store.settings.put_settings("server", 10 << 22, 0, {"lang": "de"})
    season = await store.standings.start_season(10 << 22, "Spring", at=1.0, by=1)
    await store.standings.end_season(10 << 22, at=3.0)
    await store.standings.replace_ratings(10 << 22, season.id, [
        Rating(10 << 22, "toy", season.id, 1, "Ann", 27.5, 7.25, 1, 1, 3, 2, 0, 40.5, 2.5)],
        [RatingChange(ids[0], season.id, 1, 10 << 22, "toy", 25.0, 8.0, 27.5, 7.25, 2.5)])
    return ids


async def copy(source: Store, target: Store) -> None:
    for table in source.tables():
        await target.insert_rows(table, [r async for r in source.rows(table, batch=2)])


async def dump(store: Store) -> dict[str, list[dict]]:
    return {t: [r async for r in store.rows(t)] for t in store.tables()}


async def test_rows_copy_into_an_empty_database_and_new_rows_follow_them(twin_stores):
    source, target = twin_stores(), twin_stores("copy")
    await source.open()
    await target.open()
    ids = await filled(source)
    await copy(source, target)
    assert await dump(target) == await dump(source)
    assert len((await dump(source))["actions"]) == 9
    for game_id in ids:
        await check_consistency(target.games, game_id)
    assert {g.id for g in await target.games.games_of_user(2)} == set(ids[1:])  # who sits where is derived again
    new, _ = await started(target, channel=13)
    assert new.id > max(g["id"] for g in (await dump(source))["games"])
    await target.games.set_status(new.id, "aborted", outgoing=[(out := Outgoing({"x": 1}))])
    assert out.id > max(d["id"] for d in (await dump(source))["deliveries"])
    # the ratings and seasons came along: the same ladder and chart, and a new season follows the copied one
    [copied] = await target.standings.seasons(10 << 22)
    assert await target.standings.ladder(10 << 22, copied.id) == await source.standings.ladder(10 << 22, copied.id)
    assert await target.standings.rating_history(10 << 22, "toy", copied.id, 1) == \
        await source.standings.rating_history(10 << 22, "toy", copied.id, 1) != []
    assert (await target.standings.start_season(10 << 22, "Summer", at=5.0, by=1)).id > copied.id
    with pytest.raises(StoreError):
        [r async for r in source.rows("players")]


@pytest.mark.parametrize("twin_stores", ["postgresql"], indirect=True)
async def test_rows_round_trip_sqlite_postgresql_sqlite(twin_stores, tmp_path):
    async with SqliteStore(tmp_path / "a.db") as first, twin_stores() as middle, \
            SqliteStore(tmp_path / "b.db") as last:
        await filled(first)
        await copy(first, middle)
        await copy(middle, last)
        assert await dump(last) == await dump(middle) == await dump(first)


def test_the_address_picks_the_backend(monkeypatch):
    assert is_database_url("postgresql://u:p@h/db") and is_database_url("postgres://h/db")
    assert not is_database_url("junkyard.db") and not is_database_url("/data/postgresql.db")
    monkeypatch.setenv("JUNKYARD_DB", "/data/x.db")
    store = open_store(None)
    assert isinstance(store, SqliteStore) and store.path == "/data/x.db"
    from bot.store.postgres import PostgresStore

    monkeypatch.setenv("JUNKYARD_DB", "postgres://u@h/db")
    assert isinstance(open_store(None), PostgresStore)
    assert isinstance(open_store("postgresql://u@h/db"), PostgresStore)


# PostgreSQL's migrations ------------------------------------------------------------------------------------

pg_only = pytest.mark.parametrize("twin_stores", ["postgresql"], indirect=True)


@pg_only
async def test_postgresql_migrates_an_empty_database_once_even_when_processes_start_together(twin_stores):
    from bot.store.postgres import PG_MIGRATIONS

    stores = [twin_stores() for _ in range(3)]
    await asyncio.gather(*(s.open() for s in stores))
    assert [await s.schema_version() for s in stores] == [len(PG_MIGRATIONS)] * 3
    await started(stores[0])
    async with twin_stores() as again:
        assert (await again.games.channel_game(100)).seats == SEATS


@pg_only
async def test_postgresql_refuses_a_newer_schema_and_keeps_a_failed_migration_out(twin_stores, monkeypatch):
    import bot.store.postgres as pg

    store = twin_stores()
    await store.open()
    await started(store)
    await store.pool.execute("UPDATE schema_version SET version = 999")
    with pytest.raises(StoreError, match="newer"):
        await twin_stores().open()
    await store.pool.execute("UPDATE schema_version SET version = $1", len(pg.PG_MIGRATIONS))
    monkeypatch.setattr(pg, "PG_MIGRATIONS", [*pg.PG_MIGRATIONS, "ALTER TABLE games ADD COLUMN note TEXT; NOT SQL;"])
    with pytest.raises(Exception, match="syntax"):
        await twin_stores().open()
    monkeypatch.undo()
    assert await store.schema_version() == len(pg.PG_MIGRATIONS)
    columns = await store.pool.fetch("SELECT column_name FROM information_schema.columns WHERE table_name = "
                                     "'games' AND table_schema = $1", store.schema)
    assert "note" not in {r[0] for r in columns} and await store.games.channel_game(100) is not None


async def test_an_unreachable_postgresql_database_is_one_line_without_its_password():
    from bot.store.postgres import PostgresStore, shown_url

    assert shown_url("postgresql://jy:secret@db:5432/x") == "postgresql://jy:***@db:5432/x"
    assert shown_url("postgres://db/x") == "postgres://db/x"
    with pytest.raises(StoreError, match=r"cannot open the PostgreSQL database postgresql://jy:\*\*\*@127.0.0.1:9/x") \
            as err:
        await PostgresStore("postgresql://jy:secret@127.0.0.1:9/x").open()
    assert "secret" not in str(err.value)


async def test_what_a_move_reads_comes_at_once_and_says_what_the_parts_say(store):
    """:meth:`Store.read_move` (one trip on every backend) reads the channel's open game, its newest turn record,
    the channel's waiting records and the settings rows named for that game, as the parts would one by one."""
    assert await store.read_move(100, lambda rec: [("user", 1, rec.id)]) == MoveRead(None)
    rec, game = await started(store)
    rec = await play(store, rec, game, "roll")
    posted, edited, note = Outgoing({"lines": ["a"]}), Outgoing({"lines": ["b"]}, kind="edit"), Outgoing({}, "note")
    rec = await store.games.append_action(rec.id, expected_version=1, seat=0, user_id=1, action="pass",
                                          state=game.to_dict(), outgoing=[posted, edited, note])
    await store.outbox.mark_delivered(posted.id, 555)
    await store.settings.put_settings("user", 1, rec.id, {"auto": False})
    await store.settings.put_settings("plan", 2, rec.id, {"items": ["roll"]})
    read = await store.read_move(100, lambda r: [("user", 1, r.id), ("plan", 2, r.id), ("user", 3, r.id),
                                                 ("user", 1, r.id)])
    assert read.game == await store.games.channel_game(100) == rec
    assert read.latest == await store.outbox.latest_delivery(rec.id) and read.latest.id == edited.id
    assert read.pending == tuple(d.id for d in await store.outbox.deliveries(channel_id=100, pending=True)) \
        == (edited.id, note.id)
    assert read.settings == {("user", 1, rec.id): {"auto": False}, ("plan", 2, rec.id): {"items": ["roll"]},
                             ("user", 3, rec.id): {}}
    assert await store.read_move(101, lambda r: []) == MoveRead(None)  # another channel's game: none
