"""Rules classes by game key, and where each game keeps its rule-lookup entries.

A game's rules class registers itself when its package is imported (``@register``). This module holds
no list of games: the list lives with the game master (``bot/games``), which imports every game and
tells this registry where each game's lookup entries are (:func:`register_lookup`). Code that uses the
rules alone imports the game's package and finds its class here.
"""

from __future__ import annotations

from rules.contract import Game

_GAMES: dict[str, type[Game]] = {}
#: game key -> (package, path inside it) of its rule-lookup entries, in registration order
_LOOKUPS: dict[str, tuple[str, tuple[str, ...]]] = {}


def register(cls: type[Game]) -> type[Game]:
    """Class decorator: make a game known under its ``key``."""
    _GAMES[cls.key] = cls
    return cls


def unregister(key: str) -> None:
    """Forget a game (for tests that registered one of their own)."""
    _GAMES.pop(key, None)
    _LOOKUPS.pop(key, None)


def game_class(key: str) -> type[Game]:
    try:
        return _GAMES[key]
    except KeyError:
        raise KeyError(f"unknown game {key!r}: choose one of {', '.join(sorted(_GAMES))}") from None


def game_keys() -> list[str]:
    return sorted(_GAMES)


def register_lookup(key: str, package: str, path: tuple[str, ...]) -> None:
    """Say where game ``key`` keeps its rule-lookup entries: the file ``path`` inside ``package``."""
    _LOOKUPS[key] = (package, tuple(path))


def lookup_sources() -> dict[str, tuple[str, tuple[str, ...]]]:
    """Game key -> (package, path) of its lookup entries, in the order the games were registered."""
    return dict(_LOOKUPS)
