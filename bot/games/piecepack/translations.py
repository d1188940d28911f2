"""The German words of the ``/piecepack`` commands (see :attr:`bot.games.unit.GameUnit.translations`)."""

from __future__ import annotations

from collections.abc import Mapping

GERMAN: Mapping[str, tuple[str, str]] = {
    "piecepack": ("piecepack", "Junkyard mit einem Piecepack in diesem Kanal spielen"),
    "piecepack roll": ("würfeln", "Den Würfel werfen"),
    "piecepack move": ("ziehen", "Deine Figur ziehen: auf ein Feld (c2) oder einen Pfad entlang (b1-b2-c2)"),
    "piecepack move to": ("ziel", "Zielfeld oder ganzer Pfad; tippe los für die erlaubten"),
}
