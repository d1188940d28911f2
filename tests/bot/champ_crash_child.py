"""The bot process the championship crash test kills: the real bot (the offline Discord stack) runs a three-round
championship of a racing game in one channel through the commands a host and players type (``/championship
create`` and ``next``, ``/game join``, ``computer``, ``start``) and presses and ``/game play`` for the moves,
while Discord's side of the channel is kept in a ledger file (:mod:`tests.bot.press_crash_child`).

``python -m tests.bot.champ_crash_child GAME_DB LEDGER ACKS --game KEY [--lang de] [--pg URL --schema S]
[--crash-at WHEN:N] [--recover-only]``

At start it does what the bot does after a restart (the ends a stop left unrecorded are settled, the outbox
delivers what was left, the computers left to move play on), then plays until the championship's last round is
over. ``--crash-at`` kills the process with SIGKILL:

- ``commit:N`` right after the Nth move the service stored in this run (inside a round);
- ``end:R`` when round R's final move is stored, before its results and table are (between them);
- ``table:R`` after round R's table was delivered, before the host's ``next``;
- ``next:R`` inside ``next`` for round R: its lobby opened, not yet recorded as the round.

Round 2 of the championship is played by the autopilot in Bob's seat (his round scores nothing); with
``--game races`` it is a team championship: Ann and a computer race for team 1, Bob and a computer for team 2.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import random
import sys
import time
from typing import Any

import bot.discord.offline as offline
import bot.standing.history as history
from bot.discord import JunkyardBot
from bot.drivers import driver_for
from bot.play.service import Service
from bot.store import CHAMPIONSHIP_RUNNING, SqliteStore, Store
from bot.telling.outcomes import Accepted
from tests.bot.press_crash_child import ANN, BOB, CHANNEL, Ledger, LedgerHarness, die, press_or_play

ROUNDS = {"races": "A 1; B 1; A 1", "rally": "A 1; A 1; A 1"}
TEAMS = {ANN: 1, BOB: 2}
NAME = "Crash Cup"


def open_store(args: argparse.Namespace) -> Store:
    if args.pg:
        from bot.store.postgres import PostgresStore

        return PostgresStore(args.pg, schema=args.schema)
    return SqliteStore(args.game_db)


async def play(args: argparse.Namespace) -> int:
    offline._ids = itertools.count(time.time_ns() // 1000 * 1000)  # message ids no earlier run gave
    when, _, n = (args.crash_at or ":").partition(":")
    store = open_store(args)
    service = Service(store, seed_source=lambda: 11)
    client = JunkyardBot(service=service)
    ledger = Ledger(args.ledger)
    rng = random.Random(args.seed)
    counts = {"commit": 0}

    act = service.act

    async def acting(*a: Any, **k: Any) -> Any:
        outcome = await act(*a, **k)
        if isinstance(outcome, Accepted):
            counts["commit"] += 1
            if when == "commit" and counts["commit"] >= int(n):
                die()  # stored, nothing delivered
        return outcome

    record_end = history.record_end

    async def ending(st: Store, front: Any, rec: Any, game: Any, **k: Any) -> Any:
        if when == "end":
            found = await st.championships.championship_of_game(rec.id)
            if found is not None and found[1] == int(n):
                die()  # the final move stored; its results and table not
        return await record_end(st, front, rec, game, **k)

    new_game = service.lobby.new_game

    async def opening(**k: Any) -> Any:
        opened = await new_game(**k)
        if when == "next" and isinstance(opened, Accepted):
            champ = await store.championships.latest_championship(CHANNEL)
            if champ is not None and len(await store.championships.round_games(champ.id)) + 1 == int(n):
                die()  # the round's lobby opened, not recorded as the round
        return opened

    service.act = acting  # type: ignore[method-assign]
    history.record_end = ending  # type: ignore[assignment]
    service.lobby.new_game = opening  # type: ignore[method-assign]
    async with store, LedgerHarness(client, ledger, None) as h:
        h.users.update({ANN: "ann", BOB: "bob"})
        if args.lang == "de":
            h.guild_locale = "de"
            h.locales.update({ANN: "de", BOB: "de"})
        await history.settle_ends(service)  # as the bot does after READY
        await client.outbox.flush(takeover=True)  # what a stop left behind
        await client.computers.resume()
        await h.settle()
        if args.recover_only:
            await client.outbox.flush()
            return 0
        with open(args.acks, "a", encoding="utf-8") as acks:
            for _ in range(20000):
                if not await step(h, store, ledger, args, rng, acks, when, int(n or 0)):
                    break
                await client.outbox.flush()  # what fell due meanwhile (the end message, the table)
    return 0


async def step(h: LedgerHarness, store: Store, ledger: Ledger, args: argparse.Namespace, rng: random.Random,
               acks: Any, when: str, n: int) -> bool:
    """One interaction; False once the championship's last round is over."""
    key = args.game
    champ = await store.championships.latest_championship(CHANNEL)
    if champ is not None and champ.status != CHAMPIONSHIP_RUNNING:
        return False  # its last round's results ended it
    if champ is None:
        await h.slash(ANN, "championship create", name=NAME, game=key, rounds=ROUNDS[key], points="10 6 3 1",
                      drop=1, teams=key == "races")
        return True
    rounds = dict(await store.championships.round_games(champ.id))
    rec = await store.games.channel_game(CHANNEL)
    if rec is None or rec.id not in rounds.values():
        finished = [g for g in rounds.values() if (await store.games.get_game(g)).status == "finished"]
        if len(finished) >= len(champ.rounds):
            return False
        if rec is None and when == "table" and len(finished) == n:
            await h.bot.outbox.flush()
            die()  # the table is out; the host has not asked for the next round yet
        await h.slash(ANN, "championship next")
        return True
    number = next(r for r, g in rounds.items() if g == rec.id)
    if rec.status == "lobby":
        users = {s.user_id for s in rec.seats}
        teams = key == "races"
        if teams and rec.seats and rec.seats[0].options.get("team") is None:
            await h.slash(ANN, "game join", team=TEAMS[ANN])
        elif BOB not in users:
            await h.slash(BOB, "game join", **({"team": TEAMS[BOB]} if teams else {}))
        elif len(rec.seats) < (4 if teams else 3):
            computers = sum(1 for s in rec.seats if s.is_computer)
            await h.slash(ANN, "game computer", kind="smart", **({"team": 1 + computers} if teams else {}))
        else:
            await h.slash(ANN, "game start")
        return True
    if number == 2:  # the autopilot plays Bob's seat all round 2: it scores nothing
        marked = await store.settings.get_settings("game", rec.id)
        if marked.get("autopilot", {}).get("1") != 10_000:
            await store.settings.put_settings("game", rec.id, 0, {**marked, "autopilot": {"1": 10_000}})
    game = await h.bot.service.load(rec)
    seat = game.to_act
    if seat is None or rec.seats[seat].is_computer:  # the computers move in the background
        h.bot.computers.wake(CHANNEL)
        await h.settle()
        return True
    action = str(driver_for(key, "smart", rec.version).choose(game, seat))  # a short race: kills land in it
    await press_or_play(h, store, ledger, rec, rec.seats[seat].user_id, action, rng, acks)
    return True


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("game_db")
    parser.add_argument("ledger")
    parser.add_argument("acks")
    parser.add_argument("--game", default="races")
    parser.add_argument("--lang", default="en")
    parser.add_argument("--pg", default=None)
    parser.add_argument("--schema", default=None)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--crash-at", default=None)
    parser.add_argument("--recover-only", action="store_true")
    return asyncio.run(play(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
