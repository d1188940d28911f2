"""Junkyard Races pictures made for a chat column: a close-up of each move, the whole track cropped
to its extent, and the private "where can I go" picture.

A chat shows an attached picture about 550 px wide, so the board posted after every move
(1508 px wide, 24 px cells) shrinks to 9 px cells. ``chat_png(view)`` shows instead the part of the
track where the turn happened, from the same cached static board and sprites as the live board
(:mod:`render.races.live`): a crop of the palette board, the pieces pasted in, a compact status strip
on top (who moved, when the path drawn is a finished turn, and who is next with the phase and the dice, in
rounds as players count turns (:mod:`render.races.heading`); every kart's flags), and the PNG encoding.

Framing rules
-------------
- **What happened.** When the last action put something on the board (a step or a whole move, a
  bump, a pick-up, a jump, a fall, a trap, a shot, a kart entering), the frame holds the whole turn so
  far: where the move started, every cell driven, every mark of the turn (bumps, pick-ups, splashes,
  a missile's or bomb's launcher and where it struck), and the cells the events name (where a bumped
  kart went, where a faller landed). Two cells of margin go round all of it. A posted message's picture
  draws the moves the message tells instead of the turn so far (:func:`render.races.live.with_told`), and its
  frame holds those: every drive, every mark and every cell their events name.
- **Nothing moved** (a roll, buying a part, the start of the race, a stuck kart): the frame holds the
  kart to act, the three cells straight ahead of it and two cells round them; a kart still to enter
  gets its start cells instead.
- **The zoom** is the closest that holds all of that: a close-up of about 14 × 8 cells at 32 px
  cells, else a wider view of about 20 × 11 cells at 24 px, else the whole track (a move that spans
  much of the track, a missile from the far side). So a missile from afar zooms out to show both the
  launcher and the target rather than leaving one out.
- **The kart to act next** is added to the frame when it fits at the zoom already chosen; the zoom is
  never widened for it.
- The frame is centred on what it holds and then slid (not grown) to stay inside the track's extent
  plus a cell, so a close-up at the edge of the track shows track, not junkyard.

At every zoom a cell is at least 16 px across (flat side to flat side) when the picture is shown
550 px wide: 44 px in a close-up (688 px wide), 31 px in the wider view (732 px), 22 px for the whole
of the widest track (1020 px). Only the tiles and karts inside the frame are drawn.

Every close-up of a track has the same size (:func:`canvas_size`): the wider view's window under a strip of
a fixed height, so a channel's pictures do not jump from turn to turn. A zoom fills that box: the close-up
and the wider view show more or fewer cells in it, and the whole track is drawn at the largest cell size
that holds it, centred.

``board_chat_png(view)`` is the whole board for ``/game board`` and ``/game status``, laid out for the chat
column: the status panel's head on top, the track's extent plus a cell (at the live board's cell size, or
smaller for a wide track) under it, the players' rows in two columns, and the key of every symbol it draws
(:mod:`render.races.key`) at the foot. It is at most 740 px wide and draws no word smaller than 9 px at
550 px wide.
``reach_png(view, reach)`` frames the cells a roll can reach (ends and cells passed) and the kart, with
one cell of margin (the tinted cells are their own context), and tints them as the live board does.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageChops, ImageDraw

from render.common import Point, draw_fitted, draw_text, encode_png, fit_together, font, text_box
from render.races.board import BoardBase, board_base
from render.races.geometry import BoardGeometry, geometry_for
from render.races.heading import HeadLine, heading
from render.races.key import key_image
from render.races.live import (
    ACTIVE_ROW,
    LIVE_CELL,
    PaletteKit,
    _draw_overlay,
    _overlay_sets,
    _Shifted,
    draw_live_layers,
    header_image,
    live_kit,
    row_image,
    with_last_move,
)
from render.races.pieces import BUMP, draw_die, draw_flag, draw_kart, kart_colour
from render.races.symbols import PANEL, PANEL_LINE, TEXT, TEXT_DIM
from rules.hexgrid import SQRT3, Facing, Hex, parse_label
from rules.races.track import Track, get_track

#: cell size of a close-up, and the window it shows (columns × rows)
CLOSE_CELL = 32
CLOSE_WINDOW = (14, 8)
#: cell size of the wider view (the live board's: its cached board is shared), and its window
WIDE_CELL = LIVE_CELL
WIDE_WINDOW = (20, 11)
#: cells of margin round what a frame must show
MARGIN = 2
#: cells of margin round the track's extent (the whole-board picture, and where frames slide to)
EXTENT_MARGIN = 1
#: cells ahead of a kart to act that a frame shows when nothing moved
AHEAD = 3
#: the width a chat shows a picture at, for :func:`cell_px_at`
CHAT_WIDTH = 550
#: the whole board's greatest width, and the least height of its words once shown :data:`CHAT_WIDTH` wide
WHOLE_MAX_W = 740
MIN_TEXT_AT_CHAT = 9
#: the whole board's player rows (two columns of them) and the room between its parts
WHOLE_ROW_W = 340
WHOLE_ROW_H = 100
WHOLE_GAP = 8

#: the height of the strip with one line of words (a second line, for who is next, adds :data:`LINE_H`)
STRIP_H = 66
#: the strip's colours are the live board's panel colours, which its palette holds exactly
STRIP_BG = PANEL
STRIP_LINE = PANEL_LINE
STRIP_TEXT = TEXT
STRIP_DIM = TEXT_DIM
ACTIVE_CHIP = ACTIVE_ROW

#: event data fields that name a cell
EVENT_CELL_FIELDS = ("cell", "to", "frm")

#: the status strip: padding, a line of words, the line of flags
STRIP_PAD = 4
LINE_H = 28
CHIPS_H = 30
#: the strip's usual height (who moved, who is next, the flags): every close-up of a track keeps it, a strip
#: with less to say is centred in it, and a long name that wraps takes its extra room from the map
STRIP_FIXED = 2 * STRIP_PAD + 2 * LINE_H + CHIPS_H


# Frames -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Frame:
    """What a chat picture shows: a box of the static board at ``size`` (pixels, ``(x0, y0, x1, y1)``),
    the zoom's name (``close``, ``wide`` or ``track``) and the cells it was asked to hold."""

    size: int
    box: tuple[int, int, int, int]
    zoom: str
    focus: frozenset[Hex]

    @property
    def width(self) -> int:
        return self.box[2] - self.box[0]

    @property
    def height(self) -> int:
        return self.box[3] - self.box[1]


def cell_px_at(frame_size: int, picture_width: int, shown_width: int = CHAT_WIDTH) -> float:
    """How many pixels a cell measures across (flat side to flat side) when a picture ``picture_width``
    wide whose cells have circumradius ``frame_size`` is shown ``shown_width`` wide."""
    return SQRT3 * frame_size * shown_width / picture_width


def _centres(base: BoardBase, cells: Iterable[Hex]) -> list[tuple[float, float]]:
    return [base.geometry.centre(c) for c in cells]


def _cells_box(base: BoardBase, cells: Iterable[Hex], margin: float) -> tuple[float, float, float, float]:
    """The pixel box round ``cells`` with ``margin`` cells to spare on every side."""
    return _geometry_box(base.geometry, cells, margin)


def _geometry_box(geo: BoardGeometry, cells: Iterable[Hex], margin: float) -> tuple[float, float, float, float]:
    """:func:`_cells_box` on a layout alone (no board drawn)."""
    pts = [geo.centre(c) for c in cells]
    size = geo.cell_size
    mx = size * (1.0 + 1.5 * margin)
    my = size * SQRT3 * (0.5 + margin)
    return (min(x for x, _ in pts) - mx, min(y for _, y in pts) - my,
            max(x for x, _ in pts) + mx, max(y for _, y in pts) + my)


_EXTENTS: dict[tuple[str, int], tuple[float, float, float, float]] = {}


def _extent(base: BoardBase) -> tuple[float, float, float, float]:
    """The pixel box of the cells a kart can drive on plus :data:`EXTENT_MARGIN` cells, inside the
    picture (a stream running off the board's edge does not widen it)."""
    return _extent_at(base.track, base.geometry.cell_size)


def _extent_at(track: Track, size: int) -> tuple[float, float, float, float]:
    """:func:`_extent` of the chat's board of ``track`` at ``size``, from its layout: trying a size draws
    nothing."""
    key = (track.name, size)
    hit = _EXTENTS.get(key)
    if hit is None:
        geo = geometry_for(track.columns, track.rows, size)  # a chat board has no legend (chat_base)
        x0, y0, x1, y1 = _geometry_box(geo, track.track_cells, EXTENT_MARGIN)
        hit = _EXTENTS[key] = (max(0.0, x0), max(0.0, y0), min(float(geo.width), x1), min(float(geo.height), y1))
    return hit


def _window_px(size: int, window: tuple[int, int]) -> tuple[int, int]:
    cols, rows = window
    return math.ceil(size * (1.5 * (cols - 1) + 2)), math.ceil(SQRT3 * size * (rows + 0.5))


def _slide(lo: float, hi: float, length: float, within: tuple[float, float]) -> float:
    """Where a window of ``length`` starts when centred on ``lo``–``hi`` and slid inside ``within``
    (centred on ``within`` when it is longer than it)."""
    a, b = within
    if length >= b - a:
        return (a + b - length) / 2
    start = (lo + hi - length) / 2
    return min(max(start, a), b - length)


def _fits(box: tuple[float, float, float, float], w: int, h: int) -> bool:
    return box[2] - box[0] <= w and box[3] - box[1] <= h


def _place(base: BoardBase, must: frozenset[Hex], want: frozenset[Hex], w: int, h: int, zoom: str,
           margin: int = MARGIN) -> Frame | None:
    box = _cells_box(base, must, margin)
    if not _fits(box, w, h):
        return None
    held = must
    if want - must:
        both = _cells_box(base, must | want, margin)
        if _fits(both, w, h):
            box, held = both, must | want
    ex = _extent(base)
    w = min(w, math.ceil(ex[2] - ex[0]))
    h = min(h, math.ceil(ex[3] - ex[1]))
    x0 = round(_slide(box[0], box[2], w, (ex[0], ex[2])))
    y0 = round(_slide(box[1], box[3], h, (ex[1], ex[3])))
    return Frame(base.geometry.cell_size, (x0, y0, x0 + w, y0 + h), zoom, held)


@lru_cache(maxsize=32)
def _canvas_of(name: str) -> tuple[int, int]:
    ex = _extent_at(get_track(name), WIDE_CELL)
    ww, wh = _window_px(WIDE_CELL, WIDE_WINDOW)
    return min(ww, math.floor(ex[2] - ex[0])), min(wh, math.floor(ex[3] - ex[1]))


def canvas_size(track: Track | str) -> tuple[int, int]:
    """The size of every chat picture of ``track`` (width, height): the wider view's window (or the track's
    extent at that zoom, when it is smaller) with the strip's usual height over it. Every zoom fills the same
    map box, so the channel does not jump from one turn's picture to the next."""
    t = get_track(track) if isinstance(track, str) else track
    w, h = _canvas_of(t.name)
    return w, h + STRIP_FIXED


def map_size(track: Track | str) -> tuple[int, int]:
    """The part of :func:`canvas_size` under the strip, where the board is shown."""
    w, h = canvas_size(track)
    return w, h - STRIP_FIXED


@lru_cache(maxsize=32)
def _whole_size(name: str) -> int:
    """The largest cell size at which ``name``'s whole extent fits the map box."""
    w, h = map_size(name)
    track = get_track(name)
    ex = _extent_at(track, WIDE_CELL)
    size = min(WIDE_CELL, math.floor(WIDE_CELL * min(w / (ex[2] - ex[0]), h / (ex[3] - ex[1]))))
    while size > 8:
        ex = _extent_at(track, size)
        if ex[2] - ex[0] <= w and ex[3] - ex[1] <= h:
            break
        size -= 1
    return size


def whole_frame(track: Track | str) -> Frame:
    """The whole track in the chat's map box: the largest cell size that holds its extent, centred (the
    junkyard round it, or the panel's colour past the board's edge, fills the rest)."""
    t = get_track(track) if isinstance(track, str) else track
    size = _whole_size(t.name)
    w, h = map_size(t)
    ex = _extent(chat_base(t, size))
    x0 = round((ex[0] + ex[2] - w) / 2)
    y0 = round((ex[1] + ex[3] - h) / 2)
    return Frame(size, (x0, y0, x0 + w, y0 + h), "track", frozenset(t.terrain))


def track_frame(track: Track | str, size: int = WIDE_CELL) -> Frame:
    """The whole track: its extent plus a cell, at ``size``."""
    base = chat_base(track, size)
    ex = _extent(base)
    box = (math.floor(ex[0]), math.floor(ex[1]), math.ceil(ex[2]), math.ceil(ex[3]))
    return Frame(size, box, "track", frozenset(base.track.terrain))


def frame_cells(track: Track | str, must: Iterable[Hex], want: Iterable[Hex] = (), margin: int = MARGIN) -> Frame:
    """The closest frame that holds ``must`` with ``margin`` cells round it, with ``want`` too if it fits
    at that zoom (see the framing rules above); the whole track when nothing closer holds it."""
    t = get_track(track) if isinstance(track, str) else track
    must_set = frozenset(c for c in must if c.on_board(t.columns, t.rows))
    want_set = frozenset(c for c in want if c.on_board(t.columns, t.rows))
    if not must_set:
        must_set, want_set = want_set, frozenset()
    if not must_set:
        return whole_frame(t)
    box = map_size(t)
    for size, zoom in ((CLOSE_CELL, "close"), (WIDE_CELL, "wide")):
        base = chat_base(t, size)
        found = _place(base, must_set, want_set, *box, zoom, margin)
        if found is not None:
            return found
    return whole_frame(t)


_LABELS: dict[str, Hex | None] = {}


def _label(text: Any) -> Hex | None:
    """The cell a label names (None for anything else), remembered: a frame reads a few dozen labels."""
    if not isinstance(text, str):
        return None
    if text in _LABELS:
        return _LABELS[text]
    try:
        cell: Hex | None = parse_label(text)
    except (ValueError, KeyError):
        cell = None
    if len(_LABELS) > 4096:
        _LABELS.clear()
    _LABELS[text] = cell
    return cell


def _cells(labels: Iterable[Any]) -> set[Hex]:
    return {c for x in labels if (c := _label(x)) is not None}


def event_cells(view: Mapping[str, Any]) -> set[Hex]:
    """The cells the last action's events name (where a kart drove, was bumped to, landed …)."""
    out: set[Hex] = set()
    for e in view.get("events") or ():
        data = e.get("data")
        if not isinstance(data, dict):
            continue
        out |= _cells(data.get(f) for f in EVENT_CELL_FIELDS)
        path = data.get("path")
        if isinstance(path, list):
            out |= _cells(path)
    return out


def turn_cells(turn: Mapping[str, Any]) -> set[Hex]:
    """Where a turn's move started, every cell it drove, and the cells of its marks."""
    cells = _cells(turn.get("path") or ())
    cells |= _cells([turn.get("move_from")])
    cells |= _cells(m[0] for m in turn.get("marks") or () if m)
    return cells


def _to_act(view: Mapping[str, Any]) -> Mapping[str, Any] | None:
    seat = view.get("to_act")
    karts: list[Mapping[str, Any]] = list(view.get("karts") or ())
    for k in karts:
        if k.get("seat") == seat:
            return k
    return None


def waiting_cells(view: Mapping[str, Any], track: Track) -> set[Hex]:
    """The kart to act and the cells straight ahead of it; its start cells while it waits to enter."""
    kart = _to_act(view)
    if kart is None:
        return set()
    here = _label(kart.get("cell"))
    if here is None:
        options = _cells((view.get("choice") or {}).get("options") or ())
        return options or {s.cell for s in track.starts}
    facing = Facing[kart["facing"]] if kart.get("facing") in Facing.__members__ else None
    ahead = [c for c in here.line(facing, AHEAD) if track.on_track(c)] if facing is not None else []
    return {here, *ahead}


def chat_frame(view: Mapping[str, Any]) -> Frame:
    """The frame of a view's chat picture, by the framing rules above."""
    track = get_track(view["track"])
    if view.get("phase") == "over":
        return whole_frame(track)
    told = view.get("told")
    happened = event_cells(told if told is not None else view)
    if told is not None:  # the moves a message tells: every drive and mark too
        happened |= turn_cells({"marks": told.get("marks")})
        for path in told.get("paths") or ():
            happened |= turn_cells(path)
    if happened:
        shown = with_last_move(view)
        must = happened | turn_cells(shown.get("turn") or {})
        kart = _to_act(view)
        here = _label(kart.get("cell")) if kart else None
        return frame_cells(track, must, {here} if here is not None else ())
    return frame_cells(track, waiting_cells(view, track))


# Drawing ------------------------------------------------------------------------------------------

_BASES: dict[tuple[str, int], BoardBase] = {}
_BASES_LOCK = threading.Lock()


def chat_base(track: Track | str, size: int) -> BoardBase:
    """The static board (no legend) a chat picture is cut from, kept here once drawn so that the board
    cache's other users cannot push it out."""
    t = get_track(track) if isinstance(track, str) else track
    key = (t.name, size)
    hit = _BASES.get(key)
    if hit is None or not (hit.track is t or hit.track == t):
        with _BASES_LOCK:
            hit = _BASES[key] = board_base(t, size, legend=False)
            while len(_BASES) > 8:
                _BASES.pop(next(iter(_BASES)))
    return hit


def _cut(kit: PaletteKit, box: tuple[int, int, int, int]) -> Image.Image:
    """A palette image of ``box`` of the board; what lies past the board's edge is the panel's colour."""
    x0, y0, x1, y1 = box
    cw, ch = kit.canvas.size
    if x0 >= 0 and y0 >= 0 and x1 <= cw and y1 <= ch:
        return kit.canvas.crop(box)
    out = Image.new("P", (x1 - x0, y1 - y0), kit.ink(STRIP_BG))
    out.putpalette(kit.canvas.getpalette() or [])
    inner = (max(0, x0), max(0, y0), min(cw, x1), min(ch, y1))
    if inner[0] < inner[2] and inner[1] < inner[3]:
        out.paste(kit.canvas.crop(inner), (inner[0] - x0, inner[1] - y0))
    return out


def _fitted_box(box: tuple[int, int, int, int], w: int, h: int) -> tuple[int, int, int, int]:
    """``box`` made ``w`` × ``h`` about its centre."""
    x0 = round((box[0] + box[2] - w) / 2)
    y0 = round((box[1] + box[3] - h) / 2)
    return x0, y0, x0 + w, y0 + h


_VISIBLE: dict[tuple[str, int, tuple[int, int, int, int]], frozenset[str]] = {}


def _visible(base: BoardBase, box: tuple[int, int, int, int]) -> frozenset[str]:
    """Labels of the cells whose pieces can show in ``box`` (a cell of slack for pieces that overhang)."""
    key = (base.track.name, base.geometry.cell_size, box)
    hit = _VISIBLE.get(key)
    if hit is None:
        geo = base.geometry
        pad = 1.6 * geo.cell_size  # a kart sprite reaches 0.7 of a cell past its centre, a mark 1.2
        x0, y0, x1, y1 = box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad
        hit = frozenset(c.label for c in geo.cells() if x0 <= geo.centre(c)[0] <= x1 and y0 <= geo.centre(c)[1] <= y1)
        if len(_VISIBLE) > 4096:
            _VISIBLE.clear()
        _VISIBLE[key] = hit
    return hit


def _in_frame(view: Mapping[str, Any], visible: frozenset[str]) -> Mapping[str, Any]:
    """The view with the tiles and karts outside the frame left out (karts keep their colours: a trap's
    owner or the mover may be outside)."""
    board = view.get("board") or {}
    karts = view.get("karts") or []
    return {**view, "board": {label: t for label, t in board.items() if label in visible},
            "karts": [k if k.get("cell") is None or k["cell"] in visible else {**k, "cell": None} for k in karts]}


def chat_image(view: Mapping[str, Any], frame: Frame | None = None, overlay: Any = None,
               last_turn: Mapping[str, Any] | None = None, lang: str = "en") -> Image.Image:
    """The chat picture of ``view`` as a palette image ready to encode (``frame`` by default from
    :func:`chat_frame`; ``overlay`` as for :func:`render.races.live.board_png`), its strip in ``lang``."""
    frame = frame or chat_frame(view)
    base = chat_base(view["track"], frame.size)
    kit = live_kit(base)
    w, h = canvas_size(view["track"])
    strip = strip_image(view, w, lang, last_turn, height=STRIP_FIXED)
    box = _fitted_box(frame.box, w, h - strip.height)
    shown_map = _cut(kit, box)
    draw = ImageDraw.Draw(shown_map)
    if overlay is not None:
        _overlay_crop(shown_map, draw, overlay, base, kit, box[:2])
    shown = _in_frame(with_last_move(view, last_turn), _visible(base, box))
    draw_live_layers(draw, shown, base, img=shown_map, offset=box[:2], put=_putter(kit, shown_map), ink=kit.ink)
    img = Image.new("P", (w, h))
    img.putpalette(kit.canvas.getpalette() or [])
    img.paste(kit.prepared(strip), (0, 0))
    img.paste(shown_map, (0, strip.height))
    return img


def _putter(kit: PaletteKit, img: Image.Image) -> Callable[[Point, tuple[Any, ...]], None]:
    """Like :meth:`PaletteKit.putter`, pasting through the image core directly: a frame pastes a dozen
    sprites, and the checks of ``Image.paste`` cost more than the pastes."""
    img.load()
    core = img.im

    def put(c: Point, key: tuple[Any, ...]) -> None:
        sprite, mask, ox, oy = kit.sprite(key)
        x, y = round(c[0]) - ox, round(c[1]) - oy
        core.paste(sprite.im, (x, y, x + sprite.width, y + sprite.height), mask.im)

    return put


def chat_png(view: Mapping[str, Any], *, frame: Frame | None = None, overlay: Any = None,
             last_turn: Mapping[str, Any] | None = None, lang: str = "en") -> bytes:
    """PNG bytes of the picture posted after a move: the close-up of :func:`chat_frame`, worded in ``lang``."""
    return encode_png(chat_image(view, frame, overlay, last_turn, lang))


def reach_frame(view: Mapping[str, Any], overlay: Any) -> Frame:
    """The frame of a "where can I go" picture: every cell the roll reaches or passes, and the kart."""
    ends, passes = _overlay_sets(overlay)
    track = get_track(view["track"])
    kart = _to_act(view)
    here = _cells([kart.get("cell")]) if kart else set()
    return frame_cells(track, _cells(ends | passes) | here, margin=1)


def reach_png(view: Mapping[str, Any], overlay: Any, lang: str = "en") -> bytes:
    """PNG bytes of the private "where can I go" picture: the reachable cells tinted as on the live
    board (bright where the move can end, faint where it can only pass), framed to hold them all."""
    return encode_png(chat_image(view, reach_frame(view, overlay), overlay=overlay, lang=lang))


def _overlay_crop(img: Image.Image, draw: ImageDraw.ImageDraw, overlay: Any, base: BoardBase, kit: PaletteKit,
                  offset: tuple[int, int]) -> None:
    """The overlay's tint is a blend: it is drawn on the RGB board's piece and quantized once."""
    ox, oy = offset
    patch = base.image.crop((ox, oy, ox + img.width, oy + img.height))
    _draw_overlay(patch, ImageDraw.Draw(patch), overlay, _Shifted(base.geometry, ox, oy), base.geometry.cell_size)
    img.paste(kit.quantized(patch), (0, 0))


# The whole board -------------------------------------------------------------------------------------


def whole_cell(track: Track | str) -> int:
    """The cell size of the whole board's map: the live board's, or smaller so the track's extent is at most
    :data:`WHOLE_MAX_W` wide."""
    t = get_track(track) if isinstance(track, str) else track
    return _whole_cell(t.name)


@lru_cache(maxsize=32)
def _whole_cell(name: str) -> int:
    size = LIVE_CELL
    while size > 12 and track_frame(name, size).width > WHOLE_MAX_W:
        size -= 1
    return size


def whole_floor(width: int) -> int:
    """The smallest words a whole board ``width`` wide draws: :data:`MIN_TEXT_AT_CHAT` pixels once a chat
    shows the picture :data:`CHAT_WIDTH` wide."""
    return math.ceil(MIN_TEXT_AT_CHAT * width / CHAT_WIDTH - 0.05)


def board_chat_image(view: Mapping[str, Any], overlay: Any = None,
                     last_turn: Mapping[str, Any] | None = None, lang: str = "en") -> Image.Image:
    """The whole board laid out for a chat column, in ``lang``: the status panel's head on top, the whole track
    (its extent plus a cell) under it, every player's row in two columns, and the key of every symbol at the
    foot. It is at most :data:`WHOLE_MAX_W` wide and no word is smaller than :func:`whole_floor`, so it reads at
    550 px wide."""
    _, frame, base, width, floor, header = _whole_layout(view, last_turn, lang)
    kit = live_kit(base)
    row_w = (width - 3 * WHOLE_GAP) // 2
    karts = list(view.get("karts") or ())
    key = key_image(width, lang, floor)
    rows_h = WHOLE_ROW_H * math.ceil(len(karts) / 2)
    map_y = header.height
    rows_y = map_y + frame.height + WHOLE_GAP
    key_y = rows_y + rows_h + WHOLE_GAP
    img = Image.new("P", (width, key_y + key.height), kit.ink(STRIP_BG))
    img.putpalette(kit.canvas.getpalette() or [])
    img.paste(kit.prepared(header), (0, 0))
    track_map = kit.canvas.crop(frame.box)
    draw = ImageDraw.Draw(track_map)
    if overlay is not None:
        _overlay_crop(track_map, draw, overlay, base, kit, frame.box[:2])
    draw_live_layers(draw, with_last_move(view, last_turn), base, img=track_map, offset=frame.box[:2],
                     put=kit.putter(track_map), ink=kit.ink)
    img.paste(track_map, ((width - frame.width) // 2, map_y))
    for i, kart in enumerate(karts):
        x = WHOLE_GAP + (i % 2) * (row_w + WHOLE_GAP)
        row = row_image(view, kart, row_w, WHOLE_ROW_H, lang, floor)
        img.paste(kit.prepared(row), (x, rows_y + WHOLE_ROW_H * (i // 2)))
    img.paste(kit.prepared(key), (0, key_y))
    return img


def _whole_layout(view: Mapping[str, Any], last_turn: Mapping[str, Any] | None, lang: str
                  ) -> tuple[int, Frame, BoardBase, int, int, Image.Image]:
    """Where the whole board puts its parts: the map's cell size, its frame and static board, the picture's
    width, its smallest words and the panel's head over the map (whose height is the map's top)."""
    size = whole_cell(view["track"])
    frame = track_frame(view["track"], size)
    base = chat_base(view["track"], size)
    width = max(frame.width, 2 * WHOLE_ROW_W + 3 * WHOLE_GAP)
    floor = whole_floor(width)
    header = _trimmed(header_image(view, width, lang, last_turn, floor))
    return size, frame, base, width, floor, header


def whole_cells(view: Mapping[str, Any], labels: Iterable[str], lang: str = "en"
                ) -> dict[str, tuple[int, int, int, int]]:
    """Each cell of ``labels`` on the whole board (:func:`board_chat_png` of ``view`` in ``lang``) as its box in
    the picture's pixels ``(x0, y0, x1, y1)``: the hex's bounding box, clipped to the map; a cell off the map is
    left out."""
    size, frame, base, width, _, header = _whole_layout(view, None, lang)
    dx = (width - frame.width) // 2 - frame.box[0]
    dy = header.height - frame.box[1]
    geo = base.geometry
    out: dict[str, tuple[int, int, int, int]] = {}
    for label in labels:
        try:
            cell = parse_label(label, geo.columns, geo.rows)
        except ValueError:
            continue
        cx, cy = geo.centre(cell)
        x0, y0 = round(cx - size + dx), round(cy - SQRT3 / 2 * size + dy)
        x1, y1 = round(cx + size + dx), round(cy + SQRT3 / 2 * size + dy)
        left, top = (width - frame.width) // 2, header.height
        box = (max(x0, left), max(y0, top), min(x1, left + frame.width), min(y1, top + frame.height))
        if box[0] < box[2] and box[1] < box[3]:
            out[label] = box
    return out


def _trimmed(header: Image.Image) -> Image.Image:
    """The panel's head without the empty room at its foot (kept for a question or the dice)."""
    blank = Image.new("RGB", header.size, STRIP_BG)
    used = ImageChops.difference(header.convert("RGB"), blank).crop((2, 2, header.width - 2, header.height - 2))
    box = used.getbbox()
    return header if box is None else header.crop((0, 0, header.width, min(header.height, box[3] + 12)))


def board_chat_png(view: Mapping[str, Any], *, overlay: Any = None,
                   last_turn: Mapping[str, Any] | None = None, lang: str = "en") -> bytes:
    """PNG bytes of the whole board cropped to the track, with the status panel in ``lang``."""
    return encode_png(board_chat_image(view, overlay, last_turn, lang))


# The status strip ----------------------------------------------------------------------------------


def strip_image(view: Mapping[str, Any], w: int, lang: str = "en",
                last_turn: Mapping[str, Any] | None = None, height: int = 0) -> Image.Image:
    """The strip over a close-up, ``w`` wide and at least ``height`` tall (its words centred in it): who moved
    (the turn drawn) and who is next with the dice, or who won; then every kart's seat number and flags (words
    in ``lang``). A long name shrinks the words, then wraps them; nothing is cut."""
    karts = view.get("karts") or []
    winners = tuple(view.get("winners") or ())
    chips = tuple((k["seat"], k["colour"], int(k.get("flags", 0)), k["seat"] in winners) for k in karts)
    return _strip_image(w, tuple(heading(view, lang, last_turn)), chips, int(view.get("laps", 5)),
                        view.get("to_act"), bool(winners), height)


def strip_height(view: Mapping[str, Any], w: int, lang: str = "en",
                 last_turn: Mapping[str, Any] | None = None) -> int:
    """The height of the strip over a close-up ``w`` wide: :data:`STRIP_FIXED`, more when a long name wraps."""
    return strip_image(view, w, lang, last_turn, height=STRIP_FIXED).height


def _dice_width(line: HeadLine, d: ImageDraw.ImageDraw, bold: Any) -> float:
    if not line.dice:
        return 0.0
    side = 18 if len(line.dice) <= 8 else 14
    return len(line.dice) * (side + 3) + 3 + d.textlength(f"= {line.total}", font=bold) + 12


@lru_cache(maxsize=512)
def _strip_image(w: int, lines: tuple[HeadLine, ...], chips: tuple[Any, ...], laps: int, to_act: int | None,
                 over: bool, height: int = 0) -> Image.Image:
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    bold = font(15, bold=True)
    rooms = []
    for line in lines:
        extra = _dice_width(line, measure, bold) + (measure.textlength(line.to_go, font=bold) + 8 if line.to_go else 0)
        rooms.append((line.words, max(80.0, w - 2 * STRIP_PAD - 36 - extra)))
    fitted = fit_together(measure, rooms, LINE_H * 1.7, 15, bold=True, one_line_to=11)
    heights = [max(LINE_H, f.height + 6) for f in fitted]
    natural = STRIP_PAD + sum(heights) + CHIPS_H + STRIP_PAD
    h = max(natural, height)
    img = Image.new("RGB", (w, h), STRIP_BG)
    d = ImageDraw.Draw(img)
    d.line([(0, h - 1), (w, h - 1)], fill=STRIP_LINE, width=2)
    y = float(STRIP_PAD + (h - natural) // 2)
    for line, words, line_h in zip(lines, fitted, heights, strict=True):
        mid = y + line_h / 2
        x = 8.0
        if line.over:
            draw_flag(d, (x + 8, mid), 16, True)
        elif line.colour:
            draw_kart(d, (x + 13, mid), 26, 0, kart_colour(line.colour), str(int(line.seat or 0) + 1))
        x += 32
        draw_fitted(d, (x, mid), words, BUMP if line.over else STRIP_TEXT)
        x += max(d.textlength(t, font=words.font) for t in words.lines) + 12
        if line.dice:
            side = 18 if len(line.dice) <= 8 else 14
            for c, v in line.dice:
                draw_die(d, (x + side / 2, mid), side, c, v)
                x += side + 3
            draw_text(d, (x + 3, mid), f"= {line.total}", bold, STRIP_TEXT, anchor="lm")
            x += text_box(d, f"= {line.total}", bold)[0] + 12
        if line.to_go:
            draw_text(d, (x, mid), line.to_go, bold, BUMP, anchor="lm")
        y += line_h
    y2 = y + CHIPS_H / 2
    step = max(62.0, min(84.0, (w - 12) / max(1, len(chips))))
    x = 8.0
    small = font(13)
    for seat, kcolour, flags, winner in chips:
        if seat == to_act and not over:
            d.rounded_rectangle([x - 4, y2 - 12, x + step - 8, y2 + 12], radius=5, fill=ACTIVE_CHIP)
        draw_kart(d, (x + 13, y2), 26, 0, kart_colour(kcolour), str(seat + 1))
        draw_flag(d, (x + 38, y2), 13, flags > 0)
        draw_text(d, (x + 46, y2), f"{flags}" if step < 72 else f"{flags}/{laps}", small,
                  BUMP if winner else STRIP_DIM, anchor="lm")
        x += step
    return img
