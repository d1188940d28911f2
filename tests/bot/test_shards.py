"""Shards: ``junkyard bot --shard-count N --shard-ids 0,1`` runs those of Discord's shards; a game belongs to
its server's shard, and a process serves, resumes and times only its own shards' games."""

from __future__ import annotations

import time

import pytest

from bot import texts
from bot.cli import build_parser, main
from bot.clock.timers import REMIND
from bot.commands.bot import check_shards, shown_db
from bot.discord import JunkyardBot
from bot.discord.shards import OTHER_SHARD, ShardedJunkyardBot, make_bot
from bot.play.service import Service
from bot.store import NewTimer, SqliteStore, shard_of
from tests.bot.harness import CHANNEL_ID, GUILD_ID, DiscordHarness
from tests.bot.helpers import ANN, BOB, USERS, answer, public

#: two servers, on shard 0 and shard 1 of two
GUILD_0 = next(g for g in range(GUILD_ID, GUILD_ID + (8 << 22), 1 << 22) if shard_of(g, 2) == 0)
GUILD_1 = next(g for g in range(GUILD_ID, GUILD_ID + (8 << 22), 1 << 22) if shard_of(g, 2) == 1)
SECRET = "MTIz.secret-token-value"


# Flags -------------------------------------------------------------------------------------------


def test_shard_flags_are_parsed_and_checked():
    args = build_parser().parse_args(["bot", "--shard-count", "4", "--shard-ids", "3,1"])
    assert (args.shard_count, args.shard_ids) == (4, [1, 3])
    assert check_shards(4, [1, 3]) == (4, [1, 3])
    assert check_shards(3, None) == (3, [0, 1, 2])  # the count alone: every shard
    assert check_shards(None, None) is None  # not sharded: one connection, every server
    for count, ids, message in ((None, [0], "needs --shard-count"), (2, [2], "2 is beyond"),
                                (0, None, "at least 1")):
        with pytest.raises(ValueError, match=message):
            check_shards(count, ids)


@pytest.mark.parametrize("ids", ["0,x", "1,1", "-1", ","])
def test_shard_ids_that_are_not_distinct_numbers_are_a_usage_error(ids, capsys):
    with pytest.raises(SystemExit) as exit_:
        build_parser().parse_args(["bot", "--shard-count", "2", "--shard-ids", ids])
    assert exit_.value.code == 2 and "--shard-ids" in capsys.readouterr().err


def test_shard_ids_without_a_count_exit_with_one_line(monkeypatch, capsys):
    monkeypatch.setenv("DISCORD_TOKEN", SECRET)
    assert main(["bot", "--shard-ids", "0,1", "--db", "unused.db"]) == 2
    err = capsys.readouterr().err
    assert "--shard-ids needs --shard-count" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(("flags", "kind", "ids", "served"), [
    (["--shard-count", "4", "--shard-ids", "1,3"], ShardedJunkyardBot, [1, 3], (4, (1, 3))),
    (["--shard-count", "2"], ShardedJunkyardBot, None, None),  # every shard: the store serves every game
    ([], JunkyardBot, None, None),
])
def test_the_bot_runs_the_shards_it_is_given_and_its_store_serves_their_games(monkeypatch, tmp_path, flags, kind,
                                                                               ids, served):
    import signal

    seen = {}

    def fake_run(self, token, **kwargs):
        seen["bot"] = self

    monkeypatch.setattr(JunkyardBot, "run", fake_run)
    monkeypatch.setattr(signal, "signal", lambda *args: None)
    monkeypatch.setattr("discord.utils.setup_logging", lambda **kwargs: None)
    monkeypatch.setenv("DISCORD_TOKEN", SECRET)
    assert main(["bot", "--db", str(tmp_path / "g.db"), *flags]) == 0
    bot = seen["bot"]
    assert type(bot) is kind and bot.store.shards == served
    if kind is ShardedJunkyardBot:
        assert bot.shard_count == int(flags[1]) and bot.shard_ids == (ids or list(range(int(flags[1]))))


@pytest.mark.parametrize("how", ["--db", "JUNKYARD_DB"])
def test_a_postgresql_url_runs_the_bot_on_postgresql_and_its_password_stays_out_of_the_log(monkeypatch, caplog, how):
    import logging
    import signal

    seen = {}
    monkeypatch.setattr(JunkyardBot, "run", lambda self, token, **kwargs: seen.setdefault("bot", self))
    monkeypatch.setattr(signal, "signal", lambda *args: None)

    async def nothing(self, *args) -> None:  # the store's check before logging in, without a server to reach
        return None

    async def schema(self) -> int:
        return 1

    monkeypatch.setattr("bot.store.postgres.PostgresStore.open", nothing)
    monkeypatch.setattr("bot.store.postgres.PostgresStore.close", nothing)
    monkeypatch.setattr("bot.store.postgres.PostgresStore.schema_version", schema)
    monkeypatch.setattr("discord.utils.setup_logging", lambda **kwargs: None)
    monkeypatch.setenv("DISCORD_TOKEN", SECRET)
    url = "postgresql://jy:s3cret@db.example:5432/games"
    monkeypatch.setenv("JUNKYARD_DB", url if how == "JUNKYARD_DB" else "elsewhere.db")
    with caplog.at_level(logging.INFO):
        assert main(["bot", "--shard-count", "2", "--shard-ids", "1", *([how, url] if how == "--db" else [])]) == 0
    store = seen["bot"].store
    assert type(store).__name__ == "PostgresStore" and store.shards == (2, (1,))  # not connected yet
    assert "postgresql://jy:***@db.example:5432/games" in caplog.text and "s3cret" not in caplog.text


def test_a_database_url_is_logged_without_its_password():
    assert shown_db("postgresql://jy:s3cret@db.example:5432/games") == "postgresql://jy:***@db.example:5432/games"
    assert shown_db("postgresql://db.example/games") == "postgresql://db.example/games"
    assert shown_db("/var/lib/junkyard/junkyard.db") == "/var/lib/junkyard/junkyard.db"


# Serving only one's own shards ---------------------------------------------------------------------


def sharded(db_path, *ids: int) -> ShardedJunkyardBot:
    """A process of a two-shard bot running ``ids``, its store narrowed to them as ``junkyard bot`` does."""
    counter = iter(range(1, 10**6))
    store = SqliteStore(db_path)
    store.set_shards(2, ids)
    bot = make_bot(shards=(2, ids), service=Service(store, seed_source=lambda: next(counter)))
    assert isinstance(bot, ShardedJunkyardBot)
    return bot


async def test_interactions_of_another_shards_server_are_refused_privately(db_path):
    async with DiscordHarness(sharded(db_path, 0), guild_id=GUILD_1) as h:
        h.users.update(USERS)
        r = answer(await h.slash(ANN, "game new", game="toy"))
        assert r.ephemeral and r.content == texts.say(OTHER_SHARD, "en")
        assert await h.bot.store.games.channel_game(CHANNEL_ID) is None
        assert await h.autocomplete(ANN, "game new", "game", game="to") == []
        h.guild_id = GUILD_0  # the same process serves a server of its own shard
        answer(await h.slash(ANN, "game new", game="toy"))
        answer(await h.slash(BOB, "game join", colour="blue"))
        board = answer(await h.slash(ANN, "game start"))
        rec = await h.bot.store.games.channel_game(CHANNEL_ID)
        assert rec is not None and rec.guild_id == GUILD_0 and not board.ephemeral
        h.guild_id = GUILD_1  # a press said to come from a server of the other shard plays nothing
        r = answer(await h.press(ANN, board, "Roll"))
        assert r.ephemeral and r.content == texts.say(OTHER_SHARD, "en")
        assert (await h.bot.store.games.get_game(rec.id)).version == rec.version


async def leave_work(db_path, guild_id: int, channel: int) -> int:
    """In ``channel`` of ``guild_id``: a game left to a computer, whose boards were never posted, and a game
    of two people whose reminder fell due (the process stopped before any of it). Returns the second's id."""
    async with SqliteStore(db_path) as store:
        service = Service(store)
        service.autoplay.moves_per_reply = 0
        await service.new_game(guild_id=guild_id, channel_id=channel, user_id=ANN, user_name="ann", game_key="toy",
                               join=False)
        await service.add_computer(channel, ANN)
        await service.join(channel, ANN, "ann")
        await service.start(channel, ANN)
        assert channel in [c for _, c in await store.games.waiting_on_computers()]
        people = channel + 1
        await service.new_game(guild_id=guild_id, channel_id=people, user_id=ANN, user_name="ann", game_key="toy")
        await service.join(people, BOB, "bob")
        await service.start(people, ANN)
        rec = await store.games.channel_game(people)
        assert rec is not None
        await store.turns.mark_turn(rec.id, version=rec.version, seat=0, started_at=time.time() - 7200,
                                    timers=[NewTimer(REMIND, 0, time.time() - 1, {"turn": time.time() - 7200})])
        return rec.id


async def catch_up(h: DiscordHarness) -> None:
    """What a process does after READY: post the boards left behind, resume computers, fire due timers."""
    await h.bot.outbox.flush(takeover=True)
    await h.bot.resume_computers()
    await h.bot.timers.tick(takeover=True)
    await h.settle()


def channels_of(sent) -> set[int]:
    return {int(s.message["channel_id"]) for s in public(sent)}


async def test_each_process_resumes_and_times_only_its_own_shards_games(db_path):
    """A bot of two processes, shard 0 and shard 1, on one database: each posts the boards, plays the
    computers and fires the reminders of its own shard's games and leaves the others' alone."""
    reminded = {0: await leave_work(db_path, GUILD_0, 1000), 1: await leave_work(db_path, GUILD_1, 2000)}
    for shard, channels in ((0, {1000, 1001}), (1, {2000, 2001})):
        async with DiscordHarness(sharded(db_path, shard)) as h:
            await catch_up(h)
            assert channels_of(h.sent) == channels
            assert any("Computer 1 (random) rolled" in s.content for s in public(h.sent))
            store = h.bot.store
            assert await store.games.waiting_on_computers() == []
            [planted, *_] = await store.turns.timers(game_id=reminded[shard])
            assert planted.fired_at is not None  # fired here, and its message carries the timer's nonce
            assert [s.payload.get("nonce") for s in h.sent if s.kind == "channel"].count(f"jt-{planted.id}") == 1
            if shard == 0:  # the other shard's work is untouched until its own process runs
                other = reminded[1]
                assert [t.fired_at for t in await store.turns.timers(game_id=other)] == [None]
                assert await store.outbox.deliveries(game_id=other, pending=True)
    async with SqliteStore(db_path) as store:
        assert await store.outbox.deliveries(pending=True) == []
        assert await store.games.waiting_on_computers() == []
        for game_id in reminded.values():
            assert (await store.turns.timers(game_id=game_id))[0].fired_at is not None


async def test_preferences_changed_through_another_process_are_followed_at_the_next_tick(db_path):
    """Ann goes away in all her games through the process of shard 0 (the one her command reached); the
    process of shard 1 reads her preferences again at its next tick and puts her turn in its own shard's
    game on autopilot."""
    from bot.clock.timers import DEADLINE, Ticker

    async with DiscordHarness(sharded(db_path, 1)) as h1:
        service1 = h1.bot.service
        await service1.new_game(guild_id=GUILD_1, channel_id=2001, user_id=ANN, user_name="ann", game_key="toy")
        await service1.join(2001, BOB, "bob")
        await service1.start(2001, ANN)
        await h1.bot.timers.sweep()
        rec = await h1.bot.store.games.channel_game(2001)
        assert rec is not None and rec.seats[(await service1.load(rec)).to_act].user_id == ANN
        assert not [t for t in await h1.bot.store.turns.timers(game_id=rec.id) if t.kind == DEADLINE]
        assert await h1.bot.follow_preferences() == set()  # nothing changed elsewhere yet
        async with SqliteStore(db_path) as store0:
            store0.set_shards(2, [0])
            await Ticker(Service(store0), messenger=None).away(ANN, None, 1.0)  # type: ignore[arg-type]
        assert h1.bot.timers.settings.prefs(ANN, rec.id).away_until is None  # its memory is behind
        assert await h1.bot.follow_preferences() == {ANN}
        assert h1.bot.timers.settings.prefs(ANN, rec.id).away_until is not None
        [deadline] = [t for t in await h1.bot.store.turns.timers(game_id=rec.id, pending=True) if t.kind == DEADLINE]
        assert deadline.data.get("away") and deadline.due_at <= time.time()
