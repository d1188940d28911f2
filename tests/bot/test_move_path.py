"""One move path: a press reads what its move needs once, writes once, and hands its records to the front, which
delivers them without reading them back. Counted round the store's interfaces (each part's methods and the
whole store's own) for every press of whole games through the offline Discord stack: an accepted press makes
at most four store calls (the read, the write, the delivery marks), a refused one at most one."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.drivers import driver_for
from bot.store.counting import Counting
from tests.bot.harness import CHANNEL_ID, DiscordHarness, answer
from tests.bot.helpers import ANN, BOB, EVE, public, started

ACCEPTED_MOST = 4
REFUSED_MOST = 1


async def test_every_press_of_a_whole_toy_game_reads_once_and_writes_once(h: DiscordHarness):
    board = await started(h)
    counting = Counting(h.bot.store)
    seats = [ANN, BOB]
    for turn in range(60):
        user = seats[turn % 2]
        wrong = answer(await h.press(seats[(turn + 1) % 2], board, "Roll"))
        assert wrong.ephemeral and "not your turn" in wrong.content
        refused = counting.take()
        assert sum(refused.values()) <= REFUSED_MOST, refused
        [edited] = public(await h.press(user, board, "Roll"))
        rolled = counting.take()
        assert sum(rolled.values()) <= ACCEPTED_MOST, rolled
        moves = [label for label in edited.labels if label.startswith("Move")]
        sent = await h.press(user, edited, moves[-1])
        moved = counting.take()
        [board] = public(sent)
        if "wins" in board.content:
            return
        assert sum(moved.values()) <= ACCEPTED_MOST, moved
        assert moved["store.read_move"] == 1 and moved["games.append_action"] == 1, moved
    pytest.fail("the game never ended")


@pytest.mark.presses_every_move  # a forced move that plays itself afterwards is a move of its own
@pytest.mark.parametrize("game_key", ["races", "rally", "piecepack"])
async def test_every_command_move_of_a_game_of_people_reads_once_and_writes_once(h: DiscordHarness, game_key):
    """Three people play by ``/game play`` (the moves a driver picks): each accepted move, those that end a turn
    and ping the next person included, stays within the bound, but the one that ends the game (which also
    records the results)."""
    people = [ANN, BOB, EVE]
    options = {"track": "A", "laps": 1} if game_key == "races" else {}
    answer(await h.slash(ANN, "game new", game=game_key, **options))
    for i, user in enumerate(people):
        if game_key == "races":
            answer(await h.slash(user, "game join", colour=("red", "blue", "green")[i]))
        elif i:
            answer(await h.slash(user, "game join"))
    answer(await h.slash(ANN, "game start"))
    service = h.bot.service
    driver = driver_for(game_key, "smart" if game_key == "races" else "random", 3)
    counting = Counting(h.bot.store)
    worst: Counter[str] = Counter()
    for _ in range(200):
        rec, game, _ = await service.current(CHANNEL_ID)
        if rec is None or game is None or game.is_over or game.to_act is None:
            break
        seat = game.to_act
        action = str(driver.choose(game, seat))
        counting.take()
        await h.slash(rec.seats[seat].user_id, "game play", action=action)
        calls = counting.take()
        after = await h.bot.store.games.get_game(rec.id)
        if after.status != "active":
            break
        assert after.version > rec.version, (action, calls)
        assert sum(calls.values()) <= ACCEPTED_MOST, (action, calls)
        worst = max(worst, calls, key=lambda c: sum(c.values()))
    assert worst["store.read_move"] == 1, worst
