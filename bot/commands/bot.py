"""``junkyard bot``: run the Discord game master until stopped."""

from __future__ import annotations

import argparse
import logging
import signal
import sys

from bot.commands.token import TokenMissing, read_token
from bot.store import default_db_path

log = logging.getLogger("junkyard")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", metavar="PATH", default=None,
                        help="SQLite database file (default: $JUNKYARD_DB or junkyard.db)")
    parser.add_argument("--token-file", metavar="FILE", default=None,
                        help="read the bot token from FILE instead of $DISCORD_TOKEN")
    parser.add_argument("--log-level", default="INFO", choices=["DEBUG", "INFO", "WARNING", "ERROR"],
                        help="logging level (default INFO)")
    parser.add_argument("--cache-size", metavar="N", type=int, default=None,
                        help="running games kept in memory; others load when touched (default 512)")
    parser.add_argument("--picture-processes", metavar="N", type=int, default=None,
                        help="processes drawing pictures (default: one per core; 0: threads only)")
    parser.add_argument("--defer-after", metavar="SECONDS", type=float, default=None,
                        help="defer an interaction the service has not answered after this long (default 1.0; "
                             "0: always defer first)")


def _stop(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def run(args: argparse.Namespace) -> int:
    import discord

    from bot.discord import JunkyardBot
    from bot.pictures import Pictures
    from bot.service import CACHE_SIZE, Service
    from bot.store import SqliteStore

    try:
        token = read_token(args.token_file)
    except TokenMissing as exc:
        print(f"junkyard bot: {exc}", file=sys.stderr)
        return 2
    discord.utils.setup_logging(level=getattr(logging, args.log_level), root=True)
    path = args.db or default_db_path()
    log.info("using database %s", path)
    service = Service(SqliteStore(path), pictures=Pictures(processes=args.picture_processes),
                      cache_size=args.cache_size or CACHE_SIZE)
    client = JunkyardBot(service=service) if args.defer_after is None else JunkyardBot(
        service=service, defer_after=args.defer_after)
    signal.signal(signal.SIGTERM, _stop)  # `docker stop`: close the connection and the database cleanly
    try:
        # log_handler=None: logging is already set up above; the token never reaches a log line.
        client.run(token, log_handler=None)
    except discord.LoginFailure:
        print("junkyard bot: Discord refused the token (wrong or revoked); get the bot's token from the "
              "developer portal and set DISCORD_TOKEN or --token-file", file=sys.stderr)
        return 2
    return 0
