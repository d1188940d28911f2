"""Actions of Schrottplatz Rally and their text notation (see README: "Notation").

``roll green`` / ``roll yellow boost``
    set the lever (S3), spend a fuel can on the booster if asked, and roll the die.
``move 14b``
    drive to a cell (a track cell ``<row><lane>``, the pit lane's waiting cell ``pit`` or the stop sign
    ``stop``). A whole path ``move 13a 13b 14b`` is accepted too and stands for its last cell.
``park E18.1 e3`` / ``park pit.2 e3 e5`` / ``park F7.1``
    drive into a parking spot and put what it gives on gears (``m``, ``b``, ``e`` with the gear number; the
    pit lane gives one mechanic or two parts of one kind, S10).
``repair``
    (a car forced to park, S6) take the parts for gear 1 and wait a round to repair gear 2 as well.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from rules.contract import NotationError
from rules.rally.board import RANGES
from rules.rally.texts import say


class BadNotation(NotationError):
    """Text that is not an action, with its catalogue id and parameters (see :mod:`rules.rally.texts`)."""

    def __init__(self, msg: str, **params: Any) -> None:
        super().__init__(say(msg, "en", **params), msg=msg, params=params)


_CELL = re.compile(r"^(\d{1,2}[abc]|pit|stop)$")
_SPOT = re.compile(r"^([fembFEMB]\d{1,2}|pit)\.(\d)$")
_ITEM = re.compile(r"^([mbe])([1-6])$")
_RANGE_WORDS = {"g": "green", "green": "green", "grün": "green", "gruen": "green",
                "y": "yellow", "yellow": "yellow", "gelb": "yellow",
                "r": "red", "red": "red", "rot": "red"}
_ITEM_ORDER = {"m": 0, "b": 1, "e": 2}


@dataclass(frozen=True, slots=True)
class Roll:
    """Set the lever to ``range`` and roll; ``boost`` spends a fuel can for a second move."""

    range: str
    boost: bool = False

    def __str__(self) -> str:
        return f"roll {self.range}" + (" boost" if self.boost else "")


@dataclass(frozen=True, slots=True)
class Move:
    """Drive to ``cell``: every legal way there ends the same, so the cell names the move."""

    cell: str

    def __str__(self) -> str:
        return f"move {self.cell}"


@dataclass(frozen=True, slots=True)
class Park:
    """Drive into parking spot ``spot`` and place ``items`` (letter, gear) on the board."""

    spot: str
    items: tuple[tuple[str, int], ...] = ()

    def __str__(self) -> str:
        return " ".join(["park", self.spot, *(f"{k}{g}" for k, g in self.items)])


@dataclass(frozen=True, slots=True)
class Repair:
    """S6: take the parts gear 1 needs and wait one more round to repair gear 2 too."""

    def __str__(self) -> str:
        return "repair"


@dataclass(frozen=True, slots=True)
class Path:
    """``move 13a 13b 14b``: a move written out cell by cell; the game checks it and keeps its end."""

    cells: tuple[str, ...]

    def __str__(self) -> str:
        return "move " + " ".join(self.cells)


Action = Roll | Move | Park | Repair


def sort_items(items: list[tuple[str, int]]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted(items, key=lambda it: (_ITEM_ORDER[it[0]], it[1])))


def normalise_spot(text: str) -> str:
    m = _SPOT.match(text)
    assert m
    area = m.group(1)
    return f"{area if area == 'pit' else area.upper()}.{m.group(2)}"


def parse_syntax(text: str) -> Action | Path:
    """Parse notation without looking at a game; raises :class:`NotationError` saying what was expected."""
    if not isinstance(text, str):
        raise BadNotation("n_not_text", kind=type(text).__name__)
    words = [w for w in re.split(r"[\s,]+|-(?=\d|pit|stop)", text.strip().lower()) if w]
    if not words:
        raise BadNotation("n_empty")
    verb, rest = words[0], words[1:]
    if verb in ("roll", "r"):
        boost = False
        if rest and rest[-1] in ("boost", "b", "+", "booster"):
            boost, rest = True, rest[:-1]
        if len(rest) != 1 or rest[0] not in _RANGE_WORDS:
            raise BadNotation("n_roll_range")
        return Roll(_RANGE_WORDS[rest[0]], boost)
    if verb in ("move", "m", "drive"):
        if not rest:
            raise BadNotation("n_move_cell")
        if _SPOT.match(rest[-1]):
            raise BadNotation("n_use_park")
        for cell in rest:
            if not _CELL.match(cell):
                raise BadNotation("n_not_cell", cell=cell)
        return Move(rest[0]) if len(rest) == 1 else Path(tuple(rest))
    if verb in ("park", "p"):
        if not rest or not _SPOT.match(rest[0]):
            raise BadNotation("n_park_spot")
        items = []
        for word in rest[1:]:
            m = _ITEM.match(word)
            if not m:
                raise BadNotation("n_not_placement", word=word)
            items.append((m.group(1), int(m.group(2))))
        return Park(normalise_spot(rest[0]), sort_items(items))
    if verb == "repair":
        if rest:
            raise BadNotation("n_repair_alone")
        return Repair()
    if verb in RANGES or verb in _RANGE_WORDS:
        raise BadNotation("n_one_action", range=_RANGE_WORDS[verb])
    if verb in ("pass", "wait"):
        raise BadNotation("n_no_pass")
    if _CELL.match(verb):
        return Move(verb) if not rest else parse_syntax("move " + text)
    raise BadNotation("n_unknown", verb=verb)
