"""Questions as players ask them, in plain words, and the entry each must find: six sets, one per game and
language (``rules.lookup_questions``), each question its own test; `python -m bench lookup` prints the
top-1 and top-3 accuracy of every set and of each of its parts.

Every question is answered in its own language with its entry among the three `/rules` offers (the
answer and the two buttons under it); every set has its entry first for at least 95 % of its questions.
None is a copy of an entry's title.
"""

from __future__ import annotations

import pytest

from rules.lookup import entries, normalize, search
from rules.lookup_questions import HELD_OUT, HELD_OUT_2, HELD_OUT_3, PARTS, QUESTIONS, SETS, accuracy, questions

#: The share of a set's questions whose entry must come first.
TOP1 = 0.95


def _cases() -> list[object]:
    return [pytest.param(game, lang, q, e, id=f"{game}-{lang}{'' if part == 'tuned' else '-' + part}: {q}")
            for game, lang in SETS for q, e, part in questions(game, lang)]


@pytest.mark.parametrize(("game", "lang", "question", "expected"), _cases())
def test_the_question_finds_its_entry_among_the_offered_in_its_language(game: str, lang: str, question: str,
                                                                        expected: tuple[str, ...]) -> None:
    found = search(game, question, limit=3, lang=lang)
    assert found and all(e.lang == lang for e in found), f"{question!r} answered in another language"
    assert {e.id for e in found} & set(expected), f"{question!r} found {[e.id for e in found]}"


@pytest.mark.parametrize(("game", "lang"), SETS)
def test_the_set_finds_its_entries_first(game: str, lang: str) -> None:
    top1, _ = accuracy(game, lang)
    misses = [q for q, e, _ in questions(game, lang) if [x.id for x in search(game, q, limit=1, lang=lang)][:1] not in
              [[x] for x in e]]
    assert top1 >= TOP1, f"{game}/{lang}: {100 * top1:.1f} % first; missed {misses}"


def test_every_set_has_forty_questions_naming_entries_of_its_language() -> None:
    assert len(SETS) == 6
    for game, lang in SETS:
        rows = questions(game, lang)
        assert len(rows) >= 40, (game, lang)
        assert len({q for q, _, _ in rows}) == len(rows)
        assert QUESTIONS[(game, lang)] and HELD_OUT[(game, lang)] and len(HELD_OUT_2[(game, lang)]) >= 10
        assert len(HELD_OUT_3[(game, lang)]) >= 15
        assert {part for _, _, part in rows} == set(PARTS)
        ids = {e.id for e in entries(game, lang)}
        titles = {normalize(e.title) for e in entries(game, lang)}
        for question, expected, _ in rows:
            assert expected and set(expected) <= ids, (game, lang, question)
            assert normalize(question) not in titles, question  # a question, not a copy of a title
