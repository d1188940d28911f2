"""Where games live: a store of games, their actions, the delivery records of public messages, timers,
settings and results, behind small interfaces by concern (:mod:`bot.store.interface`), in a SQLite file
(:mod:`bot.store.sqlite`, the default) or a PostgreSQL database shared by several processes
(:mod:`bot.store.postgres`). :func:`open_store` picks the backend a database address names. See README.md
beside this file."""

from __future__ import annotations

import os
import time
from collections.abc import Callable

from bot.store.interface import (
    ChampionshipsStore,
    GamesStore,
    OutboxStore,
    Reads,
    SettingsReader,
    SettingsStore,
    StandingsStore,
    Store,
    TurnsStore,
)
from bot.store.preread import Preread
from bot.store.records import (
    ABORTED,
    ACTIVE,
    CHAMPIONSHIP_ENDED,
    CHAMPIONSHIP_RUNNING,
    DEFAULT_DB,
    EDIT,
    EVERLASTING,
    FINISHED,
    LOBBY,
    OPEN_STATUSES,
    POST,
    SEAT_LINK_SCOPE,
    STATUSES,
    TURN_KINDS,
    ActionRecord,
    CannotOpen,
    Championship,
    ChampionshipRunning,
    ChannelBusy,
    Delivery,
    GameNotFound,
    GameRecord,
    InconsistentSnapshot,
    MoveRead,
    NewTimer,
    Outgoing,
    PlayerTally,
    Rating,
    RatingChange,
    Result,
    Season,
    SeasonRunning,
    Seat,
    ServerTally,
    SettingKey,
    SettingsWrite,
    StaleRating,
    StaleVersion,
    StoreError,
    Timer,
    TurnMark,
    default_db_path,
    is_database_url,
    newer_schema,
    shard_of,
    sqlite_file_problem,
    written,
)
from bot.store.sql import COPY_TABLES
from bot.store.sqlite import SqliteStore


def open_store(url: str | os.PathLike[str] | None = None, *, clock: Callable[[], float] = time.time) -> Store:
    """The store a database address names, not yet opened (``async with`` or ``open()`` opens it):
    ``postgresql://…`` or ``postgres://…`` is a PostgreSQL database, anything else a SQLite file;
    None means ``JUNKYARD_DB``, else ``junkyard.db``. PostgreSQL's driver is imported only when asked for."""
    where = str(url) if url is not None else default_db_path()
    if is_database_url(where):
        from bot.store.postgres import PostgresStore

        return PostgresStore(where, clock=clock)
    return SqliteStore(where, clock=clock)


__all__ = [
    "ABORTED",
    "ACTIVE",
    "CHAMPIONSHIP_ENDED",
    "CHAMPIONSHIP_RUNNING",
    "COPY_TABLES",
    "DEFAULT_DB",
    "EDIT",
    "EVERLASTING",
    "FINISHED",
    "LOBBY",
    "OPEN_STATUSES",
    "POST",
    "SEAT_LINK_SCOPE",
    "STATUSES",
    "TURN_KINDS",
    "ActionRecord",
    "CannotOpen",
    "Championship",
    "ChampionshipRunning",
    "ChampionshipsStore",
    "ChannelBusy",
    "Delivery",
    "GameNotFound",
    "GameRecord",
    "GamesStore",
    "InconsistentSnapshot",
    "MoveRead",
    "NewTimer",
    "OutboxStore",
    "Outgoing",
    "PlayerTally",
    "Preread",
    "Rating",
    "RatingChange",
    "Reads",
    "Result",
    "Season",
    "SeasonRunning",
    "Seat",
    "ServerTally",
    "SettingKey",
    "SettingsReader",
    "SettingsStore",
    "SettingsWrite",
    "SqliteStore",
    "StaleRating",
    "StaleVersion",
    "StandingsStore",
    "Store",
    "StoreError",
    "Timer",
    "TurnMark",
    "TurnsStore",
    "default_db_path",
    "is_database_url",
    "newer_schema",
    "open_store",
    "shard_of",
    "sqlite_file_problem",
    "written",
]
