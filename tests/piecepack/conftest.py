"""Shared helpers for the Junkyard (piecepack) tests."""

from __future__ import annotations

from typing import Any

from rules.piecepack import PiecepackGame
from tests.bot.conftest import db_path, h  # noqa: F401  (the offline Discord harness, as the bot's tests have it)


def pos(**position: Any) -> PiecepackGame:
    """A game from the position format."""
    return PiecepackGame.from_position(position)
