"""Pictures off the event loop: a process pool sized to the machine, threads when a picture cannot travel."""

from __future__ import annotations

import io
import os

from PIL import Image

from bot.games import unit_for
from bot.telling.pictures import Pictures, cores
from bot.upkeep.consistency import check_consistency
from rules.races import Races


def race_view() -> dict:
    return Races.create({"seats": [{"name": "A"}, {"name": "B"}], "options": {}}, 3).view(None)


def where_drawn(view: dict, events: list) -> bytes:
    """A stand-in picture that says which process drew it."""
    return f"{os.getpid()} {len(view)} {len(events)}".encode()


async def test_a_picture_is_drawn_in_a_worker_process():
    pictures = Pictures(processes=1)
    try:
        assert pictures.wait_ready(120) and pictures.uses_processes
        pid, *sizes = (await pictures.draw("toy", where_drawn, {"a": 1}, [1, 2])).split()
        assert int(pid) != os.getpid() and sizes == [b"1", b"2"]
        unit = unit_for("races")
        view = race_view()
        drawn = await pictures.draw(unit.key, unit.picture, view, [])
        here = unit.picture(view, [])
        assert Image.open(io.BytesIO(drawn)).size == Image.open(io.BytesIO(here)).size
        assert unit.key not in pictures._threads_for
    finally:
        pictures.close()


async def test_a_picture_that_cannot_travel_is_drawn_in_a_thread():
    pictures = Pictures(processes=1)
    try:
        assert pictures.wait_ready(120)

        def local(view, events):  # defined in a function: no worker process can find it
            return b"png" + bytes([len(events)])

        assert await pictures.draw("local", local, {}, [1, 2]) == b"png\x02"
        assert "local" in pictures._threads_for
    finally:
        pictures.close()


async def test_no_processes_means_threads_and_the_default_is_one_per_core():
    pictures = Pictures(processes=0)
    assert not pictures.uses_processes and pictures.wait_ready(0) is False
    assert await pictures.draw("x", lambda view, events: b"ok", {}, []) == b"ok"
    assert Pictures().processes == cores() >= 1


async def test_moves_applied_in_worker_processes_play_as_moves_applied_here(tmp_path):
    """With the pool running, a move is applied to a copy of the game in a worker process (which draws the
    turn's close-up at once); the replies, their pictures, the stored log and the snapshots are those of the
    same moves applied in this process."""
    from bot.drivers import driver_for
    from bot.play.service import Service
    from bot.store import SqliteStore
    from tests.bot.speaking import Speaking

    async def play(pictures: Pictures, path) -> tuple[list[tuple[str, list[str], bytes | None]], dict, bool]:
        async with SqliteStore(path) as store:
            service = Speaking(Service(store, seed_source=lambda: 5, pictures=pictures))
            await service.new_game(guild_id=1, channel_id=9, user_id=1, user_name="Ann", game_key="races")
            await service.join(9, 2, "Bob")
            await service.start(9, 1)
            seen = []
            for _ in range(25):
                rec, game, _ = await service.current(9)
                action = driver_for("races", "random", rec.version).choose(game, game.to_act)
                r = await service.act(9, rec.seats[game.to_act].user_id, action)
                assert r.ok and r.png, r.text
                seen.append((r.text, [b.action for b in r.buttons], r.png))
            rec = await store.games.channel_game(9)
            await check_consistency(store.games, rec.id)
            remote = pictures.uses_processes and "races" not in pictures._threads_for
            return seen, rec.state, remote

    pool = Pictures(processes=1)
    try:
        assert pool.wait_ready(120)
        there = await play(pool, tmp_path / "pool.db")
    finally:
        pool.close()
    here = await play(Pictures(processes=0), tmp_path / "here.db")
    assert there[2] and not here[2]
    assert there[:2] == here[:2]


def test_the_workers_do_not_outlive_a_killed_bot():
    """The bot is killed (no chance to stop its pool): its picture workers notice and exit."""
    import subprocess
    import sys
    import time

    script = ("import os, signal\n"
              "from bot.telling.pictures import Pictures\n"
              "p = Pictures(processes=2)\n"
              "assert p.wait_ready(120)\n"
              "print(' '.join(str(pid) for pid in p._pool._processes), flush=True)\n"
              "os.kill(os.getpid(), signal.SIGKILL)\n")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    workers = [int(pid) for pid in proc.stdout.split()]
    assert len(workers) == 2

    def alive(pid: int) -> bool:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True

    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(pid) for pid in workers)


def test_a_stuck_worker_is_killed_when_the_pool_closes(monkeypatch):
    """A worker that never finishes its picture does not hold the close (nor the process's exit): it has a
    moment to stop, then it is killed."""
    import time

    from bot.telling import pictures as module

    monkeypatch.setattr(module, "STOP_SECONDS", 0.5)
    pool = Pictures(processes=1)
    assert pool.wait_ready(120) and pool._pool is not None
    [worker] = list(pool._pool._processes.values())  # type: ignore[attr-defined]
    pool._pool.submit(time.sleep, 600)
    time.sleep(0.2)  # the worker is asleep in it
    started = time.monotonic()
    pool.close()
    assert time.monotonic() - started < 10 and not worker.is_alive()
