"""Crash test: a process plays races through the service, one after another in the same channel, and is
killed with SIGKILL at random moments and at the worst ones (between storing a move and posting its board,
between posting and recording the post).
After every restart no acknowledged move is lost, and in the end every board was delivered exactly once: each
delivery record holds the id of the one post made with its nonce, or (a move that kept the turn) of the
turn's message it edited, or (a new turn's message posted) of the message whose buttons it took away; no post
lacks a record, every message shows the newest state of its turn, and only the live turn's message of a
running game carries buttons: every message of the channel is checked, not only the game's state."""

from __future__ import annotations

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


def child(tmp: Path, *extra: str, games: int = 3) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "tests.bot.crash_child", str(tmp / "game.db"), str(tmp / "posts.db"),
           str(tmp / "acks.txt"), "--games", str(games), *extra]
    return subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONHASHSEED": "0"})


def run_and_kill(tmp: Path, plan: str, rng: random.Random, games: int) -> int:
    """One run: killed by itself at a chosen point (``commit:N``/``post:N``), by us after a random delay
    (``random``), or not at all (``finish``: it plays the races left). Returns the signal or exit status."""
    if plan == "random":
        proc = child(tmp, games=games)
        time.sleep(rng.uniform(0.6, 2.0))
        proc.send_signal(signal.SIGKILL)
    elif plan == "finish":
        proc = child(tmp, games=games)
    else:
        proc = child(tmp, "--crash-at", plan, games=games)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode in (0, -signal.SIGKILL), err.decode()[-2000:]
    return proc.returncode


async def check(tmp: Path) -> tuple[int, int, int]:
    """Every acknowledged move is in the log of its race; every delivery record was posted once. Returns
    (moves, posts, races opened in the channel)."""
    acks = [line.split(" ", 2) for line in (tmp / "acks.txt").read_text().splitlines()]
    async with SqliteStore(tmp / "game.db") as store:
        races = await store.games.channel_history(4242, 100)
        assert [r.status for r in races[1:]] == ["finished"] * (len(races) - 1)  # one open race at most
        logs = {r.id: await store.games.actions(r.id) for r in races}
        for game_id, index, action in acks:
            assert logs[int(game_id)][int(index)].action == action, (game_id, index, action)
        for rec in races:
            if rec.status != "lobby":
                await check_consistency(store.games, rec.id)
        records = await store.outbox.deliveries()
    with sqlite3.connect(tmp / "posts.db") as posts:
        rows = posts.execute("SELECT id, nonce, version FROM posts").fetchall()
        edits = posts.execute("SELECT message, version FROM edits WHERE version IS NOT NULL ORDER BY id").fetchall()
        buttons = dict(posts.execute("SELECT id, buttons FROM posts").fetchall())
        buttons.update(posts.execute("SELECT message, buttons FROM edits ORDER BY id").fetchall())
    by_nonce = {nonce: pid for pid, nonce, _ in rows}
    assert len(by_nonce) == len(rows)
    assert all(d.delivered for d in records), [d for d in records if not d.delivered]
    ids = {f"jy-{d.id}" for d in records}
    assert set(by_nonce) <= ids  # no post without its record
    for d in records:  # a record is one post (its nonce), or an edit of the message of its turn, or its retirement
        if f"jy-{d.id}" in by_nonce:
            assert d.message_id == by_nonce[f"jy-{d.id}"], d
        else:
            assert d.kind in ("edit", "retire") and d.message_id in by_nonce.values(), d
    # every message shows the newest state of its turn, whatever was edited in between
    shown = {pid: version for pid, _, version in rows} | dict(edits)
    for message, version in shown.items():
        assert version == max(d.version for d in records if d.message_id == message and d.kind != "retire"), message
    # only the live turn's message carries buttons: that of the newest turn record of a running game
    live = set()
    for rec in races:
        if rec.status == "active":
            turns = [d for d in records if d.game_id == rec.id and d.kind in ("post", "edit")]
            live.add(turns[-1].message_id)
    assert {m for m, n in buttons.items() if n} <= live, (buttons, live)
    return sum(len(log) for log in logs.values()), len(rows), len(races)


async def crash_many(tmp: Path, plans: list[str], seed: int, games: int) -> None:
    """Each plan a run and, after it, a restart that posts what it left; then a run plays the races left.
    In the end ``games`` races were played one after another in the channel."""
    rng = random.Random(seed)
    moves = 0
    for plan in [*plans, "finish"]:
        code = run_and_kill(tmp, plan, rng, games)
        async with SqliteStore(tmp / "game.db") as store:
            pending = await store.outbox.deliveries(pending=True)
        if plan not in ("random", "finish") and code == -signal.SIGKILL:
            # killed between the commit and the post, or before the post was recorded (a run that found the
            # races all over ends by itself before reaching its crash point)
            assert pending, plan
        recover = child(tmp, "--recover-only", games=games)
        _, err = recover.communicate(timeout=120)
        assert recover.returncode == 0, err.decode()[-2000:]
        now, _, _ = await check(tmp)
        assert now >= moves  # nothing acknowledged went missing
        moves = now
    _, _, races = await check(tmp)
    async with SqliteStore(tmp / "game.db") as store:
        assert await store.games.channel_game(4242) is None
    assert races == games and moves > 0


async def test_killed_at_the_worst_moments_no_move_or_board_is_lost(tmp_path):
    await crash_many(tmp_path, ["commit:3", "post:2", "random"], seed=1, games=2)


@pytest.mark.slow
async def test_killed_twenty_times_no_move_or_board_is_lost(tmp_path):
    rng = random.Random(2)
    plans = [rng.choice([f"commit:{rng.randint(1, 60)}", f"post:{rng.randint(1, 40)}", "random", "random"])
             for _ in range(22)]
    await crash_many(tmp_path, plans, seed=3, games=6)
