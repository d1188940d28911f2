"""An animated GIF of a whole Junkyard Races game: one frame per action, drawn from public views.

Every frame is the map of a small cached board (cell size :data:`REPLAY_CELL`) with the live layers
(tiles, path, karts, marks) and a strip underneath (turn, who plays, the dice, every kart's flags).
All frames share ONE palette: the board's own palette plus the live colours, built once, and each
frame is quantized to it; the GIF writer then stores only the part of a frame that changed.

``replay_views(setup, seed, actions)`` rebuilds the public views of a game from its setup, seed and
action log (the log is the record of truth), so a replay needs no stored snapshots.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import build_palette, draw_text, font
from render.races.live import LIVE_COLOURS, PHASE_TITLES, _fit, draw_live_layers, live_base
from render.races.pieces import draw_die, draw_flag, draw_kart, kart_colour
from render.races.symbols import PANEL, PANEL_LINE, TEXT

REPLAY_CELL = 14
STRIP_H = 58
FRAME_MS = 450
LAST_FRAME_MS = 4000


def replay_views(setup: Mapping[str, Any], seed: int, actions: Iterable[str]) -> list[dict[str, Any]]:
    """The public view before the first action and after every action of a logged game."""
    from rules.races.engine import Races

    game = Races.create(dict(setup), int(seed))
    views = [game.view(None)]
    for text in actions:
        game.apply(text)
        views.append(game.view(None))
    return views


def replay_gif(frames_views: Sequence[Mapping[str, Any]], *, cell_size: int = REPLAY_CELL,
               frame_ms: int = FRAME_MS, last_frame_ms: int = LAST_FRAME_MS) -> bytes:
    """GIF bytes of the race in ``frames_views`` (public views, one frame each), looping for ever."""
    if not frames_views:
        raise ValueError("a replay needs at least one view")
    track = frames_views[0]["track"]
    base = live_base(track, cell_size)
    palette = _palette(track, cell_size)
    crop = _map_box(base)
    frames: list[Image.Image] = []
    last_turn: Mapping[str, Any] | None = None
    for view in frames_views:
        turn = view.get("turn") or {}
        if turn.get("path") or turn.get("marks"):
            last_turn = turn
        elif last_turn is not None and last_turn.get("seat") == turn.get("seat") and \
                last_turn.get("number") == turn.get("number"):
            last_turn = None
        frames.append(_frame(view, base, crop, last_turn).quantize(palette=palette, dither=Image.Dither.NONE))
    durations = [frame_ms] * len(frames)
    durations[-1] = last_frame_ms
    buf = io.BytesIO()
    # optimize: each frame keeps only the box that changed, with unchanged pixels set to the spare
    # transparent index, which the LZW coder packs into almost nothing
    frames[0].save(buf, format="GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0,
                   optimize=True, disposal=1, transparency=TRANSPARENT)
    return buf.getvalue()


TRANSPARENT = 255  # the palette index kept free for "unchanged since the last frame"


@lru_cache(maxsize=8)
def _palette(track: str, cell_size: int) -> Image.Image:
    """The one palette every frame of a replay uses: the board's colours and the live colours in 255
    entries, and a spare last entry that no picture uses, for transparency."""
    base = live_base(track, cell_size)
    pal = build_palette(base.image, LIVE_COLOURS, colors=255)
    entries = [*(pal.getpalette() or [])[: 3 * 255], 255, 0, 255]
    out = Image.new("P", (1, 1))
    out.putpalette(entries)
    return out


def _map_box(base) -> tuple[int, int, int, int]:
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


def _frame(view: Mapping[str, Any], base, crop: tuple[int, int, int, int],
           last_turn: Mapping[str, Any] | None) -> Image.Image:
    img = _canvas(view["track"], base.geometry.cell_size).copy()
    draw = ImageDraw.Draw(img)
    shown = view
    if last_turn is not None and not (view.get("turn") or {}).get("path"):
        shown = {**view, "turn": last_turn}  # keep the move just finished on screen
    draw_live_layers(draw, shown, base, img=img, offset=(crop[0], crop[1]))
    x0, y0, x1, y1 = crop
    line, flags = _strip_keys(view)
    img.paste(_strip_line(x1 - x0, *line), (0, y1 - y0))
    img.paste(_strip_flags(x1 - x0, *flags), (0, y1 - y0 + STRIP_H // 2))
    return img


def _strip_keys(view: Mapping[str, Any]) -> tuple[tuple, tuple]:
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
def _strip_line(w: int, number: int, seat: int | None, phase: str, dice: tuple, names: tuple,
                winners: tuple) -> Image.Image:
    """The top line of the strip: the turn, who plays and the dice rolled."""
    img = Image.new("RGB", (w, STRIP_H // 2), PANEL)
    d = ImageDraw.Draw(img)
    d.line([(0, 0), (w, 0)], fill=PANEL_LINE, width=2)
    by_seat = {s: (name, colour) for s, name, colour in names}
    bold = font(14, bold=True)
    if winners:
        names = " & ".join(by_seat[s][0] for s in winners if s in by_seat)
        line = f"{names} win{'s' if len(winners) == 1 else ''}!"
    elif seat in by_seat:
        line = f"turn {number} · {by_seat[seat][0]} · {PHASE_TITLES.get(phase, phase)}"
    else:
        line = f"turn {number}"
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
def _strip_flags(w: int, karts: tuple, seat: int | None, laps: int) -> Image.Image:
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
