"""The store's upgrade names people in texts older versions stored as person spans (``bot/store/people.py``),
on both backends: a mention ``<@id>`` (or ``<@!id>``) in a move's narration or a message's line, and a line's
``user``/``host`` parameter that was a bare id. Discord still reads the mention, the terminal a name."""

from __future__ import annotations

import pytest

from bot.discord.shown import shown
from bot.messages import NOTE, Line, Showing
from bot.play.service import Service
from bot.store import Outgoing, Seat, Store
from bot.store.people import MARKER, People, rewritten
from bot.terminal import plain
from rules.literal import Person

ANN, BOB, GONE = 11, 22, 99


def before_the_step(monkeypatch: pytest.MonkeyPatch, store: Store) -> None:
    """Open ``store`` at the schema just before the step (its migrations cut there)."""
    from bot.store import postgres, sqlite

    for module, name in ((sqlite, "MIGRATIONS"), (postgres, "PG_MIGRATIONS")):
        steps = getattr(module, name)
        monkeypatch.setattr(module, name, steps[: steps.index(MARKER)])


async def test_the_upgrade_makes_stored_mentions_and_person_ids_people_named_by_their_seats(twin_stores, monkeypatch):
    old = twin_stores()
    with monkeypatch.context() as patched:
        before_the_step(patched, old)
        await old.open()
        version = await old.schema_version()
        rec = await old.games.create_game(guild_id=1, channel_id=5, game_key="races", host_id=ANN, setup={}, seed=1,
                                          seats=[Seat(ANN, "A*nn", {}, lang="en"), Seat(BOB, "Bob", {})], lang="de")
        lines = (Line(text=f"<@{ANN}> moved, <@!{BOB}> waited, <@{GONE}> watched."),
                 Line(say="lobby.left_game", params={"user": BOB}),
                 Line(say="lobby.new_host", params={"text": Line(say="lobby.left_lobby", params={"user": ANN}),
                                                    "host": BOB}))
        await old.outbox.add_deliveries(rec.id, [Outgoing(Showing(NOTE, lines).to_payload(), NOTE)])
        await old.insert_rows("actions", [{"game_id": rec.id, "idx": 0, "seat": 0, "user_id": ANN, "action": "roll",
                                           "narration": f"<@{ANN}> rolled a 3.", "at": 1.0}])
        await old.close()
    store = twin_stores()
    await store.open()
    try:
        from bot.store import sqlite

        steps_from_marker = len(sqlite.MIGRATIONS) - sqlite.MIGRATIONS.index(MARKER)  # the step and any after it
        assert await store.schema_version() == version + steps_from_marker
        action = (await store.games.actions(rec.id))[0]
        assert action.narration == f"{Person(ANN, 'A*nn')} rolled a 3."
        assert plain(action.narration) == "A*nn rolled a 3." and shown(action.narration) == f"<@{ANN}> rolled a 3."
        stored = (await store.outbox.deliveries(game_id=rec.id))[0]
        assert "<@" not in str(stored.payload)
        text = (await Service(store).message(stored, "en")).text
        assert plain(text) == ("A*nn moved, Bob waited, jemand watched.\nBob left the game.\n"
                               "A*nn left the lobby. Bob is the host now.")
        assert shown(text).startswith(f"<@{ANN}> moved, <@{BOB}> waited, <@{GONE}> watched.\n<@{BOB}> left")
    finally:
        await store.close()


def test_a_text_without_people_is_left_as_it_was() -> None:
    people = People([{"id": 1, "seats": '[{"user_id": 11, "name": "Ann"}]', "lang": "en"}])

    def person(uid: int) -> Person:
        return people.person(1, uid)

    raw = '{"lines": [{"text": "a <b> @here"}], "named": 11}'
    assert rewritten(raw, person, as_json=True) == raw  # a number elsewhere is no person
    assert rewritten("<@11>: <@x>", person, as_json=False) == f"{Person(11, 'Ann')}: <@x>"
    assert people.person(None, 11) == Person(11, "someone")  # a row of no game
