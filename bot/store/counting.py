"""Counting a store's calls: every call of its interfaces (each part's coroutine methods and the whole store's
:meth:`~bot.store.Store.read_move`), by name, while the count runs. How many trips a piece of work makes to the
store is part of its cost; the tests and the benchmarks read it here."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

from bot.store.interface import Store

#: the parts of a store whose calls are counted
PARTS = ("games", "outbox", "turns", "settings", "standings", "championships")


class Counting:
    """Counts every call of ``store``'s interfaces by name, from now on (the store's methods are wrapped)."""

    def __init__(self, store: Store) -> None:
        self.calls: Counter[str] = Counter()
        self._wrap(store, "store", ["read_move"])
        for part in PARTS:
            obj = getattr(store, part)
            self._wrap(obj, part, [name for name in dir(type(obj))
                                   if not name.startswith("_") and asyncio.iscoroutinefunction(getattr(obj, name))])

    def _wrap(self, owner: Any, label: str, names: list[str]) -> None:
        for name in names:
            setattr(owner, name, self._counted(getattr(owner, name), f"{label}.{name}"))

    def _counted(self, method: Callable[..., Awaitable[Any]], label: str) -> Callable[..., Awaitable[Any]]:
        async def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls[label] += 1
            return await method(*args, **kwargs)

        return counted

    def take(self) -> Counter[str]:
        """The calls since the last take."""
        calls, self.calls = self.calls, Counter()
        return calls


__all__ = ["PARTS", "Counting"]
