"""One player's Kart Card: locations 2 to 9 with the parts fitted there, the saddlebags and their
tiles, fuel dice on the engines, bottle tops and flags (ruling R10 for the locations).

``kart_card_png(view, seat)`` draws only what the view holds: the owner's own view shows its tiles'
kinds, anyone else's view shows face-down tiles as backs (R12).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    Colour,
    draw_bounded,
    draw_polygon,
    draw_text,
    encode_png,
    fit_text,
    font,
    lighter,
    mix,
    regular_polygon,
    text_box,
)
from render.races.live import PILE_COLOURS, _fit
from render.races.pieces import (
    draw_cap_icon,
    draw_die,
    draw_flag,
    draw_kart,
    draw_tile,
    kart_colour,
)
from render.races.symbols import INK, PANEL, PANEL_LINE, TEXT, TEXT_DIM, WHITE
from render.races.words import CATALOGUE, colour_name, facing_name, kind_name, part_name, say
from rules.races import catalogue
from rules.races.state import PRINTED_BAG

WIDTH, HEIGHT = 1190, 540
SLOT_W, SLOT_H = 214, 178
GRID_X, GRID_Y = 24, 118
GAP = 12
SIDE_X = GRID_X + 4 * (SLOT_W + GAP)
#: the height of a slot's head for its words (one line, or two in smaller letters)
HEAD_H = 36
CARD = (58, 54, 49)
SLOT = (74, 69, 62)
EMPTY_SLOT = (50, 47, 43)

def kart_card_png(view: Mapping[str, Any], seat: int, lang: str = "en") -> bytes:
    """PNG bytes of the Kart Card of ``seat`` as ``view`` shows it, labelled in ``lang``."""
    return encode_png(kart_card_image(view, seat, lang))


def kart_card_image(view: Mapping[str, Any], seat: int, lang: str = "en") -> Image.Image:
    kart = next((k for k in view.get("karts", []) if k["seat"] == seat), None)
    if kart is None:
        raise ValueError(f"no kart in seat {seat}")
    colour = kart_colour(kart["colour"])
    img = Image.new("RGB", (WIDTH, HEIGHT), (30, 28, 26))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle([8, 8, WIDTH - 8, HEIGHT - 8], radius=18, fill=CARD, outline=colour, width=4)
    _title(d, view, kart, colour, lang)
    parts = {int(loc): pid for loc, pid in kart.get("parts", {}).items()}
    bags = {int(loc): tiles for loc, tiles in kart.get("bags", {}).items()}
    fuel = kart.get("fuel", {})
    for i, loc in enumerate(range(2, 10)):
        x = GRID_X + (i % 4) * (SLOT_W + GAP)
        y = GRID_Y + (i // 4) * (SLOT_H + GAP)
        _slot(d, (x, y, x + SLOT_W, y + SLOT_H), loc, parts.get(loc), bags.get(loc), fuel, lang)
    _side(d, view, kart, lang)
    viewer = view.get("viewer")
    if viewer == seat:
        note = say("card.note_own", lang)
    elif viewer is None:
        note = say("card.note_public", lang)
    else:
        note = say("card.note_other", lang)
    footer = _fit(d, say("card.footer", lang, note=note), font(13), WIDTH - 2 * GRID_X)
    draw_text(d, (GRID_X, HEIGHT - 24), footer, font(13), TEXT_DIM, anchor="lm")
    return img


def _title(d: ImageDraw.ImageDraw, view: Mapping[str, Any], kart: Mapping[str, Any], colour: Colour,
           lang: str = "en") -> None:
    d.rounded_rectangle([8, 8, WIDTH - 8, 92], radius=18, fill=mix(CARD, colour, 0.35))
    d.rectangle([8, 60, WIDTH - 8, 92], fill=mix(CARD, colour, 0.35))
    draw_kart(d, (64, 50), 74, 0, colour, str(kart["seat"] + 1))
    title = fit_text(d, str(kart["name"]), 520, 44, 30, bold=True, one_line_to=20)
    top = 36 - (title.height - title.line_h) / 2
    for i, line in enumerate(title.lines):
        draw_text(d, (118, top + i * title.line_h), line, title.font, WHITE, anchor="lm", stroke=INK, stroke_width=2)
    bits = [say("card.kart", lang, colour=colour_name(kart["colour"], lang)),
            say("card.seat", lang, seat=kart["seat"] + 1)]
    if kart.get("team") is not None:
        bits.append(say("card.team", lang, team=kart["team"]))
    if kart.get("crew"):
        bits.append(say("card.crew", lang, crew=kart["crew"]))
    draw_text(d, (120, 72), " · ".join(bits), font(16), WHITE, anchor="lm", stroke=INK, stroke_width=1)
    draw_text(d, (WIDTH - 28, 36), say("card.title", lang), font(22, bold=True), WHITE, anchor="rm", stroke=INK,
              stroke_width=2)


def _location_badge(d: ImageDraw.ImageDraw, centre: tuple[float, float], loc: int) -> None:
    hexagon = regular_polygon(centre, 17, 6)
    draw_polygon(d, hexagon, WHITE, INK, 2)
    draw_text(d, (centre[0], centre[1] + 1), str(loc), font(18, bold=True), INK)


def _slot(d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], loc: int, pid: str | None,
          tiles: list[str] | None, fuel: Mapping[str, int], lang: str = "en") -> None:
    x0, y0, x1, y1 = box
    specs = catalogue.parts()
    spec = specs.get(pid) if pid else None
    if spec is not None:
        pile = PILE_COLOURS.get(spec.pile, SLOT)
        d.rounded_rectangle(box, radius=12, fill=mix(SLOT, pile, 0.35), outline=lighter(pile, 0.25), width=3)
        d.rounded_rectangle([x0, y0, x1, y0 + 40], radius=12, fill=pile)
        d.rectangle([x0, y0 + 28, x1, y0 + 40], fill=pile)
        draw_bounded(d, (x0 + 44, y0 + 21), part_name(spec.id, lang), (SLOT_W - 52, HEAD_H), 17, WHITE, bold=True,
                     condensed=True, one_line_to=13)
    elif loc == PRINTED_BAG:
        d.rounded_rectangle(box, radius=12, fill=SLOT, outline=PANEL_LINE, width=2)
        draw_bounded(d, (x0 + 44, y0 + 21), say("card.printed_bag", lang), (SLOT_W - 52, HEAD_H), 16, TEXT,
                     bold=True, condensed=True, one_line_to=13)
    else:
        d.rounded_rectangle(box, radius=12, fill=EMPTY_SLOT, outline=PANEL_LINE, width=2)
        draw_bounded(d, (x0 + 44, y0 + 21), say("card.empty", lang), (SLOT_W - 52, HEAD_H), 16, TEXT_DIM,
                     bold=True, one_line_to=13)
        if f"card.slot_{loc}" in CATALOGUE.ids:
            draw_bounded(d, ((x0 + x1) / 2, (y0 + y1) / 2 + 14), say(f"card.slot_{loc}", lang), (SLOT_W - 16, 52),
                         14, TEXT_DIM, "mm", one_line_to=12)
    _location_badge(d, (x0 + 22, y0 + 21), loc)
    if tiles is not None:
        capacity = catalogue.supply().printed_saddlebag if spec is None else spec.capacity
        _bag(d, box, tiles, capacity, lang)
    if spec is not None and loc == PRINTED_BAG:
        draw_bounded(d, ((x0 + x1) / 2, y1 - 38), say("card.covers", lang), (SLOT_W - 12, 16), 12, TEXT_DIM, "mm",
                     condensed=True)
    if pid == "turbo-engine":
        _fuel(d, box, "white", int(fuel.get("white", 0)), "card.turbo_dice", lang)
    elif pid == "jet-engine":
        _fuel(d, box, "red", int(fuel.get("red", 0)), "card.jet_dice", lang)
    elif spec is not None and tiles is None:
        pile_msg = f"card.pile_{spec.pile}"
        text = say(pile_msg, lang, cost=spec.cost) if pile_msg in CATALOGUE.ids else f"{spec.pile} · {spec.cost}"
        draw_bounded(d, ((x0 + x1) / 2, (y0 + y1) / 2 + 20), text, (SLOT_W - 16, 52), 14, TEXT_DIM, "mm",
                     one_line_to=12)


def _bag(d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], tiles: list[str], capacity: int,
         lang: str = "en") -> None:
    """The saddlebag's tile spaces: each tile as the view shows it, empty spaces as outlines."""
    x0, y0, x1, y1 = box
    n = max(capacity, len(tiles))
    side = 38
    cols = min(n, 5)
    rows = (n + cols - 1) // cols if cols else 0
    gap = 4
    total_w = cols * side + (cols - 1) * gap
    sx = (x0 + x1 - total_w) / 2
    sy = y0 + 56 + (1 - rows) * 0
    for i in range(n):
        cx = sx + (i % cols) * (side + gap) + side / 2
        cy = sy + (i // cols) * (side + gap) + side / 2
        if i < len(tiles):
            draw_tile(d, (cx, cy), side, tiles[i])
        else:
            h = side * 0.44
            d.rounded_rectangle([cx - h, cy - h, cx + h, cy + h], radius=5, outline=PANEL_LINE, width=2)
    known = [say("card.shown", lang, tile=kind_name(t.rstrip("+"), lang)) if t.endswith("+")
             else kind_name(t, lang) for t in tiles if t != "hidden"]
    if known:
        small = font(12, condensed=True)
        lines = [", ".join(known)]
        if rows == 1 and len(known) > 1 and text_box(d, lines[0], small)[0] > SLOT_W - 16:
            half = (len(known) + 1) // 2  # a long list on two lines, under one row of tiles
            lines = [", ".join(known[:half]) + ",", ", ".join(known[half:])]
        for i, line in enumerate(lines):
            y = y1 - 40 - 14 * (len(lines) - 1 - i)
            draw_text(d, ((x0 + x1) / 2, y), _fit(d, line, small, SLOT_W - 16), small, TEXT)
    draw_bounded(d, ((x0 + x1) / 2, y1 - 16), say("card.bag_tiles", lang, count=len(tiles), capacity=capacity),
                 (SLOT_W - 12, 18), 14, TEXT_DIM, "mm")


def _fuel(d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], colour: str, n: int, label: str,
          lang: str = "en") -> None:
    x0, y0, x1, y1 = box
    side = 26
    if n:
        per_row = 6
        total = min(n, per_row)
        sx = (x0 + x1 - (total * (side + 6) - 6)) / 2
        for i in range(n):
            draw_die(d, (sx + (i % per_row) * (side + 6) + side / 2, y0 + 74 + (i // per_row) * (side + 6)), side,
                     colour, 6 - (i % 6))
    else:
        draw_bounded(d, ((x0 + x1) / 2, y0 + 80), say("card.no_fuel", lang), (SLOT_W - 16, 40), 15, TEXT_DIM, "mm",
                     one_line_to=12)
    draw_bounded(d, ((x0 + x1) / 2, y1 - 16), say(label, lang, count=n), (SLOT_W - 12, 18), 14, TEXT_DIM, "mm")


def _side(d: ImageDraw.ImageDraw, view: Mapping[str, Any], kart: Mapping[str, Any], lang: str = "en") -> None:
    """Flags, bottle tops and where the kart is, in the right-hand column."""
    x0, x1 = SIDE_X, WIDTH - 24
    y = GRID_Y
    d.rounded_rectangle([x0, y, x1, y + 2 * SLOT_H + GAP], radius=12, fill=PANEL, outline=PANEL_LINE, width=2)
    laps = int(view.get("laps", 5))
    flags = int(kart.get("flags", 0))
    _side_head(d, (x0 + 14, x1 - 14), y + 22, say("card.flags", lang), say("card.of", lang, count=flags, total=laps))
    fw = (x1 - x0 - 24) / max(laps, 1)
    for i in range(laps):
        draw_flag(d, (x0 + 14 + fw * i + fw / 2, y + 58), min(30, fw - 4), i < flags)
    y += 96
    tops = int(kart.get("bottle_tops", 0))
    cap = catalogue.supply().bottle_top_cap
    _side_head(d, (x0 + 14, x1 - 14), y, say("card.bottle_tops", lang), say("card.of", lang, count=tops, total=cap))
    per_row = 5
    cw = (x1 - x0 - 24) / per_row
    for i in range(cap):
        cx = x0 + 14 + cw * (i % per_row) + cw / 2
        cy = y + 30 + (i // per_row) * 30
        if i < tops:
            draw_cap_icon(d, (cx, cy), 26)
        else:
            d.ellipse([cx - 10, cy - 10, cx + 10, cy + 10], outline=PANEL_LINE, width=2)
    y += 104
    draw_bounded(d, (x0 + 14, y), say("card.on_track", lang), (x1 - x0 - 28, 20), 16, TEXT, bold=True)
    where = kart.get("cell")
    facing = facing_name(str(kart.get("facing", "?")), lang)
    lines = [say("card.where", lang, cell=where, facing=facing) if where else say("card.not_entered", lang)]
    if kart.get("glued"):
        lines.append(say("card.glued", lang))
    lines.append(say("card.bridge" if kart.get("bridge_since_line") else "card.no_bridge", lang))
    y += 14
    for line in lines:  # each on a line of its own, or two when a language's words run long
        y += draw_bounded(d, (x0 + 14, y), line, (x1 - x0 - 28, 34), 14, TEXT_DIM, "lt", one_line_to=12).height + 2


def _side_head(d: ImageDraw.ImageDraw, span: tuple[float, float], y: float, head: str, count: str) -> None:
    """A head of the right-hand column and its count at the right, each within its share of the line."""
    left, right = span
    shown = draw_bounded(d, (right, y), count, ((right - left) * 0.4, 20), 14, TEXT_DIM, "rm")
    used = max(d.textlength(line, font=shown.font) for line in shown.lines)
    draw_bounded(d, (left, y), head, (right - left - used - 10, 20), 16, TEXT, bold=True)


__all__ = ["kart_card_image", "kart_card_png"]
