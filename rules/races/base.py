"""The base of the typed parts the Junkyard Races rules are built from.

``Races`` (rules/races/engine.py) holds the state and runs the turn; each part (``game.bags``,
``game.deeds``, ``game.weapons``, ``game.garage``, ``game.traps`` and ``game.arsenal``) is a small view of
one game that knows one area of the rules. A part keeps no state of its own, so the engine makes a
fresh one whenever it is asked for, always bound to the game it is asked of (a refused action works on
a copy of the game, and its parts must work on that copy).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rules.races.engine import Races


class Part:
    """One area of the rules working on one game, ``g``."""

    __slots__ = ("g",)

    def __init__(self, game: Races) -> None:
        self.g = game
