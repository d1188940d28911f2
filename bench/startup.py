"""Start-up with many stored games: from starting the process to answering the first interaction.

A database holds 10,000 two-player Junkyard Races games (their snapshots; the action logs are left out,
since start-up never reads them): 7,500 finished and 2,500 running, of which 250 wait on a computer.
A fresh process starts the bot on it offline (:mod:`bot.discord.offline` stands in for the gateway and HTTP),
takes READY, and at once a player asks for ``/game status`` in a running game:

* ``startup_10k_s``: from the process's start (before Python is up) to the status answer being sent
  (target: at most 0.5); ``startup_after_ready_s``: from READY to that answer;
  ``startup_first_answer_after_ready_s``: from READY to the first request answering the interaction (its
  deferral: the bot defers every acting interaction first);
* ``startup_imports_s``: the process's own import time, for comparison (the child runs compiled, as the
  installed package does);
* ``rss_10k_mb``: the process's peak resident memory once the 250 waiting games have played on;
  ``startup_resumed_s``: when the last of them was done (from READY).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.registry import benchmark

GAMES, RUNNING, WAITING = 10_000, 2_500, 250
#: the channel of the game asked about; the others follow it
FIRST_CHANNEL = 10_000


def build(path: Path, games: int = GAMES, running: int = RUNNING, waiting: int = WAITING, seed: int = 5) -> int:
    """Write the database; returns the channel of a running game whose first seat may ask for its status."""
    from bench.service import SEATS, TRACK, record
    from bot.games import unit_for
    from bot.store import SqliteStore

    async def schema() -> None:
        async with SqliteStore(path):
            pass

    asyncio.run(schema())
    options, _ = unit_for("races").setup_options({"track": TRACK, "laps": 2})
    scripts = [record(s, 2) for s in (1, 2, 3)]
    rng = random.Random(seed)
    now = time.time()
    rows: list[tuple[Any, ...]] = []
    asked = None
    for i in range(games):
        script = scripts[i % len(scripts)]
        channel = FIRST_CHANNEL + i
        users = (channel * 10 + 1, channel * 10 + 2)
        seats: list[dict[str, Any]] = [{"user_id": users[k], "name": SEATS[k]["name"],
                                        "options": {"colour": SEATS[k]["colour"]}} for k in range(2)]
        setup = {"seats": [dict(s) for s in SEATS], "options": options}
        waits = 0
        if i < running:
            status = "active"
            if i < waiting:  # the second seat is a computer, and it is to act
                seats[1] = {**seats[1], "user_id": -1, "name": "Computer 1 (random)", "driver": "random"}
                points = [k for k in range(len(script.moves) - 1) if script.moves[k + 1][0] == 1]
                waits = 1
            else:
                points = [k for k in range(len(script.moves) - 1) if script.moves[k + 1][0] == 0]
                asked = asked or channel
            at = rng.choice(points)
        else:
            status, at = "finished", len(script.moves) - 1
        state = script.moves[at][2]
        rows.append((1, channel, "races", status, users[0], json.dumps(setup), script.seed, json.dumps(seats),
                     at + 1, json.dumps(state), now, now, waits))
    with sqlite3.connect(path) as db:
        db.executemany("INSERT INTO games (guild_id, channel_id, game_key, status, host_id, setup, seed, seats, "
                       "version, state, created_at, updated_at, computers_waiting) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    assert asked is not None
    return asked


def compiled() -> None:
    """Import what the bot imports (the libraries too), so their byte code is written before the timed run."""
    import PIL.Image
    import PIL.PngImagePlugin  # noqa: F401

    import bot.discord.offline  # noqa: F401
    from bot.discord import JunkyardBot  # noqa: F401
    from bot.games import units
    from bot.telling.pictures import Pictures  # noqa: F401

    units()


def _rss_mb(field: str) -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return round(int(line.split()[1]) / 1024, 1)
    return 0.0


async def _serve(db: str, channel: int, started: float) -> dict[str, float]:
    """In the child process: start the bot, take READY, answer /game status, let the waiting games play."""
    imported = time.time()
    from bot.discord import JunkyardBot
    from bot.discord.offline import MEMBER_PERMS, DiscordHarness
    from bot.play.service import Service
    from bot.store import SqliteStore
    from bot.telling.pictures import Pictures

    imported = time.time() - imported
    bot = JunkyardBot(service=Service(SqliteStore(db), pictures=Pictures()))
    harness = DiscordHarness(bot, defer_after=None)  # the bot's own: deferred first
    await harness.__aenter__()  # setup_hook: the store opens
    await bot.on_ready()
    ready = time.time()
    data = harness._base(2, channel * 10 + 1, permissions=MEMBER_PERMS, channel_id=channel)
    data["data"] = harness._command_data("game status", {})
    bot._connection.parse_interaction_create(data)  # type: ignore[arg-type]
    acknowledged = None
    while not any(s.png for s in harness.sent):  # the board itself (after the deferral, in a follow-up)
        if acknowledged is None and harness.sent:
            acknowledged = time.time()
        await asyncio.sleep(0.0005)
    served = time.time()
    answer = next(s for s in harness.sent if s.png)
    assert answer.ephemeral, answer.content
    await next(t for t in bot._background if t.get_name() == "junkyard-resume")  # games waiting on computers
    while bot.computer_tasks:
        await asyncio.gather(*bot.computer_tasks.values(), return_exceptions=True)
    resumed = time.time()
    left = len(await bot.store.games.waiting_on_computers())
    return {"startup_10k_s": round(served - started, 3), "startup_after_ready_s": round(served - ready, 3),
            "startup_first_answer_after_ready_s": round((acknowledged or served) - ready, 3),
            "startup_imports_s": round(imported, 3), "startup_resumed_s": round(resumed - ready, 2),
            "startup_still_waiting": left, "rss_10k_mb": _rss_mb("VmHWM")}


def run(games: int = GAMES, running: int = RUNNING, waiting: int = WAITING) -> dict[str, float | int | str]:
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as tmp:  # worker processes may outlive the child
        db = Path(tmp) / "many.db"
        channel = build(db, games, running, waiting)
        root = Path(__file__).resolve().parents[1]
        log = Path(tmp) / "child.txt"
        # The child runs compiled, as the installed package does (pip compiles it): its byte code is kept
        # in a folder of its own, whatever this environment says about writing byte code.
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env.update(PYTHONPATH=str(root), PYTHONPYCACHEPREFIX=str(Path(tmp) / "pyc"))
        subprocess.run([sys.executable, "-m", "compileall", "-q", "bot", "rules", "render", "bench"], cwd=root,
                       env=env, check=True, stdout=subprocess.DEVNULL)
        subprocess.run([sys.executable, "-c", "import bench.startup as s; s.compiled()"], cwd=root, env=env,
                       check=True, timeout=120)
        with log.open("w") as sink:  # a file, not a pipe: the picture processes outlive the child a moment
            started = time.time()
            code = subprocess.run([sys.executable, "-m", "bench.startup", str(db), str(channel), repr(started)],
                                  cwd=root, stdout=sink, stderr=subprocess.STDOUT, timeout=600, env=env).returncode
        text = log.read_text()
        if code != 0:
            raise RuntimeError(text[-2000:])
        figures = json.loads(next(line for line in reversed(text.splitlines()) if line.startswith("{")))
        figures["startup_db_mb"] = round(db.stat().st_size / 1e6, 1)
    return figures


@benchmark("startup")
def startup() -> dict[str, float | int | str]:
    return run()


if __name__ == "__main__":
    code = 1
    try:
        print(json.dumps(asyncio.run(_serve(sys.argv[1], int(sys.argv[2]), float(sys.argv[3])))), flush=True)
        code = 0
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)  # the figures are out; skip closing the store (the picture workers follow this process out)
