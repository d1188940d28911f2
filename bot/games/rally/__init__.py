"""Schrottplatz Rally: its unit (:data:`GAME`). The rules live in :mod:`rules.rally`, the pictures in
:mod:`render.rally`, the computer player in :mod:`bot.drivers.rally`."""

from bot.games.rally.unit import GAME, RallyUnit

__all__ = ["GAME", "RallyUnit"]
