"""``junkyard play``: a game in the terminal, for people at one keyboard and computer players.

    junkyard play                                    you against the flagship game's computers
    junkyard play --seats human,human,smart,random   two people take turns at the keyboard (hotseat)
    junkyard play --game KEY --seats human,smart     another game
    junkyard play --laps 1 < moves.txt               a script: one action per line, ends cleanly at its end
    junkyard play --lang de                          everything in German (the game, the pictures, the terminal)

The game runs through the same service and SQLite store as the Discord bot (``--db``), in the same
notation. Board pictures go to ``--out`` (one PNG per move).

Exit codes: 0 the game ended or the input did, 1 the game could not be set up, 2 wrong usage.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from bot.games import GameUnit, new_options, playable_keys, unit_for
from bot.terminal import SeatSpec
from rules.catalogue import DEFAULT, LANGS


def computer_kind(unit: GameUnit) -> str:
    """The computer a game seats when nobody says: its own kind if it has one, else random."""
    return next(iter(unit.drivers), "random")


def default_seats(unit: GameUnit) -> str:
    """You and computers, as many seats as the game usually has."""
    return ",".join(["human"] + [computer_kind(unit)] * (unit.players - 1))


def add_game_arguments(parser: argparse.ArgumentParser) -> None:
    """``--game``, ``--lang`` and every game's ``/game new`` options (``--track``, ``--laps`` …), each saying
    which games read it; the chosen game's unit checks them."""
    keys = playable_keys()
    parser.add_argument("--game", choices=keys, default=keys[0], help=f"which game (default {keys[0]})")
    parser.add_argument("--lang", choices=LANGS, default=DEFAULT,
                        help=f"the game's language: what is shown and the words on the pictures (default {DEFAULT})")
    for name, offers in new_options().items():
        option = offers[0][1]
        games = ", ".join(unit.title for unit, _ in offers)
        help_text = f"{option.description} ({games})"
        if option.type == "flag":
            parser.add_argument(f"--{name}", action=argparse.BooleanOptionalAction, default=None, help=help_text)
        else:
            parser.add_argument(f"--{name}", type=int if option.type == "integer" else str, metavar="N"
                                if option.type == "integer" else "NAME", default=None, help=help_text)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_game_arguments(parser)
    parser.add_argument("--seats", metavar="SPEC",
                        help="seats in order, comma-separated: human (or human:NAME) or a computer kind "
                             "(random, smart …); default: you against the game's computers")
    parser.add_argument("--seed", type=int, metavar="S", help="seed of the dice, to play a game again")
    parser.add_argument("--db", metavar="PATH", default=None,
                        help="SQLite database file (default: $JUNKYARD_DB or junkyard.db)")
    parser.add_argument("--out", metavar="DIR", default="junkyard-out",
                        help="where the board pictures go (default ./junkyard-out/)")
    parser.add_argument("--pause", type=float, metavar="SECONDS", default=0.0,
                        help="wait this long after each computer move (default 0)")


def game_options(args: argparse.Namespace) -> dict[str, object]:
    """The ``/game new`` options given on the command line (the game's unit checks them)."""
    return {name: getattr(args, name, None) for name in new_options() if getattr(args, name, None) is not None}


def run(args: argparse.Namespace) -> int:
    from bot.drivers import driver_kinds
    from bot.terminal import parse_seats

    unit = unit_for(args.game)
    try:
        seats = parse_seats(args.seats or default_seats(unit), driver_kinds(args.game))
    except ValueError as exc:
        print(f"junkyard play: --seats: {exc}", file=sys.stderr)
        return 2
    cls = unit.rules
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


async def _play(args: argparse.Namespace, seats: list[SeatSpec]) -> int:
    from bot.service import Service
    from bot.store import default_db_path, open_store
    from bot.terminal import PictureWriter, Terminal, new_channel_id, open_table

    db = args.db or default_db_path()
    try:
        pictures = PictureWriter(Path(args.out))
    except OSError as exc:
        print(f"junkyard play: cannot write pictures to {args.out}: {exc}", file=sys.stderr)
        return 1
    async with open_store(db) as store:
        service = Service(store) if args.seed is None else Service(store, seed_source=lambda: args.seed)
        channel = new_channel_id()
        first, names = await open_table(service, channel, args.game, game_options(args), seats, lang=args.lang)
        terminal = Terminal(service, channel, names, pictures, pause=args.pause, db_path=db, lang=args.lang)
        if not first.ok:
            terminal.show(first)
            await service.abort(channel, 0, can_manage=True)
            return 1
        return await terminal.run(first)
