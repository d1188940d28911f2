"""``junkyard`` in a process of its own, for the command-line tests that judge exit codes and what reaches
the terminal (a traceback would show there).

``python -m tests.bot.cli_child ARGS…`` runs ``junkyard ARGS…``. Two settings of the environment change
the world it runs in, never the program:

- ``JUNKYARD_CHILD_DISCORD=URL``: Discord's API is at ``URL`` (a closed port on this machine, so logging in
  finds nobody there, as without a network);
- ``JUNKYARD_CHILD_UNPRIVILEGED=1``: when started as root, the process becomes the user ``nobody`` before it
  runs, so a file without read permission is unreadable to it as it is to any user (root reads everything).
  What the command imports later is imported first, while the files are still readable.
"""

from __future__ import annotations

import os
import sys


def _unprivileged() -> None:
    import pwd

    import aiohttp
    import discord.voice_client

    import bot.commands.bot
    import bot.commands.db
    import bot.commands.demo
    import bot.commands.logs
    import bot.commands.play
    import bot.commands.sync
    import bot.drivers
    import bot.play.service
    import bot.store
    import bot.terminal
    from bot.cli import build_parser

    build_parser()  # every game's unit, as the parser lists their options
    assert bot.commands.bot and bot.commands.db and bot.commands.demo and bot.commands.play and bot.commands.sync
    assert aiohttp and discord.voice_client and bot.commands.logs
    assert bot.drivers and bot.play.service and bot.store and bot.terminal
    nobody = pwd.getpwnam("nobody")
    os.setgroups([])
    os.setgid(nobody.pw_gid)
    os.setuid(nobody.pw_uid)


def main() -> int:
    url = os.environ.get("JUNKYARD_CHILD_DISCORD")
    if url:
        import bot.commands.bot

        quiet = bot.commands.bot.quiet_voice

        def elsewhere() -> None:  # discord.py is imported by the command itself, after its own set-up
            quiet()
            import discord.http

            discord.http.Route.BASE = url

        bot.commands.bot.quiet_voice = elsewhere
    if os.environ.get("JUNKYARD_CHILD_UNPRIVILEGED") and os.geteuid() == 0:
        _unprivileged()
    from bot.cli import main as junkyard

    return junkyard(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
