"""Turn notices, reminders, quiet hours, deadlines, the autopilot and restarts, on a fake clock through the
offline Discord stack (see tests/bot/timing_helpers.py)."""

from __future__ import annotations

import pytest

from bot.telling.outcomes import Refusal
from tests.bot.harness import CHANNEL_ID, GUILD_ID, MANAGE_CHANNELS, MEMBER_PERMS, DiscordHarness
from tests.bot.helpers import ANN, BOB, EVE, USERS, answer, only, public, started
from tests.bot.timing_helpers import (
    START,
    Clock,
    channel_posts,
    created,
    dms,
    later,
    pinged,
    timed_bot,
)


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
async def t(db_path, clock):
    async with DiscordHarness(timed_bot(db_path, clock)) as harness:
        harness.users.update(USERS)
        yield harness


async def turn(h: DiscordHarness, user: int) -> list:
    """``user`` rolls, then passes: their whole turn; the messages it made."""
    sent = await h.slash(user, "game play", action="roll")
    sent += await h.slash(user, "game play", action="pass")
    return sent


# Turn notices ---------------------------------------------------------------------------------------


async def test_a_turn_notice_by_direct_message_links_to_the_board(t, clock):
    answer(await t.slash(BOB, "game notify", mode="dm"))
    await started(t)
    sent = await turn(t, ANN)
    board = public(sent)[-1]
    assert f"<@{BOB}>, your turn." in board.content and pinged(board) == []  # named, not pinged in the channel
    notice = only(dms(await later(t, clock, 0)))
    link = f"https://discord.com/channels/{GUILD_ID}/{CHANNEL_ID}/{board.message['id']}"
    assert link in notice.content and "Race to Ten" in notice.content
    assert board.custom_ids == ["jy:1:2:roll"]  # the linked message carries Bob's buttons of the current move
    assert not created(await later(t, clock, 1))  # once


async def test_channel_mode_pings_on_the_board_and_off_mode_not_at_all(t, clock):
    answer(await t.slash(EVE, "game notify", mode="off"))
    answer(await t.slash(ANN, "game new", game="toy"))
    answer(await t.slash(BOB, "game join"))
    answer(await t.slash(EVE, "game join"))
    first = answer(await t.slash(ANN, "game start"))
    assert pinged(first) == [ANN]
    assert pinged(public(await turn(t, ANN))[-1]) == [BOB]
    eve_board = public(await turn(t, BOB))[-1]
    assert f"<@{EVE}>" in eve_board.content and pinged(eve_board) == []
    assert not created(await later(t, clock, 100))  # no notice, no reminders for Eve


# Reminders ------------------------------------------------------------------------------------------


async def test_three_reminders_a_turn_and_no_fourth(t, clock):
    await started(t)
    assert not created(await later(t, clock, 0))
    assert not created(await later(t, clock, 11.9))
    texts = []
    for step in (0.1, 12, 12):
        [r] = channel_posts(await later(t, clock, step))
        assert pinged(r) == [ANN]
        texts.append(r.content)
    assert "waited 12 h" in texts[0] and "waited 36 h" in texts[2] and "last reminder" in texts[2]
    assert not created(await later(t, clock, 12)) and not created(await later(t, clock, 200))


async def test_acting_restarts_the_reminder_clock_but_not_the_count(t, clock):
    await started(t)
    await later(t, clock, 0)
    assert len(channel_posts(await later(t, clock, 12))) == 1
    await t.slash(ANN, "game play", action="roll")  # still Ann's turn
    await later(t, clock, 0)
    assert not created(await later(t, clock, 11))
    [second] = channel_posts(await later(t, clock, 1))
    assert "waited 24 h" in second.content
    [third] = channel_posts(await later(t, clock, 12))
    assert "last reminder" in third.content and not created(await later(t, clock, 48))


async def test_game_settings_turn_reminders_off_and_server_defaults_need_manage_channels(t, clock):
    await started(t)
    await later(t, clock, 0)
    refused = answer(await t.slash(BOB, "game settings", reminder=2))
    assert refused.ephemeral and "host" in refused.content
    assert "turn limit: none" in answer(await t.slash(BOB, "game settings")).content
    refused = answer(await t.slash(ANN, "game settings", scope="server", reminder=1))
    assert refused.ephemeral and "manage channels" in refused.content
    answer(await t.slash(EVE, "game settings", scope="server", reminder=1, permissions=MEMBER_PERMS | MANAGE_CHANNELS))
    assert len(channel_posts(await later(t, clock, 1))) == 1  # the server's default reaches the running game
    changed = answer(await t.slash(ANN, "game settings", reminder=0))
    assert not changed.ephemeral and "reminders: off" in changed.content
    assert not created(await later(t, clock, 30))


# Quiet hours ----------------------------------------------------------------------------------------


async def test_quiet_hours_hold_a_reminder_until_they_end(t, clock):
    """Ann's quiet hours are 22:00–07:00 in Berlin (UTC+2 in June): the reminder due at midnight UTC
    (02:00 there) waits until 07:00 Berlin, 05:00 UTC."""
    answer(await t.slash(ANN, "game quiet", start="22:00", end="07:00", timezone="Europe/Berlin"))
    await started(t)
    await later(t, clock, 0)
    assert not created(await later(t, clock, 12))  # 00:00 UTC
    assert not created(await later(t, clock, 4.9))  # 04:54 UTC
    [ping] = channel_posts(await later(t, clock, 0.1))  # 05:00 UTC
    assert pinged(ping) == [ANN] and clock() == START + 17 * 3600


async def test_a_board_during_quiet_hours_pings_when_they_end(t, clock):
    answer(await t.slash(BOB, "game quiet", start="23:00", end="08:00", timezone="UTC"))
    await started(t)
    clock.advance(12)  # midnight UTC
    board = public(await turn(t, ANN))[-1]
    assert f"<@{BOB}>" in board.content and pinged(board) == []
    assert not created(await later(t, clock, 0))
    assert not created(await later(t, clock, 7.9))
    [ping] = channel_posts(await later(t, clock, 0.1))
    assert pinged(ping) == [BOB] and "quiet hours are over" in ping.content


async def test_quiet_hours_are_checked(t):
    bad = answer(await t.slash(ANN, "game quiet", start="25:00", end="07:00", timezone="UTC"))
    assert bad.ephemeral and "HH:MM" in bad.content
    bad = answer(await t.slash(ANN, "game quiet", start="22:00", end="07:00", timezone="Mars/Olympus"))
    assert bad.ephemeral and "time zone" in bad.content


# Deadlines and the autopilot ------------------------------------------------------------------------


async def test_a_turn_limit_passing_makes_the_autopilot_play_the_turn_announced_and_logged(t, clock):
    await started(t)
    answer(await t.slash(ANN, "game settings", turn_limit=6, reminder=0))
    await turn(t, ANN)
    await later(t, clock, 0)
    assert not created(await later(t, clock, 5.9))
    sent = await later(t, clock, 0.1)
    boards = channel_posts(sent)
    assert boards and all("**Autopilot** for Bob" in b.content for b in boards)
    assert f"<@{ANN}>, your turn." in boards[-1].content  # the turn passed on
    rec = await t.bot.store.games.channel_game(CHANNEL_ID)
    acts = await t.bot.store.games.actions(rec.id)
    assert [a.seat for a in acts] == [0, 0] + [1] * (len(acts) - 2) and len(acts) > 2
    log = answer(await t.slash(ANN, "game log")).content
    assert "Autopilot" in log


async def test_the_log_marks_every_move_the_autopilot_played_in_the_readers_language(t, clock):
    """``/game log`` marks each of the moves the autopilot played for Bob, in the asker's language (the narration
    stays as the channel was told it); the moves Ann played herself carry no mark."""
    await started(t)
    answer(await t.slash(ANN, "game settings", turn_limit=6, reminder=0))
    await turn(t, ANN)
    await later(t, clock, 0)
    await later(t, clock, 6)
    rec = await t.bot.store.games.channel_game(CHANNEL_ID)
    acts = await t.bot.store.games.actions(rec.id)
    for locale, mark in (("en-US", "[autopilot]"), ("de", "[Autopilot]")):
        t.locales[EVE] = locale
        lines = answer(await t.slash(EVE, "game log")).content.splitlines()[1:]
        assert len(lines) == len(acts)
        for act, line in zip(acts, lines, strict=True):
            assert line.startswith(f"{act.index + 1}. {mark} ") == (act.seat == 1), line


async def test_ask_host_after_missed_turns(t, clock):
    await started(t)
    answer(await t.slash(ANN, "game settings", turn_limit=6, reminder=0, on_timeout="ask-host", kick_after=2))
    await turn(t, ANN)
    await later(t, clock, 0)
    [first] = channel_posts(await later(t, clock, 6))
    assert "1 missed" in first.content and pinged(first) == []
    await turn(t, BOB)
    await turn(t, ANN)
    await later(t, clock, 0)
    [second] = channel_posts(await later(t, clock, 6))
    assert "2 missed" in second.content and pinged(second) == [ANN] and "/game kick" in second.content


async def test_away_puts_the_seat_on_autopilot_until_back(t, clock):
    await started(t)
    said = answer(await t.slash(BOB, "game away"))
    assert "away" in said.content and not said.ephemeral
    sent = await turn(t, ANN)
    sent += await later(t, clock, 0)
    assert any("**Autopilot** for Bob" in s.content for s in channel_posts(sent))
    rec = await t.bot.store.games.channel_game(CHANNEL_ID)
    game = await t.bot.service.load(rec)
    assert game.to_act == 0  # Bob's turn was played at once
    assert "back" in answer(await t.slash(BOB, "game back")).content
    await turn(t, ANN)
    await later(t, clock, 0)
    assert not created(await later(t, clock, 5))
    rec = await t.bot.store.games.channel_game(CHANNEL_ID)
    assert (await t.bot.service.load(rec)).to_act == 1  # Bob's turn waits for Bob
    assert answer(await t.slash(BOB, "game back")).ephemeral  # not away any more


async def test_away_for_some_days_ends_by_itself(t, clock):
    await started(t)
    answer(await t.slash(BOB, "game away", days=1))
    clock.advance(25)
    await turn(t, ANN)
    await later(t, clock, 0)
    rec = await t.bot.store.games.channel_game(CHANNEL_ID)
    assert (await t.bot.service.load(rec)).to_act == 1


# Restarts --------------------------------------------------------------------------------------------


async def test_a_reminder_due_during_a_restart_is_sent_once(db_path, clock):
    async with DiscordHarness(timed_bot(db_path, clock)) as h:
        h.users.update(USERS)
        await started(h)
        await later(h, clock, 0)
    clock.advance(30)  # down for 30 hours: two reminders came due meanwhile
    async with DiscordHarness(timed_bot(db_path, clock)) as h:
        [r] = channel_posts(await later(h, clock, 0))
        assert pinged(r) == [ANN] and "waited 30 h" in r.content
        assert not created(await later(h, clock, 1))
    async with DiscordHarness(timed_bot(db_path, clock)) as h:
        assert not created(await later(h, clock, 0))  # restarted again: nothing repeats
        [r] = channel_posts(await later(h, clock, 11))  # the next one 12 h after the last
        assert "waited 42 h" in r.content


async def test_a_reminder_sent_but_not_marked_before_a_crash_is_posted_once(t, clock, monkeypatch):
    """The process dies between sending and marking the timer fired: the next run sends it again with the
    same nonce, and Discord keeps one message."""
    await started(t)
    await later(t, clock, 0)
    store = t.bot.store
    real = store.turns.finish_timer

    async def crash(*args, **kwargs):
        raise SystemExit("killed")

    monkeypatch.setattr(store.turns, "finish_timer", crash)
    clock.advance(12)
    with pytest.raises(SystemExit):
        await t.bot.timers.tick()
    monkeypatch.setattr(store.turns, "finish_timer", real)
    t.bot.service.owner = "the next run"
    start = len(t.sent)
    await t.bot.timers.tick(takeover=True)
    sent = t.sent[start:]
    retry = [s for s in sent if s.kind == "channel"]
    assert len(retry) == 1 and retry[0].repeated
    assert len([s for s in channel_posts(t.sent) if "reminder" in s.content]) == 1
    assert not created(await later(t, clock, 1))


async def test_the_autopilot_plays_with_the_games_smart_computer(t, clock):
    """A real game with a ``smart`` driver: the autopilot asks for that kind, and its moves are logged."""
    asked = []
    real = t.bot.service.drivers

    def drivers(key, kind, seed):
        asked.append(kind)
        return real(key, kind, seed)

    t.bot.service.drivers = drivers
    answer(await t.slash(ANN, "game new", game="piecepack"))
    answer(await t.slash(BOB, "game join"))
    await t.slash(ANN, "game start")
    rec = await t.bot.store.games.channel_game(CHANNEL_ID)
    first = rec.seats[(await t.bot.service.load(rec)).to_act].user_id
    sent = await t.slash(first, "game away")  # the turn waiting on them is played at once
    assert any("**Autopilot** for" in s.content for s in channel_posts(sent))
    rec = await t.bot.store.games.channel_game(CHANNEL_ID)
    acts = await t.bot.store.games.actions(rec.id)
    assert acts and asked and set(asked) == {"smart"}
    # the roll has nothing to decide: it played itself before the autopilot came; the rest is the autopilot's
    assert all(a.narration.startswith(("**Autopilot** for", "Rolled for")) for a in acts if a.user_id == first)
    assert any(a.narration.startswith("**Autopilot** for") for a in acts if a.user_id == first)
    assert (await t.bot.service.load(rec)).to_act != rec.seat_of(first) or rec.status != "active"


# The store's timers ----------------------------------------------------------------------------------


async def test_a_timer_is_claimed_by_one_owner_and_fires_once(store):
    from bot.store import NewTimer

    rec = await store.games.create_game(guild_id=1, channel_id=5, game_key="toy", host_id=1, setup={}, seed=1)
    await store.turns.mark_turn(rec.id, version=0, seat=0, started_at=10.0,
                                timers=[NewTimer("remind", 0, 100.0, {"number": 1}), NewTimer("deadline", 0, 500.0)])
    assert await store.turns.claim_timers("a", now=99.0, lease=60) == []
    [claimed] = await store.turns.claim_timers("a", now=100.0, lease=60)
    assert claimed.kind == "remind" and claimed.data == {"number": 1}
    assert await store.turns.claim_timers("b", now=120.0, lease=60) == []  # held by a
    assert [c.id for c in await store.turns.claim_timers("b", now=120.0, lease=60, takeover=True)] == [claimed.id]
    assert await store.turns.finish_timer(claimed.id, then=NewTimer("remind", 0, 200.0, {"number": 2}))
    assert not await store.turns.finish_timer(claimed.id)  # once
    pending = await store.turns.timers(game_id=rec.id, pending=True)
    assert sorted((p.kind, p.due_at) for p in pending) == [("deadline", 500.0), ("remind", 200.0)]
    await store.turns.mark_turn(rec.id, version=0, seat=1, started_at=20.0, timers=[])  # a new turn replaces them
    assert await store.turns.timers(game_id=rec.id, pending=True) == []
    assert (await store.turns.turn_mark(rec.id)).seat == 1


async def test_a_timed_out_turn_the_autopilot_left_unfinished_keeps_a_deadline_until_it_is_played(t, clock):
    """The autopilot's move is refused (another move of that turn came first, from a second tick that saw
    the turn meanwhile, or one that died with the process): the turn still waits on the player who timed out,
    so a deadline stays armed and the autopilot plays the turn a little later, instead of none being left."""
    await started(t)
    answer(await t.slash(ANN, "game settings", turn_limit=6, reminder=0))
    await turn(t, ANN)
    await later(t, clock, 0)
    real = t.bot.service.act

    async def refused_once(*args, **kwargs):
        t.bot.service.act = real
        return Refusal("That button is from move 2; the game is at move 3 now.")

    t.bot.service.act = refused_once
    await later(t, clock, 6)
    rec = await t.bot.store.games.channel_game(CHANNEL_ID)
    [again] = await t.bot.store.turns.timers(game_id=rec.id, pending=True)
    assert (again.kind, again.seat) == ("deadline", 1)
    await later(t, clock, 0.01)
    acts = await t.bot.store.games.actions(rec.id)
    assert [a.seat for a in acts] == [0, 0] + [1] * (len(acts) - 2) and len(acts) > 2
    assert (await t.bot.service.load(await t.bot.store.games.get_game(rec.id))).to_act == 0
