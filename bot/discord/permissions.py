"""The bot's permissions where a game is played, checked before it needs them: what a channel or thread must
give the bot for a game to run there (it reads ``interaction.app_permissions``, which Discord sends with every
interaction), and the one line that tells the host which are missing and where to give them.

Essential: View Channel, Send Messages (in a thread: Send Messages in Threads), Attach Files (the boards are
pictures), Embed Links and Read Message History. Optional: Manage Threads in a thread (to reopen it when
Discord archives it between turns). Opening a game's thread needs Create Public Threads and Send Messages in
Threads in the channel too."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import discord

from bot import texts
from bot.discord.context import Interaction

#: what every game needs where it is played, by discord.py's permission names
ESSENTIAL = ("view_channel", "send_messages", "attach_files", "embed_links", "read_message_history")
#: in a thread, Send Messages in Threads stands for Send Messages
IN_THREAD = ("view_channel", "send_messages_in_threads", "attach_files", "embed_links", "read_message_history")
#: what a new game's thread needs in its channel, besides what every game needs
FOR_THREAD = ("create_public_threads", "send_messages_in_threads")
#: what keeps a thread's game going when Discord archives the thread
OPTIONAL_IN_THREAD = ("manage_threads",)
#: the bot's permissions, as the Discord settings name them (catalogue ids)
NAMES = {name: f"perm.{name}" for name in (*ESSENTIAL, *IN_THREAD, *FOR_THREAD, *OPTIONAL_IN_THREAD)}


@dataclass(frozen=True, slots=True)
class Missing:
    """The permissions the bot lacks where the interaction came from: ``essential`` stop a game, ``optional``
    weaken it."""

    essential: tuple[str, ...] = ()
    optional: tuple[str, ...] = ()


def in_thread(interaction: Interaction) -> bool:
    """Whether the interaction came from a thread (public or private)."""
    return isinstance(interaction.channel, discord.Thread)


def missing(interaction: Interaction, *, new_thread: bool = False) -> Missing:
    """What the bot lacks where ``interaction`` came from (``new_thread``: it is to open a game's thread
    there too)."""
    perms = interaction.app_permissions
    thread = in_thread(interaction)
    wanted: tuple[str, ...] = IN_THREAD if thread else ESSENTIAL
    if new_thread:
        wanted = (*wanted, *(p for p in FOR_THREAD if p not in wanted))
    essential = tuple(p for p in wanted if not getattr(perms, p))
    optional = tuple(p for p in OPTIONAL_IN_THREAD if (thread or new_thread) and not getattr(perms, p))
    return Missing(essential, optional)


def names(permissions: Sequence[str], lang: str) -> str:
    """The permissions as the Discord settings name them, in ``lang``."""
    return ", ".join(texts.say(NAMES[p], lang) for p in permissions)


def where(interaction: Interaction) -> str:
    """The channel or thread, as a mention."""
    return f"<#{interaction.channel_id}>"


def refused_line(interaction: Interaction, found: Missing, lang: str) -> str:
    """Why no game can run here: the essential permissions missing, and where to give them."""
    return texts.say("perm.cant_play_here", lang, names=names(found.essential, lang), where=where(interaction))


def waiting_line(interaction: Interaction, found: Missing, lang: str) -> str:
    """The move is stored, but its messages wait: which permissions are missing, and where to give them."""
    return texts.say("perm.board_waits", lang, names=names(found.essential, lang), where=where(interaction))


def note_line(interaction: Interaction, found: Missing, lang: str) -> str:
    """A note on an optional permission missing (Manage Threads)."""
    return texts.say("perm.note_optional", lang, names=names(found.optional, lang), where=where(interaction))


def refused_reason_line(interaction: Interaction, reason: str, lang: str) -> str:
    """The channel refused the bot's message (:class:`bot.telling.delivery.ChannelRefused`'s ``reason``): what is
    missing, as far as the interaction tells, and what to do; the message waits and follows by itself."""
    if reason == "archived":
        return texts.say("perm.thread_archived", lang, where=where(interaction))
    found = missing(interaction)
    if not found.essential:  # the interaction's permissions look complete: name what the error names
        wanted = ("view_channel",) if reason == "view" else (
            IN_THREAD[1:3] if in_thread(interaction) else ESSENTIAL[1:3])
        found = Missing(wanted)
    return waiting_line(interaction, found, lang)


__all__ = ["ESSENTIAL", "FOR_THREAD", "IN_THREAD", "NAMES", "OPTIONAL_IN_THREAD", "Missing", "in_thread",
           "missing", "names", "note_line", "refused_line", "refused_reason_line", "waiting_line", "where"]
