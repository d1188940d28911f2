"""The Schrottplatz Rally picture: the lane track with its cars, and a status strip.

``rally_png(view)`` takes ``RallyGame.view(seat)`` and returns PNG bytes. The track is drawn round its
loop (see :mod:`render.rally.layout`): asphalt lanes, curve rows filled in the colour of their limit
(green or yellow), road-sign cells with a small sign, the start/finish arch as a chequered band, row
numbers beside every row, arrows in the driving direction, car parks as concrete pads with their
service's icon and each spot marked "P" and its least number of players (spots closed at this number of
players are hatched grey), and the pit lane: its road with the hatched waiting cell, its spots and the
stop sign at its exit. Cars are drawn in their colour with their seat number; the last move is a yellow
line, and the cells the player to act may move to are ringed in that car's colour with their names.

The strip on the right names whose turn it is and what they must do, shows the last die, the turn order
bar (cars on the track) and the parking bar (parked cars, who move last), and every car's laps, stops,
lever, fuel and board at a glance.

The unchanging part (track, car parks, pit lane, labels) is drawn once per track, direction and number of
players and cached; each picture copies it and draws cars, highlights and the strip.
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
    draw_polygon,
    draw_text,
    encode_png,
    font,
    lighter,
    mix,
    place,
    regular_polygon,
    thick_line,
)
from render.rally.layout import GAP, LANE, SPOT_D, TrackLayout, centre, layout_for
from rules.rally.texts import say
from rules.rally.track import STOP, WAITING, Track, find_track

CAR_COLOURS: dict[str, Colour] = {
    "red": (214, 40, 40),
    "blue": (36, 92, 210),
    "orange": (245, 140, 20),
    "purple": (138, 60, 180),
    "white": (248, 248, 248),
    "black": (28, 28, 32),
}
GROUND: Colour = (168, 146, 112)
GROUND_DARK: Colour = (140, 118, 88)
ASPHALT: Colour = (72, 72, 78)
KERB: Colour = (232, 232, 226)
LANE_LINE: Colour = (200, 200, 196)
CURVE: dict[str, Colour] = {"green": (58, 160, 74), "yellow": (232, 196, 36)}
CONCRETE: Colour = (206, 204, 196)
CONCRETE_EDGE: Colour = (120, 118, 112)
CLOSED: Colour = (150, 146, 138)
PIT_ROAD: Colour = (96, 96, 102)
HATCH_A: Colour = (240, 200, 30)
HATCH_B: Colour = (30, 30, 30)
STOP_RED: Colour = (200, 24, 24)
WHITE: Colour = (255, 255, 255)
BLACK: Colour = (20, 20, 20)
PATH: Colour = (255, 222, 40)
PATH_EDGE: Colour = (40, 30, 10)
PANEL: Colour = (244, 240, 230)
PANEL_TEXT: Colour = (40, 36, 32)
PANEL_MUTED: Colour = (118, 110, 100)
LEVER: dict[str, Colour] = {"green": (58, 160, 74), "yellow": (232, 196, 36), "red": (210, 40, 40)}
SERVICE_COLOURS: dict[str, Colour] = {"fuel": (30, 30, 30), "engine": (120, 124, 132), "body": (250, 250, 250),
                                      "mechanic": (240, 130, 30)}
PANEL_W = 400

_LOCK = threading.Lock()


def colour_of(key: str) -> Colour:
    return CAR_COLOURS[key]


def ink_on(c: Colour) -> Colour:
    """Black or white, whichever reads on ``c``."""
    return BLACK if sum(c) > 460 else WHITE


# Icons -------------------------------------------------------------------------------------------


def draw_service(d: ImageDraw.ImageDraw, kind: str, c: Point, r: float) -> None:
    """The icon of a service in a round badge of radius ``r``: a fuel can, an engine block, a car body, a
    mechanic."""
    x, y = c
    d.ellipse([x - r, y - r, x + r, y + r], fill=WHITE, outline=BLACK, width=2)
    s = r * 0.62
    if kind == "fuel":
        draw_polygon(d, [(x - s * 0.7, y - s * 0.5), (x - s * 0.3, y - s * 0.9), (x + s * 0.7, y - s * 0.9),
                         (x + s * 0.7, y + s), (x - s * 0.7, y + s)], SERVICE_COLOURS["fuel"])
        d.rectangle([x - s * 0.1, y - s * 1.15, x + s * 0.45, y - s * 0.9], fill=SERVICE_COLOURS["fuel"])
        d.line([(x - s * 0.45, y - s * 0.2), (x + s * 0.45, y + s * 0.7)], fill=WHITE, width=2)
        d.line([(x + s * 0.45, y - s * 0.2), (x - s * 0.45, y + s * 0.7)], fill=WHITE, width=2)
    elif kind == "engine":
        grey = SERVICE_COLOURS["engine"]
        d.rectangle([x - s, y - s * 0.2, x + s, y + s * 0.9], fill=grey, outline=BLACK)
        for i in range(3):
            cx = x - s * 0.66 + i * s * 0.66
            d.rectangle([cx - s * 0.22, y - s * 0.9, cx + s * 0.22, y - s * 0.2], fill=grey, outline=BLACK)
    elif kind == "body":
        d.rounded_rectangle([x - s * 1.1, y - s * 0.05, x + s * 1.1, y + s * 0.6], radius=s * 0.2,
                            fill=(210, 210, 214), outline=BLACK)
        draw_polygon(d, [(x - s * 0.6, y - s * 0.05), (x - s * 0.3, y - s * 0.65), (x + s * 0.45, y - s * 0.65),
                         (x + s * 0.75, y - s * 0.05)], (210, 210, 214), BLACK)
        for wx in (x - s * 0.6, x + s * 0.6):
            d.ellipse([wx - s * 0.25, y + s * 0.4, wx + s * 0.25, y + s * 0.9], fill=BLACK)
    else:  # mechanic: a figure in overalls
        col = SERVICE_COLOURS["mechanic"]
        d.ellipse([x - s * 0.35, y - s * 1.05, x + s * 0.35, y - s * 0.35], fill=col, outline=BLACK)
        draw_polygon(d, [(x - s * 0.8, y + s), (x - s * 0.55, y - s * 0.25), (x + s * 0.55, y - s * 0.25),
                         (x + s * 0.8, y + s)], col, BLACK)


def draw_die(d: ImageDraw.ImageDraw, c: Point, size: float, face: int | None) -> None:
    """A white die with pips (a dash before the first roll)."""
    x, y = c
    h = size / 2
    d.rounded_rectangle([x - h, y - h, x + h, y + h], radius=size / 6, fill=WHITE, outline=PANEL_TEXT, width=2)
    if face is None:
        draw_text(d, c, "–", font(round(size * 0.5), bold=True), PANEL_MUTED)
        return
    q = size * 0.26
    spots = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
             4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
             6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}[face]
    r = size * 0.09
    for sx, sy in spots:
        d.ellipse([x + sx * q - r, y + sy * q - r, x + sx * q + r, y + sy * q + r], fill=PANEL_TEXT)


def draw_car(d: ImageDraw.ImageDraw, c: Point, heading: float, colour: Colour, number: int, scale: float = 1.0,
             ring: Colour | None = None) -> None:
    """A car seen from above pointing along ``heading``, with its number on the roof."""
    length, width = 30 * scale, 20 * scale
    body = [(-length / 2, -width / 2), (length / 2 - 6 * scale, -width / 2), (length / 2, -width / 4),
            (length / 2, width / 4), (length / 2 - 6 * scale, width / 2), (-length / 2, width / 2)]
    outline = BLACK if colour != CAR_COLOURS["black"] else WHITE
    if ring is not None:
        rr = length * 0.62
        d.ellipse([c[0] - rr, c[1] - rr, c[0] + rr, c[1] + rr], outline=ring, width=max(3, round(3 * scale)))
    draw_polygon(d, place(body, c, heading), colour, outline, 2)
    draw_text(d, c, str(number), font(round(14 * scale), bold=True), ink_on(colour))


def flat_car(d: ImageDraw.ImageDraw, c: Point, colour: Colour, number: int, r: float) -> None:
    """A car marker for the strip: a disc in the car's colour with its number."""
    x, y = c
    outline = BLACK if colour != CAR_COLOURS["black"] else (200, 200, 200)
    d.ellipse([x - r, y - r, x + r, y + r], fill=colour, outline=outline, width=2)
    draw_text(d, c, str(number), font(round(r * 1.1), bold=True), ink_on(colour))


# The static track ---------------------------------------------------------------------------------


@lru_cache(maxsize=12)
def _base(track_key: str, clockwise: bool, players: int) -> Image.Image:
    track = find_track(track_key)
    lay = layout_for(track)
    img = Image.new("RGB", (lay.width + PANEL_W, max(lay.height, 760)), GROUND)
    d = ImageDraw.Draw(img)
    _draw_track(d, track, lay, clockwise)
    _draw_areas(d, track, lay, players)
    _draw_pit(d, track, lay, clockwise, players)
    _draw_arch(d, track, lay, clockwise)
    d.rectangle([lay.width, 0, img.width, img.height], fill=PANEL)
    return img


def _draw_track(d: ImageDraw.ImageDraw, track: Track, lay: TrackLayout, clockwise: bool) -> None:
    for row in track.rows:  # kerbs first, the asphalt over them
        lo = "abc".index(row.lanes[0]) - 1.5
        hi = "abc".index(row.lanes[-1]) - 0.5
        draw_polygon(d, lay.quad(row.number, lo - 0.14, hi + 0.14, -0.02, 1.02), KERB)
    for row in track.rows:
        for col in row.lanes:
            fill = CURVE[row.curve] if row.curve else ASPHALT
            draw_polygon(d, lay.cell_quad(row.number, col), fill)
    small = font(11, bold=True)
    for row in track.rows:
        for col in row.lanes[1:]:
            j = "abc".index(col) - 1.5
            a, b = lay.offset_point(row.number, j, 0.2), lay.offset_point(row.number, j, 0.8)
            d.line([a, b], fill=LANE_LINE if not row.curve else mix(CURVE[row.curve], WHITE, 0.5), width=2)
        for col in row.signs:
            cx, cy = lay.cell_centre(row.number, col)
            tri = regular_polygon((cx, cy + 1), 9, 3, -90)
            draw_polygon(d, tri, WHITE, STOP_RED, 3)
            draw_text(d, (cx, cy + 2), "!", font(10, bold=True), BLACK)
        # the row's number outside the kerb, on a side with no car park or pit lane nearby
        side = min(("L", "R"), key=lambda sd: _busy(track, row.number, sd))
        if _busy(track, row.number, side):
            p = lay.offset_point(row.number, lay.edge_offset(row.number, side) - lay.side_sign(side) * 0.25)
            draw_text(d, p, str(row.number), font(10, bold=True), WHITE)
        else:
            draw_text(d, lay.beside(row.number, side, 12), str(row.number), small, (60, 50, 36))
    # arrows in the driving direction every eight rows on plain rows
    for row in track.rows[4::8]:
        if row.curve or "b" not in row.lanes:
            continue
        h = lay.heading(row.number) + (0 if clockwise else 180)
        c = lay.cell_centre(row.number, "b")
        arrow = [(-9, -3), (2, -3), (2, -8), (11, 0), (2, 8), (2, 3), (-9, 3)]
        draw_polygon(d, place(arrow, c, h), mix(ASPHALT, WHITE, 0.45))


def _busy(track: Track, number: int, side: str) -> int:
    """How crowded a side of a row is with car parks and the pit lane (0: free for a label)."""
    n = track.length
    near = {(number + k - 1) % n + 1 for k in (-2, -1, 0, 1, 2)}
    busy = sum(1 for a in track.areas if a.side == side and a.row in near)
    pit = track.pit
    if pit.side == side and any(pit.first - 1 <= r <= pit.last + 1 for r in near):
        busy += 1
    return busy


def _spot_label(d: ImageDraw.ImageDraw, box: list[Point], least: int, open_: bool, text_colour: Colour) -> None:
    c = centre(box)
    draw_text(d, (c[0], c[1] - 5), "P", font(11, bold=True), text_colour)
    draw_text(d, (c[0], c[1] + 7), str(least), font(11, bold=True), text_colour)


def _draw_spot(d: ImageDraw.ImageDraw, box: list[Point], least: int, players: int) -> None:
    open_ = least <= players
    draw_polygon(d, box, CONCRETE if open_ else CLOSED, CONCRETE_EDGE, 2)
    if not open_:
        a, b, c_, e = box
        for t in (0.25, 0.5, 0.75):
            d.line([(a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t),
                    (e[0] + (c_[0] - e[0]) * (t - 0.25), e[1] + (c_[1] - e[1]) * (t - 0.25))], fill=(140, 136, 128))
    _spot_label(d, box, least, open_, (30, 60, 150) if open_ else (90, 86, 80))


def _draw_areas(d: ImageDraw.ImageDraw, track: Track, lay: TrackLayout, players: int) -> None:
    for area in track.areas:
        boxes = lay.spot_boxes(area.row, area.side, len(area.spots))
        pad = [boxes[0][0], boxes[-1][1], boxes[-1][2], boxes[0][3]]
        grow = [(p[0] + (p[0] - centre(pad)[0]) * 0.08, p[1] + (p[1] - centre(pad)[1]) * 0.08) for p in pad]
        draw_polygon(d, grow, GROUND_DARK)
        for box, least in zip(boxes, area.spots, strict=True):
            _draw_spot(d, box, least, players)
        # the entry: a short road from the lane beside it
        a = lay.beside(area.row, area.side, 0)
        b = lay.beside(area.row, area.side, GAP)
        thick_line(d, a, b, 8, CONCRETE_EDGE)
        icon = lay.beside(area.row, area.side, GAP + SPOT_D + 17)
        draw_service(d, area.kind, icon, 14)
        label = lay.beside(area.row, area.side, GAP + SPOT_D + 40)
        draw_text(d, label, area.id, font(11, bold=True), (50, 40, 28))


def _draw_pit(d: ImageDraw.ImageDraw, track: Track, lay: TrackLayout, clockwise: bool, players: int) -> None:
    pit = track.pit
    s = lay.side_sign(pit.side)
    rows = range(pit.first, pit.last + 1)
    for r in rows:  # the pit road
        e = lay.edge_offset(r, pit.side)
        lo, hi = sorted((e + s * GAP / LANE, e + s * (GAP + SPOT_D) / LANE))
        draw_polygon(d, lay.quad(r, lo, hi, -0.01, 1.01), PIT_ROAD)
    for r in rows:  # the whole pit road in front of the spots is the hatched waiting cell
        e = lay.edge_offset(r, pit.side)
        lo, hi = sorted((e + s * (GAP + 3) / LANE, e + s * (GAP + SPOT_D - 3) / LANE))
        draw_polygon(d, lay.quad(r, lo, hi, 0.0, 1.0), HATCH_A)
        for k in range(5):
            t0 = k / 5
            a = lay.offset_point(r, lo, t0)
            b = lay.offset_point(r, hi, min(1.0, t0 + 0.14))
            d.line([a, b], fill=HATCH_B, width=3)
    middle = (pit.first + pit.last) // 2
    draw_text(d, lay.beside(middle, pit.side, GAP + SPOT_D / 2, 0.5), "pit", font(12, bold=True), WHITE,
              stroke=BLACK, stroke_width=3)
    for i, (r, least) in enumerate(pit.spots):
        box = lay.spot_boxes(r, pit.side, 1, depth=1)[0]
        _draw_spot(d, box, least, players)
        c = centre(box)
        draw_text(d, lay.beside(r, pit.side, GAP + 2 * SPOT_D + 18), f"pit.{i + 1}", font(10, bold=True),
                  (50, 40, 28))
        _ = c
    entry = pit.first if clockwise else pit.last
    exit_ = pit.last if clockwise else pit.first
    for r, t in ((entry, 0.5), (exit_, 0.5)):
        thick_line(d, lay.beside(r, pit.side, 0, t), lay.beside(r, pit.side, GAP, t), 8, PIT_ROAD)
    stop = stop_point(lay, track, clockwise)
    draw_polygon(d, regular_polygon(stop, 15, 8, 22.5), WHITE)
    draw_polygon(d, regular_polygon(stop, 13, 8, 22.5), STOP_RED)
    draw_text(d, stop, "STOP", font(8, bold=True), WHITE)


def stop_point(lay: TrackLayout, track: Track, clockwise: bool) -> Point:
    """The stop sign: just past the end of the pit road at its exit."""
    pit = track.pit
    exit_ = pit.last if clockwise else pit.first
    return lay.beside(exit_, pit.side, GAP + SPOT_D / 2, 1.25 if clockwise else -0.25)


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
    for side in ("L", "R"):
        post = lay.beside(row, side, 6 if (row, side) not in track.areas_by_row else 4, 0.05)
        d.ellipse([post[0] - 5, post[1] - 5, post[0] + 5, post[1] + 5], fill=(200, 30, 30), outline=BLACK)
    side = "L" if (row, "L") not in track.areas_by_row else "R"
    draw_text(d, lay.beside(row, side, 46, 0.05), "START / ZIEL", font(13, bold=True), WHITE,
              stroke=BLACK, stroke_width=3)


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
    """The picture as a Pillow image (RGB)."""
    clockwise = view["direction"] == "clockwise"
    track = find_track(view["track"])
    lay = layout_for(track)
    with _LOCK:
        img = _base(view["track"], clockwise, len(view["seats"])).copy()
    d = ImageDraw.Draw(img)
    seats = view["seats"]
    mover = view.get("to_act")
    last = view.get("last_move")
    if last and last.get("path"):
        pts = [place_point(lay, track, clockwise, last["from"])[0]]
        pts += [place_point(lay, track, clockwise, p)[0] for p in last["path"]]
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
    _draw_panel(d, lay.width, img.height, view, lang)
    return img


def _status(view: dict[str, Any], lang: str) -> str:
    seats = view["seats"]
    if view.get("winner") is not None:
        return say("p_wins", lang, name=seats[view["winner"]]["name"])
    who = seats[view["turn"]]["name"]
    if view["phase"] == "move":
        msg = "p_drive_boost" if view.get("boost") == "pending" else "p_drive"
        return say(msg, lang, name=who, points=view["points"])
    if seats[view["turn"]]["repair"] == 1:
        return say("p_repair", lang, name=who)
    return say("p_roll", lang, name=who)


def _draw_panel(d: ImageDraw.ImageDraw, x0: float, height: int, view: dict[str, Any], lang: str) -> None:
    """The strip: the race and whose turn it is, the turn-order and parking bars, a line per car."""
    x = x0 + 20
    w = PANEL_W - 40
    y = _draw_heading(d, x, w, view, lang)
    y = _draw_bars(d, x, w, y, view, lang)
    seats = view["seats"]
    row_h = min(96.0, (height - y - 20) / max(1, len(seats)))
    for rank, s in enumerate(view["standings"]):  # in the standings' order
        _draw_car_line(d, x, w, y + rank * row_h, row_h, view, s, lang)


def _draw_heading(d: ImageDraw.ImageDraw, x: float, w: float, view: dict[str, Any], lang: str) -> float:
    """Title, round and laps, the car to act with what it must do, and the last die; returns the next y."""
    seats = view["seats"]
    y = 18.0
    draw_text(d, (x, y), "SCHROTTPLATZ RALLY", font(22, bold=True), PANEL_TEXT, anchor="lt")
    y += 32
    header = say("p_header", lang, round=view["round"], laps=view["laps"], count=view["laps"],
                 direction=view["direction"])
    draw_text(d, (x, y), header, font(14), PANEL_MUTED, anchor="lt")
    y += 28
    actor = view["winner"] if view.get("winner") is not None else view["turn"]
    flat_car(d, (x + 14, y + 14), colour_of(seats[actor]["colour"]), actor + 1, 14)
    status = _status(view, lang)
    size = 19
    while size > 11 and d.textlength(status, font=font(size, bold=True)) > w - 90:
        size -= 1
    draw_text(d, (x + 36, y + 14), status, font(size, bold=True), PANEL_TEXT, anchor="lm")
    draw_die(d, (x + w - 22, y + 14), 40, view.get("roll"))
    return y + 50


def _draw_bars(d: ImageDraw.ImageDraw, x: float, w: float, y: float, view: dict[str, Any], lang: str) -> float:
    """The turn-order bar (cars on the track) and the parking bar (parked cars, S9); returns the next y."""
    seats = view["seats"]
    draw_text(d, (x, y), say("p_order", lang), font(12, bold=True), PANEL_MUTED, anchor="lt")
    draw_text(d, (x + w * 0.62, y), say("p_parking", lang), font(12, bold=True), PANEL_MUTED, anchor="lt")
    y += 18
    bar_h = 38
    d.rounded_rectangle([x, y, x + w * 0.6 - 6, y + bar_h], radius=8, fill=(226, 220, 206))
    d.rounded_rectangle([x + w * 0.62, y, x + w, y + bar_h], radius=8, fill=(214, 206, 190))
    driving = [s for s in view["order"] if seats[s]["parked"] is None]
    parked = [s for s in view["order"] if seats[s]["parked"] is not None]
    for left, width, cars in ((x, w * 0.6, driving), (x + w * 0.62, w * 0.38, parked)):
        slot = min(34.0, (width - 12) / max(1, len(cars)))
        for i, s in enumerate(cars):
            c = (left + 6 + slot * (i + 0.5), y + bar_h / 2)
            flat_car(d, c, colour_of(seats[s]["colour"]), s + 1, 14)
            if s == view.get("to_act"):
                d.line([(c[0] - 12, y + bar_h - 3), (c[0] + 12, y + bar_h - 3)], fill=PANEL_TEXT, width=3)
    return y + bar_h + 16


def _draw_car_line(d: ImageDraw.ImageDraw, x: float, w: float, top: float, row_h: float, view: dict[str, Any],
                   s: int, lang: str) -> None:
    """One car: its number and player, lap and stops; its lever, working gears and fuel; where it is."""
    seat = view["seats"][s]
    if s == view.get("to_act"):
        d.rounded_rectangle([x - 8, top - 4, x + w + 8, top + row_h - 8], radius=10,
                            fill=lighter(colour_of(seat["colour"]), 0.8))
    flat_car(d, (x + 14, top + 16), colour_of(seat["colour"]), s + 1, 14)
    name = seat["name"]
    while len(name) > 3 and d.textlength(name, font=font(16, bold=True)) > w * 0.5:
        name = name[:-2] + "…" if not name.endswith("…") else name[:-3] + "…"
    draw_text(d, (x + 36, top + 16), name, font(16, bold=True), PANEL_TEXT, anchor="lm")
    lap = max(0, min(seat["laps_done"], view["laps"]))
    info = say("p_lap", lang, lap=lap, laps=view["laps"], stops=seat["stops"])
    draw_text(d, (x + w, top + 16), info, font(13), PANEL_TEXT, anchor="rm")
    line = top + 40
    _draw_car_gauges(d, x, line, seat)
    notes = [say("p_at", lang, place=seat["at"])]
    if seat["repair"]:
        notes.append(say("p_repair_note", lang))
    elif seat["restart"]:
        notes.append(say("p_green", lang))
    if seat["parked"] is not None:
        notes.append(say("p_parked", lang))
    draw_text(d, (x + 8, line + 24), " · ".join(notes), font(12), PANEL_MUTED, anchor="lm")


def _draw_car_gauges(d: ImageDraw.ImageDraw, x: float, line: float, seat: dict[str, Any]) -> None:
    """A car's lever (its range lit), its six gears (working ones in their range's colour) and its fuel."""
    for i, r in enumerate(("green", "yellow", "red")):
        cx = x + 8 + i * 18
        fill = LEVER[r] if seat["lever"] == r else lighter(LEVER[r], 0.65)
        d.rounded_rectangle([cx - 7, line - 8, cx + 7, line + 8], radius=3, fill=fill,
                            outline=PANEL_TEXT if seat["lever"] == r else None, width=2)
    gx = x + 70
    for g in range(1, 7):
        works = g in seat["working"]
        cx = gx + (g - 1) * 26
        rng = ("green", "green", "yellow", "yellow", "red", "red")[g - 1]
        d.rounded_rectangle([cx - 11, line - 10, cx + 11, line + 10], radius=4,
                            fill=LEVER[rng] if works else (214, 208, 196), outline=PANEL_TEXT, width=1)
        draw_text(d, (cx, line), str(g), font(12, bold=True), PANEL_TEXT if works else PANEL_MUTED)
    fx = gx + 6 * 26 + 8
    for k in range(seat["fuel"]):
        cx = fx + k * 16
        draw_polygon(d, [(cx - 5, line - 5), (cx - 2, line - 9), (cx + 6, line - 9), (cx + 6, line + 9),
                         (cx - 5, line + 9)], BLACK)


picture = rally_png
