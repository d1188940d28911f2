"""While you were away: what a recap costs after a day of a six-seat race (the most moves since a player's
last own move).

* ``recap_moves``: the moves the recap covers: Ann plays her first turn, then for a day (four rounds, one every
  six hours) five smart computers drive and the autopilot plays Ann's turns, until her turn comes again;
* ``recap_ms``: the answer to her "What did I miss?" (the product's path, :func:`bot.clock.recap.answer`: the log
  read, the game rebuilt, the lines worded), median of five;
* ``recap_gif_ms``, ``recap_gif_kb``, ``recap_gif_frames``: the same with the replay of exactly those moves.
"""

from __future__ import annotations

import asyncio
import io
import statistics
import tempfile
import time
from pathlib import Path

from PIL import Image

from bench.registry import benchmark
from bot.clock import recap
from bot.drivers import driver_for
from bot.messages import Showing
from bot.play.service import Service
from bot.store import SqliteStore
from bot.telling.compose import RECAP_ACTION
from bot.telling.outcomes import Refusal

ANN = 1001
CHANNEL = 1
ROUNDS = 4


class _Clock:
    def __init__(self) -> None:
        self.t = 1_780_315_200.0

    def __call__(self) -> float:
        return self.t


async def _computers(service: Service) -> None:
    while await service.play_computers(CHANNEL) is not None:
        pass


async def _ann_turn(service: Service, autopilot: bool) -> None:
    """Ann's whole turn (her forced moves play themselves between), chosen by a smart driver."""
    await _computers(service)
    rec, game, _ = await service.current(CHANNEL)
    assert rec is not None and game is not None
    driver = driver_for("races", "smart", rec.version)
    while not game.is_over and game.to_act == 0:
        done = await service.act(CHANNEL, ANN, str(driver.choose(game, 0)), autopilot=autopilot)
        assert not isinstance(done, Refusal), done
        rec, game, _ = await service.current(CHANNEL)
        assert rec is not None and game is not None, "the race ended"
        if game.to_act != 0:
            break
        await _computers(service)  # her forced moves
        rec, game, _ = await service.current(CHANNEL)
        assert rec is not None and game is not None, "the race ended"


async def _measure(path: Path) -> dict[str, float | int | str]:
    clock = _Clock()
    async with SqliteStore(path, clock=clock) as store:
        service = Service(store, seed_source=lambda: 11)
        await service.new_game(guild_id=1, channel_id=CHANNEL, user_id=ANN, user_name="Ann", game_key="races")
        for _ in range(5):
            await service.add_computer(CHANNEL, ANN, "smart")
        await service.start(CHANNEL, ANN)
        await _ann_turn(service, False)
        for _ in range(ROUNDS):
            clock.t += 6 * 3600.0
            await _ann_turn(service, True)
        clock.t += 6 * 3600.0
        await _computers(service)
        rec, _, _ = await service.current(CHANNEL)
        assert rec is not None
        latest = await store.outbox.latest_delivery(rec.id)
        assert latest is not None
        offered = Showing.from_payload(latest.kind, latest.payload).recap
        assert offered is not None, "the turn offers no recap"
        seat, since, until = offered
        action = f"{RECAP_ACTION}:{seat}:{since}:{until}"
        times = []
        for _ in range(5):
            start = time.perf_counter()
            reply = await recap.answer(service, CHANNEL, ANN, action=action, game_id=rec.id, lang="en")
            times.append(time.perf_counter() - start)
            assert not isinstance(reply, Refusal)
        start = time.perf_counter()
        shown = await recap.answer(service, CHANNEL, ANN, action=f"{recap.REPLAY_ACTION}:{seat}:{since}:{until}",
                                   game_id=rec.id, lang="en")
        gif_ms = (time.perf_counter() - start) * 1000
        assert not isinstance(shown, Refusal) and shown.png is not None
        frames = int(getattr(Image.open(io.BytesIO(shown.png)), "n_frames", 1))
    return {"recap_moves": until - since, "recap_ms": round(statistics.median(times) * 1000, 1),
            "recap_gif_ms": round(gif_ms, 1), "recap_gif_kb": len(shown.png) // 1024, "recap_gif_frames": frames}


@benchmark("recap")
def recap_figures() -> dict[str, float | int | str]:
    with tempfile.TemporaryDirectory() as tmp:
        return asyncio.run(_measure(Path(tmp) / "recap.db"))
