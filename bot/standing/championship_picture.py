"""A championship's standing made into the picture's plain value (:class:`render.championship.Table`) and
drawn: the one call that posts the table after a round.

:func:`picture_table` takes the :class:`~bot.standing.championship.Standing` after the round, the one before
(None after the first round: no moves are shown), what each driver needs (None once no round is left, or when
not wanted), the names of the drivers and teams by id, and the language of the needs' words. The final
table crowns its champions: the sole first of the drivers (and of the teams). :func:`draw_table` draws it.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.standing.championship import Need, Standing, Verdict, changes, needs_text
from render.championship import Cell, DriverLine, Move, NeedLine, Pictured, Table, TeamLine, draw


def _move(change: int | None) -> tuple[Move, int]:
    if change is None:
        return Move.NEW, 0
    if change > 0:
        return Move.UP, change
    if change < 0:
        return Move.DOWN, -change
    return Move.SAME, 0


def _sole_first(positions: list[int]) -> int | None:
    """The index of the sole first position, or None when the lead is shared (or nobody is there)."""
    firsts = [i for i, p in enumerate(positions) if p == 1]
    return firsts[0] if len(firsts) == 1 else None


def picture_table(standing: Standing, *, title: str, round_no: int, rounds: int, names: Mapping[int, str],
                  previous: Standing | None = None, needs: Mapping[int, Need] | None = None,
                  team_names: Mapping[int, str] | None = None, lang: str = "en") -> Table:
    """The picture's value of ``standing`` after round ``round_no`` of ``rounds``. A driver or team without
    a name is shown by its number; needs are listed for those who can still be champion, in table order."""
    moved = changes(previous, standing) if previous is not None else {}
    final = round_no >= rounds
    champion = _sole_first([r.position for r in standing.rows]) if final else None
    drivers = []
    for i, row in enumerate(standing.rows):
        move, by = _move(moved.get(row.driver)) if previous is not None else (Move.SAME, 0)
        drivers.append(DriverLine(
            position=row.position, name=names.get(row.driver, f"#{row.driver}"), points=row.points,
            wins=row.places[0] if row.places else 0,
            rounds=tuple(Cell(s.points, s.place, s.dropped, s.autopilot, s.led) for s in row.rounds),
            move=move, by=by, champion=i == champion))
    team_champion = _sole_first([t.position for t in standing.teams]) if final else None
    teams = tuple(TeamLine(t.position, (team_names or {}).get(t.team, f"#{t.team}"), t.points, t.rounds,
                           i == team_champion) for i, t in enumerate(standing.teams))
    wanted = tuple(NeedLine(names.get(row.driver, f"#{row.driver}"), needs_text(needs[row.driver], lang))
                   for row in standing.rows
                   if needs and not final and row.driver in needs
                   and needs[row.driver].verdict is not Verdict.OUT_OF_REACH)
    return Table(title, round_no, rounds, tuple(drivers), teams, wanted, final)


def draw_table(standing: Standing, *, title: str, round_no: int, rounds: int, names: Mapping[int, str],
               previous: Standing | None = None, needs: Mapping[int, Need] | None = None,
               team_names: Mapping[int, str] | None = None, lang: str = "en") -> Pictured:
    """The table's picture and its description in ``lang`` (see :func:`picture_table`)."""
    return draw(picture_table(standing, title=title, round_no=round_no, rounds=rounds, names=names,
                              previous=previous, needs=needs, team_names=team_names, lang=lang), lang)


__all__ = ["draw_table", "picture_table"]
