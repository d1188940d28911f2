"""Texts players read: articles and plurals come from one helper (rules/races/words.py)."""

from __future__ import annotations

import pytest

from rules.contract import IllegalAction
from rules.races.words import a_an, counted, either, plural, tile_name
from tests.races.conftest import FAR, position


@pytest.mark.parametrize(
    ("noun", "expected"),
    [("oil", "an oil"), ("acid", "an acid"), ("glue", "a glue"), ("time bomb", "a time bomb"),
     ("Anti-magnetic Field Generator", "an Anti-magnetic Field Generator"), ("Jet Engine", "a Jet Engine")],
)
def test_a_or_an_follows_the_first_sound(noun: str, expected: str) -> None:
    assert a_an(noun) == expected


@pytest.mark.parametrize(
    ("n", "noun", "expected"),
    [(1, "tile", "1 tile"), (0, "tile", "0 tiles"), (3, "bottle top", "3 bottle tops"), (1, "point", "1 point"),
     (2, "white fuel die", "2 white fuel dice"), (1, "red die", "1 red die"), (2, "box", "2 boxes")],
)
def test_counted_nouns_take_the_right_form(n: int, noun: str, expected: str) -> None:
    assert counted(n, noun) == expected


def test_plural_and_tile_names() -> None:
    assert plural("die") == "dice" and tile_name("time-bomb") == "time bomb" and tile_name("oil") == "oil"
    assert either(["3"]) == "3" and either(["3", "4"]) == "3 or 4" and either(["3", "4", "5"]) == "3, 4 or 5"


def test_a_part_that_fits_several_free_locations_asks_for_one_of_them() -> None:
    """Pit Stops: 'buy mud-tyres' with locations 4 and 5 free (3 taken) names just those two."""
    g = position([{"colour": "red", "cell": "C1", "facing": "SE", "bottle_tops": 4, "parts": {"3": "grass-tyres"}},
                  FAR])
    with pytest.raises(IllegalAction, match=r"location 4 or 5 \(like 'buy mud-tyres 4'\)"):
        g.apply("buy mud-tyres")


@pytest.mark.parametrize(("trap", "text"), [("oil N", "K3 already holds an oil"), ("acid", "K3 already holds an acid"),
                                            ("glue", "K3 already holds a glue"),
                                            ("time-bomb", "K3 already holds a time bomb")])
def test_refusal_names_the_trap_with_its_article(trap: str, text: str) -> None:
    """Phase 1: the refusal for a taken cell reads 'holds an oil', never 'holds a oil'."""
    g = position([{"colour": "red", "cell": "J3", "facing": "SE", "bags": {"7": ["spring"]}}, FAR], phase="deeds",
                 board={"K3": trap})
    with pytest.raises(IllegalAction, match=text):
        g.apply("trap spring K3")


def test_event_texts_use_articles_and_plurals() -> None:
    """A purchase names 'an Anti-magnetic Field Generator'; one bottle top is not 'bottle top(s)'."""
    g = position([{"colour": "red", "cell": "C1", "facing": "SE", "bottle_tops": 3}, FAR])
    g.apply("buy field-generator")
    assert "buys an Anti-magnetic Field Generator for 3 bottle tops" in g.last_events[0].text
    move = position([{"colour": "red", "cell": "C8", "facing": "N", "bottle_tops": 9}, FAR], phase="move", points=2)
    texts = " ".join(e.text for e in move.apply("step C7"))
    assert "collects 1 bottle top at C7" in texts and "(s)" not in texts
