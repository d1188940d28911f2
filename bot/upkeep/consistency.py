"""A stored game checked against its log: the snapshot must equal the game rebuilt from setup, seed and the
actions alone. Used by ``junkyard db check``/``copy`` and by the tests; it sits above the store because
rebuilding needs the game classes, which the store does not know."""

from __future__ import annotations

from collections.abc import Callable

from bot.games import game_class
from bot.store import LOBBY, GamesStore, InconsistentSnapshot, StoreError
from rules.contract import Game


async def rebuilt(games: GamesStore, game_id: int, classes: Callable[[str], type[Game]] = game_class) -> Game:
    """The game rebuilt from its setup, seed and action log alone."""
    rec = await games.get_game(game_id)
    if rec.status == LOBBY:
        raise StoreError(f"game {game_id} has not started")
    game = classes(rec.game_key).create(rec.setup, rec.seed)
    for a in await games.actions(game_id):
        game.apply(a.action)
    return game


async def check_consistency(games: GamesStore, game_id: int,
                            classes: Callable[[str], type[Game]] = game_class) -> None:
    """Raise :class:`InconsistentSnapshot` unless the game's snapshot equals a replay of its log."""
    rec = await games.get_game(game_id)
    if rec.status == LOBBY and rec.state is None:
        return
    replayed = await rebuilt(games, game_id, classes)
    n = len(await games.actions(game_id))
    if n != rec.version:
        raise InconsistentSnapshot(f"game {game_id}: version {rec.version} but {n} logged actions")
    if replayed.to_dict() != rec.state:
        raise InconsistentSnapshot(f"game {game_id}: snapshot differs from a replay of its {n} actions")
