"""``junkyard ratings rebuild``: an operator rates games again from their results, one season of a server,
every season of a server or every server, on both stores; bad input is one line and a non-zero exit."""

from __future__ import annotations

import asyncio

import pytest

from bot.commands.ratings import Refused, rebuild_all
from bot.standing import ladder
from bot.store import EVERLASTING, SqliteStore, Store
from tests.bot.test_cli_edges import one_line, place, run  # noqa: F401  (place is a fixture)
from tests.bot.test_ladder import rows_of
from tests.bot.test_store import started

A, B = 5, 9  # two servers


async def play_games(store: Store) -> None:
    """Three rated games on server A (the third in its season #1) and one on server B."""
    plays = [(A, [(1, 1, 0), (2, 2, 0)]), (A, [(2, 1, 0), (3, 2, 0), (1, 3, 0)]), (B, [(1, 1, 0), (3, 2, 0)]),
             (A, [(3, 1, 0), (1, 2, 0)])]
    for i, (guild, order) in enumerate(plays):
        if i == 3:
            await store.standings.start_season(A, "Spring", at=35.0, by=1)
        rec, _ = await started(store, channel=100 + i, guild=guild)
        await store.games.set_status(rec.id, "finished")
        rows = [r.__class__(**{**{f: getattr(r, f) for f in r.__slots__}, "guild_id": guild})
                for r in rows_of(rec.id, 10.0 + 10 * i, order)]
        ratings, changes = await ladder.rate_end(store, rows)
        assert await store.standings.record_results(rec.id, rows, [], ratings, changes)


async def everything(store: Store) -> dict[tuple[int, int], list[tuple[int, float, float, int]]]:
    """Every ladder of both servers: (server, season) → (user, μ, σ, games)."""
    out = {}
    for guild, season in ((A, EVERLASTING), (A, 1), (B, EVERLASTING)):
        out[(guild, season)] = [(r.user_id, round(r.mu, 9), round(r.sigma, 9), r.games)
                                for r in await store.standings.ratings(guild, None, season)]
    return out


async def test_every_season_of_every_server_is_rated_again_as_the_games_rated_it(any_store):
    await play_games(any_store)
    want = await everything(any_store)
    for guild, season in ((A, EVERLASTING), (A, 1), (B, EVERLASTING)):
        await any_store.standings.replace_ratings(guild, season, [], [])  # lost: to be rebuilt
    said: list[str] = []
    assert await rebuild_all(any_store, None, None, said.append) == 3
    assert await everything(any_store) == want
    assert said == ["server 5, all time: rated again from the results (3 games)",
                    "server 5, season Spring (#1): rated again from the results (1 game)",
                    "server 9, all time: rated again from the results (1 game)"]


async def test_one_season_of_one_server_and_refusals(any_store):
    await play_games(any_store)
    want = await everything(any_store)
    await any_store.standings.replace_ratings(A, 1, [], [])
    await any_store.standings.replace_ratings(B, EVERLASTING, [], [])
    said: list[str] = []
    assert await rebuild_all(any_store, A, 1, said.append) == 1
    got = await everything(any_store)
    assert got[(A, 1)] == want[(A, 1)] and got[(B, EVERLASTING)] == []  # only the season asked for
    with pytest.raises(Refused, match="server 5 has no season #4 \\(its seasons: #1; 0 is all time\\)"):
        await rebuild_all(any_store, A, 4)
    with pytest.raises(Refused, match="--season needs --server"):
        await rebuild_all(any_store, None, 1)


def test_the_command_rebuilds_a_sqlite_file_and_says_each_season(place):  # noqa: F811
    async def fill() -> None:
        async with SqliteStore(place / "games.db") as store:
            await play_games(store)
            await store.standings.replace_ratings(A, EVERLASTING, [], [])

    asyncio.run(fill())
    done = run(["ratings", "rebuild", "--db", "games.db", "--server", str(A)], place)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["server 5, all time: rated again from the results (3 games)",
                                        "server 5, season Spring (#1): rated again from the results (1 game)"]


@pytest.mark.parametrize(("args", "said", "code"), [
    (["--season", "1"], "--season needs --server", 2),
    (["--server", "five"], "--server must be a whole number, not 'five'", 2),
    (["--server", "5", "--season", "-1"], "--season must be a whole number, not '-1'", 2),
    (["--server", "5", "--season", "7"], "server 5 has no season #7 (its seasons: none; 0 is all time)", 1),
    (["--db", "missing.db"], "the database missing.db is not there; nothing was rebuilt", 1),
    (["--db", "."], "the database . is a folder, not a database file", 1),
])
def test_bad_input_is_one_line_and_a_non_zero_exit(place, args, said, code):  # noqa: F811
    """A usage mistake exits with 2, what the database lacks with 1 (``bot.commands.EXIT_CODES``)."""
    async def make() -> None:
        async with SqliteStore(place / "games.db"):
            pass

    asyncio.run(make())
    done = run(["ratings", "rebuild", "--db", "games.db", *args], place)
    assert said in one_line(done, "ratings rebuild") and done.returncode == code
    assert not (place / "missing.db").exists()


def test_a_file_that_is_no_database_is_one_line(place):  # noqa: F811
    (place / "notes.db").write_text("not a database")
    done = run(["ratings", "rebuild", "--db", "notes.db"], place)
    assert "is not a SQLite database" in one_line(done, "ratings rebuild") and done.returncode == 1
