"""``/game recap`` and the "What did I miss?" buttons: what the asker missed since their last own move, and on
request a replay of exactly those moves, answered to them alone (the work is :mod:`bot.clock.recap`'s)."""

from __future__ import annotations

import logging
from typing import Any

from discord import app_commands

from bot import texts
from bot.clock import recap
from bot.discord import options as opt
from bot.discord.command_group import refuse_option, service_of, user_language
from bot.discord.context import Interaction
from bot.discord.replies import _defer, answer_privately, send_reply
from bot.play.service import refuse

log = logging.getLogger(__name__)


@app_commands.command(name="recap", description="What you missed since your last move (only for you)")
@app_commands.describe(replay="With a replay of exactly those moves")
async def recap_command(interaction: Interaction, replay: bool | None = None) -> None:
    try:
        gif = bool(opt.flag("replay", replay))
    except opt.BadOption as exc:
        await refuse_option(interaction, exc)
        return
    assert interaction.channel_id is not None
    await _defer(interaction, True)
    try:
        reply = await recap.answer(service_of(interaction), interaction.channel_id, interaction.user.id, gif=gif,
                                   lang=user_language(interaction))
    except Exception:
        log.exception("the recap in channel %s failed", interaction.channel_id)
        reply = refuse(texts.say("move.something_wrong", user_language(interaction)))
    await send_reply(interaction, reply)


async def answer_recap(interaction: Interaction, game_id: int, action: str) -> None:
    """A press of "What did I miss?" or "Replay these moves": deferred privately at once (the game is rebuilt,
    a replay drawn), then the answer for the presser alone; the pressed message is left as it is."""
    lang = user_language(interaction)
    if interaction.channel_id is None:
        await answer_privately(interaction, texts.say("move.server_only_button", lang))
        return
    await _defer(interaction, True)
    try:
        reply = await recap.answer(service_of(interaction), interaction.channel_id, interaction.user.id,
                                   action=action, game_id=game_id, lang=lang)
    except Exception:
        log.exception("the recap of game %s failed", game_id)
        reply = refuse(texts.say("move.something_wrong", lang))
    await send_reply(interaction, reply)


def add_recap_commands(group: app_commands.Group) -> None:
    """Add ``/game recap`` to the ``/game`` group."""
    commands: tuple[app_commands.Command[Any, ..., None], ...] = (recap_command,)
    for command in commands:
        group.add_command(command)


__all__ = ["add_recap_commands", "answer_recap", "recap_command"]
