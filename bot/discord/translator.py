"""The names and descriptions of every slash command in each language of the catalogues but English (German
today), through discord.py's translator: Discord shows them to users whose client speaks that language,
and the bot still receives the English names.

Words are looked up by where they sit, not by their English text: a command's or group's qualified name
(``"game new"``), an option's command plus its name (``"game new game"``), a fixed choice's ``"=value"``.
The generic commands' words are data, ``bot/locale/<lang>.commands.toml`` (:data:`GENERIC`); each game's
own group words come from its unit
(:attr:`~bot.games.unit.GameUnit.translations`), as do the words of the options a game adds to
``/game new`` and ``/game join`` (``"new:laps"``, ``"join:colour"``).

Names keep German letters (``würfeln``): Discord accepts any lower-case letter in a localised name.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands

from bot import games, texts

#: the Discord locale the README's table of command names shows (``junkyard sync``)
LOCALE = discord.Locale.german

#: the commands that take the options games add: their qualified name → the prefix of those options' paths
SETUP_COMMANDS = {"game new": "new", "game join": "join"}

#: the generic commands' words: language → path → (name, description)
GENERIC: Mapping[str, Mapping[str, tuple[str, str]]] = texts.command_words(texts.CATALOGUE.folder)


def words_in(lang: str) -> dict[str, tuple[str, str]]:
    """Every path's words in ``lang``: the generic table and each game's (empty for English, whose words are
    the commands' own). A path two tables give differently (two games wording a shared ``/game new``
    option apart) is an error."""
    out = dict(GENERIC.get(lang, {}))
    for unit in games.units():
        for path, words in unit.translations.get(lang, {}).items():
            if out.setdefault(path, words) != words:
                raise ValueError(f"{unit.key} words {path!r} as {words!r}, another table as {out[path]!r}")
    return out


def option_word(command: str, name: str, lang: str) -> str:
    """An option of ``command`` (``game log``) as ``lang``'s Discord names it (``züge`` for ``moves``); the
    English name in a language the tables do not cover."""
    if lang == texts.DEFAULT:
        return name
    words = words_in(lang)
    setup = SETUP_COMMANDS.get(command)
    found = words.get(f"{command} {name}") or (words.get(f"{setup}:{name}") if setup else None)
    return found[0] if found else name


def path_of(location: app_commands.TranslationContextLocation, data: Any) -> str | None:
    """Where a translated string sits, as a table path (None for what the tables do not cover)."""
    where = app_commands.TranslationContextLocation
    if location in (where.command_name, where.command_description, where.group_name, where.group_description):
        return str(data.qualified_name)
    if location in (where.parameter_name, where.parameter_description):
        command = data.command.qualified_name
        if command in SETUP_COMMANDS and not any(f"{command} {data.name}" in words for words in GENERIC.values()):
            return f"{SETUP_COMMANDS[command]}:{data.name}"
        return f"{command} {data.name}"
    if location is where.choice_name:
        return f"={data.value}"
    return None


class JunkyardTranslator(app_commands.Translator):
    """The names and descriptions of the commands, options and choices in each language of the catalogues
    (a locale of any other language: Discord shows the English ones)."""

    def __init__(self) -> None:
        #: language → path → (name, description)
        self.words = {lang: words_in(lang) for lang in texts.LANGS if lang != texts.DEFAULT}
        #: which games offer each ``/game new`` and ``/game join`` option, by path
        self.offered = {f"{prefix}:{name}": games.offered_by(offers)
                        for prefix, offered in (("new", games.new_options()), ("join", games.join_options()))
                        for name, offers in offered.items()}

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        lang = texts.language(locale.value)
        if lang not in self.words:
            return None
        return self.worded(lang, context.location, context.data)

    def worded(self, lang: str, location: app_commands.TranslationContextLocation, data: Any) -> str | None:
        """The text in ``lang`` at ``location`` of ``data`` (a command, group, parameter or choice), or None."""
        path = path_of(location, data)
        words = self.words[lang].get(path) if path is not None else None
        if words is None:
            return None
        name, description = words
        if location.name.endswith("_description"):
            if path in self.offered:  # a game's option of /game new or /game join says which games read it
                description = f"{description} ({self.offered[path]})"
            return description[:100]
        return name


def readme_table(commands: list[dict[str, Any]]) -> str:
    """The README's table of German command names, from the payload ``junkyard sync`` sends (one row per
    command a player types: ``/game new`` → ``/spiel neu``)."""
    rows = ["| English | Deutsch |", "|---|---|"]

    def walk(item: dict[str, Any], english: str, german: str) -> None:
        english = f"{english} {item['name']}".strip()
        german = f"{german} {(item.get('name_localizations') or {}).get(LOCALE.value, item['name'])}".strip()
        subs = [o for o in item.get("options", []) if o["type"] in (1, 2)]  # subcommands and their groups
        if not subs:
            rows.append(f"| `/{english}` | `/{german}` |")
        for sub in subs:
            walk(sub, english, german)

    for command in commands:
        walk(command, "", "")
    return "\n".join(rows) + "\n"
