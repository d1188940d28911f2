"""The car board of Schrottplatz Rally (rulings S2, S7): gears, rev ranges, parts and supplies.

Six gears, named by the number of cells they move: 1 and 2 in the green range, 3 and 4 in yellow, 5 and 6
in red. The die picks the gear within the lever's range (1–3 the lower, 4–6 the higher). Each gear has
three places: a mechanic (``M``), a body part (``B``) and an engine part (``E``); it works with a mechanic,
or with a body part and an engine part (S2). A gear's contents are written as letters in the order
``MBE`` (``"M"``, ``"BE"``, ``""``).

Every player owns 8 mechanics, 6 body parts, 6 engine parts and 3 fuel cans (S7); two mechanics stand on
the stop and lap counters for the whole race. Whatever is not on the car or the counters is the player's
reserve, so the totals can never change.
"""

from __future__ import annotations

import re
from typing import Final

from rules.rally.texts import say

RANGES: Final = ("green", "yellow", "red")
RANGE_GEARS: Final[dict[str, tuple[int, int]]] = {"green": (1, 2), "yellow": (3, 4), "red": (5, 6)}
GEARS: Final = (1, 2, 3, 4, 5, 6)
SLOTS: Final = "MBE"
#: item letter -> supply name
ITEMS: Final[dict[str, str]] = {"M": "mechanic", "B": "body", "E": "engine"}
SUPPLIES: Final = ("mechanic", "body", "engine", "fuel")
TOTALS: Final[dict[str, int]] = {"mechanic": 8, "body": 6, "engine": 6, "fuel": 3}
ON_COUNTERS: Final = 2  # mechanics marking the stop and lap counters (S7)
START_FUEL: Final = 2
#: the default starting board: both mechanics in green, a body and an engine part in yellow and in red
DEFAULT_BOARD: Final = "1:M 2:M 3:BE 5:BE"
START_ITEMS: Final[dict[str, int]] = {"M": 2, "B": 2, "E": 2}

_GEAR_TOKEN = re.compile(r"^([1-6]):([MBEmbe]*)$")


def range_of(gear: int) -> str:
    return RANGES[(gear - 1) // 2]


def gear_for(range_name: str, die: int) -> int:
    """The gear the die names in a range: 1–3 the lower gear, 4–6 the higher (S2)."""
    low, high = RANGE_GEARS[range_name]
    return low if die <= 3 else high


def works(contents: str) -> bool:
    """S2: a mechanic, or a body part together with an engine part."""
    return "M" in contents or ("B" in contents and "E" in contents)


def canonical(contents: str) -> str:
    return "".join(ch for ch in SLOTS if ch in contents.upper())


def parse_board(text: str) -> list[str]:
    """``"1:M 2:M 3:BE 5:BE"`` → the six gears' contents; raises ValueError saying what is wrong."""
    gears = [""] * 6
    for token in text.split():
        m = _GEAR_TOKEN.match(token)
        if not m:
            raise ValueError(f"{token!r} is not a gear: write gear:parts such as `3:BE` (gears 1–6; M mechanic, "
                             "B body part, E engine part)")
        gear, parts = int(m.group(1)), m.group(2).upper()
        if len(set(parts)) != len(parts):
            raise ValueError(f"gear {gear} holds at most one of each: {token!r}")
        if gears[gear - 1]:
            raise ValueError(f"gear {gear} is listed twice")
        gears[gear - 1] = canonical(parts)
    return gears


def board_text(gears: list[str]) -> str:
    """The six gears as ``"1:M 2:M 3:BE 5:BE"`` (empty gears left out)."""
    return " ".join(f"{g}:{c}" for g, c in zip(GEARS, gears, strict=True) if c)


def count(gears: list[str], letter: str) -> int:
    return sum(1 for c in gears if letter in c)


def working_in(gears: list[str], range_name: str) -> list[int]:
    return [g for g in RANGE_GEARS[range_name] if works(gears[g - 1])]


def roadworthy(gears: list[str]) -> bool:
    """S6: a car needs a working gear in green to drive."""
    return bool(working_in(gears, "green"))


def check_start_board(gears: list[str], lang: str = "en") -> str | None:
    """Why ``gears`` is not a legal starting board (setup step 2), in ``lang``; None if it is one."""
    for letter, want in START_ITEMS.items():
        have = count(gears, letter)
        if have != want:
            return say("board_count", lang, count=want, item=ITEMS[letter], have=have)
    for r in RANGES:
        if not working_in(gears, r):
            return say("board_range", lang, range=r)
    return None


def highest_with(gears: list[str], letter: str) -> int | None:
    """The highest gear holding ``letter`` (S5: losses come from there)."""
    for g in reversed(GEARS):
        if letter in gears[g - 1]:
            return g
    return None
