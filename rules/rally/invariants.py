"""What holds at every moment of a Schrottplatz Rally race, checked from outside the rules.

- the game contract (someone to act while the race runs and a legal action for them, the state survives
  JSON; :func:`rules.invariants.contract_problems`);
- S7: every player's supplies are conserved: the reserve is what the player owns less what is on the car
  and the counters (so it cannot drift), and the car never holds more than that; the property tests also
  check that every change on a board is told by an event;
- the cars: each on a place of the track, at most one car per cell or spot (the pit lane's waiting cell
  and the stop sign hold any number, rule text "Boxengasse"), only on spots open at this number of
  players (S1), on the parking bar exactly while parked (but for a winner whose last move ended in a
  car park: the race ends at once), and roadworthy unless pushed off for repairs (S6);
- the turn: the player to act is in this round's order, which holds every car once; a finished race has
  exactly one winner (S8).

:func:`problems` lists what is wrong (empty when nothing is); the property tests assert it is empty and
the soak prints it with the seed. Refused actions are checked with :func:`rules.invariants.refusal_problems`.
"""

from __future__ import annotations

from rules.invariants import contract_problems
from rules.rally import board as B
from rules.rally import queries
from rules.rally.game import RallyGame
from rules.rally.queries import MULTI
from rules.rally.texts import COLOUR_KEYS


def problems(game: RallyGame) -> list[str]:
    """Everything wrong with the race's state, each as a sentence (empty when nothing is)."""
    return contract_problems(game) + supply_problems(game) + car_problems(game) + turn_problems(game)


def supply_problems(game: RallyGame) -> list[str]:
    """S7: board + counters + reserve = what each player owns, and no reserve below zero."""
    out: list[str] = []
    for seat, car in enumerate(game.cars):
        colour = COLOUR_KEYS[seat]
        on_car = {"mechanic": B.count(car.gears, "M"), "body": B.count(car.gears, "B"),
                  "engine": B.count(car.gears, "E"), "fuel": car.fuel}
        reserve = car.reserve()
        for supply, total in B.TOTALS.items():
            counters = B.ON_COUNTERS if supply == "mechanic" else 0
            if reserve[supply] < 0 or on_car[supply] + counters + reserve[supply] != total:
                out.append(f"{colour} has {on_car[supply]} {supply} on the car and {counters} on the counters: "
                           f"more than the {total} it owns (S7)")
        for gear, contents in zip(B.GEARS, car.gears, strict=True):
            if contents != B.canonical(contents) or len(set(contents)) != len(contents):
                out.append(f"{colour}'s gear {gear} holds {contents!r}, not at most one of each part")
    return out


def car_problems(game: RallyGame) -> list[str]:
    """Cars on places of the track, one per cell or spot except the waiting cell and the stop sign, on open
    spots only (S1), parked exactly while on a spot, roadworthy unless being repaired (S6)."""
    out: list[str] = []
    seen: dict[str, int] = {}
    for seat, car in enumerate(game.cars):
        colour = COLOUR_KEYS[seat]
        if not queries.valid_place(game, car.at):
            out.append(f"{colour} stands on {car.at!r}, which is not a place on {game.track.name}")
            continue
        if car.at not in MULTI:
            if car.at in seen:
                out.append(f"{colour} and {COLOUR_KEYS[seen[car.at]]} share {car.at}")
            seen[car.at] = seat
        if queries.is_spot(car.at) and queries.spot_least(game, car.at) > game.n:
            out.append(f"{colour} stands on {car.at}, a spot closed at {game.n} players (S1)")
        finished_into_spot = seat == game.winner and car.parked is None  # decision 20: the race ends at once
        if (car.parked is not None) != queries.is_spot(car.at) and not finished_into_spot:
            out.append(f"{colour} is {'' if car.parked is not None else 'not '}on the parking bar at {car.at}")
        if not car.repair and not B.roadworthy(car.gears):
            out.append(f"{colour} has no working green gear and is not being repaired (S6)")
        if car.lever not in B.RANGES:
            out.append(f"{colour}'s lever stands on {car.lever!r}")
    return out


def turn_problems(game: RallyGame) -> list[str]:
    """This round's order holds every car once and names the player to act; one winner at the end (S8)."""
    out: list[str] = []
    if sorted(game.order) != list(range(game.n)):
        out.append(f"the turn order {game.order} does not hold every car once (S9)")
    elif not game.is_over and not 0 <= game.turn_index < game.n:
        out.append(f"the turn index {game.turn_index} is outside the order")
    if game.is_over and (game.winner is None or queries.laps_done(game, game.winner) < game.laps):
        out.append(f"the race is over but {game.winner!r} has not completed the race's laps ({game.laps}, S8)")
    if not game.is_over and any(queries.laps_done(game, s) >= game.laps for s in range(game.n)):
        out.append("a car has completed every lap but the race goes on (S8)")
    return out
