"""Flat-top hex geometry: axial coordinates, facings, cell labels and pixel positions (ruling R1).

Cells are stored as axial coordinates ``Hex(q, r)``: ``q`` is the column, ``r`` runs down-right so that
the cell straight below has ``r + 1``. Labels follow the printed board's map style: column letters
(A … Z, AA …) and row numbers from 1 in an odd-q offset layout, so odd columns (B, D, …) sit half a
cell lower than their neighbours.
"""

from __future__ import annotations

import math
import re
from enum import IntEnum
from functools import lru_cache
from typing import NamedTuple


class Facing(IntEnum):
    """The six directions of a flat-top hex, clockwise from north."""

    N = 0
    NE = 1
    SE = 2
    S = 3
    SW = 4
    NW = 5

    def turn(self, steps: int) -> Facing:
        """Rotate clockwise by ``steps`` sixths of a turn (negative: anticlockwise)."""
        return Facing((self.value + steps) % 6)

    @property
    def left(self) -> Facing:
        return self.turn(-1)

    @property
    def right(self) -> Facing:
        return self.turn(1)

    @property
    def opposite(self) -> Facing:
        return self.turn(3)

    @classmethod
    def parse(cls, text: str) -> Facing:
        """Read a facing name such as ``"ne"``; raises ``ValueError`` naming the six choices."""
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(f"{text!r} is not a facing: use one of N, NE, SE, S, SW, NW") from None


_STEPS: dict[Facing, tuple[int, int]] = {
    Facing.N: (0, -1),
    Facing.NE: (1, -1),
    Facing.SE: (1, 0),
    Facing.S: (0, 1),
    Facing.SW: (-1, 1),
    Facing.NW: (-1, 0),
}
_FACING_OF_STEP = {v: k for k, v in _STEPS.items()}

SQRT3 = math.sqrt(3.0)


class Hex(NamedTuple):
    """One cell in axial coordinates."""

    q: int
    r: int

    def neighbour(self, facing: Facing) -> Hex:
        dq, dr = _STEPS[facing]
        return Hex(self.q + dq, self.r + dr)

    def neighbours(self) -> list[Hex]:
        """The six cells around this one, as geometry: near a board's edge some lie off the board."""
        return [self.neighbour(f) for f in Facing]

    def on_board(self, columns: int, rows: int) -> bool:
        """Whether the cell is one of a board's ``columns`` × ``rows`` cells (it has a label there)."""
        return 0 <= self.q < columns and 0 <= self.row < rows

    def neighbours_on(self, columns: int, rows: int) -> list[Hex]:
        """The cells around this one that exist on a board of ``columns`` × ``rows``."""
        return [n for n in self.neighbours() if n.on_board(columns, rows)]

    def facing_to(self, other: Hex) -> Facing | None:
        """The facing that leads from this cell to an adjacent ``other``, or None if not adjacent."""
        return _FACING_OF_STEP.get((other.q - self.q, other.r - self.r))

    def distance(self, other: Hex) -> int:
        dq = self.q - other.q
        dr = self.r - other.r
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def line(self, facing: Facing, length: int) -> list[Hex]:
        """The ``length`` cells met walking straight from here in ``facing`` (this cell excluded)."""
        out: list[Hex] = []
        cell = self
        for _ in range(length):
            cell = cell.neighbour(facing)
            out.append(cell)
        return out

    # Offset coordinates and labels -------------------------------------------------------------

    @property
    def col(self) -> int:
        return self.q

    @property
    def row(self) -> int:
        """Zero-based offset row (odd-q layout)."""
        return self.r + (self.q - (self.q & 1)) // 2

    @classmethod
    def from_offset(cls, col: int, row: int) -> Hex:
        return cls(col, row - (col - (col & 1)) // 2)

    @property
    def label(self) -> str:
        return _label(self.q, self.r)

    def __str__(self) -> str:
        return self.label if self.q >= 0 and self.row >= 0 else f"Hex({self.q}, {self.r})"

    # Pixels ------------------------------------------------------------------------------------

    def centre(self, size: float, origin: tuple[float, float] = (0.0, 0.0)) -> tuple[float, float]:
        """Pixel centre of the cell for hexes of circumradius ``size``."""
        x = size * 1.5 * self.q
        y = size * SQRT3 * (self.r + self.q / 2)
        return origin[0] + x, origin[1] + y

    def corners(self, size: float, origin: tuple[float, float] = (0.0, 0.0)) -> list[tuple[float, float]]:
        """The six corners, starting east and going clockwise (y grows downward)."""
        cx, cy = self.centre(size, origin)
        return [
            (cx + size * math.cos(math.radians(60 * i)), cy + size * math.sin(math.radians(60 * i)))
            for i in range(6)
        ]

    def edge(self, facing: Facing, size: float, origin: tuple[float, float] = (0.0, 0.0)) -> tuple[
        tuple[float, float], tuple[float, float]
    ]:
        """The two corner points of the side that faces ``facing``."""
        c = self.corners(size, origin)
        # Corner i sits at 60*i degrees (east, then clockwise); the side toward N lies between the
        # corners at 240 and 300 degrees, and each facing clockwise moves one corner on.
        first = (4 + int(facing)) % 6
        return c[first], c[(first + 1) % 6]


def pixel_to_hex(x: float, y: float, size: float, origin: tuple[float, float] = (0.0, 0.0)) -> Hex:
    """The cell whose area contains the pixel (cube rounding)."""
    px, py = x - origin[0], y - origin[1]
    qf = (2.0 / 3.0 * px) / size
    rf = (-1.0 / 3.0 * px + SQRT3 / 3.0 * py) / size
    sf = -qf - rf
    q, r, s = round(qf), round(rf), round(sf)
    dq, dr, ds = abs(q - qf), abs(r - rf), abs(s - sf)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(int(q), int(r))


@lru_cache(maxsize=4096)
def _label(q: int, r: int) -> str:
    """The label of the cell at axial ``(q, r)``; asked for often (every action's notation), so remembered."""
    return f"{column_letters(q)}{r + (q - (q & 1)) // 2 + 1}"


def column_letters(col: int) -> str:
    """0 → 'A', 25 → 'Z', 26 → 'AA', 29 → 'AD' (spreadsheet style)."""
    if col < 0:
        raise ValueError(f"column {col} is negative")
    letters = ""
    n = col + 1
    while n:
        n, rem = divmod(n - 1, 26)
        letters = chr(ord("A") + rem) + letters
    return letters


def column_index(letters: str) -> int:
    """'A' → 0, 'AA' → 26; the inverse of :func:`column_letters`."""
    n = 0
    for ch in letters.upper():
        n = n * 26 + (ord(ch) - ord("A") + 1)
    return n - 1


_LABEL = re.compile(r"^([A-Za-z]+)(-?\d+)$")


def parse_label(text: str, columns: int | None = None, rows: int | None = None) -> Hex:
    """Read a cell label such as ``"Q7"`` or ``"ad22"``.

    ``columns`` and ``rows`` bound the board when given. Raises ``ValueError`` with a message that
    names what is wrong, for example ``"'Q0': rows start at 1"``.
    """
    raw = text.strip()
    m = _LABEL.match(raw)
    if not m:
        if not raw:
            raise ValueError("a cell label is needed, like 'F7'")
        if raw.isdigit():
            raise ValueError(f"{raw!r}: a cell label starts with its column letters, like 'F{raw}'")
        if raw.isalpha():
            raise ValueError(f"{raw!r}: a cell label needs a row number after the letters, like '{raw}7'")
        raise ValueError(f"{raw!r} is not a cell label: write column letters then a row number, like 'F7'")
    letters, digits = m.group(1).upper(), m.group(2)
    row = int(digits)
    if row < 1:
        raise ValueError(f"{raw!r}: rows start at 1")
    col = column_index(letters)
    if columns is not None and col >= columns:
        raise ValueError(f"{raw!r}: the board's columns run from A to {column_letters(columns - 1)}")
    if rows is not None and row > rows:
        raise ValueError(f"{raw!r}: the board's rows run from 1 to {rows}")
    return Hex.from_offset(col, row - 1)
