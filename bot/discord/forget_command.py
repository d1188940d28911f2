"""``/game forget``: a person deletes what Junkyard GM keeps about them (:mod:`bot.upkeep.forget`). The command only
asks, privately, with a button; pressing it (the same person, within five minutes) forgets them: their seats
become anonymous players, a running game's seat goes to a computer, their settings, results and ratings go.
Works in direct messages too."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot import texts
from bot.discord.command_group import service_of, user_language
from bot.discord.context import Interaction, ours
from bot.discord.history_commands import ANYWHERE
from bot.discord.replies import answer_privately
from bot.upkeep.forget import forget

#: how long the button answers (seconds)
CONFIRM_TIMEOUT = 300.0


class ForgetButton(discord.ui.Button["ForgetConfirm"]):
    """The private question's one button; only the asker's press counts."""

    def __init__(self, user_id: int, lang: str) -> None:
        super().__init__(label=texts.say("forget.button", lang), style=discord.ButtonStyle.danger)
        self.user_id = user_id
        self.lang = lang

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        pressed = ours(interaction)
        if pressed.user.id != self.user_id:
            await answer_privately(pressed, texts.say("forget.not_yours", user_language(pressed)))
            return
        if self.view is not None:
            self.view.stop()
        report = await forget(service_of(pressed), self.user_id)
        pressed.client.timers.settings.drop_user(self.user_id)  # the preferences the timers keep in memory
        done = texts.say("forget.done" if report.anything else "forget.nothing", self.lang)
        await pressed.response.edit_message(content=done, view=None)


class ForgetConfirm(discord.ui.View):
    """The private question's view: the button, answering for :data:`CONFIRM_TIMEOUT` seconds."""

    def __init__(self, user_id: int, lang: str) -> None:
        super().__init__(timeout=CONFIRM_TIMEOUT)
        self.add_item(ForgetButton(user_id, lang))


async def _forget(interaction: Interaction) -> None:
    lang = user_language(interaction)
    await interaction.response.send_message(texts.say("forget.ask", lang), ephemeral=True,
                                            view=ForgetConfirm(interaction.user.id, lang))


def add_forget_command(group: app_commands.Group) -> None:
    """Add ``/game forget`` to the ``/game`` group."""
    command: app_commands.Command[Any, ..., None] = app_commands.Command(
        name="forget", description="Delete what the bot keeps about you (asks first; cannot be undone)",
        callback=_forget)
    command.extras[ANYWHERE] = True
    group.add_command(command)


__all__ = ["CONFIRM_TIMEOUT", "ForgetButton", "ForgetConfirm", "add_forget_command"]
