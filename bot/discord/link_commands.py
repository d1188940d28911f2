"""``/game link``: the channel's game's page on the web, posted to the channel, and to a seated asker, privately,
an "Open my board" link to their own seat's page; ``revoke:True`` (the host, or anyone who may manage the
channel) makes the link open nothing, and a player's own ``revoke:True`` closes their seat's link. The work is
:mod:`bot.web.share`'s."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.discord import options as opt
from bot.discord.command_group import refuse_option, service_of, user_language
from bot.discord.context import Interaction
from bot.discord.replies import answer_with, send_reply
from bot.web import share


@app_commands.command(name="link", description="Share the game's web page; a player also gets their own board")
@app_commands.describe(revoke="Revoke the link (host or moderators), or a player's own board")
async def link(interaction: Interaction, revoke: bool | None = None) -> None:
    try:
        revoking = bool(opt.flag("revoke", revoke))
    except opt.BadOption as exc:
        await refuse_option(interaction, exc)
        return
    assert interaction.channel_id is not None
    service, lang = service_of(interaction), user_language(interaction)
    if revoking:
        can_manage = bool(interaction.permissions.manage_channels)
        await send_reply(interaction, await share.revoke(service, interaction.channel_id, interaction.user.id,
                                                         can_manage=can_manage, lang=lang))
        return
    await send_reply(interaction, await share.share(service, interaction.channel_id, interaction.user.id,
                                                    lang=lang))
    offer = await share.seat_offer(service, interaction.channel_id, interaction.user.id, lang=lang)
    if offer is not None:  # the asker's own board: for their eyes only
        view = discord.ui.View()
        view.add_item(discord.ui.Button(style=discord.ButtonStyle.link, label=offer.label, url=offer.url))
        await answer_with(interaction, public=False, content=offer.text, view=view)


def add_link_commands(group: app_commands.Group) -> None:
    """Add ``/game link`` to the ``/game`` group."""
    commands: tuple[app_commands.Command[Any, ..., None], ...] = (link,)
    for command in commands:
        group.add_command(command)


__all__ = ["add_link_commands", "link"]
