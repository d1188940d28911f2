"""While you were away, through Discord (bot/clock/recap.py, bot/discord/recap_commands.py), on the real discord.py
stack offline (tests/bot/harness.py) with the store on a fake clock.

Ann plays her turn, is gone thirteen hours (the default ``recap_after`` is twelve) while Bob plays his, and the
message that hands her the turn carries "What did I miss?". Only Ann's press of it answers, privately, with
the recap (the moves she missed, her place) and "Replay these moves", whose press answers with the GIF of
exactly those moves; Bob's press (or a stranger's) gets a private refusal; ``/game recap`` (and
``replay:true``) answers Ann the same, privately; a German Ann reads it all in German. Nothing of it is posted
to the channel.
"""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from bot import texts
from bot.clock.recap import REPLAY_ACTION
from bot.clock.settings import DEFAULT_RECAP_AFTER
from bot.drivers import driver_for
from bot.games import unit_for
from bot.telling.compose import RECAP_ACTION
from tests.bot.harness import CHANNEL_ID, DiscordHarness, Sent
from tests.bot.helpers import ANN, BOB, EVE, USERS, answer, public
from tests.bot.timing_helpers import Clock, timed_bot

USER_OF = {0: ANN, 1: BOB}
#: what each game is opened with: small games, so the few moves played are quick
SETUPS: dict[str, dict[str, Any]] = {"races": {"track": "A", "laps": 1}, "piecepack": {}, "rally": {}}


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def th(db_path: Any, clock: Clock) -> Any:
    """The offline harness around a bot whose store (and so the recap) reads ``clock``."""
    async with DiscordHarness(timed_bot(db_path, clock)) as harness:
        harness.users.update(USERS)
        yield harness


async def current(h: DiscordHarness) -> tuple[Any, Any]:
    rec, game, _ = await h.bot.service.current(CHANNEL_ID)  # type: ignore[attr-defined]
    assert rec is not None and game is not None
    return rec, game


async def play_turn(h: DiscordHarness, seat: int) -> tuple[list[Sent], int]:
    """``seat``'s whole turn by ``/game play``, each move a smart driver's: every request the bot made, and the
    move after the last one typed (the moves that follow it in the turn may be forced, played for the seat)."""
    rec, game = await current(h)
    driver = driver_for(rec.game_key, "smart", 7 + seat)
    sent: list[Sent] = []
    typed = 0
    while not game.is_over and game.to_act == seat:
        before = rec.version
        sent += await h.slash(USER_OF[seat], "game play", action=str(driver.choose(game, seat)))
        rec, game = await current(h)
        assert rec.version > before, [s.content for s in sent[-3:]]
        typed = before + 1
    return sent, typed


async def away_and_back(h: DiscordHarness, clock: Clock, key: str) -> tuple[Sent, int]:
    """Ann opens ``key``, Bob joins, Ann starts; they play until Ann has played a turn of her own, then Bob
    plays his a little more than ``recap_after`` hours later: the public message that hands Ann her turn, and
    the move after the last one she typed."""
    answer(await h.slash(ANN, "game new", game=key, **SETUPS[key]))
    answer(await h.slash(BOB, "game join"))
    answer(await h.slash(ANN, "game start"))
    ann_typed = 0
    while True:
        _, game = await current(h)
        if game.to_act == 1 and ann_typed:
            break
        seat = game.to_act
        _, typed = await play_turn(h, seat)
        ann_typed = typed if seat == 0 else ann_typed
    clock.advance(DEFAULT_RECAP_AFTER + 1)
    sent, _ = await play_turn(h, 1)
    _, game = await current(h)
    assert game.to_act == 0 and not game.is_over
    posted = public(sent)
    assert posted, [s.content for s in sent]
    return posted[-1], ann_typed


def recap_id(message: Sent) -> str:
    """The custom_id of the message's "What did I miss?" (fails when it has none)."""
    [cid] = [c for c in message.custom_ids if c.split(":", 3)[3].startswith(f"{RECAP_ACTION}:")]
    return cid


def span_of(cid: str) -> tuple[int, int, int]:
    seat, since, until = (int(p) for p in cid.split(":", 3)[3].split(":")[1:])
    return seat, since, until


async def expected(h: DiscordHarness, key: str, typed: int, since: int, until: int) -> tuple[int, str]:
    """How many moves Ann missed and her place now: the moves after the last she typed up to the one that
    handed her the turn (Bob's), and the game's standings rebuilt from the log at that move."""
    rec, _ = await current(h)
    log = await h.bot.service.store.games.actions(rec.id)  # type: ignore[attr-defined]
    assert since == typed and log[since - 1].seat == 0 and log[until - 1].seat == 1
    cls = h.bot.service.classes(key)  # type: ignore[attr-defined]
    game = cls.create(rec.setup, rec.seed)
    for a in log[:until]:
        game.apply(a.action)
    order = [s for s, _ in unit_for(key).standings(game).rows]
    return until - since, str(order.index(0) + 1)


def gif_of(sent: Sent) -> bytes:
    [gif] = [data for name, data in sent.files if name.endswith(".gif")]
    assert gif.startswith(b"GIF8")
    return gif


def frame_count(gif: bytes) -> int:
    return int(getattr(Image.open(io.BytesIO(gif)), "n_frames", 1))


def says_what_happened(text: str, count: int, place: int, lang: str) -> None:
    """The recap's first line names how many moves were missed, its second Ann's place now."""
    head, where = text.splitlines()[:2]
    word = ("move" if count == 1 else "moves") if lang == "en" else ("Zug" if count == 1 else "Züge")
    assert head.startswith("**While you were away**" if lang == "en" else "**Während du weg warst**"), head
    assert f"({count} {word} " in head, head
    assert texts.ordinal(place, lang) in where, where


@pytest.mark.parametrize("key", ["races", "piecepack"])
async def test_the_pinged_player_gets_the_recap_and_its_replay_privately(th: DiscordHarness, clock: Clock,
                                                                         key: str) -> None:
    turn, typed = await away_and_back(th, clock, key)
    assert "What did I miss?" in turn.labels and f"<@{ANN}>" in turn.content
    cid = recap_id(turn)
    seat, since, until = span_of(cid)
    assert seat == 0
    count, place = await expected(th, key, typed, since, until)
    rec, _ = await current(th)

    sent = await th.press_custom_id(ANN, turn.message or {}, cid)
    assert not public(sent) and not any(s.changes for s in sent)  # the turn's message is left as it is
    mine = answer(sent)
    assert mine.ephemeral and not mine.files
    says_what_happened(mine.content, count, int(place), "en")
    assert mine.labels == ["Replay these moves"]
    assert mine.custom_ids[0].endswith(f"{REPLAY_ACTION}:0:{since}:{until}")

    sent = await th.press(ANN, mine, "Replay these moves")
    assert not public(sent)
    replay = answer(sent)
    assert replay.ephemeral and replay.content == mine.content
    assert frame_count(gif_of(replay)) == until - since + 1  # the board as she left it, then each move

    sent = await th.press_custom_id(BOB, turn.message or {}, cid)
    assert not public(sent)
    refused = answer(sent)
    assert refused.ephemeral and f"<@{ANN}>'s recap" in refused.content and "/game recap" in refused.content
    assert not refused.files and not refused.custom_ids
    stranger = answer(await th.press_custom_id(EVE, turn.message or {}, cid))
    assert stranger.ephemeral and "You have no seat" in stranger.content

    command = answer(await th.slash(ANN, "game recap"))
    assert command.ephemeral and command.content == mine.content and command.labels == ["Replay these moves"]
    command = answer(await th.slash(ANN, "game recap", replay=True))
    assert command.ephemeral and command.content == mine.content and not command.custom_ids
    assert frame_count(gif_of(command)) == until - since + 1
    assert (await current(th))[0].version == rec.version  # asking played nothing


async def test_a_german_player_reads_the_recap_in_german(th: DiscordHarness, clock: Clock) -> None:
    """A German server: the button, the recap, its replay button, the refusal and ``/spiel verpasst``."""
    th.guild_locale = "de"
    th.locales.update({ANN: "de", BOB: "de"})
    turn, typed = await away_and_back(th, clock, "rally")
    assert "Was habe ich verpasst?" in turn.labels
    cid = recap_id(turn)
    _, since, until = span_of(cid)
    count, place = await expected(th, "rally", typed, since, until)

    mine = answer(await th.press_custom_id(ANN, turn.message or {}, cid))
    assert mine.ephemeral
    says_what_happened(mine.content, count, int(place), "de")
    assert mine.labels == ["Diese Züge abspielen"]
    replay = answer(await th.press(ANN, mine, "Diese Züge abspielen"))
    assert replay.ephemeral and frame_count(gif_of(replay)) == until - since + 1

    refused = answer(await th.press_custom_id(BOB, turn.message or {}, cid))
    assert refused.ephemeral and f"Das ist die Zusammenfassung von <@{ANN}>" in refused.content

    command = answer(await th.slash(ANN, "game recap"))
    assert command.ephemeral and command.content == mine.content
