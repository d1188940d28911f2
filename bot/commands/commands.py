"""``junkyard commands``: the slash commands' reference, made from the commands ``junkyard sync`` registers
(:mod:`bot.discord.reference`). Without options it prints it; ``--write`` writes ``bot/discord/COMMANDS.md``;
``--check`` exits 1 when that file differs from the registered commands."""

from __future__ import annotations

import argparse
import asyncio
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--write", action="store_true", help="write the reference to bot/discord/COMMANDS.md")
    what.add_argument("--check", action="store_true", help="exit 1 when bot/discord/COMMANDS.md is out of date")


def run(args: argparse.Namespace) -> int:
    from bot.discord.reference import REFERENCE, current_reference

    text = asyncio.run(current_reference())
    if args.write:
        REFERENCE.write_text(text, encoding="utf-8")
        print(f"wrote {REFERENCE}")
    elif args.check:
        if not REFERENCE.is_file() or REFERENCE.read_text(encoding="utf-8") != text:
            print(f"junkyard commands: {REFERENCE} differs from the registered commands; run junkyard commands "
                  "--write", file=sys.stderr)
            return 1
        print(f"{REFERENCE} matches the registered commands")
    else:
        sys.stdout.write(text)
    return 0
