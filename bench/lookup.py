"""Rule lookup quality: top-1 and top-3 accuracy over the players' questions (rules/lookup_questions.py), one
figure per game and language, the tuned and the held-out parts apart, how many answers came in another
language than the question's (asked from either locale), how long one question takes to rank and the slowest
phrasings model takes to learn (``phrasings_learn_ms``). The
questions each set misses first are listed apart for the third held-out part; the later parts' are never
listed. Only the newest part (``BLIND_PART`` of :mod:`rules.lookup_questions`) is blind: every part before it has
been tuned on, and the lookup's phrasings model learns from them; its top-1 is also given per language over the
three games, ``held_out_blind_top1_percent_en`` and ``..._de``. An answer counts when it is the question's writer's
or an entry judged to answer it in full as well (:mod:`rules.lookup_judged`); ``held_out_blind_writer_…`` counts
the writer's alone.

The same questions are also answered by SQLite's FTS5 (BM25 over title, aliases and text, with the same
filler words dropped and the words joined by OR), so the hand-written ranking is measured against the
library one at this size.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from functools import cache

from bench.registry import benchmark, median_ms
from bot.games import units
from rules import lookup
from rules.lookup_questions import BLIND_PART, PARTS, SETS, questions, with_rally

units()  # the list of games says where each game's entries are
with_rally()  # Schrottplatz Rally's entries, even before its unit lists them

Ranker = Callable[[str, str, str], list[str]]

#: The held-out parts whose misses are not listed with the others: the third apart, the fourth, fifth and
#: later ones not at all.
BLIND = ("held_out_3", "held_out_4", "held_out_5", "held_out_6", "held_out_7", "held_out_8", "held_out_9",
         "held_out_10", "held_out_11")


def _count(game: str, lang: str, part: str) -> int:
    return sum(p == part for _, _, p in questions(game, lang))


@cache
def _ours(game: str, question: str, lang: str) -> list[str]:
    """The lookup's three first answers, asked once: every figure that counts them reads the same list."""
    return [e.id for e in lookup.search(game, question, limit=3, lang=lang)]


@cache
def _fts(game: str, lang: str) -> sqlite3.Connection:
    """An in-memory FTS5 index of a game's entries in one language (Porter stems for English; FTS5 has no
    German stemmer, so German words are matched folded and as prefixes)."""
    db = sqlite3.connect(":memory:")
    tokenizer = "porter unicode61 remove_diacritics 2" if lang == "en" else "unicode61 remove_diacritics 2"
    db.execute(f"CREATE VIRTUAL TABLE entry USING fts5(id UNINDEXED, title, aliases, body, tokenize='{tokenizer}')")
    db.executemany("INSERT INTO entry VALUES (?, ?, ?, ?)",
                   [(e.id, e.title, " ; ".join(e.aliases), e.text) for e in lookup.entries(game, lang)])
    return db


def _fts5(game: str, question: str, lang: str) -> list[str]:
    language = lookup.LANGUAGES[lang]
    words = [w for w in lookup.normalize(question).split() if w.isalnum()]
    content = [w for w in words if w not in language.stop_words] or words
    if not content:
        return []
    terms = " OR ".join(f'"{w}"' + ("*" if lang != "en" and len(w) >= 4 else "") for w in content)
    rows = _fts(game, lang).execute(
        "SELECT id FROM entry WHERE entry MATCH ? ORDER BY bm25(entry, 0.0, 10.0, 8.0, 1.0) LIMIT 3", (terms,))
    return [row[0] for row in rows]


def _accuracy(rank: Ranker, game: str, lang: str, part: str | None,
              judged: bool = True) -> tuple[float, float, list[str]]:
    rows = [(q, e) for q, e, p in questions(game, lang, judged) if part is None or p == part]
    top1 = top3 = 0
    misses = []
    for question, expected in rows:
        found = rank(game, question, lang)
        top1 += bool(found) and found[0] in expected
        top3 += any(e in found for e in expected)
        if not found or found[0] not in expected:
            misses.append(question)
    return 100 * top1 / len(rows), 100 * top3 / len(rows), misses


def _wrong_language(game: str, lang: str) -> int:
    """Questions of the set answered in another language than theirs, asked from a Discord of either language
    (the front ends' choice: :func:`rules.lookup.reply_language`). A question whose words name no language
    (a lone "spring" or "S5") is left to the asker's Discord, so only the others count."""
    wrong = 0
    for question, _, _ in questions(game, lang):
        if lookup.detect_language(question) is None:
            continue
        for locale in lookup.LANGS:
            asked = lookup.reply_language(question, None, locale)
            found = lookup.search(game, question, limit=1, lang=asked)
            wrong += bool(found) and found[0].lang != lang
    return wrong


def _slowest_ms() -> float:
    """The longest any question of the six sets takes to rank (each timed once, after a first warm-up run
    of them all, as a running bot has its indexes built)."""
    rows = [(game, q, lang) for game, lang in SETS for q, _, _ in questions(game, lang)]
    for game, question, lang in rows:
        lookup.search(game, question, limit=3, lang=lang)
    slowest = 0.0
    for game, question, lang in rows:
        start = time.perf_counter()
        lookup.search(game, question, limit=3, lang=lang)
        slowest = max(slowest, 1000 * (time.perf_counter() - start))
    return round(slowest, 2)


def _learn_ms() -> float:
    """The longest a game's phrasings model takes to learn (the first question of a language in a game waits for
    it once): every game and language built afresh, the slowest given."""
    slowest = 0.0
    for game, lang in SETS:
        lookup._phrasings.cache_clear()
        start = time.perf_counter()
        lookup._phrasings(game, lang)
        slowest = max(slowest, 1000 * (time.perf_counter() - start))
    return round(slowest, 1)


@benchmark("lookup")
def lookup_accuracy() -> dict[str, float | int | str]:
    out: dict[str, float | int | str] = {}
    worst = 100.0
    for game, lang in SETS:
        name = f"{game}_{lang}"
        top1, top3, _ = _accuracy(_ours, game, lang, None)
        parts = {part: _accuracy(_ours, game, lang, part) for part in PARTS}
        fts1, fts3, _ = _accuracy(_fts5, game, lang, None)
        worst = min(worst, top1)
        out.update({
            f"{name}_questions": len(questions(game, lang)),
            f"{name}_top1_percent": round(top1, 1),
            f"{name}_top3_percent": round(top3, 1),
        })
        for part, (part1, part3, _) in parts.items():
            out[f"{name}_{part}_top1_percent"] = round(part1, 1)
            out[f"{name}_{part}_top3_percent"] = round(part3, 1)
        tuned_misses = [q for part, (_, _, missed) in parts.items() if part not in BLIND for q in missed]
        out.update({
            f"{name}_wrong_language": _wrong_language(game, lang),
            f"{name}_fts5_top1_percent": round(fts1, 1),
            f"{name}_fts5_top3_percent": round(fts3, 1),
            f"{name}_first_misses": "; ".join(tuned_misses) or "none",
            f"{name}_held_out_3_misses": "; ".join(parts["held_out_3"][2]) or "none",
        })
    out["worst_top1_percent"] = round(worst, 1)
    for lang in lookup.LANGS:
        total = sum(_count(game, lang, BLIND_PART) for game, asked in SETS if asked == lang)
        if not total:  # a language without question sets (the pseudo-language) has no figure
            continue
        for name, judged in (("held_out_blind", True), ("held_out_blind_writer", False)):
            blind = [_accuracy(_ours, game, lang, BLIND_PART, judged)[0] * _count(game, lang, BLIND_PART)
                     for game, asked in SETS if asked == lang]
            out[f"{name}_top1_percent_{lang}"] = round(sum(blind) / total, 1)
    out["question_ms"] = median_ms(lambda: lookup.search("races", "what happens if I get bumped into the water"))
    out["german_question_ms"] = median_ms(lambda: lookup.search("rally", "Was passiert, wenn ich zu schnell in die "
                                                                         "Kurve fahre?", lang="de"))
    out["cross_language_question_ms"] = median_ms(lambda: lookup.search("races", "Was macht Glue?", lang="de"))
    out["slowest_question_ms"] = _slowest_ms()
    out["phrasings_learn_ms"] = _learn_ms()
    out["fts5_question_ms"] = median_ms(lambda: _fts5("races", "what happens if I get bumped into the water", "en"))
    return out
