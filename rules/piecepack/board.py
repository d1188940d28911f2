"""The 5×5 Junkyard board: square names, neighbours, corners and suits.

Squares are named like a chessboard: columns ``a``–``e`` from left to right, rows ``1``–``5`` from the
bottom (the side nearest the first player) to the top. ``c3`` is the centre, the face-up Null tile (P1).
The four corners, in clockwise order as seen from above with row 5 at the top, are ``a1`` (bottom left),
``a5`` (top left), ``e5`` (top right) and ``e1`` (bottom right).
"""

from __future__ import annotations

from typing import Final

SIZE: Final = 5
COLUMNS: Final = "abcde"
CENTRE: Final = "c3"

#: every square, row by row from the bottom, left to right
SQUARES: Final[tuple[str, ...]] = tuple(f"{c}{r}" for r in range(1, SIZE + 1) for c in COLUMNS)

#: corners in clockwise order (P2: turn order follows this ring)
CORNERS_CLOCKWISE: Final = ("a1", "a5", "e5", "e1")

#: suits in seat order
SUITS: Final = ("Suns", "Moons", "Crowns", "Arms")
#: one-letter suit codes used in trash piece codes ("SA" is the Suns A pyramid)
SUIT_CODES: Final = ("S", "M", "C", "A")
#: the trash pyramids every player starts with, from the bottom of the stack to the top
TRASH_LETTERS: Final = ("A", "B", "C")

#: which corner each seat starts on, by number of seats. Two players sit on opposite corners. The
#: corners are listed clockwise, so seat order is clockwise order.
CORNERS_BY_PLAYERS: Final[dict[int, tuple[str, ...]]] = {
    2: ("a1", "e5"),
    3: ("a1", "a5", "e5"),
    4: ("a1", "a5", "e5", "e1"),
}

#: piecepack die face names (a d6 roll r shows face r - 1)
FACE_NAMES: Final = ("Null", "Ace", "2", "3", "4", "5")

ORTHOGONAL: Final = ((0, 1), (1, 0), (0, -1), (-1, 0))
DIAGONAL: Final = ((1, 1), (1, -1), (-1, -1), (-1, 1))


def coords(square: str) -> tuple[int, int]:
    """``"b3"`` → ``(1, 2)``: zero-based column and row."""
    return COLUMNS.index(square[0]), int(square[1]) - 1


def name(col: int, row: int) -> str:
    return f"{COLUMNS[col]}{row + 1}"


def is_square(text: str) -> bool:
    return len(text) == 2 and text[0] in COLUMNS and text[1] in "12345"


def _neighbours(square: str, steps: tuple[tuple[int, int], ...]) -> tuple[str, ...]:
    c, r = coords(square)
    return tuple(name(c + dc, r + dr) for dc, dr in steps if 0 <= c + dc < SIZE and 0 <= r + dr < SIZE)


#: orthogonal neighbours of every square (every pawn may step this way)
ORTHO_NEIGHBOURS: Final[dict[str, tuple[str, ...]]] = {s: _neighbours(s, ORTHOGONAL) for s in SQUARES}
#: all eight neighbours (the pawn carrying the good stuff may also step diagonally, P6)
KING_NEIGHBOURS: Final[dict[str, tuple[str, ...]]] = {
    s: _neighbours(s, ORTHOGONAL + DIAGONAL) for s in SQUARES
}


def is_diagonal(a: str, b: str) -> bool:
    (ac, ar), (bc, br) = coords(a), coords(b)
    return abs(ac - bc) == 1 and abs(ar - br) == 1


def is_step(a: str, b: str) -> bool:
    (ac, ar), (bc, br) = coords(a), coords(b)
    return max(abs(ac - bc), abs(ar - br)) == 1


def manhattan(a: str, b: str) -> int:
    (ac, ar), (bc, br) = coords(a), coords(b)
    return abs(ac - bc) + abs(ar - br)


def king_distance(a: str, b: str) -> int:
    (ac, ar), (bc, br) = coords(a), coords(b)
    return max(abs(ac - bc), abs(ar - br))


def face_name(face: int) -> str:
    return FACE_NAMES[face]


def piece_name(code: str) -> str:
    """``"MB"`` → ``"Moons B"``."""
    return f"{SUITS[SUIT_CODES.index(code[0])]} {code[1]}"
