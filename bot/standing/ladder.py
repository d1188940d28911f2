"""Ladders: the ratings a finished game makes on its server (in the everlasting season and the season that
runs), their rebuild from the results, how each seat kept time, and the texts and chart of ``/stats``.

The arithmetic is :mod:`bot.standing.ratings`'; this module reads and writes the store's ``standings`` part.

- **Timing.** A seat's turn is a run of its consecutive actions; the wait of a turn is the time from the
  action before it to the turn's first action (the game's first turn has no wait to measure). Its missed
  turns are those whose limit passed (the host was asked) and those the autopilot played, as the timing
  counts them in the game's settings (``missed``, ``autopilot``).
- **At a game's end** (:func:`rate_end`) each person's ratings are read, the game is rated in every
  season it counts in (the everlasting one, and the season running when it finished), and the new ratings
  are written with the results in one transaction over their predecessors; when another game moved one of
  them meanwhile, the game is rated again from the fresh ratings.
- **A rebuild** (:func:`rebuild`) rates a season's games again from their results, oldest first, and
  replaces the season's ratings whole: the same arithmetic, so the same numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from bot import texts
from bot.standing.ratings import Entry, Skill, mostly_autopilot, rate
from bot.store import EVERLASTING, ActionRecord, Rating, RatingChange, Result, Season, Store
from rules.literal import Name, Person

#: places a ladder shows per game
LADDER_SIZE = 10
#: rating changes a player's chart draws at most
CHART_POINTS = 200


# How seats kept time ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Timing:
    """One seat's timekeeping in a game: turns, turns with a measured wait, their seconds, missed turns
    and turns the autopilot played."""

    turns: int = 0
    timed: int = 0
    think: float = 0.0
    missed: int = 0
    autopilot: int = 0


def seat_timing(actions: Sequence[ActionRecord], settings: Mapping[str, object]) -> dict[int, Timing]:
    """Each seat's :class:`Timing` from a game's action log and its settings (the timing's counts)."""
    turns: dict[int, list[float]] = {}
    previous: ActionRecord | None = None
    for a in actions:
        if a.seat is not None and (previous is None or previous.seat != a.seat):
            waits = turns.setdefault(a.seat, [])
            waits.append(a.at - previous.at if previous is not None else -1.0)
        previous = a

    def count(key: str, seat: int) -> int:
        table = settings.get(key)
        return int(table.get(str(seat), 0)) if isinstance(table, dict) else 0

    out: dict[int, Timing] = {}
    for seat, waits in turns.items():
        measured = [w for w in waits if w >= 0]
        auto = count("autopilot", seat)
        out[seat] = Timing(len(waits), len(measured), float(sum(measured)), count("missed", seat) + auto, auto)
    return out


# Rating one game -------------------------------------------------------------------------------------


def kind_of(r: Result) -> str | None:
    """A seat's computer kind: its stored one, ``other`` for a computer's row stored before kinds were kept
    (a negative user id), None for a person."""
    return r.driver if r.driver is not None else ("other" if r.user_id < 0 else None)


def season_step(rows: Sequence[Result], current: Mapping[int, Rating], season_id: int, guild_id: int
                ) -> tuple[list[Rating], list[RatingChange]]:
    """The new ratings (and their changes) one finished game, given as its result rows, makes in one season
    from the people's ``current`` ratings there; nothing when the game rates nobody."""
    first = rows[0]
    entries = [Entry(r.user_id, r.place, r.team, kind_of(r),
                     kind_of(r) is None and mostly_autopilot(r.turns, r.autopilot)) for r in rows]
    skills = {uid: Skill(r.mu, r.sigma) for uid, r in current.items()}
    new = rate(entries, skills)
    ratings, changes = [], []
    for r, e in zip(rows, entries, strict=True):
        if r.user_id not in new:
            continue
        old = current.get(r.user_id)
        before = skills.get(r.user_id, Skill())
        after = new[r.user_id]
        ratings.append(Rating(
            guild_id, first.game_key, season_id, r.user_id, r.name, after.mu, after.sigma,
            (old.games if old else 0) + 1, (old.wins if old else 0) + int(r.winner and not e.absent),
            (old.turns if old else 0) + r.turns, (old.timed if old else 0) + r.timed,
            (old.missed if old else 0) + r.missed, (old.think if old else 0.0) + r.think, r.finished_at))
        changes.append(RatingChange(r.game_id, season_id, r.user_id, guild_id, first.game_key, before.mu,
                                    before.sigma, after.mu, after.sigma, r.finished_at))
    return ratings, changes


def counting_seasons(seasons: Iterable[Season], at: float) -> list[int]:
    """The seasons a game finished at ``at`` counts in: the everlasting one, and the one that held then."""
    return [EVERLASTING, *(s.id for s in seasons if s.holds(at))]


async def rate_end(store: Store, rows: Sequence[Result]) -> tuple[list[Rating], list[RatingChange]]:
    """The ratings and changes a finished game's results make in every season it counts in, from the
    ratings stored now (a game outside a server rates nobody)."""
    if not rows or rows[0].guild_id is None:
        return [], []
    guild, key = rows[0].guild_id, rows[0].game_key
    ratings: list[Rating] = []
    changes: list[RatingChange] = []
    for season in counting_seasons(await store.standings.seasons(guild), rows[0].finished_at):
        current: dict[int, Rating] = {}
        for r in rows:
            if kind_of(r) is None:
                found = await store.standings.ratings(guild, key, season, user_id=r.user_id, limit=1)
                if found:
                    current[r.user_id] = found[0]
        made, moved = season_step(rows, current, season, guild)
        ratings += made
        changes += moved
    return ratings, changes


# Rebuilding a season ---------------------------------------------------------------------------------


async def rebuild(store: Store, guild_id: int, season_id: int = EVERLASTING) -> int:
    """Rate the server's games of a season again from their results, oldest first, and replace the season's
    ratings and changes with what that gives; returns how many games were rated."""
    window: Season | None = None
    if season_id != EVERLASTING:
        window = next((s for s in await store.standings.seasons(guild_id) if s.id == season_id), None)
        if window is None:
            raise KeyError(season_id)
    games: dict[int, list[Result]] = {}
    for r in await store.standings.results(guild_id=guild_id, limit=10**9):
        if window is None or window.holds(r.finished_at):
            games.setdefault(r.game_id, []).append(r)
    state: dict[tuple[str, int], Rating] = {}
    changes: list[RatingChange] = []
    rated = 0
    for rows in sorted(games.values(), key=lambda rs: (rs[0].finished_at, rs[0].game_id)):
        rows.sort(key=lambda r: r.seat)
        key = rows[0].game_key
        current = {r.user_id: state[(key, r.user_id)] for r in rows if (key, r.user_id) in state}
        made, moved = season_step(rows, current, season_id, guild_id)
        for rating in made:
            state[(key, rating.user_id)] = rating
        changes += moved
        rated += bool(made)
    await store.standings.replace_ratings(guild_id, season_id, list(state.values()), changes)
    return rated


# What players read -----------------------------------------------------------------------------------


def signed(delta: int) -> str:
    """A rating change with its sign: ``+12``, ``−5``, ``±0``."""
    if delta == 0:
        return "±0"
    return ("+" if delta > 0 else "−") + str(abs(delta))


def change_lines(rows: Sequence[Result], changes: Sequence[RatingChange]) -> list[tuple[str, dict[str, object]]]:
    """The end message's lines of rating changes (catalogue id, parameters), in finishing order: those of the
    running season when the game counts in one, else the everlasting season's."""
    if not changes:
        return []
    season = max(c.season_id for c in changes)
    by_user = {c.user_id: c for c in changes if c.season_id == season}
    out: list[tuple[str, dict[str, object]]] = [("ladder.changes_head", {})]
    for r in sorted(rows, key=lambda r: (r.place, r.seat)):
        c = by_user.get(r.user_id)
        if c is not None and kind_of(r) is None:
            before, after = Skill(c.mu_before, c.sigma_before).shown, Skill(c.mu, c.sigma).shown
            out.append(("ladder.change", {"name": Name(r.name), "before": before, "after": after,
                                          "delta": signed(after - before)}))
    return out


def reliability(r: Rating, lang: str, span: Callable[[float, str], str]) -> dict[str, str]:
    """A rating's reliability in words: share of turns on time, average wait, missed turns."""
    on_time = 1.0 - r.missed / r.turns if r.turns else 1.0
    return {"on_time": texts.decimal(100 * on_time, "0", lang) + " %",
            "average": span(r.think / r.timed, lang) if r.timed else "–",
            "missed": str(r.missed)}


def ladder_lines(ratings: Sequence[Rating], title: Callable[[str], str], lang: str,
                 span: Callable[[float, str], str], size: int = LADDER_SIZE) -> list[str]:
    """A season's ladder per game: rank, player, conservative rating, games, wins and reliability."""
    by_game: dict[str, list[Rating]] = {}
    for r in ratings:
        if r.user_id > 0:
            by_game.setdefault(r.game_key, []).append(r)
    lines: list[str] = []
    for key in sorted(by_game):
        lines.append(texts.say("ladder.game_head", lang, title=title(key)))
        for rank, r in enumerate(by_game[key][:size], start=1):
            kept = reliability(r, lang, span)
            lines.append(texts.say("ladder.line", lang, rank=rank, user=Person(r.user_id, r.name),
                                   rating=Skill(r.mu, r.sigma).shown, games=r.games, wins=r.wins,
                                   on_time=kept["on_time"], average=kept["average"], missed=kept["missed"]))
    return lines


def season_name(season: Season | None, lang: str) -> str:
    """A season as players read it: its name and dates, or the everlasting season."""
    if season is None:
        return texts.say("ladder.everlasting", lang)
    if season.ended_at is None:
        return texts.say("ladder.season_running", lang, name=Name(season.name), id=season.id,
                         start=int(season.started_at))
    return texts.say("ladder.season_ended", lang, name=Name(season.name), id=season.id, start=int(season.started_at),
                     end=int(season.ended_at))


__all__ = ["Timing", "change_lines", "counting_seasons", "ladder_lines", "rate_end", "rebuild", "reliability",
           "season_name", "season_step", "seat_timing", "signed"]
