"""A person never reads an entry's id: ids ("tile-glue", "phase-3-de") are the lookup's names for its
entries, not words of the game. No entry's title or text names one, and neither `junkyard rules` nor
`/rules` prints the id of the entry it answers with or of those it offers beside it, in English or German.
"""

from __future__ import annotations

import re

import pytest

from bot.cli import main
from bot.discord import rules_command
from rules import lookup

# the games with entries; Schrottplatz Rally's come through the ``rally`` fixture (conftest.py)
GAMES = ("races", "piecepack", "rally")


def _id_pattern(entry_id: str) -> re.Pattern[str]:
    """An id as a word of its own: "tile-glue" but not the "glue" of "tile-glue-de" or "Glue"."""
    return re.compile(rf"(?<![\w-]){re.escape(entry_id)}(?![\w-])")


def _leaks(game: str, text: str) -> list[str]:
    """The ids of ``game``'s entries that ``text`` names: every id with a hyphen as a word of its own, and
    every id at all where only an id stands (in parentheses, backticks or between footer dots)."""
    found = []
    for entry in lookup.entries(game):
        i = entry.id
        if ("-" in i and _id_pattern(i).search(text)) or any(
                f"{a}{i}{b}" in text for a, b in (("(", ")"), ("`", "`"), (", ", ")"), ("· ", " ·"))):
            found.append(i)
    return found


@pytest.mark.parametrize("game", GAMES)
def test_no_title_or_text_of_an_entry_names_an_id(rally: str, game: str) -> None:
    leaks = {e.id: _leaks(game, f"{e.title}\n{e.text}") for e in lookup.entries(game)}
    assert not {k: v for k, v in leaks.items() if v}


def test_the_check_catches_an_id_in_an_answer(rally: str) -> None:
    """The check can fail: the ways an id was once shown are all caught, words of the game are not."""
    assert _leaks("races", "Glue (Junk tile, tile-glue)") == ["tile-glue"]
    assert _leaks("races", "Also: Phase 3: Roll for movement (phase-3-de)") == ["phase-3-de"]
    assert _leaks("rally", "Schrottplatz Rally · curves · Also: Booster") == ["curves"]
    assert _leaks("rally", "Curves: a green curve allows only green; see the pit lane and S5.") == []


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", lookup.LANGS)
def test_junkyard_rules_prints_no_id(rally: str, game: str, lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Every entry asked for by its title, and by a question made of its first alias: the whole answer
    (heading, text, "see also", the alternatives) names no id."""
    leaked = {}
    for entry in lookup.entries(game, lang):
        for question in (entry.title, *entry.aliases[:1]):
            assert main(["rules", "--game", game, "--lang", lang, question]) == 0
            out = capsys.readouterr().out
            if _leaks(game, out):
                leaked[question] = _leaks(game, out)
    assert not leaked


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", lookup.LANGS)
def test_rules_answers_in_discord_name_no_id(rally: str, game: str, lang: str) -> None:
    """`/rules`'s answer for every entry, with the next best beside it: title, text and footer name no id,
    and the footer names the game and the kind of entry."""
    leaked = {}
    for entry in lookup.entries(game, lang):
        best, others = lookup.answer(game, entry.title, lang)
        assert best is not None
        embed, _ = rules_command.rule_message(lookup, game, best, others, lang, entry.title)
        shown = "\n".join([embed.title or "", embed.description or "", embed.footer.text or ""])
        if _leaks(game, shown):
            leaked[entry.title] = _leaks(game, shown)
        assert best.id not in (embed.footer.text or "").split(" · ")
    assert not leaked
