"""How soon a page shows a move another process stored: the pages' server in this process, the moves stored by a
child process through its own service and store (as ``junkyard web`` beside ``junkyard bot``), no wake-up between
them but the store's (SQLite: the server's look every tenth of a second; PostgreSQL: ``NOTIFY``).

* ``web_update_cross_process_ms`` / ``_worst_ms``: from the child's commit of a move (its wall clock, told on its
  standard output) to the live update's arrival at a client of the server's stream, median and worst of 20 moves
  (each after a random pause of up to 0.2 s, so moves fall anywhere between two looks), on SQLite;
* ``pg_web_update_cross_process_ms`` / ``_worst_ms``: the same on PostgreSQL (``JUNKYARD_BENCH_PG``, a schema of
  its own dropped afterwards; skipped without it);
* ``web_look_idle_us``: what one look of the SQLite server costs when nothing was committed (median of 2,000).

The child: ``python -m bench.cross_process WHERE SCHEMA CHANNEL`` (``-``: no schema), one move per line ``move``
on its input, the commit's time printed for each.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from bench.registry import Figures, benchmark

#: moves timed on each store
MOVES = 20
ROOT = Path(__file__).resolve().parents[1]


def _store(where: str, schema: str | None) -> Any:
    from bot.store import SqliteStore, is_database_url

    if is_database_url(where):
        from bot.store.postgres import PostgresStore

        return PostgresStore(where, schema=schema)
    return SqliteStore(where)


async def _write(where: str, schema: str | None, channel: int) -> None:
    """The child: moves of the channel's game stored on request, each one's commit time printed."""
    from bot import terminal as term
    from bot.play.service import Service

    async with _store(where, schema) as store:
        service = Service(store, seed_source=lambda: 7)
        stored: list[float] = []
        service.on_stored = lambda _game_id: stored.append(time.time())
        print("ready", flush=True)
        for line in sys.stdin:
            if line.strip() != "move":
                break
            stored.clear()
            await term.play_computers(service, channel, 1)
            print(repr(stored[-1] if stored else 0.0), flush=True)


async def _measure(where: str, schema: str | None) -> list[float]:
    """Milliseconds from each of :data:`MOVES` commits in a child process to the live update's arrival."""
    import aiohttp

    from bot import terminal as term
    from bot.play.service import Service
    from bot.telling.outcomes import Accepted
    from bot.web import links
    from bot.web.server import Limits, WebServer

    store = _store(where, schema)
    await store.open()
    server = WebServer(store, limits=Limits(rate=1e6, burst=10**6), poll_seconds=3600)
    child: asyncio.subprocess.Process | None = None
    try:
        opening, _ = await term.open_table(Service(store, seed_source=lambda: 7), term.new_channel_id(), "races",
                                           {"laps": 3, "track": "A"}, [term.SeatSpec("smart")] * 2)
        if not isinstance(opening.outcome, Accepted):
            raise RuntimeError(f"the race did not start: {opening.outcome}")
        rec = await store.games.get_game(opening.outcome.game_id)
        host, port = await server.start("127.0.0.1", 0)
        url = links.page_url(f"http://{host}:{port}", await links.link_token(store, rec.id)) + "/events"
        child = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bench.cross_process", where, schema or "-", str(rec.channel_id), cwd=ROOT,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
        assert child.stdin is not None and child.stdout is not None
        if (await asyncio.wait_for(child.stdout.readline(), 60)).strip() != b"ready":
            raise RuntimeError("the writing process did not start")
        arrived: asyncio.Queue[tuple[int, float]] = asyncio.Queue()
        async with aiohttp.ClientSession() as session, \
                session.get(url, timeout=aiohttp.ClientTimeout(total=None)) as answer:
            async def read() -> None:
                buffer = b""
                async for chunk in answer.content.iter_any():
                    now, buffer = time.time(), buffer + chunk
                    while b"\n\n" in buffer:
                        event, buffer = buffer.split(b"\n\n", 1)
                        for line in event.split(b"\n"):
                            if line.startswith(b"data: "):
                                arrived.put_nowait((int(json.loads(line[6:]).get("moves", 0)), now))

            reading = asyncio.get_running_loop().create_task(read())
            await arrived.get()
            await asyncio.sleep(0.5)
            times = []
            pause = random.Random(7)
            for move in range(1, MOVES + 1):
                # moves come at any moment, not just after the server's last look
                await asyncio.sleep(pause.uniform(0.0, 0.2))
                child.stdin.write(b"move\n")
                await child.stdin.drain()
                stored_at = float(await asyncio.wait_for(child.stdout.readline(), 60))
                while True:
                    moves, at = await asyncio.wait_for(arrived.get(), 10)
                    if moves >= rec.version + move:
                        break
                times.append((at - stored_at) * 1000)
            reading.cancel()
        return times
    finally:
        if child is not None:
            if child.stdin is not None:
                child.stdin.close()
            try:
                await asyncio.wait_for(child.wait(), 10)
            except TimeoutError:
                child.kill()
                await child.wait()
        await server.close()
        await store.close()


def _figures(prefix: str, times: list[float]) -> Figures:
    return {f"{prefix}web_update_cross_process_ms": round(statistics.median(times), 1),
            f"{prefix}web_update_cross_process_worst_ms": round(max(times), 1)}


async def _look_us(path: Path) -> float:
    """Microseconds of one idle look of the SQLite store (nothing committed since the last)."""
    from bot.store import SqliteStore
    from bot.store.sqlite import _committed

    async with SqliteStore(path) as store:
        times = []
        for _ in range(2001):
            start = time.perf_counter()
            async with store._lock:
                await store._in_thread(_committed)
            times.append(time.perf_counter() - start)
    return round(statistics.median(times[1:]) * 1e6, 1)


async def _run() -> Figures:
    from bot.store.postgres import drop_schemas

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "cross.db"
        figures = _figures("", await _measure(str(path), None))
        figures["web_look_idle_us"] = await _look_us(path)
    url = os.environ.get("JUNKYARD_BENCH_PG")
    if url:
        schema = f"bench_{uuid.uuid4().hex[:12]}"
        try:
            figures.update(_figures("pg_", await _measure(url, schema)))
        finally:
            await drop_schemas(url, schema)
    return figures


@benchmark("web_cross_process")
def web_cross_process() -> Figures:
    return asyncio.run(_run())


if __name__ == "__main__":
    asyncio.run(_write(sys.argv[1], None if sys.argv[2] == "-" else sys.argv[2], int(sys.argv[3])))
