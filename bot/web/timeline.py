"""A game's replay for its page: the public view after every move and what each move told, rebuilt from the log.

The log is the record of truth: the game is created from its setup and seed and every stored action applied in
turn (as :func:`rules.contract.public_views` does), keeping of each step the public view only (``game.view(None)``)
and the move's public events (``events_for(events, None)``), never a seat's view or a hidden event. A step has a
fingerprint, a hash chain of the public views and narrations up to it (never of the actions, which may name a
hidden tile), so a picture of step 12 keeps its address until a move is taken back, and a page can tell that its
copy of the log still agrees with the server's.

A timeline grows with the log: a new move extends it from the game it ended with; a log that changed in the middle
(moves taken back) is replayed anew. Building runs off the event loop (a thread).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.store import ActionRecord, GameRecord
from rules.contract import Event, Game, events_for

#: the characters of a step's fingerprint
FINGERPRINT_CHARS = 12


@dataclass(frozen=True, slots=True)
class Step:
    """The game after one move (step 0: before the first): its public view, the move's public events, the
    narration the log kept for it, the seat that moved, and the step's fingerprint."""

    fingerprint: str
    view: dict[str, Any]
    events: tuple[Event, ...] = ()
    narration: str = ""
    seat: int | None = None


@dataclass(slots=True)
class Timeline:
    """Every step of a game's log so far, and the game at the last one (to extend it by the next move)."""

    game_id: int
    actions: list[str] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    game: Game | None = None

    @property
    def moves(self) -> int:
        """How many moves the log holds (the last step's number)."""
        return len(self.steps) - 1


def chained(previous: str, view: dict[str, Any], narration: str = "") -> str:
    """The fingerprint of a step showing ``view`` and telling ``narration``, after a step fingerprinted
    ``previous``: of public things only."""
    text = json.dumps([previous, view, narration], sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:FINGERPRINT_CHARS]


def build(make: Callable[[dict[str, Any], int], Game], rec: GameRecord, log: Sequence[ActionRecord],
          before: Timeline | None = None) -> Timeline:
    """The timeline of ``rec``'s game from its log (``make(setup, seed)`` creates the game), reusing ``before``
    when the log only grew since. Raises what the rules raise for a log that does not replay."""
    actions = [a.action for a in log]
    if before is not None and before.game is not None and before.actions == actions[: len(before.actions)]:
        game, steps, start = before.game, list(before.steps), len(before.actions)
    else:
        game = make(dict(rec.setup), rec.seed)
        first = game.view(None)
        steps, start = [Step(chained("", first), first)], 0
    for record in log[start:]:
        events = events_for(game.apply(record.action), None)
        view = game.view(None)
        steps.append(Step(chained(steps[-1].fingerprint, view, record.narration), view, tuple(events),
                          record.narration, record.seat))
    return Timeline(rec.id, actions, steps, game)


__all__ = ["FINGERPRINT_CHARS", "Step", "Timeline", "build", "chained"]
