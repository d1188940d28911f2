"""The process the plan crash test kills: a game of Race to Ten whose player queued a plan, played by the
computer worker's path (:meth:`bot.play.service.Service.play_computers`), batch by batch.

``python -m tests.bot.plan_crash_child GAME_DB (setup | run [--crash-after N])``

``setup`` opens the game, starts it and queues the first player's plan (nothing of it played: forced moves
and plans wait until the run). ``run`` plays what plays itself; ``--crash-after N`` kills the process with
SIGKILL right after its Nth stored move, before anything else happens.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys

from bot.play import plans
from bot.play.service import Service
from bot.store import SqliteStore
from tests.bot.toygame import ToyUnit

CHANNEL = 77
ANN, BOB = 1, 2
PLAN = "roll; move 1; roll"


async def main_async(args: argparse.Namespace) -> int:
    from bot import games

    games.register(ToyUnit())
    store = SqliteStore(args.game_db)
    await store.open()
    service = Service(store, seed_source=lambda: 4)
    if args.what == "setup":
        await service.new_game(guild_id=1, channel_id=CHANNEL, user_id=ANN, user_name="Ann", game_key="toy")
        await service.join(CHANNEL, BOB, "Bob")
        await service.start(CHANNEL, ANN)
        await plans.plan_command(service, CHANNEL, ANN, add=PLAN)
        await store.close()
        return 0
    stored = 0
    real = store.games.append_action

    async def append_then_maybe_die(*a: object, **k: object) -> object:
        nonlocal stored
        rec = await real(*a, **k)  # type: ignore[arg-type]
        stored += 1
        if args.crash_after is not None and stored >= args.crash_after:
            os.kill(os.getpid(), signal.SIGKILL)
        return rec

    store.games.append_action = append_then_maybe_die  # type: ignore[method-assign]
    for channel in await service.channels_waiting_on_computers():
        while await service.play_computers(channel) is not None:
            pass
    await store.close()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("game_db")
    parser.add_argument("what", choices=["setup", "run"])
    parser.add_argument("--crash-after", type=int, default=None)
    return asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
