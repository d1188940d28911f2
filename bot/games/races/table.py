"""Junkyard Races at the terminal and in the demo: the short list of moves, shorthands, where the turn
stands, the standings and the progress line (worded in the language asked for; notation stays as typed)."""

from __future__ import annotations

from typing import Any

from bot.drivers.races import progress, track_info
from bot.games.races import texts
from bot.games.races.board_words import move_hint, step_hint
from bot.games.races.moves import FACINGS, ahead_of, destinations, prompt, step_word
from bot.games.unit import Standings
from rules.contract import IllegalAction
from rules.races import actions as act
from rules.races.state import PHASE_DEEDS, PHASE_PARTS

BAR = 10
#: phases the situation names by a text of their own
_PHASES = ("roll", "deeds", "parts")


#: Phases 1 and 2: the kinds of action in the order people choose them most (ending the phase first)
_DEEDS_ORDER = (act.Done, act.Buy, act.Refuel, act.Fire, act.Gadget, act.Swap, act.PlaceTrap, act.Return,
                act.Flip, act.BagMove)


def _rank(action: Any) -> int:
    for i, kind in enumerate(_DEEDS_ORDER):
        if isinstance(action, kind):
            return i
    return len(_DEEDS_ORDER)


def short_list(game: Any, lang: str = "en") -> list[tuple[str, str]]:
    """Every kind of action, steps by their relative word, a whole move once per end cell (furthest round
    the race first, with its length, the facing it ends with, a flag it takes and what lies on its path:
:func:`~bot.games.races.board_words.move_hint`). The choices people make most come first, so the list's
    first lines (the terminal shows the first 24) always hold them: in Phases 1 and 2 ending the phase
    (``done``), then buying, fuel, weapons, gadgets and swaps, then traps (a tile sets in many ways),
    giving parts back and the saddlebags; while driving, ``done`` (stop reversing) comes last."""
    acts = list(game.legal_actions())
    out: list[tuple[str, str]] = []
    if game.phase in (PHASE_DEEDS, PHASE_PARTS):
        acts.sort(key=_rank)  # a stable sort: each kind keeps the order the rules list it in
    for a in acts:
        if isinstance(a, act.Choose):
            out.append((str(a), prompt(game, lang)))
        elif not isinstance(a, act.Step | act.Move):
            out.append((str(a), ""))
    for a in acts:
        if isinstance(a, act.Step):
            word = step_word(game, a)
            cell = a.cell.label if a.cell is not None else ""
            tail = f" {act.LEAVE}" if a.leave else ""
            hint = texts.say("table.leave", lang, cell=cell) if a.leave else step_hint(game, a.cell, lang)
            out.append((f"step {word}{tail}", hint) if word else (str(a), ""))
    ahead = ahead_of(game)
    moves = sorted(((ahead(m.cells), m) for m in destinations(game, acts).values() if len(m.cells) > 1),
                   key=lambda vm: vm[0], reverse=True)
    for (_, flags), move in moves:
        out.append((f"move {move.cells[-1].label}", move_hint(game, move.cells, flags, lang)))
    if game.phase not in (PHASE_DEEDS, PHASE_PARTS):
        out.sort(key=lambda item: item[0] == "done")
    return out


def situation(game: Any, lang: str = "en") -> str:
    """The pending question, reversing, the roll and points to drive, or the phase, in ``lang``. After a
    step the points still add up: the roll's total and how many of them were driven are said too."""
    view = game.view(None)
    turn = view.get("turn") or {}
    if view.get("choice"):
        return prompt(game, lang).rstrip(".")
    if view["phase"] == "move" and turn.get("reversing"):
        return texts.say("table.reversing", lang)
    if view["phase"] == "move":
        dice = turn.get("dice") or {}
        rolled = " ".join(f"{texts.colour(colour, lang)} {', '.join(map(str, faces))}"
                          for colour, faces in dice.items() if faces)
        points = turn.get("points", 0)
        total = turn.get("total") or 0
        bonus = total - sum(sum(faces) for faces in dice.values())
        if rolled and bonus > 0:
            rolled += " " + texts.say("table.tyre_bonus", lang, bonus=bonus)
        if rolled and total > points:
            return texts.say("table.rolled_left", lang, count=points, rolled=rolled, total=total,
                             driven=total - points)
        if rolled:
            return texts.say("table.rolled", lang, count=points, rolled=rolled)
        return texts.say("table.points", lang, count=points)
    if view["phase"] in _PHASES:
        return texts.say(f"table.{view['phase']}", lang)
    return texts.say("table.phase", lang, phase=texts.say(f"phase.{view['phase']}", lang))


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


def read_ahead(game: Any, text: str) -> str:
    """A plan item read before its player's turn: the notation as it parses (``move E10`` stays the cell, the
    whole move found from the planner's own kart and roll on their turn), or a lone word :func:`expand`
    reads (a cell, a way to step, a facing), kept as typed; else the notation's refusal."""
    words = text.split()
    if len(words) == 2 and words[0].lower() == "m":
        text = f"move {words[1]}"
    try:
        return str(game.parse_action(text))
    except IllegalAction:
        word = text.strip()
        if " " not in word and (word.lower() in act.RELATIVE_STEPS or word.upper() in FACINGS
                                or _parses(game, f"move {word}")):
            return word
        raise


def _parses(game: Any, text: str) -> bool:
    try:
        game.parse_action(text)
    except IllegalAction:
        return False
    return True


def standings(game: Any, lang: str = "en") -> Standings:
    """Winners first, then by flags and how far round the race each kart is; headed in ``lang``."""
    won = set(game.winners)
    info = track_info(game.track)
    order = sorted(game.karts, key=lambda k: (k.seat not in won, -k.flags, -progress(info, k), k.seat))
    head = tuple(texts.say(f"table.{h}", lang) for h in ("name", "colour", "flags", "bottle_tops"))
    return Standings(head, [(k.seat, (k.name, texts.colour(k.colour, lang), f"{k.flags}/{game.laps}",
                                      str(k.bottle_tops))) for k in order])


def progress_line(game: Any, lang: str = "en") -> tuple[str, Any]:
    """A bar per kart: how far round the whole race it is, and its flags."""
    info = track_info(game.track)
    total = max(1.0, game.laps * info.lap)
    parts = []
    for k in game.karts:
        # progress runs from about minus one lap on the grid to (laps - 1) laps at the last flag
        share = min(1.0, max(0.0, (progress(info, k) + info.lap) / total)) if k.flags < game.laps else 1.0
        filled = round(share * BAR)
        parts.append(f"{texts.colour(k.colour, lang)} [{'#' * filled}{'-' * (BAR - filled)}] {k.flags}/{game.laps}")
    move = texts.say("table.move", lang, ply=f"{game.ply:>4}")
    return f"{move}  " + "  ".join(parts), tuple(k.flags for k in game.karts)
