"""What the Junkyard Races front says, in English or German, from the catalogue in ``locale/``: the status,
buttons, the hand, the terminal's lists and the ``/race`` commands' refusals and choices.

Names of things (parts, tiles, kart colours, facings) are the rules' words (:mod:`rules.races.texts`), so a
status names a part as the narration does; commands and options are named as the player's Discord shows
them (``bot/games/races/<lang>.commands.toml``). Notation stays as typed in every language (``left``, ``NE``,
``oil``, ``F7``): only what is shown is worded.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bot.texts import command_words
from rules.catalogue import LANGS, Catalogue
from rules.races.texts import CATALOGUE as RULES
from rules.races.texts import say as rules_say

CATALOGUE = Catalogue(Path(__file__).parent / "locale")

#: each language's names of the ``/race`` commands and options (English: the names themselves), from
#: ``bot/games/races/<lang>.commands.toml``
COMMAND_WORDS: Mapping[str, Mapping[str, tuple[str, str]]] = command_words(Path(__file__).parent)


def lang_of(lang: str) -> str:
    """``lang`` if the catalogues have it, else English."""
    return lang if lang in LANGS else "en"


def say(msg: str, lang: str = "en", count: int | None = None, **params: Any) -> str:
    """Message ``msg`` of the front in ``lang``."""
    return CATALOGUE.say(msg, lang_of(lang), count, **params)


def rules_word(prefix: str, key: str, lang: str = "en") -> str:
    """A word of the rules' catalogue (``part.mud-tyres``, ``tile.oil``, ``colour.red``, ``facing.NE``); an
    unknown key as it is."""
    msg = f"{prefix}.{key}"
    return RULES.say(msg, lang_of(lang)) if msg in RULES.ids else key


def rules_text(said: Any, lang: str = "en") -> str | None:
    """A text of the rules given as data (``{"msg": ..., "params": ...}``) in ``lang``; None when it is not
    one or the catalogue cannot word it."""
    if not isinstance(said, Mapping) or not isinstance(said.get("msg"), str) or said["msg"] not in RULES.ids:
        return None
    try:
        return rules_say(said["msg"], lang_of(lang), **dict(said.get("params") or {}))
    except (KeyError, IndexError, ValueError, TypeError):
        return None


def colour(name: str, lang: str = "en") -> str:
    """A kart colour (``red``, ``rot``)."""
    return rules_word("colour", name, lang)


def facing(name: str, lang: str = "en") -> str:
    """A facing (``NE``, ``Nordosten``)."""
    return rules_word("facing", name, lang)


def tile(kind: str, lang: str = "en") -> str:
    """A junk tile kind (``time bomb``, ``Zeitbombe``)."""
    return rules_word("tile", kind, lang)


def part(pid: str, lang: str = "en") -> str:
    """A part's name (``Mud Tyres``, ``Schlammreifen``)."""
    return rules_word("part", pid, lang)


def way(word: str, lang: str = "en") -> str:
    """``left``/``straight``/``right`` in ``lang``."""
    return say(f"way.{word}", lang)


def command_name(path: str, lang: str = "en") -> str:
    """A command's or option's name as ``lang``'s Discord shows it: ``race buy location`` → ``location``
    (German ``platz``)."""
    words = COMMAND_WORDS.get(lang_of(lang), {})
    return words[path][0] if path in words else path.rsplit(" ", 1)[-1]


def command(verb: str, lang: str = "en") -> str:
    """How to type a ``/race`` command in ``lang``: ``/race roll`` (German ``/rennen würfeln``)."""
    return f"/{command_name('race', lang)} {command_name(f'race {verb}', lang)}"


__all__ = ["CATALOGUE", "colour", "command", "command_name", "facing", "part", "rules_text", "rules_word", "say",
           "tile", "way"]
