"""Timers keep time on a busy machine: with processes taking every core for the test's length, a direct-message
notice, a ``/game away`` and a deadline that falls due each fire within :data:`BOUND` seconds, the bot running
as in service (the ticker in the background, woken by moves and commands, sleeping until the next timer is
due). Real time, bounded: the busy processes stop at the end whatever happens.

The bot runs in a fresh interpreter of its own (``python -m tests.bot.test_timing_load DB``), as in service: no
state another test left in the test process reaches it, and should it ever stop answering, it writes every
thread's stack after :data:`STACKS_AFTER` seconds and the test fails with them after :data:`CHILD_SECONDS`."""

from __future__ import annotations

import asyncio
import faulthandler
import json
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from bot.games import register, unregister
from bot.telling.pictures import cores
from tests.bot.harness import CHANNEL_ID, DiscordHarness, Sent
from tests.bot.helpers import ANN, BOB, EVE, USERS, answer
from tests.bot.timing_helpers import timed_bot

#: seconds within which a timer due now fires, however busy the cores (ARCHITECTURE.md, "Durable time")
BOUND = 5.0
#: the longest the busy processes run
LOAD_SECONDS = 90.0
OTHER = CHANNEL_ID + 1
#: the bot's process: its stacks are written after STACKS_AFTER seconds, and it is killed after CHILD_SECONDS
STACKS_AFTER = 150.0
CHILD_SECONDS = 180.0
ROOT = Path(__file__).resolve().parents[2]


def spin(until: float | list[float]) -> None:
    """Keep one core busy until ``until`` (a list: its first item, which may be moved)."""
    n = 0
    while time.time() < (until[0] if isinstance(until, list) else until):
        n += 1


@contextmanager
def busy_cores(per_core: int = 2) -> Iterator[None]:
    """``per_core`` spinning processes for each core (new interpreters: a fork of this process, which has
    threads, could start stuck), and a spinning thread in this process (it contends for the interpreter with
    the event loop, as a drawing or a search in a thread does), for at most :data:`LOAD_SECONDS`."""
    until = time.time() + LOAD_SECONDS
    code = f"import time\nwhile time.time() < {until!r}:\n    pass\n"
    spinners = [subprocess.Popen([sys.executable, "-c", code]) for _ in range(per_core * cores())]
    stop = [until]
    thread = threading.Thread(target=spin, args=(stop,), daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop[0] = 0.0
        for p in spinners:
            p.kill()
        for p in spinners:
            p.wait(10)
        thread.join(10)


class Shifted:
    """Real time, moved on by hand (a turn limit of an hour passes in an instant)."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset


async def within(h: DiscordHarness, start: int, t0: float, found: Callable[[Sent], bool]) -> float:
    """Seconds from ``t0`` until a request after ``start`` matches ``found`` (fails after twice the bound)."""
    while time.monotonic() - t0 < 2 * BOUND:
        if any(found(s) for s in h.sent[start:]):
            return time.monotonic() - t0
        await asyncio.sleep(0.05)
    raise AssertionError(f"nothing within {2 * BOUND} s")


def autopilot_for(name: str, channel: int) -> Callable[[Sent], bool]:
    return lambda s: f"**Autopilot** for {name}" in s.content and f"/channels/{channel}/" in s.url


def test_a_notice_an_away_turn_and_a_deadline_fire_in_time_while_the_cores_are_busy(db_path):
    try:
        done = subprocess.run([sys.executable, "-m", "tests.bot.test_timing_load", str(db_path)], cwd=ROOT,
                              capture_output=True, text=True, timeout=CHILD_SECONDS)
    except subprocess.TimeoutExpired as exc:
        raise AssertionError(f"the bot stopped answering; its threads:\n{exc.stderr}") from None
    assert done.returncode == 0, done.stderr
    took = json.loads(done.stdout.strip().splitlines()[-1])
    print(f"\nseconds after falling due, {2 * cores()} busy processes on {cores()} cores: {took}")
    assert max(took.values()) <= BOUND, took


async def scenario(db_path: Path) -> dict[str, float]:
    """The notice, the away turn and the deadline with the cores busy: the seconds each took to fire."""
    clock = Shifted()
    with busy_cores():
        async with DiscordHarness(timed_bot(db_path, clock)) as h:  # type: ignore[arg-type]
            h.users.update(USERS)
            h.bot.catch_up_after = 0
            await h.bot.on_ready()  # the outbox and the ticker run in the background, as in service
            answer(await h.slash(BOB, "game notify", mode="dm"))
            for user, path, options in ((ANN, "game new", {"game": "toy"}), (BOB, "game join", {}),
                                        (ANN, "game start", {})):
                await h.slash(user, path, **options)
            for user, path, options in ((EVE, "game new", {"game": "toy"}), (ANN, "game join", {}),
                                        (EVE, "game settings", {"turn_limit": 1, "reminder": 0}),
                                        (EVE, "game start", {})):
                await h.slash(user, path, channel_id=OTHER, **options)
            took = {}

            # Ann's turn ends: Bob's notice comes by direct message
            start, t0 = len(h.sent), time.monotonic()
            await h.slash(ANN, "game play", action="roll")
            await h.slash(ANN, "game play", action="pass")
            took["notice"] = await within(h, start, t0, lambda s: s.creates_message and s.dm)

            # Bob is away: the turn waiting on him is played at once
            start, t0 = len(h.sent), time.monotonic()
            await h.slash(BOB, "game away")
            took["away"] = await within(h, start, t0, autopilot_for("Bob", CHANNEL_ID))

            # Eve's hour runs out a second from now: the autopilot plays her turn
            rec = await h.bot.store.games.channel_game(OTHER)
            [deadline] = [t for t in await h.bot.store.turns.timers(game_id=rec.id, pending=True)
                          if t.kind == "deadline"]
            start = len(h.sent)
            clock.offset += deadline.due_at - clock() - 1.0
            t0 = time.monotonic() + deadline.due_at - clock()
            took["deadline"] = await within(h, start, t0, autopilot_for("Eve", OTHER))
            await h.bot.close()
    return took


def main(db: str) -> None:
    """The bot's process: the toy game registered as the tests do, the scenario played, its seconds printed."""
    from tests.bot.toygame import ToyGame, ToyUnit

    faulthandler.dump_traceback_later(STACKS_AFTER, exit=False)
    register(ToyUnit())
    try:
        print(json.dumps(asyncio.run(scenario(Path(db)))), flush=True)
    finally:
        unregister(ToyGame.key)


if __name__ == "__main__":
    main(sys.argv[1])
