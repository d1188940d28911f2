"""Two languages at one table, through the offline Discord harness: each player reads what only they see
(refusals, ``/game status``, their car board) in their own Discord language, and the channel reads the
game's language, the server's preferred one when the game was opened. Also: every text table the rally's
front words with has both languages and the same placeholders in each."""

from __future__ import annotations

import string
from typing import cast

import pytest

from bot import texts
from bot.discord import JunkyardBot
from bot.play.service import Service
from rules.rally import RallyGame
from rules.rally.texts import CATALOGUE
from tests.bot.harness import CHANNEL_ID, DiscordHarness, Sent
from tests.bot.helpers import ANN, BOB, answer, public, shown


def service(h: DiscordHarness) -> Service:
    return cast(JunkyardBot, h.bot).service


async def start(h: DiscordHarness, guild_locale: str) -> tuple[Sent, int, int]:
    """Ann and Bob sit at a one-lap rally opened in a server whose locale is ``guild_locale``; the first
    board, then the user to act and the other one."""
    h.guild_locale = guild_locale
    answer(await h.slash(ANN, "game new", game="rally", laps=1))
    answer(await h.slash(BOB, "game join"))
    board = answer(await h.slash(ANN, "game start"))
    _, game, _ = await service(h).current(CHANNEL_ID)
    assert isinstance(game, RallyGame) and game.to_act is not None
    mover = [ANN, BOB][game.to_act]
    return board, mover, ANN if mover == BOB else BOB


def one_private(sent: list[Sent]) -> str:
    mine = [s for s in shown(sent) if s.ephemeral]
    assert len(mine) == 1, [s.content for s in sent]
    return mine[0].content


@pytest.mark.presses_every_move
async def test_in_a_german_server_each_player_reads_their_own_language_and_the_channel_german(
        h: DiscordHarness) -> None:
    """A German and an English player in a server whose locale is German: refusals, status and car board
    in each player's language; the board in the channel (narration, standings, button labels) in German."""
    board, mover, waiter = await start(h, "de")
    h.locales[mover] = "de"  # the player to act reads German, the other English
    assert "beginnt!" in board.content and "Zugreihenfolge" in board.content
    assert board.labels and all(label.startswith("Würfeln") for label in board.labels), board.labels

    # refusals: the German mover's illegal move, the English player out of turn; nothing changes
    rec = await service(h).store.games.channel_game(CHANNEL_ID)
    assert rec is not None and rec.lang == "de"
    refused = one_private(await h.slash(mover, "game play", action="move 9a"))
    assert "muss zuerst würfeln" in refused and "Jetzt möglich: roll green" in refused, refused
    refused = one_private(await h.slash(waiter, "game play", action="roll green"))
    assert refused.startswith("It is not your turn:"), refused
    refused = one_private(await h.slash(waiter, "rally roll"))
    assert refused.startswith("It is not your turn:"), refused
    again = await service(h).store.games.channel_game(CHANNEL_ID)
    assert again is not None and again.version == rec.version

    # status and car board, privately, each in their own language
    status = one_private(await h.slash(mover, "game status"))
    assert "Zugreihenfolge" in status and "Du kannst: roll green" in status, status
    status = one_private(await h.slash(waiter, "game status"))
    assert "Turn order" in status and "Zugreihenfolge" not in status, status
    assert one_private(await h.slash(mover, "rally board")).startswith("Dein Auto:")
    assert one_private(await h.slash(waiter, "rally board")).startswith("Your car:")
    assert "Zugreihenfolge" in one_private(await h.slash(mover, "game board", private=True))

    # the German mover's roll: their private answer in German, the channel's message in German
    sent = await h.slash(mover, "rally roll")
    assert one_private(sent).startswith("Erledigt:")
    channel = public(sent)
    assert channel and "würfelt" in channel[-1].content and "rolls" not in channel[-1].content, channel[-1].content


@pytest.mark.presses_every_move
async def test_in_an_english_server_the_channel_reads_english_whoever_plays(h: DiscordHarness) -> None:
    """The same table in a server whose locale is American English: a German player's move is told in
    English in the channel, while the German player's own refusals stay German."""
    board, mover, waiter = await start(h, "en-US")
    h.locales[mover] = "de"
    rec = await service(h).store.games.channel_game(CHANNEL_ID)
    assert rec is not None and rec.lang == "en"
    assert "begins!" in board.content and "Turn order" in board.content
    assert board.labels and all(label.startswith("Roll") for label in board.labels), board.labels
    refused = one_private(await h.slash(mover, "game play", action="move 9a"))
    assert "Jetzt möglich:" in refused, refused
    h.locales[waiter] = "de"
    refused = one_private(await h.slash(waiter, "game play", action="roll green"))
    assert refused.startswith("Du bist nicht am Zug:"), refused
    channel = public(await h.slash(mover, "rally roll"))
    assert channel and "rolls" in channel[-1].content and "würfelt" not in channel[-1].content, channel[-1].content


async def test_a_button_press_is_answered_in_the_pressers_language(h: DiscordHarness) -> None:
    """A press out of turn on the channel's button: refused in the presser's language."""
    board, _, waiter = await start(h, "de")
    h.locales[waiter] = "de"
    sent = await h.press(waiter, board, board.custom_ids[0])
    assert one_private(sent).startswith("Du bist nicht am Zug:")


async def test_a_command_whose_options_make_no_move_is_refused_in_the_askers_language(h: DiscordHarness) -> None:
    """``/rally move`` with something that is no cell: the builder's refusal in the asker's language."""
    _, mover, waiter = await start(h, "en-US")
    h.locales[mover] = "de"
    refused = one_private(await h.slash(mover, "rally move", to="zz"))
    assert "ist kein Feld" in refused and refused.endswith("Es wurde nichts geändert."), refused
    refused = one_private(await h.slash(waiter, "rally move", to="zz"))
    assert "is not a cell" in refused and refused.endswith("Nothing was changed."), refused


async def test_a_computers_moves_are_told_in_the_games_language(h: DiscordHarness) -> None:
    """A computer at a table opened in a German server: its moves, posted for the channel without anyone's
    interaction, are worded in the game's stored language."""
    h.guild_locale = "de"
    answer(await h.slash(ANN, "game new", game="rally", laps=1))
    answer(await h.slash(ANN, "game computer", kind="random"))
    answer(await h.slash(ANN, "game start"))
    rec = await service(h).store.games.channel_game(CHANNEL_ID)
    assert rec is not None
    for _ in range(12):
        acts = await service(h).store.games.actions(rec.id)
        if any(a.user_id is None for a in acts):
            break
        _, game, _ = await service(h).current(CHANNEL_ID)
        assert game is not None
        await h.slash(ANN, "game play", action=str(game.legal_actions()[0]))
    by_computer = [a.narration for a in await service(h).store.games.actions(rec.id) if a.user_id is None]
    assert by_computer and any("würfelt" in n for n in by_computer), by_computer
    assert not any("rolls" in n for n in by_computer), by_computer


# The text tables ---------------------------------------------------------------------------------------


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def words(text: str) -> bool:
    """Whether a text has letters of its own (outside its placeholders), not only a layout of them."""
    return any(ch.isalpha() for literal, _, _, _ in string.Formatter().parse(text) for ch in literal)


@pytest.mark.parametrize("prefix", ["button.", "status.", "command.refusal.", "car.", "hint."])
def test_the_fronts_words_come_from_the_rallys_catalogue_in_every_language(prefix: str) -> None:
    """Buttons, status, refusals of the commands' options, the car board and the hints beside a choice are
    entries of the rally's catalogue: each language has its own text with the English placeholders."""
    ids = sorted(m for m in CATALOGUE.ids if m.startswith(prefix))
    assert ids, prefix
    for msg in ids:
        english = CATALOGUE.template(msg, "en")
        for lang in texts.LANGS[1:]:
            text = CATALOGUE.template(msg, lang)
            assert fields(text) == fields(english), (msg, lang, text)
            assert text != english or not words(english), (msg, lang, text)  # a layout alone may be the same


@pytest.mark.parametrize("locale,lang", [("de", "de"), ("de-AT", "de"), ("en-US", "en"), ("fr", "en"), (None, "en")])
def test_a_discord_locale_gives_a_language(locale: str | None, lang: str) -> None:
    assert texts.language(locale) == lang
