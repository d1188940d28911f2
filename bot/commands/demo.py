"""``junkyard demo``: computers play a whole game while you watch; pictures, a replay and the standings.

    junkyard demo --out demo                       the flagship game with its usual number of computers
    junkyard demo --seats 2 --laps 1 --seed 7      a short race, the same every time
    junkyard demo --game KEY                       another game
    junkyard demo --lang de                        in German: the texts and the words on the pictures

The game runs through the same service and SQLite store as the Discord bot, on a temporary database unless
``--db`` names one. A progress line goes to standard error; the standings go to standard output. ``--out``
receives exactly the pictures a Discord channel would show: one message per turn, as its last edit left it
(``message-NNNN.png``; ``message-NNNN-whole.png`` for the turn's message that shows the whole board at the
start of a new lap or period), each with its description beside it (``message-NNNN.txt``: the words Discord
reads aloud in the picture's place), and, for a game that draws them, an animated replay.

Exit codes (:data:`bot.commands.EXIT_CODES`): 0 done, 1 a failure while running (the database, the pictures'
folder, a game that did not finish), 2 a usage mistake (an option, or an option the chosen game does not take),
130 Ctrl-C, 141 standard output closed.
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from bot.commands import FAILED, INTERRUPTED, USAGE
from bot.commands.link import watch_line
from bot.commands.play import add_game_arguments, computer_kind, game_options, refused_options
from bot.games import GameUnit, playable_keys, unit_for
from bot.local import LocalChannel
from bot.play.autoplay import COMPUTER_MOVES_PER_REPLY
from bot.play.service import Service
from bot.telling.outcomes import Accepted
from bot.texts import DEFAULT, say
from bot.texts import computer_kind as kind_name
from rules.contract import Game
from rules.literal import bare

if TYPE_CHECKING:
    from bot.store import GameRecord

#: a game still running after this many moves is stopped (no real game comes near it)
MOVE_CAP = 20_000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_game_arguments(parser)
    parser.add_argument("--seats", type=int, metavar="N", default=None,
                        help="how many computers play (default: as many as the game usually has)")
    parser.add_argument("--seed", type=int, metavar="S", help="seed of the dice (default: a new one, printed)")
    parser.add_argument("--kind", default=None, metavar="KIND",
                        help="the computers' kind: smart or random (default: the game's own, else random)")
    parser.add_argument("--out", metavar="DIR", default="junkyard-demo",
                        help="where pictures and the replay go (default ./junkyard-demo/)")
    parser.add_argument("--every", type=int, metavar="N", default=1,
                        help="the picture of every N-th message of the channel (default 1: every message)")
    parser.add_argument("--db", metavar="PATH", default=None,
                        help="keep the game in this SQLite file (default: a temporary one)")


def run(args: argparse.Namespace) -> int:
    from bot.drivers import driver_kinds

    args.game = args.game or playable_keys()[0]
    unit = unit_for(args.game)
    cls = unit.rules
    args.seats = unit.players if args.seats is None else args.seats
    args.kind = args.kind or computer_kind(unit)
    kinds = driver_kinds(args.game)
    refused = (f"{cls.title} seats {cls.min_seats} to {cls.max_seats}, not {args.seats}"
               if not cls.min_seats <= args.seats <= cls.max_seats
               else "--every is 1 or more" if args.every < 1
               else f"--kind is one of {', '.join(kinds)}" if args.kind not in kinds
               else refused_options(args, unit))
    if refused is not None:
        print(f"junkyard demo: {refused}", file=sys.stderr)
        return USAGE
    try:
        if args.db:
            return asyncio.run(_demo(args, args.db))
        with tempfile.TemporaryDirectory(prefix="junkyard-demo-") as tmp:
            return asyncio.run(_demo(args, str(Path(tmp) / "demo.db")))
    except KeyboardInterrupt:
        print("\nInterrupted.", file=sys.stderr)
        return INTERRUPTED


async def _demo(args: argparse.Namespace, db: str) -> int:
    from bot import terminal as term
    from bot.play.service import Service
    from bot.store import CannotOpen, open_store

    started = time.perf_counter()
    lang = args.lang
    seed = args.seed if args.seed is not None else secrets.randbits(31)
    try:
        pictures = ChannelPictures(term.PictureWriter(Path(args.out)), args.every)
    except OSError as exc:
        print(f"junkyard demo: cannot write to {args.out}: {exc}", file=sys.stderr)
        return FAILED
    store = open_store(db)
    try:
        await store.open()
    except CannotOpen as exc:
        print(f"junkyard demo: {exc}", file=sys.stderr)
        return FAILED
    async with store:
        service = Service(store, seed_source=lambda: seed)
        channel = term.new_channel_id()
        first, _ = await term.open_table(service, channel, args.game, game_options(args),
                                         [term.SeatSpec(args.kind)] * args.seats, lang=args.lang)
        if not isinstance(first.outcome, Accepted):  # the options together: the seats on this track, say
            print(f"junkyard demo: {bare(first.outcome.text)}", file=sys.stderr)
            return USAGE
        game_id = first.outcome.game_id
        await pictures.show(service, first.outcome)
        game = await service.load(await store.games.get_game(game_id))
        print(bare(_title(game, args, seed, lang)), flush=True)
        progress = Progress(sys.stderr, unit_for(args.game), lang)
        progress.update(game)
        await _play_out(service, channel, game_id, pictures, progress)
        rec = await store.games.get_game(game_id)
        game = await service.load(rec)
        if not game.is_over:
            await service.abort(channel, term.HOST_ID)
            print(f"junkyard demo: {say('demo.unfinished', lang, count=rec.version)}", file=sys.stderr)
            return FAILED
        actions = [a.action for a in await store.games.actions(game_id)]
        watch = await watch_line(store, game_id, args.db, lang) if args.db else None  # a kept game only
    _report(args, game, rec, actions, pictures, started, watch)
    return 0


async def _play_out(service: Service, channel: int, game_id: int, pictures: ChannelPictures,
                    progress: Progress) -> None:
    """The computers play batch by batch until the game is over or has run too long, each batch's pictures
    written; an interrupted demo leaves no half-played game behind."""
    from bot import terminal as term

    try:
        while True:
            batch = await term.play_computers(service, channel, COMPUTER_MOVES_PER_REPLY)
            if batch is None:
                break
            await pictures.show(service, batch)
            rec = await service.store.games.get_game(game_id)
            progress.update(await service.load(rec))
            if rec.version >= MOVE_CAP:
                break
    except (KeyboardInterrupt, asyncio.CancelledError):
        await service.abort(channel, term.HOST_ID)  # a kept database holds no half-played game
        raise
    finally:
        progress.finish()


def _report(args: argparse.Namespace, game: Game, rec: GameRecord, actions: list[str], pictures: ChannelPictures,
            started: float, watch: str | None = None) -> None:
    """What the finished demo prints: the ending, the standings, what the channel saw, where the pictures
    and the replay are, how to ``watch`` its page, and how long it took since ``started``."""
    from bot import terminal as term

    lang = args.lang
    print(f"\n{_ending(game, lang)}\n")
    print(term.format_standings(game, lang))
    print()
    print(say("demo.channel", lang, messages=say("demo.messages", lang, count=pictures.messages),
              edits=say("demo.edits", lang, count=pictures.edits),
              wholes=say("demo.wholes", lang, count=pictures.wholes),
              moves=say("demo.moves", lang, count=len(actions))))
    if pictures.paths:
        print(say("demo.pictures", lang, count=len(pictures.paths), folder=pictures.writer.dir,
                  first=pictures.paths[0].name, last=pictures.paths[-1].name))
    print(_replay(unit_for(args.game), rec.setup, rec.seed, actions, pictures.writer.dir, lang))
    if args.db:
        print(say("demo.stored", lang, game=rec.id, db=term.shown_db(args.db)))
    if watch:
        print(watch)
    print(say("demo.timing", lang, count=len(actions), seconds=f"{time.perf_counter() - started:.1f}"))


class ChannelPictures:
    """What a Discord channel would show of the game: its records are delivered to a channel kept in memory
    (:class:`bot.local.LocalChannel`, through the one delivery routine), a record of a new turn posting a
    message, one that goes on with a turn editing that turn's message (see :mod:`bot.telling.turn_messages`). Each
    message's picture is written as the message ends (an edit overwrites it); every ``every``-th message
    only."""

    def __init__(self, writer: Any, every: int = 1) -> None:
        self.writer = writer
        self.every = every
        self.channel = LocalChannel()
        self.messages = 0
        self.edits = 0
        self.wholes = 0
        self.paths: list[Path] = []

    async def show(self, service: Service, outcome: Accepted) -> None:
        for change in await self.channel.take(service, outcome):
            message = change.message
            if change.edit:
                self.edits += 1
            else:
                self.messages += 1
                self.wholes += message.shows == "whole"
            if message.png is None or (change.number - 1) % self.every:
                continue
            name = f"message-{change.number:04d}{'-whole' if message.shows == 'whole' else ''}.png"
            path = self.writer.write(message.png, message.version, name, message.description)
            if path is not None and path not in self.paths:
                self.paths.append(path)


def _title(game: Any, args: argparse.Namespace, seed: int, lang: str = DEFAULT) -> str:
    players = say("demo.computers", lang, count=args.seats, kind=kind_name(args.kind, lang))
    return say("demo.title", lang, title=unit_for(game.key).table_title(game, players, lang=lang), seed=seed)


def _ending(game: Any, lang: str = DEFAULT) -> str:
    won = ", ".join(game.seat_names[s] for s in game.winners) or say("history.nobody", lang)
    return say("demo.over", lang, count=game.ply, won=won)


def _replay(unit: GameUnit[Any], setup: dict[str, Any], seed: int, actions: list[str], out: Path,
            lang: str = DEFAULT) -> str:
    """Write the animated replay (its words in ``lang`` when the game words them), if the game draws one; a
    line saying what happened."""
    made = unit.replay(setup, seed, actions, lang=lang)
    if made is None:
        return say("demo.no_replay", lang, title=unit.title)
    data, frames = made
    path = out / "replay.gif"
    path.write_bytes(data)
    return say("demo.replay", lang, path=path, kb=len(data) // 1024, frames=frames)


class Progress:
    """A one-line progress display: redrawn in place on a terminal, a new line on each change otherwise."""

    def __init__(self, stream: TextIO, unit: GameUnit[Any], lang: str = DEFAULT) -> None:
        self.stream = stream
        self.unit = unit
        self.lang = lang
        self.tty = _is_tty(stream)
        self.last_key: Any = None
        self.width = shutil.get_terminal_size((100, 20)).columns - 1

    def update(self, game: Any) -> None:
        line, key = self.unit.progress(game, lang=self.lang)
        line = line or say("board.at_move", self.lang, move=f"{game.ply:>4}")
        if self.tty:
            print("\r" + line[: self.width].ljust(self.width), end="", file=self.stream, flush=True)
        elif key != self.last_key:
            print(line, file=self.stream, flush=True)
        self.last_key = key

    def finish(self) -> None:
        if self.tty:
            print(file=self.stream, flush=True)


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
