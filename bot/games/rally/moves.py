"""What the Schrottplatz Rally front ends read off the legal actions: the ranges a roll may take, the
destinations of a move ranked best first (with the smart driver's own scoring), the placement that helps a
car most when it parks, and short words for each of them.

Everything offered comes from ``legal_actions()``; the ranking only orders it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.drivers.rally import score_ending
from rules.contract import Game
from rules.rally import board as B
from rules.rally import queries
from rules.rally.actions import Move, Park, Repair, Roll
from rules.rally.game import PARK, PIT, RallyGame
from rules.rally.texts import CATALOGUE, word

ITEM_LETTERS = {"m": "mechanic", "b": "body", "e": "engine"}


def legal(game: Game | None, seat: int | None) -> list[Any]:
    """The legal actions of ``seat`` now; empty when it is not theirs to act."""
    if game is None or seat is None or game.is_over or not game.may_act(seat):
        return []
    return list(game.legal_actions())


def rally(game: Game | None) -> RallyGame | None:
    return game if isinstance(game, RallyGame) else None


# Rolls -----------------------------------------------------------------------------------------------


def ranges(actions: Sequence[Any]) -> list[str]:
    """The ranges the lever may be set to now, green first."""
    found = {a.range for a in actions if isinstance(a, Roll)}
    return [r for r in B.RANGES if r in found]


def can_boost(actions: Sequence[Any]) -> bool:
    return any(isinstance(a, Roll) and a.boost for a in actions)


def can_repair(actions: Sequence[Any]) -> bool:
    return any(isinstance(a, Repair) for a in actions)


def kept_range(game: RallyGame, actions: Sequence[Any]) -> str:
    """The range a roll keeps when none is named: the lever's own if it may stay, else green."""
    allowed = ranges(actions)
    lever = game.cars[game.turn].lever
    return lever if lever in allowed else (allowed[0] if allowed else "green")


def range_word(range_name: str, lang: str = "en") -> str:
    """A rev range in words ("red" is also a car colour in the catalogue)."""
    return word(f"range.{range_name}", lang) if range_name == "red" else word(range_name, lang)


def range_hint(game: RallyGame, range_name: str, lang: str = "en") -> str:
    """Which gears of a range work (after a repair due now), so a player sees the risk of a mis-shift (S4)."""
    gears = game.gears_after_repair(game.turn)
    low, high = B.RANGE_GEARS[range_name]
    works = [g for g in (low, high) if B.works(gears[g - 1])]
    if len(works) == 2:
        return CATALOGUE.say("hint.gears_work", lang, low=low, high=high)
    return CATALOGUE.say("hint.gear_works", lang, gear=works[0]) if works else CATALOGUE.say("hint.no_gear_works", lang)


# Moves -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Choice:
    """One destination of the move to make: the action that drives there (a park with the placement that
    helps most), its ending, and its score (larger is better)."""

    action: str
    cell: str
    kind: str
    path: tuple[str, ...]
    score: float


def best_items(game: RallyGame, seat: int, spot: str) -> tuple[tuple[str, int], ...]:
    """The placement at ``spot`` that helps the car most (the smart driver's scoring)."""
    end = game.endings()[spot]
    options = game.placements(seat, spot)
    return max(options, key=lambda items: score_ending(game, seat, end, items))


def choices(game: Game | None, actions: Sequence[Any]) -> list[Choice]:
    """Every destination among ``actions``, best first."""
    g = rally(game)
    if g is None or g.phase != "move" or not actions:
        return []
    seat = g.turn
    ends = g.endings()
    out: list[Choice] = []
    spots = {a.spot for a in actions if isinstance(a, Park)}
    for a in actions:
        if isinstance(a, Move) and a.cell in ends:
            end = ends[a.cell]
            out.append(Choice(str(a), a.cell, end.kind, end.path, score_ending(g, seat, end, ())))
    for spot in sorted(spots):
        if spot not in ends:
            continue
        end = ends[spot]
        items = best_items(g, seat, spot)
        out.append(Choice(str(Park(spot, items)), spot, end.kind, end.path, score_ending(g, seat, end, items)))
    out.sort(key=lambda c: (-c.score, c.cell))
    return out


def items_text(items: Sequence[tuple[str, int]] | str, lang: str = "en") -> str:
    """``e4 b3`` in words: "engine part on gear 4, body part on gear 3"."""
    if isinstance(items, str):
        parsed = [(w[0], int(w[1])) for w in items.split() if len(w) == 2 and w[0] in ITEM_LETTERS]
    else:
        parsed = list(items)
    return ", ".join(CATALOGUE.say("hint.item_on_gear", lang, item=word("item." + ITEM_LETTERS[k], lang), gear=g)
                     for k, g in parsed)


def service_of(game: RallyGame, spot: str, lang: str = "en") -> str:
    return word(queries.spot_kind(game, spot), lang)


def choice_hint(game: RallyGame, c: Choice, lang: str = "en") -> str:
    """What a destination means: the way there, and how the move ends there."""
    via = CATALOGUE.say("hint.via", lang, path=" ".join(c.path[:-1])) if len(c.path) > 1 else ""
    end = CATALOGUE.say(f"hint.ending.{c.kind}", lang) if f"hint.ending.{c.kind}" in CATALOGUE.ids else ""
    if c.kind in (PARK, PIT):
        items = c.action.split()[2:]
        end = service_of(game, c.cell, lang) + (f": {items_text(' '.join(items), lang)}" if items else "")
    return ", ".join(p for p in (via, end) if p)


__all__ = ["Choice", "best_items", "can_boost", "can_repair", "choice_hint", "choices",
           "items_text", "kept_range", "legal", "rally", "range_hint", "range_word", "ranges", "service_of"]
