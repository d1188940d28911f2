"""Schrottplatz Rally tracks (ruling S1): the lane-track model and the loader of ``.track`` files.

A track is a loop of rows written one row per line, in the order a car drives them clockwise; the file
format is described in ``rules/rally/tracks/README.md``. The loader checks everything and collects every
problem with its line and column before raising :class:`TrackError`, so an editor sees all mistakes at
once.

Geometry that depends on the driving direction (which row comes next, which lane is on the driver's
side, where the pit lane is entered and left, the start grid) is answered by :class:`Course`, a track
driven one way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache, cached_property
from importlib import resources
from pathlib import Path

COLUMNS = "abc"
MIN_ROWS, MAX_ROWS = 48, 64
MIN_PLAYERS, MAX_PLAYERS = 2, 6

#: service kinds of the parking areas: file letter -> (kind, resource it gives)
SERVICES: dict[str, str] = {"F": "fuel", "E": "engine", "B": "body", "M": "mechanic"}
#: what the places are called (for texts and the picture)
SERVICE_PLACES: dict[str, str] = {
    "fuel": "petrol station",
    "engine": "warehouse",
    "body": "scrap heap",
    "mechanic": "workshop",
}
CURVE_CHARS = {"o": None, "g": "green", "y": "yellow"}
#: names of the pit lane's places
WAITING = "pit"
STOP = "stop"


@dataclass(frozen=True, slots=True)
class Problem:
    """One located mistake in a track file (line and column are 1-based; column 0: the whole line)."""

    file: str
    line: int | None
    column: int
    message: str

    def __str__(self) -> str:
        where = self.file
        if self.line:
            where += f":{self.line}" + (f":{self.column}" if self.column else "")
        return f"{where}: {self.message}"


class TrackError(ValueError):
    """A track file with problems; ``problems`` lists every one with its place."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        lines = "\n".join(f"  {p}" for p in problems)
        super().__init__(f"{len(problems)} problem{'' if len(problems) == 1 else 's'} in track file:\n{lines}")


@dataclass(frozen=True, slots=True)
class Row:
    """One row of the track: its lanes (columns ``a``–``c`` present), its curve limit, its road signs."""

    number: int
    lanes: tuple[str, ...]
    curve: str | None = None  # "green" or "yellow": the highest rev range allowed here (S5)
    signs: tuple[str, ...] = ()  # columns whose cell carries a road sign (signs are cells, S1)


@dataclass(frozen=True, slots=True)
class ParkingArea:
    """A car park beside one row: its service and its spots, each open from a least number of players."""

    id: str  # kind letter and row, "F7"
    kind: str  # fuel, engine, body, mechanic
    row: int
    side: str  # "L" (file's left, column a side) or "R"
    spots: tuple[int, ...]

    def spot_names(self) -> list[str]:
        return [f"{self.id}.{i + 1}" for i in range(len(self.spots))]


@dataclass(frozen=True, slots=True)
class PitLane:
    """The pit lane beside a run of rows: the hatched waiting cell, its spots and (at the exit) a stop sign."""

    side: str
    first: int  # first and last row beside it, in file order
    last: int
    waiting_rows: tuple[int, ...]
    spots: tuple[tuple[int, int], ...]  # (row beside it, least players)

    def spot_names(self) -> list[str]:
        return [f"{WAITING}.{i + 1}" for i in range(len(self.spots))]


@dataclass(frozen=True)
class Track:
    """An immutable lane track, rows in clockwise order (file order)."""

    name: str
    alias: str
    description: str
    rows: tuple[Row, ...]
    arch: int  # number of the row just past the start/finish arch, driving clockwise
    areas: tuple[ParkingArea, ...]
    pit: PitLane
    key: str = ""

    @property
    def length(self) -> int:
        return len(self.rows)

    def row(self, number: int) -> Row:
        return self.rows[number - 1]

    @cached_property
    def area_by_id(self) -> dict[str, ParkingArea]:
        return {a.id: a for a in self.areas}

    @cached_property
    def areas_by_row(self) -> dict[tuple[int, str], ParkingArea]:
        return {(a.row, a.side): a for a in self.areas}

    def has_cell(self, row: int, col: str) -> bool:
        return 1 <= row <= len(self.rows) and col in self.rows[row - 1].lanes

    def edge(self, row: int, side: str) -> str:
        """The lane of ``row`` nearest ``side``: where a car turns off into a car park or the pit lane."""
        lanes = self.rows[row - 1].lanes
        return lanes[0] if side == "L" else lanes[-1]

    def course(self, clockwise: bool = True) -> Course:
        return _course(self, clockwise)


@cache
def _course(track: Track, clockwise: bool) -> Course:
    return Course(track, clockwise)


class Course:
    """A track driven one way: the order of rows, lanes and the pit lane's ends."""

    def __init__(self, track: Track, clockwise: bool) -> None:
        self.track = track
        self.clockwise = clockwise
        self.n = track.length
        # The file's column a is the outside of the loop: the driver's (left) side when driving clockwise.
        self.driver_side = "L" if clockwise else "R"
        pit = track.pit
        self.pit_entry = pit.first if clockwise else pit.last
        self.pit_exit = pit.last if clockwise else pit.first
        #: the first row past the arch in this direction
        self.first_row = track.arch if clockwise else self.prev_row_cw(track.arch)

    def prev_row_cw(self, row: int) -> int:
        return self.n if row == 1 else row - 1

    def next_row(self, row: int) -> int:
        if self.clockwise:
            return 1 if row == self.n else row + 1
        return self.n if row == 1 else row - 1

    def offset(self, row: int) -> int:
        """Rows driven from the arch to ``row`` in this direction, 0 … n-1."""
        if self.clockwise:
            return (row - self.first_row) % self.n
        return (self.first_row - row) % self.n

    def ahead(self, a: int, b: int) -> int:
        """Rows driven forward from row ``a`` to row ``b`` (0 … n-1)."""
        return (self.offset(b) - self.offset(a)) % self.n

    def lanes_from_driver(self, row: int) -> tuple[str, ...]:
        """The lanes of ``row``, the driver's side first (S9: that car is ahead)."""
        lanes = self.track.rows[row - 1].lanes
        return lanes if self.driver_side == "L" else tuple(reversed(lanes))

    def grid(self, count: int) -> list[str]:
        """Start cells, pole first: the rows behind the arch, nearest first, driver's side first."""
        cells: list[str] = []
        row = self.first_row
        while len(cells) < count:
            row = self.prev_row(row)
            cells += [f"{row}{c}" for c in self.lanes_from_driver(row)]
        return cells[:count]

    def prev_row(self, row: int) -> int:
        if self.clockwise:
            return self.prev_row_cw(row)
        return 1 if row == self.n else row + 1


# The loader ----------------------------------------------------------------------------------------

_SECTION = re.compile(r"^\[(\w+)\]\s*(#.*)?$")
_ROW = re.compile(r"^(\s*)(\d+)(\s+)(\S+)(\s+)\|([^|]*)\|(\s*)(\S*)\s*(#.*)?$")
_ARCH = re.compile(r"^\s*=+\s*\|#+\|\s*=*\s*(#.*)?$")
_AREA = re.compile(r"^([FEBM])([2-6]+)$")
_PIT_SPOT = re.compile(r"^P([2-6])$")


@dataclass
class _Loader:
    source: str
    problems: list[Problem] = field(default_factory=list)

    def problem(self, line: int | None, column: int, message: str) -> None:
        self.problems.append(Problem(self.source, line, column, message))

    def read(self, text: str) -> Track:
        header: dict[str, str] = {}
        map_lines: list[tuple[int, str]] = []
        section: str | None = None
        seen: set[str] = set()
        for number, raw in enumerate(text.splitlines(), 1):
            stripped = raw.strip()
            m = _SECTION.match(stripped)
            if m:
                section = m.group(1).lower()
                if section not in ("track", "map"):
                    self.problem(number, raw.index("[") + 1, f"unknown section [{section}]; known: [track], [map]")
                elif section in seen:
                    self.problem(number, raw.index("[") + 1, f"section [{section}] appears twice")
                seen.add(section)
                continue
            if not stripped or stripped.startswith("#"):
                continue
            if section is None:
                self.problem(number, len(raw) - len(raw.lstrip()) + 1, "text before the first [section]")
            elif section == "track":
                key, _, value = stripped.partition(" ")
                if key not in ("name", "alias", "description"):
                    self.problem(number, len(raw) - len(raw.lstrip()) + 1,
                                 f"unknown key {key!r} in [track]; known: name, alias, description")
                else:
                    header[key] = value.split(" #")[0].strip()
            elif section == "map":
                map_lines.append((number, raw))
        for key in ("track", "map"):
            if key not in seen:
                self.problem(None, 0, f"section [{key}] is missing")
        if "track" in seen and not header.get("name"):
            self.problem(None, 0, "[track] needs a `name`")
        rows, arch, areas, pit_tokens = self.read_map(map_lines)
        pit = self.read_pit(pit_tokens, len(rows))
        if self.problems:
            raise TrackError(self.problems)
        assert arch is not None and pit is not None
        track = Track(header.get("name", "?"), header.get("alias", ""), header.get("description", ""),
                      tuple(rows), arch, tuple(areas), pit)
        self.check_whole(track, map_lines)
        if self.problems:
            raise TrackError(self.problems)
        return track

    def read_map(
        self, lines: list[tuple[int, str]]
    ) -> tuple[list[Row], int | None, list[ParkingArea], list[tuple[int, int, str, int, str]]]:
        rows: list[Row] = []
        arch: int | None = None
        arch_line = 0
        areas: list[ParkingArea] = []
        pit_tokens: list[tuple[int, int, str, int, str]] = []  # (line, column, side, row, token)
        for number, raw in lines:
            if _ARCH.match(raw):
                if arch is not None:
                    self.problem(number, raw.index("|") + 1, f"a second start/finish arch (the first is on line "
                                 f"{arch_line})")
                arch, arch_line = len(rows) + 1, number
                continue
            m = _ROW.match(raw)
            if not m:
                self.problem(number, 1, "a map line is `<row> <left side> |<three lanes>| [<right side>]`, "
                             "for example `12  F23  |ooo|  .`, or the arch line `====|###|====`")
                continue
            row_no = int(m.group(2))
            col_row = len(m.group(1)) + 1
            expected = len(rows) + 1
            if row_no != expected:
                self.problem(number, col_row, f"row {row_no} where row {expected} was expected: rows are numbered "
                             "1, 2, 3 … in driving order")
            left, right = m.group(4), m.group(8) or "."
            col_left = m.start(4) + 1
            col_lanes = m.start(6) + 1
            col_right = m.start(8) + 1 if m.group(8) else m.end(7) + 1
            lanes_text = m.group(6)
            row = self.read_lanes(number, col_lanes, expected, lanes_text)
            rows.append(row)
            for side, token, col in (("L", left, col_left), ("R", right, col_right)):
                if token == ".":
                    continue
                area = _AREA.match(token)
                if area:
                    kind = SERVICES[area.group(1)]
                    spots = tuple(int(ch) for ch in area.group(2))
                    if list(spots) != sorted(spots):
                        self.problem(number, col, f"list the spots of {token!r} from the fewest players up "
                                     f"({''.join(map(str, sorted(spots)))})")
                    areas.append(ParkingArea(f"{area.group(1)}{expected}", kind, expected, side, spots))
                elif token == "H" or _PIT_SPOT.match(token):
                    pit_tokens.append((number, col, side, expected, token))
                else:
                    self.problem(number, col, f"{token!r} is not a side feature: use `.` (nothing), a car park "
                                 "such as `F23` (F petrol, E warehouse, B scrap heap, M workshop, then one digit 2–6 "
                                 "per spot: the least number of players for which it is open), `H` (the pit lane's "
                                 "hatched waiting cell) or `P2`…`P6` (a pit spot)")
        if lines and arch is None:
            self.problem(lines[0][0], 0, "the map has no start/finish arch line `====|###|====`")
        n = len(rows)
        if lines and not MIN_ROWS <= n <= MAX_ROWS:
            self.problem(lines[-1][0], 0, f"the track has {n} rows; a track has {MIN_ROWS} to {MAX_ROWS} (S1)")
        if arch is not None and arch > n:
            arch = 1  # an arch after the last row stands before row 1 of the loop
        return rows, arch, areas, pit_tokens

    def read_lanes(self, number: int, column: int, row_no: int, text: str) -> Row:
        if len(text) != 3:
            self.problem(number, column, f"the lanes field holds exactly three characters (columns a, b, c), "
                         f"not {len(text)}")
            text = (text + "...")[:3]
        lanes: list[str] = []
        curves: set[str | None] = set()
        signs: list[str] = []
        bad = False
        for i, ch in enumerate(text):
            if ch == ".":
                continue
            low = ch.lower()
            if low not in CURVE_CHARS:
                self.problem(number, column + i, f"{ch!r} is not a lane: use `o` (road), `g` (green curve), "
                             "`y` (yellow curve), upper case for a cell with a road sign, `.` for no lane")
                bad = True
                continue
            lanes.append(COLUMNS[i])
            curves.add(CURVE_CHARS[low])
            if ch.isupper():
                signs.append(COLUMNS[i])
        if bad:
            pass
        elif not 2 <= len(lanes) <= 3:
            lane_s = "lane" if len(lanes) == 1 else "lanes"
            self.problem(number, column, f"row {row_no} has {len(lanes)} {lane_s}; every row has 2 or 3 (S1)")
        elif "".join(lanes) not in ("ab", "bc", "abc"):
            self.problem(number, column, f"the lanes of row {row_no} must lie side by side")
        if len(curves) > 1:
            self.problem(number, column, f"row {row_no} mixes curve marks: a whole row is a curve or not")
        curve = next(iter(curves)) if len(curves) == 1 else None
        return Row(row_no, tuple(lanes), curve, tuple(signs))

    def read_pit(self, tokens: list[tuple[int, int, str, int, str]], n: int) -> PitLane | None:
        if not tokens:
            self.problem(None, 0, "the track has no pit lane: mark it with `H` (waiting cell) and `P2`…`P6` "
                         "(spots) beside a run of rows")
            return None
        sides = {t[2] for t in tokens}
        if len(sides) > 1:
            line, col = tokens[-1][0], tokens[-1][1]
            self.problem(line, col, "the pit lane lies on one side of the track only")
        rows = [t[3] for t in tokens]
        for (line, col, _, row, _), prev in zip(tokens[1:], rows, strict=False):
            if row != prev + 1:
                self.problem(line, col, f"the pit lane's rows must follow each other (row {prev}, then row {row})")
        waiting = tuple(t[3] for t in tokens if t[4] == "H")
        spots = tuple((t[3], int(t[4][1])) for t in tokens if t[4] != "H")
        if not waiting:
            self.problem(tokens[0][0], tokens[0][1], "the pit lane needs its hatched waiting cell `H`")
        if not spots:
            self.problem(tokens[0][0], tokens[0][1], "the pit lane needs at least one spot `P2`…`P6`")
        return PitLane(tokens[0][2], rows[0], rows[-1], waiting, spots)

    def check_whole(self, track: Track, lines: list[tuple[int, str]]) -> None:
        line_of = {}
        for number, raw in lines:
            m = _ROW.match(raw)
            if m:
                line_of[int(m.group(2))] = number
        n = track.length
        for r in range(1, n + 1):
            nxt = 1 if r == n else r + 1
            if not set(track.row(r).lanes) & set(track.row(nxt).lanes):
                self.problem(line_of.get(nxt), 0, f"rows {r} and {nxt} share no lane: a car could not drive on")
        pit = track.pit
        for a in track.areas:
            if a.side == pit.side and pit.first <= a.row <= pit.last:
                self.problem(line_of.get(a.row), 0, f"car park {a.id} stands where the pit lane is")
        arch = track.arch
        inside = pit.first < arch <= pit.last
        if inside:
            self.problem(line_of.get(arch), 0, "the start/finish arch may not cut through the pit lane")
        for clockwise in (True, False):
            course = track.course(clockwise)
            grid = course.grid(MAX_PLAYERS)
            rows_used = {int(c[:-1]) for c in grid}
            if len(rows_used) > 3:
                way = "clockwise" if clockwise else "anticlockwise"
                self.problem(line_of.get(arch), 0, f"driving {way}, the three rows behind the arch hold fewer than "
                             f"{MAX_PLAYERS} start cells")
        for kind in SERVICES.values():
            if not any(a.kind == kind and min(a.spots) == MIN_PLAYERS for a in track.areas):
                self.problem(None, 0, f"the track needs a {SERVICE_PLACES[kind]} with a spot open to "
                             f"{MIN_PLAYERS} players")
        for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
            open_spots = sum(1 for a in track.areas for s in a.spots if s <= players)
            if open_spots < players:
                spots = "car-park spot is" if open_spots == 1 else "car-park spots are"
                self.problem(None, 0, f"with {players} players only {open_spots} {spots} open: a car "
                             "that is not roadworthy must always find one (S6)")


def load_track_text(text: str, source: str = "<track>") -> Track:
    """A track from the text of a ``.track`` file; raises :class:`TrackError` listing every problem."""
    return _Loader(source).read(text)


def load_track_file(path: str | Path) -> Track:
    p = Path(path)
    return load_track_text(p.read_text(encoding="utf-8"), p.name)


@cache
def builtin_tracks() -> dict[str, Track]:
    """The tracks shipped in ``rules/rally/tracks``, by file stem."""
    folder = resources.files("rules.rally").joinpath("tracks")
    out: dict[str, Track] = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".track"):
            key = entry.name[: -len(".track")]
            t = load_track_text(entry.read_text(encoding="utf-8"), entry.name)
            out[key] = Track(t.name, t.alias, t.description, t.rows, t.arch, t.areas, t.pit, key)
    return out


def find_track(name: str) -> Track:
    """A built-in track by file stem, alias (``A``) or name, case ignored."""
    want = name.strip().lower()
    for key, t in builtin_tracks().items():
        if want in (key.lower(), t.alias.lower(), t.name.lower()):
            return t
    known = ", ".join(f"{t.alias} ({k})" for k, t in builtin_tracks().items())
    raise KeyError(f"no track {name!r}: choose one of {known}")
