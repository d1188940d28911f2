"""The ranking behind questions in plain words: filler words, word forms, synonyms, typos, names first."""

from __future__ import annotations

import pytest

from bot.cli import main
from rules import lookup
from rules.lookup import LANGUAGES, answer, entries, search, stem, suggest


def first(game: str, question: str) -> str:
    found = search(game, question, limit=1)
    assert found, question
    return found[0].id


@pytest.mark.parametrize(("word", "root"), [
    ("bumped", "bump"), ("bumping", "bump"), ("bumps", "bump"), ("bump", "bump"),
    ("winning", "win"), ("wins", "win"), ("moving", "mov"), ("moves", "mov"), ("move", "mov"),
    ("stopped", "stop"), ("rolled", "roll"), ("deliveries", "deliver"), ("delivered", "deliver"),
    ("delivery", "deliver"), ("tyres", "tyr"), ("r7", "r7"), ("3", "3"), ("oil", "oil"),
])
def test_the_stemmer_gives_word_forms_one_root(word: str, root: str) -> None:
    assert stem(word) == root


def test_filler_words_do_not_have_to_appear_in_the_entry() -> None:
    """Every word of "what does glue do" but "glue" is filler, so Glue answers it."""
    assert {"what", "does", "do", "can", "i", "how"} <= LANGUAGES["en"].stop_words
    assert first("races", "what does glue do") == "tile-glue"
    assert first("races", "glue") == "tile-glue"


def test_word_forms_and_synonyms_match() -> None:
    assert first("races", "I got bumped") == "bumping"
    assert first("races", "pushing karts") == "bumping"  # push is a bump
    assert first("races", "falling in the creek") == "bumping-stream"  # creek is the stream
    assert first("piecepack", "victory") == "winning"
    assert first("races", "how do I get victory") == "object"  # victory is winning, the object


def test_typos_count_as_the_closest_known_word() -> None:
    assert first("races", "magnit") == "tile-magnet"
    assert first("races", "battring ram") == "part-battering-ram"
    assert first("piecepack", "cenetr") == "centre"


def test_a_word_run_together_counts_as_its_two_words() -> None:
    assert first("races", "pitstop") == "pit-stops"
    assert first("races", "timebomb freezer") == "part-time-bomb-freezer"


def test_a_title_match_weighs_more_than_the_same_word_in_a_text() -> None:
    # "Spring" is in the Spring's title and in many texts (the Spring is a trap everyone mentions)
    assert first("races", "spring") == "tile-spring"
    assert first("races", "acid") == "tile-acid"


@pytest.mark.parametrize("game", ["races", "piecepack"])
def test_an_exact_name_always_comes_first(game: str) -> None:
    """Titles, aliases and ids are unique (test_lookup), so each one finds its own entry first."""
    for e in entries(game, "en"):
        for name in e.names:
            assert first(game, name) == e.id, name


def test_nothing_is_found_for_words_no_entry_knows() -> None:
    assert search("races", "zzzz qqqq") == []
    assert answer("races", "zzzz qqqq") == (None, [])
    assert search("races", "glue", limit=0) == []


def test_answer_gives_the_best_entry_and_two_alternatives() -> None:
    best, others = answer("races", "can I bump on a bridge")
    assert best is not None and best.id == "bumping"
    assert len(others) == 2 and best.id not in {e.id for e in others}
    best, others = answer("races", "Glue")  # an exact name
    assert best is not None and best.id == "tile-glue" and len(others) <= 2


def test_autocomplete_takes_the_last_word_as_unfinished() -> None:
    assert suggest("races", "time b")[0].id == "tile-time-bomb"
    assert suggest("races", "what does gl")[0].id == "tile-glue"
    assert search("races", "what does gl") == []  # a question is taken as finished: "gl" is no word


def test_junkyard_rules_prints_the_title_then_the_text_and_two_alternatives(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "what", "does", "glue", "do"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Glue (Junk tile)"
    assert any("stops at once" in line for line in out)
    assert "**" not in "\n".join(out)  # markdown bold is dropped for a terminal
    assert out[-1].startswith("Also: ") and out[-1].count("; ") == 1 and "(" not in out[-1]


def test_junkyard_rules_takes_a_game_and_defaults_to_the_first(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--game", "piecepack", "can", "I", "move", "diagonally"]) == 0
    assert capsys.readouterr().out.startswith("Carrying the good stuff")
    assert main(["rules", "how", "many", "players"]) == 0
    assert capsys.readouterr().out.startswith("R13 Seats")  # Junkyard Races, listed first


def test_junkyard_rules_says_when_nothing_matches(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "zzzz"]) == 1
    assert "Nothing in the rules matches “zzzz”" in capsys.readouterr().out


def test_a_question_about_a_thing_is_answered_by_that_things_entry() -> None:
    """"Can the carrier land on other pawns" asks what the carrier may do: the carrier's section answers,
    though Landing on others is also named "landing on the carrier" (there the carrier is landed on)."""
    assert first("piecepack", "can the carrier land on other pawns") == "carrying"
    assert first("piecepack", "what happens if I land on the carrier") == "landing"
    assert first("piecepack", "who gets the treasure when the carrier is landed on") == "landing"


@pytest.mark.parametrize(("question", "lang", "subject"), [
    ("can the carrier land on other pawns", "en", "carrier"),
    ("what does glue do", "en", "glue"),
    ("how do bombs work", "en", "bombs"),
    ("is tarmac special", "en", "tarmac"),
    ("can I push another kart", "en", None),  # the asker
    ("can someone steal my tiles", "en", None),
    ("what happens if I land on the carrier", "en", None),
    ("who starts the game", "en", None),  # "who" is the subject
    ("carrier landing", "en", None),
    ("darf der Träger andere Figuren schlagen", "de", "traeger"),
    ("Was macht der Leim?", "de", "leim"),
    ("wo steht die F-Pyramide am Anfang", "de", "f"),
    ("kann ich rückwärts fahren", "de", None),
    ("wer beginnt das Spiel", "de", None),
    ("Träger schlagen", "de", None),
])
def test_the_subject_of_a_question_is_the_thing_after_its_verb(question: str, lang: str, subject: str | None
                                                               ) -> None:
    words = lookup._words(question)
    at = lookup._subject(words, lookup.LANGUAGES[lang])
    assert (None if at is None else words[at]) == subject


@pytest.mark.parametrize(("name", "lang", "objects"), [
    ("landing on the carrier", "en", {"carrier"}),
    ("bumping into the stream", "en", {"stream"}),
    ("Carrying the good stuff", "en", set()),
    ("how to ask", "en", set()),
    ("auf dem Träger landen", "de", {"trag"}),
])
def test_a_names_words_after_a_preposition_are_what_something_is_done_to(name: str, lang: str, objects: set[str]
                                                                         ) -> None:
    assert lookup._objects(name, lookup.LANGUAGES[lang]) == objects


@pytest.mark.parametrize(("lang", "question", "intent"), [
    ("en", "where do I get fuel", "obtain"), ("en", "where can I find a mechanic", "obtain"),
    ("en", "what happens if a bomb hits me", "consequence"), ("de", "woher bekomme ich Benzin", "obtain"),
    ("de", "was passiert, wenn der Träger geschlagen wird", "consequence"),
])
def test_a_question_shows_its_intent_by_its_wording(lang: str, question: str, intent: str) -> None:
    language = lookup.LANGUAGES[lang]
    shown = [i.name for i in language.intents if i.shown_by(lookup._words(question))]
    assert shown == [intent]


def test_the_words_of_an_intent_must_come_in_order() -> None:
    """"get … where" is no cue of "where … get": "I get it, where is the centre" asks for the centre."""
    obtain = next(i for i in lookup.LANGUAGES["en"].intents if i.name == "obtain")
    assert obtain.shown_by(lookup._words("where do I get fuel"))
    assert not obtain.shown_by(lookup._words("I get it, where is the centre"))


@pytest.mark.parametrize(("lang", "question", "place", "thing"), [
    ("en", "where do I get fuel", "services", "booster"),
    ("de", "wo bekomme ich Benzin", "services-de", "booster-de"),
])
def test_asking_where_to_get_a_thing_finds_the_place_that_gives_it(rally: str, lang: str, question: str,
                                                                     place: str, thing: str) -> None:
    """Fuel is the booster's (its alias), but where to get it is the car parks' (Fitting out the car): the
    intent of "where do I get …" puts the place first, and the booster, without that wording, stays first
    for the fuel itself."""
    assert [e.id for e in search(rally, question, limit=1, lang=lang)] == [place]
    assert search(rally, "fuel" if lang == "en" else "Benzin", limit=1, lang=lang)[0].id == thing


def test_each_language_keeps_its_words_in_its_data() -> None:
    """Synonyms, phrases and intents come from each language's lookup file (``bot/locale/<lang>.lookup.toml``),
    for English and German alike."""
    for lang in lookup.LANGS:
        language = lookup.LANGUAGES[lang]
        assert language.synonyms and language.phrases and {"obtain", "consequence"} <= {
            i.name for i in language.intents}
    assert ("go off", "explode") in lookup.LANGUAGES["en"].phrases \
        and ("geht hoch", "explodiert") in lookup.LANGUAGES["de"].phrases


def test_a_verb_after_its_particle_is_no_part_of_an_unknown_word(rally: str) -> None:
    """"einstellen" (set) is not "stellen" (put), though "Stellplätze" is a word of the parking entry;
    a compound's known tail still counts ("Tankstellenbesuch": the Tankstelle)."""
    index = lookup._ranking_index(rally, "de")
    assert lookup._known_part(index, "einstellen") == ()
    assert lookup._known_part(index, "tankstellenbesuch") == ("tankstellen",)


def test_a_compound_name_is_also_named_by_its_parts() -> None:
    """"Phase 3: Bewegungswurf" is also the name "Phase 3: Bewegung Wurf", so a question with both words
    matches a whole name."""
    index = lookup._ranking_index("races", "de")
    doc = next(d for d in index.docs if d.entry.id == "phase-3-de")
    assert any({"beweg", "wurf"} <= alias for alias in doc.aliases)


@pytest.mark.parametrize(("lang", "question"), [
    ("en", "acid shows a 4 but there's no tyre there, do i still stop"),
    ("en", "somebody took a tile from my bag, how can they even do that"),
    ("de", "mein Gang hat nur ein Motorteil, funktioniert der trotzdem?"),
    ("de", "wie geht das überhaupt"),
])
def test_an_edge_case_question_shows_the_edge_intent(lang: str, question: str) -> None:
    """"still", "even", "trotzdem", "überhaupt": the question is about an edge case, which a ruling settles."""
    edge = next(i for i in lookup.LANGUAGES[lang].intents if i.name == "edge")
    assert edge.shown_by(lookup._words(question))
    assert edge.kinds == frozenset({"ruling"})


def test_an_edge_case_question_raises_the_rulings_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """R20 (Acid on a cell without a tyre) against the Acid tile: with "still" in the question the ruling
    gains :data:`KIND_BOOST`, the tile nothing."""
    question = "acid die shows a 4 but no tyre at 4, do i still stop"
    boosted = {e.id: s for s, e in lookup._ranked("races", question, False, "en")}
    monkeypatch.setattr(lookup, "KIND_BOOST", 1.0)
    plain = {e.id: s for s, e in lookup._ranked("races", question, False, "en")}
    assert boosted["ruling-r20"] == pytest.approx(plain["ruling-r20"] * 1.1)
    assert boosted["tile-acid"] == pytest.approx(plain["tile-acid"])


@pytest.mark.parametrize(("lang", "question", "subject"), [
    ("en", "the carrier can't land on people?", 1),
    ("de", "der Träger darf niemanden schlagen?", 1),
    ("en", "my kart is in the water", None),  # "my" opens no statement's subject: the asker speaks of theirs
    ("en", "the carrier land", None),  # no verb after it
])
def test_a_question_put_as_a_statement_has_its_subject(lang: str, question: str, subject: int | None) -> None:
    """A question asked as a statement opens with an article, its subject, then a verb (P6: what the carrier
    may do)."""
    assert lookup._subject(lookup._words(question), lookup.LANGUAGES[lang]) == subject


def test_a_statement_about_the_carrier_finds_the_carrier_not_landing_on_it() -> None:
    """P6: "the carrier can't land on people?" asks what the carrier may do, not about landing on it."""
    found = [e.id for e in search("piecepack", "the carrier can't land on people?", limit=1)]
    assert found[0] in ("carrying", "ruling-p6")
