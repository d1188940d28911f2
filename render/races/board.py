"""The static board picture of a Junkyard Races track.

Everything that never changes during a race is drawn here once per track and cell size and cached:
terrain, junk, walls, the stream, bridges and their arrows, collapsed-bridge gaps, the Checkered Line,
start and Landing Point arrows, Pit Stops, Delivery Point numbers, Bottle Top Collection Points, cell
labels, the coordinates round the edge, the title and the legend. Live layers (karts, tiles,
highlights, a status panel) are drawn on a copy using :class:`BoardGeometry` for pixel positions.
"""

from __future__ import annotations

import math
import random
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from PIL import Image, ImageDraw

from render.common import (
    Colour,
    Font,
    Point,
    angle_of,
    arrow_polygon,
    build_palette,
    clip_polygon,
    darker,
    dashed_line,
    draw_arrow,
    draw_polygon,
    draw_text,
    draw_triangle,
    encode_png,
    font,
    lighter,
    midpoint,
    mix,
    place,
    polar,
    regular_polygon,
    star_polygon,
    text_box,
    thick_line,
)
from rules.hexgrid import SQRT3, Facing, Hex, column_letters, pixel_to_hex
from rules.races.track import PitColour, Terrain, Track

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
MIN_WIDTH = 1400
AUTO_BOARD_WIDTH = 1250  # pixels the hex map aims for when no cell size is given
MIN_CELL, MAX_CELL = 14, 48


def facing_angle(facing: Facing) -> float:
    """Pixel direction of a facing in degrees (clockwise from east): N is -90, SE is 30."""
    return -90.0 + 60.0 * int(facing)


# Geometry --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BoardGeometry:
    """Where everything sits on the picture: the map of hexes, the side panel and its free area.

    ``cell_size`` is a hex's circumradius in pixels. Boxes are ``(x0, y0, x1, y1)``.
    """

    columns: int
    rows: int
    cell_size: int
    origin: Point  # pixel centre of cell A1
    width: int
    height: int
    title_box: tuple[int, int, int, int]
    board_box: tuple[int, int, int, int]  # the hex map (without the coordinate gutters)
    panel_box: tuple[int, int, int, int]  # the side panel (legend at the top)
    status_box: tuple[int, int, int, int]  # free part of the panel under the legend, for live layers

    def centre(self, cell: Hex) -> Point:
        return cell.centre(self.cell_size, self.origin)

    def corners(self, cell: Hex, scale: float = 1.0) -> list[Point]:
        """The six corners (east first, clockwise); ``scale`` < 1 shrinks the hex about its centre."""
        if scale == 1.0:
            return cell.corners(self.cell_size, self.origin)
        return cell.corners(self.cell_size * scale, self._scaled_origin(cell, scale))

    def _scaled_origin(self, cell: Hex, scale: float) -> Point:
        cx, cy = self.centre(cell)
        sx, sy = cell.centre(self.cell_size * scale)
        return cx - sx, cy - sy

    def edge(self, cell: Hex, facing: Facing) -> tuple[Point, Point]:
        return cell.edge(facing, self.cell_size, self.origin)

    def edge_between(self, a: Hex, b: Hex) -> tuple[Point, Point]:
        facing = a.facing_to(b)
        if facing is None:
            raise ValueError(f"{a} and {b} are not neighbours")
        return self.edge(a, facing)

    def cell_at(self, x: float, y: float) -> Hex | None:
        """The cell under a pixel, or None outside the map."""
        cell = pixel_to_hex(x, y, self.cell_size, self.origin)
        return cell if self.contains(cell) else None

    def contains(self, cell: Hex) -> bool:
        return 0 <= cell.col < self.columns and 0 <= cell.row < self.rows

    def cells(self) -> Iterator[Hex]:
        """Every cell of the map, column by column."""
        for col in range(self.columns):
            for row in range(self.rows):
                yield Hex.from_offset(col, row)


def default_cell_size(columns: int) -> int:
    """A cell size that gives the map about ``AUTO_BOARD_WIDTH`` pixels."""
    return max(MIN_CELL, min(MAX_CELL, round(AUTO_BOARD_WIDTH / (1.5 * columns + 0.5))))




def geometry_for(columns: int, rows: int, cell_size: int | None = None) -> BoardGeometry:
    """Lay out a picture for a map of ``columns`` × ``rows`` cells."""
    size = int(cell_size) if cell_size else default_cell_size(columns)
    if size < MIN_CELL // 2:
        raise ValueError(f"cell size {size} is too small to draw")
    margin = max(12, round(size * 0.5))
    gutter = max(18, round(size * 0.85))
    title_h = max(52, round(size * 1.9))
    panel_w = max(340, min(480, round(size * 12)))
    board_w = math.ceil(size * (1.5 * (columns - 1) + 2))
    board_h = math.ceil(SQRT3 * size * (rows + (0.5 if columns > 1 else 0)))
    area_w = margin + gutter + board_w + gutter + margin
    width = max(MIN_WIDTH, area_w + panel_w + margin)
    extra = width - (area_w + panel_w + margin)
    legend_h = _legend_layout(size, panel_w).height
    height = max(title_h + margin + gutter + board_h + gutter + margin, title_h + legend_h + 2 * margin + 120)
    bx0 = margin + gutter + extra // 2
    by0 = title_h + margin + gutter
    board_box = (bx0, by0, bx0 + board_w, by0 + board_h)
    px0 = width - margin - panel_w
    panel_box = (px0, title_h, width - margin, height - margin)
    status_top = title_h + legend_h + margin
    status_box = (px0, status_top, width - margin, height - margin)
    origin = (bx0 + size, by0 + SQRT3 / 2 * size)
    return BoardGeometry(
        columns=columns,
        rows=rows,
        cell_size=size,
        origin=origin,
        width=width,
        height=height,
        title_box=(0, 0, width, title_h),
        board_box=board_box,
        panel_box=panel_box,
        status_box=status_box,
    )


# Small drawing routines (shared by the board and the legend) ------------------------------------


def _hex_points(centre: Point, size: float, scale: float = 1.0) -> list[Point]:
    return regular_polygon(centre, size * scale, 6)


def _mask(size: tuple[int, int], polygons: Iterable[list[Point]]) -> Image.Image:
    m = Image.new("L", size, 0)
    d = ImageDraw.Draw(m)
    for pts in polygons:
        d.polygon(pts, fill=255)
    return m


def _seed(*parts: object) -> int:
    return zlib.crc32("|".join(map(str, parts)).encode())


def _junk_texture(w: int, h: int, size: float, rng: random.Random) -> Image.Image:
    """Dark scrapyard: a dim ground strewn with rusty panels, old tyres and bits of metal."""
    img = Image.new("RGB", (w, h), JUNK)
    d = ImageDraw.Draw(img)
    count = int(w * h / (size * size) * 2.2) + 4
    for _ in range(count):
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        kind = rng.random()
        colour = rng.choice(JUNK_ITEMS)
        colour = mix(colour, JUNK, rng.uniform(0.25, 0.55))
        if kind < 0.45:  # a bent panel
            pw, ph = rng.uniform(0.25, 0.7) * size, rng.uniform(0.12, 0.35) * size
            shape = [(-pw, -ph), (pw, -ph * rng.uniform(0.6, 1.2)), (pw * rng.uniform(0.7, 1.1), ph), (-pw, ph)]
            pts = place(shape, (x, y), rng.uniform(0, 180))
            d.polygon(pts, fill=colour, outline=darker(colour, 0.35))
        elif kind < 0.65:  # an old tyre
            r = rng.uniform(0.14, 0.26) * size
            d.ellipse([x - r, y - r, x + r, y + r], fill=(32, 30, 29), outline=(20, 19, 18))
            r2 = r * 0.45
            d.ellipse([x - r2, y - r2, x + r2, y + r2], fill=mix(JUNK, (80, 78, 74), 0.5))
        elif kind < 0.85:  # a shard of scrap
            r = rng.uniform(0.12, 0.3) * size
            pts = [polar((x, y), a, r * rng.uniform(0.5, 1.0)) for a in sorted(rng.uniform(0, 360) for _ in range(4))]
            d.polygon(pts, fill=colour, outline=darker(colour, 0.3))
        else:  # a pipe
            length = rng.uniform(0.4, 0.9) * size
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
    count = int(w * h / (size * size) * 10) + 4
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


def _paint_texture(img: Image.Image, kind: str, polygons: list[list[Point]], size: float, seed: int) -> None:
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
    img.paste(tex, (x0, y0), _mask((x1 - x0, y1 - y0), local))


def draw_planks(draw: ImageDraw.ImageDraw, centre: Point, size: float, angle: float, seed: int = 0) -> None:
    """A wooden bridge deck in one hex: planks across the way of travel (``angle``) and two rails."""
    rng = random.Random(seed)
    hexagon = _hex_points(centre, size, 0.98)
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


# The board -------------------------------------------------------------------------------------


@dataclass
class BoardBase:
    """A cached static board: its picture and geometry. Never draw on ``image``: copy it first
    (:func:`board_image` does)."""

    track: Track
    geometry: BoardGeometry
    image: Image.Image
    _png: bytes | None = field(default=None, repr=False)
    _palettes: dict[tuple[Colour, ...], Image.Image] = field(default_factory=dict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def png(self) -> bytes:
        """The board alone as PNG bytes (encoded once)."""
        with self._lock:
            if self._png is None:
                self._png = encode_png(self.image)
            return self._png

    def palette(self, extra: Iterable[Colour] = ()) -> Image.Image:
        """The board's palette plus ``extra`` colours, built once per set of extra colours."""
        key = tuple(dict.fromkeys(tuple(c) for c in extra))
        with self._lock:
            pal = self._palettes.get(key)
            if pal is None:
                pal = self._palettes[key] = build_palette(self.image, key)
            return pal

    def encode(self, frame: Image.Image, extra: Iterable[Colour] = ()) -> bytes:
        """PNG bytes of a frame drawn on a copy of this board, quantized to the board's fixed palette
        (list the colours drawn on top in ``extra``; others map to the nearest board colour)."""
        return encode_png(frame, palette=self.palette(extra))


_CACHE: OrderedDict[tuple[str, int], BoardBase] = OrderedDict()
_CACHE_SIZE = 8  # about 6 MB each at the default size
_CACHE_LOCK = threading.Lock()


def board_base(track: Track, cell_size: int | None = None) -> BoardBase:
    """The cached static board of ``track`` at ``cell_size`` (drawn on first use; shared, read-only)."""
    size = int(cell_size) if cell_size else default_cell_size(track.columns)
    key = (track.name, size)
    with _CACHE_LOCK:
        hit = _CACHE.get(key)
        if hit is not None and (hit.track is track or hit.track == track):
            _CACHE.move_to_end(key)
            return hit
        geo = geometry_for(track.columns, track.rows, size)
        base = BoardBase(track, geo, _draw_board(track, geo))
        _CACHE[key] = base
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
        return base


def board_image(track: Track, cell_size: int | None = None) -> Image.Image:
    """A fresh copy of the static board, ready to draw karts and tiles on."""
    return board_base(track, cell_size).image.copy()


def track_png(track: Track, cell_size: int | None = None) -> bytes:
    """The static board as PNG bytes (encoded once per track and size)."""
    return board_base(track, cell_size).png()


def _bridge_angle(track: Track, geo: BoardGeometry, cell: Hex) -> float:
    """The way of travel over a bridge cell: from the middle of its entries to the middle of its exits."""
    b = track.bridges[cell]
    c = geo.centre(cell)

    def mean(cells: Iterable[Hex]) -> Point:
        pts = [geo.centre(x) for x in cells] or [c]
        return sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)

    ein, eout = mean(b.entries), mean(b.exits)
    if math.dist(ein, eout) < 1e-6:
        return angle_of(c, eout)
    return angle_of(ein, eout)


def _draw_board(track: Track, geo: BoardGeometry) -> Image.Image:
    size = geo.cell_size
    img = Image.new("RGB", (geo.width, geo.height), FRAME)
    draw = ImageDraw.Draw(img)
    seed = _seed(track.name)

    # The junkyard fills the map area; track and stream cells are painted over it.
    bx0, by0, bx1, by1 = geo.board_box
    pad = round(size * 0.35)
    area = [(bx0 - pad, by0 - pad), (bx1 + pad, by0 - pad), (bx1 + pad, by1 + pad), (bx0 - pad, by1 + pad)]
    _paint_texture(img, "junk", [area], size, seed)
    draw.rectangle([bx0 - pad, by0 - pad, bx1 + pad, by1 + pad], outline=STONE_DARK, width=max(2, size // 10))
    for cell in geo.cells():
        if cell not in track.terrain:
            draw.polygon(geo.corners(cell), outline=JUNK_GRID)

    by_terrain: dict[Terrain, list[list[Point]]] = {}
    for cell, t in track.terrain.items():
        by_terrain.setdefault(t, []).append(geo.corners(cell))
    for t in (Terrain.TARMAC, Terrain.GRASS, Terrain.MUD, Terrain.STREAM):
        _paint_texture(img, t.value, by_terrain.get(t, []), size, _seed(track.name, t.value))

    # Pit Stops: coloured lanes with a spanner in every cell.
    for cell, colour in track.pits.items():
        fill = PIT_COLOURS[colour]
        draw_polygon(draw, geo.corners(cell), fill)
        draw_spanner(draw, geo.centre(cell), size, mix(fill, WHITE, 0.82), fill)

    # Cell outlines on the track and in the water.
    for cell, t in track.terrain.items():
        base = PIT_COLOURS[track.pits[cell]] if cell in track.pits else TERRAIN_COLOURS[t]
        draw.polygon(geo.corners(cell), outline=darker(base, 0.22))

    # Where the water carries a kart changes: a dashed divider in the stream.
    for cell, cid in track.stream_landing.items():
        for f in (Facing.SE, Facing.S, Facing.NE):
            n = cell.neighbour(f)
            other = track.stream_landing.get(n)
            if other is not None and other != cid:
                a, b = geo.edge(cell, f)
                dashed_line(draw, a, b, WHITE, max(2, size * 0.08), size * 0.16, size * 0.12)

    # Bridges: planks across the way of travel.
    for cell in track.bridges:
        draw_planks(draw, geo.centre(cell), size, _bridge_angle(track, geo, cell), _seed(track.name, cell))

    # Collapsed bridges: broken ends, bits of the old bridge in the water, and the jump line.
    for gap in track.gaps:
        for end, toward in ((gap.near, gap.facing), (gap.far, gap.facing.opposite)):
            a, b = geo.edge(end, toward)
            draw_broken_end(draw, a, b, facing_angle(toward) + 180, size * 0.46, _seed(track.name, end, "broken"))
        for i, cell in enumerate(gap.cells):
            c = geo.centre(cell)
            rng = random.Random(_seed(track.name, cell, "stumps"))
            for side in (-1, 1):
                p = polar(polar(c, facing_angle(gap.facing) + 90, side * size * 0.55), facing_angle(gap.facing),
                          rng.uniform(-0.25, 0.25) * size)
                r = size * 0.11
                draw.ellipse([p[0] - r, p[1] - r, p[0] + r, p[1] + r], fill=(60, 38, 18))
                r2 = r * 0.62
                draw.ellipse([p[0] - r2, p[1] - r2 - r * 0.2, p[0] + r2, p[1] + r2 - r * 0.2], fill=WOOD)
            del i

    # Walls: every edge between the track and the junk, and every listed wall.
    walls: set[frozenset[Hex]] = set(track.walls)
    for cell in track.track_cells:
        for n in cell.neighbours():
            if n not in track.terrain:
                walls.add(frozenset((cell, n)))
    wall_edges: list[tuple[Point, Point]] = []
    for pair in walls:
        a, b = sorted(pair)
        wall_edges.append(geo.edge_between(a, b))

    # The Checkered Line goes under the walls so the walls' round ends close it off neatly.
    for behind, ahead in track.line:
        a, b = geo.edge_between(behind, ahead)
        draw_checker_strip(draw, a, b, size * 0.34)

    wall_w = max(3.0, size * 0.2)
    for layer in (0, 1):
        for a, b in wall_edges:
            draw_wall(draw, a, b, wall_w, layer)

    # Stream banks against the junk: a dark bank line (not a wall: nobody drives there).
    for cell in track.stream_cells:
        for f in Facing:
            n = cell.neighbour(f)
            if n not in track.terrain and geo.contains(n):
                a, b = geo.edge(cell, f)
                draw.line([a, b], fill=(30, 60, 90), width=max(1, round(size * 0.08)))

    # Bridge arrows: white onto and off the bridge, red where a bump puts a kart in the water.
    rim = max(1, round(size * 0.045))
    tri = size * 0.36
    for cell, br in track.bridges.items():
        c = geo.centre(cell)
        for e in br.entries:
            if track.is_stream(e):
                continue  # the far end of a collapsed bridge: the jump line shows the way in
            ang = angle_of(geo.centre(e), c)
            draw_triangle(draw, polar(c, ang + 180, size * 0.6), ang, tri, WHITE, INK, rim, ARROW_WIDTH)
        for x in br.exits:
            if track.is_stream(x):
                continue  # the near end of a collapsed bridge: the jump line shows the way out
            ang = angle_of(c, geo.centre(x))
            draw_triangle(draw, polar(c, ang, size * 0.6), ang, tri, WHITE, INK, rim, ARROW_WIDTH)
        for f in br.bump_sides:
            ang = facing_angle(f)
            draw_triangle(draw, polar(c, ang, size * 0.6), ang, tri, RED_ARROW, WHITE, rim, ARROW_WIDTH)

    for gap in track.gaps:
        a = midpoint(*geo.edge(gap.near, gap.facing))
        b = midpoint(*geo.edge(gap.far, gap.facing.opposite))
        ang = angle_of(a, b)
        b_short = polar(b, ang + 180, size * 0.32)
        dashed_line(draw, a, b_short, INK, size * 0.14, size * 0.24, size * 0.14)
        dashed_line(draw, a, b_short, JUMP, size * 0.08, size * 0.24, size * 0.14)
        draw_triangle(draw, polar(b, ang + 180, size * 0.16), ang, size * 0.34, JUMP, INK, rim)

    # Start cells and Landing Points.
    for s in track.starts:
        draw_facing_arrow(draw, geo.centre(s.cell), size, facing_angle(s.facing), WHITE, INK)
    for cid, lp in track.landings.items():
        c = geo.centre(lp.cell)
        draw_facing_arrow(draw, c, size, facing_angle(lp.facing), BLUE_ARROW, WHITE)
        # the crossing number at the arrow's tail, or beside it when the tail would hide the cell label
        spot = facing_angle(lp.facing) + 180 if lp.facing is not Facing.S else -150.0
        _crossing_badge(draw, polar(c, spot, size * 0.62), size, cid)
    # Mark each stretch of water with the Landing Point it leads to, once, where it is nearest.
    for cid, lp in track.landings.items():
        water = [c for c, k in track.stream_landing.items() if k == cid]
        if water:
            nearest = min(water, key=lambda c: (c.distance(lp.cell), c))
            _crossing_badge(draw, geo.centre(nearest), size, cid)

    # Numbers on the track.
    for n, cell in track.deliveries.items():
        draw_delivery(draw, polar(geo.centre(cell), 90, size * 0.08), size, n)
    for cell, value in track.bottle_tops.items():
        cx, cy = geo.centre(cell)
        draw_bottle_cap(draw, (cx, cy + size * _label_and_cap(track, cell)[1]), size * 0.85, value)

    _draw_cell_labels(draw, track, geo)
    _draw_coordinates(draw, geo)
    _draw_title(draw, track, geo)
    _draw_legend(img, draw, geo)
    return img


def _arrow_sides(track: Track, cell: Hex) -> set[Facing]:
    """The sides of a bridge cell that carry an arrow or the jump line."""
    br = track.bridges.get(cell)
    if br is None:
        return set()
    sides = {f for n in br.entries | br.exits if (f := cell.facing_to(n)) is not None}
    sides |= set(br.bump_sides)
    return sides


def _label_and_cap(track: Track, cell: Hex) -> tuple[float, float]:
    """Vertical offsets (in cell sizes) of a cell's label and of its bottle cap, kept clear of arrows."""
    sides = _arrow_sides(track, cell)
    if Facing.N not in sides:
        return -0.64, 0.06
    if Facing.S not in sides:
        return 0.64, -0.06
    return -0.3, 0.16


def _crossing_badge(draw: ImageDraw.ImageDraw, centre: Point, size: float, cid: str) -> None:
    r = size * 0.24
    cx, cy = centre
    draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=BLUE_ARROW, outline=WHITE, width=max(1, round(size * 0.05)))
    draw_text(draw, (cx, cy + size * 0.01), cid, font(round(size * 0.3), bold=True), WHITE)


def _draw_cell_labels(draw: ImageDraw.ImageDraw, track: Track, geo: BoardGeometry) -> None:
    """Small low-contrast labels near the top of every cell, out of the way of karts and numbers."""
    size = geo.cell_size
    fnt = font(max(8, round(size * 0.3)), condensed=True)
    for cell in geo.cells():
        t = track.terrain.get(cell)
        if t is None:
            colour = mix(JUNK, TEXT, 0.42)
        else:
            base = PIT_COLOURS[track.pits[cell]] if cell in track.pits else TERRAIN_COLOURS[t]
            colour = mix(base, WHITE, 0.5) if sum(base) < 420 else mix(base, INK, 0.5)
        cx, cy = geo.centre(cell)
        draw_text(draw, (cx, cy + size * _label_and_cap(track, cell)[0]), cell.label, fnt, colour)


def _draw_coordinates(draw: ImageDraw.ImageDraw, geo: BoardGeometry) -> None:
    size = geo.cell_size
    fnt = font(max(11, round(size * 0.42)), bold=True)
    bx0, by0, bx1, by1 = geo.board_box
    gutter = max(18, round(size * 0.85))
    for col in range(geo.columns):
        x, _ = Hex.from_offset(col, 0).centre(size, geo.origin)
        letters = column_letters(col)
        draw_text(draw, (x, by0 - gutter * 0.62), letters, fnt, TEXT_DIM)
        draw_text(draw, (x, by1 + gutter * 0.62), letters, fnt, TEXT_DIM)
    for row in range(geo.rows):
        _, yl = Hex.from_offset(0, row).centre(size, geo.origin)
        _, yr = Hex.from_offset(geo.columns - 1, row).centre(size, geo.origin)
        draw_text(draw, (bx0 - gutter * 0.62, yl), str(row + 1), fnt, TEXT_DIM)
        draw_text(draw, (bx1 + gutter * 0.62, yr), str(row + 1), fnt, TEXT_DIM)


def _draw_title(draw: ImageDraw.ImageDraw, track: Track, geo: BoardGeometry) -> None:
    x0, y0, x1, y1 = geo.title_box
    h = y1 - y0
    draw.rectangle([x0, y0, x1, y1], fill=(22, 20, 18))
    draw.line([(x0, y1 - 1), (x1, y1 - 1)], fill=PANEL_LINE, width=2)
    # a checkered flag made of squares at the left
    sq = max(5, round(h * 0.13))
    fx, fy = 16, y0 + (h - 4 * sq) // 2
    draw.line([(fx, fy), (fx, fy + 5 * sq)], fill=TEXT_DIM, width=max(2, sq // 3))
    for i in range(5):
        for j in range(4):
            colour = WHITE if (i + j) % 2 == 0 else INK
            draw.rectangle([fx + 2 + i * sq, fy + j * sq, fx + 2 + (i + 1) * sq - 1, fy + (j + 1) * sq - 1],
                           fill=colour)
    tx = fx + 2 + 5 * sq + 16
    title = f"Junkyard Races · {track.name}"
    big = font(max(20, round(h * 0.4)), bold=True)
    draw_text(draw, (tx, y0 + h * 0.36), title, big, TEXT, anchor="lm")
    tw, _ = text_box(draw, title, big)
    draw_text(draw, (tx + tw + 14, y0 + h * 0.39), f"track {track.alias}", font(max(13, round(h * 0.24))), TEXT_DIM,
              anchor="lm")
    if track.description:
        draw_text(draw, (tx, y0 + h * 0.76), track.description, font(max(12, round(h * 0.2))), TEXT_DIM, anchor="lm")


# Legend ----------------------------------------------------------------------------------------

LegendSymbol = Callable[[Image.Image, ImageDraw.ImageDraw, Point, float], None]


def _swatch_texture(kind: str) -> LegendSymbol:
    def paint(img: Image.Image, draw: ImageDraw.ImageDraw, c: Point, s: float) -> None:
        hexagon = _hex_points(c, s)
        _paint_texture(img, kind, [hexagon], s * 1.6, _seed("legend", kind))
        rim = JUNK_GRID if kind == "junk" else darker(TERRAIN_COLOURS[Terrain(kind)], 0.2)
        draw.polygon(hexagon, outline=rim)

    return paint


def _sym_wall(img: Image.Image, draw: ImageDraw.ImageDraw, c: Point, s: float) -> None:
    _swatch_texture(Terrain.TARMAC.value)(img, draw, c, s)
    pts = _hex_points(c, s)
    edges = [(pts[3], pts[4]), (pts[4], pts[5]), (pts[5], pts[0])]
    for layer in (0, 1):
        for a, b in edges:
            draw_wall(draw, a, b, max(3.0, s * 0.22), layer)


def _sym_bridge(img: Image.Image, draw: ImageDraw.ImageDraw, c: Point, s: float) -> None:
    draw_polygon(draw, _hex_points(c, s), STREAM)
    draw_planks(draw, c, s, -90, 3)
    rim = max(1, round(s * 0.05))
    draw_triangle(draw, polar(c, 90, s * 0.6), -90, s * 0.42, WHITE, INK, rim)
    draw_triangle(draw, polar(c, -90, s * 0.6), -90, s * 0.42, WHITE, INK, rim)


def _sym_red(img: Image.Image, draw: ImageDraw.ImageDraw, c: Point, s: float) -> None:
    draw_polygon(draw, _hex_points(c, s), STREAM)
    draw_planks(draw, c, s, -90, 3)
    rim = max(1, round(s * 0.05))
    draw_triangle(draw, polar(c, -30, s * 0.6), -30, s * 0.42, RED_ARROW, WHITE, rim)
    draw_triangle(draw, polar(c, 150, s * 0.6), 150, s * 0.42, RED_ARROW, WHITE, rim)


def _sym_collapsed(img: Image.Image, draw: ImageDraw.ImageDraw, c: Point, s: float) -> None:
    draw_polygon(draw, _hex_points(c, s), STREAM)
    near = polar(c, 180, s * 0.95)
    far = polar(c, 0, s * 0.95)
    for end, sign in ((near, 1), (far, -1)):
        plank = [polar(end, -90, s * 0.55), polar(polar(end, -90, s * 0.55), 0, sign * s * 0.35),
                 polar(polar(end, 90, s * 0.55), 0, sign * s * 0.2), polar(end, 90, s * 0.55)]
        draw_polygon(draw, plank, WOOD, WOOD_DARK, 1)
    a, b = polar(c, 180, s * 0.5), polar(c, 0, s * 0.55)
    dashed_line(draw, a, b, INK, s * 0.16, s * 0.24, s * 0.14)
    dashed_line(draw, a, b, JUMP, s * 0.09, s * 0.24, s * 0.14)
    draw_triangle(draw, polar(c, 0, s * 0.62), 0, s * 0.38, JUMP, INK, 1)


def _sym_checkered(img: Image.Image, draw: ImageDraw.ImageDraw, c: Point, s: float) -> None:
    _swatch_texture(Terrain.TARMAC.value)(img, draw, c, s)
    draw_checker_strip(draw, polar(c, -90, s * 0.86), polar(c, 90, s * 0.86), s * 0.42)


def _sym_start(img: Image.Image, draw: ImageDraw.ImageDraw, c: Point, s: float) -> None:
    _swatch_texture(Terrain.TARMAC.value)(img, draw, c, s)
    draw_facing_arrow(draw, c, s, -30, WHITE, INK)


def _sym_landing(img: Image.Image, draw: ImageDraw.ImageDraw, c: Point, s: float) -> None:
    _swatch_texture(Terrain.TARMAC.value)(img, draw, c, s)
    draw_facing_arrow(draw, c, s, -90, BLUE_ARROW, WHITE)
    _crossing_badge(draw, polar(c, 90, s * 0.62), s, "1")


def _sym_pit(colour: PitColour) -> LegendSymbol:
    def paint(img: Image.Image, draw: ImageDraw.ImageDraw, c: Point, s: float) -> None:
        fill = PIT_COLOURS[colour]
        draw_polygon(draw, _hex_points(c, s), fill, darker(fill, 0.25), 1)
        draw_spanner(draw, c, s, mix(fill, WHITE, 0.82), fill)

    return paint


def _sym_delivery(img: Image.Image, draw: ImageDraw.ImageDraw, c: Point, s: float) -> None:
    _swatch_texture(Terrain.TARMAC.value)(img, draw, c, s)
    draw_delivery(draw, c, s * 1.05, 12)


def _sym_cap(img: Image.Image, draw: ImageDraw.ImageDraw, c: Point, s: float) -> None:
    draw_polygon(draw, _hex_points(c, s), STREAM)
    draw_planks(draw, c, s, -90, 3)
    draw_bottle_cap(draw, c, s * 1.1, 2)


def _sym_label(img: Image.Image, draw: ImageDraw.ImageDraw, c: Point, s: float) -> None:
    _swatch_texture(Terrain.GRASS.value)(img, draw, c, s)
    draw_text(draw, (c[0], c[1] - s * 0.05), "F7", font(round(s * 0.55), condensed=True), mix(GRASS, INK, 0.5))


def _sym_divider(img: Image.Image, draw: ImageDraw.ImageDraw, c: Point, s: float) -> None:
    _swatch_texture(Terrain.STREAM.value)(img, draw, c, s)
    dashed_line(draw, polar(c, -90, s * 0.86), polar(c, 90, s * 0.86), WHITE, max(2, s * 0.1), s * 0.2, s * 0.14)
    _crossing_badge(draw, polar(c, 0, s * 0.45), s * 0.9, "2")


LEGEND: tuple[tuple[LegendSymbol, str, str], ...] = (
    (_swatch_texture(Terrain.TARMAC.value), "Tarmac", "the racing surface"),
    (_swatch_texture(Terrain.GRASS.value), "Grass", "start a turn here: one green die"),
    (_swatch_texture(Terrain.MUD.value), "Mud", "one green die; a 1 or 2 is stuck"),
    (_swatch_texture("junk"), "Junk", "off the track"),
    (_sym_wall, "Wall", "no kart crosses; missiles fly over"),
    (_swatch_texture(Terrain.STREAM.value), "Stream", "never driven into; bumped karts swim"),
    (_sym_divider, "Stream section", "its water leads to that Landing Point"),
    (_sym_landing, "Landing Point", "leave the water here, facing the arrow"),
    (_sym_bridge, "Bridge", "one way: follow its white arrows"),
    (_sym_red, "Red arrow", "bumped this way: into the stream"),
    (_sym_collapsed, "Collapsed bridge", "jump straight across the gap"),
    (_sym_checkered, "Checkered Line", "cross it forwards to count a lap"),
    (_sym_start, "Start cell", "enter the race here, facing the arrow"),
    (_sym_pit(PitColour.GREEN), "Green Pit Stop", "stop here to buy green parts"),
    (_sym_pit(PitColour.RED), "Red Pit Stop", "stop here to buy red parts"),
    (_sym_delivery, "Delivery Point", "junk tiles arrive on this green total"),
    (_sym_cap, "Bottle Top Collection Point", "drive over: collect that many tops"),
    (_sym_label, "Cell label", "column letters, then row number"),
)


@dataclass(frozen=True)
class _LegendLayout:
    symbol: int  # symbol radius
    text_x: int  # text offset from the panel's left side
    rows: tuple[tuple[int, tuple[str, ...]], ...]  # (height, note lines) per entry
    height: int


LEGEND_TOP = 56
NAME_H, NOTE_H = 19, 15


@lru_cache(maxsize=32)
def _legend_layout(size: int, panel_w: int) -> _LegendLayout:
    """Symbol size, wrapped notes and row heights of the legend in a panel ``panel_w`` wide."""
    sym = max(15, min(26, round(size * 0.72)))
    text_x = 20 + sym * 2 + 14
    measure = ImageDraw.Draw(Image.new("L", (1, 1)))
    rows = []
    for _, _, note in LEGEND:
        lines = tuple(_wrap(measure, note, font(13, condensed=True), panel_w - text_x - 10))
        rows.append((max(round(sym * 2.2 + 4), NAME_H + NOTE_H * len(lines) + 10), lines))
    return _LegendLayout(sym, text_x, tuple(rows), LEGEND_TOP + sum(h for h, _ in rows) + COMPASS_H + 10)


COMPASS_H = 124  # the facings compass under the legend entries


def draw_compass(draw: ImageDraw.ImageDraw, centre: Point, radius: float) -> None:
    """The six facings of a flat-top hex (ruling R1): an arrow and a name toward each side."""
    draw_polygon(draw, _hex_points(centre, radius), lighter(PANEL, 0.08), PANEL_LINE, 2)
    fnt = font(max(10, round(radius * 0.36)), bold=True)
    for f in Facing:
        ang = facing_angle(f)
        inner = radius * SQRT3 / 2
        draw_arrow(draw, polar(centre, ang, radius * 0.16), polar(centre, ang, inner * 0.92), TEXT,
                   shaft_width=max(2, radius * 0.07), head_width=radius * 0.26, head_length=radius * 0.24)
        draw_text(draw, polar(centre, ang, inner + radius * 0.36), f.name, fnt, TEXT)


def _draw_legend(img: Image.Image, draw: ImageDraw.ImageDraw, geo: BoardGeometry) -> None:
    x0, y0, x1, y1 = geo.panel_box
    layout = _legend_layout(geo.cell_size, x1 - x0)
    sym = layout.symbol
    draw.rectangle([x0, y0 + 10, x1, y1], fill=PANEL, outline=PANEL_LINE, width=2)
    draw_text(draw, (x0 + 16, y0 + 34), "Legend", font(22, bold=True), TEXT, anchor="lm")
    name_font = font(14, bold=True)
    note_font = font(13, condensed=True)
    y = y0 + LEGEND_TOP
    text_x = x0 + layout.text_x
    for (symbol, name, _), (row_h, lines) in zip(LEGEND, layout.rows, strict=True):
        c = (x0 + 20 + sym, y + row_h / 2)
        symbol(img, draw, c, sym)
        top = y + row_h / 2 - (NAME_H + NOTE_H * len(lines)) / 2
        draw_text(draw, (text_x, top), name, name_font, TEXT, anchor="lt")
        for i, line in enumerate(lines):
            draw_text(draw, (text_x, top + NAME_H + 1 + NOTE_H * i), line, note_font, TEXT_DIM, anchor="lt")
        y += row_h
    radius = (COMPASS_H - 36) / 2
    draw_compass(draw, (x1 - 26 - radius * 1.3, y + COMPASS_H / 2), radius)
    draw_text(draw, (x0 + 20, y + COMPASS_H / 2 - 12), "Facings", name_font, TEXT, anchor="lm")
    for i, line in enumerate(("up the picture is N;", "a kart faces one of", "the six sides of its cell")):
        draw_text(draw, (x0 + 20, y + COMPASS_H / 2 + 8 + 15 * i), line, note_font, TEXT_DIM, anchor="lm")
    sx0, sy0, sx1, sy1 = geo.status_box
    if sy1 - sy0 > 30:
        draw.line([(sx0 + 12, sy0 - 6), (sx1 - 12, sy0 - 6)], fill=PANEL_LINE, width=1)


def _wrap(draw: ImageDraw.ImageDraw, text: str, fnt: Font, max_w: float, max_lines: int = 2) -> list[str]:
    """``text`` broken into lines of at most ``max_w`` pixels (the last one shortened if need be)."""
    lines: list[str] = []
    for word in text.split():
        if lines and text_box(draw, f"{lines[-1]} {word}", fnt)[0] <= max_w:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    if len(lines) > max_lines:
        last = " ".join(lines[max_lines - 1:])
        while last and text_box(draw, last + "…", fnt)[0] > max_w:
            last = last[:-1]
        lines = [*lines[: max_lines - 1], last.rstrip() + "…"]
    return lines


# Used by the tests and by later layers that want the same arrow shapes.
__all__ = [
    "BoardBase",
    "BoardGeometry",
    "arrow_polygon",
    "board_base",
    "board_image",
    "default_cell_size",
    "draw_bottle_cap",
    "draw_delivery",
    "draw_facing_arrow",
    "draw_spanner",
    "facing_angle",
    "geometry_for",
    "track_png",
]
