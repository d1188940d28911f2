"""The autopilot explains itself (bot/drivers/reasons.py): each move it plays for a person carries the driver's
one-line reason, kept as a catalogue id with parameters and worded when the message is composed, in the
reader's language. Stated positions per game give the expected reason in English and German; whole games
show that the explained move is the one the driver chooses and that every reason is one line and names no
hidden tile."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.clock.timers import Ticker
from bot.drivers import driver_for
from bot.drivers.reasons import Choice, Reason, Word, explain
from bot.games import game_class, unit_for
from bot.play.service import Service
from bot.store import Seat, SqliteStore
from bot.telling.compose import worded_line
from rules.contract import Game
from rules.piecepack import PiecepackGame
from rules.rally import RallyGame
from tests.races.conftest import position as race_position

ANN, BOB = 101, 202
CHANNEL = 7070


def races_at_the_pit() -> Game:
    """R11: the red kart begins its turn in the green Pit Stop (C1) with 5 bottle tops, in Phase 2."""
    return race_position([{"colour": "red", "cell": "C1", "facing": "SE", "bottle_tops": 5},
                          {"colour": "blue", "cell": "B12", "facing": "N"}])


def rally_on_the_grid() -> Game:
    """S3/S4: red on 8a, lever on green, its gears all sound and two fuel cans: it may boost."""
    return RallyGame.from_position({"cars": {"red": {"at": "8a", "lever": "green"}}})


def piecepack_beside_the_centre() -> Game:
    """P5: Suns on c1, clean, rolled 2: the centre (c3) with the good stuff is in reach."""
    return PiecepackGame.from_position({"pawns": {"Suns": "c1"}, "trash": {"Suns": []}, "phase": "move", "roll": 2})


#: game, position, the autopilot's move, its reason, and that reason in English and German
STATED: list[tuple[str, Any, str, str, str, str]] = [
    ("races", races_at_the_pit, "buy mud-tyres 3", "reason.races.buy",
     "of the parts it can buy here it wants the Mud Tyres most (2 of its 5 bottle tops)",
     "von den hier käuflichen Teilen will es die Schlammreifen am meisten (2 seiner 5 Kronkorken)"),
    ("rally", rally_on_the_grid, "roll green boost", "reason.rally.boost",
     "green with the booster: both its gears work and it has fuel to spare",
     "grün mit Booster: beide Gänge funktionieren und es hat Sprit übrig"),
    ("piecepack", piecepack_beside_the_centre, "move c1-c2-c3", "reason.piecepack.take",
     "it takes the good stuff from the centre", "es holt das Gute aus der Mitte"),
]


def said(reason: Reason, key: str, lang: str) -> str:
    return worded_line(reason.line(), unit_for(key), lang)


def worded_word(word: Word, key: str, lang: str) -> str:
    """A game's word as the reason's wording says it."""
    line = Reason("reason.only", {"w": word}).line().params["w"]
    return worded_line(line, unit_for(key), lang)


@pytest.mark.parametrize(("key", "make", "action", "msg", "en", "de"), STATED, ids=[s[0] for s in STATED])
def test_a_stated_position_gives_the_drivers_reason_in_both_languages(key, make, action, msg, en, de) -> None:
    game = make()
    choice = explain(driver_for(key, "smart", 1), game, game.to_act)
    assert choice.action == action and choice.reason.msg == msg
    assert said(choice.reason, key, "en") == en
    assert said(choice.reason, key, "de") == de
    assert str(driver_for(key, "smart", 1).choose(make(), game.to_act)) == action  # the same move as ever


def test_a_driver_that_does_not_explain_itself_gets_a_true_reason() -> None:
    """The random driver: one of so many legal moves, or the only one."""
    game = piecepack_beside_the_centre()
    choice = explain(driver_for("piecepack", "random", 2), game, 0)
    count = len(game.legal_actions())
    assert choice.reason == Reason("reason.picked", {"count": count})
    assert said(choice.reason, "piecepack", "en") == f"picked among {count} allowed moves"
    roll = PiecepackGame.from_position({"pawns": {"Suns": "c1"}})
    assert explain(driver_for("piecepack", "random", 2), roll, 0) == Choice("roll", Reason("reason.only"))
    assert said(Reason("reason.only"), "piecepack", "de") == "es ist der einzige erlaubte Zug"


def _hidden_words(game: Game, key: str) -> set[str]:
    """The names (both languages) of every junk tile kind lying face down or in a saddlebag."""
    if key != "races":
        return set()
    from rules.races.words import tile_name
    kinds = {t.kind for t in game.board.values() if t.face_down}  # type: ignore[attr-defined]
    kinds |= {t.kind for k in game.karts for bag in k.bags.values() for t in bag}  # type: ignore[attr-defined]
    return {tile_name(k, lang).lower() for k in kinds for lang in ("en", "de")}


@pytest.mark.parametrize("key", ["races", "rally", "piecepack"])
def test_over_a_whole_game_the_reason_explains_the_chosen_move_on_one_line(key: str) -> None:
    """Smart drivers play a three-seat game out; a twin driver explains each decision: the same move, a reason
    from the catalogue that is one line in both languages, never naming a hidden tile."""
    game = game_class(key).create({"seats": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}]}, 5)
    players = [driver_for(key, "smart", 80 + i) for i in range(3)]
    twins = [driver_for(key, "smart", 80 + i) for i in range(3)]
    seen = set()
    for _ in range(2000):
        if game.is_over:
            break
        seat = game.to_act
        action = players[seat].choose(game, seat)
        choice = explain(twins[seat], game, seat)
        assert choice.action == action
        seen.add(choice.reason.msg)
        assert not any(isinstance(v, Word) and v.msg.startswith("tile.") for v in choice.reason.params.values())
        hidden = _hidden_words(game, key)
        for lang in ("en", "de"):
            text = said(choice.reason, key, lang)
            assert text and "\n" not in text and "{" not in text and len(text) <= 120, text
            for word in (v for v in choice.reason.params.values() if isinstance(v, Word)):  # a public part's name
                text = text.replace(worded_word(word, key, lang), "")
            assert not any(re.search(rf"\b{re.escape(w)}\b", text.lower()) for w in hidden), (text, hidden)
        game.apply(action)
    assert game.is_over and len(seen) >= 5, seen


# Through the autopilot ----------------------------------------------------------------------------------


class Quiet:
    """A messenger that keeps what the ticker hands it."""

    def __init__(self) -> None:
        self.delivered: list[Any] = []

    async def to_channel(self, channel_id: int, text: str, mention: int | None, nonce: str) -> int | None:
        return None

    async def to_user(self, user_id: int, text: str, nonce: str) -> int | None:
        return None

    async def deliver(self, accepted: Any) -> None:
        self.delivered.append(accepted)


async def autopilot_from(tmp_path: Any, key: str, game: Game, lang: str) -> tuple[Service, int]:
    """A running game of ``key`` at the stated position, Ann (seat 0, to act) away: the autopilot plays her
    turn. Returns the service and the game's id."""
    store = SqliteStore(tmp_path / "reasons.sqlite")
    await store.open()
    service = Service(store, seed_source=lambda: 3)
    seats = [Seat(ANN, "Ann", lang=lang), Seat(BOB, "Bob", lang=lang)]
    rec = await store.games.create_game(guild_id=1, channel_id=CHANNEL, game_key=key, host_id=ANN, setup={},
                                        seed=1, seats=seats, lang=lang)
    rec = await store.games.start_game(rec.id, setup={}, seats=seats, state=game.to_dict())
    ticker = Ticker(service, Quiet())
    await ticker.open()
    assert game.to_act == 0 and await ticker.autopilot(rec, 0) >= 1
    return service, rec.id


@pytest.mark.parametrize(("key", "make", "action", "msg", "en", "de"), STATED, ids=[s[0] for s in STATED])
@pytest.mark.parametrize("lang", ["en", "de"])
async def test_the_autopilots_move_is_announced_with_its_reason(tmp_path, key, make, action, msg, en, de, lang):
    """The channel line of the autopilot's first move names it and says why, in the game's language; the same
    record composed for a reader of the other language says it in theirs; the log keeps the game's."""
    service, game_id = await autopilot_from(tmp_path, key, make(), lang)
    try:
        first = (await service.store.games.actions(game_id))[0]
        assert first.action == action and first.user_id == ANN
        why = {"en": f"_(why: {en})_", "de": f"_(warum: {de})_"}
        assert first.narration.startswith("**Autopilot**") and why[lang] in first.narration
        record = (await service.store.outbox.deliveries(game_id=game_id))[0]
        for reader in ("en", "de"):
            text = (await service.message(record, reader, words_only=True)).text
            assert why[reader] in text, text
            line = next(x for x in text.splitlines() if why[reader] in x)
            assert "Ann" in line  # one line: who it played for, the move, and why
    finally:
        await service.close()
        await service.store.close()
