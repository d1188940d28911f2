"""The notices and reminders of a four-player race played over a simulated week, listed, to show that
nobody is flooded: each player's pings (mentions and direct messages) per day are counted and bounded."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import bot.games as games
from tests.bot.harness import CHANNEL_ID, DiscordHarness, Sent
from tests.bot.helpers import ANN, BOB, EVE, MOD, USERS, answer
from tests.bot.timing_helpers import HOUR, START, Clock, pinged, timed_bot
from tests.bot.toygame import ToyGame, ToyUnit

WEEK = 7 * 24.0
#: hours each player takes to act, drawn per turn (the last ones pass the 48-hour limit: the autopilot plays)
DELAYS = {ANN: (0.1, 0.3, 1, 2), BOB: (1, 3, 6, 9, 20), EVE: (2, 6, 10, 16, 30), MOD: (0.5, 8, 26, 50)}
#: the most pings a player may get in one day
MAX_PINGS_A_DAY = 8
#: the most messages the channel gets in one day (boards, reminders, autopilot boards)
MAX_CHANNEL_MESSAGES_A_DAY = 30


class FourToy(ToyGame):
    key = "toy4"
    title = "Race to Ten for four"
    max_seats = 4


class FourToyUnit(ToyUnit):
    rules = FourToy


@pytest.fixture
def four():
    games.register(FourToyUnit())
    yield
    games.unregister(FourToy.key)


def recipients(sent: list[Sent]) -> list[tuple[int, Sent]]:
    """(player, message) for every ping: a mention that notifies, or a direct message."""
    out: list[tuple[int, Sent]] = []
    dm_to = None
    for s in sent:
        if s.path == "/users/@me/channels":
            dm_to = int(s.payload["recipient_id"])
        elif s.creates_message and s.dm and dm_to is not None:
            out.append((dm_to, s))
        elif s.creates_message and not s.ephemeral:
            out.extend((u, s) for u in pinged(s))
    return out


async def test_a_week_long_race_does_not_flood_anyone(db_path, four):
    clock = Clock()
    rng = random.Random(1)
    stamped: list[tuple[float, Sent]] = []
    async with DiscordHarness(timed_bot(db_path, clock)) as h:
        h.users.update(USERS)

        async def run(coro) -> list[Sent]:
            start = len(h.sent)
            await coro
            await h.settle()
            new = h.sent[start:]
            stamped.extend((clock(), s) for s in new)
            return new

        answer(await h.slash(BOB, "game notify", mode="dm"))
        answer(await h.slash(EVE, "game quiet", start="23:00", end="07:00", timezone="Europe/Berlin"))
        answer(await h.slash(ANN, "game new", game="toy4"))
        for user in (BOB, EVE, MOD):
            answer(await h.slash(user, "game join"))
        answer(await h.slash(ANN, "game settings", turn_limit=48))
        await run(h.slash(ANN, "game start"))
        seen: tuple[int, int] | None = None
        due = 0.0
        while clock() < START + WEEK * HOUR:
            rec = await h.bot.store.games.channel_game(CHANNEL_ID)
            if rec is None:
                break
            game = await h.bot.service.load(rec)
            seat = game.to_act
            assert seat is not None
            user = rec.seats[seat].user_id
            if seen is None or seen[0] != rec.version:
                if seen is None or seen[1] != seat or game.rolled is None:
                    due = clock() + rng.choice(DELAYS[user]) * HOUR
                seen = (rec.version, seat)
            if clock() >= due:
                action = "roll" if game.rolled is None else rng.choice(["pass", "move 1"])
                await run(h.slash(user, "game play", action=action))
                continue
            clock.advance(0.25)
            await run(h.bot.timers.tick())
        rec = (await h.bot.store.games.channel_history(CHANNEL_ID, 1))[0]

    pings = Counter()
    kinds = Counter()
    when = {id(s): at for at, s in stamped}
    posts = Counter()
    for user, s in recipients([s for _, s in stamped]):
        pings[(int((when[id(s)] - START) // (24 * HOUR)), user)] += 1
    for at, s in stamped:
        if s.creates_message and not s.ephemeral:
            posts[int((at - START) // (24 * HOUR))] += not s.dm
            kinds["reminder" if "a reminder" in s.content else "direct notice" if s.dm else
                  "autopilot board" if "Autopilot" in s.content else "quiet-hours ping" if "quiet hours" in s.content
                  else "board or other"] += 1
    days = list(range(7))
    print(f"\n{len(days)} days, {rec.version} moves, {rec.status}; messages by kind: {dict(kinds)}")
    print("pings per day   " + "  ".join(f"{USERS[u]:>4}" for u in DELAYS) + "   channel messages")
    for d in days:
        print(f"day {d + 1}           " + "  ".join(f"{pings[(d, u)]:>4}" for u in DELAYS) + f"   {posts[d]:>8}")
    per_player_day = [pings[(d, u)] for d in days for u in DELAYS]
    mean = sum(per_player_day) / len(per_player_day)
    print(f"mean {mean:.1f} pings a player a day, most {max(per_player_day)}")
    assert rec.version > 20  # the race really lasted the week
    assert kinds["reminder"] > 0 and kinds["direct notice"] > 0 and kinds["autopilot board"] > 0
    assert max(per_player_day) <= MAX_PINGS_A_DAY and max(posts.values()) <= MAX_CHANNEL_MESSAGES_A_DAY
