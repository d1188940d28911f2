"""Where the words and symbols beside a Schrottplatz Rally track go, worked out before anything is drawn.

Every label (row numbers, car-park and pit-spot names, the arch's words, the pit lane's name) and every
symbol round the track (service badges, parking spots, the stop sign, the arch's posts, road signs) is a
:class:`Mark` with the outline it covers on the picture. A label beside the track is pushed out past
whatever stands between it and the track, by its own measured size in the direction it goes (a wide name
beside a vertical straight needs more room than beside a horizontal one), so no symbol covers its first
letter. The board drawing (:mod:`render.rally.picture`) draws these marks; the tests check every label's
outline against every symbol's.

A parking spot's words ("P" and the least number of players) are stacked where the spot stands long across
the picture and side by side where it lies flat, in the largest size that stays inside the spot.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from render.common import Fitted, Font, Point, fit_text, font
from render.rally.layout import GAP, LANE, SPOT_D, TrackLayout, centre, layout_for
from rules.rally.texts import say
from rules.rally.track import Track, find_track

#: a service badge's radius, and the room between things beside the track
BADGE_R = 14.0
STOP_R = 15.0
POST_R = 5.0
SIGN_R = 10.0
CLEAR = 4.0
#: the width of the short road into a car park or the pit lane
ENTRY_W = 8.0
#: text sizes
ROW_SIZE = 11
ROW_INSIDE_SIZE = 10
AREA_SIZE = 11
PIT_SPOT_SIZE = 10
ARCH_SIZE = 13
ARCH_STROKE = 3
#: the room the arch's words have beside its post (width, height, their outline included): one line, or two
#: in smaller letters when a language's words need them
ARCH_ROOM = (104, 34)
#: the arch's words shrink down to this size on one line before they take two
ARCH_ONE_LINE = 10
PIT_SIZE = 12
PIT_STROKE = 3
SPOT_SIZES = (11, 10, 9, 8)

LABEL = "label"
ICON = "icon"

_MEASURE = ImageDraw.Draw(Image.new("L", (1, 1)))


@dataclass(frozen=True)
class Mark:
    """A label or a symbol of the static track: what it is (``what``: ``row``, ``area``, ``pit_spot``, ``arch``,
    ``pit``; ``badge``, ``spot``, ``stop``, ``post``, ``sign``), its words, its centre, its text size (or
    radius) and the outline it covers."""

    kind: str
    what: str
    text: str
    at: Point
    size: float
    outline: tuple[Point, ...]
    #: a label drawn inside the track's kerb (white on the asphalt's edge) rather than beside it
    inside: bool = False


@dataclass(frozen=True)
class SpotWords:
    """The words of one parking spot: lines ``("P", "2")`` stacked or ``("P2",)`` on one line, their size and
    centres, and the outlines of the lines."""

    lines: tuple[str, ...]
    size: int
    centres: tuple[Point, ...]
    boxes: tuple[tuple[float, float, float, float], ...]


def text_size(text: str, fnt: Font, stroke: int = 0) -> tuple[float, float]:
    """Width and height of ``text`` drawn centred (the box Pillow's ``mm`` anchor gives)."""
    x0, y0, x1, y1 = _MEASURE.textbbox((0, 0), text, font=fnt, anchor="mm", stroke_width=stroke)
    return x1 - x0, y1 - y0


def _box(c: Point, w: float, h: float) -> tuple[Point, ...]:
    x, y = c
    return (x - w / 2, y - h / 2), (x + w / 2, y - h / 2), (x + w / 2, y + h / 2), (x - w / 2, y + h / 2)


def _circle(c: Point, r: float) -> tuple[Point, ...]:
    steps = [math.radians(a) for a in range(0, 360, 30)]
    return tuple((c[0] + r * math.cos(a), c[1] + r * math.sin(a)) for a in steps)


def outward(lay: TrackLayout, row: int, side: str) -> float:
    """The direction (degrees, clockwise from east) from the track out to ``side`` of ``row``."""
    return lay.heading(row) + 90.0 * lay.side_sign(side)


def reach(w: float, h: float, angle: float) -> float:
    """Half the length of a ``w`` × ``h`` box measured along ``angle``: how far its edge lies from its centre
    that way."""
    a = math.radians(angle)
    return abs(math.cos(a)) * w / 2 + abs(math.sin(a)) * h / 2


def _label(lay: TrackLayout, row: int, side: str, start: float, text: str, size: int, what: str, *,
           bold_stroke: int = 0, t: float = 0.5) -> Mark:
    """A label just beyond ``start`` pixels out from the edge of ``row`` on ``side``."""
    w, h = text_size(text, font(size, bold=True), bold_stroke)
    at = lay.beside(row, side, start + reach(w, h, outward(lay, row, side)), t)
    return Mark(LABEL, what, text, at, size, _box(at, w, h))


@lru_cache(maxsize=8)
def track_marks(track_key: str, clockwise: bool) -> tuple[Mark, ...]:
    """Every label and symbol beside the track ``track_key`` driven ``clockwise`` (or not)."""
    track = find_track(track_key)
    lay = layout_for(track)
    marks: list[Mark] = []
    marks += _area_marks(track, lay)
    marks += _pit_marks(track, lay, clockwise)
    marks += _arch_marks(track, lay)
    marks += _sign_marks(track, lay)
    marks += _row_marks(track, lay, marks)
    return tuple(marks)


def _area_marks(track: Track, lay: TrackLayout) -> list[Mark]:
    out = []
    for area in track.areas:
        boxes = lay.spot_boxes(area.row, area.side, len(area.spots))
        out.append(Mark(ICON, "pad", area.id, centre(boxes[0] + boxes[-1]), 0, pad_outline(boxes)))
        entry = (lay.beside(area.row, area.side, 0), lay.beside(area.row, area.side, GAP))
        out.append(Mark(ICON, "entry", area.id, centre(list(entry)), 0, _band(*entry, ENTRY_W)))
        for i, box in enumerate(boxes):
            out.append(Mark(ICON, "spot", f"{area.id}.{i + 1}", centre(box), 0, tuple(box)))
        badge = lay.beside(area.row, area.side, GAP + SPOT_D + CLEAR + BADGE_R)
        out.append(Mark(ICON, "badge", area.kind, badge, BADGE_R, _circle(badge, BADGE_R + 1)))
        out.append(_label(lay, area.row, area.side, GAP + SPOT_D + 2 * CLEAR + 2 * BADGE_R, area.id, AREA_SIZE,
                          "area"))
    return out


def pad_outline(boxes: list[list[Point]]) -> tuple[Point, ...]:
    """The dark ground a car park's spots stand on: round all its spots, a little larger."""
    pad = [boxes[0][0], boxes[-1][1], boxes[-1][2], boxes[0][3]]
    mid = centre(pad)
    return tuple((p[0] + (p[0] - mid[0]) * 0.08, p[1] + (p[1] - mid[1]) * 0.08) for p in pad)


def _band(a: Point, b: Point, width: float) -> tuple[Point, ...]:
    """The outline of a straight road ``width`` wide from ``a`` to ``b`` (with round ends)."""
    ang = math.atan2(b[1] - a[1], b[0] - a[0])
    dx, dy = math.cos(ang) * width / 2, math.sin(ang) * width / 2
    a, b = (a[0] - dx, a[1] - dy), (b[0] + dx, b[1] + dy)
    return (a[0] + dy, a[1] - dx), (b[0] + dy, b[1] - dx), (b[0] - dy, b[1] + dx), (a[0] - dy, a[1] + dx)


def pit_road(lay: TrackLayout, track: Track, row: int) -> tuple[Point, ...]:
    """The pit road's piece beside ``row``: from the gap beside the track out to the spots."""
    pit = track.pit
    s = lay.side_sign(pit.side)
    e = lay.edge_offset(row, pit.side)
    lo, hi = sorted((e + s * GAP / LANE, e + s * (GAP + SPOT_D) / LANE))
    return tuple(lay.quad(row, lo, hi, -0.01, 1.01))


def pit_mouths(lay: TrackLayout, track: Track, clockwise: bool) -> tuple[tuple[Point, Point], ...]:
    """The two short roads between the track and the pit road: in at its first row, out at its last (in the
    driving direction)."""
    pit = track.pit
    entry = pit.first if clockwise else pit.last
    exit_ = pit.last if clockwise else pit.first
    return tuple((lay.beside(r, pit.side, 0), lay.beside(r, pit.side, GAP)) for r in (entry, exit_))


def _pit_marks(track: Track, lay: TrackLayout, clockwise: bool) -> list[Mark]:
    pit = track.pit
    out = []
    for r in range(pit.first, pit.last + 1):
        road = pit_road(lay, track, r)
        out.append(Mark(ICON, "pit_road", str(r), centre(list(road)), 0, road))
    for a, b in pit_mouths(lay, track, clockwise):
        out.append(Mark(ICON, "entry", "pit", centre([a, b]), 0, _band(a, b, ENTRY_W)))
    middle = (pit.first + pit.last) // 2
    at = lay.beside(middle, pit.side, GAP + SPOT_D / 2, 0.5)
    w, h = text_size("pit", font(PIT_SIZE, bold=True), PIT_STROKE)
    out.append(Mark(LABEL, "pit", "pit", at, PIT_SIZE, _box(at, w, h)))
    for i, (r, _least) in enumerate(pit.spots):
        box = lay.spot_boxes(r, pit.side, 1, depth=1)[0]
        out.append(Mark(ICON, "spot", f"pit.{i + 1}", centre(box), 0, tuple(box)))
        out.append(_label(lay, r, pit.side, GAP + 2 * SPOT_D + 4 + CLEAR, f"pit.{i + 1}", PIT_SPOT_SIZE, "pit_spot"))
    stop = stop_point(lay, track, clockwise)
    out.append(Mark(ICON, "stop", "STOP", stop, STOP_R, _circle(stop, STOP_R)))
    return out


def stop_point(lay: TrackLayout, track: Track, clockwise: bool) -> Point:
    """The stop sign: just past the end of the pit road at its exit."""
    pit = track.pit
    exit_ = pit.last if clockwise else pit.first
    return lay.beside(exit_, pit.side, GAP + SPOT_D / 2, 1.25 if clockwise else -0.25)


def arch_side(track: Track) -> str:
    """The side of the arch row its words stand on: the left unless a car park stands there."""
    return "L" if (track.arch, "L") not in track.areas_by_row else "R"


def _arch_marks(track: Track, lay: TrackLayout) -> list[Mark]:
    row = track.arch
    out = []
    for side in ("L", "R"):
        post = lay.beside(row, side, 6 if (row, side) not in track.areas_by_row else 4, 0.05)
        out.append(Mark(ICON, "post", "", post, POST_R, _circle(post, POST_R + 1)))
    side = arch_side(track)
    at = lay.beside(row, side, ARCH_START + reach(*ARCH_ROOM, outward(lay, row, side)), 0.05)
    out.append(Mark(LABEL, "arch", say("p_arch"), at, ARCH_SIZE, _box(at, *ARCH_ROOM)))
    return out


#: how far from the arch row's edge its words begin
ARCH_START = 6 + POST_R + CLEAR


@lru_cache(maxsize=16)
def arch_words(track_key: str, lang: str = "en") -> tuple[Fitted, Point]:
    """The words on the start and finish arch in ``lang`` fitted to :data:`ARCH_ROOM` (shrunk, then on two
    lines), and the centre of their block beside the post: inside the room :func:`track_marks` keeps free."""
    track = find_track(track_key)
    lay = layout_for(track)
    fitted = fit_text(_MEASURE, say("p_arch", lang), ARCH_ROOM[0] - 2 * ARCH_STROKE, ARCH_ROOM[1] - 2 * ARCH_STROKE,
                      ARCH_SIZE, bold=True, one_line_to=ARCH_ONE_LINE)
    w = max(_MEASURE.textlength(line, font=fitted.font) for line in fitted.lines) + 2 * ARCH_STROKE
    h = fitted.height + 2 * ARCH_STROKE
    row, side = track.arch, arch_side(track)
    return fitted, lay.beside(row, side, ARCH_START + reach(w, h, outward(lay, row, side)), 0.05)


def _sign_marks(track: Track, lay: TrackLayout) -> list[Mark]:
    out = []
    for row in track.rows:
        for col in row.signs:
            c = lay.cell_centre(row.number, col)
            out.append(Mark(ICON, "sign", "!", c, SIGN_R, _circle((c[0], c[1] + 1), SIGN_R)))
    return out


def busy(track: Track, number: int, side: str) -> int:
    """How crowded a side of a row is with car parks and the pit lane (0: free for a label)."""
    n = track.length
    near = {(number + k - 1) % n + 1 for k in (-2, -1, 0, 1, 2)}
    count = sum(1 for a in track.areas if a.side == side and a.row in near)
    pit = track.pit
    if pit.side == side and any(pit.first - 1 <= r <= pit.last + 1 for r in near):
        count += 1
    return count


def _row_marks(track: Track, lay: TrackLayout, others: list[Mark]) -> list[Mark]:
    """Row numbers beside every row, on the side with room; inside the kerb where both sides are taken."""
    out: list[Mark] = []
    for row in track.rows:
        text = str(row.number)
        choices = []
        for side in sorted(("L", "R"), key=lambda sd: busy(track, row.number, sd)):
            mark = _label(lay, row.number, side, 5.0, text, ROW_SIZE, "row")
            if not any(overlaps(mark.outline, o.outline) for o in (*others, *out)):
                choices.append(mark)
        if choices:
            out.append(choices[0])
            continue
        side = min(("L", "R"), key=lambda sd: busy(track, row.number, sd))
        w, h = text_size(text, font(ROW_INSIDE_SIZE, bold=True))
        at = lay.offset_point(row.number, lay.edge_offset(row.number, side) - lay.side_sign(side) * 0.25)
        out.append(Mark(LABEL, "row", text, at, ROW_INSIDE_SIZE, _box(at, w, h), inside=True))
    return out


# Parking spots' words ---------------------------------------------------------------------------------


def spot_words(box: tuple[Point, ...] | list[Point], least: int) -> SpotWords:
    """The words of a spot with outline ``box``: "P" over the number where the spot is tall enough on the
    picture, "P2" on one line where it is not, in the largest size that keeps them inside."""
    c = centre(list(box))
    for size in SPOT_SIZES:
        fnt = font(size, bold=True)
        pw, ph = text_size("P", fnt)
        nw, nh = text_size(str(least), fnt)
        gap = 1.0
        tall = ph + nh + gap
        stacked_centres = ((c[0], c[1] - tall / 2 + ph / 2), (c[0], c[1] + tall / 2 - nh / 2))
        stacked = SpotWords(("P", str(least)), size, stacked_centres,
                            (_rect(stacked_centres[0], pw, ph), _rect(stacked_centres[1], nw, nh)))
        iw, ih = text_size(f"P{least}", fnt)
        inline = SpotWords((f"P{least}",), size, (c,), (_rect(c, iw, ih),))
        for words in (stacked, inline):
            if all(_rect_inside(b, box, 1.5) for b in words.boxes):
                return words
    fnt = font(SPOT_SIZES[-1], bold=True)
    w, h = text_size(str(least), fnt)
    return SpotWords((str(least),), SPOT_SIZES[-1], (c,), (_rect(c, w, h),))


def _rect(c: Point, w: float, h: float) -> tuple[float, float, float, float]:
    return c[0] - w / 2, c[1] - h / 2, c[0] + w / 2, c[1] + h / 2


def _rect_inside(rect: tuple[float, float, float, float], poly: tuple[Point, ...] | list[Point],
                 margin: float = 0.0) -> bool:
    x0, y0, x1, y1 = rect
    corners = ((x0 - margin, y0 - margin), (x1 + margin, y0 - margin), (x1 + margin, y1 + margin),
               (x0 - margin, y1 + margin))
    return all(point_in_convex(p, poly) for p in corners)


def point_in_convex(p: Point, poly: tuple[Point, ...] | list[Point]) -> bool:
    """Whether ``p`` lies inside (or on) the convex polygon ``poly``."""
    sign = 0.0
    n = len(poly)
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        cross = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
        if abs(cross) < 1e-9:
            continue
        if sign == 0.0:
            sign = math.copysign(1.0, cross)
        elif math.copysign(1.0, cross) != sign:
            return False
    return True


def overlaps(a: tuple[Point, ...], b: tuple[Point, ...]) -> bool:
    """Whether two convex outlines overlap (they may touch): no axis of either's edges separates them."""
    for poly in (a, b):
        n = len(poly)
        for i in range(n):
            (x0, y0), (x1, y1) = poly[i], poly[(i + 1) % n]
            nx, ny = y0 - y1, x1 - x0
            pa = [nx * x + ny * y for x, y in a]
            pb = [nx * x + ny * y for x, y in b]
            if max(pa) <= min(pb) + 1e-6 or max(pb) <= min(pa) + 1e-6:
                return False
    return True


__all__ = ["ARCH_ROOM", "ICON", "LABEL", "Mark", "SpotWords", "arch_side", "arch_words", "busy", "outward", "overlaps",
           "pad_outline", "pit_mouths", "pit_road", "point_in_convex", "reach", "spot_words", "stop_point", "text_size",
           "track_marks"]
