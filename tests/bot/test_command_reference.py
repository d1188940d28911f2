"""The command reference ``bot/discord/COMMANDS.md`` is the registered command tree in English and German:
it fails when the file and what ``junkyard sync`` registers differ (run ``junkyard commands --write``)."""

from __future__ import annotations

import pytest

from bot import games
from bot.cli import main
from bot.discord.reference import REFERENCE, reference, registered
from tests.bot.toygame import ToyUnit


@pytest.fixture(autouse=True)
def product_games_only(toy_game):
    """The product's games only: the test suite's toy game is no command the bot registers."""
    games.unregister(toy_game.key)
    yield
    games.register(ToyUnit())  # the suite's own fixture unregisters it again


async def test_the_reference_file_matches_the_registered_commands() -> None:
    commands = await registered()
    assert REFERENCE.read_text(encoding="utf-8") == reference(commands), \
        "bot/discord/COMMANDS.md is out of date: run junkyard commands --write"


async def test_the_reference_names_every_command_option_and_choice_in_both_languages() -> None:
    commands = await registered()
    text = reference(commands)

    def walk(item: dict, english: str, german: str) -> None:
        english = f"{english} {item['name']}".strip()
        german = f"{german} {item['name_localizations']['de']}".strip()
        assert f"`/{english}` · `/{german}`" in text
        for option in item.get("options", []):
            if option["type"] in (1, 2):
                walk(option, english, german)
                continue
            assert f"`{option['name']}` | `{option['name_localizations']['de']}`" in text
            for choice in option.get("choices", []):
                assert f"`{choice['value']}` {choice['name']} / {choice['name_localizations']['de']}" in text

    for command in commands:
        walk(command, "", "")
    assert "`/game forget` · `/spiel vergessen`" in text


def test_junkyard_commands_check_says_when_the_file_is_stale(monkeypatch, tmp_path, capsys) -> None:
    import bot.discord.reference as ref

    assert main(["commands", "--check"]) == 0
    stale = tmp_path / "COMMANDS.md"
    stale.write_text(REFERENCE.read_text(encoding="utf-8").replace("/spiel vergessen", "/spiel weg"), encoding="utf-8")
    monkeypatch.setattr(ref, "REFERENCE", stale)
    assert main(["commands", "--check"]) == 1
    assert "differs from the registered commands" in capsys.readouterr().err
    assert main(["commands", "--write"]) == 0
    assert stale.read_text(encoding="utf-8") == REFERENCE.read_text(encoding="utf-8")
