"""One message per turn: moves that keep the turn edit its message, the move that passes it posts the next
one (with the ping); computers' turns one message each; the edit path through the outbox survives a
crash and falls back to a new post when the message is gone. Through the offline Discord stack."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.games.races.unit import GAME as RACES
from bot.store import EDIT, POST
from bot.telling.compose import trimmed
from rules.races import Races
from tests.bot.harness import CHANNEL_ID, DiscordHarness, Sent
from tests.bot.helpers import ANN, BOB, EVE, USERS, answer, make_bot, pressed_edit, public, shown, started
from tests.bot.toygame import ToyUnit, tiny_png


def posts(sent: list[Sent]) -> list[Sent]:
    """New messages everyone sees (not edits)."""
    return [s for s in public(sent) if s.creates_message]


def edits_of(sent: list[Sent], message_id: str, *, pressed: bool = False) -> list[Sent]:
    """Requests that changed message ``message_id``: a PATCH of it, or (``pressed``: the requests answer a
    press on it) the press's answer changing it."""
    return [s for s in sent if not s.failed and (
        (s.kind == "edit" and s.url.endswith(f"/messages/{message_id}"))
        or (pressed and s.pressed and s.message is not None and s.message["id"] == message_id))]


async def test_a_turn_of_several_moves_edits_one_message_and_the_next_turn_posts_with_the_ping(h):
    board = await started(h)
    mid = board.message["id"]
    sent = await h.press(ANN, board, "Roll")
    assert not posts(sent)  # no new message while Ann's turn goes on
    [edited] = shown(sent)
    assert edited is pressed_edit(sent) and not edited.ephemeral  # the press answers with the edit itself
    assert "begins" in edited.content and "Ann rolled" in edited.content  # the turn's narration so far
    assert edited.png and any(label.startswith("Move") for label in edited.labels)
    assert all(":1:" in c for c in edited.custom_ids)
    roll = (await h.bot.store.outbox.deliveries())[-1]
    assert roll.kind == EDIT and roll.message_id == int(mid) and roll.delivered

    edited = dict(board.message, components=edited.body["components"])  # the message as Discord now shows it
    sent = await h.press(ANN, edited, "Pass")
    [new] = posts(sent)  # the turn passed: a new message, which pings Bob
    assert new.allowed_users == [str(BOB)] and f"<@{BOB}>, your turn." in new.content
    assert "Ann passed." in new.content and "begins" not in new.content
    assert [e.components for e in edits_of(sent, mid, pressed=True)] == [[]]  # Ann's message keeps no buttons
    last = (await h.bot.store.outbox.deliveries())[-1]
    assert last.kind == POST and last.message_id == int(new.message["id"])
    # one message a turn: two boards in the channel for the start and three moves
    assert len([s for s in posts(h.sent) if s.png]) == 2


async def test_a_command_answers_privately_and_the_turn_message_is_edited(h):
    board = await started(h)
    sent = await h.slash(ANN, "game play", action="roll")
    assert not posts(sent)
    ack = [s for s in sent if s.ephemeral]
    assert ack and "turn's message" in ack[-1].content
    [patch] = edits_of(sent, board.message["id"])
    assert patch.kind == "edit" and "Ann rolled" in patch.content and patch.png and patch.labels[-1] == "Pass"
    assert (await h.bot.store.outbox.deliveries())[-1].message_id == int(board.message["id"])


async def test_an_edit_of_a_deleted_message_posts_a_new_one(h):
    board = await started(h)
    h.fail("callback", 404, 10062)  # the press answer expired…
    h.fail("edit", 404, 10008)      # …and the message was deleted meanwhile
    sent = await h.press(ANN, board, "Roll")
    [plain] = [s for s in posts(sent) if s.kind == "channel"]
    assert "Ann rolled" in plain.content and plain.png and plain.labels[-1] == "Pass"
    roll = (await h.bot.store.outbox.deliveries())[-1]
    assert roll.message_id == int(plain.message["id"])
    # the turn goes on in the new message
    sent = await h.slash(ANN, "game play", action="move 1")
    assert [s for s in posts(sent) if f"<@{BOB}>" in s.content]


async def test_computers_turns_are_one_message_each(h):
    """Ann passes to two computers: her pass ends her turn in its message; each computer's whole turn is one
    message of its own (its picture shows its own move), and the last one pings Ann."""
    answer(await h.slash(ANN, "game new", game="toy"))
    answer(await h.slash(ANN, "game computer"))
    answer(await h.slash(ANN, "game computer"))
    board = answer(await h.slash(ANN, "game start"))
    sent = await h.press(ANN, board, "Roll")
    sent = await h.press(ANN, dict(board.message, components=pressed_edit(sent).body["components"]), "Pass")
    assert pressed_edit(sent).content.splitlines()[-2] == "Ann passed."
    new = posts(sent)
    assert len(new) == 2, [s.content for s in new]
    first, second = (s.content.splitlines() for s in new)
    assert all(line.startswith("Computer 2 (random) ") for line in first) and len(first) == 2
    assert all(line.startswith("Computer 3 (random) ") for line in second[:-1]) and len(second) == 3
    assert second[-1] == f"<@{ANN}>, your turn." and new[1].allowed_users == [str(ANN)]
    assert new[0].allowed_users == [] and not new[0].labels and new[1].labels == ["Roll"]
    records = [r for r in await h.bot.store.outbox.deliveries() if r.kind != "note"]  # the lobby's news aside
    assert [r.kind for r in records] == [POST, EDIT, EDIT, POST, POST]
    assert all(r.delivered for r in records)


async def test_an_edit_stored_before_a_crash_is_applied_once_at_start_up(db_path):
    async with DiscordHarness(make_bot(db_path)) as h1:
        board = await started(h1)
        accepted = await h1.bot.service.act(CHANNEL_ID, ANN, "roll")  # stored; the edit never happens
        record = await h1.bot.store.outbox.delivery(accepted.deliveries[-1])
        assert record.kind == EDIT and record.payload["message"] == int(board.message["id"])
    for run in range(2):
        async with DiscordHarness(make_bot(db_path)) as h2:
            h2.users.update(USERS)
            assert await h2.bot.outbox.flush(takeover=True) == (1 if run == 0 else 0)
            if run == 0:
                [patch] = edits_of(h2.sent, board.message["id"])
                assert "rolled" in patch.content and patch.png and all(":1:" in c for c in patch.custom_ids)
                assert not posts(h2.sent)  # no second message
                [pending] = [d for d in await h2.bot.store.outbox.deliveries() if d.kind == EDIT]
                assert pending.delivered and pending.message_id == int(board.message["id"])


async def test_an_edit_stored_before_its_message_was_posted_waits_for_it(db_path):
    """Both the turn's post and its edit were left by a crash (with the lobby's news before them): the post
    goes first, then the edit changes it."""
    async with DiscordHarness(make_bot(db_path)) as h1:
        await h1.bot.service.new_game(guild_id=1, channel_id=CHANNEL_ID, user_id=ANN, user_name="Ann",
                                      game_key="toy")
        await h1.bot.service.join(CHANNEL_ID, BOB, "Bob")
        await h1.bot.service.start(CHANNEL_ID, ANN)
        await h1.bot.service.act(CHANNEL_ID, ANN, "roll")
    async with DiscordHarness(make_bot(db_path)) as h2:
        assert await h2.bot.outbox.flush(takeover=True) == 4
        *news, post = posts(h2.sent)
        assert len(news) == 2 and "opened a game" in news[0].content and "joined" in news[1].content
        [patch] = edits_of(h2.sent, post.message["id"])
        assert "Ann rolled" in patch.content and patch.labels[-1] == "Pass"
        assert len(h2.sent) == 4


async def test_narration_of_a_long_turn_keeps_its_newest_lines():
    lines = [f"step {i} " + "x" * 90 for i in range(40)]
    kept = trimmed(lines)
    assert kept[0] == "…" and kept[-1] == lines[-1] and sum(len(x) + 1 for x in kept) <= 1500 + 2


# The whole board, "Where can I go?" and the whole board at a new period ---------------------------------


def png_size(data: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(data)) as img:
        return img.size


async def test_game_board_in_public_for_a_player_and_privately_for_anyone(h):
    await started(h)
    board = answer(await h.slash(ANN, "game board"))
    assert not board.ephemeral and board.png and f"shown by <@{ANN}>" in board.content
    mine = answer(await h.slash(EVE, "game board", private=True))
    assert mine.ephemeral and mine.png and "whole board" in mine.content
    refused = answer(await h.slash(EVE, "game board"))
    assert refused.ephemeral and not refused.png and "Only a player" in refused.content
    assert (await h.bot.store.games.channel_game(CHANNEL_ID)).version == 0  # looking changes nothing


async def test_the_turn_message_that_begins_a_new_period_shows_the_whole_board(h, monkeypatch):
    """A game says when a new period begins (for a race: the first kart starts a new lap); the turn's
    message posted then shows the whole board instead of the close-up, and keeps it while edited."""
    monkeypatch.setattr(ToyUnit, "period", lambda self, game: sum(game.pos) > 0, raising=False)
    whole = tiny_png({"pos": [0, 0], "names": ["x", "y"]})  # any PNG the close-up never is
    monkeypatch.setattr(ToyUnit, "board_picture", lambda self, view, lang="en", moves=None: whole + b"whole",
                        raising=False)
    board = await started(h)
    [rolled_] = public(await h.press(ANN, board, "Roll"))
    assert not rolled_.png.endswith(b"whole")
    [moved] = posts(await h.press(ANN, rolled_, "Move 1"))  # Ann is the first on the way: a new period
    assert moved.png.endswith(b"whole")
    [edited] = public(await h.press(BOB, moved, "Roll"))  # Bob's turn goes on in that message
    assert edited.png.endswith(b"whole")
    [nxt] = posts(await h.press(BOB, edited, "Pass"))  # the period is the same: the close-up again
    assert not nxt.png.endswith(b"whole")


def test_a_race_period_is_the_lap_the_leader_drives():
    race = Races.create({"seats": [{"name": "a"}, {"name": "b"}], "options": {"laps": 3}}, 1)
    assert RACES.period(race) == 0
    race.karts[1].flags = 2
    assert RACES.period(race) == 2


async def race_to_drive(h: DiscordHarness) -> tuple[Sent, int, int]:
    """A race on track A where the first player has entered and rolled: the turn's message, who drives, the other."""
    answer(await h.slash(ANN, "game new", game="races", track="A", laps=1))
    answer(await h.slash(ANN, "game join", colour="red"))
    answer(await h.slash(BOB, "game join", colour="blue"))
    board = answer(await h.slash(ANN, "game start"))
    _, game, _ = await h.bot.service.current(CHANNEL_ID)
    driver, other = (ANN, BOB) if game.to_act == 0 else (BOB, ANN)
    assert "Where can I go?" not in board.labels  # choosing a start cell: not driving yet
    board = public(await h.press(driver, board, board.labels[0]))[-1]
    assert "Where can I go?" not in board.labels  # the dice are not rolled yet
    board = public(await h.press(driver, board, "Roll 3"))[-1]
    return board, driver, other


async def test_where_can_i_go_answers_the_driver_privately_with_a_picture(h):
    board, driver, other = await race_to_drive(h)
    assert board.labels[-1] == "Where can I go?"
    before = len(h.sent)
    sent = await h.press(driver, board, "Where can I go?")
    assert sent[0].response_type == 5 and sent[0].ephemeral  # deferred privately first
    [picture] = [s for s in sent if s.png]
    assert picture.ephemeral and picture.png.startswith(b"\x89PNG") and "only you see" in picture.content
    assert not public(h.sent[before:]) and not any(s.pressed for s in sent)  # the turn's message is left as it is
    refused = [s for s in await h.press(other, board, "Where can I go?") if s.content]
    assert refused and all(s.ephemeral and not s.png for s in refused)
    assert "Only the player driving" in refused[-1].content
    status = answer(await h.slash(driver, "game status"))
    assert status.ephemeral and status.labels[-1] == "Where can I go?"
    assert "Where can I go?" not in answer(await h.slash(other, "game status")).labels


async def test_status_shows_the_whole_board(h):
    board, driver, _ = await race_to_drive(h)
    status = answer(await h.slash(driver, "game status"))
    _, game, _ = await h.bot.service.current(CHANNEL_ID)
    assert png_size(status.png) == png_size(RACES.board_picture(game.view(None)))
    assert png_size(status.png) != png_size(board.png)  # not the close-up of the turn's message


@pytest.mark.parametrize("key", ["races", "rally", "piecepack"])
async def test_a_persons_moves_edit_the_message_that_pinged_them_in_every_game(store, key):
    """A person playing computers: the message that pings them at their turn is the one their moves edit (a
    computer's move that hands the turn over is told in it), so no move of theirs posts a second message."""
    from bot.drivers import driver_for
    from bot.play.service import Service
    from tests.bot.speaking import Speaking

    service = Speaking(Service(store, seed_source=lambda: 4))
    options = {"laps": 3, "track": "A"} if key == "races" else {"laps": 1} if key == "rally" else {}
    assert (await service.new_game(guild_id=1, channel_id=CHANNEL_ID, user_id=ANN, user_name="Ann", game_key=key,
                                   options=options)).ok
    for _ in range(2):
        assert (await service.add_computer(CHANNEL_ID, ANN, "smart")).ok
    pinged = [(await service.start(CHANNEL_ID, ANN)).mention]
    person, turns, posts_ = driver_for(key, "random", 5), 0, 0
    for _ in range(400):
        while (batch := await service.play_computers(CHANNEL_ID)) is not None:
            pinged.append(batch.mention)
        rec, game, _ = await service.current(CHANNEL_ID)
        if rec is None or game is None or game.is_over:
            break
        turns += pinged[-1] == ANN
        while not game.is_over and game.to_act == 0:
            moved = await service.act(CHANNEL_ID, ANN, str(person.choose(game, 0)))
            assert moved.ok, moved.text
            posts_ += "post" in moved.kinds
            _, game, _ = await service.current(CHANNEL_ID)
    assert turns >= 3 and posts_ == 0, (turns, posts_)
