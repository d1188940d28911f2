"""The words of Junkyard Races and the English rules for articles and plurals.

The game's words (junk tiles, parts, directions, terrain, phases) and every form a language needs of them
("an oil", "einen Ölfleck", "den Turbomotor") live in the catalogue (``rules/races/locale``), and the
messages pick their forms there (see :mod:`rules.races.texts`). The English helpers below are the rules
those English forms follow ("an oil", "a glue", "1 tile", "3 tiles"); the tests check the catalogue
against them, and front ends use them for nouns the catalogue doesn't hold.
"""

from __future__ import annotations

from rules.races.texts import CATALOGUE, template

IRREGULAR = {"die": "dice"}


def word(wid: str, lang: str = "en", form: str = "") -> str:
    """A word of the catalogue in ``lang``: ``word("part.jet-engine", "de", "a")`` → ``ein Jet-Triebwerk``."""
    return template(f"{wid}.{form}" if form else wid, lang)


def tile_name(kind: str, lang: str = "en") -> str:
    """A junk tile kind as words: ``time-bomb`` -> ``time bomb`` (``Zeitbombe`` in German)."""
    if f"tile.{kind}" in CATALOGUE.ids:
        return word(f"tile.{kind}", lang)
    return kind.replace("-", " ")


def part_name(part: str, lang: str = "en", form: str = "") -> str:
    """A part's name: ``jet-engine`` -> ``Jet Engine``; ``form`` ``a``, ``the_acc`` or ``the_dat`` adds the
    article the language needs there."""
    return word(f"part.{part}", lang, form)


def a_an(noun: str) -> str:
    """The noun with its indefinite article: ``an oil``, ``a glue``, ``an Anti-magnetic Field Generator``."""
    return ("an " if noun[:1].lower() in "aeiou" and noun else "a ") + noun


def plural(noun: str) -> str:
    """The plural of a noun the game uses: ``tile`` -> ``tiles``, ``white die`` -> ``white dice``."""
    head, _, last = noun.rpartition(" ")
    lead = head + " " if head else ""
    if noun in IRREGULAR:
        return IRREGULAR[noun]
    if last in IRREGULAR:
        return lead + IRREGULAR[last]
    if last.endswith(("s", "x", "ch", "sh")):
        return noun + "es"
    return noun + "s"


def counted(n: int, noun: str) -> str:
    """A number with its noun in the right form: ``1 tile``, ``0 tiles``, ``2 dice``."""
    return f"{n} {noun if n == 1 else plural(noun)}"


def either(items: list[str], lang: str = "en") -> str:
    """Alternatives in words: ``3``, ``3 or 4``, ``3, 4 or 5`` (``3, 4 oder 5``)."""
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + f" {word('word.or', lang)} " + items[-1]
