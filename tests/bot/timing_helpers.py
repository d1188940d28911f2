"""A bot on a fake clock for the timing tests: the store, the ticker and the boards' ping policy all read
it, and the tests move it forward; nothing sleeps."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from bot.discord import JunkyardBot
from bot.play.service import Service
from bot.store import SqliteStore
from tests.bot.harness import DiscordHarness, Sent

#: Monday 1 June 2026, 12:00 UTC
START = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC).timestamp()
HOUR = 3600.0


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, t: float = START) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, hours: float) -> None:
        self.t += hours * HOUR


def timed_bot(db_path: Path, clock: Clock) -> JunkyardBot:
    counter = iter(range(1, 10**6))
    store = SqliteStore(db_path, clock=clock)
    bot = JunkyardBot(service=Service(store, seed_source=lambda: next(counter)))
    bot.timers.clock = clock
    return bot


async def later(h: DiscordHarness, clock: Clock, hours: float) -> list[Sent]:
    """Move the clock on by ``hours`` and let the ticker fire what fell due: what the bot sent."""
    clock.advance(hours)
    start = len(h.sent)
    await h.bot.timers.tick()  # type: ignore[attr-defined]
    await h.settle()
    return h.sent[start:]


def created(sent: list[Sent]) -> list[Sent]:
    return [s for s in sent if s.creates_message]


def dms(sent: list[Sent]) -> list[Sent]:
    return [s for s in created(sent) if s.dm]


def channel_posts(sent: list[Sent]) -> list[Sent]:
    return [s for s in created(sent) if not s.dm and not s.ephemeral]


def pinged(s: Sent) -> list[int]:
    """Whom a message pings (its allowed mentions)."""
    return [int(u) for u in s.allowed_users or []]
