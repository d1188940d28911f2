"""``/rules``: look up a rule, tile, part or ruling, with autocomplete from :mod:`rules.lookup`.

The topic may be a name (what autocomplete fills in) or a question in plain words ("can I bump on a
bridge"): an exact name answers at once, anything else is ranked by the lookup's search, and the reply
names the next best entries too. Autocomplete uses the same ranking.

Answers are in the asker's language: the one chosen with the ``language`` option, else the language the
question is written in (a German question on an English server is answered in German), else the one of the
user's Discord. An entry found by the other language's name of a thing says that name too ("Leim
(englisch: Glue)"); a game without entries in that language answers in English, and the footer says so.

An entry of a tile, a part or a terrain shows its symbol as the board draws it (:mod:`render.symbol`), and
its related entries are buttons (:class:`RuleButton`) that answer privately, also after a restart.
"""

from __future__ import annotations

import importlib
import io
import logging
import re
from types import ModuleType
from typing import Any

import discord
from discord import app_commands

from bot import texts
from bot.discord import options as opt
from bot.discord.buttons import clip
from bot.discord.command_group import service_of
from bot.discord.context import Interaction, ours
from bot.discord.payloads import attachment, no_mentions
from bot.games import playable_keys, unit_for
from bot.play.service import refuse

log = logging.getLogger(__name__)

Choice = app_commands.Choice
MAX_DESCRIPTION = 4000

#: The languages of the lookup: the project's (a locale of any other language reads English).
LANGUAGES = texts.LANGS

#: What /rules says around an entry comes from the service's catalogue (``rules.*`` in ``bot/locale``).


def language_of(locale: discord.Locale | str | None) -> str:
    """The project's language of a Discord locale (``"de"`` for ``de``), else ``"en"``."""
    return texts.language(locale)


def _language(interaction: Interaction, given: Any, question: str = "") -> str:
    """The language chosen with the ``language`` option, else the one ``question`` is written in, else the
    one of the user's Discord."""
    if isinstance(given, str) and given in LANGUAGES:
        return given
    fallback = language_of(getattr(interaction, "locale", None))
    if question:
        return str(lookup_module().reply_language(question, None, fallback))
    return fallback


def lookup_module() -> ModuleType:
    """The rule lookup, :mod:`rules.lookup` (the one seam tests use to put a lookup of their own in),
    imported at the first question: starting the bot does not wait for its index."""
    return importlib.import_module("rules.lookup")


def _lookup_games() -> list[str]:
    try:
        return list(lookup_module().all_games())
    except Exception:
        log.exception("rules.lookup.all_games failed")
    return playable_keys()


def _title(key: str) -> str:
    try:
        return unit_for(key).title
    except KeyError:
        return key


async def _game_for(interaction: Interaction, given: Any) -> str | None:
    """The game the lookup is about: the one named, else this channel's game, else the only one."""
    if isinstance(given, str) and given:
        return given
    if interaction.channel_id is not None:
        rec = await service_of(interaction).store.games.channel_game(interaction.channel_id)
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
    if key is None or key not in _lookup_games():
        return []
    lang = _language(interaction, getattr(interaction.namespace, "language", None), current)
    try:
        found = mod.suggest(key, current[:100], limit=25, lang=lang)
    except Exception:
        log.exception("rules.lookup.suggest failed")
        return []
    return [Choice(name=str(e.title)[:100], value=str(e.id)[:100]) for e in found][:25]


@app_commands.command(name="rules", description="Look up a rule, tile, part or ruling")
@app_commands.describe(topic="What to look up (start typing for suggestions)",
                       game="Which game (default: this channel's)", share="Post it for everyone (default: only you)",
                       language="Answer in this language (default: your Discord's)")
@app_commands.choices(language=[Choice(name=texts.language_name(lang, lang), value=lang) for lang in LANGUAGES])
@app_commands.autocomplete(topic=rules_topic_autocomplete, game=rules_game_autocomplete)
async def rules_command(interaction: Interaction, topic: str, game: str | None = None,
                        share: bool | None = None, language: str | None = None) -> None:
    from bot.discord.replies import answer_with, arm_defer, send_reply

    lang = _language(interaction, language, topic if isinstance(topic, str) else "")

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
    if key is None or key not in games:
        await send_reply(interaction, refuse(texts.say("rules.no_game", lang, game=given, games=", ".join(games))))
        return
    entry = mod.find(key, text, lang=lang)
    others: list[Any] = []
    if entry is None:
        found = mod.search(key, text, limit=3, lang=lang)
        if found:
            entry, others = found[0], list(found[1:])
    if entry is None:
        near = mod.suggest(key, text, limit=5, lang=lang)
        hint = texts.say("rules.did_you_mean", lang, names=", ".join(f"`{e.title}`" for e in near)) if near \
            else texts.say("rules.start_typing", lang)
        await send_reply(interaction, refuse(texts.say("rules.nothing", lang, title=_title(key), text=text, hint=hint)))
        return
    embed, extras = rule_message(mod, key, entry, others, lang, text)
    await answer_with(interaction, public=bool(public), embed=embed, allowed_mentions=no_mentions(),
                      **extras)


#: At most this many related entries become buttons (two rows of Discord's five).
MAX_RELATED = 10
SYMBOL_FILE = "symbol.png"


def rule_message(mod: ModuleType, key: str, entry: Any, others: list[Any], lang: str, question: str = ""
                 ) -> tuple[discord.Embed, dict[str, Any]]:
    """The answer for one entry: an embed (title, with the other language's name when the question used
    it; text; footer with the game, the kind of entry and the next best, never an id), its symbol as a
    thumbnail, and a button for each related entry; returned as the embed and the rest of the message's
    arguments."""
    title = str(entry.title)
    written = entry.lang
    if question:
        other = mod.other_named(key, entry, question)
        if other is not None:
            title = texts.say(f"rules.other_name.{other.lang}", lang, title=title, name=str(other.title))
    embed = discord.Embed(title=clip(title, 256), description=str(entry.text)[:MAX_DESCRIPTION])
    parts = [_title(key), texts.say(f"rules.kind.{entry.kind}", lang)]
    if written != lang:
        adjective = texts.say(f"rules.language.{written}", lang) if f"rules.language.{written}" in texts.CATALOGUE.ids \
            else written
        parts.append(texts.say("rules.fallback", lang, language=adjective))
    if others:
        parts.append(texts.say("rules.also", lang, titles=", ".join(str(e.title) for e in others)))
    embed.set_footer(text=" · ".join(parts)[:2048])
    extras: dict[str, Any] = {}
    symbol = entry.symbol
    if symbol:
        try:
            from render.symbol import symbol_png

            png = symbol_png(key, symbol, lang)
        except Exception:
            log.exception("drawing the symbol %r of %s failed", symbol, entry.id)
        else:
            extras["file"] = attachment(png, SYMBOL_FILE, texts.say("rules.symbol", lang))
            if _wide(png):  # a part's name plate or a row of badges: unreadable in an 80 px thumbnail
                embed.set_image(url=f"attachment://{SYMBOL_FILE}")
            else:
                embed.set_thumbnail(url=f"attachment://{SYMBOL_FILE}")
    related = mod.related(key, entry)
    buttons = [RuleButton(key, lang, str(e.id), label=str(e.title)) for e in related[:MAX_RELATED]]
    buttons = [b for b in buttons if b.fits]
    if buttons:
        view = discord.ui.View(timeout=None)
        for button in buttons:
            view.add_item(button)
        extras["view"] = view
    return embed, extras


#: A symbol this much wider than high is shown under the text, at its size, not as a thumbnail (Discord
#: shrinks thumbnails into 80 × 80, where a part's name plate or a row of three badges can't be read).
WIDE = 1.5


def _wide(png: bytes) -> bool:
    """Whether the PNG ``png`` is a wide symbol (see :data:`WIDE`)."""
    from PIL import Image

    with Image.open(io.BytesIO(png)) as img:
        return img.width >= WIDE * img.height


#: A related-entry button: ``jyrule:<game>:<language>:<entry id>`` (never the ``jy:`` of action buttons).
RULE_ID_TEMPLATE = (r"jyrule:(?P<game>[a-z0-9_-]{1,20}):(?P<lang>" + "|".join(map(re.escape, LANGUAGES))
                    + r"):(?P<entry>[A-Za-z0-9_.-]{1,60})")
_RULE_ID = re.compile(RULE_ID_TEMPLATE)
MAX_LABEL = 80


class RuleButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=RULE_ID_TEMPLATE):
    """A button under a rule lookup's answer naming a related entry: pressing it shows that entry, only to
    the one who pressed it, in the button's language. Registered once at start-up, so buttons sent before
    a restart still answer."""

    def __init__(self, game: str, lang: str, entry_id: str, *, label: str | None = None) -> None:
        cid = f"jyrule:{game}:{lang}:{entry_id}"
        #: whether the custom id is one the template reads back (ids of entries always are)
        self.fits = _RULE_ID.fullmatch(cid) is not None
        super().__init__(discord.ui.Button(label=clip(label or entry_id, MAX_LABEL),
                                           style=discord.ButtonStyle.secondary, custom_id=cid[:100]))
        self.game, self.lang, self.entry_id = game, lang, entry_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str]) -> RuleButton:
        """The button a pressed custom id names, rebuilt from the id alone (so it answers after a restart)."""
        return cls(match["game"], match["lang"], match["entry"], label=getattr(item, "label", None))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Show the button's entry to the one who pressed it, privately."""
        from bot.discord.replies import answer_privately, answer_with

        interaction = ours(interaction)

        mod = lookup_module()
        entry = None
        if self.game in _lookup_games():
            try:
                entry = mod.by_id(self.game, self.entry_id)
            except Exception:
                log.exception("reading the entry of button %s failed", self.custom_id)
        if entry is None:
            await answer_privately(interaction, texts.say("rules.gone", self.lang))
            return
        embed, extras = rule_message(mod, self.game, entry, [], self.lang)
        await answer_with(interaction, public=False, embed=embed, allowed_mentions=no_mentions(),
                          **extras)
