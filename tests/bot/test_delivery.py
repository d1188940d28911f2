"""Never lose a board: delivery records, answers within Discord's deadline, failed answers, start-up,
forged input and bounded memory, all through the offline Discord stack with faults injected at the HTTP
layer (see tests/bot/harness.py)."""

from __future__ import annotations

import asyncio
import logging
import os
import time

import pytest

from tests.bot.harness import CHANNEL_ID, DiscordHarness, Sent
from tests.bot.helpers import (
    ANN,
    BOB,
    EVE,
    USERS,
    answer,
    make_bot,
    only,
    play_to_the_end,
    pressed_edit,
    public,
    shown,
    started,
)

OTHER = CHANNEL_ID + 1


async def records(h: DiscordHarness):
    """The records of the turns' messages (the lobby's news and the retirements of old messages aside)."""
    return [d for d in await h.bot.store.outbox.deliveries() if d.kind in ("post", "edit")]


def posted(sent: list[Sent]) -> list[Sent]:
    """Public channel messages created (not interaction answers)."""
    return [s for s in public(sent) if s.kind == "channel"]


async def rolled(h: DiscordHarness) -> Sent:
    """The toy started and Ann's roll shown in the turn's message (edited): her turn goes on, and her next
    move (Pass) hands it to Bob, which posts the next message."""
    board = await started(h)
    [after] = public(await h.press(ANN, board, "Roll"))
    assert after.message["id"] == board.message["id"]
    return after


# Delivery records ---------------------------------------------------------------------------------


async def test_every_board_is_recorded_with_the_message_that_showed_it(h):
    board = await started(h)
    sent = await h.press(ANN, board, "Roll")
    [after] = public(sent)
    start, roll = await records(h)
    assert (start.version, start.message_id) == (0, int(board.message["id"]))
    assert (roll.version, roll.message_id) == (1, int(after.message["id"]))
    assert start.delivered and roll.delivered and not posted(sent)


async def test_a_press_whose_answer_expired_posts_the_board_to_the_channel(h):
    """The press is stored, but the callback comes too late (10062): the board, with the buttons of the new
    move, goes to the channel as a plain message and the pressed message loses its buttons."""
    board = await rolled(h)
    h.fail("callback", 404, 10062)
    sent = await h.press(ANN, board, "Pass")
    [plain] = posted(sent)
    assert plain.png and "passed" in plain.content and all(":2:" in c for c in plain.custom_ids)
    assert plain.payload["nonce"].startswith("jy-") and plain.payload["enforce_nonce"] is True
    edits = [s for s in sent if s.kind == "edit" and f"/messages/{board.message['id']}" in s.url]
    assert edits and edits[0].components == []
    passed = (await records(h))[-1]
    assert passed.version == 2 and passed.message_id == int(plain.message["id"])
    assert (await h.bot.store.games.channel_game(CHANNEL_ID)).version == 2


async def test_a_press_on_the_turn_message_whose_answer_expired_edits_it_in_the_channel(h):
    board = await started(h)
    h.fail("callback", 404, 10062)
    sent = await h.press(ANN, board, "Roll")
    assert not posted(sent)
    [edit] = [s for s in sent if s.kind == "edit" and not s.failed]
    assert edit.url.endswith(f"/messages/{board.message['id']}") and "rolled" in edit.content and edit.png
    assert all(":1:" in c for c in edit.custom_ids)
    assert (await records(h))[-1].message_id == int(board.message["id"])


async def test_a_follow_up_failing_with_server_errors_goes_to_the_channel(h):
    board = await rolled(h)
    h.fail("followup", 500, times=2)
    sent = await h.press(ANN, board, "Pass")
    assert pressed_edit(sent).components == []  # the old buttons went
    [plain] = posted(sent)
    assert "passed" in plain.content and (await records(h))[-1].message_id == int(plain.message["id"])


async def test_a_command_whose_answer_failed_posts_its_board_once(h):
    answer(await h.slash(ANN, "game new", game="toy"))
    answer(await h.slash(BOB, "game join", colour="blue"))
    h.fail("callback", 404, 10062)
    sent = await h.slash(ANN, "game start")
    [plain] = posted(sent)
    assert "begins" in plain.content and plain.labels == ["Roll"]
    assert [d.message_id for d in await records(h)] == [int(plain.message["id"])]


async def test_when_the_channel_refuses_too_the_worker_posts_it_later(h):
    board = await rolled(h)
    h.fail("callback", 404, 10062)
    h.fail("channel", 500)
    sent = await h.press(ANN, board, "Pass")
    assert not posted(sent)
    [pending] = await h.bot.store.outbox.deliveries(pending=True)
    assert pending.version == 2 and pending.claimed_by is None and pending.due_at > time.time()
    assert await h.bot.outbox.flush() == 0  # not due yet
    h.bot.outbox.clock = lambda: time.time() + 3600
    before = len(h.sent)
    assert await h.bot.outbox.flush() == 1
    [plain] = posted(h.sent[before:])
    assert plain.png and plain.custom_ids and (await records(h))[-1].message_id == int(plain.message["id"])
    assert await h.bot.outbox.flush() == 0


async def test_a_channel_that_is_gone_is_given_up(h):
    board = await rolled(h)
    h.fail("callback", 404, 10062)
    h.fail("channel", 404, 10003)
    await h.press(ANN, board, "Pass")
    last = (await records(h))[-1]
    assert last.delivered and last.message_id is None


async def test_boards_stored_before_a_crash_are_posted_once_at_start_up(db_path):
    """The process stopped between the commit and the post: the next start posts the board, once."""
    async with DiscordHarness(make_bot(db_path)) as h1:
        await rolled(h1)
        accepted = await h1.bot.service.act(CHANNEL_ID, ANN, "pass")  # stored; the post never happens
        kinds = [(await h1.bot.store.outbox.delivery(i)).kind for i in accepted.deliveries]
        assert kinds == ["retire", "post"]  # the turn's message loses its buttons, the next one is posted
    for run in range(2):
        async with DiscordHarness(make_bot(db_path)) as h2:
            h2.users.update(USERS)
            posted_now = await h2.bot.outbox.flush(takeover=True)
            assert posted_now == (2 if run == 0 else 0)
            if run == 0:
                [plain] = posted(h2.sent)
                assert plain.png and "passed" in plain.content and all(":2:" in c for c in plain.custom_ids)
                assert (await records(h2))[-1].message_id == int(plain.message["id"])
                sent = await h2.press(BOB, plain, plain.labels[0])  # its buttons play on
                assert public(sent)


async def test_a_repeated_post_after_a_crash_is_one_message(db_path):
    """Posted, then the process stopped before recording it: posting again with the record's nonce returns
    the message already there (Discord's enforce_nonce), and that is what gets recorded."""
    async with DiscordHarness(make_bot(db_path)) as h:
        await rolled(h)
        accepted = await h.bot.service.act(CHANNEL_ID, ANN, "pass")
        d = await h.bot.store.outbox.delivery(accepted.deliveries[-1])
        first = await h.bot.outbox.transport.post(CHANNEL_ID, await h.bot.service.message(d), f"jy-{d.id}")
        h.bot.service.owner = "the next run"
        assert await h.bot.outbox.flush(takeover=True) == 2  # the old message's buttons go, the post is found
        assert len([s for s in h.sent if s.payload.get("nonce") == f"jy-{d.id}" and not s.repeated]) == 1
        assert (await records(h))[-1].message_id == first


async def test_superseded_boards_are_told_in_text_and_only_the_newest_has_buttons(db_path):
    async with DiscordHarness(make_bot(db_path)) as h1:
        await started(h1)
        await h1.bot.service.act(CHANNEL_ID, ANN, "roll")
        await h1.bot.service.act(CHANNEL_ID, ANN, "pass")
    async with DiscordHarness(make_bot(db_path)) as h2:
        assert await h2.bot.outbox.flush(takeover=True) == 3
        # the roll went on with the start's message: it is told there in text, its picture kept, no buttons
        [old, retired] = [s for s in h2.sent if s.kind == "edit"]
        assert "rolled" in old.content and not old.files and old.components == []
        assert retired.url == old.url and retired.components == []
        [new] = posted(h2.sent)
        assert "passed" in new.content and new.png and new.labels == ["Roll"] and f"<@{BOB}>" in new.content


async def test_terminal_channels_are_left_to_the_terminal(db_path):
    async with DiscordHarness(make_bot(db_path)) as h:
        svc = h.bot.service
        await svc.new_game(guild_id=None, channel_id=-3, user_id=1, user_name="a", game_key="toy")
        await svc.join(-3, 2, "b")
        await svc.start(-3, 1)
        assert await h.bot.outbox.flush(takeover=True) == 0


# Answering in time ---------------------------------------------------------------------------------


async def test_a_slow_press_is_deferred_in_time_then_answered(h, monkeypatch):
    board = await started(h)
    h.bot.defer_after = 0.05
    act = h.bot.service.act

    async def slow(*args, **kwargs):
        await asyncio.sleep(0.3)
        return await act(*args, **kwargs)

    monkeypatch.setattr(h.bot.service, "act", slow)
    sent = await h.press(ANN, board, "Roll")
    assert sent[0].response_type == 6  # deferred as an update of the pressed message: nothing shows
    [after] = public(sent)  # then the pressed message, the turn's, shows the roll
    assert after is sent[1] and after.kind == "edit" and "rolled" in after.content and after.png
    assert after.message["id"] == board.message["id"] == str((await records(h))[-1].message_id)


async def test_late_deferral_fallback_a_quick_service_is_answered_directly(tmp_path):
    """With a positive defer delay (the fallback the bot keeps), a service quicker than it is answered
    directly (7: the pressed message updated, 4: a private refusal); a command whose news is for the channel
    defers privately all the same (5), since a new public message goes through the channel, with its nonce.
    The players see what the bot in service shows them after deferring first."""
    seen: dict[str, list[tuple[str, bool, list[str]]]] = {}
    for mode, delay in (("direct", 1.0), ("deferred", None)):
        async with DiscordHarness(make_bot(tmp_path / f"{mode}.db"), defer_after=delay) as h:
            h.users.update(USERS)
            sent = [await h.slash(ANN, "game new", game="toy"), await h.slash(BOB, "game join", colour="blue"),
                    await h.slash(ANN, "game start")]
            board = answer(sent[-1])
            sent.append(await h.press(ANN, board, "Roll"))
            sent.append(await h.slash(EVE, "game play", action="roll"))
            if mode == "direct":
                assert [s[0].response_type for s in sent] == [5, 5, 5, 7, 4]
                assert pressed_edit(sent[3]) is sent[3][0]
            else:
                assert [s[0].response_type for s in sent] == [5, 5, 5, 6, 5]
            last = [answer(s) for s in sent[:3]] + [pressed_edit(sent[3]), answer(sent[4])]
            seen[mode] = [(s.content, s.ephemeral, s.labels) for s in last]
    assert seen["direct"] == seen["deferred"]
    assert [ephemeral for _, ephemeral, _ in seen["direct"]] == [False, False, False, False, True]


async def test_defer_at_once_comes_before_the_service_is_asked(h, monkeypatch):
    board = await started(h)
    h.bot.defer_after = 0
    seen = []
    act = h.bot.service.act

    async def watch(*args, **kwargs):
        seen.append([s.response_type for s in h.sent if s.kind == "callback"][-1])
        return await act(*args, **kwargs)

    monkeypatch.setattr(h.bot.service, "act", watch)
    sent = await h.press(ANN, board, "Roll")
    assert seen == [6] and public(sent)
    r = await h.slash(EVE, "game play", action="roll")
    assert r[0].response_type == 5 and r[0].ephemeral  # a private "thinking" answer first
    assert r[-1].kind == "followup" and r[-1].ephemeral and "no seat" in r[-1].content


async def test_a_deferred_command_posts_its_board_in_public_and_pings(h):
    answer(await h.slash(ANN, "game new", game="toy"))
    answer(await h.slash(BOB, "game join", colour="blue"))
    h.bot.defer_after = 0
    sent = await h.slash(ANN, "game start")
    assert sent[0].response_type == 5 and sent[0].ephemeral
    [board] = public(sent)  # the board is a message of its own in the channel, which notifies the pinged player
    assert board.kind == "channel" and board.labels == ["Roll"] and board.allowed_users == [str(ANN)]
    assert board.payload["nonce"].startswith("jy-")  # posted once, whatever happens to this process
    assert sent[1].kind == "edit" and sent[1].ephemeral  # the private placeholder says where it goes


# Forged and stale input -------------------------------------------------------------------------------


def board_with(board: Sent, custom_id: str) -> dict:
    """The board message as a forger would present it: with an extra button carrying ``custom_id``."""
    msg = dict(board.message)
    msg["components"] = [*msg["components"], {"type": 1, "components": [
        {"type": 2, "style": 2, "label": "x", "custom_id": custom_id}]}]
    return msg


def no_long_user_input(caplog, given: str) -> None:
    """No traceback, and no log line carries more than a short piece of what the user sent."""
    for record in caplog.records:
        message = record.getMessage()
        assert record.exc_info is None, message
        assert all(given[i:i + 100] not in message for i in range(0, len(given) - 99, 10)), message


@pytest.mark.parametrize("forged", [
    "jy:1:0:" + "roll" * 60,                 # longer than Discord allows, matching the button pattern
    "jy:1:" + "9" * 40 + ":roll",            # a move number no game reaches
    "jy:1:0:roll\nroll",                     # no button carries a line break
    "xx:" + "a" * 300,                       # no pattern of ours at all
])
async def test_a_forged_custom_id_gets_a_short_private_answer(h, caplog, forged):
    board = await started(h)
    before = await h.bot.store.games.channel_game(CHANNEL_ID)
    caplog.set_level(logging.DEBUG)
    sent = await h.press_custom_id(EVE, board_with(board, forged), forged)
    r = only(sent)
    assert r.ephemeral and "nothing was changed" in r.content and len(r.content) < 200
    assert await h.bot.store.games.channel_game(CHANNEL_ID) == before
    no_long_user_input(caplog, forged)


async def test_a_press_from_a_future_move_leaves_the_board_its_buttons(h, caplog):
    board = await started(h)
    forged = board.custom_ids[0].replace(":0:", ":5:")
    sent = await h.press_custom_id(ANN, board_with(board, forged), forged)
    r = answer(sent)
    assert r.ephemeral and "nothing was changed" in r.content and not [s for s in sent if s.pressed]
    assert (await h.bot.store.games.channel_game(CHANNEL_ID)).version == 0
    assert public(await h.press(ANN, board, "Roll"))  # the real button still plays


@pytest.mark.parametrize("who", ["stale", "forged", "out of turn", "stranger"])
async def test_a_refused_press_changes_no_message_anyone_else_sees(h, who):
    """Ann's roll updated the turn's message; a second press of the old Roll (stale), a forged button of an old
    move, Bob's press out of turn and a stranger's are refused privately, and the live message keeps the
    buttons the roll gave it."""
    board = await started(h)
    [after] = public(await h.press(ANN, board, "Roll"))
    forged = board.custom_ids[0]  # a move number the game has passed
    user, message, button = {"stale": (ANN, board.message, "Roll"),
                             "forged": (ANN, board_with(after, forged), forged),
                             "out of turn": (BOB, after.message, after.labels[0]),
                             "stranger": (EVE, after.message, after.labels[0])}[who]
    sent = (await h.press_custom_id(user, message, button) if who == "forged"
            else await h.press(user, message, button))
    assert [s.ephemeral for s in shown(sent)] == [True]
    assert not [s for s in sent if s.pressed or s.changes or s.kind in ("edit", "channel")]
    assert (await h.bot.store.games.channel_game(CHANNEL_ID)).version == 1
    assert public(await h.press(ANN, after, after.labels[-1]))  # the live buttons still play


async def test_a_command_the_bot_no_longer_has_is_answered_privately(h, caplog):
    caplog.set_level(logging.DEBUG)
    r = answer(await h.slash_raw(ANN, {"id": "1", "name": "teleport" * 20, "type": 1, "options": []}))
    assert r.ephemeral and "not part of this version" in r.content
    assert not [rec for rec in caplog.records if rec.levelno >= logging.WARNING]
    no_long_user_input(caplog, "teleport" * 20)
    r = answer(await h.slash_raw(ANN, {"id": "2", "name": "game", "type": 1,
                                     "options": [{"name": "vanish", "type": 1, "options": []}]}))
    assert r.ephemeral and "not part of this version" in r.content


# Start-up and memory -------------------------------------------------------------------------------


async def computer_game(h: DiscordHarness, channel: int) -> None:
    svc = h.bot.service
    await svc.new_game(guild_id=1, channel_id=channel, user_id=ANN, user_name="Ann", game_key="toy", join=False)
    await svc.add_computer(channel, ANN)
    await svc.join(channel, ANN, "Ann")


async def test_start_up_loads_no_game_and_resumes_computers_from_the_queue(db_path):
    async with DiscordHarness(make_bot(db_path)) as h1:
        h1.bot.service.autoplay.moves_per_reply = 0  # the process stops before the computers move
        for channel in (CHANNEL_ID, OTHER):
            await computer_game(h1, channel)
            await h1.bot.service.start(channel, ANN)
        assert len(await h1.bot.store.games.waiting_on_computers()) == 2
        h1.bot.service.owner = "the boards are posted"
        h1.bot.service.on_computers = None  # …and before anything wakes them
        assert await h1.bot.outbox.flush(takeover=True) == 8  # the lobbies' news and the first boards
    async with DiscordHarness(make_bot(db_path)) as h2:
        assert await h2.bot.store.games.waiting_on_computers() != []
        await h2.bot.on_ready()
        assert len(h2.bot.service._cache) == 0  # nothing loaded to serve
        await h2.bot.resume_computers()
        await h2.settle()
        # each computer's roll edits its turn's message; the move that ends its turn posts Ann's
        edits = [s for s in h2.sent if s.kind == "edit"]
        assert len(edits) == 2 and all("Computer 1 (random) rolled" in e.content for e in edits)
        boards = posted(h2.sent)
        assert sorted(int(b.message["channel_id"]) for b in boards) == sorted([CHANNEL_ID, OTHER])
        assert all(f"<@{ANN}>, your turn." in b.content for b in boards), [b.content for b in boards]
        assert await h2.bot.store.games.waiting_on_computers() == []


async def test_closing_the_bot_cancels_its_background_work(db_path):
    h = DiscordHarness(make_bot(db_path))
    await h.__aenter__()
    try:
        await h.bot.on_ready()
        background = list(h.bot._background)
        hanging = asyncio.get_running_loop().create_task(asyncio.sleep(3600))
        h.bot.computer_tasks[42] = hanging
    finally:
        await h.bot.close()
        await h.__aexit__(None, None, None)
    assert all(t.done() for t in [*background, hanging]) and not h.bot.computer_tasks


async def test_locks_cache_and_drivers_stay_bounded(h):
    svc = h.bot.service
    svc._cache.size = 3
    for channel in range(1, 8):
        await computer_game(h, channel)
        await svc.start(channel, ANN)
    assert len(svc._locks) == 0  # nobody holds a lock: none is kept
    assert len(svc._cache) <= 3
    kept = svc.autoplay._drivers
    drivers = dict(kept.items())
    assert drivers and all(key[1] == 0 for key in drivers)  # one driver per computer seat, kept
    await svc.play_computers(7)
    rec = await svc.store.games.channel_game(7)
    await svc.act(7, ANN, "roll")
    await svc.act(7, ANN, "pass")
    assert kept.get((rec.id, 0, "random")) is drivers[(rec.id, 0, "random")]  # the same driver moved again


def drawn_where(view: dict, events: list) -> bytes:
    """A stand-in picture that notes, in the file the view names, which process drew it."""
    with open(view["log"], "a", encoding="ascii") as f:
        f.write(f"{os.getpid()}\n")
    return b"png"


async def test_the_picture_processes_start_after_the_first_answers_and_warm_up_first(db_path, tmp_path):
    """At start the bot draws in threads (starting processes would take the cores the first answers need);
    the pool starts with the catch-up work, and its worker draws the first picture before it takes work."""
    from bot.telling.pictures import Pictures

    log = tmp_path / "drawn.txt"
    pictures = Pictures(processes=1)
    bot = make_bot(db_path)
    bot.service.pictures = pictures
    try:
        async with DiscordHarness(bot) as h:
            assert await pictures.draw("toy", drawn_where, {"log": str(log)}, []) == b"png"
            assert log.read_text().split() == [str(os.getpid())] and not pictures._starting  # a thread
            h.bot.catch_up_after = 0
            await h.bot.on_ready()
            assert await asyncio.to_thread(pictures.wait_ready, 120)
            drawn = log.read_text().split()
            assert len(drawn) == 2 and drawn[1] != drawn[0]  # the worker drew it too, before any work
    finally:
        pictures.close()


# Channels side by side ------------------------------------------------------------------------------


class HeldUp:
    """A transport that keeps the posts of chosen records (by nonce) waiting until ``release`` is set, and
    notes in order what reached each channel."""

    def __init__(self, inner, held: set[str]) -> None:
        self.inner = inner
        self.held = held
        self.release = asyncio.Event()
        self.reached: list[tuple[int, str, bool]] = []  # (channel, nonce or "edit", with buttons)
        self.board_posted = asyncio.Event()

    async def post(self, channel_id, message, nonce):
        if nonce in self.held:
            await self.release.wait()
        self.reached.append((channel_id, nonce, bool(message.buttons)))
        if message.buttons:
            self.board_posted.set()
        return await self.inner.post(channel_id, message, nonce)

    async def edit(self, channel_id, message_id, message):
        self.reached.append((channel_id, "edit", bool(message and message.buttons)))
        return await self.inner.edit(channel_id, message_id, message)


async def test_after_a_restart_a_slow_end_message_holds_up_no_board_of_another_channel(db_path):
    """Left over by a stop: the end messages (with a replay) of two finished games, a next game's lobby in the
    first one's channel, and a started game's first board in another channel; only one record without a
    replay is carried out at a time, and one with.
    The first end message is slow to post (held here until released), the second waits for the heavy place:
    the other channel's board is posted meanwhile, through a place of its own; the lobby waits for its
    channel's end message, and follows it."""
    third = CHANNEL_ID + 2
    async with DiscordHarness(make_bot(db_path)) as h1:
        svc = h1.bot.service
        for channel in (CHANNEL_ID, third):
            await play_to_the_end(svc, channel)
        # the games' boards were out before the stop; their end messages were not
        await h1.bot.outbox.deliver(tuple(d.id for d in await h1.bot.store.outbox.deliveries(pending=True)
                                          if not d.payload.get("finale")))
        await svc.new_game(guild_id=1, channel_id=CHANNEL_ID, user_id=BOB, user_name="bob", game_key="toy")
        await svc.new_game(guild_id=1, channel_id=OTHER, user_id=ANN, user_name="ann", game_key="toy")
        await svc.join(OTHER, BOB, "bob")
        await svc.start(OTHER, ANN)
        pending = await h1.bot.store.outbox.deliveries(pending=True)
    ends = {c: next(d for d in pending if d.channel_id == c and d.payload.get("finale")) for c in (CHANNEL_ID, third)}
    lobby = max(d.id for d in pending if d.channel_id == CHANNEL_ID)
    assert lobby > ends[CHANNEL_ID].id
    async with DiscordHarness(make_bot(db_path)) as h2:
        h2.users.update(USERS)
        outbox = h2.bot.outbox
        outbox.places = {"light": 1, "heavy": 1}
        outbox.transport = held = HeldUp(outbox.transport, {f"jy-{ends[CHANNEL_ID].id}"})
        flushing = asyncio.create_task(outbox.flush(takeover=True))
        try:
            await asyncio.wait_for(held.board_posted.wait(), 30)
            assert [(c, b) for c, _, b in held.reached if b] == [(OTHER, True)]  # the new game's live board
            assert f"jy-{lobby}" not in [n for _, n, _ in held.reached]  # its channel's end message is not out
            assert f"jy-{ends[third].id}" not in [n for _, n, _ in held.reached]  # waits for the heavy place
        finally:
            held.release.set()
            await asyncio.wait_for(flushing, 30)
        first = [n for c, n, _ in held.reached if c == CHANNEL_ID and n != "edit"]
        assert first[-2:] == [f"jy-{ends[CHANNEL_ID].id}", f"jy-{lobby}"]  # in the order stored
        assert first == sorted(first, key=lambda n: int(n[3:]))
        assert await h2.bot.store.outbox.deliveries(pending=True) == []
