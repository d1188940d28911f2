"""The look of a Junkyard Races board: colours, ground textures and the symbols drawn on cells.

Every routine draws at a given centre and cell size, so the board, its legend and later layers (kart
cards, highlights) draw the same spanner, bottle cap or arrow.
"""

from __future__ import annotations

import math
import random
import zlib
from collections.abc import Callable, Iterable

from PIL import Image, ImageDraw

from render.common import (
    Colour,
    Point,
    angle_of,
    clip_polygon,
    darker,
    draw_arrow,
    draw_polygon,
    draw_text,
    font,
    lighter,
    midpoint,
    mix,
    place,
    polar,
    regular_polygon,
    star_polygon,
    thick_line,
)
from render.races.geometry import facing_angle
from rules.hexgrid import SQRT3, Facing
from rules.races.track import PitColour, Terrain

# Colours ---------------------------------------------------------------------------------------

FRAME = (30, 28, 26)
PANEL = (44, 41, 38)
PANEL_LINE = (86, 80, 72)
TEXT = (238, 233, 222)
TEXT_DIM = (176, 168, 154)

JUNK = (54, 49, 44)
JUNK_GRID = (68, 62, 56)
JUNK_ITEMS: tuple[Colour, ...] = (
    (112, 62, 36),  # rust
    (128, 76, 42),
    (84, 80, 76),  # steel
    (100, 96, 90),
    (70, 74, 62),  # old paint
    (92, 70, 52),
    (130, 108, 62),  # faded yellow
)

TARMAC = (116, 118, 122)
GRASS = (86, 158, 62)
MUD = (124, 86, 50)
STREAM = (44, 118, 190)
STREAM_LIGHT = (118, 182, 234)
STREAM_MID = (82, 152, 214)
WOOD = (176, 124, 66)
WOOD_DARK = (104, 66, 32)
STONE = (196, 188, 170)
STONE_DARK = (88, 82, 72)
PIT_COLOURS: dict[PitColour, Colour] = {PitColour.GREEN: (40, 162, 78), PitColour.RED: (206, 52, 46)}
WHITE = (250, 250, 246)
INK = (24, 22, 20)
RED_ARROW = (222, 36, 36)
BLUE_ARROW = (36, 104, 232)
TILE = (234, 222, 192)
CAP_RIM = (222, 176, 44)
CAP_FACE = (250, 242, 214)
CAP_TEXT = (150, 28, 20)
JUMP = (255, 214, 64)

TERRAIN_COLOURS: dict[Terrain, Colour] = {
    Terrain.TARMAC: TARMAC,
    Terrain.GRASS: GRASS,
    Terrain.MUD: MUD,
    Terrain.STREAM: STREAM,
    Terrain.BRIDGE: WOOD,
}

ARROW_WIDTH = 0.72  # bridge arrow triangles: width as a share of their length


# Small drawing routines (shared by the board and the legend) ------------------------------------


def hex_points(centre: Point, size: float, scale: float = 1.0) -> list[Point]:
    return regular_polygon(centre, size * scale, 6)


def polygon_mask(size: tuple[int, int], polygons: Iterable[list[Point]]) -> Image.Image:
    m = Image.new("L", size, 0)
    d = ImageDraw.Draw(m)
    for pts in polygons:
        d.polygon(pts, fill=255)
    return m


def seed_of(*parts: object) -> int:
    return zlib.crc32("|".join(map(str, parts)).encode())


def _junk_texture(w: int, h: int, size: float, rng: random.Random) -> Image.Image:
    """Dark scrapyard: a dim ground strewn with rusty panels, old tyres and bits of metal.

    Kept calm on purpose (few, large, flat pieces in a handful of shades): the junk covers half the
    picture, and every edge in it costs PNG bytes in every move's picture.
    """
    img = Image.new("RGB", (w, h), JUNK)
    d = ImageDraw.Draw(img)
    count = int(w * h / (size * size) * 0.7) + 4
    shades = [mix(c, JUNK, t) for c in JUNK_ITEMS for t in (0.3, 0.5)]
    big = size * 1.5
    for _ in range(count):
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        kind = rng.random()
        colour = rng.choice(shades)
        if kind < 0.5:  # a bent panel
            pw, ph = rng.uniform(0.25, 0.7) * big, rng.uniform(0.12, 0.35) * big
            shape = [(-pw, -ph), (pw, -ph * rng.uniform(0.6, 1.2)), (pw * rng.uniform(0.7, 1.1), ph), (-pw, ph)]
            d.polygon(place(shape, (x, y), rng.uniform(0, 180)), fill=colour)
        elif kind < 0.7:  # an old tyre
            r = rng.uniform(0.14, 0.26) * size
            d.ellipse([x - r, y - r, x + r, y + r], fill=(32, 30, 29))
            r2 = r * 0.45
            d.ellipse([x - r2, y - r2, x + r2, y + r2], fill=mix(JUNK, (80, 78, 74), 0.5))
        elif kind < 0.9:  # a shard of scrap
            r = rng.uniform(0.12, 0.3) * big
            pts = [polar((x, y), a, r * rng.uniform(0.5, 1.0)) for a in sorted(rng.uniform(0, 360) for _ in range(4))]
            d.polygon(pts, fill=colour)
        else:  # a pipe
            length = rng.uniform(0.4, 0.9) * big
            a = rng.uniform(0, 180)
            p, q = polar((x, y), a, length / 2), polar((x, y), a + 180, length / 2)
            d.line([p, q], fill=darker(colour, 0.1), width=max(2, round(size * 0.09)))
    return img


def _grass_texture(w: int, h: int, size: float, rng: random.Random) -> Image.Image:
    img = Image.new("RGB", (w, h), GRASS)
    d = ImageDraw.Draw(img)
    count = int(w * h / (size * size) * 14) + 4
    for _ in range(count):
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        length = rng.uniform(0.1, 0.2) * size
        a = -90 + rng.uniform(-25, 25)
        colour = darker(GRASS, rng.uniform(0.15, 0.35)) if rng.random() < 0.6 else lighter(GRASS, rng.uniform(0.1, 0.3))
        d.line([(x, y), polar((x, y), a, length)], fill=colour, width=max(1, round(size * 0.05)))
    return img


def _mud_texture(w: int, h: int, size: float, rng: random.Random) -> Image.Image:
    img = Image.new("RGB", (w, h), MUD)
    d = ImageDraw.Draw(img)
    count = int(w * h / (size * size) * 5) + 4
    for _ in range(count):
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        rx, ry = rng.uniform(0.08, 0.24) * size, rng.uniform(0.05, 0.13) * size
        dark = rng.random() < 0.65
        colour = darker(MUD, rng.uniform(0.12, 0.3)) if dark else lighter(MUD, rng.uniform(0.08, 0.2))
        d.ellipse([x - rx, y - ry, x + rx, y + ry], fill=colour)
    return img


def _stream_texture(w: int, h: int, size: float, rng: random.Random) -> Image.Image:
    """Water: rows of short wavy ripples in two lighter blues."""
    img = Image.new("RGB", (w, h), STREAM)
    d = ImageDraw.Draw(img)
    spacing = size * 0.36
    wave = size * 0.75
    amp = size * 0.07
    lw = max(1, round(size * 0.06))
    row = 0
    y = rng.uniform(0, spacing)
    while y < h + spacing:
        x = -rng.uniform(0, wave * 2)
        colour = STREAM_LIGHT if row % 2 == 0 else STREAM_MID
        while x < w:
            length = wave * rng.uniform(0.9, 1.8)
            pts = []
            steps = 10
            for i in range(steps + 1):
                px = x + length * i / steps
                pts.append((px, y + amp * math.sin((px / wave) * 2 * math.pi)))
            d.line(pts, fill=colour, width=lw)
            x += length + wave * rng.uniform(0.4, 1.0)
        y += spacing
        row += 1
    return img


def _tarmac_texture(w: int, h: int, size: float, rng: random.Random) -> Image.Image:
    img = Image.new("RGB", (w, h), TARMAC)
    d = ImageDraw.Draw(img)
    count = int(w * h / (size * size) * 4) + 4  # sparse: lone speckles cost PNG bytes
    for _ in range(count):
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        colour = darker(TARMAC, 0.12) if rng.random() < 0.5 else lighter(TARMAC, 0.08)
        d.point((x, y), fill=colour)
    return img


TEXTURES: dict[str, Callable[[int, int, float, random.Random], Image.Image]] = {
    "junk": _junk_texture,
    Terrain.GRASS.value: _grass_texture,
    Terrain.MUD.value: _mud_texture,
    Terrain.STREAM.value: _stream_texture,
    Terrain.TARMAC.value: _tarmac_texture,
}


def paint_texture(img: Image.Image, kind: str, polygons: list[list[Point]], size: float, seed: int) -> None:
    """Fill ``polygons`` with a texture (drawn only over their bounding box)."""
    if not polygons:
        return
    xs = [x for pts in polygons for x, _ in pts]
    ys = [y for pts in polygons for _, y in pts]
    x0, y0 = max(0, int(min(xs)) - 1), max(0, int(min(ys)) - 1)
    x1, y1 = min(img.width, int(max(xs)) + 2), min(img.height, int(max(ys)) + 2)
    if x1 <= x0 or y1 <= y0:
        return
    tex = TEXTURES[kind](x1 - x0, y1 - y0, size, random.Random(seed))
    local = [[(x - x0, y - y0) for x, y in pts] for pts in polygons]
    img.paste(tex, (x0, y0), polygon_mask((x1 - x0, y1 - y0), local))


def draw_planks(draw: ImageDraw.ImageDraw, centre: Point, size: float, angle: float, seed: int = 0) -> None:
    """A wooden bridge deck in one hex: planks across the way of travel (``angle``) and two rails."""
    rng = random.Random(seed)
    hexagon = hex_points(centre, size, 0.98)
    draw_polygon(draw, hexagon, WOOD_DARK)
    pitch = size * 0.27
    span = size * 1.2
    k = -5
    while k <= 5:
        off = k * pitch
        strip = place([(off - pitch * 0.42, -span), (off + pitch * 0.42, -span), (off + pitch * 0.42, span),
                       (off - pitch * 0.42, span)], centre, angle)
        part = clip_polygon(strip, hexagon)
        if len(part) >= 3:
            shade = mix(WOOD, (255, 230, 190), rng.uniform(0.0, 0.18)) if rng.random() < 0.5 else \
                darker(WOOD, rng.uniform(0.0, 0.12))
            draw_polygon(draw, part, shade)
        k += 1
    # rails along both sides of the deck
    for side in (-1, 1):
        rail = place([(-span, side * size * 0.62 - size * 0.07), (span, side * size * 0.62 - size * 0.07),
                      (span, side * size * 0.62 + size * 0.07), (-span, side * size * 0.62 + size * 0.07)],
                     centre, angle)
        part = clip_polygon(rail, hexagon)
        if len(part) >= 3:
            draw_polygon(draw, part, WOOD_DARK)


def draw_spanner(draw: ImageDraw.ImageDraw, centre: Point, size: float, colour: Colour, background: Colour) -> None:
    """The Pit Stop spanner: an open-ended jaw at the top right, a ring at the bottom left."""
    length = size * 1.05
    angle = -45.0
    handle = place([(-0.34, -0.075), (0.26, -0.075), (0.26, 0.075), (-0.34, 0.075)], centre, angle, length)
    draw_polygon(draw, handle, colour)
    head = polar(centre, angle, 0.3 * length)
    r = 0.17 * length
    draw.ellipse([head[0] - r, head[1] - r, head[0] + r, head[1] + r], fill=colour)
    jaw = place([(0.0, -0.065), (0.3, -0.085), (0.3, 0.085), (0.0, 0.065)], head, angle, length)
    draw_polygon(draw, jaw, background)
    tail = polar(centre, angle + 180, 0.36 * length)
    r = 0.13 * length
    draw.ellipse([tail[0] - r, tail[1] - r, tail[0] + r, tail[1] + r], fill=colour)
    r2 = 0.06 * length
    draw.ellipse([tail[0] - r2, tail[1] - r2, tail[0] + r2, tail[1] + r2], fill=background)


def draw_delivery(draw: ImageDraw.ImageDraw, centre: Point, size: float, number: int) -> None:
    """A Delivery Point: its number on a square badge that looks like a junk tile."""
    w, h = size * 0.82, size * 0.66
    cx, cy = centre
    shadow = max(1, round(size * 0.06))
    radius = max(2, round(size * 0.12))
    draw.rounded_rectangle([cx - w / 2 + shadow, cy - h / 2 + shadow, cx + w / 2 + shadow, cy + h / 2 + shadow],
                           radius=radius, fill=(20, 18, 16))
    draw.rounded_rectangle([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], radius=radius, fill=TILE,
                           outline=(70, 58, 44), width=max(1, round(size * 0.05)))
    draw_text(draw, (cx, cy + size * 0.01), str(number), font(round(size * 0.46), bold=True), INK)


def draw_bottle_cap(draw: ImageDraw.ImageDraw, centre: Point, size: float, value: int) -> None:
    """A Bottle Top Collection Point: a crimped crown cap showing how many bottle tops it gives."""
    cx, cy = centre
    outer, inner = size * 0.42, size * 0.36
    draw_polygon(draw, star_polygon((cx + size * 0.04, cy + size * 0.05), outer, inner, 16), (30, 24, 10))
    draw_polygon(draw, star_polygon(centre, outer, inner, 16), CAP_RIM, (120, 86, 10), 1)
    r = size * 0.28
    rim = max(1, round(size * 0.04))
    draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=CAP_FACE, outline=(150, 112, 24), width=rim)
    draw_text(draw, (cx, cy + size * 0.01), str(value), font(round(size * 0.4), bold=True), CAP_TEXT)


def draw_facing_arrow(draw: ImageDraw.ImageDraw, centre: Point, size: float, angle: float, fill: Colour,
                      rim: Colour) -> None:
    """A big arrow through a cell (start cells: white; Landing Points: blue)."""
    tail = polar(centre, angle + 180, size * 0.55)
    head = polar(centre, angle, size * 0.66)
    top = centre[1] - size * 0.42  # keep clear of the cell label at the top of the cell
    tail = (tail[0], max(tail[1], top))
    head = (head[0], max(head[1], top))
    draw_arrow(draw, tail, head, fill, shaft_width=size * 0.2, outline=rim, outline_width=max(1, round(size * 0.05)),
               head_width=size * 0.58, head_length=size * 0.42)


def draw_checker_strip(draw: ImageDraw.ImageDraw, a: Point, b: Point, width: float, squares: int = 4) -> None:
    """A black-and-white chequered band, two squares deep, centred on the segment ``a``–``b``."""
    ang = angle_of(a, b)
    length = math.dist(a, b)
    cell = length / squares
    half = width / 2
    draw_polygon(draw, place([(0, -half), (length, -half), (length, half), (0, half)], a, ang), INK)
    for i in range(squares):
        for j in range(2):
            colour = WHITE if (i + j) % 2 == 0 else INK
            y0 = -half + j * half
            pts = place([(i * cell, y0), ((i + 1) * cell, y0), ((i + 1) * cell, y0 + half), (i * cell, y0 + half)],
                        a, ang)
            draw_polygon(draw, pts, colour)


def draw_wall(draw: ImageDraw.ImageDraw, a: Point, b: Point, width: float, layer: int) -> None:
    """A stone wall along one edge, in two passes so joined edges look like one wall:
    ``layer`` 0 draws the dark outline, 1 the stone and its block joints."""
    if layer == 0:
        thick_line(draw, a, b, width + max(2, width * 0.35), STONE_DARK)
        return
    thick_line(draw, a, b, width, STONE)
    ang = angle_of(a, b)
    for t in (0.5,):
        m = midpoint(a, b, t)
        p, q = polar(m, ang + 90, width / 2), polar(m, ang - 90, width / 2)
        draw.line([p, q], fill=mix(STONE, STONE_DARK, 0.55), width=max(1, round(width * 0.16)))


def draw_broken_end(draw: ImageDraw.ImageDraw, a: Point, b: Point, inward: float, depth: float, seed: int) -> None:
    """Splintered planks along the edge ``a``–``b`` of a bridge end: water shows through a jagged cut."""
    rng = random.Random(seed)
    teeth = 5
    pts: list[Point] = [a]
    for i in range(1, teeth * 2):
        base = midpoint(a, b, (i + rng.uniform(-0.3, 0.3)) / (teeth * 2))
        d = depth * (rng.uniform(0.6, 1.0) if i % 2 else rng.uniform(0.05, 0.3))
        pts.append(polar(base, inward, d))
    pts.append(b)
    draw_polygon(draw, pts, STREAM)
    draw.line(pts[1:-1], fill=WOOD_DARK, width=max(1, round(depth * 0.18)))


def draw_crossing_badge(draw: ImageDraw.ImageDraw, centre: Point, size: float, cid: str) -> None:
    r = size * 0.24
    cx, cy = centre
    draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=BLUE_ARROW, outline=WHITE, width=max(1, round(size * 0.05)))
    draw_text(draw, (cx, cy + size * 0.01), cid, font(round(size * 0.3), bold=True), WHITE)


def draw_compass(draw: ImageDraw.ImageDraw, centre: Point, radius: float) -> None:
    """The six facings of a flat-top hex (ruling R1): an arrow and a name toward each side."""
    draw_polygon(draw, hex_points(centre, radius), lighter(PANEL, 0.08), PANEL_LINE, 2)
    fnt = font(max(10, round(radius * 0.36)), bold=True)
    for f in Facing:
        ang = facing_angle(f)
        inner = radius * SQRT3 / 2
        draw_arrow(draw, polar(centre, ang, radius * 0.16), polar(centre, ang, inner * 0.92), TEXT,
                   shaft_width=max(2, radius * 0.07), head_width=radius * 0.26, head_length=radius * 0.24)
        draw_text(draw, polar(centre, ang, inner + radius * 0.36), f.name, fnt, TEXT)
