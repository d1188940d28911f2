"""The key of the whole Junkyard Races board: every symbol the board draws, each with its name.

The whole board a channel is shown (``/game board``, a new lap) has no room for the static board's long
legend, so its status panel ends in a compact key: the track's features (terrain, walls, the stream and its
sections with their numbered circles, Landing Points with their blue arrows and numbers, bridges and their
arrows, collapsed bridges, the line, start cells, pit stops, delivery points, bottle tops, cell labels) and
the live pieces (junk tiles, traps, the marks of the last move, the last move's path, the kart to play).

:func:`drawn_features` names what a picture of a view draws in the same words, so a test can hold the key to
"everything drawn is in the key".
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import Point, draw_fitted, fit_text, font, text_floor, wrap_text
from render.races.legend import LEGEND
from render.races.pieces import (
    BUMP,
    PATH_CASING,
    draw_kart,
    draw_mark,
    draw_tile_back,
    draw_trap,
    hex_ring,
    kart_colour,
)
from render.races.symbols import PANEL, PANEL_LINE, TEXT_DIM
from render.races.words import say
from rules.races.track import PitColour, Terrain, Track

KeySymbol = Callable[[Image.Image, ImageDraw.ImageDraw, Point, float], None]

#: marks of the last move that share a symbol (a missile's or a bomb's strike is a blast)
MARK_KEYS = {"bomb": "blast", "missile": "blast", "blocked": "stuck", "time-bomb": "blast", "hit": "blast",
             "destroyed": "blast"}

#: the fewest entries in a row of the key, and the room an entry wants across
COLUMNS = 5
COLUMN_W = 72
ROW = 56
#: the smallest size a name of the key is drawn at, and the lines it may take when one is not enough
NAME_SMALLEST = 8
NAME_LINES = 2
TOP = 8
SYMBOL = 13


def _mark(what: str) -> KeySymbol:
    return lambda img, d, c, s: draw_mark(d, c, s * 2, what)


def _trap(kind: str) -> KeySymbol:
    return lambda img, d, c, s: draw_trap(d, c, s * 1.7, kind, -30.0 if kind == "oil" else None)


def _splash(img: Image.Image, d: ImageDraw.ImageDraw, c: Point, s: float) -> None:
    r = s * 0.95
    d.ellipse([c[0] - r, c[1] - r, c[0] + r, c[1] + r], fill=(44, 118, 190))
    draw_mark(d, c, s * 2, "splash")


def _path(img: Image.Image, d: ImageDraw.ImageDraw, c: Point, s: float) -> None:
    a, b = (c[0] - s, c[1] + s * 0.5), (c[0] + s, c[1] - s * 0.5)
    d.line([a, b], fill=PATH_CASING, width=max(3, round(s * 0.4)))
    d.line([a, b], fill=kart_colour("red"), width=max(2, round(s * 0.2)))
    r = s * 0.26
    d.ellipse([a[0] - r, a[1] - r, a[0] + r, a[1] + r], fill=PATH_CASING, outline=kart_colour("red"), width=2)


def _to_act(img: Image.Image, d: ImageDraw.ImageDraw, c: Point, s: float) -> None:
    d.polygon(hex_ring(c, s, 0.97), outline=PATH_CASING, width=max(3, round(s * 0.2)))
    d.polygon(hex_ring(c, s, 0.93), outline=BUMP, width=max(2, round(s * 0.12)))
    draw_kart(d, c, s * 1.34, 0, kart_colour("blue"), "2")


def _kart(img: Image.Image, d: ImageDraw.ImageDraw, c: Point, s: float) -> None:
    draw_kart(d, c, s * 1.6, 0, kart_colour("green"), "3")


#: the key's entries: (what it stands for, its symbol, the message id of its name)
KEY: tuple[tuple[str, KeySymbol, str], ...] = (
    *((key, symbol, f"legend.{key}") for symbol, key in LEGEND),
    ("kart", _kart, "key.kart"),
    ("to_act", _to_act, "key.to_act"),
    ("path", _path, "key.path"),
    ("junk_tile", lambda img, d, c, s: draw_tile_back(d, c, s * 1.7), "key.junk"),
    *((kind, _trap(kind), f"key.{kind}") for kind in ("glue", "oil", "acid", "spring", "time-bomb", "magnet")),
    ("bump", _mark("bump"), "key.bump"),
    ("pickup", _mark("pickup"), "key.pickup"),
    ("splash", _splash, "key.splash"),
    ("blast", _mark("blast"), "key.blast"),
    ("bottle-tops", _mark("bottle-tops"), "key.bottle_tops"),
    ("stuck", _mark("stuck"), "key.stuck"),
)

KEYS = frozenset(k for k, _, _ in KEY)


def _column_w(floor: int) -> float:
    """The room an entry wants across when its name is at least ``floor`` pixels."""
    return COLUMN_W * max(1.0, floor / 8.5)


def _row_h(floor: int, lines: int = NAME_LINES) -> int:
    """The height of a row of entries whose names (``lines`` lines at most) are at least ``floor`` pixels."""
    return max(ROW + 8 * (lines - NAME_LINES), 34 + lines * round(floor * 1.2) + 4)


@lru_cache(maxsize=32)
def name_lines(w: int, lang: str = "en", floor: int = 0) -> int:
    """The lines the key's names take in ``lang`` at width ``w``: two, or three when a name of a longer
    language does not fit two at the smallest size (so only such a language's key grows)."""
    cw = (w - 8) / key_columns(w, floor)
    draw = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    fnt = font(max(NAME_SMALLEST, floor), condensed=True)
    for _, _, msg in KEY:
        lines = wrap_text(draw, say(msg, lang), fnt, cw - 4, False)
        if lines is None or len(lines) > NAME_LINES:
            return NAME_LINES + 1
    return NAME_LINES


def key_columns(w: int, floor: int = 0) -> int:
    """How many entries a row of a key ``w`` wide holds (names at least ``floor`` pixels)."""
    return max(COLUMNS, int((w - 8) // _column_w(floor)))


def key_height(w: int = 340, floor: int = 0, lang: str = "en") -> int:
    """Pixels a key ``w`` wide takes in ``lang`` (names at least ``floor`` pixels)."""
    rows = math.ceil(len(KEY) / key_columns(w, floor))
    return TOP + _row_h(floor, name_lines(w, lang, floor)) * rows + 6


@lru_cache(maxsize=8)
def key_image(w: int, lang: str = "en", floor: int = 0) -> Image.Image:
    """The key ``w`` wide: every symbol of the whole board with its name under it, in ``lang``, no name smaller
    than ``floor`` pixels."""
    with text_floor(floor):
        return _draw_key(w, lang, floor)


def _draw_key(w: int, lang: str, floor: int) -> Image.Image:
    h = key_height(w, floor, lang)
    cols = key_columns(w, floor)
    row = _row_h(floor, name_lines(w, lang, floor))
    words_h = row - 34  # below the symbol, to the row's end
    img = Image.new("RGB", (w, h), PANEL)
    d = ImageDraw.Draw(img)
    d.rectangle([0, 0, w - 1, h - 1], outline=PANEL_LINE, width=1)
    cw = (w - 8) / cols
    for i, (_key, symbol, msg) in enumerate(KEY):
        cx = 4 + cw * (i % cols) + cw / 2
        cy = TOP + row * (i // cols) + 16
        symbol(img, d, (cx, cy), SYMBOL)
        words = fit_text(d, say(msg, lang), cw - 4, words_h, 11, condensed=True, smallest=NAME_SMALLEST, one_line_to=10)
        draw_fitted(d, (cx, cy + 17), words, TEXT_DIM, anchor="mt")
    return img


def track_features(track: Track) -> set[str]:
    """What the static board draws of ``track``, by key."""
    found = {"label", "junk"}
    terrain = set(track.terrain.values())
    found |= {t.value for t in terrain if t in (Terrain.TARMAC, Terrain.GRASS, Terrain.MUD, Terrain.STREAM)}
    if track.track_cells:
        found.add("wall")
    if track.stream_landing:
        found.add("section")
    if track.landings:
        found.add("landing")
    if track.bridges:
        found.add("bridge")
    if any(b.bump_sides for b in track.bridges.values()):
        found.add("red_arrow")
    if track.gaps:
        found.add("collapsed")
    if track.line:
        found.add("line")
    if track.starts:
        found.add("start")
    colours = set(track.pits.values())
    found |= {"green_pit" for c in colours if c is PitColour.GREEN} | {"red_pit" for c in colours if c is PitColour.RED}
    if track.deliveries:
        found.add("delivery")
    if track.bottle_tops:
        found.add("caps")
    return found


def live_features(view: Mapping[str, Any]) -> set[str]:
    """What the live layers draw of ``view`` (the last move drawn as the picture draws it), by key."""
    found: set[str] = set()
    if any(k.get("cell") for k in view.get("karts") or ()):
        found.add("kart")
    if view.get("to_act") is not None and view.get("phase") != "over":
        found.add("to_act")
    for tile in (view.get("board") or {}).values():
        found.add("junk_tile" if tile.get("face_down", True) else str(tile.get("kind")))
    turn = view.get("turn") or {}
    if turn.get("path"):
        found.add("path")
    for mark in turn.get("marks") or ():
        if len(mark) > 1:
            found.add(MARK_KEYS.get(str(mark[1]), str(mark[1])))
    return found


def drawn_features(view: Mapping[str, Any], track: Track) -> set[str]:
    """Everything a whole-board picture of ``view`` draws, by key (the view with its last move, as drawn)."""
    return track_features(track) | live_features(view)


__all__ = ["KEY", "KEYS", "MARK_KEYS", "drawn_features", "key_columns", "key_height", "key_image", "live_features",
           "track_features"]
