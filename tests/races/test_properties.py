"""Property test: random legal play on every track never breaks the race's invariants
(``rules.races.invariants``: the contract, one kart per cell, the box stays whole, R12 hidden tiles)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.contract import IllegalAction
from rules.invariants import refusal_problems, replay_problems
from rules.races import Races, catalogue, queries
from rules.races.invariants import full_box, problems, view_leaks
from rules.races.soak import unlikely_action
from rules.races.track import builtin_tracks
from tests.races.conftest import FAR, position

TRACKS = sorted(builtin_tracks())
CREW = sorted(catalogue.crew())


@st.composite
def races(draw: st.DrawFn) -> tuple[dict[str, Any], int]:
    track = draw(st.sampled_from(TRACKS))
    seats = draw(st.integers(2, 8))
    teams = seats in (4, 6, 8) and draw(st.booleans())
    seat_list: list[dict[str, Any]] = [{"name": f"P{i}", **({"team": i % 2} if teams else {})}
                                       for i in range(seats)]
    if teams and seats == 8 and draw(st.booleans()):
        seat_list = [{"name": f"P{i}", "team": i % 4} for i in range(seats)]
    crew = draw(st.booleans())
    if crew:
        members = draw(st.permutations(CREW))
        for i, seat in enumerate(seat_list):
            seat["crew"] = members[i]
            seat["crew_set"] = draw(st.integers(1, 2))
    setup = {"seats": seat_list, "options": {"track": track, "teams": teams, "crew": crew}}
    return setup, draw(st.integers(0, 2**32))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(races(), st.lists(st.integers(0, 10_000), min_size=20, max_size=160), st.integers(0, 2**32))
def test_random_legal_play_keeps_every_invariant(game_setup: tuple[dict[str, Any], int], picks: list[int],
                                                  noise_seed: int) -> None:
    """After every listed action and every refused bit of noise the invariants hold; a refusal changes
    nothing, and the action log replays to the same state."""
    setup, seed = game_setup
    g = Races.create(setup, seed)
    noise = random.Random(noise_seed)
    log: list[str] = []
    assert problems(g) == []
    for i, pick in enumerate(picks):
        if g.is_over:
            break
        if i % 7 == 3:
            text = unlikely_action(noise, g)
            accepted, faults = refusal_problems(g, text)
            assert faults == []
            if accepted:
                log.append(text)
        else:
            actions = g.legal_actions()
            action = str(actions[pick % len(actions)])
            g.apply(action)
            log.append(action)
        assert problems(g) == []
    assert replay_problems(g, setup, seed, log) == []


def test_seeded_team_and_crew_races_play_every_kind_of_action_and_keep_the_box_whole() -> None:
    """The whole arsenal in play: deeds, purchases, refuels, swaps, bag moves and choices all happen,
    and after every action the box's supplies are all accounted for and no view leaks a secret."""
    seen: Counter[str] = Counter()
    for seed, (seats, track) in enumerate([(4, TRACKS[0]), (6, TRACKS[-1]), (8, TRACKS[0]), (4, TRACKS[-1])]):
        rng = random.Random(seed)
        members = rng.sample(CREW, seats)
        setup = {"seats": [{"name": f"P{i}", "team": i % 2, "crew": members[i], "crew_set": rng.randint(1, 2)}
                           for i in range(seats)],
                 "options": {"track": track, "crew": True, "teams": True, "laps": 2}}
        g = Races.create(setup, seed)
        for _ in range(1200):
            if g.is_over:
                break
            action = rng.choice(g.legal_actions())
            g.apply(action)
            seen[str(action).split()[0]] += 1
            assert queries.supply_counts(g) == full_box()
            assert view_leaks(g, None) == []
            assert view_leaks(g, g.turn.seat) == []
    for verb in ("trap", "magnet", "missile", "bomb", "buy", "return", "refuel", "swap", "bag", "show", "choose",
                 "roll", "reverse", "step", "move", "done"):
        assert seen[verb], f"no {verb!r} was played"


def test_the_box_holds_what_the_rulebook_lists() -> None:
    """Rulebook, Contents of Box: 100 junk tiles, 80 part cards, 80 bottle tops, 48 flags, 5 white and
    7 red dice; the invariant checker counts against these."""
    assert full_box() == {"junk": 100, "parts": 80, "bottle_tops": 80, "flags": 48, "white": 5, "red": 7}


def test_the_checker_sees_a_lost_tile_two_karts_on_one_cell_and_a_leaked_face_down_tile(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each invariant the checker states can fail: a tile gone from the box, two karts on one cell
    (rulebook, Bumping Other Karts When Moving), and a view showing a face-down tile's kind (R12)."""

    def game() -> Races:
        return position([{"colour": "red", "cell": "J3", "facing": "SE"}, FAR], board={"K3": "junk:oil"})

    assert problems(game()) == []
    g = game()
    g.junk.pop()
    assert any("supplies" in p for p in problems(g))
    g = game()
    g.karts[1].cell = g.karts[0].cell
    assert any("share" in p for p in problems(g))
    g = game()
    honest = g.view

    def leaky(seat: int | None) -> dict[str, Any]:
        out = honest(seat)
        out["board"] = {**out["board"], "K3": {"kind": "oil", "face_down": True}}
        return out

    monkeypatch.setattr(g, "view", leaky)
    assert any("face-down tile on K3" in p for p in view_leaks(g, None))


def test_the_checker_sees_a_refusal_that_changes_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """A refused action must change nothing: a refusal that moved a kart first is reported."""
    g = position([{"colour": "red", "cell": "J3", "facing": "SE"}, FAR])

    def careless(text: str) -> list[Any]:
        g.karts[0].flags += 1
        raise IllegalAction("no")

    monkeypatch.setattr(g, "apply", careless)
    accepted, faults = refusal_problems(g, "roll 9")
    assert not accepted and faults == ["the refused action 'roll 9' changed the game"]
