"""An animated GIF of a whole Junkyard Races game: one frame per action, drawn from public views.

Every frame is the map of a small cached board (cell size :data:`REPLAY_CELL`) with the live layers
(tiles, path, karts, marks) and a strip underneath (turn, who plays, the dice, every kart's flags).
All frames share ONE palette: the board's own colours plus the live colours, built once. The board is
quantized to it once and every piece is a sprite quantized once, so frames are drawn straight in
palette colours; the GIF keeps only the part of a frame that changed since the one before.

``replay_views(setup, seed, actions)`` rebuilds the public views of a game from its setup, seed and
action log (the log is the record of truth), so a replay needs no stored snapshots.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import GIF_UNCHANGED, draw_text, font, gif_palette, write_gif
from render.races.board import BoardBase
from render.races.live import (
    LIVE_COLOURS,
    PaletteKit,
    _fit,
    draw_live_layers,
    live_base,
    with_last_move,
)
from render.races.pieces import draw_die, draw_flag, draw_kart, kart_colour
from render.races.symbols import PANEL, PANEL_LINE, TEXT
from render.races.words import phase_title, say
from rules.contract import public_views

REPLAY_CELL = 14
STRIP_H = 58
FRAME_MS = 450
LAST_FRAME_MS = 4000


def replay_views(setup: Mapping[str, Any], seed: int, actions: Iterable[str]) -> list[dict[str, Any]]:
    """The public view before the first action and after every action of a logged game."""
    from rules.races.engine import Races

    return public_views(Races.create(dict(setup), int(seed)), actions)


def replay_gif(frames_views: Sequence[Mapping[str, Any]], *, cell_size: int = REPLAY_CELL,
               frame_ms: int = FRAME_MS, last_frame_ms: int = LAST_FRAME_MS, lang: str = "en") -> bytes:
    """GIF bytes of the race in ``frames_views`` (public views, one frame each), looping for ever; the
    strip's words in ``lang``."""
    if not frames_views:
        raise ValueError("a replay needs at least one view")
    kit = _kit(frames_views[0]["track"], cell_size)
    frames: list[Image.Image] = []
    last_turn: Mapping[str, Any] | None = None
    for view in frames_views:
        turn = view.get("turn") or {}
        if turn.get("path") or turn.get("marks"):
            last_turn = turn
        frames.append(_frame(view, kit, last_turn, lang))
    durations = [frame_ms] * len(frames)
    durations[-1] = last_frame_ms
    return write_gif(frames, durations)


class _Kit(PaletteKit):
    """What every frame of one replay shares: the board, the crop, and the palette canvas (the last
    palette entry is kept out of reach: it means "unchanged")."""

    def __init__(self, track: str, cell_size: int) -> None:
        super().__init__(_canvas(track, cell_size), _palette(track, cell_size), cell_size, usable=GIF_UNCHANGED)
        self.base = live_base(track, cell_size)
        self.crop = _map_box(self.base)


@lru_cache(maxsize=8)
def _kit(track: str, cell_size: int) -> _Kit:
    return _Kit(track, cell_size)


@lru_cache(maxsize=8)
def _palette(track: str, cell_size: int) -> Image.Image:
    """The one palette every frame of a replay uses: the board's colours and the live colours."""
    return gif_palette(live_base(track, cell_size).image, LIVE_COLOURS)


def _map_box(base: BoardBase) -> tuple[int, int, int, int]:
    """The part of the board picture a replay shows: the map with its coordinates."""
    geo = base.geometry
    gutter = max(18, round(geo.cell_size * 0.85))
    bx0, by0, bx1, by1 = geo.board_box
    pad = gutter + 4
    return max(0, bx0 - pad), max(0, by0 - pad), min(geo.width, bx1 + pad), min(geo.height, by1 + pad)


@lru_cache(maxsize=8)
def _canvas(track: str, cell_size: int) -> Image.Image:
    """The replay's still picture: the cropped board with an empty strip under it."""
    base = live_base(track, cell_size)
    x0, y0, x1, y1 = _map_box(base)
    out = Image.new("RGB", (x1 - x0, y1 - y0 + STRIP_H), PANEL)
    out.paste(base.image.crop((x0, y0, x1, y1)), (0, 0))
    return out


def _frame(view: Mapping[str, Any], kit: _Kit, last_turn: Mapping[str, Any] | None, lang: str = "en") -> Image.Image:
    """One frame, drawn straight on the palette canvas (no quantizing per frame)."""
    img = kit.canvas.copy()
    draw = ImageDraw.Draw(img)
    # keep the move just finished on screen: the view's own last_turn, else the one seen last
    shown = with_last_move(view, None if view.get("last_turn") else last_turn)
    x0, y0, _, y1 = kit.crop
    draw_live_layers(draw, shown, kit.base, img=img, offset=(x0, y0), put=kit.putter(img), ink=kit.ink)
    line, flags = _strip_keys(view)
    img.paste(_strip_p(kit, "line", (*line, lang)), (0, y1 - y0))
    img.paste(_strip_p(kit, "flags", flags), (0, y1 - y0 + STRIP_H // 2))
    return img


@lru_cache(maxsize=256)
def _strip_p(kit: _Kit, part: str, key: tuple[Any, ...]) -> Image.Image:
    w = kit.crop[2] - kit.crop[0]
    return kit.quantized(_strip_line(w, *key) if part == "line" else _strip_flags(w, *key))


def _strip_keys(view: Mapping[str, Any]) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    turn = view.get("turn") or {}
    karts = tuple((k["seat"], k["name"], k["colour"], int(k.get("flags", 0))) for k in view.get("karts", []))
    dice = tuple((c, tuple(turn.get("dice", {}).get(c, ()))) for c in ("green", "white", "red"))
    seat = turn.get("seat")
    winners = tuple(view.get("winners") or ())
    names = tuple((s, name, colour) for s, name, colour, _ in karts)
    laps = int(view.get("laps", 5))
    return ((int(turn.get("number", 1)), seat, view.get("phase", ""), dice, names, winners),
            (karts, None if winners else seat, laps))


@lru_cache(maxsize=64)
def _strip_line(w: int, number: int, seat: int | None, phase: str, dice: tuple[Any, ...], names: tuple[Any, ...],
                winners: tuple[Any, ...], lang: str = "en") -> Image.Image:
    """The top line of the strip: the turn, who plays and the dice rolled (words in ``lang``)."""
    img = Image.new("RGB", (w, STRIP_H // 2), PANEL)
    d = ImageDraw.Draw(img)
    d.line([(0, 0), (w, 0)], fill=PANEL_LINE, width=2)
    by_seat = {s: (name, colour) for s, name, colour in names}
    bold = font(14, bold=True)
    if winners:
        who = " & ".join(by_seat[s][0] for s in winners if s in by_seat)
        line = say("replay.wins", lang, count=len(winners), names=who)
    elif seat in by_seat:
        line = say("replay.turn_of", lang, number=number, name=by_seat[seat][0], phase=phase_title(phase, lang))
    else:
        line = say("replay.turn", lang, number=number)
    x = 10
    if seat in by_seat and not winners:
        draw_kart(d, (x + 12, 15), 22, 0, kart_colour(by_seat[seat][1]), "")
        x += 28
    draw_text(d, (x, 15), _fit(d, line, bold, w * 0.58), bold, TEXT, anchor="lm")
    dx = w * 0.66
    for colour, values in dice:
        for v in values:
            if dx > w - 12:
                break
            draw_die(d, (dx, 15), 16, colour, v)
            dx += 19
    return img


@lru_cache(maxsize=64)
def _strip_flags(w: int, karts: tuple[Any, ...], seat: int | None, laps: int) -> Image.Image:
    """The bottom line of the strip: every kart with its flags (the one to play in yellow)."""
    img = Image.new("RGB", (w, STRIP_H - STRIP_H // 2), PANEL)
    d = ImageDraw.Draw(img)
    n = max(1, len(karts))
    cw = (w - 12) / n
    small = font(12, bold=True)
    for i, (s, _name, colour, flags) in enumerate(karts):
        cx = 6 + cw * i
        draw_kart(d, (cx + 12, 13), 18, 0, kart_colour(colour), "")
        draw_flag(d, (cx + 30, 13), 12, flags > 0)
        draw_text(d, (cx + 38, 13), f"{flags}/{laps}", small, (255, 214, 64) if s == seat else TEXT, anchor="lm")
    return img
