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


def _stop(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def run(args: argparse.Namespace) -> int:
    import discord

    from bot.discord import JunkyardBot
    from bot.store import SqliteStore

    try:
        token = read_token(args.token_file)
    except TokenMissing as exc:
        print(f"junkyard bot: {exc}", file=sys.stderr)
        return 2
    discord.utils.setup_logging(level=getattr(logging, args.log_level), root=True)
    path = args.db or default_db_path()
    log.info("using database %s", path)
    client = JunkyardBot(SqliteStore(path))
    signal.signal(signal.SIGTERM, _stop)  # `docker stop`: close the connection and the database cleanly
    # log_handler=None: logging is already set up above; the token never reaches a log line.
    client.run(token, log_handler=None)
    return 0
