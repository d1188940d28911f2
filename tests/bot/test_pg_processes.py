"""Several processes of the bot on one PostgreSQL database keep the promises of one process: of 50 presses of
one button at once, from two processes, exactly one applies; work a killed process held (boards to post,
reminders due) is done by another process within its next tick after the hold expires, and done once.

The processes are real (tests/bot/pg_child.py); the tests need ``JUNKYARD_TEST_PG`` and skip without it.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.clock.timers import REMIND
from bot.drivers import driver_for
from bot.play.service import Service
from bot.store import NewTimer, Store
from bot.telling.outcomes import Accepted
from bot.upkeep.consistency import check_consistency
from tests.bot.conftest import PG_SKIP, TEST_PG

ROOT = Path(__file__).resolve().parents[2]
PEOPLE = (11, 12)
#: how long a killed process's claims hold, and how often the other process looks (seconds)
LEASE, POLL = 5.0, 0.5
#: time a loaded machine may add to one tick (drawing a board, starting a query)
SLACK = 2.0



def need_pg() -> str:
    """The test server's URL; without one the test skips, with one line (under CI, where .ci/run sets a
    server up, it fails)."""
    if TEST_PG is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{PG_SKIP} (CI runs them; .ci/run sets one up)")
        pytest.skip(PG_SKIP)
    return TEST_PG


@pytest.fixture
async def pg() -> AsyncIterator[tuple[str, Store]]:
    """A schema of its own in ``JUNKYARD_TEST_PG`` and an open store on it (the parent's view)."""
    url = need_pg()
    from bot.store.postgres import PostgresStore, drop_schemas

    schema = f"procs_{uuid.uuid4().hex[:12]}"
    store = PostgresStore(url, schema=schema)
    await store.open()
    try:
        yield schema, store
    finally:
        await store.close()
        await drop_schemas(url, schema)


def child(*args: object) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "tests.bot.pg_child", *map(str, args)], cwd=ROOT, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONHASHSEED": "0"})


def expect(proc: subprocess.Popen[str], line: str) -> str:
    """The child's next line of output, which must start with ``line``."""
    assert proc.stdout is not None
    got = proc.stdout.readline()
    if not got.startswith(line):
        proc.kill()
        raise AssertionError(f"expected {line!r}, got {got!r}; stderr: {proc.communicate()[1][-3000:]}")
    return got.strip()


async def race(service: Service, channel: int, seed: int) -> int:
    """A started two-person race in ``channel``; returns its id."""
    service.seed_source = lambda: seed
    made = await service.new_game(guild_id=1, channel_id=channel, user_id=PEOPLE[0], user_name="Ann",
                                  game_key="races", options={"track": "A", "laps": 1}, seat_options={})
    assert isinstance(made, Accepted), made
    assert isinstance(await service.join(channel, PEOPLE[1], "Bob"), Accepted)
    started = await service.start(channel, PEOPLE[0])
    assert isinstance(started, Accepted), started
    return started.game_id


async def test_fifty_presses_of_one_button_from_two_processes_apply_once(pg):
    """Each process presses the same button (the same action at the same version) 25 times at once: one
    press is applied and stored with one board; the 49 others are refused as stale, nothing stored."""
    schema, store = pg
    service = Service(store)
    game_id = await race(service, 500, seed=5)
    rec = await store.games.get_game(game_id)
    game = await service.load(rec)
    seat = game.to_act
    assert seat is not None
    action = driver_for("races", "random", 3).choose(game, seat)
    records = len(await store.outbox.deliveries(game_id=game_id))
    procs = [child("press", TEST_PG, schema, 500, rec.seats[seat].user_id, action, rec.version, game_id, 25)
             for _ in range(2)]
    for proc in procs:
        expect(proc, "ready")
    for proc in procs:  # both go at the same moment
        assert proc.stdin is not None
        proc.stdin.write("go\n")
        proc.stdin.flush()
    replies: list[dict[str, Any]] = []
    for proc in procs:
        replies += json.loads(expect(proc, "["))
        assert proc.wait(60) == 0, proc.communicate()[1][-3000:]
    assert len(replies) == 50
    applied = [r for r in replies if r["ok"]]
    assert len(applied) == 1, applied
    refused = [r for r in replies if not r["ok"]]
    assert all(r["stale"] for r in refused), [r["text"] for r in refused if not r["stale"]][:3]
    after = await store.games.get_game(game_id)
    assert after.version == rec.version + 1
    assert [a.action for a in await store.games.actions(game_id, since=rec.version)] == [action]
    assert len(await store.outbox.deliveries(game_id=game_id)) == records + 1
    await check_consistency(store.games, game_id)


async def test_work_a_killed_process_held_is_done_once_by_the_other_within_a_tick(pg, tmp_path):
    """Process A claims the undelivered boards of three races and a due reminder, and is killed with
    SIGKILL while posting. Process B, running all along, takes none of it while A's hold lasts, and all of
    it within its next tick after the hold expires; each board and the reminder reach the channel once."""
    schema, store = pg
    service = Service(store)
    service.delivery_lease = 0.0  # the parent's writes hold nothing: the records are free for the children
    boards = [await race(service, 600 + i, seed=10 + i) for i in range(3)]
    reminded = await race(service, 700, seed=20)
    for d in await store.outbox.deliveries(game_id=reminded):  # its board is out: the reminder can link to it
        await store.outbox.mark_delivered(d.id, 424242)
    rec = await store.games.get_game(reminded)
    seat = (await service.load(rec)).to_act
    now = time.time()
    await store.turns.mark_turn(reminded, version=rec.version, seat=seat, started_at=now - 7200,
                                timers=[NewTimer(REMIND, seat, now - 1, {"turn": now - 7200, "number": 1})])
    [timer] = await store.turns.timers(game_id=reminded, pending=True)
    pending = await store.outbox.deliveries(pending=True)
    assert {d.game_id for d in pending} == set(boards)  # each race's lobby notes and first board

    posts = tmp_path / "posts.db"
    a = child("work", TEST_PG, schema, posts, LEASE, POLL, "--hang")
    owner_a = expect(a, "owner ").split(" ", 1)[1]
    held = {expect(a, "holding "), expect(a, "holding ")}
    assert held == {"holding post", "holding timer"}
    claims_a = [d.claimed_until for d in await store.outbox.deliveries(pending=True) if d.claimed_by == owner_a]
    [t] = await store.turns.timers(game_id=reminded, pending=True)
    assert len(claims_a) == len(pending) and t.claimed_by == owner_a and t.claimed_until is not None  # A holds it all
    expiry = min([*claims_a, t.claimed_until])
    b = child("work", TEST_PG, schema, posts, LEASE, POLL)
    expect(b, "owner ")
    assert time.time() < expiry  # B is running before A's hold ends
    a.send_signal(signal.SIGKILL)
    a.wait(30)
    assert b.wait(60) == 0, b.communicate()[1][-3000:]

    with sqlite3.connect(posts) as db:
        rows = db.execute("SELECT nonce, kind, pid, at, tries, id FROM posts").fetchall()
    records = {f"jy-{d.id}": d for d in await store.outbox.deliveries() if d.game_id in boards}
    records_ids = [d.id for d in records.values()]
    assert all(d.delivered for d in records.values())
    board_posts = {nonce: row for nonce, *row in rows if nonce.startswith("jy-")}
    assert set(board_posts) == set(records)  # every board once, with its record's nonce
    for nonce, (_kind, pid, _at, tries, post_id) in board_posts.items():
        assert tries == 1 and pid == b.pid and records[nonce].message_id == post_id
    timer_posts = [row for row in rows if row[0] == f"jt-{timer.id}"]
    assert len(timer_posts) == 1 and timer_posts[0][2] == b.pid and timer_posts[0][4] == 1
    fired = next(x for x in await store.turns.timers(game_id=reminded) if x.id == timer.id)
    assert fired.fired_at is not None
    with sqlite3.connect(posts) as db:
        claims = db.execute("SELECT kind, ids, pid, at FROM claims ORDER BY at").fetchall()
    for kind, (start, end), ids in (("deliveries", (min(claims_a), max(claims_a)), sorted(records_ids)),
                                    ("timers", (t.claimed_until, t.claimed_until), [timer.id])):
        taken = [(json.loads(i), at) for k, i, pid, at in claims if k == kind and pid == b.pid]
        assert sorted(x for got, _ in taken for x in got) == ids  # B claimed each once
        first = min(at for _, at in taken)
        assert first >= start, f"B took {kind} A still held"
        assert first <= end + POLL + SLACK, f"B took {kind} {first - end:.2f} s after A's hold ended"
