"""Rule-lookup entries of Schrottplatz Rally: one per section of the rule text and per ruling, in English
and in German, in the lookup schema, in our own words."""

from __future__ import annotations

import re
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from rules.lookup import MAX_TEXT, _entry, normalize

SECTIONS = ["equipment", "before-first-round", "working-gear", "turn", "booster", "how-far", "moving",
            "parking-bar", "roadworthy", "services", "parking", "pit-lane", "turn-order", "curves", "winning"]
RULINGS = [f"ruling-s{i}" for i in range(1, 15)]
RULEBOOK = Path(__file__).resolve().parents[3] / "shared" / "rulebooks" / "schrottplatz-rally.de.txt"
WORD = re.compile(r"[A-Za-zÄÖÜäöüß0-9']+")


def raw_entries() -> list[dict[str, Any]]:
    text = resources.files("rules.rally").joinpath("data", "lookup.toml").read_text(encoding="utf-8")
    entries: list[dict[str, Any]] = tomllib.loads(text)["entry"]
    return entries


def by_id() -> dict[str, dict[str, Any]]:
    return {e["id"]: e for e in raw_entries()}


def test_every_section_and_ruling_in_both_languages() -> None:
    ids = by_id()
    for key in SECTIONS + RULINGS:
        assert ids[key]["lang"] == "en", key
        assert ids[f"{key}-de"]["lang"] == "de", key


def test_entries_fit_the_lookup_schema_apart_from_their_language() -> None:
    """The lookup loader takes every entry once it knows the `lang` field (the only new field)."""
    for raw in raw_entries():
        assert raw["lang"] in ("en", "de")
        entry = _entry("rally", {k: v for k, v in raw.items() if k != "lang"}, "rally lookup")
        assert len(entry.text) <= MAX_TEXT


def test_see_names_entries_of_the_same_language() -> None:
    ids = by_id()
    for raw in raw_entries():
        for ref in raw.get("see", []):
            assert ref in ids and ids[ref]["lang"] == raw["lang"], (raw["id"], ref)


@pytest.mark.parametrize(("question", "entry"), [
    ("Was passiert in der Kurve?", "curves-de"),
    ("Boxengasse", "pit-lane-de"),
    ("verschaltet", "ruling-s4-de"),
    ("what happens in a curve", "curves"),
])
def test_questions_find_their_entry_by_its_names(question: str, entry: str) -> None:
    names = {normalize(n) for n in (by_id()[entry]["title"], *by_id()[entry].get("aliases", []))}
    assert normalize(question) in names


@pytest.mark.skipif(not RULEBOOK.is_file(), reason="the rulebook is not beside the checkout")
def test_our_own_words() -> None:
    """No run of eight words of any entry is taken from the rule text."""
    book_words = [w.lower() for w in WORD.findall(RULEBOOK.read_text(encoding="utf-8"))]
    book = {tuple(book_words[i:i + 8]) for i in range(len(book_words) - 7)}
    for raw in raw_entries():
        ws = [w.lower() for w in WORD.findall(raw["text"] + " " + raw["title"])]
        shared = {tuple(ws[i:i + 8]) for i in range(len(ws) - 7)} & book
        assert not shared, (raw["id"], shared)
