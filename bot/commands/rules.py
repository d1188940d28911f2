"""``junkyard rules [--game G] [--lang de|en] QUESTION...``: ask the rule lookup a question in plain words,
from a shell.

Prints the entry that answers best (its title, then its text) and up to two other entries that also
match, the same ranking as ``/rules`` in Discord. The question's language is ``--lang``, else guessed from
its words; a German question is answered from the German entries where the game has them.
"""

from __future__ import annotations

import argparse
import re

from bot.games import units
from rules import lookup

_EMPHASIS = re.compile(r"\*\*(.+?)\*\*|(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])")

#: What the command says around an entry, in each language.
TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "also": "Also: ",
        "nothing": "Nothing in the rules matches {question!r}. Try a shorter question or a name "
                   "(a tile, a part, a phase).",
        "fallback": "(This entry is only written in {language}.)",
        "other_name": "{title} (in {language}: {name})",
        "see": "See also: ",
    },
    "de": {
        "also": "Auch: ",
        "nothing": "Nichts in den Regeln passt zu {question!r}. Versuch eine kürzere Frage oder einen Namen "
                   "(eine Regel, ein Teil, eine Hausregel).",
        "fallback": "(Diesen Eintrag gibt es nur auf {language}.)",
        "other_name": "{title} ({language}: {name})",
        "see": "Siehe auch: ",
    },
}
LANGUAGE_NAMES = {"en": {"en": "English", "de": "German"}, "de": {"en": "Englisch", "de": "Deutsch"}}
#: ... as the adjective before a name ("englisch: Glue")
NAME_LANGUAGE = {"en": {"en": "English", "de": "German"}, "de": {"en": "englisch", "de": "deutsch"}}


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
    texts = TEXTS[lang]
    best, others = lookup.answer(args.game, question, lang)
    if best is None:
        print(texts["nothing"].format(question=question))
        return 1
    labels = lookup.KIND_LABELS_DE if lang == "de" else lookup.KIND_LABELS
    title = best.title
    name = lookup.other_name(args.game, best, question)
    if name:
        other = "de" if best.lang == "en" else "en"
        title = texts["other_name"].format(title=title, language=NAME_LANGUAGE[lang][other], name=name)
    print(f"{title} ({labels[best.kind]}, {best.id})")
    print()
    print(plain(best.text))
    if best.lang != lang:
        print()
        print(texts["fallback"].format(language=LANGUAGE_NAMES[lang][best.lang]))
    related = lookup.related(args.game, best)
    if related:
        print()
        print(texts["see"] + "; ".join(e.title for e in related))
    if others:
        print()
        print(texts["also"] + "; ".join(f"{e.title} ({e.id})" for e in others))
    return 0
