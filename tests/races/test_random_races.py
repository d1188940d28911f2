"""Whole races between random legal players finish: the arsenal never stalls a race."""

from __future__ import annotations

import random

import pytest

from rules.races import Races, catalogue
from rules.races.track import builtin_tracks

FULL_BOX = {"junk": 100, "parts": 80, "bottle_tops": 80, "flags": 48, "white": 5, "red": 7}


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("track", sorted(t.alias for t in builtin_tracks().values()))
def test_four_random_players_with_the_crew_finish_in_under_5000_actions(track, seed):
    """Race-Kart Crew setup, 4 seats, each action drawn uniformly from the legal actions."""
    rng = random.Random(seed)
    members = rng.sample(sorted(catalogue.crew()), 4)
    setup = {"seats": [{"name": f"P{i}", "crew": members[i], "crew_set": rng.randint(1, 2)} for i in range(4)],
             "options": {"track": track, "crew": True}}
    g = Races.create(setup, seed)
    actions = 0
    while not g.is_over and actions < 5000:
        g.apply(rng.choice(g.legal_actions()))
        actions += 1
        assert g.supply_counts() == FULL_BOX
    assert g.is_over, f"no winner after {actions} actions"
    assert max(k.flags for k in g.karts) == 5
