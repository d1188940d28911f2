"""Why a driver chose its move, as data: the one-line reason an autopilot move is announced with.

A driver that explains itself (:class:`Explains`) answers ``explain(game, seat)`` with a :class:`Choice`: the
action it would play (the same one ``choose`` names) and a :class:`Reason`, a message id of the service's
catalogue (``bot/locale``, ids ``reason.<game>.<what>``) with its parameters. The reason is worded when its
message is composed, in the reader's language, never before: a parameter that is a game's own word (a part,
a colour, a range) is a :class:`Word`, which the game's unit says in that language.

Reasons are true of the position: a driver derives them from what it weighed for the move it chose. They are
read in a public channel, so they use only what every seat may know (a face-down tile is "a face-down tile",
never its kind), and each fits one line.

:func:`explain` asks any driver: one that does not explain itself gets a reason that is true of any driver
(the only legal move, or one of so many).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from bot.drivers.base import Driver
from bot.messages import Line
from rules.contract import Event, Game


@dataclass(frozen=True, slots=True)
class Word:
    """A word of a game's own catalogue (``part.mud-tyres``, ``colour.red``, ``word.yellow``), said by its unit."""

    msg: str


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a move was chosen: ``msg`` (a ``reason.*`` id of the service's catalogue) and its ``params``."""

    msg: str
    params: Mapping[str, int | str | Word] = field(default_factory=dict)

    def line(self) -> Line:
        """The reason as a line of a message's record (a :class:`Word` becomes a line the game words)."""
        return Line(say=self.msg, params={k: _param(v) for k, v in self.params.items()})


@dataclass(frozen=True, slots=True)
class Choice:
    """A driver's move (in the game's notation) and why it plays it."""

    action: str
    reason: Reason


@runtime_checkable
class Explains(Protocol):
    """A driver that says why: ``explain`` gives what ``choose`` would choose, with its reason."""

    def explain(self, game: Game, seat: int) -> Choice: ...


def because(msg: str, **params: int | str | Word) -> Reason:
    """A reason: ``because("reason.races.tile", count=1)``."""
    return Reason(msg, params)


def explain(driver: Driver, game: Game, seat: int) -> Choice:
    """``driver``'s move for ``seat`` with its reason: its own when it explains itself, else one true of any
    driver (the only legal move, or one of the legal moves, as many as there are)."""
    if isinstance(driver, Explains):
        return driver.explain(game, seat)
    count = len(game.legal_actions())
    action = driver.choose(game, seat)
    return Choice(action, only() if count == 1 else because("reason.picked", count=count))


def only() -> Reason:
    """The reason of a move that is the only one allowed."""
    return because("reason.only")


def _param(value: int | str | Word) -> int | str | Line:
    if isinstance(value, Word):
        return Line(events=(Event("said", "", None, {"msg": value.msg, "params": {}}),))
    return value


__all__ = ["Choice", "Explains", "Reason", "Word", "because", "explain", "only"]
