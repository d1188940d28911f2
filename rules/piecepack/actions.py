"""Actions of Junkyard (piecepack) and their text notation.

``roll``
    roll the die (the first half of every turn).
``move b1-b2-c2``
    move along a path: the square the pawn stands on, then one square per step. ``move c2`` names only
    the destination (see :func:`parse_syntax`; the game fills in the path).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.contract import NotationError
from rules.piecepack.board import is_square

EXPECTED = "expected `roll` or `move` followed by a path of squares such as `move b1-b2-c2` or a destination `move c2`"


@dataclass(frozen=True, slots=True)
class Roll:
    """Roll the die."""

    def __str__(self) -> str:
        return "roll"


@dataclass(frozen=True, slots=True)
class Move:
    """A move along ``path``: the starting square first, then one square per step."""

    path: tuple[str, ...]

    @property
    def start(self) -> str:
        return self.path[0]

    @property
    def destination(self) -> str:
        return self.path[-1]

    @property
    def steps(self) -> int:
        return len(self.path) - 1

    def __str__(self) -> str:
        return "move " + "-".join(self.path)


@dataclass(frozen=True, slots=True)
class Destination:
    """``move c2``: a move named by where it ends; the game replaces it with a full :class:`Move`."""

    square: str

    def __str__(self) -> str:
        return f"move {self.square}"


Action = Roll | Move


_SEPARATORS = re.compile(r"[\s,\-–>]+")


def parse_syntax(text: str) -> Roll | Move | Destination:
    """Parse notation without looking at a game.

    Accepted: ``roll`` (or ``r``); ``move`` (or ``m``) followed by squares separated by ``-``, spaces or
    commas; a bare path or square (``b1-b2-c2``, ``c2``) means the same as with ``move``. Case does not
    matter. One square is a destination, two or more a full path. Raises :class:`NotationError`.
    """
    if not isinstance(text, str):
        raise NotationError(f"Notation must be text, not {type(text).__name__}: {EXPECTED}.")
    words = [w for w in _SEPARATORS.split(text.strip().lower()) if w]
    if not words:
        raise NotationError(f"Empty action: {EXPECTED}.")
    verb = words[0]
    if verb in ("roll", "r"):
        if len(words) > 1:
            raise NotationError(f"`roll` takes nothing after it (got {' '.join(words[1:])!r}).")
        return Roll()
    if verb in ("move", "m", "mv"):
        squares = words[1:]
        if not squares:
            raise NotationError("`move` needs squares after it, such as `move b1-b2-c2` or `move c2`.")
    elif is_square(verb):
        squares = words
    elif verb == "pass":
        raise NotationError(
            "There is no `pass` action: when a roll leaves no legal move the turn passes by itself (P3). "
            f"Otherwise {EXPECTED}."
        )
    else:
        raise NotationError(f"Unknown action {verb!r}: {EXPECTED}.")
    for sq in squares:
        if not is_square(sq):
            raise NotationError(f"{sq!r} is not a square: squares are a1 to e5 (columns a–e, rows 1–5).")
    if len(squares) == 1:
        return Destination(squares[0])
    return Move(tuple(squares))
