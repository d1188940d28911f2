"""A channel that refuses the bot (a permission missing, a thread archived) loses nothing: the acting player
is told privately what is missing, the move's board waits, and it arrives once, with its live buttons, as
soon as the bot may post again (the next interaction there, a permission change the gateway reports, the
slow retry). And games in threads: opened by ``/game new thread:``, reopened when Discord archives them,
archived at their end, kept by a restart. All through the offline Discord stack."""

from __future__ import annotations

import time
from types import SimpleNamespace

import discord
import pytest

from bot.discord.threads import THREAD
from bot.telling.delivery import HELD, HELD_RETRY
from tests.bot.harness import CHANNEL_ID, GUILD_ID, DiscordHarness, Sent
from tests.bot.helpers import ANN, BOB, USERS, answer, make_bot, public

VIEW = discord.Permissions(view_channel=True).value
SEND = discord.Permissions(send_messages=True).value
ATTACH = discord.Permissions(attach_files=True).value
MANAGE_THREADS = discord.Permissions(manage_threads=True).value

#: each permission whose absence refuses a post: its bit, its name in Discord's settings, the code Discord answers
REFUSING = [(SEND, "Send Messages", 50013), (ATTACH, "Attach Files", 50013), (VIEW, "View Channel", 50001)]


def posted(sent: list[Sent], channel: int = CHANNEL_ID) -> list[Sent]:
    """Messages posted into ``channel`` (not interaction answers)."""
    return [s for s in public(sent) if s.kind == "channel" and f"/channels/{channel}/" in s.url]


def refused(sent: list[Sent]) -> list[Sent]:
    """Channel posts Discord refused."""
    return [s for s in sent if s.kind == "channel" and s.failed]


def private(sent: list[Sent]) -> list[str]:
    """What only the asker saw, in order."""
    return [s.content for s in sent if s.ephemeral and not s.failed and s.content]


async def started_in(h: DiscordHarness, channel: int = CHANNEL_ID) -> Sent:
    """Ann opens a toy game in ``channel``, Bob joins, Ann starts it: the first board."""
    answer(await h.slash(ANN, "game new", game="toy", channel_id=channel))
    answer(await h.slash(BOB, "game join", colour="blue", channel_id=channel))
    return answer(await h.slash(ANN, "game start", channel_id=channel))


async def rolled_in(h: DiscordHarness, channel: int = CHANNEL_ID) -> Sent:
    """Ann has rolled (her turn's message edited); her Pass hands the turn to Bob with a new message."""
    board = await started_in(h, channel)
    [after] = public(await h.press(ANN, board, "Roll", channel_id=channel))
    return after


async def waiting(h: DiscordHarness, channel: int = CHANNEL_ID) -> list[int]:
    """The records waiting for ``channel``, by version."""
    return [d.version for d in await h.bot.store.outbox.deliveries(pending=True) if d.channel_id == channel]


def bobs_board(sent: list[Sent], channel: int = CHANNEL_ID) -> Sent:
    """The one board of move 2 posted (Ann passed; Bob's turn), with its live buttons."""
    [board] = posted(sent, channel)
    assert "passed" in board.content and board.png and board.custom_ids
    assert all(":2:" in c for c in board.custom_ids)
    return board


async def refused_pass(h: DiscordHarness, bit: int, name: str, code: int, channel: int = CHANNEL_ID) -> Sent:
    """Ann passes while the bot lacks ``bit`` in ``channel``: stored, nothing posted, the board waits, and
    Ann alone is told which permission is missing and where to give it."""
    board = await rolled_in(h, channel)
    h.deny(channel, bit)
    sent = await h.press(ANN, board, "Pass", channel_id=channel)
    assert not posted(sent, channel)
    [failure] = refused(sent)
    assert failure.refusal == (403, code)
    assert (await h.bot.store.games.channel_game(channel)).version == 2
    assert await waiting(h, channel) == [2]
    [told] = private(sent)
    assert name in told and f"<#{channel}>" in told and "Permissions" in told
    assert (await h.bot.store.settings.get_settings(HELD, channel))["games"]
    return board


@pytest.mark.parametrize(("bit", "name", "code"), REFUSING, ids=["send", "attach", "view"])
async def test_a_missing_permission_keeps_the_board_until_the_next_interaction_there(h, bit, name, code):
    await refused_pass(h, bit, name, code)
    h.grant(CHANNEL_ID, bit)
    sent = await h.slash(BOB, "game status")
    board = bobs_board(sent)
    assert await waiting(h) == []
    # exactly once: neither the next interaction nor the slow retry posts it again
    again = await h.slash(BOB, "game status")
    h.bot.outbox.clock = lambda: time.time() + 2 * HELD_RETRY
    assert await h.bot.outbox.flush() == 0
    assert not posted(again) and not posted(h.sent[h.sent.index(board) + 1:])
    # its buttons play on
    [after] = public(await h.press(BOB, board, "Roll"))
    assert "rolled" in after.content


async def test_a_permission_change_the_gateway_reports_delivers_the_board(h):
    await refused_pass(h, SEND, "Send Messages", 50013)
    start = len(h.sent)
    guild = SimpleNamespace(id=GUILD_ID)
    h.bot.dispatch("guild_channel_update", SimpleNamespace(id=CHANNEL_ID, guild=guild),
                   SimpleNamespace(id=CHANNEL_ID, guild=guild))
    await h.settle()
    assert refused(h.sent[start:]) and not posted(h.sent[start:])  # still missing: it waits again
    assert await waiting(h) == [2]
    h.grant(CHANNEL_ID, SEND)
    start = len(h.sent)
    h.bot.dispatch("guild_role_update", SimpleNamespace(id=1, guild=guild), SimpleNamespace(id=1, guild=guild))
    await h.settle()
    bobs_board(h.sent[start:])
    h.bot.dispatch("guild_channel_update", SimpleNamespace(id=CHANNEL_ID, guild=guild),
                   SimpleNamespace(id=CHANNEL_ID, guild=guild))
    await h.settle()
    assert len(posted(h.sent[start:])) == 1


async def test_the_bot_given_a_role_delivers_the_board(h):
    await refused_pass(h, ATTACH, "Attach Files", 50013)
    h.grant(CHANNEL_ID, ATTACH)
    start = len(h.sent)
    other = SimpleNamespace(id=BOB, guild=SimpleNamespace(id=GUILD_ID))
    h.bot.dispatch("member_update", other, other)  # someone else's roles: nothing to do
    await h.settle()
    assert not posted(h.sent[start:])
    me = SimpleNamespace(id=h.bot.user.id, guild=SimpleNamespace(id=GUILD_ID))
    h.bot.dispatch("member_update", me, me)
    await h.settle()
    bobs_board(h.sent[start:])


async def test_the_slow_retry_delivers_the_board_once(h):
    await refused_pass(h, VIEW, "View Channel", 50001)
    assert await h.bot.outbox.flush() == 0  # not due before the slow retry
    h.grant(CHANNEL_ID, VIEW)
    h.bot.outbox.clock = lambda: time.time() + HELD_RETRY + 1
    start = len(h.sent)
    assert await h.bot.outbox.flush() == 1
    bobs_board(h.sent[start:])
    assert await h.bot.outbox.flush() == 0 and await waiting(h) == []


async def test_a_play_command_refused_by_the_channel_is_not_told_done(h):
    await rolled_in(h)
    h.deny(CHANNEL_ID, SEND)
    sent = await h.slash(ANN, "game play", action="pass")
    told = answer(sent)
    assert told.ephemeral and "Send Messages" in told.content and "see the channel" not in told.content
    assert not posted(sent) and await waiting(h) == [2]


async def test_a_refusal_the_permissions_did_not_foretell_corrects_the_answer(h):
    """The interaction's permissions look complete, yet the channel refuses (a change in between): the
    command's answer is corrected from "Done" to what is missing."""
    await rolled_in(h)
    h.fail("channel", 403, 50013)
    sent = await h.slash(ANN, "game play", action="pass")
    [*_, last] = [s for s in sent if s.ephemeral and not s.failed and s.content]
    assert "Send Messages" in last.content and await waiting(h) == [2]


async def test_the_player_is_told_in_german(h):
    h.locales[ANN] = "de"
    board = await rolled_in(h)
    h.deny(CHANNEL_ID, SEND)
    sent = await h.press(ANN, board, "Pass")
    [told] = private(sent)
    assert "Nachrichten senden" in told and "Berechtigungen" in told


# Permissions checked up front ---------------------------------------------------------------------


async def test_a_new_game_without_an_essential_permission_is_refused_with_what_is_missing(h):
    h.deny(CHANNEL_ID, ATTACH | discord.Permissions(embed_links=True).value)
    told = answer(await h.slash(ANN, "game new", game="toy"))
    assert told.ephemeral and "Attach Files" in told.content and "Embed Links" in told.content
    assert "the bot's role" in told.content
    assert await h.bot.store.games.channel_game(CHANNEL_ID) is None


async def test_a_new_game_in_a_thread_without_manage_threads_gets_a_note(h):
    thread = h.thread()
    h.deny(thread, MANAGE_THREADS)
    sent = await h.slash(ANN, "game new", game="toy", channel_id=thread)
    assert posted(sent, thread)  # the lobby is open
    assert any("Manage Threads" in text for text in private(sent))
    assert (await h.bot.store.games.channel_game(thread)) is not None


async def test_starting_without_send_messages_says_so_instead_of_done(h):
    answer(await h.slash(ANN, "game new", game="toy"))
    answer(await h.slash(BOB, "game join", colour="blue"))
    h.deny(CHANNEL_ID, SEND)
    told = answer(await h.slash(ANN, "game start"))
    assert "Send Messages" in told.content and "see the channel" not in told.content
    h.grant(CHANNEL_ID, SEND)
    sent = await h.slash(BOB, "game status")
    [board] = posted(sent)
    assert board.labels == ["Roll"]


# Games in threads ----------------------------------------------------------------------------------


@pytest.mark.parametrize("private_thread", [False, True], ids=["public", "private"])
async def test_a_game_lives_in_a_thread_as_in_a_channel(h, private_thread):
    thread = h.thread(private=private_thread)
    board = await rolled_in(h, thread)
    assert f"/channels/{thread}/" in h.sent[h.sent.index(board)].url or board.pressed
    sent = await h.press(ANN, board, "Pass", channel_id=thread)
    bobs_board(sent, thread)
    assert await h.bot.store.games.channel_game(CHANNEL_ID) is None  # the parent channel is free


async def test_an_archived_thread_is_reopened_before_the_board_is_posted(h):
    thread = h.thread()
    board = await rolled_in(h, thread)
    h.archive(thread)
    sent = await h.press(ANN, board, "Pass", channel_id=thread)
    reopen = [s for s in sent if s.method == "PATCH" and s.path == "/channels/{channel_id}"]
    assert [s.payload for s in reopen] == [{"archived": False}]
    bobs_board(sent, thread)
    assert not h.threads[thread]["archived"] and not private(sent)


async def test_an_archived_thread_the_bot_may_not_reopen_waits_for_a_manual_unarchive(h):
    thread = h.thread()
    board = await rolled_in(h, thread)
    h.deny(thread, MANAGE_THREADS)
    h.archive(thread)
    sent = await h.press(ANN, board, "Pass", channel_id=thread)
    assert not posted(sent, thread) and await waiting(h, thread) == [2]
    [told] = private(sent)
    assert "archived" in told and "Unarchive" in told
    h.archive(thread, False)  # someone reopens it by hand; the gateway tells the bot
    start = len(h.sent)
    h.bot.dispatch("thread_update", SimpleNamespace(id=thread, archived=True),
                   SimpleNamespace(id=thread, archived=False))
    await h.settle()
    bobs_board(h.sent[start:], thread)
    assert await waiting(h, thread) == []


async def test_game_new_with_thread_opens_one_and_the_game_lives_there(h):
    sent = await h.slash(ANN, "game new", game="toy", thread=True)
    [opened] = [s for s in sent if s.method == "POST" and s.path == "/channels/{channel_id}/threads"]
    assert f"/channels/{CHANNEL_ID}/threads" in opened.url
    assert opened.payload["name"] == "Race to Ten – Ann's game"
    assert opened.payload["auto_archive_duration"] == 10080 and opened.payload["type"] == 11
    [thread] = h.threads
    [lobby] = posted(sent, thread)
    assert "opened a game" in lobby.content
    [pointer] = [s for s in public(sent) if f"<#{thread}>" in s.content]
    assert pointer.kind != "channel" or f"/channels/{CHANNEL_ID}/" in pointer.url
    assert await h.bot.store.games.channel_game(CHANNEL_ID) is None
    assert (await h.bot.store.games.channel_game(thread)) is not None
    answer(await h.slash(BOB, "game join", colour="blue", channel_id=thread))
    board = answer(await h.slash(ANN, "game start", channel_id=thread))
    assert board.labels == ["Roll"] and f"/channels/{thread}/" in board.url
    # the game ends: its thread is archived
    answer(await h.slash(ANN, "game abort", channel_id=thread))
    await h.settle()
    assert h.threads[thread]["archived"]
    assert await h.bot.store.settings.get_settings(THREAD, thread) == {}


async def test_game_new_with_thread_needs_create_public_threads(h):
    h.deny(CHANNEL_ID, discord.Permissions(create_public_threads=True).value)
    told = answer(await h.slash(ANN, "game new", game="toy", thread=True))
    assert "Create Public Threads" in told.content and not h.threads
    assert await h.bot.store.games.channel_game(CHANNEL_ID) is None


async def test_a_restart_keeps_every_threads_game(db_path):
    async with DiscordHarness(make_bot(db_path)) as h1:
        h1.users.update(USERS)
        first, second = h1.thread(), h1.thread(private=True)
        boards = {thread: await rolled_in(h1, thread) for thread in (first, second)}
        known = dict(h1.threads)
    async with DiscordHarness(make_bot(db_path)) as h2:
        h2.users.update(USERS)
        h2.threads.update(known)
        for thread, board in boards.items():
            sent = await h2.press(ANN, board.message, "Pass", channel_id=thread)
            bobs_board(sent, thread)
            assert (await h2.bot.store.games.channel_game(thread)).version == 2


async def test_a_finished_games_thread_is_archived_once_its_last_messages_are_out(h, monkeypatch):
    thread = h.thread()
    await started_in(h, thread)
    service = h.bot.service
    while (rec := await service.store.games.channel_game(thread)) is not None:
        game = await service.load(rec)
        user = rec.seats[game.to_act].user_id
        await h.slash(user, "game play", action="roll" if game.rolled is None else f"move {game.rolled}",
                      channel_id=thread)
        assert not h.threads[thread]["archived"] or await service.store.games.channel_game(thread) is None
    await h.bot.outbox.flush()  # the end message, as the outbox worker posts it
    await h.settle()
    assert h.threads[thread]["archived"]
    [end] = [d for d in await service.store.outbox.deliveries() if d.kind == "note"][-1:]
    assert end.delivered and end.message_id is not None


async def test_a_refused_game_new_with_thread_puts_its_thread_away(h):
    told = answer(await h.slash(ANN, "game new", game="toy", thread=True, track="nowhere"))
    assert told.ephemeral and "unknown track" in told.content
    [thread] = h.threads
    assert h.threads[thread]["archived"] and await h.bot.store.games.channel_game(thread) is None


async def test_the_thread_requests_are_what_discords_specification_allows(h, discord_spec):
    """Opening a game's thread, reopening it, archiving it at the end: each request as the specification
    types its route's body."""
    from tests.bot import discord_spec as ds

    await h.slash(ANN, "game new", game="toy", thread=True)
    [thread] = h.threads
    answer(await h.slash(BOB, "game join", colour="blue", channel_id=thread))
    board = answer(await h.slash(ANN, "game start", channel_id=thread))
    h.archive(thread)
    await h.press(ANN, board, "Roll", channel_id=thread)
    await h.slash(ANN, "game play", action="pass", channel_id=thread)
    answer(await h.slash(ANN, "game abort", channel_id=thread))
    await h.settle()
    routes = [s for s in h.sent if s.path in ("/channels/{channel_id}", "/channels/{channel_id}/threads")]
    assert {(s.method, s.path) for s in routes} == {("POST", "/channels/{channel_id}/threads"),
                                                    ("PATCH", "/channels/{channel_id}")}
    assert {s.payload.get("archived") for s in routes if s.method == "PATCH"} == {False, True}
    problems = [p for s in routes for p in ds.request_problems(discord_spec, s.method, s.path, s.payload, s.parts)]
    assert problems == []
