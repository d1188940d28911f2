"""Property test: random legal play on both tracks never breaks the engine's promises."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.contract import IllegalAction
from rules.races import Races
from rules.races.track import builtin_tracks

TRACKS = sorted(builtin_tracks())
JUNK_INPUT = ["roll 4", "step A1", "reverse", "done", "choose Z9", "move B2 C3", "roll 1 9w", "fly", "step left"]


def check_invariants(g: Races) -> None:
    if not g.is_over:
        assert g.legal_actions(), "the player to act has no legal action"
        assert g.to_act is not None
    cells = [k.cell for k in g.karts if k.cell is not None and g.track.on_track(k.cell)]
    assert len(cells) == len(set(cells)), "two karts share a cell"
    for k in g.karts:
        if k.cell is not None:
            assert g.track.on_track(k.cell) or g.track.is_stream(k.cell), f"{k.colour} is off the track"
    assert Races.from_dict(json.loads(json.dumps(g.to_dict()))).to_dict() == g.to_dict()


@st.composite
def races(draw):
    track = draw(st.sampled_from(TRACKS))
    seats = draw(st.integers(2, 8))
    teams = seats in (4, 6, 8) and draw(st.booleans())
    seat_list = [{"name": f"P{i}", **({"team": i % 2} if teams else {})} for i in range(seats)]
    if teams and seats == 8 and draw(st.booleans()):
        seat_list = [{"name": f"P{i}", "team": i % 4} for i in range(seats)]
    setup = {"seats": seat_list, "options": {"track": track, "teams": teams}}
    return setup, draw(st.integers(0, 2**32))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(races(), st.lists(st.integers(0, 10_000), min_size=20, max_size=160), st.data())
def test_random_legal_play_keeps_every_invariant(game_setup, picks, data):
    setup, seed = game_setup
    g = Races.create(setup, seed)
    log: list[str] = []
    check_invariants(g)
    for i, pick in enumerate(picks):
        if g.is_over:
            break
        if i % 7 == 3:
            junk = data.draw(st.sampled_from(JUNK_INPUT))
            before = g.to_dict()
            try:
                g.apply(junk)
                log.append(junk)
            except IllegalAction:
                assert g.to_dict() == before
            check_invariants(g)
            continue
        actions = g.legal_actions()
        action = str(actions[pick % len(actions)])
        g.apply(action)
        log.append(action)
        check_invariants(g)
    replay = Races.create(setup, seed)
    for a in log:
        replay.apply(a)
    assert replay.to_dict() == g.to_dict()
