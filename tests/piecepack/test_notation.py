"""The text notation of Junkyard (piecepack): round trips, the destination form and parse errors."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rules.piecepack
from rules import IllegalAction, NotationError
from rules.piecepack import Destination, Move, PiecepackGame, Roll, parse_syntax
from rules.piecepack.board import SQUARES
from tests.piecepack.conftest import pos


def test_roll_round_trip():
    g = pos()
    for action in g.legal_actions():
        assert g.parse_action(str(action)) == action
    assert str(Roll()) == "roll"


@pytest.mark.parametrize("position", [
    {"pawns": {"Suns": "b1"}, "phase": "move", "roll": 3},
    {"pawns": {"Suns": "c3"}, "trash": {"Suns": []}, "good": "Suns", "phase": "move", "roll": 2},
    {"players": 4, "pawns": {"Suns": "a4"}, "phase": "move", "roll": 5},
])
def test_every_legal_move_round_trips(position):
    g = pos(**position)
    for action in g.legal_actions():
        assert g.parse_action(str(action)) == action
        assert parse_syntax(str(action)) == action


@given(st.lists(st.sampled_from(SQUARES), min_size=1, max_size=7))
def test_any_path_notation_round_trips(squares):
    action = Move(tuple(squares)) if len(squares) > 1 else Destination(squares[0])
    assert parse_syntax(str(action)) == action
    assert parse_syntax(str(action).upper()) == action


@given(st.text(max_size=20))
def test_parsing_any_text_gives_an_action_or_a_notation_error(text):
    try:
        action = parse_syntax(text)
    except NotationError as exc:
        assert str(exc)
    else:
        assert parse_syntax(str(action)) == action


@pytest.mark.parametrize("text", ["move b1-b2-c2", "MOVE B1-B2-C2", "m b1 b2 c2", "b1-b2-c2", "move b1, b2, c2",
                                  "  move b1 - b2 - c2 "])
def test_spellings_of_a_path(text):
    assert parse_syntax(text) == Move(("b1", "b2", "c2"))


@pytest.mark.parametrize("text", ["roll", "R", " Roll "])
def test_spellings_of_roll(text):
    assert parse_syntax(text) == Roll()


def test_destination_form_picks_the_path_that_turns_least():
    """All paths to a square end the same way, so ``move b3`` is enough; the game fills in one path."""
    g = pos(pawns={"Suns": "a1"}, phase="move", roll=3)
    assert parse_syntax("move b3") == Destination("b3")
    assert g.parse_action("move b3") == Move(("a1", "a2", "a3", "b3"))
    assert g.parse_action("b3") == Move(("a1", "a2", "a3", "b3"))
    assert g.destinations()["b3"] in g.legal_actions()


def test_destination_form_is_applied_like_the_full_path():
    a = pos(pawns={"Suns": "a1"}, phase="move", roll=2)
    b = pos(pawns={"Suns": "a1"}, phase="move", roll=2)
    a.apply("move c1")
    b.apply("move a1-b1-c1")
    assert a.to_dict() == b.to_dict()


def test_destination_out_of_reach_says_why():
    g = pos(pawns={"Suns": "a1"}, phase="move", roll=2)
    with pytest.raises(IllegalAction, match=r"No path of exactly 2 steps from a1 ends on e4.*Legal: move to"):
        g.parse_action("move e4")


def test_destination_before_rolling_says_roll_first():
    with pytest.raises(IllegalAction, match="roll"):
        pos().parse_action("move a2")


@pytest.mark.parametrize(("text", "expected"), [
    ("", "Empty action"),
    ("jump a2", "Unknown action 'jump'"),
    ("move", "needs squares"),
    ("move f9", "'f9' is not a square"),
    ("move a1-a0", "'a0' is not a square"),
    ("roll 3", "takes nothing"),
    ("pass", "passes by itself"),
])
def test_parse_errors_say_what_was_expected(text, expected):
    with pytest.raises(NotationError, match=expected):
        parse_syntax(text)
    with pytest.raises(NotationError):
        pos().parse_action(text)


def test_wrong_start_square_names_the_right_one():
    g = pos(pawns={"Suns": "b2"}, phase="move", roll=1)
    with pytest.raises(IllegalAction, match="Your pawn is on b2"):
        g.apply("move a1-a2")


def test_describe_legal_lists_destinations():
    g = pos(pawns={"Suns": "b2"}, phase="move", roll=1)
    assert g.describe_legal() == "move to b1, a2, c2, b3"
    assert pos().describe_legal() == "roll"


def test_readme_position_example_and_worked_turn_hold():
    """The package README's position example loads, and its worked turn plays as described."""
    readme = (Path(rules.piecepack.__file__).parent / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```json\n(.*?)```", readme, re.S)
    assert block is not None
    g = PiecepackGame.from_position(json.loads(block.group(1)))
    assert g.phase == "move" and g.roll == 2 and g.trash[0] == ["SA"]

    g = pos(pawns={"Suns": "b1", "Moons": "b3"}, load=[2])
    assert [e.text for e in g.apply("roll")] == ["Suns rolls 2."]
    assert g.describe_legal() == "move to d1, a2, c2, b3"
    assert "`move to d1, a2, c2, b3`" in readme
    events = g.apply("move b3")
    assert [e.kind for e in events] == ["move", "land", "gift", "home"]
    assert g.trash == [["SA", "SB"], ["MA", "MB", "MC", "SC"]]
    for e in events[2:]:
        assert e.text in readme
