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

from rules.piecepack.board import is_square
from rules.piecepack.texts import bad_notation


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
        raise bad_notation("notation.not_text", kind=type(text).__name__)
    words = [w for w in _SEPARATORS.split(text.strip().lower()) if w]
    if not words:
        raise bad_notation("notation.empty")
    verb = words[0]
    if verb in ("roll", "r"):
        if len(words) > 1:
            raise bad_notation("notation.roll_alone", rest=" ".join(words[1:]))
        return Roll()
    if verb in ("move", "m", "mv"):
        squares = words[1:]
        if not squares:
            raise bad_notation("notation.move_squares")
    elif is_square(verb):
        squares = words
    elif verb == "pass":
        raise bad_notation("notation.no_pass")
    else:
        raise bad_notation("notation.unknown", verb=verb)
    for sq in squares:
        if not is_square(sq):
            raise bad_notation("notation.not_square", square=sq)
    if len(squares) == 1:
        return Destination(squares[0])
    return Move(tuple(squares))
