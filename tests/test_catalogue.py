"""The catalogue reader: ids, fallback to English, plural forms chosen by each language's header."""

from pathlib import Path

import pytest

from rules.catalogue import Catalogue, placeholders

HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Plural-Forms: {forms}\\n"\n\n'
EN = HEADER.format(forms="nplurals=2; plural=(n != 1);") + (
    'msgid "hello"\nmsgstr "Hello, {name}."\n\n'
    'msgid "laps"\nmsgid_plural "laps"\nmsgstr[0] "{count} lap"\nmsgstr[1] "{count} laps"\n')
#: a made-up language whose header has three forms, to show the header (not English) decides
DE = HEADER.format(forms="nplurals=3; plural=(n==1 ? 0 : n==2 ? 1 : 2);") + (
    'msgid "laps"\nmsgid_plural "laps"\nmsgstr[0] "{count} Runde"\nmsgstr[1] "zwei Runden"\n'
    'msgstr[2] "{count} Runden"\n')


@pytest.fixture
def catalogue(tmp_path: Path) -> Catalogue:
    (tmp_path / "en.po").write_text(EN, encoding="utf-8")
    (tmp_path / "de.po").write_text(DE, encoding="utf-8")
    return Catalogue(tmp_path)


def test_plural_form_follows_the_languages_header(catalogue: Catalogue) -> None:
    assert [catalogue.say("laps", "de", count=n) for n in (1, 2, 5)] == ["1 Runde", "zwei Runden", "5 Runden"]
    assert [catalogue.say("laps", "en", count=n) for n in (1, 2)] == ["1 lap", "2 laps"]


def test_a_missing_translation_falls_back_to_english(catalogue: Catalogue) -> None:
    assert catalogue.say("hello", "de", name="Ann") == "Hello, Ann."
    assert catalogue.say("hello", "fr", name="Ann") == "Hello, Ann."


def test_an_unknown_id_is_an_error_not_a_silent_echo(catalogue: Catalogue) -> None:
    with pytest.raises(KeyError):
        catalogue.say("no_such_text", "en")


def test_entries_and_placeholders(catalogue: Catalogue) -> None:
    assert catalogue.ids == {"hello", "laps"}
    assert catalogue.entries("de")["laps"] == ("{count} Runde", "zwei Runden", "{count} Runden")
    assert placeholders("{who} moved {count} {thing.name}") == {"who", "count", "thing"}
