"""Junkyard Races through the game contract: notation, illegal actions, JSON, views, determinism."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from rules.contract import IllegalAction, NotationError
from rules.races import Races
from rules.races import actions as act
from rules.races.track import builtin_tracks
from tests.races.conftest import FAR, at, position


@pytest.mark.parametrize(
    "text",
    ["done", "roll 1", "roll 3", "roll 2 1w", "roll 1 2w 3r", "reverse", "step F7", "step left", "step straight",
     "move F7 G7 H8", "choose NE", "choose 2", "step F7 leave", "step left leave", "move F7 G7 H8 leave"],
)
def test_notation_round_trips(text: str) -> None:
    """Notation: str(parse(text)) == text for every action shape."""
    assert str(act.parse(text)) == text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "an action is needed"),
        ("fly F7", "unknown action 'fly'"),
        ("roll", "how many green dice"),
        ("roll x", "number of green"),
        ("roll 2 3q", "fuel dice are written"),
        ("step", "one cell"),
        ("step Q0", "rows start at 1"),
        ("step 7", "starts with its column letters"),
        ("move", "cells of the path"),
        ("done now", "takes nothing"),
        ("choose", "one option"),
    ],
)
def test_notation_errors_say_what_was_expected(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        act.parse(text)


def test_every_action_word_has_one_parser_and_one_help_line() -> None:
    """Notation: the parser table and the help list name the same action words."""
    assert set(act.PARSERS) == set(act.HELP) | {"hide"}


def test_parse_errors_know_the_board_size() -> None:
    g = position([{"colour": "red", "cell": "J3", "facing": "SE"}, FAR], phase="move", points=2)
    with pytest.raises(NotationError, match="columns run from A to P"):
        g.apply("step Z3")


@pytest.mark.parametrize(
    "action",
    ["roll 1", "reverse", "step Z99", "step K5", "done", "choose D2", "move K4 K6", "step J4", "roll 4", "hello"],
)
def test_illegal_actions_leave_the_state_byte_for_byte_unchanged(action: str) -> None:
    """Contract: a refused action changes nothing."""
    g = position([{"colour": "red", "cell": "J3", "facing": "SE"}, FAR], phase="move", points=4,
                 board={"K3": "junk:oil"})
    before = json.dumps(g.to_dict(), sort_keys=True)
    with pytest.raises(IllegalAction):
        g.apply(action)
    assert json.dumps(g.to_dict(), sort_keys=True) == before


def test_every_legal_action_prints_in_notation_that_applies() -> None:
    g = position([{"colour": "red", "cell": "J3", "facing": "SE"}, FAR], phase="roll")
    for a in g.legal_actions():
        copy = Races.from_dict(g.to_dict())
        copy.apply(str(a))


def test_json_round_trip_is_exact_mid_move() -> None:
    g = position([{"colour": "red", "cell": "J3", "facing": "SE", "bags": {"7": ["oil+", "glue"]}}, FAR],
                 phase="move", points=4, board={"K3": "junk:magnet", "N3": "oil SE"})
    data = json.loads(json.dumps(g.to_dict()))
    assert data["format_version"] == Races.format_version
    assert Races.from_dict(data).to_dict() == g.to_dict()
    assert Races.from_dict(data) == g


def test_from_dict_refuses_another_format_version() -> None:
    g = position([{"colour": "red", "cell": "J3", "facing": "SE"}, FAR])
    data = g.to_dict()
    data["format_version"] = 99
    with pytest.raises(ValueError, match="format version"):
        Races.from_dict(data)


def test_views_hide_face_down_tiles_other_bags_and_the_dice_r12() -> None:
    """R12: delivered tiles and other players' face-down saddlebag tiles stay hidden."""
    g = position([{"colour": "red", "cell": "J3", "facing": "SE", "bags": {"7": ["oil+", "glue"]}}, FAR],
                 phase="move", points=4, board={"K3": "junk:magnet"})
    public = json.dumps(g.view(None))
    blue = json.dumps(g.view(1))
    red = g.view(0)
    for text in (public, blue):
        assert '"magnet"' not in text and '"glue"' not in text and '"state"' not in text
        assert '"oil+"' in text  # shown face up by its owner
    assert red["karts"][0]["bags"]["7"] == ["oil+", "glue"]
    assert '"magnet"' not in json.dumps(red)


def test_pickup_secret_goes_only_to_the_owner() -> None:
    g = position([{"colour": "red", "cell": "J3", "facing": "SE"}, FAR], phase="move", points=3,
                 board={"K3": "junk:spring"})
    g.apply("step K3")
    assert "spring" in json.dumps(g.view(0)["events"])
    assert "spring" not in json.dumps(g.view(1)["events"])
    assert "spring" not in json.dumps(g.view(None)["events"])


def test_dice_can_be_loaded_for_tests() -> None:
    g = position([{"colour": "red", "cell": "J3", "facing": "SE"}, FAR], phase="roll", dice=[6, 5, 4])
    g.apply("roll 3")
    assert g.turn.dice["green"] == [6, 5, 4]


@pytest.mark.parametrize("track", sorted(builtin_tracks()))
def test_same_setup_seed_and_actions_give_the_same_game(track: Any) -> None:
    """Determinism: replaying the log from setup and seed gives the identical state."""
    setup = {"seats": [{"name": n} for n in "ABC"], "options": {"track": track}}
    g = Races.create(setup, 11)
    rng = random.Random(5)
    log = []
    for _ in range(120):
        if g.is_over:
            break
        a = str(rng.choice(g.legal_actions()))
        log.append(a)
        g.apply(a)
    again = Races.create(setup, 11)
    for a in log:
        again.apply(a)
    assert again.to_dict() == g.to_dict()


def test_the_worked_turn_in_the_notation_guide_plays_as_written() -> None:
    """NOTATION.md's worked turn, move for move."""
    g = position([{"colour": "red", "cell": "J3", "facing": "SE"}, {"colour": "blue", "cell": "K4", "facing": "N"}],
                 phase="roll", dice=[4, 2, 6])
    g.apply("roll 3")
    assert g.turn.points == 12 and g.board[g.track.deliveries[12]].face_down
    g.apply("step K4")
    assert at(g, "blue") == "L4" and g.turn.points == 11
    g.apply("move L3 M4 M5 M6 M7")
    assert g.karts[0].bottle_tops == 2 and g.turn.points == 6
    g.apply("move M8 M9 M10 M11 M12 M13")
    assert at(g, "red") == "M13" and g.turn.seat == 1


def test_the_view_keeps_the_turn_just_finished_for_the_picture() -> None:
    """After the dice pass, the view still holds the last move's path and happenings (last_turn)."""
    g = position([{"colour": "red", "cell": "J3", "facing": "SE"}, {"colour": "blue", "cell": "K4", "facing": "N"}],
                 phase="roll", dice=[1, 2])
    g.apply("roll 2")
    g.apply("move K3 L3 M3")
    view = g.view(None)
    assert view["turn"]["seat"] == 1 and view["turn"]["path"] == []
    assert view["last_turn"]["seat"] == 0 and view["last_turn"]["path"] == ["K3", "L3", "M3"]
    assert view["last_turn"]["dice"] == {"green": [1, 2]}


def test_steps_and_moves_are_narrated_before_what_happened_on_the_way() -> None:
    g = position([{"colour": "red", "cell": "J3", "facing": "SE"}, {"colour": "blue", "cell": "K4", "facing": "N"}],
                 phase="move", points=3)
    events = g.apply("step K4")
    assert [e.kind for e in events][:2] == ["drive", "bump"]
    assert events[0].text == "Player 1 (red) drives to K4." and events[0].data["path"] == ["K4"]
    assert events[0].data["msg"] == "event.drive_to"
    events = g.apply("move L3 M3")
    assert events[0].text == "Player 1 (red) drives L3, M3."
