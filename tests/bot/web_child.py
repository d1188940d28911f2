"""Another process storing moves, for tests/bot/test_web_changes.py: ``python -m tests.bot.web_child WHERE SCHEMA
CHANNEL`` opens the store (a SQLite file, or a PostgreSQL URL with its schema; ``-``: none), prints ``ready``,
then for each line ``move`` on its standard input plays one computer move of the channel's game through its own
:class:`Service` and prints the wall-clock time at which the move was stored (committed); ``quit`` ends it."""

from __future__ import annotations

import asyncio
import sys
import time

from bot import terminal as term
from bot.play.service import Service
from bot.store import SqliteStore, Store, is_database_url


def _store(where: str, schema: str) -> Store:
    if is_database_url(where):
        from bot.store.postgres import PostgresStore

        return PostgresStore(where, schema=None if schema == "-" else schema)
    return SqliteStore(where)


async def main(where: str, schema: str, channel: int) -> None:
    async with _store(where, schema) as store:
        service = Service(store, seed_source=lambda: 3)
        stored: list[float] = []
        service.on_stored = lambda _game_id: stored.append(time.time())
        print("ready", flush=True)
        for line in sys.stdin:
            if line.strip() != "move":
                break
            stored.clear()
            await term.play_computers(service, channel, 1)
            print(f"{stored[-1] if stored else 0.0!r}", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
