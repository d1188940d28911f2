"""Pure game logic for the games the game master runs: no I/O, no Discord, no pictures."""

from rules.contract import Action, Event, Game, IllegalAction, NotationError, SetupError
from rules.registry import game_class, game_keys, register

__all__ = [
    "Action",
    "Event",
    "Game",
    "IllegalAction",
    "NotationError",
    "SetupError",
    "game_class",
    "game_keys",
    "register",
]
