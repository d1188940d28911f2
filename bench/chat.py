"""The pictures made for a chat column, and the where-can-I-go search behind the private picture.

- ``chat_cell_px``: the smallest cell in any picture posted during real races, measured as a chat
  shows it: a cell's width (flat side to flat side) × 550 / the picture's width (target: at least 16);
- ``chat_render_ms``: median time of ``chat_png(view)`` for a close-up of the busy sample position,
  encoding included; ``chat_encode_floor_ms``: encoding the same finished picture alone, timed turn
  about with it; ``chat_render_ratio``: the first over the second (target: at most 1.15);
- ``chat_png_bytes``: the largest picture posted in seeded 8-seat races of the smart driver on both
  tracks, every action drawn (target: at most 150,000); ``chat_pictures`` counts them;
- ``chat_board_png_bytes``, ``chat_board_ms``: the whole board cropped to the track (track B);
- ``reach_worst_ms``: the slowest where-can-I-go search over many positions on both tracks with
  every roll from 1 to 90 points (target: at most 20), after one search per track has built the
  track's own tables; each search is timed three times and its best kept, so a busy machine's pauses
  do not pass for the search's own cost; ``reach_median_ms`` its median, ``reach_90_median_ms`` the
  median at 90 points, ``reach_exact`` how many of the searches followed every bump,
  ``reach_worst_at`` which search was the slowest; ``reach_worst_cpu_ms`` the slowest in processor
  time (the best of three likewise), which other work on a shared machine inflates less;
- ``piecepack_cell_px``: a square of the piecepack board as a chat shows the picture (550 px wide).
"""

from __future__ import annotations

import io
import random
import statistics
import time
from collections.abc import Callable, Iterator

from PIL import Image

from bench.registry import Figures, benchmark, interleaved_ms
from bot.drivers.races import RacingDriver
from render.common import encode_png
from render.races.chat import board_chat_png, cell_px_at, chat_frame, chat_image, chat_png
from render.races.samples import busy_game
from rules.contract import SetupError
from rules.hexgrid import Facing
from rules.races.engine import Races
from rules.races.reach import Reach, reach
from rules.races.track import get_track

RACES = (("A", 1), ("B", 2), ("A", 3), ("B", 4))
SEATS = 8
MAX_ACTIONS = 3000
REACH_POINTS = (1, 2, 3, 4, 6, 8, 10, 12, 14, 16, 18, 22, 26, 30, 40, 50, 60, 75, 90)
REACH_POSITIONS = 12  # per track and roll


def race_views(track: str, seed: int) -> Iterator[dict]:
    """The public view after every action of a seeded 8-seat race of smart drivers."""
    game = Races.create({"seats": [{"name": f"P{i + 1}"} for i in range(SEATS)], "options": {"track": track}}, seed)
    drivers = [RacingDriver(i) for i in range(SEATS)]
    for _ in range(MAX_ACTIONS):
        if game.is_over:
            return
        seat = game.to_act
        assert seat is not None
        game.apply(drivers[seat].choose(game, seat))
        yield game.view(None)


def reach_positions(track_name: str, points: int, count: int, seed: int) -> Iterator[Races]:
    """Positions with the mover anywhere on the track, any facing, and seven karts about."""
    track = get_track(track_name)
    rng = random.Random(f"{seed}-{track_name}-{points}")
    cells = sorted(track.track_cells)
    made = 0
    while made < count:
        cell = rng.choice(cells)
        crowd = rng.sample([c for c in cells if c != cell], SEATS - 1)
        karts = [{"colour": "red", "cell": cell.label, "facing": rng.choice(list(Facing)).name}]
        karts += [{"cell": c.label, "facing": rng.choice(list(Facing)).name} for c in crowd]
        try:
            game = Races.from_position({"track": track_name, "karts": karts, "phase": "move", "points": points})
        except SetupError:
            continue
        if game.phase != "move" or game.turn.seat != 0 or game.choice is not None:
            continue
        made += 1
        yield game


@benchmark("chat")
def chat() -> Figures:
    figures: Figures = {}
    view = busy_game("A").view(None)
    frame = chat_frame(view)
    finished = chat_image(view)
    render, floor, _, _ = interleaved_ms(lambda: chat_png(view), lambda: encode_png(finished), repeat=41, digits=3)
    figures["chat_render_ms"] = render
    figures["chat_encode_floor_ms"] = floor
    figures["chat_render_ratio"] = round(render / floor, 3)
    figures["chat_busy_pixels"] = f"{finished.width}x{finished.height} ({frame.zoom}, cell {frame.size})"
    biggest = 0
    smallest_cell = float("inf")
    pictures = 0
    drawing: list[float] = []
    for track, seed in RACES:
        for v in race_views(track, seed):
            start = time.perf_counter()
            data = chat_png(v)
            drawing.append(time.perf_counter() - start)
            pictures += 1
            biggest = max(biggest, len(data))
            width = Image.open(io.BytesIO(data)).width
            smallest_cell = min(smallest_cell, cell_px_at(chat_frame(v).size, width))
    figures["chat_png_bytes"] = biggest
    figures["chat_cell_px"] = round(smallest_cell, 1)
    figures["chat_pictures"] = pictures
    figures["chat_race_render_median_ms"] = round(statistics.median(drawing) * 1000, 2)
    board_view = busy_game("B").view(None)
    board_chat_png(board_view)
    start = time.perf_counter()
    figures["chat_board_png_bytes"] = len(board_chat_png(board_view))
    figures["chat_board_ms"] = round((time.perf_counter() - start) * 1000, 1)
    times, at_90, exact, worst_at, cpu = reach_times()
    figures["reach_worst_ms"] = round(max(times) * 1000, 2)
    figures["reach_worst_at"] = worst_at
    figures["reach_worst_cpu_ms"] = round(max(cpu) * 1000, 2)
    figures["reach_median_ms"] = round(statistics.median(times) * 1000, 2)
    figures["reach_90_median_ms"] = round(statistics.median(at_90) * 1000, 2)
    figures["reach_searches"] = len(times)
    figures["reach_exact"] = exact
    figures["piecepack_cell_px"] = _piecepack_cell_px()
    return figures


def reach_times(search: Callable[[Races], Reach] = reach, repeat: int = 3
                ) -> tuple[list[float], list[float], int, str, list[float]]:
    """(seconds of every search, of those at 90 points, how many answers are exact, which search was the
    slowest, processor seconds of every search): the best of ``repeat`` runs of each search."""
    times: list[float] = []
    at_90: list[float] = []
    cpu: list[float] = []
    exact = 0
    worst, worst_at = -1.0, ""
    for track in ("A", "B"):
        search(next(reach_positions(track, 3, 1, seed=0)))  # the track's bit layout, built once
        for points in REACH_POINTS:
            for n, game in enumerate(reach_positions(track, points, REACH_POSITIONS, seed=1)):
                best = best_cpu = float("inf")
                for _ in range(repeat):
                    start, start_cpu = time.perf_counter(), time.process_time()
                    found = search(game)
                    best = min(best, time.perf_counter() - start)
                    best_cpu = min(best_cpu, time.process_time() - start_cpu)
                times.append(best)
                cpu.append(best_cpu)
                exact += found.exact
                if points == 90:
                    at_90.append(best)
                if best > worst:
                    worst, worst_at = best, f"track {track}, {points} points, position {n}"
    return times, at_90, exact, worst_at, cpu


def _piecepack_cell_px() -> float:
    from render.piecepack import DEFAULT_TILE, piecepack_png
    from rules.piecepack import PiecepackGame

    game = PiecepackGame.create({"seats": [{"name": n} for n in ("Ann", "Bob", "Cy", "Di")], "options": {}}, 3)
    width = Image.open(io.BytesIO(piecepack_png(game.view(None)))).width
    return round(DEFAULT_TILE * 550 / width, 1)
