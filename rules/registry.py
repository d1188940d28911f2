"""Games register themselves here; the service, store and front ends look them up by key."""

from __future__ import annotations

import importlib

from rules.contract import Game

#: Modules whose import registers a game. A new game adds its package here and nothing else.
GAME_MODULES: tuple[str, ...] = ("rules.races", "rules.piecepack")

_GAMES: dict[str, type[Game]] = {}
_loaded = False


def register(cls: type[Game]) -> type[Game]:
    """Class decorator: make a game known under its ``key``."""
    _GAMES[cls.key] = cls
    return cls


def import_present(modules: tuple[str, ...]) -> None:
    """Import each module that exists; a module that is missing itself is skipped, any other error raised."""
    for name in modules:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise


def _load() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    import_present(GAME_MODULES)


def game_class(key: str) -> type[Game]:
    _load()
    try:
        return _GAMES[key]
    except KeyError:
        raise KeyError(f"unknown game {key!r}: choose one of {', '.join(sorted(_GAMES))}") from None


def game_keys() -> list[str]:
    _load()
    return sorted(_GAMES)
