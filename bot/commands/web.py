"""``junkyard web``: serve the games' pages (the live board, the standings, the moves, a replay) until stopped.

    junkyard web [--db PATH|URL] [--listen HOST:PORT] [--url URL] [--behind-proxy] [--max-streams N]
                 [--header-timeout S]

It reads the same database as the bot (a SQLite file beside a running bot, or the bot's PostgreSQL), so it can
run in a process of its own, on another machine too; ``junkyard bot --web HOST:PORT`` runs the same server
inside the bot. It listens on 127.0.0.1:8080 unless told otherwise, serves only what the public sees, and has
no endpoint that writes. A game's page is opened by its link (``/game link`` in Discord); the bot makes links
under the public address its operator gives it (``junkyard bot --web-url`` or ``JUNKYARD_WEB_URL``), and
``junkyard link GAME`` prints one under the same address (``--url``, else ``JUNKYARD_WEB_URL``, else the address
listened on), which the pages' link previews name too.

Exit codes (:data:`bot.commands.EXIT_CODES`): 0 stopped, 1 a failure while running (a database it cannot use, an
address it cannot listen on), 2 a usage mistake (the options).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ipaddress
import logging
import os
import signal
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING

from bot.store import default_db_path

if TYPE_CHECKING:
    from bot.play.service import Service
    from bot.telling.outcomes import Accepted
    from bot.web.server import Limits, WebServer

log = logging.getLogger("junkyard.web")

#: where the server listens unless told otherwise: this machine only
DEFAULT_LISTEN = "127.0.0.1:8080"
#: the environment variable of the public address under which the bot makes the pages' links
URL_VARIABLE = "JUNKYARD_WEB_URL"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", metavar="PATH|URL", default=None,
                        help="SQLite database file, or a PostgreSQL URL postgresql://user:password@host/db "
                             "(default: $JUNKYARD_DB or junkyard.db)")
    parser.add_argument("--listen", metavar="HOST:PORT", type=_address, default=_address(DEFAULT_LISTEN),
                        help=f"the address to listen on (default {DEFAULT_LISTEN}: this machine only; "
                             "0.0.0.0:8080 for every network)")
    add_url(parser)
    parser.add_argument("--behind-proxy", action="store_true",
                        help="a reverse proxy forwards the requests: rate limits count each client by the last "
                             "address of X-Forwarded-For")
    parser.add_argument("--max-streams", type=_positive(int), metavar="N", default=None,
                        help="the most live pages followed at once, of every visitor (default 5000; over it a "
                             "page waits and tries again)")
    parser.add_argument("--header-timeout", type=_positive(float), metavar="SECONDS", default=None,
                        help="close a connection that sends no whole request within this time (default 10)")
    parser.add_argument("--log-level", default="INFO", choices=["DEBUG", "INFO", "WARNING", "ERROR"],
                        help="logging level (default INFO)")


def add_url(parser: argparse.ArgumentParser) -> None:
    """The ``--url`` option: the pages' public address."""
    parser.add_argument("--url", metavar="URL", default=None,
                        help=f"the pages' public address, like https://games.example/junkyard (default: "
                             f"${URL_VARIABLE}, else the address listened on)")


def parse_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:8080`` for IPv6) → (host, port); raises ValueError saying what is expected."""
    host, sep, port = text.strip().rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"give the address as HOST:PORT (like 127.0.0.1:8080), not {text!r}")
    return host, int(port)


def _positive(kind: type[int] | type[float]) -> Callable[[str], float]:
    """An argparse type: a number of ``kind`` above 0."""

    def parse(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            value = 0
        if not value > 0:
            raise argparse.ArgumentTypeError(f"give a number above 0, not {text!r}")
        return value

    return parse


def limits_of(args: argparse.Namespace) -> Limits:
    """The server's limits, with what the options change."""
    from bot.web.server import Limits

    given = {"streams": args.max_streams, "header_seconds": args.header_timeout}
    return Limits(**{name: value for name, value in given.items() if value is not None})


def _address(text: str) -> tuple[str, int]:
    try:
        return parse_address(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def check_url(text: str) -> str:
    """The operator's public base URL of the pages, checked (``https://games.example/junkyard``); raises
    ValueError saying what is expected."""
    url = text.strip().rstrip("/")
    scheme, sep, rest = url.partition("://")
    if scheme not in ("http", "https") or not sep or not rest or any(c.isspace() for c in rest) or "?" in rest \
            or "#" in rest:
        raise ValueError(f"the pages' public address is an http:// or https:// URL without ? or #, not {text!r}")
    return url


def base_url(listen: tuple[str, int] | None, given: str | None) -> str | None:
    """The public base URL of the pages: the one given (``--web-url``, else ``JUNKYARD_WEB_URL``), else the
    address listened on when it names one host (not every network's 0.0.0.0 or ::); None when there is none.
    Raises ValueError for a URL that is not one."""
    chosen = given if given is not None else os.environ.get(URL_VARIABLE) or None
    if chosen is not None:
        return check_url(chosen)
    if listen is None:
        return None
    host, port = listen
    try:
        if ipaddress.ip_address(host).is_unspecified:
            return None
        shown = f"[{host}]" if ":" in host else host
    except ValueError:
        shown = host
    return f"http://{shown}:{port}"


class CannotListen(Exception):
    """The pages' server cannot listen on the address asked for (taken, or not this machine's)."""


@contextlib.asynccontextmanager
async def serving(target: str, listen: tuple[str, int], *, service: Service | None = None,
                  played: Callable[[Accepted], Awaitable[None]] | None = None, forwarded: bool = False,
                  limits: Limits | None = None, public_url: str | None = None) -> AsyncIterator[WebServer]:
    """The pages' server on its own connection to the database ``target``, listening on ``listen`` while the
    block runs; with ``service`` (the bot's), the moves it stores reach the pages at once, and so do the links
    it revokes, and the players' own pages play their moves through it (``played`` delivers what a move
    owes, as a press's answer does); without it, a seat's page shows its moves but plays none;
    ``public_url``: the pages' public address (for the link previews)."""
    from bot.store import open_store
    from bot.web.server import WebServer

    async with open_store(target) as store:
        server = WebServer(store, forwarded=forwarded, limits=limits, public_url=public_url, service=service,
                           played=played)
        try:
            host, port = await server.start(*listen)
        except OSError as exc:
            await server.close()
            raise CannotListen(f"cannot serve the web pages on {listen[0]}:{listen[1]} ({exc.strerror or exc})"
                               ) from None
        log.info("web pages: listening on http://%s:%d (links open /g/TOKEN)", host, port)
        if service is not None:
            service.on_stored, service.on_revoked = server.changed, server.revoked
        try:
            yield server
        finally:
            if service is not None:
                service.on_stored = service.on_revoked = None
            await server.close()


async def check_store(target: str) -> str:
    """Open the store once before listening, so a database that cannot be used is said at once (raises
    :class:`~bot.store.CannotOpen`); what the log says of it (never the address, which may hold a password)."""
    from bot.store import is_database_url, open_store

    async with open_store(target) as store:
        schema = await store.schema_version()
    return f"{'PostgreSQL' if is_database_url(target) else 'SQLite'}, schema {schema}"


def run(args: argparse.Namespace) -> int:
    from bot.commands import FAILED, USAGE
    from bot.store import CannotOpen

    target = args.db or default_db_path()
    try:
        public = base_url(args.listen, args.url)
    except ValueError as exc:
        print(f"junkyard web: {exc}", file=sys.stderr)
        return USAGE
    try:
        store_line = asyncio.run(check_store(target))
    except CannotOpen as exc:
        print(f"junkyard web: {exc}", file=sys.stderr)
        return FAILED
    logging.basicConfig(level=getattr(logging, args.log_level),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    log.info("store: %s", store_line)
    try:
        asyncio.run(_serve(target, args.listen, args.behind_proxy, limits_of(args), public))
    except CannotListen as exc:
        print(f"junkyard web: {exc}", file=sys.stderr)
        return FAILED
    except KeyboardInterrupt:
        pass
    return 0


async def _serve(target: str, listen: tuple[str, int], forwarded: bool, limits: Limits, public: str | None
                 ) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    async with serving(target, listen, forwarded=forwarded, limits=limits, public_url=public):
        await stop.wait()
    log.info("web pages: stopped")


__all__ = [
    "DEFAULT_LISTEN",
    "URL_VARIABLE",
    "CannotListen",
    "add_arguments",
    "add_url",
    "base_url",
    "check_url",
    "limits_of",
    "parse_address",
    "run",
    "serving",
]
