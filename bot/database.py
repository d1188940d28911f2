"""Which store a database address names: the one place that knows both backends."""

from __future__ import annotations

import os
import time
from collections.abc import Callable

from bot.store import SqliteStore, Store, default_db_path, is_database_url


def open_store(url: str | os.PathLike[str] | None = None, *, clock: Callable[[], float] = time.time) -> Store:
    """The store a database address names, not yet opened (``async with`` or ``open()`` opens it):
    ``postgresql://…`` or ``postgres://…`` is a PostgreSQL database, anything else a SQLite file;
    None means ``JUNKYARD_DB``, else ``junkyard.db``. PostgreSQL's driver is imported only when asked for."""
    where = str(url) if url is not None else default_db_path()
    if is_database_url(where):
        from bot.pgstore import PostgresStore

        return PostgresStore(where, clock=clock)
    return SqliteStore(where, clock=clock)


__all__ = ["open_store"]
