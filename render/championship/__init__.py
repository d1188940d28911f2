"""A championship's table as a picture for the chat, with its description read aloud in the picture's place.

The caller gives a plain :class:`Table` (the bot's ``bot/standing/championship_picture.py`` makes one from a
standing): the title, the round reached, the drivers' lines best first (position, move since the round
before, name, points, wins and each round's points, dropped ones struck), the teams' lines, what the
contenders need before the last rounds, and whether it is the final table (its champions crowned).
:func:`draw` gives the PNG and the description in the reader's language, words from ``locale/``. Names are
drawn as typed (:func:`rules.literal.bare`) and cut with an ellipsis where their cell ends. The picture is
:data:`WIDTH` pixels wide, its words at least 9 px tall when Discord's column shows it 550 px wide.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from render.common import (
    SMALLEST_TEXT,
    Colour,
    Font,
    cut_to,
    draw_bounded,
    draw_text,
    draw_triangle,
    encode_png,
    font,
    mix,
    star_polygon,
    wrap_text,
)
from rules.catalogue import LANGS, Catalogue
from rules.literal import bare

CATALOGUE = Catalogue(Path(__file__).parent / "locale")

#: the picture's width; Discord's column shows it at 550 px (0.55), so 17 px words read at 9 px there
WIDTH = 1000
#: the most characters of a description (Discord's limit for an attachment's)
DESCRIPTION_LIMIT = 1024
#: the contenders the picture names under "What they need" (the others are counted)
MOST_NEEDS = 6

MARGIN = 18
ROW_H = 36
HEAD_H = 30
BODY, SMALL, BOLD_SIZE = 21, 18, 22
#: the narrowest and widest column of one round's points, and the narrowest name cell
ROUND_MIN, ROUND_MAX, NAME_MIN = 38, 62, 250
POS_W, MOVE_W, WINS_W, POINTS_W = 46, 54, 74, 70
#: the gap between the last round's column and the wins
GAP = 8

BACKGROUND = (250, 248, 242)
INK = (40, 40, 46)
DIM = (150, 146, 138)
RULE = (214, 210, 200)
STRIPE = (241, 237, 228)
GOLD = (236, 197, 72)
GOLD_LIGHT = (249, 231, 170)
UP = (46, 139, 70)
DOWN = (196, 60, 48)
NEW = (38, 110, 190)
LED = (203, 75, 22)


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """The picture's fixed palette: each ink over each ground in nine steps (the edges of anti-aliased
    words and shapes), so encoding needs no search for colours."""
    inks = (INK, DIM, RULE, GOLD, UP, DOWN, NEW, LED)
    grounds = (BACKGROUND, STRIPE, GOLD_LIGHT)
    colours = dict.fromkeys([*grounds, *(mix(g, i, t / 8) for i in inks for g in grounds for t in range(1, 9))])
    out = Image.new("P", (1, 1))
    out.putpalette([v for c in list(colours)[:256] for v in c])
    return out


def say(msg: str, lang: str = "en", count: int | None = None, **params: Any) -> str:
    """Message ``msg`` of the table's words in ``lang`` (English for a language the catalogue lacks)."""
    return CATALOGUE.say(msg, lang if lang in LANGS else "en", count, **params)


class Move(Enum):
    """A driver's move in the table since the round before."""

    UP = "up"
    DOWN = "down"
    NEW = "new"
    SAME = "same"


@dataclass(frozen=True, slots=True)
class Cell:
    """One round of a driver: the ``points`` it scored, the ``place`` (None: did not race), whether it is
    ``dropped``, an ``autopilot`` seat, or ``led`` most laps."""

    points: int
    place: int | None
    dropped: bool = False
    autopilot: bool = False
    led: bool = False


@dataclass(frozen=True, slots=True)
class DriverLine:
    """A driver's line: ``position`` (shared when level), ``move`` by ``by`` places, ``name`` as typed,
    ``points``, ``wins``, each round's :class:`Cell` and whether it is the ``champion``."""

    position: int
    name: str
    points: int
    wins: int
    rounds: tuple[Cell, ...]
    move: Move = Move.SAME
    by: int = 0
    champion: bool = False


@dataclass(frozen=True, slots=True)
class TeamLine:
    """A team's line: ``position``, ``name``, ``points``, each round's points, whether it is ``champion``."""

    position: int
    name: str
    points: int
    rounds: tuple[int, ...]
    champion: bool = False


@dataclass(frozen=True, slots=True)
class NeedLine:
    """What one contender needs: its ``name`` and the ``need`` in words (lines split by newlines)."""

    name: str
    need: str


@dataclass(frozen=True, slots=True)
class Table:
    """Everything the picture shows: ``title``, after round ``round`` of ``rounds``, the drivers best first,
    the teams best first (none: no team table), the ``needs`` (none: not shown) and whether it is ``final``."""

    title: str
    round: int
    rounds: int
    drivers: tuple[DriverLine, ...]
    teams: tuple[TeamLine, ...] = ()
    needs: tuple[NeedLine, ...] = ()
    final: bool = False


@dataclass(frozen=True, slots=True)
class Pictured:
    """The picture's PNG bytes and its description."""

    png: bytes
    description: str


@dataclass(frozen=True, slots=True)
class Layout:
    """Where the columns go (x of each cell's left edge and its width): the same for drivers and teams."""

    pos: int
    move: int
    name: int
    name_w: int
    first_round: int
    round_w: int
    shown: int  # how many of the latest rounds have a column
    wins: int
    points: int


def layout(rounds: int) -> Layout:
    """The columns for ``rounds`` rounds: each round between :data:`ROUND_MIN` and :data:`ROUND_MAX` wide,
    the name cell the rest (at least :data:`NAME_MIN`); the latest rounds only when all do not fit."""
    pos = MARGIN
    move = pos + POS_W
    name = move + MOVE_W
    points = WIDTH - MARGIN - POINTS_W
    wins = points - WINS_W
    room = wins - GAP - name - NAME_MIN
    shown = max(1, min(rounds, room // ROUND_MIN)) if rounds else 0
    round_w = min(ROUND_MAX, room // shown) if shown else 0
    first_round = wins - GAP - shown * round_w
    return Layout(pos, move, name, first_round - name - 8, first_round, round_w, shown, wins, points)


def ellipsized(draw: ImageDraw.ImageDraw, text: str, fnt: Font, width: float, *, name: bool = False) -> str:
    """``text`` as it fits ``width`` pixels: whole, or cut with an ellipsis (:func:`render.common.cut_to`; a
    cut text that is not a ``name`` is noted as an overflow)."""
    return cut_to(draw, text, fnt, width, name=name)


def _needs_lines(draw: ImageDraw.ImageDraw, table: Table, lang: str, fnt: Font) -> list[str]:
    """The lines of the "What they need" block, wrapped to the picture's width."""
    out: list[str] = []
    for need in table.needs[:MOST_NEEDS]:
        text = say("needs.line", lang, name=bare(need.name), need=" ".join(
            line for line in need.need.splitlines() if line))
        out += wrap_text(draw, text, fnt, WIDTH - 2 * MARGIN) or []
    if len(table.needs) > MOST_NEEDS:
        out.append(say("needs.more", lang, count=len(table.needs) - MOST_NEEDS))
    return out


def _height(table: Table, needs: int, key: int) -> int:
    height = MARGIN + 44 + 34 + 12 + HEAD_H + ROW_H * len(table.drivers)
    if table.teams:
        height += 22 + 34 + HEAD_H + ROW_H * len(table.teams)
    if needs:
        height += 22 + 32 + 27 * needs
    return height + 16 + 24 * key + MARGIN


def _crown(draw: ImageDraw.ImageDraw, x: float, y: float) -> None:
    draw.polygon(star_polygon((x, y), 11, 5, 5), fill=GOLD, outline=INK)


def _label(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, width: float, fill: Colour,
           anchor: str, bold: bool = False) -> None:
    """A column's head or mark on one line of ``width`` pixels, shrunk from :data:`SMALL` as far as it must."""
    draw_bounded(draw, xy, text, (width, SMALL * 1.2), SMALL, fill, anchor, bold=bold, one_line_to=SMALLEST_TEXT)


def _move(draw: ImageDraw.ImageDraw, x: float, y: float, line: DriverLine, lang: str) -> None:
    small = font(SMALL)
    if line.move is Move.UP:
        draw_triangle(draw, (x + 10, y), -90, 14, UP)
        draw_text(draw, (x + 21, y), str(line.by), small, UP, anchor="lm")
    elif line.move is Move.DOWN:
        draw_triangle(draw, (x + 10, y), 90, 14, DOWN)
        draw_text(draw, (x + 21, y), str(line.by), small, DOWN, anchor="lm")
    elif line.move is Move.NEW:
        _label(draw, (x + 2, y), say("move.new", lang), MOVE_W - 6, NEW, "lm")
    else:
        draw.line([(x + 5, y), (x + 15, y)], fill=DIM, width=2)


def _cell(draw: ImageDraw.ImageDraw, x: float, y: float, w: int, cell: Cell) -> None:
    """One round's points centred in its column: gold behind a win, struck and dim when dropped, a dash
    when absent, an A for an autopilot seat, a dot when it led most laps."""
    body = font(BODY)
    cx = x + w / 2
    if cell.place is None:
        draw_text(draw, (cx, y), "–", body, DIM)
        return
    if cell.place == 1 and not cell.autopilot:
        draw.rounded_rectangle([x + 3, y - ROW_H / 2 + 4, x + w - 3, y + ROW_H / 2 - 4], 5, fill=GOLD_LIGHT)
    text = "A" if cell.autopilot else str(cell.points)
    colour = DIM if cell.dropped or cell.autopilot else INK
    draw_text(draw, (cx, y), text, body, colour)
    if cell.dropped:
        half = draw.textlength(text, font=body) / 2 + 3
        draw.line([(cx - half, y + 1), (cx + half, y + 1)], fill=DOWN, width=2)
    if cell.led:
        draw.ellipse([x + w - 10, y - ROW_H / 2 + 6, x + w - 4, y - ROW_H / 2 + 12], fill=LED)


def _head(draw: ImageDraw.ImageDraw, y: float, lay: Layout, rounds: int, first: str, lang: str,
          wins: bool = True) -> None:
    small = font(SMALL, bold=True)
    _label(draw, (lay.pos + POS_W - 10, y), say("head.position", lang), lay.pos + POS_W - 12, DIM, "rm", bold=True)
    draw_text(draw, (lay.name, y), first, small, DIM, anchor="lm")
    for i in range(lay.shown):
        number = rounds - lay.shown + i + 1
        _label(draw, (lay.first_round + lay.round_w * (i + 0.5), y), say("head.round", lang, round=number),
               lay.round_w - 2, DIM, "mm", bold=True)
    if wins:
        _label(draw, (lay.wins + WINS_W - 8, y), say("head.wins", lang), WINS_W - 8, DIM, "rm", bold=True)
    _label(draw, (lay.points + POINTS_W, y), say("head.points", lang), POINTS_W - 4, DIM, "rm", bold=True)
    draw.line([(MARGIN, y + HEAD_H / 2), (WIDTH - MARGIN, y + HEAD_H / 2)], fill=RULE, width=2)


def _row_back(draw: ImageDraw.ImageDraw, top: float, i: int, champion: bool) -> None:
    if champion:
        draw.rectangle([MARGIN, top, WIDTH - MARGIN, top + ROW_H], fill=GOLD_LIGHT, outline=GOLD, width=2)
    elif i % 2:
        draw.rectangle([MARGIN, top, WIDTH - MARGIN, top + ROW_H], fill=STRIPE)


def name_font() -> Font:
    """The font of the names in the rows."""
    return font(BODY)


def points_font() -> Font:
    """The font of the totals."""
    return font(BOLD_SIZE, bold=True)


def _drivers(draw: ImageDraw.ImageDraw, table: Table, lay: Layout, top: float, lang: str) -> float:
    """The drivers' rows from ``top`` down; gives the y below them."""
    names, totals = name_font(), points_font()
    for i, line in enumerate(table.drivers):
        _row_back(draw, top, i, line.champion)
        mid = top + ROW_H / 2
        draw_text(draw, (lay.pos + POS_W - 10, mid), f"{line.position}.", font(BODY, bold=True), INK, anchor="rm")
        if line.champion:
            _crown(draw, lay.move + 14, mid)
        else:
            _move(draw, lay.move, mid, line, lang)
        draw_text(draw, (lay.name, mid), ellipsized(draw, bare(line.name), names, lay.name_w, name=True), names, INK,
                  anchor="lm")
        for j, cell in enumerate(line.rounds[len(line.rounds) - lay.shown:]):
            _cell(draw, lay.first_round + lay.round_w * j, mid, lay.round_w, cell)
        draw_text(draw, (lay.wins + WINS_W - 8, mid), str(line.wins), font(BODY), INK, anchor="rm")
        draw_text(draw, (lay.points + POINTS_W, mid), str(line.points), totals, INK, anchor="rm")
        top += ROW_H
    return top


def _teams(draw: ImageDraw.ImageDraw, table: Table, lay: Layout, top: float, lang: str) -> float:
    """The teams' heading and rows from ``top`` down; gives the y below them."""
    names, totals, bold = name_font(), points_font(), font(BODY, bold=True)
    top += 22
    team_sub = say("teams", lang)
    crowned = [t for t in table.teams if t.champion]
    if crowned:
        team_sub += " · " + say("team_champion", lang, name=", ".join(bare(t.name) for t in crowned))
    draw_text(draw, (MARGIN, top + 17), ellipsized(draw, team_sub, bold, WIDTH - 2 * MARGIN), bold, INK, anchor="lm")
    top += 34 + HEAD_H / 2
    _head(draw, top, lay, table.round, say("head.team", lang), lang, wins=False)
    top += HEAD_H / 2
    for i, team in enumerate(table.teams):
        _row_back(draw, top, i, team.champion)
        mid = top + ROW_H / 2
        draw_text(draw, (lay.pos + POS_W - 10, mid), f"{team.position}.", bold, INK, anchor="rm")
        if team.champion:
            _crown(draw, lay.move + 14, mid)
        draw_text(draw, (lay.name, mid), ellipsized(draw, bare(team.name), names, lay.name_w, name=True), names, INK,
                  anchor="lm")
        for j, points in enumerate(team.rounds[len(team.rounds) - lay.shown:]):
            draw_text(draw, (lay.first_round + lay.round_w * (j + 0.5), mid), str(points), font(BODY), INK)
        draw_text(draw, (lay.points + POINTS_W, mid), str(team.points), totals, INK, anchor="rm")
        top += ROW_H
    return top


def picture(table: Table, lang: str = "en") -> bytes:
    """PNG bytes of ``table`` in ``lang``."""
    lay = layout(table.round)
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    small = font(SMALL)
    needs = _needs_lines(probe, table, lang, font(19)) if table.needs else []
    key = wrap_text(probe, say("key", lang), small, WIDTH - 2 * MARGIN) or []
    img = Image.new("RGB", (WIDTH, _height(table, len(needs), len(key))), BACKGROUND)
    draw = ImageDraw.Draw(img)
    heading = font(30, bold=True)
    title = ellipsized(draw, bare(table.title), heading, WIDTH - 2 * MARGIN, name=True)  # a name people chose
    draw_text(draw, (MARGIN, MARGIN + 20), title, heading, INK, anchor="lm")
    sub = say("sub.final", lang, count=table.rounds) if table.final else \
        say("sub.round", lang, round=table.round, rounds=table.rounds)
    champions = [d for d in table.drivers if d.champion]
    if champions:
        sub += " · " + say("champion", lang, name=", ".join(bare(d.name) for d in champions))
    y: float = MARGIN + 44 + 17
    draw_text(draw, (MARGIN, y), ellipsized(draw, sub, font(BODY), WIDTH - 2 * MARGIN), font(BODY), INK, anchor="lm")
    y += 17 + 12 + HEAD_H / 2
    _head(draw, y, lay, table.round, say("head.driver", lang), lang)
    top = _drivers(draw, table, lay, y + HEAD_H / 2, lang)
    if table.teams:
        top = _teams(draw, table, lay, top, lang)
    if needs:
        top += 22
        draw_text(draw, (MARGIN, top + 16), say("needs", lang), font(BODY, bold=True), INK, anchor="lm")
        top += 32
        for text in needs:
            draw_text(draw, (MARGIN, top + 13), text, font(19), INK, anchor="lm")
            top += 27
    top += 16
    for text in key:
        draw_text(draw, (MARGIN, top + 12), text, small, DIM, anchor="lm")
        top += 24
    return encode_png(img, palette=_palette())


# The description ---------------------------------------------------------------------------------------


def _names(names: Sequence[str]) -> str:
    return ", ".join(bare(n) for n in names)


def _row_text(line: DriverLine, lang: str, full: bool) -> str:
    name = bare(line.name)
    if not full:
        return say("alt.row_short", lang, position=line.position, name=name, points=line.points)
    parts = [say("alt.row", lang, count=line.points, position=line.position, name=name)]
    if line.wins:
        parts.append(say("alt.wins", lang, count=line.wins))
    if line.move is Move.UP:
        parts.append(say("alt.up", lang, count=line.by))
    elif line.move is Move.DOWN:
        parts.append(say("alt.down", lang, count=line.by))
    elif line.move is Move.NEW:
        parts.append(say("alt.new", lang))
    return ", ".join(parts)


def _listed(items: Sequence[str], room: int, lang: str) -> str:
    """``items`` joined by "; " within ``room`` characters: as many as fit, the rest counted."""
    joined = "; ".join(items)
    if len(joined) <= room:
        return joined
    for k in range(len(items) - 1, -1, -1):
        text = "; ".join([*items[:k], say("alt.more", lang, count=len(items) - k)])
        if len(text) <= room:
            return text
    return ""


def description(table: Table, lang: str = "en") -> str:
    """What the picture shows, to be read or heard, in ``lang`` and within :data:`DESCRIPTION_LIMIT`
    characters: the title and round, the leader (or champion) and their points, every driver in order
    (in full while it fits, else shorter, else as many as fit and the rest counted), then the teams and
    what the contenders need while there is room."""
    title = bare(table.title)
    head = say("alt.head_final", lang, count=table.rounds, title=title) if table.final else \
        say("alt.head", lang, title=title, round=table.round, rounds=table.rounds)
    top = [d for d in table.drivers if d.position == 1]
    if top:
        names, points = _names([d.name for d in top]), top[0].points
        msg = "alt.champion" if table.final and any(d.champion for d in top) else \
            "alt.leaders" if len(top) > 1 else "alt.leader"
        head += " " + say(msg, lang, count=points, names=names)
    parts = [head]
    room = DESCRIPTION_LIMIT - len(head) - 1
    for full in (True, False):
        rows = say("alt.rows", lang, rows="; ".join(_row_text(d, lang, full) for d in table.drivers))
        if len(rows) <= room or not full:
            break
    if len(rows) > room:
        shell = len(say("alt.rows", lang, rows=""))
        rows = say("alt.rows", lang, rows=_listed([_row_text(d, lang, False) for d in table.drivers],
                                                    room - shell, lang))
    parts.append(rows)
    room -= len(rows) + 1
    extras = []
    if table.teams:
        extras.append(say("alt.teams", lang, rows="; ".join(
            say("alt.row_short", lang, position=t.position, name=bare(t.name), points=t.points) for t in table.teams)))
    if table.needs:
        extras.append(say("alt.needs", lang, needs=" ".join(
            say("needs.line", lang, name=bare(n.name), need=" ".join(x for x in n.need.splitlines() if x))
            for n in table.needs)))
    for extra in extras:
        if len(extra) <= room:
            parts.append(extra)
            room -= len(extra) + 1
    text = " ".join(parts)
    return text if len(text) <= DESCRIPTION_LIMIT else text[:DESCRIPTION_LIMIT - 1] + "…"


def draw(table: Table, lang: str = "en") -> Pictured:
    """The picture of ``table`` and its description, both in ``lang``."""
    return Pictured(picture(table, lang), description(table, lang))


# As stored ---------------------------------------------------------------------------------------------


def to_json(table: Table) -> dict[str, Any]:
    """``table`` as plain JSON values (a delivery record keeps it so, to be drawn when it goes out)."""
    return {
        "title": table.title, "round": table.round, "rounds": table.rounds, "final": table.final,
        "drivers": [[d.position, d.name, d.points, d.wins,
                     [[c.points, c.place, c.dropped, c.autopilot, c.led] for c in d.rounds],
                     d.move.value, d.by, d.champion] for d in table.drivers],
        "teams": [[t.position, t.name, t.points, list(t.rounds), t.champion] for t in table.teams],
        "needs": [[n.name, n.need] for n in table.needs],
    }


def from_json(data: Any) -> Table:
    """The table :func:`to_json` wrote (``ValueError`` for anything else)."""
    try:
        drivers = tuple(DriverLine(int(p), str(n), int(pts), int(w),
                                   tuple(Cell(int(c[0]), None if c[1] is None else int(c[1]), bool(c[2]), bool(c[3]),
                                              bool(c[4])) for c in cells),
                                   Move(m), int(by), bool(ch))
                        for p, n, pts, w, cells, m, by, ch in data["drivers"])
        teams = tuple(TeamLine(int(p), str(n), int(pts), tuple(int(x) for x in r), bool(ch))
                      for p, n, pts, r, ch in data.get("teams") or ())
        needs = tuple(NeedLine(str(n), str(w)) for n, w in data.get("needs") or ())
        return Table(str(data["title"]), int(data["round"]), int(data["rounds"]), drivers, teams, needs,
                     bool(data.get("final")))
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise ValueError("not a championship table") from exc


__all__ = ["DESCRIPTION_LIMIT", "WIDTH", "Cell", "DriverLine", "Move", "NeedLine", "Pictured", "Table", "TeamLine",
           "description", "draw", "ellipsized", "from_json", "layout", "name_font", "picture", "points_font", "say",
           "to_json"]
