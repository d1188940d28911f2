"""Backing up and restoring a SQLite database while the bot may run (``junkyard db backup``, ``db restore``).

A backup goes through SQLite's online backup API in one step: it reads the source inside one read
transaction, so a bot writing in WAL mode at the same time neither waits nor leaves a half-written game in
the copy. The copy is written beside its destination under a temporary name, checked
(``PRAGMA integrity_check``) and renamed into place, so an interrupted backup never leaves a broken file
under the name asked for. A restore first checks that the file to restore is a Junkyard GM database of a
schema this version knows, then refuses a target another process holds open (a running bot), and copies
through the same API while it holds the target locked. PostgreSQL has its own tools: for it these
functions give the ``pg_dump`` and ``pg_restore`` commands to run instead.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path

from bot.store.records import newer_schema


class BackupError(Exception):
    """A backup or restore that could not be done; its message is the one line to show."""


@dataclass(frozen=True)
class Copied:
    """What a backup or restore wrote: where, the schema, and how many games and actions it holds."""

    path: str
    schema: int
    games: int
    actions: int

    def __str__(self) -> str:
        games = "1 game" if self.games == 1 else f"{self.games} games"
        actions = "1 action" if self.actions == 1 else f"{self.actions} actions"
        return f"schema {self.schema}, {games}, {actions}; integrity ok"


def known_schema() -> int:
    """The newest schema this version of Junkyard GM knows (the number of SQLite migrations)."""
    from bot.store.sqlite import MIGRATIONS

    return len(MIGRATIONS)


def _connect(path: str, *, timeout: float = 5.0) -> sqlite3.Connection:
    try:
        return sqlite3.connect(path, isolation_level=None, timeout=timeout)
    except sqlite3.Error as exc:
        raise BackupError(f"cannot open {path}: {exc}") from None


def junkyard_schema(db: sqlite3.Connection, where: str) -> int:
    """The schema of the Junkyard GM database open on ``db``; :class:`BackupError` if it is none, or newer
    than this version knows."""
    try:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        row = db.execute("SELECT version FROM schema_version").fetchone() if "schema_version" in tables else None
    except sqlite3.DatabaseError:
        raise BackupError(f"{where} is not a SQLite database (a file of some other kind?)") from None
    if row is None or "games" not in tables or "actions" not in tables:
        raise BackupError(f"{where} is not a Junkyard GM database (none of its tables)")
    if int(row[0]) > known_schema():
        raise BackupError(newer_schema(where, int(row[0]), known_schema()))
    return int(row[0])


def _checked(db: sqlite3.Connection, where: str) -> Copied:
    """Check the database on ``db`` whole (``integrity_check``) and count what it holds."""
    try:
        problems = [r[0] for r in db.execute("PRAGMA integrity_check")]
    except sqlite3.DatabaseError:
        raise BackupError(f"{where} is not a SQLite database (a file of some other kind?)") from None
    if problems != ["ok"]:
        raise BackupError(f"{where} failed SQLite's integrity check: {'; '.join(problems[:3])}")
    schema = junkyard_schema(db, where)
    games = int(db.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    actions = int(db.execute("SELECT COUNT(*) FROM actions").fetchone()[0])
    return Copied(where, schema, games, actions)


def _existing_file(path: str, what: str) -> None:
    if Path(path).is_dir():
        raise BackupError(f"{what} {path} is a folder, not a database file")
    if not Path(path).is_file():
        raise BackupError(f"{what} {path} is not there")


def backup(source: str, dest: str, *, force: bool = False) -> Copied:
    """Copy the SQLite database ``source`` (in use or not) to the new file ``dest``, consistent as of one
    moment, and check the copy. ``dest`` existing is refused unless ``force``."""
    _existing_file(source, "the database")
    target = Path(dest)
    if target.is_dir():
        raise BackupError(f"{dest} is a folder; name the backup file, such as {target / 'junkyard-backup.db'}")
    if target.exists() and not force:
        raise BackupError(f"{dest} already exists; nothing was written (--force overwrites it)")
    if not target.parent.is_dir():
        raise BackupError(f"cannot write {dest}: the folder {target.parent} does not exist")
    src = _connect(source)
    try:
        junkyard_schema(src, source)
        fd, partial = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".partial", dir=target.parent)
        os.close(fd)
        try:
            out = _connect(partial)
            try:
                src.backup(out)  # every page in one step: one read transaction, one moment of the source
                copied = _checked(out, dest)
            finally:
                out.close()
            os.replace(partial, target)
        except BaseException:
            Path(partial).unlink(missing_ok=True)
            raise
    except sqlite3.Error as exc:
        raise BackupError(f"backing up {source} failed: {exc}") from None
    finally:
        src.close()
    return copied


def _hold(target: str) -> sqlite3.Connection:
    """A connection holding ``target`` locked against every other: :class:`BackupError` when another
    process has it open (a running bot keeps its connection open, so it is seen even while idle)."""
    db = _connect(target, timeout=0.2)
    try:
        db.execute("PRAGMA locking_mode = EXCLUSIVE")
        db.execute("BEGIN EXCLUSIVE")
        db.execute("COMMIT")  # in exclusive locking mode the lock stays until the connection closes
    except sqlite3.OperationalError:
        db.close()
        raise BackupError(f"{target} is in use (is the bot running?); stop every process using it, then restore "
                          "again; nothing was changed") from None
    except sqlite3.DatabaseError:
        db.close()
        raise BackupError(f"{target} is not a SQLite database; nothing was changed") from None
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if tables and "schema_version" not in tables:
        db.close()
        raise BackupError(f"{target} is a SQLite database of some other program; nothing was changed")
    return db


def restore(source: str, target: str) -> Copied:
    """Replace the SQLite database ``target`` by the backup ``source``, once ``source`` proved a whole Junkyard
    GM database of a schema this version knows and nothing else holds ``target`` open."""
    _existing_file(source, "the backup")
    if Path(target).is_dir():
        raise BackupError(f"{target} is a folder, not a database file")
    if not Path(target).parent.is_dir():
        raise BackupError(f"cannot write {target}: the folder {Path(target).parent} does not exist")
    if Path(source).resolve() == Path(target).resolve():
        raise BackupError("the backup and the database to restore into are the same file")
    src = _connect(source)
    try:
        _checked(src, source)
        out = _hold(target)
        try:
            src.backup(out)
            copied = _checked(out, target)
        finally:
            out.close()
    except sqlite3.Error as exc:
        raise BackupError(f"restoring {source} into {target} failed: {exc}") from None
    finally:
        src.close()
    return copied


def _without_password(url: str) -> str:
    """The URL without its password (``pg_dump`` reads that from ``PGPASSWORD`` or ``~/.pgpass``)."""
    scheme, sep, rest = url.partition("://")
    if not sep or "@" not in rest:
        return url
    auth, _, host = rest.rpartition("@")
    return f"{scheme}://{auth.split(':', 1)[0]}@{host}"


def _quoted(word: str) -> str:
    return "'" + word.replace("'", "'\"'\"'") + "'"


def pg_dump_command(url: str, dest: str) -> str:
    """The command that backs up the PostgreSQL database at ``url`` into ``dest`` (the password left out)."""
    return f"pg_dump --format=custom --file={_quoted(dest)} {_quoted(_without_password(url))}"


def pg_restore_command(url: str, source: str) -> str:
    """The command that restores the ``pg_dump`` file ``source`` into the database at ``url`` (no password)."""
    return f"pg_restore --clean --if-exists --no-owner --dbname={_quoted(_without_password(url))} {_quoted(source)}"


__all__ = ["BackupError", "Copied", "backup", "junkyard_schema", "known_schema", "pg_dump_command",
           "pg_restore_command", "restore"]
