"""Where everything of a Schrottplatz Rally track lies on the picture.

The track file lists rows in clockwise order; the picture lays them round a closed loop. A turtle walks
one row length per row, turning right only in curve rows (every curve row turns by the same angle, so the
loop turns once round in all); the small gap the walk leaves between its end and its start is spread
evenly over the rows, which closes the loop. Column ``a`` lies on the left of the walk (the outside of
the loop). Car parks stand beside their row, the pit lane beside its rows, all outward from the lane on
their side.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

from render.common import Point
from rules.rally.track import Track

ROW = 38.0  # length of a row along the track
LANE = 34.0  # width of a lane
SPOT_W = 22.0  # a parking spot along the track
SPOT_D = 30.0  # and across
GAP = 10.0  # between the track edge and a car park
MARGIN = 70.0


@dataclass(frozen=True)
class RowGeom:
    start: Point  # centre of the row's back edge (clockwise sense)
    end: Point
    h0: float  # heading at the back edge, degrees clockwise from east
    h1: float


def _along(p: Point, heading: float, dist: float) -> Point:
    a = math.radians(heading)
    return p[0] + dist * math.cos(a), p[1] + dist * math.sin(a)


def _right(p: Point, heading: float, dist: float) -> Point:
    """``dist`` to the right of the heading (negative: to the left)."""
    return _along(p, heading + 90.0, dist)


class TrackLayout:
    """Pixel geometry of one track (the same whichever way it is driven)."""

    def __init__(self, track: Track) -> None:
        self.track = track
        n = track.length
        curve_rows = sum(1 for r in track.rows if r.curve) or 1
        turn = 360.0 / curve_rows
        pos, heading = (0.0, 0.0), 0.0
        raw: list[tuple[Point, Point, float, float]] = []
        for row in track.rows:
            delta = turn if row.curve else 0.0
            end = _along(pos, heading + delta / 2, ROW)
            raw.append((pos, end, heading, heading + delta))
            pos, heading = end, heading + delta
        err = pos
        rows: list[RowGeom] = []
        for i, (a, b, h0, h1) in enumerate(raw):
            fa, fb = i / n, (i + 1) / n
            rows.append(RowGeom((a[0] - err[0] * fa, a[1] - err[1] * fa), (b[0] - err[0] * fb, b[1] - err[1] * fb),
                                h0, h1))
        # bounding box of the track with its side features
        pts: list[Point] = []
        reach = 1.5 * LANE + GAP + 3 * SPOT_D + 40
        for g in rows:
            for side in (-1, 1):
                pts.append(_right(g.start, g.h0, side * reach))
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        self.dx, self.dy = MARGIN - min(xs), MARGIN - min(ys)
        self.width = int(max(xs) - min(xs) + 2 * MARGIN)
        self.height = int(max(ys) - min(ys) + 2 * MARGIN)
        self.rows = [RowGeom(self._shift(g.start), self._shift(g.end), g.h0, g.h1) for g in rows]

    def _shift(self, p: Point) -> Point:
        return p[0] + self.dx, p[1] + self.dy

    # Cells ------------------------------------------------------------------------------------------

    def row(self, number: int) -> RowGeom:
        return self.rows[number - 1]

    def quad(self, number: int, lo: float, hi: float, t0: float = 0.0, t1: float = 1.0) -> list[Point]:
        """A band of row ``number`` from ``lo`` to ``hi`` across (lane units from the middle, positive to
        the right) and from ``t0`` to ``t1`` along."""
        g = self.row(number)
        h_a = g.h0 + (g.h1 - g.h0) * t0
        h_b = g.h0 + (g.h1 - g.h0) * t1
        a = (g.start[0] + (g.end[0] - g.start[0]) * t0, g.start[1] + (g.end[1] - g.start[1]) * t0)
        b = (g.start[0] + (g.end[0] - g.start[0]) * t1, g.start[1] + (g.end[1] - g.start[1]) * t1)
        return [_right(a, h_a, lo * LANE), _right(a, h_a, hi * LANE), _right(b, h_b, hi * LANE),
                _right(b, h_b, lo * LANE)]

    def cell_quad(self, number: int, col: str) -> list[Point]:
        j = "abc".index(col)
        return self.quad(number, j - 1.5, j - 0.5)

    def cell_centre(self, number: int, col: str) -> Point:
        return self.offset_point(number, "abc".index(col) - 1.0)

    def offset_point(self, number: int, across: float, t: float = 0.5) -> Point:
        """A point of row ``number``: ``across`` lane widths right of the middle, ``t`` of the way along."""
        g = self.row(number)
        h = g.h0 + (g.h1 - g.h0) * t
        mid = (g.start[0] + (g.end[0] - g.start[0]) * t, g.start[1] + (g.end[1] - g.start[1]) * t)
        return _right(mid, h, across * LANE)

    def heading(self, number: int) -> float:
        g = self.row(number)
        return (g.h0 + g.h1) / 2

    def side_sign(self, side: str) -> float:
        return -1.0 if side == "L" else 1.0

    def edge_offset(self, number: int, side: str) -> float:
        """Lane units from the middle to the outer edge of the row's outermost lane on ``side``."""
        lanes = self.track.row(number).lanes
        if side == "L":
            return "abc".index(lanes[0]) - 1.5
        return "abc".index(lanes[-1]) - 0.5

    # Side features --------------------------------------------------------------------------------

    def spot_boxes(self, number: int, side: str, count: int, depth: int = 0) -> list[list[Point]]:
        """Spots of a car park beside row ``number``: side by side along the row, ``depth`` rows of spots out."""
        s = self.side_sign(side)
        base = self.edge_offset(number, side) * LANE + s * (GAP + depth * (SPOT_D + 4))
        g = self.row(number)
        h = (g.h0 + g.h1) / 2
        mid = self.offset_point(number, 0.0)
        total = count * SPOT_W
        boxes = []
        for i in range(count):
            along0 = -total / 2 + i * SPOT_W + 1.5
            along1 = along0 + SPOT_W - 3
            near, far = base, base + s * SPOT_D
            corners = []
            for along, across in ((along0, near), (along1, near), (along1, far), (along0, far)):
                corners.append(_right(_along(mid, h, along), h, across))
            boxes.append(corners)
        return boxes

    def beside(self, number: int, side: str, out: float, t: float = 0.5) -> Point:
        """A point ``out`` pixels beyond the row's edge on ``side``."""
        s = self.side_sign(side)
        return self.offset_point(number, self.edge_offset(number, side) + s * out / LANE, t)


@cache
def layout_for(track: Track) -> TrackLayout:
    return TrackLayout(track)


def centre(points: list[Point]) -> Point:
    return sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)
