"""The Discord front end, run offline through the real discord.py stack (see tests/bot/harness.py)."""

from __future__ import annotations

import asyncio
import inspect
import time
from dataclasses import dataclass

import pytest

import bot.games as games
from bot.upkeep.consistency import check_consistency
from tests.bot.harness import CHANNEL_ID, MANAGE_CHANNELS, MEMBER_PERMS, DiscordHarness, Sent
from tests.bot.helpers import ANN, BOB, EVE, MOD, USERS, answer, make_bot, only, pressed_edit, public, shown, started
from tests.bot.toygame import ToyUnitWithCommands


async def test_new_join_start_posts_board_with_buttons(h):
    r = answer(await h.slash(ANN, "game new", game="toy", track="short"))
    assert r.creates_message and not r.ephemeral and "Race to Ten" in r.content
    r = answer(await h.slash(BOB, "game join", colour="blue"))
    assert not r.ephemeral and "joined" in r.content
    r = answer(await h.slash(ANN, "game start"))
    assert not r.ephemeral and r.png is not None and r.png.startswith(b"\x89PNG")
    assert r.labels == ["Roll"]
    [cid] = r.custom_ids
    assert cid.startswith("jy:") and cid.endswith(":0:roll") and len(cid) <= 100
    assert r.allowed_users == [str(ANN)]  # the first player is pinged, nobody else


async def play_by_buttons(h: DiscordHarness, board: Sent) -> Sent:
    """Press Roll, then the largest Move, for whoever is to act, until the game ends."""
    seats = [ANN, BOB]
    for turn in range(60):
        user = seats[turn % 2]
        sent = await h.press(user, board, "Roll")
        [edited] = public(sent)  # the turn goes on: the press answers with its message, edited
        assert pressed_edit(sent) is edited and edited.message["id"] == board.message["id"]
        moves = [label for label in edited.labels if label.startswith("Move")]
        sent = await h.press(user, edited, moves[-1])
        assert pressed_edit(sent).components == []  # the turn's message loses its buttons
        [board] = public(sent)  # and the next turn's message is posted
        if "wins" in board.content:
            return board
        assert f"<@{seats[(turn + 1) % 2]}>, your turn." in board.content
    raise AssertionError("the game did not end")


async def test_two_players_play_to_the_end_with_buttons(h):
    board = await started(h)
    end = await play_by_buttons(h, board)
    assert "Winner" in end.content and end.png and not end.custom_ids
    r = answer(await h.slash(ANN, "game status"))
    assert r.ephemeral and "finished" in r.content
    r = answer(await h.slash(BOB, "game log", moves=5))
    assert r.ephemeral and "wins" in r.content


async def test_play_by_slash_commands_of_a_game_group_is_optional(h):
    """The toy game has no group of its own: `/game status` buttons still let a player move."""
    await started(h)
    r = answer(await h.slash(ANN, "game status"))
    assert r.ephemeral and "You can: roll" in r.content and r.labels == ["Roll"]
    sent = await h.press(ANN, r, "Roll")
    [edited] = public(sent)  # the turn's message, edited in the channel
    assert edited.kind == "edit" and not edited.pressed and "rolled" in edited.content
    status = pressed_edit(sent)  # the private status loses its buttons
    assert status.ephemeral and status.components == []


async def test_stranger_and_out_of_turn_player_are_refused(h):
    board = await started(h)
    before = await h.bot.service.store.games.channel_game(CHANNEL_ID)
    r = answer(await h.press(EVE, board, "Roll"))
    assert r.ephemeral and "no seat" in r.content
    r = answer(await h.press(BOB, board, "Roll"))
    assert r.ephemeral and "not your turn" in r.content and f"<@{ANN}>" in r.content
    assert await h.bot.service.store.games.channel_game(CHANNEL_ID) == before


async def test_same_button_twice_is_applied_once(h):
    board = await started(h)
    first = await h.press(ANN, board, "Roll")
    assert len(public(first)) == 1
    second = await h.press(ANN, board, "Roll")
    assert not any(s.pressed or s.changes for s in second)  # refused: no message anyone sees changes
    [note] = [s for s in second if s.kind == "followup"]
    assert note.ephemeral and "from move 0" in note.content
    rec = await h.bot.service.store.games.channel_game(CHANNEL_ID)
    assert rec.version == 1


async def test_restart_mid_game_old_button_still_works(db_path):
    async with DiscordHarness(make_bot(db_path)) as h1:
        board = await started(h1)
        sent = await h1.press(ANN, board, "Roll")
        [board] = public(sent)
    async with DiscordHarness(make_bot(db_path)) as h2:
        sent = await h2.press(ANN, board.message, board.labels[0])
        [after] = public(sent)
        assert "moved to" in after.content and after.png
        rec = await h2.bot.service.store.games.channel_game(CHANNEL_ID)
        assert rec.version == 2
        await check_consistency(h2.bot.service.store.games, rec.id)


async def test_hidden_card_only_in_an_ephemeral_follow_up(h):
    await started(h)
    _, game, _ = await h.bot.service.current(CHANNEL_ID)
    game.dice.load([6])
    r = answer(await h.slash(ANN, "game status"))
    sent = await h.press(ANN, r, "Roll")
    secret = [s for s in sent if "Your new card" in s.content]
    assert secret and all(s.ephemeral for s in secret)
    assert all("Your new card" not in s.content for s in public(sent))


async def test_private_note_for_another_seat_goes_by_direct_message(h, monkeypatch):
    """A private event for a seat other than the actor's is sent to that player directly."""
    from dataclasses import replace

    from bot.telling.outcomes import Accepted, Private

    board = await started(h)
    original = h.bot.service.act

    async def act(*args, **kwargs):
        accepted = await original(*args, **kwargs)
        assert isinstance(accepted, Accepted)
        return replace(accepted, private=(*accepted.private, Private(1, BOB, "psst")))

    monkeypatch.setattr(h.bot.service, "act", act)
    sent = await h.press(ANN, board, "Roll")
    dm = [s for s in sent if s.dm and "psst" in s.content]
    assert len(dm) == 1 and not any("psst" in s.content for s in public(sent))


async def test_lobby_refusals_are_ephemeral_and_change_nothing(h):
    r = answer(await h.slash(ANN, "game start"))
    assert r.ephemeral and "/game new" in r.content
    answer(await h.slash(ANN, "game new", game="toy"))
    r = answer(await h.slash(EVE, "game new", game="toy"))
    assert r.ephemeral and "already has" in r.content
    r = answer(await h.slash(BOB, "game start"))
    assert r.ephemeral and "Only the host" in r.content
    r = answer(await h.slash(ANN, "game start"))
    assert r.ephemeral and "needs 2–3 players" in r.content
    rec = await h.bot.service.store.games.channel_game(CHANNEL_ID)
    assert rec.status == "lobby" and len(rec.seats) == 1


async def test_malformed_options_are_refused_without_change(h):
    r = answer(await h.slash(ANN, "game new", game="chess"))
    assert r.ephemeral and "no game called" in r.content
    r = answer(await h.slash(ANN, "game new", game="toy", track="x" * 500))
    assert r.ephemeral and "at most 100" in r.content
    assert await h.bot.service.store.games.channel_game(CHANNEL_ID) is None
    answer(await h.slash(ANN, "game new", game="toy"))
    for options, expect in [({"team": 99}, "from 1 to 8"), ({"set": 7}, "from 1 to 2"),
                            ({"colour": "mauve"}, "choose red, blue or green")]:
        r = answer(await h.slash(BOB, "game join", **options))
        assert r.ephemeral and expect in r.content, r.content
    rec = await h.bot.service.store.games.channel_game(CHANNEL_ID)
    assert len(rec.seats) == 1
    r = answer(await h.slash(ANN, "game log", moves=0))
    assert r.ephemeral and "from 1 to 100" in r.content


async def test_game_named_by_its_title(h):
    r = answer(await h.slash(ANN, "game new", game="race TO ten"))
    assert not r.ephemeral and "opened a game of **Race to Ten**" in r.content


async def test_unused_option_is_noted(h):
    r = answer(await h.slash(ANN, "game new", game="toy", teams=True))
    assert not r.ephemeral and "`teams` is not used by Race to Ten; ignored." in r.content


async def test_autocomplete_of_games_tracks_and_colours(h):
    games = await h.autocomplete(ANN, "game new", "game", game="ra")
    assert {"name": "Race to Ten (toy)", "value": "toy"} in games
    tracks = await h.autocomplete(ANN, "game new", "track", game="toy", track="s")
    assert tracks == [{"name": "short", "value": "short"}]
    answer(await h.slash(ANN, "game new", game="toy"))
    answer(await h.slash(BOB, "game join", colour="blue"))
    colours = await h.autocomplete(ANN, "game join", "colour")
    assert [c["value"] for c in colours] == ["red", "green"]


async def test_abort_and_kick_need_host_or_manage_channels(h):
    answer(await h.slash(ANN, "game new", game="toy"))
    answer(await h.slash(BOB, "game join"))
    r = answer(await h.slash(EVE, "game kick", player=BOB))
    assert r.ephemeral and "Only the host" in r.content
    r = answer(await h.slash(MOD, "game kick", player=BOB, permissions=MEMBER_PERMS | MANAGE_CHANNELS))
    assert not r.ephemeral and "removed" in r.content
    r = answer(await h.slash(EVE, "game abort"))
    assert r.ephemeral
    r = answer(await h.slash(MOD, "game abort", permissions=MEMBER_PERMS | MANAGE_CHANNELS))
    assert not r.ephemeral and "ended" in r.content
    assert await h.bot.service.store.games.channel_game(CHANNEL_ID) is None


async def test_button_of_an_aborted_game_is_stale(h):
    board = await started(h)
    answer(await h.slash(ANN, "game abort"))
    sent = await h.press(ANN, board, "Roll")
    assert not any(s.pressed for s in sent)  # the abort took the buttons away already; the press changes nothing
    note = answer(sent)
    assert "ended" in note.content and note.ephemeral


async def test_leave(h):
    answer(await h.slash(ANN, "game new", game="toy"))
    answer(await h.slash(BOB, "game join"))
    r = answer(await h.slash(BOB, "game leave"))
    assert "left" in r.content
    r = answer(await h.slash(BOB, "game leave"))
    assert r.ephemeral and "no seat" in r.content


@dataclass(frozen=True)
class FakeEntry:
    id: str
    title: str
    text: str
    lang: str = "en"
    symbol: str | None = None
    kind: str = "section"


class FakeLookup:
    """Stands in for rules.lookup with the interface /rules uses, for the toy game's two entries."""

    ENTRIES = (FakeEntry("roll", "Rolling", "Roll one die on your turn."),
               FakeEntry("win", "Winning", "Reach ten first."))

    @staticmethod
    def all_games():
        return ["toy"]

    @staticmethod
    def reply_language(question, chosen=None, fallback="en"):
        return chosen or fallback

    @classmethod
    def suggest(cls, game_key, text, limit=25, lang="en"):
        return [e for e in cls.ENTRIES if text.lower() in e.title.lower()][:limit]

    @classmethod
    def find(cls, game_key, text, lang="en"):
        return next((e for e in cls.ENTRIES if text.lower() in (e.id, e.title.lower())), None)

    @classmethod
    def search(cls, game_key, question, limit=3, lang="en"):
        return []

    @classmethod
    def by_id(cls, game_key, entry_id):
        return next((e for e in cls.ENTRIES if e.id == entry_id), None)

    @staticmethod
    def related(game_key, entry):
        return []

    @staticmethod
    def other_named(game_key, entry, question):
        return None


async def test_rules_lookup_with_autocomplete(h, monkeypatch):
    import bot.discord.rules_command as rc

    monkeypatch.setattr(rc, "lookup_module", lambda: FakeLookup)
    choices = await h.autocomplete(ANN, "rules", "topic", game="toy", topic="win")
    assert choices == [{"name": "Winning", "value": "win"}]
    r = answer(await h.slash(ANN, "rules", game="toy", topic="win"))
    assert r.ephemeral and r.embeds[0]["title"] == "Winning" and "Reach ten" in r.embeds[0]["description"]
    r = answer(await h.slash(ANN, "rules", game="toy", topic="roll", share=True))
    assert not r.ephemeral
    r = answer(await h.slash(ANN, "rules", game="toy", topic="flying"))
    assert r.ephemeral and "Nothing in the Race to Ten rules matches" in r.content
    r = answer(await h.slash(ANN, "rules", game="chess", topic="win"))
    assert r.ephemeral and "No rules for a game called `chess`" in r.content


async def test_rules_lookup_defaults_to_the_channel_game(h, monkeypatch):
    import bot.discord.rules_command as rc

    monkeypatch.setattr(rc, "lookup_module", lambda: FakeLookup)
    answer(await h.slash(ANN, "game new", game="toy"))
    choices = await h.autocomplete(ANN, "rules", "topic", topic="roll")
    assert choices == [{"name": "Rolling", "value": "roll"}]


async def test_an_unexpected_error_is_answered_privately(h, monkeypatch, caplog):
    board = await started(h)

    async def broken(*args, **kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(h.bot.service, "status", broken)
    monkeypatch.setattr(h.bot.service, "act", broken)
    r = answer(await h.slash(ANN, "game status"))
    assert r.ephemeral and "Something went wrong" in r.content
    r = answer(await h.press(ANN, board, "Roll"))
    assert r.ephemeral and "Something went wrong" in r.content
    assert "disk on fire" in caplog.text


def test_command_tree_fits_discord_limits(db_path):
    """Every command, group and option (those of each game's own group included) has a lowercase name of
    1–32 characters, a description of 1–100 characters, and at most 25 options."""
    bot = make_bot(db_path)
    names = {c.name for c in bot.tree.get_commands()}
    assert {"game", "rules"} <= names

    def check(d: dict, where: str) -> None:
        name, desc = d["name"], d.get("description", "")
        assert 1 <= len(name) <= 32 and name == name.lower(), where + name
        assert 1 <= len(desc) <= 100, f"{where}{name}: description of {len(desc)} characters"
        assert len(d.get("options", [])) <= 25, where + name
        for choice in d.get("choices", []):
            assert 1 <= len(choice["name"]) <= 100
        for o in d.get("options", []):
            check(o, f"{where}{name} ")

    for command in bot.tree.get_commands():
        check(command.to_dict(bot.tree), "/")


async def test_play_to_the_end_with_slash_commands(h):
    """`/game play` takes any game's notation, with the asker's legal actions as autocomplete."""
    await started(h)
    seats = [ANN, BOB]
    last = None
    for turn in range(60):
        user, other = seats[turn % 2], seats[(turn + 1) % 2]
        assert await h.autocomplete(other, "game play", "action") == []  # not their turn: nothing offered
        assert [c["value"] for c in await h.autocomplete(user, "game play", "action")] == ["roll"]
        sent = await h.slash(user, "game play", action="roll")
        assert [s.ephemeral for s in shown(sent)] == [True, False]  # a private answer; the turn's message edited
        moves = [c["value"] for c in await h.autocomplete(user, "game play", "action", action="mo")]
        assert moves and all(m.startswith("move ") for m in moves)
        last = public(await h.slash(user, "game play", action=moves[-1]))[-1]  # the next turn's, or the last edit
        assert not last.ephemeral and last.png
        if "wins" in last.content:
            break
    assert last is not None and "Winner" in last.content
    rec = (await h.bot.service.store.games.channel_history(CHANNEL_ID))[0]
    assert rec.status == "finished"
    await check_consistency(h.bot.service.store.games, rec.id)
    r = answer(await h.slash(ANN, "game play", action="roll"))
    assert r.ephemeral and "/game new" in r.content


async def test_computer_player_by_slash_command(h):
    answer(await h.slash(ANN, "game new", game="toy"))
    kinds = await h.autocomplete(ANN, "game computer", "kind")
    assert {"name": "random", "value": "random"} in kinds
    r = answer(await h.slash(BOB, "game computer"))
    assert r.ephemeral and "Only the host" in r.content
    r = answer(await h.slash(ANN, "game computer", kind="random"))
    assert not r.ephemeral and "Computer 2 (random)" in r.content  # named by its seat
    r = answer(await h.slash(ANN, "game kick"))
    assert r.ephemeral and "either a `player` or a `seat`" in r.content
    r = answer(await h.slash(ANN, "game kick", seat=2))
    assert not r.ephemeral and "removed" in r.content
    answer(await h.slash(ANN, "game computer"))
    board = answer(await h.slash(ANN, "game start"))
    [after] = public(await h.press(ANN, board, "Roll"))
    mine, after = public(await h.press(ANN, after, after.labels[0]))  # Ann's turn ends; the computer's follows
    assert "Ann moved" in mine.content and not mine.labels and mine.message["id"] == board.message["id"]
    assert "Computer 2 (random) rolled" in after.content and f"<@{ANN}>, your turn." in after.content
    assert after.allowed_users == [str(ANN)] and after.labels == ["Roll"]


async def test_long_computer_sequences_follow_as_channel_messages(h):
    """Computer moves beyond one reply's budget are posted to the channel as they come, ending with the
    next person's ping and buttons."""
    h.bot.service.autoplay.moves_per_reply = 1
    answer(await h.slash(ANN, "game new", game="toy"))
    answer(await h.slash(ANN, "game computer"))
    answer(await h.slash(ANN, "game computer"))
    board = answer(await h.slash(ANN, "game start"))
    [after] = public(await h.press(ANN, board, "Roll"))
    sent = await h.press(ANN, after, "Pass")
    passed = pressed_edit(sent)
    assert "Ann passed." in passed.content and passed.custom_ids == []
    follow = [s for s in public(sent) if s.kind == "channel"]
    edits = [s for s in public(sent) if s.kind == "edit" and not s.pressed]  # besides the press's own answer
    # Computer 2's turn: posted with its roll, edited with its move; Computer 3's turn: posted with its
    # roll; its move hands the turn to Ann in a message of its own, so that she is pinged
    assert len(follow) == 3 and all(s.png for s in follow) and len(edits) == 1
    assert "Computer 2 (random) rolled" in follow[0].content and "Computer 2" in edits[0].content.splitlines()[-1]
    assert "Computer 3 (random) rolled" in follow[1].content
    assert f"<@{ANN}>, your turn." in follow[-1].content and follow[-1].labels == ["Roll"]
    assert follow[-1].allowed_users == [str(ANN)]
    sent = await h.press(ANN, follow[-1], "Roll")
    assert len(public(sent)) == 1


async def test_computer_sequence_cut_by_a_restart_resumes_when_ready(db_path):
    async with DiscordHarness(make_bot(db_path)) as h1:
        h1.bot.service.autoplay.moves_per_reply = 0  # the "crash": no computer moves at all…
        h1.bot.service.on_computers = None  # …and nothing wakes the computers
        answer(await h1.slash(ANN, "game new", game="toy", play=False))
        answer(await h1.slash(ANN, "game computer"))
        answer(await h1.slash(BOB, "game join"))
        board = answer(await h1.slash(ANN, "game start"))
        assert "rolled" not in board.content and not board.custom_ids
        assert not [s for s in h1.sent if "rolled" in s.content]
    async with DiscordHarness(make_bot(db_path)) as h2:
        await h2.bot.resume_computers()
        await h2.settle()
        [edit] = [s for s in h2.sent if s.kind == "edit"]  # the computer's roll goes on in the start's message
        assert "Computer 1 (random) rolled" in edit.content and edit.url.endswith(board.message["id"])
        [posted] = [s for s in h2.sent if s.kind == "channel"]
        assert f"<@{BOB}>, your turn." in posted.content and posted.labels == ["Roll"]


async def test_leaving_mid_game_lets_a_computer_play_on(h):
    board = await started(h)
    [after] = public(await h.press(ANN, board, "Roll"))
    [after] = public(await h.press(ANN, after, "Pass"))
    sent = await h.slash(BOB, "game leave")
    [left, going, posted] = public(sent)  # Bob's leaving; his turn goes on with the computer; it pings Ann
    assert "A computer (random) plays" in left.content and going.kind == "edit" and "rolled" in going.content
    assert posted.kind == "channel" and "moved" in posted.content and f"<@{ANN}>, your turn." in posted.content


# Deferred first, as the bot runs in service -------------------------------------------------------------

@pytest.fixture
async def hd(db_path):
    """The harness around a bot with its own defer delay (the toy with its ``/toy`` group): every acting
    interaction is deferred first."""
    games.register(ToyUnitWithCommands())
    async with DiscordHarness(make_bot(db_path), defer_after=None) as harness:
        harness.users.update(USERS)
        yield harness


async def started_deferred(h: DiscordHarness) -> Sent:
    """As :func:`started`, each answer deferred first: the first board."""
    for user, path, options in ((ANN, "game new", {"game": "toy"}), (BOB, "game join", {"colour": "blue"}),
                                (ANN, "game start", {})):
        sent = await h.slash(user, path, **options)
        assert sent[0].response_type == 5 and sent[0].ephemeral
        [answer] = public(sent)
    return answer


class Waits:
    """Records, for every call that can wait (a store method, a channel's lock), whether the interaction under
    way had already been deferred: its first request a deferral (5: privately "thinking", 6: an update)."""

    def __init__(self, h: DiscordHarness, monkeypatch: pytest.MonkeyPatch) -> None:
        self.h, self.mark, self.calls = h, 0, []
        store, service = h.bot.store, h.bot.service
        for part in (store.games, store.outbox, store.turns, store.settings, store.standings):
            for name, method in inspect.getmembers(part, inspect.iscoroutinefunction):
                if not name.startswith("_"):
                    monkeypatch.setattr(part, name, self._watch(name, method))
        lock = service.lock

        def watched_lock(channel_id: int):
            self._note("lock")
            return lock(channel_id)

        monkeypatch.setattr(service, "lock", watched_lock)

    def _watch(self, name, method):
        async def watched(*args, **kwargs):
            self._note(name)
            return await method(*args, **kwargs)

        return watched

    def _note(self, name: str) -> None:
        first = self.h.sent[self.mark] if len(self.h.sent) > self.mark else None
        self.calls.append((name, first is not None and first.response_type in (5, 6)))

    async def run(self, interaction) -> list[Sent]:
        """Run one interaction (a coroutine of the harness); asserts it waited on nothing before its deferral."""
        self.mark, self.calls = len(self.h.sent), []
        sent = await interaction
        assert sent and sent[0].response_type in (5, 6), sent[:1]
        assert self.calls and all(deferred for _, deferred in self.calls), self.calls
        return sent


async def test_every_acting_interaction_is_deferred_before_it_waits_on_the_store_or_a_lock(hd, monkeypatch):
    w = Waits(hd, monkeypatch)
    new = await w.run(hd.slash(ANN, "game new", game="toy"))
    assert new[0].response_type == 5 and new[0].ephemeral  # privately "thinking" first…
    [opened] = public(new)  # …then the public answer, a message of its own in the channel
    assert opened.kind == "channel" and "Race to Ten" in opened.content
    await w.run(hd.slash(BOB, "game join", colour="blue"))
    sent = await w.run(hd.slash(ANN, "game start"))
    [board] = public(sent)
    assert board.labels == ["Roll"] and board.allowed_users == [str(ANN)]  # a new message: the ping notifies
    sent = await w.run(hd.press(ANN, board, "Roll"))
    assert sent[0].response_type == 6 and not sent[0].ephemeral  # a press defers as an update: nothing shows
    [after] = public(sent)  # the turn's message is edited in place
    assert after.kind == "edit" and after.url.endswith("/messages/@original") and "rolled" in after.content
    assert after.message["id"] == board.message["id"]
    sent = await w.run(hd.slash(ANN, "toy pass"))
    [next_board] = [s for s in public(sent) if s.creates_message]
    assert f"<@{BOB}>, your turn." in next_board.content
    sent = await w.run(hd.slash(BOB, "game play", action="roll"))  # the turn goes on: its message is edited
    assert sent[1].url.endswith("/messages/@original") and "turn's message" in sent[1].content  # privately
    [edited] = public(sent)
    assert edited.url.endswith(f"/messages/{next_board.message['id']}") and "rolled" in edited.content
    for interaction in (hd.slash(ANN, "game status"), hd.slash(BOB, "toy card"), hd.slash(ANN, "game log"),
                        hd.slash(ANN, "game board", private=True), hd.slash(ANN, "stats"),
                        hd.slash(ANN, "game mine"), hd.slash(ANN, "game history")):
        sent = await w.run(interaction)
        assert sent[0].response_type == 5 and all(s.ephemeral for s in sent), [s.content for s in sent]
        assert sent[1].content or sent[1].files or sent[1].embeds  # the placeholder is filled


async def test_a_slow_service_still_answers_and_each_board_reaches_the_channel_once(hd, monkeypatch):
    """The service takes longer than Discord's three seconds would allow undeferred (here scaled down): the
    deferral went first, and every board of a whole game is one public message, recorded with its id."""
    board = await started_deferred(hd)
    act = hd.bot.service.act

    async def slow(*args, **kwargs):
        await asyncio.sleep(0.05)
        return await act(*args, **kwargs)

    monkeypatch.setattr(hd.bot.service, "act", slow)
    seats, posts = [ANN, BOB], [board]
    for turn in range(60):
        user = seats[turn % 2]
        sent = await hd.press(user, board, "Roll")
        assert sent[0].response_type == 6
        [board] = public(sent)
        moves = [label for label in board.labels if label.startswith("Move")]
        sent = await hd.press(user, board, moves[-1])
        assert sent[0].response_type == 6
        [board] = public(sent)  # the next turn's message, or the last turn's edited with the end
        if "wins" in board.content:
            break
        assert board.creates_message and board.kind == "channel"
        posts.append(board)
    assert "Winner" in board.content
    hd.bot.outbox.clock = lambda: time.time() + 60  # the final standings follow a moment later
    before = len(hd.sent)
    assert await hd.bot.outbox.flush() == 1
    [standings] = public(hd.sent[before:])
    assert standings.kind == "channel" and "final standings" in standings.content
    posts.append(standings)
    every = await hd.bot.store.outbox.deliveries()
    assert all(d.delivered for d in every), [(d.kind, d.version, d.payload) for d in every if not d.delivered]
    records = [d for d in every if d.kind in ("post", "edit") or d.payload.get("finale")]  # boards and the end
    shown = [int(p.message["id"]) for p in posts]
    assert len(set(shown)) == len(shown) == len({d.message_id for d in records})
    assert {d.message_id for d in records} == set(shown)  # each message one board's, each board one message


async def test_refusals_after_a_deferral_stay_private(hd):
    board = await started_deferred(hd)
    before = await hd.bot.store.games.channel_game(CHANNEL_ID)
    sent = await hd.press(EVE, board, "Roll")
    assert [s.response_type for s in sent] == [6, None] and sent[1].ephemeral and "no seat" in sent[1].content
    sent = await hd.slash(BOB, "game start")
    assert sent[0].response_type == 5 and all(s.ephemeral for s in sent) and not public(sent)
    assert "already" in sent[1].content or "running" in sent[1].content, sent[1].content
    sent = await hd.slash(EVE, "game play", action="roll")
    assert all(s.ephemeral for s in sent) and "no seat" in sent[-1].content
    assert await hd.bot.store.games.channel_game(CHANNEL_ID) == before


async def test_a_deferred_press_whose_follow_up_fails_posts_the_board_to_the_channel_once(hd):
    board = await started_deferred(hd)
    [board] = public(await hd.press(ANN, board, "Roll"))
    hd.fail("followup", 500, times=2)
    sent = await hd.press(ANN, board, "Pass")
    assert sent[0].response_type == 6
    [plain] = [s for s in public(sent) if s.creates_message]
    assert plain.kind == "channel" and "passed" in plain.content and plain.payload["nonce"].startswith("jy-")
    assert (await hd.bot.store.outbox.deliveries())[-1].message_id == int(plain.message["id"])


async def test_a_deferral_that_came_too_late_posts_the_board_to_the_channel(hd):
    only(public(await hd.slash(ANN, "game new", game="toy")))
    only(public(await hd.slash(BOB, "game join", colour="blue")))
    hd.fail("callback", 404, 10062, times=2)  # the interaction expired before the deferral reached Discord
    sent = await hd.slash(ANN, "game start")
    [plain] = public(sent)
    assert plain.kind == "channel" and plain.labels == ["Roll"]
    boards = [d for d in await hd.bot.store.outbox.deliveries() if d.kind == "post"]
    assert [d.message_id for d in boards] == [int(plain.message["id"])]


async def test_rules_of_the_channel_game_are_deferred_first_and_shared_in_public(hd, monkeypatch):
    """/rules without a game reads the channel's game from the store: it defers first, privately; shared,
    the answer follows in public."""
    import bot.discord.rules_command as rc

    monkeypatch.setattr(rc, "lookup_module", lambda: FakeLookup)
    await started_deferred(hd)
    sent = await hd.slash(ANN, "rules", topic="win")
    assert sent[0].response_type == 5 and all(s.ephemeral for s in sent) and sent[-1].embeds
    sent = await hd.slash(ANN, "rules", topic="win", share=True)
    assert sent[0].response_type == 5 and sent[0].ephemeral
    [shared] = public(sent)
    assert shared.embeds[0]["title"] == "Winning"
    sent = await hd.slash(ANN, "rules", game="toy", topic="win")  # a game named: nothing to wait for
    assert only(sent).response_type == 4 and sent[0].ephemeral


async def test_a_replay_of_a_game_number_past_any_id_is_refused_privately(h, caplog):
    """A number too large for any game (or the database) is a game this channel never had: one private line."""
    await started(h)
    r = answer(await h.slash(ANN, "game replay", game="99999999999999999999"))
    assert r.ephemeral and "#99999999999999999999" in r.content and "went wrong" not in r.content
    assert not [rec for rec in caplog.records if rec.exc_info]


async def test_a_refused_option_is_named_as_the_askers_discord_names_it(h):
    """German Discord shows `/game log`'s option as `züge`: a refusal of its value names it so."""
    await started(h)
    h.locales[ANN] = "de"
    r = answer(await h.slash(ANN, "game log", moves=500))
    assert r.ephemeral and "züge" in r.content and "moves" not in r.content
    h.locales[ANN] = "en-US"
    assert "moves" in answer(await h.slash(ANN, "game log", moves=500)).content
