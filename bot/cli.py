"""The ``junkyard`` command line: one subcommand per job, each in the module that owns it."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

#: subcommand → (module, one-line help, which games it serves). Each module offers ``add_arguments(parser)``
#: and ``run(args)``. The games served: ``all`` (every game), ``replay`` (the games that draw replays),
#: ``rules`` (the games with rule-lookup entries) or ``tool:NAME`` (the game that offers the tool).
SUBCOMMANDS: dict[str, tuple[str, str, str]] = {
    "demo": ("bot.commands.demo", "watch computers play a whole game: board pictures, a replay GIF, the standings",
             "all"),
    "play": ("bot.commands.play", "play a game in the terminal, against computers or taking turns at one keyboard; "
             "a game left unfinished is resumed", "all"),
    "track": ("bot.commands.track", "draw a {game} track as a PNG, or check a track file", "tool:track"),
    "bot": ("bot.commands.bot", "run the Discord game master (token from $DISCORD_TOKEN or --token-file)", "all"),
    "web": ("bot.commands.web", "serve every game's web page: the live board, the standings, the moves and a replay",
            "all"),
    "sync": ("bot.commands.sync", "register the slash commands with Discord and exit", "all"),
    "replay": ("bot.commands.replay", "an animated GIF of a {game} game, from the store or a log file", "replay"),
    "rules": ("bot.commands.rules", "ask the rule lookup a question in plain words: junkyard rules how do bumps work",
              "rules"),
    "db": ("bot.commands.db", "copy every game between databases (SQLite file ⇄ PostgreSQL), back up and restore: "
           "junkyard db copy FROM TO, db backup DEST, db restore SRC",
           "all"),
    "forget": ("bot.commands.forget", "delete what is kept about one person: their seats become anonymous, their "
               "settings, results and ratings go: junkyard forget USER_ID", "all"),
    "commands": ("bot.commands.commands", "the slash commands' reference in English and German, from the registered "
                 "commands: junkyard commands --write", "all"),
    "ratings": ("bot.commands.ratings", "rate finished games again from their results: junkyard ratings rebuild "
                "[--server ID [--season N]]", "all"),
}


def served(which: str) -> list[str]:
    """The titles of the games a subcommand serves (see :data:`SUBCOMMANDS`), the flagship first."""
    from bot.games import units
    from rules import lookup

    if which == "replay":
        return [u.title for u in units() if u.has_replay]
    if which == "rules":
        keys = set(lookup.all_games())
        return [u.title for u in units() if u.key in keys]
    if which.startswith("tool:"):
        return [u.title for u in units() if which[5:] in u.tools]
    return [u.title for u in units()]


def either(titles: Sequence[str]) -> str:
    """``A``, ``A or B``, ``A, B or C``."""
    return " or ".join(filter(None, [", ".join(titles[:-1]), *titles[-1:]]))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="junkyard", description="Junkyard GM: board games in Discord channels.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module, help_text, which) in SUBCOMMANDS.items():
        games = served(which)
        short = help_text.format(game=either(games))
        description = f"{short[0].upper()}{short[1:]}. Games: {', '.join(games)}."
        p = sub.add_parser(name, help=short, description=description)
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
