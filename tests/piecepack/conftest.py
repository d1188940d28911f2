"""Shared helpers for the Junkyard (piecepack) tests."""

from __future__ import annotations

from typing import Any

from rules.piecepack import PiecepackGame


def pos(**position: Any) -> PiecepackGame:
    """A game from the position format."""
    return PiecepackGame.from_position(position)
