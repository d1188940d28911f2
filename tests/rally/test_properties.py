"""Random races keep every promise of the game contract: supplies conserved (S7), the player to act can
always act, every race ends, JSON round-trips, a replay of the log gives the same race, and refused
actions change nothing."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from rules import IllegalAction
from rules.contract import Event
from rules.rally import RallyGame
from rules.rally import board as B
from rules.rally.game import MULTI

ACTION_CAP = 6000
NOISE = ["move 3a", "roll red", "roll yellow boost", "park F7.1 e3", "park pit.1 m1", "repair", "move stop",
         "move pit", "move 99a", "park E18.9", "roll green boost"]


def on_board(g: RallyGame, seat: int) -> dict[str, int]:
    car = g.cars[seat]
    return {"mechanic": B.count(car.gears, "M"), "body": B.count(car.gears, "B"),
            "engine": B.count(car.gears, "E"), "fuel": car.fuel}


def check(g: RallyGame) -> None:
    places = [c.at for c in g.cars if c.at not in MULTI]
    assert len(places) == len(set(places)), "two cars share a cell"
    for seat, car in enumerate(g.cars):
        reserve = car.reserve()
        assert min(reserve.values()) >= 0, f"seat {seat} holds more than it owns: {reserve}"
        board = on_board(g, seat)
        for supply, total in B.TOTALS.items():
            counters = B.ON_COUNTERS if supply == "mechanic" else 0
            assert board[supply] + reserve[supply] + counters == total
        assert g.valid_place(car.at)
        assert car.repair or B.roadworthy(car.gears), "a car without a working green gear is not parked for repair"
        assert (car.parked is not None) == g.is_spot(car.at)
    if g.is_over:
        assert g.to_act is None and g.legal_actions() == [] and len(g.winners) == 1
    else:
        assert g.legal_actions(), "the player to act has no legal action"
    data = g.to_dict()
    again = RallyGame.from_dict(json.loads(json.dumps(data)))
    assert again == g


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
            check(g)
        if rng.random() < 0.04:
            text = rng.choice(NOISE)
            if text not in {str(a) for a in g.legal_actions()}:
                before = json.dumps(g.to_dict(), sort_keys=True)
                with pytest.raises(IllegalAction):
                    g.apply(text)
                assert json.dumps(g.to_dict(), sort_keys=True) == before, "a refused action changed the game"
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
    check(g)
    assert g.is_over, f"seed {seed}: the race did not end in {ACTION_CAP} actions"
    again = RallyGame.create(setup, seed).replay(log)
    assert again == g, "replaying the log gave another race"


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(100, 300))
def test_random_races_soak(seed: int) -> None:
    g, _, _ = race(seed)
    assert g.is_over
