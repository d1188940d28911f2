"""A smart driver for Schrottplatz Rally.

It values everything in rows of the track. A car's board is worth the turns it will still need: the rows
left in the race over its *pace*, the cells per turn it keeps when it never shifts into a range where the
die may name a broken gear (S4: a mis-shift loses the move, the booster and the lever). So a part that
makes a range sound is worth many rows early in the race and little near the finish, and the driver parks
(or takes the pit lane) for it when a range is broken; a half-built gear (a body part without its engine
part) earns part of that.

Before the roll it weighs each range it may choose: for both gears of the range (each named by half the
die) the best move that gear would allow from here, or the cost of a mis-shift for a broken gear, plus
what the range opens for the next turn. It spends a fuel can on the booster only in a sound range. Moves
are scored by the rows gained, what a stop adds to the board (parts, fuel), what a spin or an accident
would take from it (S5), and the finish. It never looks at the game's dice.

The game's unit seats it as ``drivers = {"smart": SmartDriver}`` (see :data:`DRIVERS`).
"""

from __future__ import annotations

from bot.drivers.base import DRIVER_STREAM, check_turn
from bot.drivers.reasons import Choice, Reason, Word, because, only
from rules.contract import Game
from rules.rally import board as B
from rules.rally import queries
from rules.rally.actions import Move, Park, Repair, Roll
from rules.rally.game import CRASH, HALT, PARK, PIT, SPIN, Ending, RallyGame
from rules.rally.track import WAITING

MISS_COST = 4.0  # rows: a mis-shift moves nothing, wastes the booster and puts the lever back to green (S4)
LOOKAHEAD = 0.8  # weight of the pace the chosen range opens for the next turn
HALT_COST = 1.0
PARK_COST = 1.5  # the green start after parking
TURN_ROWS = 2.0  # rows a turn is worth when the board's pace changes how many turns are left
HALF_BUILT = 0.3  # share of a gear's worth that one of its two parts earns
FUEL_SHARE = 0.5  # a fuel can: a booster move, at this share of the pace
PIT_WAIT = 0.8  # the pit lane's waiting cell: the pit stop it leads to, a turn later
APPROACH = 0.3  # share of a stop's worth that standing ready to turn in earns
APPROACH_ROWS = 6
FINISH = 1000.0


def range_speed(gears: list[str], range_name: str) -> float:
    """Cells per turn in a range whose gears both work; 0 when the die may name a broken gear (S4)."""
    low, high = B.RANGE_GEARS[range_name]
    return (low + high) / 2 if B.works(gears[low - 1]) and B.works(gears[high - 1]) else 0.0


def green_speed(gears: list[str]) -> float:
    """Green is used even with a broken gear (nothing else is allowed then): its working gears' cells."""
    return sum(g for g in B.RANGE_GEARS["green"] if B.works(gears[g - 1])) / 2


def speed(gears: list[str]) -> float:
    """The pace a board keeps: mostly its best sound range that the lever can reach one range at a time
    (red only through a sound yellow, S3), some green (every stop, spin or mis-shift starts green again)."""
    green = green_speed(gears)
    yellow = range_speed(gears, "yellow")
    red = range_speed(gears, "red") if yellow else 0.0
    return 0.8 * max(green, yellow, red) + 0.2 * max(green, 0.5)


def completed(gears: list[str]) -> list[str]:
    """The board with every half-built gear (a body or an engine part alone) finished."""
    return [c if B.works(c) or not c else B.canonical(c + "BE") for c in gears]


def pace(gears: list[str]) -> float:
    """:func:`speed`, with part of what the half-built gears would add."""
    now = speed(gears)
    return now + HALF_BUILT * (speed(completed(gears)) - now)


def board_value(game: RallyGame, seat: int, gears: list[str], fuel: int, progress: int | None = None) -> float:
    """What a board is worth in rows: minus the turns it still needs (the rows left over its pace), plus
    fuel for boosters."""
    car = game.cars[seat]
    left = max(0, game.laps * game.track.length - (car.progress if progress is None else progress))
    p = max(pace(gears), 0.25)
    return -TURN_ROWS * left / p + FUEL_SHARE * p * min(fuel, 2)


def _with(gears: list[str], items: tuple[tuple[str, int], ...]) -> list[str]:
    out = list(gears)
    for letter, gear in items:
        out[gear - 1] = B.canonical(out[gear - 1] + letter.upper())
    return out


def _without(gears: list[str], letter: str) -> list[str]:
    out = list(gears)
    gear = B.highest_with(out, letter)
    if gear is not None:
        out[gear - 1] = out[gear - 1].replace(letter, "")
    return out


def stop_gain(game: RallyGame, seat: int, spot: str, items: tuple[tuple[str, int], ...]) -> float:
    """What parking at ``spot`` and placing ``items`` adds to the board (a petrol station: one can; the pit
    lane: a full tank)."""
    car = game.cars[seat]
    kind = queries.spot_kind(game, spot)
    reserve = car.reserve()["fuel"]
    fuel = car.fuel + (min(1, reserve) if kind == "fuel" else reserve if kind == "pit" else 0)
    return board_value(game, seat, _with(car.gears, items), fuel) - board_value(game, seat, car.gears, car.fuel)


def damage_cost(game: RallyGame, seat: int, kind: str) -> float:
    """What a spin (a body or an engine part, even odds) or an accident (a body part, else an engine part)
    takes from the board (S5), and the green start after it."""
    car = game.cars[seat]
    now = board_value(game, seat, car.gears, car.fuel)
    if kind == SPIN:
        after = [board_value(game, seat, _without(car.gears, letter), car.fuel) for letter in "BE"]
        loss = now - sum(after) / 2
    else:
        letter = "B" if B.count(car.gears, "B") else "E"
        loss = now - board_value(game, seat, _without(car.gears, letter), car.fuel)
    return loss + PARK_COST


def area_gain(game: RallyGame, seat: int, area_id: str) -> float:
    """What the best free spot of a car park (or the pit lane, ``pit``) would add to the board, less the
    stop; 0 when every open spot is taken."""
    taken = queries.occupied(game, seat)
    free = [spot for spot in queries.open_spots(game, area_id) if spot not in taken]
    if not free:
        return 0.0
    return max(0.0, max(stop_gain(game, seat, free[0], items) for items in game.placements(seat, free[0]))
               - PARK_COST)


def approach(game: RallyGame, seat: int, cell: str) -> float:
    """Rows a track cell is worth for the stops just ahead: a car park (or the pit lane's entry) that would
    mend the board, the more the nearer it is and the closer the cell's lane to that side's edge, from
    which the car turns in (rule text "Parken")."""
    if not queries.is_cell(cell):
        return 0.0
    course, track = game.course, game.track
    row, lane = int(cell[:-1]), "abc".index(cell[-1])
    best = 0.0
    gains: dict[str, float] = {}
    for k in range(APPROACH_ROWS):
        for side in ("L", "R"):
            area = track.areas_by_row.get((row, side))
            key = area.id if area is not None else WAITING if (side == track.pit.side
                                                                and row == course.pit_entry) else None
            if key is None:
                continue
            if key not in gains:
                gains[key] = area_gain(game, seat, key)
            align = 0.5 ** abs(lane - "abc".index(track.edge(row, side)))
            best = max(best, APPROACH * gains[key] * align / (1 + 0.5 * k))
        row = course.next_row(row)
    return best


def score_ending(game: RallyGame, seat: int, end: Ending, items: tuple[tuple[str, int], ...]) -> float:
    """A move's worth in rows: the rows gained, what the stop adds or the crash takes, the finish."""
    car = game.cars[seat]
    value = float(end.progress - car.progress)
    if queries.laps_done(game, seat) < game.laps <= end.progress // game.track.length:
        return value + FINISH
    if end.kind in (SPIN, CRASH):
        value -= damage_cost(game, seat, end.kind)
    elif end.kind == HALT:
        value -= HALT_COST
    elif end.kind in (PARK, PIT):
        value += stop_gain(game, seat, end.cell, items) - PARK_COST
    elif end.cell == WAITING:
        value += PIT_WAIT * area_gain(game, seat, WAITING)
    else:
        value += approach(game, seat, end.cell)
    if queries.is_cell(end.cell):
        lanes = game.course.lanes_from_driver(int(end.cell[:-1]))
        value += 0.05 * (len(lanes) - lanes.index(end.cell[-1]))  # the driver's side is ahead (S9)
    return value


def best_items(game: RallyGame, seat: int, cell: str, end: Ending) -> tuple[tuple[str, int], ...]:
    """The placement at a parking spot that helps the car most (nothing for a move that does not park)."""
    if end.kind not in (PARK, PIT):
        return ()
    return max(game.placements(seat, cell), key=lambda items: score_ending(game, seat, end, items))


def best_move(game: RallyGame, seat: int) -> tuple[float, str]:
    best: tuple[float, str] = (float("-inf"), "")
    for action in game.legal_actions():
        if isinstance(action, Move | Park):
            cell = action.cell if isinstance(action, Move) else action.spot
            items = action.items if isinstance(action, Park) else ()
            s = score_ending(game, seat, game.endings()[cell], items)
            if s > best[0]:
                best = (s, str(action))
    return best


def outlook(gears: list[str], range_name: str) -> float:
    """The pace the next turn offers after choosing ``range_name``: the best sound range the lever may then
    reach (one up at most), or green after a mis-shift (S3, S4)."""
    top = B.RANGES.index(range_name) + 1
    reach = max([green_speed(gears)] + [range_speed(gears, r) for r in B.RANGES[1: top + 1]])
    broken = sum(1 for g in B.RANGE_GEARS[range_name] if not B.works(gears[g - 1])) / 2
    return (1 - broken) * reach + broken * green_speed(gears)


def range_value(game: RallyGame, seat: int, range_name: str) -> tuple[float, bool]:
    """The average best outcome of the two gears of a range (a broken gear: a mis-shift) and what the range
    opens next; and whether both gears work."""
    gears = game.gears_after_repair(seat)
    trial = RallyGame.from_dict(game.to_dict())
    trial.cars[seat].lever = range_name
    trial.cars[seat].gears = gears
    total, sound = 0.0, True
    for gear in B.RANGE_GEARS[range_name]:
        if not B.works(gears[gear - 1]):
            total -= MISS_COST
            sound = False
            continue
        found = trial.search(seat, gear)
        if not found.endings:
            total -= damage_cost(trial, seat, CRASH)
            continue
        total += max(score_ending(trial, seat, end, best_items(trial, seat, cell, end))
                     for cell, end in found.endings.items())
    return total / 2 + LOOKAHEAD * outlook(gears, range_name), sound


def wants_repair(game: RallyGame, seat: int) -> bool:
    """S6: waiting a round for gear 2 as well pays when the better pace saves more than the turn it costs."""
    car = game.cars[seat]
    one = game.gears_after_repair(seat)
    both = list(one)
    both[1] = B.canonical(both[1] + "BE") if not B.works(both[1]) else both[1]
    gain = board_value(game, seat, both, car.fuel) - board_value(game, seat, one, car.fuel)
    return gain > TURN_ROWS * pace(one)


class SmartDriver:
    """Weighs ranges before the roll and moves after it (see the module docstring)."""

    kind = "smart"

    def __init__(self, seed: int = 0) -> None:
        from rules.dice import Dice

        self.dice = Dice.seeded(seed, stream=DRIVER_STREAM + 7)

    def choose(self, game: Game, seat: int) -> str:
        check_turn(game, seat)
        if not isinstance(game, RallyGame):
            raise TypeError(f"the rally driver cannot play {type(game).__name__}")
        if game.phase == "move":
            return best_move(game, seat)[1]
        actions = game.legal_actions()
        if any(isinstance(a, Repair) for a in actions) and wants_repair(game, seat):
            return "repair"
        car = game.cars[seat]
        scored = [(*range_value(game, seat, a.range), a.range) for a in actions
                  if isinstance(a, Roll) and not a.boost]
        if any(ok for _, ok, _ in scored):  # never risk a mis-shift (S4) while a sound range is allowed,
            scored = [t for t in scored if t[1] or t[0] >= FINISH / 4]  # unless it may win the race
        value, sound, chosen = max(scored)
        spare = car.fuel >= 2 or (car.fuel == 1 and queries.laps_done(game, seat) == game.laps - 1)
        return str(Roll(chosen, sound and value > 1.5 and spare and car.fuel > 0))


    def explain(self, game: Game, seat: int) -> Choice:
        """:meth:`choose`'s move and why, from what it weighed: the move's end, the repair, the range."""
        action = self.choose(game, seat)
        assert isinstance(game, RallyGame)
        if len(game.legal_actions()) == 1:
            return Choice(action, only())
        chosen = game.parse_action(action)
        if isinstance(chosen, Move | Park):
            return Choice(action, move_reason(game, seat, chosen))
        if isinstance(chosen, Repair):
            return Choice(action, because("reason.rally.repair"))
        word = Word("word.range.red" if chosen.range == "red" else f"word.{chosen.range}")  # a roll
        if chosen.boost:
            return Choice(action, because("reason.rally.boost", range=word))
        sound = range_value(game, seat, chosen.range)[1]
        return Choice(action, because("reason.rally.range" if sound else "reason.rally.range_risky", range=word))


def move_reason(game: RallyGame, seat: int, action: Move | Park) -> Reason:
    """Why a move scored best (:func:`score_ending`): the finish, a stop's parts or fuel, the pit lane, the
    risk of a spin or crash when nothing safer was left, else the rows it gains."""
    cell = action.cell if isinstance(action, Move) else action.spot
    end = game.endings()[cell]
    car = game.cars[seat]
    if queries.laps_done(game, seat) < game.laps <= end.progress // game.track.length:
        return because("reason.rally.finish")
    if end.kind in (SPIN, CRASH):
        return because("reason.rally.risk")
    if end.kind in (PARK, PIT):
        items = action.items if isinstance(action, Park) else ()
        return because("reason.rally.park_parts", count=len(items)) if items else because("reason.rally.park_fuel")
    if end.cell == WAITING:
        return because("reason.rally.pit_lane")
    rows = end.progress - car.progress
    return because("reason.rally.rows", count=rows) if rows > 0 else because("reason.rally.halt")


#: computer players of this game by kind, for the game's unit ("random" serves every game)
DRIVERS = {"smart": SmartDriver}
