"""The offline Discord harness itself: nested command groups, user options, recorded flags and files."""

from __future__ import annotations

import io

import discord
import pytest
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


async def test_a_first_follow_up_fills_a_private_placeholder_and_shows_privately(db_path):
    """As Discord does: after a private "thinking" deferral, the first follow-up takes the placeholder's place
    (and is private with it, whatever its own flags say); once the placeholder is filled, a public follow-up
    is a public message of its own."""
    bot = make_bot(db_path)

    @bot.tree.command(name="probe", description="defers privately, then follows up in public")
    async def probe(interaction: discord.Interaction, fill_first: bool) -> None:
        if fill_first:
            await interaction.edit_original_response(content="see the channel")
        await interaction.followup.send("for everyone")

    async with DiscordHarness(bot) as h:
        sent = await h.slash(ANN, "probe", fill_first=False)
        assert sent[0].deferral and sent[0].ephemeral
        r = answer(sent)
        assert r.content == "for everyone" and r.fills and r.ephemeral and not r.creates_message
        assert r.message is not None and r.message["id"] == sent[0].message["id"]  # the placeholder itself
        sent = await h.slash(ANN, "probe", fill_first=True)
        note, r = shown(sent)
        assert note.fills and note.ephemeral and note.content == "see the channel"
        assert answer(sent) is r and not r.ephemeral and r.creates_message and not r.fills


async def test_an_expired_interaction_cannot_be_answered_later(db_path):
    """A callback refused with 10062 (the three seconds passed): the interaction is gone, so a later answer,
    follow-up or edit of its original fails too, and nothing shows."""
    bot = make_bot(db_path)
    failures: list[int] = []

    @bot.tree.command(name="late", description="answers after its deferral failed")
    async def late(interaction: discord.Interaction) -> None:
        for attempt in (lambda: interaction.response.send_message("hello"),
                        lambda: interaction.followup.send("hello"),
                        lambda: interaction.edit_original_response(content="hello")):
            try:
                await attempt()
            except discord.NotFound as exc:
                failures.append(exc.code)

    async with DiscordHarness(bot) as h:
        h.fail("callback", 404, 10062)
        sent = await h.slash(ANN, "late")
        assert failures == [10062, 10015, 10015] and all(s.failed for s in sent) and len(sent) == 4
        assert shown(sent) == [] and not h.messages()
        with pytest.raises(AssertionError):
            answer(sent)
