"""The offline Discord harness itself: nested command groups, user options, recorded flags and files."""

from __future__ import annotations

import io

import discord
from discord import app_commands

from bot.discord.replies import DONE, answer_with
from tests.bot.harness import DiscordHarness
from tests.bot.helpers import ANN, BOB, answer, make_bot, shown


async def test_nested_groups_user_options_files_and_flags(db_path):
    bot = make_bot(db_path)
    outer = app_commands.Group(name="outer", description="outer group")
    inner = app_commands.Group(name="inner", description="inner group", parent=outer)

    @inner.command(name="leaf", description="a leaf command")
    async def leaf(interaction: discord.Interaction, who: discord.User, count: int, secret: bool = False) -> None:
        await answer_with(interaction, public=not secret, content=f"{who.id} x{count}",
                          file=discord.File(io.BytesIO(b"\x89PNG-data"), "p.png"))

    bot.tree.add_command(outer)
    async with DiscordHarness(bot) as h:
        sent = await h.slash(ANN, "outer inner leaf", who=BOB, count=3)
        r = answer(sent)
        assert r.content == f"{BOB} x3" and not r.ephemeral and r.png == b"\x89PNG-data"
        [note, r2] = shown(sent)  # deferred privately: the placeholder points at the public answer
        assert r2 is r and note.ephemeral and note.fills and note.content == DONE
        r = answer(await h.slash(ANN, "outer inner leaf", who=BOB, count=1, secret=True))
        assert r.ephemeral and r.flags & 64 and r.fills and r.png == b"\x89PNG-data"
