"""A smart driver for Schrottplatz Rally.

Before the roll it weighs each lever range it may choose: for both gears of the range (each named by half
the die) it finds the best move that gear would allow from here, or counts a mis-shift for a broken gear,
and takes the range with the best average. It spends a fuel can on the booster when the range has no
broken gear and it has fuel to spare. Moves are scored by the rows gained, less the cost of spinning,
crashing or halting, plus what a parking stop adds to the car: the expected cells per turn of its best
range, weighed over the rest of the race, and fuel for later boosts. It never looks at the game's dice.

The game's unit seats it as ``drivers = {"smart": SmartDriver}`` (see :data:`DRIVERS`).
"""

from __future__ import annotations

from bot.drivers.base import DRIVER_STREAM, check_turn
from rules.contract import Game
from rules.rally import board as B
from rules.rally.actions import Move, Park, Repair, Roll
from rules.rally.game import CRASH, HALT, PARK, PIT, SPIN, Ending, RallyGame

MISSHIFT = 0.0  # a mis-shift moves nothing now; its green start next time is in the look-ahead
LOOKAHEAD = 0.8  # weight of the next turn's best range, which the lever now opens or closes
SPIN_COST = 7.0
CRASH_COST = 6.0
HALT_COST = 1.0
PARK_COST = 1.5  # the green start after parking
SPEED_WEIGHT = 9.0  # rows per cell of expected speed gained
FUEL_VALUE = 1.2


def range_speed(gears: list[str], range_name: str) -> tuple[float, float]:
    """Expected cells per turn in a range and the chance of a mis-shift there."""
    low, high = B.RANGE_GEARS[range_name]
    works = [B.works(gears[g - 1]) for g in (low, high)]
    return sum(g for g, w in zip((low, high), works, strict=True) if w) / 2, works.count(False) / 2


def speed(gears: list[str]) -> float:
    """Expected cells per turn: half the best range, half the average of all three (curves and the
    one-range-up lever make every range count)."""
    speeds = [range_speed(gears, r)[0] for r in B.RANGES]
    return 0.5 * max(speeds) + 0.5 * sum(speeds) / len(speeds)


def outlook(gears: list[str], range_name: str) -> float:
    """What the next turn promises after choosing ``range_name`` now: the best range the lever may reach
    from there (one up at most), or green after a mis-shift (S3, S4)."""
    top = B.RANGES.index(range_name) + 1
    reach = max(range_speed(gears, r)[0] for r in B.RANGES[: top + 1])
    miss = range_speed(gears, range_name)[1]
    return (1 - miss) * reach + miss * range_speed(gears, "green")[0]


def board_value(gears: list[str], fuel: int) -> float:
    return SPEED_WEIGHT * speed(gears) + FUEL_VALUE * min(fuel, 2)


def score_ending(game: RallyGame, seat: int, end: Ending, items: tuple[tuple[str, int], ...]) -> float:
    car = game.cars[seat]
    value = float(end.progress - car.progress)
    if end.kind == SPIN:
        value -= SPIN_COST
    elif end.kind == CRASH:
        value -= CRASH_COST
    elif end.kind == HALT:
        value -= HALT_COST
    elif end.kind in (PARK, PIT):
        gears = list(car.gears)
        for letter, gear in items:
            gears[gear - 1] = B.canonical(gears[gear - 1] + letter.upper())
        kind = game.spot_kind(end.cell)
        fuel = car.fuel + (min(1, car.reserve()["fuel"]) if kind == "fuel"
                           else car.reserve()["fuel"] if kind == "pit" else 0)
        left = max(0.0, 1.0 - game.laps_done(seat) / game.laps - 0.3 * (end.progress % game.track.length)
                   / game.track.length / game.laps)
        value += (board_value(gears, fuel) - board_value(car.gears, car.fuel)) * left - PARK_COST
    if game.is_cell(end.cell):
        lanes = game.course.lanes_from_driver(int(end.cell[:-1]))
        value += 0.05 * (len(lanes) - lanes.index(end.cell[-1]))  # the driver's side is ahead (S9)
    if game.laps_done(seat) < game.laps <= end.progress // game.track.length:
        value += 1000.0  # the finish
    return value


def best_move(game: RallyGame, seat: int) -> tuple[float, str]:
    best: tuple[float, str] = (float("-inf"), "")
    for action in game.legal_actions():
        if isinstance(action, Move | Park):
            cell = action.cell if isinstance(action, Move) else action.spot
            end = game.endings()[cell]
            items = action.items if isinstance(action, Park) else ()
            s = score_ending(game, seat, end, items)
            if s > best[0]:
                best = (s, str(action))
    return best


def range_value(game: RallyGame, seat: int, range_name: str) -> tuple[float, bool]:
    """The average best outcome of the two gears of a range, and whether both gears work."""
    car = game.cars[seat]
    gears = game.gears_after_repair(seat)
    total, sound = 0.0, True
    trial = RallyGame.from_dict(game.to_dict())
    trial.cars[seat].lever = range_name
    trial.cars[seat].gears = gears
    for gear in B.RANGE_GEARS[range_name]:
        if not B.works(gears[gear - 1]):
            total += MISSHIFT
            sound = False
            continue
        found = trial.search(seat, gear)
        if not found.endings:
            total += -CRASH_COST
            continue
        total += max(score_ending(trial, seat, end, _best_items(trial, seat, cell, end))
                     for cell, end in found.endings.items())
    return total / 2 + LOOKAHEAD * outlook(gears, range_name), sound


def _best_items(game: RallyGame, seat: int, cell: str, end: Ending) -> tuple[tuple[str, int], ...]:
    if end.kind not in (PARK, PIT):
        return ()
    options = game.placements(seat, cell)
    return max(options, key=lambda items: score_ending(game, seat, end, items))


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
        actions = game.legal_actions()
        if game.phase == "move":
            return best_move(game, seat)[1]
        car = game.cars[seat]
        rolls = [a for a in actions if isinstance(a, Roll) and not a.boost]
        if any(isinstance(a, Repair) for a in actions):
            gears = game.gears_after_repair(seat)
            if not B.working_in(gears, "yellow") and not B.working_in(gears, "red"):
                return "repair"
        scored = []
        for r in rolls:
            value, sound = range_value(game, seat, r.range)
            scored.append((value, sound, r.range))
        value, sound, chosen = max(scored)
        boost = sound and value > 1.5 and (car.fuel >= 2 or (car.fuel == 1 and game.laps_done(seat) == game.laps - 1))
        return str(Roll(chosen, boost and car.fuel > 0))


#: computer players of this game by kind, for the game's unit ("random" serves every game)
DRIVERS = {"smart": SmartDriver}
