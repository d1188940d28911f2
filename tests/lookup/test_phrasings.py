"""How players ask: the phrasings model (:mod:`rules.phrasings`) and the games' phrasings files it learns from
(``rules/<game>/data/phrasings-<lang>.toml``)."""

from __future__ import annotations

import pytest

from rules import lookup
from rules.lookup import entries, normalize, phrasings_of, search
from rules.lookup_questions import BLIND_PART, SETS, questions
from rules.phrasings import Model, Reader

#: the fewest phrasings an entry of a set's game and language has
FEWEST = 14


def _reader() -> Reader:
    return Reader(lambda text: [w for w in normalize(text).split() if w not in {"the", "a", "do", "i", "what"}],
                  lambda w: w.removesuffix("s"), {"rocket": frozenset({"missile"})})


def _model() -> Model:
    return Model(_reader(), [("mud", "stuck in the muck"), ("mud", "brown sticky ground"),
                             ("missile", "missile hits a kart"), ("missile", "shoot at someone far away"),
                             ("glue", "glue tile"), ("glue", "stuck on a sticky trap")])


def test_a_question_is_nearest_the_entry_whose_phrasings_share_its_words() -> None:
    scores = _model().scores("what do i do when stuck in muck")
    assert max(scores, key=scores.__getitem__) == "mud"
    assert all(0 < value <= 1 for value in scores.values())


def test_a_misspelt_word_shares_its_letter_groups() -> None:
    """"mukc" is no word of any phrasing; beside "stuck", which both mud and glue know, its letters lean to
    the muck of the mud entry."""
    model = _model()
    assert "w:mukc" not in model.idf
    scores = model.scores("stuck, mukc")
    assert max(scores, key=scores.__getitem__) == "mud"
    assert model.scores("stuck, mukc")["mud"] > model.scores("stuck, zqxv")["mud"]


def test_a_synonym_counts_for_the_word_it_stands_for() -> None:
    scores = _model().scores("rockets")
    assert max(scores, key=scores.__getitem__) == "missile"


def test_a_question_without_a_known_word_scores_nothing() -> None:
    """Filler words, unknown words and a word's first letters ("mu") say nothing on their own."""
    assert _model().scores("what do i") == {}
    assert _model().scores("zzzz qqqq") == {}
    assert _model().scores("mu") == {}


@pytest.mark.parametrize(("game", "lang"), SETS)
def test_every_entry_has_its_phrasings_and_each_phrasing_one_entry(game: str, lang: str) -> None:
    """Every entry of a game's language has at least :data:`FEWEST` phrasings, none shared with another
    entry, none a copy of an entry's name."""
    asked = phrasings_of(game, lang)
    ids = {e.id for e in entries(game, lang)}
    assert set(asked) == ids
    assert min(len(texts) for texts in asked.values()) >= FEWEST
    owner: dict[str, str] = {}
    for entry_id, texts in asked.items():
        for text in texts:
            key = normalize(text)
            assert owner.setdefault(key, entry_id) == entry_id, (text, entry_id, owner[key])
    names = {normalize(name) for e in entries(game, lang) for name in e.names}
    assert not owner.keys() & names, sorted(owner.keys() & names)


@pytest.mark.parametrize(("game", "lang"), SETS)
def test_no_phrasing_is_a_question_of_the_blind_part(game: str, lang: str) -> None:
    """The blind part measures questions nobody foresaw: none of them is a phrasing the lookup learns."""
    asked = {normalize(text) for texts in phrasings_of(game, lang).values() for text in texts}
    blind = {normalize(q) for q, _, part in questions(game, lang) if part == BLIND_PART}
    assert not asked & blind, sorted(asked & blind)


def test_a_question_in_words_only_players_use_finds_its_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    """"gloop" is in no entry's title, aliases or text: reading the entries alone misses the mud, the phrasings
    teach it."""
    texts = " ".join(f"{e.title} {' '.join(e.aliases)} {e.text}" for e in entries("races", "en"))
    assert "gloop" not in normalize(texts).split()
    question = "the brown gloop slows me down?"
    assert search("races", question, lang="en")[0].id == "terrain-mud"
    monkeypatch.setattr(lookup, "LEARNED_SHARE", 0.0)
    assert search("races", question, lang="en")[0].id != "terrain-mud"


def test_an_exact_name_still_comes_first() -> None:
    """The phrasings weigh in only for questions: a name typed exactly is answered by its entry."""
    for game, lang in SETS:
        for entry in entries(game, lang):
            assert search(game, entry.title, limit=1, lang=lang)[0].id == entry.id or \
                normalize(entry.title) in {normalize(n) for e in entries(game, lang) if e is not entry
                                           for n in e.names}, (game, entry.id)


def test_a_phrasings_file_naming_an_unknown_entry_is_refused(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    bad = tmp_path / "phrasings-en.toml"
    bad.write_text('"no-such-entry" = ["what is this"]\n', encoding="utf-8")
    monkeypatch.setattr(lookup, "_phrasings_file", lambda game, lang: bad)
    lookup.phrasings_of.cache_clear()
    try:
        with pytest.raises(ValueError, match="no en entry no-such-entry"):
            phrasings_of("piecepack", "en")
    finally:
        monkeypatch.undo()
        lookup.phrasings_of.cache_clear()
