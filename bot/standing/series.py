"""A championship run in a channel: its rounds' places read from the games' stored results, the table after
each round (:mod:`bot.standing.championship` does the arithmetic) and the message that shows it.

The table's message goes out with the results of the round that makes it, in their transaction
(:func:`round_note`, called by :func:`bot.standing.history.record_end`), so it is posted once, never lost nor
doubled. It is a few words (:func:`summary`: the round, who leads, or the champions and the season's rating
changes after the last round) beside the table's picture: the record keeps the picture's value
(:func:`chart`, :attr:`bot.messages.Showing.chart`) and the composer draws it with its description when the
message goes out. After its last round a championship finishes by itself (:func:`finish_if_complete`). With a
lead bonus, each round's log is replayed by its game to see who led which lap (:func:`lap_leaders`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot import texts
from bot.games import game_class, unit_for
from bot.messages import NOTE, Line, Showing
from bot.standing.championship import (
    Finish,
    Options,
    PointsTable,
    RoundScore,
    Row,
    Standing,
    Verdict,
    bonus_driver,
    changes,
    needs,
    needs_text,
    table,
)
from bot.standing.championship_picture import picture_table
from bot.standing.ladder import signed
from bot.standing.ratings import Skill, mostly_autopilot
from bot.store import CHAMPIONSHIP_RUNNING, Championship, GameRecord, RatingChange, Result, Store
from bot.telling.compose import Message
from render.championship import Table as Pictured
from render.championship import draw, to_json
from rules.literal import Name

#: needs are told while at most this many rounds are left
NEEDS_BEFORE = 2


def finishes(rows: Sequence[Result], leader: int | None = None) -> list[Finish]:
    """A round's finishes from its game's result rows: a driver is the seat's person (or computer), a seat the
    autopilot mostly played scores nothing, a seat's team is its team; ``leader`` is the seat that earns the
    round's lead bonus (None: nobody)."""
    return [Finish(r.user_id, r.place, mostly_autopilot(r.turns, r.autopilot), r.team, led=r.seat == leader)
            for r in rows]


def bonus_seat(rows: Sequence[Result], leaders: Sequence[int]) -> int | None:
    """The seat of a round that earns its lead bonus, from who led each lap (seats) and the results."""
    return bonus_driver(leaders, {r.seat: r.place for r in rows})


def points_of(champ: Championship) -> PointsTable:
    return PointsTable(champ.points)


def options_of(champ: Championship) -> Options:
    return Options(int(champ.options.get("drop_worst", 0)), int(champ.options.get("lead_bonus", 0)))


async def played(store: Store, champ: Championship, *, before: int | None = None) -> list[list[Result]]:
    """The result rows of each round finished so far (before round ``before`` when given), in round order."""
    out = []
    for number, game_id in await store.championships.round_games(champ.id):
        if before is not None and number >= before:
            continue
        rows = await store.standings.results(game_id=game_id)
        if rows:
            out.append(sorted(rows, key=lambda r: (r.place, r.seat)))
    return out


def _names(rounds: Sequence[Sequence[Result]]) -> dict[int, str]:
    """Each driver's name, as they were called in their latest round."""
    names: dict[int, str] = {}
    for rows in rounds:
        for r in rows:
            names[r.user_id] = r.name
    return names


def _score(s: RoundScore, lang: str) -> str:
    if s.place is None:
        return texts.say("championship.table.absent", lang)
    if s.autopilot:
        return texts.say("championship.table.autopilot", lang, points=s.points)
    return texts.say("championship.table.dropped" if s.dropped else "championship.table.score", lang,
                     points=s.points)


def _change(moved: int | None, lang: str) -> str:
    if moved is None:
        return ""
    if moved > 0:
        return texts.say("championship.table.up", lang, steps=moved)
    if moved < 0:
        return texts.say("championship.table.down", lang, steps=-moved)
    return ""


def _row(row: Row, name: str, moved: int | None, lang: str) -> str:
    return texts.say("championship.table.row", lang, position=row.position, driver=Name(name), points=row.points,
                     rounds=" · ".join(_score(s, lang) for s in row.rounds), change=_change(moved, lang))


def _needs_lines(standing: Standing, said: Mapping[int, Any], names: Mapping[int, str], lang: str) -> list[str]:
    lines = []
    for row in standing.rows:
        need = said.get(row.driver)
        if need is None or need.verdict is Verdict.OUT_OF_REACH:
            continue
        words = needs_text(need, lang).replace("\n", " ")
        if words:
            lines.append(texts.say("championship.table.need", lang, driver=Name(names[row.driver]), need=words))
    return lines


def _standings(champ: Championship, rounds: Sequence[Sequence[Result]], leaders: Sequence[int | None]
               ) -> tuple[list[list[Finish]], Standing]:
    """Each round's finishes (the lead bonus's seat marked) and the table after them."""
    played_ = [finishes(rows, leaders[i] if i < len(leaders) else None) for i, rows in enumerate(rounds)]
    return played_, table(played_, points_of(champ), options_of(champ))


def table_text(champ: Championship, rounds: Sequence[Sequence[Result]], lang: str = texts.DEFAULT,
               leaders: Sequence[int | None] = ()) -> str:
    """The table after ``rounds`` (each round's result rows, in order; ``leaders``: each round's seat that earns
    the lead bonus) in ``lang``: positions, changes since the round before, each round's points and the total;
    the teams' table when there are teams; while few rounds are left, what each contender needs; after the
    last round, the champion."""
    total = len(champ.rounds)
    if not rounds:
        return texts.say("championship.table.none", lang, name=Name(champ.name), rounds=total)
    points, options = points_of(champ), options_of(champ)
    played_, standing = _standings(champ, rounds, leaders)
    moved = changes(table(played_[:-1], points, options), standing) if len(played_) > 1 else {}
    names = _names(rounds)
    done, left = len(rounds), max(total - len(rounds), 0)
    head = "championship.table.final" if left == 0 else "championship.table.head"
    lines = [texts.say(head, lang, name=Name(champ.name), round=done, rounds=total)]
    lines += [_row(row, names[row.driver], moved.get(row.driver), lang) for row in standing.rows]
    if standing.teams:
        lines.append(texts.say("championship.table.teams", lang))
        lines += [texts.say("championship.table.team_row", lang, position=t.position, team=t.team, points=t.points)
                  for t in standing.teams]
    if 0 < left <= NEEDS_BEFORE:
        said = needs(played_, left, points, options)
        told = _needs_lines(standing, said, names, lang)
        if told:
            lines += [texts.say("championship.table.needs", lang, left=left), *told]
    if left == 0:
        lines.append(_crowned(standing, names, lang))
    return "\n".join(lines)


def _crowned(standing: Standing, names: Mapping[int, str], lang: str) -> str:
    """The final table's line of its champion, or of those who share first place."""
    first = [row for row in standing.rows if row.position == 1]
    if len(first) == 1:
        return texts.say("championship.table.champion", lang, driver=Name(names[first[0].driver]))
    return texts.say("championship.table.shared", lang, drivers=", ".join(Name(names[r.driver]) for r in first))


def chart(champ: Championship, rounds: Sequence[Sequence[Result]], lang: str = texts.DEFAULT,
          leaders: Sequence[int | None] = ()) -> Pictured | None:
    """The picture's value of the table after ``rounds`` (None before the first), its needs' words in
    ``lang``; the final one crowns the champions (:mod:`bot.standing.championship_picture`)."""
    if not rounds:
        return None
    played_, standing = _standings(champ, rounds, leaders)
    left = max(len(champ.rounds) - len(rounds), 0)
    points, options = points_of(champ), options_of(champ)
    previous = table(played_[:-1], points, options) if len(played_) > 1 else None
    said = needs(played_, left, points, options) if 0 < left <= NEEDS_BEFORE else None
    teams = {t.team: texts.say("championship.team_name", lang, team=t.team) for t in standing.teams}
    return picture_table(standing, title=champ.name, round_no=len(rounds), rounds=len(champ.rounds),
                         names=_names(rounds), previous=previous, needs=said, team_names=teams, lang=lang)


def summary(champ: Championship, rounds: Sequence[Sequence[Result]], lang: str = texts.DEFAULT,
            leaders: Sequence[int | None] = (), ratings: Mapping[int, int] | None = None,
            page: str | None = None) -> str:
    """The short words beside the table's picture: the round, who leads (after the last round the champions,
    the drivers' and the teams'), who earned the round's lead bonus, at the end each driver's rating change
    summed over the championship's rounds (``ratings``, by driver), and the championship's web ``page``."""
    total = len(champ.rounds)
    if not rounds:
        return texts.say("championship.table.none", lang, name=Name(champ.name), rounds=total)
    _, standing = _standings(champ, rounds, leaders)
    names = _names(rounds)
    left = max(total - len(rounds), 0)
    head = "championship.table.final" if left == 0 else "championship.table.head"
    lines = [texts.say(head, lang, name=Name(champ.name), round=len(rounds), rounds=total)]
    first = [row for row in standing.rows if row.position == 1]
    if left == 0:
        lines.append(_crowned(standing, names, lang))
        top = [t for t in standing.teams if t.position == 1]
        if len(top) == 1:
            lines.append(texts.say("championship.table.team_champion", lang, team=top[0].team, count=top[0].points))
    elif first:
        lines.append(texts.say("championship.table.leader", lang, count=first[0].points,
                               drivers=", ".join(Name(names[r.driver]) for r in first)))
    latest = leaders[len(rounds) - 1] if len(leaders) >= len(rounds) else None
    bonus = options_of(champ).lead_bonus
    led = next((r for r in rounds[-1] if r.seat == latest), None)
    if bonus and led is not None and not mostly_autopilot(led.turns, led.autopilot):  # an autopilot seat scores none
        lines.append(texts.say("championship.table.led", lang, driver=Name(led.name), bonus=bonus))
    if left == 0 and ratings:
        moved = [f"{Name(names[d])} {signed(ratings[d])}" for d in (r.driver for r in standing.rows) if d in ratings]
        lines.append(texts.say("championship.table.ratings", lang, count=len(rounds), changes=", ".join(moved)))
    if page:
        lines.append(texts.say("championship.page_link", lang, url=page))
    return "\n".join(lines)


def table_message(champ: Championship, rounds: Sequence[Sequence[Result]], lang: str = texts.DEFAULT,
                  leaders: Sequence[int | None] = (), ratings: Mapping[int, int] | None = None) -> Message:
    """The table as a message: the short words (:func:`summary`) and the picture with its description."""
    text = summary(champ, rounds, lang, leaders, ratings)
    value = chart(champ, rounds, lang, leaders)
    if value is None:
        return Message(text)
    drawn = draw(value, lang)
    return Message(text, drawn.png, "championship.png", shows="table", description=drawn.description)


def table_showing(champ: Championship, rounds: Sequence[Sequence[Result]], lang: str,
                  leaders: Sequence[int | None] = (), ratings: Mapping[int, int] | None = None,
                  page: str | None = None) -> Showing:
    """The delivery record of the table's message, worded in the channel's ``lang``: the short words, and the
    picture's value, drawn with its description when the record goes out."""
    value = chart(champ, rounds, lang, leaders)
    return Showing(NOTE, lines=(Line(text=summary(champ, rounds, lang, leaders, ratings, page)),),
                   picture="table" if value is not None else "none",
                   chart=to_json(value) if value is not None else None)


async def lap_leaders(store: Store, champ: Championship, rounds: Sequence[Sequence[Result]]) -> list[int | None]:
    """Each round's seat that earns the lead bonus (None: none, or the championship has no bonus), from the
    round's log replayed by its game (:meth:`bot.games.unit.Laps.leaders`)."""
    if not options_of(champ).lead_bonus:
        return [None] * len(rounds)
    front = unit_for(champ.game_key)
    out: list[int | None] = []
    for rows in rounds:
        if not rows:
            out.append(None)
            continue
        rec = await store.games.get_game(rows[0].game_id)
        actions = [a.action for a in await store.games.actions(rec.id)]
        leaders = front.laps.leaders(game_class(champ.game_key).create(dict(rec.setup), rec.seed), actions)
        out.append(bonus_seat(rows, [leaders[lap] for lap in sorted(leaders)]))
    return out


async def rating_moves(store: Store, rounds: Sequence[Sequence[Result]],
                       latest: Sequence[RatingChange] = ()) -> dict[int, int]:
    """Each person's rating change summed over the championship's ``rounds`` (``latest``: the last round's
    changes, not stored yet), each round's in the season it counted in (the running one when there was
    one, else the everlasting one)."""
    out: dict[int, int] = {}
    for i, rows in enumerate(rounds):
        last = i == len(rounds) - 1
        moved = list(latest) if last and latest else (await store.standings.game_changes(rows[0].game_id)
                                                      if rows else [])
        if not moved:
            continue
        season = max(c.season_id for c in moved)
        for c in moved:
            if c.season_id == season:
                delta = Skill(c.mu, c.sigma).shown - Skill(c.mu_before, c.sigma_before).shown
                out[c.user_id] = out.get(c.user_id, 0) + delta
    return out


async def round_note(store: Store, rec: GameRecord, rows: Sequence[Result],
                     latest: Sequence[RatingChange] = (), page: str | None = None) -> Showing | None:
    """When ``rec`` is a round of a championship, the record of the table after it (``rows``: its results and
    ``latest`` its rating changes, not stored yet; ``page`` the championship's web page), in the game's
    language; None otherwise."""
    found = await store.championships.championship_of_game(rec.id)
    if found is None:
        return None
    champ, number = found
    rounds = [*await played(store, champ, before=number), sorted(rows, key=lambda r: (r.place, r.seat))]
    leaders = await lap_leaders(store, champ, rounds)
    final = len(rounds) >= len(champ.rounds)
    ratings = await rating_moves(store, rounds, latest) if final else None
    return table_showing(champ, rounds, rec.lang, leaders, ratings, page)


async def finish_if_complete(store: Store, game_id: int) -> bool:
    """End the championship of the game ``game_id`` when its every round has its results: it finishes by
    itself after its last round. Whether one ended now."""
    found = await store.championships.championship_of_game(game_id)
    if found is None or found[0].status != CHAMPIONSHIP_RUNNING:
        return False
    champ = found[0]
    if len(await played(store, champ)) < len(champ.rounds):
        return False
    return await store.championships.end_championship(champ.id)


__all__ = ["bonus_seat", "chart", "finish_if_complete", "finishes", "lap_leaders", "played", "rating_moves",
           "round_note", "summary", "table_message", "table_showing", "table_text"]
