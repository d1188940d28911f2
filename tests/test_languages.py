"""One list of languages, read from the catalogues: the service's catalogue folder names them
(``bot/locale/<lang>.po``), every part takes them from :data:`rules.catalogue.LANGS`, and no product module
words or branches on a language of its own (``{"de": …}``, ``lang == "de"``): a language's words live in
its catalogues and data files (``<lang>.po``, ``<lang>.lookup.toml``, ``<lang>.commands.toml``)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot import texts
from bot.web import page
from rules import catalogue, lookup

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ("bot", "rules", "render")
#: the languages besides English, whose words would be a table or a branch in code
OTHERS = frozenset(catalogue.LANGS) - {catalogue.DEFAULT}


def write_catalogue(folder: Path, lang: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{lang}.po").write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
                                       f'msgid "hello"\nmsgstr "hello in {lang}"\n', encoding="utf-8")


def test_the_languages_are_the_catalogues_files_english_first(tmp_path: Path) -> None:
    """A folder's ``<lang>.po`` files are its languages: English first, the others in a stable order, and a
    catalogue added is a language more."""
    for lang in ("de", "en"):
        write_catalogue(tmp_path, lang)
    assert catalogue.languages(tmp_path) == ("en", "de")
    write_catalogue(tmp_path, "fr")
    (tmp_path / "fr.lookup.toml").write_text("", encoding="utf-8")  # other files of a language are no language
    assert catalogue.languages(tmp_path) == ("en", "de", "fr")
    assert catalogue.Catalogue(tmp_path).say("hello", "fr") == "hello in fr"


def test_every_part_takes_the_one_list() -> None:
    """The service, the catalogues, the rule lookup and the web page speak the languages of the service's
    catalogue, and the same list (not copies of it)."""
    assert catalogue.languages(catalogue.LOCALE) == catalogue.LANGS
    assert {"en", "de"} <= set(catalogue.LANGS) and catalogue.LANGS[0] == "en"
    assert texts.LANGS is catalogue.LANGS and lookup.LANGS is catalogue.LANGS and page.LANGS is catalogue.LANGS
    assert set(lookup.LANGUAGES) == set(catalogue.LANGS)


def test_a_rules_command_language_choice_per_catalogue_language() -> None:
    from bot.discord import rules_command

    assert rules_command.LANGUAGES is catalogue.LANGS


def test_a_locale_reads_whichever_language_the_catalogues_offer(monkeypatch: pytest.MonkeyPatch) -> None:
    """``de-AT`` reads German; a locale of a language with a catalogue reads it (a French catalogue added,
    ``fr`` reads French), any other English."""
    assert texts.language("de-AT") == "de" and texts.language("pt-BR") == "en" and texts.language(None) == "en"
    assert texts.language("fr") == "en"
    monkeypatch.setattr(texts, "LANGS", (*catalogue.LANGS, "fr"))
    assert texts.language("fr") == "fr" and texts.language("fr-CA") == "fr" and texts.language("de") == "de"


def test_every_language_has_its_lookup_words() -> None:
    """Each language's filler words, stemmer and question words are a file beside its catalogue."""
    for lang in catalogue.LANGS:
        assert (catalogue.LOCALE / f"{lang}.lookup.toml").is_file(), lang
        assert lookup.LANGUAGES[lang].stop_words and lookup.LANGUAGES[lang].marks, lang


def test_every_language_but_english_names_the_commands() -> None:
    """English names are the commands' own; every other language has the generic commands' words."""
    words = texts.command_words(catalogue.LOCALE)
    assert set(words) == OTHERS
    assert all(words[lang]["game new"][0] for lang in OTHERS)


def language_code_in_code(path: Path) -> list[str]:
    """The places of a module that key a table by a language besides English, compare with one, or list
    the languages themselves (a second list)."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Dict):
            keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
            if keys & OTHERS:
                out.append(f"{path.relative_to(ROOT)}:{node.lineno}: a table keyed by language")
        elif isinstance(node, ast.Compare):
            values = [node.left, *node.comparators]
            if any(isinstance(v, ast.Constant) and v.value in OTHERS for v in values):
                out.append(f"{path.relative_to(ROOT)}:{node.lineno}: a branch on a language")
        elif isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            items = {e.value for e in node.elts if isinstance(e, ast.Constant)}
            if set(catalogue.LANGS) <= items and len(items) == len(node.elts):
                out.append(f"{path.relative_to(ROOT)}:{node.lineno}: a list of the languages")
    return out


def test_no_product_module_words_or_branches_on_a_language() -> None:
    found = [place for package in PRODUCT for path in sorted((ROOT / package).rglob("*.py"))
             for place in language_code_in_code(path)]
    assert found == []


def test_the_scan_sees_a_table_a_branch_and_a_list(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tests.test_languages.ROOT", tmp_path)
    source = tmp_path / "sample.py"
    source.write_text('WORDS = {"en": "yes", "de": "ja"}\n'
                      'def f(lang):\n    return "ja" if lang == "de" else "yes"\n'
                      'LANGS = ("en", "de")\n# "de": a comment is no table\n', encoding="utf-8")
    assert sorted(p.split(": ", 1)[1] for p in language_code_in_code(source)) == [
        "a branch on a language", "a list of the languages", "a table keyed by language"]
