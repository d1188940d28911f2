"""The game master on PostgreSQL: the service's speed with the shared database, and a burst of 200 races
served by two processes beside one.

Needs a server: ``JUNKYARD_BENCH_PG=postgresql://user:password@host/db python -m bench pg`` (each run works in
a schema of its own, dropped afterwards). Without it the figures are skipped, not failed.

* ``pg_service_p50_ms`` / ``pg_service_p95_ms``: every action of one two-lap race through the service, one
  after another: the load of ``service_p95_ms`` (bench/service.py), on PostgreSQL.
* ``pg_burst_200_1proc_s``: 200 races in progress act at the same moment, served by one process (pictures in
  its process pool): the time until the last reply. ``pg_burst_200_s``: the next move of each race, the
  races split between two processes (each with its own pool), both starting at the same moment: the time
  from the first start to the last reply of either. ``pg_burst_200_speedup``: the first over the second.
  The one process draws its pictures with one process per core; the two share the cores out. The bursts
  take turns three times; the figures are medians (``_best_``: the fastest).

Moves come from races of the smart driver recorded before timing, as in bench/service.py.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from bench.registry import benchmark
from bench.service import Script, accepted, open_race, percentile, race_times, record
from bot.play.service import Service
from bot.store import ACTIVE, FINISHED, Store
from bot.store.postgres import PostgresStore, drop_schemas
from bot.telling.pictures import cores

#: where the benchmark's PostgreSQL server is (a URL); without it the figures are skipped
ENV = "JUNKYARD_BENCH_PG"
ROOT = Path(__file__).resolve().parents[1]


def _store(url: str, schema: str) -> Store:
    return PostgresStore(url, schema=schema)


async def _one_race(url: str, script: Script) -> list[float]:
    """Reply times (ms) of every action of ``script`` through the service on a fresh schema."""
    schema = f"bench_{uuid.uuid4().hex[:12]}"
    store = _store(url, schema)
    await store.open()
    try:
        return await race_times(store, script)
    finally:
        await store.close()
        await drop_schemas(url, schema)


async def _tables(url: str, schema: str, scripts: list[Script], games: int, seed: int, keep: int
                  ) -> list[tuple[int, tuple[int, int], Script, int]]:
    """``games`` races in progress (channel, users, script, next move), each with ``keep`` moves to play."""
    rng = random.Random(seed)
    store = _store(url, schema)
    await store.open()
    try:
        service = Service(store)
        tables = []
        for i in range(games):
            script = scripts[i % len(scripts)]
            channel = 1000 + i
            users = await open_race(service, channel, script)
            upto = rng.randrange(0, len(script.moves) - keep)
            rec = await store.games.channel_game(channel)
            assert rec is not None
            for seat, action, state in script.moves[:upto]:  # stored directly: a race in progress
                rec = await store.games.append_action(rec.id, expected_version=rec.version, seat=seat,
                                                      user_id=users[seat], action=action, state=state,
                                                      status=FINISHED if state["winners"] else ACTIVE, narration="")
            tables.append((channel, users, script, upto))
        return tables
    finally:
        await store.close()


def _moves(tables: list[tuple[int, tuple[int, int], Script, int]], ahead: int) -> list[tuple[int, int, str]]:
    """Each race's move ``ahead`` moves on from its start: (channel, user, action)."""
    out = []
    for channel, users, script, upto in tables:
        seat, action, _ = script.moves[upto + ahead]
        out.append((channel, users[seat], action))
    return out


def _burst(url: str, schema: str, parts: list[list[tuple[int, int, str]]]) -> tuple[float, int]:
    """One child process per part, each acting its moves all at once when told to, the machine's cores
    shared out between their picture pools (as README's deployment does); returns the time from the first
    start to the last reply and the refusals."""
    pictures = max(1, cores() // len(parts))
    with tempfile.TemporaryDirectory() as tmp:
        procs = []
        for i, moves in enumerate(parts):
            path = Path(tmp) / f"moves-{i}.json"
            path.write_text(json.dumps(moves))
            procs.append(subprocess.Popen([sys.executable, "-m", "bench.pg", url, schema, str(path), str(pictures)],
                                          cwd=ROOT, text=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE))
        for proc in procs:
            assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        for proc in procs:
            assert proc.stdin is not None
            proc.stdin.write("go\n")
            proc.stdin.flush()
        results = []
        for proc in procs:
            out, _ = proc.communicate(timeout=600)
            assert proc.returncode == 0, out
            results.append(json.loads(out))
    return (max(r["end"] for r in results) - min(r["start"] for r in results),
            sum(r["refused"] for r in results))


async def _child(url: str, schema: str, moves_path: str, pictures: str) -> int:
    """A process of the burst: its store and picture pool warmed, then every move at once on ``go``."""
    from bot.games import unit_for
    from bot.telling.pictures import Pictures
    from rules.races import Races

    moves = [tuple(m) for m in json.loads(Path(moves_path).read_text())]
    store = _store(url, schema)
    await store.open()
    service = Service(store, pictures=Pictures(processes=int(pictures)))
    await asyncio.to_thread(service.pictures.wait_ready, 120)
    rec = await store.games.channel_game(int(moves[0][0]))
    assert rec is not None and rec.state is not None
    view = Races.from_dict(rec.state).view(None)
    unit = unit_for("races")
    await asyncio.gather(*(service.pictures.draw("races", unit.picture, view, []) for _ in range(4)))
    print("ready", flush=True)
    await asyncio.to_thread(sys.stdin.readline)
    start = time.time()
    replies = await asyncio.gather(*(service.act(int(c), int(u), str(a)) for c, u, a in moves))
    end = time.time()
    print(json.dumps({"start": start, "end": end, "refused": sum(not accepted(r) for r in replies)}), flush=True)
    await service.close()
    await store.close()
    return 0


def run(url: str, *, scripts: int = 3, laps: int = 2, games: int = 200, repeats: int = 3
        ) -> dict[str, float | int | str]:
    """The figures on the server at ``url`` (``run(url, games=10, repeats=1)`` makes a quick check). The
    bursts of one process and of two take turns, ``repeats`` times each, so a busy machine slows both
    alike; the figures are their medians."""
    recorded = [record(seed, laps) for seed in range(1, scripts + 1)]
    one = asyncio.run(_one_race(url, recorded[0]))
    schema = f"bench_{uuid.uuid4().hex[:12]}"
    singles: list[float] = []
    pairs: list[float] = []
    refused = 0
    try:
        tables = asyncio.run(_tables(url, schema, recorded, games, 7, 2 * repeats))
        for i in range(repeats):
            took, no = _burst(url, schema, [_moves(tables, 2 * i)])
            singles.append(took)
            moves = _moves(tables, 2 * i + 1)
            took, no2 = _burst(url, schema, [moves[0::2], moves[1::2]])
            pairs.append(took)
            refused += no + no2
    finally:
        asyncio.run(drop_schemas(url, schema))
    single, two = statistics.median(singles), statistics.median(pairs)
    return {
        "pg_service_p50_ms": round(statistics.median(one), 1),
        "pg_service_p95_ms": percentile(one, 0.95),
        "pg_service_actions": len(one),
        "pg_burst_200_1proc_s": round(single, 2),
        "pg_burst_200_s": round(two, 2),
        "pg_burst_200_speedup": round(single / two, 2),
        "pg_burst_200_best_1proc_s": round(min(singles), 2),
        "pg_burst_200_best_s": round(min(pairs), 2),
        "pg_burst_200_refused": refused,
        "pg_cores": cores(),
        "pg_load_average_1m": round(os.getloadavg()[0], 2),
    }


@benchmark("pg")
def pg() -> dict[str, float | int | str]:
    url = os.environ.get(ENV)
    if not url:
        return {"pg_skipped": f"no PostgreSQL server given: set {ENV}=postgresql://user:password@host/db"}
    return run(url)


if __name__ == "__main__":
    sys.exit(asyncio.run(_child(*sys.argv[1:5])))
