"""Turning the service's :class:`~bot.service.Reply` into Discord messages, and the action buttons.

Buttons are plain components whose custom_id carries game id, move number and action
(``jy:<game>:<version>:<action>``). One :class:`ActionButton` dynamic item, registered once at start-up,
answers every press, so buttons keep working after restarts and for days. The buttons we send are not
themselves dispatchable, so no per-message view is kept in memory and none can expire.

Every interaction is answered within Discord's three seconds: an interaction that acts is deferred before
anything that can wait (a lock, the store, a picture), and the reply follows. A press defers as an update of
its message (nothing shows; the turn's message is then edited, a refusal is a private follow-up); a command
defers privately ("thinking"), so a refusal stays private and a public board follows as a message of its
own, which notifies the player it pings. A public board whose answer fails or expired goes to the channel as
a plain message through the outbox, which records the message so it is never posted twice.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from typing import TYPE_CHECKING, Any

import discord

from bot import texts
from bot.delivery import Undeliverable
from bot.discord.context import Interaction, ours
from bot.games import ButtonSpec
from bot.games.unit import REACH_ACTION
from bot.service import Private, Reply, clip_input

if TYPE_CHECKING:
    from bot.discord.client import JunkyardBot

log = logging.getLogger(__name__)

CUSTOM_ID_PREFIX = "jy"
CUSTOM_ID_TEMPLATE = r"jy:(?P<game>[0-9]+):(?P<version>[0-9]+):(?P<action>[^\n]+)"
MAX_CUSTOM_ID = 100
#: the longest game id and move number a real button carries (digits)
MAX_ID_DIGITS = 18
#: seconds an acting interaction waits before it is deferred: none, it is deferred first. (A positive delay
#: answers directly when the service is quicker: a fallback, which a test keeps covered.)
DEFER_AFTER = 0.0
MAX_CONTENT = 2000
MAX_LABEL = 80

_STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def custom_id(game_id: int, version: int, action: str) -> str | None:
    """The custom_id of an action button, or None if it would be longer than Discord allows."""
    cid = f"{CUSTOM_ID_PREFIX}:{game_id}:{version}:{action}"
    if len(cid) > MAX_CUSTOM_ID or "\n" in action:
        return None
    return cid


def clip(text: str, limit: int = MAX_CONTENT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


class _SentButton(discord.ui.Button[discord.ui.View]):
    """A button as sent: not dispatchable itself; :class:`ActionButton` answers its presses."""

    def is_dispatchable(self) -> bool:
        return False


def action_view(game_id: int, version: int, specs: list[ButtonSpec]) -> discord.ui.View | None:
    """A view of action buttons for ``game_id`` at ``version``; None if there are none."""
    view = discord.ui.View(timeout=None)
    for spec in specs[:25]:
        cid = custom_id(game_id, version, spec.action)
        if cid is None:
            log.warning("action %r is too long for a button; left out", spec.action)
            continue
        view.add_item(_SentButton(label=clip(spec.label, MAX_LABEL) or spec.action[:MAX_LABEL],
                                  style=_STYLES.get(spec.style, discord.ButtonStyle.secondary), custom_id=cid))
    return view if view.children else None


def _mentions(reply: Reply) -> discord.AllowedMentions:
    """Only the next player is pinged; other names in the text stay quiet."""
    if reply.mention is None or reply.ephemeral:
        return discord.AllowedMentions.none()
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(reply.mention)])


def _message_kwargs(reply: Reply) -> dict[str, Any]:
    kwargs: dict[str, Any] = {"content": clip(reply.text), "allowed_mentions": _mentions(reply)}
    if reply.png:
        kwargs["file"] = discord.File(io.BytesIO(reply.png), filename=reply.filename)
    if reply.buttons and reply.game_id is not None and reply.version is not None:
        view = action_view(reply.game_id, reply.version, reply.buttons)
        if view is not None:
            kwargs["view"] = view
    return kwargs


def _edit_kwargs(reply: Reply) -> dict[str, Any]:
    """An edit of a turn's message: its text, its picture (none given: the one it has stays) and its buttons
    (none: they go)."""
    kwargs: dict[str, Any] = {"content": clip(reply.text), "allowed_mentions": _mentions(reply), "view": None}
    if reply.png:
        kwargs["attachments"] = [discord.File(io.BytesIO(reply.png), filename=reply.filename)]
    if reply.buttons and reply.game_id is not None and reply.version is not None:
        kwargs["view"] = action_view(reply.game_id, reply.version, reply.buttons)
    return kwargs


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
            await interaction.followup.send(clip(text), ephemeral=True)
        else:
            await interaction.response.send_message(clip(text), ephemeral=True)
    except discord.HTTPException as exc:
        log.warning("could not answer an interaction privately (HTTP %s, code %s)", exc.status, exc.code)


async def answer_with(interaction: Interaction, *, public: bool, **message: Any) -> None:
    """Answer a command with ``message`` (an embed, say), whether it was deferred or not: a public answer to a
    private deferral fills the placeholder with a short note and follows as a message of its own."""
    await settle_defer(interaction)
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


async def _answer(interaction: Interaction, reply: Reply, pressed: bool) -> int | None:
    """Send ``reply`` as the interaction's answer; returns the id of the message it created (if any)."""
    kwargs = _message_kwargs(reply)
    response = interaction.response
    if pressed and (reply.stale or reply.changed):
        if response.is_done():
            if interaction.extras.get("jy_deferred") == "update":  # the original is the pressed message
                await interaction.edit_original_response(view=None)
        else:
            await response.edit_message(view=None)
        message = await interaction.followup.send(ephemeral=reply.ephemeral, wait=True, **kwargs)
        return message.id
    if not response.is_done():
        sent = await response.send_message(ephemeral=reply.ephemeral, **kwargs)
        return sent.message_id
    if interaction.extras.get("jy_deferred") == "private" and not reply.ephemeral:
        # the private "thinking" placeholder takes the first follow-up: fill it, then post in public
        await interaction.edit_original_response(content=done(interaction))
    message = await interaction.followup.send(ephemeral=reply.ephemeral, wait=True, **kwargs)
    return message.id


async def send_reply(interaction: Interaction, reply: Reply, *, pressed: bool = False) -> None:
    """Answer ``interaction`` with ``reply``. ``pressed``: the interaction is a button press, whose
    message loses its buttons once the board changed or the button proved stale. A public board whose
    answer fails goes to the channel as a plain message."""
    await settle_defer(interaction)
    client = interaction.client
    if reply.edit_of is not None and reply.delivery is not None and not reply.ephemeral:
        await _send_edit(interaction, reply, pressed)
        return
    message_id: int | None = None
    answered = True
    try:
        message_id = await _answer(interaction, reply, pressed)
    except discord.HTTPException as exc:
        answered = False
        log.warning("answering an interaction failed (HTTP %s, code %s)%s", exc.status, exc.code,
                    "; the board goes to the channel" if reply.delivery is not None else "")
    if reply.delivery is not None:
        if reply.channel_id is None:
            reply.channel_id = interaction.channel_id
        if answered and message_id is not None:
            await client.service.delivered(reply.delivery, message_id)
        else:
            await client.outbox.deliver(reply)
            if pressed and interaction.message is not None and (reply.stale or reply.changed):
                try:
                    await interaction.message.edit(view=None)
                except discord.HTTPException:
                    log.info("could not remove the buttons of a pressed message")
    await send_private(interaction, reply, answered=answered)
    if reply.computers_pending and interaction.channel_id is not None:
        schedule_computers(client, interaction.channel_id)


#: the private answer to a command whose move edits the turn's message (in English; :mod:`bot.texts` has both)
EDITED = texts.say("edited")


async def _send_edit(interaction: Interaction, reply: Reply, pressed: bool) -> None:
    """The turn goes on: its message changes. A press on that message answers with the edit itself
    (UPDATE_MESSAGE, or an edit of the deferred original); a command, or a press elsewhere, answers briefly
    and privately, and the message is edited in the channel. What the answer could not do the outbox does
    (an edit in the channel, or a new post when the message is gone)."""
    client = interaction.client
    assert reply.delivery is not None
    if reply.channel_id is None:
        reply.channel_id = interaction.channel_id
    message = interaction.message if pressed else None
    on_turn_message = message is not None and reply.message_id is not None and message.id == reply.message_id
    answered, edited = True, False
    response = interaction.response
    try:
        if on_turn_message:
            kwargs = _edit_kwargs(reply)
            if response.is_done():  # deferred as an update: the original response is the pressed message
                await interaction.edit_original_response(**kwargs)
            else:
                await response.edit_message(**kwargs)
            edited = True
        elif pressed:
            if response.is_done():
                if interaction.extras.get("jy_deferred") == "update":
                    await interaction.edit_original_response(view=None)
            else:
                await response.edit_message(view=None)
        elif response.is_done():
            await interaction.edit_original_response(content=texts.say("edited", texts.language(interaction.locale)))
        else:
            await response.send_message(texts.say("edited", texts.language(interaction.locale)), ephemeral=True)
    except discord.HTTPException as exc:
        answered = False
        log.warning("answering an interaction failed (HTTP %s, code %s); the turn's message is edited in the "
                    "channel", exc.status, exc.code)
    if edited and message is not None:
        await client.service.delivered(reply.delivery, message.id)
    else:
        await client.outbox.deliver(reply)
    await send_private(interaction, reply, answered=answered)
    if reply.computers_pending and interaction.channel_id is not None:
        schedule_computers(client, interaction.channel_id)


def schedule_computers(client: JunkyardBot, channel_id: int) -> None:
    """Let the computers of a channel's game move on in the background, posting to the channel. The task
    belongs to the client (``client.computer_tasks``), which cancels it on close."""
    tasks: dict[int, asyncio.Task[None]] = client.computer_tasks
    task = tasks.get(channel_id)
    if task is not None and not task.done():
        return
    task = asyncio.get_running_loop().create_task(play_computers(client, channel_id),
                                                  name=f"junkyard-computers-{channel_id}")
    tasks[channel_id] = task
    task.add_done_callback(lambda t: tasks.pop(channel_id, None) if tasks.get(channel_id) is t else None)


async def play_computers(client: JunkyardBot, channel_id: int) -> None:
    """Post the computers' moves, a reply at a time, until a person is to act or the game ends."""
    service = client.service
    outbox = client.outbox
    try:
        while True:
            reply = await service.play_computers(channel_id)
            if reply is None:
                return
            if reply.delivery is not None:
                await outbox.deliver(reply)
            for note in reply.private:  # a computer's move told a person something (a tile picked up)
                await _direct_message(client, note)
            if not reply.computers_pending:
                return
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("computer moves in channel %s stopped", channel_id)


class ChannelPoster:
    """Posts plain channel messages for the outbox, with the record's nonce (Discord then posts a repeated
    request once)."""

    def __init__(self, client: JunkyardBot) -> None:
        self.client = client

    async def post(self, channel_id: int, reply: Reply, nonce: str) -> int | None:
        channel = self.client.get_partial_messageable(channel_id)
        try:
            message = await channel.send(nonce=nonce, **_message_kwargs(reply))
        except (discord.Forbidden, discord.NotFound) as exc:
            raise Undeliverable(f"HTTP {exc.status}, code {exc.code}") from None
        return message.id

    async def edit(self, channel_id: int, message_id: int, reply: Reply) -> int | None:
        message = self.client.get_partial_messageable(channel_id).get_partial_message(message_id)
        try:
            await message.edit(**_edit_kwargs(reply))
        except (discord.Forbidden, discord.NotFound) as exc:
            raise Undeliverable(f"HTTP {exc.status}, code {exc.code}") from None
        return message_id


async def send_private(interaction: Interaction, reply: Reply, *, answered: bool = True) -> None:
    """Hidden information: to the asker as an ephemeral follow-up, to anyone else (and to the asker when the
    interaction could not be answered) by direct message."""
    for note in reply.private:
        if answered and note.user_id == interaction.user.id:
            try:
                await interaction.followup.send(clip(texts.say("discord.only_you", note.lang, text=note.text)),
                                                ephemeral=True)
                continue
            except discord.HTTPException:
                pass  # then by direct message
        await _direct_message(interaction.client, note)


async def _direct_message(client: JunkyardBot, note: Private) -> None:
    try:
        user = client.get_user(note.user_id) or await client.fetch_user(note.user_id)
        await user.send(clip(texts.say("discord.only_you", note.lang, text=note.text)))
    except discord.HTTPException:
        log.info("could not send a private note to user %s (direct messages closed?)", note.user_id)


class ActionButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=CUSTOM_ID_TEMPLATE):
    """Every action button of every game: plays the action it carries, at the move it carries."""

    def __init__(self, game_id: int, version: int, action: str, *, label: str | None = None,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        cid = custom_id(game_id, version, action)
        if cid is None:
            raise ValueError("the action does not fit in a button")
        super().__init__(discord.ui.Button(label=label or action[:MAX_LABEL], style=style, custom_id=cid))
        self.game_id, self.version, self.action = game_id, version, action
        #: what was wrong with the custom_id pressed (forged or damaged); None for a sound button
        self.damage: str | None = None

    @classmethod
    def damaged(cls, what: str) -> ActionButton:
        """A stand-in for a button whose custom_id no game of ours sent: it answers, privately, and plays nothing."""
        item = cls(0, 0, "?")
        item.damage = what
        return item

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str]) -> ActionButton:
        raw = match.string
        if len(raw) > MAX_CUSTOM_ID or len(match["game"]) > MAX_ID_DIGITS or len(match["version"]) > MAX_ID_DIGITS:
            return cls.damaged(f"custom_id of {len(raw)} characters: {clip_input(raw, 60)}")
        label = getattr(item, "label", None)
        style = getattr(item, "style", discord.ButtonStyle.secondary)
        try:
            return cls(int(match["game"]), int(match["version"]), match["action"], label=label, style=style)
        except ValueError:
            return cls.damaged(f"custom_id {clip_input(raw, 60)}")

    async def callback(self, pressed: discord.Interaction[Any]) -> None:
        interaction = ours(pressed)
        if self.damage is not None:
            log.info("a press of a button no game sent (%s)", self.damage)
            await answer_privately(interaction, texts.say("move.foreign_button", texts.language(interaction.locale)))
            return
        if self.action == REACH_ACTION:  # asks, privately, where the driver can go: plays nothing
            from bot.discord.board_commands import answer_reach

            await answer_reach(interaction, self.game_id)
            return
        if interaction.channel_id is None:
            await answer_privately(interaction, texts.say("move.server_only_button",
                                                          texts.language(interaction.locale)))
            return
        await arm_defer(interaction, thinking=False)
        service = interaction.client.service
        try:
            reply = await service.act(interaction.channel_id, interaction.user.id, self.action, self.version,
                                      game_id=self.game_id, lang=texts.language(interaction.locale))
        except Exception:
            log.exception("button %s failed", clip_input(self.custom_id))
            reply = Reply(texts.say("move.something_wrong", texts.language(interaction.locale)), ok=False,
                          ephemeral=True)
        try:
            await send_reply(interaction, reply, pressed=True)
        except Exception:
            log.exception("answering button %s failed", clip_input(self.custom_id))
