"""The computers' moves as durable work: a channel whose game waits on a computer is played on, batch by
batch, until a person is to act or the game ends, each batch's messages delivered before the next.

The store keeps which games wait on a computer (the move that left them waiting says so in its own
transaction), so nothing is lost to a restart: :meth:`Computers.resume` plays on every waiting game after
the outbox caught up. In between, the service wakes the worker when the records of such a move are delivered
(:attr:`bot.play.service.Service.on_computers`), so the computers answer a person's move at once, after it."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

from bot.telling.outcomes import Accepted

log = logging.getLogger(__name__)

#: games resumed at once after a restart; the others wait in the queue
RESUME_WORKERS = 2


class Player(Protocol):
    """What plays the computers (the service is one): the channels whose computers wait to move, and one
    channel's computer moves up to a reply's worth."""

    async def channels_waiting_on_computers(self) -> list[int]: ...

    async def play_computers(self, channel_id: int) -> Accepted | None: ...


class Computers:
    """Plays the computers of channels, one task per channel; ``deliver`` carries each batch's records and
    private notes. Channels below ``min_channel_id`` (the terminal's) are not its to play."""

    def __init__(self, player: Player, deliver: Callable[[Accepted], Awaitable[None]], *,
                 min_channel_id: int | None = None) -> None:
        self.player = player
        self.deliver = deliver
        self.min_channel_id = min_channel_id
        #: the running task of each channel
        self.tasks: dict[int, asyncio.Task[None]] = {}

    def wake(self, channel_id: int) -> None:
        """Play on in ``channel_id`` in the background (once: a channel already being played is left so)."""
        if self.min_channel_id is not None and channel_id < self.min_channel_id:
            return
        running = self.tasks.get(channel_id)
        if running is not None and not running.done():
            return
        task = asyncio.get_running_loop().create_task(self.play(channel_id), name=f"junkyard-computers-{channel_id}")
        self.tasks[channel_id] = task
        task.add_done_callback(lambda t: self.tasks.pop(channel_id, None) if self.tasks.get(channel_id) is t else None)

    async def play(self, channel_id: int) -> None:
        """Batches of computer moves, each delivered, until none is to move."""
        try:
            while (batch := await self.player.play_computers(channel_id)) is not None:
                await self.deliver(batch)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("computer moves in channel %s stopped", channel_id)

    async def resume(self, workers: int = RESUME_WORKERS) -> None:
        """Play on in every game left waiting on a computer (the bot stopped mid-sequence), a few at a time,
        so the interactions of people are never starved."""
        queue: asyncio.Queue[int] = asyncio.Queue()
        for channel_id in await self.player.channels_waiting_on_computers():
            if self.min_channel_id is None or channel_id >= self.min_channel_id:
                queue.put_nowait(channel_id)

        async def worker() -> None:
            while not queue.empty():
                channel_id = queue.get_nowait()
                running = self.tasks.get(channel_id)
                if running is not None and not running.done():
                    continue
                task = asyncio.current_task()
                assert task is not None
                self.tasks[channel_id] = task
                try:
                    await self.play(channel_id)
                finally:
                    if self.tasks.get(channel_id) is task:
                        del self.tasks[channel_id]

        await asyncio.gather(*(worker() for _ in range(workers)))

    async def close(self) -> None:
        """Stop every channel's moves (a move under way is stored whole or not at all)."""
        tasks = list(self.tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.tasks.clear()


__all__ = ["RESUME_WORKERS", "Computers"]
