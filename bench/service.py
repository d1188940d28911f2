"""The game master's speed: one Junkyard Races action through the service (lock, apply, store, buttons,
picture), alone and while 200 races run in the same process.

Moves come from recorded races of the smart driver (recorded before timing, since a person chooses their
move on their own machine), replayed through :class:`bot.service.Service` on a temporary SQLite file:

* ``service_p50_ms`` / ``service_p95_ms``: every action of one two-lap race, one after another.
* ``service_200_p95_ms``: 200 races, each fast-forwarded to a random point of its race, then its two
  players play two actions, starting at a random moment in the first 15 s and thinking 5–15 s before
  the next (400 timed actions in about 40 s, up to some 20 a second); the figure is the time from
  calling the service to its reply, waiting for the CPU included.
* ``service_render_p50_ms``: the picture alone (drawn in a worker thread inside each action);
  ``service_200_cpu_ms_per_action`` is the process's CPU time (all threads) per action while 200 race.

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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.registry import benchmark
from bot.drivers import driver_for
from bot.games import front_for
from bot.service import Service
from bot.store import ACTIVE, FINISHED, SqliteStore
from rules.races import Races

TRACK = "A"
SEATS = ({"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "blue"})


@dataclass(frozen=True, slots=True)
class Script:
    """A recorded race: its seed, laps, and per action the seat, the notation and the state after it."""

    seed: int
    laps: int
    moves: tuple[tuple[int, str, dict[str, Any]], ...]


def record(seed: int, laps: int) -> Script:
    """Play a race between two smart drivers and keep every action (no service, not timed)."""
    front = front_for("races")
    options, _ = front.setup_options({"track": TRACK, "laps": laps})
    game = Races.create({"seats": [dict(s) for s in SEATS], "options": options}, seed)
    drivers = [driver_for("races", "smart", seed * 10 + i) for i in range(len(SEATS))]
    moves = []
    while not game.is_over and len(moves) < 2000:
        seat = game.to_act
        assert seat is not None
        action = drivers[seat].choose(game, seat)
        game.apply(action)
        moves.append((seat, action, game.to_dict()))
    return Script(seed, laps, tuple(moves))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(len(ordered) * q))], 1)


class _PictureClock:
    """Times the front end's picture (called in worker threads) without changing what it draws."""

    def __init__(self) -> None:
        self.front = front_for("races")
        self.times: list[float] = []
        self._lock = threading.Lock()
        self._original = type(self.front).picture

    def __enter__(self) -> _PictureClock:
        original, clock = self._original, self

        def timed(front: Any, view: Any, events: Any) -> bytes | None:
            start = time.perf_counter()
            try:
                return original(front, view, events)
            finally:
                with clock._lock:
                    clock.times.append((time.perf_counter() - start) * 1000)

        self.front.picture = timed.__get__(self.front)  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        del self.front.picture


async def _open(service: Service, channel: int, script: Script) -> tuple[int, int]:
    """A started race in ``channel`` (seeded like ``script``); returns the two players' user ids."""
    users = (channel * 10 + 1, channel * 10 + 2)
    reply = await service.new_game(guild_id=1, channel_id=channel, user_id=users[0], user_name=SEATS[0]["name"],
                                   game_key="races", options={"track": TRACK, "laps": script.laps},
                                   seat_options={"colour": SEATS[0]["colour"]})
    assert reply.ok, reply.text
    reply = await service.join(channel, users[1], SEATS[1]["name"], {"colour": SEATS[1]["colour"]})
    assert reply.ok, reply.text
    reply = await service.start(channel, users[0])
    assert reply.ok, reply.text
    return users


async def _fast_forward(service: Service, channel: int, users: tuple[int, int], script: Script, upto: int) -> None:
    """Store the first ``upto`` recorded actions directly (no apply, no picture): a race in progress."""
    rec = await service.store.channel_game(channel)
    assert rec is not None
    for seat, action, state in script.moves[:upto]:
        status = FINISHED if state["winners"] else ACTIVE
        rec = await service.store.append_action(rec.id, expected_version=rec.version, seat=seat, user_id=users[seat],
                                                action=action, state=state, status=status, narration="")


async def _one_race(path: Path, script: Script) -> list[float]:
    store = SqliteStore(path)
    await store.open()
    try:
        service = Service(store, seed_source=lambda: script.seed)
        users = await _open(service, 1, script)
        times = []
        for seat, action, _ in script.moves:
            start = time.perf_counter()
            reply = await service.act(1, users[seat], action)
            times.append((time.perf_counter() - start) * 1000)
            assert reply.ok, (action, reply.text)
        return times
    finally:
        await store.close()


async def _many_races(path: Path, scripts: list[Script], games: int, actions: int, think: tuple[float, float],
                      seed: int) -> tuple[list[float], int, float, float]:
    """``games`` races at once; returns the reply times, refusals, and the wall and CPU time (this process,
    every thread) of the timed phase."""
    store = SqliteStore(path)
    await store.open()
    rng = random.Random(seed)
    plan = [scripts[i % len(scripts)] for i in range(games)]
    seeds = iter(s.seed for s in plan)
    try:
        service = Service(store, seed_source=lambda: next(seeds))
        tables = []
        for i, script in enumerate(plan):
            channel = 1000 + i
            users = await _open(service, channel, script)
            upto = rng.randrange(0, max(1, len(script.moves) - actions))
            await _fast_forward(service, channel, users, script, upto)
            tables.append((channel, users, script, upto, rng.uniform(0, think[1]),
                           [rng.uniform(*think) for _ in range(actions)]))
        times: list[float] = []
        refused = 0

        async def play(channel: int, users: tuple[int, int], script: Script, upto: int, delay: float,
                       pauses: list[float]) -> None:
            nonlocal refused
            await asyncio.sleep(delay)
            for (seat, action, _), pause in zip(script.moves[upto:upto + actions], pauses, strict=False):
                start = time.perf_counter()
                reply = await service.act(channel, users[seat], action)
                times.append((time.perf_counter() - start) * 1000)
                refused += not reply.ok
                await asyncio.sleep(pause)

        start, cpu = time.perf_counter(), time.process_time()
        await asyncio.gather(*(play(*t) for t in tables))
        return times, refused, time.perf_counter() - start, time.process_time() - cpu
    finally:
        await store.close()


def run(*, scripts: int = 3, laps: int = 2, games: int = 200, actions: int = 2,
        think: tuple[float, float] = (5.0, 15.0)) -> dict[str, float | int | str]:
    """The figures (smaller numbers make a quick check: ``run(games=5, think=(0.0, 0.1))``)."""
    recorded = [record(seed, laps) for seed in range(1, scripts + 1)]
    with tempfile.TemporaryDirectory() as tmp, _PictureClock() as pictures:
        one = asyncio.run(_one_race(Path(tmp) / "one.db", recorded[0]))
        single_pictures = list(pictures.times)
        many, refused, wall, cpu = asyncio.run(_many_races(Path(tmp) / "many.db", recorded, games, actions, think, 7))
    return {
        "service_p50_ms": round(statistics.median(one), 1),
        "service_p95_ms": percentile(one, 0.95),
        "service_actions": len(one),
        "service_render_p50_ms": round(statistics.median(single_pictures), 1),
        "service_200_p50_ms": round(statistics.median(many), 1),
        "service_200_p95_ms": percentile(many, 0.95),
        "service_200_actions": len(many),
        "service_200_refused": refused,
        "service_200_actions_per_s": round(len(many) / wall, 1),
        "service_200_cpu_ms_per_action": round(cpu * 1000 / max(1, len(many)), 1),
        "load_average_1m": round(os.getloadavg()[0], 2),
    }


@benchmark("service")
def service() -> dict[str, float | int | str]:
    return run()
