"""The types of this bot that the Discord modules share: :class:`JunkyardClient`, what those modules use of the
client, and ``Interaction``, which is ``discord.Interaction[JunkyardClient]`` to the type checker, so
``interaction.client.service`` is known to be the bot's :class:`~bot.play.service.Service`; at run time it is
discord.py's own class. The modules type against these and never import :mod:`bot.discord.client`, whose
:class:`~bot.discord.client.JunkyardBot` is the one client there is."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeAlias, cast

import discord
from discord.ext import commands

if TYPE_CHECKING:
    from bot.clock.timers import Ticker
    from bot.play.service import Service
    from bot.store import Store
    from bot.telling.delivery import Outbox
    from bot.telling.outcomes import Accepted


class JunkyardClient(commands.Bot):
    """What the commands, replies, transports and threads use of the bot besides discord.py's client: its
    store, its service, its outbox, its timers, how long an answer waits before it is deferred, and how it
    delivers what the service accepted without an interaction. :class:`~bot.discord.client.JunkyardBot` sets
    them all."""

    store: Store
    service: Service
    outbox: Outbox
    timers: Ticker
    defer_after: float

    async def deliver(self, accepted: Accepted) -> None:
        """Deliver what the service accepted without an interaction (the bot's own method does it)."""
        raise NotImplementedError


if TYPE_CHECKING:
    Interaction: TypeAlias = discord.Interaction[JunkyardClient]
else:
    Interaction = discord.Interaction


def ours(interaction: discord.Interaction[Any]) -> Interaction:
    """An interaction that discord.py hands to a method typed for any client (a button's ``callback``, a
    group's ``interaction_check``), as this bot's: every interaction it dispatches is this bot's."""
    return cast("Interaction", interaction)


__all__ = ["Interaction", "JunkyardClient", "ours"]
