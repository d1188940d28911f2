"""The Discord client: a ``commands.Bot`` whose app command tree holds ``/game``, ``/rules`` and one group
per game, and whose single dynamic button answers every action button ever sent."""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.command_group import game_groups
from bot.discord.game_commands import GameGroup
from bot.discord.replies import ActionButton, schedule_computers
from bot.discord.rules_command import rules_command
from bot.games import units
from bot.service import Service
from bot.store import SqliteStore, Store

log = logging.getLogger(__name__)


class JunkyardTree(app_commands.CommandTree):
    """Logs unexpected errors and tells the user privately that nothing happened."""

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        if isinstance(error, app_commands.CheckFailure | app_commands.TransformerError):
            text = f"That can't be done here: {error}"
        else:
            log.error("command %r failed", interaction.command and interaction.command.qualified_name,
                      exc_info=error)
            text = "Something went wrong; nothing was changed. Try `/game status`."
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            log.warning("could not report an error to the user")


class JunkyardBot(commands.Bot):
    """The game master on Discord. ``store`` is opened in ``setup_hook`` and closed with the bot."""

    def __init__(self, store: Store | None = None, *, service: Service | None = None,
                 intents: discord.Intents | None = None) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=intents or discord.Intents.default(),
                         tree_cls=JunkyardTree, help_command=None,
                         allowed_mentions=discord.AllowedMentions.none())
        self.store: Store = store if store is not None else (service.store if service else SqliteStore())
        self.service: Service = service or Service(self.store)
        self.add_app_commands()

    def add_app_commands(self) -> None:
        """Register every command on the tree (syncing with Discord is ``junkyard sync``'s job)."""
        self.tree.add_command(GameGroup())
        self.tree.add_command(rules_command)
        for group in game_groups(units()):
            self.tree.add_command(group)

    async def setup_hook(self) -> None:
        await self.store.open()
        self.add_dynamic_items(ActionButton)

    async def close(self) -> None:
        try:
            await super().close()
        finally:
            await self.store.close()

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s) in %d servers", self.user, self.user and self.user.id, len(self.guilds))
        await self.resume_computers()

    async def resume_computers(self) -> None:
        """Games left waiting for a computer player (the bot stopped mid-sequence) play on."""
        for channel_id in await self.service.channels_waiting_on_computers():
            if channel_id > 0:  # terminal games use negative channel ids; they are not Discord's
                schedule_computers(self, channel_id)
