"""The two ways a message reaches a Discord channel (:class:`bot.telling.delivery.Transport`): the channel itself
(a message posted with the record's nonce, so a post repeated after a crash is one message, or an edit of a
message by id), and an interaction, which changes the message that was pressed in its own answer (an
update of that message: the fastest way, and one request) and leaves everything else to the channel.

A new message always goes through the channel: an interaction's follow-up carries no nonce, so one repeated
after a crash would post twice.

A channel that refuses the bot for now (a permission missing: 403 with code 50013 or 50001) raises
:class:`bot.telling.delivery.ChannelRefused`, so its record waits for the channel instead of being given up. A game's
thread found archived (400, code 50083) is reopened first (the bot needs Manage Threads for that), and the
request made again; a thread the bot may not reopen refuses likewise. A message gone (404) or another 403 is
:class:`bot.telling.delivery.Undeliverable`."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.discord.buttons import action_view
from bot.discord.context import Interaction
from bot.discord.payloads import Attachment, Mentions, mention_only, no_mentions
from bot.discord.payloads import attachment as attached
from bot.discord.shown import plain, shown
from bot.games.unit import ALT_TEXT_CHARS
from bot.telling.compose import Message
from bot.telling.delivery import ChannelRefused, Undeliverable

if TYPE_CHECKING:
    from bot.discord.context import JunkyardClient

log = logging.getLogger(__name__)

#: Discord's error codes for a channel that refuses the bot for now: View Channel missing, another permission
#: missing (Send Messages, Attach Files…), a post into an archived thread
MISSING_ACCESS, MISSING_PERMISSIONS, THREAD_ARCHIVED = 50001, 50013, 50083


def refusal(exc: discord.HTTPException) -> ChannelRefused | Undeliverable | None:
    """What a failed channel request means for its record: it waits for the channel, it is given up, or (None)
    a passing failure, tried again later."""
    detail = f"HTTP {exc.status}, code {exc.code}"
    if exc.code == MISSING_ACCESS:
        return ChannelRefused("view", detail)
    if exc.code == MISSING_PERMISSIONS:
        return ChannelRefused("send", detail)
    if exc.code == THREAD_ARCHIVED:
        return ChannelRefused("archived", detail)
    if isinstance(exc, discord.Forbidden | discord.NotFound):
        return Undeliverable(detail)
    return None


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

    def __init__(self, client: JunkyardClient) -> None:
        self.client = client

    async def post(self, channel_id: int, message: Message, nonce: str) -> int | None:
        channel = self.client.get_partial_messageable(channel_id)

        async def send() -> int:
            return (await channel.send(nonce=nonce, **message_kwargs(message))).id

        return await self._reopening(channel_id, send)

    async def edit(self, channel_id: int, message_id: int, message: Message | None) -> int | None:
        target = self.client.get_partial_messageable(channel_id).get_partial_message(message_id)

        async def change() -> int:
            await target.edit(**edit_kwargs(message))
            return message_id

        return await self._reopening(channel_id, change)

    async def _reopening(self, channel_id: int, request: Callable[[], Awaitable[int]]) -> int:
        """``request``'s answer; a thread found archived is reopened (when the bot may) and asked once more. What
        the channel refuses raises :class:`ChannelRefused` or :class:`Undeliverable` (see :func:`refusal`)."""
        for reopened in (False, True):
            try:
                return await request()
            except discord.HTTPException as exc:
                if exc.code == THREAD_ARCHIVED and not reopened and await self.reopen(channel_id):
                    continue
                failure = refusal(exc)
                if failure is None:
                    raise
                raise failure from None
        raise ChannelRefused("archived")  # reopened, yet archived again at once

    async def reopen(self, thread_id: int) -> bool:
        """Unarchive a game's thread (the bot needs Manage Threads there); whether it is open now."""
        try:
            await self.client.http.edit_channel(thread_id, archived=False)
        except discord.HTTPException as exc:
            log.info("thread %s stays archived (HTTP %s, code %s)", thread_id, exc.status, exc.code)
            return False
        log.info("thread %s reopened for a game's message", thread_id)
        return True


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
        #: why the channel refused a record (:class:`ChannelRefused`'s reason), None while none was refused
        self.refused: str | None = None

    def _pressed_id(self) -> int | None:
        message = self.interaction.message
        return message.id if self.pressed and message is not None else None

    async def post(self, channel_id: int, message: Message, nonce: str) -> int | None:
        try:
            return await self.channel.post(channel_id, message, nonce)
        except ChannelRefused as exc:
            self.refused = self.refused or exc.reason
            raise

    async def _channel_edit(self, channel_id: int, message_id: int, message: Message | None) -> int | None:
        try:
            return await self.channel.edit(channel_id, message_id, message)
        except ChannelRefused as exc:
            self.refused = self.refused or exc.reason
            raise

    async def edit(self, channel_id: int, message_id: int, message: Message | None) -> int | None:
        if message_id != self._pressed_id() or self.changed:
            return await self._channel_edit(channel_id, message_id, message)
        response = self.interaction.response
        try:
            if response.is_done():  # deferred as an update: the original response is the pressed message
                await self.interaction.edit_original_response(**edit_kwargs(message))
            else:
                await response.edit_message(**edit_kwargs(message))
        except discord.HTTPException as exc:
            log.warning("answering a press failed (HTTP %s, code %s); its message is edited in the channel",
                        exc.status, exc.code)
            return await self._channel_edit(channel_id, message_id, message)
        self.changed = True
        return message_id


__all__ = [
    "MISSING_ACCESS",
    "MISSING_PERMISSIONS",
    "THREAD_ARCHIVED",
    "ChannelTransport",
    "InteractionTransport",
    "attachment",
    "edit_kwargs",
    "mentions",
    "message_kwargs",
    "refusal",
]
