"""The position format of Schrottplatz Rally: a race situation in a few lines of JSON (see README).

Every key is optional::

    {"players": ["Ann", "Bob"], "track": "A", "direction": "clockwise", "laps": 3,
     "cars": {"red": {"at": "12a", "lap": 1, "lever": "yellow", "board": "1:M 2:M 3:BE 5:BE",
                      "fuel": 2, "stops": 0, "restart": false, "repair": 0}},
     "order": ["red", "blue"], "to_act": "red", "round": 2,
     "phase": "move", "points": 3, "boost": "pending", "load": [4, 2], "seed": 0}

It builds a :class:`~rules.rally.game.RallyGame` through what :class:`Settable` names of it, so it never
imports the game's module (the game imports this one).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar

from rules.contract import SetupError
from rules.dice import Dice
from rules.rally import board as B
from rules.rally import queries
from rules.rally.car import MOVE, TURN, Car
from rules.rally.texts import COLOUR_KEYS
from rules.rally.track import WAITING

if TYPE_CHECKING:
    from rules.contract import Event
    from rules.rally.track import Track


class Settable(queries.Race, Protocol):
    """What a position sets and checks of a race: the seats' bounds, its making, its round and turn, its
    phase and dice, and whether the car to act has a move."""

    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    names: list[str]
    laps: int
    order: list[int]
    turn_index: int
    round: int
    phase: str
    roll: int | None
    points: int | None
    boost: str
    seq: int
    _ply: int
    dice: Dice

    def __init__(self, names: list[str], track: Track, clockwise: bool, laps: int, cars: list[Car],
                 order: list[int], turn_index: int, round_no: int, phase: str, roll: int | None,
                 points: int | None, boost: str, seq: int, winner: int | None, ply: int,
                 events: list[Event], last_move: dict[str, Any] | None, dice: Dice) -> None:
        """A race in this state."""

    @classmethod
    def _options(cls, options: Any, n: int) -> tuple[Track, bool, int, list[list[str]]]:
        """The track, direction, laps and parked spots ``options`` ask for."""

    @classmethod
    def _names(cls, seats: Any) -> list[str]:
        """The players' names, checked."""

    @property
    def turn(self) -> int:
        """The seat to act."""

    def endings(self) -> Mapping[str, object]:
        """Where the car to act can end its move."""


G = TypeVar("G", bound=Settable)

KNOWN = {"players", "track", "direction", "laps", "cars", "order", "to_act", "round", "phase", "points", "boost",
         "roll", "load", "seed", "ply"}
CAR_KEYS = {"at", "lap", "lever", "board", "fuel", "stops", "restart", "repair", "parked"}


def build(cls: type[G], position: dict[str, Any]) -> G:
    """The race ``position`` describes; raises :class:`SetupError` saying what is wrong with it."""

    if not isinstance(position, dict):
        raise SetupError("A position is a mapping.")
    unknown = set(position) - KNOWN
    if unknown:
        raise SetupError(f"Unknown position keys: {', '.join(sorted(unknown))}; known: {', '.join(sorted(KNOWN))}.")
    names = _players(cls, position.get("players", 2))
    options = {k: position[k] for k in ("track", "laps", "direction") if k in position}
    track, clockwise, laps, _ = cls._options(options, len(names))
    game = cls(names, track, clockwise, laps, [], list(range(len(names))), 0, 1, TURN, None, None, "none", 0, None,
               0, [], None, Dice.seeded(0))
    reader = _Reader(game)
    game.cars = reader.cars(position.get("cars", {}))
    game.seq = max([c.parked or 0 for c in game.cars] + [0])
    reader.order(position)
    reader.phase(position)
    reader.first_round()
    reader.dice(position)
    reader.check_race(position)
    return game


def _players(cls: type[G], players: Any) -> list[str]:
    """``players``: a count (the names are the colours) or a list of names."""
    if isinstance(players, int) and not isinstance(players, bool):
        if not cls.min_seats <= players <= cls.max_seats:
            raise SetupError(f"`players` must be {cls.min_seats} to {cls.max_seats}.")
        return [COLOUR_KEYS[i].capitalize() for i in range(players)]
    return cls._names(players)


def _whole(value: Any, low: int, high: int | None = None) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value and (high is None or value <= high)


class _Reader:
    """Reads the sections of a position into ``game``, one method per section."""

    def __init__(self, game: Settable) -> None:
        self.game = game
        self.n = game.n
        self.colours = COLOUR_KEYS[: self.n]
        self.grid = game.course.grid(self.n)
        self.parked_seq = 0
        #: each car's situation as the position gives it, by seat
        self.given: dict[int, dict[str, Any]] = {}

    def seat_of(self, key: Any, what: str) -> int:
        """A car named by seat number, colour or player name."""
        if _whole(key, 0, self.n - 1):
            return int(key)
        if isinstance(key, str):
            low = key.lower()
            if low in self.colours:
                return self.colours.index(low)
            lowered = [nm.lower() for nm in self.game.names]
            if low in lowered:
                return lowered.index(low)
        raise SetupError(f"{what}: {key!r} is not a car in play ({', '.join(self.colours)}).")

    # cars ---------------------------------------------------------------------------------------

    def cars(self, cars_in: Any) -> list[Car]:
        """``cars``: each car's situation (default: on its grid cell), no two on one cell."""
        if not isinstance(cars_in, dict):
            raise SetupError("`cars` maps a car (colour or player name) to its situation.")
        given: dict[int, dict[str, Any]] = {}
        for key, spec in cars_in.items():
            seat = self.seat_of(key, "cars")
            if not isinstance(spec, dict):
                raise SetupError(f"cars: {key}'s situation is a mapping such as {{\"at\": \"12a\"}}.")
            bad = set(spec) - CAR_KEYS
            if bad:
                raise SetupError(f"cars: unknown keys {', '.join(sorted(bad))} for {key}; "
                                 f"known: {', '.join(sorted(CAR_KEYS))}.")
            given[seat] = spec
        self.given = given
        cars = [self.car(seat, given.get(seat, {})) for seat in range(self.n)]
        seen: dict[str, int] = {}
        for seat, car in enumerate(cars):
            if car.at in ("pit", "stop"):
                continue
            if car.at in seen:
                raise SetupError(f"cars: {self.colours[seat]} and {self.colours[seen[car.at]]} cannot share "
                                 f"{car.at}.")
            seen[car.at] = seat
        return cars

    def car(self, seat: int, spec: dict[str, Any]) -> Car:

        colour = self.colours[seat]
        at = self.place(colour, str(spec.get("at", self.grid[seat])))
        gears = self.board(colour, spec)
        fuel = spec.get("fuel", B.START_FUEL)
        if not _whole(fuel, 0, B.TOTALS["fuel"]):
            raise SetupError(f"cars: {colour}'s `fuel` is 0 to {B.TOTALS['fuel']} cans (S7).")
        lever = spec.get("lever", "green")
        if lever not in B.RANGES:
            raise SetupError(f"cars: {colour}'s `lever` is green, yellow or red.")
        repair = spec.get("repair", 0)
        if repair not in (0, 1, 2):
            raise SetupError(f"cars: {colour}'s `repair` is 0, 1 (gear 1 due) or 2 (gear 2 may follow).")
        if not B.roadworthy(gears) and repair == 0:
            raise SetupError(f"cars: {colour} has no working green gear, so it must be parked for repair "
                             "(`repair`: 1) (S6).")
        restart = bool(spec.get("restart", queries.is_spot(at) or at == "stop"))
        return Car(at, self.progress(colour, at, spec), gears, fuel, lever, int(spec.get("stops", 0)), restart,
                   repair, self.parked(colour, at, spec.get("parked")), 0)

    def place(self, colour: str, at: str) -> str:
        """``at``: a cell, ``pit``, ``stop`` or a spot open at this number of players (S1)."""
        game = self.game
        if at not in ("pit", "stop") and "." in at:
            area, index = at.split(".", 1)
            at = f"{WAITING if area.lower() == 'pit' else area.upper()}.{index}"
        if not queries.valid_place(game, at):
            raise SetupError(f"cars: {colour} stands on {at!r}, which is not a place on {game.track.name}.")
        if queries.is_spot(at) and queries.spot_least(game, at) > self.n:
            raise SetupError(f"cars: spot {at} is open only from {queries.spot_least(game, at)} players.")
        return at

    def progress(self, colour: str, at: str, spec: dict[str, Any]) -> int:
        """``lap``: the lap being driven (0 behind the arch before the start) → rows driven from the arch."""
        game, laps, length = self.game, self.game.laps, self.game.track.length
        lap = spec.get("lap", 0 if at in self.grid else 1)
        if not isinstance(lap, int) or not _whole(lap, 0, laps):
            raise SetupError(f"cars: {colour}'s `lap` is the lap being driven, 0 (on the grid) to {laps}.")
        offset = game.course.offset(queries.row_of(game, at))
        if lap == 0:
            if offset - length < -3 * 3:
                raise SetupError(f"cars: {colour} is on lap 0 (before the start) but far from the arch.")
            return offset - length
        return (lap - 1) * length + offset

    def board(self, colour: str, spec: dict[str, Any]) -> list[str]:
        """``board``: what stands on each gear, never more than the player owns (S7)."""
        try:
            gears = B.parse_board(str(spec.get("board", B.DEFAULT_BOARD)))
        except ValueError as exc:
            raise SetupError(f"cars: {colour}'s board: {exc}.") from None
        for letter, supply in B.ITEMS.items():
            cap = B.TOTALS[supply] - (B.ON_COUNTERS if letter == "M" else 0)
            if B.count(gears, letter) > cap:
                raise SetupError(f"cars: {colour} has more {supply} parts on its board than it owns (S7).")
        return gears

    def parked(self, colour: str, at: str, parked: Any) -> int | None:
        """``parked``: a car on a spot has a place on the parking bar (default: in the order listed)."""
        if queries.is_spot(at):
            if parked is None:
                self.parked_seq += 1
                return self.parked_seq
            if not _whole(parked, 1):
                raise SetupError(f"cars: {colour}'s `parked` is its place on the parking bar, a number from 1.")
            return int(parked)
        if parked is not None:
            raise SetupError(f"cars: {colour} is not on a parking spot, so it has no `parked` place.")
        return None

    # the round, the phase and the dice ---------------------------------------------------------

    def order(self, position: dict[str, Any]) -> None:
        """``order``, ``to_act`` and ``round``."""
        game = self.game
        order = list(range(self.n))
        if "order" in position:
            if not isinstance(position["order"], list):
                raise SetupError("`order` lists every car once, in this round's turn order.")
            order = [self.seat_of(k, "order") for k in position["order"]]
            if sorted(order) != list(range(self.n)):
                raise SetupError("`order` lists every car once, in this round's turn order.")
        game.order = order
        to_act = self.seat_of(position["to_act"], "to_act") if "to_act" in position else order[0]
        game.turn_index = order.index(to_act)
        rnd = position.get("round", 2)
        if not _whole(rnd, 1):
            raise SetupError("`round` is a whole number from 1.")
        game.round = rnd

    def phase(self, position: dict[str, Any]) -> None:
        """``phase`` (with ``points``, ``roll`` and ``boost`` in the move phase)."""

        game = self.game
        phase = position.get("phase", TURN)
        if phase not in (TURN, MOVE):
            raise SetupError("`phase` is `turn` (about to roll) or `move` (rolled, about to move).")
        game.phase = phase
        boost = position.get("boost", "none")
        if boost not in ("none", "pending", "used"):
            raise SetupError("`boost` is none, pending (a booster move follows) or used.")
        if phase != MOVE:
            if boost != "none":
                raise SetupError("`boost` belongs to the `move` phase.")
            return
        points = position.get("points")
        car = game.cars[game.turn]
        if not isinstance(points, int) or not _whole(points, 1, 6):
            raise SetupError("A position in the `move` phase needs `points`: the cells the gear moves, 1 to 6.")
        if B.range_of(points) != car.lever:
            raise SetupError(f"`points` {points} come from gear {points}, a {B.range_of(points)} gear, but the "
                             f"lever stands on {car.lever}.")
        if not B.works(car.gears[points - 1]):
            raise SetupError(f"gear {points} does not work, so it cannot have moved the car (S4).")
        game.points, game.roll, game.boost = points, position.get("roll"), boost

    def first_round(self) -> None:
        """S3 (and decision 22): in the first round every lever stands on green, and a car that has not had
        its first turn yet must roll green, as in a race set up by ``create``."""

        game = self.game
        if game.round != 1:
            return
        for seat, car in enumerate(game.cars):
            if car.lever != "green":
                raise SetupError(f"cars: in round 1 every lever stands on green (S3), not {self.colours[seat]}'s "
                                 f"{car.lever}.")
        first = game.turn_index if game.phase == TURN else game.turn_index + 1
        for seat in game.order[first:]:
            if self.given.get(seat, {}).get("restart") is False:
                raise SetupError(f"cars: {self.colours[seat]} has not had its first turn in round 1, so its next "
                                 "roll must be green (S3); `restart` cannot be false.")
            game.cars[seat].restart = True

    def dice(self, position: dict[str, Any]) -> None:
        """``seed``, ``load`` (the next rolls) and ``ply``."""
        game = self.game
        seed = position.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise SetupError("`seed` is a whole number.")
        game.dice = Dice.seeded(seed)
        load = position.get("load", [])
        if not isinstance(load, list) or not all(_whole(v, 1, 6) for v in load):
            raise SetupError("`load` lists the next die rolls, 1 to 6.")
        game.dice.load(load)
        ply = position.get("ply", 0)
        if not _whole(ply, 0):
            raise SetupError("`ply` is a whole number.")
        game._ply = ply

    def check_race(self, position: dict[str, Any]) -> None:
        """No car past the finish; a move phase has a move."""

        game = self.game
        for seat in range(self.n):
            if queries.laps_done(game, seat) >= game.laps:
                raise SetupError(f"cars: {self.colours[seat]} would already have finished the race.")
        if game.phase == MOVE and not game.endings():
            raise SetupError("the car to act has no move with these points: such a roll ends the turn by "
                             "itself, so set the position in the `turn` phase.")
