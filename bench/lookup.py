"""Rule lookup quality: top-1 and top-3 accuracy over the players' questions (rules/lookup_questions.py),
the English ones and the German ones apart, and how long one question takes to rank."""

from __future__ import annotations

from bench.registry import benchmark, median_ms
from bot.games import units
from rules.lookup import search
from rules.lookup_questions import GERMAN_QUESTIONS, QUESTIONS, accuracy, with_rally

units()  # the list of games says where each game's entries are
with_rally()  # Schrottplatz Rally's entries, for its German questions, even before its unit lists them


def _misses(questions: list[tuple[str, str, str]], lang: str) -> str:
    misses = [q for g, q, want in questions if [e.id for e in search(g, q, limit=1, lang=lang)] != [want]]
    return "; ".join(misses) or "none"


@benchmark("lookup")
def lookup_accuracy() -> dict[str, float | int | str]:
    top1, top3 = accuracy()
    de_top1, de_top3 = accuracy(GERMAN_QUESTIONS, lang="de")
    return {
        "questions": len(QUESTIONS),
        "top1_percent": round(100 * top1, 1),
        "top3_percent": round(100 * top3, 1),
        "first_misses": _misses(QUESTIONS, "en"),
        "german_questions": len(GERMAN_QUESTIONS),
        "german_top1_percent": round(100 * de_top1, 1),
        "german_top3_percent": round(100 * de_top3, 1),
        "german_first_misses": _misses(GERMAN_QUESTIONS, "de"),
        "question_ms": median_ms(lambda: search("races", "what happens if I get bumped into the water")),
        "german_question_ms": median_ms(lambda: search("rally", "Was passiert, wenn ich zu schnell in die Kurve "
                                                                 "fahre?", lang="de")),
    }
