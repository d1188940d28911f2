"""The two ways a message reaches a Discord channel (:class:`bot.delivery.Transport`): the channel itself
(a message posted with the record's nonce, so a post repeated after a crash is one message, or an edit of a
message by id), and an interaction, which changes the message that was pressed in its own answer (an
update of that message: the fastest way, and one request) and leaves everything else to the channel.

A new message always goes through the channel: an interaction's follow-up carries no nonce, so one repeated
after a crash would post twice."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.compose import Message
from bot.delivery import Undeliverable
from bot.discord.buttons import action_view
from bot.discord.context import Interaction
from bot.discord.payloads import Attachment, Mentions, mention_only, no_mentions
from bot.discord.payloads import attachment as attached
from bot.discord.shown import plain, shown
from bot.games.unit import ALT_TEXT_CHARS

if TYPE_CHECKING:
    from bot.discord.client import JunkyardBot

log = logging.getLogger(__name__)


def mentions(message: Message) -> Mentions:
    """Only the player the message pings is pinged; other names in the text stay quiet."""
    return no_mentions() if message.mention is None else mention_only(message.mention)


def _view(message: Message) -> discord.ui.View | None:
    if message.buttons and message.game_id is not None and message.version is not None:
        return action_view(message.game_id, message.version, message.buttons)
    return None


def attachment(message: Message) -> Attachment:
    """The message's picture as an attachment, with its description (alt text) when it has one."""
    assert message.png is not None
    return attached(message.png, message.filename, plain(message.description, ALT_TEXT_CHARS))


def message_kwargs(message: Message, *, private: bool = False) -> dict[str, Any]:
    """A new message's text, picture, buttons and pings as discord.py takes them (``private``: nobody is
    pinged by a message only its reader sees)."""
    kwargs: dict[str, Any] = {"content": shown(message.text),
                              "allowed_mentions": no_mentions() if private else mentions(message)}
    if message.png:
        kwargs["file"] = attachment(message)
    view = _view(message)
    if view is not None:
        kwargs["view"] = view
    return kwargs


def edit_kwargs(message: Message | None) -> dict[str, Any]:
    """An edit of a posted message: its text, its picture (none given: the one it has stays) and its buttons
    (none: they go); for ``None`` only the buttons go."""
    if message is None:
        return {"view": None}
    kwargs: dict[str, Any] = {"content": shown(message.text), "allowed_mentions": mentions(message),
                              "view": _view(message)}
    if message.png:
        kwargs["attachments"] = [attachment(message)]
    return kwargs


class ChannelTransport:
    """Messages through the channel: posts with a nonce (Discord then posts a repeated request once), edits
    by id."""

    def __init__(self, client: JunkyardBot) -> None:
        self.client = client

    async def post(self, channel_id: int, message: Message, nonce: str) -> int | None:
        channel = self.client.get_partial_messageable(channel_id)
        try:
            sent = await channel.send(nonce=nonce, **message_kwargs(message))
        except (discord.Forbidden, discord.NotFound) as exc:
            raise Undeliverable(f"HTTP {exc.status}, code {exc.code}") from None
        return sent.id

    async def edit(self, channel_id: int, message_id: int, message: Message | None) -> int | None:
        target = self.client.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await target.edit(**edit_kwargs(message))
        except (discord.Forbidden, discord.NotFound) as exc:
            raise Undeliverable(f"HTTP {exc.status}, code {exc.code}") from None
        return message_id


class InteractionTransport:
    """Through an interaction: a change of the message that was pressed is the interaction's own answer
    (UPDATE_MESSAGE, or an edit of the deferred original); everything else goes through the channel. When
    that answer fails, the channel edits the message instead. ``changed`` tells whether the pressed message
    was changed by the answer."""

    def __init__(self, interaction: Interaction, channel: ChannelTransport, *, pressed: bool) -> None:
        self.interaction = interaction
        self.channel = channel
        self.pressed = pressed
        self.changed = False

    def _pressed_id(self) -> int | None:
        message = self.interaction.message
        return message.id if self.pressed and message is not None else None

    async def post(self, channel_id: int, message: Message, nonce: str) -> int | None:
        return await self.channel.post(channel_id, message, nonce)

    async def edit(self, channel_id: int, message_id: int, message: Message | None) -> int | None:
        if message_id != self._pressed_id() or self.changed:
            return await self.channel.edit(channel_id, message_id, message)
        response = self.interaction.response
        try:
            if response.is_done():  # deferred as an update: the original response is the pressed message
                await self.interaction.edit_original_response(**edit_kwargs(message))
            else:
                await response.edit_message(**edit_kwargs(message))
        except discord.HTTPException as exc:
            log.warning("answering a press failed (HTTP %s, code %s); its message is edited in the channel",
                        exc.status, exc.code)
            return await self.channel.edit(channel_id, message_id, message)
        self.changed = True
        return message_id


__all__ = ["ChannelTransport", "InteractionTransport", "attachment", "edit_kwargs", "mentions", "message_kwargs"]
