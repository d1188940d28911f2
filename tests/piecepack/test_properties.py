"""Property test: random legal play from random seeds keeps every invariant of the game contract."""

from __future__ import annotations

import json
import string

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import IllegalAction, SetupError
from rules.piecepack import PiecepackGame
from rules.piecepack.board import CENTRE, CORNERS_BY_PLAYERS, SQUARES, SUIT_CODES, SUITS, TRASH_LETTERS

MAX_ACTIONS = 120

noise = st.one_of(
    st.text(alphabet=string.ascii_lowercase + string.digits + " -,", max_size=14),
    st.lists(st.sampled_from(SQUARES), min_size=1, max_size=6).map(lambda sq: "move " + "-".join(sq)),
    st.sampled_from(["roll", "pass", "move", "move c3", "r", ""]),
)


def check_invariants(g: PiecepackGame) -> None:
    n = len(g.seat_names)
    assert len(set(g.pawns)) == n, "two pawns share a square"
    pieces = [p for stack in g.trash for p in stack]
    assert len(pieces) == len(set(pieces)) == 3 * n, "trash pieces lost or doubled"
    if g.carrier is not None:
        assert not g.trash[g.carrier], "the carrier has trash"
    for seat, sq in enumerate(g.pawns):
        assert sq != CENTRE or g.carrier == seat
        owner = g.corner_owner(sq)
        assert owner is None or owner == seat, "a pawn stands on another's corner"
    if g.is_over:
        assert g.to_act is None and g.legal_actions() == [] and len(g.winners) == 1
    else:
        assert g.to_act is not None and g.legal_actions(), "the player to act has no legal action"
    data = g.to_dict()
    again = PiecepackGame.from_dict(json.loads(json.dumps(data)))
    assert again == g and again.to_dict() == data


def play(game: PiecepackGame, shadow: PiecepackGame, data: st.DataObject) -> list[str]:
    """Random play (legal actions, now and then noise) checking the invariants after every action."""
    log: list[str] = []
    check_invariants(game)
    for _ in range(MAX_ACTIONS):
        if game.is_over:
            break
        kind = data.draw(st.integers(0, 5), label="kind")
        if kind == 0:
            text = data.draw(noise, label="noise")
            before = json.dumps(game.to_dict(), sort_keys=True)
            try:
                game.apply(text)
            except IllegalAction:
                assert json.dumps(game.to_dict(), sort_keys=True) == before
                continue
        else:
            # Half the time pick uniformly among outcomes (destinations), half among all full paths.
            actions = list(game.destinations().values()) if kind % 2 and game.phase == "move" \
                else game.legal_actions()
            text = str(actions[data.draw(st.integers(0, len(actions) - 1), label="choice")])
            game.apply(text)
        log.append(text)
        shadow.apply(text)
        check_invariants(game)
        assert shadow.to_dict() == game.to_dict()
    return log


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4), data=st.data())
def test_random_play_keeps_every_invariant(seed, players, data):
    setup = {"seats": [{"name": f"Player {i + 1}"} for i in range(players)], "options": {}}
    game = PiecepackGame.create(setup, seed)
    log = play(game, PiecepackGame.create(setup, seed), data)
    assert PiecepackGame.create(setup, seed).replay(log) == game


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), data=st.data())
def test_random_positions_keep_every_invariant(players, data):
    """Start from mid-game situations (clean pawns, a carrier, the good stuff in play) so steals,
    returns and wins come up often."""
    suits = SUITS[:players]
    corners = CORNERS_BY_PLAYERS[players]
    squares = data.draw(st.permutations([s for s in SQUARES if s not in corners]), label="squares")
    pawns = {}
    for seat, suit in enumerate(suits):
        pawns[suit] = corners[seat] if data.draw(st.integers(0, 3)) == 0 else squares[seat]
    holders = data.draw(st.lists(st.sampled_from(suits), min_size=1, max_size=players, unique=True), label="dirty")
    trash = {suit: [] for suit in suits}
    for seat in range(players):
        for letter in TRASH_LETTERS:
            trash[data.draw(st.sampled_from(holders))].append(SUIT_CODES[seat] + letter)
    clean = [s for s in suits if not trash[s]]
    good = data.draw(st.sampled_from(["centre", *clean]), label="good")
    if good != "centre" and data.draw(st.booleans(), label="carrier in centre"):
        pawns[good] = CENTRE
    position = {"players": players, "pawns": pawns, "trash": trash, "good": good,
                "to_act": data.draw(st.sampled_from(suits)), "seed": data.draw(st.integers(0, 2**32 - 1))}
    try:
        game = PiecepackGame.from_position(position)
    except SetupError:
        return  # e.g. the carrier drawn onto its own corner
    shadow = PiecepackGame.from_dict(game.to_dict())
    play(game, shadow, data)
