"""The car board picture of Schrottplatz Rally: one car's gears, lever, fuel, counters and reserve.

``car_board_png(view, seat)`` draws, left to right: the gear lever on its three rev ranges (green at the
bottom, red at the top), the six gears in three columns by range, each gear card with the cells it moves,
the die faces that name it, its three places (mechanic in the car's colour, body part white, engine part
grey; an empty place dashed) and a tick or a cross for whether it works (S2); then the fuel cans on the
car, the stop and lap counters and the reserve (S7).
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    Colour,
    Point,
    build_palette,
    draw_bounded,
    draw_polygon,
    draw_text,
    encode_png,
    font,
    lighter,
)
from render.rally.picture import BLACK, CAR_COLOURS, LEVER, PANEL, PANEL_MUTED, PANEL_TEXT, WHITE, flat_car
from rules.rally.board import RANGE_GEARS, RANGES, TOTALS
from rules.rally.texts import say

WIDTH, HEIGHT = 900, 430
BODY: Colour = (246, 246, 246)
ENGINE: Colour = (128, 132, 140)
EMPTY: Colour = (200, 194, 182)
TICK: Colour = (40, 150, 60)
CROSS: Colour = (200, 40, 40)
CARD: Colour = (252, 250, 244)


def _mechanic(d: ImageDraw.ImageDraw, c: Point, r: float, colour: Colour) -> None:
    x, y = c
    d.ellipse([x - r * 0.4, y - r, x + r * 0.4, y - r * 0.2], fill=colour, outline=BLACK)
    draw_polygon(d, [(x - r * 0.8, y + r), (x - r * 0.55, y - r * 0.15), (x + r * 0.55, y - r * 0.15),
                     (x + r * 0.8, y + r)], colour, BLACK)


def _part(d: ImageDraw.ImageDraw, c: Point, r: float, letter: str, colour: Colour) -> None:
    x, y = c
    if letter == "M":
        _mechanic(d, c, r, colour)
    elif letter == "B":
        d.rounded_rectangle([x - r, y - r * 0.7, x + r, y + r * 0.7], radius=r * 0.3, fill=BODY, outline=BLACK,
                            width=2)
        draw_text(d, c, "B", font(round(r), bold=True), PANEL_TEXT)
    else:
        d.rectangle([x - r, y - r * 0.5, x + r, y + r * 0.8], fill=ENGINE, outline=BLACK, width=2)
        for k in (-0.55, 0.0, 0.55):
            d.rectangle([x + k * r - r * 0.18, y - r * 0.9, x + k * r + r * 0.18, y - r * 0.5], fill=ENGINE,
                        outline=BLACK)
        draw_text(d, (x, y + r * 0.15), "E", font(round(r * 0.9), bold=True), WHITE)


def _slot(d: ImageDraw.ImageDraw, c: Point, r: float, letter: str) -> None:
    x, y = c
    for k in range(12):  # a dashed ring: an empty place
        if k % 2 == 0:
            d.arc([x - r, y - r, x + r, y + r], k * 30, k * 30 + 20, fill=PANEL_MUTED, width=2)
    draw_text(d, c, letter, font(round(r * 0.8), bold=True), EMPTY)


def _fuel_can(d: ImageDraw.ImageDraw, c: Point, h: float, full: bool) -> None:
    x, y = c
    w = h * 0.7
    pts = [(x - w / 2, y - h * 0.25), (x - w * 0.15, y - h / 2), (x + w / 2, y - h / 2), (x + w / 2, y + h / 2),
           (x - w / 2, y + h / 2)]
    draw_polygon(d, pts, BLACK if full else PANEL, BLACK, 2)
    if full:
        d.line([(x - w * 0.3, y - h * 0.1), (x + w * 0.3, y + h * 0.35)], fill=WHITE, width=2)
        d.line([(x + w * 0.3, y - h * 0.1), (x - w * 0.3, y + h * 0.35)], fill=WHITE, width=2)


GEARS_X, GEAR_COLUMN, GEAR_CARD = 120, 170, 140  # where the gear columns start, a column's width, a card's height


def car_board_image(view: dict[str, Any], seat: int, lang: str = "en") -> Image.Image:
    """The car board of ``seat`` in ``view``: its head, the lever, the gears, then fuel, counters and
    reserve."""
    s = view["seats"][seat]
    colour = CAR_COLOURS[s["colour"]]
    img = Image.new("RGB", (WIDTH, HEIGHT), PANEL)
    d = ImageDraw.Draw(img)
    flat_car(d, (30, 30), colour, seat + 1, 16)
    status = say("p_repair_due", lang) if s["repair"] == 1 else say("p_repair_two", lang) if s["repair"] == 2 \
        else say("p_starts_green", lang) if s["restart"] else ""
    right: float = WIDTH - 20
    if status:
        shown = draw_bounded(d, (right, 30), status, (WIDTH * 0.4, 40), 15, CROSS, "rm", bold=True, one_line_to=12)
        right -= max(d.textlength(line, font=shown.font) for line in shown.lines) + 16
    draw_bounded(d, (56, 30), say("p_board", lang, name=s["name"]), (right - 56, 44), 22, PANEL_TEXT, bold=True,
                 one_line_to=14)
    _draw_lever(d, s["lever"], lang)
    # gears: a column per range, lower gear at the bottom
    for i, r in enumerate(RANGES):
        x0 = GEARS_X + i * GEAR_COLUMN
        heading_colour = LEVER[r] if r != "yellow" else (170, 140, 0)
        draw_bounded(d, (x0 + GEAR_COLUMN / 2 - 6, 64), say("p_range", lang, range=r).upper(),
                     (GEAR_COLUMN - 16, 20), 15, heading_colour, "mm", bold=True)
        for k, gear in enumerate(reversed(RANGE_GEARS[r])):
            _draw_gear_card(d, (x0, 80 + k * (GEAR_CARD + 12)), r, gear, s, colour, lang)
    _draw_supplies(d, view, s, colour, lang)
    return img


def _draw_lever(d: ImageDraw.ImageDraw, lever: str, lang: str) -> None:
    """The gear lever on its three rev ranges (green at the bottom), its knob at ``lever``."""
    lx, top, seg = 50, 80, 100
    d.rounded_rectangle([lx - 20, top - 6, lx + 20, top + 3 * seg + 6], radius=12, fill=(220, 214, 200))
    for i, r in enumerate(reversed(RANGES)):
        y0 = top + i * seg
        d.rounded_rectangle([lx - 14, y0 + 4, lx + 14, y0 + seg - 4], radius=8, fill=lighter(LEVER[r], 0.35))
    knob_y = top + (2 - RANGES.index(lever)) * seg + seg / 2
    d.line([(lx, knob_y), (lx + 34, knob_y)], fill=BLACK, width=5)
    d.ellipse([lx + 24, knob_y - 14, lx + 52, knob_y + 14], fill=LEVER[lever], outline=BLACK, width=3)
    draw_bounded(d, (lx, top + 3 * seg + 26), say("p_lever", lang), (2 * lx - 8, 30), 13, PANEL_MUTED, "mm")


def _draw_gear_card(d: ImageDraw.ImageDraw, at: tuple[int, int], r: str, gear: int, s: dict[str, Any],
                    colour: Colour, lang: str) -> None:
    """The card of ``gear`` (of rev range ``r``) at ``at``: its name, the die faces that name it, a tick or
    a cross for whether it works, and its three places."""
    x0, y0 = at
    col_w, card_h = GEAR_COLUMN, GEAR_CARD
    contents = s["gears"][gear - 1]
    works = gear in s["working"]
    d.rounded_rectangle([x0, y0, x0 + col_w - 12, y0 + card_h], radius=12, fill=CARD,
                        outline=LEVER[r], width=4 if works else 2)
    draw_bounded(d, (x0 + 14, y0 + 20), say("p_gear", lang, gear=gear), (col_w - 80, 22), 17, PANEL_TEXT,
                 bold=True)
    faces = "1–3" if gear % 2 else "4–6"
    draw_bounded(d, (x0 + 14, y0 + 42), say("p_gear_die", lang, faces=faces, gear=gear, count=gear),
                 (col_w - 40, 16), 12, PANEL_MUTED)
    mark = (x0 + col_w - 34, y0 + 22)
    if works:
        d.line([(mark[0] - 9, mark[1]), (mark[0] - 2, mark[1] + 8), (mark[0] + 11, mark[1] - 9)], fill=TICK,
               width=5)
    else:
        d.line([(mark[0] - 8, mark[1] - 8), (mark[0] + 8, mark[1] + 8)], fill=CROSS, width=5)
        d.line([(mark[0] - 8, mark[1] + 8), (mark[0] + 8, mark[1] - 8)], fill=CROSS, width=5)
    for j, letter in enumerate("MBE"):
        c = (x0 + 28 + j * 50, y0 + 96)
        if letter in contents:
            _part(d, c, 17, letter, colour)
        else:
            _slot(d, c, 17, letter)


def _draw_supplies(d: ImageDraw.ImageDraw, view: dict[str, Any], s: dict[str, Any], colour: Colour,
                   lang: str) -> None:
    """Right of the gears: the fuel cans on the car, the stop and lap counters and the reserve (S7)."""
    rx = GEARS_X + 3 * GEAR_COLUMN + 10
    room = WIDTH - rx - 16
    draw_bounded(d, (rx, 64), say("p_fuel", lang), (room, 20), 15, PANEL_TEXT, bold=True)
    for k in range(TOTALS["fuel"]):
        _fuel_can(d, (rx + 22 + k * 40, 104), 44, k < s["fuel"])
    draw_bounded(d, (rx, 152), say("p_counters", lang), (room, 20), 15, PANEL_TEXT, bold=True)
    laps = max(0, min(s["laps_done"], view["laps"]))
    counters = (say("p_stops", lang, value=s["stops"]), say("p_lap_counter", lang, value=f"{laps}/{view['laps']}"))
    for k, label in enumerate(counters):
        y = 184 + k * 34
        _mechanic(d, (rx + 14, y), 12, colour)
        draw_bounded(d, (rx + 34, y), label, (room - 34, 22), 17, PANEL_TEXT, bold=True)
    draw_bounded(d, (rx, 262), say("p_reserve", lang), (room, 20), 15, PANEL_TEXT, bold=True)
    reserve = s["reserve"]
    items = (("M", "mechanic"), ("B", "body"), ("E", "engine"))
    for k, (letter, key) in enumerate(items):
        y = 296 + k * 38
        _part(d, (rx + 16, y), 14, letter, colour)
        draw_text(d, (rx + 40, y), f"× {reserve[key]}", font(17, bold=True), PANEL_TEXT, anchor="lm")
    _fuel_can(d, (rx + 150, 296), 30, True)
    draw_text(d, (rx + 170, 296), f"× {reserve['fuel']}", font(17, bold=True), PANEL_TEXT, anchor="lm")


def car_board_png(view: dict[str, Any], seat: int, lang: str = "en") -> bytes:
    """PNG bytes of the car board of ``seat`` in ``view`` (from ``RallyGame.view``), labelled in ``lang``."""
    img = car_board_image(view, seat, lang)
    extra = [PANEL, PANEL_TEXT, PANEL_MUTED, BLACK, WHITE, BODY, ENGINE, EMPTY, TICK, CROSS, CARD,
             *LEVER.values(), *CAR_COLOURS.values()]
    return encode_png(img, palette=build_palette(img, extra, colors=64))
