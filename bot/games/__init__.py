"""The games the game master runs: the one list of games, and the registry of their units.

A game is one unit (:class:`~bot.games.unit.GameUnit`): its rules class, setup options, command group as
data, drivers, pictures, rule-lookup entries and the hooks of the terminal and the demo. :data:`GAMES`
lists the module of each unit (the module defines ``GAME``); the first is the flagship. Registering a
unit also registers its rules class and where its rule-lookup entries are in :mod:`rules.registry`.
Everything else (the service, the store, the terminal, the command line, the Discord front) asks this
module and never names a game.

Tests register a game of their own with :func:`register` and take it away with :func:`unregister`.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any, Literal

from bot.games.unit import (
    REGISTERED,
    Ask,
    ButtonSpec,
    Command,
    CommandGroup,
    GameUnit,
    LookupSource,
    Option,
    Refusal,
    Standings,
    fuzzy,
)
from rules import registry as rules_registry
from rules.contract import Game, SetupError

#: The games, by the module of their unit, the flagship first. A new game adds its module here.
GAMES: tuple[str, ...] = ("bot.games.races", "bot.games.piecepack", "bot.games.rally")

_UNITS = REGISTERED
_loaded = False


def register(unit: GameUnit[Any]) -> GameUnit[Any]:
    """Make a game known by its key: the unit here and its rules class in :mod:`rules.registry`. The
    listed games come first, so a game registered later never takes the flagship's place."""
    _load()
    _UNITS[unit.key] = unit
    rules_registry.register(unit.rules)
    if unit.lookup is not None:
        rules_registry.register_lookup(unit.key, unit.lookup.package, unit.lookup.path)
    return unit


def unregister(key: str) -> None:
    """Forget a game (for tests that registered one of their own)."""
    _UNITS.pop(key, None)
    rules_registry.unregister(key)


def _load() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for name in GAMES:
        unit = importlib.import_module(name).GAME
        if unit.key not in _UNITS:
            register(unit)


def unit_for(key: str) -> GameUnit[Any]:
    """The unit of game ``key``; KeyError saying which games exist."""
    _load()
    try:
        return _UNITS[key]
    except KeyError:
        raise KeyError(f"unknown game {key!r}: choose one of {', '.join(_UNITS)}") from None


def units() -> list[GameUnit[Any]]:
    """Every game's unit, the flagship first."""
    _load()
    return list(_UNITS.values())


def playable_keys() -> list[str]:
    """Every game's key, the flagship first (``/game new``'s choices)."""
    return [u.key for u in units()]


def game_class(key: str) -> type[Game]:
    """The rules class of game ``key`` (for the service and the store)."""
    return unit_for(key).rules


def resolve(text: str | None) -> str | None:
    """A game key from what was typed: the key itself or the game's title, in any case."""
    if not isinstance(text, str):
        return None
    wanted = text.strip().lower()
    for unit in units():
        if wanted in (unit.key.lower(), unit.title.lower()):
            return unit.key
    return None


def tool(name: str) -> ModuleType:
    """The module of the command-line tool ``name`` a game offers (``GameUnit.tools``): it has
    ``add_arguments(parser)`` and ``run(args)``."""
    for unit in units():
        if name in unit.tools:
            return importlib.import_module(unit.tools[name])
    raise KeyError(f"no game offers a {name!r} tool")


def new_options() -> dict[str, list[tuple[GameUnit[Any], Option]]]:
    """Every ``/game new`` option any game offers, by name, with the games that offer it."""
    return _offered("new")


def join_options() -> dict[str, list[tuple[GameUnit[Any], Option]]]:
    """Every ``/game join`` option any game offers, by name, with the games that offer it."""
    return _offered("join")


def offered_by(offers: list[tuple[GameUnit[Any], Option]]) -> str:
    """Which games read a shared option, by the keys ``/game new game:`` takes (``races, rally``): short, as
    Discord counts every character of a command."""
    return ", ".join(unit.key for unit, _ in offers)


def _offered(command: Literal["new", "join"]) -> dict[str, list[tuple[GameUnit[Any], Option]]]:
    out: dict[str, list[tuple[GameUnit[Any], Option]]] = {}
    for unit in units():
        for option in unit.new_options if command == "new" else unit.join_options:
            out.setdefault(option.name, []).append((unit, option))
    for name, offers in out.items():
        kinds = {o.type for _, o in offers}
        if len(kinds) > 1:
            raise TypeError(f"games disagree on the type of option {name!r}: {sorted(kinds)}")
    return out


__all__ = ["GAMES", "Ask", "ButtonSpec", "Command", "CommandGroup", "GameUnit", "LookupSource",
           "Option", "Refusal", "SetupError", "Standings", "fuzzy", "game_class",
           "join_options", "new_options", "offered_by", "playable_keys", "register", "resolve", "tool", "unit_for",
           "units", "unregister"]
