"""Ladders: what ``/stats`` costs on a busy server, and how well the ratings predict races.

* ``ladder_ms`` (SQLite) and ``ladder_pg_ms`` (PostgreSQL): the server's ladder on a server with 10,000
  results (2,500 four-seat games of 80 players), read from the ratings and worded. ``stats_ms``
  (``stats_pg_ms``): the whole ``/stats`` answer there, as the bot gives it (``history.stats``): the ladder
  and the server's record per game, which the store counts. ``stats_player_ms`` (``stats_player_pg_ms``):
  ``/stats player:…`` for the player with the most games: their record, their rating card (rank on the
  ladder) and the chart of their rating's history drawn as a PNG. ``ladder_rebuild_ms``: rating those 2,500
  games again from their results.
  PostgreSQL is measured when ``JUNKYARD_BENCH_PG`` (or the tests' ``JUNKYARD_TEST_PG``) names a server.
* ``rating_predicts``: over simulated races of 2–8 drivers of known strength, how often the higher-rated of
  two drivers finished ahead in later races, with the model the ladder uses (Plackett–Luce);
  ``rating_predicts_<model>`` for the other models openskill offers, and ``rating_predicts_truth`` for
  the true strengths (the best any rating can do, since luck decides some races).
"""

from __future__ import annotations

import asyncio
import os
import random
import statistics
import tempfile
import time
import uuid
from pathlib import Path

from bench.registry import benchmark
from bot.play.service import Service
from bot.standing import history, ladder
from bot.standing.ratings import MODEL, MODELS, race, simulate
from bot.store import EVERLASTING, Store
from bot.store.sql import dumps
from bot.telling.compose import Message

GUILD = 42 << 22
RESULTS = 10_000
SEATS = 4
PLAYERS = 80


async def _fill(store: Store) -> None:
    """2,500 finished four-seat toy games on one server, with their results (not yet rated)."""
    rng = random.Random(5)
    games, results = [], []
    for g in range(1, RESULTS // SEATS + 1):
        at = 1_000_000.0 + g * 600
        players = rng.sample(range(1, PLAYERS + 1), SEATS)
        seats = [{"user_id": p, "name": f"p{p}", "options": {}} for p in players]
        games.append({"id": g, "guild_id": GUILD, "channel_id": 7 + g % 5, "game_key": "toy", "status": "finished",
                      "host_id": players[0], "setup": dumps({}), "seed": g, "seats": dumps(seats), "version": 40,
                      "state": None, "created_at": at - 500, "updated_at": at, "lang": "en"})
        for seat, p in enumerate(players):
            place = seat + 1
            results.append({"game_id": g, "seat": seat, "user_id": p, "name": f"p{p}", "place": place,
                            "winner": int(place == 1), "moves": 40, "game_key": "toy", "guild_id": GUILD,
                            "channel_id": 7 + g % 5, "started_at": at - 500, "finished_at": at, "team": None,
                            "driver": None, "turns": 10, "timed": 9, "missed": rng.randint(0, 1),
                            "autopilot": 0, "think": 9 * 120.0})
    for start in range(0, len(games), 500):
        await store.insert_rows("games", games[start:start + 500])
    for start in range(0, len(results), 2000):
        await store.insert_rows("results", results[start:start + 2000])


async def _measure(store: Store, repeat: int = 7) -> dict[str, float]:
    """The figures of one store (``ladder``, ``stats``, ``stats_player``, ``rebuild`` in ms; ``lines``: the
    ladder's) on a filled store; each time the median of ``repeat`` runs after a first one."""
    async with store:
        await _fill(store)
        start = time.perf_counter()
        await ladder.rebuild(store, GUILD)
        rebuild_ms = (time.perf_counter() - start) * 1000
        service = Service(store)
        busiest = max(await store.standings.ratings(GUILD, "toy", limit=PLAYERS), key=lambda r: r.games).user_id
        times: dict[str, list[float]] = {"ladder": [], "stats": [], "stats_player": []}
        lines: list[str] = []
        for _ in range(repeat + 1):
            start = time.perf_counter()
            lines = await history.server_ladder(service, GUILD, EVERLASTING, "all time", "en")
            times["ladder"].append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            whole = await history.stats(service, GUILD, None, asker_id=1)
            times["stats"].append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            card = await history.stats(service, GUILD, busiest, asker_id=1)
            times["stats_player"].append((time.perf_counter() - start) * 1000)
            assert isinstance(whole, Message) and isinstance(card, Message) and card.png, "no whole answer"
        await service.close()
    return {**{name: median(found[1:]) for name, found in times.items()}, "rebuild": round(rebuild_ms, 1),
            "lines": len(lines)}


def median(values: list[float]) -> float:
    return round(statistics.median(values), 1)


def pg_url() -> str | None:
    """The PostgreSQL server the figures use, if any."""
    return os.environ.get("JUNKYARD_BENCH_PG") or os.environ.get("JUNKYARD_TEST_PG")


@benchmark("ladder")
def ladder_figures() -> dict[str, float | int | str]:
    figures: dict[str, float | int | str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        from bot.store import SqliteStore

        found = asyncio.run(_measure(SqliteStore(Path(tmp) / "ladder.db")))
    figures.update({"ladder_ms": found["ladder"], "stats_ms": found["stats"],
                    "stats_player_ms": found["stats_player"], "ladder_rebuild_ms": found["rebuild"],
                    "ladder_results": RESULTS, "ladder_lines": int(found["lines"])})
    url = pg_url()
    if url:
        from bot.store.postgres import PostgresStore, drop_schemas

        schema = f"bench_{uuid.uuid4().hex[:12]}"
        try:
            found = asyncio.run(_measure(PostgresStore(url, schema=schema)))
        finally:
            asyncio.run(drop_schemas(url, schema))
        figures.update({"ladder_pg_ms": found["ladder"], "stats_pg_ms": found["stats"],
                        "stats_player_pg_ms": found["stats_player"], "ladder_pg_rebuild_ms": found["rebuild"]})
    else:
        figures["ladder_pg_skipped"] = "no PostgreSQL server given: set JUNKYARD_BENCH_PG=postgresql://…"
    return figures


def _truth(drivers: int = 24, learn: int = 400, test: int = 400, seed: int = 7) -> float:
    """The share of pairs the true strengths order rightly over :func:`simulate`'s test races."""
    rng = random.Random(seed)
    strengths = [rng.gauss(0.0, 1.0) for _ in range(drivers)]
    for _ in range(learn):
        race(strengths, rng.sample(range(drivers), rng.randint(2, 8)), rng)
    right = pairs = 0
    for _ in range(test):
        order = race(strengths, rng.sample(range(drivers), rng.randint(2, 8)), rng)
        for i, ahead in enumerate(order):
            for behind in order[i + 1:]:
                pairs += 1
                right += strengths[ahead] > strengths[behind]
    return right / pairs


@benchmark("rating_predicts")
def rating_figures() -> dict[str, float | int | str]:
    figures: dict[str, float | int | str] = {}
    for name in MODELS:
        found = simulate(name)
        key = "rating_predicts" if name == MODEL else f"rating_predicts_{name.replace('-', '_')}"
        figures[key] = round(found.share, 3)
    figures["rating_predicts_truth"] = round(_truth(), 3)
    return figures
