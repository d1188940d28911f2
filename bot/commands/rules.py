"""``junkyard rules [--game G] QUESTION...``: ask the rule lookup a question in plain words, from a shell.

Prints the entry that answers best (its title, then its text) and up to two other entries that also
match, the same ranking as ``/rules`` in Discord.
"""

from __future__ import annotations

import argparse
import re

from bot.games import units
from rules import lookup

_EMPHASIS = re.compile(r"\*\*(.+?)\*\*|(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])")


def plain(markdown: str) -> str:
    """Entry text for a terminal: bold and italic markers dropped, everything else as written."""
    return _EMPHASIS.sub(lambda m: m.group(1) or m.group(2), markdown)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    units()  # the list of games says where each game's entries are
    games = lookup.all_games()
    parser.add_argument("--game", choices=games, default=games[0] if games else None,
                        help=f"which game's rules (default: {games[0] if games else 'none'})")
    parser.add_argument("question", nargs="+", metavar="QUESTION",
                        help="what you want to know, in plain words: junkyard rules what does glue do")


def run(args: argparse.Namespace) -> int:
    question = " ".join(args.question)
    if args.game is None:
        print("No game has rule lookup entries.")
        return 1
    best, others = lookup.answer(args.game, question)
    if best is None:
        print(f"Nothing in the rules matches {question!r}. Try a shorter question or a name "
              f"(a tile, a part, a phase).")
        return 1
    print(f"{best.title} ({lookup.KIND_LABELS[best.kind]}, {best.id})")
    print()
    print(plain(best.text))
    if others:
        print()
        print("Also: " + "; ".join(f"{e.title} ({e.id})" for e in others))
    return 0
