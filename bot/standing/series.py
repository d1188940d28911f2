"""A championship run in a channel: its rounds' places read from the games' stored results, the table after
each round (:mod:`bot.standing.championship` does the arithmetic) and the message that shows it.

The table's message goes out with the results of the round that makes it, in their transaction
(:func:`round_note`, called by :func:`bot.standing.history.record_end`), so it is posted once, never lost nor
doubled. :func:`table_message` is where the table becomes something to show: text now; a picture drawn by
``render/`` can join the text there (its ``png``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot import texts
from bot.messages import NOTE, Line, Showing
from bot.standing.championship import (
    Finish,
    Options,
    PointsTable,
    RoundScore,
    Row,
    Standing,
    Verdict,
    changes,
    needs,
    needs_text,
    table,
)
from bot.standing.ratings import mostly_autopilot
from bot.store import Championship, GameRecord, Result, Store
from bot.telling.compose import Message
from rules.literal import Name

#: needs are told while at most this many rounds are left
NEEDS_BEFORE = 2


def finishes(rows: Sequence[Result]) -> list[Finish]:
    """A round's finishes from its game's result rows: a driver is the seat's person (or computer), a seat the
    autopilot mostly played scores nothing, a seat's team is its team."""
    return [Finish(r.user_id, r.place, mostly_autopilot(r.turns, r.autopilot), r.team) for r in rows]


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


def table_text(champ: Championship, rounds: Sequence[Sequence[Result]], lang: str = texts.DEFAULT) -> str:
    """The table after ``rounds`` (each round's result rows, in order) in ``lang``: positions, changes since the
    round before, each round's points and the total; the teams' table when there are teams; while few rounds
    are left, what each contender needs; after the last round, the champion."""
    total = len(champ.rounds)
    if not rounds:
        return texts.say("championship.table.none", lang, name=Name(champ.name), rounds=total)
    points, options = points_of(champ), options_of(champ)
    played_ = [finishes(rows) for rows in rounds]
    standing = table(played_, points, options)
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
        first = [row for row in standing.rows if row.position == 1]
        if len(first) == 1:
            lines.append(texts.say("championship.table.champion", lang, driver=Name(names[first[0].driver])))
        else:
            lines.append(texts.say("championship.table.shared", lang,
                                   drivers=", ".join(Name(names[r.driver]) for r in first)))
    return "\n".join(lines)


def table_message(champ: Championship, rounds: Sequence[Sequence[Result]], lang: str = texts.DEFAULT) -> Message:
    """The table as a message: its text (a picture of it can be added here as the message's ``png``)."""
    return Message(table_text(champ, rounds, lang))


def table_showing(champ: Championship, rounds: Sequence[Sequence[Result]], lang: str) -> Showing:
    """The delivery record of the table's message, worded in the channel's ``lang``."""
    return Showing(NOTE, lines=(Line(text=table_message(champ, rounds, lang).text),))


async def round_note(store: Store, rec: GameRecord, rows: Sequence[Result]) -> Showing | None:
    """When ``rec`` is a round of a championship, the record of the table after it (``rows``: its results, not
    stored yet), in the game's language; None otherwise."""
    found = await store.championships.championship_of_game(rec.id)
    if found is None:
        return None
    champ, number = found
    before = await played(store, champ, before=number)
    return table_showing(champ, [*before, sorted(rows, key=lambda r: (r.place, r.seat))], rec.lang)


__all__ = ["finishes", "played", "round_note", "table_message", "table_showing", "table_text"]
