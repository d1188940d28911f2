"""The service's own words in every language: lobby, settings, notices and reminders, undo, history, the
refusals around a move, the Discord front's fallbacks. They live in the catalogue ``bot/locale``
(``en.po``, ``de.po``; see :mod:`rules.catalogue`), keyed by stable message ids with the same placeholders
in every language. A game's own words come from its unit (which takes ``lang``).

:func:`say` words an id in a language; :func:`language` turns a Discord locale (or any locale text) into
one of the languages the catalogue has (:data:`LANGS`, read from its files by :func:`rules.catalogue.languages`).
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import babel
from babel.numbers import format_decimal

from rules.catalogue import DEFAULT, LANGS, Catalogue

#: the service's texts in every language
CATALOGUE = Catalogue(Path(__file__).parent / "locale")


def language(locale: object) -> str:
    """The language of :data:`LANGS` a locale speaks (``de``, ``de-AT``… are ``"de"``; a ``discord.Locale``
    or text), else English."""
    value = str(getattr(locale, "value", locale) or "").lower().replace("_", "-")
    return next((lang for lang in LANGS if value == lang or value.startswith(lang + "-")), DEFAULT)


def command_words(folder: str | Path) -> dict[str, dict[str, tuple[str, str]]]:
    """The slash commands' words in each language but English (whose words are the commands' own):
    language → path → (name, description), from the ``<lang>.commands.toml`` files of ``folder``. A path is
    a command's qualified name (``"race roll"``), an option's that plus its name, a fixed choice's
    ``"=value"``, a game's setup option's ``"new:laps"`` or ``"join:colour"``."""
    out: dict[str, dict[str, tuple[str, str]]] = {}
    for lang in LANGS:
        path = Path(folder) / f"{lang}.commands.toml"
        if lang != DEFAULT and path.is_file():
            raw = tomllib.loads(path.read_text(encoding="utf-8"))
            out[lang] = {str(key): (str(name), str(description)) for key, (name, description) in raw.items()}
    return out


def status_word(status: str, lang: str = DEFAULT) -> str:
    """A game's status (``finished``, ``aborted``…) in ``lang``; an unknown one as it is."""
    msg = f"status_{status}"
    return say(msg, lang) if msg in CATALOGUE.ids else status


def computer_kind(kind: str, lang: str = DEFAULT) -> str:
    """A computer player's kind (``random``, ``smart``) in ``lang``; an unknown one as it is."""
    msg = f"computer.kind.{kind}"
    return say(msg, lang) if msg in CATALOGUE.ids else kind


def language_name(lang: str, in_lang: str = DEFAULT) -> str:
    """A language's name (``de`` → "German", "Deutsch") in ``in_lang``."""
    msg = f"language.{lang}"
    return say(msg, in_lang) if msg in CATALOGUE.ids else lang


def ordinal(n: int, lang: str = DEFAULT) -> str:
    """A place: "1st", "2nd", "11th" in English, "1.", "2." in German."""
    last = n % 10 if not 10 <= n % 100 <= 20 else 0
    return say(f"history.ordinal.{last}" if last in (1, 2, 3) else "history.ordinal", lang, n=n)


def decimal(value: float, pattern: str, lang: str = DEFAULT) -> str:
    """``value`` written to ``pattern`` (``"0.0"``) as ``lang`` writes numbers (``2.5``, ``2,5``); as English
    writes them for a language that has no such rules of its own (the pseudo-language)."""
    try:
        locale = babel.Locale.parse(lang)
    except (babel.UnknownLocaleError, ValueError):
        locale = babel.Locale.parse(DEFAULT)
    return format_decimal(value, format=pattern, locale=locale)


def say(msg: str, lang: str = DEFAULT, count: int | None = None, **params: Any) -> str:
    """Message ``msg`` in ``lang`` (English when that language has none) with its placeholders filled;
    ``count`` picks the plural form of a text that counts something and is itself ``{count}``."""
    return CATALOGUE.say(msg, lang if lang in LANGS else DEFAULT, count=count, **params)


__all__ = ["CATALOGUE", "DEFAULT", "LANGS", "command_words", "computer_kind", "decimal", "language", "language_name",
           "ordinal", "say", "status_word"]
