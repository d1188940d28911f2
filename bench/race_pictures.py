"""The size of the board pictures the bot posts during real races: eight smart drivers race on each
built-in track, and the board after every action is drawn as the bot draws it (drawing spread over the
machine's cores).

- ``render_png_bytes``: the largest picture (target: at most 200,000), ``render_png_largest_at`` where;
- ``render_png_over_200k``: how many pictures were larger than that, of ``render_png_pictures``;
- ``render_png_p50_bytes``: the median size.
"""

from __future__ import annotations

import statistics
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from bench.registry import benchmark
from bot.drivers import driver_for
from bot.games import unit_for
from bot.telling.pictures import cores
from rules.races import Races
from rules.races.track import builtin_tracks

SEATS = 8
LIMIT = 200_000


def race_views(track: str, seed: int, max_actions: int = 5000) -> list[dict[str, Any]]:
    """The public view after every action of a race between smart drivers."""
    game = Races.create({"seats": [{"name": f"P{i + 1}"} for i in range(SEATS)], "options": {"track": track}}, seed)
    drivers = [driver_for("races", "smart", seed * 100 + i) for i in range(SEATS)]
    views = [game.view(None)]
    while not game.is_over and len(views) <= max_actions:
        seat = game.to_act
        assert seat is not None
        game.apply(drivers[seat].choose(game, seat))
        views.append(game.view(None))
    return views


def _size(view: dict[str, Any]) -> int:
    png = unit_for("races").picture(view, [])
    return len(png or b"")


@benchmark("race_pictures")
def race_pictures() -> dict[str, float | int | str]:
    sizes: list[tuple[int, str]] = []
    with ProcessPoolExecutor(max_workers=cores()) as pool:
        for track in sorted(builtin_tracks()):
            views = race_views(track, seed=11)
            for i, size in enumerate(pool.map(_size, views, chunksize=16)):
                sizes.append((size, f"track {track}, action {i}"))
    largest = max(sizes)
    return {
        "render_png_bytes": largest[0],
        "render_png_largest_at": largest[1],
        "render_png_over_200k": sum(size > LIMIT for size, _ in sizes),
        "render_png_pictures": len(sizes),
        "render_png_p50_bytes": int(statistics.median(size for size, _ in sizes)),
    }
