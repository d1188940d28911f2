"""The bot connected for some of Discord's shards (``junkyard bot --shard-count N --shard-ids 0,1``).

A server's games belong to its shard (:func:`bot.store.shard_of`), direct messages to shard 0. The store
hands this process only its own shards' work; the bot answers only its own shards' interactions, should
Discord ever deliver another's. A player's preferences (notices, quiet hours, away) are kept in each
process's memory; a player may change them through any process, for games of every shard, so each process
reads them again every tick and times anew the turns of players whose preferences changed elsewhere.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence
from typing import Any

import discord
from discord.ext import commands

from bot import texts
from bot.clock import timers
from bot.discord.client import JunkyardBot
from bot.discord.context import ours
from bot.discord.replies import answer_privately
from bot.store import shard_of

log = logging.getLogger(__name__)

#: the catalogue id of the private answer to an interaction of a server another process serves
OTHER_SHARD = "discord.other_shard"


def _guild_of(data: dict[str, Any]) -> int | None:
    raw = data.get("guild_id")
    return int(raw) if raw is not None else None


class ShardedJunkyardBot(JunkyardBot, commands.AutoShardedBot):
    """The game master connected for ``shard_ids`` of ``shard_count`` shards, in one process."""

    def __init__(self, *args: Any, shard_count: int, shard_ids: Sequence[int], **kwargs: Any) -> None:
        super().__init__(*args, shard_count=shard_count, shard_ids=list(shard_ids), **kwargs)
        self.served: frozenset[int] = frozenset(shard_ids)
        self._refusals: set[asyncio.Task[None]] = set()
        state = self._connection
        parse: Callable[[Any], None] = state.parse_interaction_create

        def parse_interaction(data: Any) -> None:
            if self.serves(_guild_of(data)):
                parse(data)
            else:
                self._answer_elsewhere(data)

        # the gateway reads the parsers' table; the offline harness calls the method: both are filtered
        state.parsers["INTERACTION_CREATE"] = parse_interaction
        setattr(state, "parse_interaction_create", parse_interaction)  # noqa: B010 (an instance's method)

    def start_background(self) -> None:
        if self._background:
            return
        super().start_background()
        self._background.append(asyncio.get_running_loop().create_task(
            self._later(self._follow_preferences), name="junkyard-preferences"))

    async def _follow_preferences(self) -> None:
        while True:
            await asyncio.sleep(timers.POLL_SECONDS)
            try:
                await self.follow_preferences()
            except Exception:
                log.exception("players' preferences could not be read again")

    async def follow_preferences(self) -> set[int]:
        """Read the players' preferences again; the turns of those whose preferences another process changed
        are timed anew here (their notices, reminders, an away player's autopilot). Returns those players."""
        settings = self.timers.settings
        before = dict(settings._users)
        await settings.load()
        now = settings._users
        changed = {user for user, target in before.keys() | now.keys()
                   if before.get((user, target)) != now.get((user, target))}
        for user in sorted(changed):
            await self.timers.refresh(user)
        return changed

    def serves(self, guild_id: int | None) -> bool:
        """Whether this process serves the server's games (its shard is one of ours)."""
        assert self.shard_count is not None
        return shard_of(guild_id, self.shard_count) in self.served

    def _answer_elsewhere(self, data: Any) -> None:
        """An interaction of another shard's server: nothing is played; the user is told privately."""
        guild = _guild_of(data)
        log.info("an interaction of server %s (shard %s) reached shards %s; refused", guild,
                 shard_of(guild, self.shard_count or 1), sorted(self.served))
        if data.get("type") == 1:  # a ping: nothing to answer
            return
        interaction = ours(discord.Interaction(data=data, state=self._connection))

        async def answer() -> None:
            if interaction.type is discord.InteractionType.autocomplete:
                with contextlib.suppress(discord.HTTPException):
                    await interaction.response.autocomplete([])
                return
            await answer_privately(interaction, texts.say(OTHER_SHARD, texts.language(interaction.locale)))

        task = asyncio.get_running_loop().create_task(answer(), name="junkyard-other-shard")
        self._refusals.add(task)
        task.add_done_callback(self._refusals.discard)


def make_bot(*, shards: tuple[int, Sequence[int]] | None, **kwargs: Any) -> JunkyardBot:
    """The bot for ``shards`` = (count, ids), or the unsharded bot (one connection, every server) for None."""
    if shards is None:
        return JunkyardBot(**kwargs)
    count, ids = shards
    return ShardedJunkyardBot(shard_count=count, shard_ids=ids, **kwargs)
