"""Words and numbers a player reads: every action is narrated (no "Player 1 played done."), a log line names
its player once, the points left after a step add up, a skipped Pit Stop says why, the Phase 1 list shows
``done`` among its first lines, and Schrottplatz Rally counts laps one way in every text and picture."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest

from bot.cli import main
from bot.games.races.unit import GAME as RACES
from bot.games.rally.unit import GAME as RALLY
from bot.terminal import SHORT_LIST
from rules.races.engine import Races
from rules.rally import RallyGame

ANN = {"name": "Ann", "colour": "red", "cell": "T9", "facing": "S"}
BOB = {"name": "Bob", "colour": "blue", "cell": "J9", "facing": "SE"}


def race(ann: dict[str, Any] | None = None, **rest: Any) -> Races:
    return Races.from_position({"track": "A", "karts": [{**ANN, **(ann or {})}, BOB], "turn": "red", **rest})


def told(events: list[Any], lang: str = "en") -> str:
    return RACES.narrate([e for e in (ev.for_viewer(None) for ev in events) if e is not None], lang)


# Junkyard Races --------------------------------------------------------------------------------------


def test_after_a_step_the_points_left_add_up_to_the_roll() -> None:
    game = race(phase="roll", dice=[4, 5, 3])
    game.apply("roll 3")
    assert RACES.situation(game) == "Rolled green 4, 5, 3: 12 points to drive"
    game.apply(RACES.short_list(game, 0)[0][0])  # one step
    assert RACES.situation(game) == "Rolled green 4, 5, 3: 12 points, 1 driven, 11 points left to drive"
    assert RACES.situation(game, "de") == "Gewürfelt grün 4, 5, 3: 12 Punkte, 1 gefahren, noch 11 Punkte zum Fahren"


def test_a_tyre_bonus_is_part_of_the_sum() -> None:
    """Grass Tyres add one point per tyre on grass (rulebook, Part Cards): the roll says so."""
    grass = next(c for c, t in race().track.terrain.items() if t.value == "grass" and race().track.on_track(c))
    game = race({"cell": grass.label, "parts": {"3": "grass-tyres"}}, phase="roll", dice=[2])
    game.apply("roll 1")
    assert RACES.situation(game) == "Rolled green 2 + 1 for the tyres: 3 points to drive"


@pytest.mark.parametrize(("phase", "said"), [("deeds", "Ann (red) ends Phase 1."),
                                             ("parts", "Ann (red) ends Phase 2.")])
def test_done_is_narrated_never_played_done(phase: str, said: str) -> None:
    """Rulebook, Phases 1 and 2: ending a phase is told like any move (the log said "Ann played done.")."""
    ann = {"bags": {"7": ["missile"]}} if phase == "deeds" else {"cell": "G12", "bottle_tops": 9}
    game = race(ann, phase=phase)
    assert "done" in [str(a) for a in game.legal_actions()]
    assert told(game.apply("done")).startswith(said)


def test_stopping_a_reverse_is_narrated() -> None:
    game = race(phase="move", reversing=True, reverse_steps=1, points=2)
    assert "done" in [str(a) for a in game.legal_actions()]
    assert told(game.apply("done")).startswith("Ann (red) stops reversing.")


def test_a_pit_stop_with_nothing_affordable_says_that_phase_2_is_skipped() -> None:
    """Rulebook, Phase 2: a kart whose turn begins in a Pit Stop buys there; with nothing it can buy and no
    part to give back, Phase 2 has nothing to offer and is skipped, and the narration says so."""
    game = race({"cell": "G12", "facing": "N"}, turn="blue", phase="move", points=1)
    events = game.apply(str(game.legal_actions()[0]))  # Bob's last step hands the turn to Ann
    assert game.phase == "roll" and game.to_act == 0
    assert "Ann (red) is in the green Pit Stop with 0 bottle tops: nothing there to buy and no part to give " \
           "back, so Phase 2 is skipped." in told(events)
    assert "steht im grünen Boxenstopp mit 0 Kronkorken" in told(events, "de")


def test_the_phase_1_list_never_hides_done() -> None:
    """With a Missile in hand Phase 1 offers dozens of actions (R17): ``done``, what people choose most, comes
    first, so the terminal's short list (its first lines) always shows it."""
    game = race({"bags": {"7": ["missile", "oil"]}}, phase="deeds")
    items = [a for a, _ in RACES.short_list(game, 0)]
    assert len(items) > SHORT_LIST
    assert items[0] == "done"
    assert items.index("missile T8 blue") < items.index("trap oil T8 N")  # weapons before the many traps
    assert sorted(items) == sorted(str(a) for a in game.legal_actions())  # nothing lost, nothing added


def test_while_driving_done_comes_last() -> None:
    game = race(phase="move", reversing=True, reverse_steps=1, points=2)
    assert [a for a, _ in RACES.short_list(game, 0)][-1] == "done"


@pytest.mark.presses_every_move
def test_a_log_line_names_its_player_once(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n1\nlog\nquit\n"))
    out = io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    assert main(["play", "--game", "rally", "--seats", "human,smart", "--seed", "3", "--db", str(tmp_path / "l.db"),
                 "--out", str(tmp_path / "o")]) == 0
    log = out.getvalue().split("> log")[1].split("> quit")[0]
    lines = [line for line in log.splitlines() if re.match(r"\d+\. ", line)]
    assert lines
    for line in lines:  # "3. Computer 1 (smart): Blue (Computer 1 (smart)) rolls" named the player twice
        head = re.match(r"\d+\. ([^:]+): (.*)", line)
        assert head is None or head.group(1) not in head.group(2), line
    assert re.search(r"^1\. Red \(Player 1\) rolls", log, re.M)


# Schrottplatz Rally: laps ----------------------------------------------------------------------------


class Words:
    """Records what the Rally pictures write of laps (their ``p_lap`` and ``p_lap_counter`` texts)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        import importlib

        from rules.rally.texts import say

        self.said: list[str] = []

        def recording(msg: str, lang: str = "en", *more: Any, **params: Any) -> str:
            text = say(msg, lang, *more, **params)
            if msg in ("p_lap", "p_lap_counter"):
                self.said.append(text)
            return text

        for module in ("render.rally.panel", "render.rally.board"):
            monkeypatch.setattr(importlib.import_module(module), "say", recording)

    def draw(self, game: RallyGame, seat: int) -> list[str]:
        from render.rally import car_board_png, rally_png

        self.said.clear()
        rally_png(game.view(None))
        car_board_png(game.view(None), seat)
        return list(self.said)


def laps_said(game: RallyGame, seat: int, words: Words) -> dict[str, str]:
    """The laps of ``seat`` as the status, the hand, the standings and the two pictures say them."""
    colour = ["Red", "Blue", "Orange"][seat]
    status = next(line for line in RALLY.describe(game, None).splitlines() if f"{colour} (" in line)
    drawn = words.draw(game, seat)
    rows = dict(RALLY.standings(game).rows)
    return {"status": re.search(r"laps (\d/\d)", status).group(1),
            "hand": re.search(r"(\d/\d) laps done", RALLY.hand_text(game, seat)).group(1),
            "standings": rows[seat][2],
            "picture": re.findall(r"laps (\d/\d)", drawn[seat])[0],
            "car board": re.findall(r"laps (\d/\d)", drawn[-1])[0]}


def test_rally_laps_are_one_number_on_the_grid(monkeypatch) -> None:
    """Decision 20: laps done, as the lap counter shows them, everywhere (the picture said 0/3 where the
    status said lap 1/3)."""
    game = RallyGame.create({"seats": [{"name": "Ann"}, {"name": "Bob"}]}, seed=3)
    said = laps_said(game, 0, Words(monkeypatch))
    assert set(said.values()) == {"0/3"}, said


def test_rally_laps_are_one_number_at_the_finish(monkeypatch) -> None:
    """S8: the winner completes the last lap; the others are counted as the standings count them (the final
    picture said 1/1 for a car the standings list at 0/1)."""
    game = RallyGame.from_position({"laps": 1, "players": ["Ann", "Bob"], "phase": "move", "points": 2,
                                    "cars": {"Ann": {"at": "2b", "lap": 1}, "Bob": {"at": "40b", "lap": 1}}})
    game.apply("move 4b")
    assert game.is_over and game.winners == [0]
    words = Words(monkeypatch)
    assert set(laps_said(game, 0, words).values()) == {"1/1"}
    assert set(laps_said(game, 1, words).values()) == {"0/1"}
