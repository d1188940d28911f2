"""Rule lookup quality: top-1 and top-3 accuracy over the players' questions (rules/lookup_questions.py),
and how long one question takes to rank."""

from __future__ import annotations

from bench.registry import benchmark, median_ms
from bot.games import units
from rules.lookup import search
from rules.lookup_questions import QUESTIONS, accuracy

units()  # the list of games says where each game's entries are


@benchmark("lookup")
def lookup_accuracy() -> dict[str, float | int | str]:
    top1, top3 = accuracy()
    misses = [q for g, q, want in QUESTIONS if [e.id for e in search(g, q, limit=1)] != [want]]
    return {
        "questions": len(QUESTIONS),
        "top1_percent": round(100 * top1, 1),
        "top3_percent": round(100 * top3, 1),
        "first_misses": "; ".join(misses) or "none",
        "question_ms": median_ms(lambda: search("races", "what happens if I get bumped into the water")),
    }
