"""The words on the Junkyard Races pictures, in English or German, from the catalogue in ``locale/``.

The status panel, its key, the close-up's and the replay's strips, the Kart Card and the static board's
title and legend all word their labels with :func:`say`. The names of parts, tiles, colours and facings are
the rules' words (:mod:`rules.races.texts`), so a picture names a thing as the narration does. A picture's
language is the game's public language, a Kart Card its owner's.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rules.catalogue import LANGS, Catalogue
from rules.races.texts import CATALOGUE as RULES
from rules.races.texts import say as rules_say

CATALOGUE = Catalogue(Path(__file__).parent / "locale")


def say(msg: str, lang: str = "en", count: int | None = None, **params: Any) -> str:
    """Message ``msg`` of the pictures in ``lang`` (English for a language the catalogue lacks)."""
    return CATALOGUE.say(msg, lang if lang in LANGS else "en", count, **params)


def _word(prefix: str, key: str, lang: str, fallback: str) -> str:
    msg = f"{prefix}.{key}"
    return say(msg, lang) if msg in CATALOGUE.ids else fallback


def rules_word(prefix: str, key: str, lang: str = "en") -> str:
    """A word of the rules' catalogue (``part.mud-tyres``, ``tile.oil``…); an unknown key as it is."""
    msg = f"{prefix}.{key}"
    return RULES.say(msg, lang if lang in LANGS else "en") if msg in RULES.ids else key


def question(choice: Mapping[str, Any], lang: str = "en") -> str:
    """A view's pending question (R14) in ``lang``: the rules' text from its id; in English the stored
    prompt. A question stored before questions had ids is left out in other languages."""
    if lang not in LANGS or lang == "en":
        return str(choice.get("prompt", ""))
    ask = choice.get("ask") or (choice.get("context") or {}).get("ask")
    if isinstance(ask, Mapping) and ask.get("msg") in RULES.ids:
        try:
            return rules_say(str(ask["msg"]), lang, **dict(ask.get("params") or {}))
        except (KeyError, IndexError, ValueError, TypeError):
            pass
    return ""


def part_name(pid: str, lang: str = "en") -> str:
    """A part's name (``Mud Tyres``, ``Schlammreifen``); an unknown id as it is."""
    return rules_word("part", pid, lang)


def part_short(pid: str, lang: str = "en") -> str:
    """A part's short name for the status panel's parts strip."""
    return _word("part_short", pid, lang, pid[:5])


def kind_name(kind: str, lang: str = "en") -> str:
    """A tile or trap kind as a name on a picture, each word capitalised (``Time Bomb``, ``Zeitbombe``)."""
    return rules_word("tile", kind, lang).title()


def colour_name(colour: str, lang: str = "en") -> str:
    """A kart colour (``red``, ``rot``)."""
    return rules_word("colour", colour, lang)


def facing_name(facing: str, lang: str = "en") -> str:
    """A facing (``NE``; German ``Nordosten``)."""
    return rules_word("facing", facing, lang)


def phase_title(phase: str, lang: str = "en") -> str:
    """The phase as the status panel's header and the replay name it (``Phase 3: roll``)."""
    return _word("phase", phase, lang, phase)


def phase_short(phase: str, lang: str = "en") -> str:
    """The phase in a word or two, for the close-up's strip."""
    return _word("phase_short", phase, lang, phase)


__all__ = ["CATALOGUE", "colour_name", "facing_name", "kind_name", "part_name", "part_short", "phase_short",
           "phase_title", "question", "rules_word", "say"]
