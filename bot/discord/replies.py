"""Turning the service's :class:`~bot.service.Reply` into Discord messages, and the action buttons.

Buttons are plain components whose custom_id carries game id, move number and action
(``jy:<game>:<version>:<action>``). One :class:`ActionButton` dynamic item, registered once at start-up,
answers every press, so buttons keep working after restarts and for days. The buttons we send are not
themselves dispatchable, so no per-message view is kept in memory and none can expire.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from typing import Any

import discord

from bot.games import ButtonSpec
from bot.service import Private, Reply

log = logging.getLogger(__name__)

CUSTOM_ID_PREFIX = "jy"
CUSTOM_ID_TEMPLATE = r"jy:(?P<game>[0-9]+):(?P<version>[0-9]+):(?P<action>[^\n]+)"
MAX_CUSTOM_ID = 100
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


class _SentButton(discord.ui.Button):
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


async def send_reply(interaction: discord.Interaction, reply: Reply, *, pressed: bool = False) -> None:
    """Answer ``interaction`` with ``reply``. ``pressed``: the interaction is a button press, whose
    message loses its buttons once the board changed or the button proved stale."""
    kwargs = _message_kwargs(reply)
    if pressed and (reply.stale or reply.changed):
        await interaction.response.edit_message(view=None)
        await interaction.followup.send(ephemeral=reply.ephemeral, **kwargs)
    elif interaction.response.is_done():
        await interaction.followup.send(ephemeral=reply.ephemeral, **kwargs)
    else:
        await interaction.response.send_message(ephemeral=reply.ephemeral, **kwargs)
    await send_private(interaction, reply)
    if reply.computers_pending and interaction.channel_id is not None:
        schedule_computers(interaction.client, interaction.channel_id)


_running: dict[int, asyncio.Task[None]] = {}


def schedule_computers(client: discord.Client, channel_id: int) -> None:
    """Let the computers of a channel's game move on in the background, posting to the channel."""
    task = _running.get(channel_id)
    if task is not None and not task.done():
        return
    task = asyncio.get_running_loop().create_task(play_computers(client, channel_id),
                                                  name=f"junkyard-computers-{channel_id}")
    _running[channel_id] = task
    task.add_done_callback(lambda t: _running.pop(channel_id, None) if _running.get(channel_id) is t else None)


async def play_computers(client: discord.Client, channel_id: int) -> None:
    """Post the computers' moves, a reply at a time, until a person is to act or the game ends."""
    service = client.service  # type: ignore[attr-defined]
    channel = client.get_partial_messageable(channel_id)
    try:
        while True:
            reply = await service.play_computers(channel_id)
            if reply is None:
                return
            await channel.send(**_message_kwargs(reply))
            for note in reply.private:  # a computer's move told a person something (a tile picked up)
                await _direct_message(client, note)
            if not reply.computers_pending:
                return
    except Exception:
        log.exception("computer moves in channel %s stopped", channel_id)


async def send_private(interaction: discord.Interaction, reply: Reply) -> None:
    """Hidden information: to the asker as an ephemeral follow-up, to anyone else by direct message."""
    for note in reply.private:
        text = clip(f"Only you see this: {note.text}")
        if note.user_id == interaction.user.id:
            await interaction.followup.send(text, ephemeral=True)
            continue
        await _direct_message(interaction.client, note)


async def _direct_message(client: discord.Client, note: Private) -> None:
    try:
        user = client.get_user(note.user_id) or await client.fetch_user(note.user_id)
        await user.send(clip(f"Only you see this: {note.text}"))
    except discord.HTTPException:
        log.info("could not send a private note to user %s (direct messages closed?)", note.user_id)


class ActionButton(discord.ui.DynamicItem[discord.ui.Button], template=CUSTOM_ID_TEMPLATE):
    """Every action button of every game: plays the action it carries, at the move it carries."""

    def __init__(self, game_id: int, version: int, action: str, *, label: str | None = None,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        cid = custom_id(game_id, version, action)
        if cid is None:
            raise ValueError(f"action {action!r} does not fit in a button")
        super().__init__(discord.ui.Button(label=label or action[:MAX_LABEL], style=style, custom_id=cid))
        self.game_id, self.version, self.action = game_id, version, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str]) -> ActionButton:
        label = getattr(item, "label", None)
        style = getattr(item, "style", discord.ButtonStyle.secondary)
        return cls(int(match["game"]), int(match["version"]), match["action"], label=label, style=style)

    async def callback(self, interaction: discord.Interaction) -> None:  # type: ignore[override]
        service = interaction.client.service  # type: ignore[attr-defined]
        if interaction.channel_id is None:
            await interaction.response.send_message("This button only works in a server channel.", ephemeral=True)
            return
        try:
            reply = await service.act(interaction.channel_id, interaction.user.id, self.action, self.version,
                                      game_id=self.game_id)
        except Exception:
            log.exception("button %s failed", self.custom_id)
            reply = Reply("Something went wrong; nothing was changed. Try `/game status`.", ok=False,
                          ephemeral=True)
        await send_reply(interaction, reply, pressed=True)
