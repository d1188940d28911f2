"""The records ``/stats`` reads are counted by the store, on both backends: a server's record per game, a
person's record per game, the top of each ladder and a person's rank on it are what the result and rating
rows say, worked out here in Python from the same rows (ties included)."""

from __future__ import annotations

import random

from bot.store import EVERLASTING, PlayerTally, Rating, ServerTally, Store
from bot.store.sql import dumps

GUILD, OTHER = 5 << 22, 6 << 22


def results_of(seed: int = 3, games: int = 60) -> tuple[list[dict], list[dict]]:
    """Finished games on two servers, of two game keys, with repeated move counts (ties) and computers."""
    rng = random.Random(seed)
    game_rows, rows = [], []
    for g in range(1, games + 1):
        guild = GUILD if g % 7 else OTHER
        key = "toy" if g % 3 else "races"
        at = 1000.0 + g * 10 + rng.choice((0, 0, 5))
        moves = rng.choice((4, 5, 5, 9, 12, 12))
        people = rng.sample([1, 2, 3, 4, 5, -1], rng.randint(2, 4))
        seats = [{"user_id": p, "name": f"P{p}", "options": {}} for p in people]
        game_rows.append({"id": g, "guild_id": guild, "channel_id": 100 + g % 3, "game_key": key,
                          "status": "finished", "host_id": abs(people[0]), "setup": dumps({}), "seed": g,
                          "seats": dumps(seats), "version": moves, "state": None, "created_at": at - 5,
                          "updated_at": at, "lang": "en"})
        for seat, p in enumerate(people):
            rows.append({"game_id": g, "seat": seat, "user_id": p, "name": f"P{p}" if g < 40 else f"Q{p}",
                         "place": seat + 1, "winner": int(seat == 0), "moves": moves, "game_key": key,
                         "guild_id": guild, "channel_id": 100 + g % 3, "started_at": at - 5, "finished_at": at,
                         "team": None, "driver": "smart" if p < 0 else None, "turns": 3, "timed": 2, "missed": 0,
                         "autopilot": 0, "think": 20.0})
    return game_rows, rows


async def fill(store: Store) -> list[dict]:
    games, rows = results_of()
    await store.insert_rows("games", games)
    await store.insert_rows("results", rows)
    return rows


def server_oracle(rows: list[dict], guild: int) -> list[ServerTally]:
    out = []
    for key in sorted({r["game_key"] for r in rows if r["guild_id"] == guild}):
        mine = [r for r in rows if r["guild_id"] == guild and r["game_key"] == key]
        games = {r["game_id"]: r["moves"] for r in mine}
        shortest = min(games.items(), key=lambda kv: (kv[1], kv[0]))
        longest = max(games.items(), key=lambda kv: (kv[1], kv[0]))
        wins: dict[int, int] = {}
        for r in mine:
            if r["winner"] and r["user_id"] > 0:
                wins[r["user_id"]] = wins.get(r["user_id"], 0) + 1
        names = {r["user_id"]: min(x["name"] for x in mine if x["user_id"] == r["user_id"] and x["winner"])
                 for r in mine if r["user_id"] in wins}
        top = sorted(wins.items(), key=lambda kv: (-kv[1], names[kv[0]], kv[0]))[:3]
        out.append(ServerTally(key, len(games), shortest[1], shortest[0], longest[1], longest[0], tuple(top),
                               tuple(names[user] for user, _ in top)))
    return out


def player_oracle(rows: list[dict], user: int, guild: int | None) -> list[PlayerTally]:
    out = []
    mine = [r for r in rows if r["user_id"] == user and (guild is None or r["guild_id"] == guild)]
    for key in sorted({r["game_key"] for r in mine}):
        rs = [r for r in mine if r["game_key"] == key]
        best = min(rs, key=lambda r: (r["place"], r["moves"], -r["game_id"]))
        longest = max(rs, key=lambda r: (r["moves"], r["game_id"]))
        newest = max(rs, key=lambda r: (r["finished_at"], r["game_id"]))
        out.append(PlayerTally(key, len(rs), sum(r["winner"] for r in rs), sum(r["place"] for r in rs),
                               best["place"], best["moves"], best["game_id"], longest["moves"], longest["game_id"],
                               newest["name"], newest["finished_at"]))
    return out


async def test_a_server_s_record_is_counted_over_all_its_results(any_store):
    rows = await fill(any_store)
    for guild in (GUILD, OTHER):
        got = await any_store.standings.server_record(guild)
        assert got == server_oracle(rows, guild)
        assert all(len(t.leaders) <= 3 for t in got) and sum(t.games for t in got) > 1
    assert await any_store.standings.server_record(7 << 22) == []


async def test_a_person_s_record_is_counted_per_game_on_a_server_or_everywhere(any_store):
    rows = await fill(any_store)
    for user in (1, 2, 5):
        assert await any_store.standings.player_record(user, GUILD) == player_oracle(rows, user, GUILD)
        everywhere = await any_store.standings.player_record(user)
        assert everywhere == player_oracle(rows, user, None)
        assert sum(t.played for t in everywhere) == sum(r["user_id"] == user for r in rows)
    assert await any_store.standings.player_record(99, GUILD) == []
    [toy] = [t for t in await any_store.standings.player_record(1, GUILD) if t.game_key == "toy"]
    assert toy.name == "Q1" and toy.average == toy.places / toy.played  # the newest name


def rating(key: str, user: int, mu: float, sigma: float, games: int, season: int = EVERLASTING) -> Rating:
    return Rating(GUILD, key, season, user, f"P{user}", mu, sigma, games, 0, 0, 0, 0, 0.0, 1.0)


async def test_the_top_of_each_ladder_and_a_person_s_rank_on_it(any_store):
    rng = random.Random(9)
    ratings = [rating(key, user, rng.choice((20.0, 25.0, 30.0)), rng.choice((2.0, 4.0)), rng.choice((1, 3)))
               for key in ("races", "toy") for user in range(-2, 30) if user != 0]
    ratings.append(rating("toy", 1, 50.0, 1.0, 9, season=3))  # another season: not on this ladder
    await any_store.standings.replace_ratings(GUILD, EVERLASTING, [r for r in ratings if r.season_id == 0], [])
    await any_store.standings.replace_ratings(GUILD, 3, [r for r in ratings if r.season_id == 3], [])
    order = {key: sorted((r for r in ratings if r.game_key == key and r.user_id > 0 and r.season_id == 0),
                         key=lambda r: (-(r.mu - 3 * r.sigma), -r.games, r.user_id)) for key in ("races", "toy")}
    top = await any_store.standings.ladder(GUILD, EVERLASTING, 10)
    assert [(r.game_key, r.user_id) for r in top] == \
        [(key, r.user_id) for key in ("races", "toy") for r in order[key][:10]]
    for user in (1, 7, 29):
        want = {key: (next(i for i, r in enumerate(board, 1) if r.user_id == user), len(board))
                for key, board in order.items()}
        assert await any_store.standings.ranks(GUILD, EVERLASTING, user) == want
    assert await any_store.standings.ranks(GUILD, 3, 1) == {"toy": (1, 1)}
    assert await any_store.standings.ranks(GUILD, EVERLASTING, -1) == {}  # computers are on no ladder
