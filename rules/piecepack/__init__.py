"""Junkyard for a piecepack (rulebook ``piecepack-junkyard.en.txt``, rulings P1–P7).

Importing this package registers the game under the key ``"piecepack"``.
"""

from rules.piecepack.actions import Destination, Move, Roll, parse_syntax
from rules.piecepack.game import PiecepackGame

__all__ = ["Destination", "Move", "PiecepackGame", "Roll", "parse_syntax"]
