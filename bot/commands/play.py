"""``junkyard play``: a game in the terminal, for people at one keyboard and computer players.

    junkyard play                                    you against the flagship game's computers
    junkyard play --seats human,human,smart,random   two people take turns at the keyboard (hotseat)
    junkyard play --game KEY --seats human,smart     another game
    junkyard play --laps 1 < moves.txt               a script: one action per line, ends cleanly at its end
    junkyard play --lang de                          everything in German (the game, the pictures, the terminal)
    junkyard play --resume                           the game left unfinished last, without asking
    junkyard play --new                              a new game, even with one left unfinished
    junkyard play --championship NAME --rounds "A 2; B 3" --points f1
                                                     a championship, round after round (resumed by its name;
                                                     see :mod:`bot.commands.play_championship`)

The game runs through the same service and store as the Discord bot (``--db``), in the same notation.
``quit``, the end of the input and Ctrl-C leave the game as it is; the next ``junkyard play`` on the same
database offers to resume it (at a keyboard; a script is told how). Board pictures go to the game's own
folder under ``--out``, in a folder of its database (``junkyard-out/DATABASE/game-ID/``, one PNG per move:
see :func:`bot.terminal.database_folder`).

Exit codes (:data:`bot.commands.EXIT_CODES`): 0 the game ended or was left, 1 a failure while running (the
database, the pictures' folder, a game to resume that is not there), 2 a usage mistake (an option, or an
option the chosen game does not take), 130 Ctrl-C, 141 standard output closed.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

from bot import texts
from bot.commands import FAILED, INTERRUPTED, USAGE
from bot.commands.link import watch_line
from bot.games import GameUnit, SetupError, new_options, playable_keys, unit_for
from bot.store import GameRecord, Store
from bot.telling.outcomes import Refusal
from bot.terminal import CtrlC, SeatSpec, plain
from rules.catalogue import DEFAULT, LANGS


def computer_kind(unit: GameUnit[Any]) -> str:
    """The computer a game seats when nobody says: its own kind if it has one, else random."""
    return next(iter(unit.drivers), "random")


def default_seats(unit: GameUnit[Any]) -> str:
    """You and computers, as many seats as the game usually has."""
    return ",".join(["human"] + [computer_kind(unit)] * (unit.players - 1))


def add_game_arguments(parser: argparse.ArgumentParser) -> None:
    """``--game``, ``--lang`` and every game's ``/game new`` options (``--track``, ``--laps`` …), each saying
    which games read it; the chosen game's unit checks them."""
    keys = playable_keys()
    games = ", ".join(f"{key} ({unit_for(key).title})" for key in keys)
    parser.add_argument("--game", choices=keys, default=None, metavar="GAME",
                        help=f"which game: {games} (default {keys[0]})")
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
                        help="SQLite database file, or a postgresql:// URL (default: $JUNKYARD_DB or junkyard.db)")
    parser.add_argument("--out", metavar="DIR", default="junkyard-out",
                        help="where the board pictures go, in a folder per database and game: "
                             "DIR/DATABASE-HASH/game-ID/ (default ./junkyard-out/)")
    parser.add_argument("--pause", type=float, metavar="SECONDS", default=0.0,
                        help="wait this long after each computer move (default 0)")
    again = parser.add_mutually_exclusive_group()
    again.add_argument("--resume", metavar="ID", type=int, nargs="?", const=0, default=None,
                       help="play on the game left unfinished last (or game ID) without asking")
    again.add_argument("--new", action="store_true",
                       help="start a new game even when one was left unfinished (else you are asked)")
    from bot.commands import play_championship

    play_championship.add_arguments(parser)


def game_options(args: argparse.Namespace) -> dict[str, object]:
    """The ``/game new`` options given on the command line (the game's unit checks them)."""
    return {name: getattr(args, name, None) for name in new_options() if getattr(args, name, None) is not None}


def refused_options(args: argparse.Namespace, unit: GameUnit[Any]) -> str | None:
    """What is wrong with the game's options on the command line, in one line (None: nothing): an option the
    chosen game does not take, named with the games that take it (each game's unit lists its options), or a
    value its unit refuses."""
    from bot.cli import either

    given = game_options(args)
    for name, value in given.items():
        takers = [taker for taker, _ in new_options()[name]]
        if unit.key not in {taker.key for taker in takers}:
            flag = f"--no-{name}" if value is False else f"--{name}"
            return f"{flag} is for {either([taker.title for taker in takers])} only, not {unit.title}"
    try:
        unit.setup_options(given, args.lang)
    except SetupError as exc:
        return str(exc)
    return None


def run(args: argparse.Namespace) -> int:
    from bot.drivers import driver_kinds
    from bot.terminal import parse_seats

    explicit = args.game
    args.game = args.game or playable_keys()[0]
    unit = unit_for(args.game)
    try:
        seats = parse_seats(args.seats or default_seats(unit), driver_kinds(args.game))
    except ValueError as exc:
        return _error(f"--seats: {exc}", USAGE)
    if args.championship is not None:
        return _championship(args, seats)
    cls = unit.rules
    if not cls.min_seats <= len(seats) <= cls.max_seats:
        return _error(f"{cls.title} seats {cls.min_seats} to {cls.max_seats}, not {len(seats)}", USAGE)
    if args.pause < 0:
        return _error("--pause can't be negative", USAGE)
    refused = refused_options(args, unit)
    if refused is not None:
        return _error(refused, USAGE)
    told: list[str] = []
    try:
        return asyncio.run(_play(args, seats, explicit, told))
    except (KeyboardInterrupt, asyncio.CancelledError):  # cancelled: Ctrl-C came as the game was left
        if not told:  # the terminal said how the game was left; before it began there is nothing to keep
            print("\nInterrupted.", file=sys.stderr)
        return INTERRUPTED


def _championship(args: argparse.Namespace, seats: list[SeatSpec]) -> int:
    """``--championship``: its rounds one after another (:mod:`bot.commands.play_championship`)."""
    from bot.commands import play_championship

    if not args.championship.strip():
        return _error("--championship needs a name", USAGE)
    if args.pause < 0:
        return _error("--pause can't be negative", USAGE)
    try:
        return asyncio.run(play_championship.play(args, seats))
    except (KeyboardInterrupt, asyncio.CancelledError):
        return INTERRUPTED


def _error(message: str, code: int = FAILED) -> int:
    print(f"junkyard play: {message}", file=sys.stderr)
    return code


async def _play(args: argparse.Namespace, seats: list[SeatSpec], game_key: str | None, told: list[str]) -> int:
    """Open the store, resume a game left unfinished or start a new one, and play it. ``told`` gets a word
    once the terminal has said how the game was left."""
    from bot.play.service import Service
    from bot.store import default_db_path
    from bot.terminal import (
        Terminal,
        db_argument,
        interrupt_at_once,
        new_channel_id,
        open_for_play,
        open_table,
        resume_table,
        shown_before,
    )

    db = args.db or default_db_path()
    opened = await open_for_play(db, args.out)
    if isinstance(opened, str):
        return _error(opened)
    store, pictures = opened
    again = "junkyard play" + db_argument(args.db)  # a command that works as printed: no password in it
    async with store:
        service = Service(store) if args.seed is None else Service(store, seed_source=lambda: args.seed)
        with interrupt_at_once() as ctrl_c:
            chosen = await _left_game(args, store, game_key, shown(db), ctrl_c)
        if isinstance(chosen, str):
            return _error(chosen) if chosen else 0
        if chosen is not None:
            first, names = await resume_table(service, chosen)
            terminal = Terminal(service, chosen.channel_id, names, pictures, pause=args.pause, db_path=db,
                                lang=chosen.lang, resume=again, seen=await shown_before(service, chosen.id))
        else:
            channel = new_channel_id()
            first, names = await open_table(service, channel, args.game, game_options(args), seats, lang=args.lang)
            terminal = Terminal(service, channel, names, pictures, pause=args.pause, db_path=db, lang=args.lang,
                                resume=again)
            if isinstance(first.outcome, Refusal):  # the options together: the seats on this track, say
                await service.abort(channel, 0, can_manage=True)
                return _error(plain(first.outcome.text), USAGE)
        game_id = chosen.id if chosen is not None else first.game_id
        if game_id is not None:
            print(await watch_line(store, game_id, args.db, terminal.lang), flush=True)
        try:
            return await terminal.run(first)
        finally:
            told.append("left")


def shown(db: str) -> str:
    """A database as the terminal prints it (a URL's password masked)."""
    from bot.terminal import shown_db

    return shown_db(db)


async def _left_game(args: argparse.Namespace, store: Store, game_key: str | None, db: str, ctrl_c: CtrlC
                     ) -> GameRecord | str | None:
    """The game to resume: ``--resume`` (the latest left, or game ID), else the latest left when the player
    at the keyboard says yes. None: start a new game; text: a problem to report (empty: nothing to do)."""
    from bot.terminal import left_games

    if args.new:
        return None
    lang = args.lang
    if args.resume is not None:
        left = await left_games(store)
        if args.resume == 0:
            left = [rec for rec in left if game_key is None or rec.game_key == game_key]
            return left[0] if left else texts.say("terminal.no_resume", lang, db=db)
        found = [rec for rec in left if rec.id == args.resume]
        return found[0] if found else texts.say("terminal.not_resumable", lang, game=args.resume, db=db)
    left = await left_games(store, game_key)
    if not left:
        return None
    rec = left[0]
    title = unit_for(rec.game_key).title
    if not sys.stdin.isatty():  # a script's lines are moves: it is told, not asked
        print(texts.say("terminal.resume_note", lang, game=rec.id, title=title, move=rec.version, db=db),
              file=sys.stderr)
        return None
    print(texts.say("terminal.resume_offer", lang, game=rec.id, title=title, move=rec.version, db=db), end="",
          flush=True)
    from bot.terminal import read_line

    with ctrl_c.reading():
        answer = read_line(sys.stdin)
    if not answer:
        print()
        return ""  # end of input: neither game
    yes = {w.strip() for w in texts.say("terminal.resume_yes", lang).split(",")}
    return rec if answer.strip().lower() in yes | {""} else None
