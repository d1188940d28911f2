"""Helpers shared by the Discord front-end tests: the test users, a bot on a fresh store, and filters
for what the offline harness recorded (the harness itself is tests/bot/harness.py)."""

from __future__ import annotations

from pathlib import Path

import bot.standing.history
from bot.discord import JunkyardBot
from bot.play.service import Service
from bot.store import SqliteStore
from tests.bot.harness import DiscordHarness, Sent, answer, pressed_edit, shown

ANN, BOB, EVE, MOD = 111_000_000_000_000_001, 222_000_000_000_000_002, 333_000_000_000_000_003, 444_000_000_000_004
USERS = {ANN: "ann", BOB: "bob", EVE: "eve", MOD: "mod"}


def make_bot(db_path: Path) -> JunkyardBot:
    """A bot on a store at ``db_path`` whose new games get the seeds 1, 2, 3, …"""
    counter = iter(range(1, 10**6))
    store = SqliteStore(db_path)
    return JunkyardBot(service=Service(store, seed_source=lambda: next(counter)))


__all__ = [
    "ANN",
    "BOB",
    "EVE",
    "MOD",
    "USERS",
    "answer",
    "finished_unrecorded",
    "make_bot",
    "only",
    "play_to_the_end",
    "pressed_edit",
    "public",
    "shown",
    "started",
]


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


async def play_to_the_end(service, channel: int) -> None:
    """A toy game of Ann and Bob in ``channel``, played to its end through the service alone (nothing is
    delivered: its records, the end message last, stay in the outbox)."""
    await service.new_game(guild_id=1, channel_id=channel, user_id=ANN, user_name="ann", game_key="toy")
    await service.join(channel, BOB, "bob")
    await service.start(channel, ANN)
    while (rec := await service.store.games.channel_game(channel)) is not None:
        game = await service.load(rec)
        user = rec.seats[game.to_act].user_id
        await service.act(channel, user, "roll" if game.rolled is None else f"move {game.rolled}")


async def finished_unrecorded(service, monkeypatch, channels) -> list[int]:
    """Play a toy game to its end in each channel with its results left unrecorded (a stop in between)."""
    async def no_end(*args, **kwargs):
        raise RuntimeError("stopped")

    real = bot.standing.history.record_end
    monkeypatch.setattr(bot.standing.history, "record_end", no_end)
    ids = []
    for channel in channels:
        await play_to_the_end(service, channel)
        ids.append((await service.store.games.channel_history(channel, 1))[0].id)
    monkeypatch.setattr(bot.standing.history, "record_end", real)
    return ids
