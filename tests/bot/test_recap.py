"""While you were away (bot/clock/recap.py): a stated week of each game, played through the service on a fake clock.
Ann plays her turn on Monday at noon and is then gone; Bob plays his turn every day, the computer its own, and
Ann's turns are played by the autopilot (as the ticker plays them: :meth:`Service.act` with ``autopilot``). Each
turn of Ann's after twelve hours away offers "What did I miss?"; the recap tells her places then and now, what
the others' moves did to her, how many moves were played for her and what she holds, in English and German;
it never names another player's hidden tiles; the replay has exactly the frames of those moves; and on Discord
only Ann gets her recap, privately."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageStat

from bot import texts
from bot.clock import recap
from bot.clock.settings import DEFAULT_RECAP_AFTER
from bot.drivers import driver_for
from bot.games import unit_for
from bot.messages import Showing
from bot.play.service import Service
from bot.store import SqliteStore
from bot.telling.compose import RECAP_ACTION, Table, compose
from bot.telling.outcomes import Accepted, Refusal
from rules.contract import Game, events_for
from tests.bot.speaking import mentioned
from tests.bot.test_hidden_information import TeamCrewRaces, redrawn
from tests.bot.timing_helpers import Clock

CH = 8800
ANN, BOB = 101, 202
GAMES = ("races", "rally", "piecepack")


@pytest.fixture
def clock() -> Clock:
    """The store's clock, which the recap reads too."""
    return Clock()


async def opened(tmp_path: Any, clock: Clock, key: str, classes: Any = None) -> Service:
    """Ann (seat 0), Bob (seat 1) and a computer at a game of ``key``, started on Monday at noon."""
    store = SqliteStore(tmp_path / f"{key}.db", clock=clock)
    await store.open()
    svc = Service(store, seed_source=lambda: 5, **({"classes": classes} if classes else {}))
    await svc.new_game(guild_id=1, channel_id=CH, user_id=ANN, user_name="Ann", game_key=key)
    await svc.join(CH, BOB, "Bob")
    await svc.add_computer(CH, ANN, "random")
    assert isinstance(await svc.start(CH, ANN), Accepted)
    await computers(svc)
    return svc


async def computers(svc: Service) -> None:
    while await svc.play_computers(CH) is not None:
        pass


async def game_now(svc: Service) -> tuple[Any, Game]:
    rec, game, _ = await svc.current(CH)
    assert rec is not None and game is not None
    return rec, game


async def turn(svc: Service, user: int, *, autopilot: bool = False, pick: Any = None) -> None:
    """``user``'s whole turn, chosen by a smart (or random) driver, then the computers'."""
    rec, game = await game_now(svc)
    seat = rec.seat_of(user)
    kinds = svc.driver_kinds(rec.game_key)
    driver = driver_for(rec.game_key, "smart" if "smart" in kinds else "random", rec.version)
    while not game.is_over and game.to_act == seat:
        action = pick(game) if pick is not None else driver.choose(game, seat)
        assert isinstance(await svc.act(CH, user, str(action), autopilot=autopilot), Accepted)
        await computers(svc)
        rec, game = await game_now(svc)


async def week(svc: Service, clock: Clock, days: int = 4, pick: Any = None) -> list[Showing]:
    """Ann's turn on Monday, then ``days`` days of Bob's turns (and the autopilot's for Ann): the records of the
    turn messages that named Ann."""
    _, game = await game_now(svc)
    assert game.to_act == 0
    await turn(svc, ANN, pick=pick)
    svc.monday = (await game_now(svc))[0].version  # type: ignore[attr-defined]
    offered = []
    for _ in range(days):
        clock.advance(24)
        rec, game = await game_now(svc)
        if game.is_over:
            break
        if game.to_act == 0:
            await turn(svc, ANN, autopilot=True, pick=pick)
        clock.advance(1)
        await turn(svc, BOB, pick=pick)
        rec, game = await game_now(svc)
        latest = await svc.store.outbox.latest_delivery(rec.id)
        assert latest is not None
        shown = Showing.from_payload(latest.kind, latest.payload)
        if game.to_act == 0 and not game.is_over:
            offered.append(shown)
    return offered


def expected_lines(key: str, game_then: Game, game_now_: Game, log: list[Any], since: int, until: int,
                   lang: str) -> dict[str, str]:
    """What the recap must say, worked out from the games and the log directly."""
    unit = unit_for(key)
    order_then = [s for s, _ in unit.standings(game_then).rows]
    order_now = [s for s, _ in unit.standings(game_now_).rows]
    hits = []
    replayed = type(game_then).from_dict(game_then.to_dict())
    for a in log[since:until]:
        events = replayed.apply(a.action)
        if a.seat != 0:
            mine = [e for e in events_for(events, 0) if e.seat == 0]
            if mine:
                hits.append(unit.narrate(mine, lang=lang))
    return {"then": str(order_then.index(0) + 1), "now": str(order_now.index(0) + 1),
            "played": str(sum(1 for a in log[since:until] if a.seat == 0)), "hits": " ".join(h for h in hits if h),
            "held": unit.hand_text(game_now_, 0, lang=lang)}


@pytest.mark.parametrize("key", GAMES)
async def test_the_recap_of_a_stated_week_says_what_happened(tmp_path, clock, key):
    svc = await opened(tmp_path, clock, key)
    offered = await week(svc, clock)
    rec, _ = await game_now(svc)
    assert offered, "Ann's turn came back after she was gone"
    since = offered[0].recap[1] if offered[0].recap else -1
    assert all(o.recap is not None and o.recap[0] == 0 and o.recap[1] == since for o in offered), offered
    log = await svc.store.games.actions(rec.id)
    monday_own = max(i + 1 for i, a in enumerate(log[:svc.monday]) if a.seat == 0)
    assert since == monday_own  # since her last own move, on Monday
    until = offered[-1].recap[2]  # the turn begins at the move that handed it to her (her forced moves follow)
    assert until <= rec.version and log[until - 1].seat != 0 and all(a.seat == 0 for a in log[until:])
    cls = svc.classes(key)
    then = cls.create(rec.setup, rec.seed)
    for a in log[:since]:
        then.apply(a.action)
    for lang in ("en", "de"):
        reply = await recap.answer(svc, CH, ANN, action=f"{RECAP_ACTION}:0:{since}:{until}", game_id=rec.id,
                                   lang=lang)
        assert not isinstance(reply, Refusal), reply
        at_turn = cls.create(rec.setup, rec.seed)
        for a in log[:until]:
            at_turn.apply(a.action)
        want = expected_lines(key, then, at_turn, log, since, until, lang)
        text = reply.text
        assert f"({until - since} " in text.splitlines()[0]
        place = text.splitlines()[1]
        assert texts.ordinal(int(want["now"]), lang) in place, place
        if want["then"] == want["now"]:
            assert ("still" if lang == "en" else "weiter") in place
        else:
            gained = int(want["now"]) < int(want["then"])
            assert (("gained" if gained else "lost") if lang == "en" else ("gewonnen" if gained else "verloren")) \
                in place, place
            assert str(abs(int(want["now"]) - int(want["then"]))) in place
        if want["hits"]:
            assert want["hits"][-200:] in text
        else:
            assert ("Nothing the others did" if lang == "en" else "Nichts, was die anderen") in text
        assert (f"{want['played']} move" if lang == "en" else f"{want['played']} Z") in text
        if want["held"]:
            assert want["held"] in text
        assert reply.buttons and reply.buttons[0].action == f"{recap.REPLAY_ACTION}:0:{since}:{until}"
    await svc.store.close()


async def test_no_recap_for_a_player_back_within_the_setting(tmp_path, clock):
    """Ann played an hour ago: her next turn's message offers nothing; with ``recap_after`` 0 never."""
    svc = await opened(tmp_path, clock, "piecepack")
    await turn(svc, ANN)
    clock.advance(DEFAULT_RECAP_AFTER - 11)
    await turn(svc, BOB)
    rec, game = await game_now(svc)
    assert game.to_act == 0
    latest = await svc.store.outbox.latest_delivery(rec.id)
    assert latest is not None and "recap" not in latest.payload
    await svc.store.settings.put_settings("game", rec.id, 0, {"recap_after": 0})
    await turn(svc, ANN)
    clock.advance(100)
    await turn(svc, BOB)
    rec, _ = await game_now(svc)
    latest = await svc.store.outbox.latest_delivery(rec.id)
    assert latest is not None and "recap" not in latest.payload
    await svc.store.close()


async def test_the_offer_survives_a_restart_and_shows_on_the_rebuilt_message(tmp_path, clock):
    """The offer is in the stored record: a service on a fresh store (a restart) composes the same button."""
    svc = await opened(tmp_path, clock, "rally")
    offered = await week(svc, clock, days=2)
    rec, _ = await game_now(svc)
    await svc.store.close()
    store = SqliteStore(tmp_path / "rally.db", clock=clock)
    await store.open()
    again = Service(store)
    latest = await store.outbox.latest_delivery(rec.id)
    assert latest is not None
    message = await again.message(latest)
    assert offered[-1].recap is not None
    assert [b.action for b in message.buttons][-1] == f"{RECAP_ACTION}:0:{offered[-1].recap[1]}:{rec.version}"
    assert (await again.message(latest, "de")).buttons[-1].label == "Was habe ich verpasst?"
    await store.close()


# Hidden things ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [3, 4])
async def test_the_recap_never_tells_another_players_hidden_tiles(tmp_path, clock, seed):
    """R12: team races with crew starting sets, tiles held, moved and swapped. Ann's recap is the same whatever
    the tiles hidden from her are (everyone else's face-down tiles redrawn), and no event it reads keeps a
    secret of another seat."""
    rng = random.Random(seed)

    def pick(game: Game) -> str:
        return str(rng.choice(game.legal_actions()))

    svc = await opened(tmp_path, clock, "races", classes=lambda key: TeamCrewRaces)
    offered = await week(svc, clock, days=3, pick=pick)
    rec, _ = await game_now(svc)
    assert offered and offered[-1].recap is not None
    _, since, until = offered[-1].recap
    log = await svc.store.games.actions(rec.id)
    m = recap.missed(TeamCrewRaces, rec.setup, rec.seed, log, 0, since, until)
    assert all(e.secret is None and e.secret_data is None for _, events in m.moves for e in events if e.seat != 0)
    assert not any(e.private for _, events in m.moves for e in events if e.seat != 0)
    unit = unit_for("races")
    for lang in ("en", "de"):
        told = recap.lines(unit, m, lang, 72)
        for _ in range(3):
            twin = recap.Missed(0, since, until, redrawn(m.then, rng, 0), redrawn(m.now, rng, 0), m.moves)
            assert recap.lines(unit, twin, lang, 72) == told
    await svc.store.close()


# The replay ------------------------------------------------------------------------------------------


def frames(gif: bytes) -> list[Image.Image]:
    img = Image.open(io.BytesIO(gif))
    out = []
    for i in range(img.n_frames):
        img.seek(i)
        out.append(img.convert("RGB"))
    return out


def apart(a: Image.Image, b: Image.Image) -> float:
    """How far two frames are apart: the mean difference of their pixels (0 alike; palettes differ a little)."""
    assert a.size == b.size
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


@pytest.mark.parametrize("key", GAMES)
async def test_the_replay_has_exactly_the_frames_of_the_moves_missed(tmp_path, clock, key):
    """One frame for the board as Ann left it, one after each move since: the frames of the whole game's replay
    from her last own move to her turn, and no others."""
    svc = await opened(tmp_path, clock, key)
    offered = await week(svc, clock, days=2)
    rec, _ = await game_now(svc)
    assert offered[-1].recap is not None
    _, since, until = offered[-1].recap
    reply = await recap.answer(svc, CH, ANN, action=f"{recap.REPLAY_ACTION}:0:{since}:{until}", game_id=rec.id,
                               lang="en")
    assert not isinstance(reply, Refusal) and reply.png is not None and reply.filename.endswith(".gif")
    got = frames(reply.png)
    assert len(got) == until - since + 1
    unit = unit_for(key)
    actions = [a.action for a in await svc.store.games.actions(rec.id)]
    whole = unit.replay(rec.setup, rec.seed, actions[:until], None, lang="en")
    assert whole is not None
    full = frames(whole[0])[since:until + 1]
    for i, frame in enumerate(got):  # each frame is the whole replay's frame of the same move, and no other
        near = min(range(len(full)), key=lambda j: (apart(frame, full[j]), abs(j - i)))
        assert apart(frame, full[i]) < 1.0 and apart(frame, full[near]) == apart(frame, full[i]), (i, near)
    await svc.store.close()


# Only the player, privately -----------------------------------------------------------------------------


async def test_the_button_answers_only_its_player(tmp_path, clock):
    svc = await opened(tmp_path, clock, "piecepack")
    offered = await week(svc, clock, days=2)
    rec, _ = await game_now(svc)
    seat, since, until = offered[-1].recap or (0, 0, 0)
    action = f"{RECAP_ACTION}:{seat}:{since}:{until}"
    other = await recap.answer(svc, CH, BOB, action=action, game_id=rec.id, lang="en")
    assert isinstance(other, Refusal) and f"<@{ANN}>'s recap" in mentioned(other.text)
    assert isinstance(await recap.answer(svc, CH, 999, action=action, game_id=rec.id, lang="de"), Refusal)
    mine = await recap.answer(svc, CH, ANN, action=action, game_id=rec.id, lang="de")
    assert not isinstance(mine, Refusal) and mine.text.startswith("**Während du weg warst**")
    command = await recap.answer(svc, CH, ANN, lang="de")
    assert not isinstance(command, Refusal) and command.text == mine.text  # /game recap: the same
    table = Table(rec.id, rec.game_key, rec.version, "en", tuple(rec.seats), rec.setup, rec.seed)
    assert compose(offered[-1], table, unit_for("piecepack"), (await game_now(svc))[1], "en").buttons[-1].label \
        == "What did I miss?"
    await svc.store.close()
