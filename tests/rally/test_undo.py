"""Schrottplatz Rally: what a player may take back (the game contract's ``undo_barrier``).

Rundenablauf: a turn is a roll, then a move; a booster (S5) rolls again after the first move. A die once
rolled is known, and a move that ends the turn leaves it over, so neither comes back.
"""

from __future__ import annotations

from rules.rally import RallyGame
from tests.rally.conftest import pos


def barrier(g: RallyGame, action: str) -> str | None:
    before = RallyGame.from_dict(g.to_dict())
    events = g.apply(action)
    return g.undo_barrier(before, events)


def test_rundenablauf_a_roll_cant_be_taken_back_the_die_is_known() -> None:
    g = pos(cars={"red": {"at": "8a"}})
    assert barrier(g, "roll green") == "a roll can't be taken back: the die is known"


def test_rundenablauf_a_booster_move_rolls_again_so_it_cant_be_taken_back() -> None:
    """A booster's second roll follows the first move at once: that move showed a die."""
    g = pos(cars={"red": {"at": "5b"}, "blue": {"at": "40a"}}, load=[1, 4])
    g.apply("roll green boost")
    assert barrier(g, "move 6b") == "a roll can't be taken back: the die is known"


def test_rundenablauf_the_move_ends_the_turn_and_cant_be_taken_back() -> None:
    g = pos(cars={"red": {"at": "5b"}, "blue": {"at": "40a"}}, load=[1])
    g.apply("roll green")
    assert barrier(g, "move 6b") == "that turn is over"
