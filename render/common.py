"""Drawing helpers shared by every picture: fonts, shapes, colours and fast PNG encoding.

Arrows and symbols are drawn as polygons because the fonts have no arrow glyphs. Points are
``(x, y)`` pixel pairs with y growing downward; angles are in degrees, clockwise from east (the
direction of +x), which is what ``math.atan2(dy, dx)`` gives on an image.
"""

from __future__ import annotations

import io
import logging
import math
import os
import re
import struct
import zlib
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from isal import isal_zlib
from PIL import GifImagePlugin, Image, ImageChops, ImageDraw, ImageFont, ImageSequence

Point = tuple[float, float]
Colour = tuple[int, int, int]
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

log = logging.getLogger(__name__)

#: the DejaVu faces the pictures use, by (bold, condensed); Debian and Ubuntu ship the first two in
#: ``fonts-dejavu-core`` and the condensed ones in ``fonts-dejavu-extra``, Fedora in ``dejavu-sans-fonts``
_FONT_FILES = {
    (False, False): "DejaVuSans.ttf",
    (True, False): "DejaVuSans-Bold.ttf",
    (False, True): "DejaVuSansCondensed.ttf",
    (True, True): "DejaVuSansCondensed-Bold.ttf",
}
#: a folder searched first for the faces (any font folder of the system is searched after it)
FONT_DIR_VARIABLE = "JUNKYARD_FONT_DIR"

#: zlib level for PNGs. Measured on the 1657×1238 board of track A after quantizing (``python -m bench
#: render``): level 1 takes 19 ms for 320 KB, level 3 21 ms for 275 KB, level 6 52 ms for 234 KB, level 9
#: about a second. Level 3 buys 14% fewer bytes for 2 ms.
PNG_COMPRESS_LEVEL = 3
#: the highest level :func:`encode_png` writes with ISA-L (levels 0–3, several times faster than zlib's at a
#: like size); higher levels (pictures drawn once and kept) go through Pillow's zlib for the smallest file
FAST_PNG_LEVEL = 3


# Fonts -----------------------------------------------------------------------------------------


@lru_cache(maxsize=8)
def font_file(name: str) -> str | None:
    """Where the font file ``name`` is: in ``$JUNKYARD_FONT_DIR``, else wherever Pillow's own search finds it
    (the system's font folders: ``XDG_DATA_DIRS/fonts`` on Linux, the Library folders on macOS, the Windows
    fonts folder); None when it is nowhere."""
    folder = os.environ.get(FONT_DIR_VARIABLE)
    for candidate in ([str(Path(folder) / name)] if folder else []) + [name]:
        try:
            return str(ImageFont.truetype(candidate, 10).path)
        except OSError:
            continue
    return None


@lru_cache(maxsize=4)
def _face(bold: bool, condensed: bool) -> str | None:
    """The file of the wanted face, or of the nearest one found (condensed → normal width); says once which
    font stands in when the wanted one is missing."""
    wanted = _FONT_FILES[(bold, condensed)]
    for name in (wanted, _FONT_FILES[(bold, False)]) if condensed else (wanted,):
        path = font_file(name)
        if path is not None:
            if name != wanted:
                log.warning("font %s not found: using %s (install fonts-dejavu-extra)", wanted, path)
            return path
    log.warning("font %s not found: using Pillow's built-in font (install fonts-dejavu-core)", wanted)
    return None


_FLOOR: ContextVar[int] = ContextVar("text_floor", default=0)


@contextmanager
def text_floor(px: int) -> Iterator[None]:
    """Inside the ``with`` block no text is drawn smaller than ``px`` pixels (:func:`font` and :func:`fit_text`
    raise smaller sizes to it): a picture that a chat shows shrunk draws its words large enough to read there."""
    token = _FLOOR.set(px)
    try:
        yield
    finally:
        _FLOOR.reset(token)


def font(size: int, bold: bool = False, condensed: bool = False) -> Font:
    """DejaVu Sans at ``size`` pixels (bold, condensed), found by :func:`font_file`; the nearest face found
    when that one is missing, and Pillow's built-in font when DejaVu is not installed at all. Never smaller
    than the :func:`text_floor` in force."""
    return _font(max(int(size), _FLOOR.get()), bold, condensed)


@lru_cache(maxsize=128)
def _font(size: int, bold: bool, condensed: bool) -> Font:
    size = max(int(size), 6)
    path = _face(bold, condensed)
    if path is None:
        return ImageFont.load_default(size=size)
    return ImageFont.truetype(path, size)


def text_box(draw: ImageDraw.ImageDraw, text: str, fnt: Font) -> Point:
    """Width and height of ``text`` in ``fnt``."""
    left, top, right, bottom = draw.textbbox((0, 0), text, font=fnt)
    return right - left, bottom - top


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: Point,
    text: str,
    fnt: Font,
    fill: Colour,
    anchor: str = "mm",
    stroke: Colour | None = None,
    stroke_width: int = 0,
) -> None:
    """Text placed by ``anchor`` (Pillow anchors: "mm" centres it on ``xy``)."""
    width = stroke_width if stroke else 0
    draw.text(xy, text, font=fnt, fill=fill, anchor=anchor, stroke_width=width, stroke_fill=stroke)
    if _OVERFLOWS is not None:
        x0, y0, x1, y1 = draw.textbbox(xy, text, font=fnt, anchor=anchor, stroke_width=width)
        if x0 < -1 or y0 < -1 or x1 > draw.im.size[0] + 1 or y1 > draw.im.size[1] + 1:  # a glyph's bearing may
            overflowed(text, "off the picture")  # reach a pixel past its anchor
    drawn = _DRAWN.get()
    if drawn is not None:
        box = draw.textbbox(xy, text, font=fnt, anchor=anchor, stroke_width=width)
        drawn.append(DrawnText(text, (round(box[0]), round(box[1]), round(box[2]), round(box[3])), draw.im.size,
                               (float(xy[0]), float(xy[1])), int(getattr(fnt, "size", 0))))


@dataclass(frozen=True)
class DrawnText:
    """A text :func:`draw_text` drew while :func:`recording_text` listened: the words, their pixel box and the
    size of the image they went on (a panel drawn apart and pasted has its own)."""

    text: str
    box: tuple[int, int, int, int]
    image: tuple[int, int]
    #: the point it was placed at (by its anchor)
    at: Point = (0.0, 0.0)
    #: the font's size in pixels (0 for Pillow's bitmap font)
    size: int = 0

    @property
    def inside(self) -> bool:
        """Whether the whole text lies on its image (nothing of it cut off at an edge)."""
        x0, y0, x1, y1 = self.box
        return x0 >= 0 and y0 >= 0 and x1 <= self.image[0] and y1 <= self.image[1]


_DRAWN: ContextVar[list[DrawnText] | None] = ContextVar("drawn_text", default=None)


@contextmanager
def recording_text() -> Iterator[list[DrawnText]]:
    """Every text drawn inside the ``with`` block, in order (for checking that words fit where they go)."""
    drawn: list[DrawnText] = []
    token = _DRAWN.set(drawn)
    try:
        yield drawn
    finally:
        _DRAWN.reset(token)


@dataclass(frozen=True)
class Overflow:
    """Words that did not fit where they were drawn: the text and what went wrong (``too big`` for its box,
    ``cut`` short to fit, ``off the picture``)."""

    text: str
    why: str


#: the overflows found while :func:`recording_overflow` listens (a plain module value, not a context variable:
#: pictures are drawn in worker threads); None, and nothing checked, otherwise
_OVERFLOWS: list[Overflow] | None = None


@contextmanager
def recording_overflow() -> Iterator[list[Overflow]]:
    """Every text inside the ``with`` block that did not fit its place, in every thread: a text
    :func:`fit_text` could not fit even at its smallest size, one cut short to fit (:func:`cut_to`, a
    person's name excepted), one drawn past the picture's edge. For tests; production never listens."""
    global _OVERFLOWS
    found: list[Overflow] = []
    before, _OVERFLOWS = _OVERFLOWS, found
    try:
        yield found
    finally:
        _OVERFLOWS = before


def overflowed(text: str, why: str) -> None:
    """Note that ``text`` did not fit (only while :func:`recording_overflow` listens)."""
    if _OVERFLOWS is not None:
        _OVERFLOWS.append(Overflow(text, why))


def cut_to(draw: ImageDraw.ImageDraw, text: str, fnt: Font, width: float, *, name: bool = False) -> str:
    """``text`` as it fits ``width`` pixels: whole, or cut with an ellipsis. Only a person's or team's name
    (``name``) may be cut so; any other cut text is noted as an overflow."""
    if draw.textlength(text, font=fnt) <= width:
        return text
    if not name:
        overflowed(text, "cut")
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if draw.textlength(text[:mid].rstrip() + "…", font=fnt) <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "…"


# Fitting words into a box ---------------------------------------------------------------------------

#: no words are drawn smaller than this to make them fit
SMALLEST_TEXT = 8


@dataclass(frozen=True)
class Fitted:
    """Words laid out to fit a box: their lines, the font and the height of a line."""

    lines: tuple[str, ...]
    font: Font
    line_h: int
    #: the font's size in pixels
    size: int = 0

    @property
    def height(self) -> int:
        return self.line_h * len(self.lines)


def _pieces(text: str) -> list[tuple[str, bool]]:
    """The places a line may break: words, and the parts of a hyphenated word (``Kronkorken-`` then
    ``Sammelstelle``), each with whether a space stands before it."""
    out: list[tuple[str, bool]] = []
    for word in text.split():
        parts = re.split(r"(?<=-)(?=.)", word)
        out += [(part, i == 0) for i, part in enumerate(parts)]
    return out


def wrap_text(draw: ImageDraw.ImageDraw, text: str, fnt: Font, width: float, break_words: bool = True
              ) -> list[str] | None:
    """``text`` broken into lines of at most ``width`` pixels at its spaces and hyphens; a word longer than a
    line is broken where it must be (or, with ``break_words`` false, None is returned). Nothing is left out."""
    lines: list[str] = []
    for piece, spaced in _pieces(text):
        joined = (f"{lines[-1]} {piece}" if spaced else lines[-1] + piece) if lines else piece
        if lines and draw.textlength(joined, font=fnt) <= width:
            lines[-1] = joined
            continue
        if draw.textlength(piece, font=fnt) > width and not break_words:
            return None
        while draw.textlength(piece, font=fnt) > width and len(piece) > 1:
            cut = len(piece) - 1
            while cut > 1 and draw.textlength(piece[:cut], font=fnt) > width:
                cut -= 1
            lines.append(piece[:cut])
            piece = piece[cut:]
        lines.append(piece)
    return lines or [""]


def fit_text(draw: ImageDraw.ImageDraw, text: str, width: float, height: float, size: int, *, bold: bool = False,
             smallest: int = SMALLEST_TEXT, spacing: float = 1.2, one_line_to: int | None = None,
             condensed: bool = False) -> Fitted:
    """``text`` in the largest font from ``size`` down that fits ``width`` × ``height`` pixels, never shortened:
    on one line while the font is no smaller than ``one_line_to`` (``size`` by default), then wrapped over
    as many lines as the height holds, at spaces and hyphens (a word is broken only when no size down to
    ``smallest`` holds it whole). Below ``smallest`` it is drawn at ``smallest``, wrapped to the width. Every
    size is raised to the :func:`text_floor` in force."""
    least = _FLOOR.get()
    size, smallest = max(size, least), max(smallest, least)
    one_line_to = max(one_line_to, least) if one_line_to is not None else None
    floor = min(size, max(smallest, one_line_to if one_line_to is not None else size))
    for s in range(size, floor - 1, -1):
        fnt = font(s, bold=bold, condensed=condensed)
        if draw.textlength(text, font=fnt) <= width and s * spacing <= height + 1:
            return Fitted((text,), fnt, round(s * spacing), s)
    for break_words in (False, True):
        for s in range(size, smallest - 1, -1):
            fnt = font(s, bold=bold, condensed=condensed)
            line_h = round(s * spacing)
            lines = wrap_text(draw, text, fnt, width, break_words)
            if lines is not None and line_h * len(lines) <= height + 1:
                return Fitted(tuple(lines), fnt, line_h, s)
    fnt = font(smallest, bold=bold, condensed=condensed)
    overflowed(text, "too big")
    return Fitted(tuple(wrap_text(draw, text, fnt, width) or [text]), fnt, round(smallest * spacing), smallest)


def fit_together(draw: ImageDraw.ImageDraw, items: Sequence[tuple[str, float]], height: float, size: int, *,
                 bold: bool = False, smallest: int = SMALLEST_TEXT, one_line_to: int | None = None) -> list[Fitted]:
    """Several texts, each ``(text, width)``, fitted as :func:`fit_text` does but all in one size (the
    largest every one of them fits at), so lines that belong together look alike."""
    first = [fit_text(draw, t, w, height, size, bold=bold, smallest=smallest, one_line_to=one_line_to)
             for t, w in items]
    common = min((f.size for f in first), default=size)
    return [fit_text(draw, t, w, height, common, bold=bold, smallest=smallest, one_line_to=one_line_to)
            for t, w in items]


def draw_bounded(draw: ImageDraw.ImageDraw, xy: Point, text: str, box: Point, size: int, fill: Colour,
                 anchor: str = "lm", *, bold: bool = False, smallest: int = SMALLEST_TEXT,
                 one_line_to: int | None = None, condensed: bool = False) -> Fitted:
    """``text`` drawn to fit ``box`` (width, height) at ``xy``: shrunk, then wrapped (:func:`fit_text`), placed
    as :func:`draw_fitted` places it; a text that cannot fit is noted (:func:`recording_overflow`)."""
    fitted = fit_text(draw, text, box[0], box[1], size, bold=bold, smallest=smallest, one_line_to=one_line_to,
                      condensed=condensed)
    draw_fitted(draw, xy, fitted, fill, anchor)
    return fitted


def draw_fitted(draw: ImageDraw.ImageDraw, xy: Point, fitted: Fitted, fill: Colour, anchor: str = "lm") -> None:
    """The lines of ``fitted`` as a block: ``anchor``'s first letter places it across (``l``, ``m``, ``r``), its
    second letter places the block's top, middle or bottom (``t``, ``m``, ``b``) at ``xy``."""
    x, y = xy
    top = {"t": y, "b": y - fitted.height}.get(anchor[1], y - fitted.height / 2)
    for i, line in enumerate(fitted.lines):
        draw_text(draw, (x, top + fitted.line_h * (i + 0.5)), line, fitted.font, fill, anchor=anchor[0] + "m")


# Colours ---------------------------------------------------------------------------------------


def mix(a: Colour, b: Colour, t: float) -> Colour:
    """The colour ``t`` of the way from ``a`` to ``b``."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def darker(c: Colour, amount: float = 0.3) -> Colour:
    return mix(c, (0, 0, 0), amount)


def lighter(c: Colour, amount: float = 0.3) -> Colour:
    return mix(c, (255, 255, 255), amount)


def hex_colour(text: str) -> Colour:
    """``"#a0703c"`` → ``(160, 112, 60)``."""
    t = text.lstrip("#")
    return int(t[0:2], 16), int(t[2:4], 16), int(t[4:6], 16)


# Points and shapes -----------------------------------------------------------------------------


def polar(origin: Point, angle: float, distance: float) -> Point:
    """The point ``distance`` from ``origin`` in direction ``angle`` (degrees, clockwise from east)."""
    a = math.radians(angle)
    return origin[0] + distance * math.cos(a), origin[1] + distance * math.sin(a)


def angle_of(a: Point, b: Point) -> float:
    """Direction from ``a`` to ``b`` in degrees."""
    return math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))


def midpoint(a: Point, b: Point, t: float = 0.5) -> Point:
    return a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t


def distance(a: Point, b: Point) -> float:
    return math.hypot(b[0] - a[0], b[1] - a[1])


def rotate(points: Iterable[Point], angle: float, origin: Point = (0.0, 0.0)) -> list[Point]:
    """Points turned ``angle`` degrees (clockwise on an image) about ``origin``."""
    a = math.radians(angle)
    ca, sa = math.cos(a), math.sin(a)
    ox, oy = origin
    return [(ox + (x - ox) * ca - (y - oy) * sa, oy + (x - ox) * sa + (y - oy) * ca) for x, y in points]


def place(shape: Iterable[Point], centre: Point, angle: float = 0.0, scale: float = 1.0) -> list[Point]:
    """A shape defined around (0, 0) pointing east, scaled, turned to ``angle`` and moved to ``centre``."""
    a = math.radians(angle)
    ca, sa = math.cos(a), math.sin(a)
    cx, cy = centre
    return [(cx + scale * (x * ca - y * sa), cy + scale * (x * sa + y * ca)) for x, y in shape]


def regular_polygon(centre: Point, radius: float, sides: int, rotation: float = 0.0) -> list[Point]:
    return [polar(centre, rotation + 360.0 * i / sides, radius) for i in range(sides)]


def star_polygon(centre: Point, outer: float, inner: float, points: int, rotation: float = -90.0) -> list[Point]:
    """A star or crimped ring outline: ``points`` tips at ``outer`` with dips at ``inner`` between."""
    out: list[Point] = []
    for i in range(points * 2):
        out.append(polar(centre, rotation + 180.0 * i / points, outer if i % 2 == 0 else inner))
    return out


def triangle(centre: Point, angle: float, size: float, width: float = 0.9) -> list[Point]:
    """An isosceles triangle around ``centre`` pointing toward ``angle``; ``size`` is its length."""
    half = size / 2
    return place([(half, 0.0), (-half, -size * width / 2), (-half, size * width / 2)], centre, angle)


def arrow_polygon(
    tail: Point, head: Point, shaft_width: float, head_width: float | None = None, head_length: float | None = None
) -> list[Point]:
    """A solid arrow from ``tail`` to ``head`` (the tip), as one polygon of seven points."""
    length = distance(tail, head)
    hw = head_width if head_width is not None else shaft_width * 2.6
    hl = min(head_length if head_length is not None else hw * 0.9, length)
    sw = shaft_width / 2
    shape = [
        (0.0, -sw),
        (length - hl, -sw),
        (length - hl, -hw / 2),
        (length, 0.0),
        (length - hl, hw / 2),
        (length - hl, sw),
        (0.0, sw),
    ]
    return place(shape, tail, angle_of(tail, head))


def clip_polygon(subject: Sequence[Point], clip: Sequence[Point]) -> list[Point]:
    """The part of ``subject`` inside the convex polygon ``clip`` (Sutherland–Hodgman).

    Lets a texture (planks, stripes) be cut to a hex without a mask image.
    """
    if len(clip) < 3:
        return []
    # Orientation of the clip polygon, so "inside" is on the correct side of each edge.
    area = sum(clip[i][0] * clip[(i + 1) % len(clip)][1] - clip[(i + 1) % len(clip)][0] * clip[i][1]
               for i in range(len(clip)))
    sign = 1.0 if area > 0 else -1.0

    def inside(p: Point, a: Point, b: Point) -> bool:
        return sign * ((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])) >= 0

    def cut(p: Point, q: Point, a: Point, b: Point) -> Point:
        dx, dy = q[0] - p[0], q[1] - p[1]
        ex, ey = b[0] - a[0], b[1] - a[1]
        den = dx * ey - dy * ex
        if den == 0:
            return q
        t = ((a[0] - p[0]) * ey - (a[1] - p[1]) * ex) / den
        return p[0] + t * dx, p[1] + t * dy

    out = list(subject)
    for i in range(len(clip)):
        a, b = clip[i], clip[(i + 1) % len(clip)]
        src, out = out, []
        if not src:
            break
        prev = src[-1]
        for cur in src:
            if inside(cur, a, b):
                if not inside(prev, a, b):
                    out.append(cut(prev, cur, a, b))
                out.append(cur)
            elif inside(prev, a, b):
                out.append(cut(prev, cur, a, b))
            prev = cur
    return out


def draw_polygon(
    draw: ImageDraw.ImageDraw,
    points: Sequence[Point],
    fill: Colour | None,
    outline: Colour | None = None,
    width: int = 1,
) -> None:
    """A polygon with an outline of any width (Pillow's polygon outline is drawn inside the shape)."""
    pts = [(float(x), float(y)) for x, y in points]
    draw.polygon(pts, fill=fill, outline=outline if outline and width > 0 else None, width=max(width, 1))


def draw_arrow(
    draw: ImageDraw.ImageDraw,
    tail: Point,
    head: Point,
    fill: Colour,
    shaft_width: float,
    outline: Colour | None = None,
    outline_width: int = 1,
    head_width: float | None = None,
    head_length: float | None = None,
) -> None:
    """A solid arrow shape with an optional dark rim so it reads on any background."""
    pts = arrow_polygon(tail, head, shaft_width, head_width, head_length)
    if outline is not None and outline_width > 0:
        # Draw a slightly fatter arrow in the outline colour first: a rim on all sides.
        ow = outline_width
        hw = head_width if head_width is not None else shaft_width * 2.6
        hl = head_length if head_length is not None else hw * 0.9
        ang = angle_of(tail, head)
        t2 = polar(tail, ang + 180, ow)
        h2 = polar(head, ang, ow * 1.6)
        rim = arrow_polygon(t2, h2, shaft_width + 2 * ow, hw + 3 * ow, hl + 2 * ow)
        draw_polygon(draw, rim, outline)
    draw_polygon(draw, pts, fill)


def draw_triangle(
    draw: ImageDraw.ImageDraw,
    centre: Point,
    angle: float,
    size: float,
    fill: Colour,
    outline: Colour | None = None,
    outline_width: int = 1,
    width: float = 0.9,
) -> None:
    """A pointing triangle with an optional rim (the rim is a larger triangle behind it)."""
    if outline is not None and outline_width > 0:
        draw_polygon(draw, triangle(centre, angle, size + 3 * outline_width, width), outline)
    draw_polygon(draw, triangle(centre, angle, size, width), fill)


def thick_line(
    draw: ImageDraw.ImageDraw, a: Point, b: Point, width: float, fill: Colour, round_caps: bool = True
) -> None:
    """A line of any width with round ends, so joined segments meet without notches."""
    draw.line([a, b], fill=fill, width=max(round(width), 1))
    if round_caps and width > 2:
        r = width / 2
        for x, y in (a, b):
            draw.ellipse([x - r, y - r, x + r, y + r], fill=fill)


def dashed_line(
    draw: ImageDraw.ImageDraw, a: Point, b: Point, fill: Colour, width: float, dash: float, gap: float
) -> None:
    """A dashed line from ``a`` to ``b``."""
    length = distance(a, b)
    if length <= 0:
        return
    step = dash + gap
    pos = 0.0
    while pos < length:
        end = min(pos + dash, length)
        draw.line([midpoint(a, b, pos / length), midpoint(a, b, end / length)], fill=fill, width=max(round(width), 1))
        pos += step


# Encoding --------------------------------------------------------------------------------------


def build_palette(image: Image.Image, extra: Sequence[Colour] = (), colors: int = 256) -> Image.Image:
    """A palette image for ``quantize(palette=…)``: ``image``'s own colours (FASTOCTREE) plus ``extra``.

    Quantizing to a fixed palette is several times faster than FASTOCTREE (about 5 ms against 40 ms for
    a 1650×1240 board), so a cached board builds its palette once and every frame drawn on it reuses
    it. Put the colours of everything drawn on top (karts, highlights) in ``extra`` so they stay exact.
    """
    extra = list(dict.fromkeys((c[0], c[1], c[2]) for c in extra))
    if len(extra) > colors - 16:
        raise ValueError(f"{len(extra)} extra colours leave too little room in a {colors}-colour palette")
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    pal = rgb.quantize(colors=colors - len(extra), method=Image.Quantize.FASTOCTREE)
    entries = (pal.getpalette() or [])[: 3 * (colors - len(extra))]
    for c in extra:
        entries.extend(c)
    out = Image.new("P", (1, 1))
    out.putpalette(entries)
    return out


def to_palette(image: Image.Image, palette: Image.Image | None = None, colors: int = 256) -> Image.Image:
    """A palette ("P") copy of ``image``: with a fixed ``palette`` image if given, else FASTOCTREE."""
    if image.mode == "P":
        return image
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    if palette is not None:
        return rgb.quantize(palette=palette, dither=Image.Dither.NONE)
    return rgb.quantize(colors=colors, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def encode_png(
    image: Image.Image,
    compress_level: int = PNG_COMPRESS_LEVEL,
    palette: Image.Image | None = None,
    quantize: bool = True,
    fast: bool = True,
) -> bytes:
    """PNG bytes of ``image``: reduced to a 256-colour palette (fastest and smallest) unless
    ``quantize`` is false. A palette image at a level up to :data:`FAST_PNG_LEVEL` is written by
    :func:`palette_png` (about a tenth bigger than zlib's, ten times sooner) unless ``fast`` is false (a
    picture held to a size); anything else by Pillow, with no optimize pass."""
    out = to_palette(image, palette) if quantize else image
    if fast and out.mode == "P" and compress_level <= FAST_PNG_LEVEL and out.palette is not None \
            and out.palette.mode == "RGB":
        return palette_png(out)
    buf = io.BytesIO()
    out.save(buf, format="PNG", compress_level=compress_level, optimize=False)
    return buf.getvalue()


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def palette_png(image: Image.Image) -> bytes:
    """PNG bytes of an 8-bit palette image (RGB palette, optional transparency), its pixels compressed by
    ISA-L: the picture after every move is encoded here, and zlib's deflate was most of its cost."""
    width, height = image.size
    entries = image.getpalette("RGB") or [0, 0, 0]
    count = min(256, len(entries) // 3)
    framed = Image.new("P", (width + 1, height), 0)  # a column of zeros before each row: filter type 0 (none)
    framed.paste(image, (1, 0))
    rows = framed.tobytes()
    chunks = [_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)),
              _chunk(b"PLTE", bytes(entries[: 3 * count]))]
    see_through = image.info.get("transparency")
    if isinstance(see_through, int) and 0 <= see_through < count:
        chunks.append(_chunk(b"tRNS", b"\xff" * see_through + b"\0"))
    elif isinstance(see_through, bytes) and see_through:
        chunks.append(_chunk(b"tRNS", see_through[:count]))
    chunks.append(_chunk(b"IDAT", isal_zlib.compress(rows, 1)))
    return b"\x89PNG\r\n\x1a\n" + b"".join(chunks) + _chunk(b"IEND", b"")


# Animated GIFs ---------------------------------------------------------------------------------

#: the palette index a replay keeps free: in a frame after the first it means "unchanged since the last frame"
GIF_UNCHANGED = 255
_SAME = [255] + [0] * 255  # a difference of 0: the pixel did not change


def gif_palette(image: Image.Image, extra: Sequence[Colour] = ()) -> Image.Image:
    """The one palette every frame of a replay uses: ``image``'s colours and ``extra`` in 255 entries,
    and a spare last entry (:data:`GIF_UNCHANGED`) that no picture uses, for transparency."""
    pal = build_palette(image, extra, colors=255)
    entries = [*(pal.getpalette() or [])[: 3 * 255], 255, 0, 255]
    out = Image.new("P", (1, 1))
    out.putpalette(entries)
    return out


def gif_seconds(data: bytes) -> float:
    """How long an animated GIF plays once through, in seconds (its frames' durations added up)."""
    gif = Image.open(io.BytesIO(data))
    total = 0
    for frame in ImageSequence.Iterator(gif):
        total += int(frame.info.get("duration", 0))
    return total / 1000


def write_gif(frames: list[Image.Image], durations: list[int]) -> bytes:
    """An animated GIF, looping for ever, of ``frames`` (all quantized to one :func:`gif_palette`) with ONE
    global colour table. Each frame after the first keeps only the box that changed since the frame
    before, and inside it every unchanged pixel is :data:`GIF_UNCHANGED`, which the LZW coder packs into
    almost nothing. A frame equal to the one before only lengthens the one before."""
    header, _ = GifImagePlugin.getheader(frames[0], None, {"loop": 0, "optimize": False})
    parts: list[tuple[Image.Image, tuple[int, int], int]] = [(frames[0], (0, 0), durations[0])]
    for prev, cur, ms in zip(frames, frames[1:], durations[1:], strict=False):
        diff = ImageChops.difference(prev, cur)
        box = diff.getbbox()
        if box is None:
            img, at, before = parts[-1]
            parts[-1] = (img, at, before + ms)
            continue
        delta = cur.crop(box)
        delta.paste(GIF_UNCHANGED, mask=diff.crop(box).point(_SAME, "1"))
        parts.append((delta, (box[0], box[1]), ms))
    out = bytearray(b"".join(header))
    for img, at, ms in parts:
        out += b"".join(GifImagePlugin.getdata(img, offset=at, duration=ms, disposal=1, transparency=GIF_UNCHANGED))
    out += b";"
    return bytes(out)
