"""``junkyard bot``: run the Discord game master until stopped.

One process runs every server by default. A large bot runs as several processes sharing one PostgreSQL
database, each for some of Discord's shards: ``--shard-count 4 --shard-ids 0,1`` here, ``--shard-ids 2,3``
there. A process serves, resumes and times only its own shards' games.

Before it logs in, the command opens the database once (a database it cannot use is one line and exit 1),
then reports what an operator needs: the version, the store, the games, the shards, and once connected the
servers and whether the slash commands are registered. Exit codes (:data:`bot.commands.EXIT_CODES`): 0 stopped,
1 a failure while running (the database, the token file, Discord refusing the token or out of reach, the
pages' address taken), 2 a usage mistake (the options, no token given).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import platform
import signal
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bot.commands.token import TokenMissing, TokenUnreadable, read_token
from bot.store import default_db_path

if TYPE_CHECKING:
    from bot.discord.client import JunkyardBot

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
    parser.add_argument("--web", metavar="HOST:PORT", type=_listen, default=None,
                        help="also serve the games' web pages on this address, like 127.0.0.1:8080 (default: none; "
                             "`junkyard web` serves them in a process of its own)")
    parser.add_argument("--web-url", metavar="URL", default=None,
                        help="the pages' public address, under which /game link and the end of a game give "
                             "links, like https://games.example (default: $JUNKYARD_WEB_URL, else the --web "
                             "address when it names one host; without either, no links)")
    parser.add_argument("--web-behind-proxy", action="store_true",
                        help="a reverse proxy forwards the pages' requests (rate limits read X-Forwarded-For)")


def _shard_ids(text: str) -> list[int]:
    try:
        return parse_shard_ids(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _listen(text: str) -> tuple[str, int]:
    from bot.commands.web import parse_address

    try:
        return parse_address(text)
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


def quiet_voice() -> None:
    """A game bot never speaks in voice channels: discord.py's warnings that voice is not supported (no PyNaCl,
    no davey) and the standard library's about its audio module tell an operator nothing."""
    import warnings

    warnings.filterwarnings("ignore", message=".*audioop.*", category=DeprecationWarning)
    from discord.voice_client import VoiceClient

    VoiceClient.warn_nacl = False
    setattr(VoiceClient, "warn_dave", False)  # noqa: B010 (newer discord.py only)


async def check_store(target: str) -> str:
    """Open the store once before logging in, so a database that cannot be used is said at once (raises
    :class:`~bot.store.CannotOpen`); returns what the start-up report says of it."""
    from bot.store import is_database_url, open_store

    async with open_store(target) as store:
        schema = await store.schema_version()
    kind = "PostgreSQL" if is_database_url(target) else "SQLite"
    return f"{kind} {shown_db(target)}, schema {schema}"


def version() -> str:
    """This program's version, as installed."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("junkyard-gm")
    except PackageNotFoundError:
        return "(not installed)"


async def report_commands(client: Any) -> None:
    """Say once, when connected, whether the slash commands are registered with Discord (``junkyard sync``)."""
    import discord

    mine = sorted(c.name for c in client.tree.get_commands())
    try:
        there = {c.name for c in await client.tree.fetch_commands()}
    except discord.HTTPException as exc:
        log.warning("could not ask Discord which slash commands are registered (%s)", exc)
        return
    missing = [name for name in mine if name not in there]
    if not there:
        log.warning("slash commands: none registered for all servers; run `junkyard sync` once (or "
                    "`junkyard sync --guild ID` for one server)")
    elif missing:
        log.warning("slash commands: %s not registered; run `junkyard sync` after upgrading",
                    ", ".join("/" + n for n in missing))
    else:
        log.info("slash commands: registered (%s)", ", ".join("/" + n for n in mine))


def run(args: argparse.Namespace) -> int:
    """Start the bot: check the options, the token and the store, then connect to Discord until stopped."""
    quiet_voice()
    import discord

    from bot.commands import FAILED, USAGE
    from bot.commands.logs import setup_logging
    from bot.commands.web import base_url
    from bot.games import units
    from bot.store import CannotOpen

    try:
        shards = check_shards(args.shard_count, args.shard_ids)
        pages = base_url(args.web, args.web_url)
        token = read_token(args.token_file, warn=lambda line: print(f"junkyard bot: {line}", file=sys.stderr))
    except (ValueError, TokenMissing) as exc:
        print(f"junkyard bot: {exc}", file=sys.stderr)
        return USAGE
    except TokenUnreadable as exc:
        print(f"junkyard bot: {exc}", file=sys.stderr)
        return FAILED
    target = args.db or default_db_path()
    try:
        store_line = asyncio.run(check_store(target))
    except CannotOpen as exc:
        print(f"junkyard bot: {exc}", file=sys.stderr)
        return FAILED
    setup_logging(getattr(logging, args.log_level))
    log.info("Junkyard GM %s (discord.py %s, Python %s)", version(), discord.__version__, platform.python_version())
    log.info("store: %s", store_line)
    log.info("games: %s", ", ".join(unit.title for unit in units()))
    client = _make_client(args, target, shards, pages)
    signal.signal(signal.SIGTERM, _stop)  # `docker stop`: close the connection and the database cleanly
    return _connect(client, token, args, target)


def _make_client(args: argparse.Namespace, target: str, shards: tuple[int, list[int]] | None,
                 pages: str | None) -> JunkyardBot:
    """The bot's client for ``shards`` over the store at ``target``, reporting its commands once ready; its
    games' links point under ``pages`` when the operator gave the web pages' address."""
    from bot.discord.shards import make_bot
    from bot.play.service import CACHE_SIZE, Service
    from bot.store import open_store
    from bot.telling.pictures import Pictures
    from bot.web.share import page_links, seat_links

    store = open_store(target)
    if shards is not None:
        store.set_shards(*shards)
        log.info("shards: %s of %d in this process", ",".join(map(str, shards[1])), shards[0])
    else:
        log.info("shards: one connection for every server (no --shard-count)")
    service = Service(store, pictures=Pictures(processes=args.picture_processes),
                      cache_size=args.cache_size or CACHE_SIZE)
    if pages is not None:
        service.page_link = page_links(service.store, pages)
        service.seat_link = seat_links(service.store, pages)
        log.info("web pages: links under %s", pages)
    elif args.web is not None:
        log.warning("web pages: no links (the server listens on every network: give --web-url)")
    client = make_bot(shards=shards, service=service)
    reported: list[bool] = []

    async def on_ready() -> None:
        if not reported:
            reported.append(True)
            await report_commands(client)

    client.add_listener(on_ready, "on_ready")
    return client


def _connect(client: JunkyardBot, token: str, args: argparse.Namespace, target: str) -> int:
    """Run ``client`` (with the web pages' server beside it when ``args.web`` asks) until it is stopped: 0,
    or 1 with one line saying why Discord or the pages' address could not be used."""
    import aiohttp
    import discord

    from bot.commands import FAILED
    from bot.commands.web import CannotListen, base_url, serving

    async def with_pages() -> None:
        # as client.run does, with the web pages' server beside the bot; logging is already set up, and the
        # token never reaches a log line
        assert args.web is not None
        async with client, serving(target, args.web, service=client.service, played=client.deliver,
                                   forwarded=args.web_behind_proxy, public_url=base_url(args.web, args.web_url)):
            await client.start(token)

    try:
        if args.web is None:  # nothing listens unless the operator asks
            # log_handler=None: logging is already set up above; the token never reaches a log line.
            client.run(token, log_handler=None)
        else:
            asyncio.run(with_pages())
    except KeyboardInterrupt:
        return 0
    except discord.LoginFailure:
        print("junkyard bot: Discord refused the token (wrong or revoked); get the bot's token from the "
              "developer portal and set DISCORD_TOKEN or --token-file", file=sys.stderr)
        return FAILED
    except CannotListen as exc:
        print(f"junkyard bot: {exc}", file=sys.stderr)
        return FAILED
    except (aiohttp.ClientError, OSError, TimeoutError, discord.GatewayNotFound) as exc:
        print(f"junkyard bot: cannot reach Discord ({unreachable(exc)}); check this machine's network "
              "connection, then start the bot again", file=sys.stderr)
        return FAILED
    except discord.HTTPException as exc:
        print(f"junkyard bot: Discord answered the login with an error ({exc.status} {exc.text or ''}".rstrip()
              + "); try again later", file=sys.stderr)
        return FAILED
    return 0


def unreachable(exc: BaseException) -> str:
    """Why Discord could not be reached, in a few words."""
    text = str(exc) or type(exc).__name__
    return text if len(text) <= 160 else text[:157] + "…"
