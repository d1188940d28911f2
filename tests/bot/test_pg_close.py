"""A PostgreSQL store always closes: a connection taken from its pool and never given back (a task cancelled at a
bad moment leaves one) is cut after a short wait, instead of keeping the close, and the process or the test run,
waiting for ever."""

from __future__ import annotations

import asyncio
import os
import uuid

import asyncpg
import pytest

from bot.store import postgres
from tests.bot.conftest import PG_SKIP, TEST_PG


@pytest.fixture
def pg_url() -> str:
    if TEST_PG is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{PG_SKIP} (CI runs them; .ci/run sets one up)")
        pytest.skip(PG_SKIP)
    return TEST_PG


async def test_a_connection_never_given_back_does_not_keep_the_store_from_closing(pg_url, monkeypatch):
    monkeypatch.setattr(postgres, "CLOSE_SECONDS", 0.5)
    schema = f"test_{uuid.uuid4().hex[:16]}"
    store = postgres.PostgresStore(pg_url, schema=schema)
    await store.open()
    try:
        taken = await store.pool.acquire()
        await taken.execute("BEGIN; LOCK TABLE games IN ACCESS EXCLUSIVE MODE")  # held, as a cut-off move leaves it
        await asyncio.wait_for(store.close(), 20)  # without the cut: for ever
        other = await asyncpg.connect(pg_url, server_settings={"lock_timeout": "5s", "search_path": schema})
        try:  # the cut connection's transaction is gone with its locks
            await other.execute("BEGIN; LOCK TABLE games IN ACCESS EXCLUSIVE MODE; ROLLBACK")
        finally:
            await other.close()
    finally:
        await postgres.drop_schemas(pg_url, schema)
