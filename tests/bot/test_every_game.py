"""Every registered game plays through the service and the store with no game-specific code: a lobby of
the fewest players, a start, random legal actions by whoever is to act, and a snapshot that equals a
replay of the log."""

from __future__ import annotations

import random

import pytest

from bot.games import game_class, playable_keys, unit_for
from bot.games.unit import REACH_ACTION
from bot.play.service import Service
from bot.upkeep.consistency import check_consistency
from rules.contract import Game, IllegalAction
from tests.bot.speaking import Speaking

REAL_GAMES = [k for k in playable_keys() if k != "toy"]


def legal_on_a_copy(game: Game, text: str) -> bool:
    """Whether ``game`` accepts ``text`` now (tried on a copy, so ``game`` itself never changes)."""
    try:
        type(game).from_dict(game.to_dict()).apply(text)
    except IllegalAction:
        return False
    return True


@pytest.mark.parametrize("key", REAL_GAMES)
async def test_game_plays_through_the_service(key, store):
    service = Speaking(Service(store, seed_source=lambda: 20261129))
    cls = game_class(key)
    r = await service.new_game(guild_id=1, channel_id=10, user_id=1, user_name="Player 1", game_key=key)
    assert r.ok, r.text
    for user in range(2, cls.min_seats + 1):
        assert (await service.join(10, user, f"Player {user}")).ok
    r = await service.start(10, 1)
    assert r.ok and r.changed, r.text
    rng = random.Random(key)
    for _ in range(40):
        rec, game, _ = await service.current(10)
        if game is None or game.is_over:
            break
        actions = [str(a) for a in game.legal_actions()]
        assert actions, "the player to act must always have a legal action"
        for spec in r.buttons:  # a button plays a legal action (a short form of one is accepted too)
            if spec.action == REACH_ACTION:  # asks where one can go: plays nothing
                continue
            assert spec.action in actions or legal_on_a_copy(game, spec.action), spec
        user = rec.seats[game.to_act].user_id
        r = await service.act(10, user, rng.choice(actions))
        assert r.ok, r.text
    rec = (await store.games.channel_history(10))[0]
    assert rec.version > 0
    await check_consistency(store.games, rec.id)


@pytest.mark.parametrize("key", REAL_GAMES)
def test_every_game_has_a_front(key):
    front = unit_for(key)
    assert front.key == key and front.title
