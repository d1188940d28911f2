"""Small English helpers for the texts players read: "an oil", "a glue", "1 tile", "3 tiles".

Every message that names a tile, a part or a count goes through these, so articles and plurals are
right everywhere.
"""

from __future__ import annotations

IRREGULAR = {"die": "dice"}


def tile_name(kind: str) -> str:
    """A junk tile kind as words: ``time-bomb`` -> ``time bomb``."""
    return kind.replace("-", " ")


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


def either(items: list[str]) -> str:
    """Alternatives in words: ``3``, ``3 or 4``, ``3, 4 or 5``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]
