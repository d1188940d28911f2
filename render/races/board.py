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
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field

from PIL import Image, ImageDraw

from render.common import (
    Colour,
    Point,
    angle_of,
    build_palette,
    darker,
    dashed_line,
    draw_bounded,
    draw_polygon,
    draw_text,
    draw_triangle,
    encode_png,
    font,
    midpoint,
    mix,
    polar,
    text_box,
)
from render.races.geometry import (
    BoardGeometry,
    default_cell_size,
    facing_angle,
    geometry_for,
    panel_width,
)
from render.races.legend import draw_legend, legend_height
from render.races.symbols import (
    ARROW_WIDTH,
    BLUE_ARROW,
    FRAME,
    INK,
    JUMP,
    JUNK,
    JUNK_GRID,
    PANEL,
    PANEL_LINE,
    PIT_COLOURS,
    RED_ARROW,
    STONE_DARK,
    TERRAIN_COLOURS,
    TEXT,
    TEXT_DIM,
    WHITE,
    WOOD,
    draw_bottle_cap,
    draw_broken_end,
    draw_checker_strip,
    draw_crossing_badge,
    draw_delivery,
    draw_facing_arrow,
    draw_planks,
    draw_spanner,
    draw_wall,
    paint_texture,
    seed_of,
)
from render.races.words import say
from rules.hexgrid import Facing, Hex, column_letters
from rules.races.track import Terrain, Track

# The board -------------------------------------------------------------------------------------


@dataclass
class BoardBase:
    """A cached static board: its picture and geometry. Never draw on ``image``: copy it first
    (:func:`board_image` does)."""

    track: Track
    geometry: BoardGeometry
    image: Image.Image
    #: the language of the title and the legend
    lang: str = "en"
    _png: bytes | None = field(default=None, repr=False)
    _palettes: dict[tuple[Colour, ...], Image.Image] = field(default_factory=dict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def png(self) -> bytes:
        """The board alone as PNG bytes (encoded once, so with a slower, tighter zlib level)."""
        with self._lock:
            if self._png is None:
                self._png = encode_png(self.image, compress_level=STATIC_COMPRESS_LEVEL)
            return self._png

    def palette(self, extra: Iterable[Colour] = ()) -> Image.Image:
        """The board's palette plus ``extra`` colours, built once per set of extra colours."""
        key = tuple(dict.fromkeys((c[0], c[1], c[2]) for c in extra))
        with self._lock:
            pal = self._palettes.get(key)
            if pal is None:
                pal = self._palettes[key] = build_palette(self.image, key)
            return pal

    def encode(self, frame: Image.Image, extra: Iterable[Colour] = ()) -> bytes:
        """PNG bytes of a frame drawn on a copy of this board, quantized to the board's fixed palette
        (list the colours drawn on top in ``extra``; others map to the nearest board colour)."""
        return encode_png(frame, palette=self.palette(extra))


#: zlib level of the static board PNG: it is encoded once per track and size, so the 80 ms that level 6
#: costs over level 3 buy about 15% fewer bytes for nothing.
STATIC_COMPRESS_LEVEL = 6

_CACHE: OrderedDict[tuple[str, int, bool, str], BoardBase] = OrderedDict()
_CACHE_SIZE = 8  # about 6 MB each at the default size
_CACHE_LOCK = threading.Lock()


def board_base(track: Track, cell_size: int | None = None, legend: bool = True, lang: str = "en") -> BoardBase:
    """The cached static board of ``track`` at ``cell_size`` (drawn on first use; shared, read-only), its
    title and legend in ``lang``.

    Without the ``legend`` the whole side panel is the ``status_box``, free for live layers.
    """
    size = int(cell_size) if cell_size else default_cell_size(track.columns)
    key = (track.name, size, legend, lang)
    with _CACHE_LOCK:
        hit = _CACHE.get(key)
        if hit is not None and (hit.track is track or hit.track == track):
            _CACHE.move_to_end(key)
            return hit
        height = legend_height(size, panel_width(size), lang) if legend else 0
        geo = geometry_for(track.columns, track.rows, size, height)
        base = BoardBase(track, geo, _draw_board(track, geo, legend, lang), lang)
        _CACHE[key] = base
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
        return base


def board_image(track: Track, cell_size: int | None = None, lang: str = "en") -> Image.Image:
    """A fresh copy of the static board, ready to draw karts and tiles on."""
    return board_base(track, cell_size, lang=lang).image.copy()


def track_png(track: Track, cell_size: int | None = None, lang: str = "en") -> bytes:
    """The static board as PNG bytes (encoded once per track, size and language)."""
    return board_base(track, cell_size, lang=lang).png()


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


def _draw_board(track: Track, geo: BoardGeometry, legend: bool = True, lang: str = "en") -> Image.Image:
    """The whole static picture, layer by layer from the ground up."""
    img = Image.new("RGB", (geo.width, geo.height), FRAME)
    draw = ImageDraw.Draw(img)
    _draw_ground(img, draw, track, geo)
    _draw_pits_and_outlines(draw, track, geo)
    _draw_stream_dividers(draw, track, geo)
    _draw_bridges(draw, track, geo)
    _draw_walls_and_line(draw, track, geo)
    _draw_banks(draw, track, geo)
    _draw_bridge_arrows(draw, track, geo)
    _draw_jump_lines(draw, track, geo)
    _draw_starts_and_landings(draw, track, geo)
    _draw_numbers(draw, track, geo)
    _draw_cell_labels(draw, track, geo)
    _draw_coordinates(draw, geo)
    _draw_title(draw, track, geo, lang)
    if legend:
        draw_legend(img, draw, geo, lang)
    else:
        x0, y0, x1, y1 = geo.panel_box
        draw.rectangle([x0, y0 + 10, x1, y1], fill=PANEL, outline=PANEL_LINE, width=2)
    return img


def _draw_ground(img: Image.Image, draw: ImageDraw.ImageDraw, track: Track, geo: BoardGeometry) -> None:
    """The junkyard fills the map area; track and stream cells are painted over it."""
    size = geo.cell_size
    bx0, by0, bx1, by1 = geo.board_box
    pad = round(size * 0.35)
    area: list[Point] = [(bx0 - pad, by0 - pad), (bx1 + pad, by0 - pad), (bx1 + pad, by1 + pad), (bx0 - pad, by1 + pad)]
    paint_texture(img, "junk", [area], size, seed_of(track.name))
    draw.rectangle([bx0 - pad, by0 - pad, bx1 + pad, by1 + pad], outline=STONE_DARK, width=max(2, size // 10))
    for cell in geo.cells():
        if cell not in track.terrain:
            draw.polygon(geo.corners(cell), outline=JUNK_GRID)
    by_terrain: dict[Terrain, list[list[Point]]] = {}
    for cell, t in track.terrain.items():
        by_terrain.setdefault(t, []).append(geo.corners(cell))
    for t in (Terrain.TARMAC, Terrain.GRASS, Terrain.MUD, Terrain.STREAM):
        paint_texture(img, t.value, by_terrain.get(t, []), size, seed_of(track.name, t.value))


def _draw_pits_and_outlines(draw: ImageDraw.ImageDraw, track: Track, geo: BoardGeometry) -> None:
    """Pit Stops as coloured lanes with a spanner in every cell, then every cell's outline."""
    size = geo.cell_size
    for cell, colour in track.pits.items():
        fill = PIT_COLOURS[colour]
        draw_polygon(draw, geo.corners(cell), fill)
        draw_spanner(draw, geo.centre(cell), size, mix(fill, WHITE, 0.82), fill)
    for cell, t in track.terrain.items():
        base = PIT_COLOURS[track.pits[cell]] if cell in track.pits else TERRAIN_COLOURS[t]
        draw.polygon(geo.corners(cell), outline=darker(base, 0.22))


def _draw_stream_dividers(draw: ImageDraw.ImageDraw, track: Track, geo: BoardGeometry) -> None:
    """Where the water carries a kart changes: a dashed divider in the stream."""
    size = geo.cell_size
    for cell, cid in track.stream_landing.items():
        for f in (Facing.SE, Facing.S, Facing.NE):
            n = cell.neighbour(f)
            other = track.stream_landing.get(n)
            if other is not None and other != cid:
                a, b = geo.edge(cell, f)
                dashed_line(draw, a, b, WHITE, max(2, size * 0.08), size * 0.16, size * 0.12)


def _draw_bridges(draw: ImageDraw.ImageDraw, track: Track, geo: BoardGeometry) -> None:
    """Planks across the way of travel; collapsed bridges' broken ends and the old bridge's stumps."""
    size = geo.cell_size
    for cell in track.bridges:
        draw_planks(draw, geo.centre(cell), size, _bridge_angle(track, geo, cell), seed_of(track.name, cell))
    for gap in track.gaps:
        for end, toward in ((gap.near, gap.facing), (gap.far, gap.facing.opposite)):
            a, b = geo.edge(end, toward)
            draw_broken_end(draw, a, b, facing_angle(toward) + 180, size * 0.46, seed_of(track.name, end, "broken"))
        for cell in gap.cells:
            c = geo.centre(cell)
            rng = random.Random(seed_of(track.name, cell, "stumps"))
            for side in (-1, 1):
                p = polar(polar(c, facing_angle(gap.facing) + 90, side * size * 0.55), facing_angle(gap.facing),
                          rng.uniform(-0.25, 0.25) * size)
                r = size * 0.11
                draw.ellipse([p[0] - r, p[1] - r, p[0] + r, p[1] + r], fill=(60, 38, 18))
                r2 = r * 0.62
                draw.ellipse([p[0] - r2, p[1] - r2 - r * 0.2, p[0] + r2, p[1] + r2 - r * 0.2], fill=WOOD)


def _draw_walls_and_line(draw: ImageDraw.ImageDraw, track: Track, geo: BoardGeometry) -> None:
    """Walls on every edge between the track and the junk and on every listed edge, over the Checkered
    Line so that the walls' round ends close it off neatly."""
    size = geo.cell_size
    walls: set[frozenset[Hex]] = set(track.walls)
    for cell in track.track_cells:
        for n in cell.neighbours():
            if n not in track.terrain:
                walls.add(frozenset((cell, n)))
    wall_edges: list[tuple[Point, Point]] = []
    for pair in walls:
        lo, hi = sorted(pair)
        wall_edges.append(geo.edge_between(lo, hi))
    for behind, ahead in track.line:
        a, b = geo.edge_between(behind, ahead)
        draw_checker_strip(draw, a, b, size * 0.34)
    wall_w = max(3.0, size * 0.2)
    for layer in (0, 1):
        for a, b in wall_edges:
            draw_wall(draw, a, b, wall_w, layer)


def _draw_banks(draw: ImageDraw.ImageDraw, track: Track, geo: BoardGeometry) -> None:
    """Stream banks against the junk: a dark bank line (not a wall: nobody drives there)."""
    size = geo.cell_size
    for cell in track.stream_cells:
        for f in Facing:
            n = cell.neighbour(f)
            if n not in track.terrain and geo.contains(n):
                a, b = geo.edge(cell, f)
                draw.line([a, b], fill=(30, 60, 90), width=max(1, round(size * 0.08)))


def _rim(size: int) -> int:
    """The outline width of arrows on the board."""
    return max(1, round(size * 0.045))


def _draw_bridge_arrows(draw: ImageDraw.ImageDraw, track: Track, geo: BoardGeometry) -> None:
    """White arrows onto and off each bridge, red where a bump puts a kart in the water."""
    size = geo.cell_size
    rim = _rim(size)
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


def _draw_jump_lines(draw: ImageDraw.ImageDraw, track: Track, geo: BoardGeometry) -> None:
    """Over each collapsed bridge, a dashed jump line from the near end to the far end."""
    size = geo.cell_size
    rim = _rim(size)
    for gap in track.gaps:
        a = midpoint(*geo.edge(gap.near, gap.facing))
        b = midpoint(*geo.edge(gap.far, gap.facing.opposite))
        ang = angle_of(a, b)
        b_short = polar(b, ang + 180, size * 0.32)
        dashed_line(draw, a, b_short, INK, size * 0.14, size * 0.24, size * 0.14)
        dashed_line(draw, a, b_short, JUMP, size * 0.08, size * 0.24, size * 0.14)
        draw_triangle(draw, polar(b, ang + 180, size * 0.16), ang, size * 0.34, JUMP, INK, rim)


def _draw_starts_and_landings(draw: ImageDraw.ImageDraw, track: Track, geo: BoardGeometry) -> None:
    """Start arrows, Landing Point arrows with their crossing number, and each stretch of water marked
    once, where it is nearest, with the Landing Point it leads to."""
    size = geo.cell_size
    for s in track.starts:
        draw_facing_arrow(draw, geo.centre(s.cell), size, facing_angle(s.facing), WHITE, INK)
    for cid, lp in track.landings.items():
        c = geo.centre(lp.cell)
        draw_facing_arrow(draw, c, size, facing_angle(lp.facing), BLUE_ARROW, WHITE)
        # the crossing number at the arrow's tail, or beside it when the tail would hide the cell label
        spot = facing_angle(lp.facing) + 180 if lp.facing is not Facing.S else -150.0
        draw_crossing_badge(draw, polar(c, spot, size * 0.62), size, cid)
    for cid, lp in track.landings.items():
        water = [c for c, k in track.stream_landing.items() if k == cid]
        if water:
            nearest = min(water, key=lambda c: (c.distance(lp.cell), c))
            draw_crossing_badge(draw, geo.centre(nearest), size, cid)


def _draw_numbers(draw: ImageDraw.ImageDraw, track: Track, geo: BoardGeometry) -> None:
    """Delivery Point numbers and Bottle Top Collection Points."""
    size = geo.cell_size
    for n, cell in track.deliveries.items():
        draw_delivery(draw, polar(geo.centre(cell), 90, size * 0.08), size, n)
    for cell, value in track.bottle_tops.items():
        cx, cy = geo.centre(cell)
        draw_bottle_cap(draw, (cx, cy + size * _label_and_cap(track, cell)[1]), size * 0.85, value)


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


def _draw_title(draw: ImageDraw.ImageDraw, track: Track, geo: BoardGeometry, lang: str = "en") -> None:
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
    title = say("board.title", lang, track=track.name)
    room = x1 - tx - 16
    shown = draw_bounded(draw, (tx, y0 + h * 0.36), title, (room * 0.72, h * 0.5), max(20, round(h * 0.4)), TEXT,
                         bold=True, one_line_to=14)
    tw = max(text_box(draw, line, shown.font)[0] for line in shown.lines)
    draw_bounded(draw, (tx + tw + 14, y0 + h * 0.39), say("board.track", lang, alias=track.alias),
                 (room - tw - 14, h * 0.3), max(13, round(h * 0.24)), TEXT_DIM)
    if track.description:
        draw_bounded(draw, (tx, y0 + h * 0.76), track.description, (room, h * 0.26), max(12, round(h * 0.2)),
                     TEXT_DIM)
