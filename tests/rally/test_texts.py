"""The message catalogue: every text in English and German with the same placeholders; events and
refusals carry their message id so a front end can say them in German."""

from __future__ import annotations

import string

import pytest

from rules import IllegalAction
from rules.rally import RallyGame
from rules.rally.texts import LANGS, MESSAGES, say
from tests.rally.conftest import pos


def fields(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


@pytest.mark.parametrize("msg", sorted(MESSAGES))
def test_both_languages_with_the_same_placeholders(msg: str) -> None:
    texts = MESSAGES[msg]
    assert set(texts) == set(LANGS)
    assert fields(texts["en"]) == fields(texts["de"])


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
        "Blau (Bo) verliert ein(en) Motorteil von Gang 5."


def test_a_notation_error_in_german() -> None:
    from rules import NotationError
    from rules.rally import parse_syntax

    with pytest.raises(NotationError) as info:
        parse_syntax("move 14d")
    error = info.value
    assert say(error.msg, "de", **error.params).startswith("'14d' ist kein Feld")  # type: ignore[attr-defined]
