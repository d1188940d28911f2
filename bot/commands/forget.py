"""``junkyard forget USER_ID``: delete what the store keeps about one person (:mod:`bot.upkeep.forget`).

Their seats become anonymous players ("Player N"), their id and names leave every row, their settings,
results, ratings and rating changes are deleted, and in an open game they leave first (a computer plays a
running game's seat on). Best run with the bot stopped (or use ``/game forget`` inside the running bot):
a running bot keeps the games it is playing in memory. Exit codes: 0 done, 2 wrong usage or a database
that cannot be opened.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from bot.store import CannotOpen, open_store


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("user_id", metavar="USER_ID", type=int, help="the person's Discord user id")
    parser.add_argument("--db", metavar="PATH|URL", default=None,
                        help="SQLite database file, or a postgresql:// URL (default: $JUNKYARD_DB or junkyard.db)")


async def _forget(where: str | None, user_id: int) -> str:
    from bot.play.service import Service
    from bot.telling.pictures import Pictures
    from bot.upkeep.forget import forget

    async with open_store(where) as store:
        service = Service(store, pictures=Pictures(processes=0))
        report = await forget(service, user_id)
    if not report.anything:
        return f"nothing was kept about {user_id}"
    changed = ", ".join(f"{t} {n}" for t, n in sorted(report.rewritten.items())) or "none"
    deleted = ", ".join(f"{t} {n}" for t, n in sorted(report.deleted.items())) or "none"
    left = f"; left {len(report.left)} open game(s) first" if report.left else ""
    return f"forgot {user_id}: rows made anonymous: {changed}; rows deleted: {deleted}{left}"


def run(args: argparse.Namespace) -> int:
    if args.user_id <= 0:
        print(f"junkyard forget: a Discord user id is a positive number, not {args.user_id}", file=sys.stderr)
        return 2
    try:
        print(asyncio.run(_forget(args.db, args.user_id)))
    except CannotOpen as exc:
        print(f"junkyard forget: {exc}", file=sys.stderr)
        return 2
    return 0
