"""``junkyard bot``: run the Discord game master until stopped.

One process runs every server by default. A large bot runs as several processes sharing one PostgreSQL
database, each for some of Discord's shards: ``--shard-count 4 --shard-ids 0,1`` here, ``--shard-ids 2,3``
there. A process serves, resumes and times only its own shards' games.
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
from collections.abc import Sequence

from bot.commands.token import TokenMissing, read_token
from bot.store import default_db_path

log = logging.getLogger("junkyard")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", metavar="PATH|URL", default=None,
                        help="SQLite database file, or a PostgreSQL URL postgresql://user:password@host/db "
                             "(default: $JUNKYARD_DB or junkyard.db)")
    parser.add_argument("--token-file", metavar="FILE", default=None,
                        help="read the bot token from FILE instead of $DISCORD_TOKEN")
    parser.add_argument("--log-level", default="INFO", choices=["DEBUG", "INFO", "WARNING", "ERROR"],
                        help="logging level (default INFO)")
    parser.add_argument("--cache-size", metavar="N", type=int, default=None,
                        help="running games kept in memory; others load when touched (default 512)")
    parser.add_argument("--picture-processes", metavar="N", type=int, default=None,
                        help="processes drawing pictures (default: one per core; 0: threads only)")
    parser.add_argument("--shard-count", metavar="N", type=int, default=None,
                        help="the bot's number of Discord shards (every process of the bot gives the same); "
                             "without --shard-ids this process runs them all")
    parser.add_argument("--shard-ids", metavar="IDS", type=_shard_ids, default=None,
                        help="the shards this process runs, like 0,1 (from 0 to N-1); needs --shard-count")


def _shard_ids(text: str) -> list[int]:
    try:
        return parse_shard_ids(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def parse_shard_ids(text: str) -> list[int]:
    """``"0,1"`` → ``[0, 1]``; raises ValueError for anything else than distinct numbers ≥ 0."""
    try:
        ids = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise ValueError(f"shard ids are numbers separated by commas (like 0,1), not {text!r}") from None
    if not ids:
        raise ValueError("name at least one shard id (like 0,1)")
    if any(i < 0 for i in ids) or len(set(ids)) != len(ids):
        raise ValueError(f"shard ids are distinct numbers from 0 on, not {text!r}")
    return sorted(ids)


def check_shards(count: int | None, ids: Sequence[int] | None) -> tuple[int, list[int]] | None:
    """The shards a process runs, (count, ids), from ``--shard-count`` and ``--shard-ids``: None when not
    sharded; every shard when only the count is given. Raises ValueError for an impossible choice."""
    if count is None:
        if ids is not None:
            raise ValueError("--shard-ids needs --shard-count (the number of shards of the whole bot)")
        return None
    if count < 1:
        raise ValueError(f"--shard-count must be at least 1, not {count}")
    chosen = list(range(count)) if ids is None else sorted(ids)
    beyond = [i for i in chosen if i >= count]
    if beyond:
        raise ValueError(f"shard ids run from 0 to {count - 1} with --shard-count {count}; "
                         f"{', '.join(map(str, beyond))} is beyond")
    return count, chosen


def shown_db(target: str) -> str:
    """The database as a log line may show it: a URL without its password."""
    scheme, sep, rest = target.partition("://")
    if not sep or "@" not in rest:
        return target
    auth, _, host = rest.rpartition("@")
    user = auth.split(":", 1)[0]
    return f"{scheme}://{user}{':***' if ':' in auth else ''}@{host}"


def _stop(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def run(args: argparse.Namespace) -> int:
    import discord

    from bot.discord.shards import make_bot
    from bot.pictures import Pictures
    from bot.service import CACHE_SIZE, Service
    from bot.store import open_store

    try:
        shards = check_shards(args.shard_count, args.shard_ids)
        token = read_token(args.token_file)
    except (ValueError, TokenMissing) as exc:
        print(f"junkyard bot: {exc}", file=sys.stderr)
        return 2
    discord.utils.setup_logging(level=getattr(logging, args.log_level), root=True)
    target = args.db or default_db_path()
    log.info("using database %s", shown_db(target))
    store = open_store(target)
    if shards is not None:
        store.set_shards(*shards)
        log.info("running shards %s of %d", ",".join(map(str, shards[1])), shards[0])
    service = Service(store, pictures=Pictures(processes=args.picture_processes),
                      cache_size=args.cache_size or CACHE_SIZE)
    client = make_bot(shards=shards, service=service)
    signal.signal(signal.SIGTERM, _stop)  # `docker stop`: close the connection and the database cleanly
    try:
        # log_handler=None: logging is already set up above; the token never reaches a log line.
        client.run(token, log_handler=None)
    except discord.LoginFailure:
        print("junkyard bot: Discord refused the token (wrong or revoked); get the bot's token from the "
              "developer portal and set DISCORD_TOKEN or --token-file", file=sys.stderr)
        return 2
    return 0
