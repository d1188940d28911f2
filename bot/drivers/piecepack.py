"""A greedy driver for Junkyard (piecepack) that plays to win.

It looks one move ahead: for every reachable square (all paths to a square end the same way) it plays
the move on a copy and scores the result for its own seat against the best-placed opponent. The score
rewards, in order: winning; carrying the good stuff where a roll can take it home; being clean (free to
go for the centre or to steal); having little trash. It punishes standing where opponents can land by
exact count next turn (a hit costs trash and the walk back home, and a carrier loses the good stuff).
Ties go to the driver's own seeded dice.
"""

from __future__ import annotations

from bot.drivers.base import DRIVER_STREAM, check_turn
from bot.drivers.reasons import Choice, Reason, because, only
from rules.contract import Game
from rules.dice import Dice
from rules.piecepack.board import CENTRE, king_distance, manhattan
from rules.piecepack.game import PiecepackGame

WIN = 1_000_000.0
TRASH = 12.0  # one piece of trash
CLEAN = 20.0  # having none
CARRY = 60.0  # holding the good stuff
HOME_CHANCE = 120.0  # a sure chance for the carrier to get home next turn
HOME_STEP = 2.0  # each king step the carrier still has to go
CHANCE = 10.0  # a sure chance to take or steal the good stuff next turn
HIT_COST = 14.0  # being landed on (trash, the walk home)
CARRIER_HIT_COST = 45.0  # losing the good stuff on top of that


def reach_chance(a: str, b: str) -> float:
    """The chance that one roll lets an orthogonal walker get from ``a`` to ``b`` by exact count.

    An orthogonal walk of ``f`` steps ends ``d`` squares (Manhattan) away only if ``f >= d`` and ``f - d``
    is even; faces are Null, Ace, 2–5. Walls (the centre, corners) are ignored: a cheap estimate.
    """
    d = manhattan(a, b)
    if d == 0:
        return 0.0
    return sum(1 for f in range(1, 6) if f >= d and (f - d) % 2 == 0) / 6.0


def home_chance(a: str, corner: str) -> float:
    """The chance that one roll takes the carrier from ``a`` home: with diagonal steps any roll of at
    least the king distance can usually be walked out exactly (pawns in the way are ignored)."""
    d = king_distance(a, corner)
    return sum(1 for f in range(1, 6) if f >= d) / 6.0


def threat(game: PiecepackGame, seat: int) -> tuple[float, float]:
    """Chances that some opponent can land on ``seat`` next round: (by a pawn with trash, by a clean one)."""
    square = game.pawns[seat]
    if square == game.corners[seat]:
        return 0.0, 0.0  # nobody may stop on another's corner
    safe_dirty = safe_clean = 1.0
    for other, there in enumerate(game.pawns):
        if other == seat or game.carrier == other:
            continue  # the carrier never lands on pawns
        if square == CENTRE and game.trash[other]:
            continue  # a pawn with trash never enters the centre
        p = reach_chance(there, square)
        if game.trash[other]:
            safe_dirty *= 1 - p
        else:
            safe_clean *= 1 - p
    return 1 - safe_dirty, 1 - safe_clean


def value(game: PiecepackGame, seat: int) -> float:
    """How well ``seat`` stands (larger is better)."""
    if game.winner is not None:
        return WIN if game.winner == seat else -WIN
    square = game.pawns[seat]
    v = -TRASH * len(game.trash[seat])
    dirty_hit, clean_hit = threat(game, seat)
    if game.carrier == seat:
        corner = game.corners[seat]
        v += CARRY + HOME_CHANCE * home_chance(square, corner) - HOME_STEP * king_distance(square, corner)
        # A hit by a pawn with trash returns the good stuff; a clean one steals it.
        v -= (dirty_hit + clean_hit) * (CARRIER_HIT_COST + HIT_COST)
        return v
    if not game.trash[seat]:
        v += CLEAN
        target = CENTRE if game.carrier is None else game.pawns[game.carrier]
        v += CHANCE * reach_chance(square, target)
    else:
        # A pawn with trash wants targets in reach to hand it on.
        others = [game.pawns[o] for o in range(len(game.pawns)) if o != seat and o != game.carrier]
        if others:
            v += 0.3 * TRASH * max(reach_chance(square, o) for o in others)
    v -= dirty_hit * (HIT_COST + TRASH) + clean_hit * HIT_COST
    return v


def score(game: PiecepackGame, seat: int) -> float:
    """``seat``'s standing against its strongest opponent."""
    mine = value(game, seat)
    if abs(mine) >= WIN:
        return mine
    best_other = max(value(game, o) for o in range(len(game.pawns)) if o != seat)
    return mine - best_other


class GreedyDriver:
    """Plays the move whose outcome scores best for its own seat (one move of look-ahead)."""

    kind = "smart"

    def __init__(self, seed: int = 0) -> None:
        self.dice = Dice.seeded(seed, stream=DRIVER_STREAM + 1)

    def choose(self, game: Game, seat: int) -> str:
        check_turn(game, seat)
        if not isinstance(game, PiecepackGame):
            raise TypeError(f"the piecepack driver cannot play {type(game).__name__}")
        moves = game.destinations()
        if not moves:  # the roll half of the turn
            return str(game.legal_actions()[0])
        state = game.to_dict()
        best: list[str] = []
        best_score = float("-inf")
        for move in moves.values():
            trial = PiecepackGame.from_dict(state)
            trial.apply(move)
            s = score(trial, seat)
            if s > best_score + 1e-9:
                best, best_score = [str(move)], s
            elif abs(s - best_score) <= 1e-9:
                best.append(str(move))
        return best[self.dice.below(len(best))]

    def explain(self, game: Game, seat: int) -> Choice:
        """:meth:`choose`'s move and why: what the square it chose gives, as :func:`score` weighs it."""
        action = self.choose(game, seat)
        assert isinstance(game, PiecepackGame)
        moves = game.destinations()
        if len(game.legal_actions()) == 1 or not moves:
            return Choice(action, only())
        trial = PiecepackGame.from_dict(game.to_dict())
        trial.apply(action)
        return Choice(action, move_reason(game, trial, seat, len(moves)))


def move_reason(before: PiecepackGame, after: PiecepackGame, seat: int, squares: int) -> Reason:
    """Why a move scored best: the win; the good stuff taken, stolen or carried (with the chance one roll
    takes it home); trash handed on; a square nobody can land on by exact count; else the best of so many."""
    if after.winner == seat:
        return because("reason.piecepack.win")
    if after.carrier == seat and before.carrier != seat:
        return because("reason.piecepack.take" if before.carrier is None else "reason.piecepack.steal")
    if after.carrier == seat:
        square, corner = after.pawns[seat], after.corners[seat]
        return because("reason.piecepack.carry", chance=round(100 * home_chance(square, corner)),
                       count=king_distance(square, corner))
    if len(after.trash[seat]) < len(before.trash[seat]):
        return because("reason.piecepack.hand_on")
    if any(after.pawns[o] != before.pawns[o] for o in range(len(before.pawns)) if o != seat):
        return because("reason.piecepack.land")
    if threat(after, seat) == (0.0, 0.0):
        return because("reason.piecepack.safe")
    return because("reason.piecepack.best", count=squares)
