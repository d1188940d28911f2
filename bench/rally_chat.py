"""Schrottplatz Rally's pictures for a chat column, measured as the races' are (:mod:`bench.chat`).

- ``rally_chat_cell_px``: the smallest lane in any close-up posted during real races, as a chat shows it: a
  lane's width × the zoom's scale × 550 / the picture's width (target: at least 16);
- ``rally_chat_png_bytes``: the largest close-up posted in seeded 6-car races of the smart driver on both
  tracks, every action drawn (target: at most 150,000); ``rally_chat_pictures`` counts them,
  ``rally_chat_zooms`` says how many were close, wide and of the finish, ``rally_chat_sizes`` how many
  sizes they came in (target: one per track), and
  ``rally_chat_render_median_ms`` is the median time of one (encoding included);
- ``rally_board_png_bytes``, ``rally_board_ms``, ``rally_board_pixels``: the whole board with its panel and
  legend (``/game board``) at the end of the 6-car race on track B.
"""

from __future__ import annotations

import collections
import io
import statistics
import time
from collections.abc import Iterator
from typing import Any

from PIL import Image

from bench.registry import Figures, benchmark
from bot.drivers.rally import SmartDriver
from render.rally import rally_png
from render.rally.chat import chat_frame, lane_px_at, rally_chat_png
from rules.rally import RallyGame

RACES = (("A", 1), ("B", 2))
SEATS = 6
MAX_ACTIONS = 5000


def race_views(track: str, seed: int, seats: int = SEATS) -> Iterator[dict[str, Any]]:
    """The public view after every action of a seeded race of smart drivers."""
    game = RallyGame.create({"seats": [{"name": f"Computer {i + 1} (smart)"} for i in range(seats)],
                             "options": {"track": track}}, seed)
    drivers = [SmartDriver(seed + i) for i in range(seats)]
    for _ in range(MAX_ACTIONS):
        if game.is_over:
            return
        seat = game.to_act
        assert seat is not None
        game.apply(drivers[seat].choose(game, seat))
        yield game.view(None)


@benchmark("rally_chat")
def rally_chat() -> Figures:
    figures: Figures = {}
    biggest = 0
    smallest = float("inf")
    drawing: list[float] = []
    zooms: collections.Counter[str] = collections.Counter()
    sizes: set[tuple[str, tuple[int, int]]] = set()
    last: dict[str, Any] = {}
    for track, seed in RACES:
        for view in race_views(track, seed):
            start = time.perf_counter()
            data = rally_chat_png(view)
            drawing.append(time.perf_counter() - start)
            biggest = max(biggest, len(data))
            frame = chat_frame(view)
            size = Image.open(io.BytesIO(data)).size
            smallest = min(smallest, lane_px_at(size[0], scale=float(frame.scale)))
            zooms[frame.zoom] += 1
            sizes.add((track, size))
            last = view
    figures["rally_chat_cell_px"] = round(smallest, 1)
    figures["rally_chat_png_bytes"] = biggest
    figures["rally_chat_pictures"] = len(drawing)
    figures["rally_chat_zooms"] = ", ".join(f"{zooms[z]} {z}" for z in ("close", "wide", "finish"))
    figures["rally_chat_sizes"] = len(sizes)
    figures["rally_chat_render_median_ms"] = round(statistics.median(drawing) * 1000, 2)
    rally_png(last)
    start = time.perf_counter()
    board = rally_png(last)
    figures["rally_board_ms"] = round((time.perf_counter() - start) * 1000, 1)
    figures["rally_board_png_bytes"] = len(board)
    size = Image.open(io.BytesIO(board)).size
    figures["rally_board_pixels"] = f"{size[0]}x{size[1]}"
    return figures
