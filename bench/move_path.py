"""Store calls per press: three people play a one-lap Junkyard Races game to its end through the bot's offline
Discord stack (``/game play`` with the moves the smart driver picks, forced moves pressed too), and every call
of the store's interfaces (:class:`bot.store.counting.Counting`) is counted per interaction:

* ``store_calls_per_press``: the mean over the accepted moves (all but the one that ends the race, which also
  records the results); ``store_calls_per_press_max``: the most any of them made; ``presses_counted``;
* ``store_calls_per_refused_press``: the most a move refused for being out of turn made.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
from pathlib import Path

from bench.registry import benchmark
from bot.discord import JunkyardBot
from bot.discord.offline import CHANNEL_ID, DiscordHarness
from bot.drivers import driver_for
from bot.play import plans
from bot.play.service import Service
from bot.store import SqliteStore
from bot.store.counting import Counting

PEOPLE = (101, 202, 303)


async def _counted_race(db: Path) -> tuple[list[int], list[int]]:
    """(calls of each accepted move, calls of each refused one)."""
    bot = JunkyardBot(service=Service(SqliteStore(db), seed_source=lambda: 7))
    async with DiscordHarness(bot) as h:
        h.users.update({user: f"p{user}" for user in PEOPLE})
        await h.slash(PEOPLE[0], "game new", game="races", track="A", laps=1)
        for user, colour in zip(PEOPLE, ("red", "blue", "green"), strict=True):
            await h.slash(user, "game join", colour=colour)
        await h.slash(PEOPLE[0], "game start")
        driver, counting = driver_for("races", "smart", 3), Counting(bot.store)
        accepted: list[int] = []
        refused: list[int] = []
        while True:
            rec, game, _ = await bot.service.current(CHANNEL_ID)
            if rec is None or game is None or game.is_over or game.to_act is None:
                break
            seat, action = game.to_act, str(driver.choose(game, game.to_act))
            counting.take()
            await h.slash(rec.seats[(seat + 1) % len(PEOPLE)].user_id, "game play", action=action)
            refused.append(sum(counting.take().values()))
            await h.slash(rec.seats[seat].user_id, "game play", action=action)
            calls = sum(counting.take().values())
            if (await bot.store.games.get_game(rec.id)).status == "active":
                accepted.append(calls)
    return accepted, refused


@benchmark("move_path")
def move_path() -> dict[str, float | int | str]:
    auto = plans.AUTO_DEFAULT
    plans.AUTO_DEFAULT = False  # every forced move is a press of its own
    try:
        with tempfile.TemporaryDirectory() as folder:
            accepted, refused = asyncio.run(_counted_race(Path(folder) / "race.db"))
    finally:
        plans.AUTO_DEFAULT = auto
    return {"store_calls_per_press": round(statistics.mean(accepted), 2),
            "store_calls_per_press_max": max(accepted), "presses_counted": len(accepted),
            "store_calls_per_refused_press": max(refused)}
