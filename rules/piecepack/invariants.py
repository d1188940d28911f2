"""What holds at every moment of a game of Junkyard (piecepack), checked from outside the rules.

- the game contract (someone to act while the game runs, a legal action, the state survives JSON);
- one pawn per square, no pawn on another player's start corner (P4), only the carrier of the good
  stuff on the centre (P5);
- every trash piece of the box is held exactly once, and the carrier holds none (§4.C);
- a finished game has exactly one winner (§5).

:func:`problems` lists what is wrong (empty when nothing is).
"""

from __future__ import annotations

from rules.invariants import contract_problems
from rules.piecepack.board import CENTRE, SUIT_CODES, TRASH_LETTERS
from rules.piecepack.game import PiecepackGame


def problems(game: PiecepackGame) -> list[str]:
    """Everything wrong with the game's state, each as a sentence (empty when nothing is)."""
    out = contract_problems(game) + pawn_problems(game) + trash_problems(game)
    if game.is_over and len(game.winners) != 1:
        out.append(f"the game is over with winners {game.winners}, not exactly one")
    return out


def pawn_problems(game: PiecepackGame) -> list[str]:
    """One pawn per square, none on another's corner (P4), only the carrier on the centre (P5)."""
    out: list[str] = []
    if len(set(game.pawns)) != len(game.pawns):
        out.append(f"two pawns share a square: {game.pawns}")
    for seat, square in enumerate(game.pawns):
        if square == CENTRE and game.carrier != seat:
            out.append(f"{game.label(seat)} stands on the centre without the good stuff")
        owner = game.corner_owner(square)
        if owner is not None and owner != seat:
            out.append(f"{game.label(seat)} stands on {game.label(owner)}'s start corner {square}")
    return out


def trash_problems(game: PiecepackGame) -> list[str]:
    """§4.C: every trash piece held exactly once; the carrier of the good stuff holds none."""
    out: list[str] = []
    held = [piece for stack in game.trash for piece in stack]
    box = {SUIT_CODES[seat] + letter for seat in range(game.n) for letter in TRASH_LETTERS}
    if len(held) != len(set(held)) or set(held) != box:
        out.append(f"trash pieces lost or doubled: {sorted(held)} instead of {sorted(box)}")
    if game.carrier is not None and game.trash[game.carrier]:
        out.append(f"{game.label(game.carrier)} carries the good stuff and trash {game.trash[game.carrier]}")
    return out
