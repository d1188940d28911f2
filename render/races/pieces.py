"""The pieces drawn on a live Junkyard Races picture: karts, junk tiles and traps, dice, flags, and the
small marks that show where something happened during the last move.

Every routine draws at a centre with a size in pixels, so the board, the status panel, the Kart Card
and the replay all draw the same kart, tile or die. Shapes only: the fonts have no arrows or icons.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from PIL import ImageDraw

from render.common import (
    Colour,
    Point,
    darker,
    draw_arrow,
    draw_polygon,
    draw_text,
    font,
    lighter,
    place,
    polar,
    regular_polygon,
    star_polygon,
)
from render.races.symbols import CAP_FACE, CAP_RIM, CAP_TEXT, INK, STREAM_LIGHT, WHITE, draw_spanner
from rules.races import catalogue

# Colours ---------------------------------------------------------------------------------------

TILE_BACK = (214, 166, 70)  # a face-down junk tile: ochre with a dark spanner (the spanner side up)
TILE_BACK_RIM = (92, 60, 20)
TILE_SPANNER = (74, 46, 16)
TILE_FACE = (238, 228, 204)  # a face-up tile in a saddlebag

#: token colour of every junk kind (traps on the board, face-up tiles in saddlebags)
KIND_COLOURS: dict[str, Colour] = {
    "glue": (246, 222, 72),
    "oil": (26, 26, 32),
    "acid": (126, 214, 40),
    "spring": (178, 186, 198),
    "time-bomb": (206, 44, 40),
    "bomb": (60, 60, 66),
    "missile": (96, 120, 150),
    "magnet": (56, 96, 200),
    "turbo-fuel": (240, 240, 236),
    "jet-fuel": (222, 60, 40),
}
FLAG_ON = (250, 250, 246)
FLAG_OFF = (84, 78, 70)
DICE_COLOURS: dict[str, tuple[Colour, Colour]] = {  # body, pips
    "green": ((40, 160, 60), (250, 250, 246)),
    "white": ((246, 246, 242), (24, 22, 20)),
    "red": ((214, 40, 40), (250, 250, 246)),
}
BUMP = (255, 196, 30)
BLAST = (255, 110, 20)
SPLASH = (150, 210, 255)
PICKUP = (70, 220, 90)
PATH_CASING = (16, 14, 12)


@cache
def kart_colour(name: str) -> Colour:
    """RGB of a kart colour name (R13), grey for an unknown name."""
    return catalogue.supply().colours.get(name, (160, 160, 160))


def ink_on(colour: Colour) -> Colour:
    """Black or white, whichever reads on ``colour``."""
    r, g, b = colour
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else WHITE


def rim_for(colour: Colour) -> Colour:
    """The outline of a kart: dark, but light round a dark kart so it stays visible on the junk."""
    return (200, 200, 196) if sum(colour) < 150 else INK


# Karts -----------------------------------------------------------------------------------------

_BODY = [(-0.46, -0.28), (0.14, -0.30), (0.52, -0.08), (0.52, 0.08), (0.14, 0.30), (-0.46, 0.28)]
_NOSE = [(0.10, -0.22), (0.60, 0.0), (0.10, 0.22)]
_WHEELS = [(-0.30, -0.36), (-0.30, 0.36), (0.24, -0.34), (0.24, 0.34)]
_SPOILER = [(-0.56, -0.34), (-0.44, -0.34), (-0.44, 0.34), (-0.56, 0.34)]


def draw_kart(draw: ImageDraw.ImageDraw, centre: Point, length: float, angle: float, colour: Colour,
              mark: str = "") -> None:
    """A kart seen from above, ``length`` pixels long, nose toward ``angle``, with ``mark`` (a seat
    number) on a disc in the middle, upright so it reads whichever way the kart faces."""
    rim = rim_for(colour)
    w = max(1, round(length * 0.06))
    for wx, wy in _WHEELS:
        wheel = place([(-0.11, -0.07), (0.11, -0.07), (0.11, 0.07), (-0.11, 0.07)], (0, 0), 0, 1)
        pts = place([(wx + x, wy + y) for x, y in wheel], centre, angle, length)
        draw_polygon(draw, pts, (20, 20, 20), rim if rim != INK else None, 1)
    draw_polygon(draw, place(_SPOILER, centre, angle, length), darker(colour, 0.35), rim, 1)
    draw_polygon(draw, place(_BODY, centre, angle, length), colour, rim, w)
    draw_polygon(draw, place(_NOSE, centre, angle, length), lighter(colour, 0.25) if sum(colour) < 600 else
                 darker(colour, 0.12), rim, w)
    if mark:
        r = length * 0.2
        cx, cy = centre
        disc = WHITE if sum(colour) < 600 else INK
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=disc, outline=rim, width=max(1, w // 2))
        draw_text(draw, (cx, cy + length * 0.01), mark, font(max(8, round(length * 0.3)), bold=True),
                  ink_on(disc))


def draw_splash(draw: ImageDraw.ImageDraw, centre: Point, size: float) -> None:
    """Rings and drops round a kart in the stream (it waits for its Landing Point, R8)."""
    cx, cy = centre
    for k, colour in ((0.95, WHITE), (0.78, SPLASH)):
        r = size * k
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], outline=colour, width=max(2, round(size * 0.09)))
    for i in range(6):
        p = polar(centre, 30 + 60 * i, size * 1.08)
        r = size * 0.08
        draw.ellipse([p[0] - r, p[1] - r, p[0] + r, p[1] + r], fill=WHITE)


# Tiles and traps ---------------------------------------------------------------------------------


def draw_tile_back(draw: ImageDraw.ImageDraw, centre: Point, size: float) -> None:
    """A face-down junk tile: an ochre square with the spanner up (its kind is secret, R12)."""
    cx, cy = centre
    h = size * 0.42
    rad = max(2, round(size * 0.12))
    sh = max(1, round(size * 0.06))
    draw.rounded_rectangle([cx - h + sh, cy - h + sh, cx + h + sh, cy + h + sh], radius=rad, fill=(18, 16, 14))
    draw.rounded_rectangle([cx - h, cy - h, cx + h, cy + h], radius=rad, fill=TILE_BACK, outline=TILE_BACK_RIM,
                           width=max(1, round(size * 0.06)))
    draw_spanner(draw, centre, size * 0.72, TILE_SPANNER, TILE_BACK)


def _token(draw: ImageDraw.ImageDraw, centre: Point, r: float, fill: Colour) -> None:
    cx, cy = centre
    sh = max(1, round(r * 0.12))
    draw.ellipse([cx - r + sh, cy - r + sh, cx + r + sh, cy + r + sh], fill=(14, 12, 10))
    draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=fill, outline=INK, width=max(1, round(r * 0.12)))


def _icon_glue(draw: ImageDraw.ImageDraw, c: Point, r: float) -> None:
    blob = star_polygon(c, r * 0.62, r * 0.42, 7, rotation=-70)
    draw_polygon(draw, blob, WHITE, INK, max(1, round(r * 0.08)))
    for dx in (-0.32, 0.0, 0.3):
        p = (c[0] + r * dx, c[1] + r * 0.62)
        d = r * 0.1
        draw.ellipse([p[0] - d, p[1] - d, p[0] + d, p[1] + d * 1.6], fill=WHITE)


def _icon_oil(draw: ImageDraw.ImageDraw, c: Point, r: float) -> None:
    for k, colour in ((0.62, (120, 60, 170)), (0.46, (40, 130, 170)), (0.3, (60, 150, 60))):
        rr = r * k
        draw.ellipse([c[0] - rr, c[1] - rr * 0.7, c[0] + rr, c[1] + rr * 0.7], outline=colour,
                     width=max(1, round(r * 0.09)))


def _icon_acid(draw: ImageDraw.ImageDraw, c: Point, r: float) -> None:
    cx, cy = c
    drop = [(cx, cy - r * 0.66), (cx + r * 0.36, cy + r * 0.06), (cx + r * 0.3, cy + r * 0.34),
            (cx, cy + r * 0.5), (cx - r * 0.3, cy + r * 0.34), (cx - r * 0.36, cy + r * 0.06)]
    draw_polygon(draw, drop, (30, 60, 10), None)
    b = r * 0.14
    draw.ellipse([cx - b * 1.6, cy + b * 0.2, cx - b * 0.2, cy + b * 1.6], fill=(170, 250, 90))


def _icon_spring(draw: ImageDraw.ImageDraw, c: Point, r: float) -> None:
    cx, cy = c
    pts = []
    turns = 4
    for i in range(turns * 2 + 1):
        x = cx + (-0.5 if i % 2 == 0 else 0.5) * r * 0.9
        y = cy - r * 0.55 + r * 1.1 * i / (turns * 2)
        pts.append((x, y))
    draw.line(pts, fill=(30, 34, 40), width=max(2, round(r * 0.16)), joint="curve")


def _icon_time_bomb(draw: ImageDraw.ImageDraw, c: Point, r: float) -> None:
    cx, cy = c
    rr = r * 0.56
    draw.ellipse([cx - rr, cy - rr, cx + rr, cy + rr], fill=WHITE, outline=INK, width=max(1, round(r * 0.08)))
    w = max(1, round(r * 0.12))
    draw.line([c, (cx, cy - rr * 0.75)], fill=INK, width=w)
    draw.line([c, (cx + rr * 0.55, cy + rr * 0.1)], fill=INK, width=w)


def _icon_bomb(draw: ImageDraw.ImageDraw, c: Point, r: float) -> None:
    cx, cy = c
    rr = r * 0.5
    draw.ellipse([cx - rr, cy - rr * 0.8, cx + rr, cy + rr * 1.2], fill=(16, 16, 18), outline=(120, 120, 126))
    fuse = polar((cx, cy - rr * 0.6), -50, r * 0.4)
    draw.line([(cx + rr * 0.3, cy - rr * 0.6), fuse], fill=(230, 200, 150), width=max(1, round(r * 0.1)))
    draw_polygon(draw, star_polygon(fuse, r * 0.22, r * 0.09, 5), BLAST)


def _icon_missile(draw: ImageDraw.ImageDraw, c: Point, r: float) -> None:
    body = [(-0.55, -0.13), (0.3, -0.13), (0.62, 0.0), (0.3, 0.13), (-0.55, 0.13)]
    fins = [(-0.6, -0.34), (-0.32, -0.13), (-0.32, 0.13), (-0.6, 0.34)]
    draw_polygon(draw, place(fins, c, -35, r), (200, 40, 40))
    draw_polygon(draw, place(body, c, -35, r), WHITE, INK, 1)


def _icon_magnet(draw: ImageDraw.ImageDraw, c: Point, r: float) -> None:
    cx, cy = c
    w = max(2, round(r * 0.26))
    rr = r * 0.42
    draw.arc([cx - rr, cy - rr * 0.2 - rr, cx + rr, cy - rr * 0.2 + rr], 180, 360, fill=(214, 40, 40), width=w)
    for side in (-1, 1):
        x = cx + side * (rr - w / 2)
        draw.line([(x, cy - rr * 0.2), (x, cy + rr * 0.45)], fill=(214, 40, 40), width=w)
        draw.line([(x, cy + rr * 0.45), (x, cy + rr * 0.75)], fill=WHITE, width=w)


def _icon_fuel(colour: Colour) -> Callable[[ImageDraw.ImageDraw, Point, float], None]:
    def icon(draw: ImageDraw.ImageDraw, c: Point, r: float) -> None:
        cx, cy = c
        w, h = r * 0.5, r * 0.62
        draw.rounded_rectangle([cx - w, cy - h * 0.8, cx + w, cy + h], radius=max(1, round(r * 0.12)), fill=colour,
                               outline=INK, width=max(1, round(r * 0.08)))
        draw.rectangle([cx + w * 0.2, cy - h * 1.1, cx + w * 0.6, cy - h * 0.8], fill=INK)
        draw.line([(cx - w * 0.6, cy - h * 0.5), (cx + w * 0.6, cy + h * 0.7)], fill=darker(colour, 0.35),
                  width=max(1, round(r * 0.1)))

    return icon


_ICONS = {
    "glue": _icon_glue,
    "oil": _icon_oil,
    "acid": _icon_acid,
    "spring": _icon_spring,
    "time-bomb": _icon_time_bomb,
    "bomb": _icon_bomb,
    "missile": _icon_missile,
    "magnet": _icon_magnet,
    "turbo-fuel": _icon_fuel((250, 250, 246)),
    "jet-fuel": _icon_fuel((236, 70, 46)),
}


def draw_trap(draw: ImageDraw.ImageDraw, centre: Point, size: float, kind: str, arrow: float | None = None,
              owner: Colour | None = None) -> None:
    """A face-up tile (a trap on the board, or a shown tile): a round token in the kind's colour with
    its icon. Oil gets a white arrow toward ``arrow`` (degrees); ``owner`` adds a dot in that colour."""
    r = size * 0.44
    fill = KIND_COLOURS.get(kind, TILE_FACE)
    if kind == "oil" and arrow is not None:
        tip = polar(centre, arrow, size * 0.86)
        draw_arrow(draw, polar(centre, arrow, size * 0.1), tip, WHITE, shaft_width=size * 0.16,
                   outline=INK, outline_width=max(1, round(size * 0.05)), head_width=size * 0.46,
                   head_length=size * 0.34)
    _token(draw, centre, r, fill)
    icon = _ICONS.get(kind)
    if icon is not None:
        icon(draw, centre, r)
    else:
        draw_text(draw, centre, "?", font(max(8, round(r)), bold=True), INK)
    if kind == "oil" and arrow is not None:
        draw_arrow(draw, polar(centre, arrow, -size * 0.2), polar(centre, arrow, size * 0.42), WHITE,
                   shaft_width=size * 0.12, head_width=size * 0.32, head_length=size * 0.22)
    if owner is not None:
        p = polar(centre, 135, r * 0.95)
        d = max(2.0, size * 0.13)
        draw.ellipse([p[0] - d, p[1] - d, p[0] + d, p[1] + d], fill=owner, outline=INK)


def draw_tile(draw: ImageDraw.ImageDraw, centre: Point, size: float, tile: str) -> None:
    """A saddlebag tile as its view shows it: ``hidden`` as a back, ``kind`` or ``kind+`` as its token
    (``+`` marks a tile its owner shows to everyone: a small eye under it)."""
    kind = tile.rstrip("+")
    if kind == "hidden":
        draw_tile_back(draw, centre, size)
        return
    cx, cy = centre
    h = size * 0.46
    rad = max(2, round(size * 0.12))
    draw.rounded_rectangle([cx - h, cy - h, cx + h, cy + h], radius=rad, fill=TILE_FACE, outline=TILE_BACK_RIM,
                           width=max(1, round(size * 0.05)))
    draw_trap(draw, centre, size * 0.9, kind)
    if tile.endswith("+"):
        e = size * 0.16
        y = cy + h - e * 0.2
        draw.ellipse([cx - e * 1.6, y - e, cx + e * 1.6, y + e], fill=WHITE, outline=INK)
        draw.ellipse([cx - e * 0.5, y - e * 0.5, cx + e * 0.5, y + e * 0.5], fill=INK)


# Dice, flags, bottle tops ------------------------------------------------------------------------

_PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}


def draw_die(draw: ImageDraw.ImageDraw, centre: Point, side: float, colour: str, value: int | None) -> None:
    """A die of ``colour`` (green, white, red) showing ``value`` (no pips when None)."""
    body, pip = DICE_COLOURS.get(colour, DICE_COLOURS["white"])
    cx, cy = centre
    h = side / 2
    draw.rounded_rectangle([cx - h, cy - h, cx + h, cy + h], radius=max(2, round(side * 0.18)), fill=body,
                           outline=INK, width=max(1, round(side * 0.06)))
    if value in _PIPS:
        r = side * 0.09
        for px, py in _PIPS[value]:
            x, y = cx + px * side * 0.26, cy + py * side * 0.26
            draw.ellipse([x - r, y - r, x + r, y + r], fill=pip)


def draw_flag(draw: ImageDraw.ImageDraw, centre: Point, size: float, earned: bool) -> None:
    """A Checkered Flag counter: chequered when earned, a dim outline when still to win."""
    cx, cy = centre
    pole_x = cx - size * 0.4
    draw.line([(pole_x, cy - size * 0.5), (pole_x, cy + size * 0.5)], fill=FLAG_ON if earned else FLAG_OFF,
              width=max(1, round(size * 0.1)))
    x0, y0 = pole_x + 1, cy - size * 0.48
    w, h = size * 0.8, size * 0.56
    if not earned:
        draw.rectangle([x0, y0, x0 + w, y0 + h], outline=FLAG_OFF, width=1)
        return
    n = 3
    for i in range(n):
        for j in range(2):
            colour = WHITE if (i + j) % 2 == 0 else INK
            draw.rectangle([x0 + w * i / n, y0 + h * j / 2, x0 + w * (i + 1) / n, y0 + h * (j + 1) / 2], fill=colour)
    draw.rectangle([x0, y0, x0 + w, y0 + h], outline=WHITE, width=1)


def draw_cap_icon(draw: ImageDraw.ImageDraw, centre: Point, size: float) -> None:
    """A small crown bottle cap (the currency)."""
    cx, cy = centre
    draw_polygon(draw, star_polygon(centre, size * 0.5, size * 0.42, 12), CAP_RIM, (120, 86, 10), 1)
    r = size * 0.3
    draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=CAP_FACE, outline=CAP_TEXT, width=1)


# Marks of the last move ----------------------------------------------------------------------------


def draw_mark(draw: ImageDraw.ImageDraw, centre: Point, size: float, what: str) -> None:
    """A badge for something that happened on a cell during the last move, on a dark disc so it
    reads on any ground."""
    r = size * 0.34
    cx, cy = centre
    back = r * 1.25
    draw.ellipse([cx - back, cy - back, cx + back, cy + back], fill=PATH_CASING)
    if what in ("bump", "blast", "bomb", "missile"):
        colour = BUMP if what == "bump" else BLAST
        draw_polygon(draw, star_polygon(centre, r * 1.15, r * 0.55, 8, rotation=-90 + 22.5), colour, INK, 1)
        if what != "bump":
            rr = r * 0.35
            draw.ellipse([cx - rr, cy - rr, cx + rr, cy + rr], fill=(255, 240, 160))
        return
    if what == "pickup":
        h = r * 0.8
        draw.rounded_rectangle([cx - h, cy - h, cx + h, cy + h], radius=max(1, round(r * 0.25)), fill=TILE_BACK,
                               outline=INK, width=1)
        w = max(2, round(r * 0.32))
        draw.line([(cx - h * 0.6, cy), (cx + h * 0.6, cy)], fill=(20, 110, 40), width=w)
        draw.line([(cx, cy - h * 0.6), (cx, cy + h * 0.6)], fill=(20, 110, 40), width=w)
        return
    if what == "splash":
        for k in (1.1, 0.7):
            rr = r * k
            draw.ellipse([cx - rr, cy - rr * 0.6, cx + rr, cy + rr * 0.6], outline=WHITE, width=max(1, round(r * 0.2)))
        draw.ellipse([cx - r * 0.25, cy - r * 0.9, cx + r * 0.25, cy - r * 0.4], fill=STREAM_LIGHT)
        return
    if what == "bottle-tops":
        draw_cap_icon(draw, centre, r * 2.1)
        return
    if what in ("stuck", "blocked"):
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=(120, 80, 40), outline=INK, width=1)
        draw_text(draw, (cx, cy + r * 0.05), "!", font(max(8, round(r * 1.5)), bold=True), WHITE)
        return
    if what in _ICONS:
        draw_trap(draw, centre, r * 2.2, what)
        return
    draw.ellipse([cx - r * 0.6, cy - r * 0.6, cx + r * 0.6, cy + r * 0.6], fill=WHITE, outline=INK)


def hex_ring(centre: Point, size: float, scale: float) -> list[Point]:
    """The outline of a flat-top hex of circumradius ``size * scale``."""
    return regular_polygon(centre, size * scale, 6)


#: every colour the live pieces draw with, so a fixed palette keeps them exact
PIECE_COLOURS: tuple[Colour, ...] = (
    TILE_BACK, TILE_BACK_RIM, TILE_SPANNER, TILE_FACE, FLAG_ON, FLAG_OFF, BUMP, BLAST, SPLASH, PICKUP, PATH_CASING,
    *KIND_COLOURS.values(),
    *(c for pair in DICE_COLOURS.values() for c in pair),
)

