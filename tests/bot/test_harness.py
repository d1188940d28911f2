"""The offline Discord harness itself: nested command groups, user options, recorded flags and files."""

from __future__ import annotations

import io

import discord
from discord import app_commands

from tests.bot.harness import DiscordHarness
from tests.bot.helpers import ANN, BOB, make_bot, only


async def test_nested_groups_user_options_files_and_flags(db_path):
    bot = make_bot(db_path)
    outer = app_commands.Group(name="outer", description="outer group")
    inner = app_commands.Group(name="inner", description="inner group", parent=outer)

    @inner.command(name="leaf", description="a leaf command")
    async def leaf(interaction: discord.Interaction, who: discord.User, count: int, secret: bool = False) -> None:
        await interaction.response.send_message(f"{who.id} x{count}", ephemeral=secret,
                                                file=discord.File(io.BytesIO(b"\x89PNG-data"), "p.png"))

    bot.tree.add_command(outer)
    async with DiscordHarness(bot) as h:
        r = only(await h.slash(ANN, "outer inner leaf", who=BOB, count=3))
        assert r.content == f"{BOB} x3" and not r.ephemeral and r.png == b"\x89PNG-data"
        r = only(await h.slash(ANN, "outer inner leaf", who=BOB, count=1, secret=True))
        assert r.ephemeral and r.flags & 64
