"""``junkyard db copy FROM TO``: move every game, action and record between databases; ``junkyard db backup
DEST`` and ``junkyard db restore SRC``: a consistent copy of the SQLite file while the bot runs, and back
(:mod:`bot.upkeep.backup`; for PostgreSQL they give the ``pg_dump`` or ``pg_restore`` command to run).

FROM and TO are each a SQLite file or a PostgreSQL URL (``postgresql://user:password@host/db``), so a bot
moves from its embedded file to a shared server, or back. TO must be empty (a new file, or a database
no bot has written to yet): the copy keeps every id, so the buttons and records already out there still
point at the same games. Afterwards the copy is checked: the same number of rows in every table, and
every copied game's replay of its action log equal to its stored snapshot.

FROM must exist (a SQLite file that is not there is refused, never made). Exit codes
(:data:`bot.commands.EXIT_CODES`): 0 copied and checked, 1 a failure while running (a database that is not
there or cannot be opened, a target that is not empty, a check that found a difference), 2 a usage mistake
(the options, FROM and TO the same).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from bot.store import LOBBY, CannotOpen, Store, default_db_path, is_database_url, open_store
from bot.upkeep.consistency import check_consistency

#: rows written in one transaction of the copy
BATCH = 1000


class TargetNotEmpty(Exception):
    """The target database already holds rows: a copy never mixes two bots' games."""


class MissingSource(ValueError):
    """The database to copy is not there (or is a folder): nothing is made in its place."""


@dataclass
class CopyReport:
    """What a copy moved (rows per table) and what its check found."""

    rows: dict[str, int] = field(default_factory=dict)
    games_checked: int = 0
    #: differences between the copy and its source: a failed copy
    problems: list[str] = field(default_factory=list)
    #: games that did not replay to their snapshot in the source either (copied as they were): id → why
    already: dict[int, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="db_command", metavar="ACTION", required=True)
    copy = sub.add_parser("copy", help="copy every game and record from FROM into the empty database TO",
                          description="Copy every game, action and record from FROM into TO (each a SQLite file "
                                      "or a postgresql:// URL), then check counts and replays. TO must be empty.")
    copy.add_argument("source", metavar="FROM", help="the database to copy (SQLite file or postgresql:// URL)")
    copy.add_argument("target", metavar="TO", help="the empty database to fill (SQLite file or postgresql:// URL)")
    db_help = "the bot's database: SQLite file or postgresql:// URL (default: $JUNKYARD_DB or junkyard.db)"
    backup = sub.add_parser("backup", help="copy the database to the new file DEST, also while the bot runs",
                            description="Copy the bot's SQLite database to the new file DEST as it is at one moment, "
                                        "also while the bot plays, and check the copy. For PostgreSQL it gives the "
                                        "pg_dump command to run.")
    backup.add_argument("dest", metavar="DEST", help="the backup file to write (refused if it exists)")
    backup.add_argument("--db", metavar="PATH|URL", default=None, help=db_help)
    backup.add_argument("--force", action="store_true", help="overwrite DEST if it exists")
    restore = sub.add_parser("restore", help="replace the database by the backup SRC (the bot stopped)",
                             description="Replace the bot's SQLite database by the backup SRC, after checking SRC is "
                                         "a whole Junkyard GM database of a schema this version knows. Refused while "
                                         "the database is in use. For PostgreSQL it gives the pg_restore command.")
    restore.add_argument("source", metavar="SRC", help="the backup file to restore")
    restore.add_argument("--db", metavar="PATH|URL", default=None, help=db_help)


async def _count(store: Store, table: str) -> int:
    n = 0
    async for _ in store.rows(table):
        n += 1
    return n


async def copy_rows(source: Store, target: Store, *, progress: Callable[[str], None] = lambda _: None
                    ) -> dict[str, int]:
    """Copy every table of ``source`` into ``target`` (both open; ``target`` empty), in batches."""
    full = {t: n for t in target.tables() if (n := await _count(target, t))}
    if full:
        raise TargetNotEmpty(", ".join(f"{t}: {n} rows" for t, n in full.items()))
    copied: dict[str, int] = {}
    for table in source.tables():
        n = 0
        batch = []
        async for row in source.rows(table, batch=BATCH):
            batch.append(row)
            if len(batch) >= BATCH:
                n += await target.insert_rows(table, batch)
                batch = []
        if batch:
            n += await target.insert_rows(table, batch)
        copied[table] = n
        progress(f"{table}: {n} rows")
    return copied


async def check_copy(source: Store, target: Store, report: CopyReport) -> None:
    """Count the rows of every table on both sides and replay every copied game against its snapshot."""
    for table in source.tables():
        have, want = await _count(target, table), await _count(source, table)
        if have != want:
            report.problems.append(f"{table}: {want} rows in the source, {have} in the copy")
    async for row in target.rows("games"):
        game_id = int(row["id"])
        if row.get("status") == LOBBY and row.get("state") is None:
            continue
        report.games_checked += 1
        try:
            await check_consistency(target.games, game_id)
        except Exception as exc:
            try:
                await check_consistency(source.games, game_id)
            except Exception as before:
                report.already[game_id] = str(before)  # so it was in the source: not the copy's doing
                continue
            report.problems.append(f"game {game_id}: {exc}")


async def copy_stores(source: Store, target: Store, *, progress: Callable[[str], None] = lambda _: None
                      ) -> CopyReport:
    """Copy the open store ``source`` into the open, empty store ``target`` and check the copy."""
    report = CopyReport()
    report.rows = await copy_rows(source, target, progress=progress)
    await check_copy(source, target, report)
    return report


async def copy_database(source_url: str, target_url: str, *, progress: Callable[[str], None] = lambda _: None
                        ) -> CopyReport:
    """Copy the database at ``source_url`` into the empty one at ``target_url`` and check the copy."""
    if source_url == target_url:
        raise ValueError("FROM and TO are the same database")
    if source_url != ":memory:" and not is_database_url(source_url) and not Path(source_url).is_file():
        what = "a folder, not a database file" if Path(source_url).is_dir() else "not there"
        raise MissingSource(f"the database to copy, {source_url}, is {what}; nothing was copied")
    async with open_store(source_url) as source, open_store(target_url) as target:
        return await copy_stores(source, target, progress=progress)


def run(args: argparse.Namespace) -> int:
    if args.db_command in ("backup", "restore"):
        return run_backup(args)
    return run_copy(args)


def run_backup(args: argparse.Namespace) -> int:
    """``db backup DEST`` and ``db restore SRC``: one line on standard output when done, else one on standard
    error and exit code 1 (for PostgreSQL: the command to run, and exit code 2, as this one does not apply)."""
    from bot.commands import FAILED, USAGE
    from bot.upkeep import backup

    where = args.db if args.db is not None else default_db_path()
    name = f"junkyard db {args.db_command}"
    if is_database_url(where):
        command = (backup.pg_dump_command(where, args.dest) if args.db_command == "backup"
                   else backup.pg_restore_command(where, args.source))
        print(f"{name}: PostgreSQL keeps its own backups; run (the password from PGPASSWORD or ~/.pgpass): "
              f"{command}", file=sys.stderr)
        return USAGE
    try:
        if args.db_command == "backup":
            done = backup.backup(where, args.dest, force=args.force)
            print(f"backed up {where} to {done.path}: {done}")
        else:
            done = backup.restore(args.source, where)
            print(f"restored {args.source} into {where}: {done}")
    except backup.BackupError as exc:
        print(f"{name}: {exc}", file=sys.stderr)
        return FAILED
    return 0


def run_copy(args: argparse.Namespace) -> int:
    from bot.commands import FAILED, USAGE
    from bot.commands.bot import shown_db

    source, target = shown_db(args.source), shown_db(args.target)
    begun: list[str] = []

    def progress(line: str) -> None:
        if not begun:  # once both databases opened: a refusal before it is one line alone
            begun.append(line)
            print(f"copying {source} → {target}", file=sys.stderr)
        print(f"  {line}", file=sys.stderr)

    try:
        report = asyncio.run(copy_database(args.source, args.target, progress=progress))
    except TargetNotEmpty as exc:
        print(f"junkyard db copy: {target} is not empty ({exc}); nothing was copied. Copy into a new SQLite file "
              f"or an empty PostgreSQL database.", file=sys.stderr)
        return FAILED
    except (MissingSource, CannotOpen) as exc:
        print(f"junkyard db copy: {exc}", file=sys.stderr)
        return FAILED
    except ValueError as exc:
        print(f"junkyard db copy: {exc}", file=sys.stderr)
        return USAGE
    for game_id, why in report.already.items():
        print(f"  game {game_id} did not replay in {source} either ({why}); copied as it was", file=sys.stderr)
    if not report.ok:
        for problem in report.problems:
            print(f"junkyard db copy: {problem}", file=sys.stderr)
        return FAILED
    total = sum(report.rows.values())
    games = report.games_checked
    checked = "1 game replays to its snapshot" if games == 1 else f"{games} games replay to their snapshots"
    print(f"copied {total} rows ({', '.join(f'{t} {n}' for t, n in report.rows.items())}); {checked}")
    return 0
