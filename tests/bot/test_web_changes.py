"""The pages hear of moves other processes store: on PostgreSQL by ``NOTIFY`` on commit (a lost listening
connection is replaced and nothing is missed), on SQLite by a cheap look at what was committed every tenth of a
second. A live stream shows such a move by that announcement or look, never by waiting for the pages' own poll
(set an hour away here), on both stores, from another store object and from a real second process. How fast it
arrives is measured, not asserted: ``python -m bench --json web`` gives ``web_update_cross_process_ms``."""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Collection
from pathlib import Path

import aiohttp
import pytest

from bot.play.service import Service
from bot.store import SqliteStore, Store
from tests.bot.web_helpers import Client, Stream, open_race, page_of, play, serving

ROOT = Path(__file__).resolve().parents[2]
#: a bound far below the pages' poll (an hour here) and far above any look or announcement, even on a busy
#: machine: a move arriving within it came by the change feed, not the poll
WITHIN = 10.0
#: moves stored in each test
MOVES = 5


async def _arrives(stream: Stream, moves: int, stored_at: float, clock: str = "perf") -> float:
    """Seconds from ``stored_at`` until the stream shows ``moves`` moves."""
    await stream.until(moves, timeout=WITHIN + 5)
    return (time.perf_counter() if clock == "perf" else time.time()) - stored_at


async def test_a_move_stored_through_another_store_reaches_a_live_stream_without_the_poll(twin_stores):
    """Both stores: the bot's moves through one store object (its own connection, as another process has), the
    pages' server on another, its poll an hour away; each move shows on the open stream long before
    the poll would bring it."""
    bot_store, web_store = twin_stores(), twin_stores()
    await bot_store.open()
    await web_store.open()
    service = Service(bot_store, seed_source=lambda: 3)
    stamps: list[float] = []
    service.on_stored = lambda _game_id: stamps.append(time.perf_counter())
    rec = await open_race(service)
    async with serving(web_store, poll_seconds=3600) as (_, base), aiohttp.ClientSession() as session:
        url = await page_of(bot_store, base, rec)
        async with Stream(Client(session), url + "/events") as stream:
            await stream.next()
            await asyncio.sleep(0.3)  # the server listens (PostgreSQL) and has its first look (SQLite)
            waits = []
            for _ in range(MOVES):
                rec = await play(service, rec, 1)
                waits.append(await _arrives(stream, rec.version, stamps[-1]))
    assert max(waits) < WITHIN, waits


@contextlib.asynccontextmanager
async def _writer(store: Store, channel: int) -> AsyncIterator[subprocess.Popen[str]]:
    """The benchmark's writing child (``python -m bench.cross_process``) on ``store``'s database, ready to store
    moves of the game in ``channel``: another process, as ``junkyard web`` beside ``junkyard bot``."""
    schema = getattr(store, "schema", None) or "-"
    where = str(store.path) if isinstance(store, SqliteStore) else str(getattr(store, "url"))  # noqa: B009
    proc = subprocess.Popen([sys.executable, "-m", "bench.cross_process", where, schema, str(channel)], cwd=ROOT,
                            text=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.stdout is not None
    try:
        assert (await asyncio.to_thread(proc.stdout.readline)).strip() == "ready"
        yield proc
    finally:
        with contextlib.suppress(OSError):
            assert proc.stdin is not None
            proc.stdin.write("quit\n")
            proc.stdin.close()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


async def _move(proc: subprocess.Popen[str]) -> float:
    """One move stored by the other process: when it was committed (wall clock)."""
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("move\n")
    proc.stdin.flush()
    return float(await asyncio.to_thread(proc.stdout.readline))


async def test_a_move_stored_by_another_process_reaches_a_live_stream_without_the_poll(twin_stores):
    """Both stores: a real second process stores the moves through its own service; each shows on the pages'
    open stream long before the poll would bring it."""
    store = twin_stores()
    await store.open()
    rec = await open_race(Service(store, seed_source=lambda: 3))
    async with serving(store, poll_seconds=3600) as (_, base), aiohttp.ClientSession() as session, \
            _writer(store, rec.channel_id) as proc:
        url = await page_of(store, base, rec)
        async with Stream(Client(session), url + "/events") as stream:
            await stream.next()
            await asyncio.sleep(0.3)
            waits = []
            for move in range(1, MOVES + 1):
                stored_at = await _move(proc)
                waits.append(await _arrives(stream, rec.version + move, stored_at, clock="wall"))
    assert max(waits) < WITHIN, waits


async def _listening_pid(store: Store) -> int:
    """The server process of the connection listening for ``store``'s announcements."""
    channel = getattr(store, "channel")  # noqa: B009
    for _ in range(100):
        pids = await getattr(store, "pool").fetch(  # noqa: B009
            "SELECT pid FROM pg_stat_activity WHERE query = $1", f'LISTEN "{channel}"')
        if pids:
            return int(pids[0][0])
        await asyncio.sleep(0.05)
    raise AssertionError("nobody listens")


async def test_a_lost_listening_connection_is_replaced_and_no_move_is_missed(twin_stores):
    """PostgreSQL: the listening connection is ended by the server (``pg_terminate_backend``); a move stored at
    once, while it may not listen yet, and one after still reach the open stream (the watched games are read
    again on reconnecting)."""
    bot_store, web_store = twin_stores(), twin_stores()
    if isinstance(bot_store, SqliteStore):
        pytest.skip("SQLite has no listening connection")
    await bot_store.open()
    await web_store.open()
    service = Service(bot_store, seed_source=lambda: 3)
    rec = await open_race(service)
    async with serving(web_store, poll_seconds=3600) as (_, base), aiohttp.ClientSession() as session:
        url = await page_of(bot_store, base, rec)
        async with Stream(Client(session), url + "/events") as stream:
            await stream.next()
            first = await _listening_pid(web_store)
            assert await getattr(bot_store, "pool").fetchval("SELECT pg_terminate_backend($1)", first)  # noqa: B009
            rec = await play(service, rec, 1)
            assert (await stream.until(rec.version, timeout=5))["moves"] == rec.version
            assert await _listening_pid(web_store) != first
            stamps: list[float] = []
            service.on_stored = lambda _game_id: stamps.append(time.perf_counter())
            rec = await play(service, rec, 1)
            assert await _arrives(stream, rec.version, stamps[-1]) < WITHIN


async def test_the_store_tells_which_watched_games_another_connection_changed(twin_stores):
    """Both stores' ``changes``: a game newly watched is told once at most (SQLite) or everything once
    (PostgreSQL, on listening); then only the watched game another connection wrote, never an unwatched one,
    and nothing while nothing is written."""
    bot_store, web_store = twin_stores(), twin_stores()
    await bot_store.open()
    await web_store.open()
    service = Service(bot_store, seed_source=lambda: 3)
    watched_game, other = await open_race(service), await open_race(service)
    watched = {watched_game.id}
    told: asyncio.Queue[Collection[int] | None] = asyncio.Queue()

    async def follow() -> None:
        async with contextlib.aclosing(web_store.changes(lambda: watched, every=0.05)) as feed:
            async for ids in feed:
                told.put_nowait(ids)

    async def heard(seconds: float) -> list[Collection[int] | None]:
        await asyncio.sleep(seconds)
        return [told.get_nowait() for _ in range(told.qsize())]

    task = asyncio.get_running_loop().create_task(follow())
    try:
        start = await heard(0.5)
        assert start in ([None], [[watched_game.id]]), start
        assert await heard(0.3) == []  # nothing written: nothing told
        await play(service, other, 1)
        assert await heard(0.3) == []  # a game nobody watches
        await play(service, watched_game, 1)
        assert [set(ids) for ids in await heard(0.3) if ids is not None] == [{watched_game.id}]
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
