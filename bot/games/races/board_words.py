"""Junkyard Races as text for a terminal: a small map around the player's kart, the same cells as a list to be
read aloud, and the whole moves with what each drives over.

:func:`board_text` draws the cells the kart can reach with the points it rolled (:func:`rules.races.reach.reach`:
the cells a move can end on and those it can only drive through), or, before the roll, the cells within
:data:`RADIUS` of it, as rows of hex cells: each cell is its label, one mark for what is on it and one for its
terrain. At most :data:`MAX_COLUMNS` columns and :data:`MAX_ROWS` rows fit (80 characters wide); the list
after the map names every cell anyway, a face-down tile only as one (R12).

:func:`move_hint` says what a whole move does: its length in cells, the facing it ends with, a flag it takes,
and what lies on its path (tiles, traps, karts it bumps, mud, grass, the stream; at its end a Pit Stop, or
ground that may hold the next roll to one green die).
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.games.races import texts
from bot.games.unit import Reading
from rules.hexgrid import Facing, Hex
from rules.literal import Name
from rules.races.reach import reach
from rules.races.state import PHASE_MOVE
from rules.races.track import Terrain

#: cells around the kart the map shows before the roll
RADIUS = 3
#: the width of a line the list wraps to (an 80-column terminal)
WIDTH = 79
#: columns and rows of cells the map draws at most (8 characters a column)
MAX_COLUMNS = 9
MAX_ROWS = 12
#: characters a cell takes on a map line (``K12:1m``: label, colon, two marks, and room to the next)
CELL_WIDTH = 8
#: a terrain's mark on the map (tarmac has none)
TERRAIN_MARKS = {Terrain.MUD: "m", Terrain.GRASS: "g", Terrain.STREAM: "~", Terrain.BRIDGE: "b"}
#: the marks of what lies on a cell (a kart shows its number instead)
FACE_DOWN, FACE_UP, PIT, LINE, NOTHING = "?", "!", "P", "#", "."


def _kart_name(kart: Any, lang: str) -> str:
    """A kart as the pictures name it (``Ann (red, kart 1)``, as :func:`bot.games.races.described.kart_name`,
    which this module cannot import: the description reads the table, which reads this)."""
    return texts.say("alt.kart", lang, name=Name(kart.name), colour=texts.colour(kart.colour, lang),
                     number=kart.seat + 1)


def _tile_words(tile: Mapping[str, Any], lang: str) -> str:
    """A tile on the board as everyone may know it: a face-down one only as one."""
    if tile.get("face_down", True):
        return texts.say("alt.face_down", lang)
    name = texts.tile(str(tile["kind"]), lang)
    trap = texts.say("board.trap", lang, tile=name)  # a tile lies face up on the board only as a trap
    return texts.say("board.arrow", lang, tile=trap, facing=tile["arrow"]) if tile.get("arrow") else trap


def _line_sides(game: Any) -> dict[Hex, tuple[list[Facing], list[Facing]]]:
    """For each cell beside the checkered line: the sides where the line lies ahead of it (crossed that way,
    forwards, it counts towards a flag, R4) and the sides where it lies behind it."""
    out: dict[Hex, tuple[list[Facing], list[Facing]]] = {}
    for behind, ahead in game.track.line:
        for a, b, way in ((behind, ahead, 0), (ahead, behind, 1)):
            side = a.facing_to(b)
            if side is not None:
                out.setdefault(a, ([], []))[way].append(side)
    return out


def shown_cells(game: Any, seat: int) -> tuple[Hex | None, frozenset[Hex], frozenset[Hex]]:
    """The kart's cell (None off the track), the cells the map shows, and those of them a move can only drive
    through (empty before the roll). Its reach while it drives; else the track within :data:`RADIUS`."""
    kart = game.karts[seat]
    found = reach(game) if game.to_act == seat else None
    if found is not None and found.cells:
        centre = kart.cell
        cells = found.cells | ({kart.cell} if kart.cell is not None else set())
        return centre, frozenset(cells), frozenset(found.passes - found.ends)
    track = game.track
    centres = [kart.cell] if kart.cell is not None else [s.cell for s in track.starts]
    near = {c for c in (*track.track_cells, *track.stream_cells)
            if any(c.distance(m) <= RADIUS for m in centres)}
    return kart.cell, frozenset(near), frozenset()


def _window(values: Iterable[int], keep: int | None, most: int) -> tuple[int, int]:
    """The first and last of at most ``most`` consecutive values holding ``keep`` and as many ``values`` as
    can be."""
    vals = sorted(values)
    lo, hi = vals[0], vals[-1]
    if hi - lo < most:
        return lo, hi
    starts = range(lo, hi - most + 2)
    if keep is not None:
        starts = range(max(lo, keep - most + 1), min(keep, hi - most + 1) + 1)
    best = max(starts, key=lambda s: (sum(s <= v < s + most for v in vals), -abs(s + most // 2 - (keep or 0))))
    return best, best + most - 1


def _marks(game: Any, view: Mapping[str, Any], cell: Hex, lines: Mapping[Hex, Any]) -> str:
    """A cell's two marks: what is on it (a kart's number first), then its terrain."""
    karts = {k.cell: k.seat for k in game.karts if k.cell is not None}
    tile = view["board"].get(cell.label)
    if cell in karts:
        what = str(karts[cell] + 1)
    elif tile is not None:
        what = FACE_DOWN if tile.get("face_down", True) else FACE_UP
    elif cell in game.track.pits:
        what = PIT
    elif cell in lines:
        what = LINE
    else:
        what = NOTHING
    return what + TERRAIN_MARKS.get(game.track.terrain.get(cell, Terrain.TARMAC), " ")


def map_lines(game: Any, seat: int, cells: frozenset[Hex], centre: Hex | None) -> tuple[list[str], bool]:
    """The map: two lines a row of cells (odd columns sit half a cell lower), and whether it had to leave
    cells out to fit."""
    view = game.view(seat)
    lines = _line_sides(game)
    c0, c1 = _window((c.col for c in cells), centre.col if centre else None, MAX_COLUMNS)
    r0, r1 = _window((c.row for c in cells), centre.row if centre else None, MAX_ROWS)
    drawn = {c for c in cells if c0 <= c.col <= c1 and r0 <= c.row <= r1}
    out = []
    for row in range(r0, r1 + 1):
        for parity in (0, 1):
            slots = []
            for col in range(c0, c1 + 1):
                cell = Hex.from_offset(col, row)
                if col % 2 != parity or cell not in drawn:
                    slots.append(" " * CELL_WIDTH)
                else:
                    slots.append(f"{cell.label}:{_marks(game, view, cell, lines)}".ljust(CELL_WIDTH))
            line = "".join(slots).rstrip()
            if line:
                out.append(line)
    return out, len(drawn) < len(cells)


def cell_words(game: Any, view: Mapping[str, Any], cell: Hex, seat: int,
               lines: Mapping[Hex, tuple[list[Facing], list[Facing]]],
               lang: str) -> list[str]:
    """What a screen reader says about one cell: karts (yours first), tiles, terrain and what is built there."""
    track = game.track
    out = []
    for k in game.karts:
        if k.cell == cell:
            facing = texts.facing(k.facing.name, lang)
            out.append(texts.say("board.you" if k.seat == seat else "board.kart", lang, kart=_kart_name(k, lang),
                                 facing=facing))
    tile = view["board"].get(cell.label)
    if tile is not None:
        out.append(_tile_words(tile, lang))
    terrain = track.terrain.get(cell, Terrain.TARMAC)
    if terrain != Terrain.TARMAC:
        out.append(texts.say(f"board.terrain.{terrain.value}", lang))
    bridge = track.bridges.get(cell)
    if bridge is not None:
        ways = sorted(f for x in bridge.exits if (f := cell.facing_to(x)) is not None)
        if ways:
            out.append(texts.say("board.bridge_exits", lang, ways=", ".join(f.name for f in ways)))
    if cell in track.gap_cells:
        out.append(texts.say("board.gap", lang))
    if cell in track.pits:
        out.append(texts.say(f"board.pit.{track.pits[cell].value}", lang))
    for msg, sides in zip(("board.line_ahead", "board.line_behind"), lines.get(cell, ((), ())), strict=True):
        if sides:
            out.append(texts.say(msg, lang, sides=", ".join(f.name for f in sorted(set(sides)))))
    # R2: the listed walls between two cells of the map (the track's outer edge is a wall everywhere)
    walls = [f.name for f in Facing if frozenset((cell, cell.neighbour(f))) in track.walls]
    if walls:
        out.append(texts.say("board.walls", lang, sides=", ".join(walls)))
    delivery = track.delivery_at.get(cell)
    if delivery is not None:
        out.append(texts.say("board.delivery", lang, number=delivery))
    return out


def board_text(game: Any, seat: int, lang: str = "en") -> str:
    """The map around ``seat``'s kart, its legend, and every cell shown in words (see the module)."""
    kart = game.karts[seat]
    centre, cells, passes = shown_cells(game, seat)
    view = game.view(seat)
    lines = _line_sides(game)
    driving = game.phase == PHASE_MOVE and game.to_act == seat and bool(passes or game.turn.points)
    where = texts.say("board.at", lang, cell=centre.label, facing=texts.facing(kart.facing.name, lang)) \
        if centre is not None else texts.say("board.off", lang)
    head = texts.say("board.head_reach" if driving else "board.head_near", lang, count=len(cells), where=where,
                     points=game.turn.points if driving else 0, radius=RADIUS)
    drawn, cut = map_lines(game, seat, cells, centre)
    out = [head, *drawn]
    if cut:
        out.append(texts.say("board.cut", lang))
    numbers = ", ".join(texts.say("board.legend_you" if k.seat == seat else "board.legend_kart", lang,
                                  number=k.seat + 1, name=Name(k.name), colour=texts.colour(k.colour, lang))
                        for k in game.karts if k.cell in cells)
    ground = TERRAIN_MARKS
    out.append(texts.say("board.legend", lang, karts=numbers or "-", face_down=FACE_DOWN, face_up=FACE_UP, pit=PIT,
                         line=LINE, nothing=NOTHING, mud=ground[Terrain.MUD], grass=ground[Terrain.GRASS],
                         stream=ground[Terrain.STREAM], bridge=ground[Terrain.BRIDGE]))
    plain: list[str] = []
    said: list[str] = []
    near = centre or next(iter(sorted(cells, key=lambda c: c.label)))
    for cell in sorted(cells, key=lambda c: (c.distance(near), c.label)):
        words = cell_words(game, view, cell, seat, lines, lang)
        if cell in passes:
            words.append(texts.say("board.pass_only", lang))
        if words:
            said.append(f"{cell.label}: {', '.join(words)}")
        else:
            plain.append(cell.label)
    out += said
    if plain:
        out += textwrap.wrap(texts.say("board.plain", lang, cells=" ".join(plain)), WIDTH, subsequent_indent="  ")
    return "\n".join(out)


def facing_after(game: Any, cells: Sequence[Hex]) -> Facing:
    """The facing the kart to act ends with after driving ``cells`` (a jump keeps the facing it had)."""
    kart = game.karts[game.turn.seat]
    here, facing = kart.cell, kart.facing
    for nxt in cells:
        if here is not None:
            step = here.facing_to(nxt)
            facing = facing if step is None else step
        here = nxt
    return Facing(facing)


def path_things(game: Any, cells: Sequence[Hex], lang: str = "en", *, where: bool = True
                ) -> tuple[list[str], list[str]]:
    """What a path of the kart to act drives over or ends on: (tiles and terrain passed, karts bumped), each
    with the cell it lies on unless ``where`` is False (a single step names its cell once)."""
    def on(what: str, cell: str) -> str:
        return texts.say("board.on_cell", lang, what=what, cell=cell) if where else what

    view = game.view(game.turn.seat)
    others = {k.cell: k for k in game.karts if k.cell is not None and k.seat != game.turn.seat}
    passed: list[str] = []
    terrain: dict[str, list[str]] = {}
    bumped = []
    for cell in cells:
        tile = view["board"].get(cell.label)
        if tile is not None:
            passed.append(on(_tile_words(tile, lang), cell.label))
        kind = game.track.terrain.get(cell, Terrain.TARMAC)
        if kind in (Terrain.MUD, Terrain.GRASS, Terrain.STREAM):
            at = terrain.setdefault(texts.say(f"board.terrain.{kind.value}", lang), [])
            if cell.label not in at:  # a path that crosses itself names a cell once
                at.append(cell.label)
        if cell in others:
            bumped.append(on(texts.colour(others[cell].colour, lang), cell.label))
    passed += [on(word, " ".join(at)) for word, at in terrain.items()]
    return passed, bumped


def move_hint(game: Any, cells: Sequence[Hex], flags: int, lang: str = "en") -> str:
    """A whole move in words: ``6 cells, ends facing NE, passes Glue (trap) on J9`` (see the module)."""
    parts = [texts.say("board.move", lang, count=len(cells), facing=facing_after(game, cells).name)]
    if flags:
        parts.append(texts.say("board.flag", lang, count=flags))
    passed, bumped = path_things(game, cells, lang)
    if passed:
        parts.append(texts.say("board.passes", lang, things=", ".join(passed)))
    if bumped:
        parts.append(texts.say("board.bumps", lang, karts=", ".join(bumped)))
    end = cells[-1] if cells else None
    ground = game.track.terrain.get(end, Terrain.TARMAC) if end is not None else Terrain.TARMAC
    if ground in (Terrain.GRASS, Terrain.MUD, Terrain.BRIDGE):  # the next roll starts there
        parts.append(texts.say("board.ends_on", lang, terrain=texts.say(f"board.terrain.{ground.value}", lang)))
    if end is not None and end in game.track.pits:
        parts.append(texts.say(f"board.ends_pit.{game.track.pits[end].value}", lang))
    return "; ".join(parts)


def step_hint(game: Any, cell: Hex | None, lang: str = "en") -> str:
    """A single step in words: the cell, then what lies on it (a tile, a trap, a kart it bumps, the ground)."""
    if cell is None:
        return ""
    passed, bumped = path_things(game, [cell], lang, where=False)
    things = list(passed)
    if bumped:
        things.append(texts.say("board.bumps", lang, karts=", ".join(bumped)))
    return ", ".join([cell.label, *things])


#: the words the short list uses, each explained once (the first word of an action, or ``leave`` in it)
GLOSSARY = ("roll", "reverse", "step", "move", "leave", "done", "choose")


def glossary(lang: str = "en") -> list[tuple[str, str]]:
    """(word, what it means) for each word of :data:`GLOSSARY`, in ``lang``."""
    return [(word, texts.say(f"glossary.{word}", lang)) for word in GLOSSARY]


class RaceReading(Reading):
    """A race at the terminal without its pictures: the map around a kart (:func:`board_text`) and the move
    list's words (:func:`glossary`)."""

    def board(self, game: Any, seat: int, lang: str = "en") -> str:
        return board_text(game, seat, lang)

    def glossary(self, lang: str = "en") -> Sequence[tuple[str, str]]:
        return glossary(lang)


__all__ = ["GLOSSARY", "MAX_COLUMNS", "MAX_ROWS", "RADIUS", "RaceReading", "board_text", "cell_words", "facing_after",
           "glossary", "map_lines", "move_hint", "path_things", "shown_cells"]
