"""Crash test of a championship: a real bot process (:mod:`tests.bot.champ_crash_child`) runs a three-round
championship of each racing game through the Discord commands and presses, and is killed with SIGKILL inside a
round (a move stored, not delivered), between a round's final move and its results, between rounds (its table
out, ``next`` not asked yet) and inside ``next`` (the round's lobby opened, not recorded as the round); each
time restarted, it runs on to the end. Then every message of the channel is checked: each delivery record was
shown once, and each round's table was posted exactly once, in the channel's language (Junkyard Races in a
German channel, a team championship; Schrottplatz Rally in an English one), with the right points: places
scored 10 6 3 1, each driver's worst round struck, Bob's round 2 played by the autopilot scoring nothing, the
teams' points the sums of their drivers' kept points (R13). Both stores: SQLite, and PostgreSQL with
``JUNKYARD_TEST_PG``."""

from __future__ import annotations

import itertools
import json
import os
import signal
import sqlite3
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.store import SqliteStore, Store
from rules.literal import bare
from tests.bot.test_championship_run import charts, totals_of

ROOT = Path(__file__).resolve().parents[2]
CHANNEL = 700_000_000_000_000_001
BOB = 222_000_000_000_000_002
POINTS = (10, 6, 3, 1)
HEADS = {"en": ("the table after round {n} of 3", "the final table after round 3 of 3"),
         "de": ("die Tabelle nach Runde {n} von 3", "die Endtabelle nach Runde 3 von 3")}
#: where each run is killed (each kind once per game, in different rounds: the slow set stays short)
PLANS = {"races": ["commit:15", "end:1", "table:1", "next:2", "end:3"],
         "rally": ["end:1", "commit:20", "table:2", "next:3"]}


@pytest.fixture(params=["sqlite", "postgresql"])
async def backend(request: pytest.FixtureRequest, tmp_path: Path
                  ) -> AsyncIterator[tuple[list[str], Callable[[], Store]]]:
    """The child's store options and a maker of the parent's view of the same database."""
    if request.param == "sqlite":
        yield [], lambda: SqliteStore(tmp_path / "game.db")
        return
    url = os.environ.get("JUNKYARD_TEST_PG")
    if not url:
        pytest.skip("PostgreSQL store tests need JUNKYARD_TEST_PG=postgresql://…")
    from bot.store.postgres import PostgresStore, drop_schemas

    schema = f"champ_{uuid.uuid4().hex[:12]}"
    yield ["--pg", url, "--schema", schema], lambda: PostgresStore(url, schema=schema)
    await drop_schemas(url, schema)


def run(tmp: Path, game: str, lang: str, store_args: list[str], *extra: str) -> int:
    cmd = [sys.executable, "-m", "tests.bot.champ_crash_child", str(tmp / "game.db"), str(tmp / "ledger.db"),
           str(tmp / "acks.txt"), "--game", game, "--lang", lang, *store_args, *extra]
    proc = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=600,
                          env={**os.environ, "PYTHONHASHSEED": "0"})
    assert proc.returncode in (0, -signal.SIGKILL), proc.stderr.decode()[-3000:]
    return proc.returncode


def shown(tmp: Path) -> dict[int, tuple[str | None, dict[str, Any]]]:
    with sqlite3.connect(tmp / "ledger.db") as ledger:
        return {mid: (nonce, json.loads(raw)) for mid, nonce, raw in ledger.execute(
            "SELECT id, nonce, message FROM messages")}


async def check(tmp: Path, make: Callable[[], Store]) -> int:
    """Every acknowledged move is stored, every record delivered and shown once; returns the moves stored."""
    acks = [line.split(" ", 2) for line in (tmp / "acks.txt").read_text().splitlines()] \
        if (tmp / "acks.txt").exists() else []
    async with make() as store:
        games = await store.games.channel_history(CHANNEL, 10)
        logs = {g.id: await store.games.actions(g.id) for g in games}
        records = await store.outbox.deliveries()
    for game_id, index, action in acks:
        assert logs[int(game_id)][int(index)].action == action, (game_id, index, action)
    messages = shown(tmp)
    assert all(d.delivered for d in records), [d for d in records if not d.delivered]
    by_nonce = {nonce: mid for mid, (nonce, _) in messages.items()}
    assert len(by_nonce) == len(messages) and None not in by_nonce  # each nonce posted once
    assert set(by_nonce) <= {f"jy-{d.id}" for d in records}  # no public message without its record
    for d in records:
        if d.kind in ("post", "note"):
            assert d.message_id == by_nonce.get(f"jy-{d.id}"), d
    return sum(len(log) for log in logs.values())


def expected(rounds: list[list[Any]]) -> tuple[dict[str, int], dict[int, int]]:
    """Each driver's total and each team's after ``rounds`` (result rows), worked out here: places score
    :data:`POINTS`, Bob scores nothing in round 2 (the autopilot's), each driver's worst round is struck (the
    earliest of equals), a team's round is the sum of its drivers' kept rounds."""
    names = {r.user_id: r.name for rows in rounds for r in rows}
    scores: dict[int, list[int]] = {u: [0] * len(rounds) for u in names}
    for i, rows in enumerate(rounds):
        for r in rows:
            scores[r.user_id][i] = 0 if (i == 1 and r.user_id == BOB) else \
                (POINTS[r.place - 1] if r.place <= len(POINTS) else 0)
    kept: dict[int, list[int]] = {}
    for u, s in scores.items():
        struck = sorted(range(len(s)), key=lambda i: (s[i], i))[:min(1, len(s) - 1)]
        kept[u] = [0 if i in struck else v for i, v in enumerate(s)]
    teams: dict[int, int] = {}
    for i, rows in enumerate(rounds):
        for r in rows:
            if r.team is not None:
                teams[r.team] = teams.get(r.team, 0) + kept[r.user_id][i]
    return {names[u]: sum(k) for u, k in kept.items()}, teams


async def check_tables(tmp: Path, make: Callable[[], Store], lang: str, teams: bool) -> None:
    """Each round's table was shown exactly once, in ``lang``, with the right points."""
    texts = [bare(m["content"]) for _, m in shown(tmp).values() if "Crash Cup" in m.get("content", "")
             and ("🏁" in m["content"] or "🏆" in m["content"])]
    async with make() as store:
        champ = (await store.championships.championship_of_game(
            (await store.games.channel_history(CHANNEL, 1))[0].id))
        assert champ is not None
        rounds = [sorted(await store.standings.results(game_id=g), key=lambda r: r.place)
                  for _, g in await store.championships.round_games(champ[0].id)]
        round_games = [g for _, g in await store.championships.round_games(champ[0].id)]
        pictured = [await charts(store, g) for g in round_games]
    assert len(rounds) == 3 and all(rounds)
    head, final = HEADS[lang]
    assert len(texts) == 3, texts  # each table shown once
    for n, (text, posted) in enumerate(zip(texts, pictured, strict=True), start=1):
        assert (head.format(n=n) if n < 3 else final) in text, text
        assert len(posted) == 1, posted  # one table record per round, with the picture's value
        words, chart = posted[0]
        assert (head.format(n=n) if n < 3 else final) in words, words
        drivers, team_points = expected(rounds[:n])
        assert totals_of(chart) == drivers, chart
        positions = [(line[0], line[2]) for line in chart["drivers"]]
        assert positions[0][0] == 1 and all(  # best first; more points never behind, level ones may share
            a[0] <= b[0] and a[1] >= b[1] and (a[0] < b[0] or a[1] == b[1])
            for a, b in itertools.pairwise(positions)), chart
        cells = [cell for line in chart["drivers"] for cell in line[4]]
        assert any(cell[3] for cell in cells) == (n >= 2), chart  # Bob's autopilot round
        assert any(cell[2] for cell in cells) == (n >= 2), chart  # a dropped round once there are two
        if teams:
            assert {int(name.rsplit(" ", 1)[1]): points for _, name, points, *_ in chart["teams"]} == team_points, chart


@pytest.mark.slow
@pytest.mark.parametrize(("game", "lang"), [("races", "de"), ("rally", "en")])
async def test_a_championship_killed_in_and_between_its_rounds_posts_each_table_once(
        tmp_path: Path, backend: tuple[list[str], Callable[[], Store]], game: str, lang: str) -> None:
    store_args, make = backend
    moves = 0
    for plan in [*PLANS[game], "finish"]:
        extra = [] if plan == "finish" else ["--crash-at", plan]
        code = run(tmp_path, game, lang, store_args, *extra)
        if plan.startswith(("end:", "table:", "next:")):
            assert code == -signal.SIGKILL, plan  # every planned kill is reached
        assert run(tmp_path, game, lang, store_args, "--recover-only") == 0
        now = await check(tmp_path, make)
        assert now >= moves
        moves = now
    async with make() as store:
        assert await store.games.channel_game(CHANNEL) is None
        games = await store.games.channel_history(CHANNEL, 10)
        assert [g.status for g in games] == ["finished"] * 3
    await check_tables(tmp_path, make, lang, teams=game == "races")
