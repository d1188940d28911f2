"""Games in threads. A thread is a channel to the game master (the store keys games by channel id, and a
thread's id is one), so a game runs in a thread as it does in a channel. ``/game new thread:`` opens a public
thread for the game in the current channel, named after it, archived by Discord only after a week without
messages; a game's thread that Discord archives meanwhile is reopened before the bot posts there
(:meth:`bot.discord.transport.ChannelTransport.reopen`), and archived once its game ends.

The threads that hold games are flagged in the settings (scope :data:`THREAD`, owner: the thread), so a
restarted bot knows them."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Final, Literal

import discord

from bot import texts
from bot.discord.context import Interaction
from rules.literal import bare

if TYPE_CHECKING:
    from bot.discord.context import JunkyardClient

log = logging.getLogger(__name__)

#: the settings scope that marks a thread holding a game (owner: the thread's id)
THREAD = "thread"
#: a week: the longest time Discord lets a thread sit idle before archiving it
ARCHIVE_MINUTES: Final[Literal[10080]] = 10080
#: the public thread type of Discord's API
PUBLIC_THREAD: Final[Literal[11]] = 11
#: the longest thread name Discord takes
NAME_CHARS = 100
#: seconds an ended game's thread waits for its last messages before it is archived
ARCHIVE_WAIT = 30.0
#: seconds a record of an ended game is left to the outbox and the interaction after it falls due
OVERDUE = 1.0


def thread_name(title: str, host: str, lang: str) -> str:
    """A game's thread, named after the game and its host ("<title> – Ann's game")."""
    return texts.say("thread.name", lang, title=title, name=bare(host))[:NAME_CHARS]


async def open_thread(interaction: Interaction, title: str, lang: str) -> int:
    """Open a public thread for a new game in the interaction's channel; its id. Raises
    :class:`discord.HTTPException` when Discord refuses."""
    assert interaction.channel_id is not None
    name = thread_name(title, interaction.user.display_name, lang)
    data = await interaction.client.http.start_thread_without_message(
        interaction.channel_id, name=name, auto_archive_duration=ARCHIVE_MINUTES, type=PUBLIC_THREAD,
        reason="a game of Junkyard GM")
    return int(data["id"])


async def remember(client: JunkyardClient, thread_id: int) -> None:
    """Flag a thread as holding a game (its end archives it)."""
    await client.store.settings.put_settings(THREAD, thread_id, 0, {"game": True})


async def put_away(client: JunkyardClient, thread_id: int) -> None:
    """Archive a thread opened for a game that was refused (failures are only logged)."""
    try:
        await client.http.edit_channel(thread_id, archived=True)
    except discord.HTTPException as exc:
        log.info("the unused thread %s stays open (HTTP %s, code %s)", thread_id, exc.status, exc.code)


async def is_game_thread(client: JunkyardClient, channel_id: int) -> bool:
    """Whether ``channel_id`` is a thread that holds (or held) a game."""
    return bool(await client.store.settings.get_settings(THREAD, channel_id))


async def archive_when_done(client: JunkyardClient, game_id: int, channel_id: int, *, wait: float = ARCHIVE_WAIT
                            ) -> bool:
    """A game ended: once its last messages are out (at most ``wait`` seconds; its end message, which falls
    due a moment after the last board, is posted here if the outbox has not yet), archive its thread, if it
    has one and the bot may; whether it did."""
    if not await is_game_thread(client, channel_id):
        return False
    loop = asyncio.get_running_loop()
    until = loop.time() + wait
    while loop.time() < until:
        pending = await client.store.outbox.deliveries(game_id=game_id, pending=True)
        if not pending:
            break
        now = time.time()
        overdue = tuple(d.id for d in pending if d.due_at <= now - OVERDUE
                        and (d.claimed_until is None or d.claimed_until < now))
        if overdue:
            await client.outbox.deliver(overdue)
        else:
            await asyncio.sleep(0.2)
    try:
        await client.http.edit_channel(channel_id, archived=True)
    except discord.HTTPException as exc:
        log.info("the thread %s of the ended game %s stays open (HTTP %s, code %s)", channel_id, game_id,
                 exc.status, exc.code)
        return False
    await client.store.settings.put_settings(THREAD, channel_id, 0, {})
    return True


__all__ = ["ARCHIVE_MINUTES", "THREAD", "archive_when_done", "is_game_thread", "open_thread", "put_away", "remember",
           "thread_name"]
