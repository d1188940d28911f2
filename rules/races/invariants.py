"""What holds at every moment of a Junkyard Races race, checked from outside the engine.

- the game contract (someone to act while the race runs, a legal action, the state survives JSON);
- every kart stands on the track or in the stream, and no two karts share a track cell (rulebook,
  Bumping Other Karts When Moving);
- the box stays whole (rulebook, Contents of Box): every junk tile, part card, bottle top, flag and
  fuel die is somewhere;
- R12: no view shows a face-down tile's kind, another seat's hidden saddlebag tiles, another seat's
  secret narration, the dice or the junk pile.

:func:`problems` lists what is wrong (empty when nothing is); the property tests assert it is empty and
the drivers' soak prints it with the seed.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from rules.invariants import contract_problems, event_leaks
from rules.races import catalogue, queries
from rules.races.engine import Races

HIDDEN_TILE = {"kind": "junk", "face_down": True}


@cache
def full_box() -> dict[str, int]:
    """The finite supplies in the box, as :meth:`Races.supply_counts` counts them."""
    sup = catalogue.supply()
    return {
        "junk": sum(sup.junk.values()),
        "parts": sum(p.cards for p in catalogue.parts().values()),
        "bottle_tops": sup.bottle_tops,
        "flags": sup.flags,
        "white": sup.dice["white"],
        "red": sup.dice["red"],
    }


def problems(game: Races) -> list[str]:
    """Everything wrong with the race's state, each as a sentence (empty when nothing is)."""
    out = contract_problems(game) + kart_problems(game)
    counts = queries.supply_counts(game)
    if counts != full_box():
        out.append(f"supplies {counts} are not the box's {full_box()}")
    for viewer in [None, *range(len(game.karts))]:
        out += view_leaks(game, viewer)
    return out


def kart_problems(game: Races) -> list[str]:
    """Karts on the track or in the stream, one kart per track cell."""
    out: list[str] = []
    track = game.track
    seen: dict[Any, str] = {}
    for k in game.karts:
        if k.cell is None:
            continue
        if not (track.on_track(k.cell) or track.is_stream(k.cell)):
            out.append(f"{k.colour} is off the track at {k.cell.label}")
        if track.on_track(k.cell):
            if k.cell in seen:
                out.append(f"{k.colour} and {seen[k.cell]} share {k.cell.label}")
            seen[k.cell] = k.colour
    return out


def view_leaks(game: Races, viewer: int | None) -> list[str]:
    """R12: what ``viewer``'s view shows that its viewer may not see."""
    out: list[str] = []
    view = game.view(viewer)
    who = "the public" if viewer is None else f"seat {viewer}"
    for cell, tile in game.board.items():
        shown = view["board"].get(cell.label)
        if tile.face_down and shown != HIDDEN_TILE:
            out.append(f"{who} sees the face-down tile on {cell.label}: {shown}")
    for k, kart_view in zip(game.karts, view["karts"], strict=True):
        if k.seat == viewer:
            continue
        for loc, tiles in k.bags.items():
            expect = [t.to_json() if t.face_up else "hidden" for t in tiles]
            if kart_view["bags"].get(str(loc)) != expect:
                out.append(f"{who} sees {k.colour}'s saddlebag {loc}: {kart_view['bags'].get(str(loc))}")
    out += event_leaks(view, viewer)
    if view.get("choice") and "context" in view["choice"]:
        out.append(f"{who} sees the context of a choice: {view['choice']}")
    for secret in ("dice", "junk"):
        if secret in view:
            out.append(f"{who} sees the {secret}")
    return out
