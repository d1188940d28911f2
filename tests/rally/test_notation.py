"""Rally notation: every legal action's text parses back to it, and bad text gets a NotationError that
says what was expected."""

from __future__ import annotations

from typing import Any

import pytest

from rules import IllegalAction, NotationError
from rules.rally import Move, Park, Path, Repair, Roll, parse_syntax
from tests.rally.conftest import pos


@pytest.mark.parametrize(("text", "action"), [
    ("roll green", Roll("green")),
    ("roll y boost", Roll("yellow", True)),
    ("R ROT", Roll("red")),
    ("roll gelb +", Roll("yellow", True)),
    ("move 14b", Move("14b")),
    ("14b", Move("14b")),
    ("m pit", Move("pit")),
    ("move stop", Move("stop")),
    ("move 13a 13b 14b", Path(("13a", "13b", "14b"))),
    ("move 13a-13b-14b", Path(("13a", "13b", "14b"))),
    ("park f7.1", Park("F7.1")),
    ("park E18.1 e3", Park("E18.1", (("e", 3),))),
    ("park pit.2 e5 b3", Park("pit.2", (("b", 3), ("e", 5)))),
    ("repair", Repair()),
])
def test_parse(text: str, action: object) -> None:
    assert parse_syntax(text) == action


@pytest.mark.parametrize(("text", "hint"), [
    ("", "Empty action"),
    ("roll", "lever's range"),
    ("roll blue", "lever's range"),
    ("yellow", "one action"),
    ("move", "needs a cell"),
    ("move 14d", "not a cell"),
    ("move F7.1", "park <spot>"),
    ("park", "needs a spot"),
    ("park F7.1 x3", "not a placement"),
    ("park F7.1 e9", "not a placement"),
    ("repair now", "nothing after"),
    ("pass", "no `pass`"),
    ("jump 3", "Unknown action"),
])
def test_errors_say_what_was_expected(text: str, hint: str) -> None:
    with pytest.raises(NotationError, match=hint):
        parse_syntax(text)


def test_notation_errors_are_illegal_actions() -> None:
    assert issubclass(NotationError, IllegalAction)


@pytest.mark.parametrize("position", [
    {"cars": {"red": {"at": "5b"}}},
    {"cars": {"red": {"at": "8a", "lever": "yellow"}}},
    {"cars": {"red": {"at": "29c", "lever": "yellow"}}, "phase": "move", "points": 3},
    {"cars": {"red": {"at": "6a"}}, "phase": "move", "points": 2},
    {"cars": {"red": {"at": "B20.1", "board": "1:E 3:M 4:M", "repair": 1}}},
])
def test_every_legal_action_round_trips(position: dict[str, Any]) -> None:
    g = pos(**position)
    actions = g.legal_actions()
    assert actions
    for action in actions:
        assert g.parse_action(str(action)) == action


def test_a_path_parses_to_its_destination() -> None:
    g = pos(cars={"red": {"at": "5a", "lever": "yellow"}}, phase="move", points=3)
    assert g.parse_action("move 5b 6b 7b") == Move("7b")
    assert str(Path(("5b", "6b"))) == "move 5b 6b"
