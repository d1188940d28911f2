"""Junkyard Races tracks: the immutable track model and the loader of ``.track`` files.

The file format is described in ``rules/races/tracks/README.md``. The loader checks everything and
collects every problem with its place (file, line, cell) before raising :class:`TrackError`, so a
track editor sees all mistakes at once instead of one per run.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from importlib import resources
from pathlib import Path

from rules.hexgrid import Facing, Hex, column_index, parse_label
from rules.races.paths import path_to, shortest_paths


class Terrain(StrEnum):
    TARMAC = "tarmac"
    GRASS = "grass"
    MUD = "mud"
    BRIDGE = "bridge"
    STREAM = "stream"


class PitColour(StrEnum):
    GREEN = "green"
    RED = "red"


MAP_CHARS: dict[str, tuple[Terrain, PitColour | None]] = {
    "=": (Terrain.TARMAC, None),
    "g": (Terrain.GRASS, None),
    "m": (Terrain.MUD, None),
    "b": (Terrain.BRIDGE, None),
    "~": (Terrain.STREAM, None),
    "G": (Terrain.TARMAC, PitColour.GREEN),
    "R": (Terrain.TARMAC, PitColour.RED),
}
OFF_CHAR = "."
MAP_INDENT = 4  # characters before column A on every map line


LapState = tuple[Hex, Facing, frozenset[str]]  # cell, facing, stream crossings made this lap


@dataclass(frozen=True, slots=True)
class Problem:
    """One located mistake in a track file."""

    file: str
    line: int | None
    message: str
    cell: str | None = None

    def __str__(self) -> str:
        where = self.file + (f":{self.line}" if self.line else "")
        cell = f" [{self.cell}]" if self.cell else ""
        return f"{where}:{cell} {self.message}"


class TrackError(ValueError):
    """A track file with problems; ``problems`` lists them all, each with its place."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        lines = "\n".join(f"  {p}" for p in problems)
        super().__init__(f"{len(problems)} problem(s) in track file:\n{lines}")


@dataclass(frozen=True, slots=True)
class BridgeCell:
    """One bridge cell and its arrows (ruling R3/R6)."""

    cell: Hex
    bridge: str  # bridge name; its first character is the crossing number
    entries: frozenset[Hex]  # white entry arrows: cells it may be entered from
    exits: frozenset[Hex]  # white exit arrows: cells it may be left to
    bump_sides: frozenset[Facing]  # red arrows: bumped this way, a kart falls into the stream


@dataclass(frozen=True, slots=True)
class Gap:
    """A collapsed bridge: from ``near`` a kart must go straight over ``cells`` to land on ``far``."""

    near: Hex
    cells: tuple[Hex, ...]
    far: Hex
    facing: Facing


@dataclass(frozen=True, slots=True)
class LandingPoint:
    crossing: str
    cell: Hex
    facing: Facing


@dataclass(frozen=True, slots=True)
class Start:
    cell: Hex
    facing: Facing


@dataclass(frozen=True)
class Track:
    """An immutable Junkyard Races track."""

    name: str
    alias: str
    description: str
    columns: int
    rows: int
    terrain: dict[Hex, Terrain]  # every track cell and every stream cell
    pits: dict[Hex, PitColour]
    walls: frozenset[frozenset[Hex]]  # listed walls between two cells that are both on the map
    bridges: dict[Hex, BridgeCell]
    gaps: tuple[Gap, ...]
    landings: dict[str, LandingPoint]  # by crossing id
    stream_landing: dict[Hex, str]  # stream cell -> crossing id of its Landing Point
    line: tuple[tuple[Hex, Hex], ...]  # Checkered Line edges as (behind, ahead)
    starts: tuple[Start, ...]
    deliveries: dict[int, Hex]  # 3..18
    bottle_tops: dict[Hex, int]
    source: str = field(default="", compare=False)

    # Cells -------------------------------------------------------------------------------------

    def on_track(self, cell: Hex) -> bool:
        """A cell a kart may stand on when not swimming: anything on the map but the stream."""
        t = self.terrain.get(cell)
        return t is not None and t is not Terrain.STREAM

    def is_stream(self, cell: Hex) -> bool:
        return self.terrain.get(cell) is Terrain.STREAM

    def is_bridge(self, cell: Hex) -> bool:
        return cell in self.bridges

    @cached_property
    def track_cells(self) -> frozenset[Hex]:
        return frozenset(c for c, t in self.terrain.items() if t is not Terrain.STREAM)

    @cached_property
    def stream_cells(self) -> frozenset[Hex]:
        return frozenset(c for c, t in self.terrain.items() if t is Terrain.STREAM)

    @cached_property
    def delivery_at(self) -> dict[Hex, int]:
        return {c: n for n, c in self.deliveries.items()}

    @cached_property
    def line_edges(self) -> dict[tuple[Hex, Hex], int]:
        """Crossing the line: +1 for (behind → ahead), -1 for (ahead → behind)."""
        out: dict[tuple[Hex, Hex], int] = {}
        for behind, ahead in self.line:
            out[(behind, ahead)] = 1
            out[(ahead, behind)] = -1
        return out

    @cached_property
    def gap_from(self) -> dict[Hex, Gap]:
        return {g.near: g for g in self.gaps}

    @cached_property
    def gap_cells(self) -> dict[Hex, Gap]:
        return {c: g for g in self.gaps for c in g.cells}

    def landing_for(self, stream_cell: Hex) -> LandingPoint:
        return self.landings[self.stream_landing[stream_cell]]

    def label(self, cell: Hex) -> str:
        return cell.label

    def parse_cell(self, text: str) -> Hex:
        """A label on this board; raises ``ValueError`` saying what is wrong."""
        return parse_label(text, self.columns, self.rows)

    # Edges -------------------------------------------------------------------------------------

    def wall_between(self, a: Hex, b: Hex) -> bool:
        """R2: a wall stands on every edge that leaves the map and on every listed edge."""
        if a not in self.terrain or b not in self.terrain:
            return True
        return frozenset((a, b)) in self.walls

    def may_step(self, a: Hex, b: Hex) -> bool:
        """Whether a kart may drive from ``a`` to the adjacent track cell ``b`` (R2, R6).

        Gap jumps into the stream are handled by the movement rules, not here.
        """
        if not self.on_track(b) or self.wall_between(a, b):
            return False
        to_bridge = self.bridges.get(b)
        if to_bridge is not None and a not in to_bridge.entries:
            return False
        from_bridge = self.bridges.get(a)
        return from_bridge is None or b in from_bridge.exits

    def may_bump(self, a: Hex, b: Hex) -> bool:
        """Whether a kart standing on ``a`` may be pushed onto the adjacent cell ``b``.

        Walls stop it; onto or off a bridge it must follow the white arrows, and off a bridge into
        the stream only on a red side. Elsewhere the bank is open: a kart can go into the water.
        """
        if self.wall_between(a, b):
            return False
        from_bridge = self.bridges.get(a)
        if self.is_stream(b):
            if from_bridge is not None:
                facing = a.facing_to(b)
                return facing is not None and facing in from_bridge.bump_sides
            return True
        return self.may_step(a, b)

    def open_neighbours(self, cell: Hex) -> Iterator[Hex]:
        """Track neighbours reachable without crossing a wall (arrows ignored)."""
        for n in cell.neighbours():
            if self.on_track(n) and not self.wall_between(cell, n):
                yield n

    # Derived facts used by tests, drivers and the picture ----------------------------------------

    @cached_property
    def bridge_names(self) -> dict[str, tuple[Hex, ...]]:
        out: dict[str, list[Hex]] = {}
        for c, b in self.bridges.items():
            out.setdefault(b.bridge, []).append(c)
        return {k: tuple(sorted(v)) for k, v in sorted(out.items())}

    def forward_successors(self, cell: Hex, facing: Facing) -> Iterator[tuple[Hex, Facing]]:
        """Cells one forward step (ahead, ahead-left, ahead-right) can reach, with the new facing."""
        for f in (facing, facing.left, facing.right):
            n = cell.neighbour(f)
            if self.may_step(cell, n):
                yield n, f

    def jump_landing(self, cell: Hex, facing: Facing) -> tuple[Gap, int] | None:
        """If a kart on a bridge end can drive into its gap, the gap and the steps it takes to land.

        A forward step may turn 60° either way (R5), so a kart facing the gap or one sixth of a turn off
        it may go in; once in, it flies straight on (R7) and lands after ``len(gap.cells) + 1`` steps.
        """
        gap = self.gap_from.get(cell)
        if gap is None or facing not in (gap.facing, gap.facing.left, gap.facing.right):
            return None
        return gap, len(gap.cells) + 1

    def distances_to_line(self, use_gaps: bool = True) -> dict[tuple[Hex, Facing], int]:
        """Fewest forward steps from each (cell, facing) to cross the Checkered Line forwards.

        Respects walls and bridge arrows; collapsed bridges count as their number of steps when
        ``use_gaps``. Backward search over the forward-step graph.
        """
        preds: dict[tuple[Hex, Facing], list[tuple[tuple[Hex, Facing], int]]] = {}
        targets: list[tuple[Hex, Facing]] = []
        for cell in self.track_cells:
            for facing in Facing:
                state = (cell, facing)
                for nxt, steps in self.drive_moves(cell, facing, use_gaps):
                    if steps == 1 and self.line_edges.get((cell, nxt[0])) == 1:
                        targets.append(state)
                    preds.setdefault(nxt, []).append((state, steps))
        return shortest_paths(dict.fromkeys(targets, 1), lambda s: preds.get(s, ()))[0]

    def reachable_from_starts(self) -> set[tuple[Hex, Facing]]:
        """Every (cell, facing) a kart can drive to from the start cells, jumps included."""
        starts = {(s.cell, s.facing): 0 for s in self.starts}
        return set(shortest_paths(starts, lambda s: self.drive_moves(s[0], s[1], True))[0])

    def drive_moves(self, cell: Hex, facing: Facing, use_gaps: bool) -> list[tuple[tuple[Hex, Facing], int]]:
        """The forward moves from a cell and facing on an empty board: ((cell, facing) after, steps),
        a jump over a collapsed bridge included when ``use_gaps``."""
        out = [(state, 1) for state in self.forward_successors(cell, facing)]
        if use_gaps:
            jump = self.jump_landing(cell, facing)
            if jump is not None:
                out.append(((jump[0].far, jump[0].facing), jump[1]))
        return out

    @cached_property
    def crossings(self) -> frozenset[str]:
        """The ids of the stream crossings (the first character of their bridges' names)."""
        return frozenset(b.bridge[0] for b in self.bridges.values())

    def lap_starts(self) -> dict[LapState, int]:
        """Where the lap graph starts: just past the line, facing over it, no crossing made (one step)."""
        out: dict[LapState, int] = {}
        for behind, ahead in self.line:
            f = behind.facing_to(ahead)
            assert f is not None
            out[(ahead, f, frozenset())] = 1
        return out

    def lap_moves(self, state: LapState, use_gaps: bool = False) -> Iterator[tuple[LapState | None, int]]:
        """The lap graph: forward moves that do not cross the line forwards, recording each stream
        crossing made (leaving a bridge to one of its exits, or jumping a gap). ``None`` is the finish:
        crossing the line forwards once every crossing is made."""
        cell, facing, done = state
        for (nxt, nf), cost in self.drive_moves(cell, facing, use_gaps):
            if self.line_edges.get((cell, nxt)) == 1:
                if done == self.crossings:
                    yield None, cost
                continue
            ndone = done
            br = self.bridges.get(cell)
            if br is not None and not self.is_bridge(nxt):
                ndone = done | {br.bridge[0]}
            elif cost > 1:
                ndone = done | {self.bridges[cell].bridge[0]}
            yield (nxt, nf, ndone), cost

    def shortest_lap(self, use_gaps: bool = False) -> tuple[int, list[Hex]]:
        """Fewest steps from crossing the line forwards, over a bridge each way, to crossing it again.

        Returns the step count and the cells driven through (the first is just past the line).
        Jumps over collapsed bridges are left out unless ``use_gaps``: a lap must exist over whole
        bridges. Crossings are counted as leaving a bridge to one of its exit cells.
        """
        finish: LapState = (Hex(-1, -1), Facing.N, frozenset())  # the finish (``None`` in the lap graph)

        def moves(state: LapState) -> Iterator[tuple[LapState, int]]:
            for nxt, cost in self.lap_moves(state, use_gaps):
                yield (finish if nxt is None else nxt), cost

        dist, prev = shortest_paths(self.lap_starts(), moves, goal=finish)
        if finish not in dist:
            return 0, []
        return dist[finish], [s[0] for s in path_to(prev, finish)[:-1]]


# ---------------------------------------------------------------------------------------------------
# Loading


_SECTION = re.compile(r"^\[(\w+)\]\s*$")
_ROW_LINE = re.compile(r"^\s*(\d+)(?=\s)")
_KNOWN = {"track", "map", "walls", "bridges", "crossings", "checkered", "delivery", "bottletops"}
_REQUIRED = ("track", "map", "bridges", "crossings", "checkered", "delivery", "bottletops")

Lines = list[tuple[int, str]]  # (line number, text) of one section


def _strip_comment(text: str) -> str:
    i = text.find("#")
    return text if i < 0 else text[:i]


@dataclass
class _Loader:
    """One track file being read: each section's parser adds what it finds and every problem it sees.

    The sections are read in a fixed order (map first, then what refers to its cells), so later
    checks can rely on what earlier ones found; a problem never stops the reading.
    """

    source: str
    problems: list[Problem] = field(default_factory=list)
    sections: dict[str, Lines] = field(default_factory=dict)
    header: dict[str, int] = field(default_factory=dict)  # section -> line of its [header]
    meta: dict[str, str] = field(default_factory=dict)
    terrain: dict[Hex, Terrain] = field(default_factory=dict)
    pits: dict[Hex, PitColour] = field(default_factory=dict)
    map_line_of: dict[Hex, int] = field(default_factory=dict)
    columns: int = 0
    rows: int = 0
    walls: set[frozenset[Hex]] = field(default_factory=set)
    landings: dict[str, LandingPoint] = field(default_factory=dict)
    stream_landing: dict[Hex, str] = field(default_factory=dict)
    bridges: dict[Hex, BridgeCell] = field(default_factory=dict)
    bridge_line: dict[Hex, int] = field(default_factory=dict)
    gaps: list[Gap] = field(default_factory=list)
    line_edges: list[tuple[Hex, Hex]] = field(default_factory=list)
    edge_line: dict[tuple[Hex, Hex], int] = field(default_factory=dict)
    starts: list[Start] = field(default_factory=list)
    start_line: dict[Hex, int] = field(default_factory=dict)
    deliveries: dict[int, Hex] = field(default_factory=dict)
    bottle_tops: dict[Hex, int] = field(default_factory=dict)

    # Small helpers --------------------------------------------------------------------------------

    def problem(self, line: int | None, message: str, cell: Hex | str | None = None) -> None:
        label = cell.label if isinstance(cell, Hex) else cell
        self.problems.append(Problem(self.source, line, message, label))

    def cell(self, text: str, line: int) -> Hex | None:
        try:
            return parse_label(text, self.columns, self.rows)
        except ValueError as exc:
            self.problem(line, str(exc), text.strip() or None)
            return None

    def facing(self, text: str, line: int) -> Facing | None:
        try:
            return Facing.parse(text)
        except ValueError as exc:
            self.problem(line, str(exc))
            return None

    def neighbours(self, token: str, number: int, no_pair: str, apart: str) -> tuple[Hex, Hex] | None:
        """The two cells a token like 'F7/F8' names, when both read as cells and are neighbours; otherwise
        None, with a problem: ``no_pair`` when there is no '/', ``apart`` when the cells do not touch."""
        a_text, sep, b_text = token.partition("/")
        if not sep:
            self.problem(number, no_pair)
            return None
        a = self.cell(a_text, number)
        b = self.cell(b_text, number)
        if a is None or b is None:
            return None
        if a.distance(b) != 1:
            self.problem(number, apart, a)
            return None
        return a, b

    def need_track(self, cell: Hex, number: int, what: str) -> bool:
        """Whether ``cell`` is a track cell; a problem saying what it is instead if not."""
        if cell not in self.terrain:
            self.problem(number, f"{what} is not on the map", cell)
            return False
        if self.terrain[cell] is Terrain.STREAM:
            self.problem(number, f"{what} is in the stream", cell)
            return False
        return True

    def lines(self, section: str) -> Lines:
        return self.sections.get(section, [])

    # The file --------------------------------------------------------------------------------------

    def read(self, text: str) -> Track:
        """Every section in order, then the checks of the whole; raises :class:`TrackError` if any failed."""
        self.split_sections(text)
        self.read_track()
        self.read_map()
        self.read_walls()
        self.read_crossings()
        self.read_bridges()
        self.check_bridges()
        self.find_gaps()
        self.read_checkered()
        self.read_delivery()
        self.read_bottletops()
        self.check_pit_stops()
        if self.problems:
            raise TrackError(self.problems)
        track = self.track()
        _check_reachability(track, self, self.map_line_of)
        if self.problems:
            raise TrackError(self.problems)
        return track

    def split_sections(self, text: str) -> None:
        """Sort the lines into their [sections]: map lines keep their spacing, others lose comments."""
        current: str | None = None
        for number, raw in enumerate(text.splitlines(), 1):
            m = _SECTION.match(raw.strip())
            if m:
                current = m.group(1).lower()
                if current in self.sections:
                    self.problem(number, f"section [{current}] appears twice")
                self.sections.setdefault(current, [])
                self.header.setdefault(current, number)
                continue
            if current is None:
                if _strip_comment(raw).strip():
                    self.problem(number, "text before the first [section]")
                continue
            if current == "map":
                if raw.lstrip().startswith("#") or not raw.strip():
                    continue
                self.sections[current].append((number, raw.rstrip("\n")))
            elif _strip_comment(raw).strip():
                self.sections[current].append((number, _strip_comment(raw).strip()))
        for name in self.sections:
            if name not in _KNOWN:
                known = ", ".join(sorted(_KNOWN))
                self.problem(self.header[name], f"unknown section [{name}]; known sections: {known}")
        for name in _REQUIRED:
            if name not in self.sections:
                self.problem(None, f"section [{name}] is missing")

    def read_track(self) -> None:
        for number, line in self.lines("track"):
            key, _, value = line.partition(" ")
            if key not in ("name", "alias", "description"):
                self.problem(number, f"unknown key {key!r} in [track]; use name, alias or description")
                continue
            self.meta[key] = value.strip()
        for key in ("name", "alias"):
            if not self.meta.get(key):
                self.problem(self.header.get("track"), f"[track] needs a {key}")

    # [map] -----------------------------------------------------------------------------------------

    def read_map(self) -> None:
        """Two lines per row: the numbered one holds the even columns (A, C, …), the next the odd ones."""
        row = -1
        half = 1
        expected_row = 1
        for number, line in self.lines("map"):
            m = _ROW_LINE.match(line)
            if m:
                row = int(m.group(1)) - 1
                half = 0
                if row + 1 != expected_row:
                    self.problem(number, f"map row {row + 1} follows row {expected_row - 1}; rows must count up by one")
                expected_row = row + 2
            else:
                if row < 0 or half != 0:
                    self.problem(number, "a map line without a row number must follow a numbered line (it holds "
                                 "the odd columns B, D, F … of that row)")
                    continue
                half = 1
            self.read_map_line(number, line, row, half)
        self.rows = max(expected_row - 1, 0)
        if not self.terrain and "map" in self.sections:
            self.problem(self.header.get("map"), "the map has no track cells")

    def read_map_line(self, number: int, line: str, row: int, half: int) -> None:
        body = line[MAP_INDENT:]
        for i, ch in enumerate(body):
            if ch == " ":
                continue
            col, odd = divmod(i, 2)
            if odd:
                self.problem(number, f"character {ch!r} at position {MAP_INDENT + i + 1} sits between two columns;"
                             " cells are two characters apart")
                continue
            if col % 2 != half:
                which = "odd (B, D, …)" if col % 2 else "even (A, C, …)"
                self.problem(number, f"column {Hex(col, 0).label[:-1]} is {which} and belongs on the "
                             f"{'second' if col % 2 else 'numbered'} line of the row", Hex.from_offset(col, row))
                continue
            self.columns = max(self.columns, col + 1)
            cell = Hex.from_offset(col, row)
            if ch == OFF_CHAR:
                continue
            if ch not in MAP_CHARS:
                choices = ", ".join(f"{k!r}" for k in [*MAP_CHARS, OFF_CHAR])
                self.problem(number, f"unknown terrain {ch!r}; use one of {choices}", cell)
                continue
            t, pit = MAP_CHARS[ch]
            self.terrain[cell] = t
            self.map_line_of[cell] = number
            if pit is not None:
                self.pits[cell] = pit

    # [walls] and [crossings] -----------------------------------------------------------------------

    def read_walls(self) -> None:
        for number, line in self.lines("walls"):
            for token in line.split():
                pair = self.neighbours(token, number, f"wall {token!r} should name two neighbouring cells as 'F7/F8'",
                                       f"wall {token}: the two cells are not neighbours")
                if pair is None:
                    continue
                a, b = pair
                if a not in self.terrain or b not in self.terrain:
                    self.problem(number, f"wall {token}: a wall already stands where the map ends", a)
                    continue
                self.walls.add(frozenset((a, b)))

    def read_crossings(self) -> None:
        for number, line in self.lines("crossings"):
            self.read_crossing(number, line)
        for c, t in sorted(self.terrain.items()):
            if t is Terrain.STREAM and c not in self.stream_landing:
                self.problem(self.map_line_of.get(c), "stream cell has no Landing Point (no crossing's span covers it)",
                             c)

    def read_crossing(self, number: int, line: str) -> None:
        """``ID landing CELL FACING columns|rows FROM-TO``: a Landing Point and the stream it serves."""
        parts = line.split()
        if len(parts) != 6 or parts[1] != "landing" or parts[4] not in ("columns", "rows"):
            self.problem(number, "a crossing reads: ID landing CELL FACING columns|rows FROM-TO "
                         "(like '1 landing H14 S columns A-O')")
            return
        cid, _, cell_text, facing_text, axis, span = parts
        if len(cid) != 1 or not cid.isdigit():
            self.problem(number, f"crossing id {cid!r} should be one digit")
            return
        if cid in self.landings:
            self.problem(number, f"crossing {cid} is listed twice")
        cell = self.cell(cell_text, number)
        facing = self.facing(facing_text, number)
        bounds = self.span(number, axis, span)
        if bounds is None or cell is None or facing is None:
            return
        lo, hi = bounds
        if self.need_track(cell, number, "Landing Point"):
            self.landings[cid] = LandingPoint(cid, cell, facing)
        for c, t in self.terrain.items():
            if t is Terrain.STREAM and lo <= (c.col if axis == "columns" else c.row) <= hi:
                if c in self.stream_landing and self.stream_landing[c] != cid:
                    self.problem(number, f"stream cell is carried to both crossing {self.stream_landing[c]} and {cid}",
                                 c)
                self.stream_landing[c] = cid

    def span(self, number: int, axis: str, span: str) -> tuple[int, int] | None:
        """A crossing's span of columns (``A-O``) or rows (``1-11``) as 0-based bounds."""
        lo_text, sep, hi_text = span.partition("-")
        if not sep:
            self.problem(number, f"span {span!r} should read FROM-TO, like 'A-O' or '1-11'")
            return None
        if axis == "columns" and lo_text.isalpha() and hi_text.isalpha():
            lo, hi = column_index(lo_text), column_index(hi_text)
        elif axis == "rows" and lo_text.isdigit() and hi_text.isdigit():
            lo, hi = int(lo_text) - 1, int(hi_text) - 1
        else:
            example = "'A-O'" if axis == "columns" else "'1-11'"
            self.problem(number, f"span {span!r} does not name {axis}: write it like {example}")
            return None
        if lo > hi:
            self.problem(number, f"span {span!r} runs backwards: write the lower end first")
            return None
        return lo, hi

    # [bridges] and the collapsed bridges they make -------------------------------------------------

    def read_bridges(self) -> None:
        for number, line in self.lines("bridges"):
            self.read_bridge(number, line)
        for c, t in sorted(self.terrain.items()):
            if t is Terrain.BRIDGE and c not in self.bridges:
                self.problem(self.map_line_of.get(c), "bridge cell has no arrows in [bridges]", c)

    def read_bridge(self, number: int, line: str) -> None:
        """``NAME CELL from CELLS… to CELLS… [red FACINGS…]``: one bridge cell and its arrows."""
        parts = line.split()
        if len(parts) < 2:
            self.problem(number, "a bridge cell reads: NAME CELL from CELLS… to CELLS… [red FACINGS…]")
            return
        name, cell_text, rest = parts[0], parts[1], parts[2:]
        if not re.fullmatch(r"\d[a-z]", name):
            self.problem(number, f"bridge name {name!r} should be the crossing digit then a letter, like '1a'")
            return
        cell = self.cell(cell_text, number)
        if cell is None:
            return
        groups: dict[str, list[str]] = {"from": [], "to": [], "red": []}
        key: str | None = None
        for token in rest:
            if token in groups:
                key = token
            elif key is None:
                self.problem(number, f"{token!r}: say 'from', 'to' or 'red' before the cells or facings")
            else:
                groups[key].append(token)
        if self.terrain.get(cell) is not Terrain.BRIDGE:
            self.problem(number, "bridge arrows on a cell that is not a bridge ('b') on the map", cell)
            return
        if cell in self.bridges:
            self.problem(number, "bridge cell is listed twice", cell)
            return
        entries = [c for c in (self.cell(t, number) for t in groups["from"]) if c is not None]
        exits = [c for c in (self.cell(t, number) for t in groups["to"]) if c is not None]
        red = [f for f in (self.facing(t, number) for t in groups["red"]) if f is not None]
        if not entries:
            self.problem(number, "bridge has no entry ('from' cells)", cell)
        if not exits:
            self.problem(number, "bridge has no exit ('to' cells)", cell)
        for c in entries + exits:
            if c.distance(cell) != 1:
                self.problem(number, f"arrow to {c.label} does not point at a neighbour", cell)
        entries = [c for c in entries if c.distance(cell) == 1]
        exits = [c for c in exits if c.distance(cell) == 1]
        for f in red:
            if self.terrain.get(cell.neighbour(f)) is not Terrain.STREAM:
                self.problem(number, f"red arrow {f.name} does not point into the stream", cell)
        self.bridges[cell] = BridgeCell(cell, name, frozenset(entries), frozenset(exits), frozenset(red))
        self.bridge_line[cell] = number

    def check_bridges(self) -> None:
        """Every arrow leads to a cell on the map that no wall cuts off."""
        terrain, walls = self.terrain, self.walls
        for cell, b in self.bridges.items():
            number = self.bridge_line[cell]
            for c in b.entries:
                if c not in terrain or terrain[c] is Terrain.STREAM:
                    if terrain.get(c) is Terrain.STREAM:
                        continue  # far end of a collapsed bridge: checked with the gaps
                    self.problem(number, f"entry {c.label} is off the map", cell)
                elif frozenset((c, cell)) in walls:
                    self.problem(number, f"entry {c.label} is behind a wall", cell)
            for c in b.exits:
                if c not in terrain:
                    self.problem(number, f"exit {c.label} is off the map", cell)
                elif frozenset((c, cell)) in walls:
                    self.problem(number, f"exit {c.label} is behind a wall", cell)

    def find_gaps(self) -> None:
        """Collapsed bridges: an exit into the stream starts a gap that must end on a bridge end (R7)."""
        terrain = self.terrain
        for cell, b in sorted(self.bridges.items()):
            for ex in sorted(b.exits):
                if terrain.get(ex) is not Terrain.STREAM:
                    continue
                facing = cell.facing_to(ex)
                assert facing is not None
                run = [ex]
                nxt = ex.neighbour(facing)
                while terrain.get(nxt) is Terrain.STREAM and len(run) < 4:
                    run.append(nxt)
                    nxt = nxt.neighbour(facing)
                far = self.bridges.get(nxt)
                if far is None or run[-1] not in far.entries:
                    self.problem(self.bridge_line[cell], f"collapsed bridge heading {facing.name} never reaches a far "
                                 "bridge end that can be entered from the gap", cell)
                    continue
                if not 2 <= len(run) <= 3:
                    self.problem(self.bridge_line[cell], f"collapsed bridge gap is {len(run)} stream cells; it must "
                                 "be 2 or 3", cell)
                self.gaps.append(Gap(cell, tuple(run), nxt, facing))
        gap_ends = {g.far for g in self.gaps}
        for cell, b in self.bridges.items():
            for c in b.entries:
                if terrain.get(c) is Terrain.STREAM and cell not in gap_ends:
                    self.problem(self.bridge_line[cell], f"entry {c.label} is in the stream but no gap leads here",
                                 cell)

    # [checkered] -----------------------------------------------------------------------------------

    def read_checkered(self) -> None:
        for number, line in self.lines("checkered"):
            key, _, rest = line.partition(" ")
            tokens = rest.split()
            if key == "edges":
                self.read_line_edges(number, tokens)
            elif key == "start":
                self.read_starts(number, tokens)
            else:
                self.problem(number, f"unknown key {key!r} in [checkered]; use 'edges' or 'start'")
        if "checkered" in self.sections:
            self.check_checkered()

    def read_line_edges(self, number: int, tokens: list[str]) -> None:
        for token in tokens:
            pair = self.neighbours(token, number, f"line edge {token!r} should read BEHIND/AHEAD, like 'E20/E19'",
                                   f"line edge {token}: cells are not neighbours")
            if pair is None:
                continue
            a, b = pair
            if self.need_track(a, number, "cell behind the line") and self.need_track(b, number,
                                                                                        "cell ahead of the line"):
                self.line_edges.append((a, b))
                self.edge_line.setdefault((a, b), number)

    def read_starts(self, number: int, tokens: list[str]) -> None:
        if len(tokens) % 2:
            self.problem(number, "start cells read CELL FACING pairs, like 'E21 N F22 N G21 N'")
            return
        for c_text, f_text in zip(tokens[::2], tokens[1::2], strict=True):
            c = self.cell(c_text, number)
            f = self.facing(f_text, number)
            if c is not None and f is not None and self.need_track(c, number, "start cell"):
                if c in self.start_line:
                    self.problem(number, "start cell is listed twice", c)
                    continue
                self.starts.append(Start(c, f))
                self.start_line[c] = number

    def check_checkered(self) -> None:
        """One line with edges, three start cells, and nothing both behind and ahead of it (R3)."""
        if not self.line_edges:
            self.problem(self.header["checkered"], "the Checkered Line has no edges")
        if len(self.starts) != 3:
            self.problem(self.header["checkered"], f"the Checkered Line needs 3 start cells, found {len(self.starts)}")
        ahead = {b for _, b in self.line_edges}
        both = {a: self.edge_line[(a, b)] for a, b in self.line_edges if a in ahead}
        for cell, number in both.items():
            self.problem(number, "cell is both behind and ahead of the Checkered Line", cell)
        for s in self.starts:
            if s.cell in ahead:
                self.problem(self.start_line[s.cell], "start cell is ahead of the line; it must be behind it", s.cell)

    # [delivery], [bottletops] and the pit stops ----------------------------------------------------

    def read_delivery(self) -> None:
        for number, line in self.lines("delivery"):
            tokens = line.split()
            if len(tokens) % 2:
                self.problem(number, "delivery points read NUMBER CELL pairs, like '3 E5 4 F9'")
                continue
            for n_text, c_text in zip(tokens[::2], tokens[1::2], strict=True):
                self.read_delivery_point(number, n_text, c_text)
        if "delivery" in self.sections:
            missing = [n for n in range(3, 19) if n not in self.deliveries]
            if missing:
                self.problem(self.header["delivery"], f"delivery number(s) missing: {', '.join(map(str, missing))}")

    def read_delivery_point(self, number: int, n_text: str, c_text: str) -> None:
        if not n_text.isdigit() or not 3 <= int(n_text) <= 18:
            self.problem(number, f"delivery number {n_text!r} must be 3 to 18")
            return
        c = self.cell(c_text, number)
        if c is None or not self.need_track(c, number, f"Delivery Point {n_text}"):
            return
        n = int(n_text)
        if n in self.deliveries:
            self.problem(number, f"delivery number {n} is doubled (also at {self.deliveries[n].label})", c)
            return
        if c in self.deliveries.values():
            self.problem(number, "two delivery numbers on one cell", c)
        if c in self.pits:
            self.problem(number, "Delivery Point inside a Pit Stop", c)
        self.deliveries[n] = c

    def read_bottletops(self) -> None:
        for number, line in self.lines("bottletops"):
            tokens = line.split()
            if len(tokens) % 2:
                self.problem(number, "collection points read CELL VALUE pairs, like 'K8 2'")
                continue
            for c_text, v_text in zip(tokens[::2], tokens[1::2], strict=True):
                c = self.cell(c_text, number)
                if c is None:
                    continue
                if not v_text.isdigit() or not 1 <= int(v_text) <= 3:
                    self.problem(number, f"a collection point is worth 1 to 3 bottle tops, not {v_text!r}", c)
                    continue
                if c not in self.bridges:
                    self.problem(number, "Bottle Top Collection Point must be on a bridge", c)
                    continue
                if c in self.bottle_tops:
                    self.problem(number, "collection point listed twice", c)
                self.bottle_tops[c] = int(v_text)
        if "bottletops" in self.sections and not 3 <= len(self.bottle_tops) <= 5:
            self.problem(self.header["bottletops"],
                         f"a track has 3 to 5 Bottle Top Collection Points, found {len(self.bottle_tops)}")

    def check_pit_stops(self) -> None:
        """Each Pit Stop is four cells in one connected lane (R3)."""
        for colour in PitColour:
            cells = sorted(c for c, p in self.pits.items() if p is colour)
            if len(cells) != 4:
                letter = "G" if colour is PitColour.GREEN else "R"
                where = self.map_line_of[cells[0]] if cells else self.header.get("map")
                self.problem(where, f"the {colour} Pit Stop has {len(cells)} cells ('{letter}' on the map); it must "
                             "have 4", cells[0] if cells else None)
                continue
            if len(_components(cells, self.walls)) != 1:
                self.problem(self.map_line_of[cells[0]], f"the {colour} Pit Stop is not one connected lane", cells[0])

    def track(self) -> Track:
        return Track(
            name=self.meta["name"],
            alias=self.meta["alias"],
            description=self.meta.get("description", ""),
            columns=self.columns,
            rows=self.rows,
            terrain=self.terrain,
            pits=self.pits,
            walls=frozenset(self.walls),
            bridges=self.bridges,
            gaps=tuple(self.gaps),
            landings=self.landings,
            stream_landing=self.stream_landing,
            line=tuple(self.line_edges),
            starts=tuple(self.starts),
            deliveries=dict(sorted(self.deliveries.items())),
            bottle_tops=self.bottle_tops,
            source=self.source,
        )


def load_track_text(text: str, source: str = "<track>") -> Track:
    """Parse and check a track file's text; raises :class:`TrackError` listing every problem."""
    return _Loader(source).read(text)


def _components(cells: Iterable[Hex], walls: frozenset[frozenset[Hex]] | set[frozenset[Hex]]) -> list[set[Hex]]:
    left = set(cells)
    out: list[set[Hex]] = []
    while left:
        first = left.pop()
        comp = {first}
        todo = [first]
        while todo:
            c = todo.pop()
            for n in c.neighbours():
                if n in left and frozenset((c, n)) not in walls:
                    left.discard(n)
                    comp.add(n)
                    todo.append(n)
        out.append(comp)
    return out


def _check_reachability(track: Track, ld: _Loader, map_line_of: dict[Hex, int]) -> None:
    """Every track cell can be driven to from the start cells and can drive on to the line."""
    reached = {c for c, _ in track.reachable_from_starts()}
    to_line = {c for c, _ in track.distances_to_line()}
    for cell in sorted(track.track_cells):
        if cell not in reached:
            ld.problem(map_line_of.get(cell), "cell cannot be reached from the start cells", cell)
        elif cell not in to_line:
            ld.problem(map_line_of.get(cell), "no way leads from this cell back to the Checkered Line", cell)


# ---------------------------------------------------------------------------------------------------
# The built-in tracks

_TRACK_DIR = "tracks"
_cache: dict[str, Track] = {}


def load_track_file(path: str | Path) -> Track:
    p = Path(path)
    return load_track_text(p.read_text(encoding="utf-8"), p.name)


def builtin_track_files() -> dict[str, str]:
    """File name → text of every bundled track."""
    folder = resources.files("rules.races").joinpath(_TRACK_DIR)
    return {
        f.name: f.read_text(encoding="utf-8")
        for f in sorted(folder.iterdir(), key=lambda f: f.name)
        if f.name.endswith(".track")
    }


def builtin_tracks() -> dict[str, Track]:
    """Every bundled track by its name (loaded once)."""
    if not _cache:
        for name, text in builtin_track_files().items():
            t = load_track_text(text, name)
            _cache[t.name] = t
    return dict(_cache)


_extra: dict[str, Track] = {}


def register_track(track: Track) -> None:
    """Make a track that is not bundled (a test track, a group's own board) known to get_track."""
    _extra[track.name] = track


def get_track(name: str) -> Track:
    """A bundled or registered track by name or alias, case-insensitive ("A", "sump creek loop")."""
    wanted = name.strip().lower()
    tracks = {**builtin_tracks(), **_extra}
    for t in tracks.values():
        if wanted in (t.name.lower(), t.alias.lower()):
            return t
    raise KeyError(f"no track called {name!r}; choose one of: {', '.join(track_choices())}")


def track_choices() -> list[str]:
    """Every track a race may be set on, as "name (alias)", by alias."""
    tracks = {**builtin_tracks(), **_extra}
    return [f"{t.name} ({t.alias})" for t in sorted(tracks.values(), key=lambda t: t.alias)]
