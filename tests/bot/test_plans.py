"""Moves that play themselves (bot/play/plans.py): forced moves announced on the turn's message and turned off with
``/game auto``; plans made ahead, played in order and stopped at the first item the game refuses, with the
reason told to the player alone; ready-made plan items; all of it stored with the moves, on both backends."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot.drivers import driver_for
from bot.games import unit_for
from bot.play import plans
from bot.play.service import Service
from bot.store import SqliteStore
from bot.telling.outcomes import Accepted, Refusal
from bot.upkeep.consistency import check_consistency
from rules.contract import Game, IllegalAction

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

        def only_action(self) -> str | None:
            return self.acts[0] if len(self.acts) == 1 else None

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


# A plan made while someone else is to act ------------------------------------------------------------


def _to_next_turn(svc: Service, key: str, game: Game, mover: int) -> tuple[Game, list[str]]:
    """A copy of ``game`` played on by a driver until ``mover``'s turn ends, and the moves it played (the
    dice are in the game's state, so the copy rolls what the game will)."""
    trial = svc.classes(key).from_dict(game.to_dict())
    driver = driver_for(key, "smart", 5)
    played = []
    while trial.to_act == mover and not trial.is_over:
        played.append(str(driver.choose(trial, mover)))
        trial.apply(trial.parse_action(played[-1]))
    return trial, played


def _play(trial: Game, action: str) -> str:
    trial.apply(trial.parse_action(action))
    return action


def _piecepack_turn(trial: Game) -> tuple[dict[str, list[tuple[str, str]]], list[str]]:
    """P3: the roll plays itself; then a move by destination (``move c2``) or along the full path."""
    _play(trial, "roll")
    square, move = next(iter(trial.destinations().items()))  # type: ignore[attr-defined]
    return {"short": [(f"move {square}", f"move {square}")], "full": [(str(move), str(move))]}, ["roll", str(move)]


def _races_turn(trial: Game) -> tuple[dict[str, list[tuple[str, str]]], list[str]]:
    """R5/R6: a starting cell chosen (a lone cell for short), green dice rolled, then the whole move named by
    its end cell (``move CELL``) or written out."""
    from bot.games.races.moves import destinations
    short: list[tuple[str, str]] = []
    full: list[tuple[str, str]] = []
    played = []
    if trial.phase == "enter":  # type: ignore[attr-defined]
        choose = str(trial.legal_actions()[0])
        cell = choose.split()[1]
        short.append((cell, cell))
        full.append((choose, choose))
        played.append(_play(trial, choose))
    roll = _most_green(trial)
    short.append((roll, roll))
    full.append((roll, roll))
    played.append(_play(trial, roll))
    cell, move = next(iter(destinations(trial, trial.legal_actions()).items()))
    short.append((f"m {cell}", f"move {cell}"))
    full.append((str(move), str(move)))
    played.append(str(move))
    return {"short": short, "full": full}, played


def _rally_turn(trial: Game) -> tuple[dict[str, list[tuple[str, str]]], list[str]]:
    """S5/S6: a roll keeping the lever (``roll``) or in its range written out, then a cell alone or the path
    driven to it (a path is kept as written and checked against the planner's own car when it plays)."""
    roll = unit_for("rally").expand(trial, "roll")
    _play(trial, roll)
    end = max(trial.endings().values(), key=lambda e: (len(e.path), e.cell))  # type: ignore[attr-defined]
    path = "move " + " ".join(end.path)
    return ({"short": [("roll", "roll"), (end.cell, f"move {end.cell}")], "full": [(roll, roll), (path, path)]},
            [roll, f"move {end.cell}"])


TURNS = {"piecepack": _piecepack_turn, "races": _races_turn, "rally": _rally_turn}


async def _other_players_turn(svc: Service, key: str) -> tuple[int, int, int, Game, Game, list[str]]:
    """A game of ``key`` played on to a turn where the user to act is to move their piece and the other one
    (who plans) will have a move on their turn (in the rally, along a path of two cells or more): the game's
    id, the user to act and the planner, the game, a copy of it at the planner's turn and the mover's moves
    that lead there. Only the piecepack plays its rolls by itself."""
    await started(svc, key)
    if key != "piecepack":
        for user in (ANN, BOB):
            await plans.set_auto(svc.store, user, 0, False)
    await run_auto(svc)
    for _ in range(30):
        game_id, game, seat = await now(svc)
        users = [s.user_id for s in (await svc.store.games.get_game(game_id)).seats]
        trial, theirs = _to_next_turn(svc, key, game, seat)
        ahead = svc.classes(key).from_dict(trial.to_dict())
        _lead(key, ahead)
        planned = ahead.to_act == 1 - seat and _reach(key, ahead) and (
            key != "rally" or max(len(e.path) for e in ahead.endings().values()) > 1)  # type: ignore[attr-defined]
        if _reach(key, game) and planned:
            return game_id, users[seat], users[1 - seat], game, trial, theirs
        # not yet: the mover plays on (to their move, or through a turn after which the planner's is no use)
        for action in theirs[:1] if planned else theirs:
            assert isinstance(await svc.act(CHANNEL, users[seat], action), Accepted)
            await run_auto(svc)
    raise AssertionError(f"no turn of {key} to plan ahead for")


@pytest.mark.parametrize("notation", ["short", "full"])
@pytest.mark.parametrize("key", ["piecepack", "races", "rally"])
async def test_a_plan_made_during_anothers_turn_moves_the_planners_own_piece(svc, key, notation):
    """While Bob is to move, Ann queues her next turn in the game's short or full notation: the answer names
    her own moves as she wrote them (never worked out for Bob's piece), and on her turn each plays as hers,
    worked out from her own piece, roll and position."""
    game_id, mover, planner, _, trial, theirs = await _other_players_turn(svc, key)
    forms, expected = TURNS[key](trial)
    typed, kept = zip(*forms[notation], strict=True)
    shown = await plans.plan_command(svc, CHANNEL, planner, add="; ".join(typed), lang="en")
    assert shown == "Queued, in order: " + ", ".join(f"`{k}`" for k in kept)
    done = len(await svc.store.games.actions(game_id))
    for action in theirs:
        assert isinstance(await svc.act(CHANNEL, mover, action), Accepted)
        await run_auto(svc)
    acts = (await svc.store.games.actions(game_id))[done + len(theirs):][:len(expected)]
    assert [a.action for a in acts] == expected
    assert {a.user_id for a in acts} == {planner}
    assert all("plan" in a.narration for a in acts if a.action != "roll" or key != "piecepack")
    plan = await plans.load_plan(svc.store, planner, game_id)
    assert plan.items == () and plan.stopped is None


def _reach(key: str, game: Game) -> set[str]:
    """Where the piece to act can end its move now."""
    if key == "races":
        from bot.games.races.moves import destinations
        return set(destinations(game, game.legal_actions()))
    return set(game.endings() if key == "rally" else game.destinations())  # type: ignore[attr-defined]


def _lead(key: str, trial: Game) -> list[str]:
    """What the planner queues before their move (played on ``trial``): the races' entering and roll, the
    rally's roll; the piecepack's roll plays itself."""
    if key == "piecepack":
        _play(trial, "roll")
        return []
    if key == "rally":
        return [_play(trial, unit_for(key).expand(trial, "roll"))]
    enter = [_play(trial, str(trial.legal_actions()[0]))] if trial.phase == "enter" else []  # type: ignore[attr-defined]
    return [*enter, _play(trial, _most_green(trial))]


def _most_green(trial: Game) -> str:
    """R5: the roll of the most green dice the kart may roll now (no fuel dice)."""
    return max((str(a) for a in trial.legal_actions() if str(a).startswith("roll") and len(str(a).split()) == 2),
               key=lambda a: int(a.split()[1]))


@pytest.mark.parametrize("key", ["piecepack", "races", "rally"])
async def test_a_plan_item_made_during_anothers_turn_is_dropped_with_the_games_reason_for_the_planner(svc, key):
    """While Bob is to move, Ann queues a move to a place his piece can reach (in the piecepack the square
    her own pawn stands on, P3): it is queued as she wrote it, not refused for Bob's piece; on her turn it is
    dropped with the game's own reason for her piece and roll, told to her alone."""
    game_id, mover, planner, game, trial, theirs = await _other_players_turn(svc, key)
    seat = game.to_act
    assert seat is not None
    lead = _lead(key, trial)
    # the piecepack's: the square the planner's pawn stands on; else one only the mover's piece reaches now
    cell = str(trial.pawns[1 - seat]) if key == "piecepack" else min(  # type: ignore[attr-defined]
        _reach(key, game) - _reach(key, trial))
    item = f"move {cell}"
    shown = await plans.plan_command(svc, CHANNEL, planner, add="; ".join([*lead, item]), lang="en")
    assert shown == "Queued, in order: " + ", ".join(f"`{k}`" for k in [*lead, item])
    try:
        trial.apply(trial.parse_action(unit_for(key).expand(trial, item)))
    except IllegalAction as exc:
        reason = unit_for(key).refused_move(trial, exc, "en")
    else:
        raise AssertionError(f"{item} was legal for the planner in {key}")
    notes = []
    for action in theirs:
        assert isinstance(await svc.act(CHANNEL, mover, action), Accepted)
        notes += [p for b in await run_auto(svc) for p in b.private]
    assert [(n.user_id, n.text) for n in notes] == [(planner, f"Your plan stopped at `{item}`: {reason}")]
    plan = await plans.load_plan(svc.store, planner, game_id)
    assert plan.items == () and plan.stopped == {"item": item, "reason": reason}


@pytest.mark.parametrize("key", ["piecepack", "races", "rally"])
async def test_a_plan_item_that_is_no_notation_of_the_game_is_refused_at_once_whoever_is_to_act(svc, key):
    """What is neither the game's notation nor one of its shorthands is refused when queued, for the player
    to act and the other alike, with the game's own words, and nothing is queued."""
    await started(svc, key)
    for user in (ANN, BOB):
        out = await plans.plan_command(svc, CHANNEL, user, add="fly away", lang="en")
        assert isinstance(out, Refusal) and out.text.startswith("That can't go into your plan: ")
        assert (await plans.load_plan(svc.store, user, (await now(svc))[0])).items == ()


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "`{q}…` is too long for a plan item: one action has at most 200 characters."),
    ("de", "`{q}…` ist zu lang für einen Planeintrag: Eine Aktion hat höchstens 200 Zeichen.")])
async def test_an_overlong_plan_item_is_quoted_back_by_its_start_only(svc, lang, said):
    """A 10,000-character item is refused quoting its first 40 characters, in the asker's language."""
    await started(svc, "piecepack")
    out = await plans.plan_command(svc, CHANNEL, ANN, add="roll; " + "e3-" * 3_333 + "e", lang=lang)
    assert isinstance(out, Refusal) and out.text == said.format(q=("e3-" * 14)[:40])
    assert (await plans.load_plan(svc.store, ANN, (await now(svc))[0])).items == ()


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "There is no game in this channel to set this for; with `everywhere` it holds in all your games."),
    ("de", "In diesem Kanal gibt es kein Spiel, für das du das einstellen könntest; mit `überall` gilt es in "
           "allen deinen Spielen.")])
async def test_auto_without_a_game_says_so_about_auto(svc, lang, said):
    out = await plans.auto_command(svc, CHANNEL, ANN, False, lang=lang)
    assert isinstance(out, Refusal) and out.text == said
    assert await plans.auto_on(svc.store, ANN, 1)


async def _roll_waits(h) -> bool:
    """Whether the piecepack's roll waits for the player to act (nothing played it for them)."""
    from tests.bot.harness import CHANNEL_ID
    await h.settle()
    _, game, _ = await h.bot.service.current(CHANNEL_ID)
    return game is not None and [str(a) for a in game.legal_actions()] == ["roll"]


@pytest.mark.parametrize("locale", ["de", "en-US"])
@pytest.mark.parametrize("then", [
    [("game notify", {"mode": "dm", "this_game": True})], [("game notify", {"mode": "channel"})],
    [("game quiet", {"start": "22:00", "end": "07:00", "timezone": "Europe/Berlin"})],
    [("game quiet", {"clear": True})]], ids=["notify-here", "notify", "quiet", "quiet-clear"])
async def test_auto_off_holds_on_either_client_whatever_is_set_after_it(h, locale, then):
    """``/game auto mode:off`` on a German or English client (Ann for this game, in its lobby; Bob for all
    his games): each one's roll waits for them (P3), also after they change another preference (a turn
    notice, quiet hours), kept in the same row of their settings."""
    from tests.bot.harness import CHANNEL_ID
    from tests.bot.helpers import ANN, BOB, answer
    h.locales.update({ANN: locale, BOB: locale})
    await h.slash(ANN, "game new", game="piecepack")
    await h.slash(BOB, "game join")
    off = {"de": "Züge ohne Entscheidung warten jetzt {where} auf dich.",
           "en-US": "Moves with nothing to decide now wait for you {where}."}[locale]
    here, everywhere = {"de": ("in diesem Spiel", "in all deinen Spielen"),
                        "en-US": ("in this game", "in all your games")}[locale]
    assert answer(await h.slash(ANN, "game auto", mode="off")).content == off.format(where=here)
    assert answer(await h.slash(BOB, "game auto", mode="off", everywhere=True)).content == off.format(
        where=everywhere)
    await h.slash(ANN, "game start")
    for path, options in then:
        for user in (ANN, BOB):
            await h.slash(user, path, **options)
    for _ in range(3):  # each player's turn after the change (the first player's roll was waiting before it)
        assert await _roll_waits(h)
        rec, game, _ = await h.bot.service.current(CHANNEL_ID)
        user = rec.seats[game.to_act].user_id
        await h.slash(user, "game play", action="roll")
        await h.settle()
        _, game, _ = await h.bot.service.current(CHANNEL_ID)
        await h.slash(user, "game play", action=str(game.legal_actions()[0]))


@pytest.mark.parametrize(("key", "typed", "kept"), [
    ("rally", "y+", "roll yellow boost"), ("rally", "shift red", "roll red"), ("rally", "roll", "roll"),
    ("rally", "boost", "roll boost"), ("rally", "pit.1", "park pit.1"), ("rally", "move 3a 4a 5b", "move 3a 4a 5b"),
    ("races", "I10", "I10"), ("races", "left", "left"), ("races", "NE", "NE"), ("races", "m I10", "move I10"),
    ("races", "move I9 H8", "move I9 H8"), ("piecepack", "e3", "move e3"), ("piecepack", "m e5-e4", "move e5-e4")])
async def test_each_shorthand_is_kept_for_its_players_turn(svc, key, typed, kept):
    """Each game's shorthands (the ones its unit expands at the terminal) go into a plan as they read before
    the turn: what needs the planner's roll or piece (a lever's range kept, a spot's best placement, a cell's
    whole move, a destination's path) is left to their turn."""
    await started(svc, key)
    _, game, _ = await now(svc)
    assert unit_for(key).selfplay.plan_item(game, typed) == kept


@pytest.mark.parametrize(("key", "typed"), [("rally", "fly"), ("rally", "park x.1"), ("races", "jump"),
                                            ("races", "m nowhere"), ("piecepack", "z9")])
async def test_a_word_no_shorthand_reads_is_refused(svc, key, typed):
    await started(svc, key)
    _, game, _ = await now(svc)
    with pytest.raises(IllegalAction):
        unit_for(key).selfplay.plan_item(game, typed)


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
