"""An animated GIF of a whole Junkyard Races game: one frame per action, drawn from public views.

Every frame is the track (its cells and a cell round them) of a small cached board (cell size
:data:`REPLAY_CELL`) with the live layers (tiles, path, karts, marks) and a strip underneath (turn, who
plays, the dice, every kart's flags). A race plays in about a minute at most (:data:`WATCH_MS`): a short
race at :data:`FRAME_MS` a frame, a longer one faster, a quiet frame (a roll, a purchase) shorter than one
in which a kart moved, and the last frame held; only a race too long even for the shortest frames loses
frames (the quiet ones first).
All frames share ONE palette: the board's own colours plus the live colours, built once. The board is
quantized to it once and every piece is a sprite quantized once, so frames are drawn straight in
palette colours; the GIF keeps only the part of a frame that changed since the one before.

``replay_views(setup, seed, actions)`` rebuilds the public views of a game from its setup, seed and
action log (the log is the record of truth), so a replay needs no stored snapshots.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from render.common import GIF_UNCHANGED, draw_fitted, draw_text, fit_together, font, gif_palette, write_gif
from render.races.board import BoardBase
from render.races.heading import HeadLine, heading
from render.races.live import (
    LIVE_COLOURS,
    PaletteKit,
    draw_live_layers,
    live_base,
    with_last_move,
)
from render.races.pieces import draw_die, draw_flag, draw_kart, kart_colour
from render.races.symbols import PANEL, PANEL_LINE, TEXT
from rules.contract import public_views
from rules.hexgrid import SQRT3

REPLAY_CELL = 14
#: the strip under the map: two lines of words (who moved, who plays now) and a line of flags
TEXT_H = 58
STRIP_H = 88
#: a frame's time when the race is short enough to be shown at this pace
FRAME_MS = 450
#: the last frame (who won) is held this long
LAST_FRAME_MS = 4000
#: the whole replay plays in at most this long, the last frame's hold included: a longer race goes faster
WATCH_MS = 60_000
#: a quiet frame (a roll, a purchase: no kart moved) counts this much of a frame in which a kart moved
QUIET_WEIGHT = 0.35
#: no frame is shorter (a browser shows a GIF frame shorter than 20 ms for 100 ms)
SHORTEST_MS = 20
#: cells of margin round the track's cells in the picture
TRACK_MARGIN = 1


def replay_views(setup: Mapping[str, Any], seed: int, actions: Iterable[str]) -> list[dict[str, Any]]:
    """The public view before the first action and after every action of a logged game."""
    from rules.races.engine import Races

    return public_views(Races.create(dict(setup), int(seed)), actions)


def replay_gif(frames_views: Sequence[Mapping[str, Any]], *, cell_size: int = REPLAY_CELL,
               frame_ms: int = FRAME_MS, last_frame_ms: int = LAST_FRAME_MS, lang: str = "en") -> bytes:
    """GIF bytes of the race in ``frames_views`` (public views, a frame each unless the race is too long for
    :data:`WATCH_MS`), cropped to the track and looping for ever; the strip's words in ``lang``. A race plays
    in at most :data:`WATCH_MS` (:func:`replay_durations`)."""
    if not frames_views:
        raise ValueError("a replay needs at least one view")
    kit = _kit(frames_views[0]["track"], cell_size)
    frames: list[Image.Image] = []
    last_turn: Mapping[str, Any] | None = None
    kept = kept_frames(frames_views, frame_ms, last_frame_ms)
    shown = [frames_views[i] for i in kept]
    for i, view in enumerate(frames_views):
        turn = view.get("turn") or {}
        if turn.get("path") or turn.get("marks"):
            last_turn = turn
        if kept and kept[0] == i:
            kept.pop(0)
            frames.append(_frame(view, kit, last_turn, lang))
    return write_gif(frames, replay_durations(shown, frame_ms, last_frame_ms))


def _moves(view: Mapping[str, Any]) -> tuple[Any, ...]:
    """What a frame shows moving: every kart's cell and facing, and the turn's path and marks."""
    turn = view.get("turn") or {}
    return (tuple((k.get("cell"), k.get("facing")) for k in view.get("karts") or ()),
            len(turn.get("path") or ()), len(turn.get("marks") or ()))


def quiet_frames(views: Sequence[Mapping[str, Any]]) -> list[bool]:
    """For each view, whether nothing moved on the board since the one before (a roll, a purchase)."""
    return [i > 0 and _moves(v) == _moves(views[i - 1]) for i, v in enumerate(views)]


def kept_frames(views: Sequence[Mapping[str, Any]], frame_ms: int = FRAME_MS, last_frame_ms: int = LAST_FRAME_MS
                ) -> list[int]:
    """The views that get a frame: all of them, unless even the shortest frames would overrun
    :data:`WATCH_MS`; then the quiet ones go, and then every so many of the rest (never the first or last)."""
    n = len(views)
    room = max(SHORTEST_MS, WATCH_MS - last_frame_ms)
    if n <= 2 or (n - 1) * SHORTEST_MS <= room:
        return list(range(n))
    quiet = quiet_frames(views)
    kept = [i for i in range(n - 1) if i == 0 or not quiet[i]] + [n - 1]
    most = room // SHORTEST_MS
    if len(kept) - 1 > most:
        step = (len(kept) - 1) / most
        kept = sorted({kept[min(len(kept) - 2, round(j * step))] for j in range(most)} | {n - 1})
    return kept


def replay_durations(views: Sequence[Mapping[str, Any]], frame_ms: int = FRAME_MS,
                     last_frame_ms: int = LAST_FRAME_MS) -> list[int]:
    """How long each frame of ``views`` shows, in ms: ``frame_ms`` each while the race fits :data:`WATCH_MS`
    at that pace, else the time shared out so that the whole plays in :data:`WATCH_MS` (a quiet frame gets
    :data:`QUIET_WEIGHT` of a share, none less than :data:`SHORTEST_MS`); the last frame ``last_frame_ms``.
    GIF times are whole hundredths of a second."""
    n = len(views)
    if n == 1:
        return [last_frame_ms]
    room = WATCH_MS - last_frame_ms
    if (n - 1) * frame_ms <= room:
        return [frame_ms] * (n - 1) + [last_frame_ms]
    weights = [QUIET_WEIGHT if q else 1.0 for q in quiet_frames(views)[: n - 1]]
    share = room / sum(weights)
    out = [max(SHORTEST_MS, int(w * share) // 10 * 10) for w in weights]
    while sum(out) > room and any(ms > SHORTEST_MS for ms in out):
        longest = max(range(len(out)), key=out.__getitem__)
        out[longest] -= 10
    loud = [i for i, w in enumerate(weights) if w == 1.0] or list(range(len(out)))
    spare = (room - sum(out)) // 10  # what whole hundredths left over go to the frames in which karts move
    for j in range(max(0, spare)):
        out[loud[j % len(loud)]] += 10
    return [*out, last_frame_ms]


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
    """The part of the board picture a replay shows: the track's cells with :data:`TRACK_MARGIN` cells round
    them (the junkyard beyond is left out)."""
    geo = base.geometry
    size = geo.cell_size
    pts = [geo.centre(c) for c in base.track.track_cells] or [geo.centre(c) for c in geo.cells()]
    mx = size * (1.0 + 1.5 * TRACK_MARGIN)
    my = size * SQRT3 * (0.5 + TRACK_MARGIN)
    x0, y0 = min(x for x, _ in pts) - mx, min(y for _, y in pts) - my
    x1, y1 = max(x for x, _ in pts) + mx, max(y for _, y in pts) + my
    bx0, by0, bx1, by1 = geo.board_box
    return (max(bx0, math.floor(x0)), max(by0, math.floor(y0)), min(bx1, math.ceil(x1)), min(by1, math.ceil(y1)))


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
    line, flags = _strip_keys(view, None if view.get("last_turn") else last_turn, lang)
    img.paste(_strip_p(kit, "line", line), (0, y1 - y0))
    img.paste(_strip_p(kit, "flags", flags), (0, y1 - y0 + TEXT_H))
    return img


@lru_cache(maxsize=256)
def _strip_p(kit: _Kit, part: str, key: tuple[Any, ...]) -> Image.Image:
    w = kit.crop[2] - kit.crop[0]
    return kit.quantized(_strip_line(w, *key) if part == "line" else _strip_flags(w, *key))


def _strip_keys(view: Mapping[str, Any], last_turn: Mapping[str, Any] | None, lang: str
                ) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    turn = view.get("turn") or {}
    karts = tuple((k["seat"], k["name"], k["colour"], int(k.get("flags", 0))) for k in view.get("karts", []))
    winners = tuple(view.get("winners") or ())
    laps = int(view.get("laps", 5))
    return ((tuple(heading(view, lang, last_turn, phase_words="title")),),
            (karts, None if winners else turn.get("seat"), laps))


@lru_cache(maxsize=64)
def _strip_line(w: int, lines: tuple[HeadLine, ...]) -> Image.Image:
    """The top of the strip: who moved (the turn drawn) and who plays now with the dice rolled, or who won;
    a long name shrinks the words and then wraps them."""
    img = Image.new("RGB", (w, TEXT_H), PANEL)
    d = ImageDraw.Draw(img)
    d.line([(0, 0), (w, 0)], fill=PANEL_LINE, width=2)
    line_h = (TEXT_H - 4) / len(lines)
    rooms = [(line.words, w - 48 - (len(line.dice) * 19 + 8 if line.dice else 0)) for line in lines]
    fitted = fit_together(d, rooms, line_h, 14, bold=True, one_line_to=11)
    y = 2.0
    for line, words in zip(lines, fitted, strict=True):
        mid = y + line_h / 2
        x = 10.0
        if line.over:
            draw_flag(d, (x + 8, mid), 16, True)
        elif line.colour:
            draw_kart(d, (x + 12, mid), 22, 0, kart_colour(line.colour), str(int(line.seat or 0) + 1))
        x += 28
        draw_fitted(d, (x, mid), words, TEXT)
        dx = x + max(d.textlength(t, font=words.font) for t in words.lines) + 14
        for colour, v in line.dice:
            if dx > w - 12:
                break
            draw_die(d, (dx, mid), 16, colour, v)
            dx += 19
        y += line_h
    return img


@lru_cache(maxsize=64)
def _strip_flags(w: int, karts: tuple[Any, ...], seat: int | None, laps: int) -> Image.Image:
    """The bottom line of the strip: every kart with its flags (the one to play in yellow)."""
    img = Image.new("RGB", (w, STRIP_H - TEXT_H), PANEL)
    d = ImageDraw.Draw(img)
    n = max(1, len(karts))
    cw = (w - 12) / n
    small = font(12, bold=True)
    for i, (s, _name, colour, flags) in enumerate(karts):
        cx = 6 + cw * i
        draw_kart(d, (cx + 12, 13), 18, 0, kart_colour(colour), "")
        draw_flag(d, (cx + 30, 13), 12, flags > 0)
        shown = f"{flags}/{laps}" if cw >= 68 else str(flags)  # eight karts on a narrow track: the count alone
        draw_text(d, (cx + 38, 13), shown, small, (255, 214, 64) if s == seat else TEXT, anchor="lm")
    return img
