"""Whole races between random legal players finish: the arsenal never stalls a race."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules.races import Races, catalogue, queries
from rules.races.invariants import full_box
from rules.races.track import builtin_tracks

TRACKS = sorted(t.alias for t in builtin_tracks().values())


@pytest.mark.parametrize("seed", [0, pytest.param(1, marks=pytest.mark.slow), pytest.param(2, marks=pytest.mark.slow)])
@pytest.mark.parametrize("track", TRACKS)
def test_four_random_players_with_the_crew_finish_in_under_5000_actions(track: Any, seed: Any) -> None:
    """Race-Kart Crew setup, 4 seats, each action drawn uniformly from the legal actions; the box stays
    whole all along (seeds 1 and 2 run with the slow tests)."""
    rng = random.Random(seed)
    members = rng.sample(sorted(catalogue.crew()), 4)
    setup = {"seats": [{"name": f"P{i}", "crew": members[i], "crew_set": rng.randint(1, 2)} for i in range(4)],
             "options": {"track": track, "crew": True}}
    g = Races.create(setup, seed)
    actions = 0
    while not g.is_over and actions < 5000:
        g.apply(rng.choice(g.legal_actions()))
        actions += 1
        assert queries.supply_counts(g) == full_box()
    assert g.is_over, f"no winner after {actions} actions"
    assert max(k.flags for k in g.karts) == 5
