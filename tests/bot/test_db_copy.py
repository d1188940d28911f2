"""``junkyard db copy FROM TO``: every game, action and record moves between SQLite and PostgreSQL with its
ids, the copy is checked (rows per table, every game's replay against its snapshot), and a target that
already holds games is refused."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.commands.db import TargetNotEmpty, copy_stores
from bot.store import SqliteStore, Store
from bot.upkeep.consistency import rebuilt
from tests.bot.test_pg_processes import need_pg


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory) -> Path:
    """The database of a finished two-kart, one-lap demo race (the same race every time)."""
    where = tmp_path_factory.mktemp("demo")
    db = where / "demo.db"
    assert main(["demo", "--seats", "2", "--laps", "1", "--seed", "11", "--out", str(where / "out"),
                 "--db", str(db)]) == 0
    return db


async def everything(store: Store) -> dict[str, list[dict[str, Any]]]:
    """Every row of every table the copy moves."""
    return {table: [row async for row in store.rows(table)] for table in store.tables()}


async def replays(store: Store) -> dict[int, dict[str, Any]]:
    """Each started game's state replayed from its action log."""
    out = {}
    async for row in store.rows("games"):
        if row["state"] is not None:
            out[int(row["id"])] = (await rebuilt(store.games, int(row["id"]))).to_dict()
    return out


def test_copy_moves_every_row_and_the_copy_replays(demo_db, tmp_path, capsys):
    target = tmp_path / "copy.db"
    assert main(["db", "copy", str(demo_db), str(target)]) == 0
    out = capsys.readouterr().out
    assert "1 game replays to its snapshot" in out
    asyncio.run(same_race(demo_db, target))


async def same_race(demo_db: Path, target: Path) -> None:
    async with SqliteStore(demo_db) as source, SqliteStore(target) as copy:
        before, after = await everything(source), await everything(copy)
        assert before == after and before["games"][0]["status"] == "finished" and before["actions"]
        assert await replays(copy) == await replays(source)
        # the copied players index finds the race, and a new game gets an id past the copied ones
        [game] = before["games"]
        seat = (await copy.games.get_game(game["id"])).seats[0]
        assert [r.id for r in await copy.games.games_of_user(seat.user_id, "finished")] == [game["id"]]
        rec = await copy.games.create_game(guild_id=1, channel_id=99, game_key="races", host_id=1, setup={}, seed=1)
        assert rec.id > game["id"]


def test_a_target_that_holds_games_is_refused_and_left_as_it_was(demo_db, tmp_path, capsys):
    target = tmp_path / "busy.db"

    async def one_game() -> None:
        async with SqliteStore(target) as busy:
            await busy.games.create_game(guild_id=1, channel_id=5, game_key="races", host_id=1, setup={}, seed=1)

    async def contents() -> dict[str, list[dict[str, Any]]]:
        async with SqliteStore(target) as busy:
            return await everything(busy)

    asyncio.run(one_game())
    before = asyncio.run(contents())
    assert main(["db", "copy", str(demo_db), str(target)]) == 1  # what the target holds: found while running
    err = capsys.readouterr().err
    assert "is not empty (games: 1 rows)" in err and "nothing was copied" in err
    assert asyncio.run(contents()) == before
    assert main(["db", "copy", str(demo_db), str(demo_db)]) == 2  # a usage mistake
    assert "the same database" in capsys.readouterr().err


async def test_the_check_finds_a_copy_that_lost_rows(demo_db, tmp_path, monkeypatch):
    """The check is not a formality: a copy that dropped an action is reported, table and game."""
    async with SqliteStore(demo_db) as source, SqliteStore(tmp_path / "lossy.db") as target:
        insert = target.insert_rows

        async def lossy(table: str, rows: Any) -> int:
            return await insert(table, rows[:-1] if table == "actions" else rows)

        monkeypatch.setattr(target, "insert_rows", lossy)
        report = await copy_stores(source, target)
    assert not report.ok
    assert any(p.startswith("actions: ") for p in report.problems)
    assert any(p.startswith("game ") for p in report.problems), report.problems


async def test_a_demo_race_round_trips_sqlite_postgresql_sqlite(demo_db, tmp_path):
    """SQLite → PostgreSQL → SQLite: the same rows in every table and the same replays at each step."""
    url = need_pg()
    from bot.store.postgres import PostgresStore, drop_schemas

    schema = f"copy_{uuid.uuid4().hex[:12]}"
    pg = PostgresStore(url, schema=schema)
    try:
        async with SqliteStore(demo_db) as source:
            await pg.open()
            there = await copy_stores(source, pg)
            assert there.ok and there.games_checked == 1, there
            back_path = tmp_path / "back.db"
            async with SqliteStore(back_path) as back:
                home = await copy_stores(pg, back)
                assert home.ok and home.rows == there.rows, home
                original = await everything(source)
                assert await everything(pg) == original
                assert await everything(back) == original
                assert await replays(back) == await replays(pg) == await replays(source)
            with pytest.raises(TargetNotEmpty, match="games: 1 rows"):  # PostgreSQL holds the race now
                await copy_stores(source, pg)
            [game] = original["games"]  # a new game on PostgreSQL gets an id past the copied ones
            rec = await pg.games.create_game(guild_id=1, channel_id=99, game_key="races", host_id=1, setup={}, seed=1)
            assert rec.id > game["id"]
    finally:
        await pg.close()
        await drop_schemas(url, schema)
