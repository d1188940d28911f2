"""Decisions a person has to press per turn of theirs, with forced moves playing themselves and without.

How it is counted: three smart drivers play whole games of each game (seeds 1–``GAMES``), each seat standing
in for a person. A *turn* of a seat is a run of consecutive actions by it (the seat to act stays the same);
every action of the run is a decision with forced moves off. With them on (``/game auto``, the default), an
action is a decision unless the game's unit names it forced at that point (``unit.selfplay.forced_move``:
the one legal action, telling nothing new or falling the same whoever presses), which then plays itself. A
turn whose actions were all forced counts as a turn with no decision. Figures: the mean decisions per turn,
``decisions_per_turn_<game>_auto_on`` / ``_auto_off``, over every turn of every seat.
"""

from __future__ import annotations

from bench.registry import Figures, benchmark
from bot.drivers import driver_for
from bot.games import game_class, unit_for

#: games played of each game
GAMES = 6
#: actions after which a game is left (a safety stop; smart games end far sooner)
LIMIT = 3000
SEATS = 3


def count(key: str, seed: int) -> tuple[int, int, int]:
    """One game of ``key``: (turns, actions, actions that were not forced)."""
    game = game_class(key).create({"seats": [{"name": f"P{i}"} for i in range(SEATS)]}, seed)
    drivers = [driver_for(key, "smart", seed * 16 + i) for i in range(SEATS)]
    selfplay = unit_for(key).selfplay
    turns = actions = decided = 0
    last: int | None = None
    for _ in range(LIMIT):
        if game.is_over:
            break
        seat = game.to_act
        assert seat is not None
        if seat != last:
            turns, last = turns + 1, seat
        actions += 1
        decided += selfplay.forced_move(game, seat) is None
        game.apply(drivers[seat].choose(game, seat))
    return turns, actions, decided


@benchmark("decisions")
def decisions() -> Figures:
    out: Figures = {}
    for key in ("races", "rally", "piecepack"):
        turns = actions = decided = 0
        for seed in range(1, GAMES + 1):
            t, a, d = count(key, seed)
            turns, actions, decided = turns + t, actions + a, decided + d
        out[f"decisions_per_turn_{key}_auto_off"] = round(actions / turns, 2)
        out[f"decisions_per_turn_{key}_auto_on"] = round(decided / turns, 2)
    return out
