"""Computer drivers, found by game key and kind so front ends seat them without game-specific code.

``driver_for("piecepack", "smart", seed=3)`` gives a driver with ``choose(game, seat) -> str``. Kind
``"random"`` serves every game; the other kinds are those the game's unit lists (``GameUnit.drivers``,
see :mod:`bot.games`). A game without a driver of the asked kind raises :class:`KeyError`; front ends
may list what exists with :func:`driver_kinds`.
"""

from __future__ import annotations

import bot.games as games
from bot.drivers.base import Driver, RandomDriver, check_turn


def driver_kinds(game_key: str) -> list[str]:
    """The kinds of driver available for a game: always ``"random"``, plus the game's own."""
    return sorted({"random"} | set(games.unit_for(game_key).drivers))


def driver_for(game_key: str, kind: str = "random", seed: int = 0) -> Driver:
    """A new driver of ``kind`` ("random" or one the game lists) for the game ``game_key``."""
    factory = games.unit_for(game_key).drivers.get(kind)
    if factory is not None:
        return factory(seed)
    if kind == "random":
        return RandomDriver(seed)
    raise KeyError(f"no {kind!r} driver for {game_key!r}: choose one of {', '.join(driver_kinds(game_key))}")


__all__ = ["Driver", "RandomDriver", "check_turn", "driver_for", "driver_kinds"]
