"""The two backends' schemas describe the same tables column by column (bot/store/README.md says why the
store keeps two migration lists rather than one)."""

from __future__ import annotations

import os
import uuid

import aiosqlite
import pytest

from bot.store.postgres import PostgresStore, drop_schemas
from bot.store.sqlite import SqliteStore
from tests.bot.conftest import PG_SKIP, TEST_PG

#: SQLite's declared type → the PostgreSQL types it may stand for (ids and Discord snowflakes are BIGINT)
SAME_TYPE = {"INTEGER": {"integer", "bigint"}, "REAL": {"double precision"}, "TEXT": {"text"}}

Column = tuple[str, str, bool, str | None]  # name, type, nullable, default


async def sqlite_columns(path: str) -> dict[str, list[Column]]:
    store = SqliteStore(path)
    await store.open()
    await store.close()
    out: dict[str, list[Column]] = {}
    async with aiosqlite.connect(path) as db:
        async with db.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
                              " AND name != 'schema_version'") as cur:
            tables = [row[0] for row in await cur.fetchall()]
        for table in tables:
            async with db.execute(f"PRAGMA table_info({table})") as cur:
                rows = await cur.fetchall()
            # a primary key column is never null, whatever SQLite's flag says for a rowid alias
            out[table] = [(r[1], r[2], not (r[3] or r[5]), r[4]) for r in rows]
    return out


async def postgres_columns(url: str) -> dict[str, list[Column]]:
    import asyncpg

    schema = f"test_{uuid.uuid4().hex[:16]}"
    store = PostgresStore(url, schema=schema)
    await store.open()
    await store.close()
    con = await asyncpg.connect(url)
    try:
        rows = await con.fetch(
            "SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns"
            " WHERE table_schema = $1 AND table_name != 'schema_version' ORDER BY table_name, ordinal_position",
            schema)
    finally:
        await con.close()
        await drop_schemas(url, schema)
    out: dict[str, list[Column]] = {}
    for r in rows:
        out.setdefault(r["table_name"], []).append(
            (r["column_name"], r["data_type"], r["is_nullable"] == "YES", r["column_default"]))
    return out


def plain_default(value: str | None) -> str | None:
    """A column default without PostgreSQL's casts (``'[]'::text`` → ``'[]'``)."""
    return None if value is None else value.split("::")[0]


@pytest.fixture
def pg_url() -> str:
    if TEST_PG is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{PG_SKIP} (CI runs them; .ci/run sets one up)")
        pytest.skip(PG_SKIP)
    return TEST_PG


async def test_both_backends_have_the_same_tables_and_columns_in_the_same_order(tmp_path, pg_url):
    lite = await sqlite_columns(str(tmp_path / "schema.db"))
    pg = await postgres_columns(pg_url)
    assert sorted(lite) == sorted(pg)
    for table in lite:
        assert [c[0] for c in lite[table]] == [c[0] for c in pg[table]], table


async def test_each_column_has_the_same_type_nullability_and_default_on_both(tmp_path, pg_url):
    lite = await sqlite_columns(str(tmp_path / "schema.db"))
    pg = await postgres_columns(pg_url)
    differ = []
    for table, columns in lite.items():
        for (name, kind, nullable, default), (_, pg_kind, pg_nullable, pg_default) in zip(columns, pg[table],
                                                                                         strict=True):
            identity = pg_default is None and name == "id" and table in ("games", "deliveries", "timers")
            if pg_kind not in SAME_TYPE[kind]:
                differ.append(f"{table}.{name}: {kind} vs {pg_kind}")
            if nullable != pg_nullable:
                differ.append(f"{table}.{name}: nullable {nullable} vs {pg_nullable}")
            if plain_default(default) != plain_default(pg_default) and not identity:
                differ.append(f"{table}.{name}: default {default} vs {pg_default}")
    assert differ == []


async def test_the_comparison_sees_a_column_one_backend_lacks(tmp_path):
    """The check itself: a column added to SQLite alone shows up as a difference of names."""
    path = str(tmp_path / "extra.db")
    await sqlite_columns(path)
    async with aiosqlite.connect(path) as db:
        await db.execute("ALTER TABLE games ADD COLUMN extra TEXT")
        await db.commit()
    columns = await sqlite_columns(path)
    assert columns["games"][-1] == ("extra", "TEXT", True, None)
