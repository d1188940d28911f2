"""Take it back (bot/play/takeback.py, bot/play/undo.py): what the autopilot, a forced move or a plan played for a
person is theirs to undo under the same rules as a move they pressed (nothing new became known, their turn goes on).
A taken-back move restores the state exactly and the channel is told it was played for them; a move that
showed the dice stays, with the game's own reason.

Junkyard Races has moves that come back (a start cell, steps before anything is turned up: R15). In
Schrottplatz Rally and the piecepack game every action rolls the die or ends the turn (their
``undo_barrier``), so what plays itself there is a roll, and the test is that it stays, saying why."""

from __future__ import annotations

from typing import Any

import pytest

from bot.drivers import driver_for
from bot.drivers.reasons import explain
from bot.play import plans
from bot.play.service import Service
from bot.play.undo import undo
from bot.telling.outcomes import Accepted, Refusal
from rules.contract import Game
from tests.bot.speaking import mentioned

CHANNEL = 6161
PEOPLE = {101: "Ann", 202: "Bob", 303: "Cy", 404: "Di"}


@pytest.fixture
async def svc(any_store):
    service = Service(any_store, seed_source=lambda: 3)
    yield service
    await service.close()


async def started(service: Service, key: str, people: int = 2, auto: bool = True) -> None:
    """A game of ``key`` with ``people`` persons, forced moves on or off for all of them, started."""
    users = list(PEOPLE)[:people]
    await service.new_game(guild_id=1, channel_id=CHANNEL, user_id=users[0], user_name=PEOPLE[users[0]],
                           game_key=key)
    for user in users:
        await plans.set_auto(service.store, user, 0, auto)
        if user != users[0]:
            await service.join(CHANNEL, user, PEOPLE[user])
    assert isinstance(await service.start(CHANNEL, users[0]), Accepted)


async def run_auto(service: Service) -> None:
    while await service.play_computers(CHANNEL) is not None:
        pass


async def at(service: Service) -> tuple[Any, Game, int, int]:
    """The game's record, the game, the seat to act and its user."""
    rec, game, _ = await service.current(CHANNEL)
    assert rec is not None and game is not None and game.to_act is not None
    return rec, game, game.to_act, rec.seats[game.to_act].user_id


async def told(service: Service, game_id: int, lang: str) -> str:
    """The newest message of the game, in ``lang``, people named as Discord names them."""
    latest = await service.store.outbox.latest_delivery(game_id)
    assert latest is not None
    return mentioned((await service.message(latest, lang, words_only=True)).text)


async def taken_back(service: Service, user: int, before: dict[str, Any], count: int = 1) -> int:
    """``user`` undoes their last ``count`` moves: accepted, and the game is exactly as ``before``."""
    assert isinstance(await undo(service, CHANNEL, user, count, lang="en"), Accepted)
    rec, game, _, _ = await at(service)
    assert game.to_dict() == before and rec.state == before
    return int(rec.id)


# Junkyard Races: each way of playing for a person comes back --------------------------------------------


async def test_races_an_autopilot_start_cell_comes_back_and_the_channel_is_told(svc):
    """R15: the autopilot chose the start cell (with its reason); nothing became known, so it comes back."""
    await started(svc, "races")
    _rec, game, seat, user = await at(svc)
    before = game.to_dict()
    choice = explain(driver_for("races", "smart", 1), game, seat)
    assert choice.action.startswith("choose")
    assert isinstance(await svc.act(CHANNEL, user, choice.action, autopilot=True, reason=choice.reason), Accepted)
    game_id = await taken_back(svc, user, before)
    assert f"<@{user}> took back 1 move played for them by the autopilot: **Autopilot**" in await told(svc, game_id,
                                                                                                          "en")
    assert f"<@{user}> hat 1 Zug zurückgenommen, der vom Autopiloten für sie gespielt wurde:" in await told(
        svc, game_id, "de")
    assert await svc.store.games.actions(game_id) == []


async def test_races_a_plan_item_comes_back_and_the_channel_is_told(svc):
    """A queued start cell plays from the plan; taken back, the state is as before it and the channel says it
    came from their plan. Nothing replays by itself after the undo."""
    await started(svc, "races")
    rec, game, _seat, user = await at(svc)
    before = game.to_dict()
    cell = str(game.legal_actions()[-1])
    await plans.plan_command(svc, CHANNEL, user, add=cell, lang="en")
    await run_auto(svc)
    acts = await svc.store.games.actions(rec.id)
    assert [a.action for a in acts] == [cell] and "plan" in acts[0].narration
    game_id = await taken_back(svc, user, before)
    assert f"<@{user}> took back 1 move played for them from their plan:" in await told(svc, game_id, "en")
    await run_auto(svc)
    assert await svc.store.games.actions(game_id) == []


async def test_races_a_forced_move_comes_back_and_a_move_pressed_after_it_is_the_players_own(svc):
    """A seat with one legal action that tells nothing (a forced step or start cell) has it played for them;
    taken back, the state is exactly as before and the channel says it was their only move. The mark goes with
    it: the same move pressed again and taken back is told as their own."""
    await started(svc, "races", people=4, auto=False)
    for _ in range(300):
        rec, game, seat, user = await at(svc)
        legal = [str(a) for a in game.legal_actions()]
        trial = type(game).from_dict(game.to_dict())
        events = trial.apply(legal[0])
        if len(legal) == 1 and trial.to_act == seat and trial.undo_barrier(game, events) is None:
            break
        await svc.act(CHANNEL, user, str(driver_for("races", "smart", seat).choose(game, seat)))
    else:
        pytest.fail("no forced move that comes back was reached")
    before = game.to_dict()
    await plans.auto_command(svc, CHANNEL, user, True, lang="en")
    await run_auto(svc)
    played = (await svc.store.games.actions(rec.id))[rec.version:]  # one forced step may lead to another
    assert played[0].action == legal[0]
    assert all(a.user_id == user and a.narration.startswith("Played for") for a in played)
    game_id = await taken_back(svc, user, before, len(played))
    assert f"<@{user}> took back {len(played)} move{'s' if len(played) > 1 else ''} played for them as their only " \
           "move:" in await told(svc, game_id, "en")
    await plans.set_auto(svc.store, user, 0, False)
    assert isinstance(await svc.act(CHANNEL, user, legal[0]), Accepted)
    after_press = (await at(svc))[1].to_dict()
    assert isinstance(await undo(svc, CHANNEL, user, 1, lang="en"), Accepted)
    assert (await at(svc))[1].to_dict() == before != after_press
    assert f"<@{user}> took back 1 move: " in await told(svc, game_id, "en")


async def test_races_an_autopilot_roll_stays_with_the_reason(svc):
    """Phase 3: the autopilot rolled for the player; the dice are known, so it stays, and nothing changes."""
    await started(svc, "races")
    _, game, _, user = await at(svc)
    await svc.act(CHANNEL, user, str(game.legal_actions()[0]))
    rec, game, _seat, user = await at(svc)
    roll = next(str(a) for a in game.legal_actions() if str(a).startswith("roll"))
    assert isinstance(await svc.act(CHANNEL, user, roll, autopilot=True), Accepted)
    rec, game, _, _ = await at(svc)
    reply = await undo(svc, CHANNEL, user, lang="en")
    assert isinstance(reply, Refusal)
    assert reply.text == f"Your last move, `{roll}`, stays. A roll can't be taken back: the dice are known."
    again, _, _, _ = await at(svc)
    assert (again.version, again.state) == (rec.version, rec.state)


# Schrottplatz Rally and piecepack: what plays itself is a roll, and it stays --------------------------------


async def test_piecepack_a_forced_roll_stays_with_the_games_reason(svc):
    """P3: every roll plays itself (the die falls the same whoever presses); it was shown to all, so the undo
    refuses with the game's reason and changes nothing."""
    await started(svc, "piecepack")
    await run_auto(svc)
    rec, _game, _seat, user = await at(svc)
    [played] = await svc.store.games.actions(rec.id)
    assert played.user_id == user and played.action == "roll"
    reply = await undo(svc, CHANNEL, user, lang="en")
    assert isinstance(reply, Refusal)
    assert reply.text == "Your last move, `roll`, stays. A roll can't be taken back: the die is known."
    again, _, _, _ = await at(svc)
    assert (again.version, again.state) == (rec.version, rec.state)


async def test_rally_an_autopilot_roll_stays_with_the_games_reason(svc):
    """S3/S4: the autopilot chose the range and rolled for the player (with its reason); the die is seen, so
    the undo refuses with the game's reason and changes nothing."""
    await started(svc, "rally")
    rec, game, seat, user = await at(svc)
    choice = explain(driver_for("rally", "smart", 1), game, seat)
    assert choice.action.startswith("roll")
    assert isinstance(await svc.act(CHANNEL, user, choice.action, autopilot=True, reason=choice.reason), Accepted)
    rec, _, _, _ = await at(svc)
    reply = await undo(svc, CHANNEL, user, lang="en")
    assert isinstance(reply, Refusal)
    assert reply.text == f"Your last move, `{choice.action}`, stays. A roll can't be taken back: the die is known."
    again, _, _, _ = await at(svc)
    assert (again.version, again.state) == (rec.version, rec.state)


@pytest.mark.parametrize("key", ["rally", "piecepack"])
async def test_a_planned_roll_stays_and_says_so_in_german(svc, key):
    """Forced moves off: the roll plays from the player's plan; the refusal is in the player's language."""
    await started(svc, key, auto=False)
    rec, game, _seat, user = await at(svc)
    roll = str(game.legal_actions()[0])
    await plans.plan_command(svc, CHANNEL, user, add=roll, lang="de")
    await run_auto(svc)
    assert [a.action for a in await svc.store.games.actions(rec.id)] == [roll]
    rec, _, _, _ = await at(svc)
    reply = await undo(svc, CHANNEL, user, lang="de")
    assert isinstance(reply, Refusal) and reply.text.startswith(f"Dein letzter Zug, `{roll}`,"), reply.text
    again, _, _, _ = await at(svc)
    assert (again.version, again.state) == (rec.version, rec.state)



# The deadline after a take-back ---------------------------------------------------------------------------


def test_taking_back_the_autopilot_after_the_deadline_starts_the_turns_clock_again_once() -> None:
    """A deadline fired and the autopilot played; the player takes its move back within the turn: they are
    there, so the turn's clock starts again (the autopilot would otherwise play the same move at the next
    tick), once a turn, so a turn cannot be stretched for ever by taking the autopilot back each time."""
    from bot.clock.timers import DEADLINE, _deadline
    from bot.store import Timer

    hour, started = 3600.0, 1000.0

    def timer(due: float, fired: float | None, **data: Any) -> Timer:
        return Timer(1, 1, DEADLINE, 0, 3, due, {"turn": started, **data}, None, None, fired, started)

    limit, now = 6 * hour, started + 7 * hour
    first = timer(started + limit, started + limit)
    again = _deadline([first], 0, started, limit, now, went_back=True)
    assert (again.due_at, again.data) == (now + limit, {"turn": started, "again": True})
    kept = _deadline([first, timer(again.due_at, None, again=True)], 0, started, limit, now + hour, went_back=False)
    assert kept.due_at == now + limit  # a change of settings keeps the fresh deadline
    spent = timer(now + limit, now + limit, again=True)
    second = _deadline([first, spent], 0, started, limit, now + limit + hour, went_back=True)
    assert second.due_at == started + limit  # already past: the autopilot plays at the next tick
    assert _deadline([], 0, started, limit, started + hour, went_back=True).due_at == started + limit
    assert _deadline([first], 0, started, limit, now, went_back=False).due_at == started + limit
