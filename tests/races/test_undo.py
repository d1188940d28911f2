"""Junkyard Races: which actions a player may take back (the game contract's ``undo_barrier``).

A player may take back what they did in their own turn while nothing new became known through it: the
dice, a tile drawn or turned up, and the turn itself once it passed stay as they are.
"""

from __future__ import annotations

from typing import Any

from rules.races import Races
from tests.races.conftest import FAR, position


def red(**kw: Any) -> dict[str, Any]:
    return {"colour": "red", "cell": "J3", "facing": "SE", **kw}


def barrier(g: Races, action: str) -> str | None:
    """Play ``action`` and say why it could not be taken back (None: it could)."""
    before = Races.from_dict(g.to_dict())
    events = g.apply(action)
    return g.undo_barrier(before, events)


def test_a_trap_set_in_phase_1_can_be_taken_back() -> None:
    """Phase 1: setting Glue from your saddlebag rolls nothing and shows nothing new."""
    g = position([red(bags={"7": ["glue"]}), FAR], phase="deeds")
    assert barrier(g, "trap glue K3") is None


def test_a_roll_cant_be_taken_back_the_dice_are_known() -> None:
    """Phase 3: once the dice are rolled their faces are known."""
    g = position([red(), FAR], phase="roll", dice=[2, 2])
    assert barrier(g, "roll 2") == "a roll can't be taken back: the dice are known"


def test_a_step_after_the_roll_can_be_taken_back() -> None:
    """Phase 5: a plain step spends known points; nothing new is learnt."""
    g = position([red(), FAR], phase="move", points=3)
    assert barrier(g, "step K3") is None


def test_a_face_down_tile_picked_up_cant_be_taken_back() -> None:
    """Junk Tiles / R12: driving onto a face-down tile picks it up, and its holder now knows its kind."""
    g = position([red(), FAR], phase="move", points=3, board={"K3": "junk:oil"})
    reason = barrier(g, "step K3")
    assert reason is not None and "tile" in reason


def test_the_last_step_ends_the_turn_and_cant_be_taken_back() -> None:
    """Phase 6: the dice passed to the next player with the last point; that turn is over."""
    g = position([red(), FAR], phase="move", points=1)
    assert barrier(g, "step K3") == "that turn is over"
