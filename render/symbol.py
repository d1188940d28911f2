"""One symbol on its own: what the board draws for a tile, a part, a terrain or a mark, as a small PNG for
the answer of a rule lookup (the ``symbol`` of an entry in ``rules/<game>/data/lookup.toml``).

Nothing is drawn a second way here: each symbol comes from the routine the game's pictures use (the
races board's cells, legend and Kart Card slot, the rally track's service badges, the piecepack
pyramids and suit discs), put on a small canvas of the picture's own colours. A symbol may name several
("pyramid:A+pyramid:B"), drawn side by side.
"""

from __future__ import annotations

from collections.abc import Callable

from PIL import Image, ImageDraw

from render.common import Point, encode_png

#: The height of a symbol picture in pixels; a single symbol is square, several are side by side.
SIZE = 96

Painter = Callable[[Image.Image, ImageDraw.ImageDraw, Point, float, str], None]


def _races_tile(img: Image.Image, d: ImageDraw.ImageDraw, c: Point, s: float, kind: str) -> None:
    """A tile on a tarmac cell, as the live board puts it: a face-down back, or the trap's token (Oil
    with its arrow, pointing the way the board's key points it)."""
    from render.races.legend import LEGEND
    from render.races.pieces import draw_tile_back, draw_trap

    swatch = dict((key, fn) for fn, key in LEGEND)["tarmac"]
    swatch(img, d, c, s)
    if kind == "hidden":
        draw_tile_back(d, c, s * 1.3)
    else:
        draw_trap(d, c, s * 1.3, kind, -30.0 if kind == "oil" else None)


def _races_legend(img: Image.Image, d: ImageDraw.ImageDraw, c: Point, s: float, key: str) -> None:
    """A terrain or board mark, as the board's legend draws it."""
    from render.races.legend import LEGEND

    symbols = {name: fn for fn, name in LEGEND}
    symbols[key](img, d, c, s)


def _rally_service(img: Image.Image, d: ImageDraw.ImageDraw, c: Point, s: float, kind: str) -> None:
    """A service badge as the rally track shows it beside a car park."""
    from render.rally.symbols import draw_service

    draw_service(d, kind, c, s * 0.8)


def _piecepack_pyramid(img: Image.Image, d: ImageDraw.ImageDraw, c: Point, s: float, letter: str) -> None:
    """A pyramid as the piecepack board draws it: the good stuff (F) in gold, trash in a suit's colour."""
    from render.piecepack import CODE_COLOURS, GOLD, GOLD_EDGE, pyramid
    from rules.piecepack.board import SUIT_CODES

    if letter == "F":
        pyramid(d, c, s * 1.1, GOLD, "F", edge=GOLD_EDGE)
    else:
        pyramid(d, c, s * 1.1, CODE_COLOURS[SUIT_CODES[0]], letter)


def _piecepack_suit(img: Image.Image, d: ImageDraw.ImageDraw, c: Point, s: float, suit: str) -> None:
    """A suit's disc, as the board draws a pawn."""
    from render.piecepack import suit_disc

    suit_disc(d, suit, c, s * 0.7)


#: (game, kind of symbol) -> the routine that draws it, and the canvas colour it sits on
_PAINTERS: dict[tuple[str, str], tuple[Painter, tuple[int, int, int]]] = {
    ("races", "tile"): (_races_tile, (30, 28, 26)),
    ("races", "legend"): (_races_legend, (30, 28, 26)),
    ("rally", "service"): (_rally_service, (168, 146, 112)),
    ("piecepack", "pyramid"): (_piecepack_pyramid, (46, 40, 34)),
    ("piecepack", "suit"): (_piecepack_suit, (46, 40, 34)),
}


def _races_part(part: str, lang: str) -> Image.Image:
    """A part as the head of its slot on the Kart Card shows it: pile colour, location badge and name."""
    from render.races import card
    from rules.races import catalogue

    spec = catalogue.parts()[part]
    img = Image.new("RGB", (card.SLOT_W + 8, card.SLOT_H + 8), card.CARD)
    d = ImageDraw.Draw(img)
    card._slot(d, (4, 4, 4 + card.SLOT_W, 4 + card.SLOT_H), spec.locations[0], part, None, {}, lang)
    return img.crop((0, 0, img.width, 48))


def known(game: str, symbol: str) -> bool:
    """Whether every part of ``symbol`` is one this module can draw for ``game``."""
    for one in symbol.split("+"):
        kind, _, name = one.partition(":")
        if not name or ((game, kind) not in _PAINTERS and (game, kind) != ("races", "part")):
            return False
    return True


def symbol_image(game: str, symbol: str, lang: str = "en") -> Image.Image:
    """The picture of ``symbol`` ("tile:oil", "legend:mud", "part:jet-engine", "service:fuel+service:body",
    "pyramid:F", "suit:Suns"), drawn by the game's own picture routines; KeyError for an unknown one."""
    parts = symbol.split("+")
    if not known(game, symbol):
        raise KeyError(f"no symbol {symbol!r} for {game}")
    kind, _, name = parts[0].partition(":")
    if (game, kind) == ("races", "part"):
        return _races_part(name, lang)
    background = _PAINTERS[(game, kind)][1]
    scale = 4  # drawn large and scaled down, so thin lines and text stay smooth
    cell = SIZE * scale
    img = Image.new("RGB", (cell * len(parts), cell), background)
    d = ImageDraw.Draw(img)
    for i, one in enumerate(parts):
        kind, _, name = one.partition(":")
        paint, _ = _PAINTERS[(game, kind)]
        paint(img, d, (cell * i + cell / 2, cell / 2), cell * 0.4, name)
    return img.resize((SIZE * len(parts), SIZE), Image.Resampling.LANCZOS)


def symbol_png(game: str, symbol: str, lang: str = "en") -> bytes:
    """:func:`symbol_image` as PNG bytes."""
    return encode_png(symbol_image(game, symbol, lang), quantize=False)
