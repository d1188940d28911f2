"""Moves that play themselves (bot/plans.py): forced moves announced on the turn's message and turned off with
``/game auto``; plans made ahead, played in order and stopped at the first item the game refuses, with the
reason told to the player alone; ready-made plan items; all of it stored with the moves, on both backends."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot import plans
from bot.consistency import check_consistency
from bot.drivers import driver_for
from bot.games import unit_for
from bot.outcomes import Accepted, Refusal
from bot.service import Service
from bot.store import SqliteStore
from rules.contract import Game

ROOT = Path(__file__).resolve().parents[2]
CHANNEL = 5150
ANN, BOB = 101, 202


async def started(service: Service, key: str, people: int = 2) -> None:
    """A game of ``key`` in CHANNEL with Ann and Bob (and a computer for three), started."""
    names = {ANN: "Ann", BOB: "Bob"}
    await service.new_game(guild_id=1, channel_id=CHANNEL, user_id=ANN, user_name="Ann", game_key=key)
    await service.join(CHANNEL, BOB, names[BOB])
    for _ in range(people - 2):
        await service.add_computer(CHANNEL, ANN, "random")
    assert isinstance(await service.start(CHANNEL, ANN), Accepted)


async def run_auto(service: Service) -> list[Accepted]:
    """What plays itself, batch by batch, as the computer worker plays it."""
    batches = []
    while (batch := await service.play_computers(CHANNEL)) is not None:
        batches.append(batch)
    return batches


async def now(service: Service) -> tuple[int, Game, int]:
    rec, game, _ = await service.current(CHANNEL)
    assert rec is not None and game is not None and game.to_act is not None
    return rec.id, game, game.to_act


@pytest.fixture
async def svc(any_store):
    return Service(any_store, seed_source=lambda: 3)


async def test_piecepack_rolls_play_themselves_and_are_announced(svc):
    """Piecepack: every roll is forced (P3: the die falls the same whoever presses); it is stored as the
    player's own move and the turn's message says it was rolled for them."""
    await started(svc, "piecepack")
    await run_auto(svc)
    game_id, game, seat = await now(svc)
    acts = await svc.store.games.actions(game_id)
    assert [a.action for a in acts] == ["roll"]
    assert acts[0].user_id == (await svc.store.games.get_game(game_id)).seats[seat].user_id  # still their turn
    assert "Rolled for" in acts[0].narration
    latest = await svc.store.outbox.latest_delivery(game_id)
    assert latest is not None and "move.forced_dice" in str(latest.payload)
    assert all(not str(a).startswith("roll") for a in game.legal_actions())  # the mover now decides


async def test_auto_off_leaves_the_roll_to_the_player(svc):
    """``/game auto`` off: the forced roll waits for its player; on again, it plays at once."""
    await svc.new_game(guild_id=1, channel_id=CHANNEL, user_id=ANN, user_name="Ann", game_key="piecepack")
    await svc.join(CHANNEL, BOB, "Bob")
    await plans.set_auto(svc.store, ANN, 0, False)
    await plans.set_auto(svc.store, BOB, 0, False)
    await svc.start(CHANNEL, ANN)
    assert await run_auto(svc) == []
    game_id, game, seat = await now(svc)
    assert [str(a) for a in game.legal_actions()] == ["roll"]
    user = (await svc.store.games.get_game(game_id)).seats[seat].user_id
    said = await plans.auto_command(svc, CHANNEL, user, True, lang="en")
    assert said == "Moves with nothing to decide now play themselves for you in this game."
    await run_auto(svc)
    assert [a.action for a in await svc.store.games.actions(game_id)] == ["roll"]


async def test_a_plan_plays_in_order_and_stops_at_the_first_illegal_item(svc):
    """Race to Ten: a queued ``roll; move 1; move 9`` plays the roll and the first move; ``move 9`` is
    beyond the roll, so the plan stops there, telling its player why (privately) and keeping the reason."""
    await started(svc, "toy")
    game_id, game, seat = await now(svc)
    rec = await svc.store.games.get_game(game_id)
    user = rec.seats[seat].user_id
    shown = await plans.plan_command(svc, CHANNEL, user, add="roll; move 1", lang="en")
    assert shown == "Queued, in order: `roll`, `move 1`"
    # the other player's plan is theirs alone: nothing of it shows in Ann's answer
    other = rec.seats[1 - seat].user_id
    assert await plans.plan_command(svc, CHANNEL, other, lang="en") == "Your plan is empty."
    await run_auto(svc)
    acts = await svc.store.games.actions(game_id)
    assert [a.action for a in acts][:2] == ["roll", "move 1"] and {a.user_id for a in acts[:2]} == {user}
    assert "plan" in acts[1].narration
    assert (await plans.load_plan(svc.store, user, game_id)).items == ()
    # next turn of the same player: a plan whose first item is illegal now stops with the reason
    while True:
        game_id, game, seat = await now(svc)
        if rec.seats[seat].user_id == user and game.rolled is None:  # type: ignore[attr-defined]
            break
        await svc.act(CHANNEL, rec.seats[seat].user_id, str(driver_for("toy", "random", 1).choose(game, seat)))
    await plans.plan_command(svc, CHANNEL, user, add="roll; move 9; roll", lang="en")
    batches = await run_auto(svc)
    notes = [p for b in batches for p in b.private if "plan stopped" in p.text]
    assert len(notes) == 1 and notes[0].user_id == user and "`move 9`" in notes[0].text
    plan = await plans.load_plan(svc.store, user, game_id)
    assert plan.items == () and plan.stopped is not None and plan.stopped["item"] == "move 9"
    assert [a.action for a in await svc.store.games.actions(game_id)][-1] == "roll"
    assert "Your plan stopped at `move 9`" in await plans.plan_command(svc, CHANNEL, user, lang="en")


@pytest.mark.parametrize("key", ["races", "rally", "piecepack"])
async def test_each_game_plays_a_plan_and_stops_at_an_item_it_refuses(svc, key):
    """In each game: the player to act queues their first legal action twice; the first plays as theirs
    (said to come from their plan), the second is one the game refuses once the first is played, so the
    plan stops there, and the player alone is told the game's own reason."""
    await started(svc, key)
    for user in (ANN, BOB):
        await plans.set_auto(svc.store, user, 0, False)  # only the plan plays
    while True:  # to a turn whose first legal action leaves the player to act (a piecepack move ends it)
        game_id, game, seat = await now(svc)
        rec = await svc.store.games.get_game(game_id)
        user = rec.seats[seat].user_id
        first = str(game.legal_actions()[0])
        trial = svc.classes(key).from_dict(game.to_dict())
        trial.apply(trial.parse_action(first))
        if trial.to_act == seat:
            break
        assert isinstance(await svc.act(CHANNEL, user, first), Accepted)
    done = len(await svc.store.games.actions(game_id))
    await plans.plan_command(svc, CHANNEL, user, add=f"{first}; {first}", lang="en")
    batches = await run_auto(svc)
    acts = (await svc.store.games.actions(game_id))[done:]
    assert [a.action for a in acts] == [first] and acts[0].user_id == user and "plan" in acts[0].narration
    notes = [p for b in batches for p in b.private if "plan stopped" in p.text]
    assert len(notes) == 1 and notes[0].user_id == user and f"`{first}`" in notes[0].text
    after = svc.classes(key).from_dict((await svc.store.games.get_game(game_id)).state)
    try:
        after.apply(after.parse_action(first))
    except Exception as exc:  # the game's own words for why, as the note gives them
        assert unit_for(key).refusal(exc, lang="en").split(":")[0] in notes[0].text
    else:
        raise AssertionError(f"{first} twice was legal in {key}")
    plan = await plans.load_plan(svc.store, user, game_id)
    assert plan.items == () and plan.stopped is not None and plan.stopped["item"] == first


async def test_a_plan_item_that_does_not_parse_is_refused_at_once(svc):
    await started(svc, "toy")
    out = await plans.plan_command(svc, CHANNEL, ANN, add="roll; jump", lang="en")
    assert isinstance(out, Refusal) and out.text.startswith("That can't go into your plan:")
    assert (await plans.load_plan(svc.store, ANN, (await now(svc))[0])).items == ()


async def test_plans_are_in_german_too(svc):
    await started(svc, "toy")
    assert await plans.plan_command(svc, CHANNEL, ANN, add="roll", lang="de") == \
        "In dieser Reihenfolge vorgemerkt: `roll`"


@pytest.mark.parametrize("key", ["races", "rally", "piecepack"])
async def test_every_forced_move_plays_itself_and_says_so(svc, key):
    """Each game, played by people through the service: whenever the person to act has one legal action,
    the game's unit names it forced, it plays itself (stored as theirs) and the log line says so; nothing a
    person must decide is ever played for them."""
    await started(svc, key, people=2)
    unit = unit_for(key)
    forced = 0
    for i in range(400):
        await run_auto(svc)
        rec, game, _ = await svc.current(CHANNEL)
        if rec is None or game is None or game.is_over:
            break
        seat = game.to_act
        assert seat is not None
        assert unit.selfplay.forced_move(game, seat) is None  # anything forced was played
        await svc.act(CHANNEL, rec.seats[seat].user_id, driver_for(key, "smart", i).choose(game, seat))
        if forced >= 1 and i > 60:
            break
        acts = await svc.store.games.actions(rec.id)
        forced = sum(1 for a in acts if a.narration.startswith(("Played for", "Rolled for")))
    acts = await svc.store.games.actions(rec.id)
    auto = [a for a in acts if a.narration.startswith(("Played for", "Rolled for"))]
    assert auto and all(a.user_id in (ANN, BOB) for a in auto)


async def test_standing_item_buys_tyres_at_the_pit_stop():
    """Races: the ready-made item ``buy-mud-tyres`` plays the buy when the kart stands in a green Pit Stop
    with the bottle tops for it (R11), and is then used up; elsewhere it waits."""
    unit = unit_for("races")
    plan = plans.Plan((), ("buy-mud-tyres", "roll-most"))

    class Stub:
        to_act, is_over = 0, False

        def __init__(self, acts: list[str]) -> None:
            self.acts = acts

        def legal_actions(self) -> list[str]:
            return self.acts

    shop = Stub(["buy mud-tyres 3", "buy grass-tyres 3", "done"])
    move = plans.next_move(unit, shop, 0, plan, True)  # type: ignore[arg-type]
    assert move is not None and move.action == "buy mud-tyres 3" and move.kind == "standing"
    assert move.plan is not None and move.plan.standing == ("roll-most",)
    road = Stub(["roll 1", "roll 2", "roll 3", "roll 2 1w", "reverse"])
    move = plans.next_move(unit, road, 0, plan, True)  # type: ignore[arg-type]
    assert move is not None and move.action == "roll 3" and move.plan is None  # roll-most stands


def _child(db: Path, *args: str) -> int:
    proc = subprocess.run([sys.executable, "-m", "tests.bot.plan_crash_child", str(db), *args], cwd=ROOT,
                          capture_output=True, timeout=120, env={**os.environ, "PYTHONHASHSEED": "0"})
    assert proc.returncode in (0, -signal.SIGKILL), proc.stderr.decode()[-2000:]
    return proc.returncode


@pytest.mark.parametrize("crash_after", [1, 2])
async def test_a_plan_survives_sigkill_and_runs_once(tmp_path, crash_after):
    """A real process plays a queued plan (``roll; move 1; roll``) and is killed with SIGKILL right after
    its first (second) stored move; after a restart the plan plays on from where it stood: every item of
    this turn once, in order, and the last one waits for the player's next turn (the move ends it)."""
    db = tmp_path / "game.db"
    assert _child(db, "setup") == 0
    assert _child(db, "run", "--crash-after", str(crash_after)) == -signal.SIGKILL
    async with SqliteStore(db) as store:
        [rec] = await store.games.open_games()
        assert len(await store.games.actions(rec.id)) == crash_after
    assert _child(db, "run") == 0
    assert _child(db, "run") == 0  # a further restart plays nothing again
    async with SqliteStore(db) as store:
        [rec] = await store.games.channel_history(77, 1)
        acts = await store.games.actions(rec.id)
        assert [a.action for a in acts] == ["roll", "move 1"]
        assert {a.user_id for a in acts} == {1}
        assert (await plans.load_plan(store, 1, rec.id)).items == ("roll",)
        await check_consistency(store.games, rec.id)


async def test_the_log_marks_the_moves_played_for_a_player_in_the_readers_language(svc):
    """Piecepack: a roll that played itself (P3) is marked as forced in ``/game log``, a move from the player's
    plan as the plan's, a move someone made themselves not at all; in the reader's language."""
    await started(svc, "piecepack")
    await run_auto(svc)  # the first roll plays itself
    game_id, game, seat = await now(svc)
    rec = await svc.store.games.get_game(game_id)
    await plans.plan_command(svc, CHANNEL, rec.seats[seat].user_id, add=str(game.legal_actions()[0]), lang="en")
    await run_auto(svc)  # the plan's move, then whatever plays itself next
    game_id, game, seat = await now(svc)
    pressed = await svc.act(CHANNEL, rec.seats[seat].user_id, str(game.legal_actions()[0]))
    assert isinstance(pressed, Accepted)
    acts = await svc.store.games.actions(game_id)
    for lang, forced, planned in (("en", "[forced]", "[plan]"), ("de", "[erzwungen]", "[Plan]")):
        shown = await svc.log(CHANNEL, lang=lang)
        assert not isinstance(shown, Refusal)
        lines = {int(line.split(".", 1)[0]) - 1: line for line in shown.text.splitlines()[1:]}
        assert set(lines) == {a.index for a in acts}
        assert lines[0].startswith(f"1. {forced} ") and lines[1].startswith(f"2. {planned} ")
        assert "[" not in lines[acts[-1].index]  # pressed
        assert sum(forced in line for line in lines.values()) == sum("Rolled for" in a.narration for a in acts)
