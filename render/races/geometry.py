"""Where things sit on a Junkyard Races board picture: cell centres, corners and edges, and the layout
of the map, the coordinate gutters, the title bar and the side panel."""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from render.common import Point
from rules.hexgrid import SQRT3, Facing, Hex, pixel_to_hex

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




def panel_width(cell_size: int) -> int:
    """Width of the side panel (legend, then room for a status panel) for a board of ``cell_size``."""
    return max(340, min(480, round(cell_size * 12)))


def geometry_for(columns: int, rows: int, cell_size: int | None = None, panel_height: int = 0) -> BoardGeometry:
    """Lay out a picture for a map of ``columns`` × ``rows`` cells whose side panel needs ``panel_height``
    pixels for its fixed content (the legend); what is left under it is the ``status_box``."""
    size = int(cell_size) if cell_size else default_cell_size(columns)
    if size < MIN_CELL // 2:
        raise ValueError(f"cell size {size} is too small to draw")
    margin = max(12, round(size * 0.5))
    gutter = max(18, round(size * 0.85))
    title_h = max(52, round(size * 1.9))
    panel_w = panel_width(size)
    board_w = math.ceil(size * (1.5 * (columns - 1) + 2))
    board_h = math.ceil(SQRT3 * size * (rows + (0.5 if columns > 1 else 0)))
    area_w = margin + gutter + board_w + gutter + margin
    width = max(MIN_WIDTH, area_w + panel_w + margin)
    extra = width - (area_w + panel_w + margin)
    legend_h = panel_height
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
