"""Legality has one source: what ``apply`` accepts is exactly what ``legal_actions`` lists (ARCHITECTURE.md, the
game contract), checked both ways on random reachable positions of Junkyard (piecepack).

Positions come from seeded random games of 2 to 4 players sampled after every action, and from random
situations in the position format (pawns anywhere they may stand, trash shared out at random, the good
stuff in the centre or carried, either phase) played on by a few random legal actions.

Both phases are *finite*: the roll phase lists ``roll``; the move phase lists every legal path of
exactly the rolled number of steps (P3), which is a finite list, so moves are compared path by path.

The candidates: ``roll`` and ``r``; every walk of the rolled length from the pawn's square over
orthogonal and diagonal steps that never enters a square twice; walks one step shorter and longer,
walks that come back to a square, paths that start on another square (a sample of each); and a
destination (``move c2`` and a bare ``c2``) for every square, which counts as the path it stands for.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache

from rules.contract import IllegalAction, NotationError, SetupError
from rules.piecepack import PiecepackGame
from rules.piecepack.actions import Move
from rules.piecepack.board import CORNERS_BY_PLAYERS, KING_NEIGHBOURS, SQUARES, SUIT_CODES, SUITS, TRASH_LETTERS
from tests.legality import listed_but_refused
from tests.piecepack.conftest import pos

GAMES = 2  # seeded random games, every position sampled
SITUATIONS = 60


def _copy(g: PiecepackGame) -> PiecepackGame:
    return PiecepackGame.from_dict(g.to_dict())


def _games() -> Iterator[PiecepackGame]:
    for seed in range(GAMES):
        rng = random.Random(seed)
        players = 2 + seed % 3
        g = PiecepackGame.create({"seats": [{"name": f"P{i}"} for i in range(players)], "options": {}}, seed)
        for _ in range(60):
            if g.is_over:
                break
            yield _copy(g)
            g.apply(rng.choice(g.legal_actions()))


def _situation(rng: random.Random) -> PiecepackGame:
    players = rng.randint(2, 4)
    suits = SUITS[:players]
    corners = CORNERS_BY_PLAYERS[players]
    squares = rng.sample(SQUARES, players)
    pawns = {s: sq for s, sq in zip(suits, squares, strict=True)}
    pieces = [SUIT_CODES[i] + x for i in range(players) for x in TRASH_LETTERS]
    rng.shuffle(pieces)
    trash: dict[str, list[str]] = {s: [] for s in suits}
    takers = suits[1:] if rng.random() < 0.5 else suits  # often someone is clean (P5, P6)
    for piece in pieces:
        trash[rng.choice(takers)].append(piece)
    clean = [s for s in suits if not trash[s] and pawns[s] not in corners]
    good = rng.choice(clean) if clean and rng.random() < 0.5 else "centre"
    phase = rng.choice(["roll", "move"])
    extra = {"roll": rng.randint(1, 5)} if phase == "move" else {"load": [rng.randint(0, 5)]}
    return pos(players=players, pawns=pawns, trash=trash, good=good, to_act=rng.choice(suits), phase=phase,
               seed=rng.randint(0, 999), **extra)


def _situations() -> Iterator[PiecepackGame]:
    rng = random.Random(3)
    made = 0
    while made < SITUATIONS:
        try:
            g = _situation(rng)
        except SetupError:
            continue  # a pawn on another's corner, the carrier in the centre, no move of that length …
        made += 1
        for _ in range(rng.randint(0, 2)):
            if g.is_over:
                break
            g.apply(rng.choice(g.legal_actions()))
        if not g.is_over:
            yield g


@cache
def positions() -> tuple[PiecepackGame, ...]:
    return (*_games(), *_situations())


def _walks(start: str, steps: int, revisit: bool = False) -> list[tuple[str, ...]]:
    """Every walk of ``steps`` orthogonal or diagonal steps from ``start`` (entering no square twice
    unless ``revisit``)."""
    out: list[tuple[str, ...]] = []

    def extend(path: tuple[str, ...]) -> None:
        if len(path) == steps + 1:
            out.append(path)
            return
        for nxt in KING_NEIGHBOURS[path[-1]]:
            if revisit or nxt not in path:
                extend((*path, nxt))

    extend((start,))
    return out


def candidates(g: PiecepackGame, rng: random.Random) -> list[str]:
    out = ["roll", "r", *(f"move {sq}" for sq in SQUARES), *SQUARES]
    seat = g.to_act
    if seat is None:
        return out
    here, steps = g.pawns[seat], g.roll or 0
    paths = _walks(here, steps) if steps else []
    for n in (steps - 1, steps + 1):
        if n >= 1:
            paths += rng.sample(_walks(here, n), min(40, len(_walks(here, n))))
    if steps >= 2:
        back = [p for p in _walks(here, steps, revisit=True) if len(set(p)) < len(p)]
        paths += rng.sample(back, min(40, len(back)))
        other = rng.choice([sq for sq in SQUARES if sq != here])
        paths += rng.sample(_walks(other, steps), min(20, len(_walks(other, steps))))
    return out + ["move " + "-".join(p) for p in paths]


def test_every_listed_action_is_accepted():
    """Listed ⇒ accepted: every listed roll and path, in every position, is taken by ``apply``."""
    assert listed_but_refused(positions(), lambda g: g.phase) == []


def test_every_accepted_action_is_listed():
    """Accepted ⇒ listed: every candidate ``apply`` takes is a listed action (a destination as its path)."""
    rng = random.Random(7)
    found = []
    checked = 0
    for g in positions():
        listed = set(g.legal_actions())
        trial = _copy(g)
        for text in candidates(g, rng):
            try:
                action = g.parse_action(text)
            except NotationError:
                continue  # not notation at all
            except IllegalAction:
                continue  # a destination no legal path reaches: refused while parsing
            checked += 1
            if action in listed:
                continue  # accepted: see the test above
            try:
                trial.apply(action)
            except IllegalAction:
                continue
            found.append(f"{g.phase} (roll {g.roll}): {text!r} is accepted but not listed")
            trial = _copy(g)
    assert found == []
    assert checked > 10_000


def test_the_positions_cover_both_phases_and_carrying():
    """The positions hold rolls and moves of every length, with and without the good stuff carried (P6)."""
    moves = [g for g in positions() if g.phase == "move"]
    assert sum(g.phase == "roll" for g in positions()) >= 50
    assert {g.roll for g in moves} == {1, 2, 3, 4, 5}
    assert any(g.carrier == g.to_act for g in moves)
    assert any(isinstance(a, Move) and a.destination == "c3" for g in moves for a in g.legal_actions())
