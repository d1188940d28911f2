"""A turn that plays itself survives a kill at any step: the real bot process (tests/bot/selfplay_crash_child.py)
is killed with SIGKILL while the autopilot plays a timed-out turn, while a plan's items play, and while a
forced roll plays, right after a move is stored (before its post), right after Discord showed the post (its
answer lost) and between the answer and its record. The restarted bot finishes the turn exactly once, shows
every message once, leaves nothing undelivered, and arms the next turn's deadline. On SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from bot.play.service import Service
from bot.store import Store
from bot.telling.delivery import nonce_for
from tests.bot.conftest import PG_SKIP, TEST_PG
from tests.bot.press_crash_child import ANN, BOB, CHANNEL
from tests.bot.selfplay_crash_child import open_db

ROOT = Path(__file__).resolve().parents[2]


def child(db: str, ledger: Path, scenario: str, *args: str) -> int:
    proc = subprocess.run([sys.executable, "-m", "tests.bot.selfplay_crash_child", db, str(ledger), scenario, *args],
                          cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=240,
                          env={**os.environ, "PYTHONHASHSEED": "0"})
    assert proc.returncode in (0, -9), proc.stderr.decode()[-3000:]
    return proc.returncode


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path):
    """Where the bot keeps its games: a SQLite file, or a schema of its own on the test PostgreSQL server."""
    if request.param == "sqlite":
        yield str(tmp_path / "game.db")
        return
    if TEST_PG is None:
        if os.environ.get("CI") == "true":
            pytest.fail(PG_SKIP)
        pytest.skip(PG_SKIP)
    schema = f"test_{uuid.uuid4().hex[:16]}"
    yield f"{TEST_PG}#{schema}"
    from bot.store.postgres import drop_schemas

    asyncio.run(drop_schemas(TEST_PG, schema))


async def check(db: str, ledger: Path, scenario: str, before: int) -> None:
    """The turn finished exactly once, every record was shown once, and the next deadline waits."""
    store: Store = open_db(db, clock=lambda: 0.0)
    async with store:
        rec = await store.games.channel_game(CHANNEL)
        assert rec is not None
        game = await Service(store).load(rec)
        log = await store.games.actions(rec.id)
        ann, bob = rec.seat_of(ANN), rec.seat_of(BOB)
        ours = [a for a in log[before:] if a.seat == ann]
        if scenario == "autopilot":
            assert game.to_act == bob and ours and all(a.seat == ann for a in log[before:])
        else:
            last_bob = max(i for i, a in enumerate(log) if a.seat == bob)
            played = [a.action for a in log[last_bob + 1:]]
            assert game.to_act == ann
            assert played == (["done", "roll 3"] if scenario == "plan" else ["roll"])  # once each
        deliveries = await store.outbox.deliveries(game_id=rec.id)
        assert all(d.delivered for d in deliveries)
        shown = {message_id for d in deliveries if (message_id := d.message_id) is not None}
        timers = await store.turns.timers(game_id=rec.id, pending=True)
        assert [(t.kind, t.seat, t.version) for t in timers] == [("deadline", game.to_act, rec.version)]
        latest = await store.outbox.latest_delivery(rec.id)
        assert latest is not None
    posted = {row[0]: (row[1], json.loads(row[2]))
              for row in sqlite3.connect(ledger).execute("SELECT id, nonce, message FROM messages")}
    assert set(posted) == shown  # every message Discord shows is a record's, and every record's is shown
    by_nonce = {nonce_for(d.id): d.message_id for d in deliveries}
    assert all(by_nonce.get(nonce) == message_id for message_id, (nonce, _) in posted.items() if nonce is not None)
    live = posted[latest.message_id][1]
    buttons = [c["custom_id"] for row in live.get("components", []) for c in row.get("components", [])]
    assert buttons and all(f":{rec.version}:" in b for b in buttons)  # the move now due, on the live message


async def count_actions(db: str) -> int:
    store: Store = open_db(db, clock=lambda: 0.0)
    async with store:
        rec = await store.games.channel_game(CHANNEL)
        assert rec is not None
        return len(await store.games.actions(rec.id))


def crash_and_recover(db: str, tmp: Path, scenario: str, crash_at: str) -> None:
    ledger = tmp / "ledger.db"
    assert child(db, ledger, scenario, "setup") == 0
    before = asyncio.run(count_actions(db))
    child(db, ledger, scenario, "run", "--crash-at", crash_at)
    assert child(db, ledger, scenario, "run") == 0
    asyncio.run(check(db, ledger, scenario, before))


@pytest.mark.parametrize(("scenario", "crash_at"), [("autopilot", "commit:1"), ("plan", "request:1"),
                                                     ("forced", "delivered:1")])
def test_a_turn_that_plays_itself_is_finished_once_after_a_kill(database, tmp_path, scenario, crash_at):
    crash_and_recover(database, tmp_path, scenario, crash_at)


EVERY_STEP = [(scenario, f"{when}:{n}") for scenario, steps in (("autopilot", 2), ("plan", 2), ("forced", 1))
              for when in ("commit", "request", "delivered") for n in range(1, steps + 1)]


@pytest.mark.slow
@pytest.mark.parametrize(("scenario", "crash_at"), EVERY_STEP)
def test_killed_at_every_step_of_a_turn_that_plays_itself(database, tmp_path, scenario, crash_at):
    crash_and_recover(database, tmp_path, scenario, crash_at)
