"""The symbols of the Schrottplatz Rally pictures: colours, service badges, the die, cars, road and stop signs,
parking spots and the pit lane's hatching, drawn as shapes (the fonts have no such glyphs). The board, its
legend, the close-up and the car board all draw with these, so a symbol looks the same wherever it is
explained."""

from __future__ import annotations

import threading
from collections.abc import Sequence

from PIL import ImageDraw

from render.common import Colour, Point, draw_polygon, draw_text, font, mix, place, regular_polygon
from render.rally.marks import spot_words

CAR_COLOURS: dict[str, Colour] = {
    "red": (215, 37, 0),
    "blue": (38, 123, 255),
    "orange": (244, 168, 42),
    "purple": (110, 61, 122),
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


#: the arrow painted on the road every eight rows, pointing the way the race is driven
DRIVE_ARROW: list[Point] = [(-9, -3), (2, -3), (2, -8), (11, 0), (2, 8), (2, 3), (-9, 3)]
DRIVE_ARROW_COLOUR: Colour = mix(ASPHALT, WHITE, 0.45)
ROW_TEXT: Colour = (60, 50, 36)
AREA_TEXT: Colour = (50, 40, 28)
SPOT_OPEN_TEXT: Colour = (30, 60, 150)
SPOT_CLOSED_TEXT: Colour = (90, 86, 80)
HATCH_LINE: Colour = (140, 136, 128)


def draw_road_sign(d: ImageDraw.ImageDraw, c: Point, r: float = 9) -> None:
    """A road sign: a red-rimmed triangle with an exclamation mark."""
    cx, cy = c
    draw_polygon(d, regular_polygon((cx, cy + 1), r, 3, -90), WHITE, STOP_RED, 3)
    draw_text(d, (cx, cy + 2), "!", font(round(r * 1.1), bold=True), BLACK)


def draw_stop(d: ImageDraw.ImageDraw, c: Point, r: float = 15) -> None:
    """The stop sign at the pit lane's exit: a red octagon with a white rim."""
    draw_polygon(d, regular_polygon(c, r, 8, 22.5), WHITE)
    draw_polygon(d, regular_polygon(c, r - 2, 8, 22.5), STOP_RED)
    draw_text(d, c, "STOP", font(max(6, round(r * 0.53)), bold=True), WHITE)


def draw_spot(d: ImageDraw.ImageDraw, box: Sequence[Point], least: int, open_: bool) -> None:
    """A parking spot: concrete with "P" and the least number of players it is open for; hatched grey when
    it is closed at this number of players."""
    draw_polygon(d, box, CONCRETE if open_ else CLOSED, CONCRETE_EDGE, 2)
    if not open_:
        a, b, c_, e = box
        for t in (0.25, 0.5, 0.75):
            d.line([(a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t),
                    (e[0] + (c_[0] - e[0]) * (t - 0.25), e[1] + (c_[1] - e[1]) * (t - 0.25))], fill=HATCH_LINE)
    words = spot_words(tuple(box), least)
    colour = SPOT_OPEN_TEXT if open_ else SPOT_CLOSED_TEXT
    for line, at in zip(words.lines, words.centres, strict=True):
        draw_text(d, at, line, font(words.size, bold=True), colour)


def draw_hatch(d: ImageDraw.ImageDraw, quad: Sequence[Point]) -> None:
    """The pit lane's waiting cell: yellow with black stripes across, in the band ``quad`` (back left, back
    right, front right, front left)."""
    draw_polygon(d, quad, HATCH_A)
    a0, b0, b1, a1 = quad
    for k in range(5):
        t0 = k / 5
        t1 = min(1.0, t0 + 0.14)
        p = (a0[0] + (a1[0] - a0[0]) * t0, a0[1] + (a1[1] - a0[1]) * t0)
        q = (b0[0] + (b1[0] - b0[0]) * t1, b0[1] + (b1[1] - b0[1]) * t1)
        d.line([p, q], fill=HATCH_B, width=3)
