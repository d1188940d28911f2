"""The ``/rally`` command group as data: a command for every kind of action of the notation (shift and
roll, the booster, drive, park with what to place, repair), each option's autocomplete drawn from the
asker's legal actions, and how the options make the action's notation. What a command builds is checked
again by the rules when it is played.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from bot.games.rally.moves import (
    best_items,
    can_boost,
    choice_hint,
    choices,
    items_text,
    kept_range,
    rally,
    range_hint,
    ranges,
    service_of,
)
from bot.games.unit import Ask, Command, CommandGroup, Option, Refusal, fuzzy
from rules.rally.actions import Move, Park
from rules.rally.texts import CATALOGUE
from rules.rally.texts import say as rally_say

_RANGE_WORDS = {"green": "green", "g": "green", "grün": "green", "gruen": "green", "yellow": "yellow", "y": "yellow",
                "gelb": "yellow", "red": "red", "r": "red", "rot": "red"}
_CELL = re.compile(r"^(\d{1,2}[abc]|pit|stop)$")
_SPOT = re.compile(r"^([fembFEMB]\d{1,2}|pit)\.\d$", re.IGNORECASE)
_ITEM = re.compile(r"^[mbe][1-6]$")




def _refuse(ask: Ask, msg: str, **params: str) -> Refusal:
    """What a command's option got wrong (``command.refusal.<msg>`` of the rally's catalogue), in the
    asker's language."""
    return Refusal(CATALOGUE.say(f"command.refusal.{msg}", ask.lang, None, **params))


# Building the notation -------------------------------------------------------------------------------


def _range(ask: Ask, required: bool = False) -> str:
    text = ask.value("range").strip().lower()
    if not text:
        if required:
            raise _refuse(ask, "range")
        game = rally(ask.game)
        return kept_range(game, ask.legal) if game is not None and ask.legal else "green"
    if text not in _RANGE_WORDS:
        raise _refuse(ask, "range_not", text=repr(text[:20]))
    return _RANGE_WORDS[text]


def _roll(boost: bool | None = None, required: bool = False) -> Callable[[Ask], str]:
    def build(ask: Ask) -> str:
        use = bool(ask.values.get("boost")) if boost is None else boost
        return f"roll {_range(ask, required)}" + (" boost" if use else "")

    return build


def _move(ask: Ask) -> str:
    cells = ask.value("to").lower().replace(",", " ").split()
    if not cells:
        raise _refuse(ask, "to")
    if any(_SPOT.match(c) for c in cells):
        raise _refuse(ask, "to_spot", cell=cells[-1])
    for c in cells:
        if not _CELL.match(c):
            raise _refuse(ask, "not_cell", text=repr(c[:20]))
    return "move " + " ".join(cells)


def _park(ask: Ask) -> str:
    spot = ask.value("spot").strip()
    if not _SPOT.match(spot):
        raise _refuse(ask, "spot")
    area, number = spot.split(".")
    spot = f"{'pit' if area.lower() == 'pit' else area.upper()}.{number}"
    words = ask.value("items").lower().replace(",", " ").split()
    for w in words:
        if not _ITEM.match(w):
            raise _refuse(ask, "placement", text=repr(w[:20]))
    if words:
        return f"park {spot} " + " ".join(words)
    game = rally(ask.game)
    if game is not None and any(isinstance(a, Park) and a.spot == spot for a in ask.legal):
        items = best_items(game, game.turn, spot)
        return str(Park(spot, items))
    return f"park {spot}"


# Autocomplete: each from the asker's legal actions ---------------------------------------------------


def ac_range(ask: Ask) -> list[tuple[str, str]]:
    game = rally(ask.game)
    if game is None or not ask.legal:
        return []
    pairs = [(f"{r} ({range_hint(game, r, ask.lang)})", r) for r in ranges(ask.legal)]
    return fuzzy(pairs, ask.current)


def ac_boost_range(ask: Ask) -> list[tuple[str, str]]:
    return ac_range(ask) if can_boost(ask.legal) else []


def ac_move(ask: Ask) -> list[tuple[str, str]]:
    game = rally(ask.game)
    if game is None:
        return []
    found = choices(game, [a for a in ask.legal if isinstance(a, Move)])
    pairs = [(f"{c.cell}: {hint}" if (hint := choice_hint(game, c, ask.lang)) else c.cell, c.cell) for c in found]
    return fuzzy(pairs, ask.current)


def ac_spot(ask: Ask) -> list[tuple[str, str]]:
    game = rally(ask.game)
    if game is None:
        return []
    found = choices(game, [a for a in ask.legal if isinstance(a, Park)])
    pairs = []
    for c in found:
        best, service = " ".join(c.action.split()[2:]), service_of(game, c.cell, ask.lang)
        said = rally_say("choice_spot" if best else "choice_spot_as_is", ask.lang, cell=c.cell, service=service,
                         items=best)
        pairs.append((said, c.cell))
    return fuzzy(pairs, ask.current)


def ac_items(ask: Ask) -> list[tuple[str, str]]:
    game = rally(ask.game)
    spot = ask.value("spot").strip().lower()
    if game is None or not spot:
        return []
    parks = [a for a in ask.legal if isinstance(a, Park) and a.spot.lower() == spot and a.items]
    if not parks:
        return []
    best = best_items(game, game.turn, parks[0].spot)
    parks.sort(key=lambda a: a.items != best)
    pairs = []
    for a in parks:
        text = " ".join(f"{k}{g}" for k, g in a.items)
        msg = "choice_items_best" if a.items == best else "choice_items"
        pairs.append((rally_say(msg, ask.lang, items=text, placed=items_text(a.items, ask.lang)), text))
    return fuzzy(pairs, ask.current)


# The group -------------------------------------------------------------------------------------------

_RANGE_HELP = "green, yellow or red: up one range at most, down any number (default: keep the lever)"
_BOOST = Option("boost", "Spend a fuel can on the booster: a second move after the first", "flag")

RALLY_COMMANDS = CommandGroup(
    name="rally",
    description="Drive your car in this channel's Schrottplatz Rally",
    no_game="command_no_rally",
    not_started="command_not_started",
    no_seat="command_no_car",
    words=rally_say,
    commands=(
        Command("roll", "Set the lever and roll your die (shifting and rolling are one action)", (
            Option("range", _RANGE_HELP, limit=10, complete=ac_range), _BOOST), play=_roll()),
        Command("shift", "Shift the lever to a range and roll", (
            Option("range", "green, yellow or red: up one range at most, down any number", required=True, limit=10,
                   complete=ac_range), _BOOST), play=_roll(required=True)),
        Command("boost", "Spend a fuel can on the booster and roll: a second move follows the first", (
            Option("range", _RANGE_HELP, limit=10, complete=ac_boost_range),), play=_roll(True)),
        Command("move", "Drive your roll to a cell (start typing for the legal ones) or along a path", (
            Option("to", "A cell such as `14b`, `pit` or `stop`, or a path such as `13a 13b 14b`", required=True,
                   limit=60, complete=ac_move),), play=_move),
        Command("park", "Drive into a parking spot (car park or pit lane) and place what it gives", (
            Option("spot", "The spot, such as `F7.1` or `pit.2`; start typing for the ones you reach", required=True,
                   limit=10, complete=ac_spot),
            Option("items", "What goes on which gear, like `e4` or `e3 e5` (default: what helps your car most)",
                   limit=20, complete=ac_items)), play=_park),
        Command.fixed("repair", "Pushed off for repairs: take gear 1's parts and wait a round to mend gear 2 too"),
        Command("board", "Your car board: gears, lever, fuel and reserve, only for you", look=True),
    ),
)

__all__ = ["RALLY_COMMANDS", "ac_items", "ac_move", "ac_range", "ac_spot"]
