"""The live race pictures: one move's board PNG against the floor of encoding the same finished image,
its size, the where-can-I-go search, the Kart Card, and a 300-action replay GIF.

- ``render_ms``: median time of ``board_png(view)`` at the default size, encoding included;
- ``encode_floor_ms``: median time of encoding the same finished frame alone (same run), so
  ``render_ratio`` says what drawing adds on top of the encoding (the frame is a palette image
  already; ``encode_rgb_ms`` is the same picture quantized from RGB and encoded, for comparison);
- ``render_png_busy_bytes``: the PNG's size of the busy sample position (the largest picture of real races
  is ``render_png_bytes``, in bench/race_pictures.py);
- ``replay_300_s``, ``replay_300_mb``: replaying a 300-action race of random legal actions to a GIF (a whole
  race of smart drivers is ``replay_s`` in bench/race_replay.py).
"""

from __future__ import annotations

import random
import time

from bench.registry import Figures, benchmark, interleaved_ms, median_ms
from render.common import encode_png
from render.races.card import kart_card_png
from render.races.live import LIVE_COLOURS, board_frame, board_png, live_base
from render.races.replay import replay_gif, replay_views
from render.races.samples import busy_game
from rules.races.engine import Races
from rules.races.reach import reach

REPLAY_ACTIONS = 300


def busy_view(track: str) -> tuple[Races, dict]:
    """The busy sample position on ``track`` and its public view."""
    game = busy_game(track)
    return game, game.view(None)


def random_race(actions: int, seed: int = 7, players: int = 6, track: str = "A") -> tuple[dict, int, list[str]]:
    """A race of random legal actions: (setup, seed, action log)."""
    setup = {"seats": [{"name": f"P{i + 1}"} for i in range(players)], "options": {"track": track}}
    game = Races.create(setup, seed)
    rng = random.Random(seed)
    log: list[str] = []
    while len(log) < actions and not game.is_over:
        text = str(rng.choice(game.legal_actions()))
        game.apply(text)
        log.append(text)
    return setup, seed, log


@benchmark("render_live")
def render_live() -> Figures:
    figures: Figures = {}
    game, view = busy_view("A")
    base = live_base("A")
    board_png(view)  # warm the board, palette and sprite caches
    frame = board_frame(view, base)  # the finished picture (a palette image)
    render, floor, render_best, floor_best = interleaved_ms(lambda: board_png(view), lambda: encode_png(frame),
                                                            repeat=31)
    figures["render_ms"] = render
    figures["encode_floor_ms"] = floor
    rgb = frame.convert("RGB")
    figures["encode_rgb_ms"] = median_ms(lambda: base.encode(rgb, LIVE_COLOURS), repeat=7)
    figures["render_ratio"] = round(float(figures["render_ms"]) / float(figures["encode_floor_ms"]), 3)
    figures["render_best_ms"] = render_best
    figures["encode_floor_best_ms"] = floor_best
    figures["render_ratio_best"] = round(render_best / floor_best, 3)  # steadier on a busy machine
    figures["render_png_busy_bytes"] = len(board_png(view))
    figures["frame_draw_ms"] = median_ms(lambda: board_frame(view, base), repeat=15)
    figures["pixels"] = f"{base.geometry.width}x{base.geometry.height} (cell {base.geometry.cell_size})"
    _, view_b = busy_view("B")
    figures["render_png_busy_bytes_B"] = len(board_png(view_b))
    r = reach(game)
    figures["reach_ms"] = median_ms(lambda: reach(game), repeat=5)
    figures["reach_points"] = game.turn.points
    figures["overlay_png_bytes"] = len(board_png(view, overlay=r))
    figures["kart_card_ms"] = median_ms(lambda: kart_card_png(view, 0), repeat=5)
    setup, seed, log = random_race(REPLAY_ACTIONS)
    start = time.perf_counter()
    views = replay_views(setup, seed, log)
    figures["replay_views_s"] = round(time.perf_counter() - start, 2)
    start = time.perf_counter()
    data = replay_gif(views)
    figures["replay_300_s"] = round(time.perf_counter() - start, 2)
    figures["replay_frames"] = len(views)
    figures["replay_300_mb"] = round(len(data) / 1e6, 3)
    return figures
