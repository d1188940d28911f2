"""The interaction type of this bot: ``Interaction`` is ``discord.Interaction[JunkyardBot]`` to the type checker,
so ``interaction.client.service`` is known to be the bot's :class:`~bot.service.Service`; at run time it is
discord.py's own class."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeAlias, cast

import discord

if TYPE_CHECKING:
    from bot.discord.client import JunkyardBot

    Interaction: TypeAlias = discord.Interaction[JunkyardBot]
else:
    Interaction = discord.Interaction


def ours(interaction: discord.Interaction[Any]) -> Interaction:
    """An interaction that discord.py hands to a method typed for any client (a button's ``callback``, a
    group's ``interaction_check``), as this bot's: every interaction it dispatches is this bot's."""
    return cast("Interaction", interaction)


__all__ = ["Interaction", "ours"]
