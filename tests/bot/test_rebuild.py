"""Every public message can be rebuilt from the store: a demo game of each game is played and delivered as the
bot delivers it; then, with nothing kept in memory, each delivered record is composed again from the store
alone (its record, the game's log and snapshot) and is what was sent, to the byte: text, picture, buttons,
ping. A person plays the first seat (random moves), computers the others."""

from __future__ import annotations

from typing import Any

import pytest

from bot import terminal as term
from bot.drivers import driver_for
from bot.local import LocalChannel
from bot.play.service import Service
from bot.store import SqliteStore
from bot.telling.compose import Message
from bot.telling.delivery import deliver
from bot.telling.outcomes import Accepted

#: short games of each: (game, setup options, seats, computer kind)
GAMES = [("races", {"laps": 1, "track": "A"}, 2, "smart"), ("rally", {"laps": 1}, 3, "smart"),
         ("piecepack", {}, 2, "smart")]


class Recording(LocalChannel):
    """A channel kept in memory that remembers what each record made it show."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: dict[int, Message] = {}
        self.current: int | None = None

    async def post(self, channel_id: int, message: Message, nonce: str) -> int | None:
        assert self.current is not None
        self.sent[self.current] = message
        return await super().post(channel_id, message, nonce)

    async def edit(self, channel_id: int, message_id: int, message: Message | None) -> int | None:
        if message is not None:
            assert self.current is not None
            self.sent[self.current] = message
        return await super().edit(channel_id, message_id, message)


async def deliver_all(service: Service, channel: Recording, accepted: Accepted) -> None:
    for delivery_id in accepted.deliveries:
        d = await service.store.outbox.delivery(delivery_id)
        assert d is not None
        channel.current = d.id
        await deliver(service, d, channel)


def shown(m: Message) -> tuple[Any, ...]:
    return (m.text, m.png, m.filename, [(b.label, b.action, b.style) for b in m.buttons], m.mention, m.version)


@pytest.mark.parametrize(("key", "options", "seats", "kind"), GAMES, ids=[g[0] for g in GAMES])
async def test_every_public_message_of_a_demo_game_is_rebuilt_from_the_store(tmp_path, monkeypatch, key: str,
                                                                             options: dict[str, Any], seats: int,
                                                                             kind: str) -> None:
    channel = Recording()
    async with SqliteStore(tmp_path / "demo.db") as store:
        service = Service(store, seed_source=lambda: 3)
        places = [term.SeatSpec("human"), *[term.SeatSpec(kind)] * (seats - 1)]
        first, _ = await term.open_table(service, term.new_channel_id(), key, options, places)
        assert isinstance(first.outcome, Accepted)
        await deliver_all(service, channel, first.outcome)
        rec = await store.games.get_game(first.outcome.game_id)
        person = driver_for(key, "random", 11)
        for _ in range(3000):
            batch = await term.play_computers(service, rec.channel_id, 40)
            if batch is not None:
                await deliver_all(service, channel, batch)
                continue
            rec = await store.games.get_game(rec.id)
            if rec.status != "active":
                break
            game = await service.load(rec)
            moved = await service.act(rec.channel_id, rec.seats[0].user_id, str(person.choose(game, 0)))
            assert isinstance(moved, Accepted), moved
            await deliver_all(service, channel, moved)
        rec = await store.games.get_game(rec.id)
        assert rec.status == "finished"
        for d in await store.outbox.deliveries(game_id=rec.id, pending=True):  # the end message
            channel.current = d.id
            assert d.kind == "note" and await deliver(service, d, channel)
        records = {d.id: d for d in await store.outbox.deliveries(game_id=rec.id)}
        assert all(d.delivered for d in records.values())
        assert {d.kind for d in records.values()} >= {"post", "edit", "note"}
        start = min(first.outcome.deliveries)  # the lobby's news went to the terminal's own channel
        assert set(channel.sent) == {i for i, d in records.items() if d.kind != "retire" and i >= start}

    async with SqliteStore(tmp_path / "demo.db") as store:  # a new process: nothing composed, nothing cached
        again = Service(store)
        for delivery_id, sent in channel.sent.items():
            rebuilt = await again.message(records[delivery_id])
            assert shown(rebuilt) == shown(sent), (records[delivery_id].kind, records[delivery_id].payload)
        assert any(m.png for m in channel.sent.values()) and any(m.buttons for m in channel.sent.values())
