"""The embedded store: one SQLite file in WAL mode, reached through aiosqlite's worker thread.

The action log is the record of truth; each game row also keeps a snapshot of the state after the last
action so loading is one read. ``version`` counts the actions, and every write names the version it
expects: a stale or doubled request raises :class:`StaleVersion` instead of being applied twice.
At most one game per channel is open (in the lobby or running); finished and aborted games stay.
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import sqlite3
import time
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Collection, Mapping, Sequence
from dataclasses import replace
from typing import Any, TypeVar, cast

import aiosqlite

from bot.store import people
from bot.store.interface import (
    ChampionshipsStore,
    GamesStore,
    OutboxStore,
    SettingsStore,
    StandingsStore,
    Store,
    TurnsStore,
)
from bot.store.records import (
    ACTIVE,
    CHAMPIONSHIP_ENDED,
    CHAMPIONSHIP_RUNNING,
    EVERLASTING,
    FINISHED,
    LOBBY,
    OPEN_STATUSES,
    STATUSES,
    ActionRecord,
    CannotOpen,
    Championship,
    ChampionshipRunning,
    ChannelBusy,
    Delivery,
    GameNotFound,
    GameRecord,
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
    newer_schema,
    sqlite_file_problem,
)
from bot.store.sql import (
    CHAMPIONSHIP_COLUMNS,
    CHANGE_COLUMNS,
    DELIVERY_COLUMNS,
    GAME_COLUMNS,
    LADDER_ORDER,
    LADDER_TOP_SQL,
    RANKS_SQL,
    RATING_COLUMNS,
    RESULT_COLUMNS,
    SEASON_COLUMNS,
    SERVER_GAMES_SQL,
    SERVER_LEADERS_SQL,
    TIMER_COLUMNS,
    championship_record,
    change_record,
    change_values,
    committed,
    copy_keys,
    delivery_record,
    dumps,
    filtered,
    game_record,
    player_tally,
    player_where,
    rating_record,
    rating_values,
    result_record,
    result_values,
    rewrites,
    season_record,
    server_tallies,
    timer_record,
)

T = TypeVar("T")

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
    # Ratings: how each seat kept time (in its result row), the servers' seasons, each person's rating per
    # server, game and season, and how each finished game moved it.
    """
    ALTER TABLE results ADD COLUMN team INTEGER;
    ALTER TABLE results ADD COLUMN driver TEXT;
    ALTER TABLE results ADD COLUMN turns INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE results ADD COLUMN timed INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE results ADD COLUMN missed INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE results ADD COLUMN autopilot INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE results ADD COLUMN think REAL NOT NULL DEFAULT 0;
    CREATE TABLE seasons (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id    INTEGER NOT NULL,
        name        TEXT NOT NULL,
        started_at  REAL NOT NULL,
        ended_at    REAL,
        started_by  INTEGER NOT NULL
    );
    CREATE INDEX seasons_by_guild ON seasons (guild_id, started_at);
    CREATE UNIQUE INDEX seasons_one_running ON seasons (guild_id) WHERE ended_at IS NULL;
    CREATE TABLE ratings (
        guild_id    INTEGER NOT NULL,
        game_key    TEXT NOT NULL,
        season_id   INTEGER NOT NULL,
        user_id     INTEGER NOT NULL,
        name        TEXT NOT NULL,
        mu          REAL NOT NULL,
        sigma       REAL NOT NULL,
        games       INTEGER NOT NULL,
        wins        INTEGER NOT NULL,
        turns       INTEGER NOT NULL,
        timed       INTEGER NOT NULL,
        missed      INTEGER NOT NULL,
        think       REAL NOT NULL,
        updated_at  REAL NOT NULL,
        PRIMARY KEY (guild_id, game_key, season_id, user_id)
    ) WITHOUT ROWID;
    CREATE TABLE rating_changes (
        game_id       INTEGER NOT NULL REFERENCES games (id),
        season_id     INTEGER NOT NULL,
        user_id       INTEGER NOT NULL,
        guild_id      INTEGER NOT NULL,
        game_key      TEXT NOT NULL,
        mu_before     REAL NOT NULL,
        sigma_before  REAL NOT NULL,
        mu            REAL NOT NULL,
        sigma         REAL NOT NULL,
        at            REAL NOT NULL,
        PRIMARY KEY (game_id, season_id, user_id)
    ) WITHOUT ROWID;
    CREATE INDEX rating_changes_by_user ON rating_changes (guild_id, game_key, season_id, user_id, at);
    """,
    """
    -- /stats counts in the database: a server's games by length, its winners, a person's games on one server
    CREATE INDEX results_tally ON results (guild_id, game_key, moves, game_id);
    CREATE INDEX results_wins ON results (guild_id, winner, game_key, user_id, name);
    CREATE INDEX results_by_user_guild ON results (user_id, guild_id, game_key);
    """,
    people.MARKER,
    """
    -- championships: a channel's series of games scored by places, and which game is which round
    CREATE TABLE championships (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id    INTEGER,
        channel_id  INTEGER NOT NULL,
        host_id     INTEGER NOT NULL,
        name        TEXT NOT NULL,
        game_key    TEXT NOT NULL,
        rounds      TEXT NOT NULL,
        points      TEXT NOT NULL,
        options     TEXT NOT NULL,
        status      TEXT NOT NULL,
        created_at  REAL NOT NULL
    );
    CREATE UNIQUE INDEX championships_one_running ON championships (channel_id) WHERE status = 'running';
    CREATE TABLE championship_rounds (
        championship_id  INTEGER NOT NULL REFERENCES championships (id),
        round            INTEGER NOT NULL,
        game_id          INTEGER NOT NULL REFERENCES games (id),
        PRIMARY KEY (championship_id, round)
    ) WITHOUT ROWID;
    CREATE UNIQUE INDEX championship_rounds_by_game ON championship_rounds (game_id);
    """,
]

_SELECT_GAME = f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?"

def _put_outgoing(db: sqlite3.Connection, game_id: int, out: Outgoing, now: float) -> int:
    """Insert ``out``'s delivery record, or update the one it already has, inside the transaction under way
    on ``db`` (in the connection's thread). The record takes the channel and the version from the game row as
    this transaction leaves it."""
    payload = dumps(out.payload)
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


def _read_move(db: sqlite3.Connection, channel_id: int, keys: Callable[[GameRecord], Sequence[SettingKey]]
               ) -> MoveRead:
    """:meth:`Store.read_move` in the connection's thread: one trip, one snapshot (a read transaction)."""
    db.execute("BEGIN")
    try:
        row = db.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')",
                         (channel_id,)).fetchone()
        if row is None:
            return MoveRead(None)
        game = game_record(row)
        latest = db.execute(f"SELECT {DELIVERY_COLUMNS} FROM deliveries WHERE game_id = ? AND kind IN ('post', 'edit') "
                            "ORDER BY id DESC LIMIT 1", (game.id,)).fetchone()
        pending = tuple(r[0] for r in db.execute(
            "SELECT id FROM deliveries WHERE channel_id = ? AND delivered_at IS NULL ORDER BY id", (channel_id,)))
        wanted = list(dict.fromkeys(keys(game)))
        found: dict[Any, str] = {}
        if wanted:
            rows = db.execute("SELECT scope, owner, target, data FROM settings WHERE (scope, owner, target) IN "
                              f"(VALUES {', '.join('(?, ?, ?)' for _ in wanted)})", [v for k in wanted for v in k])
            found = {(r[0], r[1], r[2]): r[3] for r in rows}
        settings = {k: dict(json.loads(found[k])) if k in found else {} for k in wanted}
        return MoveRead(game, None if latest is None else delivery_record(latest), pending, settings)
    finally:
        db.execute("COMMIT")


#: seconds between two looks of :meth:`SqliteStore.changes` at whether anything was committed
LOOK_SECONDS = 0.1

#: what a page shows of a game changed when one of these did: its record's version, time and status, and its
#: newest delivery record (a message beside the moves changes no record of the game)
_MARKS_SQL = ("SELECT g.id, g.version, g.updated_at, g.status, "
              "(SELECT MAX(d.id) FROM deliveries d WHERE d.game_id = g.id) "
              "FROM games g WHERE g.id IN (SELECT value FROM json_each(?))")


def _committed(db: sqlite3.Connection) -> tuple[int, int]:
    """What moves when anyone commits: ``data_version`` (commits of other connections) and the rows this
    connection changed. Reads no table."""
    return int(db.execute("PRAGMA data_version").fetchone()[0]), db.total_changes


def _marks(db: sqlite3.Connection, ids: Collection[int]) -> dict[int, tuple[Any, ...]]:
    """The mark of each game of ``ids`` (:data:`_MARKS_SQL`), all in one query."""
    return {row[0]: tuple(row[1:]) for row in db.execute(_MARKS_SQL, (json.dumps(sorted(ids)),))}


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
        self.games = SqliteGames(self)
        self.outbox = SqliteOutbox(self)
        self.turns = SqliteTurns(self)
        self.settings = SqliteSettings(self)
        self.standings = SqliteStandings(self)
        self.championships = SqliteChampionships(self)

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
            if MIGRATIONS[number] == people.MARKER:
                await _people_step(db, number + 1)
                continue
            # executescript commits first; the script carries its own transaction and version bump.
            await db.executescript(
                f"BEGIN IMMEDIATE;\n{MIGRATIONS[number]}\n"
                f"UPDATE schema_version SET version = {number + 1};\nCOMMIT;"
            )

    async def read_move(self, channel_id: int, keys: Callable[[GameRecord], Sequence[SettingKey]]) -> MoveRead:
        async with self._lock:
            return await self._in_thread(lambda db: _read_move(db, channel_id, keys))

    async def changes(self, watched: Callable[[], Collection[int]], *, every: float = LOOK_SECONDS
                      ) -> AsyncGenerator[Collection[int] | None, None]:
        """Every ``every`` seconds while some game is watched: one look at whether anything was committed since
        the last look (:func:`_committed`, one trip and no table read); when so, one query of the watched games'
        marks (:func:`_marks`), and the ids whose mark moved. A game newly watched is told once (it may have
        changed between its first read and its first mark)."""
        marks: dict[int, tuple[Any, ...] | None] = {}
        last: tuple[int, int] | None = None
        while True:
            await asyncio.sleep(every)
            ids = set(watched())
            for gone in marks.keys() - ids:
                del marks[gone]
            if not ids:
                continue
            async with self._lock:
                now = await self._in_thread(_committed)
                asked = ids if now != last else ids - marks.keys()
                last = now
                found = await self._in_thread(functools.partial(_marks, ids=asked)) if asked else {}
            moved = [i for i in asked if i not in marks or marks[i] != found.get(i)]
            for i in asked:
                marks[i] = found.get(i)
            if moved:
                yield moved

    async def schema_version(self) -> int:
        async with self._lock, self.db.execute("SELECT version FROM schema_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def _fetch_game(self, game_id: int) -> GameRecord:
        async with self.db.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)) as cur:
            row = await cur.fetchone()
        if row is None:
            raise GameNotFound(f"no game {game_id}")
        return game_record(row)

    async def _transaction(self) -> None:
        await self.db.execute("BEGIN IMMEDIATE")

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
            guard_sql, guard_params = " AND seats = ?", (dumps([s.to_dict() for s in seats_guard]),)
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
        committed(outgoing, new_ids)
        return game_record(row)

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

    async def rows(self, table: str, *, batch: int = 1000) -> AsyncIterator[dict[str, Any]]:
        keys = copy_keys(table)
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
        copy_keys(table)
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
                await _roll_back(self.db)
                raise
        return len(rows)

    async def rewrite_rows(self, updates: Mapping[str, Sequence[dict[str, Any]]],
                           deletes: Mapping[str, Sequence[dict[str, Any]]]) -> int:
        statements = rewrites(updates, deletes, lambda _n: "?")

        def write(db: sqlite3.Connection) -> int:
            db.execute("BEGIN IMMEDIATE")
            try:
                changed = sum(db.execute(sql, args).rowcount for sql, args in statements)
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
            return changed

        async with self._lock:
            return await self._in_thread(write)


async def _roll_back(db: aiosqlite.Connection) -> None:
    """Undo what a write that failed or was cancelled began, if its transaction is still open. A COMMIT whose caller
    is cancelled still runs on the connection's thread and may end the transaction before this ROLLBACK does; then
    there is nothing to undo, and the error being handled (the cancellation, above all) is the one to raise."""
    if db.in_transaction:
        try:
            await db.execute("ROLLBACK")
        except sqlite3.OperationalError:
            if db.in_transaction:
                raise


async def _people_step(db: aiosqlite.Connection, version: int) -> None:
    """The upgrade's step of :mod:`bot.store.people`, and the version bump, in one transaction."""
    await db.execute("BEGIN IMMEDIATE")
    try:
        async with db.execute("SELECT id, seats, lang FROM games") as cur:
            found = people.People({"id": r[0], "seats": r[1], "lang": r[2]} for r in await cur.fetchall())
        updates: dict[str, list[dict[str, Any]]] = {}
        for table, columns in people.TEXTS.items():
            keys = copy_keys(table)
            async with db.execute(f"SELECT {', '.join(dict.fromkeys((*keys, 'game_id', *columns)))} FROM {table}"
                                  ) as cur:
                names = [d[0] for d in cur.description]
                for r in await cur.fetchall():
                    new = people.upgraded(table, dict(zip(names, r, strict=True)), found, keys)
                    if new is not None:
                        updates.setdefault(table, []).append(new)
        for sql, args in rewrites(updates, {}, lambda _n: "?"):
            await db.execute(sql, args)
        await db.execute(f"UPDATE schema_version SET version = {version}")
        await db.execute("COMMIT")
    except BaseException:
        await _roll_back(db)
        raise


class SqliteGames(GamesStore):
    """Games, their seats and snapshots, and their action logs, in the SQLite file
    (``s``: the store)."""

    def __init__(self, s: SqliteStore) -> None:
        self.s = s

    async def create_game(self, *, guild_id: int | None, channel_id: int, game_key: str, host_id: int,
                          setup: dict[str, Any], seed: int, seats: Sequence[Seat] = (), lang: str = "en",
                          outgoing: Sequence[Outgoing] = ()) -> GameRecord:
        now = self.s._clock()
        insert = ("INSERT INTO games (guild_id, channel_id, game_key, status, host_id, setup, seed, seats, version, "
                  "state, created_at, updated_at, lang) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, 0, NULL, ?, ?, ?)",
                  (guild_id, channel_id, game_key, host_id, dumps(setup), seed, dumps([s.to_dict() for s in seats]),
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

        async with self.s._lock:
            try:
                game_id, new_ids = await self.s._in_thread(write)
            except sqlite3.IntegrityError as exc:
                raise ChannelBusy(f"channel {channel_id} already has an open game") from exc
            committed(outgoing, new_ids)
            return await self.s._fetch_game(game_id)

    async def get_game(self, game_id: int) -> GameRecord:
        async with self.s._lock:
            return await self.s._fetch_game(game_id)

    async def channel_game(self, channel_id: int) -> GameRecord | None:
        async with self.s._lock, self.s.db.execute(
            f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')",
            (channel_id,),
        ) as cur:
            row = await cur.fetchone()
        return None if row is None else game_record(row)

    async def open_games(self, status: str = ACTIVE) -> list[GameRecord]:
        async with self.s._lock, self.s.db.execute(
            f"SELECT {GAME_COLUMNS} FROM games WHERE status = ?{self.s._shard_sql('guild_id')} ORDER BY id", (status,)
        ) as cur:
            rows = await cur.fetchall()
        return [game_record(r) for r in rows]

    async def channel_history(self, channel_id: int, limit: int = 10) -> list[GameRecord]:
        async with self.s._lock, self.s.db.execute(
            f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT ?", (channel_id, limit)
        ) as cur:
            rows = await cur.fetchall()
        return [game_record(r) for r in rows]

    async def update_lobby(self, game_id: int, *, seats: Sequence[Seat], setup: dict[str, Any] | None = None,
                           host_id: int | None = None, expected_seats: Sequence[Seat] | None = None,
                           outgoing: Sequence[Outgoing] = ()) -> GameRecord:
        sets = ["seats = ?", "updated_at = ?"]
        params: list[Any] = [dumps([s.to_dict() for s in seats]), self.s._clock()]
        if setup is not None:
            sets.append("setup = ?")
            params.append(dumps(setup))
        if host_id is not None:
            sets.append("host_id = ?")
            params.append(host_id)
        return await self.s._write(game_id, 0, f"UPDATE games SET {', '.join(sets)}", params, (LOBBY,),
                                 seats_guard=expected_seats, outgoing=outgoing)

    async def set_host(self, game_id: int, host_id: int) -> None:
        async with self.s._lock:
            await self.s.db.execute("UPDATE games SET host_id = ?, updated_at = ? WHERE id = ? AND status IN "
                                  "('lobby', 'active')", (host_id, self.s._clock(), game_id))

    async def replace_seats(self, game_id: int, *, version: int, seats: Sequence[Seat],
                            expected_seats: Sequence[Seat], outgoing: Sequence[Outgoing] = (),
                            computers_waiting: bool = False) -> GameRecord:
        if len(seats) != len(expected_seats):
            raise ValueError("a running game keeps its number of seats")
        return await self.s._write(game_id, version,
                                 "UPDATE games SET seats = ?, updated_at = ?, computers_waiting = ?",
                                 (dumps([s.to_dict() for s in seats]), self.s._clock(), int(computers_waiting)),
                                 (ACTIVE,), seats_guard=expected_seats, outgoing=outgoing)

    async def start_game(self, game_id: int, *, setup: dict[str, Any], seats: Sequence[Seat],
                         state: dict[str, Any], status: str = ACTIVE, outgoing: Sequence[Outgoing] = (),
                         computers_waiting: bool = False) -> GameRecord:
        if status not in (ACTIVE, FINISHED):
            raise ValueError(f"a game starts active or finished, not {status!r}")
        return await self.s._write(
            game_id, 0, "UPDATE games SET status = ?, setup = ?, seats = ?, state = ?, updated_at = ?, "
            "computers_waiting = ?",
            (status, dumps(setup), dumps([s.to_dict() for s in seats]), dumps(state), self.s._clock(),
             int(computers_waiting and status == ACTIVE)), (LOBBY,),
            seats_guard=seats, outgoing=outgoing,
        )

    async def append_action(self, game_id: int, *, expected_version: int, seat: int | None, user_id: int | None,
                            action: str, state: dict[str, Any], status: str = ACTIVE,
                            narration: str = "", outgoing: Sequence[Outgoing] = (),
                            computers_waiting: bool = False, settings: Sequence[SettingsWrite] = ()) -> GameRecord:
        if status not in (ACTIVE, FINISHED):
            raise ValueError(f"after an action a game is active or finished, not {status!r}")
        now = self.s._clock()

        insert = ("INSERT INTO actions (game_id, idx, seat, user_id, action, narration, at) "
                  "VALUES (?, ?, ?, ?, ?, ?, ?)", (game_id, expected_version, seat, user_id, action, narration, now))
        puts = [("INSERT INTO settings (scope, owner, target, data) VALUES (?, ?, ?, ?) "
                 "ON CONFLICT (scope, owner, target) DO UPDATE SET data = excluded.data",
                 (w.scope, w.owner, w.target, dumps(w.data))) for w in settings]
        return await self.s._write(
            game_id, expected_version,
            "UPDATE games SET version = version + 1, state = ?, status = ?, updated_at = ?, computers_waiting = ?",
            (dumps(state), status, now, int(computers_waiting and status == ACTIVE)), (ACTIVE,), [insert, *puts],
            outgoing=outgoing,
        )

    async def set_status(self, game_id: int, status: str, *, from_statuses: Sequence[str] = OPEN_STATUSES,
                         outgoing: Sequence[Outgoing] = ()) -> GameRecord:
        if status not in STATUSES:
            raise ValueError(f"unknown status {status!r}")
        async with self.s._lock:
            await self.s._transaction()
            try:
                cur = await self.s.db.execute(
                    f"UPDATE games SET status = ?, updated_at = ?, computers_waiting = 0 WHERE id = ? AND status IN "
                    f"({', '.join('?' for _ in from_statuses)})",
                    (status, self.s._clock(), game_id, *from_statuses),
                )
                changed = cur.rowcount == 1
                new_ids = await self.s._put_outgoing(game_id, outgoing) if changed else []
                await self.s.db.execute("COMMIT")
            except BaseException:
                await _roll_back(self.s.db)
                raise
            if changed:
                committed(outgoing, new_ids)
            rec = await self.s._fetch_game(game_id)
            if not changed:
                raise StaleVersion(game_id, rec.version, rec.version, rec.status)
            return rec

    async def waiting_on_computers(self) -> list[tuple[int, int]]:
        async with self.s._lock, self.s.db.execute(
            "SELECT id, channel_id FROM games WHERE status = 'active' AND computers_waiting = 1"
            f"{self.s._shard_sql('guild_id')} ORDER BY id"
        ) as cur:
            rows = await cur.fetchall()
        return [(r[0], r[1]) for r in rows]

    async def actions(self, game_id: int, since: int = 0, limit: int | None = None) -> list[ActionRecord]:
        async with self.s._lock, self.s.db.execute(
            "SELECT game_id, idx, seat, user_id, action, narration, at FROM actions "
            "WHERE game_id = ? AND idx >= ? ORDER BY idx LIMIT ?",
            (game_id, since, -1 if limit is None else limit),
        ) as cur:
            rows = await cur.fetchall()
        return [ActionRecord(*r) for r in rows]

    async def take_back(self, game_id: int, *, expected_version: int, count: int, state: dict[str, Any],
                        outgoing: Sequence[Outgoing] = ()) -> GameRecord:
        """Drop the last ``count`` actions of a running game at ``expected_version`` and store ``state``, the
        replay of the actions left, with ``outgoing``'s delivery record, in one transaction."""
        if not 1 <= count <= expected_version:
            raise ValueError(f"can't take back {count} of {expected_version} actions")
        keep = expected_version - count

        drop = ("DELETE FROM actions WHERE game_id = ? AND idx >= ?", (game_id, keep))
        return await self.s._write(
            game_id, expected_version,
            "UPDATE games SET version = ?, state = ?, updated_at = ?, computers_waiting = 0",
            (keep, dumps(state), self.s._clock()), (ACTIVE,), [drop], outgoing=outgoing)

    async def games_of_user(self, user_id: int, status: str = ACTIVE) -> list[GameRecord]:
        """The games with ``status`` in which ``user_id`` has a seat, across servers, oldest first."""
        async with self.s._lock, self.s.db.execute(
            f"SELECT {', '.join('g.' + c for c in GAME_COLUMNS.split(', '))} FROM players p "
            "JOIN games g ON g.id = p.game_id WHERE p.user_id = ? AND g.status = ? GROUP BY g.id ORDER BY g.id",
            (user_id, status),
        ) as cur:
            rows = await cur.fetchall()
        return [game_record(r) for r in rows]


class SqliteOutbox(OutboxStore):
    """The delivery records of public messages, claimed and delivered once, in the SQLite file
    (``s``: the store)."""

    def __init__(self, s: SqliteStore) -> None:
        self.s = s

    async def claim_deliveries(self, owner: str, *, now: float, lease: float, limit: int = 50,
                               takeover: bool = False, min_channel_id: int | None = None) -> list[Delivery]:
        free = "(claimed_until IS NULL OR claimed_until < ?" + (" OR claimed_by IS NOT ?)" if takeover else ")")
        params: list[Any] = [now, now] + ([owner] if takeover else [])
        channel = ""
        if min_channel_id is not None:
            channel = " AND channel_id >= ?"
            params.append(min_channel_id)
        channel += self.s._shard_sql(self.s._guild_of("deliveries.game_id"))
        async with self.s._lock:
            await self.s._transaction()
            try:
                async with self.s.db.execute(
                    f"SELECT {DELIVERY_COLUMNS} FROM deliveries WHERE delivered_at IS NULL AND due_at <= ? "
                    f"AND {free}{channel} ORDER BY due_at, id LIMIT ?", (*params, limit)
                ) as cur:
                    rows = await cur.fetchall()
                for r in rows:
                    await self.s.db.execute("UPDATE deliveries SET claimed_by = ?, claimed_until = ?, "
                                          "attempts = attempts + 1 WHERE id = ?", (owner, now + lease, r[0]))
                await self.s.db.execute("COMMIT")
            except BaseException:
                await _roll_back(self.s.db)
                raise
        return [replace(delivery_record(r), claimed_by=owner, claimed_until=now + lease, attempts=r[7] + 1)
                for r in rows]

    async def claim_delivery(self, delivery_id: int, owner: str, *, now: float, lease: float) -> Delivery | None:
        async with self.s._lock:
            cur = await self.s.db.execute(
                "UPDATE deliveries SET claimed_by = ?, claimed_until = ?, attempts = attempts + 1 WHERE id = ? "
                "AND delivered_at IS NULL AND due_at <= ? AND (claimed_until IS NULL OR claimed_until < ?)",
                (owner, now + lease, delivery_id, now, now))
            if cur.rowcount != 1:
                return None
            async with self.s.db.execute(f"SELECT {DELIVERY_COLUMNS} FROM deliveries WHERE id = ?",
                                         (delivery_id,)) as read:
                row = await read.fetchone()
        return delivery_record(row) if row is not None else None

    async def mark_delivered(self, delivery_id: int, message_id: int | None) -> bool:
        async with self.s._lock:
            cur = await self.s.db.execute(
                "UPDATE deliveries SET message_id = ?, delivered_at = ?, claimed_until = NULL "
                "WHERE id = ? AND delivered_at IS NULL", (message_id, self.s._clock(), delivery_id))
            return cur.rowcount == 1

    async def release_delivery(self, delivery_id: int, *, due_at: float) -> None:
        async with self.s._lock:
            await self.s.db.execute("UPDATE deliveries SET claimed_by = NULL, claimed_until = NULL, due_at = ? "
                                  "WHERE id = ? AND delivered_at IS NULL", (due_at, delivery_id))

    async def deliveries(self, *, game_id: int | None = None, channel_id: int | None = None,
                         pending: bool = False) -> list[Delivery]:
        sql, params = filtered(DELIVERY_COLUMNS, "deliveries", {"game_id": game_id, "channel_id": channel_id},
                                ["delivered_at IS NULL"] if pending else [])
        async with self.s._lock, self.s.db.execute(sql + " ORDER BY id", params) as cur:
            rows = await cur.fetchall()
        return [delivery_record(r) for r in rows]

    async def delivery(self, delivery_id: int) -> Delivery | None:
        async with self.s._lock, self.s.db.execute(
            f"SELECT {DELIVERY_COLUMNS} FROM deliveries WHERE id = ?", (delivery_id,)
        ) as cur:
            row = await cur.fetchone()
        return delivery_record(row) if row is not None else None

    async def latest_delivery(self, game_id: int) -> Delivery | None:
        async with self.s._lock, self.s.db.execute(
            f"SELECT {DELIVERY_COLUMNS} FROM deliveries WHERE game_id = ? AND kind IN ('post', 'edit') "
            "ORDER BY id DESC LIMIT 1", (game_id,)
        ) as cur:
            row = await cur.fetchone()
        return delivery_record(row) if row is not None else None

    async def add_deliveries(self, game_id: int, outgoing: Sequence[Outgoing]) -> None:
        async with self.s._lock:
            await self.s._transaction()
            try:
                new_ids = await self.s._put_outgoing(game_id, outgoing)
                await self.s.db.execute("COMMIT")
            except BaseException:
                await _roll_back(self.s.db)
                raise
        committed(outgoing, new_ids)

    async def posted_messages(self, game_id: int, *, after_version: int = -1, limit: int = 20) -> list[int]:
        async with self.s._lock, self.s.db.execute(
            "SELECT message_id FROM deliveries WHERE game_id = ? AND version > ? AND message_id IS NOT NULL "
            "ORDER BY id DESC LIMIT ?", (game_id, after_version, limit)
        ) as cur:
            rows = await cur.fetchall()
        return [int(r[0]) for r in rows]


class SqliteTurns(TurnsStore):
    """The turn each running game was last seen at, and its timers, in the SQLite file
    (``s``: the store)."""

    def __init__(self, s: SqliteStore) -> None:
        self.s = s

    async def unmarked_turns(self, limit: int = 100) -> list[GameRecord]:
        cols = ", ".join(f"g.{c.strip()}" for c in GAME_COLUMNS.split(","))
        async with self.s._lock, self.s.db.execute(
            f"SELECT {cols} FROM games g LEFT JOIN turns t ON t.game_id = g.id WHERE g.status = 'active' "
            f"AND (t.version IS NULL OR t.version != g.version){self.s._shard_sql('g.guild_id')} ORDER BY g.id LIMIT ?",
            (limit,)
        ) as cur:
            rows = await cur.fetchall()
        return [game_record(r) for r in rows]

    async def turn_mark(self, game_id: int) -> TurnMark | None:
        async with self.s._lock, self.s.db.execute(
            "SELECT game_id, version, seat, started_at, acted_at FROM turns WHERE game_id = ?", (game_id,)
        ) as cur:
            row = await cur.fetchone()
        return None if row is None else TurnMark(*row)

    async def mark_turn(self, game_id: int, *, version: int, seat: int | None, started_at: float,
                        timers: Sequence[NewTimer]) -> None:
        now = self.s._clock()
        async with self.s._lock:
            await self.s._transaction()
            try:
                await self.s.db.execute(
                    "INSERT INTO turns (game_id, version, seat, started_at, acted_at) VALUES (?, ?, ?, ?, ?) "
                    "ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, seat = excluded.seat, "
                    "started_at = excluded.started_at, acted_at = excluded.acted_at",
                    (game_id, version, seat, started_at, now))
                await self.s.db.execute("DELETE FROM timers WHERE game_id = ? AND fired_at IS NULL", (game_id,))
                for t in timers:
                    await self._insert_timer(game_id, t, version, now)
                await self.s.db.execute("COMMIT")
            except BaseException:
                await _roll_back(self.s.db)
                raise

    async def _insert_timer(self, game_id: int, t: NewTimer, version: int, now: float) -> None:
        await self.s.db.execute(
            "INSERT INTO timers (game_id, kind, seat, version, due_at, data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (game_id, t.kind, t.seat, version, t.due_at, dumps(t.data), now))

    async def claim_timers(self, owner: str, *, now: float, lease: float, limit: int = 50,
                           takeover: bool = False) -> list[Timer]:
        free = "(claimed_until IS NULL OR claimed_until < ?" + (" OR claimed_by IS NOT ?)" if takeover else ")")
        params: list[Any] = [now, now] + ([owner] if takeover else [])
        async with self.s._lock:
            await self.s._transaction()
            try:
                async with self.s.db.execute(
                    f"SELECT {TIMER_COLUMNS} FROM timers WHERE fired_at IS NULL AND due_at <= ? AND {free}"
                    f"{self.s._shard_sql(self.s._guild_of('timers.game_id'))} ORDER BY due_at, id LIMIT ?",
                    (*params, limit)
                ) as cur:
                    rows = await cur.fetchall()
                for r in rows:
                    await self.s.db.execute("UPDATE timers SET claimed_by = ?, claimed_until = ? WHERE id = ?",
                                          (owner, now + lease, r[0]))
                await self.s.db.execute("COMMIT")
            except BaseException:
                await _roll_back(self.s.db)
                raise
        return [replace(timer_record(r), claimed_by=owner, claimed_until=now + lease) for r in rows]

    async def next_due(self) -> float | None:
        async with self.s._lock, self.s.db.execute(
            "SELECT MIN(CASE WHEN claimed_until > due_at THEN claimed_until ELSE due_at END) FROM timers "
            f"WHERE fired_at IS NULL{self.s._shard_sql(self.s._guild_of('timers.game_id'))}"
        ) as cur:
            row = await cur.fetchone()
        return None if row is None or row[0] is None else float(row[0])

    async def finish_timer(self, timer_id: int, *, then: NewTimer | None = None) -> bool:
        now = self.s._clock()
        async with self.s._lock:
            await self.s._transaction()
            try:
                cur = await self.s.db.execute("UPDATE timers SET fired_at = ?, claimed_until = NULL "
                                            "WHERE id = ? AND fired_at IS NULL", (now, timer_id))
                done = cur.rowcount == 1
                if done and then is not None:
                    async with self.s.db.execute("SELECT game_id, version FROM timers WHERE id = ?",
                                               (timer_id,)) as c:
                        row = await c.fetchone()
                    assert row is not None
                    await self._insert_timer(row[0], then, row[1], now)
                await self.s.db.execute("COMMIT")
            except BaseException:
                await _roll_back(self.s.db)
                raise
        return done

    async def timers(self, *, game_id: int | None = None, pending: bool = False) -> list[Timer]:
        sql, params = filtered(TIMER_COLUMNS, "timers", {"game_id": game_id}, ["fired_at IS NULL"] if pending else [])
        async with self.s._lock, self.s.db.execute(sql + " ORDER BY id", params) as cur:
            rows = await cur.fetchall()
        return [timer_record(r) for r in rows]


class SqliteSettings(SettingsStore):
    """Settings of games, servers and users, in the SQLite file
    (``s``: the store)."""

    def __init__(self, s: SqliteStore) -> None:
        self.s = s

    async def get_settings(self, scope: str, owner: int, target: int = 0) -> dict[str, Any]:
        async with self.s._lock, self.s.db.execute(
            "SELECT data FROM settings WHERE scope = ? AND owner = ? AND target = ?", (scope, owner, target)
        ) as cur:
            row = await cur.fetchone()
        return {} if row is None else dict(json.loads(row[0]))

    async def settings_of(self, keys: Sequence[tuple[str, int, int]]) -> list[dict[str, Any]]:
        if not keys:
            return []
        wanted = ", ".join("(?, ?, ?)" for _ in keys)
        async with self.s._lock, self.s.db.execute(
            f"SELECT scope, owner, target, data FROM settings WHERE (scope, owner, target) IN (VALUES {wanted})",
            [v for key in keys for v in key],
        ) as cur:
            found = {(r[0], r[1], r[2]): r[3] for r in await cur.fetchall()}
        return [dict(json.loads(found[key])) if key in found else {} for key in map(tuple, keys)]

    async def put_settings(self, scope: str, owner: int, target: int, data: dict[str, Any]) -> None:
        async with self.s._lock:
            await self.s.db.execute(
                "INSERT INTO settings (scope, owner, target, data) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (scope, owner, target) DO UPDATE SET data = excluded.data",
                (scope, owner, target, dumps(data)))

    async def all_settings(self, scope: str) -> list[tuple[int, int, dict[str, Any]]]:
        async with self.s._lock, self.s.db.execute(
            "SELECT owner, target, data FROM settings WHERE scope = ? ORDER BY owner, target", (scope,)
        ) as cur:
            rows = await cur.fetchall()
        return [(r[0], r[1], dict(json.loads(r[2]))) for r in rows]


class SqliteStandings(StandingsStore):
    """Finished games' results, in the SQLite file
    (``s``: the store)."""

    def __init__(self, s: SqliteStore) -> None:
        self.s = s

    async def record_results(self, game_id: int, rows: Sequence[Result], outgoing: Sequence[Outgoing] = (),
                             ratings: Sequence[Rating] = (), changes: Sequence[RatingChange] = ()) -> bool:
        """Store a finished game's results, ``outgoing`` (the message of its end) and the ratings it made, in
        one transaction; False, and nothing written, when its results are already stored or the game is not
        finished; :class:`StaleRating` when a rating moved since it was read."""
        db = self.s.db
        async with self.s._lock:
            await self.s._transaction()
            try:
                async with db.execute(
                    "SELECT 1 FROM games WHERE id = ? AND status = 'finished' AND NOT EXISTS "
                    "(SELECT 1 FROM results WHERE game_id = ?)", (game_id, game_id)) as cur:
                    fresh = await cur.fetchone() is not None
                if fresh:
                    await db.executemany(
                        f"INSERT INTO results ({RESULT_COLUMNS}) VALUES ({', '.join('?' * 19)})",
                        [result_values(r) for r in rows])
                    for r in ratings:
                        if not await self._put_rating(r):
                            raise StaleRating(f"the rating of {r.user_id} in {r.game_key} moved meanwhile")
                    await db.executemany(f"INSERT INTO rating_changes ({CHANGE_COLUMNS}) VALUES "
                                         f"({', '.join('?' * 10)})", [change_values(c) for c in changes])
                    new_ids = await self.s._put_outgoing(game_id, outgoing)
                await db.execute("COMMIT")
            except BaseException:
                await _roll_back(db)
                raise
        if fresh:
            committed(outgoing, new_ids)
        return fresh

    async def _put_rating(self, r: Rating) -> bool:
        """Write ``r`` over its predecessor (a rating with one game fewer; none for a first game)."""
        if r.games <= 1:
            cur = await self.s.db.execute(f"INSERT INTO ratings ({RATING_COLUMNS}) VALUES ({', '.join('?' * 14)}) "
                                          "ON CONFLICT DO NOTHING", rating_values(r))
        else:
            cur = await self.s.db.execute(
                "UPDATE ratings SET name = ?, mu = ?, sigma = ?, games = ?, wins = ?, turns = ?, timed = ?, "
                "missed = ?, think = ?, updated_at = ? WHERE guild_id = ? AND game_key = ? AND season_id = ? "
                "AND user_id = ? AND games = ?",
                (r.name, r.mu, r.sigma, r.games, r.wins, r.turns, r.timed, r.missed, r.think, r.updated_at,
                 r.guild_id, r.game_key, r.season_id, r.user_id, r.games - 1))
        return cur.rowcount == 1

    async def ratings(self, guild_id: int, game_key: str | None = None, season_id: int = EVERLASTING, *,
                      user_id: int | None = None, limit: int = 1000) -> list[Rating]:
        sql, params = filtered(RATING_COLUMNS, "ratings", {"guild_id": guild_id, "season_id": season_id,
                                                            "game_key": game_key, "user_id": user_id})
        async with self.s._lock, self.s.db.execute(f"{sql} {LADDER_ORDER} LIMIT ?", (*params, limit)) as cur:
            rows = await cur.fetchall()
        return [rating_record(r) for r in rows]

    async def rating_history(self, guild_id: int, game_key: str, season_id: int, user_id: int,
                             limit: int = 500) -> list[RatingChange]:
        async with self.s._lock, self.s.db.execute(
            f"SELECT {CHANGE_COLUMNS} FROM rating_changes WHERE guild_id = ? AND game_key = ? AND season_id = ? "
            "AND user_id = ? ORDER BY at DESC, game_id DESC LIMIT ?", (guild_id, game_key, season_id, user_id, limit)
        ) as cur:
            rows = await cur.fetchall()
        return [change_record(r) for r in list(rows)[::-1]]

    async def game_changes(self, game_id: int) -> list[RatingChange]:
        async with self.s._lock, self.s.db.execute(
            f"SELECT {CHANGE_COLUMNS} FROM rating_changes WHERE game_id = ? ORDER BY season_id, user_id", (game_id,)
        ) as cur:
            rows = await cur.fetchall()
        return [change_record(r) for r in rows]

    async def seasons(self, guild_id: int) -> list[Season]:
        async with self.s._lock, self.s.db.execute(
            f"SELECT {SEASON_COLUMNS} FROM seasons WHERE guild_id = ? ORDER BY started_at DESC, id DESC", (guild_id,)
        ) as cur:
            rows = await cur.fetchall()
        return [season_record(r) for r in rows]

    async def start_season(self, guild_id: int, name: str, *, at: float, by: int) -> Season:
        async with self.s._lock:
            await self.s._transaction()
            try:
                async with self.s.db.execute("SELECT 1 FROM seasons WHERE guild_id = ? AND ended_at IS NULL",
                                             (guild_id,)) as cur:
                    running = await cur.fetchone() is not None
                if running:
                    raise SeasonRunning(f"server {guild_id} has a running season")
                cur = await self.s.db.execute(
                    "INSERT INTO seasons (guild_id, name, started_at, ended_at, started_by) VALUES (?, ?, ?, NULL, ?)",
                    (guild_id, name, at, by))
                new_id = cur.lastrowid
                await self.s.db.execute("COMMIT")
            except BaseException:
                await _roll_back(self.s.db)
                raise
        assert new_id is not None
        return Season(new_id, guild_id, name, at, None, by)

    async def end_season(self, guild_id: int, *, at: float) -> Season | None:
        async with self.s._lock, self.s.db.execute(
            f"UPDATE seasons SET ended_at = MAX(?, started_at) WHERE guild_id = ? AND ended_at IS NULL "
            f"RETURNING {SEASON_COLUMNS}", (at, guild_id)
        ) as cur:
            row = await cur.fetchone()
        return season_record(row) if row else None

    async def replace_ratings(self, guild_id: int, season_id: int, ratings: Sequence[Rating],
                              changes: Sequence[RatingChange]) -> None:
        db = self.s.db
        async with self.s._lock:
            await self.s._transaction()
            try:
                await db.execute("DELETE FROM ratings WHERE guild_id = ? AND season_id = ?", (guild_id, season_id))
                await db.execute("DELETE FROM rating_changes WHERE guild_id = ? AND season_id = ?",
                                 (guild_id, season_id))
                await db.executemany(f"INSERT INTO ratings ({RATING_COLUMNS}) VALUES ({', '.join('?' * 14)})",
                                     [rating_values(r) for r in ratings])
                await db.executemany(f"INSERT INTO rating_changes ({CHANGE_COLUMNS}) VALUES ({', '.join('?' * 10)})",
                                     [change_values(c) for c in changes])
                await db.execute("COMMIT")
            except BaseException:
                await _roll_back(db)
                raise

    async def results(self, *, game_id: int | None = None, user_id: int | None = None,
                      guild_id: int | None = None, channel_id: int | None = None, limit: int = 10_000
                      ) -> list[Result]:
        """Result rows matching every filter given, newest game first, seats in finishing order."""
        sql, params = filtered(RESULT_COLUMNS, "results", {"game_id": game_id, "user_id": user_id,
                                                             "guild_id": guild_id, "channel_id": channel_id})
        async with self.s._lock, self.s.db.execute(
            sql + " ORDER BY finished_at DESC, game_id DESC, place, seat LIMIT ?", (*params, limit)
        ) as cur:
            rows = await cur.fetchall()
        return [result_record(r) for r in rows]

    async def server_record(self, guild_id: int) -> list[ServerTally]:
        async with self.s._lock:
            async with self.s.db.execute(SERVER_GAMES_SQL.format(guild="?"), (guild_id,) * 3) as cur:
                games = await cur.fetchall()
            async with self.s.db.execute(SERVER_LEADERS_SQL.format(guild="?"), (guild_id,)) as cur:
                leaders = await cur.fetchall()
        return server_tallies(list(games), list(leaders))

    async def player_record(self, user_id: int, guild_id: int | None = None) -> list[PlayerTally]:
        params = (user_id,) if guild_id is None else (user_id, guild_id)
        async with self.s._lock, self.s.db.execute(player_where(guild_id is not None, lambda _n: "?"), params) as cur:
            rows = await cur.fetchall()
        return [player_tally(r) for r in rows]

    async def ladder(self, guild_id: int, season_id: int = EVERLASTING, size: int = 10) -> list[Rating]:
        async with self.s._lock, self.s.db.execute(LADDER_TOP_SQL.format(guild="?", season="?", size="?"),
                                                   (guild_id, season_id, size)) as cur:
            rows = await cur.fetchall()
        return [rating_record(r) for r in rows]

    async def ranks(self, guild_id: int, season_id: int, user_id: int) -> dict[str, tuple[int, int]]:
        async with self.s._lock, self.s.db.execute(RANKS_SQL.format(guild="?", season="?", user="?"),
                                                   (guild_id, season_id, user_id)) as cur:
            rows = await cur.fetchall()
        return {str(key): (int(rank), int(of)) for key, rank, of in rows}

    async def unrecorded_ends(self, limit: int = 50) -> list[GameRecord]:
        async with self.s._lock, self.s.db.execute(
            f"SELECT {GAME_COLUMNS} FROM games g WHERE status = 'finished' AND state IS NOT NULL AND NOT EXISTS "
            f"(SELECT 1 FROM results r WHERE r.game_id = g.id){self.s._shard_sql('g.guild_id')} ORDER BY id LIMIT ?",
            (limit,)
        ) as cur:
            rows = await cur.fetchall()
        return [game_record(r) for r in rows]


class SqliteChampionships(ChampionshipsStore):
    """Championships and their rounds' games, in the SQLite file
    (``s``: the store)."""

    def __init__(self, s: SqliteStore) -> None:
        self.s = s

    async def create_championship(self, *, guild_id: int | None, channel_id: int, host_id: int, name: str,
                                  game_key: str, rounds: Sequence[Mapping[str, Any]], points: Sequence[int],
                                  options: Mapping[str, Any]) -> Championship:
        now = self.s.now()
        try:
            async with self.s._lock, self.s.db.execute(
                f"INSERT INTO championships (guild_id, channel_id, host_id, name, game_key, rounds, points, options, "
                f"status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING {CHAMPIONSHIP_COLUMNS}",
                (guild_id, channel_id, host_id, name, game_key, dumps([dict(r) for r in rounds]), dumps(list(points)),
                 dumps(dict(options)), CHAMPIONSHIP_RUNNING, now)) as cur:
                row = await cur.fetchone()
        except sqlite3.IntegrityError as exc:
            raise ChampionshipRunning(f"channel {channel_id} has a running championship") from exc
        assert row is not None
        return championship_record(row)

    async def _one(self, sql: str, params: Sequence[Any]) -> Championship | None:
        async with self.s._lock, self.s.db.execute(sql, params) as cur:
            row = await cur.fetchone()
        return championship_record(row) if row else None

    async def championship(self, championship_id: int) -> Championship | None:
        return await self._one(f"SELECT {CHAMPIONSHIP_COLUMNS} FROM championships WHERE id = ?", (championship_id,))

    async def latest_championship(self, channel_id: int) -> Championship | None:
        return await self._one(f"SELECT {CHAMPIONSHIP_COLUMNS} FROM championships WHERE channel_id = ? "
                               f"ORDER BY id DESC LIMIT 1", (channel_id,))

    async def running_championship(self, channel_id: int) -> Championship | None:
        return await self._one(f"SELECT {CHAMPIONSHIP_COLUMNS} FROM championships WHERE channel_id = ? AND "
                               f"status = ?", (channel_id, CHAMPIONSHIP_RUNNING))

    async def running_championships(self) -> list[Championship]:
        async with self.s._lock, self.s.db.execute(
                f"SELECT {CHAMPIONSHIP_COLUMNS} FROM championships WHERE status = ? ORDER BY id",
                (CHAMPIONSHIP_RUNNING,)) as cur:
            return [championship_record(r) for r in await cur.fetchall()]

    async def end_championship(self, championship_id: int) -> bool:
        async with self.s._lock:
            cur = await self.s.db.execute("UPDATE championships SET status = ? WHERE id = ? AND status = ?",
                                          (CHAMPIONSHIP_ENDED, championship_id, CHAMPIONSHIP_RUNNING))
            return cur.rowcount == 1

    async def set_round(self, championship_id: int, number: int, game_id: int) -> None:
        async with self.s._lock:
            await self.s.db.execute(
                "INSERT INTO championship_rounds (championship_id, round, game_id) VALUES (?, ?, ?) "
                "ON CONFLICT (championship_id, round) DO UPDATE SET game_id = excluded.game_id",
                (championship_id, number, game_id))

    async def round_games(self, championship_id: int) -> list[tuple[int, int]]:
        async with self.s._lock, self.s.db.execute(
            "SELECT round, game_id FROM championship_rounds WHERE championship_id = ? ORDER BY round",
            (championship_id,)) as cur:
            return [(int(r[0]), int(r[1])) for r in await cur.fetchall()]

    async def championship_of_game(self, game_id: int) -> tuple[Championship, int] | None:
        cols = ", ".join(f"c.{c.strip()}" for c in CHAMPIONSHIP_COLUMNS.split(","))
        async with self.s._lock, self.s.db.execute(
            f"SELECT {cols}, r.round FROM championship_rounds r JOIN championships c ON c.id = r.championship_id "
            f"WHERE r.game_id = ?", (game_id,)) as cur:
            row = await cur.fetchone()
        return (championship_record(row), int(row[11])) if row else None


__all__ = ["MIGRATIONS", "SqliteStore"]
