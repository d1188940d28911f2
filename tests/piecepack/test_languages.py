"""Junkyard (piecepack) at a table of a German and an English player, through the offline Discord harness:
the channel reads the game's language (the server's), each player's refusals and status their own."""

from __future__ import annotations

from typing import cast

import pytest

from bot.discord import JunkyardBot
from bot.play.service import Service
from rules.piecepack import PiecepackGame
from tests.bot.harness import CHANNEL_ID, DiscordHarness, Sent
from tests.bot.helpers import ANN, BOB, answer, public, shown


def service(h: DiscordHarness) -> Service:
    return cast(JunkyardBot, h.bot).service


async def start(h: DiscordHarness, guild_locale: str) -> tuple[Sent, PiecepackGame, int, int]:
    """Ann and Bob at a piecepack game opened in a server whose locale is ``guild_locale``: the first board,
    the game, the user to act and the other one."""
    h.guild_locale = guild_locale
    answer(await h.slash(ANN, "game new", game="piecepack"))
    answer(await h.slash(BOB, "game join"))
    board = answer(await h.slash(ANN, "game start"))
    _, game, _ = await service(h).current(CHANNEL_ID)
    assert isinstance(game, PiecepackGame) and game.to_act is not None
    mover = [ANN, BOB][game.to_act]
    return board, game, mover, ANN if mover == BOB else BOB


def one_private(sent: list[Sent]) -> str:
    mine = [s for s in shown(sent) if s.ephemeral]
    assert len(mine) == 1, [s.content for s in sent]
    return mine[0].content


@pytest.mark.presses_every_move
async def test_a_german_server_plays_by_german_buttons_and_each_player_reads_their_language(
        h: DiscordHarness) -> None:
    board, game, mover, waiter = await start(h, "de")
    h.locales[mover] = "de"
    assert board.labels == ["Würfeln"], board.labels
    refused = one_private(await h.slash(mover, "game play", action="move c2"))
    assert "muss zuerst würfeln" in refused, refused
    refused = one_private(await h.slash(waiter, "game status"))
    assert "to act" in refused and "Zug" not in refused, refused

    game.dice.load([4])  # a d6 of 4 reads as a piecepack 3
    [after] = public(await h.press(mover, board, "Würfeln"))
    assert "würfelt eine 3" in after.content and "rolls" not in after.content, after.content
    assert after.labels and all(label.startswith("→ ") for label in after.labels)
    refused = one_private(await h.slash(mover, "piecepack move", to="a1"))
    assert "(P3). Möglich: Zug nach" in refused or "(P4). Möglich: Zug nach" in refused, refused
    assert "Jetzt möglich:" not in refused, refused  # what is possible is said once, in the game's words
    [moved] = public(await h.press(mover, after, after.labels[0]))
    assert " zieht " in moved.content, moved.content


@pytest.mark.presses_every_move
async def test_an_english_server_tells_a_german_players_move_in_english(h: DiscordHarness) -> None:
    board, game, mover, _ = await start(h, "en-US")
    h.locales[mover] = "de"
    assert board.labels == ["Roll"]
    game.dice.load([4])
    [after] = public(await h.press(mover, board, "Roll"))
    assert "rolls 3" in after.content, after.content
    refused = one_private(await h.slash(mover, "game play", action="move f9"))
    assert "ist kein Feld" in refused, refused
