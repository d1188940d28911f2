"""The ``junkyard`` command line: one subcommand per job, each in the module that owns it."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from bot.commands import EXIT_CODES, OUTPUT_CLOSED, USAGE

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
    "link": ("bot.commands.link", "print the page link of a stored game, or with --seat N a person's own link, as "
             "/game link gives them: junkyard link GAME_ID [--seat N]", "all"),
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
        p = sub.add_parser(name, help=short, description=description, epilog=EXIT_CODES)
        p.set_defaults(_module=module)
        importlib.import_module(module).add_arguments(p)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the subcommand ``argv`` names; its exit code (see :data:`EXIT_CODES`). A standard output its reader
    closed early (``junkyard rules … | head -5``) ends the command quietly with :data:`OUTPUT_CLOSED`."""
    try:
        try:
            code = _dispatch(argv)
        except SystemExit:  # argparse's --help and usage errors: their output too meets the pipe here
            sys.stdout.flush()
            raise
        sys.stdout.flush()  # what is still buffered meets a closed pipe here, not in the interpreter's exit
    except BrokenPipeError:
        if not output_closed():
            raise  # a broken connection of the command's own (a socket), not its standard output
        _discard_output()
        return OUTPUT_CLOSED
    return code


def _dispatch(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "_module", None):
        parser.print_help()
        return USAGE
    return int(importlib.import_module(args._module).run(args) or 0)


def output_closed() -> bool:
    """Whether nobody reads standard output any more (a pipe whose reader is gone). A stream that is no file
    of this process (a test's capture) counts as closed: the error came from it."""
    import select

    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return True
    try:
        poll = select.poll()
        poll.register(fd, select.POLLOUT)
        return any(events & (select.POLLERR | select.POLLHUP) for _, events in poll.poll(0))
    except (AttributeError, OSError, ValueError):
        return True


def _discard_output() -> None:
    """Send what standard output still holds, and all it is given until the process ends, to the null
    device, so the interpreter's last flush does not fail again (the recipe of Python's ``signal`` docs)."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (open until the process ends)
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


if __name__ == "__main__":
    sys.exit(main())
