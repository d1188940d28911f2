"""Schrottplatz Rally pictures made for a chat column: a close-up of the turn, with a strip saying who moved
and who is next.

A chat shows an attached picture about 550 px wide, so the whole board (about 1,400 px wide with its panel)
shrinks its 34 px lanes to 13 px. ``rally_chat_png(view)`` shows instead the part of the track where the turn
happened, cut from the same drawing as the whole board (:func:`render.rally.picture.track_image`), under a
strip (the move drawn and whose it was, who is next and what they must do, the die, every car's laps). The
whole board stays one click away: ``/game board`` and the turn's message at the start of a new lap show it
(:meth:`bot.games.rally.unit.RallyUnit.board_picture`), and opened full size it is readable.

Framing rules
-------------
- **A car moved** (the last action drove, parked or pushed a car into a spot): the frame holds the move
  drawn, from where it started through every cell driven, with about a cell and a half round it.
- **Nothing moved** (a roll, a mis-shift, the start): it holds the car to act and the cells it may drive to,
  or the rows just ahead of it before its roll.
- **The zoom** is the closest that holds that: a close-up (:data:`CLOSE`, the track at its own size, lanes
  34 px), else a wider view (:data:`WIDE`, a window half as wide again drawn at two thirds). A drive too long
  even for that keeps its end (where the car stopped) and as much of the rest as fits round it. The car to
  act is added when it fits at the zoom chosen (never widening it), and so is the move drawn when nothing
  moved.
- The frame is centred on what it holds and slid (not grown) to stay on the track's part of the picture.
- **When the race is over** the frame shows the finish (:data:`FINISH`, a window three quarters of the
  close-up's drawn at four thirds): the winner's car, the start/finish arch, and the winning drive when it
  fits. Drawn larger, every word on it (the smallest, the stop sign's, is 8 px on the track) is at least
  :data:`MIN_TEXT_AT_CHAT` px tall when the picture is shown 550 px wide. The whole track stays on the whole
  board (``/game board``).

Every chat picture of a track has one size (:func:`canvas_size`, 640 × 530 for the built-in tracks): each
zoom fills the same box under a strip of a fixed height (a strip with one line centres it; a long name that
wraps takes its extra room from the track), so a channel's pictures never jump from one turn to the next.

At every zoom a lane is at least 16 px across when the picture is shown 550 px wide: 29 px in a close-up,
19 px in the wider view, 39 px at the finish.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import Point, draw_bounded, draw_fitted, encode_png, fit_together
from render.rally.layout import LANE, layout_for
from render.rally.marks import track_marks
from render.rally.panel import heading_lines
from render.rally.picture import _palette, content_box, move_points, place_point, track_image
from render.rally.symbols import _LOCK, GROUND, PANEL, PANEL_MUTED, PANEL_TEXT, colour_of, draw_die, flat_car
from rules.rally.texts import say
from rules.rally.track import find_track

#: the box every zoom fills, in pixels of the picture (width, height): the close-up's window
CLOSE = (640, 420)
#: how much of the track picture each zoom shows in that box: the close-up at its own size, the wider view's
#: window half as wide again, the finish's three quarters as wide
SCALES = {"close": Fraction(1), "wide": Fraction(2, 3), "finish": Fraction(4, 3)}
WIDE = (960, 630)
FINISH = (480, 315)
#: pixels of room round what a frame must hold (a car is 30 px long, a destination's name stands above it)
ROOM = 52
#: rows ahead of a car to act that a frame shows before its roll
AHEAD = 4
#: the width a chat shows a picture at, and the least height of the game-over picture's words there
CHAT_WIDTH = 550
MIN_TEXT_AT_CHAT = 9

#: events that put a car somewhere
MOVED = ("move", "forced_park")

STRIP_PAD = 6
LINE_H = 34
CHIPS_H = 30
#: the strip's usual height (who moved, who is next, the laps): every chat picture keeps it
STRIP_FIXED = 2 * STRIP_PAD + 2 * LINE_H + CHIPS_H

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Frame:
    """What a close-up shows: a box of the track picture (``x0, y0, x1, y1``) and the zoom's name (``close``,
    ``wide`` or ``finish``), whose :data:`SCALES` entry draws the box into the picture's map."""

    box: tuple[int, int, int, int]
    zoom: str

    @property
    def width(self) -> int:
        return self.box[2] - self.box[0]

    @property
    def height(self) -> int:
        return self.box[3] - self.box[1]

    @property
    def scale(self) -> Fraction:
        """Pixels of the picture per pixel of the track picture."""
        return SCALES[self.zoom]


def lane_px_at(picture_width: int, shown_width: int = CHAT_WIDTH, scale: float = 1.0) -> float:
    """How many pixels a lane measures across when a picture ``picture_width`` wide (whose lanes are
    :data:`~render.rally.layout.LANE` px, times the frame's ``scale``) is shown ``shown_width`` wide."""
    return LANE * scale * shown_width / picture_width


@lru_cache(maxsize=8)
def _map_size(track_key: str, clockwise: bool) -> tuple[int, int]:
    ex = content_box(track_key, clockwise)
    return min(CLOSE[0], ex[2] - ex[0]), min(CLOSE[1], ex[3] - ex[1])


def canvas_size(track_key: str, clockwise: bool = True) -> tuple[int, int]:
    """The size of every chat picture of a track (width, height): the close-up's window (or the track's part
    of the picture, when that is smaller) under the strip's fixed height."""
    w, h = _map_size(track_key, clockwise)
    return w, h + STRIP_FIXED


def _window(view: dict[str, Any], zoom: str) -> tuple[int, int]:
    """The part of the track picture a zoom shows, for a map of the usual size."""
    w, h = _map_size(view["track"], view["direction"] == "clockwise")
    return round(w / SCALES[zoom]), round(h / SCALES[zoom])


def _box(points: Iterable[Point], room: float) -> Box:
    pts = list(points)
    return (min(x for x, _ in pts) - room, min(y for _, y in pts) - room,
            max(x for x, _ in pts) + room, max(y for _, y in pts) + room)


def _slide(lo: float, hi: float, length: float, within: tuple[float, float]) -> float:
    """Where a window of ``length`` starts when centred on ``lo``–``hi`` and kept inside ``within``."""
    a, b = within
    if length >= b - a:
        return (a + b - length) / 2
    return min(max((lo + hi - length) / 2, a), b - length)


def _fits(box: Box, w: float, h: float) -> bool:
    return box[2] - box[0] <= w and box[3] - box[1] <= h


def _placed(view: dict[str, Any], box: Box, zoom: str, keep: Point | None = None) -> Frame:
    """The zoom's window centred on ``box``, slid to stay on the track's part of the picture; ``keep`` (with
    :data:`ROOM` round it) stays inside it even where that box is larger than the window."""
    ex = content_box(view["track"], view["direction"] == "clockwise")
    fw, fh = _window(view, zoom)
    x0 = _slide(box[0], box[2], fw, (ex[0], ex[2]))
    y0 = _slide(box[1], box[3], fh, (ex[1], ex[3]))
    if keep is not None:
        x0 = min(max(x0, keep[0] + ROOM - fw), keep[0] - ROOM)
        y0 = min(max(y0, keep[1] + ROOM - fh), keep[1] - ROOM)
    x, y = round(x0), round(y0)
    return Frame((x, y, x + fw, y + fh), zoom)


def _held(view: dict[str, Any], must: Sequence[Point], want: Sequence[Point], zoom: str) -> Frame | None:
    """The zoom's frame holding ``must`` (and ``want`` when both fit), or None when ``must`` does not fit."""
    fw, fh = _window(view, zoom)
    box = _box(must, ROOM)
    if not _fits(box, fw, fh):
        return None
    if want:
        both = _box([*must, *want], ROOM)
        if _fits(both, fw, fh):
            box = both
    return _placed(view, box, zoom)


def frame_points(view: dict[str, Any], must: Sequence[Point], want: Sequence[Point] = (),
                 keep: Point | None = None) -> Frame:
    """The closest frame that holds ``must`` (with :data:`ROOM` round it), with ``want`` too if it fits at
    that zoom; when even the wider view cannot hold ``must``, that view round ``keep`` (``must``'s last point
    unless given) and as much of the rest as fits."""
    if not must:
        must, want = list(want), []
    if not must:
        must = finish_points(view)
    for zoom in ("close", "wide"):
        found = _held(view, must, want, zoom)
        if found is not None:
            return found
    return _placed(view, _box(must, ROOM), "wide", keep or must[-1])


def finish_points(view: dict[str, Any]) -> list[Point]:
    """The start/finish arch: its posts and its words."""
    return [p for m in track_marks(view["track"], view["direction"] == "clockwise") if m.what in ("post", "arch")
            for p in (m.at, *m.outline)]


def finish_frame(view: dict[str, Any]) -> Frame:
    """The game-over frame: the winner's car and the finish line, with the winning drive when it fits; the car
    stays in it whatever else must give way."""
    line = finish_points(view)
    winner = view.get("winner")
    if winner is None:
        return _placed(view, _box(line, ROOM), "finish")
    track = find_track(view["track"])
    car = place_point(layout_for(track), track, view["direction"] == "clockwise", view["seats"][winner]["at"])[0]
    return (_held(view, [car, *line], move_points(view), "finish")
            or _placed(view, _box([car, *line], ROOM), "finish", car))


def car_points(view: dict[str, Any]) -> list[Point]:
    """The car to act, its destinations, or before its roll the rows just ahead of it."""
    seat = view.get("to_act")
    if seat is None:
        return []
    clockwise = view["direction"] == "clockwise"
    track = find_track(view["track"])
    lay = layout_for(track)
    at = view["seats"][seat]["at"]
    pts = [place_point(lay, track, clockwise, at)[0]]
    moves = list(view.get("moves") or ())
    pts += [place_point(lay, track, clockwise, cell)[0] for cell in moves]
    if not moves and at[:-1].isdigit():
        course = track.course(clockwise)
        row = int(at[:-1])
        for _ in range(AHEAD):
            row = course.next_row(row)
            lanes = track.row(row).lanes
            pts.append(lay.cell_centre(row, at[-1] if at[-1] in lanes else lanes[len(lanes) // 2]))
    return pts


def moved_now(view: dict[str, Any]) -> bool:
    """Whether the last action put a car somewhere."""
    return any(e.get("kind") in MOVED for e in view.get("events") or ())


def _forced_spots(view: dict[str, Any]) -> list[Point]:
    """Where a car pushed off the track was parked (its spot is not on the move's line)."""
    clockwise = view["direction"] == "clockwise"
    track = find_track(view["track"])
    lay = layout_for(track)
    out = []
    for e in view.get("events") or ():
        spot = (e.get("data") or {}).get("spot") if e.get("kind") == "forced_park" else None
        if isinstance(spot, str):
            out.append(place_point(lay, track, clockwise, spot)[0])
    return out


def chat_frame(view: dict[str, Any]) -> Frame:
    """The frame of a view's close-up, by the framing rules above."""
    if view.get("phase") == "over":
        return finish_frame(view)
    if moved_now(view):
        drive = move_points(view)
        return frame_points(view, [*drive, *_forced_spots(view)], car_points(view)[:1],
                            keep=drive[-1] if drive else None)
    return frame_points(view, car_points(view), move_points(view))


# Drawing ------------------------------------------------------------------------------------------


def _cut(img: Image.Image, box: tuple[int, int, int, int]) -> Image.Image:
    """``box`` of ``img``, the ground's colour wherever it reaches past the picture's edge."""
    x0, y0, x1, y1 = box
    if x0 >= 0 and y0 >= 0 and x1 <= img.width and y1 <= img.height:
        return img.crop(box)
    out = Image.new("RGB", (x1 - x0, y1 - y0), GROUND)
    inner = (max(0, x0), max(0, y0), min(img.width, x1), min(img.height, y1))
    if inner[0] < inner[2] and inner[1] < inner[3]:
        out.paste(img.crop(inner), (inner[0] - x0, inner[1] - y0))
    return out


def chat_image(view: dict[str, Any], frame: Frame | None = None, lang: str = "en") -> Image.Image:
    """The close-up of ``view`` (RGB, :func:`canvas_size`): the strip on top of the frame's piece of the track
    drawn at its zoom's scale, words in ``lang``."""
    frame = frame or chat_frame(view)
    w, h = canvas_size(view["track"], view["direction"] == "clockwise")
    piece = _cut(track_image(view, lang), frame.box)
    mw, mh = round(frame.width * frame.scale), round(frame.height * frame.scale)
    if (mw, mh) != piece.size:
        piece = piece.resize((mw, mh), Image.Resampling.LANCZOS)
    strip = strip_image(view, w, lang, height=STRIP_FIXED)
    room = h - strip.height  # a strip taller than usual (a long name wrapped) takes its rows from the track
    top = max(0, (piece.height - room) // 2)
    img = Image.new("RGB", (w, h), PANEL)
    img.paste(piece.crop((0, top, piece.width, top + min(room, piece.height))), (0, strip.height))
    img.paste(strip, (0, 0))
    return img


def rally_chat_png(view: dict[str, Any], events: Any = None, lang: str = "en") -> bytes:
    """PNG bytes of the picture posted after a move: the close-up of :func:`chat_frame`, worded in ``lang``."""
    key = (view["track"], view["direction"] == "clockwise", len(view["seats"]))
    with _LOCK:
        palette = _palette(*key)
    return encode_png(chat_image(view, lang=lang), palette=palette)


def strip_image(view: dict[str, Any], width: int, lang: str = "en", height: int = 0) -> Image.Image:
    """The strip, at least ``height`` tall (what it says centred in it): a line for the move drawn (its
    player's car, the words, its die) and one for who is next, then the round and every car's laps. A long
    name shrinks the words and then wraps them."""
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    heading = heading_lines(view, lang)
    rooms = [(words, width - 2 * STRIP_PAD - 34 - (42 if die is not None else 0)) for _, words, die in heading]
    fitted = fit_together(measure, rooms, LINE_H * 1.6, 16, bold=True, one_line_to=12)
    lines = [(seat, f, die) for (seat, _, die), f in zip(heading, fitted, strict=True)]
    heights = [max(LINE_H, f.height + 8) for _, f, _ in lines]
    natural = STRIP_PAD + sum(heights) + CHIPS_H + STRIP_PAD
    h = max(natural, height)
    img = Image.new("RGB", (width, h), PANEL)
    d = ImageDraw.Draw(img)
    seats = view["seats"]
    y = float(STRIP_PAD + (h - natural) // 2)
    for (seat, words, die), line_h in zip(lines, heights, strict=True):
        mid = y + line_h / 2
        flat_car(d, (STRIP_PAD + 14, mid), colour_of(seats[seat]["colour"]), seat + 1, 13)
        draw_fitted(d, (STRIP_PAD + 34, mid), words, PANEL_TEXT)
        if die is not None:
            draw_die(d, (width - STRIP_PAD - 17, mid), 30, die)
        y += line_h
    _chips(d, width, y + CHIPS_H / 2, view, lang)
    d.line([(0, h - 1), (width, h - 1)], fill=PANEL_MUTED, width=2)
    return img


def _chips(d: ImageDraw.ImageDraw, width: int, mid: float, view: dict[str, Any], lang: str) -> None:
    """The round, then every car in the standings' order with its laps (the car to act underlined)."""
    seats = view["seats"]
    head = say("p_round", lang, round=view["round"])
    shown = draw_bounded(d, (STRIP_PAD, mid), head, (width * 0.3, 18), 13, PANEL_MUTED, bold=True)
    x = STRIP_PAD + max(d.textlength(line, font=shown.font) for line in shown.lines) + 12
    step = max(52.0, min(80.0, (width - x - STRIP_PAD) / max(1, len(seats))))
    for s in view["standings"]:
        seat = seats[s]
        flat_car(d, (x + 11, mid), colour_of(seat["colour"]), s + 1, 11)
        lap = max(0, min(seat["laps_done"], view["laps"]))
        draw_bounded(d, (x + 26, mid), say("p_chip_laps", lang, lap=lap, laps=view["laps"]), (step - 28, 16), 12,
                     PANEL_TEXT)
        if s == view.get("to_act") and view.get("winner") is None:
            d.line([(x + 1, mid + 13), (x + 21, mid + 13)], fill=PANEL_TEXT, width=3)
        x += step


__all__ = ["CLOSE", "FINISH", "MIN_TEXT_AT_CHAT", "SCALES", "STRIP_FIXED", "WIDE", "Frame", "canvas_size",
           "car_points", "chat_frame", "chat_image", "finish_frame", "finish_points", "frame_points", "lane_px_at",
           "moved_now", "rally_chat_png", "strip_image"]
