"""``junkyard forget USER_ID`` (and ``/game forget``): after it nothing the store keeps names the person, on
either store. Every table (the derived ``players`` too) and every column is scanned for their user id and
every name they played under; the other player's seats, results and rating stay, and every game still
replays to its snapshot."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from bot.clock.settings import Settings
from bot.drivers import driver_for
from bot.play.plans import Plan, save_plan
from bot.play.service import Service
from bot.store import SqliteStore, Store
from bot.telling.outcomes import Accepted, Refusal
from bot.telling.pictures import Pictures
from bot.upkeep.consistency import check_consistency
from bot.upkeep.forget import ANONYMOUS, forget

ZED, ZED_NAME = 987654321098765432, "Zelda Quux"
BOB = 12
GUILD = 77 << 22


async def play(store: Store) -> Service:
    """A finished race of Zelda and Bob (results and ratings), one still running, Zelda's settings, plan and a
    season she started."""
    service = Service(store, seed_source=lambda: 7, pictures=Pictures(processes=0))

    async def deliver(outcome: Any, channel: int) -> None:
        """The computers' moves an outcome leaves (the boards stay in the outbox: their words are stored)."""
        while isinstance(outcome, Accepted):
            outcome = await service.play_computers(channel)

    await store.standings.start_season(GUILD, "Spring", at=store.now(), by=ZED)
    for channel, moves in ((5001, 10_000), (5002, 30)):
        await deliver(await service.new_game(guild_id=GUILD, channel_id=channel, user_id=ZED, user_name=ZED_NAME,
                                             game_key="races", options={"laps": 1, "track": "A"}, seat_options={}),
                      channel)
        await deliver(await service.join(channel, BOB, "Bob"), channel)
        await deliver(await service.start(channel, ZED), channel)
        for _ in range(moves):
            rec, game, _ = await service.current(channel)
            if rec is None or game is None or game.is_over:
                break
            seat = game.to_act
            assert seat is not None
            outcome = await service.act(channel, rec.seats[seat].user_id,
                                        driver_for("races", "random", rec.version).choose(game, seat))
            assert not isinstance(outcome, Refusal), outcome
            await deliver(outcome, channel)
    rec = await store.games.channel_game(5002)
    assert rec is not None
    await save_plan(store, ZED, rec.id, Plan(items=("roll",)))
    await Settings(store).set_user(ZED, 0, mode="dm")
    return service


async def every_value(store: Store) -> list[tuple[str, str, str]]:
    """(table, column, value as text) of every column of every row of every table of the database."""
    out: list[tuple[str, str, str]] = []
    if isinstance(store, SqliteStore):
        con = sqlite3.connect(store.path)
        for (table,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall():
            cur = con.execute(f"SELECT * FROM {table}")
            names = [d[0] for d in cur.description]
            out += [(table, c, str(v)) for row in cur.fetchall() for c, v in zip(names, row, strict=True)]
        con.close()
        return out
    from bot.store.postgres import PostgresStore

    assert isinstance(store, PostgresStore)
    tables = await store.pool.fetch("SELECT table_name FROM information_schema.tables WHERE table_schema = $1",
                                    store.schema)
    assert len(tables) > 5
    for t in tables:
        for row in await store.pool.fetch(f'SELECT * FROM "{store.schema}"."{t["table_name"]}"'):
            out += [(t["table_name"], c, str(v)) for c, v in row.items()]
    return out


def mentions(values: list[tuple[str, str, str]], *words: str) -> list[tuple[str, str, str]]:
    return [(t, c, v[:120]) for t, c, v in values if any(w in v for w in words)]


async def test_nothing_of_a_forgotten_person_is_left_in_any_table(any_store):
    service = await play(any_store)
    before = await every_value(any_store)
    assert {t for t, _, _ in mentions(before, str(ZED), ZED_NAME)} >= {
        "games", "actions", "deliveries", "settings", "results", "ratings", "rating_changes", "players", "seasons"}

    report = await forget(service, ZED)
    assert report.left == [5002] and report.deleted["ratings"] >= 1

    after = await every_value(any_store)
    assert mentions(after, str(ZED), "Zelda", "Quux") == []
    # Bob keeps his seat, his result and his rating; Zelda's seat is "Player 1" (a computer in the running game)
    finished, running = await any_store.games.channel_history(5001, 1), await any_store.games.channel_history(5002, 1)
    assert [(s.user_id, s.name) for s in finished[0].seats] == [(ANONYMOUS, "Player 1"), (BOB, "Bob")]
    assert finished[0].host_id == ANONYMOUS
    assert running[0].seats[0].is_computer and running[0].seats[0].name == "Player 1 (computer)"
    assert [r.user_id for r in await any_store.standings.results(game_id=finished[0].id)] == [BOB]
    assert [r.user_id for r in await any_store.standings.ratings(GUILD, "races")] == [BOB]
    assert await any_store.games.games_of_user(ZED, "finished") == []
    assert len(await any_store.games.games_of_user(BOB, "finished")) == 1
    for rec in (finished[0], running[0]):
        await check_consistency(any_store.games, rec.id)
    assert json.loads(json.dumps(await any_store.settings.get_settings("plan", ZED, running[0].id))) == {}
    # forgetting again finds nothing
    assert not (await forget(service, ZED)).anything


async def test_a_forgotten_person_s_spans_and_mentions_in_stored_texts_read_as_their_seat(any_store):
    """A stored line that names the person (a person span, a line's person parameter, a mention an older
    version wrote) names their seat after forgetting, on either store, and holds neither their id nor name."""
    from bot.messages import NOTE, Line, Showing
    from bot.terminal import plain
    from rules.literal import Person

    service = await play(any_store)
    rec = (await any_store.games.channel_history(5001, 1))[0]
    zed = Person(ZED, ZED_NAME)
    lines = (Line(text=f"{zed} waved; <@{ZED}> and <@!{ZED}> left."),
             Line(say="lobby.left_game", params={"user": zed}))
    out = service.outgoing([Showing(NOTE, lines)])
    await any_store.outbox.add_deliveries(rec.id, out)
    await forget(service, ZED)
    assert mentions(await every_value(any_store), str(ZED), "Zelda", "Quux") == []
    stored = await any_store.outbox.delivery(out[0].id)
    assert stored is not None
    said = (await service.message(stored, "en")).text
    assert plain(said) == "Player 1 waved; Player 1 and Player 1 left.\nPlayer 1 left the game."
    assert Person(ANONYMOUS, "Player 1").span() in said  # still a person: each front shows it its way


def test_the_scrubber_forgets_a_person_span_clipped_or_whole_and_leaves_others() -> None:
    from bot.upkeep.forget import Scrubber
    from rules.literal import Person

    scrub = Scrubber(ZED, {ZED_NAME})
    bob = Person(BOB, "Bob")
    assert scrub.text(f"{Person(ZED, ZED_NAME)} and {bob}", "Player 2") == f"{Person(0, 'Player 2')} and {bob}"
    assert scrub.text(str(Person(ZED, ZED_NAME))[:-3], None) == str(Person(0, "someone"))
    assert scrub.json({"person": [ZED, ZED_NAME]}, None) == {"person": [0, "someone"]}
    assert scrub.json({"person": [BOB, "Bob"]}, None) == {"person": [BOB, "Bob"]}
