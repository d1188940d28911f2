"""The picture of a Junkyard (piecepack) game: the 5×5 tile board and a status panel.

``piecepack_png(view)`` takes ``PiecepackGame.view(seat)`` and returns PNG bytes. The board shows
face-down tiles (wooden backs with the quartered grid of a piecepack tile back), the face-up Null tile in
the centre, each suit's start coin on its corner, pawns in suit colours with their trash pyramids stacked
beside them (letters, and a count badge), the good stuff (the golden "F" pyramid) in the centre or on its
carrier, square names, the last move's path as an arrow, and where the player to act may move (dots in
the mover's colour, or a ring of it round a pawn it can land on). The panel says whose turn it is, shows the
last roll as a die and lists every player's trash. Its words come from the game's catalogue
(:mod:`rules.piecepack.texts`) in the language asked for (``lang``: ``"en"`` or ``"de"``).

Suit colours (kept in :data:`SUIT_COLOURS`): Suns red, Moons black, Crowns green, Arms blue.

The static part (tiles, names, coins) is drawn once per number of players and size and cached.
"""

from __future__ import annotations

import itertools
import math
import threading
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    Colour,
    Point,
    build_palette,
    draw_arrow,
    draw_bounded,
    draw_fitted,
    draw_polygon,
    draw_text,
    encode_png,
    fit_text,
    fit_together,
    font,
    lighter,
    mix,
    star_polygon,
    thick_line,
)
from rules.piecepack.board import COLUMNS, SIZE, SUIT_CODES, SUITS, coords
from rules.piecepack.texts import face, say, suit_word

SUIT_COLOURS: dict[str, Colour] = {
    "Suns": (246, 0, 7),
    "Moons": (38, 38, 44),
    "Crowns": (46, 148, 111),
    "Arms": (47, 51, 190),
}
CODE_COLOURS: dict[str, Colour] = {code: SUIT_COLOURS[s] for code, s in zip(SUIT_CODES, SUITS, strict=True)}

BACKGROUND: Colour = (46, 40, 34)
TILE: Colour = (196, 158, 104)
TILE_EDGE: Colour = (120, 88, 52)
TILE_GRID: Colour = (168, 128, 80)
NULL_TILE: Colour = (240, 230, 204)
LABEL: Colour = (92, 64, 36)
MARGIN_TEXT: Colour = (214, 196, 170)
GOLD: Colour = (236, 186, 40)
GOLD_EDGE: Colour = (130, 92, 10)
PATH: Colour = (255, 214, 0)
PATH_EDGE: Colour = (40, 30, 10)
PANEL: Colour = (246, 240, 228)
PANEL_TEXT: Colour = (40, 34, 28)
PANEL_MUTED: Colour = (120, 108, 96)
WHITE: Colour = (255, 255, 255)

DEFAULT_TILE = 112


class Layout:
    """Pixel positions for a board of ``tile`` pixels per square."""

    def __init__(self, tile: int) -> None:
        self.tile = tile
        self.margin = max(22, tile // 4)
        self.board = tile * SIZE
        self.panel_w = max(280, tile * 3)
        self.width = self.margin * 2 + self.board + self.panel_w
        self.height = self.margin * 2 + self.board
        self.panel_x = self.margin * 2 + self.board

    def origin(self, square: str) -> Point:
        """Top-left pixel of a square (row 5 at the top)."""
        col, row = coords(square)
        return self.margin + col * self.tile, self.margin + (SIZE - 1 - row) * self.tile

    def centre(self, square: str) -> Point:
        x, y = self.origin(square)
        return x + self.tile / 2, y + self.tile / 2

    def box(self, square: str) -> tuple[int, int, int, int]:
        """A square's box in the picture's pixels ``(x0, y0, x1, y1)``."""
        x, y = self.origin(square)
        return round(x), round(y), round(x + self.tile), round(y + self.tile)


# Suit symbols -------------------------------------------------------------------------------------


def draw_suit(draw: ImageDraw.ImageDraw, suit: str, c: Point, r: float, fill: Colour) -> None:
    """The suit's symbol as shapes, fitting a circle of radius ``r`` around ``c``."""
    x, y = c
    if suit == "Suns":
        draw_polygon(draw, star_polygon(c, r, r * 0.62, 12), fill)
        draw.ellipse([x - r * 0.5, y - r * 0.5, x + r * 0.5, y + r * 0.5], fill=fill)
    elif suit == "Moons":
        draw.ellipse([x - r * 0.85, y - r * 0.85, x + r * 0.85, y + r * 0.85], fill=fill)
        # Cut the crescent with the background the symbol sits on: the caller passes ``fill`` for the
        # symbol, so the bite is drawn by the caller-visible disc colour stored on the function.
        bite = getattr(draw, "_bite_colour", None)
        if bite is not None:
            off = r * 0.42
            draw.ellipse([x - r * 0.7 + off, y - r * 0.8 - off * 0.3, x + r * 0.8 + off, y + r * 0.7 - off * 0.3],
                         fill=bite)
    elif suit == "Crowns":
        pts = [
            (x - r * 0.85, y + r * 0.55), (x - r * 0.95, y - r * 0.5), (x - r * 0.45, y - r * 0.05),
            (x, y - r * 0.8), (x + r * 0.45, y - r * 0.05), (x + r * 0.95, y - r * 0.5), (x + r * 0.85, y + r * 0.55),
        ]
        draw_polygon(draw, pts, fill)
    else:  # Arms: a fleur-de-lis made of a tall petal, two side petals and a band
        draw.ellipse([x - r * 0.25, y - r * 0.95, x + r * 0.25, y + r * 0.35], fill=fill)
        draw.ellipse([x - r * 0.95, y - r * 0.45, x - r * 0.2, y + r * 0.3], fill=fill)
        draw.ellipse([x + r * 0.2, y - r * 0.45, x + r * 0.95, y + r * 0.3], fill=fill)
        draw.rectangle([x - r * 0.6, y + r * 0.2, x + r * 0.6, y + r * 0.42], fill=fill)
        draw_polygon(draw, [(x - r * 0.3, y + r * 0.42), (x + r * 0.3, y + r * 0.42), (x, y + r * 0.95)], fill)


def suit_disc(draw: ImageDraw.ImageDraw, suit: str, c: Point, r: float, ring: Colour = WHITE,
              ring_width: int = 3) -> None:
    """A disc in the suit colour with its symbol in white (a pawn, a coin, a panel marker)."""
    colour = SUIT_COLOURS[suit]
    x, y = c
    draw.ellipse([x - r - ring_width, y - r - ring_width, x + r + ring_width, y + r + ring_width], fill=ring)
    draw.ellipse([x - r, y - r, x + r, y + r], fill=colour)
    draw._bite_colour = colour  # type: ignore[attr-defined]
    draw_suit(draw, suit, c, r * 0.62, WHITE)
    draw._bite_colour = None  # type: ignore[attr-defined]


def pyramid(draw: ImageDraw.ImageDraw, c: Point, size: float, fill: Colour, letter: str, edge: Colour = WHITE
            ) -> None:
    """A piecepack pyramid seen from the side: a triangle with its letter."""
    x, y = c
    h = size
    w = size * 0.95
    pts = [(x, y - h / 2), (x + w / 2, y + h / 2), (x - w / 2, y + h / 2)]
    rim = [(x, y - h / 2 - 3), (x + w / 2 + 3, y + h / 2 + 1.5), (x - w / 2 - 3, y + h / 2 + 1.5)]
    draw_polygon(draw, rim, edge)
    draw_polygon(draw, pts, fill)
    text_colour = PANEL_TEXT if fill == GOLD else WHITE
    draw_text(draw, (x, y + h * 0.16), letter, font(max(8, round(size * 0.5)), bold=True), text_colour)


# Static board -------------------------------------------------------------------------------------


_BASE_LOCK = threading.Lock()


@lru_cache(maxsize=12)
def _base(corners: tuple[tuple[str, str], ...], tile: int) -> Image.Image:
    """Tiles, names, margins and start coins for this corner assignment (suit, corner)."""
    lay = Layout(tile)
    img = Image.new("RGB", (lay.width, lay.height), BACKGROUND)
    d = ImageDraw.Draw(img)
    small = font(max(10, tile // 8), bold=True)
    for c in range(SIZE):
        for r in range(SIZE):
            sq = f"{COLUMNS[c]}{r + 1}"
            x, y = lay.origin(sq)
            inset = max(2, tile // 40)
            box = [x + inset, y + inset, x + tile - inset, y + tile - inset]
            if sq == "c3":
                d.rounded_rectangle(box, radius=tile // 12, fill=NULL_TILE, outline=TILE_EDGE, width=2)
                # the Null tile face: a thin ring where a rank would be, and its name
                cx, cy = lay.centre(sq)
                rr = tile * 0.33
                d.ellipse([cx - rr, cy - rr, cx + rr, cy + rr], outline=mix(NULL_TILE, LABEL, 0.35), width=2)
                draw_text(d, (cx, y + tile - tile * 0.12), "NULL", font(max(9, tile // 10), bold=True),
                          mix(NULL_TILE, LABEL, 0.6))
            else:
                d.rounded_rectangle(box, radius=tile // 12, fill=TILE, outline=TILE_EDGE, width=2)
                # a piecepack tile back: the tile quartered by a grid
                mx, my = x + tile / 2, y + tile / 2
                g = tile * 0.3
                d.line([(mx, y + inset + 6), (mx, y + tile - inset - 6)], fill=TILE_GRID, width=2)
                d.line([(x + inset + 6, my), (x + tile - inset - 6, my)], fill=TILE_GRID, width=2)
                d.rectangle([mx - g, my - g, mx + g, my + g], outline=TILE_GRID, width=1)
            draw_text(d, (x + tile * 0.1, y + tile * 0.08), sq, small, LABEL, anchor="lt")
    edge = font(max(12, tile // 6), bold=True)
    for i, col in enumerate(COLUMNS):
        cx = lay.margin + (i + 0.5) * tile
        draw_text(d, (cx, lay.margin / 2), col, edge, MARGIN_TEXT)
        draw_text(d, (cx, lay.margin * 1.5 + lay.board), col, edge, MARGIN_TEXT)
    for r in range(SIZE):
        cy = lay.margin + (SIZE - 1 - r + 0.5) * tile
        draw_text(d, (lay.margin / 2, cy), str(r + 1), edge, MARGIN_TEXT)
        draw_text(d, (lay.margin * 1.5 + lay.board, cy), str(r + 1), edge, MARGIN_TEXT)
    for suit, corner in corners:
        x, y = lay.origin(corner)
        cx, cy = lay.centre(corner)
        # the start coin, face down, ringed in the suit colour
        rr = tile * 0.4
        coin = lighter(SUIT_COLOURS[suit], 0.6)
        d.ellipse([cx - rr, cy - rr, cx + rr, cy + rr], fill=coin, outline=SUIT_COLOURS[suit], width=max(3, tile // 22))
        d._bite_colour = coin  # type: ignore[attr-defined]
        draw_suit(d, suit, (cx, cy), tile * 0.22, SUIT_COLOURS[suit])
        d._bite_colour = None  # type: ignore[attr-defined]
    d.rectangle([lay.panel_x, 0, lay.width, lay.height], fill=PANEL)
    return img


@lru_cache(maxsize=12)
def _palette(corners: tuple[tuple[str, str], ...], tile: int) -> Image.Image:
    """A fixed palette for frames drawn on this base: its own colours plus everything drawn on top, so
    encoding skips the slow colour search."""
    extra = [WHITE, GOLD, GOLD_EDGE, PATH, PATH_EDGE, PANEL_TEXT, PANEL_MUTED, lighter(GOLD, 0.6)]
    for c in SUIT_COLOURS.values():
        extra += [c, lighter(c, 0.82), mix(c, WHITE, 0.5), mix(c, TILE, 0.5)]
    return build_palette(_base(corners, tile), extra)


# Dynamic parts ------------------------------------------------------------------------------------


def _draw_path(d: ImageDraw.ImageDraw, lay: Layout, path: Sequence[str], colour: Colour) -> None:
    pts = [lay.centre(sq) for sq in path]
    w = max(6, lay.tile // 12)
    for a, b in itertools.pairwise(pts):
        thick_line(d, a, b, w + 6, PATH_EDGE)
    # the last step as an arrow stopping short of the pawn standing there
    a, b = pts[-2], pts[-1]
    length = math.dist(a, b)
    stop = (b[0] - (b[0] - a[0]) * lay.tile * 0.36 / length, b[1] - (b[1] - a[1]) * lay.tile * 0.36 / length)
    draw_arrow(d, a, stop, PATH, w, outline=PATH_EDGE, outline_width=3, head_width=w * 3.2, head_length=w * 2.6)
    for a, b in itertools.pairwise(pts[:-1]):
        thick_line(d, a, b, w, PATH)
    jx, jy = pts[-2]
    d.ellipse([jx - w / 2, jy - w / 2, jx + w / 2, jy + w / 2], fill=PATH)
    sx, sy = pts[0]
    r = w * 1.1
    d.ellipse([sx - r - 3, sy - r - 3, sx + r + 3, sy + r + 3], fill=PATH_EDGE)
    d.ellipse([sx - r, sy - r, sx + r, sy + r], fill=colour)


def _draw_target(d: ImageDraw.ImageDraw, lay: Layout, sq: str, occupied: bool, colour: Colour) -> None:
    """A square the player to act may move to: a dot in the mover's colour, or a ring of that colour
    round a pawn it can land on (drawn before the pawns, so the pawn sits inside it)."""
    t = lay.tile
    if occupied:
        x, y = lay.origin(sq)
        cx, cy = x + t * 0.42, y + t * 0.56
        r = t * 0.37
        d.ellipse([cx - r - 3, cy - r - 3, cx + r + 3, cy + r + 3], fill=WHITE)
        d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=colour)
        return
    cx, cy = lay.centre(sq)
    r = t * 0.085
    d.ellipse([cx - r - 3, cy - r - 3, cx + r + 3, cy + r + 3], fill=WHITE)
    d.ellipse([cx - r, cy - r, cx + r, cy + r], fill=colour)


def stack_places(lay: Layout, sq: str, pieces: int) -> tuple[float, list[Point]]:
    """Where a stack of ``pieces`` trash pyramids stands on square ``sq``, right of the pawn: their size and
    centres, bottom first. Up to four stand in one column; more stand in columns side by side, smaller, so
    every piece shows however many a pawn carries."""
    x, y = lay.origin(sq)
    t = lay.tile
    left, right = x + t * 0.68, x + t * 0.98  # right of the pawn's ring, to the tile's edge
    top, bottom = y + t * 0.1, y + t * 0.9
    size = t * 0.2
    cols, rows = 1, max(1, pieces)
    for k in range(20, 9, -1):
        size = t * k / 100
        rows = max(1, int((bottom - top - size) / (size * 0.92)) + 1)
        cols = max(1, int((right - left) / (size * 1.02)))
        if cols * rows >= pieces:
            break
    cols = max(1, min(cols, -(-pieces // rows)))
    per_col = -(-pieces // cols)
    col_w = (right - left) / cols
    out: list[Point] = []
    for i in range(pieces):
        col, row = divmod(i, per_col)
        cx = left + col_w * (col + 0.5)
        out.append((cx, bottom - size / 2 - row * size * 0.92))
    return size, out


def _draw_stack(d: ImageDraw.ImageDraw, lay: Layout, sq: str, trash: Sequence[str], carrying: bool) -> None:
    """Trash pyramids stacked up the right side of the pawn, the top of the stack at the top (in columns when
    there are more than four); the good stuff in their place when carried."""
    x, y = lay.origin(sq)
    t = lay.tile
    if carrying:
        pyramid(d, (x + t * 0.8, y + t * 0.42), t * 0.36, GOLD, "F", edge=GOLD_EDGE)
        return
    if not trash:
        return
    size, places = stack_places(lay, sq, len(trash))
    for piece, c in zip(trash, places, strict=True):
        pyramid(d, c, size, CODE_COLOURS[piece[0]], piece[1])
    # the count badge at the top left of the pawn
    bx, by = x + t * 0.2, y + t * 0.3
    br = t * 0.11
    d.ellipse([bx - br - 2, by - br - 2, bx + br + 2, by + br + 2], fill=WHITE)
    d.ellipse([bx - br, by - br, bx + br, by + br], fill=PANEL_TEXT)
    draw_text(d, (bx, by), str(len(trash)), font(max(9, round(t * 0.14)), bold=True), WHITE)


def _draw_die(d: ImageDraw.ImageDraw, c: Point, size: float, rolled: int | None, lang: str = "en") -> None:
    x, y = c
    h = size / 2
    d.rounded_rectangle([x - h, y - h, x + h, y + h], radius=size / 6, fill=WHITE, outline=PANEL_TEXT, width=2)
    if rolled is None:
        draw_text(d, c, "–", font(round(size * 0.5), bold=True), PANEL_MUTED)
    elif rolled == 0:
        draw_text(d, c, say("picture.die_null", lang), font(round(size * 0.26), bold=True), PANEL_MUTED)
    elif rolled == 1:
        draw_text(d, c, "A", font(round(size * 0.55), bold=True), PANEL_TEXT)
    else:
        draw_text(d, c, str(rolled), font(round(size * 0.55), bold=True), PANEL_TEXT)


def _status_line(view: dict[str, Any], lang: str = "en") -> str:
    """Who is next and what they must do, or who won."""
    seats = view["seats"]
    if view.get("winner") is not None:
        return say("picture.wins", lang, name=_name(seats[view["winner"]], lang))
    who = _name(seats[view["turn"]], lang)
    if view["phase"] == "move":
        return say("picture.to_move", lang, name=who, count=view["roll"])
    return say("picture.to_roll", lang, name=who)


def moved_line(view: dict[str, Any], lang: str = "en") -> str:
    """Whose move the yellow arrow draws, from where to where; empty before the first move."""
    last = view.get("last_move")
    if not last or len(last.get("path") or ()) < 2:
        return ""
    path = last["path"]
    return say("picture.moved", lang, name=_name(view["seats"][last["seat"]], lang), frm=path[0], to=path[-1])


def next_line(view: dict[str, Any], lang: str = "en") -> str:
    """The status line, as the line after the move drawn: who is next (or who won)."""
    status = _status_line(view, lang)
    return status if view.get("winner") is not None else say("picture.next", lang, what=status)


def _roll_line(view: dict[str, Any], lang: str = "en") -> str:
    """Who rolled what, beside the die."""
    roll = view.get("roll")
    roller = next((e.get("seat") for e in view.get("events", []) if e.get("kind") == "roll"), None)
    if roll is None:
        return say("picture.no_roll", lang)
    if roller is not None:
        return say("picture.rolled", lang, name=_name(view["seats"][roller], lang), face=face(roll))
    return say("picture.last_roll", lang, face=face(roll))


def panel_texts(view: dict[str, Any], lang: str = "en") -> list[str]:
    """Every line of words the panel shows for ``view``, in order (for checking a language's words)."""
    moved = moved_line(view, lang)
    out = [say("picture.title", lang), *([moved, next_line(view, lang)] if moved else [_status_line(view, lang)]),
           _roll_line(view, lang)]
    winner = view.get("winner")
    for s in view["seats"]:
        out.append(_player_title(s, lang))
        if s["carrying"]:
            out.append(say("picture.brought_home", lang) if s["seat"] == winner
                       else say("picture.carrying", lang, corner=s["corner"]))
        else:
            n = len(s["trash"])
            out.append(say("picture.trash", lang, pieces=n) if n else say("picture.clean", lang))
    if view.get("carrier") is None and winner is None:
        out.append(say("picture.centre", lang))
    return out


def _name(s: dict[str, Any], lang: str) -> str:
    """A seat's player name, or its suit in ``lang`` when the player is named after the suit."""
    return suit_word(SUITS.index(s["suit"]), lang) if s["name"] == s["suit"] else str(s["name"])


def _player_title(s: dict[str, Any], lang: str) -> str:
    suit = suit_word(SUITS.index(s["suit"]), lang)
    return suit if s["name"] in (s["suit"], suit) else say("picture.player", lang, name=s["name"], suit=suit)


def _draw_panel(d: ImageDraw.ImageDraw, lay: Layout, view: dict[str, Any], lang: str = "en") -> None:
    """The panel beside the board: the title and what happened, the die, a row per player and, while the
    good stuff lies in the centre, a note saying so."""
    x0 = lay.panel_x + 18
    w = lay.panel_w - 36
    t = lay.tile
    y = _draw_panel_head(d, lay, view, lang)
    die = t * 0.5
    _draw_die(d, (x0 + die / 2, y + die / 2), die, view.get("roll"), lang)
    label = fit_text(d, _roll_line(view, lang), w - die - 12, die, max(12, t // 8), one_line_to=10)
    draw_fitted(d, (x0 + die + 12, y + die / 2), label, PANEL_MUTED)
    y += die + t * 0.22
    footer = t * 0.4
    row_h = min(t * 0.9, (lay.height - y - lay.margin - footer) / max(1, len(view["seats"])))
    for s in view["seats"]:
        _draw_seat_row(d, lay, s, view.get("winner"), view.get("turn"), y, row_h, lang)
        y += row_h
    # the good stuff's whereabouts
    if view.get("carrier") is None and view.get("winner") is None:
        fy = lay.height - lay.margin - t * 0.1
        pyramid(d, (x0 + t * 0.12, fy - t * 0.1), t * 0.22, GOLD, "F", edge=GOLD_EDGE)
        draw_bounded(d, (x0 + t * 0.3, fy - t * 0.1), say("picture.centre", lang),
                     (lay.panel_w - 36 - t * 0.3, t * 0.2), max(11, t // 9), PANEL_MUTED)


def _draw_panel_head(d: ImageDraw.ImageDraw, lay: Layout, view: dict[str, Any], lang: str) -> float:
    """The panel's title and its lines on the last move and whose turn it is, each in the colour of the
    player it is about; returns where the panel goes on below them."""
    x0 = lay.panel_x + 18
    w = lay.panel_w - 36
    y: float = lay.margin
    t = lay.tile
    draw_bounded(d, (x0, y), say("picture.title", lang), (w, t * 0.28), max(16, t // 5), PANEL_TEXT, "lt", bold=True)
    y += t * 0.3
    winner = view.get("winner")
    seats = view["seats"]
    lines = []
    moved = moved_line(view, lang)
    if moved:
        lines.append((moved, SUIT_COLOURS[seats[view["last_move"]["seat"]]["suit"]]))
    lines.append((next_line(view, lang) if moved else _status_line(view, lang),
                  SUIT_COLOURS[seats[winner if winner is not None else view["turn"]]["suit"]]))
    size = max(14, t // 6)
    fitted = fit_together(d, [(words, w) for words, _ in lines], size * 2.5, size, bold=True,
                          one_line_to=max(11, size - 4))
    for (_, colour), words in zip(lines, fitted, strict=True):
        draw_fitted(d, (x0, y), words, colour, anchor="lt")
        y += words.height + t * 0.05
    return y + t * 0.04


def _draw_seat_row(d: ImageDraw.ImageDraw, lay: Layout, s: dict[str, Any], winner: int | None, turn: int | None,
                   y: float, row_h: float, lang: str) -> None:
    """One player's row at ``y``: highlighted for the player to act or the winner, their suit and name,
    and beneath it the good stuff they carry or their trash."""
    x0 = lay.panel_x + 18
    w = lay.panel_w - 36
    t = lay.tile
    active = winner is None and turn == s["seat"]
    if active or s["seat"] == winner:
        fill = lighter(GOLD, 0.6) if s["seat"] == winner else lighter(SUIT_COLOURS[s["suit"]], 0.82)
        d.rounded_rectangle([x0 - 10, y - 4, x0 + w + 10, y + row_h - 8], radius=10, fill=fill)
    r = row_h * 0.2
    suit_disc(d, s["suit"], (x0 + r + 4, y + r + 6), r, ring=PANEL, ring_width=0)
    name = fit_text(d, _player_title(s, lang), w - 2 * r - 18, 2.6 * r, max(13, t // 7), bold=True,
                    one_line_to=10)
    draw_fitted(d, (x0 + 2 * r + 16, y + r + 6), name, PANEL_TEXT)
    line_y = y + 2 * r + 16
    if s["carrying"]:
        pyramid(d, (x0 + r + 4, line_y + r * 0.6), r * 1.4, GOLD, "F", edge=GOLD_EDGE)
        note = (say("picture.brought_home", lang) if s["seat"] == winner
                else say("picture.carrying", lang, corner=s["corner"]))
        fitted_note = fit_text(d, note, w - 2 * r - 16, 2 * r, max(11, t // 9), one_line_to=9)
        draw_fitted(d, (x0 + 2 * r + 16, line_y + r * 0.6), fitted_note, PANEL_TEXT)
    else:
        _draw_trash_line(d, lay, s["trash"], line_y, r, lang)


def _draw_trash_line(d: ImageDraw.ImageDraw, lay: Layout, trash: Sequence[str], line_y: float, r: float,
                     lang: str) -> None:
    """A player's trash beside the word for it (or the word that they are clean)."""
    x0 = lay.panel_x + 18
    w = lay.panel_w - 36
    t = lay.tile
    n = len(trash)
    trash_words = say("picture.trash", lang, pieces=n) if n else say("picture.clean", lang)
    shown = draw_bounded(d, (x0, line_y + r * 0.6), trash_words, (w * 0.45 if n else w, r * 1.2), max(11, t // 9),
                         PANEL_TEXT if n else SUIT_COLOURS["Crowns"], bold=bool(n))
    used = max(d.textlength(line, font=shown.font) for line in shown.lines)
    px = x0 + max(t * 0.62, used + r * 0.5)  # the pieces after the word
    step = min(r * 1.35, (x0 + w - px) / max(1, n))
    for i, piece in enumerate(trash):
        pyramid(d, (px + i * step + r * 0.6, line_y + r * 0.6), r * 1.2, CODE_COLOURS[piece[0]], piece[1])


def piecepack_png(view: dict[str, Any], events: Sequence[Any] | None = None, tile: int = DEFAULT_TILE,
                  lang: str = "en") -> bytes:
    """PNG bytes of the board and status panel for ``view`` (from ``PiecepackGame.view``), its words in
    ``lang``.

    ``events`` is accepted for the front end's common call shape; the last move is read from the view.
    """
    corners = tuple((s["suit"], s["corner"]) for s in view["seats"])
    with _BASE_LOCK:
        palette = _palette(corners, tile)
    return encode_png(piecepack_image(view, tile, lang), palette=palette)


def piecepack_image(view: dict[str, Any], tile: int = DEFAULT_TILE, lang: str = "en") -> Image.Image:
    """The picture as a Pillow image (RGB), its words in ``lang``."""
    lay = Layout(tile)
    corners = tuple((s["suit"], s["corner"]) for s in view["seats"])
    with _BASE_LOCK:
        img = _base(corners, tile).copy()
    d = ImageDraw.Draw(img)
    last = view.get("last_move")
    if last and len(last["path"]) >= 2:
        _draw_path(d, lay, last["path"], SUIT_COLOURS[view["seats"][last["seat"]]["suit"]])
    if view.get("carrier") is None:
        cx, cy = lay.centre(view["centre"])
        pyramid(d, (cx, cy - tile * 0.02), tile * 0.46, GOLD, "F", edge=GOLD_EDGE)
    if view.get("phase") == "move":
        taken = {s["square"] for s in view["seats"]}
        mover = SUIT_COLOURS[view["seats"][view["turn"]]["suit"]]
        for sq in view.get("reachable", []):
            _draw_target(d, lay, sq, sq in taken, mover)
    winner = view.get("winner")
    for s in view["seats"]:
        sq = s["square"]
        x, y = lay.origin(sq)
        pawn_c = (x + tile * 0.42, y + tile * 0.56)
        active = view["phase"] != "over" and view["turn"] == s["seat"]
        ring = GOLD if s["seat"] == winner else (PATH if active else WHITE)
        suit_disc(d, s["suit"], pawn_c, tile * 0.24, ring=ring, ring_width=max(3, tile // 24))
        _draw_stack(d, lay, sq, s["trash"], s["carrying"])
    _draw_panel(d, lay, view, lang)
    return img


#: the name the Discord front end looks for
picture = piecepack_png

__all__ = ["SUIT_COLOURS", "panel_texts", "picture", "piecepack_image", "piecepack_png"]
