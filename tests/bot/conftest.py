"""Fixtures for the bot's tests: the toy game registered for the test, a store on a temporary file."""

from __future__ import annotations

import os
import uuid

import pytest

import bot.games as games
import bot.play.autoplay
from bot.play.service import Service
from bot.store import SqliteStore, Store
from tests.bot.harness import DiscordHarness
from tests.bot.helpers import USERS, make_bot
from tests.bot.speaking import Speaking
from tests.bot.toygame import ToyGame, ToyUnit


@pytest.fixture(autouse=True)
def toy_game():
    """Register the toy game's unit for one test only, through the registry the real games use, so other
    suites never see it."""
    games.register(ToyUnit())
    yield ToyGame
    games.unregister(ToyGame.key)


@pytest.fixture(autouse=True)
def no_computer_time_budget(monkeypatch):
    """Computer moves per reply are bounded by count and by wall-clock time; tests count only, so a busy
    machine never changes what a reply holds."""
    monkeypatch.setattr(bot.play.autoplay, "COMPUTER_SECONDS_PER_REPLY", 3600.0)


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "junkyard.db"


@pytest.fixture
async def store(db_path):
    s = SqliteStore(db_path)
    await s.open()
    yield s
    await s.close()


#: the PostgreSQL server the store's contract tests also run on (a URL); without it they skip
TEST_PG = os.environ.get("JUNKYARD_TEST_PG")
PG_SKIP = "PostgreSQL store tests need JUNKYARD_TEST_PG=postgresql://…"


@pytest.fixture(params=["sqlite", "postgresql"])
async def twin_stores(request, tmp_path):
    """A function opening stores of one backend on one fresh database: two calls are two processes' views
    of it. SQLite: one file. PostgreSQL: a schema of its own in ``JUNKYARD_TEST_PG``, dropped afterwards."""
    opened: list[Store] = []
    schemas: dict[str, str] = {}

    def make(db: str = "main", **kwargs) -> Store:
        """A store (not yet open) on the test's database ``db``: the same name is the same database."""
        if request.param == "sqlite":
            s: Store = SqliteStore(tmp_path / f"contract-{db}.db", **kwargs)
        else:
            if TEST_PG is None:
                if os.environ.get("CI") == "true":
                    pytest.fail(f"{PG_SKIP} (CI runs them; .ci/run sets one up)")
                pytest.skip(PG_SKIP)
            from bot.store.postgres import PostgresStore

            schema = schemas.setdefault(db, f"test_{uuid.uuid4().hex[:16]}")
            s = PostgresStore(TEST_PG, schema=schema, **kwargs)
        opened.append(s)
        return s

    yield make
    for s in opened:
        await s.close()
    if schemas and TEST_PG is not None:
        from bot.store.postgres import drop_schemas

        await drop_schemas(TEST_PG, *schemas.values())


@pytest.fixture
async def any_store(twin_stores):
    """A fresh, open store on each backend (the PostgreSQL one skips without ``JUNKYARD_TEST_PG``)."""
    s = twin_stores()
    await s.open()
    return s


@pytest.fixture
def seeds():
    """Deterministic seeds for new games: 1, 2, 3, …"""
    counter = iter(range(1, 10**6))
    return lambda: next(counter)


@pytest.fixture
async def service(store, seeds):
    """The service, its outcomes read as the message each shows (:mod:`tests.bot.speaking`)."""
    return Speaking(Service(store, seed_source=seeds))


@pytest.fixture
async def h(db_path):
    """The offline Discord harness around a bot on a fresh store, with the test users' names known."""
    async with DiscordHarness(make_bot(db_path)) as harness:
        harness.users.update(USERS)
        yield harness


@pytest.fixture(scope="session")
def discord_spec():
    """Discord's OpenAPI specification (:class:`tests.bot.discord_spec.Spec`), from ``JUNKYARD_DISCORD_SPEC``;
    the tests that need it skip without it."""
    from tests.bot.discord_spec import load, skip_reason, spec_path

    path = spec_path()
    if path is None:
        pytest.skip(skip_reason())
    return load(path)
