"""Crash test of the bot itself: a real process runs the bot through the offline Discord stack and plays a game
by presses of the live message's buttons and ``/game play`` commands, mixed, and is killed with SIGKILL at the
worst moments of a press (before the answer, while Discord's answer is on its way back, between the answer
and its record) and at random. Discord's side of the channel is kept in a file of its own. After every restart
nothing acknowledged is lost, and at the end every message of the channel is checked: each delivery record was
shown exactly once (one post with its nonce, or a change of its turn's message), no public message lacks a
record, and only the live turn's message of a running game carries buttons (none once the game is over)."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.store import SqliteStore
from bot.upkeep.consistency import check_consistency

ROOT = Path(__file__).resolve().parents[2]
CHANNEL = 700_000_000_000_000_001


def child(tmp: Path, game: str, *extra: str) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "tests.bot.press_crash_child", str(tmp / "game.db"), str(tmp / "ledger.db"),
           str(tmp / "acks.txt"), "--game", game, *extra]
    return subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONHASHSEED": "0"})


def run(tmp: Path, game: str, plan: str, rng: random.Random, seed: int) -> int:
    """One run, killed at a chosen point, after a random delay, or not at all (``finish``)."""
    if plan == "random":
        proc = child(tmp, game, "--seed", str(seed))
        time.sleep(rng.uniform(1.5, 4.0))
        proc.send_signal(signal.SIGKILL)
    elif plan == "finish":
        proc = child(tmp, game, "--seed", str(seed))
    else:
        proc = child(tmp, game, "--seed", str(seed), "--crash-at", plan)
    _, err = proc.communicate(timeout=600)
    assert proc.returncode in (0, -signal.SIGKILL), err.decode()[-3000:]
    return proc.returncode


async def check(tmp: Path) -> int:
    """What the channel shows agrees with the store; returns the moves stored."""
    acks = [line.split(" ", 2) for line in (tmp / "acks.txt").read_text().splitlines()] \
        if (tmp / "acks.txt").exists() else []
    async with SqliteStore(tmp / "game.db") as store:
        games = await store.games.channel_history(CHANNEL, 10)
        logs = {g.id: await store.games.actions(g.id) for g in games}
        for game_id, index, action in acks:  # nothing acknowledged was lost
            assert logs[int(game_id)][int(index)].action == action, (game_id, index, action)
        for g in games:
            if g.status != "lobby":
                await check_consistency(store.games, g.id)
        records = await store.outbox.deliveries()
        running = [g for g in games if g.status == "active"]
        live = set()
        for g in running:
            turns = [d for d in records if d.game_id == g.id and d.kind in ("post", "edit")]
            live.add(turns[-1].message_id)
    with sqlite3.connect(tmp / "ledger.db") as ledger:
        shown = {mid: (nonce, json.loads(raw)) for mid, nonce, raw in ledger.execute(
            "SELECT id, nonce, message FROM messages")}
    assert all(d.delivered for d in records), [d for d in records if not d.delivered]
    by_nonce = {nonce: mid for mid, (nonce, _) in shown.items()}
    assert None not in by_nonce  # every public message was posted with its record's nonce
    assert set(by_nonce) <= {f"jy-{d.id}" for d in records}  # no public message without its record
    for d in records:
        if d.kind in ("post", "note") or f"jy-{d.id}" in by_nonce:
            assert d.message_id == by_nonce.get(f"jy-{d.id}"), d  # one post, the one recorded
        else:  # a change of its turn's message (an edit, a retirement)
            assert d.kind in ("edit", "retire") and d.message_id in shown, d
    with_buttons = {mid for mid, (_, m) in shown.items() if any(row.get("components") for row in m["components"])}
    assert with_buttons <= live, (with_buttons, live)  # only the live turn's message has buttons
    for mid in with_buttons:  # and they are of its newest state
        newest = max(d.version for d in records if d.message_id == mid and d.kind != "retire")
        ids = [c["custom_id"] for row in shown[mid][1]["components"] for c in row["components"]]
        assert all(cid.split(":")[2] == str(newest) for cid in ids), (ids, newest)
    return sum(len(log) for log in logs.values())


async def crash_many(tmp: Path, game: str, plans: list[str], seed: int) -> None:
    rng = random.Random(seed)
    moves = 0
    for number, plan in enumerate([*plans, "finish"]):
        run(tmp, game, plan, rng, seed * 100 + number)
        recover = child(tmp, game, "--recover-only")
        _, err = recover.communicate(timeout=300)
        assert recover.returncode == 0, err.decode()[-3000:]
        now = await check(tmp)
        assert now >= moves
        moves = now
    async with SqliteStore(tmp / "game.db") as store:
        assert await store.games.channel_game(CHANNEL) is None
        [ended] = await store.games.channel_history(CHANNEL, 10)
        assert ended.status == "finished" and moves > 0


async def test_a_race_through_the_bot_killed_at_the_worst_moments_of_a_press(tmp_path):
    await crash_many(tmp_path, "races", ["commit:20", "request:15", "delivered:12", "random"], seed=1)


async def test_a_board_held_for_a_missing_permission_survives_a_kill_and_arrives_once(tmp_path):
    """Send Messages is taken from the bot mid-race: the board the channel refuses waits (not given up), the
    process is killed right then; the restarted bot, told the permission is back, posts it once, and the race
    plays to its end with every message shown exactly once."""
    proc = child(tmp_path, "races", "--seed", "3", "--deny-send-at", "8")
    _, err = proc.communicate(timeout=600)
    assert proc.returncode == -signal.SIGKILL, err.decode()[-3000:]
    async with SqliteStore(tmp_path / "game.db") as store:
        held = await store.outbox.deliveries(pending=True)
        assert held and all(d.due_at > time.time() + 60 for d in held)  # a slow retry, not given up
        flag = await store.settings.get_settings("held", CHANNEL)
        assert flag["reason"] == "send" and flag["games"]
    with sqlite3.connect(tmp_path / "ledger.db") as ledger:
        nonces = {nonce for (nonce,) in ledger.execute("SELECT nonce FROM messages")}
    assert not nonces & {f"jy-{d.id}" for d in held}  # Discord showed none of them
    recover = child(tmp_path, "races", "--recover-only", "--permission-back")
    _, err = recover.communicate(timeout=300)
    assert recover.returncode == 0, err.decode()[-3000:]
    await check(tmp_path)  # every record delivered, each shown once
    await crash_many(tmp_path, "races", [], seed=3)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["races", "rally", "piecepack"])
async def test_every_game_through_the_bot_killed_many_times(tmp_path, game):
    rng = random.Random(game)
    plans = [rng.choice([f"commit:{rng.randint(1, 40)}", f"request:{rng.randint(1, 40)}",
                         f"delivered:{rng.randint(1, 40)}", "random"]) for _ in range(12)]
    await crash_many(tmp_path, game, plans, seed=len(game))
