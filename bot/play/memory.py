"""What the service keeps in memory, bounded: one lock per channel while it is held, and least-recently-used
caches (running games, the computers' drivers, messages composed with their move)."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any, Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class ChannelLocks:
    """One lock per channel, dropped as soon as nobody holds or waits for it (memory stays bounded)."""

    def __init__(self) -> None:
        self._entries: dict[int, list[Any]] = {}

    def __len__(self) -> int:
        return len(self._entries)

    @asynccontextmanager
    async def hold(self, channel_id: int) -> AsyncIterator[None]:
        entry = self._entries.get(channel_id)
        if entry is None:
            entry = self._entries[channel_id] = [asyncio.Lock(), 0]
        entry[1] += 1
        try:
            async with entry[0]:
                yield
        finally:
            entry[1] -= 1
            if entry[1] == 0 and self._entries.get(channel_id) is entry:
                del self._entries[channel_id]


class LRU(Generic[K, V]):
    """A mapping that keeps at most ``size`` entries, dropping the least recently used."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def get(self, key: K) -> V | None:
        """The entry of ``key`` (now the most recently used), or None."""
        if key in self._items:
            self._items.move_to_end(key)
            return self._items[key]
        return None

    def put(self, key: K, value: V) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)

    def pop(self, key: K) -> V | None:
        """Forget ``key``; its entry, or None."""
        return self._items.pop(key, None)

    def drop(self, which: Callable[[K], bool]) -> None:
        """Forget every entry whose key ``which`` picks."""
        for key in [k for k in self._items if which(k)]:
            del self._items[key]

    def clear(self) -> None:
        self._items.clear()

    def items(self) -> list[tuple[K, V]]:
        """The entries, least recently used first."""
        return list(self._items.items())


__all__ = ["LRU", "ChannelLocks"]
