"""Questions about a Junkyard Races state that are not part of the game contract: which kart stands where,
how much a saddlebag holds, the movement snapshot of the kart to move, the supplies counted, the words of a
refusal. The engine, its parts, the computers, the pictures and the tests ask them of a
:class:`~rules.races.engine.Races`; they read it as a :class:`~rules.races.base.Race`, so this module never
imports the engine's."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rules.hexgrid import Hex
from rules.races import catalogue
from rules.races.movement import Field
from rules.races.state import PRINTED_BAG, Kart
from rules.races.texts import said

if TYPE_CHECKING:
    from rules.races.base import Race


def kart_at(game: Race, cell: Hex) -> Kart | None:
    """The kart on ``cell``, if any."""
    for k in game.karts:
        if k.cell == cell:
            return k
    return None


def seat_by_colour(game: Race, colour: str) -> int | None:
    """The seat of the kart of ``colour`` (any case), if one races."""
    for k in game.karts:
        if k.colour == colour.lower():
            return k.seat
    return None


def supply_counts(game: Race) -> dict[str, int]:
    """Every finite supply counted wherever it is: pile, board, karts, a tile waiting for its bag.

    The box holds 100 junk tiles, 80 part cards, 80 bottle tops, 48 flags and 5 white and 7 red dice;
    these sums never change during a race.
    """
    waiting = 0
    if game.choice is not None and game.choice.kind == "bag":
        waiting = 1 + len(game.choice.context.get("queue", []))
    karts = game.karts
    return {
        "junk": len(game.junk) + len(game.board) + sum(k.tile_count for k in karts) + waiting,
        "parts": sum(game.parts_left.values()) + sum(len(k.parts) for k in karts),
        "bottle_tops": game.bottle_tops_left + sum(k.bottle_tops for k in karts),
        "flags": game.flags_left + sum(k.flags for k in karts),
        "white": game.dice_left["white"] + sum(k.fuel["white"] for k in karts),
        "red": game.dice_left["red"] + sum(k.fuel["red"] for k in karts),
    }


def capacity(kart: Kart, loc: int) -> int:
    """How many tiles the saddlebag at ``loc`` holds (0 where there is none), R10."""
    if loc == PRINTED_BAG:
        return catalogue.supply().printed_saddlebag if PRINTED_BAG not in kart.parts else 0
    part = kart.parts.get(loc)
    return catalogue.parts()[part].capacity if part else 0


def bump_reach(kart: Kart) -> tuple[int, ...]:
    """Hook: how many cells a bump by ``kart`` pushes (a Battering Ram lets the player choose 1 or 2)."""
    return (1, 2) if kart.has_part("battering-ram") else (1,)


def field(game: Race) -> Field:
    """The movement snapshot for the kart whose turn it is, with the traps that would stop it (R9)."""
    mover = game.karts[game.turn.seat]
    karts = {k.cell: k.seat for k in game.karts if k.cell is not None and game.track.on_track(k.cell)}
    fixed: set[Hex] = set()
    oils: list[tuple[Hex, Hex]] = []
    traps = game.traps
    for cell, tile in game.board.items():
        if tile.face_down:
            continue
        if tile.kind == "oil" and tile.arrow is not None:
            oils.append((cell, cell.neighbour(tile.arrow)))
        elif traps.stops(mover, tile.kind):
            fixed.add(cell)
    bombs = frozenset(c for c, t in game.board.items() if t.kind == "time-bomb" and not t.face_down)
    return Field.make(game.track, karts, frozenset(game.turn.bumped), frozenset(fixed), tuple(sorted(oils)),
                      bump_reach(mover), mover.seat, bombs=bombs)


def not_now(game: Race, what: str, limit: int = 12) -> dict[str, Any]:
    """The parameters of a refusal of ``what`` (an action in quotes, or a :class:`Said`) in this phase:
    the phase, and the legal actions (the first ``limit``, and how many more)."""
    acts = [str(a) for a in game.legal_actions()]
    more = said("refuse.more", count=len(acts) - limit) if len(acts) > limit else ""
    return {"what": what, "phase": game.turn.phase, "legal": acts[:limit], "more": more}
