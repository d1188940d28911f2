"""Schrottplatz Rally: scrap cars race round a lane track, parking for parts on the way.

Rules come from ``rulebooks/schrottplatz-rally.de.txt`` (its sections are cited by their German titles,
"Rundenablauf C" and so on) and the house rulings S1–S14 in ``RULINGS.md``; the decisions this package had
to make beyond both are listed in its README ("Decisions").

A turn is one ``roll`` (lever, booster and die in one action), then one ``move`` or ``park`` (two with the
booster). A roll that cannot be used (a mis-shift, a car with no way forward) ends the turn by itself
inside the ``roll`` action, so the player to act always has a legal action and there is no ``pass``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from rules.contract import OVER, Event, IllegalAction, PhasedGame, Reason, SetupError
from rules.contract import Action as AnyAction
from rules.dice import Dice
from rules.rally import board as B
from rules.rally import queries
from rules.rally.actions import Action, BadNotation, Move, Park, Path, Repair, Roll, parse_syntax
from rules.rally.car import MOVE, TURN, Car
from rules.rally.queries import MULTI
from rules.rally.texts import COLOUR_KEYS, say
from rules.rally.track import STOP, WAITING, Course, Track, find_track
from rules.registry import register

_PHASES = (TURN, MOVE, OVER)
MAX_LANE_CHANGES = 2
DEFAULT_LAPS = 3

# How a move ends
DRIVE, PARK, PIT, HALT, SPIN, CRASH, SQUEEZE = "drive", "park", "pit", "halt", "spin", "accident", "squeeze"


class Refusal(IllegalAction):
    """An illegal action with its catalogue id and parameters, so a front end can say it in German."""

    def __init__(self, msg: str, **params: Any) -> None:
        super().__init__(say(msg, "en", **params), msg=msg, params=params)


@dataclass(frozen=True)
class Ending:
    """One way a move can end: the cell, the cells driven (start excluded), and what happens there."""

    cell: str
    path: tuple[str, ...]
    kind: str
    progress: int  # the car's progress once there
    changes: int = 0


@dataclass
class _Search:
    """The result of a move search: the endings and every path that reaches each."""

    endings: dict[str, Ending] = field(default_factory=dict)
    paths: dict[str, set[tuple[str, ...]]] = field(default_factory=dict)
    furthest: dict[str, Ending] = field(default_factory=dict)
    furthest_paths: dict[str, set[tuple[str, ...]]] = field(default_factory=dict)
    best: int = 0


@register
class RallyGame(PhasedGame):
    """Schrottplatz Rally for 2–6 players. Seat ``i`` drives the car of colour ``COLOUR_KEYS[i]``."""

    key: ClassVar[str] = "rally"
    title: ClassVar[str] = "Schrottplatz Rally"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 6
    format_version: ClassVar[int] = 1

    def __init__(self, names: list[str], track: Track, clockwise: bool, laps: int, cars: list[Car],
                 order: list[int], turn_index: int, round_no: int, phase: str, roll: int | None,
                 points: int | None, boost: str, seq: int, winner: int | None, ply: int,
                 events: list[Event], last_move: dict[str, Any] | None, dice: Dice) -> None:
        self.names = names
        self.track = track
        self.clockwise = clockwise
        self.laps = laps
        self.cars = cars
        self.order = order
        self.turn_index = turn_index
        self.round = round_no
        self.phase = phase
        self.roll = roll
        self.points = points
        self.boost = boost  # "none", "pending" (a booster move follows this one) or "used"
        self.seq = seq
        self.winner = winner
        self._ply = ply
        self.events = events
        self.last_move = last_move
        self.dice = dice
        self._cache: tuple[Any, _Search] | None = None

    # Seats and places -----------------------------------------------------------------------------

    @property
    def n(self) -> int:
        return len(self.names)

    @property
    def course(self) -> Course:
        return self.track.course(self.clockwise)

    @property
    def turn(self) -> int:
        return self.order[self.turn_index]

    def who(self, seat: int) -> dict[str, Any]:
        """Parameters naming a seat in texts."""
        return {"car": COLOUR_KEYS[seat], "name": self.names[seat]}

    # Creation -------------------------------------------------------------------------------------

    @classmethod
    def _options(cls, options: Any, n: int) -> tuple[Track, bool, int, list[list[str]]]:
        if not isinstance(options, dict):
            raise SetupError("`options` must be a mapping.")
        known = {"track", "laps", "direction", "boards"}
        unknown = set(options) - known
        if unknown:
            raise SetupError(f"Unknown options {', '.join(sorted(map(str, unknown)))}; "
                             f"{cls.title} knows {', '.join(sorted(known))}.")
        try:
            track = find_track(str(options.get("track", "A")))
        except KeyError as exc:
            raise SetupError(str(exc.args[0])) from None
        laps = options.get("laps", DEFAULT_LAPS)
        if not isinstance(laps, int) or isinstance(laps, bool) or not 1 <= laps <= 5:
            raise SetupError("`laps` is a whole number from 1 to 5 (S8).")
        direction = str(options.get("direction", "clockwise")).lower()
        if direction not in ("clockwise", "anticlockwise", "cw", "acw", "counterclockwise"):
            raise SetupError("`direction` is `clockwise` or `anticlockwise` (setup step 5).")
        boards_opt = options.get("boards", [])
        if isinstance(boards_opt, str):
            boards_opt = [boards_opt] * n
        if not isinstance(boards_opt, list) or len(boards_opt) > n:
            raise SetupError("`boards` is a list with a starting board per seat, such as \"1:M 2:M 3:BE 5:BE\".")
        boards = [cls._start_board(boards_opt[i] if i < len(boards_opt) and boards_opt[i] else B.DEFAULT_BOARD, i)
                  for i in range(n)]
        return track, direction in ("clockwise", "cw"), laps, boards

    @staticmethod
    def _start_board(text: Any, seat: int) -> list[str]:
        """A starting board as written (``"1:M 2:M 3:BE 5:BE"``), checked: 2 mechanics, 2 body and 2 engine
        parts with a working gear in every range (setup step 2, S2, S7)."""
        try:
            gears = B.parse_board(str(text))
        except ValueError as exc:
            raise SetupError(f"Seat {seat + 1}'s board: {exc}.") from None
        why = B.check_start_board(gears)
        if why:
            raise SetupError(f"Seat {seat + 1}'s board: {why} (setup step 2).")
        return gears

    @classmethod
    def _names(cls, seats: Any) -> list[str]:
        if not isinstance(seats, list) or not cls.min_seats <= len(seats) <= cls.max_seats:
            raise SetupError(f"{cls.title} needs {cls.min_seats} to {cls.max_seats} seats (S9).")
        names = []
        for i, seat in enumerate(seats):
            name = seat.get("name") if isinstance(seat, dict) else seat
            if not isinstance(name, str) or not name.strip():
                raise SetupError(f"Seat {i + 1} needs a name.")
            names.append(name.strip())
        return names

    @classmethod
    def create(cls, setup: dict[str, Any], seed: int) -> Self:
        """Cars on the grid in the order of a roll-off (setup step 5), boards as chosen, lever green.

        A seat may bring its own starting board (``{"name": "Ann", "board": "1:M 3:M 2:BE 5:BE"}``, setup
        step 2: each player places their car's parts); it wins over the ``boards`` option, which wins over
        the default board."""
        if not isinstance(setup, dict):
            raise SetupError("The setup must be a mapping with `seats` and `options`.")
        names = cls._names(setup.get("seats"))
        track, clockwise, laps, boards = cls._options(setup.get("options") or {}, len(names))
        for i, seat in enumerate(setup["seats"]):
            if isinstance(seat, dict) and seat.get("board"):
                boards[i] = cls._start_board(seat["board"], i)
        dice = Dice.seeded(seed)
        game = cls(names, track, clockwise, laps, [], [], 0, 1, TURN, None, None, "none", 0, None, 0, [], None,
                   dice)
        events: list[Event] = []
        order = game._roll_off(list(range(len(names))), events)
        grid = game.course.grid(len(names))
        game.cars = [Car("", 0, boards[s]) for s in range(len(names))]
        for place, seat in enumerate(order):
            row = int(grid[place][:-1])
            game.cars[seat].at = grid[place]
            game.cars[seat].progress = -game.course.ahead(row, game.course.first_row)
        game.order = order
        events.append(game._event("grid", None, {"order": list(order)}, seats=list(order), names=list(names)))
        events.append(game._event("round", None, {"round": 1, "order": list(order)}, round=1))
        game.events = events
        return game

    def _roll_off(self, seats: list[int], events: list[Event]) -> list[int]:
        """Setup step 5: highest roll first; players who tie roll again among themselves for their places."""
        rolls = {s: self.dice.roll() for s in seats}
        for s in seats:
            events.append(self._event("grid_roll", s, {"die": rolls[s]}, die=rolls[s], **self.who(s)))
        out: list[int] = []
        for value in sorted(set(rolls.values()), reverse=True):
            tied = [s for s in seats if rolls[s] == value]
            if len(tied) > 1:
                events.append(self._event("grid_tie", None, {"seats": tied, "die": value}, die=value,
                                          seats=list(tied), names=list(self.names)))
                out += self._roll_off(tied, events)
            else:
                out += tied
        return out

    @classmethod
    def from_position(cls, position: dict[str, Any]) -> Self:
        """A race in the situation ``position`` describes (see README: "Position format")."""
        from rules.rally.position import build

        return build(cls, position)

    # Contract properties --------------------------------------------------------------------------

    @property
    def to_act(self) -> int | None:
        return None if self.phase == OVER else self.turn

    # Events ---------------------------------------------------------------------------------------

    def _event(self, msg: str, seat: int | None, data: dict[str, Any] | None = None, **params: Any) -> Event:
        d = dict(data or {})
        d["msg"] = msg
        d["params"] = {k: v for k, v in params.items()}
        return Event(msg, say(msg, "en", **params), seat, d)

    # Legal actions --------------------------------------------------------------------------------

    def _allowed_ranges(self, seat: int) -> list[str]:
        """S3: up one range at most or down any number; green on a restart; never a range with no
        working gear (the lever then goes to green)."""
        car = self.cars[seat]
        gears = self.gears_after_repair(seat)
        if car.restart:
            return ["green"]
        top = B.RANGES.index(car.lever) + 1
        return [r for i, r in enumerate(B.RANGES) if i <= top and (r == "green" or B.working_in(gears, r))]

    def gears_after_repair(self, seat: int) -> list[str]:
        """The gears of ``seat``'s car as its next roll will find them: a car pushed off for repairs (S6,
        rule text "Fahrbereitschaft") first gets the parts its due gear lacks (gear 1, or gear 2 after a
        ``repair``). Otherwise a copy of its gears as they are."""
        car = self.cars[seat]
        gears = list(car.gears)
        if car.repair:
            gears[car.repair - 1] = self._repaired(gears[car.repair - 1])
        return gears

    @staticmethod
    def _repaired(contents: str) -> str:
        return contents if B.works(contents) else B.canonical(contents + "BE")

    def legal_actions(self) -> list[Action]:
        if self.phase == TURN:
            car = self.cars[self.turn]
            out: list[Action] = []
            for r in self._allowed_ranges(self.turn):
                out.append(Roll(r))
                if car.fuel > 0:
                    out.append(Roll(r, True))
            if car.repair == 1 and not B.works(car.gears[1]):
                out.append(Repair())
            return out
        if self.phase == MOVE:
            return self._move_actions()
        return []

    def _move_actions(self) -> list[Action]:
        out: list[Action] = []
        for cell, end in self.endings().items():
            if end.kind in (PARK, PIT):
                out += [Park(cell, items) for items in self.placements(self.turn, cell)]
            else:
                out.append(Move(cell))
        return out

    def placements(self, seat: int, spot: str) -> list[tuple[tuple[str, int], ...]]:
        """What may be placed where on parking at ``spot`` ("Ausstattung": the resource goes on the board
        at once). A service the reserve cannot give gives nothing."""
        car = self.cars[seat]
        reserve = car.reserve()
        kind = queries.spot_kind(self, spot)

        def free(letter: str) -> list[int]:
            return [g for g in B.GEARS if letter not in car.gears[g - 1]]

        if kind == "fuel":
            return [()]
        if kind in ("engine", "body", "mechanic"):
            letter = kind[0].upper()
            return [((letter.lower(), g),) for g in free(letter)] if reserve[kind] else [()]
        # the pit lane (S10): one mechanic, or two parts of one kind; a kind the reserve (or the board's free
        # places) has only one of gives that one
        out: list[tuple[tuple[str, int], ...]] = []
        if reserve["mechanic"]:
            out += [(("m", g),) for g in free("M")]
        for supply in ("body", "engine"):
            letter = supply[0]
            places = free(letter.upper())
            if reserve[supply] >= 2 and len(places) >= 2:
                out += [((letter, a), (letter, b)) for i, a in enumerate(places) for b in places[i + 1:]]
            elif reserve[supply]:
                out += [((letter, g),) for g in places]
        return out or [()]

    def endings(self) -> dict[str, Ending]:
        """Every way the current move may end, by destination (empty outside the move phase)."""
        return self._search().endings if self.phase == MOVE else {}

    def _search(self) -> _Search:
        seat, points = self.turn, self.points or 0
        car = self.cars[seat]
        key = (self._ply, seat, points, car.at, car.lever, tuple(c.at for c in self.cars))
        if self._cache is not None and self._cache[0] == key:
            return self._cache[1]
        result = self.search(seat, points)
        self._cache = (key, result)
        return result

    def search(self, seat: int, points: int) -> _Search:
        """Rule text "Rundenablauf C", "Parken", "Boxengasse", S5: every path of ``points`` steps.

        Steps go forward or sideways onto free cells (at most two lane changes), into a car park or the
        pit lane from the lane beside it, or out of them. A path ends when its points are used, or early
        by parking (braking is allowed for it), at the stop sign, or by spinning in a curve taken too fast.
        A car standing before a car park's entry or exit may be driven round: its cell counts as a step
        but cannot be where the move ends. If no path uses every point, the furthest cells reachable are
        the endings, each an accident (S5).
        """
        car = self.cars[seat]
        start = car.at
        walk = _Walk(self, points, start, queries.occupied(self, seat), B.RANGES.index(car.lever),
                     start.split(".")[0] if queries.is_spot(start) else None,
                     {r.number: r.curve for r in self.track.rows})
        walk.visit(start, 0, 0, [], car.progress, "")
        res = walk.res
        if not res.endings and res.best > 0:
            res.endings, res.paths = dict(res.furthest), dict(res.furthest_paths)
        return res

    def _is_entry(self, cell: str) -> bool:
        """Whether a car may turn off from ``cell`` into a car park or the pit lane."""
        row, col = int(cell[:-1]), cell[-1]
        track = self.track
        for side in ("L", "R"):
            if track.edge(row, side) != col:
                continue
            if (row, side) in track.areas_by_row:
                return True
            if side == track.pit.side and row == self.course.pit_entry:
                return True
        return False

    def _steps(self, place: str) -> list[tuple[str, str, int, int]]:
        """(next place, kind, rows gained, lane changes) for one step from ``place``."""
        course, track = self.course, self.track
        out: list[tuple[str, str, int, int]] = []
        if place == WAITING:
            entry = course.pit_entry
            for spot in queries.open_spots(self, WAITING):
                out.append((spot, PIT, course.ahead(entry, queries.row_of(self, spot)), 0))
            out.append((STOP, HALT, course.ahead(entry, course.pit_exit), 0))
            return out
        if place == STOP:
            exit_row = course.pit_exit
            return [(f"{exit_row}{track.edge(exit_row, track.pit.side)}", "exit", 0, 0)]
        if queries.is_spot(place):
            area = place.split(".")[0]
            if area == WAITING:
                return [(STOP, HALT, course.ahead(queries.row_of(self, place), course.pit_exit), 0)]
            a = track.area_by_id[area]
            return [(f"{a.row}{track.edge(a.row, a.side)}", "exit", 0, 0)]
        row, col = int(place[:-1]), place[-1]
        for side in ("L", "R"):
            if track.edge(row, side) != col:
                continue
            area_here = track.areas_by_row.get((row, side))
            if area_here is not None:
                for spot in queries.open_spots(self, area_here.id):
                    out.append((spot, PARK, 0, 0))
            if side == track.pit.side and row == course.pit_entry:
                out.append((WAITING, "enter", 0, 0))
        nxt_row = course.next_row(row)
        if track.has_cell(nxt_row, col):
            out.insert(0, (f"{nxt_row}{col}", "forward", 1, 0))
        i = "abc".index(col)
        for j in (i - 1, i + 1):
            if 0 <= j < 3 and track.has_cell(row, "abc"[j]):
                out.append((f"{row}{'abc'[j]}", "side", 0, 1))
        return out

    def _behind(self, cell: str, occupied: set[str]) -> tuple[str, int] | None:
        """House ruling S11 (rule text "Parken"): pulling out with one point while a car stands on
        ``cell``, the cell in front of the spot, the car is placed on the first free cell behind that car
        in race order, never past it: the row behind, in the blocker's lane first (else the nearest lane
        of that row), then the rows further back. Returns the cell and how many rows back it lies."""
        course, track = self.course, self.track
        row, col = int(cell[:-1]), cell[-1]
        for rows in range(1, track.length):
            row = course.prev_row(row)
            lanes = course.lanes_from_driver(row)
            order = [col] if col in lanes else []
            order += sorted((c for c in lanes if c != col), key=lambda c: abs("abc".index(c) - "abc".index(col)))
            for c in order:
                if f"{row}{c}" not in occupied:
                    return f"{row}{c}", rows
        return None

    # Parsing --------------------------------------------------------------------------------------

    def parse_action(self, text: str) -> Action:
        parsed = parse_syntax(text)
        if isinstance(parsed, Path):
            return self._resolve_path(parsed)
        return parsed

    def _resolve_path(self, path: Path) -> Move:
        """A written-out path: legal if it is one of the ways to its end; it then means ``move <end>``."""
        self._need_phase(MOVE)
        end = self.endings().get(path.cells[-1])
        if end is None:
            raise self._why_not_cell(path.cells[-1])
        if not self._path_legal(path.cells):
            raise Refusal("bad_path", path=" ".join(path.cells), cell=end.cell, best=" ".join(end.path))
        return Move(end.cell)

    def _path_legal(self, cells: tuple[str, ...]) -> bool:
        return tuple(cells) in self._search().paths.get(cells[-1], set())

    # Validation -----------------------------------------------------------------------------------

    def _need_phase(self, wanted: str) -> None:
        if self.phase == OVER:
            raise Refusal("game_over", **self.who(self.winner or 0))
        if self.phase == wanted:
            return
        if wanted == MOVE:
            raise Refusal("roll_first", **self.who(self.turn))
        raise Refusal("move_first", **self.who(self.turn), points=self.points, count=self.points)

    def _why_not_cell(self, cell: str) -> Refusal:
        seat, points = self.turn, self.points or 0
        car = self.cars[seat]
        if not queries.valid_place(self, cell):
            return Refusal("no_such_place", cell=cell)
        other = queries.seat_at(self, cell)
        if other is not None and other != seat:
            return Refusal("cell_taken", cell=cell, other=COLOUR_KEYS[other])
        if cell == car.at:
            return Refusal("must_move", points=points, count=points)
        if queries.is_cell(cell):
            ahead = self.course.ahead(queries.row_of(self, car.at), queries.row_of(self, cell))
            if ahead > self.track.length // 2:
                return Refusal("never_back", cell=cell)
        return Refusal("not_reachable", cell=cell, points=points, count=points)

    def _check(self, act: Action) -> None:
        """Raise a specific :class:`Refusal` unless ``act`` is in :meth:`legal_actions`."""
        if isinstance(act, Roll | Repair):
            self._need_phase(TURN)
            car = self.cars[self.turn]
            if isinstance(act, Repair):
                if car.repair != 1:
                    raise Refusal("no_repair")
                if B.works(car.gears[1]):
                    raise Refusal("repair_nothing")
                return
            if act.range not in B.RANGES:
                raise BadNotation("n_bad_range", range=act.range)
            if act.boost and car.fuel <= 0:
                raise Refusal("no_fuel")
            if act.range not in self._allowed_ranges(self.turn):
                if car.restart:
                    raise Refusal("restart_green", range=act.range)
                if B.RANGES.index(act.range) > B.RANGES.index(car.lever) + 1:
                    raise Refusal("shift_one_up", range=act.range, lever=car.lever)
                raise Refusal("range_broken", range=act.range)
            return
        self._need_phase(MOVE)
        cell = act.cell if isinstance(act, Move) else act.spot
        end = self.endings().get(cell)
        if end is None:
            raise self._why_not_cell(cell)
        if isinstance(act, Move) and end.kind in (PARK, PIT):
            raise Refusal("use_park", cell=cell, example=str(Park(cell, self.placements(self.turn, cell)[0])))
        if isinstance(act, Park):
            if end.kind not in (PARK, PIT):
                raise Refusal("not_a_spot", cell=cell)
            options = self.placements(self.turn, cell)
            if end.kind == PIT and act.items not in options:
                kinds = {k for k, _ in act.items}
                if len(act.items) > 2 or ("m" in kinds and len(act.items) > 1) or kinds == {"b", "e"}:
                    raise Refusal("pit_choice", placed=" ".join(f"{k}{g}" for k, g in act.items),
                                  examples=", ".join(str(Park(cell, o)) for o in options[:3]))
            if act.items not in options:
                raise Refusal("bad_placement", spot=cell, placed=" ".join(f"{k}{g}" for k, g in act.items) or "-",
                              examples=", ".join(str(Park(cell, o)) for o in options[:3]))

    def undo_barrier(self, before: Self, events: Sequence[Event]) -> str | None:
        """A roll (the order roll of a new round included) shows a die, and a turn once over stays over;
        a move the dice did not touch comes back."""
        if self.dice.to_dict() != before.dice.to_dict():
            return Reason(say("undo_roll"), "undo_roll")
        if (self.round, self.turn_index) != (before.round, before.turn_index) or self.to_act != before.to_act:
            return Reason(say("undo_turn_over"), "undo_turn_over")
        return None

    def describe_legal(self, limit: int = 12, lang: str = "en") -> str:
        """Where the roll may end (``move 7, park 9``: the notation as typed), the rest counted in ``lang``."""
        if self.phase == MOVE:
            parts = []
            for cell, end in self.endings().items():
                parts.append(f"park {cell}" if end.kind in (PARK, PIT) else f"move {cell}")
            shown = ", ".join(parts[:limit])
            return say("legal_more", lang, count=len(parts) - limit, shown=shown) if len(parts) > limit else shown
        return super().describe_legal(limit, lang)

    # Applying -------------------------------------------------------------------------------------

    def _coerce(self, action: AnyAction | str) -> Action:
        if isinstance(action, str):
            return self.parse_action(action)
        if isinstance(action, Path):
            return self._resolve_path(action)
        if isinstance(action, Roll | Move | Park | Repair):
            return action
        raise BadNotation("n_not_action", action=repr(action))

    def _apply(self, action: AnyAction | str) -> list[Event]:
        """Check ``action`` completely, then play it; returns the events."""
        act = self._coerce(action)
        self._check(act)
        events = self._play(act)
        self._ply += 1
        self.events = events
        self._cache = None
        return list(events)

    def _copy(self) -> RallyGame:
        work = type(self).from_dict(self.to_dict())
        work._cache = self._cache  # keyed by the position, which the copy shares until it plays
        return work

    def _play(self, act: Action) -> list[Event]:
        events: list[Event] = []
        seat = self.turn
        if isinstance(act, Repair):
            events += self._repair_gear(seat, 1)
            self.cars[seat].repair = 2
            events.append(self._event("repair_wait", seat, {}, **self.who(seat)))
            self._end_turn(events)
            return events
        if isinstance(act, Roll):
            self._roll(seat, act, events)
            return events
        end = self.endings()[act.cell if isinstance(act, Move) else act.spot]
        self._drive(seat, end, act, events)
        return events

    def _roll(self, seat: int, act: Roll, events: list[Event]) -> None:
        car = self.cars[seat]
        if car.repair:
            gear = car.repair
            events += self._repair_gear(seat, gear)
            if gear == 1 and not B.works(car.gears[1]):
                pass  # gear 2 stays broken: the player chose to drive on
            car.repair = 0
        if act.range != car.lever:
            events.append(self._event("shift", seat, {"from": car.lever, "to": act.range}, range=act.range,
                                      **self.who(seat)))
            car.lever = act.range
        car.restart = False
        self.boost = "none"
        if act.boost:
            car.fuel -= 1
            self.boost = "pending"
            events.append(self._event("booster", seat, {"fuel": car.fuel}, fuel=car.fuel, **self.who(seat)))
        self._throw(seat, events, booster=False)

    def _throw(self, seat: int, events: list[Event], booster: bool) -> None:
        """Roll the player's die (or the booster die) and find the moves it allows."""
        car = self.cars[seat]
        die = self.dice.roll()
        gear = B.gear_for(car.lever, die)
        self.roll = die
        events.append(self._event("booster_roll" if booster else "roll", seat, {"die": die, "gear": gear},
                                  die=die, gear=gear, range=car.lever, **self.who(seat)))
        if not B.works(car.gears[gear - 1]):
            # S4: the gear the die names does not work
            car.lever, car.restart = "green", True
            events.append(self._event("misshift", seat, {"gear": gear}, gear=gear, **self.who(seat)))
            self._lose_booster(seat, events)
            self._end_turn(events)
            return
        self.points = gear
        self.phase = MOVE
        self._cache = None
        found = self.search(seat, gear)
        if found.endings:
            return
        # The roll cannot be used: nowhere to go at all.
        self.phase = TURN
        self.points = None
        if queries.is_cell(car.at):
            self._crash(seat, events, moved=False)
        else:
            events.append(self._event("stuck", seat, {}, **self.who(seat)))
        self._lose_booster(seat, events)
        self._end_turn(events)

    def _lose_booster(self, seat: int, events: list[Event]) -> None:
        if self.boost == "pending":
            events.append(self._event("booster_lost", seat, {}, **self.who(seat)))
        self.boost = "none"

    def _drive(self, seat: int, end: Ending, act: Action, events: list[Event]) -> None:
        car = self.cars[seat]
        start = car.at
        laps_before = queries.laps_done(self, seat)
        self.seq += 1
        car.at, car.progress, car.since = end.cell, end.progress, self.seq
        if queries.is_spot(start):
            car.parked = None
        self.last_move = {"seat": seat, "from": start, "path": list(end.path), "kind": end.kind}
        self.phase = TURN
        self.points = None
        events.append(self._event("move", seat, {"from": start, "path": list(end.path), "kind": end.kind},
                                  cells=" ".join(end.path), cell=end.cell, **self.who(seat)))
        if end.kind == SQUEEZE:
            events.append(self._event("squeeze", seat, {"cell": end.cell}, cell=end.cell, **self.who(seat)))
        for lap in range(laps_before + 1, queries.laps_done(self, seat) + 1):
            events.append(self._event("lap", seat, {"lap": lap}, lap=lap, laps=self.laps, **self.who(seat)))
        if queries.laps_done(self, seat) >= self.laps:
            self._win(seat, events)
            return
        if end.kind in (PARK, PIT):
            assert isinstance(act, Park)
            self._park(seat, end, act, events)
        elif end.kind == HALT:
            car.lever, car.restart = "green", True
            events.append(self._event("halt", seat, {}, **self.who(seat)))
        elif end.kind == SPIN:
            self._spin(seat, end, events)
        elif end.kind == CRASH:
            self._crash(seat, events, moved=True)
        if self.phase == OVER:
            return
        if end.kind in (DRIVE, SQUEEZE) and self.boost == "pending":
            self.boost = "used"
            self._throw(seat, events, booster=True)
            return
        self._lose_booster(seat, events)
        self._end_turn(events)

    def _park(self, seat: int, end: Ending, act: Park, events: list[Event]) -> None:
        """Rule text "Rundenablauf D", "Parken", "Boxengasse": stop, lever to green, onto the parking bar,
        take the spot's resource (in the pit lane: the chosen parts or mechanic, and a full tank)."""
        car = self.cars[seat]
        car.lever, car.restart = "green", True
        car.stops += 1
        car.parked = self.seq
        kind = queries.spot_kind(self, end.cell)
        events.append(self._event("park", seat, {"spot": end.cell, "service": kind, "stops": car.stops},
                                  spot=end.cell, service=kind, **self.who(seat)))
        if kind in ("fuel", "pit"):
            take = 1 if kind == "fuel" else car.reserve()["fuel"]
            take = min(take, car.reserve()["fuel"])
            car.fuel += take
            events.append(self._event("take_fuel" if take else "take_none", seat, {"fuel": take},
                                      count=take, item="fuel", **self.who(seat)))
        if kind != "fuel":
            if not act.items and kind != "pit":
                events.append(self._event("take_none", seat, {}, item=kind, count=0, **self.who(seat)))
            for letter, gear in act.items:
                up = letter.upper()
                car.gears[gear - 1] = B.canonical(car.gears[gear - 1] + up)
                events.append(self._event("take", seat, {"item": B.ITEMS[up], "gear": gear},
                                          item=B.ITEMS[up], gear=gear, **self.who(seat)))

    def _spin(self, seat: int, end: Ending, events: list[Event]) -> None:
        """S5: taken too fast, the curve spins the car; a die says which part it loses."""
        car = self.cars[seat]
        curve = self.track.row(int(end.cell[:-1])).curve
        events.append(self._event("spin", seat, {"cell": end.cell, "limit": curve}, cell=end.cell, limit=curve,
                                  range=car.lever, **self.who(seat)))
        die = self.dice.roll()
        letter = "B" if die <= 3 else "E"
        events.append(self._event("loss_roll", seat, {"die": die}, die=die, item=B.ITEMS[letter], **self.who(seat)))
        self._lose(seat, letter, events)
        car.lever, car.restart = "green", True
        self._check_roadworthy(seat, events)

    def _crash(self, seat: int, events: list[Event], moved: bool) -> None:
        """S5: boxed in with points left: the car stops and loses a body part (else an engine part)."""
        car = self.cars[seat]
        events.append(self._event("accident", seat, {"cell": car.at, "moved": moved}, cell=car.at,
                                  **self.who(seat)))
        letter = "B" if B.count(car.gears, "B") else "E"
        self._lose(seat, letter, events)
        car.lever, car.restart = "green", True
        self._check_roadworthy(seat, events)

    def _lose(self, seat: int, letter: str, events: list[Event]) -> None:
        car = self.cars[seat]
        gear = B.highest_with(car.gears, letter)
        if gear is None:
            events.append(self._event("lose_none", seat, {"item": B.ITEMS[letter]}, item=B.ITEMS[letter],
                                      **self.who(seat)))
            return
        car.gears[gear - 1] = car.gears[gear - 1].replace(letter, "")
        events.append(self._event("lose", seat, {"item": B.ITEMS[letter], "gear": gear}, item=B.ITEMS[letter],
                                  gear=gear, **self.who(seat)))

    def _check_roadworthy(self, seat: int, events: list[Event]) -> None:
        """S6: no working gear in green: the car goes onto the last free spot it passed, to be repaired."""
        car = self.cars[seat]
        if B.roadworthy(car.gears):
            return
        here = queries.row_of(self, car.at)
        occupied = queries.occupied(self, seat)
        course, track = self.course, self.track
        row = here
        for _ in range(track.length):
            for side in (course.driver_side, "R" if course.driver_side == "L" else "L"):
                area = track.areas_by_row.get((row, side))
                if area is None:
                    continue
                for spot in queries.open_spots(self, area.id):
                    if spot not in occupied:
                        back = course.ahead(row, here)
                        self.seq += 1
                        car.at, car.progress, car.since = spot, car.progress - back, self.seq
                        car.parked, car.stops, car.repair = self.seq, car.stops + 1, 1
                        car.lever, car.restart = "green", True
                        events.append(self._event("forced_park", seat, {"spot": spot, "back": back}, spot=spot,
                                                  **self.who(seat)))
                        return
            row = course.prev_row(row)
        car.repair = 1
        events.append(self._event("forced_stay", seat, {}, **self.who(seat)))

    def _repair_gear(self, seat: int, gear: int) -> list[Event]:
        """S6: the parts a gear lacks come from the reserve (never a mechanic)."""
        car = self.cars[seat]
        before = car.gears[gear - 1]
        if B.works(before):
            return []
        after = self._repaired(before)
        reserve = car.reserve()
        added = [ch for ch in after if ch not in before]
        for ch in added:
            assert reserve[B.ITEMS[ch]] > 0, "S7: the reserve always holds a part a green gear lacks"
        car.gears[gear - 1] = after
        parts = [B.ITEMS[c] for c in added]
        return [self._event("repair", seat, {"gear": gear, "items": parts}, gear=gear, parts=list(parts),
                            **self.who(seat))]

    def _win(self, seat: int, events: list[Event]) -> None:
        """S8: the first car to finish the agreed laps wins at once."""
        self.winner = seat
        self.phase = OVER
        self.points = None
        self.boost = "none"
        events.append(self._event("win", seat, {"standings": self.standings()}, laps=self.laps,
                                  count=self.laps, **self.who(seat)))

    def _end_turn(self, events: list[Event]) -> None:
        self.phase = TURN
        self.points = None
        self.boost = "none"
        self.turn_index += 1
        if self.turn_index >= len(self.order):
            self.order = self.next_order()
            self.turn_index = 0
            self.round += 1
            events.append(self._event("round", None, {"round": self.round, "order": list(self.order)},
                                      round=self.round))
        nxt = self.turn
        if self.cars[nxt].repair == 1:
            events.append(self._event("repair_due", nxt, {}, **self.who(nxt)))

    # Order and standings --------------------------------------------------------------------------

    def _position_key(self, seat: int) -> tuple[int, int, int]:
        """Larger is further ahead: progress, then the driver's side of a row first (S9), then arrival."""
        car = self.cars[seat]
        if queries.is_cell(car.at):
            lanes = self.course.lanes_from_driver(int(car.at[:-1]))
            side = len(lanes) - lanes.index(car.at[-1]) + 10
        else:
            side = 0
        return car.progress, side, -car.since

    def next_order(self) -> list[int]:
        """Rule text "Festlegen der Zugreihenfolge", S9: cars on the track by position, then parked cars
        in the order they parked (the parking bar)."""
        seats = range(self.n)
        driving = sorted((s for s in seats if self.cars[s].parked is None), key=self._position_key, reverse=True)
        parked = sorted((s for s in seats if self.cars[s].parked is not None),
                        key=lambda s: self.cars[s].parked or 0)
        return driving + parked

    def standings(self) -> list[int]:
        """S8: the winner, then by laps done, fewer stops, and position on the track."""
        def key(s: int) -> tuple[int, int, int, tuple[int, int, int]]:
            won = 1 if s == self.winner else 0
            return (won, queries.laps_done(self, s), -self.cars[s].stops, self._position_key(s))

        return sorted(range(self.n), key=key, reverse=True)

    # Persistence and views ------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.key,
            "format_version": self.format_version,
            "seats": [{"name": n} for n in self.names],
            "track": self.track.key,
            "direction": "clockwise" if self.clockwise else "anticlockwise",
            "laps": self.laps,
            "cars": [c.to_dict() for c in self.cars],
            "order": list(self.order),
            "turn_index": self.turn_index,
            "round": self.round,
            "phase": self.phase,
            "roll": self.roll,
            "points": self.points,
            "boost": self.boost,
            "seq": self.seq,
            "winner": self.winner,
            "ply": self._ply,
            "events": [e.to_dict() for e in self.events],
            "last_move": None if self.last_move is None else dict(self.last_move, path=list(self.last_move["path"])),
            "dice": self.dice.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        if data.get("game", cls.key) != cls.key:
            raise ValueError(f"not a {cls.key} game: {data.get('game')!r}")
        if data.get("format_version") != cls.format_version:
            raise ValueError(f"{cls.key} state format {data.get('format_version')!r} is not supported "
                             f"(expected {cls.format_version})")
        if data["phase"] not in _PHASES:
            raise ValueError(f"unknown phase {data['phase']!r}")
        lm = data.get("last_move")
        return cls(
            [s["name"] for s in data["seats"]],
            find_track(data["track"]),
            data["direction"] == "clockwise",
            data["laps"],
            [Car.from_dict(c) for c in data["cars"]],
            list(data["order"]),
            data["turn_index"],
            data["round"],
            data["phase"],
            data["roll"],
            data["points"],
            data["boost"],
            data["seq"],
            data["winner"],
            data["ply"],
            [Event.from_dict(e) for e in data["events"]],
            None if lm is None else dict(lm, path=list(lm["path"])),
            Dice.from_dict(data["dice"]),
        )

    def view(self, seat: int | None) -> dict[str, Any]:
        """Everything on the table (this game hides nothing); only the dice generator is left out, as it
        would tell the next rolls. ``moves`` lists the destinations of the player to act."""
        moves = {cell: end.kind for cell, end in self.endings().items()}
        return {
            "game": self.key,
            "title": self.title,
            "viewer": seat,
            "track": self.track.key,
            "direction": "clockwise" if self.clockwise else "anticlockwise",
            "laps": self.laps,
            "rows": self.track.length,
            "seats": [
                {
                    "seat": s,
                    "name": self.names[s],
                    "colour": COLOUR_KEYS[s],
                    "at": c.at,
                    "lap": queries.lap_of(self, s),
                    "laps_done": queries.laps_done(self, s),
                    "progress": c.progress,
                    "gears": list(c.gears),
                    "working": [g for g in B.GEARS if B.works(c.gears[g - 1])],
                    "lever": c.lever,
                    "fuel": c.fuel,
                    "stops": c.stops,
                    "reserve": c.reserve(),
                    "restart": c.restart,
                    "repair": c.repair,
                    "parked": c.parked,
                }
                for s, c in enumerate(self.cars)
            ],
            "order": list(self.order),
            "turn": self.turn,
            "to_act": self.to_act,
            "round": self.round,
            "phase": self.phase,
            "roll": self.roll,
            "points": self.points,
            "boost": self.boost,
            "winner": self.winner,
            "standings": self.standings(),
            "ply": self._ply,
            "events": [e.to_dict() for e in self.events],
            "last_move": None if self.last_move is None else dict(self.last_move, path=list(self.last_move["path"])),
            "moves": moves,
        }

    def replay(self, actions: Iterable[str]) -> Self:
        for text in actions:
            self.apply(text)
        return self


@dataclass
class _Walk:
    """A move search under way (:meth:`RallyGame.search`): what stays fixed while every path of ``points``
    steps from ``start`` is walked depth first, and the result found so far."""

    game: RallyGame
    points: int
    start: str
    occupied: set[str]  # the places other single cars fill
    lever: int  # the index of the car's rev range
    left_area: str | None  # the car park the car leaves, which it may not park in again
    curves: dict[int, str | None]  # each row's curve limit
    res: _Search = field(default_factory=_Search)

    def add(self, ending: Ending) -> None:
        """A way the move may end; of two ways to one cell the one with fewer lane changes is kept."""
        self.res.paths.setdefault(ending.cell, set()).add(ending.path)
        old = self.res.endings.get(ending.cell)
        if old is None or ending.changes < old.changes:
            self.res.endings[ending.cell] = ending

    def visit(self, place: str, used: int, changes: int, path: list[str], progress: int, through: str) -> None:
        """Walk on from ``place``, reached after ``used`` steps along ``path``; ``through`` says the car
        stands there only in passing ("entry", "exit") and may not end there."""
        res = self.res
        if used and not through and used >= res.best:
            if used > res.best:
                res.best, res.furthest, res.furthest_paths = used, {}, {}
            res.furthest.setdefault(place, Ending(place, tuple(path), CRASH, progress, changes))
            res.furthest_paths.setdefault(place, set()).add(tuple(path))
        if used == self.points:
            return
        for nxt, kind, delta, change in self.game._steps(place):
            if nxt in path or nxt == self.start or changes + change > MAX_LANE_CHANGES:
                continue
            if through == "entry" and kind not in (PARK, "enter"):
                continue  # a car passed on the way in: only the turn-off it was passed for
            if kind == PARK and nxt.split(".")[0] == self.left_area:
                continue
            self._step(nxt, kind, used, changes, change, [*path, nxt], progress + delta)

    def _step(self, nxt: str, kind: str, used: int, changes: int, change: int, path: list[str],
              progress: int) -> None:
        """The step onto ``nxt`` (of ``kind``, changing lane by ``change``) after ``used`` steps: it ends
        the move, passes a car, or walks on."""
        last = used + 1 == self.points
        if kind in (PARK, PIT, HALT):
            if nxt in MULTI or nxt not in self.occupied:
                self.add(Ending(nxt, tuple(path), kind, progress, changes))
            return
        if nxt not in MULTI and nxt in self.occupied:
            self._pass(nxt, kind, used, changes, change, path, progress, last)
            return
        limit = self.curves[int(nxt[:-1])] if kind == "forward" else None
        if limit is not None and self.lever > B.RANGES.index(limit or "green"):
            self.add(Ending(nxt, tuple(path), SPIN, progress, changes))
        elif last:
            self.add(Ending(nxt, tuple(path), DRIVE, progress, changes + change))
        else:
            self.visit(nxt, used + 1, changes + change, path, progress, "")

    def _pass(self, nxt: str, kind: str, used: int, changes: int, change: int, path: list[str], progress: int,
              last: bool) -> None:
        """A step onto ``nxt``, where another car stands: out of a car park the car drives round it, or
        with its last point is placed behind it (S11); before a turn-off it drives round to take it."""
        if kind == "exit" and last:
            behind = self.game._behind(nxt, self.occupied)
            if behind is not None:
                self.add(Ending(behind[0], (*path[:-1], behind[0]), SQUEEZE, progress - behind[1], changes))
        elif kind == "exit":
            self.visit(nxt, used + 1, changes, path, progress, "exit")
        elif not last and self.game._is_entry(nxt):
            self.visit(nxt, used + 1, changes + change, path, progress, "entry")
