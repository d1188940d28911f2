"""``/rules``: look up a rule, tile, part or ruling, with autocomplete from :mod:`rules.lookup`.

The topic may be a name (what autocomplete fills in) or a question in plain words ("can I bump on a
bridge"): an exact name answers at once, anything else is ranked by the lookup's search, and the reply
names the next best entries too. Autocomplete uses the same ranking.
"""

from __future__ import annotations

import importlib
import logging
from types import ModuleType
from typing import Any

import discord
from discord import app_commands

from bot.discord import options as opt
from bot.discord.game_commands import service_of
from bot.games import front_for, playable_keys
from bot.service import refuse

log = logging.getLogger(__name__)

Choice = app_commands.Choice
MAX_DESCRIPTION = 4000


def lookup_module() -> ModuleType | None:
    """:mod:`rules.lookup`, or None while it is not available."""
    try:
        return importlib.import_module("rules.lookup")
    except ImportError:
        log.warning("rules.lookup is not available; /rules answers that")
        return None


def _lookup_games() -> list[str]:
    mod = lookup_module()
    if mod is not None and hasattr(mod, "all_games"):
        try:
            return list(mod.all_games())
        except Exception:
            log.exception("rules.lookup.all_games failed")
    return playable_keys()


def _title(key: str) -> str:
    try:
        return front_for(key).title
    except KeyError:
        return key


async def _game_for(interaction: discord.Interaction, given: Any) -> str | None:
    """The game the lookup is about: the one named, else this channel's game, else the only one."""
    if isinstance(given, str) and given:
        return given
    if interaction.channel_id is not None:
        rec = await service_of(interaction).store.channel_game(interaction.channel_id)
        if rec is not None:
            return rec.game_key
    games = _lookup_games()  # the flagship game comes first
    return games[0] if games else None


async def rules_game_autocomplete(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    cur = current.lower()
    return [Choice(name=f"{_title(k)} ({k})"[:100], value=k) for k in _lookup_games()
            if cur in k or cur in _title(k).lower()][:25]


async def rules_topic_autocomplete(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    mod = lookup_module()
    key = await _game_for(interaction, getattr(interaction.namespace, "game", None))
    if mod is None or key is None or key not in _lookup_games():
        return []
    try:
        found = mod.suggest(key, current[:100], limit=25)
    except Exception:
        log.exception("rules.lookup.suggest failed")
        return []
    return [Choice(name=str(e.title)[:100], value=str(e.id)[:100]) for e in found][:25]


@app_commands.command(name="rules", description="Look up a rule, tile, part or ruling")
@app_commands.describe(topic="What to look up (start typing for suggestions)",
                       game="Which game (default: this channel's)", share="Post it for everyone (default: only you)")
@app_commands.autocomplete(topic=rules_topic_autocomplete, game=rules_game_autocomplete)
async def rules_command(interaction: discord.Interaction, topic: str, game: str | None = None,
                        share: bool | None = None) -> None:
    from bot.discord.replies import send_reply

    try:
        text = opt.text("topic", topic, required=True)
        given = opt.text("game", game)
        public = opt.flag("share", share)
    except opt.BadOption as exc:
        await send_reply(interaction, refuse(f"{exc} Nothing was looked up."))
        return
    assert text is not None
    mod = lookup_module()
    key = await _game_for(interaction, given)
    games = _lookup_games()
    if mod is None:
        await send_reply(interaction, refuse("The rules lookup is not available right now."))
        return
    if key is None or key not in games:
        await send_reply(interaction, refuse(f"No rules for a game called `{given}`. Games: {', '.join(games)}."))
        return
    entry = mod.find(key, text)
    others: list[Any] = []
    if entry is None and hasattr(mod, "search"):
        found = mod.search(key, text, limit=3)
        if found:
            entry, others = found[0], list(found[1:])
    if entry is None:
        near = mod.suggest(key, text, limit=5)
        hint = ("Did you mean: " + ", ".join(f"`{e.title}`" for e in near) + "?") if near else \
            "Start typing in `topic` for suggestions."
        await send_reply(interaction, refuse(f"Nothing in the {_title(key)} rules matches `{text}`. {hint}"))
        return
    embed = discord.Embed(title=str(entry.title)[:256], description=str(entry.text)[:MAX_DESCRIPTION])
    also = f" · Also: {', '.join(str(e.title) for e in others)}" if others else ""
    embed.set_footer(text=f"{_title(key)} · {entry.id}{also}"[:2048])
    await interaction.response.send_message(embed=embed, ephemeral=not public,
                                            allowed_mentions=discord.AllowedMentions.none())
