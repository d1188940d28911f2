"""The legend panel of the board picture: a symbol and a short note in our own words for every feature,
and a compass of the six facings."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from render.common import (
    Font,
    Point,
    darker,
    dashed_line,
    draw_bounded,
    draw_polygon,
    draw_text,
    draw_triangle,
    font,
    mix,
    overflowed,
    polar,
    text_box,
)
from render.races.geometry import BoardGeometry
from render.races.symbols import (
    BLUE_ARROW,
    GRASS,
    INK,
    JUMP,
    JUNK_GRID,
    PANEL,
    PANEL_LINE,
    PIT_COLOURS,
    RED_ARROW,
    STREAM,
    TERRAIN_COLOURS,
    TEXT,
    TEXT_DIM,
    WHITE,
    WOOD,
    WOOD_DARK,
    draw_bottle_cap,
    draw_checker_strip,
    draw_compass,
    draw_crossing_badge,
    draw_delivery,
    draw_facing_arrow,
    draw_planks,
    draw_spanner,
    draw_wall,
    hex_points,
    paint_texture,
    seed_of,
)
from render.races.words import say
from rules.races.track import PitColour, Terrain

# Legend ----------------------------------------------------------------------------------------

LegendSymbol = Callable[[Image.Image, ImageDraw.ImageDraw, Point, float], None]


def _swatch_texture(kind: str) -> LegendSymbol:
    def paint(img: Image.Image, draw: ImageDraw.ImageDraw, c: Point, s: float) -> None:
        hexagon = hex_points(c, s)
        paint_texture(img, kind, [hexagon], s * 1.6, seed_of("legend", kind))
        rim = JUNK_GRID if kind == "junk" else darker(TERRAIN_COLOURS[Terrain(kind)], 0.2)
        draw.polygon(hexagon, outline=rim)

    return paint


def _sym_wall(img: Image.Image, draw: ImageDraw.ImageDraw, c: Point, s: float) -> None:
    _swatch_texture(Terrain.TARMAC.value)(img, draw, c, s)
    pts = hex_points(c, s)
    edges = [(pts[3], pts[4]), (pts[4], pts[5]), (pts[5], pts[0])]
    for layer in (0, 1):
        for a, b in edges:
            draw_wall(draw, a, b, max(3.0, s * 0.22), layer)


def _sym_bridge(img: Image.Image, draw: ImageDraw.ImageDraw, c: Point, s: float) -> None:
    draw_polygon(draw, hex_points(c, s), STREAM)
    draw_planks(draw, c, s, -90, 3)
    rim = max(1, round(s * 0.05))
    draw_triangle(draw, polar(c, 90, s * 0.6), -90, s * 0.42, WHITE, INK, rim)
    draw_triangle(draw, polar(c, -90, s * 0.6), -90, s * 0.42, WHITE, INK, rim)


def _sym_red(img: Image.Image, draw: ImageDraw.ImageDraw, c: Point, s: float) -> None:
    draw_polygon(draw, hex_points(c, s), STREAM)
    draw_planks(draw, c, s, -90, 3)
    rim = max(1, round(s * 0.05))
    draw_triangle(draw, polar(c, -30, s * 0.6), -30, s * 0.42, RED_ARROW, WHITE, rim)
    draw_triangle(draw, polar(c, 150, s * 0.6), 150, s * 0.42, RED_ARROW, WHITE, rim)


def _sym_collapsed(img: Image.Image, draw: ImageDraw.ImageDraw, c: Point, s: float) -> None:
    draw_polygon(draw, hex_points(c, s), STREAM)
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
    draw_crossing_badge(draw, polar(c, 90, s * 0.62), s, "1")


def _sym_pit(colour: PitColour) -> LegendSymbol:
    def paint(img: Image.Image, draw: ImageDraw.ImageDraw, c: Point, s: float) -> None:
        fill = PIT_COLOURS[colour]
        draw_polygon(draw, hex_points(c, s), fill, darker(fill, 0.25), 1)
        draw_spanner(draw, c, s, mix(fill, WHITE, 0.82), fill)

    return paint


def _sym_delivery(img: Image.Image, draw: ImageDraw.ImageDraw, c: Point, s: float) -> None:
    _swatch_texture(Terrain.TARMAC.value)(img, draw, c, s)
    draw_delivery(draw, c, s * 1.05, 12)


def _sym_cap(img: Image.Image, draw: ImageDraw.ImageDraw, c: Point, s: float) -> None:
    draw_polygon(draw, hex_points(c, s), STREAM)
    draw_planks(draw, c, s, -90, 3)
    draw_bottle_cap(draw, c, s * 1.1, 2)


def _sym_label(img: Image.Image, draw: ImageDraw.ImageDraw, c: Point, s: float) -> None:
    _swatch_texture(Terrain.GRASS.value)(img, draw, c, s)
    draw_text(draw, (c[0], c[1] - s * 0.05), "F7", font(round(s * 0.55), condensed=True), mix(GRASS, INK, 0.5))


def _sym_divider(img: Image.Image, draw: ImageDraw.ImageDraw, c: Point, s: float) -> None:
    _swatch_texture(Terrain.STREAM.value)(img, draw, c, s)
    dashed_line(draw, polar(c, -90, s * 0.86), polar(c, 90, s * 0.86), WHITE, max(2, s * 0.1), s * 0.2, s * 0.14)
    draw_crossing_badge(draw, polar(c, 0, s * 0.45), s * 0.9, "2")


#: the legend's entries: symbol and catalogue key (``legend.<key>`` names it, ``legend.<key>_note`` explains)
LEGEND: tuple[tuple[LegendSymbol, str], ...] = (
    (_swatch_texture(Terrain.TARMAC.value), "tarmac"),
    (_swatch_texture(Terrain.GRASS.value), "grass"),
    (_swatch_texture(Terrain.MUD.value), "mud"),
    (_swatch_texture("junk"), "junk"),
    (_sym_wall, "wall"),
    (_swatch_texture(Terrain.STREAM.value), "stream"),
    (_sym_divider, "section"),
    (_sym_landing, "landing"),
    (_sym_bridge, "bridge"),
    (_sym_red, "red_arrow"),
    (_sym_collapsed, "collapsed"),
    (_sym_checkered, "line"),
    (_sym_start, "start"),
    (_sym_pit(PitColour.GREEN), "green_pit"),
    (_sym_pit(PitColour.RED), "red_pit"),
    (_sym_delivery, "delivery"),
    (_sym_cap, "caps"),
    (_sym_label, "label"),
)


@dataclass(frozen=True)
class _LegendLayout:
    symbol: int  # symbol radius
    text_x: int  # text offset from the panel's left side
    rows: tuple[tuple[int, tuple[str, ...]], ...]  # (height, note lines) per entry
    height: int


LEGEND_TOP = 56
NAME_H, NOTE_H = 19, 15


def legend_height(size: int, panel_w: int, lang: str = "en") -> int:
    """Pixels the legend takes in a side panel ``panel_w`` wide, on a board of ``size`` cells."""
    return _legend_layout(size, panel_w, lang).height


@lru_cache(maxsize=32)
def _legend_layout(size: int, panel_w: int, lang: str = "en") -> _LegendLayout:
    """Symbol size, wrapped notes and row heights of the legend in a panel ``panel_w`` wide."""
    sym = max(15, min(26, round(size * 0.72)))
    text_x = 20 + sym * 2 + 14
    measure = ImageDraw.Draw(Image.new("L", (1, 1)))
    rows = []
    for _, key in LEGEND:
        note = say(f"legend.{key}_note", lang)
        lines = tuple(_wrap(measure, note, font(13, condensed=True), panel_w - text_x - 10))
        rows.append((max(round(sym * 2.2 + 4), NAME_H + NOTE_H * len(lines) + 10), lines))
    return _LegendLayout(sym, text_x, tuple(rows), LEGEND_TOP + sum(h for h, _ in rows) + COMPASS_H + 10)


COMPASS_H = 124  # the facings compass under the legend entries


def draw_legend(img: Image.Image, draw: ImageDraw.ImageDraw, geo: BoardGeometry, lang: str = "en") -> None:
    """The legend of the static board's symbols and the facings compass, worded in ``lang``."""
    x0, y0, x1, y1 = geo.panel_box
    layout = _legend_layout(geo.cell_size, x1 - x0, lang)
    sym = layout.symbol
    draw.rectangle([x0, y0 + 10, x1, y1], fill=PANEL, outline=PANEL_LINE, width=2)
    draw_bounded(draw, (x0 + 16, y0 + 34), say("legend.title", lang), (x1 - x0 - 32, 28), 22, TEXT, bold=True)
    name_font = font(14, bold=True)
    note_font = font(13, condensed=True)
    y = y0 + LEGEND_TOP
    text_x = x0 + layout.text_x
    name_w = x1 - text_x - 10
    for (symbol, key), (row_h, lines) in zip(LEGEND, layout.rows, strict=True):
        name = _wrap(draw, say(f"legend.{key}", lang), name_font, name_w, max_lines=1)[0]
        c = (x0 + 20 + sym, y + row_h / 2)
        symbol(img, draw, c, sym)
        top = y + row_h / 2 - (NAME_H + NOTE_H * len(lines)) / 2
        draw_text(draw, (text_x, top), name, name_font, TEXT, anchor="lt")
        for i, line in enumerate(lines):
            draw_text(draw, (text_x, top + NAME_H + 1 + NOTE_H * i), line, note_font, TEXT_DIM, anchor="lt")
        y += row_h
    radius = (COMPASS_H - 36) / 2
    draw_compass(draw, (x1 - 26 - radius * 1.3, y + COMPASS_H / 2), radius)
    room = x1 - 26 - radius * 2.6 - (x0 + 20)  # left of the compass
    draw_bounded(draw, (x0 + 20, y + COMPASS_H / 2 - 12), say("legend.facings", lang), (room, 18), 14, TEXT, bold=True)
    for i, line in enumerate(say("legend.facings_note", lang).split("\n")):
        draw_bounded(draw, (x0 + 20, y + COMPASS_H / 2 + 8 + 15 * i), line, (room, 15), 13, TEXT_DIM, condensed=True)
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
        overflowed(text, "cut")
    return lines
