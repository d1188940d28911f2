"""The message catalogue: every text in English and German with the same placeholders, a text that counts
something in a singular and a plural form; events and refusals carry their message id and data (seats,
supply ids, numbers), never English words, so a front end can say them in German."""

from __future__ import annotations

import string

import pytest

from rules import IllegalAction
from rules.rally import RallyGame
from rules.rally.texts import CATALOGUE, LANGS, message_ids, say, template
from tests.rally.conftest import pos


def fields(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


@pytest.mark.parametrize("msg", message_ids())
def test_both_languages_with_the_same_placeholders(msg: str) -> None:
    """Every form of a message, in every language, has the same placeholders (so the texts can move to
    translation catalogues under stable ids)."""
    assert all(msg in CATALOGUE.entries(lang) for lang in LANGS)
    assert len({len(CATALOGUE.entries(lang)[msg]) for lang in LANGS}) == 1  # counted in both, or in neither
    variants = {template(msg, lang, count) for lang in LANGS for count in (1, 2)}
    assert len({frozenset(fields(t)) for t in variants}) == 1, variants


@pytest.mark.parametrize(("msg", "params", "count", "one", "two"), [
    ("take_fuel", {"item": "fuel"}, "count", "Red (Ann) takes 1 fuel can.", "Red (Ann) takes 2 fuel cans."),
    ("win", {}, "laps", "Red (Ann) completes 1 lap first and wins the rally!",
     "Red (Ann) completes 2 laps first and wins the rally!"),
    ("move_first", {}, "points", "Red (Ann) has 1 cell to drive first.", "Red (Ann) has 2 cells to drive first."),
    ("board_count", {"item": "body", "have": 0}, "count", "a car starts with 1 body part on its board, not 0",
     "a car starts with 2 body parts on its board, not 0"),
    ("p_gear_die", {"faces": "1–3"}, "gear", "die 1–3 · 1 cell", "die 1–3 · 2 cells"),
])
def test_counted_texts_read_right_at_one_and_two(msg: str, params: dict[str, object], count: str, one: str,
                                                 two: str) -> None:
    """A counted text is a plural entry asked for with ``count`` (the number it shows as ``count``)."""
    assert say(msg, "en", car="red", name="Ann", **{**params, count: 1, "count": 1}) == one
    assert say(msg, "en", car="red", name="Ann", **{**params, count: 2, "count": 2}) == two


def test_counted_texts_in_german() -> None:
    assert say("win", "de", car="red", name="Ann", laps=1, count=1) == \
        "Rot (Ann) schafft als Erstes 1 Runde und gewinnt die Rallye!"
    assert say("win", "de", car="red", name="Ann", laps=3, count=3).endswith("3 Runden und gewinnt die Rallye!")
    assert say("board_count", "de", count=2, item="engine", have=1) == \
        "ein Auto beginnt mit 2 Motorteile auf dem Tableau, nicht mit 1"
    assert say("p_header", "de", round=4, laps=1, count=1, direction="clockwise") == \
        "Durchgang 4 · 1 Runde · im Uhrzeigersinn"


@pytest.mark.parametrize(("item", "en", "de"), [
    ("engine", "Red (Ann) loses an engine part from gear 5.", "Rot (Ann) verliert ein Motorteil von Gang 5."),
    ("body", "Red (Ann) loses a body part from gear 5.", "Rot (Ann) verliert ein Karosserieteil von Gang 5."),
])
def test_parts_take_their_article(item: str, en: str, de: str) -> None:
    assert say("lose", "en", car="red", name="Ann", item=item, gear=5) == en
    assert say("lose", "de", car="red", name="Ann", item=item, gear=5) == de
    assert say("take", "de", car="red", name="Ann", item="mechanic", gear=4) == \
        "Rot (Ann) setzt einen Mechaniker auf Gang 4."
    assert say("lose_none", "de", car="red", name="Ann", item="body") == \
        "Rot (Ann) hat kein Karosserieteil zu verlieren."


def test_events_carry_seats_and_supply_ids_not_words() -> None:
    """Setup step 5 and S6: the start grid and a tie name seats (with every seat's name), a repair names
    supply ids; the words come from the catalogue in the language asked for."""
    g = RallyGame.create({"seats": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}]}, 1)
    grid = next(e for e in g.events if e.kind == "grid")
    assert grid.data["params"] == {"seats": g.order, "names": ["Ann", "Bob", "Cy"]}
    tie = next(e for e in g.events if e.kind == "grid_tie")
    assert set(tie.data["params"]) == {"seats", "names", "die"} and len(tie.data["params"]["seats"]) >= 2
    assert say("grid", "de", **grid.data["params"]).startswith("Startaufstellung: 1. ")
    repair = pos(cars={"red": {"at": "F7.1", "repair": 1, "board": "3:BE 5:BE 6:M"}}).apply("repair")[0]
    assert repair.data["params"]["parts"] == ["body", "engine"]
    assert repair.text == "Red repairs gear 1 (body part + engine part)."


def test_events_say_themselves_again_in_german() -> None:
    g = RallyGame.create({"seats": [{"name": "Ann"}, {"name": "Bob"}]}, 5)
    g.apply("roll green")
    for event in g.events:
        assert say(event.data["msg"], "en", **event.data["params"]) == event.text
        german = say(event.data["msg"], "de", **event.data["params"])
        assert german and german != event.text


def test_a_refusal_in_german() -> None:
    g = pos(cars={"red": {"at": "8a", "fuel": 0}})
    with pytest.raises(IllegalAction) as info:
        g.apply("roll green boost")
    refusal = info.value
    assert say(refusal.msg, "de", **refusal.params).startswith("Kein Benzinkanister")  # type: ignore[attr-defined]


def test_colours_ranges_and_parts_are_translated() -> None:
    assert say("shift", "de", car="red", name="Ann", range="yellow") == "Rot (Ann) schaltet auf gelb."
    assert say("shift", "en", car="red", name="Red", range="red") == "Red shifts to red."
    assert say("lose", "de", car="blue", name="Bo", item="engine", gear=5) == \
        "Blau (Bo) verliert ein Motorteil von Gang 5."


def test_a_notation_error_in_german() -> None:
    from rules import NotationError
    from rules.rally import parse_syntax

    with pytest.raises(NotationError) as info:
        parse_syntax("move 14d")
    error = info.value
    assert say(error.msg, "de", **error.params).startswith("'14d' ist kein Feld")  # type: ignore[attr-defined]
