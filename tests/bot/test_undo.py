"""``/game undo`` through the offline Discord harness: a player takes back their own last move(s) of the
current turn while nothing new became known; the game's rules say what may come back."""

from __future__ import annotations

import pytest

from bot.upkeep.consistency import check_consistency
from tests.bot.harness import DiscordHarness, Sent
from tests.bot.helpers import ANN, BOB, answer, only, public, started


async def races(h: DiscordHarness) -> tuple[int, int]:
    """Ann opens a race, Bob joins, Ann starts it: the user whose start cell is asked first, and the other."""
    answer(await h.slash(ANN, "game new", game="races"))
    answer(await h.slash(BOB, "game join"))
    answer(await h.slash(ANN, "game start"))
    rec = await h.bot.store.games.channel_game(h.channel_id)
    game = await h.bot.service.load(rec)
    first = rec.seats[game.to_act].user_id
    return first, ANN if first == BOB else BOB


async def choices(h: DiscordHarness) -> list[str]:
    rec = await h.bot.store.games.channel_game(h.channel_id)
    return [str(a) for a in (await h.bot.service.load(rec)).legal_actions()]


async def test_a_start_cell_chosen_before_the_dice_is_taken_back_and_the_channel_told(h):
    """R15: choosing the start cell shows nothing new, so it comes back; the board and its buttons follow."""
    first, _ = await races(h)
    offered = await choices(h)
    cell = offered[0]
    board = only(public(await h.slash(first, "game play", action=cell)))
    assert board.labels and board.labels != [c.split()[1] for c in offered]
    sent = await h.slash(first, "game undo")
    told = only(public(sent))
    assert told.content.startswith(f"<@{first}> took back 1 move:") and "lines up on" in told.content
    assert told.png is not None and told.labels == [c.split()[1] for c in offered]
    assert await choices(h) == offered
    # the board of the move taken back loses its buttons
    edits = [s for s in sent if s.kind == "edit" and s.components == []]
    assert len(edits) == 1 and board.message is not None and board.message["id"] in edits[0].url
    rec = await h.bot.store.games.channel_game(h.channel_id)
    assert rec.version == 0 and await h.bot.store.games.actions(rec.id) == []
    await check_consistency(h.bot.store.games, rec.id)


async def test_after_the_dice_nothing_is_taken_back_and_the_reason_is_given(h):
    """Phase 3: a roll shows the dice; the refusal names the move and the reason, and changes nothing."""
    first, _ = await races(h)
    await h.slash(first, "game play", action=(await choices(h))[0])
    await h.slash(first, "game play", action="roll 1")
    rec = await h.bot.store.games.channel_game(h.channel_id)
    reply = answer(await h.slash(first, "game undo"))
    assert reply.ephemeral
    assert reply.content == "Your last move, `roll 1`, stays. A roll can't be taken back: the dice are known."
    again = await h.bot.store.games.channel_game(h.channel_id)
    assert (again.version, again.state) == (rec.version, rec.state)


@pytest.mark.presses_every_move
async def test_more_moves_than_may_come_back_are_refused(h):
    """Two moves asked for where only the last may come back: the one before it is named."""
    first, _ = await races(h)
    await h.slash(first, "game play", action=(await choices(h))[0])
    await h.slash(first, "game play", action="roll 1")
    rec = await h.bot.store.games.channel_game(h.channel_id)
    game = await h.bot.service.load(rec)
    step = next(str(a) for a in game.legal_actions() if str(a).startswith("step"))
    await h.slash(first, "game play", action=step)
    reply = answer(await h.slash(first, "game undo", moves=2))
    assert reply.ephemeral and reply.content.startswith(
        "Only your last 1 move can be taken back; `roll 1` before them stays. A roll can't be taken back")
    assert only(public(await h.slash(first, "game undo", moves=1))).content.startswith(f"<@{first}> took back 1 move")


async def test_only_your_own_moves_in_your_own_turn(h):
    first, second = await races(h)
    await h.slash(first, "game play", action=(await choices(h))[0])
    reply = answer(await h.slash(second, "game undo"))
    assert reply.ephemeral and "only during your own turn" in reply.content


async def test_a_game_that_takes_nothing_back_says_so(h):
    """The contract's default: a game that does not say what may come back takes nothing back."""
    board = await started(h)
    await h.press(ANN, board, "Roll")
    reply = answer(await h.slash(ANN, "game undo"))
    assert reply.ephemeral and reply.content == "Your last move, `roll`, stays. Race to Ten does not take moves back."


async def test_undo_outside_a_server_is_refused(h):
    sent = await dm(h, ANN, "game undo")
    assert answer(sent).ephemeral and "works in a server channel" in answer(sent).content


async def dm(h: DiscordHarness, user_id: int, path: str, **options: object) -> list[Sent]:
    """``/path`` used in a direct message with the bot (no server, no member)."""
    from tests.bot.harness import MEMBER_PERMS, snowflake, user_payload

    channel = snowflake()
    data = h._base(2, user_id, permissions=MEMBER_PERMS, channel_id=channel)
    for key in ("guild_id", "member", "guild_locale"):
        data.pop(key)
    data["user"] = user_payload(user_id, h.users.get(user_id))
    data["channel"] = {"id": str(channel), "type": 1, "recipients": [user_payload(user_id, h.users.get(user_id))]}
    data["context"] = 1
    data["data"] = h._command_data(path, dict(options))
    return await h._dispatch(data)


async def test_an_undo_keeps_the_turn_it_happened_in_no_second_notice(db_path):
    """Taking back a move inside a turn goes back within that turn: the player's turn notice (by direct
    message) is not sent again, and the turn keeps its start for reminders and limits."""
    from tests.bot.helpers import USERS
    from tests.bot.timing_helpers import Clock, dms, later, timed_bot

    clock = Clock()
    async with DiscordHarness(timed_bot(db_path, clock)) as t:
        t.users.update(USERS)
        for user in (ANN, BOB):
            answer(await t.slash(user, "game notify", mode="dm"))
        first, _ = await races(t)
        assert len(dms(await later(t, clock, 0))) == 1  # the first player's notice
        rec = await t.bot.store.games.channel_game(t.channel_id)
        started_at = (await t.bot.store.turns.turn_mark(rec.id)).started_at
        await t.slash(first, "game play", action=(await choices(t))[0])
        assert dms(await later(t, clock, 1)) == []
        only(public(await t.slash(first, "game undo")))
        assert dms(await later(t, clock, 1)) == []
        assert (await t.bot.store.turns.turn_mark(rec.id)).started_at == started_at


async def test_more_moves_than_you_played_this_turn_are_refused(h):
    first, _ = await races(h)
    await h.slash(first, "game play", action=(await choices(h))[0])
    reply = answer(await h.slash(first, "game undo", moves=3))
    assert reply.ephemeral and reply.content == "You played only 1 move this turn; `/game undo moves:1` takes it back."
