"""``/game board`` (the whole board, to the channel or privately; ``text:True``: the position in words,
privately) and the "Where can I go?" button of a
turn's message (a private picture for the player driving)."""

from __future__ import annotations

import logging
from typing import Any

from discord import app_commands

from bot import texts
from bot.discord import options as opt
from bot.discord.command_group import refuse_option, user_language
from bot.discord.context import Interaction
from bot.discord.replies import _defer, answer_privately, send_reply
from bot.play import boards
from bot.play.service import refuse

log = logging.getLogger(__name__)


@app_commands.command(name="board", description="The whole board: for the channel, or only for you")
@app_commands.describe(private="Only you see it (default: the channel)",
                       text="The whole position in words, only for you (e.g. screen readers)")
async def board(interaction: Interaction, private: bool | None = None, text: bool | None = None) -> None:
    try:
        only_me = bool(opt.flag("private", private))
        in_words = bool(opt.flag("text", text))
    except opt.BadOption as exc:
        await refuse_option(interaction, exc)
        return
    assert interaction.channel_id is not None
    service = interaction.client.service
    if in_words:  # a text board is for the asker's eyes: it may name their own hidden things
        await send_reply(interaction, await boards.text_board(service, interaction.channel_id, interaction.user.id,
                                                              lang=user_language(interaction)))
        return
    await send_reply(interaction, await boards.whole_board(service, interaction.channel_id, interaction.user.id,
                                                           private=only_me, lang=user_language(interaction)))


async def answer_reach(interaction: Interaction, game_id: int) -> None:
    """A press of "Where can I go?": deferred privately at once (the search may take a while), then the
    picture, or a private refusal; the turn's message is left as it is."""
    if interaction.channel_id is None:
        await answer_privately(interaction, texts.say("move.server_only_button", user_language(interaction)))
        return
    await _defer(interaction, True)
    service = interaction.client.service
    try:
        reply = await boards.where_can_i_go(service, interaction.channel_id, interaction.user.id, game_id,
                                            lang=user_language(interaction))
    except Exception:
        log.exception("where-can-I-go of game %s failed", game_id)
        reply = refuse(texts.say("move.drawing_failed", user_language(interaction)))
    await send_reply(interaction, reply)


def add_board_commands(group: app_commands.Group) -> None:
    """Add ``/game board`` to the ``/game`` group."""
    commands: tuple[app_commands.Command[Any, ..., None], ...] = (board,)
    for command in commands:
        group.add_command(command)
