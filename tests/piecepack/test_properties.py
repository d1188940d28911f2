"""Property test: random legal play from random seeds keeps every invariant of the game
(``rules.piecepack.invariants``: the contract, the pawns, the trash)."""

from __future__ import annotations

import string

from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from rules import SetupError
from rules.invariants import refusal_problems
from rules.piecepack import PiecepackGame
from rules.piecepack.board import CENTRE, CORNERS_BY_PLAYERS, SQUARES, SUIT_CODES, SUITS, TRASH_LETTERS
from rules.piecepack.invariants import problems
from tests.piecepack.conftest import pos

MAX_ACTIONS = 120

noise = st.one_of(
    st.text(alphabet=string.ascii_lowercase + string.digits + " -,", max_size=14),
    st.lists(st.sampled_from(SQUARES), min_size=1, max_size=6).map(lambda sq: "move " + "-".join(sq)),
    st.sampled_from(["roll", "pass", "move", "move c3", "r", ""]),
)


def play(game: PiecepackGame, shadow: PiecepackGame, data: st.DataObject) -> list[str]:
    """Random play (legal actions, now and then noise) checking the invariants after every action."""
    log: list[str] = []
    assert problems(game) == []
    for _ in range(MAX_ACTIONS):
        if game.is_over:
            break
        kind = data.draw(st.integers(0, 5), label="kind")
        if kind == 0:
            text = data.draw(noise, label="noise")
            accepted, faults = refusal_problems(game, text)
            assert faults == []
            if not accepted:
                continue
        else:
            # Half the time pick uniformly among outcomes (destinations), half among all full paths.
            actions = list(game.destinations().values()) if kind % 2 and game.phase == "move" \
                else game.legal_actions()
            text = str(actions[data.draw(st.integers(0, len(actions) - 1), label="choice")])
            game.apply(text)
        log.append(text)
        shadow.apply(text)
        assert problems(game) == []
        assert shadow.to_dict() == game.to_dict()
    return log


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4), data=st.data())
def test_random_play_keeps_every_invariant(seed: int, players: int, data: st.DataObject) -> None:
    setup = {"seats": [{"name": f"Player {i + 1}"} for i in range(players)], "options": {}}
    game = PiecepackGame.create(setup, seed)
    log = play(game, PiecepackGame.create(setup, seed), data)
    assert PiecepackGame.create(setup, seed).replay(log) == game


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), data=st.data())
def test_random_positions_keep_every_invariant(players: int, data: st.DataObject) -> None:
    """Start from mid-game situations (clean pawns, a carrier, the good stuff in play) so steals,
    returns and wins come up often."""
    suits = SUITS[:players]
    corners = CORNERS_BY_PLAYERS[players]
    squares = data.draw(st.permutations([s for s in SQUARES if s not in corners]), label="squares")
    pawns: dict[str, str] = {}
    for seat, suit in enumerate(suits):
        pawns[suit] = corners[seat] if data.draw(st.integers(0, 3)) == 0 else squares[seat]
    holders = data.draw(st.lists(st.sampled_from(suits), min_size=1, max_size=players, unique=True), label="dirty")
    trash: dict[str, list[str]] = {suit: [] for suit in suits}
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
        reject()  # not a position (e.g. the carrier drawn onto its own corner): hypothesis draws another
    shadow = PiecepackGame.from_dict(game.to_dict())
    play(game, shadow, data)


def test_the_checker_sees_shared_squares_lost_trash_and_a_carrier_with_trash() -> None:
    """Each invariant the checker states can fail: two pawns on one square, a trash piece gone from the
    box, the carrier of the good stuff holding trash (§4.C), a pawn on another's corner (P4)."""
    assert problems(pos()) == []
    g = pos()
    g.pawns[1] = g.pawns[0]
    assert any("share" in p for p in problems(g))
    g = pos()
    next(stack for stack in g.trash if stack).pop()
    assert any("lost or doubled" in p for p in problems(g))
    g = pos()
    g.carrier = next(seat for seat, stack in enumerate(g.trash) if stack)
    assert any("carries the good stuff and trash" in p for p in problems(g))
    g = pos()
    g.pawns[0] = g.corners[1]
    assert any("start corner" in p for p in problems(g))
