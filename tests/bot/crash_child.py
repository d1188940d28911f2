"""The process the crash test kills: it plays a race through the service and posts every board through the
outbox to a recording poster that stands in for Discord (posts, and edits of a turn's message).

``python -m tests.bot.crash_child GAME_DB POSTS_DB ACKS [--games N] [--crash-at commit:N | post:N] [--recover-only]``

At start it posts what the previous run left undelivered (as the bot does at start-up), then plays on:
people's moves are random legal actions, computers move through the service. When a race ends, the next
opens in the same channel (its host opens it, a second person joins, a computer is seated, the host
starts it; a run that finds a lobby a crash interrupted goes on from there), until ``--games`` races were
played there. After each acknowledged
move (the service replied that it is stored) a line ``game index action`` is appended to ACKS. The
poster keeps every post in POSTS_DB and, like Discord with ``enforce_nonce``, answers a repeated nonce with
the message already posted. ``--crash-at commit:N`` kills the process right after its Nth stored move,
before the board is posted; ``post:N`` right after its Nth post, before the post is recorded.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import signal
import sqlite3
import sys

from bot.drivers import driver_for
from bot.play.service import Service
from bot.store import SqliteStore
from bot.telling.compose import Message
from bot.telling.delivery import Outbox, Undeliverable
from bot.telling.outcomes import Accepted, Refusal
from bot.telling.pictures import Pictures

CHANNEL = 4242
#: a race of one lap on the shortest track: several end in a run
OPTIONS = {"laps": 1, "track": "A"}
PEOPLE = (11, 12)


def die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


class RecordingPoster:
    """Discord's side of the posts, in its own file: one row per message, a nonce posts once."""

    def __init__(self, path: str, crash_after: int | None) -> None:
        self.db = sqlite3.connect(path, isolation_level=None)
        self.db.execute("PRAGMA journal_mode = WAL")
        self.db.execute("PRAGMA synchronous = FULL")
        self.db.execute("CREATE TABLE IF NOT EXISTS posts (id INTEGER PRIMARY KEY, channel INTEGER, nonce TEXT UNIQUE, "
                        "version INTEGER, content TEXT, png INTEGER, buttons INTEGER)")
        self.db.execute("CREATE TABLE IF NOT EXISTS edits (id INTEGER PRIMARY KEY, message INTEGER, version INTEGER, "
                        "content TEXT, png INTEGER, buttons INTEGER)")
        self.crash_after = crash_after
        self.count = 0

    async def post(self, channel_id: int, message: Message, nonce: str) -> int | None:
        row = self.db.execute("SELECT id FROM posts WHERE nonce = ?", (nonce,)).fetchone()
        if row is not None:
            return int(row[0])
        cur = self.db.execute("INSERT INTO posts (channel, nonce, version, content, png, buttons) VALUES "
                              "(?, ?, ?, ?, ?, ?)", (channel_id, nonce, message.version, message.text,
                                                     int(bool(message.png)), len(message.buttons)))
        self.count += 1
        if self.crash_after is not None and self.count >= self.crash_after:
            die()  # posted, not yet recorded
        return cur.lastrowid

    async def edit(self, channel_id: int, message_id: int, message: Message | None) -> int | None:
        """A turn's message shows a new state (editing twice shows the same: an edit is idempotent); ``None``:
        it loses its buttons (a row without a version)."""
        if self.db.execute("SELECT id FROM posts WHERE id = ?", (message_id,)).fetchone() is None:
            raise Undeliverable("unknown message")
        if message is None:
            self.db.execute("INSERT INTO edits (message, version, content, png, buttons) VALUES (?, NULL, NULL, 0, 0)",
                            (message_id,))
        else:
            self.db.execute("INSERT INTO edits (message, version, content, png, buttons) VALUES (?, ?, ?, ?, ?)",
                            (message_id, message.version, message.text, int(bool(message.png)), len(message.buttons)))
        return message_id


async def play(args: argparse.Namespace) -> int:
    kind, _, n = (args.crash_at or ":").partition(":")
    store = SqliteStore(args.game_db)
    await store.open()
    service = Service(store, seed_source=lambda: 7, pictures=Pictures(processes=0))
    poster = RecordingPoster(args.posts_db, int(n) if kind == "post" else None)
    outbox = Outbox(service, poster, min_channel_id=1)
    commits = 0
    with open(args.acks, "a", encoding="utf-8") as acks:

        async def acknowledge(game_id: int, index: int, action: str) -> None:
            nonlocal commits
            acks.write(f"{game_id} {index} {action}\n")
            acks.flush()
            os.fsync(acks.fileno())
            commits += 1
            if kind == "commit" and commits >= int(n):
                die()  # stored and acknowledged, not yet posted

        async def deliver(outcome: Accepted | Refusal | None) -> None:
            """The records of what was accepted, then the computers' moves it left, batch by batch (as the
            bot's computer worker plays them once the records are out)."""
            while isinstance(outcome, Accepted):
                await outbox.deliver(outcome.deliveries)
                outcome = await service.play_computers(CHANNEL)

        await outbox.flush(takeover=True)
        if args.recover_only:
            await deliver(await service.play_computers(CHANNEL))
            # as the bot's outbox worker would, stay until what falls due later (the end message) is posted
            for _ in range(100):
                if not await store.outbox.deliveries(pending=True):
                    break
                await asyncio.sleep(0.1)
                await outbox.flush()
            await store.close()
            return 0
        await deliver(await service.play_computers(CHANNEL))  # what a crash left to the computers
        moves = 0
        while moves < args.moves:
            rec, game, _ = await service.current(CHANNEL)
            if rec is None:  # the last race ended (or none began): the next one opens, while races are left
                played = await store.games.channel_history(CHANNEL, args.games)
                if len(played) >= args.games:
                    break
                service.seed_source = itertools.repeat(7 + len(played)).__next__  # each race its own dice
                step = await service.new_game(guild_id=1, channel_id=CHANNEL, user_id=PEOPLE[0], user_name="Ann",
                                              game_key=args.game, options=OPTIONS, seat_options={})
            elif game is None:  # a lobby, perhaps left half set up by a crash: seats, then the start
                users = {seat.user_id for seat in rec.seats}
                if PEOPLE[1] not in users:
                    step = await service.join(CHANNEL, PEOPLE[1], "Bob")
                elif len(rec.seats) < 3:
                    step = await service.add_computer(CHANNEL, PEOPLE[0], "random")
                else:
                    step = await service.start(CHANNEL, PEOPLE[0])
            else:
                step = None
            if step is not None:
                if isinstance(step, Refusal):
                    print(f"refused: {step.text[:200]}", file=sys.stderr)
                    return 1
                await deliver(step)
                continue
            assert game is not None
            if game.is_over:
                break
            seat = game.to_act
            assert seat is not None
            action = driver_for(args.game, "random", rec.id * 1000 + rec.version * 31 + 5).choose(game, seat)
            outcome = await service.act(CHANNEL, rec.seats[seat].user_id, action)
            if isinstance(outcome, Refusal):
                print(f"refused: {outcome.text[:200]}", file=sys.stderr)
                return 1
            await acknowledge(rec.id, rec.version, action)
            moves += 1
            await deliver(outcome)
            await outbox.flush()  # what fell due meanwhile (the end message of the race before)
    await store.close()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("game_db")
    parser.add_argument("posts_db")
    parser.add_argument("acks")
    parser.add_argument("--game", default="races")
    parser.add_argument("--games", type=int, default=3, help="races played in the channel, one after another")
    parser.add_argument("--moves", type=int, default=10_000)
    parser.add_argument("--crash-at", default=None)
    parser.add_argument("--recover-only", action="store_true")
    return asyncio.run(play(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
