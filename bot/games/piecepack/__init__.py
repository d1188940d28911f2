"""Junkyard for a piecepack: its unit (:data:`GAME`). The rules live in :mod:`rules.piecepack`, the
picture in :mod:`render.piecepack`, the computer player in :mod:`bot.drivers.piecepack`."""

from bot.games.piecepack.unit import GAME, PiecepackUnit, destinations

#: the unit, under the name the service gives it
FRONT = GAME

__all__ = ["FRONT", "GAME", "PiecepackUnit", "destinations"]
