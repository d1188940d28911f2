"""``junkyard rules [--game G] [--lang de|en] QUESTION...``: ask the rule lookup a question in plain words,
from a shell.

Prints the entry that answers best (its title, then its text) and up to two other entries that also
match, the same ranking as ``/rules`` in Discord. The question's language is ``--lang``, else guessed from
its words; a German question is answered from the German entries where the game has them.
"""

from __future__ import annotations

import argparse
import re

from bot import texts
from bot.games import units
from rules import lookup

_EMPHASIS = re.compile(r"\*\*(.+?)\*\*|(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])")


def plain(markdown: str) -> str:
    """Entry text for a terminal: bold and italic markers dropped, everything else as written."""
    return _EMPHASIS.sub(lambda m: m.group(1) or m.group(2), markdown)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    titles = {unit.key: unit.title for unit in units()}  # the list of games says where each game's entries are
    games = lookup.all_games()
    named = ", ".join(f"{key} ({titles.get(key, key)})" for key in games)
    parser.add_argument("--game", choices=games, default=games[0] if games else None, metavar="GAME",
                        help=f"which game's rules: {named} (default: {games[0] if games else 'none'})")
    parser.add_argument("--lang", choices=lookup.LANGS, default=None,
                        help="the language of the question and answer (default: guessed from the question)")
    parser.add_argument("question", nargs="+", metavar="QUESTION",
                        help="what you want to know, in plain words: junkyard rules what does glue do")


def run(args: argparse.Namespace) -> int:
    question = " ".join(args.question)
    if args.game is None:
        print("No game has rule lookup entries.")
        return 1
    lang = args.lang or lookup.reply_language(question, None, lookup.detect_language(question, args.game)
                                              or lookup.DEFAULT_LANG)
    best, others = lookup.answer(args.game, question, lang)
    if best is None:
        print(texts.say("rules.cli.nothing", lang, question=question))
        return 1
    print(heading(args.game, best, question, lang))
    print()
    print(plain(best.text))
    if best.lang != lang:
        print()
        print(texts.say("rules.cli.fallback", lang, language=texts.language_name(best.lang, lang)))
    related = lookup.related(args.game, best)
    if related:
        print()
        print(texts.say("rules.cli.see", lang, titles="; ".join(e.title for e in related)))
    if others:
        print()
        print(texts.say("rules.cli.also", lang, titles="; ".join(e.title for e in others)))
    return 0


def heading(game: str, entry: lookup.RuleEntry, question: str, lang: str) -> str:
    """An answer's first line: the entry's title (with the other language's name of it when the question
    used that one) and what kind of entry it is; never its id, which is the lookup's and not a player's."""
    title = entry.title
    other = lookup.other_named(game, entry, question)
    if other is not None:
        title = texts.say(f"rules.other_name.{other.lang}", lang, title=title, name=other.title)
    return texts.say("rules.cli.heading", lang, title=title, kind=texts.say(f"rules.kind.{entry.kind}", lang))
