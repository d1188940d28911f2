"""What both backends share of their SQL: the tables a copy moves, the columns each record is read from,
JSON as both keep it, a filtered SELECT, and the readers that turn a row into a record."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.store.records import (
    Championship,
    Delivery,
    GameRecord,
    Outgoing,
    PlayerTally,
    Rating,
    RatingChange,
    Result,
    Season,
    Seat,
    ServerTally,
    StoreError,
    Timer,
)

#: The tables a copy between databases moves, in an order that respects their references, each with the
#: columns of its primary key (``players`` is not among them: each store derives it from the games' seats).
COPY_TABLES: dict[str, tuple[str, ...]] = {
    "games": ("id",),
    "actions": ("game_id", "idx"),
    "deliveries": ("id",),
    "timers": ("id",),
    "turns": ("game_id",),
    "settings": ("scope", "owner", "target"),
    "results": ("game_id", "seat"),
    "seasons": ("id",),
    "ratings": ("guild_id", "game_key", "season_id", "user_id"),
    "rating_changes": ("game_id", "season_id", "user_id"),
    "championships": ("id",),
    "championship_rounds": ("championship_id", "round"),
}


DELIVERY_COLUMNS = ("id, game_id, channel_id, version, kind, payload, due_at, attempts, claimed_by, claimed_until, "
                     "message_id, delivered_at, created_at")


GAME_COLUMNS = ("id, guild_id, channel_id, game_key, status, host_id, setup, seed, seats, version, state, "
                 "created_at, updated_at, lang")


RESULT_COLUMNS = ("game_id, seat, user_id, name, place, winner, moves, game_key, guild_id, channel_id, started_at, "
                   "finished_at, team, driver, turns, timed, missed, autopilot, think")


RATING_COLUMNS = ("guild_id, game_key, season_id, user_id, name, mu, sigma, games, wins, turns, timed, missed, think, "
                   "updated_at")


CHAMPIONSHIP_COLUMNS = ("id, guild_id, channel_id, host_id, name, game_key, rounds, points, options, status, "
                        "created_at")


def championship_record(row: Sequence[Any]) -> Championship:
    """A championship from its row (:data:`CHAMPIONSHIP_COLUMNS`), its JSON read."""
    rounds, points, options = (json.loads(row[i]) for i in (6, 7, 8))
    return Championship(int(row[0]), row[1], int(row[2]), int(row[3]), str(row[4]), str(row[5]),
                        tuple(dict(r) for r in rounds), tuple(int(p) for p in points), dict(options), str(row[9]),
                        float(row[10]))


CHANGE_COLUMNS = "game_id, season_id, user_id, guild_id, game_key, mu_before, sigma_before, mu, sigma, at"


SEASON_COLUMNS = "id, guild_id, name, started_at, ended_at, started_by"


#: a ladder's order: the conservative rating (μ − 3σ), then more games, then the older id
LADDER_ORDER = "ORDER BY mu - 3 * sigma DESC, games DESC, user_id"


TIMER_COLUMNS = "id, game_id, kind, seat, version, due_at, data, claimed_by, claimed_until, fired_at, created_at"


def dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), sort_keys=True)


def committed(outgoing: Sequence[Outgoing], ids: Sequence[int]) -> None:
    """Give each record its id once its transaction committed (a rolled-back insert never happened)."""
    for out, new_id in zip(outgoing, ids, strict=True):
        out.id = new_id


def game_record(row: Sequence[Any]) -> GameRecord:
    return GameRecord(
        id=row[0], guild_id=row[1], channel_id=row[2], game_key=row[3], status=row[4], host_id=row[5],
        setup=json.loads(row[6]), seed=row[7], seats=[Seat.from_dict(s) for s in json.loads(row[8])],
        version=row[9], state=None if row[10] is None else json.loads(row[10]),
        created_at=row[11], updated_at=row[12], lang=row[13] or "en",
    )


def delivery_record(row: Sequence[Any]) -> Delivery:
    return Delivery(id=row[0], game_id=row[1], channel_id=row[2], version=row[3], kind=row[4],
                    payload=json.loads(row[5]), due_at=row[6], attempts=row[7], claimed_by=row[8],
                    claimed_until=row[9], message_id=row[10], delivered_at=row[11], created_at=row[12])


def timer_record(row: Sequence[Any]) -> Timer:
    return Timer(id=row[0], game_id=row[1], kind=row[2], seat=row[3], version=row[4], due_at=row[5],
                 data=json.loads(row[6]), claimed_by=row[7], claimed_until=row[8], fired_at=row[9],
                 created_at=row[10])


def result_record(row: Sequence[Any]) -> Result:
    return Result(game_id=row[0], seat=row[1], user_id=row[2], name=row[3], place=row[4], winner=bool(row[5]),
                  moves=row[6], game_key=row[7], guild_id=row[8], channel_id=row[9], started_at=row[10],
                  finished_at=row[11], team=row[12], driver=row[13], turns=row[14], timed=row[15],
                  missed=row[16], autopilot=row[17], think=row[18])


def result_values(r: Result) -> tuple[Any, ...]:
    """A result's values in :data:`RESULT_COLUMNS`' order."""
    return (r.game_id, r.seat, r.user_id, r.name, r.place, int(r.winner), r.moves, r.game_key, r.guild_id,
            r.channel_id, r.started_at, r.finished_at, r.team, r.driver, r.turns, r.timed, r.missed, r.autopilot,
            r.think)


def rating_record(row: Sequence[Any]) -> Rating:
    return Rating(*row)


def rating_values(r: Rating) -> tuple[Any, ...]:
    return (r.guild_id, r.game_key, r.season_id, r.user_id, r.name, r.mu, r.sigma, r.games, r.wins, r.turns,
            r.timed, r.missed, r.think, r.updated_at)


def change_record(row: Sequence[Any]) -> RatingChange:
    return RatingChange(*row)


def change_values(c: RatingChange) -> tuple[Any, ...]:
    return (c.game_id, c.season_id, c.user_id, c.guild_id, c.game_key, c.mu_before, c.sigma_before, c.mu, c.sigma,
            c.at)


def season_record(row: Sequence[Any]) -> Season:
    return Season(*row)


def filtered(columns: str, table: str, equal: Mapping[str, Any], extra: Sequence[str] = (),
              mark: Callable[[int], str] = lambda _n: "?") -> tuple[str, list[Any]]:
    """``SELECT columns FROM table`` where every column of ``equal`` whose value is not None has that value and
    every ``extra`` condition holds, with its parameters; ``mark(n)`` writes the n-th placeholder (``?`` in
    SQLite, ``$n`` in PostgreSQL)."""
    where: list[str] = []
    params: list[Any] = []
    for column, value in equal.items():
        if value is not None:
            params.append(value)
            where.append(f"{column} = {mark(len(params))}")
    where += extra
    return f"SELECT {columns} FROM {table}" + (f" WHERE {' AND '.join(where)}" if where else ""), params


# Counting in the database: /stats reads tallies, never every result ------------------------------------

#: a server's finished games per game: how many, the shortest (fewest moves, then the older id) and the
#: longest (most moves, then the newer id); every seat of a game has its length. ``{guild}`` thrice (the
#: index ``results_tally`` answers each part without reading a row)
SERVER_GAMES_SQL = """
SELECT t.game_key, t.games, t.shortest,
       (SELECT MIN(s.game_id) FROM results s
        WHERE s.guild_id = {guild} AND s.game_key = t.game_key AND s.moves = t.shortest),
       t.longest,
       (SELECT MAX(l.game_id) FROM results l
        WHERE l.guild_id = {guild} AND l.game_key = t.game_key AND l.moves = t.longest)
FROM (SELECT game_key, COUNT(DISTINCT game_id) AS games, MIN(moves) AS shortest, MAX(moves) AS longest
      FROM results WHERE guild_id = {guild} GROUP BY game_key) t
ORDER BY t.game_key
"""

#: a server's people with the most wins per game (at most three each; ties by name, then id)
SERVER_LEADERS_SQL = """
SELECT game_key, user_id, wins, name FROM (
    SELECT game_key, user_id, COUNT(*) AS wins, MIN(name) AS name,
           ROW_NUMBER() OVER (PARTITION BY game_key ORDER BY COUNT(*) DESC, MIN(name), user_id) AS standing
    FROM results WHERE guild_id = {guild} AND winner = 1 AND user_id > 0 GROUP BY game_key, user_id
) counted WHERE standing <= 3 ORDER BY game_key, standing
"""

#: a person's record per game (on one server, or everywhere when ``{where}`` leaves the server out)
PLAYER_RECORD_SQL = """
WITH mine AS (
    SELECT game_key, game_id, place, winner, moves, name, finished_at,
           ROW_NUMBER() OVER (PARTITION BY game_key ORDER BY place, moves, game_id DESC) AS best_rank,
           ROW_NUMBER() OVER (PARTITION BY game_key ORDER BY moves DESC, game_id DESC) AS long_rank,
           ROW_NUMBER() OVER (PARTITION BY game_key ORDER BY finished_at DESC, game_id DESC) AS new_rank
    FROM results WHERE {where}
)
SELECT game_key, COUNT(*), SUM(winner), SUM(place),
       MAX(CASE WHEN best_rank = 1 THEN place END), MAX(CASE WHEN best_rank = 1 THEN moves END),
       MAX(CASE WHEN best_rank = 1 THEN game_id END),
       MAX(CASE WHEN long_rank = 1 THEN moves END), MAX(CASE WHEN long_rank = 1 THEN game_id END),
       MAX(CASE WHEN new_rank = 1 THEN name END), MAX(finished_at)
FROM mine GROUP BY game_key ORDER BY game_key
"""

#: the people of a ladder that rank within ``{size}`` per game (best first), in :data:`LADDER_ORDER`
LADDER_TOP_SQL = f"""
SELECT {RATING_COLUMNS} FROM (
    SELECT {RATING_COLUMNS},
           ROW_NUMBER() OVER (PARTITION BY game_key ORDER BY mu - 3 * sigma DESC, games DESC, user_id) AS standing
    FROM ratings WHERE guild_id = {{guild}} AND season_id = {{season}} AND user_id > 0
) ranked WHERE standing <= {{size}} ORDER BY game_key, standing
"""

#: a person's rank on each game's ladder of a season, and how many people each ladder has
RANKS_SQL = """
SELECT game_key, standing, total FROM (
    SELECT game_key, user_id,
           ROW_NUMBER() OVER (PARTITION BY game_key ORDER BY mu - 3 * sigma DESC, games DESC, user_id) AS standing,
           COUNT(*) OVER (PARTITION BY game_key) AS total
    FROM ratings WHERE guild_id = {guild} AND season_id = {season} AND user_id > 0
) ranked WHERE user_id = {user}
"""


def player_where(guild: bool, mark: Callable[[int], str]) -> str:
    """:data:`PLAYER_RECORD_SQL` with its condition: the person (parameter 1) and, when ``guild``, the server
    (parameter 2)."""
    where = f"user_id = {mark(1)}" + (f" AND guild_id = {mark(2)}" if guild else "")
    return PLAYER_RECORD_SQL.format(where=where)


def server_tallies(games: Sequence[Sequence[Any]], leaders: Sequence[Sequence[Any]]) -> list[ServerTally]:
    """The rows of :data:`SERVER_GAMES_SQL` and :data:`SERVER_LEADERS_SQL` as tallies, by game key."""
    top: dict[str, list[tuple[int, int]]] = {}
    names: dict[str, list[str]] = {}
    for key, user, wins, name in leaders:
        top.setdefault(str(key), []).append((int(user), int(wins)))
        names.setdefault(str(key), []).append(str(name))
    return [ServerTally(str(r[0]), int(r[1]), int(r[2]), int(r[3]), int(r[4]), int(r[5]), tuple(top.get(r[0], ())),
                        tuple(names.get(r[0], ()))) for r in games]


def player_tally(row: Sequence[Any]) -> PlayerTally:
    """A row of :data:`PLAYER_RECORD_SQL` as a tally."""
    return PlayerTally(str(row[0]), int(row[1]), int(row[2]), int(row[3]), int(row[4]), int(row[5]), int(row[6]),
                       int(row[7]), int(row[8]), str(row[9]), float(row[10]))


def copy_keys(table: str) -> tuple[str, ...]:
    """The primary key columns of a table a copy moves; :class:`StoreError` for any other name."""
    if table not in COPY_TABLES:
        raise StoreError(f"no table {table!r} to copy (there are {', '.join(COPY_TABLES)})")
    return COPY_TABLES[table]


def rewrites(updates: Mapping[str, Sequence[dict[str, Any]]], deletes: Mapping[str, Sequence[dict[str, Any]]],
             mark: Callable[[int], str]) -> list[tuple[str, tuple[Any, ...]]]:
    """The statements of :meth:`Store.rewrite_rows`: an UPDATE by primary key per row of ``updates`` (every
    other column given), a DELETE by primary key per row of ``deletes``; ``mark(n)`` the n-th placeholder."""
    out: list[tuple[str, tuple[Any, ...]]] = []
    for table, rows in updates.items():
        keys = copy_keys(table)
        for row in rows:
            columns = [c for c in row if c not in keys]
            sets = ", ".join(f"{c} = {mark(i + 1)}" for i, c in enumerate(columns))
            where = " AND ".join(f"{k} = {mark(len(columns) + i + 1)}" for i, k in enumerate(keys))
            out.append((f"UPDATE {table} SET {sets} WHERE {where}",
                        (*(row[c] for c in columns), *(row[k] for k in keys))))
    for table, rows in deletes.items():
        keys = copy_keys(table)
        for row in rows:
            where = " AND ".join(f"{k} = {mark(i + 1)}" for i, k in enumerate(keys))
            out.append((f"DELETE FROM {table} WHERE {where}", tuple(row[k] for k in keys)))
    return out
