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
- **The zoom** is the closest that holds that: a close-up window (:data:`CLOSE`, lanes 34 px in a picture
  640 px wide), else a wider one (:data:`WIDE`), else the whole track cut to what is drawn. The car to act
  is added when it fits at the zoom chosen (never widening it), and so is the move drawn when nothing moved.
- The frame is centred on what it holds and slid (not grown) to stay on the track's part of the picture.
- When the race is over it shows the whole track.

At every zoom a lane is at least 16 px across when the picture is shown 550 px wide: 29 px in a close-up,
19 px in the wider view, 17 px for the whole of the wider track.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from render.common import Point, draw_fitted, draw_text, encode_png, fit_together, font
from render.rally.layout import LANE, layout_for
from render.rally.panel import heading_lines
from render.rally.picture import _palette, content_box, move_points, place_point, track_image
from render.rally.symbols import _LOCK, PANEL, PANEL_MUTED, PANEL_TEXT, colour_of, draw_die, flat_car
from rules.rally.texts import say
from rules.rally.track import find_track

#: the windows of the two closer zooms, in pixels of the track picture (width, height)
CLOSE = (640, 420)
WIDE = (960, 640)
#: pixels of room round what a frame must hold (a car is 30 px long, a destination's name stands above it)
ROOM = 52
#: rows ahead of a car to act that a frame shows before its roll
AHEAD = 4
#: the width a chat shows a picture at
CHAT_WIDTH = 550

#: events that put a car somewhere
MOVED = ("move", "forced_park")

STRIP_PAD = 6
LINE_H = 34
CHIPS_H = 30


@dataclass(frozen=True)
class Frame:
    """What a close-up shows: a box of the track picture (``x0, y0, x1, y1``) and the zoom's name (``close``,
    ``wide`` or ``track``)."""

    box: tuple[int, int, int, int]
    zoom: str

    @property
    def width(self) -> int:
        return self.box[2] - self.box[0]

    @property
    def height(self) -> int:
        return self.box[3] - self.box[1]


def lane_px_at(picture_width: int, shown_width: int = CHAT_WIDTH) -> float:
    """How many pixels a lane measures across when a picture ``picture_width`` wide (whose lanes are
    :data:`~render.rally.layout.LANE` px) is shown ``shown_width`` wide."""
    return LANE * shown_width / picture_width


def _box(points: Iterable[Point], room: float) -> tuple[float, float, float, float]:
    pts = list(points)
    return (min(x for x, _ in pts) - room, min(y for _, y in pts) - room,
            max(x for x, _ in pts) + room, max(y for _, y in pts) + room)


def _slide(lo: float, hi: float, length: float, within: tuple[float, float]) -> float:
    """Where a window of ``length`` starts when centred on ``lo``–``hi`` and kept inside ``within``."""
    a, b = within
    if length >= b - a:
        return (a + b - length) / 2
    return min(max((lo + hi - length) / 2, a), b - length)


def _fits(box: tuple[float, float, float, float], w: float, h: float) -> bool:
    return box[2] - box[0] <= w and box[3] - box[1] <= h


def track_frame(view: dict[str, Any]) -> Frame:
    """The whole track, cut to what is drawn."""
    return Frame(content_box(view["track"], view["direction"] == "clockwise"), "track")


def frame_points(view: dict[str, Any], must: Sequence[Point], want: Sequence[Point] = ()) -> Frame:
    """The closest frame that holds ``must`` (with :data:`ROOM` round it), with ``want`` too if it fits at
    that zoom; the whole track when nothing closer holds it."""
    if not must:
        must, want = list(want), []
    if not must:
        return track_frame(view)
    ex = content_box(view["track"], view["direction"] == "clockwise")
    for (w, h), zoom in ((CLOSE, "close"), (WIDE, "wide")):
        box = _box(must, ROOM)
        if not _fits(box, w, h):
            continue
        if want:
            both = _box([*must, *want], ROOM)
            if _fits(both, w, h):
                box = both
        fw, fh = min(w, ex[2] - ex[0]), min(h, ex[3] - ex[1])
        x0 = round(_slide(box[0], box[2], fw, (ex[0], ex[2])))
        y0 = round(_slide(box[1], box[3], fh, (ex[1], ex[3])))
        return Frame((x0, y0, x0 + fw, y0 + fh), zoom)
    return track_frame(view)


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
        return track_frame(view)
    if moved_now(view):
        return frame_points(view, [*move_points(view), *_forced_spots(view)], car_points(view)[:1])
    return frame_points(view, car_points(view), move_points(view))


# Drawing ------------------------------------------------------------------------------------------


def chat_image(view: dict[str, Any], frame: Frame | None = None, lang: str = "en") -> Image.Image:
    """The close-up of ``view`` (RGB): the strip on top of the frame's piece of the track, words in ``lang``."""
    frame = frame or chat_frame(view)
    piece = track_image(view).crop(frame.box)
    strip = strip_image(view, piece.width, lang)
    img = Image.new("RGB", (piece.width, strip.height + piece.height), PANEL)
    img.paste(strip, (0, 0))
    img.paste(piece, (0, strip.height))
    return img


def rally_chat_png(view: dict[str, Any], events: Any = None, lang: str = "en") -> bytes:
    """PNG bytes of the picture posted after a move: the close-up of :func:`chat_frame`, worded in ``lang``."""
    key = (view["track"], view["direction"] == "clockwise", len(view["seats"]))
    with _LOCK:
        palette = _palette(*key)
    return encode_png(chat_image(view, lang=lang), palette=palette)


def strip_image(view: dict[str, Any], width: int, lang: str = "en") -> Image.Image:
    """The strip: a line for the move drawn (its player's car, the words, its die) and one for who is next,
    then the round and every car's laps. A long name shrinks the words and then wraps them."""
    measure = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    heading = heading_lines(view, lang)
    rooms = [(words, width - 2 * STRIP_PAD - 34 - (42 if die is not None else 0)) for _, words, die in heading]
    fitted = fit_together(measure, rooms, LINE_H * 1.6, 16, bold=True, one_line_to=12)
    lines = [(seat, f, die) for (seat, _, die), f in zip(heading, fitted, strict=True)]
    heights = [max(LINE_H, f.height + 8) for _, f, _ in lines]
    h = STRIP_PAD + sum(heights) + CHIPS_H + STRIP_PAD
    img = Image.new("RGB", (width, h), PANEL)
    d = ImageDraw.Draw(img)
    seats = view["seats"]
    y = float(STRIP_PAD)
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
    small = font(13, bold=True)
    head = say("p_round", lang, round=view["round"])
    draw_text(d, (STRIP_PAD, mid), head, small, PANEL_MUTED, anchor="lm")
    x = STRIP_PAD + d.textlength(head, font=small) + 12
    step = max(52.0, min(80.0, (width - x - STRIP_PAD) / max(1, len(seats))))
    for s in view["standings"]:
        seat = seats[s]
        flat_car(d, (x + 11, mid), colour_of(seat["colour"]), s + 1, 11)
        lap = max(0, min(seat["laps_done"], view["laps"]))
        draw_text(d, (x + 26, mid), say("p_chip_laps", lang, lap=lap, laps=view["laps"]), font(12), PANEL_TEXT,
                  anchor="lm")
        if s == view.get("to_act") and view.get("winner") is None:
            d.line([(x + 1, mid + 13), (x + 21, mid + 13)], fill=PANEL_TEXT, width=3)
        x += step


__all__ = ["CLOSE", "WIDE", "Frame", "car_points", "chat_frame", "chat_image", "frame_points", "lane_px_at",
           "moved_now", "rally_chat_png", "strip_image", "track_frame"]
