"""``junkyard ratings rebuild``: rate finished games again from their results, for an operator.

The ratings and their changes are derived from the results (:func:`bot.standing.ladder.rebuild`); this command
recomputes them on either store (a SQLite file or a PostgreSQL URL, ``--db``):

- ``--server ID --season N``: that server's season ``N`` (0 is the all-time ladder);
- ``--server ID``: every season of that server, the all-time ladder first;
- neither: every season of every server that has results.

Each season rebuilt is one line on standard output. Exit codes (:data:`bot.commands.EXIT_CODES`): 0 rebuilt,
1 a failure while running (a database that is not there or cannot be opened, a season the server does not
have), 2 a usage mistake (a season without a server, an id that is not a number); each refusal is one line
on standard error.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable
from pathlib import Path

from bot.standing import ladder
from bot.store import EVERLASTING, CannotOpen, Store, default_db_path, is_database_url, open_store

#: how the command names itself in its refusals
PROG = "junkyard ratings rebuild"


class Refused(Exception):
    """Input the command cannot act on, said in one line: a usage mistake."""


class NotThere(Refused):
    """What the command was asked to act on is not in the database (or there is no database): a failure
    while running."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="ratings_command", metavar="ACTION", required=True)
    rebuild = sub.add_parser(
        "rebuild", help="rate finished games again from their results (one season, a server's, or all)",
        description="Rate finished games again from their results and replace the ratings they made: one "
                    "season of a server (--server and --season), every season of a server (--server), or every "
                    "season of every server (neither).")
    rebuild.add_argument("--db", metavar="PATH|URL", default=None,
                         help="SQLite database file, or a PostgreSQL URL postgresql://user:password@host/db "
                              "(default: $JUNKYARD_DB or junkyard.db)")
    rebuild.add_argument("--server", metavar="ID", default=None, help="the server's (guild's) Discord id")
    rebuild.add_argument("--season", metavar="N", default=None,
                         help="the season's number on that server (0: the all-time ladder)")


def number(text: str | None, what: str) -> int | None:
    """``text`` as a whole number (None stays None); :class:`Refused` when it is not one."""
    if text is None:
        return None
    cleaned = text.strip().lstrip("#")
    if not cleaned.isdigit():
        raise Refused(f"{what} must be a whole number, not {text[:40]!r}")
    return int(cleaned)


async def servers_with_results(store: Store) -> list[int]:
    """Every server that has results, in id order."""
    found: set[int] = set()
    async for row in store.rows("results"):
        if row.get("guild_id") is not None:
            found.add(int(row["guild_id"]))
    return sorted(found)


async def rebuild_all(store: Store, server: int | None, season: int | None,
                      say: Callable[[str], None] = print) -> int:
    """Rebuild what the options name (see the module's description) on the open ``store``; says one line per
    season and returns how many seasons were rebuilt."""
    if season is not None and server is None:
        raise Refused("--season needs --server: a season belongs to one server")
    done = 0
    for guild in [server] if server is not None else await servers_with_results(store):
        seasons = await store.standings.seasons(guild)
        if season is not None and season != EVERLASTING and all(s.id != season for s in seasons):
            known = ", ".join(f"#{s.id}" for s in sorted(seasons, key=lambda s: s.id)) or "none"
            raise NotThere(f"server {guild} has no season #{season} (its seasons: {known}; 0 is all time)")
        wanted = [season] if season is not None else [EVERLASTING, *sorted(s.id for s in seasons)]
        names = {s.id: f"season {s.name} (#{s.id})" for s in seasons}
        for sid in wanted:
            count = await ladder.rebuild(store, guild, sid)
            games = "1 game" if count == 1 else f"{count} games"
            say(f"server {guild}, {names.get(sid, 'all time')}: rated again from the results ({games})")
            done += 1
    return done


async def run_rebuild(where: str, server: int | None, season: int | None) -> int:
    """Open the database at ``where`` (which must exist) and rebuild; returns the seasons rebuilt."""
    if not is_database_url(where) and not Path(where).is_file():
        what = "a folder, not a database file" if Path(where).is_dir() else "not there"
        raise NotThere(f"the database {where} is {what}; nothing was rebuilt")
    async with open_store(where) as store:
        return await rebuild_all(store, server, season)


def run(args: argparse.Namespace) -> int:
    from bot.commands import FAILED, USAGE
    from bot.commands.bot import shown_db

    where = args.db or default_db_path()
    try:
        server = number(args.server, "--server")
        season = number(args.season, "--season")
        done = asyncio.run(run_rebuild(where, server, season))
    except (NotThere, CannotOpen) as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return FAILED
    except Refused as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return USAGE
    if not done:
        print(f"{PROG}: {shown_db(where)} has no results on any server: nothing to rate", file=sys.stderr)
    return 0


__all__ = ["PROG", "NotThere", "Refused", "add_arguments", "number", "rebuild_all", "run", "run_rebuild",
           "servers_with_results"]
