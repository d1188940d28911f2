"""The game master's speed: one Junkyard Races action through the service (lock, apply, store, buttons,
picture), alone, under a steady load across 200 races, and in a burst of 200 races acting at once.

Moves come from recorded races of the smart driver (recorded before timing, since a person chooses their
move on their own machine), replayed through :class:`bot.play.service.Service` on a temporary SQLite file:

* ``service_p50_ms`` / ``service_p95_ms``: every action of one two-lap race, one after another;
  ``service_render_p50_ms``: its picture alone.
* ``service_200_p95_ms``: 200 races, each fast-forwarded to a random point of its race; actions arrive at
  a steady 20 a second, each for a race chosen at random that is not busy, for ``seconds`` at a time;
  the figure is the median over the ``repeats`` of each run's 95th percentile of the time from calling the
  service to its reply (``service_200_p95_worst_ms``: the worst run). Pictures are drawn in the process
  pool, as the bot does.
* ``burst_200_s``: all 200 races act at the same moment; the time until the last reply, pictures in the
  pool (the median of three bursts, taking turns with the other two kinds); ``burst_200_single_core_s``:
  the same with the pool off and the whole process held to one core (the bot as it was before the pool:
  everything on one core); ``burst_200_pool_off_s``: the pool off but both
  cores free (pictures in threads; Pillow lets go of the interpreter lock while it encodes, so threads
  alone get a little more than one core: ``burst_200_pool_off_cores_used``);
  ``loop_lag_p99_ms``: how late the event loop woke a 5 ms timer during the burst (99th percentile);
  ``burst_200_cores_used``: CPU seconds (this process and the picture processes) per second of the burst,
  the share of the machine the burst got (on a machine other work shares, the speed-up is bounded by it);
  ``burst_200_cpu_s`` / ``burst_200_single_core_cpu_s``: the CPU seconds each burst took (the pool's work
  crosses processes, so it costs more; on two idle cores the speed-up is at most twice the single burst's
  CPU over the pooled burst's); ``burst_200_speedup`` is the single-core burst over the pooled one, and
  ``burst_200_pool_off_speedup`` the pool-off burst (both cores free) over the pooled one.
* ``service_200_cpu_ms_per_action``: CPU time (this process and the picture processes) per paced action.

The machine's other load shows in every figure, so ``load_average_1m`` is reported with them.
"""

from __future__ import annotations

import asyncio
import os
import random
import statistics
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.registry import benchmark
from bot.drivers import driver_for
from bot.games import unit_for
from bot.play.service import Service
from bot.store import ACTIVE, FINISHED, SqliteStore, Store
from bot.telling.outcomes import Accepted
from bot.telling.pictures import Pictures, cores
from rules.races import Races

TRACK = "A"
#: bursts of each kind (pooled, pool off, one core), taking turns; the figures are each kind's median
BURSTS = 3
SEATS = ({"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "blue"})


@dataclass(frozen=True, slots=True)
class Script:
    """A recorded race: its seed, laps, and per action the seat, the notation and the state after it."""

    seed: int
    laps: int
    moves: tuple[tuple[int, str, dict[str, Any]], ...]


def record(seed: int, laps: int) -> Script:
    """Play a race between two smart drivers and keep every action (no service, not timed)."""
    front = unit_for("races")
    options, _ = front.setup_options({"track": TRACK, "laps": laps})
    game = Races.create({"seats": [dict(s) for s in SEATS], "options": options}, seed)
    drivers = [driver_for("races", "smart", seed * 10 + i) for i in range(len(SEATS))]
    moves: list[tuple[int, str, dict[str, Any]]] = []
    while not game.is_over and len(moves) < 2000:
        seat = game.to_act
        assert seat is not None
        action = drivers[seat].choose(game, seat)
        game.apply(action)
        moves.append((seat, action, game.to_dict()))
    return Script(seed, laps, tuple(moves))


def accepted(outcome: object) -> bool:
    """Whether the service stored what it was asked (its refusals say why in their text)."""
    return isinstance(outcome, Accepted)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(len(ordered) * q))], 1)


class _PictureClock:
    """Times the front end's picture (called in worker threads) without changing what it draws."""

    def __init__(self) -> None:
        self.front = unit_for("races")
        self.times: list[float] = []
        self._lock = threading.Lock()
        self._original = type(self.front).picture

    def __enter__(self) -> _PictureClock:
        original, clock = self._original, self

        def timed(front: Any, view: Any, events: Any, lang: str = "en") -> bytes | None:
            start = time.perf_counter()
            try:
                return original(front, view, events, lang)
            finally:
                with clock._lock:
                    clock.times.append((time.perf_counter() - start) * 1000)

        self.front.picture = timed.__get__(self.front)  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        del self.front.picture


async def open_race(service: Service, channel: int, script: Script) -> tuple[int, int]:
    """A started race in ``channel``, seeded like ``script``; returns the two players' user ids."""
    users = (channel * 10 + 1, channel * 10 + 2)
    service.seed_source = lambda: script.seed
    reply = await service.new_game(guild_id=1, channel_id=channel, user_id=users[0], user_name=SEATS[0]["name"],
                                   game_key="races", options={"track": TRACK, "laps": script.laps},
                                   seat_options={"colour": SEATS[0]["colour"]})
    assert accepted(reply), reply
    reply = await service.join(channel, users[1], SEATS[1]["name"], {"colour": SEATS[1]["colour"]})
    assert accepted(reply), reply
    reply = await service.start(channel, users[0])
    assert accepted(reply), reply
    return users


async def _fast_forward(service: Service, channel: int, users: tuple[int, int], script: Script, upto: int) -> None:
    """Store the first ``upto`` recorded actions directly (no apply, no picture): a race in progress."""
    rec = await service.store.games.channel_game(channel)
    assert rec is not None
    for seat, action, state in script.moves[:upto]:
        status = FINISHED if state["winners"] else ACTIVE
        rec = await service.store.games.append_action(rec.id, expected_version=rec.version, seat=seat,
                                                      user_id=users[seat], action=action, state=state,
                                                      status=status, narration="")


async def race_times(store: Store, script: Script) -> list[float]:
    """Reply times (ms) of every action of ``script``, one after another, through the service on ``store``."""
    service = Service(store)
    users = await open_race(service, 1, script)
    times = []
    for seat, action, _ in script.moves:
        start = time.perf_counter()
        reply = await service.act(1, users[seat], action)
        times.append((time.perf_counter() - start) * 1000)
        assert accepted(reply), (action, reply)
    return times


async def _one_race(path: Path, script: Script) -> list[float]:
    store = SqliteStore(path)
    await store.open()
    try:
        return await race_times(store, script)
    finally:
        await store.close()


@dataclass
class _Table:
    channel: int
    users: tuple[int, int]
    script: Script
    next: int
    busy: bool = False

    @property
    def ready(self) -> bool:
        return not self.busy and self.next < len(self.script.moves)


def _cpu_seconds(service: Service) -> float:
    """CPU time of this process and of the picture worker processes so far."""
    total = time.process_time()
    pool = getattr(service.pictures, "_pool", None)
    tick = os.sysconf("SC_CLK_TCK")
    for pid in list(getattr(pool, "_processes", {}) or {}):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
        except (OSError, IndexError, ValueError):
            pass
    return total


async def _tables(service: Service, scripts: list[Script], games: int, keep: int, rng: random.Random
                  ) -> list[_Table]:
    """``games`` races in progress, each with at least ``keep`` recorded actions still to play."""
    tables = []
    for i in range(games):
        script = scripts[i % len(scripts)]
        channel = 1000 + i
        users = await open_race(service, channel, script)
        upto = rng.randrange(0, max(1, len(script.moves) - keep))
        await _fast_forward(service, channel, users, script, upto)
        tables.append(_Table(channel, users, script, upto))
    return tables


async def _act(service: Service, table: _Table, times: list[float]) -> bool:
    table.busy = True
    seat, action, _ = table.script.moves[table.next]
    start = time.perf_counter()
    try:
        reply = await service.act(table.channel, table.users[seat], action)
    finally:
        times.append((time.perf_counter() - start) * 1000)
        table.busy = False
    table.next += 1
    return accepted(reply)


async def _paced(service: Service, tables: list[_Table], rate: float, seconds: float, rng: random.Random
                 ) -> tuple[list[float], int, float]:
    """Actions at ``rate`` a second for ``seconds``, each for a random race that is not busy; returns the
    reply times, the refusals and the wall time."""
    loop = asyncio.get_running_loop()
    times: list[float] = []
    refused = 0
    tasks = []

    async def one(table: _Table) -> None:
        nonlocal refused
        refused += not await _act(service, table, times)

    start = loop.time()
    for i in range(int(rate * seconds)):
        await asyncio.sleep(max(0.0, start + i / rate - loop.time()))
        ready = [t for t in tables if t.ready]
        if ready:
            tasks.append(loop.create_task(one(rng.choice(ready))))
    await asyncio.gather(*tasks)
    return times, refused, loop.time() - start


async def _burst(service: Service, tables: list[_Table]) -> tuple[float, list[float], int]:
    """Every race acts at once: the wall time until the last reply, the loop's lateness (ms) meanwhile, and
    the refusals."""
    loop = asyncio.get_running_loop()
    lags: list[float] = []
    done = asyncio.Event()

    async def watch() -> None:
        while not done.is_set():
            before = loop.time()
            await asyncio.sleep(0.005)
            lags.append((loop.time() - before - 0.005) * 1000)

    watcher = loop.create_task(watch())
    times: list[float] = []
    start = time.perf_counter()
    results = await asyncio.gather(*(_act(service, t, times) for t in tables if t.ready))
    wall = time.perf_counter() - start
    done.set()
    await watcher
    return wall, lags, sum(not ok for ok in results)


def _median_run(runs: list[tuple[float, list[float], int, float]]) -> tuple[float, list[float], int, float]:
    """The burst of median wall time among ``runs`` (wall seconds, loop lags, refusals, CPU seconds)."""
    return sorted(runs, key=lambda r: r[0])[len(runs) // 2]


@contextmanager
def _one_core() -> Iterator[None]:
    """Hold every thread of this process (and those it starts meanwhile) to one core, then free them."""
    allowed = os.sched_getaffinity(0)
    one = {min(allowed)}
    for tid in os.listdir("/proc/self/task"):
        os.sched_setaffinity(int(tid), one)
    try:
        yield
    finally:
        for tid in os.listdir("/proc/self/task"):
            with suppress(OSError):  # a thread that ended meanwhile
                os.sched_setaffinity(int(tid), allowed)


async def _warm(service: Service, tables: list[_Table]) -> None:
    """Start the picture processes and let each draw once, so start-up is not timed."""
    await asyncio.to_thread(service.pictures.wait_ready, 120)
    unit = unit_for("races")
    rec = await service.store.games.channel_game(tables[0].channel)
    assert rec is not None and rec.state is not None
    view = Races.from_dict(rec.state).view(None)
    await asyncio.gather(*(service.pictures.draw("races", unit.picture, view, []) for _ in range(4)))


async def _many_races(path: Path, scripts: list[Script], games: int, rate: float, seconds: float, repeats: int,
                      seed: int) -> dict[str, float | int]:
    store = SqliteStore(path)
    await store.open()
    rng = random.Random(seed)
    pooled = Service(store, pictures=Pictures())
    single = Service(store, pictures=Pictures(processes=0))
    try:
        keep = int(rate * seconds * repeats / games * 3) + 4 + 3 * BURSTS
        tables = await _tables(pooled, scripts, games, keep, rng)
        await _warm(pooled, tables)
        p95s: list[float] = []
        every: list[float] = []
        refused = 0
        wall = 0.0
        cpu = _cpu_seconds(pooled)
        for _ in range(repeats):
            times, no, took = await _paced(pooled, tables, rate, seconds, rng)
            p95s.append(percentile(times, 0.95))
            every += times
            refused += no
            wall += took
        cpu = _cpu_seconds(pooled) - cpu
        runs: dict[str, list[tuple[float, list[float], int, float]]] = {"pool": [], "off": [], "one": []}
        for _ in range(BURSTS):  # taking turns, so a passing load on the machine falls on each alike
            for kind in runs:
                service = pooled if kind == "pool" else single
                service._cache.clear()  # every burst loads its games from the store
                with _one_core() if kind == "one" else nullcontext():
                    cpu_before = _cpu_seconds(service)
                    took, lag, no = await _burst(service, tables)
                    runs[kind].append((took, lag, no, _cpu_seconds(service) - cpu_before))
        burst, lags, no_pool, burst_cpu = _median_run(runs["pool"])
        off_burst, _, no_off, off_cpu = _median_run(runs["off"])
        single_burst, single_lags, no_single, single_cpu = _median_run(runs["one"])
        return {
            "service_200_p50_ms": round(statistics.median(every), 1),
            "service_200_p95_ms": round(statistics.median(p95s), 1),
            "service_200_p95_worst_ms": max(p95s),
            "service_200_actions": len(every),
            "service_200_refused": refused + no_pool + no_off + no_single,
            "service_200_actions_per_s": round(len(every) / wall, 1),
            "service_200_cpu_ms_per_action": round(cpu * 1000 / max(1, len(every)), 1),
            "burst_200_s": round(burst, 2),
            "burst_200_single_core_s": round(single_burst, 2),
            "burst_200_speedup": round(single_burst / burst, 2),
            "burst_200_cores_used": round(burst_cpu / burst, 2),
            "burst_200_cpu_s": round(burst_cpu, 2),
            "burst_200_single_core_cpu_s": round(single_cpu, 2),
            "burst_200_pool_off_s": round(off_burst, 2),
            "burst_200_pool_off_speedup": round(off_burst / burst, 2),
            "burst_200_pool_off_cores_used": round(off_cpu / off_burst, 2),
            "loop_lag_p99_ms": percentile(lags, 0.99),
            "loop_lag_p99_single_core_ms": percentile(single_lags, 0.99),
            "picture_processes": pooled.pictures.processes if pooled.pictures.uses_processes else 0,
        }
    finally:
        await pooled.close()
        await store.close()


def run(*, scripts: int = 3, laps: int = 2, games: int = 200, rate: float = 20.0, seconds: float = 10.0,
        repeats: int = 3) -> dict[str, float | int | str]:
    """The figures (smaller numbers make a quick check: ``run(games=5, seconds=1, repeats=1)``)."""
    recorded = [record(seed, laps) for seed in range(1, scripts + 1)]
    with tempfile.TemporaryDirectory() as tmp:
        with _PictureClock() as pictures:
            one = asyncio.run(_one_race(Path(tmp) / "one.db", recorded[0]))
            single_pictures = list(pictures.times)
        many = asyncio.run(_many_races(Path(tmp) / "many.db", recorded, games, rate, seconds, repeats, 7))
    return {
        "service_p50_ms": round(statistics.median(one), 1),
        "service_p95_ms": percentile(one, 0.95),
        "service_actions": len(one),
        "service_render_p50_ms": round(statistics.median(single_pictures), 1),
        **many,
        "cores": cores(),
        "load_average_1m": round(os.getloadavg()[0], 2),
    }


@benchmark("service")
def service() -> dict[str, float | int | str]:
    return run()
