"""Junkyard Races, the flagship: its unit (:data:`GAME`) and what its front ends read off the legal
actions. The rules live in :mod:`rules.races`, the pictures in :mod:`render.races`, the computer
player in :mod:`bot.drivers.races`."""

from bot.games.races.moves import destinations, legal, step_word
from bot.games.races.unit import GAME, RacesUnit
from bot.games.unit import fuzzy

#: the unit, under the name the service gives it
FRONT = GAME

__all__ = ["FRONT", "GAME", "RacesUnit", "destinations", "fuzzy", "legal", "step_word"]
