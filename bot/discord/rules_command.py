"""``/rules``: look up a rule, tile, part or ruling, with autocomplete from :mod:`rules.lookup`.

The topic may be a name (what autocomplete fills in) or a question in plain words ("can I bump on a
bridge"): an exact name answers at once, anything else is ranked by the lookup's search, and the reply
names the next best entries too. Autocomplete uses the same ranking.

Questions and answers are in the user's language: German for a user whose Discord speaks German, English
otherwise, or the one chosen with the ``language`` option. A game without entries in that language
answers in English, and the footer says so.
"""

from __future__ import annotations

import importlib
import inspect
import logging
from collections.abc import Callable
from types import ModuleType
from typing import Any

import discord
from discord import app_commands

from bot import texts
from bot.discord import options as opt
from bot.discord.command_group import service_of
from bot.discord.context import Interaction
from bot.games import front_for, playable_keys
from bot.service import refuse

log = logging.getLogger(__name__)

Choice = app_commands.Choice
MAX_DESCRIPTION = 4000

#: The languages of the lookup, as Discord locales name them (a locale of any other language reads English).
LANGUAGES = ("en", "de")

#: What /rules says around an entry comes from the service's catalogue (``rules.*`` in ``bot/locale``).


def language_of(locale: discord.Locale | str | None) -> str:
    """``"de"`` for a German Discord locale, else ``"en"``."""
    return texts.language(locale)


def _language(interaction: Interaction, given: Any) -> str:
    """The language chosen with the ``language`` option, else the one of the user's Discord."""
    if isinstance(given, str) and given in LANGUAGES:
        return given
    return language_of(getattr(interaction, "locale", None))


def _call(fn: Callable[..., Any], *args: Any, lang: str, **kwargs: Any) -> Any:
    """Call a lookup function, telling it the language when it takes one."""
    try:
        takes_lang = "lang" in inspect.signature(fn).parameters
    except (TypeError, ValueError):
        takes_lang = False
    return fn(*args, **kwargs, lang=lang) if takes_lang else fn(*args, **kwargs)


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


async def _game_for(interaction: Interaction, given: Any) -> str | None:
    """The game the lookup is about: the one named, else this channel's game, else the only one."""
    if isinstance(given, str) and given:
        return given
    if interaction.channel_id is not None:
        rec = await service_of(interaction).store.channel_game(interaction.channel_id)
        if rec is not None:
            return rec.game_key
    games = _lookup_games()  # the flagship game comes first
    return games[0] if games else None


async def rules_game_autocomplete(interaction: Interaction, current: str) -> list[Choice[str]]:
    cur = current.lower()
    return [Choice(name=f"{_title(k)} ({k})"[:100], value=k) for k in _lookup_games()
            if cur in k or cur in _title(k).lower()][:25]


async def rules_topic_autocomplete(interaction: Interaction, current: str) -> list[Choice[str]]:
    mod = lookup_module()
    key = await _game_for(interaction, getattr(interaction.namespace, "game", None))
    if mod is None or key is None or key not in _lookup_games():
        return []
    lang = _language(interaction, getattr(interaction.namespace, "language", None))
    try:
        found = _call(mod.suggest, key, current[:100], limit=25, lang=lang)
    except Exception:
        log.exception("rules.lookup.suggest failed")
        return []
    return [Choice(name=str(e.title)[:100], value=str(e.id)[:100]) for e in found][:25]


@app_commands.command(name="rules", description="Look up a rule, tile, part or ruling")
@app_commands.describe(topic="What to look up (start typing for suggestions)",
                       game="Which game (default: this channel's)", share="Post it for everyone (default: only you)",
                       language="Answer in this language (default: your Discord's)")
@app_commands.choices(language=[Choice(name="English", value="en"), Choice(name="Deutsch", value="de")])
@app_commands.autocomplete(topic=rules_topic_autocomplete, game=rules_game_autocomplete)
async def rules_command(interaction: Interaction, topic: str, game: str | None = None,
                        share: bool | None = None, language: str | None = None) -> None:
    from bot.discord.replies import answer_with, arm_defer, send_reply

    lang = _language(interaction, language)

    try:
        text = opt.text("topic", topic, required=True)
        given = opt.text("game", game)
        public = opt.flag("share", share)
    except opt.BadOption as exc:
        await send_reply(interaction, refuse(texts.say("rules.bad_option", lang, error=exc)))
        return
    assert text is not None
    if not given:  # the channel's game is read from the store: deferred first, so the answer is in time
        await arm_defer(interaction, thinking=True)
    mod = lookup_module()
    key = await _game_for(interaction, given)
    games = _lookup_games()
    if mod is None:
        await send_reply(interaction, refuse(texts.say("rules.unavailable", lang)))
        return
    if key is None or key not in games:
        await send_reply(interaction, refuse(texts.say("rules.no_game", lang, game=given, games=", ".join(games))))
        return
    entry = _call(mod.find, key, text, lang=lang)
    others: list[Any] = []
    if entry is None and hasattr(mod, "search"):
        found = _call(mod.search, key, text, limit=3, lang=lang)
        if found:
            entry, others = found[0], list(found[1:])
    if entry is None:
        near = _call(mod.suggest, key, text, limit=5, lang=lang)
        hint = texts.say("rules.did_you_mean", lang, names=", ".join(f"`{e.title}`" for e in near)) if near \
            else texts.say("rules.start_typing", lang)
        await send_reply(interaction, refuse(texts.say("rules.nothing", lang, title=_title(key), text=text, hint=hint)))
        return
    embed = discord.Embed(title=str(entry.title)[:256], description=str(entry.text)[:MAX_DESCRIPTION])
    parts = [_title(key), str(entry.id)]
    written = getattr(entry, "lang", lang)
    if written != lang:
        adjective = texts.say(f"rules.language.{written}", lang) if f"rules.language.{written}" in texts.CATALOGUE.ids \
            else written
        parts.append(texts.say("rules.fallback", lang, language=adjective))
    if others:
        parts.append(texts.say("rules.also", lang, titles=", ".join(str(e.title) for e in others)))
    embed.set_footer(text=" · ".join(parts)[:2048])
    await answer_with(interaction, public=bool(public), embed=embed, allowed_mentions=discord.AllowedMentions.none())
