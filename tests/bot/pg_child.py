"""A process of the bot on a shared PostgreSQL database, driven by tests/bot/test_pg_processes.py.

``python -m tests.bot.pg_child press URL SCHEMA CHANNEL USER ACTION VERSION GAME COUNT``
    opens the store, prints ``ready``, waits for a line on standard input, then presses one button (the
    same action at the same version) COUNT times at once through its own :class:`Service` and prints one
    JSON line: for every press whether it was applied (``ok``), refused as stale, and the refusal's text.

``python -m tests.bot.pg_child work URL SCHEMA POSTS_DB LEASE POLL [--hang]``
    the bot's outbox and timing ticker, as a second live process runs them (it takes over nothing a live
    process holds): every POLL seconds it posts the boards that are due and free and fires the timers, to
    a recording stand-in for Discord (POSTS_DB, a SQLite file: one row per message with its nonce, the
    process and the time, and one per claim of boards or timers). Records are held for LEASE seconds.
    ``--hang``: the first post and the first timer message never return (the process prints ``holding
    post`` / ``holding timer`` and waits to be killed), so it dies holding what it claimed. Without it the
    process stops once nothing is due.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sqlite3
import sys
import time
from typing import Any

import bot.clock.timers
from bot import texts
from bot.clock.timers import Ticker
from bot.play.service import Service
from bot.store.postgres import PostgresStore
from bot.telling.compose import Message
from bot.telling.delivery import Outbox, Undeliverable
from bot.telling.outcomes import Accepted, Refusal
from bot.telling.pictures import Pictures


def say(line: str) -> None:
    print(line, flush=True)


class Recorder:
    """Discord's side: posts, edits and timer messages in one SQLite file; a nonce posts once."""

    def __init__(self, path: str, hang: bool) -> None:
        self.db = sqlite3.connect(path, isolation_level=None, timeout=30)
        self.db.execute("PRAGMA journal_mode = WAL")
        self.db.execute("CREATE TABLE IF NOT EXISTS posts (id INTEGER PRIMARY KEY, channel INTEGER, nonce TEXT UNIQUE, "
                        "kind TEXT, version INTEGER, pid INTEGER, at REAL, tries INTEGER DEFAULT 1)")
        self.db.execute("CREATE TABLE IF NOT EXISTS edits (id INTEGER PRIMARY KEY, message INTEGER, version INTEGER, "
                        "pid INTEGER, at REAL)")
        self.db.execute("CREATE TABLE IF NOT EXISTS claims (kind TEXT, ids TEXT, pid INTEGER, at REAL)")
        self.hang = hang
        self.holding: set[str] = set()

    def watch(self, store: PostgresStore) -> None:
        """Record every claim the process makes (what, which ids, when)."""
        for kind, part, name in (("deliveries", store.outbox, "claim_deliveries"),
                                 ("timers", store.turns, "claim_timers")):
            claim = getattr(part, name)

            async def recorded(*args: Any, _claim: Any = claim, _kind: str = kind, **kwargs: Any) -> Any:
                at = time.time()
                got = await _claim(*args, **kwargs)
                if got:
                    self.db.execute("INSERT INTO claims (kind, ids, pid, at) VALUES (?, ?, ?, ?)",
                                    (_kind, json.dumps([x.id for x in got]), os.getpid(), at))
                return got

            setattr(part, name, recorded)

    async def _hold(self, what: str) -> None:
        if self.hang:
            if what not in self.holding:
                self.holding.add(what)
                say(f"holding {what}")
            await asyncio.Event().wait()  # killed here

    def _post(self, channel_id: int, nonce: str, kind: str, version: int | None) -> int:
        row = self.db.execute("SELECT id FROM posts WHERE nonce = ?", (nonce,)).fetchone()
        if row is not None:  # Discord answers a repeated nonce with the message already posted
            self.db.execute("UPDATE posts SET tries = tries + 1 WHERE id = ?", (row[0],))
            return int(row[0])
        cur = self.db.execute("INSERT INTO posts (channel, nonce, kind, version, pid, at) VALUES (?, ?, ?, ?, ?, ?)",
                              (channel_id, nonce, kind, version, os.getpid(), time.time()))
        assert cur.lastrowid is not None
        return cur.lastrowid

    async def post(self, channel_id: int, message: Message, nonce: str) -> int | None:
        await self._hold("post")
        return self._post(channel_id, nonce, "board", message.version)

    async def edit(self, channel_id: int, message_id: int, message: Message | None) -> int | None:
        await self._hold("post")
        if self.db.execute("SELECT id FROM posts WHERE id = ?", (message_id,)).fetchone() is None:
            raise Undeliverable("unknown message")
        self.db.execute("INSERT INTO edits (message, version, pid, at) VALUES (?, ?, ?, ?)",
                        (message_id, None if message is None else message.version, os.getpid(), time.time()))
        return message_id

    async def to_channel(self, channel_id: int, text: str, mention: int | None, nonce: str) -> int | None:
        await self._hold("timer")
        return self._post(channel_id, nonce, "timer", None)

    async def to_user(self, user_id: int, text: str, nonce: str) -> int | None:
        await self._hold("timer")
        return self._post(-user_id, nonce, "timer", None)

    async def deliver(self, accepted: Accepted) -> None:
        raise AssertionError("no autopilot in this test")


def stale(text: str, version: int) -> bool:
    """Whether a refusal says the press came too late: its move was made already (seen before it was
    stored, or at the store's write)."""
    late = texts.say("move.moved_on", "en", error="\0").split("\0")[0]
    return text == texts.say("stale_button", "en", old=version, now=version + 1) or text.startswith(late)


async def press(args: argparse.Namespace) -> int:
    store = PostgresStore(args.url, schema=args.schema)
    await store.open()
    service = Service(store, pictures=Pictures(processes=0))
    await store.games.channel_game(args.channel)  # the pool's connection is made before the go
    say("ready")
    await asyncio.to_thread(sys.stdin.readline)
    outcomes = await asyncio.gather(*(service.act(args.channel, args.user, args.action, args.version,
                                                  game_id=args.game) for _ in range(args.count)))
    say(json.dumps([{"ok": isinstance(o, Accepted), "stale": isinstance(o, Refusal) and stale(o.text, args.version),
                     "text": o.text[:200] if isinstance(o, Refusal) else ""} for o in outcomes]))
    await store.close()
    return 0


async def work(args: argparse.Namespace) -> int:
    bot.clock.timers.LEASE = args.lease
    store = PostgresStore(args.url, schema=args.schema)
    await store.open()
    service = Service(store, pictures=Pictures(processes=0))
    service.delivery_lease = args.lease
    recorder = Recorder(args.posts_db, args.hang)
    recorder.watch(store)
    outbox = Outbox(service, recorder, min_channel_id=1)
    ticker = Ticker(service, recorder)
    await ticker.open()
    say(f"owner {service.owner}")

    async def outbox_loop() -> None:
        while True:
            await outbox.flush()
            await asyncio.sleep(args.poll)

    async def ticker_loop() -> None:
        while True:
            await ticker.tick()
            await asyncio.sleep(args.poll)

    if args.hang:
        await asyncio.gather(outbox_loop(), ticker_loop())
        return 0
    deadline = time.time() + 60
    while time.time() < deadline:
        await outbox.flush()
        await ticker.tick()
        due = [t for t in await store.turns.timers(pending=True) if t.due_at <= time.time()]
        if not due and not await store.outbox.deliveries(pending=True):
            break
        await asyncio.sleep(args.poll)
    await store.close()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="mode", required=True)
    p = sub.add_parser("press")
    for name in ("url", "schema"):
        p.add_argument(name)
    for name in ("channel", "user"):
        p.add_argument(name, type=int)
    p.add_argument("action")
    for name in ("version", "game", "count"):
        p.add_argument(name, type=int)
    w = sub.add_parser("work")
    for name in ("url", "schema", "posts_db"):
        w.add_argument(name)
    w.add_argument("lease", type=float)
    w.add_argument("poll", type=float)
    w.add_argument("--hang", action="store_true")
    args = parser.parse_args()
    return asyncio.run(press(args) if args.mode == "press" else work(args))


if __name__ == "__main__":
    sys.exit(main())
