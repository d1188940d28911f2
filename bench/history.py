"""The record of games: what the end of a race, an undo and ``/game mine`` cost.

* ``end_moves``, ``end_gif_kb``, ``end_gif_ms``: a five-lap race of two smart computers played to the end
  through the service; its end message (standings and the animated replay) composed as the outbox posts it.
* ``undo_replay_ms``: checking an undo at the end of that race (the log replayed, the last action asked).
* ``mine_ms``: ``/game mine`` for a player seated in ``mine_games`` running races (one index read, each
  game loaded from its snapshot the first time).
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from pathlib import Path

from bench.registry import benchmark
from bot.play.service import Service
from bot.play.undo import replay_steps
from bot.standing import history
from bot.store import Seat, SqliteStore

ANN = 1001
GAMES = 100


async def _measure(path: Path) -> dict[str, float | int | str]:
    figures: dict[str, float | int | str] = {}
    counter = iter(range(1, 10**6))
    async with SqliteStore(path) as store:
        service = Service(store, seed_source=lambda: next(counter))
        await service.new_game(guild_id=1, channel_id=1, user_id=ANN, user_name="ann", game_key="races",
                               options={"laps": 5}, join=False)
        for _ in range(2):
            await service.add_computer(1, ANN, "smart")
        await service.start(1, ANN)
        while await service.play_computers(1) is not None:
            pass
        rec = (await store.games.channel_history(1, 1))[0]
        figures["end_moves"] = rec.version
        [end] = [d for d in await store.outbox.deliveries(game_id=rec.id) if d.payload.get("finale")]
        start = time.perf_counter()
        made = await service.message(end)
        figures["end_gif_ms"] = round((time.perf_counter() - start) * 1000, 1)
        figures["end_gif_kb"] = len(made.png or b"") // 1024
        actions = await store.games.actions(rec.id)
        start = time.perf_counter()
        replay_steps(service.classes(rec.game_key), rec, actions, 1)
        figures["undo_replay_ms"] = round((time.perf_counter() - start) * 1000, 1)

        for channel in range(100, 100 + GAMES):
            await service.new_game(guild_id=2, channel_id=channel, user_id=ANN, user_name="ann", game_key="races")
            await service.add_computer(channel, ANN, "random")
            await store.games.update_lobby((await store.games.channel_game(channel)).id,  # type: ignore[union-attr]
                                           seats=[Seat(ANN, "ann"), Seat(-1, "c", {}, "random")])
            await service.start(channel, ANN)
        service._cache.clear()  # the first look loads every game from its snapshot
        start = time.perf_counter()
        listing = await history.mine(service, ANN, lambda rec, message: f"<#{rec.channel_id}>")
        figures["mine_ms"] = round((time.perf_counter() - start) * 1000, 1)
        figures["mine_games"] = listing.text.count("\n- ") + listing.text.startswith("- ")
        await service.close()
    return figures


@benchmark("history")
def history_figures() -> dict[str, float | int | str]:
    with tempfile.TemporaryDirectory() as tmp:
        return asyncio.run(_measure(Path(tmp) / "bench.db"))
