"""One apply discipline for every game (the game contract, rules/contract.py ``Game.apply``): a refused
action leaves the state exactly as it was. Checked on random reachable positions of every registered game
(the toy included) with random refused actions: notation of other moments of the game, legal notation
bent (numbers changed, words added or cut), and plain noise."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.games import game_class, playable_keys
from rules.contract import Game, IllegalAction

NOISE = ("", " ", "fly", "move", "roll 9", "step", "buy", "park", "done done", "-1", "é", "🚗", "move z9",
         "x" * 300, "\n", "roll roll")


def reachable(key: str, seed: int, steps: int, players: int) -> tuple[Game, list[str]]:
    """A game of ``key`` after up to ``steps`` random legal actions, and the notation seen on the way."""
    cls = game_class(key)
    count = max(cls.min_seats, min(cls.max_seats, players))
    game = cls.create({"seats": [{"name": f"P{i + 1}"} for i in range(count)], "options": {}}, seed)
    rng = random.Random(seed)
    seen: list[str] = []
    for _ in range(steps):
        if game.is_over:
            break
        actions = [str(a) for a in game.legal_actions()]
        seen += actions[:20]
        game.apply(rng.choice(actions))
    return game, seen


def bent(text: str, rng: random.Random) -> str:
    """Legal notation changed a little: a number moved, a word dropped, doubled or replaced."""
    words = text.split()
    if not words:
        return "?"
    i = rng.randrange(len(words))
    way = rng.randrange(4)
    if way == 0 and any(ch.isdigit() for ch in words[i]):
        words[i] = "".join(str((int(ch) + rng.randint(1, 9)) % 10) if ch.isdigit() else ch for ch in words[i])
    elif way == 1 and len(words) > 1:
        del words[i]
    elif way == 2:
        words.insert(i, words[i])
    else:
        words[i] = rng.choice(NOISE) or "?"
    return " ".join(words)


@pytest.mark.parametrize("key", playable_keys())
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 120), players=st.integers(2, 8),
       picks=st.lists(st.integers(0, 10**6), min_size=8, max_size=8))
def test_a_refused_action_leaves_the_game_as_it_was(key: str, seed: int, steps: int, players: int,
                                                     picks: list[int]) -> None:
    game, seen = reachable(key, seed, steps, players)
    legal = {str(a) for a in game.legal_actions()}
    rng = random.Random(picks[0])
    candidates = [*(rng.choice(seen) for _ in range(3) if seen), *(bent(rng.choice(sorted(legal)), rng)
                  for _ in range(3) if legal), rng.choice(NOISE), NOISE[picks[1] % len(NOISE)], "fly"]
    before = game.to_dict()
    refused = 0
    for text in candidates:
        if text in legal:
            continue
        try:
            game.apply(text)
        except IllegalAction:
            refused += 1
            assert game.to_dict() == before, f"{key}: refusing {text!r} changed the state"
        else:  # another spelling of a legal action: accepted, so start again from a fresh copy of before
            game = type(game).from_dict(before)
    assert refused >= 1  # "fly" is no game's notation


def test_a_game_cannot_override_apply() -> None:
    """``apply`` is final: a game plays its moves in ``_apply`` and the contract keeps refused ⇒ unchanged."""
    assert all("apply" not in vars(game_class(key)) for key in playable_keys())


def test_an_error_half_way_through_a_move_leaves_the_state_untouched() -> None:
    """A move that fails after changing part of the working copy (here: an error raised by the game's own
    ``_apply`` after it moved a piece) leaves the game itself as it was."""
    from tests.bot.toygame import ToyGame

    game = ToyGame.create({"seats": [{"name": "A"}, {"name": "B"}], "options": {}}, 1)
    game.apply("roll")
    before = game.to_dict()

    class Broken(ToyGame):
        def _apply(self, action):  # type: ignore[no-untyped-def]
            self.pos[self.turn] += 3
            raise IllegalAction("the track gave way")

    broken = Broken.from_dict(before)
    with pytest.raises(IllegalAction, match="gave way"):
        broken.apply("move 1")
    assert broken.to_dict() == before


@pytest.mark.parametrize("key", playable_keys())
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 150), players=st.integers(2, 8))
def test_the_only_action_is_the_one_legal_action(key: str, seed: int, steps: int, players: int) -> None:
    """``Game.only_action`` (asked after every move, to play a forced move) answers as the list of legal
    actions does, at every position of a random game, however a game shortens the question."""
    cls = game_class(key)
    count = max(cls.min_seats, min(cls.max_seats, players))
    game = cls.create({"seats": [{"name": f"P{i + 1}"} for i in range(count)], "options": {}}, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        legal = list(game.legal_actions())
        only = game.only_action()
        assert only == (legal[0] if len(legal) == 1 else None), f"{key} at ply {_}: {only!r} against {legal!r}"
        if game.is_over:
            break
        game.apply(rng.choice(legal))
