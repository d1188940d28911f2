"""The words beside a Schrottplatz Rally board: who moved and who is next, the bars, a line per car, the legend.

The heading names the player whose move the board draws (the yellow line: ``last_move``) and then who is
next and what they must do, so a picture never shows one player's move under another's name. The round is
the rulebook's round ("Rundenablauf"): every car drives once in it. Names are never shortened: a heading
shrinks and then wraps to fit the longest name Discord allows (:func:`render.common.fit_text`).

Below the cars, the legend names every symbol the board draws (curves by their limit, road signs, the arch,
the driving direction, the four services, open and closed spots, the pit lane's waiting cell and stop sign,
the last move, the destinations and the car to act), in the picture's language.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    Point,
    draw_bounded,
    draw_fitted,
    draw_text,
    fit_text,
    fit_together,
    font,
    lighter,
    place,
    thick_line,
)
from render.rally.symbols import (
    ASPHALT,
    BLACK,
    CAR_COLOURS,
    CURVE,
    DRIVE_ARROW,
    DRIVE_ARROW_COLOUR,
    HATCH_B,
    LANE_LINE,
    LEVER,
    PANEL,
    PANEL_MUTED,
    PANEL_TEXT,
    PANEL_W,
    PATH,
    PATH_EDGE,
    WHITE,
    colour_of,
    draw_car,
    draw_die,
    draw_hatch,
    draw_road_sign,
    draw_service,
    draw_spot,
    draw_stop,
    flat_car,
    ink_on,
)
from rules.rally.texts import say

#: the kinds of a last move, each with its own words (``p_moved_<kind>``)
MOVE_KINDS = ("drive", "park", "pit", "halt", "spin", "accident", "squeeze")

#: the height of a heading line's slot: two lines of words at most
HEADING_SLOT = 46
LEGEND_ROW = 30
#: how much taller a legend entry may grow to fill a panel with few cars
LEGEND_ROW_MORE = 14
LEGEND_TITLE = 26


# Words -------------------------------------------------------------------------------------------


def mover(view: dict[str, Any]) -> int | None:
    """The seat whose move the picture draws (the last move), None before the first."""
    last = view.get("last_move")
    return int(last["seat"]) if last and last.get("path") else None


def moved_line(view: dict[str, Any], lang: str = "en") -> str:
    """What the drawn move was: "Ann drove 12b → 16a", "Bob parked on F7.1"; empty before the first move."""
    seat = mover(view)
    if seat is None:
        return ""
    last = view["last_move"]
    kind = last.get("kind") if last.get("kind") in MOVE_KINDS else "drive"
    return say(f"p_moved_{kind}", lang, name=view["seats"][seat]["name"], frm=last["from"], to=last["path"][-1])


def next_line(view: dict[str, Any], lang: str = "en") -> str:
    """Who is next and what they must do, or who won."""
    seats = view["seats"]
    if view.get("winner") is not None:
        return say("p_wins", lang, name=seats[view["winner"]]["name"])
    who = seats[view["turn"]]["name"]
    if view["phase"] == "move":
        msg = "p_drive_boost" if view.get("boost") == "pending" else "p_drive"
        what = say(msg, lang, name=who, points=view["points"])
    elif seats[view["turn"]]["repair"] == 1:
        what = say("p_repair", lang, name=who)
    else:
        what = say("p_roll", lang, name=who)
    return say("p_next", lang, what=what)


def next_seat(view: dict[str, Any]) -> int:
    """The seat the second line is about: the winner, else the player to act."""
    return int(view["winner"] if view.get("winner") is not None else view["turn"])


def heading_lines(view: dict[str, Any], lang: str = "en") -> list[tuple[int, str, int | None]]:
    """The heading as (seat, words, die) lines: the move drawn with its die (the roll it used) when there is
    one, then who is next (with the die they rolled, while they drive)."""
    lines: list[tuple[int, str, int | None]] = []
    seat = mover(view)
    driving = view.get("phase") == "move"
    if seat is not None:
        lines.append((seat, moved_line(view, lang), None if driving else view.get("roll")))
    lines.append((next_seat(view), next_line(view, lang), view.get("roll") if driving else None))
    return lines


# The panel ---------------------------------------------------------------------------------------


def draw_panel(img: Image.Image, x0: float, view: dict[str, Any], lang: str) -> None:
    """The strip right of the track on ``img``: the race and its heading, the turn-order and parking bars, a
    line per car and the legend at the bottom."""
    d = ImageDraw.Draw(img)
    height = img.height
    x = x0 + 20
    w = PANEL_W - 40
    y = _draw_heading(d, x, w, view, lang)
    y = _draw_bars(d, x, w, y, view, lang)
    seats = view["seats"]
    room = height - y - 20
    row_h = min(96.0, (room - legend_height()) / max(1, len(seats)))
    spare = room - row_h * len(seats) - legend_height()
    legend_row = LEGEND_ROW + max(0, min(LEGEND_ROW_MORE, round(spare / legend_rows())))
    legend_top = height - legend_height(legend_row) - 12
    for rank, s in enumerate(view["standings"]):  # in the standings' order
        _draw_car_line(d, x, w, y + rank * row_h, row_h, view, s, lang)
    draw_legend(img, x, w, legend_top, lang, legend_row)


def _draw_heading(d: ImageDraw.ImageDraw, x: float, w: float, view: dict[str, Any], lang: str) -> float:
    """Title, round and laps, then who moved and who is next, each in a slot of its own height whether its
    words take one line or two (so nothing below moves from one picture to the next); returns the next y."""
    seats = view["seats"]
    y = 18.0
    draw_text(d, (x, y), "SCHROTTPLATZ RALLY", font(22, bold=True), PANEL_TEXT, anchor="lt")
    y += 32
    header = say("p_header", lang, round=view["round"], laps=view["laps"], count=view["laps"],
                 direction=view["direction"])
    draw_bounded(d, (x, y), header, (w, 20), 14, PANEL_MUTED, "lt", one_line_to=9)
    y += 24
    lines = heading_lines(view, lang)
    rooms = [(words, w - 36 - (48 if die is not None else 0)) for _, words, die in lines]
    fitted = fit_together(d, rooms, HEADING_SLOT - 4, 17, bold=True, one_line_to=13)
    for slot, ((seat, _words, die), words) in enumerate(zip(lines, fitted, strict=True)):
        mid = y + HEADING_SLOT * (slot + 0.5)
        flat_car(d, (x + 14, mid), colour_of(seats[seat]["colour"]), seat + 1, 14)
        draw_fitted(d, (x + 36, mid), words, PANEL_TEXT)
        if die is not None:
            draw_die(d, (x + w - 20, mid), 36, die)
    return y + 2 * HEADING_SLOT + 8


def _draw_bars(d: ImageDraw.ImageDraw, x: float, w: float, y: float, view: dict[str, Any], lang: str) -> float:
    """The turn-order bar (cars on the track) and the parking bar (parked cars, S9); returns the next y."""
    seats = view["seats"]
    draw_bounded(d, (x, y), say("p_order", lang), (w * 0.6 - 6, 16), 12, PANEL_MUTED, "lt", bold=True)
    draw_bounded(d, (x + w * 0.62, y), say("p_parking", lang), (w * 0.38, 16), 12, PANEL_MUTED, "lt", bold=True)
    y += 18
    bar_h = 38
    d.rounded_rectangle([x, y, x + w * 0.6 - 6, y + bar_h], radius=8, fill=(226, 220, 206))
    d.rounded_rectangle([x + w * 0.62, y, x + w, y + bar_h], radius=8, fill=(214, 206, 190))
    driving = [s for s in view["order"] if seats[s]["parked"] is None]
    parked = [s for s in view["order"] if seats[s]["parked"] is not None]
    for left, width, cars in ((x, w * 0.6, driving), (x + w * 0.62, w * 0.38, parked)):
        slot = min(34.0, (width - 12) / max(1, len(cars)))
        for i, s in enumerate(cars):
            c = (left + 6 + slot * (i + 0.5), y + bar_h / 2)
            flat_car(d, c, colour_of(seats[s]["colour"]), s + 1, 14)
            if s == view.get("to_act"):
                d.line([(c[0] - 12, y + bar_h - 3), (c[0] + 12, y + bar_h - 3)], fill=PANEL_TEXT, width=3)
    return y + bar_h + 14


def _draw_car_line(d: ImageDraw.ImageDraw, x: float, w: float, top: float, row_h: float, view: dict[str, Any],
                   s: int, lang: str) -> None:
    """One car: its number and player, lap and stops; its lever, working gears and fuel; where it is."""
    seat = view["seats"][s]
    if s == view.get("to_act"):
        d.rounded_rectangle([x - 8, top - 4, x + w + 8, top + row_h - 8], radius=10,
                            fill=lighter(colour_of(seat["colour"]), 0.8))
    flat_car(d, (x + 14, top + 16), colour_of(seat["colour"]), s + 1, 14)
    lap = max(0, min(seat["laps_done"], view["laps"]))
    info = say("p_lap", lang, lap=lap, laps=view["laps"], stops=seat["stops"])
    shown = draw_bounded(d, (x + w, top + 16), info, (w * 0.5, 16), 13, PANEL_TEXT, "rm", smallest=9)
    room = w - 36 - max(d.textlength(line, font=shown.font) for line in shown.lines) - 8
    name = fit_text(d, seat["name"], room, 26, 16, bold=True, one_line_to=11)
    draw_fitted(d, (x + 36, top + 16), name, PANEL_TEXT)
    line = top + min(40.0, row_h * 0.45)
    _draw_car_gauges(d, x, line, seat)
    notes = [say("p_at", lang, place=seat["at"])]
    if seat["repair"]:
        notes.append(say("p_repair_note", lang))
    elif seat["restart"]:
        notes.append(say("p_green", lang))
    if seat["parked"] is not None:
        notes.append(say("p_parked", lang))
    draw_bounded(d, (x + 8, line + min(24.0, row_h * 0.27)), " · ".join(notes), (w - 8, 15), 12, PANEL_MUTED,
                 smallest=9)


def _draw_car_gauges(d: ImageDraw.ImageDraw, x: float, line: float, seat: dict[str, Any]) -> None:
    """A car's lever (its range lit), its six gears (working ones in their range's colour) and its fuel."""
    for i, r in enumerate(("green", "yellow", "red")):
        cx = x + 8 + i * 18
        fill = LEVER[r] if seat["lever"] == r else lighter(LEVER[r], 0.65)
        d.rounded_rectangle([cx - 7, line - 8, cx + 7, line + 8], radius=3, fill=fill,
                            outline=PANEL_TEXT if seat["lever"] == r else None, width=2)
    gx = x + 70
    for g in range(1, 7):
        works = g in seat["working"]
        cx = gx + (g - 1) * 26
        rng = ("green", "green", "yellow", "yellow", "red", "red")[g - 1]
        d.rounded_rectangle([cx - 11, line - 10, cx + 11, line + 10], radius=4,
                            fill=LEVER[rng] if works else (214, 208, 196), outline=PANEL_TEXT, width=1)
        draw_text(d, (cx, line), str(g), font(12, bold=True), PANEL_TEXT if works else PANEL_MUTED)
    fx = gx + 6 * 26 + 8
    for k in range(seat["fuel"]):
        cx = fx + k * 16
        d.polygon([(cx - 5, line - 5), (cx - 2, line - 9), (cx + 6, line - 9), (cx + 6, line + 9),
                   (cx - 5, line + 9)], fill=BLACK)


# The legend --------------------------------------------------------------------------------------

Symbol = Callable[[ImageDraw.ImageDraw, Point], None]


def _swatch(colour: tuple[int, int, int], line: tuple[int, int, int] | None = None) -> Symbol:
    def paint(d: ImageDraw.ImageDraw, c: Point) -> None:
        x, y = c
        d.rectangle([x - 13, y - 10, x + 13, y + 10], fill=colour)
        if line is not None:
            d.line([(x - 9, y), (x + 9, y)], fill=line, width=2)

    return paint


def _sign(d: ImageDraw.ImageDraw, c: Point) -> None:
    _swatch(ASPHALT)(d, c)
    draw_road_sign(d, c)


def _arch(d: ImageDraw.ImageDraw, c: Point) -> None:
    x, y = c
    for k in range(6):
        for m in range(2):
            d.rectangle([x - 12 + k * 4, y - 4 + m * 4, x - 9 + k * 4, y - 1 + m * 4],
                        fill=BLACK if (k + m) % 2 else WHITE)
    for px in (x - 14, x + 14):
        d.ellipse([px - 3, y - 3, px + 3, y + 3], fill=(200, 30, 30), outline=BLACK)


def _arrow(d: ImageDraw.ImageDraw, c: Point) -> None:
    _swatch(ASPHALT)(d, c)
    d.polygon(place(DRIVE_ARROW, c, 0.0), fill=DRIVE_ARROW_COLOUR)


def _spot(open_: bool) -> Symbol:
    def paint(d: ImageDraw.ImageDraw, c: Point) -> None:
        x, y = c
        draw_spot(d, [(x - 10, y - 13), (x + 10, y - 13), (x + 10, y + 13), (x - 10, y + 13)], 3, open_)

    return paint


def _hatch(d: ImageDraw.ImageDraw, c: Point) -> None:
    x, y = c
    draw_hatch(d, [(x - 13, y - 9), (x - 13, y + 9), (x + 13, y + 9), (x + 13, y - 9)])
    d.rectangle([x - 13, y - 9, x + 13, y + 9], outline=HATCH_B)


def _path(d: ImageDraw.ImageDraw, c: Point) -> None:
    x, y = c
    thick_line(d, (x - 12, y + 5), (x + 12, y - 5), 9, PATH_EDGE)
    thick_line(d, (x - 12, y + 5), (x + 12, y - 5), 5, PATH)


def _target(d: ImageDraw.ImageDraw, c: Point) -> None:
    x, y = c
    colour = CAR_COLOURS["blue"]
    d.ellipse([x - 11, y - 11, x + 11, y + 11], fill=WHITE)
    d.ellipse([x - 8, y - 8, x + 8, y + 8], fill=colour)
    draw_text(d, (x, y), "2", font(10, bold=True), ink_on(colour))


def _to_act(d: ImageDraw.ImageDraw, c: Point) -> None:
    draw_car(d, c, 0.0, CAR_COLOURS["blue"], 2, scale=0.7, ring=PATH)


#: the legend's entries: each symbol and the message id of its words (``p_key_<name>``)
LEGEND: tuple[tuple[Symbol, str, dict[str, str]], ...] = (
    (_swatch(CURVE["green"], LANE_LINE), "p_key_curve", {"limit": "green"}),
    (_swatch(CURVE["yellow"], LANE_LINE), "p_key_curve", {"limit": "yellow"}),
    (_sign, "p_key_sign", {}),
    (_arch, "p_key_arch", {}),
    (_arrow, "p_key_arrow", {}),
    (lambda d, c: draw_service(d, "fuel", c, 12), "p_key_service", {"service": "fuel", "item": "fuel"}),
    (lambda d, c: draw_service(d, "engine", c, 12), "p_key_service", {"service": "engine", "item": "engine"}),
    (lambda d, c: draw_service(d, "body", c, 12), "p_key_service", {"service": "body", "item": "body"}),
    (lambda d, c: draw_service(d, "mechanic", c, 12), "p_key_service", {"service": "mechanic", "item": "mechanic"}),
    (_spot(True), "p_key_spot", {}),
    (_spot(False), "p_key_closed", {}),
    (_hatch, "p_key_waiting", {}),
    (lambda d, c: draw_stop(d, c, 12), "p_key_stop", {}),
    (_path, "p_key_path", {}),
    (_target, "p_key_target", {}),
    (_to_act, "p_key_to_act", {}),
)


#: room the heading and the bars take at most, a car's line at least, and the panel's foot
HEAD_ROOM = 256
CAR_ROOM = 80
FOOT = 24


def panel_height(cars: int) -> int:
    """The height the panel needs for ``cars`` cars: heading and bars, a line per car and the legend."""
    return HEAD_ROOM + CAR_ROOM * cars + legend_height() + FOOT


def legend_rows() -> int:
    """Entries in a column of the legend."""
    return (len(LEGEND) + 1) // 2


def legend_height(row: int = LEGEND_ROW) -> int:
    """Pixels the legend takes at the foot of the panel: a title and two columns of entries ``row`` high."""
    return LEGEND_TITLE + row * legend_rows()


def legend_words(lang: str = "en") -> list[str]:
    """The legend's words in ``lang``, in order."""
    return [say(msg, lang, None, **params) for _, msg, params in LEGEND]


def draw_legend(img: Image.Image, x: float, w: float, top: float, lang: str = "en", row: int = LEGEND_ROW) -> None:
    """The legend: every symbol of the board with a few words, in two columns from ``top``, its entries
    ``row`` high (drawn once per width, height and language, then pasted)."""
    img.paste(legend_image(round(w), lang, row), (round(x) - LEGEND_PAD, round(top) - LEGEND_PAD))


LEGEND_PAD = 10


@lru_cache(maxsize=32)
def legend_image(w: int, lang: str = "en", row_h: int = LEGEND_ROW) -> Image.Image:
    """The legend as a picture ``w`` wide (plus a little room round it) on the panel's colour."""
    img = Image.new("RGB", (w + 2 * LEGEND_PAD, legend_height(row_h) + 2 * LEGEND_PAD), PANEL)
    d = ImageDraw.Draw(img)
    x, top = LEGEND_PAD, LEGEND_PAD
    d.line([(x - 8, top - 4), (x + w + 8, top - 4)], fill=lighter(PANEL_MUTED, 0.5), width=1)
    draw_bounded(d, (x, top + LEGEND_TITLE / 2), say("p_key_title", lang), (w, LEGEND_TITLE), 12, PANEL_MUTED,
                 bold=True)
    col_w = w / 2
    rows = legend_rows()
    for i, ((symbol, _msg, _params), words) in enumerate(zip(LEGEND, legend_words(lang), strict=True)):
        col, row = divmod(i, rows)
        cx = x + col * col_w + 14
        cy = top + LEGEND_TITLE + row * row_h + row_h / 2
        symbol(d, (cx, cy))
        fitted = fit_text(d, words, col_w - 44, LEGEND_ROW - 2, 12, one_line_to=11)
        draw_fitted(d, (cx + 20, cy), fitted, PANEL_TEXT)
    return img


__all__ = ["LEGEND", "MOVE_KINDS", "draw_legend", "draw_panel", "heading_lines", "legend_height", "legend_words",
           "moved_line", "mover", "next_line", "next_seat", "panel_height"]
