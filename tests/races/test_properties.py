"""Property test: random legal play on both tracks never breaks the engine's promises."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.contract import IllegalAction
from rules.races import Races, catalogue
from rules.races.track import builtin_tracks

TRACKS = sorted(builtin_tracks())
CREW = sorted(catalogue.crew())
FULL_BOX = {"junk": 100, "parts": 80, "bottle_tops": 80, "flags": 48, "white": 5, "red": 7}
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
    assert g.supply_counts() == FULL_BOX, "a tile, part, bottle top, flag or die went missing"
    for viewer in [None, *range(len(g.karts))]:
        check_view_hides_secrets(g, viewer)


def check_view_hides_secrets(g: Races, viewer: int | None) -> None:
    """R12: no view shows a face-down board tile's kind or another seat's face-down saddlebag tiles."""
    view = g.view(viewer)
    for cell, tile in view["board"].items():
        if g.board[g.track.parse_cell(cell)].face_down:
            assert tile == {"kind": "junk", "face_down": True}
    for k, shown in zip(g.karts, view["karts"], strict=True):
        for loc, tiles in shown["bags"].items():
            real = k.bags[int(loc)]
            for t, text in zip(real, tiles, strict=True):
                if k.seat != viewer and not t.face_up:
                    assert text == "hidden"
    for event in view["events"]:
        assert event.get("seat") == viewer or "secret" not in event
        assert not event.get("private") or event.get("seat") == viewer
    assert "dice" not in view and "junk" not in view

@st.composite
def races(draw):
    track = draw(st.sampled_from(TRACKS))
    seats = draw(st.integers(2, 8))
    teams = seats in (4, 6, 8) and draw(st.booleans())
    seat_list = [{"name": f"P{i}", **({"team": i % 2} if teams else {})} for i in range(seats)]
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


def test_seeded_team_and_crew_races_play_every_kind_of_action_and_keep_the_box_whole():
    """The whole arsenal in play: deeds, purchases, refuels, swaps, bag moves and choices all happen,
    and after every action the box's supplies are all accounted for and no view leaks a secret."""
    import random
    from collections import Counter

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
            assert g.supply_counts() == FULL_BOX
            check_view_hides_secrets(g, None)
            check_view_hides_secrets(g, g.turn.seat)
    for verb in ("trap", "magnet", "missile", "bomb", "buy", "return", "refuel", "swap", "bag", "show", "choose",
                 "roll", "reverse", "step", "move", "done"):
        assert seen[verb], f"no {verb!r} was played"
