"""What the Junkyard Races front ends read off the legal actions: steps by their relative word, whole moves
by their end cell (furthest round the race first), names of parts and crew, a kart's tiles as text."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.drivers.races import mode_of, track_info
from bot.service import may_act
from rules.contract import Game
from rules.races import actions as act
from rules.races import catalogue

log = logging.getLogger(__name__)

RELATIVE = {-1: "left", 0: "straight", 1: "right"}
FACINGS = ("N", "NE", "SE", "S", "SW", "NW")


def legal(game: Game | None, seat: int | None) -> list[Any]:
    """The legal actions of ``seat`` now; empty when it is not theirs to act."""
    if game is None or seat is None or game.is_over or not may_act(game, seat):
        return []
    return list(game.legal_actions())


def step_word(game: Any, step: act.Step) -> str | None:
    """``left``/``straight``/``right`` for a legal step to a neighbouring cell, if it is one of those."""
    kart = game.karts[game.turn.seat]
    if kart.cell is None or step.cell is None:
        return None
    for turn, word in RELATIVE.items():
        if game.turn.reversing:
            target = kart.cell.neighbour(kart.facing.opposite.turn(-turn))
        else:
            target = kart.cell.neighbour(kart.facing.turn(turn))
        if target == step.cell:
            return word
    return None


def destinations(game: Any, actions: Sequence[Any]) -> dict[str, act.Move]:
    """End cell → whole move (a path spending every point), from the legal actions, furthest round the
    race first (so the few that fit on buttons are the useful ones). A move that leaves junk tiles where
    they lie (R18) is the same destination: the plain move stands for it."""
    out: dict[str, act.Move] = {}
    for a in actions:
        if isinstance(a, act.Move) and a.cells and not a.leave:
            out.setdefault(a.cells[-1].label, a)
    if len(out) < 2:
        return out
    try:
        ahead = ahead_of(game)
        ranked = sorted(out.items(), key=lambda kv: (-ahead(kv[1].cells)[0], kv[0]))
    except Exception:  # progress is a nicety: fall back to the engine's order
        log.exception("ranking destinations failed")
        return out
    return dict(ranked)


def ahead_of(game: Any) -> Callable[[Sequence[Any]], tuple[float, int]]:
    """For a path of the kart to act: how far round the race it ends (larger is further on) and the flags
    it takes on the way. Bumps and traps are not foreseen: this only orders lists."""
    info = track_info(game.track)
    kart = game.karts[game.turn.seat]

    def ahead(cells: Sequence[Any]) -> tuple[float, int]:
        cell, facing, mode, flags = kart.cell, kart.facing, mode_of(kart), 0
        for nxt in cells:
            if cell is not None:
                step = cell.facing_to(nxt)
                facing = facing if step is None else step  # (Facing.N is 0: no truth test)
                mode, scored = info.step_mode(cell, nxt, mode)
                flags += scored
            cell = nxt
        return flags * info.lap - info.remaining(cell, facing, mode), flags

    return ahead


def choice_label(kind: str, option: str) -> str:
    """A button label for an answer to a pending choice."""
    return {"bag": f"Bag {option}", "ram": f"Push {option}", "snatch": f"Tile {option}"}.get(kind, option)


def part_name(pid: str) -> str:
    spec = catalogue.parts().get(pid)
    return spec.name if spec else pid


def resolve_part(text: str) -> str | None:
    """A part id from its id or name, in any case, with spaces or hyphens."""
    want = "-".join(text.lower().replace("_", " ").split())
    for pid, spec in catalogue.parts().items():
        if want in (pid, "-".join(spec.name.lower().split())):
            return pid
    return None


def resolve_crew(text: str) -> str | None:
    want = " ".join(text.lower().replace("-", " ").split())
    for cid, member in catalogue.crew().items():
        if want in (cid.lower().replace("-", " "), member.name.lower()):
            return cid
    return None


def tiles_text(kart: Mapping[str, Any]) -> str:
    """A kart's saddlebag tiles as its owner sees them (``+`` marks a tile kept face up)."""
    bags = kart.get("bags") or {}
    parts = []
    for loc, tiles in sorted(bags.items(), key=lambda kv: int(kv[0])):
        if tiles:
            shown = ", ".join(t.removesuffix("+") + (" (face up)" if t.endswith("+") else "") for t in tiles)
            parts.append(f"bag {loc}: {shown}")
    return "; ".join(parts) or "no tiles"


def hand_text(game: Game, seat: int) -> str:
    """Everything only ``seat`` may know about its kart: tiles, parts, bottle tops, fuel dice."""
    kart = game.view(seat)["karts"][seat]
    parts = ", ".join(f"{loc}: {part_name(p)}" for loc, p in sorted((kart.get("parts") or {}).items(),
                                                                      key=lambda kv: int(kv[0])))
    fuel = kart.get("fuel") or {}
    return (f"Your kart ({kart['colour']}). Tiles: {tiles_text(kart)}.\nParts: {parts or 'none'}. "
            f"Bottle tops: {kart.get('bottle_tops', 0)}. Fuel dice: {fuel.get('white', 0)} white, "
            f"{fuel.get('red', 0)} red.")
