"""The end of a game, the channel's history, replays, ``/stats`` and ``/game mine``, through the offline
Discord harness, and the store's players index and results behind them."""

from __future__ import annotations

import time

import pytest

import bot.standing.history
import bot.telling.compose
from bot.discord import JunkyardBot
from bot.play.service import Service
from bot.store import ACTIVE, SqliteStore
from tests.bot.harness import DiscordHarness, Sent
from tests.bot.helpers import ANN, BOB, EVE, USERS, answer, finished_unrecorded, only, public, started
from tests.bot.test_undo import dm

OTHER_GUILD = 800_000_000_000_000_777
OTHER_CHANNEL = 700_000_000_000_000_777
GIF = b"GIF8"


async def computer_race(h: DiscordHarness, *, host: int = ANN, channel: int | None = None) -> list[Sent]:
    """A one-lap race of two smart computers, opened by ``host``: it runs to the end at once. Returns the
    end message the outbox posts a moment after the final board."""
    await h.slash(host, "game new", game="races", laps=1, play=False, channel_id=channel)
    await h.slash(host, "game computer", kind="smart", channel_id=channel)
    await h.slash(host, "game computer", kind="smart", channel_id=channel)
    await h.slash(host, "game start", channel_id=channel)
    start = len(h.sent)
    h.bot.outbox.clock = lambda: time.time() + 60  # the end message falls due a moment after the final board
    await h.bot.outbox.flush()
    return [s for s in h.sent[start:] if s.creates_message]


async def toy_win(h: DiscordHarness, board: Sent, winner: int, loser: int) -> Sent:
    """Play a toy race to the end: ``winner`` always moves the most, ``loser`` passes. The final board."""
    while True:
        rec = await h.bot.store.games.channel_game(h.channel_id)
        if rec is None:
            return board
        game = await h.bot.service.load(rec)
        user = rec.seats[game.to_act].user_id
        if game.rolled is None:
            board = only(public(await h.press(user, board, "Roll")))
        elif user == winner:
            board = only(public(await h.press(user, board, f"Move {game.rolled}")))
        else:
            board = only(public(await h.press(user, board, "Pass")))
        assert user in (winner, loser)


async def test_the_end_of_a_race_posts_its_standings_and_replay_and_records_results(h):
    """When a game ends the final standings and the animated replay (a GIF under 8 MB) follow the board."""
    end = only(await computer_race(h))
    assert not end.ephemeral and end.content.startswith("**Junkyard Races: final standings** after ")
    lines = end.content.splitlines()
    assert lines[1].startswith("1st ") and "🏆" in lines[1] and lines[2].startswith("2nd ")
    [(name, data)] = end.files
    assert name.endswith(".gif") and data.startswith(GIF) and len(data) <= bot.telling.compose.MAX_REPLAY_BYTES
    rec = (await h.bot.store.games.channel_history(h.channel_id, 1))[0]
    rows = await h.bot.store.standings.results(game_id=rec.id)
    assert [(r.place, r.winner, r.moves) for r in rows] == [(1, True, rec.version), (2, False, rec.version)]
    assert all(r.game_key == "races" and r.started_at <= r.finished_at for r in rows)
    assert await h.bot.outbox.flush() == 0  # posted once


async def test_a_replay_too_large_at_every_size_is_left_out_with_a_note(h, monkeypatch):
    """Over the limit at every size tried, the standings go alone and say why."""
    monkeypatch.setattr(bot.telling.compose, "MAX_REPLAY_BYTES", 1)
    end = only(await computer_race(h))
    assert end.files == [] and "too large to post" in end.content


async def test_a_next_game_never_overtakes_the_end_message_of_the_one_before(h):
    """The end message (ratings, standings, replay) is stored after the final board and nobody has posted it
    yet when the next game is opened in the channel: the lobby's news waits for it, and the channel shows
    the final board, the end message, then the new lobby, in the order they were stored."""
    board = await started(h)
    final = await toy_win(h, board, ANN, BOB)
    [end] = await h.bot.store.outbox.deliveries(pending=True)
    assert end.payload.get("finale") and end.claimed_by is None  # the outbox's, not the final press's
    sent = await h.slash(BOB, "game new", game="toy")
    posts = [s for s in sent if s.kind == "channel"]
    assert [p.content.split("\n")[0] for p in posts] == ["**Ratings**", posts[1].content.split("\n")[0]]
    assert "opened a game of **Race to Ten**" in posts[1].content
    assert int(final.message["id"]) < int(posts[0].message["id"]) < int(posts[1].message["id"])
    assert await h.bot.store.outbox.deliveries(pending=True) == []
    assert await h.bot.outbox.flush() == 0  # posted once


async def test_stats_after_two_finished_races(h):
    """/stats: the server's record per game, and a player's: played, won, average place, best, longest."""
    board = await started(h)
    await toy_win(h, board, ANN, BOB)
    await h.bot.outbox.flush()  # the end message
    answer(await h.slash(BOB, "game new", game="toy"))
    answer(await h.slash(ANN, "game join", colour="blue"))
    board = answer(await h.slash(BOB, "game start"))
    await toy_win(h, board, BOB, ANN)
    ann = answer(await h.slash(EVE, "stats", player=ANN))
    assert ann.ephemeral
    assert ann.content.splitlines()[0] == f"**<@{ANN}>'s record on this server**"
    line = ann.content.splitlines()[1]
    assert line.startswith("**Race to Ten**: played 2, won 1, average place 1.5; best: 1st in ")
    assert "longest: " in line
    server = answer(await h.slash(EVE, "stats")).content.splitlines()
    server = server[server.index("**This server's games**"):]  # after the ladder
    assert server[1].startswith("**Race to Ten**: 2 finished; most wins: ")
    assert f"<@{ANN}> 1" in server[1] and f"<@{BOB}> 1" in server[1]
    eve = answer(await h.slash(EVE, "stats", player=EVE))
    assert eve.content == f"<@{EVE}> has no finished games on this server yet."


async def test_history_lists_the_channels_finished_games_and_replay_posts_one(h):
    """/game history: date, game, players, winner, moves; /game replay offers them and posts the chosen one."""
    assert answer(await h.slash(ANN, "game history")).content == "No finished games in this channel yet."
    board = await started(h)
    await toy_win(h, board, BOB, ANN)
    await h.bot.outbox.flush()  # the end message
    rec = (await h.bot.store.games.channel_history(h.channel_id, 1))[0]
    listing = answer(await h.slash(ANN, "game history")).content.splitlines()
    assert listing[1] == (f"#{rec.id} · <t:{int(rec.updated_at)}:d> · Race to Ten · Bob, Ann · won by Bob · "
                          f"{rec.version} moves")
    offered = await h.autocomplete(ANN, "game replay", "game")
    assert [c["value"] for c in offered] == [str(rec.id)] and "won by Bob" in offered[0]["name"]
    posted = answer(await h.slash(ANN, "game replay", game=str(rec.id)))
    assert not posted.ephemeral and posted.content.startswith(f"Replay of game #{rec.id}\n**Race to Ten: final")
    assert "has no animated replays" in posted.content  # the toy draws none
    wrong = answer(await h.slash(ANN, "game replay", game="999"))
    assert wrong.ephemeral and f"Finished here: #{rec.id}." in wrong.content


async def test_a_race_replay_is_posted_again_on_request(h):
    await computer_race(h)
    rec = (await h.bot.store.games.channel_history(h.channel_id, 1))[0]
    posted = answer(await h.slash(BOB, "game replay", game=f"#{rec.id}"))
    assert posted.files and posted.files[0][1].startswith(GIF)


@pytest.fixture
async def fake_clock(db_path, monkeypatch):
    """A harness whose store and history read a clock the test moves."""
    now = [1_000_000.0]
    monkeypatch.setattr(bot.standing.history, "clock", lambda: now[0])
    counter = iter(range(1, 10**6))
    store = SqliteStore(db_path, clock=lambda: now[0])
    async with DiscordHarness(JunkyardBot(service=Service(store, seed_source=lambda: next(counter)))) as harness:
        harness.users.update(USERS)
        yield harness, now


async def test_mine_lists_games_across_two_servers_your_turn_first_with_links_and_waiting_times(fake_clock):
    """/game mine, in a server or a direct message: where it is your turn (with a jump link and how long it
    has waited), then the games waiting on others."""
    h, now = fake_clock
    await started(h)  # Ann's turn first in the first server
    now[0] += 600
    h.guild_id = OTHER_GUILD
    await h.slash(BOB, "game new", game="toy", channel_id=OTHER_CHANNEL)
    await h.slash(ANN, "game join", colour="blue", channel_id=OTHER_CHANNEL)
    await h.slash(BOB, "game start", channel_id=OTHER_CHANNEL)  # Bob's turn in the second
    now[0] += 3 * 3600
    for sent in (await h.slash(ANN, "game mine"), await dm(h, ANN, "game mine")):
        lines = answer(sent).content.splitlines()
        assert answer(sent).ephemeral
        assert lines[0] == "**Your turn:**"
        assert lines[1].startswith("- Race to Ten (move 0): your turn for 3 h 10 min · "
                                   f"https://discord.com/channels/{800_000_000_000_000_001}/700000000000000001/")
        assert lines[2] == "**Waiting on others:**"
        assert lines[3].startswith("- Race to Ten (move 0): waiting on Bob for 3 h · "
                                   f"https://discord.com/channels/{OTHER_GUILD}/{OTHER_CHANNEL}/")
    assert answer(await dm(h, EVE, "game mine")).content.startswith("You have no running games.")


async def test_other_game_commands_are_refused_in_direct_messages(h):
    sent = answer(await dm(h, ANN, "game history"))
    assert sent.ephemeral and "works in a server channel" in sent.content


async def test_the_players_index_follows_the_seats(store):
    """The store answers "the running games where X sits" from an index that follows every seat change."""
    from bot.store import Seat

    rec = await store.games.create_game(guild_id=1, channel_id=5, game_key="toy", host_id=ANN, setup={}, seed=1,
                                        seats=[Seat(ANN, "ann")])
    assert await store.games.games_of_user(ANN, "lobby") != [] and await store.games.games_of_user(BOB, "lobby") == []
    await store.games.update_lobby(rec.id, seats=[Seat(ANN, "ann"), Seat(BOB, "bob")], expected_seats=rec.seats)
    await store.games.start_game(rec.id, setup={}, seats=[Seat(ANN, "ann"), Seat(BOB, "bob")], state={"x": 1})
    assert [r.id for r in await store.games.games_of_user(BOB, ACTIVE)] == [rec.id]
    await store.games.replace_seats(rec.id, version=0, seats=[Seat(ANN, "ann"), Seat(-1, "computer", {}, "random")],
                                    expected_seats=[Seat(ANN, "ann"), Seat(BOB, "bob")])
    assert await store.games.games_of_user(BOB, ACTIVE) == []
    assert [r.id for r in await store.games.games_of_user(ANN, ACTIVE)] == [rec.id]


async def test_a_stale_take_back_is_refused(store):
    from bot.store import Seat, StaleVersion

    rec = await store.games.create_game(guild_id=1, channel_id=5, game_key="toy", host_id=ANN, setup={}, seed=1,
                                        seats=[Seat(ANN, "ann"), Seat(BOB, "bob")])
    await store.games.start_game(rec.id, setup={}, seats=rec.seats, state={"v": 0})
    await store.games.append_action(rec.id, expected_version=0, seat=0, user_id=ANN, action="roll", state={"v": 1})
    with pytest.raises(StaleVersion):
        await store.games.take_back(rec.id, expected_version=2, count=1, state={"v": 0})
    back = await store.games.take_back(rec.id, expected_version=1, count=1, state={"v": 0})
    assert (back.version, back.state, await store.games.actions(rec.id)) == (0, {"v": 0}, [])


def test_a_replay_over_the_limit_is_drawn_at_smaller_sizes_until_it_fits(monkeypatch):
    """The game's own size first, then smaller ones: the first GIF within the limit is posted."""
    asked: list[int | None] = []

    class Front:
        has_replay = True

        def replay(self, setup, seed, actions, size, lang="en"):
            asked.append(size)
            return b"G" * {None: 30, 10: 20, 8: 5}[size], 3

    monkeypatch.setattr(bot.telling.compose, "MAX_REPLAY_BYTES", 20)
    table = bot.telling.compose.Table(1, "toy", 1, "en", ())
    assert bot.telling.compose.replay_of(Front(), table, ["roll"], "en") == (b"G" * 20, "")  # type: ignore[arg-type]
    assert asked == [None, 10]


async def test_the_migration_fills_the_players_index_from_the_games_already_stored(db_path):
    """A database from before the players index: its running games are found by player after the upgrade."""
    import json
    import sqlite3

    from bot.store.sqlite import MIGRATIONS

    before = MIGRATIONS.index(next(m for m in MIGRATIONS if "CREATE TABLE players" in m))
    db = sqlite3.connect(db_path)
    db.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    db.execute("INSERT INTO schema_version (version) VALUES (?)", (before,))
    for script in MIGRATIONS[:before]:
        db.executescript(script)
    seats = json.dumps([{"user_id": ANN, "name": "ann", "options": {}}, {"user_id": BOB, "name": "bob", "options": {}}])
    db.execute("INSERT INTO games (guild_id, channel_id, game_key, status, host_id, setup, seed, seats, version, "
               "state, created_at, updated_at) VALUES (1, 5, 'toy', 'active', ?, '{}', 1, ?, 0, '{}', 0, 0)",
               (ANN, seats))
    db.commit()
    db.close()
    async with SqliteStore(db_path) as store:
        assert [r.channel_id for r in await store.games.games_of_user(BOB, ACTIVE)] == [5]
        assert await store.schema_version() == len(MIGRATIONS)


async def test_an_end_a_stop_left_unrecorded_is_recorded_at_start_up_and_announced_while_fresh(service, monkeypatch):
    """The final move was stored but the process stopped before its results: they follow at start-up, with
    the end message only for a game that ended lately (older games, kept before results were, stay quiet)."""
    ids = await finished_unrecorded(service, monkeypatch, (11, 12))
    assert [r.id for r in await service.store.standings.unrecorded_ends()] == ids
    old = (await service.store.games.get_game(ids[0])).updated_at
    monkeypatch.setattr(bot.standing.history, "clock", lambda: old + bot.standing.history.FRESH_END + 1)
    fresh = await service.store.games.get_game(ids[1])
    await service.store.db.execute("UPDATE games SET updated_at = ? WHERE id = ?",
                                   (old + bot.standing.history.FRESH_END, fresh.id))
    assert await bot.standing.history.settle_ends(service) == 2
    assert await service.store.standings.unrecorded_ends() == []
    assert {r.game_id for r in await service.store.standings.results()} == set(ids)
    ends = [d.game_id for d in await service.store.outbox.deliveries(pending=True) if d.payload.get("finale")]
    assert ends == [ids[1]]


async def test_stats_in_a_direct_message_show_your_record_on_all_servers(h):
    board = await started(h)
    await toy_win(h, board, ANN, BOB)
    reply = answer(await dm(h, ANN, "stats"))
    assert reply.content.splitlines()[0] == f"**<@{ANN}>'s record on all servers**"
    assert reply.content.splitlines()[1].startswith("**Race to Ten**: played 1, won 1, average place 1.0")
    assert answer(await dm(h, EVE, "stats")).content == f"<@{EVE}> has no finished games yet."
