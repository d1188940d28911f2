"""Settings rows a move read ahead with its game (:meth:`bot.store.Store.read_move`), answered from memory: the
move's helpers (plans, recap, take-back marks, the game's settings) read them as they would read the store,
without another trip to it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.store.interface import SettingsReader, Store
from bot.store.records import SettingKey


class Preread:
    """The rows read ahead (``rows``: key → data, ``{}`` for a row that is not there) and the store's time; a row
    not read ahead is read from ``store``. Each answer is a copy, so a helper may change what it got."""

    def __init__(self, store: Store, rows: Mapping[SettingKey, dict[str, Any]]) -> None:
        self._store = store
        self._rows = rows

    @property
    def settings(self) -> SettingsReader:
        return self

    def now(self) -> float:
        return self._store.now()

    async def get_settings(self, scope: str, owner: int, target: int = 0) -> dict[str, Any]:
        key = (scope, owner, target)
        if key in self._rows:
            return dict(self._rows[key])
        return await self._store.settings.get_settings(scope, owner, target)

    async def settings_of(self, keys: Sequence[tuple[str, int, int]]) -> list[dict[str, Any]]:
        wanted = [(str(s), int(o), int(t)) for s, o, t in keys]
        if all(key in self._rows for key in wanted):
            return [dict(self._rows[key]) for key in wanted]
        return await self._store.settings.settings_of(keys)


__all__ = ["Preread"]
