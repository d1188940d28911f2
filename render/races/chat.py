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
  kart went, where a faller landed). Two cells of margin go round all of it.
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

``board_chat_png(view)`` is the whole board for ``/game board`` and ``/game status``: the track's
extent plus a cell, at the live board's cell size, with the key of every symbol it draws under it
(:mod:`render.races.key`) and the full status panel beside it.
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

from PIL import Image, ImageDraw

from render.common import Point, draw_fitted, draw_text, encode_png, fit_together, font, text_box
from render.races.board import BoardBase, board_base
from render.races.heading import HeadLine, heading
from render.races.key import key_image
from render.races.live import (
    ACTIVE_ROW,
    HEADER_H,
    LIVE_CELL,
    ROW_H,
    PaletteKit,
    _draw_overlay,
    _overlay_sets,
    _Shifted,
    draw_live_layers,
    draw_status,
    live_kit,
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
    pts = _centres(base, cells)
    size = base.geometry.cell_size
    mx = size * (1.0 + 1.5 * margin)
    my = size * SQRT3 * (0.5 + margin)
    return (min(x for x, _ in pts) - mx, min(y for _, y in pts) - my,
            max(x for x, _ in pts) + mx, max(y for _, y in pts) + my)


_EXTENTS: dict[tuple[str, int], tuple[float, float, float, float]] = {}


def _extent(base: BoardBase) -> tuple[float, float, float, float]:
    """The pixel box of the cells a kart can drive on plus :data:`EXTENT_MARGIN` cells, inside the
    picture (a stream running off the board's edge does not widen it)."""
    key = (base.track.name, base.geometry.cell_size)
    hit = _EXTENTS.get(key)
    if hit is None:
        x0, y0, x1, y1 = _cells_box(base, base.track.track_cells, EXTENT_MARGIN)
        hit = _EXTENTS[key] = (max(0.0, x0), max(0.0, y0), min(float(base.image.width), x1),
                               min(float(base.image.height), y1))
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
        return track_frame(t)
    for size, window, zoom in ((CLOSE_CELL, CLOSE_WINDOW, "close"), (WIDE_CELL, WIDE_WINDOW, "wide")):
        base = chat_base(t, size)
        found = _place(base, must_set, want_set, *_window_px(size, window), zoom, margin)
        if found is not None:
            return found
    return track_frame(t)


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
        return track_frame(track)
    happened = event_cells(view)
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


def _canvas(kit: PaletteKit, frame: Frame, top: int) -> Image.Image:
    """A palette image: the frame's piece of the board, ``top`` pixels down (room for the strip)."""
    x0, y0, x1, y1 = frame.box
    return kit.canvas.crop((x0, y0 - top, x1, y1))


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
    strip = strip_image(view, frame.width, lang, last_turn)
    img = _canvas(kit, frame, strip.height)
    offset = (frame.box[0], frame.box[1] - strip.height)
    draw = ImageDraw.Draw(img)
    if overlay is not None:
        _overlay_crop(img, draw, overlay, base, kit, offset)
    shown = _in_frame(with_last_move(view, last_turn), _visible(base, frame.box))
    draw_live_layers(draw, shown, base, img=img, offset=offset, put=_putter(kit, img), ink=kit.ink)
    img.paste(kit.prepared(strip), (0, 0))
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


def board_chat_image(view: Mapping[str, Any], overlay: Any = None,
                     last_turn: Mapping[str, Any] | None = None, lang: str = "en") -> Image.Image:
    """The whole track (its extent plus a cell) with the key of every symbol under it and the live board's
    status panel beside it, in ``lang``."""
    frame = track_frame(view["track"], LIVE_CELL)
    base = chat_base(view["track"], LIVE_CELL)
    kit = live_kit(base)
    panel_x0, _, panel_x1, _ = base.geometry.status_box
    panel_w = panel_x1 - panel_x0
    karts = len(view.get("karts") or ())
    gap = 12
    key = key_image(frame.width, lang)
    height = max(frame.height + gap + key.height, HEADER_H + ROW_H * max(1, karts) + 16)
    img = Image.new("P", (frame.width + gap + panel_w + gap, height), kit.ink(STRIP_BG))
    img.putpalette(kit.canvas.getpalette() or [])
    img.paste(kit.canvas.crop(frame.box), (0, 0))
    offset = (frame.box[0], frame.box[1])
    draw = ImageDraw.Draw(img)
    if overlay is not None:
        patch = img.crop((0, 0, frame.width, frame.height))
        _overlay_crop(patch, ImageDraw.Draw(patch), overlay, base, kit, frame.box[:2])
        img.paste(patch, (0, 0))
    draw_live_layers(draw, with_last_move(view, last_turn), base, img=img, offset=offset, put=kit.putter(img),
                     ink=kit.ink)
    img.paste(kit.prepared(key), (0, frame.height + gap))
    x0 = frame.width + gap
    draw_status(img, view, (x0, 8, x0 + panel_w, height - 8), prepare=kit.prepared, lang=lang, last_turn=last_turn,
                key=False)
    return img


def board_chat_png(view: Mapping[str, Any], *, overlay: Any = None,
                   last_turn: Mapping[str, Any] | None = None, lang: str = "en") -> bytes:
    """PNG bytes of the whole board cropped to the track, with the status panel in ``lang``."""
    return encode_png(board_chat_image(view, overlay, last_turn, lang))


# The status strip ----------------------------------------------------------------------------------

STRIP_PAD = 4
LINE_H = 28
CHIPS_H = 30


def strip_image(view: Mapping[str, Any], w: int, lang: str = "en",
                last_turn: Mapping[str, Any] | None = None) -> Image.Image:
    """The strip over a close-up, ``w`` wide: who moved (the turn drawn) and who is next with the dice, or who
    won; then every kart's seat number and flags (words in ``lang``). A long name shrinks the words, then wraps
    them; nothing is cut."""
    karts = view.get("karts") or []
    winners = tuple(view.get("winners") or ())
    chips = tuple((k["seat"], k["colour"], int(k.get("flags", 0)), k["seat"] in winners) for k in karts)
    return _strip_image(w, tuple(heading(view, lang, last_turn)), chips, int(view.get("laps", 5)),
                        view.get("to_act"), bool(winners))


def strip_height(view: Mapping[str, Any], w: int, lang: str = "en",
                 last_turn: Mapping[str, Any] | None = None) -> int:
    """The height of the strip over a close-up ``w`` wide (it grows with a line for who is next, and when a
    long name wraps)."""
    return strip_image(view, w, lang, last_turn).height


def _dice_width(line: HeadLine, d: ImageDraw.ImageDraw, bold: Any) -> float:
    if not line.dice:
        return 0.0
    side = 18 if len(line.dice) <= 8 else 14
    return len(line.dice) * (side + 3) + 3 + d.textlength(f"= {line.total}", font=bold) + 12


@lru_cache(maxsize=512)
def _strip_image(w: int, lines: tuple[HeadLine, ...], chips: tuple[Any, ...], laps: int, to_act: int | None,
                 over: bool) -> Image.Image:
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    bold = font(15, bold=True)
    rooms = []
    for line in lines:
        extra = _dice_width(line, measure, bold) + (measure.textlength(line.to_go, font=bold) + 8 if line.to_go else 0)
        rooms.append((line.words, max(80.0, w - 2 * STRIP_PAD - 36 - extra)))
    fitted = fit_together(measure, rooms, LINE_H * 1.7, 15, bold=True, one_line_to=11)
    heights = [max(LINE_H, f.height + 6) for f in fitted]
    h = STRIP_PAD + sum(heights) + CHIPS_H + STRIP_PAD
    img = Image.new("RGB", (w, h), STRIP_BG)
    d = ImageDraw.Draw(img)
    d.line([(0, h - 1), (w, h - 1)], fill=STRIP_LINE, width=2)
    y = float(STRIP_PAD)
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
