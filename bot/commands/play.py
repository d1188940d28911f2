"""``junkyard play``: a game in the terminal, for people at one keyboard and computer players.

    junkyard play                                    you against three racing computers on track A
    junkyard play --seats human,human,smart,random   two people take turns at the keyboard (hotseat)
    junkyard play --game piecepack --seats human,smart
    junkyard play --laps 1 < moves.txt               a script: one action per line, ends cleanly at its end

The game runs through the same service and SQLite store as the Discord bot (``--db``), in the same
notation. Board pictures go to ``--out`` (one PNG per move).

Exit codes: 0 the game ended or the input did, 1 the game could not be set up, 2 wrong usage.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

GAMES = ("races", "piecepack")
DEFAULT_SEATS = {"races": "human,smart,smart,smart", "piecepack": "human,smart"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", choices=GAMES, default="races", help="which game (default races)")
    parser.add_argument("--seats", metavar="SPEC",
                        help="seats in order, comma-separated: human (or human:NAME), smart, random "
                             f"(default {DEFAULT_SEATS['races']} for races, {DEFAULT_SEATS['piecepack']} "
                             "for piecepack)")
    parser.add_argument("--track", metavar="NAME", help="Junkyard Races track name or letter (default A)")
    parser.add_argument("--laps", type=int, metavar="N", help="Junkyard Races laps, 1-5 (default 5)")
    parser.add_argument("--seed", type=int, metavar="S", help="seed of the dice, to play a game again")
    parser.add_argument("--db", metavar="PATH", default=None,
                        help="SQLite database file (default: $JUNKYARD_DB or junkyard.db)")
    parser.add_argument("--out", metavar="DIR", default="junkyard-out",
                        help="where the board pictures go (default ./junkyard-out/)")
    parser.add_argument("--pause", type=float, metavar="SECONDS", default=0.0,
                        help="wait this long after each computer move (default 0)")


def game_options(args: argparse.Namespace) -> dict[str, object]:
    """The shared ``/game new`` options given on the command line (the game's front end checks them)."""
    return {k: v for k, v in (("track", args.track), ("laps", args.laps)) if v is not None}


def run(args: argparse.Namespace) -> int:
    from bot.drivers import driver_kinds
    from bot.terminal import parse_seats
    from rules.registry import game_class

    try:
        seats = parse_seats(args.seats or DEFAULT_SEATS[args.game], driver_kinds(args.game))
    except ValueError as exc:
        print(f"junkyard play: --seats: {exc}", file=sys.stderr)
        return 2
    cls = game_class(args.game)
    if not cls.min_seats <= len(seats) <= cls.max_seats:
        print(f"junkyard play: {cls.title} seats {cls.min_seats} to {cls.max_seats}, not {len(seats)}",
              file=sys.stderr)
        return 2
    if args.pause < 0:
        print("junkyard play: --pause can't be negative", file=sys.stderr)
        return 2
    try:
        return asyncio.run(_play(args, seats))
    except KeyboardInterrupt:
        print("\nInterrupted.", file=sys.stderr)
        return 130


async def _play(args: argparse.Namespace, seats: list) -> int:
    from bot.service import Service
    from bot.store import SqliteStore, default_db_path
    from bot.terminal import PictureWriter, Terminal, new_channel_id, open_table

    db = args.db or default_db_path()
    try:
        pictures = PictureWriter(Path(args.out))
    except OSError as exc:
        print(f"junkyard play: cannot write pictures to {args.out}: {exc}", file=sys.stderr)
        return 1
    kwargs = {} if args.seed is None else {"seed_source": lambda: args.seed}
    async with SqliteStore(db) as store:
        service = Service(store, **kwargs)
        channel = new_channel_id()
        first, names = await open_table(service, channel, args.game, game_options(args), seats)
        terminal = Terminal(service, channel, names, pictures, pause=args.pause, db_path=db)
        if not first.ok:
            terminal.show(first)
            await service.abort(channel, 0, can_manage=True)
            return 1
        return await terminal.run(first)
