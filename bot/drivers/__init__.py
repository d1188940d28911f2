"""Computer drivers, found by game key and kind so front ends seat them without game-specific code.

``driver_for("piecepack", "smart", seed=3)`` gives a driver with ``choose(game, seat) -> str``. Kind
``"random"`` serves every game; other kinds are registered by the module ``bot.drivers.<game key>``,
imported on first use. A game without a driver of the asked kind raises :class:`KeyError`; front ends may
list what exists with :func:`driver_kinds`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from bot.drivers.base import Driver, RandomDriver, check_turn

DriverFactory = Callable[[int], Driver]

#: (game key, kind) → factory taking a seed
_FACTORIES: dict[tuple[str, str], DriverFactory] = {}
_imported: set[str] = set()


def register_driver(game_key: str, kind: str) -> Callable[[DriverFactory], DriverFactory]:
    """Decorator for a driver class (or factory) taking a ``seed``."""

    def deco(factory: DriverFactory) -> DriverFactory:
        _FACTORIES[(game_key, kind)] = factory
        return factory

    return deco


def _load(game_key: str) -> None:
    if game_key in _imported:
        return
    _imported.add(game_key)
    name = f"bot.drivers.{game_key}"
    try:
        importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise


def driver_kinds(game_key: str) -> list[str]:
    """The kinds of driver available for a game: always ``"random"``, plus the game's own."""
    _load(game_key)
    return sorted({"random"} | {kind for key, kind in _FACTORIES if key == game_key})


def driver_for(game_key: str, kind: str = "random", seed: int = 0) -> Driver:
    """A new driver of ``kind`` ("random" or "smart") for the game ``game_key``."""
    _load(game_key)
    factory = _FACTORIES.get((game_key, kind))
    if factory is not None:
        return factory(seed)
    if kind == "random":
        return RandomDriver(seed)
    raise KeyError(f"no {kind!r} driver for {game_key!r}: choose one of {', '.join(driver_kinds(game_key))}")


__all__ = ["Driver", "RandomDriver", "check_turn", "driver_for", "driver_kinds", "register_driver"]
