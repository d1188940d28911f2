"""Answering an interaction with what the service said: a refusal or a private message to the asker alone, or
an acceptance, whose public messages are delivered (:func:`bot.telling.delivery.deliver`) through the interaction
(the pressed message changes in the press's own answer) and the channel (every new message, with its nonce).

Every interaction is answered within Discord's three seconds: an interaction that acts is deferred before
anything that can wait (a lock, the store, a picture), and the answer follows. A press defers as an update of
its message (nothing shows; the turn's message is then edited, a refusal is a private follow-up, and nothing
anyone else sees changes); a command defers privately ("thinking"), so a refusal stays private; its public
messages go to the channel, and the placeholder says so. What an answer could not deliver, the outbox
delivers later, once.

When the channel refuses the bot (a permission missing, the thread archived), the records wait for it and
the acting player is told privately what is missing (the interaction needs no permission in the channel),
instead of "Done: see the channel."; an interaction in the channel first delivers what waited there.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot import texts
from bot.discord import permissions
from bot.discord.buttons import action_view
from bot.discord.context import Interaction
from bot.discord.payloads import direct_channel, no_mentions
from bot.discord.shown import shown, shown_embed, shown_parts
from bot.discord.transport import ChannelTransport, InteractionTransport, attachment
from bot.messages import EDIT
from bot.telling.compose import Message
from bot.telling.delivery import deliver
from bot.telling.outcomes import Accepted, Private, Refusal

if TYPE_CHECKING:
    from bot.discord.context import JunkyardClient

log = logging.getLogger(__name__)

#: seconds an acting interaction waits before it is deferred: none, it is deferred first. (A positive delay
#: answers directly when the service is quicker: a fallback, which a test keeps covered.)
DEFER_AFTER = 0.0

Outcome = Accepted | Refusal | Message


# Answering in time ---------------------------------------------------------------------------------


async def arm_defer(interaction: Interaction, *, thinking: bool) -> None:
    """Defer ``interaction`` now, before anything that can wait happens (``client.defer_after`` of 0, the
    default), or if no answer is under way after that many seconds. A command defers privately
    ("thinking"); a press defers as an update of its message, which shows nothing."""
    after = float(getattr(interaction.client, "defer_after", DEFER_AFTER))
    if after <= 0:
        await _defer(interaction, thinking)
        return
    loop = asyncio.get_running_loop()

    def fire() -> None:
        interaction.extras["jy_defer"] = loop.create_task(_defer(interaction, thinking))

    interaction.extras["jy_timer"] = loop.call_later(after, fire)


async def _defer(interaction: Interaction, thinking: bool) -> None:
    if interaction.response.is_done():
        return
    try:
        if thinking:
            await interaction.response.defer(ephemeral=True, thinking=True)
        else:
            await interaction.response.defer()
    except discord.HTTPException as exc:
        log.warning("deferring an interaction failed (HTTP %s, code %s)", exc.status, exc.code)
        return
    interaction.extras["jy_deferred"] = "private" if thinking else "update"


async def settle_defer(interaction: Interaction) -> None:
    """Stop the defer timer; if the deferral is on its way, wait for it."""
    timer = interaction.extras.pop("jy_timer", None)
    if timer is not None:
        timer.cancel()
    task = interaction.extras.pop("jy_defer", None)
    if task is not None:
        await asyncio.shield(task)


async def answer_privately(interaction: Interaction, text: str) -> None:
    """A short private answer, whatever state the interaction is in; failures are only logged."""
    await settle_defer(interaction)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(shown(text), ephemeral=True)
        else:
            await interaction.response.send_message(shown(text), ephemeral=True)
    except discord.HTTPException as exc:
        log.warning("could not answer an interaction privately (HTTP %s, code %s)", exc.status, exc.code)


async def answer_with(interaction: Interaction, *, public: bool, **message: Any) -> None:
    """Answer a command with ``message`` (an embed, say), whether it was deferred or not: a public answer to a
    private deferral fills the placeholder with a short note and follows as a message of its own. Its content
    and embed are shown as every message is (:func:`bot.discord.shown.shown`)."""
    await settle_defer(interaction)
    if isinstance(message.get("content"), str):
        message["content"] = shown(message["content"])
    if isinstance(message.get("embed"), discord.Embed):
        message["embed"] = shown_embed(message["embed"])
    if not interaction.response.is_done():
        await interaction.response.send_message(ephemeral=not public, **message)
        return
    if public and interaction.extras.get("jy_deferred") == "private":
        await interaction.edit_original_response(content=done(interaction))
    await interaction.followup.send(ephemeral=not public, **message)


#: the private placeholder of a command whose answer is public, filled once that answer follows
DONE = texts.say("discord.done_see_channel")


def done(interaction: Interaction) -> str:
    """:data:`DONE` in the asker's language."""
    return texts.say("discord.done_see_channel", texts.language(interaction.locale))


async def send_reply(interaction: Interaction, outcome: Outcome, *, pressed: bool = False) -> None:
    """Answer ``interaction`` with what the service said. ``pressed``: the interaction is a button press (its
    message is the one an edit of the turn's message changes first)."""
    await settle_defer(interaction)
    if isinstance(outcome, Refusal):
        await answer_privately(interaction, outcome.text)
    elif isinstance(outcome, Message):
        await _answer_privately_with(interaction, outcome)
    else:
        await _deliver(interaction, outcome, pressed)


async def _answer_privately_with(interaction: Interaction, message: Message) -> None:
    """A message only the asker sees (their status, the log, a picture of their own); a text too long for one
    message comes in several, the last with the picture and buttons."""
    *before, last = shown_parts(message.text)
    kwargs: dict[str, Any] = {"content": last, "allowed_mentions": no_mentions()}
    if message.png:
        kwargs["file"] = attachment(message)
    if message.buttons and message.game_id is not None and message.version is not None:
        view = action_view(message.game_id, message.version, message.buttons)
        if view is not None:
            kwargs["view"] = view
    try:
        for part in [*({"content": text, "allowed_mentions": no_mentions()} for text in before), kwargs]:
            if interaction.response.is_done():
                await interaction.followup.send(ephemeral=True, **part)
            else:
                await interaction.response.send_message(ephemeral=True, **part)
    except discord.HTTPException as exc:
        log.warning("could not answer an interaction privately (HTTP %s, code %s)", exc.status, exc.code)


async def _deliver(interaction: Interaction, accepted: Accepted, pressed: bool) -> None:
    """Deliver the acceptance's records: the pressed message through the press's answer, the rest through the
    channel; then the command's placeholder is filled (the turn's message was edited, or the news is in the
    channel) and the private notes follow."""
    client = interaction.client
    if not pressed and not interaction.response.is_done():
        await _defer(interaction, True)  # a new message goes to the channel: the command's answer is private
    records = list(accepted.records) or [
        d for d in [await client.store.outbox.delivery(i) for i in accepted.deliveries] if d is not None]
    answered = True
    told = False
    if not pressed:  # the placeholder says where the news went, before it goes there
        lang = texts.language(interaction.locale)
        edited = any(d.kind == EDIT for d in records)
        text = texts.say("edited", lang) if edited else done(interaction)
        if cannot_post(interaction) and records:
            text, told = permissions.waiting_line(interaction, permissions.missing(interaction), lang), True
        try:
            await interaction.edit_original_response(content=text)
        except discord.HTTPException as exc:
            answered = False
            log.warning("answering an interaction failed (HTTP %s, code %s)", exc.status, exc.code)
    if interaction.channel_id is not None:  # what waited for this channel comes first
        await client.outbox.wake(interaction.channel_id)
    transport = InteractionTransport(interaction, ChannelTransport(client), pressed=pressed)
    for d in records:
        if not d.delivered:
            await deliver(client.service, d, transport)
    if pressed and not transport.changed:
        answered = await _answer_press(interaction)
    if transport.refused is not None and not told:
        await tell_refused(interaction, transport.refused, placeholder=not pressed)
    await send_private(interaction, accepted.private, answered=answered)


#: the permissions without which nothing can be posted (Embed Links and Read Message History are wanted, but
#: a post goes through without them)
POSTING = frozenset({"view_channel", "send_messages", "send_messages_in_threads", "attach_files"})


def cannot_post(interaction: Interaction) -> bool:
    """Whether the bot's permissions where the interaction came from keep it from posting there."""
    return bool(POSTING & set(permissions.missing(interaction).essential))


async def tell_refused(interaction: Interaction, reason: str, *, placeholder: bool) -> None:
    """Tell the acting player, privately, that the channel refused the bot's message and what is missing
    (``placeholder``: in the command's own answer, in place of "Done: see the channel.")."""
    text = shown(permissions.refused_reason_line(interaction, reason, texts.language(interaction.locale)))
    try:
        if placeholder:
            await interaction.edit_original_response(content=text)
        else:
            await interaction.followup.send(text, ephemeral=True)
    except discord.HTTPException as exc:
        log.warning("could not tell a player that the channel refused the bot (HTTP %s, code %s)", exc.status,
                    exc.code)


async def _answer_press(interaction: Interaction) -> bool:
    """A press whose records changed none of its message: answered (when it was not deferred), and a private
    message pressed (a status) loses its buttons, which are of a move that is past."""
    message = interaction.message
    try:
        if message is not None and message.flags.ephemeral:
            if interaction.response.is_done():
                await interaction.edit_original_response(view=None)
            else:
                await interaction.response.edit_message(view=None)
        elif not interaction.response.is_done():
            await interaction.response.defer()
    except discord.HTTPException as exc:
        log.warning("answering a press failed (HTTP %s, code %s)", exc.status, exc.code)
        return False
    return True


async def send_private(interaction: Interaction, notes: Sequence[Private], *, answered: bool = True) -> None:
    """Hidden information: to the asker as an ephemeral follow-up, to anyone else (and to the asker when the
    interaction could not be answered) by direct message."""
    for note in notes:
        if answered and note.user_id == interaction.user.id:
            try:
                await interaction.followup.send(shown(texts.say("discord.only_you", note.lang, text=note.text)),
                                                ephemeral=True)
                continue
            except discord.HTTPException:
                pass  # then by direct message
        await direct_message(interaction.client, note)


async def direct_message(client: JunkyardClient, note: Private) -> None:
    """A private note by direct message (failures, such as closed direct messages, are only logged)."""
    try:
        channel = await direct_channel(client, note.user_id)
        await channel.send(shown(texts.say("discord.only_you", note.lang, text=note.text)))
    except discord.HTTPException:
        log.info("could not send a private note to user %s (direct messages closed?)", note.user_id)


__all__ = [
    "DEFER_AFTER",
    "DONE",
    "POSTING",
    "Outcome",
    "answer_privately",
    "answer_with",
    "arm_defer",
    "cannot_post",
    "direct_message",
    "done",
    "send_private",
    "send_reply",
    "settle_defer",
    "tell_refused",
]
