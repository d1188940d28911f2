"""The one dynamic item that answers every action button ever sent (:mod:`bot.discord.buttons`): it plays
the action the button carries at the move it carries. A press of a button that no game of ours sent, or of a
move long past, is answered privately and changes no message."""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot import texts
from bot.clock.recap import is_recap
from bot.discord.board_commands import answer_reach
from bot.discord.buttons import CUSTOM_ID_TEMPLATE, MAX_CUSTOM_ID, MAX_ID_DIGITS, MAX_LABEL, custom_id
from bot.discord.context import ours
from bot.discord.recap_commands import answer_recap
from bot.discord.replies import answer_privately, arm_defer, send_reply
from bot.games.unit import REACH_ACTION
from bot.play.service import Outcome, clip_input
from bot.telling.outcomes import Refusal

log = logging.getLogger(__name__)


class ActionButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]], template=CUSTOM_ID_TEMPLATE):
    """Every action button of every game: plays the action it carries, at the move it carries."""

    def __init__(self, game_id: int, version: int, action: str, *, label: str | None = None,
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        cid = custom_id(game_id, version, action)
        if cid is None:
            raise ValueError("the action does not fit in a button")
        super().__init__(discord.ui.Button(label=label or action[:MAX_LABEL], style=style, custom_id=cid))
        self.game_id, self.version, self.action = game_id, version, action
        #: what was wrong with the custom_id pressed (forged or damaged); None for a sound button
        self.damage: str | None = None

    @classmethod
    def damaged(cls, what: str) -> ActionButton:
        """A stand-in for a button whose custom_id no game of ours sent: it answers, privately, and plays nothing."""
        item = cls(0, 0, "?")
        item.damage = what
        return item

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str]) -> ActionButton:
        raw = match.string
        if len(raw) > MAX_CUSTOM_ID or len(match["game"]) > MAX_ID_DIGITS or len(match["version"]) > MAX_ID_DIGITS:
            return cls.damaged(f"custom_id of {len(raw)} characters: {clip_input(raw, 60)}")
        label = getattr(item, "label", None)
        style = getattr(item, "style", discord.ButtonStyle.secondary)
        try:
            return cls(int(match["game"]), int(match["version"]), match["action"], label=label, style=style)
        except ValueError:
            return cls.damaged(f"custom_id {clip_input(raw, 60)}")

    async def callback(self, pressed: discord.Interaction[Any]) -> None:
        interaction = ours(pressed)
        lang = texts.language(interaction.locale)
        if self.damage is not None:
            log.info("a press of a button no game sent (%s)", self.damage)
            await answer_privately(interaction, texts.say("move.foreign_button", lang))
            return
        if self.action == REACH_ACTION:  # asks, privately, where the driver can go: plays nothing
            await answer_reach(interaction, self.game_id)
            return
        if is_recap(self.action):  # asks, privately, what the pinged player missed: plays nothing
            await answer_recap(interaction, self.game_id, self.action)
            return
        if interaction.channel_id is None:
            await answer_privately(interaction, texts.say("move.server_only_button", lang))
            return
        await arm_defer(interaction, thinking=False)
        try:
            outcome: Outcome = await interaction.client.service.act(interaction.channel_id, interaction.user.id,
                                                                self.action, self.version, game_id=self.game_id,
                                                                lang=lang)
        except Exception:
            log.exception("button %s failed", clip_input(self.custom_id))
            outcome = Refusal(texts.say("move.something_wrong", lang))
        try:
            await send_reply(interaction, outcome, pressed=True)
        except Exception:
            log.exception("answering button %s failed", clip_input(self.custom_id))


__all__ = ["ActionButton"]
