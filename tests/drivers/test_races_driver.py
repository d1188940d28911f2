"""The Junkyard Races racing driver: legal answers, racing sense, and a short checked soak."""

from __future__ import annotations

import random

import pytest

from bot.drivers import driver_for, driver_kinds, match
from bot.drivers.base import RandomDriver
from bot.drivers.match import MatchResult, play_match
from bot.drivers.races import RacingDriver, mode_of, track_info
from rules.hexgrid import Facing, parse_label
from rules.races import Races
from rules.races import actions as act
from rules.races.invariants import problems
from rules.races.soak import random_setup, turn_limit, unlikely_action
from rules.races.track import Terrain


def play_race(setup: dict, seed: int, kinds: list[str], *, check: bool = False) -> MatchResult:
    """A race between drivers; with ``check`` the race's invariants are watched after every action."""
    if check:
        return play_match("races", setup, seed, kinds, problems=problems, probe=unlikely_action, limit=turn_limit)
    return play_match("races", setup, seed, kinds, limit=turn_limit)


def _chosen_is_legal(game: Races, seat: int, driver) -> str:
    action = driver.choose(game, seat)
    assert action in {str(a) for a in game.legal_actions()}, action
    return action


def test_registry_offers_a_smart_races_driver():
    assert "smart" in driver_kinds("races")
    assert isinstance(driver_for("races", "smart", 3), RacingDriver)
    assert isinstance(driver_for("races", "random", 3), RandomDriver)


def test_driver_answers_the_start_cell_choice_with_a_listed_cell():
    """R15: the first kart picks one of the free start cells."""
    g = Races.create({"seats": [{"name": "A"}, {"name": "B"}], "options": {"track": "A"}}, 4)
    assert g.choice is not None and g.choice.kind == "enter"
    action = _chosen_is_legal(g, g.to_act, RacingDriver(1))
    assert action.startswith("choose ")


def test_driver_picks_a_saddlebag_when_a_tile_has_two_homes():
    """R14: with room in two saddlebags the player says which one takes a picked-up tile."""
    g = Races.from_position({"track": "A", "karts": [
        {"colour": "red", "cell": "K9", "facing": "SE", "parts": {"4": "saddlebag-4"}},
        {"colour": "blue", "cell": "G14", "facing": "N"}],
        "board": {"L9": "junk:oil"}, "phase": "move", "points": 3})
    g.apply("step L9")
    assert g.choice is not None and g.choice.kind == "bag"
    assert _chosen_is_legal(g, 0, RacingDriver(0)) in ("choose 4", "choose 7")


def test_driver_faces_the_racing_line_after_a_spring():
    """R14, Spring: a kart flung back chooses its facing; the driver picks the way round the lap."""
    g = Races.from_position({"track": "A", "karts": [
        {"colour": "red", "cell": "K9", "facing": "SE", "bridge": True},
        {"colour": "blue", "cell": "G14", "facing": "N"}],
        "board": {"L9": "spring"}, "phase": "roll", "dice": [2, 2, 2, 1]})
    g.apply("roll 3")
    g.apply("step L9")
    assert g.choice is not None and g.choice.kind == "facing"
    action = _chosen_is_legal(g, 0, RacingDriver(0))
    info = track_info(g.track)
    kart = g.karts[0]
    assert kart.cell is not None
    left = {f.name: info.remaining(kart.cell, f, mode_of(kart)) for f in Facing}
    assert left[action.split()[1]] == min(left.values())


def test_driver_prefers_the_whole_move_that_gains_most_distance():
    """Racing line: of the listed whole moves the driver takes one ending nearest the next flag."""
    g = Races.from_position({"track": "A", "karts": [
        {"colour": "red", "cell": "S8", "facing": "SE", "bridge": True},
        {"colour": "blue", "cell": "G14", "facing": "N"}], "phase": "move", "points": 4})
    info = track_info(g.track)
    kart = g.karts[0]
    left = {}
    for move in g.legal_actions():
        if isinstance(move, act.Move):
            end, before = move.cells[-1], move.cells[-2]
            left[str(move)] = info.remaining(end, before.facing_to(end), mode_of(kart))
    assert max(left.values()) > min(left.values())  # the choice matters here
    action = RacingDriver(0).choose(g, 0)
    assert left[action] == min(left.values())


@pytest.mark.parametrize("cell", ["K13", "M8"])
def test_driver_reverses_out_of_mud_without_mud_tyres(cell):
    """Mud: one die, stuck below 3 unless Mud Tyres help; without them the driver reverses out."""
    info = track_info(Races.create({"seats": [{}, {}], "options": {"track": "A"}}, 1).track)
    facing = info.best_facing(parse_label(cell), 2).name
    karts = [{"colour": "red", "cell": cell, "facing": facing, "bridge": True},
             {"colour": "blue", "cell": "G14", "facing": "N"}]
    g = Races.from_position({"track": "A", "karts": karts, "phase": "roll"})
    assert g.track.terrain[parse_label(cell)] is Terrain.MUD
    driver = RacingDriver(0)
    assert _chosen_is_legal(g, 0, driver) == "reverse"
    g.apply("reverse")
    while g.turn.seat == 0 and not g.is_over:
        g.apply(_chosen_is_legal(g, 0, driver))
    assert g.track.terrain[g.karts[0].cell] is not Terrain.MUD
    karts[0]["parts"] = {"3": "mud-tyres", "4": "mud-tyres"}
    g = Races.from_position({"track": "A", "karts": karts, "phase": "roll"})
    assert driver.choose(g, 0).startswith("roll")


def test_driver_never_rolls_when_it_must_reverse():
    """Reversing: a kart with no forward step has only 'reverse'; the driver plays it."""
    g = Races.from_position({"track": "A", "karts": [
        {"colour": "red", "cell": "I8", "facing": "N"},
        {"colour": "blue", "cell": "K9", "facing": "N"}], "phase": "roll"})
    legal = [str(a) for a in g.legal_actions()]
    if legal == ["reverse"]:
        assert RacingDriver(0).choose(g, 0) == "reverse"
    else:
        assert RacingDriver(0).choose(g, 0) in legal


@pytest.mark.parametrize("index", [0, 1, 2, *(pytest.param(i, marks=pytest.mark.slow) for i in range(3, 6))])
def test_short_checked_races_keep_every_invariant(index):
    """A CI-sized soak: short races, both tracks, 2 to 7 seats, mixed drivers, crews sometimes; after
    every action the race's invariants hold, and the action log replays to the same state (the races
    of 5 to 7 seats run with the slow tests; the property tests cover large fields too)."""
    rng = random.Random(1000 + index)
    setup, kinds = random_setup(index, rng)
    setup["options"]["laps"] = 1
    setup["seats"] = setup["seats"][: 2 + index]
    kinds = kinds[: 2 + index]
    if setup["options"].get("teams"):
        setup["options"]["teams"] = False
        for s in setup["seats"]:
            s.pop("team", None)
    if "smart" not in kinds:
        kinds[0] = "smart"
    result = play_race(setup, 1000 + index, kinds, check=True)
    assert not result.failures, result.failures[0]
    assert result.winners


def test_team_race_keeps_every_invariant():
    """R13 team racing, two teams of two, with the crew setup."""
    setup = {"seats": [{"name": "A", "team": 0, "crew": "tiny", "crew_set": 1},
                       {"name": "B", "team": 1, "crew": "jack", "crew_set": 2},
                       {"name": "C", "team": 0, "crew": "candy", "crew_set": 1},
                       {"name": "D", "team": 1, "crew": "gears", "crew_set": 2}],
             "options": {"track": "B", "laps": 1, "teams": True, "crew": True}}
    result = play_race(setup, 7, ["smart", "smart", "random", "smart"], check=True)
    assert not result.failures, result.failures[0]
    assert len(result.winners) == 2


@pytest.mark.parametrize("track", ["A", "B"])
def test_racing_driver_beats_random_driver(track):
    """Two seats, five laps: the racing driver wins every one of a handful of seeded races."""
    for seed in range(3):
        kinds = ["smart", "random"] if seed % 2 == 0 else ["random", "smart"]
        r = play_race({"seats": [{"name": "A"}, {"name": "B"}], "options": {"track": track}}, seed, kinds)
        assert r.winners and kinds[r.winners[0]] == "smart"


def test_a_checked_race_reports_a_driver_that_plays_an_unlisted_action(monkeypatch):
    """The soak's check on drivers can fail: a driver naming an action that is not listed is reported."""

    class Stubborn:
        def choose(self, game: Races, seat: int) -> str:
            return "roll 9"

    monkeypatch.setattr(match, "driver_for", lambda key, kind, seed: Stubborn())
    result = play_race({"seats": [{"name": "A"}, {"name": "B"}], "options": {"track": "A"}}, 1, ["smart", "smart"],
                       check=True)
    assert result.failures and "not listed as legal" in result.failures[-1]


def test_the_lap_state_looked_ahead_is_the_one_the_engine_keeps():
    """R4, one source: for every single step driven, the lap state and flag that the driver and the
    standings predict (``rules.races.progress.mode_step``) are what the engine leaves the kart with."""
    steps = scored_steps = 0
    for seed in range(4):
        rng = random.Random(seed)
        g = Races.create({"seats": [{"name": "A"}, {"name": "B"}], "options": {"track": "AB"[seed % 2]}}, seed)
        racer = RacingDriver(seed)
        for _ in range(1500):
            if g.is_over:
                break
            seat = g.to_act
            assert seat is not None
            legal = g.legal_actions()
            singles = [a for a in legal if isinstance(a, act.Step) and a.cell is not None]
            action = rng.choice(singles) if singles and seat == 1 else act.parse(racer.choose(g, seat))
            kart = g.karts[seat]
            frm, mode, flags = kart.cell, mode_of(kart), kart.flags
            g.apply(action)
            kart = g.karts[seat]
            if not isinstance(action, act.Step) or frm is None or kart.cell != action.cell or flags >= g.laps:
                continue
            expected, scored = track_info(g.track).step_mode(frm, action.cell, mode)
            assert (mode_of(kart), kart.flags - flags) == (expected, int(scored))
            steps += 1
            scored_steps += scored
    assert steps > 300 and scored_steps >= 1
