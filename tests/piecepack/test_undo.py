"""Junkyard (piecepack): what a player may take back (the game contract's ``undo_barrier``).

P3: a turn is a roll, then a move of exactly the rolled number of steps that ends the turn; the die is
the only chance in the game. So nothing comes back: the roll shows the die, the move passes the turn.
"""

from __future__ import annotations

from rules.piecepack import PiecepackGame
from tests.piecepack.conftest import pos


def barrier(g: PiecepackGame, action: str) -> str | None:
    before = PiecepackGame.from_dict(g.to_dict())
    events = g.apply(action)
    return g.undo_barrier(before, events)


def test_p3_a_roll_cant_be_taken_back_the_die_is_known():
    assert barrier(pos(load=[2]), "roll") == "a roll can't be taken back: the die is known"


def test_p3_the_move_ends_the_turn_and_cant_be_taken_back():
    g = pos(pawns={"Suns": "b1"}, phase="move", roll=1)
    move = str(g.legal_actions()[0])
    assert barrier(g, move) == "that turn is over"
