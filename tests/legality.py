"""Checks shared by every game's legality tests: what ``legal_actions`` lists, ``apply`` must take."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from rules.contract import Game, IllegalAction

G = TypeVar("G", bound=Game)


def listed_but_refused(games: Iterable[G], where: Callable[[G], str]) -> list[str]:
    """One line for every action a game of ``games`` lists that ``apply`` (on a copy) refuses, starting
    with ``where(game)``; empty when every listed action is taken."""
    refused = []
    for g in games:
        for a in g.legal_actions():
            try:
                type(g).from_dict(g.to_dict()).apply(a)
            except IllegalAction as exc:
                refused.append(f"{where(g)}: listed {str(a)!r} refused: {exc}")
    return refused
