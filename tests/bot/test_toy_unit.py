"""A third game defined only in the tests (Race to Ten, tests/bot/toygame.py) registers through the one
registry the real games use, and plays everywhere they do: ``junkyard play`` from standard input,
``junkyard demo``, and Discord with ``/game`` commands, its own generated ``/toy`` group and buttons."""

from __future__ import annotations

import io
import re
import sqlite3

import pytest

import bot.games as games
import rules.registry
from bot.cli import main
from bot.drivers import driver_kinds
from bot.terminal import database_folder
from tests.bot.harness import CHANNEL_ID, DiscordHarness
from tests.bot.helpers import ANN, BOB, EVE, USERS, answer, make_bot, public
from tests.bot.toygame import ToyGame, ToyUnit, ToyUnitWithCommands

OTHER_CHANNEL = CHANNEL_ID + 5


def test_the_toy_registers_through_the_registry_of_the_real_games():
    unit = games.unit_for("toy")
    assert isinstance(unit, ToyUnit) and unit.title == "Race to Ten"
    assert rules.registry.game_class("toy") is ToyGame and games.game_class("toy") is ToyGame
    assert games.playable_keys()[0] != "toy"  # a game registered later never becomes the flagship
    assert "toy" in games.playable_keys() and driver_kinds("toy") == ["random"]
    assert [u.title for u, _ in games.new_options()["track"]][-1] == "Race to Ten"


def test_the_toy_is_forgotten_again():
    games.unregister("toy")
    with pytest.raises(KeyError, match="unknown game 'toy'"):
        games.unit_for("toy")
    with pytest.raises(KeyError):
        rules.registry.game_class("toy")


# junkyard play and junkyard demo -----------------------------------------------------------------------


def _stored(db) -> tuple[str, int]:
    with sqlite3.connect(db) as con:
        status, version = con.execute("SELECT status, version FROM games ORDER BY id DESC").fetchone()
    return status, version


def test_two_people_play_the_toy_to_the_end_in_the_terminal(tmp_path, monkeypatch, capsys):
    """Each turn: roll, then the first move of the numbered list (move 1); a hidden card is shown to its
    holder only on their turn; the standings are the toy's own columns."""
    db, out_dir = tmp_path / "toy.db", tmp_path / "pictures"
    monkeypatch.setattr("sys.stdin", io.StringIO("hand\n" + "roll\n1\n" * 60))
    code = main(["play", "--game", "toy", "--seats", "human:Ann,human:Bob", "--track", "short", "--seed", "4",
                 "--db", str(db), "--out", str(out_dir)])
    out = capsys.readouterr().out
    assert code == 0
    status, version = _stored(db)
    assert status == "finished"
    assert "=== Ann to act (move 0) ===" in out and "Your card is" in out
    assert re.search(r"^Place\s+Name\s+Square\n1\s+(Ann|Bob)\s+10$", out, re.M)
    assert len(list((out_dir / database_folder(str(db)) / "game-1").glob("move-*.png"))) == version + 1


def test_the_toy_refuses_an_option_it_does_not_know_on_the_command_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code = main(["play", "--game", "toy", "--seats", "human,random", "--track", "nowhere",
                 "--db", str(tmp_path / "toy.db"), "--out", str(tmp_path / "p")])
    assert code == 2  # a usage mistake, said in one line on standard error before any game is made
    out = capsys.readouterr()
    assert out.err == "junkyard play: unknown track 'nowhere': choose short or long\n" and out.out == ""


def test_computers_play_the_toy_in_the_demo(tmp_path, capsys):
    out_dir = tmp_path / "demo"
    assert main(["demo", "--game", "toy", "--seats", "3", "--seed", "5", "--out", str(out_dir)]) == 0
    captured = capsys.readouterr()
    assert "Race to Ten: 3 random computers, seed 5." in captured.out
    moves = int(re.search(r"The game is over after (\d+) moves", captured.out).group(1))
    assert re.search(r"^Place\s+Name\s+Square$", captured.out, re.M)
    assert "No replay: Race to Ten has no animated replays." in captured.out
    assert 0 < len(list(out_dir.glob("message-*.png"))) <= moves // 2 + 1  # one message a turn, not a move
    assert re.search(r"move\s+\d+\s+Computer 1 \(random\) at \d+", captured.err)


# Discord ---------------------------------------------------------------------------------------------


@pytest.fixture
async def th(db_path):
    """The harness around a bot whose toy game has its own ``/toy`` group (described as data)."""
    games.register(ToyUnitWithCommands())
    async with DiscordHarness(make_bot(db_path)) as harness:
        harness.users.update(USERS)
        yield harness


async def _started(th: DiscordHarness):
    r = answer(await th.slash(ANN, "game new", game="toy", track="long", laps=3))
    assert not r.ephemeral and "track long" in r.content
    assert "`laps` is not used by Race to Ten; ignored." in r.content  # each game checks its own options
    answer(await th.slash(BOB, "game join", colour="green"))
    return answer(await th.slash(ANN, "game start"))


async def test_the_toy_group_is_built_from_its_data(th):
    group = th.bot.tree.get_command("toy")
    assert [c.name for c in group.commands] == ["roll", "move", "pass", "card"]
    [steps] = group.get_command("move").parameters
    assert (steps.name, steps.required, steps.min_value, steps.max_value) == ("steps", True, 1, 6)
    new = th.bot.tree.get_command("game").get_command("new")
    assert {"game", "track", "laps", "play"} <= {p.name for p in new.parameters}


async def test_the_toy_is_played_to_the_end_by_its_own_commands_and_buttons(th):
    board = await _started(th)
    users = [ANN, BOB]
    for turn in range(80):
        _, game, _ = await th.bot.service.current(CHANNEL_ID)
        if game is None:
            break
        user = users[game.to_act]
        if game.rolled is None:
            sent = await th.press(user, board, "Roll") if turn % 2 else await th.slash(user, "toy roll")
        elif turn % 3:
            sent = await th.slash(user, "toy move", steps=game.rolled)
        else:
            sent = await th.press(user, board, f"Move {game.rolled}")
        posted = public(sent)
        assert posted and posted[-1].png, [s.content for s in sent]
        board = posted[-1]
    else:
        raise AssertionError("the game did not end")
    assert "wins" in board.content and not board.custom_ids


async def test_toy_commands_refuse_what_makes_no_move(th):
    await _started(th)
    _, game, _ = await th.bot.service.current(CHANNEL_ID)
    user, other = [ANN, BOB][game.to_act], [BOB, ANN][game.to_act]
    before = await th.bot.service.store.games.channel_game(CHANNEL_ID)
    r = answer(await th.slash(user, "toy move", steps=9))
    assert r.ephemeral and "from 1 to 6, not 9" in r.content  # Discord does not enforce ranges: we do
    r = answer(await th.slash(other, "toy roll"))
    assert r.ephemeral and "not your turn" in r.content
    game.dice.load([2])
    assert public(await th.slash(user, "toy roll"))
    r = answer(await th.slash(user, "toy move", steps=5))
    assert r.ephemeral and "You can move at most 2. Nothing was changed." in r.content
    r = answer(await th.slash(EVE, "toy roll", channel_id=OTHER_CHANNEL))
    assert r.ephemeral and "There is no Race to Ten in this channel" in r.content
    after = await th.bot.service.store.games.channel_game(CHANNEL_ID)
    assert after.version == before.version + 1  # only the roll was played


async def test_the_toy_card_is_shown_only_to_its_holder(th):
    await _started(th)
    _, game, _ = await th.bot.service.current(CHANNEL_ID)
    r = answer(await th.slash(ANN, "toy card"))
    assert r.ephemeral and r.content == f"Your card is {game.cards[0]}."
    r = answer(await th.slash(EVE, "toy card"))
    assert r.ephemeral and "You have no card in this game." in r.content


async def test_a_toy_command_in_a_channel_playing_another_game(th):
    answer(await th.slash(ANN, "game new", game="piecepack", channel_id=OTHER_CHANNEL))
    r = answer(await th.slash(ANN, "toy roll", channel_id=OTHER_CHANNEL))
    assert r.ephemeral and "This channel is playing `piecepack`, not Race to Ten." in r.content
