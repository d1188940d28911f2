"""Junkyard for a piecepack through Discord: /game new, buttons, /piecepack roll and move with autocomplete."""

from __future__ import annotations

import pytest

from rules import lookup
from tests.bot.harness import CHANNEL_ID, DiscordHarness
from tests.bot.helpers import ANN, BOB, answer, public


async def start(h: DiscordHarness):
    r = answer(await h.slash(ANN, "game new", game="piecepack", teams=True))
    assert "`teams` is not used by Junkyard (piecepack); ignored." in r.content
    answer(await h.slash(BOB, "game join"))
    board = answer(await h.slash(ANN, "game start"))
    _, game, _ = await h.bot.service.current(CHANNEL_ID)
    first = [ANN, BOB][game.to_act]
    return board, game, first


@pytest.mark.presses_every_move
async def test_roll_button_then_move_by_autocompleted_destination(h):
    board, game, first = await start(h)
    assert board.labels == ["Roll"] and f"<@{first}>" in board.content
    game.dice.load([4])  # a d6 of 4 reads as a piecepack 3: a move follows
    sent = await h.press(first, board, "Roll")
    [after] = public(sent)
    assert "rolls" in after.content and all(label.startswith("→ ") for label in after.labels)
    choices = await h.autocomplete(first, "piecepack move", "to")
    squares = [c["value"] for c in choices]
    assert squares and all("(via " in c["name"] for c in choices)
    assert squares == [label.removeprefix("→ ") for label in after.labels]
    r = answer(await h.slash(first, "piecepack move", to=squares[0]))
    assert not r.ephemeral and "moves" in r.content
    rec = await h.bot.service.store.games.channel_game(CHANNEL_ID)
    assert rec.version == 2


@pytest.mark.presses_every_move
async def test_slash_roll_out_of_turn_and_bad_square_are_refused(h):
    _, game, first = await start(h)
    other = BOB if first == ANN else ANN
    r = answer(await h.slash(other, "piecepack roll"))
    assert r.ephemeral and "not your turn" in r.content
    r = answer(await h.slash(first, "piecepack move", to="c2"))
    assert r.ephemeral and "roll" in r.content
    game.dice.load([4])
    assert public(await h.slash(first, "piecepack roll"))
    r = answer(await h.slash(first, "piecepack move", to="z9"))
    assert r.ephemeral and "Possible now: move to" in r.content
    assert (await h.bot.service.store.games.channel_game(CHANNEL_ID)).version == 1


async def test_board_picture_comes_from_render_piecepack(h):
    board, _, _ = await start(h)
    assert board.png is not None and board.png.startswith(b"\x89PNG")


async def test_status_describes_the_table(h):
    await start(h)
    r = answer(await h.slash(ANN, "game status"))
    assert r.ephemeral and "Suns" in r.content and "good stuff lies in the centre" in r.content


async def test_rules_lookup_with_the_real_entries(h):
    """/rules autocompletes from rules.lookup and answers with the entry privately."""
    choices = await h.autocomplete(ANN, "rules", "topic", game="piecepack", topic="land")
    assert choices and choices[0]["value"] == lookup.suggest("piecepack", "land", 1)[0].id
    r = answer(await h.slash(ANN, "rules", game="piecepack", topic=choices[0]["value"]))
    entry = lookup.find("piecepack", choices[0]["value"])
    assert r.ephemeral and r.embeds[0]["title"] == entry.title and r.embeds[0]["description"] == entry.text


async def test_a_whole_game_through_discord_with_buttons_and_slash_commands(h):
    """Two players play Junkyard (piecepack) to its end: Roll by button or by /piecepack roll on
    alternate turns, each move the one a greedy player picks, as a destination button when one shows
    it and by /piecepack move otherwise."""
    from bot.drivers import driver_for

    board, game, _ = await start(h)
    users = [ANN, BOB]
    brain = driver_for("piecepack", "smart", seed=3)
    for turn in range(400):
        _, game, _ = await h.bot.service.current(CHANNEL_ID)
        if game is None:  # finished: the channel has no running game any more
            break
        user = users[game.to_act]
        if str(game.legal_actions()[0]).startswith("roll"):
            if turn % 2 and "Roll" in board.labels:
                sent = await h.press(user, board, "Roll")
            else:
                sent = await h.slash(user, "piecepack roll")
        else:
            target = brain.choose(game, game.to_act).split()[-1].split("-")[-1]
            label = f"→ {target}"
            if label in board.labels:
                sent = await h.press(user, board, label)
            else:
                sent = await h.slash(user, "piecepack move", to=target)
        posted = public(sent)
        assert posted and not any(s.ephemeral for s in posted), [s.content for s in sent]
        board = posted[-1]
    else:
        raise AssertionError("the game did not end")
    assert "wins" in board.content and board.png and not board.custom_ids
    rec = await h.bot.service.store.games.channel_game(CHANNEL_ID)
    assert rec is None or rec.status != "active"
