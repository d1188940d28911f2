"""How the lobby words a game's setup and seat options: each option by the name the game's commands give it
in the reader's language (a noun, so capitalised in German), each value by its own name (a colour, a crew
member, a direction), a flag by its name alone; and setup notes naming an option as the reader's Discord
shows it."""

from __future__ import annotations

import pytest

from bot.games import unit_for


@pytest.mark.parametrize(("lang", "seat", "expected"), [
    ("de", {"colour": "red"}, "Farbe rot"),
    ("en", {"colour": "red"}, "colour red"),
    ("de", {"colour": "blue", "team": 2}, "Farbe blau, Team 2"),
    ("de", {"colour": "red", "crew": "tilly", "crew_set": 2}, "Farbe rot, Charakter Tilly, Startset 2"),
    ("en", {"colour": "red", "crew": "tilly", "crew_set": 2}, "colour red, character Tilly, set 2"),
])
def test_a_kart_seat_is_worded_in_the_readers_language(lang: str, seat: dict, expected: str) -> None:
    assert unit_for("races").option_words("join", seat, lang) == expected


@pytest.mark.parametrize(("lang", "expected"), [
    ("de", "Strecke Sump Creek Loop, Crew, Runden 1"),
    ("en", "track Sump Creek Loop, crew, laps 1"),
])
def test_a_race_setup_names_a_flag_alone(lang: str, expected: str) -> None:
    """A flag that is on reads as its name (``Crew``), one that is off not at all: never ``crew True``."""
    options = {"track": "Sump Creek Loop", "teams": False, "crew": True, "laps": 1}
    assert unit_for("races").option_words("new", options, lang) == expected


def test_a_rally_setup_says_its_direction_and_board_in_german() -> None:
    options = {"track": "A", "laps": 3, "direction": "anticlockwise", "boards": "1:M 2:M 3:BE 5:BE"}
    assert unit_for("rally").option_words("new", options, "de") == \
        "Strecke A, Runden 3, Richtung gegen den Uhrzeigersinn, Startbrett 1:M 2:M 3:BE 5:BE"
    assert unit_for("rally").option_words("new", options, "en") == \
        "track A, laps 3, direction anticlockwise, board 1:M 2:M 3:BE 5:BE"


def test_an_option_a_game_ignores_is_named_as_a_german_discord_shows_it() -> None:
    """Piecepack has no laps: its note names ``/game new``'s option as German players see it (``runden``)."""
    _, notes = unit_for("piecepack").setup_options({"laps": 2}, lang="de")
    assert notes and "`runden`" in notes[0] and "laps" not in notes[0]
    _, notes = unit_for("piecepack").setup_options({"laps": 2}, lang="en")
    assert notes and "`laps`" in notes[0]


async def test_a_crew_race_lobby_reads_german_words_in_a_german_channel(h) -> None:
    """Through Discord on a German server: the crew race's announcement and the seat line name the crew
    game, the colour, the character and the starting set in German, with no stored key or flag value."""
    from tests.bot.helpers import ANN, answer

    h.guild_locale = "de"
    h.locales[ANN] = "de"
    opened = answer(await h.slash(ANN, "game new", game="races", track="A", laps=1, crew=True)).content
    seated = answer(await h.slash(ANN, "game join", colour="red", character="Tilly", set=2)).content
    assert "(Strecke Sump Creek Loop, Crew, Runden 1)" in opened, opened
    assert "(Farbe rot, Charakter Tilly, Startset 2)" in seated, seated
    for leftover in ("True", "crew_set", "tilly", "red"):
        assert leftover not in opened + seated, (leftover, opened, seated)
