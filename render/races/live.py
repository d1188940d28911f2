"""The live Junkyard Races board: the cached static board plus everything a view holds.

``board_png(view)`` draws, on a copy of the cached board (``board_base(track, size, legend=False)``):
tiles and traps, the last move's path with what happened on the way, the "where can I go" overlay,
every kart in its colour pointing along its facing with its seat number, and a status panel (whose
turn and which phase, the dice just rolled, and per player flags, bottle tops, fuel dice, saddlebag
tiles and parts). The picture is a pure function of a VIEW: what the view hides (R12) cannot show.

Speed: the board is drawn once per track and size and quantized once to its palette (the board's
colours plus every live colour). Karts, tiles, traps and badges are sprites drawn and quantized once;
status rows are cached by their content. A move's picture is a copy of the palette board, some pastes
and lines in palette colours, and the PNG encoding: no frame is quantized as a whole.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any, Protocol

from PIL import Image, ImageDraw

from render.common import (
    Colour,
    Point,
    cut_to,
    darker,
    draw_bounded,
    draw_fitted,
    draw_polygon,
    draw_text,
    encode_png,
    fit_text,
    font,
    lighter,
    mix,
    polar,
    text_box,
    text_floor,
)
from render.races.board import BoardBase, board_base
from render.races.geometry import BoardGeometry, facing_angle
from render.races.heading import ASKED, MOVED, NEXT, NOW, HeadLine, heading, rounds_played
from render.races.key import key_height, key_image
from render.races.pieces import (
    BUMP,
    PATH_CASING,
    PIECE_COLOURS,
    draw_cap_icon,
    draw_die,
    draw_flag,
    draw_kart,
    draw_mark,
    draw_splash,
    draw_tile_back,
    draw_trap,
    hex_ring,
    kart_colour,
    rim_for,
)
from render.races.symbols import (
    INK,
    PANEL,
    PANEL_LINE,
    PIT_COLOURS,
    TARMAC,
    TERRAIN_COLOURS,
    TEXT,
    TEXT_DIM,
    WHITE,
)
from render.races.words import part_short, question, say
from rules.hexgrid import Facing, Hex, parse_label
from rules.races import catalogue
from rules.races.state import PRINTED_BAG
from rules.races.track import Track, get_track

#: cell size of the live board: smaller than the static board's so a move's PNG stays under 200 KB
LIVE_CELL = 24

OVERLAY_END = (96, 236, 255)  # the tint of a cell the move can end on (and, fainter, of one it passes)
OVERLAY_END_ALPHA = 100
OVERLAY_PASS_ALPHA = 44
ACTIVE_ROW = (62, 58, 52)

PILE_COLOURS = {"green": (36, 120, 60), "red": (150, 40, 36)}
LOCATIONS = tuple(range(2, 10))


def live_colours() -> tuple[Colour, ...]:
    """Every colour the live layers draw with: kept exact in the board's palette."""
    karts = tuple(catalogue.supply().colours.values())
    shades = tuple(c for k in karts for c in (darker(k, 0.35), lighter(k, 0.25), darker(k, 0.12)))
    grounds = (*TERRAIN_COLOURS.values(), *PIT_COLOURS.values(), darker(TARMAC, 0.12), lighter(TARMAC, 0.08))
    labels = tuple(mix(g, WHITE, 0.5) if sum(g) < 420 else mix(g, INK, 0.5) for g in grounds)  # cell labels
    grounds = grounds + labels
    tints = tuple(mix(g, OVERLAY_END, a / 255) for g in grounds for a in (OVERLAY_END_ALPHA, OVERLAY_PASS_ALPHA))
    return tuple(dict.fromkeys((
        *karts, *shades, *PIECE_COLOURS, OVERLAY_END, *tints, ACTIVE_ROW, PANEL, PANEL_LINE, TEXT, TEXT_DIM,
        INK, WHITE, *PILE_COLOURS.values(), (20, 20, 20), (200, 200, 196),
    )))


LIVE_COLOURS = live_colours()


def live_base(track: Track | str, size: int | None = None, lang: str = "en") -> BoardBase:
    """The cached board the live pictures draw on (no legend: the side panel holds the status); its
    title in ``lang``."""
    t = get_track(track) if isinstance(track, str) else track
    return board_base(t, size or LIVE_CELL, legend=False, lang=lang)


# Public entry points -----------------------------------------------------------------------------


def board_png(view: Mapping[str, Any], *, overlay: Any = None, size: int | None = None,
              last_turn: Mapping[str, Any] | None = None, lang: str = "en") -> bytes:
    """PNG bytes of the live board for ``view`` (``game.view(seat)`` or ``game.view(None)``).

    ``overlay`` marks where the player to act can go: a :class:`rules.races.reach.Reach`, a pair
    (end labels, pass labels), or a plain set of labels (all drawn as ends). Once the dice have passed,
    the new turn has no path yet: the move just finished stays on the picture, taken from
    ``last_turn`` (the ``turn`` of an earlier view) or else the view's own ``last_turn``; without
    either, the marks come from the view's events. The title and the status panel speak ``lang``.
    The whole board is kept within 200 KB, so zlib writes it (see :func:`render.common.encode_png`).
    """
    return encode_png(board_frame(view, overlay=overlay, size=size, last_turn=last_turn, lang=lang), fast=False)


def board_frame(view: Mapping[str, Any], base: BoardBase | None = None, *, overlay: Any = None,
                size: int | None = None, last_turn: Mapping[str, Any] | None = None,
                lang: str = "en") -> Image.Image:
    """The finished live picture as a palette image, ready to encode.

    It starts from the board already quantized to its palette and puts down pieces that were
    quantized once (sprites, status rows), so no frame is ever quantized as a whole: a move costs a
    copy, some pastes and the PNG encoding."""
    base = base or live_base(view["track"], size, lang)
    kit = live_kit(base)
    img = kit.canvas.copy()
    draw = ImageDraw.Draw(img)
    if overlay is not None:
        _overlay_patch(img, draw, overlay, base, kit)
    draw_live_layers(draw, with_last_move(view, last_turn), base, img=img, put=kit.putter(img), ink=kit.ink)
    draw_status(img, view, base.geometry.status_box, prepare=kit.prepared, lang=lang, last_turn=last_turn)
    return img


#: event kinds that leave a mark on their cell when the view's turn has no marks of its own
EVENT_MARKS = {
    "bump": "bump", "splash": "splash", "fall": "splash", "pickup": "pickup", "bottle-tops": "bottle-tops",
    "stuck": "stuck", "blocked": "blocked", "time-bomb": "blast", "hit": "blast", "destroyed": "blast",
    "glue": "glue", "oil": "oil", "spring": "spring", "acid": "acid", "magnet": "magnet",
}


def with_told(view: Mapping[str, Any], told: Mapping[str, Any]) -> Mapping[str, Any]:
    """The view drawing the moves a message tells, and only those, instead of the turn's own trail: ``told``
    holds ``paths`` (each a kart's drive: its ``seat``, the cell it set off from, ``move_from``, and the cells
    driven, ``path``), ``marks`` ([cell, what]) and the public ``events`` (as dicts) the close-up keeps in its
    frame. Its turn keeps everything else (the dice, the phase, the points to go)."""
    turn = view.get("turn") or {}
    return {**view, "told": dict(told), "turn": {**turn, "path": [], "move_from": None,
                                                 "marks": [list(m) for m in told.get("marks") or ()]}}


def with_last_move(view: Mapping[str, Any], last_turn: Mapping[str, Any] | None = None) -> Mapping[str, Any]:
    """The view whose turn carries the path and marks to draw: the moves a message tells when it says
    (:func:`with_told`), else its own when it has some, else the turn just finished (``last_turn``, or the
    view's own ``last_turn``), else marks from events."""
    turn = view.get("turn") or {}
    if "told" in view or turn.get("path") or turn.get("marks"):
        return view
    last = last_turn or view.get("last_turn")
    if last and (last.get("path") or last.get("marks")):
        return {**view, "turn": {**turn, "path": last.get("path", []), "marks": last.get("marks", []),
                                 "move_from": last.get("move_from"), "seat": last.get("seat", turn.get("seat"))}}
    marks = [[e["data"]["cell"], EVENT_MARKS[e["kind"]]] for e in view.get("events") or ()
             if e.get("kind") in EVENT_MARKS and isinstance(e.get("data"), dict) and e["data"].get("cell")]
    if not marks:
        return view
    return {**view, "turn": {**turn, "marks": marks}}


class PaletteKit:
    """A still picture quantized once to a fixed palette, and pieces to put on it without quantizing
    again: sprites (palette image and mask), prepared panels (palette images) and line colours."""

    def __init__(self, still: Image.Image, palette: Image.Image, size: int, usable: int = 256) -> None:
        self.palette = palette
        self.size = size
        self.canvas = self.quantized(still)
        entries = palette.getpalette() or []
        self.index: dict[tuple[int, ...], int] = {}
        for i in range(min(usable, len(entries) // 3) - 1, -1, -1):  # the first of equal colours wins
            self.index[tuple(entries[3 * i:3 * i + 3])] = i
        self._sprites: dict[tuple[Any, ...], tuple[Image.Image, Image.Image, int, int]] = {}
        self._prepared: dict[int, tuple[Image.Image, Image.Image]] = {}
        self._lock = threading.Lock()

    def quantized(self, img: Image.Image) -> Image.Image:
        return img.convert("RGB").quantize(palette=self.palette, dither=Image.Dither.NONE)

    def ink(self, colour: Colour) -> int:
        """The palette index of a colour (the live colours are in the palette exactly; any other
        colour gets the nearest entry)."""
        key = tuple(colour)
        hit = self.index.get(key)
        if hit is None:
            hit = min(self.index.items(), key=lambda kv: sum((a - b) ** 2 for a, b in zip(kv[0], key, strict=True)))[1]
            self.index[key] = hit
        return hit

    def sprite(self, key: tuple[Any, ...]) -> tuple[Image.Image, Image.Image, int, int]:
        """A live piece as (palette image, mask, x and y of its centre), quantized once."""
        hit = self._sprites.get(key)
        if hit is None:
            rgba, ox, oy = _sprite(key, self.size)
            flat = Image.new("RGB", rgba.size, TARMAC)
            flat.paste(rgba, (0, 0), rgba)
            mask = rgba.getchannel("A").point(lambda a: 255 if a >= 96 else 0)
            hit = (self.quantized(flat), mask, ox, oy)
            with self._lock:
                if len(self._sprites) > 4096:
                    self._sprites.clear()
                self._sprites[key] = hit
        return hit

    def putter(self, img: Image.Image) -> Callable[[Point, tuple[Any, ...]], None]:
        def put(c: Point, key: tuple[Any, ...]) -> None:
            sprite, mask, ox, oy = self.sprite(key)
            img.paste(sprite, (round(c[0]) - ox, round(c[1]) - oy), mask)

        return put

    def prepared(self, panel: Image.Image) -> Image.Image:
        """A cached RGB panel (a status row) as a palette image, quantized once per panel image."""
        hit = self._prepared.get(id(panel))
        if hit is None or hit[0] is not panel:
            with self._lock:
                if len(self._prepared) > 2048:
                    self._prepared.clear()
                hit = self._prepared[id(panel)] = (panel, self.quantized(panel))
        return hit[1]


_KITS: dict[tuple[str, int, str], PaletteKit] = {}
_KITS_LOCK = threading.Lock()


def live_kit(base: BoardBase) -> PaletteKit:
    """The palette kit of a live board (one per track, cell size and language of the title)."""
    key = (base.track.name, base.geometry.cell_size, base.lang)
    kit = _KITS.get(key)
    if kit is None or kit.canvas.size != base.image.size:
        with _KITS_LOCK:
            kit = _KITS[key] = PaletteKit(base.image, base.palette(LIVE_COLOURS), base.geometry.cell_size)
            while len(_KITS) > 8:
                _KITS.pop(next(iter(_KITS)))
    return kit


def _overlay_patch(img: Image.Image, draw: ImageDraw.ImageDraw, overlay: Any, base: BoardBase,
                   kit: PaletteKit) -> None:
    """The overlay's tint is a blend, so its box is tinted on the RGB board and quantized."""
    geo = base.geometry
    ends, passes = _overlay_sets(overlay)
    cells = [parse_label(x) for x in ends | passes]
    if not cells:
        return
    pts = [p for c in cells for p in geo.corners(c)]
    x0, y0 = max(0, int(min(x for x, _ in pts)) - 2), max(0, int(min(y for _, y in pts)) - 2)
    x1, y1 = min(img.width, int(max(x for x, _ in pts)) + 3), min(img.height, int(max(y for _, y in pts)) + 3)
    patch = base.image.crop((x0, y0, x1, y1))
    pdraw = ImageDraw.Draw(patch)
    _draw_overlay(patch, pdraw, overlay, _Shifted(geo, x0, y0), geo.cell_size)
    img.paste(kit.quantized(patch), (x0, y0))


class CellPlaces(Protocol):
    """Where cells are on a picture: what the live layers need of a :class:`BoardGeometry`."""

    @property
    def cell_size(self) -> int: ...

    def centre(self, cell: Hex) -> Point: ...

    def corners(self, cell: Hex) -> list[Point]: ...


class _Shifted:
    """A board geometry seen through a crop: the same cells, ``(dx, dy)`` pixels up and left."""

    def __init__(self, geo: BoardGeometry, dx: float, dy: float) -> None:
        self.geo, self.dx, self.dy = geo, dx, dy
        self.cell_size = geo.cell_size

    def centre(self, cell: Hex) -> Point:
        x, y = self.geo.centre(cell)
        return x - self.dx, y - self.dy

    def corners(self, cell: Hex) -> list[Point]:
        return [(x - self.dx, y - self.dy) for x, y in self.geo.corners(cell)]


def draw_live_layers(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], base: BoardBase, overlay: Any = None,
                     marks: bool = True, img: Image.Image | None = None, offset: tuple[int, int] = (0, 0),
                     put: Callable[[Point, tuple[Any, ...]], None] | None = None,
                     ink: Callable[[Colour], Any] | None = None) -> None:
    """Overlay, tiles, the last path, karts and marks, in that order (later ones on top).

    With ``img`` (the image ``draw`` draws on) the pieces are pasted from cached sprites, which is
    several times quicker than drawing each kart, tile and badge anew. ``offset`` is the top left
    corner of ``img`` on the board picture when ``img`` is a crop of it. ``put(centre, key)`` may
    replace the way pieces are put down, and ``ink(colour)`` the value lines are drawn with (a palette
    index on a palette image)."""
    geo: CellPlaces = base.geometry if offset == (0, 0) else _Shifted(base.geometry, *offset)
    size = geo.cell_size
    karts = view.get("karts", [])
    colours = {k["seat"]: kart_colour(k["colour"]) for k in karts}
    put = put or _paster(img, draw, size)
    if overlay is not None:
        _draw_overlay(img, draw, overlay, geo, size)
    for label, tile in view.get("board", {}).items():
        c = geo.centre(parse_label(label))
        if tile.get("face_down", True):
            put(c, ("back",))
            continue
        arrow, owner = tile.get("arrow"), tile.get("owner")
        put(c, ("trap", tile.get("kind", "?"), facing_angle(Facing[arrow]) if arrow else None,
                colours.get(owner) if owner is not None else None))
    turn = view.get("turn") or {}
    for path in ((view.get("told") or {}).get("paths") or [turn]):
        _draw_path(draw, path, geo, size, colours.get(path.get("seat"), WHITE), ink or (lambda c: c))
    track = base.track
    active = view.get("to_act")
    for k in karts:
        if k["seat"] == active and k.get("cell") is not None and view.get("phase") != "over":
            c = geo.centre(parse_label(k["cell"]))  # the kart to play: a yellow ring round its cell
            draw.polygon(hex_ring(c, size, 0.97), outline=(ink or (lambda x: x))(PATH_CASING),
                         width=max(3, round(size * 0.2)))
            draw.polygon(hex_ring(c, size, 0.93), outline=(ink or (lambda x: x))(BUMP),
                         width=max(2, round(size * 0.12)))
    for k in karts:
        if k.get("cell") is None:
            continue
        cell = parse_label(k["cell"])
        put(geo.centre(cell), ("kart", colours[k["seat"]], facing_angle(Facing[k.get("facing", "N")]),
                               str(k["seat"] + 1), track.is_stream(cell)))
    if marks:
        per_cell: dict[str, list[str]] = {}
        for cell, what in turn.get("marks") or []:
            if what not in per_cell.setdefault(cell, []):
                per_cell[cell].append(what)
        for label, whats in per_cell.items():
            c = geo.centre(parse_label(label))
            for i, what in enumerate(whats[:3]):
                put(polar(c, -35 + 55 * i, size * 0.72), ("mark", what))


def _draw_piece(draw: ImageDraw.ImageDraw, c: Point, size: float, key: tuple[Any, ...]) -> None:
    what = key[0]
    if what == "back":
        draw_tile_back(draw, c, size)
    elif what == "trap":
        draw_trap(draw, c, size, key[1], key[2], key[3])
    elif what == "kart":
        _, colour, angle, mark, in_stream = key
        if in_stream:
            draw_splash(draw, c, size * 0.8)
        draw_kart(draw, c, size * 1.34, angle, colour, mark)
    elif what == "mark":
        draw_mark(draw, c, size, key[1])


@lru_cache(maxsize=1024)
def _sprite(key: tuple[Any, ...], size: int) -> tuple[Image.Image, int, int]:
    """A piece drawn once on a transparent square: (image, x and y of the centre in it)."""
    side = size * 4
    img = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    _draw_piece(ImageDraw.Draw(img), (side / 2, side / 2), size, key)
    box = img.getbbox() or (0, 0, 1, 1)
    return img.crop(box), side // 2 - box[0], side // 2 - box[1]


def _paster(img: Image.Image | None, draw: ImageDraw.ImageDraw, size: int) -> Callable[[Point, tuple[Any, ...]], None]:
    """A function that puts a piece at a centre: a cached sprite pasted on ``img``, or drawn on ``draw``."""
    if img is None:
        return lambda c, key: _draw_piece(draw, c, size, key)
    canvas = img

    def put(c: Point, key: tuple[Any, ...]) -> None:
        sprite, ox, oy = _sprite(key, size)
        canvas.paste(sprite, (round(c[0]) - ox, round(c[1]) - oy), sprite)

    return put


# Board layers -------------------------------------------------------------------------------------


def _overlay_sets(overlay: Any) -> tuple[set[str], set[str]]:
    if hasattr(overlay, "labels"):  # a rules.races.reach.Reach
        labels: tuple[set[str], set[str]] = overlay.labels()
        return labels
    if isinstance(overlay, tuple) and len(overlay) == 2:
        return set(overlay[0]), set(overlay[1])
    return set(overlay), set()


def _draw_overlay(img: Image.Image | None, draw: ImageDraw.ImageDraw, overlay: Any, geo: CellPlaces,
                  size: float) -> None:
    """Where the move can end: cells tinted bright cyan with a rim; cells it can only drive through:
    a fainter tint. The cell labels stay readable through the tint."""
    ends, passes = _overlay_sets(overlay)
    passes = passes - ends
    for labels, alpha in ((passes, OVERLAY_PASS_ALPHA), (ends, OVERLAY_END_ALPHA)):
        polys = [geo.corners(parse_label(label)) for label in sorted(labels)]
        if not polys:
            continue
        if img is None:
            for pts in polys:
                draw.polygon(pts, outline=OVERLAY_END)
            continue
        xs = [x for pts in polys for x, _ in pts]
        ys = [y for pts in polys for _, y in pts]
        x0, y0 = max(0, int(min(xs)) - 1), max(0, int(min(ys)) - 1)
        x1, y1 = min(img.width, int(max(xs)) + 2), min(img.height, int(max(ys)) + 2)
        mask = Image.new("L", (x1 - x0, y1 - y0), 0)
        md = ImageDraw.Draw(mask)
        for pts in polys:
            md.polygon([(x - x0, y - y0) for x, y in pts], fill=alpha)
        img.paste(OVERLAY_END, (x0, y0, x1, y1), mask)
    for label in sorted(ends):
        c = geo.centre(parse_label(label))
        draw.polygon(hex_ring(c, size, 0.9), outline=OVERLAY_END, width=max(1, round(size * 0.08)))


def _draw_path(draw: ImageDraw.ImageDraw, turn: Mapping[str, Any], geo: CellPlaces, size: float, colour: Colour,
               ink: Callable[[Colour], Any]) -> None:
    """The last move: a line in the mover's colour from where it started through every cell driven."""
    labels = list(turn.get("path") or [])
    if not labels:
        return
    if sum(colour) < 150:
        colour = rim_for(colour)  # a black kart's path in light grey, to stand out from its casing
    start = turn.get("move_from")
    cells = ([parse_label(start)] if start else []) + [parse_label(x) for x in labels]
    pts = [geo.centre(c) for c in cells]
    casing = max(3, round(size * 0.3))
    inner = max(2, round(size * 0.16))
    if len(pts) > 1:
        draw.line(pts, fill=ink(PATH_CASING), width=casing, joint="curve")
        draw.line(pts, fill=ink(colour), width=inner, joint="curve")
    for p in pts[1:-1]:
        r = size * 0.1
        draw.ellipse([p[0] - r, p[1] - r, p[0] + r, p[1] + r], fill=ink(WHITE), outline=ink(PATH_CASING))
    if start:
        r = size * 0.2
        p = pts[0]
        draw.ellipse([p[0] - r, p[1] - r, p[0] + r, p[1] + r], fill=ink(PATH_CASING), outline=ink(colour),
                     width=max(2, inner // 2))


# The status panel ----------------------------------------------------------------------------------

ROW_H = 92
HEADER_H = 154


def draw_status(img: Image.Image, view: Mapping[str, Any], box: tuple[int, int, int, int],
                prepare: Callable[[Image.Image], Image.Image] = lambda panel: panel, lang: str = "en",
                last_turn: Mapping[str, Any] | None = None, key: bool = True) -> None:
    """Who moved and who is next, the dice, one row per player, and (with ``key``) a key of the symbols at
    the foot, inside ``box``, worded in ``lang``. ``prepare`` turns each (cached) panel into what is pasted (a
    palette image on a palette frame); ``last_turn`` is the turn drawn when the view's own has no path yet."""
    x0, y0, x1, y1 = box
    w = x1 - x0
    header = _header_image(w, *_header_key(view, lang, last_turn), lang)
    img.paste(prepare(header), (x0, y0))
    karts = view.get("karts", [])
    to_act = view.get("to_act")
    turn_seat = (view.get("turn") or {}).get("seat")
    winners = tuple(view.get("winners") or ())
    laps = int(view.get("laps", 5))
    key_h = key_height(w, lang=lang) if key else 0
    room = (y1 - y0) - HEADER_H - key_h
    row_h = max(60, min(ROW_H, room // max(1, len(karts))))
    y = y0 + HEADER_H
    for k in karts:
        active = k["seat"] == turn_seat and view.get("phase") != "over"
        row = _row_image(w, row_h, _row_key(k), active, k["seat"] == to_act, k["seat"] in winners, laps, lang)
        img.paste(prepare(row), (x0, y))
        y += row_h
    if key and y1 - y >= key_h:
        img.paste(prepare(key_image(w, lang)), (x0, y1 - key_h))


def _header_key(view: Mapping[str, Any], lang: str = "en", last_turn: Mapping[str, Any] | None = None
                ) -> tuple[Any, ...]:
    choice = view.get("choice") or {}
    winners = tuple(view.get("winners") or ())
    karts = view.get("karts", [])
    win_names = tuple(k["name"] for k in karts if k["seat"] in winners)
    return (tuple(heading(view, lang, last_turn, phase_words="title")), question(choice, lang), win_names,
            rounds_played(view), int(view.get("laps", 5)))


def header_image(view: Mapping[str, Any], w: int, lang: str = "en", last_turn: Mapping[str, Any] | None = None,
                 floor: int = 0) -> Image.Image:
    """The status panel's head for ``view``, ``w`` wide, no word smaller than ``floor`` pixels."""
    return _header_image(w, *_header_key(view, lang, last_turn), lang, floor)


def row_image(view: Mapping[str, Any], kart: Mapping[str, Any], w: int, h: int, lang: str = "en",
              floor: int = 0) -> Image.Image:
    """The status panel's row of ``kart``, ``w`` × ``h``, no word smaller than ``floor`` pixels."""
    winners = tuple(view.get("winners") or ())
    active = kart["seat"] == (view.get("turn") or {}).get("seat") and view.get("phase") != "over"
    return _row_image(w, h, _row_key(kart), active, kart["seat"] == view.get("to_act"), kart["seat"] in winners,
                      int(view.get("laps", 5)), lang, floor)


@lru_cache(maxsize=256)
def _header_image(w: int, lines: tuple[HeadLine, ...], prompt: str, winners: tuple[str, ...], rounds: int,
                  laps: int, lang: str = "en", floor: int = 0) -> Image.Image:
    """The panel's head: who won; or who moved (the turn drawn, when it was another kart's), who is to play
    with the round, the phase, the dice and the points to go, and a pending question. Names shrink, then wrap;
    none is cut."""
    with text_floor(floor):
        return _draw_header(w, lines, prompt, winners, rounds, laps, lang)


def _draw_header(w: int, lines: tuple[HeadLine, ...], prompt: str, winners: tuple[str, ...], rounds: int,
                 laps: int, lang: str) -> Image.Image:
    img = Image.new("RGB", (w, HEADER_H), PANEL)
    d = ImageDraw.Draw(img)
    d.rectangle([0, 0, w - 1, HEADER_H - 1], outline=PANEL_LINE, width=1)
    if winners:
        draw_flag(d, (26, 30), 30, True)
        draw_bounded(d, (48, 24), say("panel.race_over", lang), (w - 60, 26), 20, TEXT, bold=True, smallest=12)
        won = fit_text(d, say("panel.won_by", lang, names=" & ".join(winners)), w - 60, 48, 16, bold=True,
                       one_line_to=12)
        draw_fitted(d, (48, 68), won, BUMP)
        after = say("panel.after", lang, turns=say("panel.turns", lang, count=rounds),
                    laps=say("panel.laps", lang, count=laps))
        draw_fitted(d, (16, 112), fit_text(d, after, w - 28, 32, 14, one_line_to=11), TEXT_DIM)
        return img
    y = 6.0
    moved = next((line for line in lines if line.kind == MOVED), None)
    if moved is not None:  # the turn drawn was another kart's: who moved, first
        fitted = fit_text(d, moved.words, w - 52, 30, 14, bold=True, one_line_to=11)
        h = max(24.0, fitted.height + 4)
        draw_kart(d, (24, y + h / 2), 24, 0, kart_colour(moved.colour) if moved.colour else TEXT,
                  str(int(moved.seat or 0) + 1))
        draw_fitted(d, (44, y + h / 2), fitted, TEXT_DIM)
        y += h + 2
    now = next((line for line in lines if line.kind in (NEXT, NOW)), lines[0])
    fitted = fit_text(d, say("panel.to_play", lang, name=now.name), w - 64, 48, 20, bold=True, one_line_to=15)
    h = max(34.0, fitted.height + 4)
    kc = kart_colour(now.colour) if now.colour else TEXT
    draw_kart(d, (28, y + h / 2), 34, 0, kc, str(int(now.seat) + 1) if now.seat is not None else "")
    draw_fitted(d, (52, y + h / 2), fitted, TEXT)
    y += h
    turn = say("panel.turn", lang, number=now.number, phase=now.phase)
    draw_fitted(d, (52, y + 9), fit_text(d, turn, w - 64, 20, 14, one_line_to=10), TEXT_DIM)
    y += 20
    x = 18.0
    mid = y + 16
    if now.dice:
        side = 24 if len(now.dice) <= 8 else 18
        for c, v in now.dice:
            draw_die(d, (x + side / 2, mid), side, c, v)
            x += side + 5
        label = f"= {now.total}"
        draw_text(d, (x + 4, mid), label, font(18, bold=True), TEXT, anchor="lm")
        x += text_box(d, label, font(18, bold=True))[0] + 14
    if now.to_go:
        draw_fitted(d, (x, mid), fit_text(d, now.to_go, w - x - 8, 26, 15, bold=True, one_line_to=10), BUMP)
    asked = next((line.words for line in lines if line.kind == ASKED), "")
    ask = prompt or asked
    if ask:  # a longer question (German) in a narrower font before it wraps
        room = HEADER_H - (mid + 16) - 4
        draw_fitted(d, (16, mid + 16), fit_text(d, ask, w - 28, room, 14, condensed=True, one_line_to=12,
                                                smallest=9), TEXT, anchor="lt")
    return img


def _row_key(k: Mapping[str, Any]) -> tuple[Any, ...]:
    bags = k.get("bags", {})
    tiles = sum(len(v) for v in bags.values())
    capacity = 0
    parts = {int(loc): pid for loc, pid in k.get("parts", {}).items()}
    for loc in bags:
        loc_i = int(loc)
        if loc_i == PRINTED_BAG and PRINTED_BAG not in parts:
            capacity += catalogue.supply().printed_saddlebag
        elif loc_i in parts:
            capacity += catalogue.parts()[parts[loc_i]].capacity
    fuel = k.get("fuel", {})
    where = k.get("cell")
    return (k["seat"], k["name"], k["colour"], int(k.get("flags", 0)), int(k.get("bottle_tops", 0)),
            int(fuel.get("white", 0)), int(fuel.get("red", 0)), tiles, capacity,
            tuple(sorted(parts.items())), where, bool(k.get("glued")), bool(k.get("bridge_since_line")),
            k.get("team"))


@lru_cache(maxsize=512)
def _row_image(w: int, h: int, key: tuple[Any, ...], active: bool, to_act: bool, winner: bool,
               laps: int, lang: str = "en", floor: int = 0) -> Image.Image:
    with text_floor(floor):
        return _draw_row(w, h, key, active, to_act, winner, laps, lang)


def _draw_row(w: int, h: int, key: tuple[Any, ...], active: bool, to_act: bool, winner: bool,
              laps: int, lang: str) -> Image.Image:
    (seat, name, colour, flags, tops, white, red, tiles, capacity, parts, where, glued, bridge, team) = key
    bg = ACTIVE_ROW if active else PANEL
    img = Image.new("RGB", (w, h), bg)
    d = ImageDraw.Draw(img)
    kc = kart_colour(colour)
    d.line([(8, h - 1), (w - 8, h - 1)], fill=PANEL_LINE)
    if active:
        d.rectangle([0, 0, 5, h - 2], fill=kc)
    if to_act:
        draw_polygon(d, [(8, 12), (16, 18), (8, 24)], TEXT)
    draw_kart(d, (36, 18), 30, 0, kc, str(seat + 1))
    label = name if team is None else say("panel.team", lang, name=name, team=team)
    flag_w = 17 * laps
    tag = say("panel.winner", lang)
    tag_w = max(52, round(text_box(d, tag, font(12, bold=True))[0]) + 12) if winner else 0
    draw_fitted(d, (58, 18), fit_text(d, label, w - 70 - flag_w - tag_w, 28, 15, bold=True, one_line_to=11), TEXT)
    for i in range(laps):
        draw_flag(d, (w - flag_w - 4 + 17 * i + 8, 18), 15, i < flags)
    if winner:
        draw_text(d, (w - flag_w - 8, 18), tag, font(12, bold=True), BUMP, anchor="rm")
    # second line: bottle tops, fuel dice, saddlebag tiles, where the kart is
    y = 42
    small = font(13)
    bold = font(13, bold=True)
    x = 14.0
    draw_cap_icon(d, (x + 8, y), 16)
    draw_text(d, (x + 19, y), str(tops), bold, TEXT, anchor="lm")
    x += 42
    for col, n in (("white", white), ("red", red)):
        if n:
            draw_die(d, (x + 7, y), 14, col, 5)
            draw_text(d, (x + 17, y), f"×{n}", bold, TEXT, anchor="lm")
            x += 42
    if capacity or tiles:
        draw_tile_back(d, (x + 8, y), 17)
        draw_text(d, (x + 19, y), f"{tiles}/{capacity}", bold, TEXT, anchor="lm")
        x += 52
    tags = [say("panel.waiting", lang) if where is None else where]
    if glued:
        tags.append(say("panel.glued", lang))
    if bridge:
        tags.append(say("panel.bridge_done", lang))
    draw_text(d, (x, y), _fit(d, " · ".join(tags), small, w - x - 8), small, TEXT_DIM, anchor="lm")
    # third line: the parts strip, locations 2-9
    if h >= 80:
        _parts_strip(d, dict(parts), 8, 58, w - 16, min(24 if h <= ROW_H else 34, h - 62), lang)
    return img


def _parts_strip(d: ImageDraw.ImageDraw, parts: Mapping[int, str], x0: float, y0: float, width: float,
                 h: float, lang: str = "en") -> None:
    cell_w = width / len(LOCATIONS)
    num_font = font(9, bold=True)
    name_font = font(11, bold=h <= 24, condensed=True)  # large words (a tall strip) fit the slot in a lighter face
    specs = catalogue.parts()
    # a tall strip (large words) puts the part's name under the location's number, not over it
    name_y = y0 + h / 2 + 1 if h <= 24 else y0 + h - float(getattr(name_font, "size", 11)) * 0.6 - 2
    for i, loc in enumerate(LOCATIONS):
        bx0 = x0 + i * cell_w + 1
        bx1 = bx0 + cell_w - 3
        pid = parts.get(loc)
        if pid:
            fill = PILE_COLOURS.get(specs[pid].pile, PANEL_LINE) if pid in specs else PANEL_LINE
            d.rounded_rectangle([bx0, y0, bx1, y0 + h], radius=4, fill=fill, outline=lighter(fill, 0.3))
            text = _fit(d, part_short(pid, lang), name_font, cell_w)
            draw_text(d, ((bx0 + bx1) / 2 + 3, name_y), text, name_font, WHITE)
        else:
            d.rounded_rectangle([bx0, y0, bx1, y0 + h], radius=4, outline=PANEL_LINE)
            if loc == PRINTED_BAG:
                bag = _fit(d, say("panel.bag", lang), name_font, cell_w)
                draw_text(d, ((bx0 + bx1) / 2 + 3, name_y), bag, name_font, TEXT_DIM)
        draw_text(d, (bx0 + 2, y0 + 1), str(loc), num_font, mix(TEXT_DIM, WHITE, 0.3), anchor="lt")


def _fit(d: ImageDraw.ImageDraw, text: str, fnt: Any, width: float) -> str:
    """``text`` shortened with an ellipsis to fit ``width`` pixels; the cut is noted (:func:`cut_to`)."""
    return cut_to(d, text, fnt, width)

