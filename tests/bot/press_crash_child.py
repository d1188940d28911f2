"""The bot process the press-crash test kills: the real bot (the offline Discord stack, :mod:`bot.discord.offline`)
plays a game in one channel through presses of the live message's buttons and ``/game play`` commands, mixed,
while Discord's side of the channel is kept in a file of its own (the ledger), so it outlives the process.

``python -m tests.bot.press_crash_child GAME_DB LEDGER ACKS --game KEY [--crash-at WHEN:N] [--recover-only]``

At start it does what the bot does after a restart (the outbox delivers what was left, the computers left to
move play on), then plays until the game ends. Each move the bot accepted is appended to ACKS
(``game index action``) once its interaction was answered. ``--crash-at`` kills the process with SIGKILL:

- ``commit:N`` right after the Nth move the service stored, before anything is delivered (before the answer);
- ``request:N`` right after Discord applied the Nth public request, before its answer reaches the bot (while
  Discord's answer is on its way back);
- ``delivered:N`` when the Nth delivery is about to be recorded, after Discord showed it (between answer and
  record).

``--deny-send-at N`` takes Send Messages away from the bot in the channel after the Nth move stored, and kills
the process as soon as a record is held for it (the channel refused it: it waits, nothing is given up).
``--permission-back`` starts with the permission given back, as the gateway reports it (a channel update),
before anything else.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import random
import signal
import sqlite3
import sys
import time
from types import SimpleNamespace
from typing import Any

import discord

import bot.discord.offline as offline
import bot.telling.delivery
from bot.discord import JunkyardBot
from bot.discord.offline import DiscordHarness, Sent
from bot.play.service import Service
from bot.store import GameRecord, SqliteStore, Store
from bot.telling.outcomes import Accepted

CHANNEL = offline.CHANNEL_ID
ANN, BOB = 111_000_000_000_000_001, 222_000_000_000_000_002
OPTIONS = {"races": {"laps": 1, "track": "A"}, "rally": {"laps": 1}, "piecepack": {}}


def die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


class Ledger:
    """Discord's side of the channel, in its own file: each public message as it shows now, and the nonce it
    was posted with (a repeated nonce posts nothing new, as Discord's ``enforce_nonce`` does)."""

    def __init__(self, path: str) -> None:
        self.db = sqlite3.connect(path, isolation_level=None)
        self.db.execute("PRAGMA journal_mode = WAL")
        self.db.execute("PRAGMA synchronous = FULL")
        self.db.execute("CREATE TABLE IF NOT EXISTS messages (id INTEGER PRIMARY KEY, nonce TEXT UNIQUE, "
                        "message TEXT NOT NULL)")

    def messages(self) -> dict[int, tuple[str | None, dict[str, Any]]]:
        return {row[0]: (row[1], json.loads(row[2]))
                for row in self.db.execute("SELECT id, nonce, message FROM messages")}

    def post(self, message: dict[str, Any], nonce: str | None) -> None:
        self.db.execute("INSERT INTO messages (id, nonce, message) VALUES (?, ?, ?)",
                        (int(message["id"]), nonce, json.dumps(message)))

    def edit(self, message_id: int, body: dict[str, Any]) -> None:
        row = self.db.execute("SELECT message FROM messages WHERE id = ?", (message_id,)).fetchone()
        assert row is not None, f"an edit of message {message_id}, which Discord never showed"
        message = json.loads(row[0])
        for key in ("content", "components", "attachments"):
            if key in body:
                message[key] = body[key]
        self.db.execute("UPDATE messages SET message = ? WHERE id = ?", (json.dumps(message), message_id))


class LedgerHarness(DiscordHarness):
    """The offline harness with every public message also kept in the ledger, and a kill after the Nth
    public request Discord applied (``crash_after``)."""

    def __init__(self, bot: JunkyardBot, ledger: Ledger, crash_after: int | None) -> None:
        super().__init__(bot)
        self.ledger = ledger
        self.crash_after = crash_after
        self.public_requests = 0
        for nonce, message in ledger.messages().values():
            if nonce is not None:
                self._nonces[f"{CHANNEL}:{nonce}"] = message

    def _applied(self, sent: Sent) -> None:
        if sent.failed or sent.message is None or sent.dm or sent.ephemeral or sent.hidden:
            return
        if sent.kind == "channel" and not sent.repeated:
            self.ledger.post(sent.message, sent.payload.get("nonce"))
        elif sent.changes or (sent.kind == "edit" and "/channels/" in sent.url):
            self.ledger.edit(int(sent.message["id"]), sent.body)
        else:
            return
        self.public_requests += 1
        if self.crash_after is not None and self.public_requests >= self.crash_after:
            die()  # Discord shows it; its answer never reaches the bot

    async def _webhook_request(self, route: Any, session: Any = None, **kwargs: Any) -> Any:
        answer = await super()._webhook_request(route, session, **kwargs)
        self._applied(self.sent[-1])
        return answer

    async def _http_request(self, route: Any, **kwargs: Any) -> Any:
        answer = await super()._http_request(route, **kwargs)
        self._applied(self.sent[-1])
        return answer


def live_message(ledger: Ledger, message_id: int | None) -> dict[str, Any] | None:
    if message_id is None:
        return None
    found = ledger.messages().get(message_id)
    return found[1] if found is not None else None


async def play(args: argparse.Namespace) -> int:
    offline._ids = itertools.count(time.time_ns() // 1000 * 1000)  # message ids no earlier run gave
    when, _, n = (args.crash_at or ":").partition(":")
    store = SqliteStore(args.game_db)
    service = Service(store, seed_source=lambda: 11)
    client = JunkyardBot(service=service)
    ledger = Ledger(args.ledger)
    rng = random.Random(args.seed)
    counts = {"commit": 0, "delivered": 0}

    act, delivered = service.act, service.delivered

    deny_at: int | None = args.deny_send_at
    harness: list[LedgerHarness] = []

    async def acting(*a: Any, **k: Any) -> Any:
        outcome = await act(*a, **k)
        if isinstance(outcome, Accepted):
            counts["commit"] += 1
            if when == "commit" and counts["commit"] >= int(n):
                die()  # stored, nothing delivered
            if deny_at is not None and counts["commit"] >= deny_at:
                harness[0].deny(CHANNEL, discord.Permissions(send_messages=True).value)
        return outcome

    hold = bot.telling.delivery.hold

    async def holding(*a: Any, **k: Any) -> None:
        await hold(*a, **k)
        if deny_at is not None:
            die()  # the record waits for the channel; the process dies with it

    async def recording(d: Any, message_id: int | None) -> bool:
        counts["delivered"] += 1
        if when == "delivered" and counts["delivered"] >= int(n):
            die()  # shown, not recorded
        return await delivered(d, message_id)

    service.act = acting  # type: ignore[method-assign]
    service.delivered = recording  # type: ignore[method-assign]
    bot.telling.delivery.hold = holding  # type: ignore[assignment]
    async with LedgerHarness(client, ledger, int(n) if when == "request" else None) as h:
        harness.append(h)
        h.users.update({ANN: "ann", BOB: "bob"})
        if args.permission_back:  # the gateway reports the channel's permissions changed
            channel = SimpleNamespace(id=CHANNEL, guild=SimpleNamespace(id=offline.GUILD_ID))
            client.dispatch("guild_channel_update", channel, channel)
            await h.settle()
        await client.outbox.flush(takeover=True)  # what a stop left behind, as the bot does after READY
        await client.computers.resume()
        await h.settle()
        if args.recover_only:
            await client.outbox.flush()
            return 0
        with open(args.acks, "a", encoding="utf-8") as acks:
            for _ in range(5000):
                if not await step(h, store, ledger, args.game, rng, acks):
                    break
                await client.outbox.flush()  # what fell due meanwhile (the end message)
    return 0


async def step(h: LedgerHarness, store: SqliteStore, ledger: Ledger, key: str, rng: random.Random, acks: Any
               ) -> bool:
    """One interaction; False once the channel's game is over."""
    rec = await store.games.channel_game(CHANNEL)
    if rec is None:
        if await store.games.channel_history(CHANNEL, 1):
            return False
        await h.slash(ANN, "game new", game=key, **OPTIONS[key])
        return True
    if rec.status == "lobby":
        users = {s.user_id for s in rec.seats}
        if BOB not in users:
            await h.slash(BOB, "game join")
        elif len(rec.seats) < 3:
            await h.slash(ANN, "game computer", kind="random")
        else:
            await h.slash(ANN, "game start")
        return True
    game = await h.bot.service.load(rec)
    seat = game.to_act
    if seat is None or rec.seats[seat].is_computer:  # the computers move in the background
        h.bot.computers.wake(CHANNEL)
        await h.settle()
        return True
    await press_or_play(h, store, ledger, rec, rec.seats[seat].user_id, str(rng.choice(list(game.legal_actions()))),
                        rng, acks)
    return True


async def press_or_play(h: LedgerHarness, store: Store, ledger: Ledger, rec: GameRecord, user: int,
                        action: str, rng: random.Random, acks: Any) -> None:
    """``user`` plays ``action`` as a person does: the live message's button for it (most of the time, when it
    has one), else ``/game play``; a move the store then holds is acknowledged in ``acks`` (flushed to disk)."""
    latest = await store.outbox.latest_delivery(rec.id)
    message = live_message(ledger, latest.message_id if latest is not None else None)
    buttons = [c["custom_id"] for row in (message or {}).get("components", []) for c in row.get("components", [])
               if str(c.get("custom_id", "")).endswith(f":{rec.version}:{action}")]
    if buttons and message is not None and rng.random() < 0.6:
        await h.press_custom_id(user, message, buttons[0])
    else:
        await h.slash(user, "game play", action=action)
    after = await store.games.get_game(rec.id)
    done = await store.games.actions(rec.id, since=rec.version)
    if after.version == rec.version + 1 and done and done[0].action == action:
        acks.write(f"{rec.id} {rec.version} {action}\n")
        acks.flush()
        os.fsync(acks.fileno())


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("game_db")
    parser.add_argument("ledger")
    parser.add_argument("acks")
    parser.add_argument("--game", default="races")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--crash-at", default=None)
    parser.add_argument("--recover-only", action="store_true")
    parser.add_argument("--deny-send-at", type=int, default=None)
    parser.add_argument("--permission-back", action="store_true")
    return asyncio.run(play(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
