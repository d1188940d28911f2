"""The command line's edges, in real processes: every bad input is one clear line on standard error and a
non-zero exit, never a traceback; ``junkyard bot`` checks its database before it logs in, says in one line
when Discord cannot be reached, and starts quietly."""

from __future__ import annotations

import os
import socket
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.store.sqlite import MIGRATIONS

ROOT = Path(__file__).resolve().parents[2]
#: a hang guard only: every command here ends in a second or two
LIMIT = 120


def run(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``junkyard ARGS`` in a child process (see :mod:`tests.bot.cli_child`), nothing on its input."""
    environment = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "JUNKYARD_DB")}
    environment.update(env, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "tests.bot.cli_child", *args], cwd=cwd, env=environment,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=LIMIT)


def one_line(done: subprocess.CompletedProcess[str], command: str) -> str:
    """The single line the command said on standard error (and that it failed and printed no traceback)."""
    assert done.returncode != 0, done
    assert "Traceback" not in done.stderr, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"junkyard {command}: "), lines[0]
    return lines[0]


def closed_port() -> str:
    """Discord's API address on a port of this machine nobody listens on."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/api/v10"


@pytest.fixture
def place() -> Iterator[Path]:
    """A folder every user may use (the unreadable-file case runs as ``nobody``)."""
    folder = Path(tempfile.mkdtemp(prefix="junkyard-cli-"))
    folder.chmod(0o777)
    yield folder
    for path in sorted(folder.rglob("*"), reverse=True):
        path.chmod(0o700)
        path.rmdir() if path.is_dir() else path.unlink()
    folder.rmdir()


def bad_database(place: Path, case: str) -> tuple[str, str]:
    """A database path of one kind of wrong, and what the one line must say about it."""
    if case == "missing folder":
        return str(place / "no" / "such" / "games.db"), "does not exist"
    if case == "not a database":
        (place / "notes.db").write_text("shopping list\n")
        return "notes.db", "is not a SQLite database"
    if case == "directory":
        (place / "games").mkdir()
        return "games", "is a folder, not a database file"
    if case == "unreadable":
        path = place / "secret.db"
        sqlite3.connect(path).close()
        path.chmod(0)
        return "secret.db", "cannot read the database secret.db"
    if case == "newer schema":
        with sqlite3.connect(place / "future.db") as con:
            con.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
            con.execute("INSERT INTO schema_version VALUES (?)", (len(MIGRATIONS) + 3,))
        return "future.db", f"is at schema {len(MIGRATIONS) + 3}, newer than this version"
    if case == "another program's":
        with sqlite3.connect(place / "other.db") as con:
            con.execute("CREATE TABLE recipes (name TEXT)")
        return "other.db", "SQLite database of some other program"
    raise AssertionError(case)


CASES = ["missing folder", "not a database", "directory", "unreadable", "newer schema", "another program's"]


@pytest.mark.parametrize("case", CASES)
def test_junkyard_play_with_a_bad_database_says_so_in_one_line(place, case):
    db, said = bad_database(place, case)
    env = {"JUNKYARD_CHILD_UNPRIVILEGED": "1"} if case == "unreadable" else {}
    done = run(["play", "--db", db, "--out", str(place / "out")], place, **env)
    assert said in one_line(done, "play")


@pytest.mark.parametrize("case", ["missing folder", "not a database", "newer schema"])
def test_the_other_commands_with_a_bad_database_say_so_in_one_line(place, case):
    db, said = bad_database(place, case)
    assert said in one_line(run(["demo", "--db", db, "--out", "out"], place), "demo")
    copy = one_line(run(["db", "copy", db, "copy.db"], place), "db copy")
    assert (said if case != "missing folder" else "is not there") in copy
    assert not (place / "copy.db").exists()


def test_db_copy_refuses_a_source_that_does_not_exist_and_makes_none(place):
    line = one_line(run(["db", "copy", "missing.db", "copy.db"], place), "db copy")
    assert "missing.db, is not there" in line
    assert not (place / "missing.db").exists() and not (place / "copy.db").exists()


@pytest.mark.parametrize("case", ["not a database", "directory", "newer schema"])
def test_the_bot_checks_its_database_before_it_logs_in(place, case):
    """Discord is unreachable here too: the line is about the database, so it was checked first."""
    db, said = bad_database(place, case)
    done = run(["bot", "--db", db], place, DISCORD_TOKEN="abc.def", JUNKYARD_CHILD_DISCORD=closed_port())
    assert said in one_line(done, "bot")
    assert done.returncode == 1  # a database it cannot use: a failure while running


def test_the_bot_says_in_one_line_when_discord_cannot_be_reached(place):
    done = run(["bot", "--db", "games.db", "--log-level", "WARNING"], place, DISCORD_TOKEN="abc.def",
               JUNKYARD_CHILD_DISCORD=closed_port())
    assert "cannot reach Discord" in one_line(done, "bot")
    assert done.returncode == 1


def test_sync_says_in_one_line_when_discord_cannot_be_reached(place):
    done = run(["sync"], place, DISCORD_TOKEN="abc.def", JUNKYARD_CHILD_DISCORD=closed_port())
    assert "cannot reach Discord" in one_line(done, "sync")


def test_the_bot_starts_quietly_with_what_an_operator_needs(place):
    """Version, store and shards before it logs in; nothing about voice support, which a game bot never
    uses (discord.py warns that PyNaCl and davey are missing; the standard library, that audioop is
    deprecated)."""
    done = run(["bot", "--db", "games.db", "--shard-count", "2", "--picture-processes", "0"], place,
               DISCORD_TOKEN="abc.def", JUNKYARD_CHILD_DISCORD=closed_port(), PYTHONWARNINGS="default")
    err = done.stderr
    assert "Junkyard GM " in err and "discord.py" in err
    assert "store: SQLite games.db, schema" in err
    assert "shards: 0,1 of 2" in err
    assert "games: Junkyard Races" in err
    for noise in ("voice", "PyNaCl", "davey", "audioop"):
        assert noise not in err, err
