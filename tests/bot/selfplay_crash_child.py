"""The bot process the self-play crash test kills: the real bot (the offline Discord stack) in one channel
where a person's turn plays itself, in one of three ways, while Discord's side of the channel is kept in a
ledger file that outlives the process (:class:`tests.bot.press_crash_child.Ledger`).

``python -m tests.bot.selfplay_crash_child DB LEDGER SCENARIO setup``
    opens a game of two people (Ann and Bob, a one-hour turn limit) and brings it to a turn that plays
    itself: ``autopilot``: Ann's first turn of a Junkyard Races game, whose deadline passes; ``plan``: Ann
    queues the opening of her next Junkyard Races turn (no deed, then a roll) while Bob is to act;
    ``forced``: Ann's next turn of Junkyard for a piecepack opens with a roll, which plays itself.

``python -m tests.bot.selfplay_crash_child DB LEDGER SCENARIO run [--crash-at WHEN:N]``
    does what the bot does after a restart (the outbox delivers what was left, the computer worker resumes,
    the ticker takes over the timers); for ``autopilot`` two hours after the setup, so Ann's deadline is
    due; where Bob is to act he plays his turn. ``--crash-at`` kills the process with SIGKILL:
    ``commit:N`` right after the Nth stored move that played itself (before anything of it is delivered),
    ``request:N`` right after Discord applied the Nth public request from the first of those on (its
    answer never reaches the bot), ``delivered:N`` when the Nth delivery from then on is about to be
    recorded.

DB is a SQLite file or ``postgresql://…#SCHEMA``.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import signal
import sys
import time
from typing import Any

import bot.discord.offline as offline
from bot.discord import JunkyardBot
from bot.play.service import Service
from bot.store import SqliteStore, Store
from bot.telling.outcomes import Accepted
from tests.bot.press_crash_child import ANN, BOB, CHANNEL, Ledger, LedgerHarness

#: how far the run's clock is ahead of the setup's: past the one-hour turn limit
LATER = 2 * 3600.0


def die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def open_db(db: str, clock: Any) -> Store:
    if db.startswith("postgresql://"):
        from bot.store.postgres import PostgresStore

        url, _, schema = db.partition("#")
        return PostgresStore(url, schema=schema, clock=clock)
    return SqliteStore(db, clock=clock)


class Shifted:
    """The wall clock moved on by a fixed span, so a deadline of the setup is due in the run."""

    def __init__(self, ahead: float) -> None:
        self.ahead = ahead

    def __call__(self) -> float:
        return time.time() + self.ahead


#: the game each scenario plays: a Junkyard Races turn for the autopilot and a plan; a turn of Junkyard for a
#: piecepack opens with a roll, which plays itself
GAMES = {"autopilot": "races", "plan": "races", "forced": "piecepack"}


async def state(h: LedgerHarness) -> tuple[Any, Any]:
    client: JunkyardBot = h.bot  # type: ignore[assignment]
    rec = await client.store.games.channel_game(CHANNEL)
    return rec, await client.service.load(rec)


async def play_turn(h: LedgerHarness, user: int) -> None:
    """``user`` plays their whole turn by commands, the first legal action each time."""
    for _ in range(50):
        await h.settle()
        rec, game = await state(h)
        if game.is_over or game.to_act != rec.seat_of(user):
            return
        await h.slash(user, "game play", action=str(next(iter(game.legal_actions()))))


async def setup(h: LedgerHarness, scenario: str) -> None:
    key = GAMES[scenario]
    await h.slash(ANN, "game new", game=key, **({"laps": 1, "track": "A"} if key == "races" else {}))
    await h.slash(BOB, "game join")
    await h.slash(ANN, "game settings", turn_limit=1, reminder=0)
    await h.slash(BOB, "game auto", mode="off")  # Bob plays all of his turn himself
    if scenario == "plan":
        await h.slash(ANN, "game auto", mode="off")
    await h.slash(ANN, "game start")
    if scenario != "autopilot":  # Ann plays her first turn; Bob is to act then
        await play_turn(h, ANN)
    if scenario == "plan":
        await h.slash(ANN, "game plan", add="done; roll 3")
    await h.bot.timers.tick()  # type: ignore[attr-defined]
    await h.settle()


async def run(h: LedgerHarness, scenario: str) -> None:
    """The bot's start after a restart, as on READY (its background tasks: the outbox, the computers left
    to move, the ticker's first tick taking over what the dead process held); Bob plays his turn where he
    is to act; then until the channel is quiet."""
    client: JunkyardBot = h.bot  # type: ignore[assignment]
    client.catch_up_after = 0.0
    client.timers.poll = 0.2
    client.outbox.poll = 0.2
    client.start_background()
    await play_turn(h, BOB)
    await quiet(h, scenario)


async def quiet(h: LedgerHarness, scenario: str, limit: float = 60.0) -> None:
    """Wait until Ann's turn played itself as far as it does (the autopilot: all of it; a plan or a forced
    move: its action, then Ann is to choose), the ticker has timed the turn now due, nothing is left to
    deliver and no computer task runs."""
    client: JunkyardBot = h.bot  # type: ignore[assignment]
    end = time.monotonic() + limit
    while time.monotonic() < end:
        await asyncio.sleep(0.2)
        await h.settle()
        rec, game = await state(h)
        log = await client.store.games.actions(rec.id)
        bobs = [i for i, a in enumerate(log) if a.seat == rec.seat_of(BOB)]
        done = (game.to_act != rec.seat_of(ANN) if scenario == "autopilot"
                else bool(bobs) and game.to_act == rec.seat_of(ANN) and len(log) > bobs[-1] + 1)
        pending = await client.store.outbox.deliveries(game_id=rec.id, pending=True)
        mark = await client.store.turns.turn_mark(rec.id)
        timed = mark is not None and mark.version == rec.version  # the ticker has seen the turn now due
        if done and timed and not pending and not client.computer_tasks:
            return


async def main_async(args: argparse.Namespace) -> int:
    offline._ids = itertools.count(time.time_ns() // 1000 * 1000)  # message ids no earlier run gave
    when, _, n = (args.crash_at or ":").partition(":")
    clock = Shifted(LATER if args.what == "run" and args.scenario == "autopilot" else 0.0)
    store = open_db(args.db, clock)
    seeds = itertools.count(7)
    service = Service(store, seed_source=lambda: next(seeds))
    client = JunkyardBot(service=service)
    client.timers.clock = client.outbox.clock = clock
    counts = {"commit": 0, "delivered": 0}
    act, computers, delivered = service.act, service.play_computers, service.delivered
    ledger = Ledger(args.ledger)
    h = LedgerHarness(client, ledger, None)

    def stored() -> None:
        """A move that played itself is stored: the count starts (Bob's own moves are not counted)."""
        counts["commit"] += 1
        if when == "commit" and counts["commit"] >= int(n):
            die()  # stored, nothing delivered
        if when == "request" and h.crash_after is None:
            h.crash_after = h.public_requests + int(n)

    async def acting(*a: Any, **k: Any) -> Any:
        outcome = await act(*a, **k)
        if isinstance(outcome, Accepted) and k.get("autopilot"):
            stored()
        return outcome

    async def playing(*a: Any, **k: Any) -> Any:
        outcome = await computers(*a, **k)
        if isinstance(outcome, Accepted) and outcome.deliveries:
            stored()
        return outcome

    async def recording(d: Any, message_id: int | None) -> bool:
        if counts["commit"]:
            counts["delivered"] += 1
            if when == "delivered" and counts["delivered"] >= int(n):
                die()  # shown, not recorded
        return await delivered(d, message_id)

    if args.what == "run":
        service.act = acting  # type: ignore[method-assign]
        service.play_computers = playing  # type: ignore[method-assign]
        service.delivered = recording  # type: ignore[method-assign]
    async with h:
        h.users.update({ANN: "ann", BOB: "bob"})
        if args.what == "setup":
            await setup(h, args.scenario)
        else:
            await run(h, args.scenario)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("db")
    parser.add_argument("ledger")
    parser.add_argument("scenario", choices=["autopilot", "plan", "forced"])
    parser.add_argument("what", choices=["setup", "run"])
    parser.add_argument("--crash-at", default=None)
    return asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
