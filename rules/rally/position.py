"""The position format of Schrottplatz Rally: a race situation in a few lines of JSON (see README).

Every key is optional::

    {"players": ["Ann", "Bob"], "track": "A", "direction": "clockwise", "laps": 3,
     "cars": {"red": {"at": "12a", "lap": 1, "lever": "yellow", "board": "1:M 2:M 3:BE 5:BE",
                      "fuel": 2, "stops": 0, "restart": false, "repair": 0}},
     "order": ["red", "blue"], "to_act": "red", "round": 2,
     "phase": "move", "points": 3, "boost": "pending", "load": [4, 2], "seed": 0}
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from rules.contract import SetupError
from rules.dice import Dice
from rules.rally import board as B
from rules.rally.texts import COLOUR_KEYS
from rules.rally.track import WAITING

if TYPE_CHECKING:
    from rules.rally.game import RallyGame

G = TypeVar("G", bound="RallyGame")

KNOWN = {"players", "track", "direction", "laps", "cars", "order", "to_act", "round", "phase", "points", "boost",
         "roll", "load", "seed", "ply"}
CAR_KEYS = {"at", "lap", "lever", "board", "fuel", "stops", "restart", "repair", "parked"}


def build(cls: type[G], position: dict[str, Any]) -> G:
    from rules.rally.game import MOVE, TURN, Car

    if not isinstance(position, dict):
        raise SetupError("A position is a mapping.")
    unknown = set(position) - KNOWN
    if unknown:
        raise SetupError(f"Unknown position keys: {', '.join(sorted(unknown))}; known: {', '.join(sorted(KNOWN))}.")
    players = position.get("players", 2)
    if isinstance(players, int) and not isinstance(players, bool):
        if not cls.min_seats <= players <= cls.max_seats:
            raise SetupError(f"`players` must be {cls.min_seats} to {cls.max_seats}.")
        names = [COLOUR_KEYS[i].capitalize() for i in range(players)]
    else:
        names = cls._names(players)
    n = len(names)
    options = {k: position[k] for k in ("track", "laps", "direction") if k in position}
    track, clockwise, laps, _ = cls._options(options, n)
    colours = COLOUR_KEYS[:n]

    def seat_of(key: Any, what: str) -> int:
        if isinstance(key, int) and not isinstance(key, bool) and 0 <= key < n:
            return key
        if isinstance(key, str):
            low = key.lower()
            if low in colours:
                return colours.index(low)
            lowered = [nm.lower() for nm in names]
            if low in lowered:
                return lowered.index(low)
        raise SetupError(f"{what}: {key!r} is not a car in play ({', '.join(colours)}).")

    game = cls(names, track, clockwise, laps, [], list(range(n)), 0, 1, TURN, None, None, "none", 0, None, 0, [],
               None, Dice.seeded(0))
    course = game.course
    grid = course.grid(n)
    cars_in = position.get("cars", {})
    if not isinstance(cars_in, dict):
        raise SetupError("`cars` maps a car (colour or player name) to its situation.")
    given: dict[int, dict[str, Any]] = {}
    for key, spec in cars_in.items():
        seat = seat_of(key, "cars")
        if not isinstance(spec, dict):
            raise SetupError(f"cars: {key}'s situation is a mapping such as {{\"at\": \"12a\"}}.")
        bad = set(spec) - CAR_KEYS
        if bad:
            raise SetupError(f"cars: unknown keys {', '.join(sorted(bad))} for {key}; "
                             f"known: {', '.join(sorted(CAR_KEYS))}.")
        given[seat] = spec
    cars: list[Car] = []
    parked_seq = 0
    for seat in range(n):
        spec = given.get(seat, {})
        at = str(spec.get("at", grid[seat]))
        at = at if at in ("pit", "stop") or "." not in at else at.split(".")[0].upper().replace("PIT", WAITING) + \
            "." + at.split(".")[1]
        if not game.valid_place(at):
            raise SetupError(f"cars: {colours[seat]} stands on {at!r}, which is not a place on {track.name}.")
        if game.is_spot(at) and game.spot_least(at) > n:
            raise SetupError(f"cars: spot {at} is open only from {game.spot_least(at)} players.")
        row = game.row_of(at)
        lap = spec.get("lap", 0 if (at in grid and "lap" not in spec) else 1)
        if not isinstance(lap, int) or isinstance(lap, bool) or not 0 <= lap <= laps:
            raise SetupError(f"cars: {colours[seat]}'s `lap` is the lap being driven, 0 (on the grid) to {laps}.")
        progress = (lap - 1) * track.length + course.offset(row)
        if lap == 0:
            progress = course.offset(row) - track.length
            if progress < -3 * 3:
                raise SetupError(f"cars: {colours[seat]} is on lap 0 (before the start) but far from the arch.")
        try:
            gears = B.parse_board(str(spec.get("board", B.DEFAULT_BOARD)))
        except ValueError as exc:
            raise SetupError(f"cars: {colours[seat]}'s board: {exc}.") from None
        for letter, supply in B.ITEMS.items():
            cap = B.TOTALS[supply] - (B.ON_COUNTERS if letter == "M" else 0)
            if B.count(gears, letter) > cap:
                raise SetupError(f"cars: {colours[seat]} has more {supply} parts on its board than it owns (S7).")
        fuel = spec.get("fuel", B.START_FUEL)
        if not isinstance(fuel, int) or not 0 <= fuel <= B.TOTALS["fuel"]:
            raise SetupError(f"cars: {colours[seat]}'s `fuel` is 0 to {B.TOTALS['fuel']} cans (S7).")
        lever = spec.get("lever", "green")
        if lever not in B.RANGES:
            raise SetupError(f"cars: {colours[seat]}'s `lever` is green, yellow or red.")
        repair = spec.get("repair", 0)
        if repair not in (0, 1, 2):
            raise SetupError(f"cars: {colours[seat]}'s `repair` is 0, 1 (gear 1 due) or 2 (gear 2 may follow).")
        if not B.roadworthy(gears) and repair == 0:
            raise SetupError(f"cars: {colours[seat]} has no working green gear, so it must be parked for repair "
                             "(`repair`: 1) (S6).")
        parked = spec.get("parked")
        if game.is_spot(at):
            if parked is None:
                parked_seq += 1
                parked = parked_seq
        elif parked is not None:
            raise SetupError(f"cars: {colours[seat]} is not on a parking spot, so it has no `parked` place.")
        cars.append(Car(at, progress, gears, fuel, lever, int(spec.get("stops", 0)),
                        bool(spec.get("restart", game.is_spot(at) or at == "stop")), repair, parked, 0))
    seen: dict[str, int] = {}
    for seat, car in enumerate(cars):
        if car.at in ("pit", "stop"):
            continue
        if car.at in seen:
            raise SetupError(f"cars: {colours[seat]} and {colours[seen[car.at]]} cannot share {car.at}.")
        seen[car.at] = seat
    game.cars = cars
    game.seq = max([c.parked or 0 for c in cars] + [0])
    if "order" in position:
        order = position["order"]
        if not isinstance(order, list):
            raise SetupError("`order` lists every car once, in this round's turn order.")
        order = [seat_of(k, "order") for k in order]
        if sorted(order) != list(range(n)):
            raise SetupError("`order` lists every car once, in this round's turn order.")
    else:
        order = list(range(n))
    game.order = order
    to_act = seat_of(position["to_act"], "to_act") if "to_act" in position else order[0]
    game.turn_index = order.index(to_act)
    rnd = position.get("round", 2)
    if not isinstance(rnd, int) or rnd < 1:
        raise SetupError("`round` is a whole number from 1.")
    game.round = rnd
    phase = position.get("phase", TURN)
    if phase not in (TURN, MOVE):
        raise SetupError("`phase` is `turn` (about to roll) or `move` (rolled, about to move).")
    game.phase = phase
    boost = position.get("boost", "none")
    if boost not in ("none", "pending", "used"):
        raise SetupError("`boost` is none, pending (a booster move follows) or used.")
    if phase == MOVE:
        points = position.get("points")
        car = cars[to_act]
        if not isinstance(points, int) or not 1 <= points <= 6:
            raise SetupError("A position in the `move` phase needs `points`: the cells the gear moves, 1 to 6.")
        if B.range_of(points) != car.lever:
            raise SetupError(f"{points} points come from gear {points}, a {B.range_of(points)} gear, but the "
                             f"lever stands on {car.lever}.")
        if not B.works(car.gears[points - 1]):
            raise SetupError(f"gear {points} does not work, so it cannot have moved the car (S4).")
        game.points = points
        game.roll = position.get("roll")
        game.boost = boost
    elif boost != "none":
        raise SetupError("`boost` belongs to the `move` phase.")
    seed = position.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise SetupError("`seed` is a whole number.")
    game.dice = Dice.seeded(seed)
    load = position.get("load", [])
    if not isinstance(load, list) or not all(isinstance(v, int) and 1 <= v <= 6 for v in load):
        raise SetupError("`load` lists the next die rolls, 1 to 6.")
    game.dice.load(load)
    ply = position.get("ply", 0)
    if not isinstance(ply, int) or ply < 0:
        raise SetupError("`ply` is a whole number.")
    game._ply = ply
    for seat in range(n):
        if game.laps_done(seat) >= laps:
            raise SetupError(f"cars: {colours[seat]} would already have finished the race.")
    if phase == MOVE and not game.endings():
        raise SetupError("the car to act has no move with these points: such a roll ends the turn by itself, "
                         "so set the position in the `turn` phase.")
    return game
