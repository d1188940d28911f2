"""Random races keep every invariant of the race (``rules.rally.invariants``: the contract, supplies
conserved (S7), cars on distinct cells but for the waiting cell and the stop sign, the player to act can
act, JSON round-trips), every race ends, a replay of the log gives the same race, refused actions change
nothing, and every change on a board is told by an event."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules.contract import Event
from rules.invariants import refusal_problems
from rules.rally import RallyGame
from rules.rally import board as B
from rules.rally.invariants import problems
from tests.rally.conftest import pos

ACTION_CAP = 6000
NOISE = ["move 3a", "roll red", "roll yellow boost", "park F7.1 e3", "park pit.1 m1", "repair", "move stop",
         "move pit", "move 99a", "park E18.9", "roll green boost"]


def on_board(g: RallyGame, seat: int) -> dict[str, int]:
    car = g.cars[seat]
    return {"mechanic": B.count(car.gears, "M"), "body": B.count(car.gears, "B"),
            "engine": B.count(car.gears, "E"), "fuel": car.fuel}


def check_supply_events(g: RallyGame, before: list[dict[str, int]], events: list[Event]) -> None:
    """Every change on a board is told by an event: take, lose, repair, a booster can or a full tank."""
    for seat in range(len(g.cars)):
        after = on_board(g, seat)
        told = {k: 0 for k in B.TOTALS}
        for e in events:
            if e.seat != seat:
                continue
            if e.kind == "take":
                told[e.data["item"]] += 1
            elif e.kind == "lose":
                told[e.data["item"]] -= 1
            elif e.kind == "repair":
                for item in e.data["items"]:
                    told[item] += 1
            elif e.kind == "booster":
                told["fuel"] -= 1
            elif e.kind == "take_fuel":
                told["fuel"] += e.data["fuel"]
        assert {k: after[k] - before[seat][k] for k in after} == told, [e.kind for e in events]


def race(seed: int, checked: bool = True) -> tuple[RallyGame, dict[str, Any], list[str]]:
    rng = random.Random(seed)
    n = rng.randint(2, 6)
    setup = {"seats": [{"name": f"P{i}"} for i in range(n)],
             "options": {"track": rng.choice("AB"), "direction": rng.choice(["clockwise", "anticlockwise"]),
                         "laps": rng.randint(1, 2)}}
    g = RallyGame.create(setup, seed)
    log: list[str] = []
    for _ in range(ACTION_CAP):
        if g.is_over:
            break
        if checked:
            assert problems(g) == []
        if rng.random() < 0.04:
            text = rng.choice(NOISE)
            if text not in {str(a) for a in g.legal_actions()}:
                accepted, faults = refusal_problems(g, text)
                assert not accepted and faults == []
                continue
        action = str(rng.choice(g.legal_actions()))
        boards = [on_board(g, s) for s in range(n)]
        events = g.apply(action)
        log.append(action)
        if checked:
            check_supply_events(g, boards, events)
    return g, setup, log


@pytest.mark.parametrize("seed", range(8))
def test_random_races_keep_every_invariant_and_end(seed: int) -> None:
    g, setup, log = race(seed)
    assert problems(g) == []
    assert g.is_over, f"seed {seed}: the race did not end in {ACTION_CAP} actions"
    again = RallyGame.create(setup, seed).replay(log)
    assert again == g, "replaying the log gave another race"


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(100, 300))
def test_random_races_soak(seed: int) -> None:
    g, _, _ = race(seed)
    assert g.is_over and problems(g) == []


def test_the_checker_sees_shared_cells_lost_parts_and_wrecks_on_the_road() -> None:
    """Each invariant the checker states can fail: two cars on one cell (the waiting cell may hold both),
    a part gone from a player's supplies or one too many (S7), a car with no working green gear that is
    not being repaired (S6), a car on a spot closed at this number of players (S1), an order missing a car."""
    assert problems(pos()) == []
    g = pos(cars={"red": {"at": "8a"}, "blue": {"at": "9a"}})
    g.cars[1].at = "8a"
    assert any("share 8a" in p for p in problems(g))
    g.cars[0].at = g.cars[1].at = "pit"
    assert problems(g) == []
    g = pos()
    g.cars[0].fuel = 4
    assert any("more than the 3 it owns (S7)" in p for p in problems(g))
    g = pos()
    g.cars[0].gears[0] = g.cars[0].gears[1] = ""
    assert any("(S6)" in p for p in problems(g))
    g = pos()
    g.cars[0].at, g.cars[0].parked = "F7.2", 1  # open from 3 players
    assert any("closed at 2 players" in p for p in problems(g))
    g = pos()
    g.order = [0, 0]
    assert any("every car once" in p for p in problems(g))
