"""The replay GIF of a whole race as a channel gets it at the end: six smart drivers race on track A, and
the unit draws the replay of the whole log (the views rebuilt from the log, then the GIF).

- ``replay_s``: the time to draw it (views and GIF); ``replay_mb``: its size;
- ``replay_watch_s``: how long it plays, the last frame's hold included (target: about a minute at most);
- ``replay_gif_frames``, ``replay_actions``, ``replay_px``: the frames it holds, the race's length and its size.
"""

from __future__ import annotations

import io
import time

from PIL import Image

from bench.registry import Figures, benchmark
from bot.drivers.match import play_match
from bot.games import unit_for
from render.common import gif_seconds

SEATS = 6


def smart_race(seed: int = 11, track: str = "A", seats: int = SEATS) -> tuple[dict, int, list[str]]:
    """A whole race between smart drivers: (setup, seed, action log)."""
    setup = {"seats": [{"name": f"P{i + 1}"} for i in range(seats)], "options": {"track": track}}
    return setup, seed, play_match("races", setup, seed, ["smart"] * seats).actions


@benchmark("race_replay")
def race_replay() -> Figures:
    setup, seed, log = smart_race()
    start = time.perf_counter()
    made = unit_for("races").replay(setup, seed, log)
    elapsed = time.perf_counter() - start
    assert made is not None
    data, _ = made
    gif = Image.open(io.BytesIO(data))
    return {
        "replay_s": round(elapsed, 2),
        "replay_mb": round(len(data) / 1e6, 3),
        "replay_watch_s": round(gif_seconds(data), 1),
        "replay_gif_frames": gif.n_frames,
        "replay_actions": len(log),
        "replay_px": f"{gif.width}x{gif.height}",
    }
