"""The ``junkyard`` command line: one subcommand per job, each in the module that owns it."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

#: subcommand → (module, one-line help). Each module offers ``add_arguments(parser)`` and ``run(args)``.
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "demo": ("bot.commands.demo", "watch computers play a whole game: board pictures, a replay GIF, the standings"),
    "play": ("bot.commands.play", "play a game in the terminal, against computers or taking turns at one keyboard"),
    "track": ("bot.commands.track", "draw a Junkyard Races track as a PNG, or check a track file"),
    "bot": ("bot.commands.bot", "run the Discord game master (token from $DISCORD_TOKEN or --token-file)"),
    "sync": ("bot.commands.sync", "register the slash commands with Discord and exit"),
    "replay": ("bot.commands.replay", "an animated GIF of a Junkyard Races game, from the store or a log file"),
    "rules": ("bot.commands.rules", "ask the rule lookup a question in plain words: junkyard rules how do bumps work"),
    "db": ("bot.commands.db", "copy every game between databases (SQLite file ⇄ PostgreSQL): junkyard db copy FROM TO"),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="junkyard", description="Junkyard GM: board games in Discord channels.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module, help_text) in SUBCOMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.set_defaults(_module=module)
        importlib.import_module(module).add_arguments(p)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "_module", None):
        parser.print_help()
        return 2
    return int(importlib.import_module(args._module).run(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
