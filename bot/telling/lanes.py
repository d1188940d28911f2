"""Work of many keys done side by side: each key's items strictly in the order they were added, different
keys at once, every item holding a place of its class while it runs (a bounded number of each class at
once). The outbox delivers by channel through it, and the ticker fires timers by game.

A class of slow items (a replay to draw, an autopilot's turn) has places of its own, so slow work never
takes the places of quick work: however many slow items wait, a quick item of another key waits only for
other quick items.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from typing import Generic, TypeVar

log = logging.getLogger(__name__)
T = TypeVar("T")


class Lanes(Generic[T]):
    """Runs ``work(item)`` for items added by key: one task per key with items queued, each item holding a
    place of class ``kind(item)`` (``places``: how many of each class at once) while it runs; ``work``
    answers how many things it did."""

    def __init__(self, work: Callable[[T], Awaitable[int]], kind: Callable[[T], str], places: Mapping[str, int]
                 ) -> None:
        self.work = work
        self.kind = kind
        self._places = {name: asyncio.Semaphore(max(1, n)) for name, n in places.items()}
        self._queues: dict[int, deque[T]] = {}
        self._tasks: dict[int, asyncio.Task[None]] = {}
        #: set whenever an item finished (cleared by :meth:`progress`)
        self.changed = asyncio.Event()
        self.done = 0
        #: what stopped a lane beyond an error of its work (the process is exiting), raised to the waiter
        self.failure: BaseException | None = None

    @property
    def queued(self) -> int:
        """Items added and not finished."""
        return sum(len(q) for q in self._queues.values())

    @property
    def idle(self) -> bool:
        return not self._tasks

    def add(self, key: int, item: T) -> None:
        """Queue ``item`` behind the items of ``key`` added before it."""
        self._queues.setdefault(key, deque()).append(item)
        if key not in self._tasks:
            self._tasks[key] = asyncio.get_running_loop().create_task(self._lane(key), name=f"junkyard-lane-{key}")

    async def _lane(self, key: int) -> None:
        queue = self._queues[key]
        try:
            while queue:
                item = queue[0]
                try:
                    async with self._places[self.kind(item)]:
                        did = await self.work(item)
                    self.done += did
                except asyncio.CancelledError:
                    raise
                except Exception:  # the work logs its own failures; the lane goes on
                    log.exception("work of %s failed", key)
                except BaseException as exc:  # the process is stopping: told to whoever waits, not the loop
                    self.failure = exc
                    return
                finally:
                    queue.popleft()
                    self.changed.set()
        finally:
            self._tasks.pop(key, None)
            if not queue or self.failure is not None:
                self._queues.pop(key, None)
            self.changed.set()

    async def progress(self, timeout: float | None = None) -> None:
        """Wait until an item finished since the last call (at most ``timeout`` seconds)."""
        if not self.changed.is_set():
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(timeout):  # no task of its own: a waiter sees none left behind
                    await self.changed.wait()
        self.changed.clear()

    def check(self) -> None:
        """Raise what stopped a lane beyond an error of its work, if anything did."""
        if self.failure is not None:
            raise self.failure

    async def join(self) -> int:
        """Wait for every lane; how many things the work did in all."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)
        self.check()
        return self.done

    async def cancel(self) -> None:
        """Stop every lane (an item under way stops where it is)."""
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


__all__ = ["Lanes"]
