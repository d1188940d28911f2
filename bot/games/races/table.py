"""Junkyard Races at the terminal and in the demo: the short list of moves, shorthands, where the turn
stands, the standings and the progress line."""

from __future__ import annotations

from typing import Any

from bot.drivers.races import progress, track_info
from bot.games.races.moves import ahead_of, destinations, step_word
from bot.games.unit import Standings
from rules.races import actions as act

BAR = 10
_PHASES = {"roll": "Phase 3: roll or reverse", "deeds": "Phase 1: traps, weapons, gadgets",
           "parts": "Phase 2: parts and fuel"}


def short_list(game: Any) -> list[tuple[str, str]]:
    """Every kind of action, steps by their relative word, a whole move once per end cell (furthest round
    the race first, saying when it takes a flag); Done last: ending early is rarely the plan."""
    acts = list(game.legal_actions())
    out: list[tuple[str, str]] = []
    for a in acts:
        if isinstance(a, act.Choose):
            out.append((str(a), game.choice.prompt if game.choice is not None else ""))
        elif not isinstance(a, act.Step | act.Move):
            out.append((str(a), ""))
    for a in acts:
        if isinstance(a, act.Step):
            word = step_word(game, a)
            cell = a.cell.label if a.cell is not None else ""
            tail = f" {act.LEAVE}" if a.leave else ""
            hint = f"{cell}, leaving the junk tile there" if a.leave else cell
            out.append((f"step {word}{tail}", hint) if word else (str(a), ""))
    ahead = ahead_of(game)
    moves = sorted(((ahead(m.cells), m) for m in destinations(game, acts).values() if len(m.cells) > 1),
                   key=lambda vm: vm[0], reverse=True)
    for (_, flags), move in moves:
        hint = f"via {' '.join(c.label for c in move.cells[:-1])}" + (", takes a flag" if flags else "")
        out.append((f"move {move.cells[-1].label}", hint))
    out.sort(key=lambda item: item[0] == "done")
    return out


def situation(game: Any) -> str:
    """The pending question, reversing, the roll and points to drive, or the phase."""
    view = game.view(None)
    turn = view.get("turn") or {}
    if view.get("choice"):
        return str(view["choice"]["prompt"]).rstrip(".")
    if view["phase"] == "move" and turn.get("reversing"):
        return "Reversing"
    if view["phase"] == "move":
        dice = turn.get("dice") or {}
        rolled = " ".join(f"{colour} {', '.join(map(str, faces))}" for colour, faces in dice.items() if faces)
        points = turn.get("points", 0)
        return f"Rolled {rolled}: {points} point{'s' if points != 1 else ''} to drive" if rolled else \
            f"{points} points to drive"
    return _PHASES.get(view["phase"], f"Phase: {view['phase']}")


def expand(game: Any, text: str) -> str:
    """``move CELL`` stands for the whole move that ends there (as ``/race move`` does), and a lone word for
    the one legal ``choose``, ``step`` or whole move it can mean (``E10`` at the start, ``left`` while
    driving, ``NE`` when a facing is asked)."""
    words = text.split()
    acts = game.legal_actions()
    if len(words) == 2 and words[0].lower() in ("move", "m"):
        move = destinations(game, acts).get(words[1].upper())
        return str(move) if move is not None else text
    if len(words) != 1:
        return text
    legal = {str(a).lower(): str(a) for a in acts}
    for candidate in (f"choose {text}", f"step {text}"):
        if candidate.lower() in legal:
            return legal[candidate.lower()]
    if text.lower() in ("left", "straight", "right", "l", "s", "r"):
        return f"step {text}"
    move = destinations(game, acts).get(text.upper())
    return str(move) if move is not None else text


def standings(game: Any) -> Standings:
    """Winners first, then by flags and how far round the race each kart is."""
    won = set(game.winners)
    info = track_info(game.track)
    order = sorted(game.karts, key=lambda k: (k.seat not in won, -k.flags, -progress(info, k), k.seat))
    return Standings(("Name", "Colour", "Flags", "Bottle tops"),
                     [(k.seat, (k.name, k.colour, f"{k.flags}/{game.laps}", str(k.bottle_tops))) for k in order])


def progress_line(game: Any) -> tuple[str, Any]:
    """A bar per kart: how far round the whole race it is, and its flags."""
    info = track_info(game.track)
    total = max(1.0, game.laps * info.lap)
    parts = []
    for k in game.karts:
        # progress runs from about minus one lap on the grid to (laps - 1) laps at the last flag
        share = min(1.0, max(0.0, (progress(info, k) + info.lap) / total)) if k.flags < game.laps else 1.0
        filled = round(share * BAR)
        parts.append(f"{k.colour} [{'#' * filled}{'-' * (BAR - filled)}] {k.flags}/{game.laps}")
    return f"move {game.ply:>4}  " + "  ".join(parts), tuple(k.flags for k in game.karts)
