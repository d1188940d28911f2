"""German command names: every command, group, subcommand, option and choice `junkyard sync` registers has
a German name and description that Discord accepts, and the README lists the German commands."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot.discord import translator as tr
from bot.discord.translator import JunkyardTranslator, readme_table, words_in
from tests.bot.harness import DiscordHarness
from tests.bot.helpers import make_bot

README = Path(__file__).resolve().parents[2] / "README.md"
#: Discord's rule for a localised command or option name (letters of any script, digits, - and _)
NAME = re.compile(r"^[-_\w]{1,32}$")
DE = "de"


@pytest.fixture
async def synced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[list[dict[str, Any]], set[str]]:
    """What `junkyard sync` sends Discord (through the tree's own sync), and the table paths it used."""
    used: set[str] = set()
    looked_up = JunkyardTranslator.worded

    def recording(self: JunkyardTranslator, lang: str, location: Any, data: Any) -> str | None:
        path = tr.path_of(location, data)
        if path is not None and lang == DE:
            used.add(path)
        return looked_up(self, lang, location, data)

    monkeypatch.setattr(JunkyardTranslator, "worded", recording)
    sent: list[dict[str, Any]] = []

    async with DiscordHarness(make_bot(tmp_path / "t.db")) as h:
        tree = h.bot.tree
        assert isinstance(tree.translator, JunkyardTranslator), "the bot sets its translator before syncing"

        async def upsert(application_id: int, payload: list[dict[str, Any]]) -> list[dict[str, Any]]:
            sent.extend(payload)
            return []

        monkeypatch.setattr(tree._http, "bulk_upsert_global_commands", upsert)
        await tree.sync()
    return sent, used


def _problems(items: list[dict[str, Any]], where: str) -> list[str]:
    out = []
    seen: dict[str, str] = {}
    for item in items:
        at = f"{where} {item['name']}".strip()
        name = (item.get("name_localizations") or {}).get(DE)
        description = (item.get("description_localizations") or {}).get(DE)
        if name is None:
            out.append(f"/{at}: no German name")
        elif not NAME.match(name) or name != name.lower():
            out.append(f"/{at}: German name {name!r} is not a valid Discord name")
        elif name in seen:
            out.append(f"/{at}: German name {name!r} also names {seen[name]}")
        else:
            seen[name] = item["name"]
        if not description:
            out.append(f"/{at}: no German description")
        elif len(description) > 100:
            out.append(f"/{at}: German description longer than 100 characters")
        for choice in item.get("choices") or []:
            if not (choice.get("name_localizations") or {}).get(DE):
                out.append(f"/{at} choice {choice['value']!r}: no German name")
        out += _problems(item.get("options") or [], at)
    return out


async def test_every_command_option_and_choice_has_valid_german_words(
        synced: tuple[list[dict[str, Any]], set[str]]) -> None:
    commands, _ = synced
    assert {c["name"] for c in commands} >= {"game", "rules", "stats"}
    assert len(commands) >= 4, "every game's group is registered"
    assert _problems(commands, "") == []


async def test_every_table_entry_is_used(synced: tuple[list[dict[str, Any]], set[str]]) -> None:
    """A misspelt path in a table would never be shown: every entry is reached by a command."""
    _, used = synced
    assert sorted(set(words_in("de")) - used) == []


async def test_german_names_are_natural(synced: tuple[list[dict[str, Any]], set[str]]) -> None:
    commands, _ = synced
    table = readme_table(commands)
    for row in ("| `/game new` | `/spiel neu` |", "| `/rules` | `/regeln` |", "| `/game join` | `/spiel beitreten` |"):
        assert row in table


async def test_readme_lists_the_german_commands(synced: tuple[list[dict[str, Any]], set[str]]) -> None:
    commands, _ = synced
    assert readme_table(commands) in README.read_text(encoding="utf-8"), \
        "README's German command table is out of date: paste bot.discord.translator.readme_table's output"


async def test_other_languages_keep_english(synced: tuple[list[dict[str, Any]], set[str]]) -> None:
    commands, _ = synced
    for command in commands:
        assert set(command.get("name_localizations") or {}) == {DE}


def test_games_agree_on_shared_setup_options(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two games offering the same /game new option must give it one German name: differing tables are
    refused rather than one silently winning."""
    one = SimpleNamespace(key="one", translations={"de": {"new:laps": ("runden", "Runden")}})
    other = SimpleNamespace(key="other", translations={"de": {"new:laps": ("durchgänge", "Runden")}})
    monkeypatch.setattr(tr.games, "units", lambda: [one, one])
    assert words_in("de")["new:laps"] == ("runden", "Runden")
    monkeypatch.setattr(tr.games, "units", lambda: [one, other])
    with pytest.raises(ValueError, match="new:laps"):
        words_in("de")
