"""Helpers shared by the Discord front-end tests: the test users, a bot on a fresh store, and filters
for what the offline harness recorded (the harness itself is tests/bot/harness.py)."""

from __future__ import annotations

from pathlib import Path

from bot.discord import JunkyardBot
from bot.service import Service
from bot.store import SqliteStore
from tests.bot.harness import DiscordHarness, Sent, answer, pressed_edit, shown

ANN, BOB, EVE, MOD = 111_000_000_000_000_001, 222_000_000_000_000_002, 333_000_000_000_000_003, 444_000_000_000_004
USERS = {ANN: "ann", BOB: "bob", EVE: "eve", MOD: "mod"}


def make_bot(db_path: Path) -> JunkyardBot:
    """A bot on a store at ``db_path`` whose new games get the seeds 1, 2, 3, …"""
    counter = iter(range(1, 10**6))
    store = SqliteStore(db_path)
    return JunkyardBot(service=Service(store, seed_source=lambda: next(counter)))


__all__ = ["ANN", "BOB", "EVE", "MOD", "USERS", "answer", "make_bot", "only", "pressed_edit", "public", "shown",
           "started"]


def only(sent: list[Sent]) -> Sent:
    """The one request recorded (fails when there were none or several); for an interaction's answer, as the
    player sees it, use :func:`answer`."""
    assert len(sent) == 1, sent
    return sent[0]


def public(sent: list[Sent]) -> list[Sent]:
    """The messages everyone in the channel sees: those posted, and those changed to show something new (a
    turn's message edited with the next state), each as it now shows."""
    return [s for s in sent if not s.ephemeral and not s.dm
            and (s.creates_message or (s.changes and not s.failed and bool(s.content)))]


async def started(h: DiscordHarness) -> Sent:
    """Ann opens a toy game, Bob joins as blue, Ann starts it: the first board."""
    answer(await h.slash(ANN, "game new", game="toy"))
    answer(await h.slash(BOB, "game join", colour="blue"))
    return answer(await h.slash(ANN, "game start"))
