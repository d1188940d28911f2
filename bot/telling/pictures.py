"""Pictures off the event loop: drawing and encoding run in a pool of processes sized to the machine, so
every core draws and the event loop never waits on Pillow.

A picture function is pure (a view and events in, PNG bytes out) and travels to a worker process by
reference. The pool starts in the background on first use, or when its owner says (``start_on_use``
False: the bot starts it once the first interactions after a start were served, so the processes starting
do not take the cores from them); until its workers answer, pictures are drawn in threads. Before the
workers take work, each draws the first picture the threads drew, so that their first real picture finds
the game's drawing code warm (its board drawn once, its fonts loaded). Where processes are unavailable (no
process support, a picture function that cannot travel, such as one defined inside a function), pictures
are drawn in threads instead; ``processes=0`` asks for threads from the start.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from bot.games import GAMES

log = logging.getLogger(__name__)
T = TypeVar("T")

#: modules the worker processes load before their first picture (the fork server's, shared by them all)
PRELOAD = ("bot.games", "PIL.Image", "PIL.PngImagePlugin", *GAMES)
#: seconds the workers have to exit when the pool closes, before they are killed
STOP_SECONDS = 10.0

Picture = Callable[[dict[str, Any], Sequence[Any]], "bytes | None"]


def cores() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


class Pictures:
    """Draws pictures in a process pool (``processes``: a number, or None for one per core; 0: threads)."""

    def __init__(self, processes: int | None = None, *, start_on_use: bool = True) -> None:
        self.processes = cores() if processes is None else max(0, processes)
        #: whether the first picture starts the pool (else :meth:`start` does)
        self.start_on_use = start_on_use
        #: the first picture drawn in a thread (function and arguments): each worker draws it before work
        self._sample: tuple[Callable[..., Any], tuple[Any, ...]] | None = None
        self._pool: Executor | None = None
        self._broken = self.processes == 0
        self._starting = False
        self._ready = threading.Event()
        #: games whose picture function could not be drawn in a process: drawn in threads
        self._threads_for: set[str] = set()

    @property
    def uses_processes(self) -> bool:
        return not self._broken

    def _executor(self) -> Executor | None:
        """The pool once its workers run; None meanwhile (and for good when processes are unavailable)."""
        if self._broken:
            return None
        if self._ready.is_set():
            return self._pool
        if self.start_on_use:
            self.start()
        return None

    def start(self) -> None:
        """Start the worker processes in a background thread (once)."""
        if self._starting or self._broken:
            return
        self._starting = True
        threading.Thread(target=self._start_pool, name="junkyard-pictures-start", daemon=True).start()

    def _start_pool(self) -> None:
        try:
            methods = multiprocessing.get_all_start_methods()
            context: Any = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
            if "forkserver" in methods:
                # the fork server imports the games once; every worker starts from it with them loaded
                context.set_forkserver_preload(list(PRELOAD))
            pool = ProcessPoolExecutor(max_workers=self.processes, mp_context=context, initializer=_follow,
                                       initargs=(os.getpid(),))
            for future in [pool.submit(os.getpid) for _ in range(self.processes)]:
                future.result(timeout=120)
            self._warm(pool)
        except Exception as exc:
            log.warning("no process pool for pictures (%s); drawing in threads", exc)
            self._broken = True
            return
        if self._broken:  # closed while it started
            _stop(pool)
            return
        self._pool = pool
        self._ready.set()

    def _warm(self, pool: Executor) -> None:
        """Each worker draws the first picture drawn in a thread (if any), before the pool takes work."""
        if self._sample is None:
            return
        fn, args = self._sample
        self._sample = None
        try:
            for future in [pool.submit(fn, *args) for _ in range(self.processes)]:
                future.result(timeout=120)
        except Exception as exc:  # a warm-up only: the pool serves all the same
            log.info("warming the picture processes failed (%s)", type(exc).__name__)

    def wait_ready(self, timeout: float | None = None) -> bool:
        """Block until the workers run (for benchmarks and tests); False if they never will."""
        if not self._broken:
            self.start()
            self._ready.wait(timeout)
        return self._ready.is_set() and not self._broken

    async def draw(self, key: str, picture: Picture, view: dict[str, Any], events: Sequence[Any]) -> bytes | None:
        """``picture(view, events)`` in a worker process (or thread); ``key`` names the game it draws."""
        args = (view, list(events))
        if self._sample is None and not self._ready.is_set() and not self._broken:
            self._sample = (picture, args)
        result: bytes | None = await self.call(key, picture, *args)
        return result

    def ready_for(self, key: str) -> bool:
        """Whether work for game ``key`` goes to a worker process now (not to a thread)."""
        return key not in self._threads_for and self._executor() is not None

    async def call(self, key: str, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker process, or in a thread while processes are not ready or when the call
        cannot travel to one (``key`` names the game, remembered for next time). Other CPU work of a game
        that needs nothing from this process (a move applied to its snapshot) goes the same way."""
        pool = None if key in self._threads_for else self._executor()
        if pool is not None:
            loop = asyncio.get_running_loop()
            try:
                return await loop.run_in_executor(pool, fn, *args)
            except BrokenProcessPool:
                log.warning("the picture processes stopped; drawing in threads from now on")
                self._broken = True
            except Exception as exc:  # cannot travel to a process: this game works in threads
                if not _travel_problem(exc):
                    raise
                log.info("work of %s is done in threads (%s)", key, type(exc).__name__)
                self._threads_for.add(key)
        return await asyncio.to_thread(fn, *args)

    def close(self) -> None:
        """Stop the workers, so none outlives this process: each has :data:`STOP_SECONDS` to exit, then it is
        killed (a stuck worker never holds the close). A pool still starting is stopped once it has started."""
        self._ready.clear()
        self._broken = True
        pool, self._pool = self._pool, None
        if pool is not None:
            _stop(pool)


def _stop(pool: Executor) -> None:
    """Shut ``pool`` down without waiting on a worker for ever."""
    processes = list((getattr(pool, "_processes", None) or {}).values())  # a process pool's workers
    pool.shutdown(wait=False, cancel_futures=True)
    end = time.monotonic() + STOP_SECONDS
    for process in processes:
        process.join(max(0.0, end - time.monotonic()))
        if process.is_alive():
            log.warning("a picture worker did not stop within %s s: killed", STOP_SECONDS)
            process.kill()
            process.join(1.0)


def _follow(owner: int) -> None:
    """In a worker: load the games (their rules, drawing and Pillow), then exit when the process that owns
    the pool is gone (killed, say), instead of lingering."""
    from bot.games import units

    units()

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if not _alive(owner):
                os._exit(0)

    threading.Thread(target=watch, name="junkyard-follow-owner", daemon=True).start()


def _travel_problem(exc: BaseException) -> bool:
    """Whether ``exc`` says the call could not be sent to (or rebuilt in) a worker process."""
    import pickle

    return isinstance(exc, pickle.PicklingError | AttributeError | TypeError | ImportError | KeyError)


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a killed process waiting to be reaped does not)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False
    except OSError:
        pass
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True
