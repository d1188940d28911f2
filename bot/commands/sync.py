"""``junkyard sync``: register the slash commands with Discord, then exit.

Global commands can take a while to appear everywhere; ``--guild ID`` registers them on one server at once
(handy while testing). Run it after installing or upgrading, not at every start.

Exit codes (:data:`bot.commands.EXIT_CODES`): 0 registered, 1 a failure while running (the token file, Discord
refusing the token or the commands, or out of reach), 2 a usage mistake (the options, no token given).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from bot.commands.token import TokenMissing, TokenUnreadable, read_token

log = logging.getLogger("junkyard")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--guild", metavar="ID", type=int, default=None,
                        help="register on this server only (appears at once) instead of globally")
    parser.add_argument("--clear", action="store_true", help="remove the commands instead (with --guild: there)")
    parser.add_argument("--token-file", metavar="FILE", default=None,
                        help="read the bot token from FILE instead of $DISCORD_TOKEN")


async def sync(token: str, guild_id: int | None, clear: bool) -> list[str]:
    import discord

    from bot.discord import JunkyardBot
    from bot.store import SqliteStore

    client = JunkyardBot(SqliteStore(":memory:"))
    try:
        await client.login(token)
        guild = discord.Object(guild_id) if guild_id is not None else None
        if clear:
            client.tree.clear_commands(guild=guild)
        elif guild is not None:
            client.tree.copy_global_to(guild=guild)
        synced = await client.tree.sync(guild=guild)
        return [c.name for c in synced]
    finally:
        await client.close()


def run(args: argparse.Namespace) -> int:
    import aiohttp

    from bot.commands import FAILED, USAGE
    from bot.commands.bot import quiet_voice, unreachable
    from bot.commands.logs import setup_logging

    quiet_voice()
    import discord

    try:
        token = read_token(args.token_file, warn=lambda line: print(f"junkyard sync: {line}", file=sys.stderr))
    except TokenMissing as exc:
        print(f"junkyard sync: {exc}", file=sys.stderr)
        return USAGE
    except TokenUnreadable as exc:
        print(f"junkyard sync: {exc}", file=sys.stderr)
        return FAILED
    setup_logging(logging.WARNING)  # the result is printed; no chatter
    try:
        names = asyncio.run(sync(token, args.guild, args.clear))
    except discord.LoginFailure:
        print("junkyard sync: Discord refused the token (wrong or revoked); get the bot's token from the "
              "developer portal and set DISCORD_TOKEN or --token-file", file=sys.stderr)
        return FAILED
    except (aiohttp.ClientError, OSError, TimeoutError) as exc:
        print(f"junkyard sync: cannot reach Discord ({unreachable(exc)}); check this machine's network "
              "connection, then try again", file=sys.stderr)
        return FAILED
    except discord.HTTPException as exc:  # CommandSyncFailure among them: Discord refused the registration
        print(f"junkyard sync: Discord refused the commands (HTTP {exc.status}, code {exc.code}): "
              f"{' '.join(str(exc.text).split())[:300] or 'no reason given'}; nothing was registered",
              file=sys.stderr)
        return FAILED
    where = f"server {args.guild}" if args.guild else "all servers (may take up to an hour to show)"
    print(f"registered {len(names)} commands on {where}: {', '.join('/' + n for n in names) or 'none'}")
    return 0
