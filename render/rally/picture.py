"""The Schrottplatz Rally board: the lane track with its cars, and the panel beside it.

``rally_png(view)`` takes ``RallyGame.view(seat)`` and returns PNG bytes of the whole track. The track is
drawn round its loop (see :mod:`render.rally.layout`): asphalt lanes, curve rows filled in the colour of
their limit (green or yellow), road-sign cells with a small sign, the start/finish arch as a chequered band,
row numbers beside every row, arrows in the driving direction, car parks as concrete pads with their
service's badge and each spot marked "P" and its least number of players (spots closed at this number of
players are hatched grey), and the pit lane: its road with the hatched waiting cell, its spots and the stop
sign at its exit. Where each label and symbol beside the track goes is worked out in
:mod:`render.rally.marks`, so none covers another. Cars are drawn in their colour with their seat number;
the last move is a yellow line, and the cells the player to act may move to are ringed in that car's colour
with their names.

The panel on the right (:mod:`render.rally.panel`) says who moved and who is next, shows the bars and every
car's laps, stops, lever, fuel and gears, and a legend of the symbols. The close-up a chat shows after a
move is cut from the same drawing (:mod:`render.rally.chat`).

The unchanging part (track, car parks, pit lane, labels) is drawn once per track, direction and number of
players and cached; each picture copies it and draws cars, highlights and the panel.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageChops, ImageDraw

from render.common import (
    Point,
    build_palette,
    draw_polygon,
    draw_text,
    encode_png,
    font,
    lighter,
    mix,
    place,
    thick_line,
)
from render.rally.layout import GAP, LANE, SPOT_D, TrackLayout, centre, layout_for
from render.rally.marks import (
    ARCH_STROKE,
    ENTRY_W,
    PIT_STROKE,
    arch_words,
    pad_outline,
    pit_mouths,
    pit_road,
    stop_point,
    track_marks,
)
from render.rally.panel import draw_panel, panel_height
from render.rally.symbols import (
    _LOCK,
    AREA_TEXT,
    ASPHALT,
    BLACK,
    CAR_COLOURS,
    CONCRETE_EDGE,
    CURVE,
    DRIVE_ARROW,
    DRIVE_ARROW_COLOUR,
    GROUND,
    GROUND_DARK,
    HATCH_A,
    KERB,
    LANE_LINE,
    LEVER,
    PANEL,
    PANEL_MUTED,
    PANEL_TEXT,
    PANEL_W,
    PATH,
    PATH_EDGE,
    PIT_ROAD,
    ROW_TEXT,
    WHITE,
    colour_of,
    draw_car,
    draw_hatch,
    draw_road_sign,
    draw_service,
    draw_spot,
    draw_stop,
    flat_car,
    ink_on,
)
from rules.rally.track import STOP, WAITING, Track, find_track

# The static track ---------------------------------------------------------------------------------


@lru_cache(maxsize=12)
def _base(track_key: str, clockwise: bool, players: int) -> Image.Image:
    track = find_track(track_key)
    lay = layout_for(track)
    img = Image.new("RGB", (lay.width, lay.height), GROUND)
    d = ImageDraw.Draw(img)
    _draw_track(d, track, lay, clockwise)
    _draw_areas(d, track, lay, players, clockwise)
    _draw_pit(d, track, lay, clockwise, players)
    _draw_arch(d, track, lay, clockwise)
    return img


#: ground left round everything drawn beside the track, on the whole board
BOARD_MARGIN = 30


@lru_cache(maxsize=8)
def content_box(track_key: str, clockwise: bool) -> tuple[int, int, int, int]:
    """The box of the track picture that holds the track and everything beside it, with a margin of ground
    (the layout leaves room all round that nothing uses)."""
    with _LOCK:
        base = _base(track_key, clockwise, 6)
    box = ImageChops.difference(base, Image.new("RGB", base.size, GROUND)).getbbox() or (0, 0, *base.size)
    for mark in track_marks(track_key, clockwise):  # the arch's words, not in the cached track: their place
        if mark.what == "arch":
            xs, ys = [x for x, _ in mark.outline], [y for _, y in mark.outline]
            box = (min(box[0], math.floor(min(xs))), min(box[1], math.floor(min(ys))),
                   max(box[2], math.ceil(max(xs))), max(box[3], math.ceil(max(ys))))
    m = BOARD_MARGIN
    return max(0, box[0] - m), max(0, box[1] - m), min(base.width, box[2] + m), min(base.height, box[3] + m)


def _draw_track(d: ImageDraw.ImageDraw, track: Track, lay: TrackLayout, clockwise: bool) -> None:
    for row in track.rows:  # kerbs first, the asphalt over them
        lo = "abc".index(row.lanes[0]) - 1.5
        hi = "abc".index(row.lanes[-1]) - 0.5
        draw_polygon(d, lay.quad(row.number, lo - 0.14, hi + 0.14, -0.02, 1.02), KERB)
    for row in track.rows:
        for col in row.lanes:
            fill = CURVE[row.curve] if row.curve else ASPHALT
            draw_polygon(d, lay.cell_quad(row.number, col), fill)
    for row in track.rows:
        for col in row.lanes[1:]:
            j = "abc".index(col) - 1.5
            a, b = lay.offset_point(row.number, j, 0.2), lay.offset_point(row.number, j, 0.8)
            d.line([a, b], fill=LANE_LINE if not row.curve else mix(CURVE[row.curve], WHITE, 0.5), width=2)
    for mark in track_marks(track.key, clockwise):
        if mark.what == "sign":
            draw_road_sign(d, mark.at)
        elif mark.what == "row":  # beside the kerb where there is room, else just inside it
            colour = WHITE if mark.inside else ROW_TEXT
            draw_text(d, mark.at, mark.text, font(round(mark.size), bold=True), colour)
    # arrows in the driving direction every eight rows on plain rows
    for row in track.rows[4::8]:
        if row.curve or "b" not in row.lanes:
            continue
        h = lay.heading(row.number) + (0 if clockwise else 180)
        draw_polygon(d, place(DRIVE_ARROW, lay.cell_centre(row.number, "b"), h), DRIVE_ARROW_COLOUR)


def _draw_spot(d: ImageDraw.ImageDraw, box: list[Point], least: int, players: int) -> None:
    draw_spot(d, box, least, least <= players)


def _draw_areas(d: ImageDraw.ImageDraw, track: Track, lay: TrackLayout, players: int, clockwise: bool) -> None:
    for area in track.areas:
        boxes = lay.spot_boxes(area.row, area.side, len(area.spots))
        draw_polygon(d, pad_outline(boxes), GROUND_DARK)
        for box, least in zip(boxes, area.spots, strict=True):
            _draw_spot(d, box, least, players)
        # the entry: a short road from the lane beside it
        a = lay.beside(area.row, area.side, 0)
        b = lay.beside(area.row, area.side, GAP)
        thick_line(d, a, b, ENTRY_W, CONCRETE_EDGE)
    kinds = {a.kind for a in track.areas}
    for mark in track_marks(track.key, clockwise):
        if mark.what == "badge" and mark.text in kinds:
            draw_service(d, mark.text, mark.at, mark.size)
        elif mark.what == "area":
            draw_text(d, mark.at, mark.text, font(round(mark.size), bold=True), AREA_TEXT)


def _draw_pit(d: ImageDraw.ImageDraw, track: Track, lay: TrackLayout, clockwise: bool, players: int) -> None:
    pit = track.pit
    s = lay.side_sign(pit.side)
    rows = range(pit.first, pit.last + 1)
    for r in rows:  # the pit road
        draw_polygon(d, pit_road(lay, track, r), PIT_ROAD)
    for r in rows:  # the whole pit road in front of the spots is the hatched waiting cell
        e = lay.edge_offset(r, pit.side)
        lo, hi = sorted((e + s * (GAP + 3) / LANE, e + s * (GAP + SPOT_D - 3) / LANE))
        draw_hatch(d, [lay.offset_point(r, lo, 0.0), lay.offset_point(r, hi, 0.0), lay.offset_point(r, hi, 1.0),
                       lay.offset_point(r, lo, 1.0)])
    for r, least in pit.spots:
        _draw_spot(d, lay.spot_boxes(r, pit.side, 1, depth=1)[0], least, players)
    for a, b in pit_mouths(lay, track, clockwise):
        thick_line(d, a, b, ENTRY_W, PIT_ROAD)
    for mark in track_marks(track.key, clockwise):
        if mark.what == "pit":
            draw_text(d, mark.at, mark.text, font(round(mark.size), bold=True), WHITE, stroke=BLACK,
                      stroke_width=PIT_STROKE)
        elif mark.what == "pit_spot":
            draw_text(d, mark.at, mark.text, font(round(mark.size), bold=True), AREA_TEXT)
        elif mark.what == "stop":
            draw_stop(d, mark.at, mark.size)


def _draw_arch(d: ImageDraw.ImageDraw, track: Track, lay: TrackLayout, clockwise: bool) -> None:
    row = track.arch
    squares = 8
    for k in range(squares):
        for m in range(2):
            lo = -1.5 - 0.15 + k * 3.3 / squares
            hi = lo + 3.3 / squares
            t0, t1 = m * 0.09, (m + 1) * 0.09
            colour = BLACK if (k + m) % 2 else WHITE
            draw_polygon(d, lay.quad(row, lo, hi, t0, t1), colour)
    for mark in track_marks(track.key, clockwise):
        if mark.what == "post":
            x, y = mark.at
            r = mark.size
            d.ellipse([x - r, y - r, x + r, y + r], fill=(200, 30, 30), outline=BLACK)


def _draw_arch_words(d: ImageDraw.ImageDraw, track_key: str, lang: str) -> None:
    """The arch's words in ``lang`` (the cached track is drawn without them, the same for every language)."""
    fitted, (x, y) = arch_words(track_key, lang)
    for i, line in enumerate(fitted.lines):
        draw_text(d, (x, y - fitted.height / 2 + fitted.line_h * (i + 0.5)), line, fitted.font, WHITE, stroke=BLACK,
                  stroke_width=ARCH_STROKE)


@lru_cache(maxsize=12)
def _palette(track_key: str, clockwise: bool, players: int) -> Image.Image:
    extra = [WHITE, BLACK, PATH, PATH_EDGE, PANEL_TEXT, PANEL_MUTED, PANEL, *LEVER.values()]
    for c in CAR_COLOURS.values():
        extra += [c, lighter(c, 0.8), mix(c, PANEL, 0.5)]
    return build_palette(_base(track_key, clockwise, players), extra)


# Places of cars -------------------------------------------------------------------------------------


def place_point(lay: TrackLayout, track: Track, clockwise: bool, where: str, index: int = 0) -> tuple[Point, float]:
    """Where to draw a car standing on ``where`` and which way it faces (``index`` spreads cars sharing the
    waiting cell or the stop sign)."""
    turn = 0.0 if clockwise else 180.0
    pit = track.pit
    if where == WAITING:
        rows = list(range(pit.first, pit.last + 1))
        if not clockwise:
            rows.reverse()
        r = rows[index % len(rows)]
        return lay.beside(r, pit.side, GAP + SPOT_D / 2), lay.heading(r) + turn
    if where == STOP:
        p = stop_point(lay, track, clockwise)
        exit_ = pit.last if clockwise else pit.first
        h = lay.heading(exit_) + turn
        ahead = 1 if clockwise else -1
        step = math.radians(lay.heading(exit_))
        return (p[0] + ahead * 30 * (1 + index) * math.cos(step), p[1] + ahead * 30 * (1 + index) * math.sin(step)), h
    if "." in where:
        area, num = where.split(".")
        i = int(num) - 1
        if area == WAITING:
            r = pit.spots[i][0]
            return centre(lay.spot_boxes(r, pit.side, 1, depth=1)[0]), lay.heading(r) + 90
        a = track.area_by_id[area]
        return centre(lay.spot_boxes(a.row, a.side, len(a.spots))[i]), lay.heading(a.row) + 90
    row, col = int(where[:-1]), where[-1]
    return lay.cell_centre(row, col), lay.heading(row) + turn


# The picture ---------------------------------------------------------------------------------------


def rally_png(view: dict[str, Any], events: Sequence[Any] | None = None, lang: str = "en") -> bytes:
    """PNG bytes of the track and status strip for ``view`` (from ``RallyGame.view``); the strip speaks
    ``lang`` ("en" or "de")."""
    key = (view["track"], view["direction"] == "clockwise", len(view["seats"]))
    with _LOCK:
        palette = _palette(*key)
    return encode_png(rally_image(view, lang), palette=palette)


def rally_image(view: dict[str, Any], lang: str = "en") -> Image.Image:
    """The whole board as a Pillow image (RGB): the track with everything on it, cut to what is drawn, and the
    panel beside it in ``lang``; as tall as the panel needs for this many cars."""
    box = content_box(view["track"], view["direction"] == "clockwise")
    w, h = box[2] - box[0], box[3] - box[1]
    height = max(h, panel_height(len(view["seats"])))
    img = Image.new("RGB", (w + PANEL_W, height), GROUND)
    img.paste(track_image(view, lang).crop(box), (0, board_top(view)))
    ImageDraw.Draw(img).rectangle([w, 0, img.width, height], fill=PANEL)
    draw_panel(img, w, view, lang)
    return img


def board_top(view: dict[str, Any]) -> int:
    """How far down the whole board the track starts (it is centred beside a taller panel)."""
    box = content_box(view["track"], view["direction"] == "clockwise")
    h = box[3] - box[1]
    return (max(h, panel_height(len(view["seats"]))) - h) // 2


def board_point(view: dict[str, Any], p: Point) -> Point:
    """Where a point of the track's layout lies on the whole board."""
    box = content_box(view["track"], view["direction"] == "clockwise")
    return p[0] - box[0], p[1] - box[1] + board_top(view)


def cell_boxes(view: dict[str, Any], labels: Sequence[str]) -> dict[str, tuple[int, int, int, int]]:
    """Each lane cell of ``labels`` (``4a``: row 4, lane a) on the whole board (:func:`rally_png` of ``view``) as
    its box in the picture's pixels ``(x0, y0, x1, y1)``; a label that names no cell of the track is left out."""
    lay = layout_for(find_track(view["track"]))
    out: dict[str, tuple[int, int, int, int]] = {}
    for label in labels:
        number, col = label[:-1], label[-1:]
        if not number.isdigit() or col not in ("a", "b", "c"):
            continue
        try:
            points = [board_point(view, p) for p in lay.cell_quad(int(number), col)]
        except (IndexError, KeyError, ValueError):
            continue
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        out[label] = (math.floor(min(xs)), math.floor(min(ys)), math.ceil(max(xs)), math.ceil(max(ys)))
    return out


def track_image(view: dict[str, Any], lang: str = "en") -> Image.Image:
    """The board without its panel's words (RGB): a copy of the cached track with the arch's words in
    ``lang``, the last move, the cars and the destinations of the player to act."""
    clockwise = view["direction"] == "clockwise"
    track = find_track(view["track"])
    lay = layout_for(track)
    with _LOCK:
        img = _base(view["track"], clockwise, len(view["seats"])).copy()
    d = ImageDraw.Draw(img)
    _draw_arch_words(d, view["track"], lang)
    seats = view["seats"]
    mover = view.get("to_act")
    last = view.get("last_move")
    if last and last.get("path"):
        pts = move_points(view)
        for a, b in itertools.pairwise(pts):
            thick_line(d, a, b, 9, PATH_EDGE)
        for a, b in itertools.pairwise(pts):
            thick_line(d, a, b, 5, PATH)
    shared: dict[str, int] = {}
    for s in seats:
        where = s["at"]
        index = shared.get(where, 0)
        shared[where] = index + 1
        p, h = place_point(lay, track, clockwise, where, index)
        draw_car(d, p, h, colour_of(s["colour"]), s["seat"] + 1,
                 ring=PATH if view.get("winner") is None and mover == s["seat"] else None)
    if mover is not None and view.get("moves"):
        colour = colour_of(seats[mover]["colour"])
        for cell in view["moves"]:
            p, _ = place_point(lay, track, clockwise, cell, shared.get(cell, 0))
            r = 11
            d.ellipse([p[0] - r - 3, p[1] - r - 3, p[0] + r + 3, p[1] + r + 3], fill=WHITE)
            d.ellipse([p[0] - r, p[1] - r, p[0] + r, p[1] + r], fill=colour)
            if "." in cell:  # a parking spot: its number in the ring (the car park's name stands beside it)
                draw_text(d, p, cell.split(".")[1], font(12, bold=True), ink_on(colour))
            else:
                draw_text(d, (p[0], p[1] - 19), cell, font(12, bold=True), WHITE, stroke=BLACK, stroke_width=3)
    return img


def move_points(view: dict[str, Any]) -> list[Point]:
    """Where the last move's line runs: from its start through every cell driven."""
    last = view.get("last_move")
    if not last or not last.get("path"):
        return []
    clockwise = view["direction"] == "clockwise"
    track = find_track(view["track"])
    lay = layout_for(track)
    return [place_point(lay, track, clockwise, where)[0] for where in (last["from"], *last["path"])]


picture = rally_png

__all__ = [
    "BLACK",
    "CAR_COLOURS",
    "CURVE",
    "HATCH_A",
    "LEVER",
    "PANEL",
    "PANEL_MUTED",
    "PANEL_TEXT",
    "PANEL_W",
    "PATH",
    "PATH_EDGE",
    "WHITE",
    "colour_of",
    "flat_car",
    "move_points",
    "picture",
    "place_point",
    "rally_image",
    "rally_png",
    "track_image",
]
