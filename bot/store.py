"""Where games live: a small async storage interface and its embedded SQLite implementation.

The action log is the record of truth; each game row also keeps a snapshot of the state after the last
action so loading is one read. ``version`` counts the actions, and every write names the version it
expects: a stale or doubled request raises :class:`StaleVersion` instead of being applied twice.
At most one game per channel is open (in the lobby or running); finished and aborted games stay.
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import time
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar, cast

import aiosqlite

from bot.games import game_class
from rules.contract import Game

LOBBY, ACTIVE, FINISHED, ABORTED = "lobby", "active", "finished", "aborted"
STATUSES = (LOBBY, ACTIVE, FINISHED, ABORTED)
OPEN_STATUSES = (LOBBY, ACTIVE)
T = TypeVar("T")


DEFAULT_DB = "junkyard.db"


def default_db_path() -> str:
    """``JUNKYARD_DB`` from the environment, else ``junkyard.db`` in the working directory."""
    return os.environ.get("JUNKYARD_DB") or DEFAULT_DB


def sqlite_file_problem(path: str) -> str | None:
    """Why the SQLite file ``path`` cannot be opened or made, said in one line (None: nothing found yet)."""
    target = os.path.abspath(path)
    folder = os.path.dirname(target)
    if os.path.isdir(target):
        return f"{path} is a folder, not a database file (name a file in it, such as {os.path.join(path, DEFAULT_DB)})"
    if not os.path.exists(target):
        if not os.path.isdir(folder):
            return f"cannot make the database {path}: the folder {folder} does not exist"
        if not os.access(folder, os.W_OK | os.X_OK):
            return f"cannot make the database {path}: the folder {folder} is not writable"
        return None
    if not os.path.isfile(target):
        return f"{path} is not a regular file, so it cannot be a database"
    if not os.access(target, os.R_OK):
        return f"cannot read the database {path}: permission denied"
    if not os.access(target, os.W_OK):
        return f"cannot write to the database {path}: permission denied (the bot and the terminal store every move)"
    return None


def newer_schema(where: str, found: int, known: int) -> str:
    """The refusal of a database that a newer Junkyard GM has migrated."""
    return (f"the database {where} is at schema {found}, newer than this version of Junkyard GM knows ({known}): "
            "upgrade Junkyard GM to use it")


def is_database_url(where: str) -> bool:
    """Whether ``where`` names a PostgreSQL database (``postgresql://…``, ``postgres://…``) and not a file."""
    return where.startswith(("postgresql://", "postgres://"))


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard a server's games belong to: Discord's rule, ``(guild_id >> 22) % shard_count``; games outside
    any server (the terminal's) belong to shard 0."""
    return ((guild_id or 0) >> 22) % shard_count


#: The tables a copy between databases moves, in an order that respects their references, each with the
#: columns of its primary key (``players`` is not among them: each store derives it from the games' seats).
COPY_TABLES: dict[str, tuple[str, ...]] = {
    "games": ("id",),
    "actions": ("game_id", "idx"),
    "deliveries": ("id",),
    "timers": ("id",),
    "turns": ("game_id",),
    "settings": ("scope", "owner", "target"),
    "results": ("game_id", "seat"),
}


class StoreError(Exception):
    """Base class of the store's refusals."""


class StaleVersion(StoreError):
    """A write expected a version (or status) the game no longer has: someone else moved first."""

    def __init__(self, game_id: int, expected: int, actual: int | None, status: str | None = None) -> None:
        self.game_id, self.expected, self.actual, self.status = game_id, expected, actual, status
        where = "is gone" if actual is None else f"is at move {actual}" + (f" ({status})" if status else "")
        super().__init__(f"game {game_id}: expected move {expected}, but the game {where}")


class ChannelBusy(StoreError):
    """The channel already has a game in the lobby or running."""


class GameNotFound(StoreError):
    pass


class CannotOpen(StoreError):
    """The database cannot serve as a store: its message says why in one line, naming the database."""


class InconsistentSnapshot(StoreError):
    """The stored snapshot differs from a replay of the action log."""


#: kinds of delivery record: a message to post (a board, a narration); later kinds (editing a posted
#: message, a reminder due at a time) use the same rows, claimed and fired once
POST = "post"
#: a new state of a message already posted (the turn's message); its payload names the record it follows
EDIT = "edit"
#: the kinds of record that show a turn's message (the others: its retirement, a message beside the turns)
TURN_KINDS = (POST, EDIT)


@dataclass(slots=True)
class Outgoing:
    """A delivery record a write stores in its own transaction: what must reach the channel afterwards.

    The first write that carries it inserts the record and sets ``id``; later writes of the same service
    call carry the same object and update that record (its payload and the game version it shows).
    The writer claims the record for ``lease`` seconds as ``owner``, so no other worker posts it meanwhile.
    """

    payload: dict[str, Any]
    kind: str = POST
    owner: str | None = None
    lease: float = 0.0
    due_at: float | None = None
    id: int | None = None


@dataclass(frozen=True, slots=True)
class Delivery:
    """A delivery record: ``message_id`` is set once the message is posted, so it is never posted twice."""

    id: int
    game_id: int | None
    channel_id: int
    version: int
    kind: str
    payload: dict[str, Any]
    due_at: float
    attempts: int
    claimed_by: str | None
    claimed_until: float | None
    message_id: int | None
    delivered_at: float | None
    created_at: float

    @property
    def delivered(self) -> bool:
        return self.delivered_at is not None


@dataclass(slots=True)
class Seat:
    """One seat at a table: who sits there, under which name, with which seat options (colour, team…).

    A computer seat names its ``driver`` kind and has a negative ``user_id`` no real user can have. ``lang``
    is the player's language when they sat down (their notes are worded in it), None when unknown."""

    user_id: int
    name: str
    options: dict[str, Any] = field(default_factory=dict)
    driver: str | None = None
    lang: str | None = None

    @property
    def is_computer(self) -> bool:
        return self.driver is not None

    def to_dict(self) -> dict[str, Any]:
        out = {"user_id": self.user_id, "name": self.name, "options": self.options}
        if self.driver is not None:
            out["driver"] = self.driver
        if self.lang is not None:
            out["lang"] = self.lang
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Seat:
        return cls(int(d["user_id"]), str(d["name"]), dict(d.get("options", {})), d.get("driver"), d.get("lang"))


@dataclass(slots=True)
class GameRecord:
    id: int
    guild_id: int | None
    channel_id: int
    game_key: str
    status: str
    host_id: int
    setup: dict[str, Any]
    seed: int
    seats: list[Seat]
    version: int
    state: dict[str, Any] | None
    created_at: float
    updated_at: float
    #: the public language of the game's messages ("en", "de"), from the server where it was opened
    lang: str = "en"

    def seat_of(self, user_id: int) -> int | None:
        for i, s in enumerate(self.seats):
            if s.user_id == user_id:
                return i
        return None

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES


@dataclass(frozen=True, slots=True)
class ActionRecord:
    game_id: int
    index: int
    seat: int | None
    user_id: int | None
    action: str
    narration: str
    at: float


class Store(ABC):
    """The storage interface the service uses: SQLite here, PostgreSQL in :mod:`bot.pgstore`."""

    #: (shard count, the shards served) once :meth:`set_shards` narrowed the store; None serves every game
    _shards: tuple[int, tuple[int, ...]] | None = None

    async def __aenter__(self) -> Store:
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @abstractmethod
    async def open(self) -> None: ...

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def schema_version(self) -> int:
        """The number of migrations the open database has had."""

    @abstractmethod
    async def create_game(self, *, guild_id: int | None, channel_id: int, game_key: str, host_id: int,
                          setup: dict[str, Any], seed: int, seats: Sequence[Seat] = (), lang: str = "en",
                          outgoing: Sequence[Outgoing] = ()) -> GameRecord:
        """A new game in the lobby, with ``outgoing``'s delivery records; raises :class:`ChannelBusy` if the
        channel has an open game."""

    @abstractmethod
    async def get_game(self, game_id: int) -> GameRecord:
        """Any game by id (finished ones too); raises :class:`GameNotFound`."""

    @abstractmethod
    async def channel_game(self, channel_id: int) -> GameRecord | None:
        """The channel's open game (lobby or running), if any."""

    @abstractmethod
    async def open_games(self, status: str = ACTIVE) -> list[GameRecord]:
        """Every game with ``status`` (default: running), oldest first."""

    @abstractmethod
    async def channel_history(self, channel_id: int, limit: int = 10) -> list[GameRecord]:
        """The channel's games, newest first."""

    @abstractmethod
    async def update_lobby(self, game_id: int, *, seats: Sequence[Seat], setup: dict[str, Any] | None = None,
                           host_id: int | None = None, expected_seats: Sequence[Seat] | None = None,
                           outgoing: Sequence[Outgoing] = ()) -> GameRecord:
        """Change a lobby's seats (and setup or host), with ``outgoing``'s delivery records; raises
        :class:`StaleVersion` if the game left the lobby or, when ``expected_seats`` is given, its seats are no
        longer those."""

    @abstractmethod
    async def set_host(self, game_id: int, host_id: int) -> None:
        """Hand the host role of an open game to ``host_id``."""

    @abstractmethod
    async def replace_seats(self, game_id: int, *, version: int, seats: Sequence[Seat],
                            expected_seats: Sequence[Seat], outgoing: Sequence[Outgoing] = (),
                            computers_waiting: bool = False) -> GameRecord:
        """Change who sits where in a running game at ``version`` (a person handing over to a computer)."""

    @abstractmethod
    async def start_game(self, game_id: int, *, setup: dict[str, Any], seats: Sequence[Seat],
                         state: dict[str, Any], status: str = ACTIVE, outgoing: Sequence[Outgoing] = (),
                         computers_waiting: bool = False) -> GameRecord:
        """Lobby → running with the initial state at version 0; ``seats`` must still be the lobby's seats."""

    @abstractmethod
    async def append_action(self, game_id: int, *, expected_version: int, seat: int | None, user_id: int | None,
                            action: str, state: dict[str, Any], status: str = ACTIVE,
                            narration: str = "", outgoing: Sequence[Outgoing] = (),
                            computers_waiting: bool = False) -> GameRecord:
        """Record one action and the new snapshot in one transaction (compare-and-swap on version), with
        ``outgoing``'s delivery records and whether a computer is to act next (the resume queue)."""

    @abstractmethod
    async def set_status(self, game_id: int, status: str, *, from_statuses: Sequence[str] = OPEN_STATUSES,
                         outgoing: Sequence[Outgoing] = ()) -> GameRecord:
        """Change status (abort, finish); raises :class:`StaleVersion` if the game is not in ``from_statuses``."""

    @abstractmethod
    async def waiting_on_computers(self) -> list[tuple[int, int]]:
        """(game id, channel id) of every running game whose next move is a computer's, oldest first."""

    @abstractmethod
    async def claim_deliveries(self, owner: str, *, now: float, lease: float, limit: int = 50,
                               takeover: bool = False, min_channel_id: int | None = None) -> list[Delivery]:
        """Undelivered records due by ``now`` that nobody holds (or whose hold expired; with ``takeover``,
        held by any other owner too), in order, now held by ``owner`` for ``lease`` seconds."""

    @abstractmethod
    async def mark_delivered(self, delivery_id: int, message_id: int | None) -> bool:
        """Record the posted message; False if the record was already delivered (nothing changes then)."""

    @abstractmethod
    async def release_delivery(self, delivery_id: int, *, due_at: float) -> None:
        """Give a record back after a failed attempt, to be tried again from ``due_at``."""

    @abstractmethod
    async def deliveries(self, *, game_id: int | None = None, pending: bool = False) -> list[Delivery]:
        """Delivery records (of one game; only undelivered ones), in order."""

    @abstractmethod
    async def actions(self, game_id: int, since: int = 0, limit: int | None = None) -> list[ActionRecord]:
        """The action log from index ``since`` on, in order."""

    # Shared logic ------------------------------------------------------------------------------

    async def replay(self, game_id: int, classes: Callable[[str], type[Game]] = game_class) -> Game:
        """The game rebuilt from setup, seed and the action log alone."""
        rec = await self.get_game(game_id)
        if rec.status == LOBBY:
            raise StoreError(f"game {game_id} has not started")
        game = classes(rec.game_key).create(rec.setup, rec.seed)
        for a in await self.actions(game_id):
            game.apply(a.action)
        return game

    async def check_consistency(self, game_id: int, classes: Callable[[str], type[Game]] = game_class) -> None:
        """Raise :class:`InconsistentSnapshot` unless the snapshot equals a replay of the log."""
        rec = await self.get_game(game_id)
        if rec.status == LOBBY and rec.state is None:
            return
        replayed = await self.replay(game_id, classes)
        n = len(await self.actions(game_id))
        if n != rec.version:
            raise InconsistentSnapshot(f"game {game_id}: version {rec.version} but {n} logged actions")
        if replayed.to_dict() != rec.state:
            raise InconsistentSnapshot(f"game {game_id}: snapshot differs from a replay of its {n} actions")

    # Timed events and settings --------------------------------------------------------------------

    @abstractmethod
    async def unmarked_turns(self, limit: int = 100) -> list[GameRecord]:
        """Running games whose turn the timing has not seen yet (no mark, or a mark at another version)."""

    @abstractmethod
    async def turn_mark(self, game_id: int) -> TurnMark | None:
        """Where the timing last saw the game's turn."""

    @abstractmethod
    async def mark_turn(self, game_id: int, *, version: int, seat: int | None, started_at: float,
                        timers: Sequence[NewTimer]) -> None:
        """In one transaction: the game's turn is seen at ``version``; its pending timers are replaced by
        ``timers``."""

    @abstractmethod
    async def claim_timers(self, owner: str, *, now: float, lease: float, limit: int = 50,
                           takeover: bool = False) -> list[Timer]:
        """Pending timers due by ``now`` that nobody holds (``takeover``: also held by another owner), held by
        ``owner`` for ``lease`` seconds."""

    @abstractmethod
    async def finish_timer(self, timer_id: int, *, then: NewTimer | None = None) -> bool:
        """Mark a timer fired (False if it already was) and schedule ``then`` in the same transaction."""

    @abstractmethod
    async def timers(self, *, game_id: int | None = None, pending: bool = False) -> list[Timer]:
        """Timers (of one game; only pending ones), in order."""

    @abstractmethod
    async def get_settings(self, scope: str, owner: int, target: int = 0) -> dict[str, Any]:
        """The settings of ``scope`` (game, server, user) for ``owner`` (and ``target``); {} when none."""

    @abstractmethod
    async def put_settings(self, scope: str, owner: int, target: int, data: dict[str, Any]) -> None:
        """Replace the settings of ``scope`` for ``owner`` and ``target``."""

    @abstractmethod
    async def all_settings(self, scope: str) -> list[tuple[int, int, dict[str, Any]]]:
        """Every (owner, target, settings) of ``scope``."""

    @abstractmethod
    async def take_back(self, game_id: int, *, expected_version: int, count: int, state: dict[str, Any],
                        outgoing: Sequence[Outgoing] = ()) -> GameRecord:
        """Drop the last ``count`` actions of a running game at ``expected_version`` and store ``state``."""

    @abstractmethod
    async def games_of_user(self, user_id: int, status: str = ACTIVE) -> list[GameRecord]:
        """The games with ``status`` in which ``user_id`` has a seat, across servers, oldest first."""

    @abstractmethod
    async def posted_messages(self, game_id: int, *, after_version: int = -1, limit: int = 20) -> list[int]:
        """Ids of the posted messages of a game's delivery records past ``after_version``, newest first."""

    # Shards ------------------------------------------------------------------------------------------

    def set_shards(self, count: int, ids: Sequence[int] | None = None) -> None:
        """Serve only the games of shards ``ids`` out of ``count`` (None: all of them): from now on the
        queries that find work (:meth:`open_games`, :meth:`waiting_on_computers`, :meth:`claim_deliveries`,
        :meth:`claim_timers`, :meth:`unmarked_turns`, :meth:`unrecorded_ends`) return those games only.
        A game's shard is its server's (:func:`shard_of`)."""
        if count < 1:
            raise ValueError(f"a shard count is at least 1, not {count}")
        chosen = tuple(sorted({int(i) for i in ids})) if ids is not None else tuple(range(count))
        if not chosen or chosen[0] < 0 or chosen[-1] >= count:
            raise ValueError(f"shard ids must lie in 0..{count - 1}, not {list(ids or [])}")
        self._shards = None if len(chosen) == count else (int(count), chosen)

    @property
    def shards(self) -> tuple[int, tuple[int, ...]] | None:
        """(shard count, shards served), or None when the store serves every game."""
        return self._shards

    def _shard_sql(self, guild: str) -> str:
        """`` AND …`` keeping rows whose server (the SQL expression ``guild``) is in a served shard; ''."""
        if self._shards is None:
            return ""
        count, ids = self._shards
        return f" AND ((COALESCE({guild}, 0) >> 22) % {count}) IN ({', '.join(str(i) for i in ids)})"

    @staticmethod
    def _guild_of(game_id: str) -> str:
        """The SQL expression of the server of the game whose id is the SQL expression ``game_id``."""
        return f"(SELECT sg.guild_id FROM games sg WHERE sg.id = {game_id})"

    # Raw rows, for copying between backends -------------------------------------------------------

    def tables(self) -> list[str]:
        """The tables a copy moves, referenced tables before those referring to them."""
        return list(COPY_TABLES)

    @abstractmethod
    def rows(self, table: str, *, batch: int = 1000) -> AsyncIterator[dict[str, Any]]:
        """Every row of ``table`` as a dict of its columns, in primary key order, read ``batch`` at a time."""

    @abstractmethod
    async def insert_rows(self, table: str, rows: Sequence[dict[str, Any]]) -> int:
        """Insert rows as :meth:`rows` gives them, primary keys kept, in one transaction; later new rows get
        keys past them. Returns how many were inserted."""

    async def delivery(self, delivery_id: int) -> Delivery | None:
        """One delivery record by id (None when there is none)."""
        return next((d for d in await self.deliveries() if d.id == delivery_id), None)

    async def latest_delivery(self, game_id: int) -> Delivery | None:
        """A game's newest record of a turn's message, a ``post`` or an ``edit`` (None when it has none)."""
        found = [d for d in await self.deliveries(game_id=game_id) if d.kind in TURN_KINDS]
        return found[-1] if found else None

    @abstractmethod
    async def add_deliveries(self, game_id: int, outgoing: Sequence[Outgoing]) -> None:
        """Store delivery records of a game that go with no other write (a board someone asked to show)."""

    @abstractmethod
    async def record_results(self, game_id: int, rows: Sequence[Result], outgoing: Sequence[Outgoing] = ()) -> bool:
        """Store a finished game's results (once), with ``outgoing``'s delivery records."""

    @abstractmethod
    async def results(self, *, game_id: int | None = None, user_id: int | None = None,
                      guild_id: int | None = None, channel_id: int | None = None, limit: int = 10_000
                      ) -> list[Result]:
        """Result rows matching every filter given, newest game first."""

    @abstractmethod
    async def unrecorded_ends(self, limit: int = 50) -> list[GameRecord]:
        """Finished games whose results are not stored yet (the process stopped in between), oldest first."""


# SQLite ----------------------------------------------------------------------------------------

#: Numbered migrations: MIGRATIONS[i] takes the schema from version i to i + 1. Append only.
MIGRATIONS: list[str] = [
    """
    CREATE TABLE games (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id    INTEGER,
        channel_id  INTEGER NOT NULL,
        game_key    TEXT NOT NULL,
        status      TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'aborted')),
        host_id     INTEGER NOT NULL,
        setup       TEXT NOT NULL,
        seed        INTEGER NOT NULL,
        seats       TEXT NOT NULL DEFAULT '[]',
        version     INTEGER NOT NULL DEFAULT 0,
        state       TEXT,
        created_at  REAL NOT NULL,
        updated_at  REAL NOT NULL
    );
    CREATE UNIQUE INDEX games_one_open_per_channel ON games (channel_id) WHERE status IN ('lobby', 'active');
    CREATE INDEX games_by_channel ON games (channel_id, id);
    CREATE TABLE actions (
        game_id    INTEGER NOT NULL REFERENCES games (id),
        idx        INTEGER NOT NULL,
        seat       INTEGER,
        user_id    INTEGER,
        action     TEXT NOT NULL,
        narration  TEXT NOT NULL DEFAULT '',
        at         REAL NOT NULL,
        PRIMARY KEY (game_id, idx)
    ) WITHOUT ROWID;
    """,
    # Delivery records (the outbox) and the queue of games waiting on a computer.
    """
    ALTER TABLE games ADD COLUMN computers_waiting INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX games_waiting_on_computers ON games (id) WHERE status = 'active' AND computers_waiting = 1;
    CREATE TABLE deliveries (
        id             INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id        INTEGER REFERENCES games (id),
        channel_id     INTEGER NOT NULL,
        version        INTEGER NOT NULL,
        kind           TEXT NOT NULL,
        payload        TEXT NOT NULL,
        due_at         REAL NOT NULL,
        attempts       INTEGER NOT NULL DEFAULT 0,
        claimed_by     TEXT,
        claimed_until  REAL,
        message_id     INTEGER,
        delivered_at   REAL,
        created_at     REAL NOT NULL
    );
    CREATE INDEX deliveries_due ON deliveries (due_at, id) WHERE delivered_at IS NULL;
    CREATE INDEX deliveries_by_game ON deliveries (game_id, id);
    """,
    # Timed events (turn notices, reminders, deadlines), the turn each running game was last seen at, and
    # settings of games, servers and users.
    """
    CREATE TABLE timers (
        id             INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id        INTEGER NOT NULL REFERENCES games (id),
        kind           TEXT NOT NULL,
        seat           INTEGER,
        version        INTEGER NOT NULL,
        due_at         REAL NOT NULL,
        data           TEXT NOT NULL DEFAULT '{}',
        claimed_by     TEXT,
        claimed_until  REAL,
        fired_at       REAL,
        created_at     REAL NOT NULL
    );
    CREATE INDEX timers_due ON timers (due_at, id) WHERE fired_at IS NULL;
    CREATE INDEX timers_by_game ON timers (game_id, id);
    CREATE TABLE turns (
        game_id     INTEGER PRIMARY KEY REFERENCES games (id),
        version     INTEGER NOT NULL,
        seat        INTEGER,
        started_at  REAL NOT NULL,
        acted_at    REAL NOT NULL
    );
    CREATE TABLE settings (
        scope   TEXT NOT NULL,
        owner   INTEGER NOT NULL,
        target  INTEGER NOT NULL DEFAULT 0,
        data    TEXT NOT NULL,
        PRIMARY KEY (scope, owner, target)
    );
    """,
    # Who sits in which game (kept from the games' seats by triggers), so a user's games are one index
    # read; and the results of finished games, one row per seat.
    """
    CREATE TABLE players (
        user_id  INTEGER NOT NULL,
        game_id  INTEGER NOT NULL REFERENCES games (id),
        seat     INTEGER NOT NULL,
        PRIMARY KEY (user_id, game_id, seat)
    ) WITHOUT ROWID;
    CREATE INDEX players_by_game ON players (game_id);
    INSERT INTO players (user_id, game_id, seat)
        SELECT json_extract(s.value, '$.user_id'), g.id, s.key FROM games g, json_each(g.seats) s;
    CREATE TRIGGER players_of_new_game AFTER INSERT ON games BEGIN
        INSERT INTO players (user_id, game_id, seat)
            SELECT json_extract(value, '$.user_id'), NEW.id, key FROM json_each(NEW.seats);
    END;
    CREATE TRIGGER players_of_changed_seats AFTER UPDATE OF seats ON games WHEN NEW.seats IS NOT OLD.seats BEGIN
        DELETE FROM players WHERE game_id = NEW.id;
        INSERT INTO players (user_id, game_id, seat)
            SELECT json_extract(value, '$.user_id'), NEW.id, key FROM json_each(NEW.seats);
    END;
    CREATE TABLE results (
        game_id      INTEGER NOT NULL REFERENCES games (id),
        seat         INTEGER NOT NULL,
        user_id      INTEGER NOT NULL,
        name         TEXT NOT NULL,
        place        INTEGER NOT NULL,
        winner       INTEGER NOT NULL,
        moves        INTEGER NOT NULL,
        game_key     TEXT NOT NULL,
        guild_id     INTEGER,
        channel_id   INTEGER NOT NULL,
        started_at   REAL NOT NULL,
        finished_at  REAL NOT NULL,
        PRIMARY KEY (game_id, seat)
    ) WITHOUT ROWID;
    CREATE INDEX results_by_user ON results (user_id, game_key);
    CREATE INDEX results_by_guild ON results (guild_id, game_key);
    CREATE INDEX results_by_channel ON results (channel_id, finished_at);
    """,
    # The game's public language ("en", "de"): the server's when the game was opened, for the messages
    # everyone sees (computer turns and background posts too).
    """
    ALTER TABLE games ADD COLUMN lang TEXT NOT NULL DEFAULT 'en';
    """,
]

_DELIVERY_COLUMNS = ("id, game_id, channel_id, version, kind, payload, due_at, attempts, claimed_by, claimed_until, "
                     "message_id, delivered_at, created_at")

_GAME_COLUMNS = ("id, guild_id, channel_id, game_key, status, host_id, setup, seed, seats, version, state, "
                 "created_at, updated_at, lang")


def _dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), sort_keys=True)


_SELECT_GAME = f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?"


def _put_outgoing(db: sqlite3.Connection, game_id: int, out: Outgoing, now: float) -> int:
    """Insert ``out``'s delivery record, or update the one it already has, inside the transaction under way
    on ``db`` (in the connection's thread). The record takes the channel and the version from the game row as
    this transaction leaves it."""
    payload = _dumps(out.payload)
    if out.id is not None:
        cur = db.execute("UPDATE deliveries SET payload = ?, version = (SELECT version FROM games WHERE id = ?) "
                         "WHERE id = ? AND delivered_at IS NULL", (payload, game_id, out.id))
        if cur.rowcount == 1:
            return out.id
    cur = db.execute(
        "INSERT INTO deliveries (game_id, channel_id, version, kind, payload, due_at, claimed_by, claimed_until, "
        "created_at) SELECT id, channel_id, version, ?, ?, ?, ?, ?, ? FROM games WHERE id = ?",
        (out.kind, payload, now if out.due_at is None else out.due_at, out.owner,
         now + out.lease if out.owner is not None else None, now, game_id))
    assert cur.lastrowid is not None
    return cur.lastrowid


def _committed(outgoing: Sequence[Outgoing], ids: Sequence[int]) -> None:
    """Give each record its id once its transaction committed (a rolled-back insert never happened)."""
    for out, new_id in zip(outgoing, ids, strict=True):
        out.id = new_id


def _record(row: Sequence[Any]) -> GameRecord:
    return GameRecord(
        id=row[0], guild_id=row[1], channel_id=row[2], game_key=row[3], status=row[4], host_id=row[5],
        setup=json.loads(row[6]), seed=row[7], seats=[Seat.from_dict(s) for s in json.loads(row[8])],
        version=row[9], state=None if row[10] is None else json.loads(row[10]),
        created_at=row[11], updated_at=row[12], lang=row[13] or "en",
    )


def _delivery(row: Sequence[Any]) -> Delivery:
    return Delivery(id=row[0], game_id=row[1], channel_id=row[2], version=row[3], kind=row[4],
                    payload=json.loads(row[5]), due_at=row[6], attempts=row[7], claimed_by=row[8],
                    claimed_until=row[9], message_id=row[10], delivered_at=row[11], created_at=row[12])


class SqliteStore(Store):
    """The embedded store: one SQLite file in WAL mode, reached through aiosqlite's worker thread.

    One connection serves the process; an asyncio lock keeps each transaction whole. Several processes
    may share the file: the compare-and-swap on ``version`` inside ``BEGIN IMMEDIATE`` keeps them honest.
    """

    def __init__(self, path: str | os.PathLike[str] | None = None, *, clock: Callable[[], float] = time.time) -> None:
        self.path = str(path) if path is not None else default_db_path()
        self._clock = clock
        self._db: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()

    async def open(self) -> None:
        if self._db is not None:
            return
        if self.path != ":memory:":
            problem = sqlite_file_problem(self.path)
            if problem is not None:
                raise CannotOpen(problem)
        try:
            db = await aiosqlite.connect(self.path, isolation_level=None)
        except sqlite3.Error as exc:
            raise CannotOpen(f"cannot open the database {self.path}: {exc}") from None
        try:
            await db.execute("PRAGMA busy_timeout = 5000")
            if self.path != ":memory:":
                await db.execute("PRAGMA journal_mode = WAL")
            await db.execute("PRAGMA synchronous = NORMAL")
            await db.execute("PRAGMA foreign_keys = ON")
            await self._migrate(db, self.path)
        except sqlite3.DatabaseError as exc:
            await db.close()
            if "not a database" in str(exc) or "malformed" in str(exc):
                raise CannotOpen(f"{self.path} is not a SQLite database (a file of some other kind?)") from None
            raise CannotOpen(f"cannot open the database {self.path}: {exc}") from None
        except BaseException:
            await db.close()
            raise
        self._db = db

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise StoreError("the store is not open")
        return self._db

    @staticmethod
    async def _migrate(db: aiosqlite.Connection, where: str = ":memory:") -> None:
        async with db.execute("SELECT name FROM sqlite_master WHERE type = 'table'") as cur:
            tables = {row[0] for row in await cur.fetchall()}
        if tables and "schema_version" not in tables:
            raise CannotOpen(f"{where} is a SQLite database of some other program (none of Junkyard GM's tables)")
        await db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        async with db.execute("SELECT version FROM schema_version") as cur:
            row = await cur.fetchone()
        if row is None:
            await db.execute("INSERT INTO schema_version (version) VALUES (0)")
            current = 0
        else:
            current = row[0]
        if current > len(MIGRATIONS):
            raise CannotOpen(newer_schema(where, current, len(MIGRATIONS)))
        for number in range(current, len(MIGRATIONS)):
            # executescript commits first; the script carries its own transaction and version bump.
            await db.executescript(
                f"BEGIN IMMEDIATE;\n{MIGRATIONS[number]}\n"
                f"UPDATE schema_version SET version = {number + 1};\nCOMMIT;"
            )

    async def schema_version(self) -> int:
        async with self._lock, self.db.execute("SELECT version FROM schema_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def _fetch_game(self, game_id: int) -> GameRecord:
        async with self.db.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)) as cur:
            row = await cur.fetchone()
        if row is None:
            raise GameNotFound(f"no game {game_id}")
        return _record(row)

    async def _transaction(self) -> None:
        await self.db.execute("BEGIN IMMEDIATE")

    async def create_game(self, *, guild_id: int | None, channel_id: int, game_key: str, host_id: int,
                          setup: dict[str, Any], seed: int, seats: Sequence[Seat] = (), lang: str = "en",
                          outgoing: Sequence[Outgoing] = ()) -> GameRecord:
        now = self._clock()
        insert = ("INSERT INTO games (guild_id, channel_id, game_key, status, host_id, setup, seed, seats, version, "
                  "state, created_at, updated_at, lang) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, 0, NULL, ?, ?, ?)",
                  (guild_id, channel_id, game_key, host_id, _dumps(setup), seed, _dumps([s.to_dict() for s in seats]),
                   now, now, lang))

        def write(db: sqlite3.Connection) -> tuple[int, list[int]]:
            db.execute("BEGIN IMMEDIATE")
            try:
                game_id = db.execute(*insert).lastrowid
                assert game_id is not None
                new_ids = [_put_outgoing(db, game_id, out, now) for out in outgoing]
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
            return game_id, new_ids

        async with self._lock:
            try:
                game_id, new_ids = await self._in_thread(write)
            except sqlite3.IntegrityError as exc:
                raise ChannelBusy(f"channel {channel_id} already has an open game") from exc
            _committed(outgoing, new_ids)
            return await self._fetch_game(game_id)

    async def get_game(self, game_id: int) -> GameRecord:
        async with self._lock:
            return await self._fetch_game(game_id)

    async def channel_game(self, channel_id: int) -> GameRecord | None:
        async with self._lock, self.db.execute(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')",
            (channel_id,),
        ) as cur:
            row = await cur.fetchone()
        return None if row is None else _record(row)

    async def open_games(self, status: str = ACTIVE) -> list[GameRecord]:
        async with self._lock, self.db.execute(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status = ?{self._shard_sql('guild_id')} ORDER BY id", (status,)
        ) as cur:
            rows = await cur.fetchall()
        return [_record(r) for r in rows]

    async def channel_history(self, channel_id: int, limit: int = 10) -> list[GameRecord]:
        async with self._lock, self.db.execute(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT ?", (channel_id, limit)
        ) as cur:
            rows = await cur.fetchall()
        return [_record(r) for r in rows]

    async def _write(self, game_id: int, expected_version: int, sql: str, params: Sequence[Any],
                     statuses: Sequence[str], extra: Sequence[tuple[str, Sequence[Any]]] = (),
                     seats_guard: Sequence[Seat] | None = None, outgoing: Sequence[Outgoing] = ()) -> GameRecord:
        """Run one guarded UPDATE (plus the ``extra`` statements) in a transaction, or raise StaleVersion.
        ``seats_guard``: the seats the caller read; the write fails if they changed meanwhile. The whole
        transaction, the row read back included, is one trip to the connection's thread: when many games
        write at once, the store is held for one hand-over instead of one per statement."""
        placeholders = ", ".join("?" for _ in statuses)
        guard_sql, guard_params = "", cast(tuple[str, ...], ())
        if seats_guard is not None:
            guard_sql, guard_params = " AND seats = ?", (_dumps([s.to_dict() for s in seats_guard]),)
        update = f"{sql} WHERE id = ? AND version = ? AND status IN ({placeholders}){guard_sql}"
        values = (*params, game_id, expected_version, *statuses, *guard_params)
        now = self._clock()

        def write(db: sqlite3.Connection) -> tuple[bool, list[int], Any]:
            db.execute("BEGIN IMMEDIATE")
            try:
                if db.execute(update, values).rowcount != 1:
                    db.execute("ROLLBACK")
                    return False, [], db.execute(_SELECT_GAME, (game_id,)).fetchone()
                for statement, args in extra:
                    db.execute(statement, args)
                new_ids = [_put_outgoing(db, game_id, out, now) for out in outgoing]
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
            return True, new_ids, db.execute(_SELECT_GAME, (game_id,)).fetchone()

        async with self._lock:
            done, new_ids, row = await self._in_thread(write)
        if not done:
            if row is None:
                raise StaleVersion(game_id, expected_version, None)
            raise StaleVersion(game_id, expected_version, row[9], row[4])
        _committed(outgoing, new_ids)
        return _record(row)

    async def _in_thread(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work(connection)`` in the connection's own thread, as one trip (the caller holds the lock): queued
        as aiosqlite queues its own statements (its ``_execute``, on its sqlite3 connection)."""
        db = self.db
        queued: Callable[..., Awaitable[T]] = db._execute
        return await queued(work, db._conn)

    async def _put_outgoing(self, game_id: int, outgoing: Sequence[Outgoing]) -> list[int]:
        """Insert each delivery record of ``outgoing``, or update the one it already has (inside the caller's
        transaction)."""
        now = self._clock()
        return await self._in_thread(lambda db: [_put_outgoing(db, game_id, out, now) for out in outgoing])

    async def update_lobby(self, game_id: int, *, seats: Sequence[Seat], setup: dict[str, Any] | None = None,
                           host_id: int | None = None, expected_seats: Sequence[Seat] | None = None,
                           outgoing: Sequence[Outgoing] = ()) -> GameRecord:
        sets = ["seats = ?", "updated_at = ?"]
        params: list[Any] = [_dumps([s.to_dict() for s in seats]), self._clock()]
        if setup is not None:
            sets.append("setup = ?")
            params.append(_dumps(setup))
        if host_id is not None:
            sets.append("host_id = ?")
            params.append(host_id)
        return await self._write(game_id, 0, f"UPDATE games SET {', '.join(sets)}", params, (LOBBY,),
                                 seats_guard=expected_seats, outgoing=outgoing)

    async def set_host(self, game_id: int, host_id: int) -> None:
        async with self._lock:
            await self.db.execute("UPDATE games SET host_id = ?, updated_at = ? WHERE id = ? AND status IN "
                                  "('lobby', 'active')", (host_id, self._clock(), game_id))

    async def replace_seats(self, game_id: int, *, version: int, seats: Sequence[Seat],
                            expected_seats: Sequence[Seat], outgoing: Sequence[Outgoing] = (),
                            computers_waiting: bool = False) -> GameRecord:
        if len(seats) != len(expected_seats):
            raise ValueError("a running game keeps its number of seats")
        return await self._write(game_id, version,
                                 "UPDATE games SET seats = ?, updated_at = ?, computers_waiting = ?",
                                 (_dumps([s.to_dict() for s in seats]), self._clock(), int(computers_waiting)),
                                 (ACTIVE,), seats_guard=expected_seats, outgoing=outgoing)

    async def start_game(self, game_id: int, *, setup: dict[str, Any], seats: Sequence[Seat],
                         state: dict[str, Any], status: str = ACTIVE, outgoing: Sequence[Outgoing] = (),
                         computers_waiting: bool = False) -> GameRecord:
        if status not in (ACTIVE, FINISHED):
            raise ValueError(f"a game starts active or finished, not {status!r}")
        return await self._write(
            game_id, 0, "UPDATE games SET status = ?, setup = ?, seats = ?, state = ?, updated_at = ?, "
            "computers_waiting = ?",
            (status, _dumps(setup), _dumps([s.to_dict() for s in seats]), _dumps(state), self._clock(),
             int(computers_waiting and status == ACTIVE)), (LOBBY,),
            seats_guard=seats, outgoing=outgoing,
        )

    async def append_action(self, game_id: int, *, expected_version: int, seat: int | None, user_id: int | None,
                            action: str, state: dict[str, Any], status: str = ACTIVE,
                            narration: str = "", outgoing: Sequence[Outgoing] = (),
                            computers_waiting: bool = False) -> GameRecord:
        if status not in (ACTIVE, FINISHED):
            raise ValueError(f"after an action a game is active or finished, not {status!r}")
        now = self._clock()

        insert = ("INSERT INTO actions (game_id, idx, seat, user_id, action, narration, at) "
                  "VALUES (?, ?, ?, ?, ?, ?, ?)", (game_id, expected_version, seat, user_id, action, narration, now))
        return await self._write(
            game_id, expected_version,
            "UPDATE games SET version = version + 1, state = ?, status = ?, updated_at = ?, computers_waiting = ?",
            (_dumps(state), status, now, int(computers_waiting and status == ACTIVE)), (ACTIVE,), [insert],
            outgoing=outgoing,
        )

    async def set_status(self, game_id: int, status: str, *, from_statuses: Sequence[str] = OPEN_STATUSES,
                         outgoing: Sequence[Outgoing] = ()) -> GameRecord:
        if status not in STATUSES:
            raise ValueError(f"unknown status {status!r}")
        async with self._lock:
            await self._transaction()
            try:
                cur = await self.db.execute(
                    f"UPDATE games SET status = ?, updated_at = ?, computers_waiting = 0 WHERE id = ? AND status IN "
                    f"({', '.join('?' for _ in from_statuses)})",
                    (status, self._clock(), game_id, *from_statuses),
                )
                changed = cur.rowcount == 1
                new_ids = await self._put_outgoing(game_id, outgoing) if changed else []
                await self.db.execute("COMMIT")
            except BaseException:
                if self.db.in_transaction:
                    await self.db.execute("ROLLBACK")
                raise
            if changed:
                _committed(outgoing, new_ids)
            rec = await self._fetch_game(game_id)
            if not changed:
                raise StaleVersion(game_id, rec.version, rec.version, rec.status)
            return rec

    async def waiting_on_computers(self) -> list[tuple[int, int]]:
        async with self._lock, self.db.execute(
            "SELECT id, channel_id FROM games WHERE status = 'active' AND computers_waiting = 1"
            f"{self._shard_sql('guild_id')} ORDER BY id"
        ) as cur:
            rows = await cur.fetchall()
        return [(r[0], r[1]) for r in rows]

    # Delivery records ----------------------------------------------------------------------------

    async def claim_deliveries(self, owner: str, *, now: float, lease: float, limit: int = 50,
                               takeover: bool = False, min_channel_id: int | None = None) -> list[Delivery]:
        free = "(claimed_until IS NULL OR claimed_until < ?" + (" OR claimed_by IS NOT ?)" if takeover else ")")
        params: list[Any] = [now, now] + ([owner] if takeover else [])
        channel = ""
        if min_channel_id is not None:
            channel = " AND channel_id >= ?"
            params.append(min_channel_id)
        channel += self._shard_sql(self._guild_of("deliveries.game_id"))
        async with self._lock:
            await self._transaction()
            try:
                async with self.db.execute(
                    f"SELECT {_DELIVERY_COLUMNS} FROM deliveries WHERE delivered_at IS NULL AND due_at <= ? "
                    f"AND {free}{channel} ORDER BY due_at, id LIMIT ?", (*params, limit)
                ) as cur:
                    rows = await cur.fetchall()
                for r in rows:
                    await self.db.execute("UPDATE deliveries SET claimed_by = ?, claimed_until = ?, "
                                          "attempts = attempts + 1 WHERE id = ?", (owner, now + lease, r[0]))
                await self.db.execute("COMMIT")
            except BaseException:
                if self.db.in_transaction:
                    await self.db.execute("ROLLBACK")
                raise
        return [replace(_delivery(r), claimed_by=owner, claimed_until=now + lease, attempts=r[7] + 1) for r in rows]

    async def mark_delivered(self, delivery_id: int, message_id: int | None) -> bool:
        async with self._lock:
            cur = await self.db.execute(
                "UPDATE deliveries SET message_id = ?, delivered_at = ?, claimed_until = NULL "
                "WHERE id = ? AND delivered_at IS NULL", (message_id, self._clock(), delivery_id))
            return cur.rowcount == 1

    async def release_delivery(self, delivery_id: int, *, due_at: float) -> None:
        async with self._lock:
            await self.db.execute("UPDATE deliveries SET claimed_by = NULL, claimed_until = NULL, due_at = ? "
                                  "WHERE id = ? AND delivered_at IS NULL", (due_at, delivery_id))

    async def deliveries(self, *, game_id: int | None = None, pending: bool = False) -> list[Delivery]:
        sql, params = _filtered(_DELIVERY_COLUMNS, "deliveries", {"game_id": game_id},
                                ["delivered_at IS NULL"] if pending else [])
        async with self._lock, self.db.execute(sql + " ORDER BY id", params) as cur:
            rows = await cur.fetchall()
        return [_delivery(r) for r in rows]

    async def actions(self, game_id: int, since: int = 0, limit: int | None = None) -> list[ActionRecord]:
        async with self._lock, self.db.execute(
            "SELECT game_id, idx, seat, user_id, action, narration, at FROM actions "
            "WHERE game_id = ? AND idx >= ? ORDER BY idx LIMIT ?",
            (game_id, since, -1 if limit is None else limit),
        ) as cur:
            rows = await cur.fetchall()
        return [ActionRecord(*r) for r in rows]

    # Timed events and settings --------------------------------------------------------------------

    async def unmarked_turns(self, limit: int = 100) -> list[GameRecord]:
        cols = ", ".join(f"g.{c.strip()}" for c in _GAME_COLUMNS.split(","))
        async with self._lock, self.db.execute(
            f"SELECT {cols} FROM games g LEFT JOIN turns t ON t.game_id = g.id WHERE g.status = 'active' "
            f"AND (t.version IS NULL OR t.version != g.version){self._shard_sql('g.guild_id')} ORDER BY g.id LIMIT ?",
            (limit,)
        ) as cur:
            rows = await cur.fetchall()
        return [_record(r) for r in rows]

    async def turn_mark(self, game_id: int) -> TurnMark | None:
        async with self._lock, self.db.execute(
            "SELECT game_id, version, seat, started_at, acted_at FROM turns WHERE game_id = ?", (game_id,)
        ) as cur:
            row = await cur.fetchone()
        return None if row is None else TurnMark(*row)

    async def mark_turn(self, game_id: int, *, version: int, seat: int | None, started_at: float,
                        timers: Sequence[NewTimer]) -> None:
        now = self._clock()
        async with self._lock:
            await self._transaction()
            try:
                await self.db.execute(
                    "INSERT INTO turns (game_id, version, seat, started_at, acted_at) VALUES (?, ?, ?, ?, ?) "
                    "ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, seat = excluded.seat, "
                    "started_at = excluded.started_at, acted_at = excluded.acted_at",
                    (game_id, version, seat, started_at, now))
                await self.db.execute("DELETE FROM timers WHERE game_id = ? AND fired_at IS NULL", (game_id,))
                for t in timers:
                    await self._insert_timer(game_id, t, version, now)
                await self.db.execute("COMMIT")
            except BaseException:
                if self.db.in_transaction:
                    await self.db.execute("ROLLBACK")
                raise

    async def _insert_timer(self, game_id: int, t: NewTimer, version: int, now: float) -> None:
        await self.db.execute(
            "INSERT INTO timers (game_id, kind, seat, version, due_at, data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (game_id, t.kind, t.seat, version, t.due_at, _dumps(t.data), now))

    async def claim_timers(self, owner: str, *, now: float, lease: float, limit: int = 50,
                           takeover: bool = False) -> list[Timer]:
        free = "(claimed_until IS NULL OR claimed_until < ?" + (" OR claimed_by IS NOT ?)" if takeover else ")")
        params: list[Any] = [now, now] + ([owner] if takeover else [])
        async with self._lock:
            await self._transaction()
            try:
                async with self.db.execute(
                    f"SELECT {_TIMER_COLUMNS} FROM timers WHERE fired_at IS NULL AND due_at <= ? AND {free}"
                    f"{self._shard_sql(self._guild_of('timers.game_id'))} ORDER BY due_at, id LIMIT ?", (*params, limit)
                ) as cur:
                    rows = await cur.fetchall()
                for r in rows:
                    await self.db.execute("UPDATE timers SET claimed_by = ?, claimed_until = ? WHERE id = ?",
                                          (owner, now + lease, r[0]))
                await self.db.execute("COMMIT")
            except BaseException:
                if self.db.in_transaction:
                    await self.db.execute("ROLLBACK")
                raise
        return [replace(_timer(r), claimed_by=owner, claimed_until=now + lease) for r in rows]

    async def finish_timer(self, timer_id: int, *, then: NewTimer | None = None) -> bool:
        now = self._clock()
        async with self._lock:
            await self._transaction()
            try:
                cur = await self.db.execute("UPDATE timers SET fired_at = ?, claimed_until = NULL "
                                            "WHERE id = ? AND fired_at IS NULL", (now, timer_id))
                done = cur.rowcount == 1
                if done and then is not None:
                    async with self.db.execute("SELECT game_id, version FROM timers WHERE id = ?",
                                               (timer_id,)) as c:
                        row = await c.fetchone()
                    assert row is not None
                    await self._insert_timer(row[0], then, row[1], now)
                await self.db.execute("COMMIT")
            except BaseException:
                if self.db.in_transaction:
                    await self.db.execute("ROLLBACK")
                raise
        return done

    async def timers(self, *, game_id: int | None = None, pending: bool = False) -> list[Timer]:
        sql, params = _filtered(_TIMER_COLUMNS, "timers", {"game_id": game_id}, ["fired_at IS NULL"] if pending else [])
        async with self._lock, self.db.execute(sql + " ORDER BY id", params) as cur:
            rows = await cur.fetchall()
        return [_timer(r) for r in rows]

    async def get_settings(self, scope: str, owner: int, target: int = 0) -> dict[str, Any]:
        async with self._lock, self.db.execute(
            "SELECT data FROM settings WHERE scope = ? AND owner = ? AND target = ?", (scope, owner, target)
        ) as cur:
            row = await cur.fetchone()
        return {} if row is None else dict(json.loads(row[0]))

    async def put_settings(self, scope: str, owner: int, target: int, data: dict[str, Any]) -> None:
        async with self._lock:
            await self.db.execute(
                "INSERT INTO settings (scope, owner, target, data) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (scope, owner, target) DO UPDATE SET data = excluded.data",
                (scope, owner, target, _dumps(data)))

    async def all_settings(self, scope: str) -> list[tuple[int, int, dict[str, Any]]]:
        async with self._lock, self.db.execute(
            "SELECT owner, target, data FROM settings WHERE scope = ? ORDER BY owner, target", (scope,)
        ) as cur:
            rows = await cur.fetchall()
        return [(r[0], r[1], dict(json.loads(r[2]))) for r in rows]

    # Undo, players' games and results ------------------------------------------------------------

    async def take_back(self, game_id: int, *, expected_version: int, count: int, state: dict[str, Any],
                        outgoing: Sequence[Outgoing] = ()) -> GameRecord:
        """Drop the last ``count`` actions of a running game at ``expected_version`` and store ``state``, the
        replay of the actions left, with ``outgoing``'s delivery record, in one transaction."""
        if not 1 <= count <= expected_version:
            raise ValueError(f"can't take back {count} of {expected_version} actions")
        keep = expected_version - count

        drop = ("DELETE FROM actions WHERE game_id = ? AND idx >= ?", (game_id, keep))
        return await self._write(
            game_id, expected_version,
            "UPDATE games SET version = ?, state = ?, updated_at = ?, computers_waiting = 0",
            (keep, _dumps(state), self._clock()), (ACTIVE,), [drop], outgoing=outgoing)

    async def games_of_user(self, user_id: int, status: str = ACTIVE) -> list[GameRecord]:
        """The games with ``status`` in which ``user_id`` has a seat, across servers, oldest first."""
        async with self._lock, self.db.execute(
            f"SELECT {', '.join('g.' + c for c in _GAME_COLUMNS.split(', '))} FROM players p "
            "JOIN games g ON g.id = p.game_id WHERE p.user_id = ? AND g.status = ? GROUP BY g.id ORDER BY g.id",
            (user_id, status),
        ) as cur:
            rows = await cur.fetchall()
        return [_record(r) for r in rows]

    async def delivery(self, delivery_id: int) -> Delivery | None:
        async with self._lock, self.db.execute(
            f"SELECT {_DELIVERY_COLUMNS} FROM deliveries WHERE id = ?", (delivery_id,)
        ) as cur:
            row = await cur.fetchone()
        return _delivery(row) if row is not None else None

    async def latest_delivery(self, game_id: int) -> Delivery | None:
        async with self._lock, self.db.execute(
            f"SELECT {_DELIVERY_COLUMNS} FROM deliveries WHERE game_id = ? AND kind IN ('post', 'edit') "
            "ORDER BY id DESC LIMIT 1", (game_id,)
        ) as cur:
            row = await cur.fetchone()
        return _delivery(row) if row is not None else None

    async def add_deliveries(self, game_id: int, outgoing: Sequence[Outgoing]) -> None:
        async with self._lock:
            await self._transaction()
            try:
                new_ids = await self._put_outgoing(game_id, outgoing)
                await self.db.execute("COMMIT")
            except BaseException:
                if self.db.in_transaction:
                    await self.db.execute("ROLLBACK")
                raise
        _committed(outgoing, new_ids)

    async def posted_messages(self, game_id: int, *, after_version: int = -1, limit: int = 20) -> list[int]:
        async with self._lock, self.db.execute(
            "SELECT message_id FROM deliveries WHERE game_id = ? AND version > ? AND message_id IS NOT NULL "
            "ORDER BY id DESC LIMIT ?", (game_id, after_version, limit)
        ) as cur:
            rows = await cur.fetchall()
        return [int(r[0]) for r in rows]

    async def record_results(self, game_id: int, rows: Sequence[Result], outgoing: Sequence[Outgoing] = ()) -> bool:
        """Store a finished game's results, and ``outgoing`` (the message of its end), in one transaction;
        False, and nothing written, when its results are already stored or the game is not finished."""
        async with self._lock:
            await self._transaction()
            try:
                async with self.db.execute(
                    "SELECT 1 FROM games WHERE id = ? AND status = 'finished' AND NOT EXISTS "
                    "(SELECT 1 FROM results WHERE game_id = ?)", (game_id, game_id)) as cur:
                    fresh = await cur.fetchone() is not None
                if fresh:
                    await self.db.executemany(
                        f"INSERT INTO results ({_RESULT_COLUMNS}) VALUES ({', '.join('?' * 12)})",
                        [(r.game_id, r.seat, r.user_id, r.name, r.place, int(r.winner), r.moves, r.game_key,
                          r.guild_id, r.channel_id, r.started_at, r.finished_at) for r in rows])
                    new_ids = await self._put_outgoing(game_id, outgoing)
                await self.db.execute("COMMIT")
            except BaseException:
                if self.db.in_transaction:
                    await self.db.execute("ROLLBACK")
                raise
        if fresh:
            _committed(outgoing, new_ids)
        return fresh

    async def results(self, *, game_id: int | None = None, user_id: int | None = None,
                      guild_id: int | None = None, channel_id: int | None = None, limit: int = 10_000
                      ) -> list[Result]:
        """Result rows matching every filter given, newest game first, seats in finishing order."""
        sql, params = _filtered(_RESULT_COLUMNS, "results", {"game_id": game_id, "user_id": user_id,
                                                             "guild_id": guild_id, "channel_id": channel_id})
        async with self._lock, self.db.execute(
            sql + " ORDER BY finished_at DESC, game_id DESC, place, seat LIMIT ?", (*params, limit)
        ) as cur:
            rows = await cur.fetchall()
        return [_result(r) for r in rows]

    async def unrecorded_ends(self, limit: int = 50) -> list[GameRecord]:
        async with self._lock, self.db.execute(
            f"SELECT {_GAME_COLUMNS} FROM games g WHERE status = 'finished' AND state IS NOT NULL AND NOT EXISTS "
            f"(SELECT 1 FROM results r WHERE r.game_id = g.id){self._shard_sql('g.guild_id')} ORDER BY id LIMIT ?",
            (limit,)
        ) as cur:
            rows = await cur.fetchall()
        return [_record(r) for r in rows]

    # Raw rows, for copying between backends -----------------------------------------------------

    async def rows(self, table: str, *, batch: int = 1000) -> AsyncIterator[dict[str, Any]]:
        keys = _copy_keys(table)
        order = ", ".join(keys)
        last: tuple[Any, ...] | None = None
        while True:
            after = "" if last is None else f" WHERE ({order}) > ({', '.join('?' for _ in keys)})"
            async with self._lock, self.db.execute(
                f"SELECT * FROM {table}{after} ORDER BY {order} LIMIT {int(batch)}", last or ()
            ) as cur:
                names = [d[0] for d in cur.description]
                found = [dict(zip(names, r, strict=True)) for r in await cur.fetchall()]
            for r in found:
                yield r
            if len(found) < batch:
                return
            last = tuple(found[-1][k] for k in keys)

    async def insert_rows(self, table: str, rows: Sequence[dict[str, Any]]) -> int:
        _copy_keys(table)
        if not rows:
            return 0
        columns = list(rows[0])
        sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' for _ in columns)})"
        async with self._lock:
            await self._transaction()
            try:
                # AUTOINCREMENT's counter follows explicit keys by itself
                await self.db.executemany(sql, [tuple(r[c] for c in columns) for r in rows])
                await self.db.execute("COMMIT")
            except BaseException:
                if self.db.in_transaction:
                    await self.db.execute("ROLLBACK")
                raise
        return len(rows)


def _copy_keys(table: str) -> tuple[str, ...]:
    """The primary key columns of a table a copy moves; :class:`StoreError` for any other name."""
    if table not in COPY_TABLES:
        raise StoreError(f"no table {table!r} to copy (there are {', '.join(COPY_TABLES)})")
    return COPY_TABLES[table]


_RESULT_COLUMNS = ("game_id, seat, user_id, name, place, winner, moves, game_key, guild_id, channel_id, started_at, "
                   "finished_at")


@dataclass(frozen=True, slots=True)
class Result:
    """One seat's result in a finished game: its place (1 is first), whether it won, and the game's length."""

    game_id: int
    seat: int
    user_id: int
    name: str
    place: int
    winner: bool
    moves: int
    game_key: str
    guild_id: int | None
    channel_id: int
    started_at: float
    finished_at: float


# Timed events ------------------------------------------------------------------------------------

_TIMER_COLUMNS = "id, game_id, kind, seat, version, due_at, data, claimed_by, claimed_until, fired_at, created_at"


@dataclass(frozen=True, slots=True)
class NewTimer:
    """A timed event to schedule: what (``kind``), for which seat, when, with what extra data."""

    kind: str
    seat: int | None
    due_at: float
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Timer:
    """A stored timed event of a game at ``version``; ``fired_at`` is set once it has fired (or was dropped)."""

    id: int
    game_id: int
    kind: str
    seat: int | None
    version: int
    due_at: float
    data: dict[str, Any]
    claimed_by: str | None
    claimed_until: float | None
    fired_at: float | None
    created_at: float


@dataclass(frozen=True, slots=True)
class TurnMark:
    """The turn a running game was last seen at: the version, the seat to act and since when it acts."""

    game_id: int
    version: int
    seat: int | None
    started_at: float
    acted_at: float


def _timer(row: Sequence[Any]) -> Timer:
    return Timer(id=row[0], game_id=row[1], kind=row[2], seat=row[3], version=row[4], due_at=row[5],
                 data=json.loads(row[6]), claimed_by=row[7], claimed_until=row[8], fired_at=row[9],
                 created_at=row[10])


def _result(row: Sequence[Any]) -> Result:
    return Result(game_id=row[0], seat=row[1], user_id=row[2], name=row[3], place=row[4], winner=bool(row[5]),
                  moves=row[6], game_key=row[7], guild_id=row[8], channel_id=row[9], started_at=row[10],
                  finished_at=row[11])


def _filtered(columns: str, table: str, equal: Mapping[str, Any], extra: Sequence[str] = (),
              mark: Callable[[int], str] = lambda _n: "?") -> tuple[str, list[Any]]:
    """``SELECT columns FROM table`` where every column of ``equal`` whose value is not None has that value and
    every ``extra`` condition holds, with its parameters; ``mark(n)`` writes the n-th placeholder (``?`` in
    SQLite, ``$n`` in PostgreSQL)."""
    where: list[str] = []
    params: list[Any] = []
    for column, value in equal.items():
        if value is not None:
            params.append(value)
            where.append(f"{column} = {mark(len(params))}")
    where += extra
    return f"SELECT {columns} FROM {table}" + (f" WHERE {' AND '.join(where)}" if where else ""), params
