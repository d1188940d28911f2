"""The rule lookup in two languages: German questions find Schrottplatz Rally's German entries, English
questions its English ones, and a game without German entries answers a German player in English.

The German questions are ``rules.lookup_questions.GERMAN_QUESTIONS``; `python -m bench lookup` prints
their top-1 and top-3 accuracy beside the English ones'.
"""

from __future__ import annotations

import pytest

from bot.cli import main
from rules import lookup
from rules.lookup import (
    RuleEntry,
    answer,
    detect_language,
    entries,
    find,
    fold,
    languages,
    normalize,
    search,
    suggest,
    twin,
)


def first(question: str, lang: str = "de") -> str:
    found = search("rally", question, limit=1, lang=lang)
    assert found, question
    return found[0].id


def _id(entry: RuleEntry | None) -> str | None:
    """The id of a found entry, None when nothing was found."""
    return None if entry is None else entry.id


# ------------------------------------------------------------------ reading German words


@pytest.mark.parametrize(("text", "folded"), [
    ("Würfel", "wuerfel"), ("Gänge", "gaenge"), ("Größe", "groesse"), ("Straße", "strasse"), ("Café", "cafe"),
])
def test_umlauts_and_sharp_s_are_spelt_out(text: str, folded: str) -> None:
    assert fold(text) == folded
    assert normalize(f"{text}!") == folded


@pytest.mark.parametrize(("words"), [
    ("Kurve", "Kurven", "kurve"), ("Gang", "Gänge", "Gaenge"), ("würfeln", "wuerfeln", "Würfeln"),
    ("Unfall", "Unfälle", "Unfaelle"), ("verschaltet", "verschalten", "verschalte"), ("Runde", "Runden"),
    ("parken", "parke", "Parken"), ("Motorteil", "Motorteile"),
])
def test_the_german_stemmer_gives_word_forms_one_root(words: tuple[str, ...]) -> None:
    stem_de = lookup.LANGUAGES["de"].stem
    assert len({stem_de(w) for w in words}) == 1, {w: stem_de(w) for w in words}


def test_german_filler_words_do_not_have_to_appear_in_the_entry(rally: str) -> None:
    assert {"was", "passiert", "wie", "ich", "darf", "kann", "der", "die", "das"} <= lookup.LANGUAGES["de"].stop_words
    assert first("Was passiert in der Kurve?") == first("Kurve") == "curves-de"


@pytest.mark.parametrize(("question", "expected"), [
    ("würfeln", "how-far-de"), ("wuerfeln", "how-far-de"), ("Unfälle", "ruling-s5-de"),
    ("Unfaelle", "ruling-s5-de"), ("Gaenge", "how-far-de"),
])
def test_words_with_and_without_umlauts_find_the_same_entry(rally: str, question: str, expected: str) -> None:
    assert first(question) == expected


@pytest.mark.parametrize(("question", "expected"), [
    ("Fehlschaltung", "ruling-s4-de"),  # verschalten
    ("Pit", "pit-lane-de"),  # Boxengasse: the pit lane itself before the house ruling S10 on it
    ("Crash", "ruling-s5-de"),  # Unfall
    ("Sprit", "booster-de"),  # Benzin: what a booster burns, named by its entry (as "fuel" finds Booster)
    ("Kurven", "curves-de"),
])
def test_german_synonyms_match(rally: str, question: str, expected: str) -> None:
    assert first(question) == expected


@pytest.mark.parametrize(("question", "expected"), [
    ("Boxenausfahrt", "pit-lane-de"),  # Box(en) + Ausfahrt: no entry has the whole word
    ("Kurvengrenze", "curves-de"),  # Kurve(n) + Grenze
    ("Wie oft darf ich die Spur wechseln?", "moving-de"),  # the entry says "Spurwechsel"
])
def test_german_compounds_are_split_into_known_words(rally: str, question: str, expected: str) -> None:
    assert first(question) == expected


def test_an_exact_name_of_either_language_comes_first_in_its_language(rally: str) -> None:
    for entry in entries(rally):
        for name in entry.names:
            assert search(rally, name, limit=1, lang=entry.lang)[0].id == entry.id, name
            assert find(rally, name, entry.lang) == entry, name


def test_names_are_unique_within_each_language(rally: str) -> None:
    for lang in languages(rally):
        owner: dict[str, str] = {}
        for e in entries(rally, lang):
            for name in e.names:
                key = normalize(name)
                assert owner.setdefault(key, e.id) == e.id, f"{name!r} names both {owner[key]} and {e.id}"


# ------------------------------------------------------------------ one language for each asker


def test_rally_has_both_languages_and_every_entry_a_twin(rally: str) -> None:
    assert languages(rally) == ["en", "de"]
    for entry in entries(rally, "en"):
        german = twin(rally, entry, "de")
        assert german is not None and german.id == f"{entry.id}-de" and german.lang == "de"
        assert twin(rally, german, "en") == entry


@pytest.mark.parametrize("question", ["Was passiert in der Kurve?", "Boxengasse", "wie viele Runden", "S5", ""])
def test_a_german_asker_sees_german_entries_only(rally: str, question: str) -> None:
    found = suggest(rally, question, lang="de")
    assert found and all(e.lang == "de" for e in found)
    if question:
        best, others = answer(rally, question, "de")
        assert best is not None and {e.lang for e in (best, *others)} == {"de"}


@pytest.mark.parametrize("question", ["what happens in a curve", "pit lane", "how many laps", "S5", "Booster", ""])
def test_an_english_asker_never_sees_german_entries(rally: str, question: str) -> None:
    found = suggest(rally, question, lang="en")
    assert found and all(e.lang == "en" for e in found)
    if question:
        best, others = answer(rally, question, "en")
        assert best is not None and {e.lang for e in (best, *others)} == {"en"}


def test_a_question_only_the_other_language_knows_gives_the_twin_in_the_askers_language(rally: str) -> None:
    """"Boxengasse" is no English word, so the German entries answer it, as their English twins."""
    assert search(rally, "Boxengasse", lang="en")[0].id == "pit-lane"
    assert _id(find(rally, "Boxengasse", "en")) == "pit-lane"
    assert _id(find(rally, "Pit lane", "de")) == "pit-lane-de"
    assert _id(find(rally, "S5", "de")) == "ruling-s5-de" and _id(find(rally, "S5", "en")) == "ruling-s5"


@pytest.mark.parametrize("game", ["races", "piecepack", "rally"])
def test_every_game_has_every_entry_in_both_languages(game: str) -> None:
    assert languages(game) == ["en", "de"]
    for entry in entries(game, "en"):
        german = twin(game, entry, "de")
        assert german is not None and german.kind == entry.kind and german.symbol == entry.symbol, entry.id
        assert [e.id for e in lookup.related(game, german)] == [f"{e.id}-de" for e in lookup.related(game, entry)]
    assert len(entries(game, "de")) == len(entries(game, "en"))


def test_a_question_in_the_other_language_finds_the_rule_in_the_askers_language() -> None:
    """A German word on an English server, an English word on a German one: the entry in the asker's
    language, and it says the name the asker used."""
    best, _ = answer("races", "what does Leim do", "en")
    assert best is not None and best.id == "tile-glue"
    assert lookup.other_name("races", best, "what does Leim do") == "Leim"
    best, _ = answer("races", "was macht Glue", "de")
    assert best is not None and best.id == "tile-glue-de"
    assert lookup.other_name("races", best, "was macht Glue") == "Glue"
    assert lookup.other_name("races", best, "was macht der Leim") is None
    other = lookup.other_named("races", best, "was macht Glue")
    assert other is not None and (other.title, other.lang) == ("Glue", "en")  # the name and its language


@pytest.mark.parametrize(("question", "locale", "lang"), [
    ("wie viele Runden", "en", "de"), ("how many laps", "de", "en"), ("Glue", "de", "de"), ("Glue", "en", "en"),
    ("Boxengasse", "en", "en"),
])
def test_the_answer_language_is_the_questions_else_the_askers(question: str, locale: str, lang: str) -> None:
    assert lookup.reply_language(question, None, locale) == lang
    assert lookup.reply_language(question, "en", locale) == "en"


@pytest.mark.parametrize(("question", "lang"), [
    ("Was passiert in der Kurve?", "de"), ("wie viele Runden fahren wir", "de"), ("Darf ich rückwärts fahren?", "de"),
    ("what happens in a curve", "en"), ("how many laps", "en"), ("can I bump on a bridge", "en"),
    ("Kurve", None), ("glue", None),
])
def test_the_language_of_a_question_is_voted_by_its_filler_words(question: str, lang: str | None) -> None:
    assert detect_language(question) == lang


def test_an_even_vote_goes_to_the_language_whose_entries_know_the_words(rally: str) -> None:
    assert detect_language("Boxengasse", rally) == "de"
    assert detect_language("pit lane", rally) == "en"
    assert detect_language("zzzz", rally) is None


# ------------------------------------------------------------------ the loader


def test_the_loader_reads_the_language_and_defaults_to_english() -> None:
    raw = {"id": "x", "title": "X", "kind": "section", "text": "words"}
    assert lookup._entry("rally", raw, "test").lang == "en"
    assert lookup._entry("rally", {**raw, "lang": "de"}, "test").lang == "de"
    with pytest.raises(ValueError, match="lang 'fr'"):
        lookup._entry("rally", {**raw, "lang": "fr"}, "test")
    with pytest.raises(ValueError, match="unknown keys colour"):
        lookup._entry("rally", {**raw, "colour": "red"}, "test")


# ------------------------------------------------------------------ junkyard rules


def test_junkyard_rules_answers_a_german_question_in_german(rally: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--game", rally, "Was", "passiert", "in", "der", "Kurve?"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Kurven (Regel)"
    assert out[-1].startswith("Auch: ")


def test_junkyard_rules_takes_the_language_from_lang(rally: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--game", rally, "--lang", "en", "Boxengasse"]) == 0
    assert capsys.readouterr().out.startswith("Pit lane (in German: Boxengasse) (Rule)\n")
    assert main(["rules", "--game", rally, "--lang", "de", "S5"]) == 0
    assert capsys.readouterr().out.startswith("S5 Kurven und Unfälle (Hausregel)\n")


def test_junkyard_rules_answers_every_game_in_german(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--lang", "de", "wie", "viele", "Runden"]) == 0
    assert capsys.readouterr().out.startswith("Spielziel (Regel)\n")
    assert main(["rules", "--lang", "de", "glue"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Leim (englisch: Glue) (Schrottplättchen)\n")
    assert "Siehe auch: Fallen beim Fahren" in out
    assert main(["rules", "--lang", "de", "zzzz"]) == 1
    assert "Nichts in den Regeln passt zu „zzzz“" in capsys.readouterr().out
