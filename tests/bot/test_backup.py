"""``junkyard db backup`` and ``db restore``: a backup taken while a real bot process plays races into the
database is one consistent moment of it (SQLite's integrity check passes, every game's snapshot equals the
replay of its log, and its log is the start of the source's), a restore of it holds exactly its rows, a
restore into a database in use is refused, and PostgreSQL gets the command to run in one line."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.store import SqliteStore
from bot.store.sqlite import MIGRATIONS
from bot.upkeep.backup import BackupError, backup, restore
from bot.upkeep.consistency import check_consistency

ROOT = Path(__file__).resolve().parents[2]


def playing(tmp: Path, games: int) -> subprocess.Popen[bytes]:
    """A process playing ``games`` one-lap races through the service into ``tmp/game.db``."""
    cmd = [sys.executable, "-m", "tests.bot.crash_child", str(tmp / "game.db"), str(tmp / "posts.db"),
           str(tmp / "acks.txt"), "--games", str(games)]
    return subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONHASHSEED": "0"})


def actions_stored(db: Path) -> int:
    if not db.exists():
        return 0
    con = sqlite3.connect(db, timeout=5)
    try:
        return int(con.execute("SELECT COUNT(*) FROM actions").fetchone()[0])
    except sqlite3.OperationalError:
        return 0
    finally:
        con.close()


async def everything(path: Path) -> dict[str, list[dict[str, Any]]]:
    async with SqliteStore(path) as store:
        return {table: [row async for row in store.rows(table)] for table in store.tables()}


async def consistent(path: Path) -> int:
    """Every started game of the database replays to its snapshot; how many were checked."""
    async with SqliteStore(path) as store:
        checked = 0
        async for row in store.rows("games"):
            if row["state"] is not None:
                await check_consistency(store.games, int(row["id"]))
                checked += 1
        return checked


def test_a_backup_taken_while_a_bot_plays_is_one_consistent_moment(tmp_path):
    proc = playing(tmp_path, games=3)
    source = tmp_path / "game.db"
    backups: list[Path] = []
    try:
        deadline = time.monotonic() + 60
        while actions_stored(source) < 5 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        for n in range(4):
            if proc.poll() is not None:
                break
            dest = tmp_path / f"backup-{n}.db"
            assert main(["db", "backup", str(dest), "--db", str(source)]) == 0
            backups.append(dest)
            if n == 0:  # the bot holds the database open: a restore into it is refused and changes nothing
                with pytest.raises(BackupError, match="in use"):
                    restore(str(dest), str(source))
            time.sleep(0.3)
    finally:
        _, err = proc.communicate(timeout=180)
    assert proc.returncode == 0, err.decode()[-2000:]
    assert backups, "the races ended before a backup was taken"
    final = asyncio.run(everything(source))
    later = {int(g["id"]): g for g in final["games"]}
    logs = {(a["game_id"], a["idx"]): a for a in final["actions"]}
    for dest in backups:
        con = sqlite3.connect(dest)
        assert con.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        con.close()
        assert asyncio.run(consistent(dest)) >= 1
        taken = asyncio.run(everything(dest))
        # the log is append-only here, so the backup's is the start of the source's, and each game's version
        # counts its own actions: nothing of a half-written move
        for action in taken["actions"]:
            assert logs[(action["game_id"], action["idx"])] == action
        for game in taken["games"]:
            mine = [a for a in taken["actions"] if a["game_id"] == game["id"]]
            assert len(mine) == (game["version"] if game["state"] is not None else 0)
            assert later[int(game["id"])]["version"] >= game["version"]
        restored = tmp_path / f"restored-{dest.name}"
        assert main(["db", "restore", str(dest), "--db", str(restored)]) == 0
        assert asyncio.run(everything(restored)) == taken
    # the first backup was taken mid-play: the bot stored more after it
    assert len(asyncio.run(everything(backups[0]))["actions"]) < len(final["actions"])


@pytest.fixture()
def small_db(tmp_path) -> Path:
    db = tmp_path / "small.db"
    assert main(["demo", "--seats", "2", "--laps", "1", "--seed", "5", "--out", str(tmp_path / "out"),
                 "--db", str(db)]) == 0
    return db


def test_backup_refuses_an_existing_file_unless_forced(small_db, tmp_path, capsys):
    dest = tmp_path / "b.db"
    dest.write_text("keep me")
    assert main(["db", "backup", str(dest), "--db", str(small_db)]) == 1
    err = capsys.readouterr().err.strip()
    assert err == f"junkyard db backup: {dest} already exists; nothing was written (--force overwrites it)"
    assert dest.read_text() == "keep me"
    assert main(["db", "backup", str(dest), "--db", str(small_db), "--force"]) == 0
    assert "1 game, " in capsys.readouterr().out
    assert asyncio.run(everything(dest)) == asyncio.run(everything(small_db))
    assert not list(tmp_path.glob(".b.db.*"))  # no partial file left beside it


def test_restore_checks_the_backup_first(small_db, tmp_path, capsys):
    target = tmp_path / "live.db"
    assert main(["db", "backup", str(target), "--db", str(small_db)]) == 0
    before = target.read_bytes()
    newer = tmp_path / "newer.db"
    backup(str(small_db), str(newer))
    con = sqlite3.connect(newer)
    con.execute("UPDATE schema_version SET version = ?", (len(MIGRATIONS) + 1,))
    con.commit()
    con.close()
    other = tmp_path / "other.db"
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE notes (text TEXT)")
    con.commit()
    con.close()
    junk = tmp_path / "junk.db"
    junk.write_text("not a database")
    capsys.readouterr()
    for bad, why in ((newer, "newer than this version"), (other, "not a Junkyard GM database"),
                     (junk, "not a SQLite database"), (tmp_path / "gone.db", "is not there")):
        assert main(["db", "restore", str(bad), "--db", str(target)]) == 1
        err = capsys.readouterr().err
        assert why in err and err.count("\n") == 1, err
    assert target.read_bytes() == before


def test_postgres_gets_the_command_to_run_without_the_password(capsys):
    url = "postgresql://junkyard:s3cret@db.example:5432/junkyard"
    assert main(["db", "backup", "jy.dump", "--db", url]) == 2
    err = capsys.readouterr().err
    assert "s3cret" not in err and err.count("\n") == 1
    assert "pg_dump --format=custom --file='jy.dump' 'postgresql://junkyard@db.example:5432/junkyard'" in err
    assert main(["db", "restore", "jy.dump", "--db", url]) == 2
    err = capsys.readouterr().err
    assert "s3cret" not in err and "pg_restore --clean --if-exists --no-owner" in err
