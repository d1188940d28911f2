"""Computer players: a driver looks at a game and names the action its seat plays next.

Every driver speaks the game's notation, so the service, the terminal front end and the soak tests seat
one the same way for any game. Drivers draw their own random numbers from their own seeded
:class:`~rules.dice.Dice`, never from the game's dice, so seating a driver does not change the game's rolls.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from rules.contract import Game
from rules.dice import Dice

#: the dice stream drivers draw from (the game's own dice use another)
DRIVER_STREAM = 1013


@runtime_checkable
class Driver(Protocol):
    """Chooses the action ``seat`` plays in ``game``; only asked while ``game.to_act == seat``."""

    def choose(self, game: Game, seat: int) -> str:
        """The action in the game's notation; always one of ``game.legal_actions()``."""
        ...


def check_turn(game: Game, seat: int) -> None:
    """Refuse to choose for a seat that is not to act (a bug in the caller)."""
    if game.is_over:
        raise ValueError("the game is over: there is nothing to choose")
    if game.to_act != seat:
        raise ValueError(f"seat {seat} is not to act (seat {game.to_act} is)")


class RandomDriver:
    """Plays a uniformly random legal action; works for every game."""

    kind = "random"

    def __init__(self, seed: int = 0) -> None:
        self.dice = Dice.seeded(seed, stream=DRIVER_STREAM)

    def choose(self, game: Game, seat: int) -> str:
        check_turn(game, seat)
        actions = game.legal_actions()
        return str(actions[self.dice.below(len(actions))])
