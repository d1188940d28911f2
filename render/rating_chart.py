"""A player's rating history as a small line chart: one line per game, the rating after each rated game,
the grid labelled with ratings, a legend of the games. Pure: the caller gives the series and the words."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from render.common import draw_bounded, draw_text, encode_png, fit_text, font

#: the chart's size in pixels (wide and low: it sits under a text in a chat column)
WIDTH, HEIGHT = 1000, 440
MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, MARGIN_BOTTOM = 96, 36, 78, 70
BACKGROUND = (250, 248, 242)
INK = (40, 40, 46)
GRID = (214, 210, 200)
#: the size of the axes' and legend's words
LABEL_SIZE = 24
#: one colour per game line, in order
LINE_COLOURS = ((203, 75, 22), (38, 139, 210), (133, 153, 0), (108, 113, 196))


@dataclass(frozen=True, slots=True)
class Series:
    """One game's line: its name in the legend and the rating shown after each rated game, oldest first
    (the first value is the rating before the first game)."""

    name: str
    values: Sequence[int]


def _steps(low: int, high: int) -> list[int]:
    """Round grid values covering ``low``..``high`` (about four lines)."""
    span = max(high - low, 1)
    step = next(s for s in (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000) if span / s <= 5)
    start = (low // step) * step
    return list(range(start, high + step, step))


#: the height of one row of the legend, and the gaps around and between its entries
LEGEND_ROW, LEGEND_GAP = 32, 30


def _legend_rows(draw: ImageDraw.ImageDraw, names: Sequence[str], width: float, label: Any) -> list[list[int]]:
    """The legend's entries (indexes into ``names``) laid out in rows no wider than ``width``: as many on a
    row as fit, a new row for the next."""
    rows: list[list[int]] = [[]]
    used = 0.0
    for i, name in enumerate(names):
        need = 30 + draw.textlength(name, font=label) + LEGEND_GAP
        if rows[-1] and used + need > width:
            rows.append([])
            used = 0.0
        rows[-1].append(i)
        used += need
    return rows


def _legend(draw: ImageDraw.ImageDraw, names: Sequence[str], rows: Sequence[Sequence[int]], left: float,
            label: Any) -> None:
    """Each series' colour and its name with its newest rating, row by row under the title."""
    for r, row in enumerate(rows):
        legend_x, middle = left + 8, MARGIN_TOP - 19 + r * LEGEND_ROW
        for i in row:
            draw.rectangle([legend_x, middle - 7, legend_x + 22, middle + 7], fill=LINE_COLOURS[i])
            draw_text(draw, (legend_x + 30, middle), names[i], label, INK, anchor="lm")
            legend_x += 30 + int(draw.textlength(names[i], font=label)) + LEGEND_GAP


def rating_chart(series: Sequence[Series], title: str, axis: str) -> bytes:
    """PNG bytes of the chart of ``series`` (at most four drawn) under ``title``, with ``axis`` naming the
    horizontal axis (games rated). The legend takes as many rows as its names need; the plot starts below."""
    shown = [s for s in series if s.values][: len(LINE_COLOURS)]
    img = Image.new("RGB", (WIDTH, HEIGHT), BACKGROUND)
    draw = ImageDraw.Draw(img)
    fitted = fit_text(draw, title, WIDTH - 2 * MARGIN_RIGHT, 40, 30, bold=True, one_line_to=14)
    draw_text(draw, (WIDTH / 2, 30), " ".join(fitted.lines), fitted.font, INK)
    values = [v for s in shown for v in s.values] or [1000]
    grid = _steps(min(values), max(values))
    low, high = grid[0], grid[-1]
    longest = max((len(s.values) for s in shown), default=1)
    label = font(LABEL_SIZE)
    names = [f"{s.name}: {s.values[-1]}" for s in shown]
    rows = _legend_rows(draw, names, WIDTH - MARGIN_LEFT - 18 + LEGEND_GAP, label)  # the last gap may overhang
    left, right, bottom = MARGIN_LEFT, WIDTH - MARGIN_RIGHT, HEIGHT - MARGIN_BOTTOM
    top = MARGIN_TOP + LEGEND_ROW * (len(rows) - 1)

    def x(i: int) -> float:
        return left + (right - left) * (i / max(longest - 1, 1))

    def y(v: float) -> float:
        return bottom - (bottom - top) * ((v - low) / max(high - low, 1))

    for v in grid:
        draw.line([(left, y(v)), (right, y(v))], fill=GRID, width=2)
        draw_text(draw, (left - 12, y(v)), str(v), label, INK, anchor="rm")
    draw.line([(left, bottom), (right, bottom)], fill=INK, width=2)
    draw_text(draw, (left, bottom + 22), "0", label, INK, anchor="mm")
    draw_text(draw, (right, bottom + 22), str(longest - 1), label, INK, anchor="mm")
    draw_bounded(draw, ((left + right) / 2, bottom + 26), axis, (right - left - 80, 30), LABEL_SIZE, INK, "mm")
    for colour, s in zip(LINE_COLOURS, shown, strict=False):
        points = [(x(i), y(v)) for i, v in enumerate(s.values)]
        if len(points) > 1:
            draw.line(points, fill=colour, width=5, joint="curve")
        for px, py in points[-1:] + (points if len(points) <= 30 else []):
            draw.ellipse([px - 5, py - 5, px + 5, py + 5], fill=colour)
    _legend(draw, names, rows, left, label)
    return encode_png(img)


__all__ = ["Series", "rating_chart"]
