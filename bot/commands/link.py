"""``junkyard link``: print the page link of a stored game, or a person's seat link, without Discord.

    junkyard link GAME_ID [--seat N] [--db PATH|URL] [--url URL] [--listen HOST:PORT]

The link is the one ``/game link`` gives in Discord (made and stored when the game has none; revoked links stay
revoked); with ``--seat N`` it is the "Open my board" link ``/game link`` offers the person in seat N (1 is the
first seat) privately, their own page that plays their moves. Either is under the pages' public address:
``--url``, else ``JUNKYARD_WEB_URL``, else the address ``junkyard web`` listens on (``--listen``, by default
127.0.0.1:8080). ``junkyard web`` with the same database serves it.

Exit codes (:data:`bot.commands.EXIT_CODES`): 0 printed, 1 a failure while running (a database it cannot use, no
such game), 2 a usage mistake (the options; a seat the game does not have, or a computer's seat).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import TYPE_CHECKING

from bot import texts
from bot.commands.web import DEFAULT_LISTEN, _address, add_url, base_url, parse_address

if TYPE_CHECKING:
    from bot.store import Store


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game_id", type=int, metavar="GAME_ID", help="the game's id in the store")
    parser.add_argument("--db", metavar="PATH|URL", default=None,
                        help="SQLite database file, or a PostgreSQL URL (default: $JUNKYARD_DB or junkyard.db)")
    parser.add_argument("--seat", type=int, metavar="N", default=None,
                        help="print the own page link of the person in seat N (1 is the first seat) instead")
    add_url(parser)
    parser.add_argument("--listen", metavar="HOST:PORT", type=_address, default=parse_address(DEFAULT_LISTEN),
                        help=f"the address junkyard web listens on, for the link when there is no public address "
                             f"(default {DEFAULT_LISTEN})")


def run(args: argparse.Namespace) -> int:
    from bot.commands import FAILED, OK, USAGE
    from bot.store import CannotOpen, GameNotFound, default_db_path
    from bot.terminal import shown_db

    try:
        base = base_url(args.listen, args.url)
    except ValueError as exc:
        print(f"junkyard link: {exc}", file=sys.stderr)
        return USAGE
    if base is None:
        print("junkyard link: junkyard web listens on every network there: give the pages' public address "
              "with --url", file=sys.stderr)
        return USAGE
    target = args.db or default_db_path()
    try:
        if args.seat is None:
            print(asyncio.run(game_link(target, args.game_id, base)))
        else:
            print(asyncio.run(seat_link(target, args.game_id, args.seat, base)))
    except SeatMistake as exc:
        print(f"junkyard link: {exc}", file=sys.stderr)
        return USAGE
    except CannotOpen as exc:
        print(f"junkyard link: {exc}", file=sys.stderr)
        return FAILED
    except GameNotFound:
        print(f"junkyard link: {texts.say('web.cli_no_game', texts.DEFAULT, game=args.game_id, db=shown_db(target))}",
              file=sys.stderr)
        return FAILED
    return OK


async def game_link(target: str, game_id: int, base: str) -> str:
    """The page link of the game ``game_id`` in the database ``target``, under ``base`` (raises
    :class:`~bot.store.GameNotFound` when there is no such game)."""
    from bot.store import open_store
    from bot.web.share import page_links

    async with open_store(target) as store:
        rec = await store.games.get_game(game_id)
        url = await page_links(store, base)(rec)
    assert url is not None
    return url


class SeatMistake(ValueError):
    """``--seat N`` names no person's seat of the game (no such seat, or a computer's): its one line."""


async def seat_link(target: str, game_id: int, seat: int, base: str) -> str:
    """The seat link of the person in seat ``seat`` (1 is the first) of the game ``game_id`` in ``target``, as
    ``/game link`` makes it for them (raises :class:`SeatMistake` for a seat the game lacks or a computer's,
    :class:`~bot.store.GameNotFound` when there is no such game)."""
    from bot.store import open_store
    from bot.web.share import seat_links

    async with open_store(target) as store:
        rec = await store.games.get_game(game_id)
        if not 1 <= seat <= len(rec.seats):
            raise SeatMistake(texts.say("web.cli_no_seat", texts.DEFAULT, seat=seat, game=game_id,
                                        seats=len(rec.seats)))
        sitting = rec.seats[seat - 1]
        if sitting.is_computer:
            raise SeatMistake(texts.say("web.cli_computer_seat", texts.DEFAULT, seat=seat, game=game_id))
        url = await seat_links(store, base)(rec, sitting.user_id)
    assert url is not None
    return url


async def watch_line(store: Store, game_id: int, db: str | None, lang: str) -> str:
    """What ``junkyard play`` and ``junkyard demo`` print so a game can be watched in a browser: the command
    that serves its page and its link (under ``JUNKYARD_WEB_URL``, else where ``junkyard web`` listens)."""
    from bot.terminal import db_argument
    from bot.web.share import page_links

    try:
        base = base_url(parse_address(DEFAULT_LISTEN), None)
    except ValueError:  # a JUNKYARD_WEB_URL that is not one: where junkyard web listens
        base = None
    rec = await store.games.get_game(game_id)
    url = await page_links(store, base or f"http://{DEFAULT_LISTEN}")(rec)
    return texts.say("web.cli_watch", lang, command="junkyard web" + db_argument(db), url=url)


__all__ = ["SeatMistake", "add_arguments", "game_link", "run", "seat_link", "watch_line"]
