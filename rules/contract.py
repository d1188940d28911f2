"""The game contract every game offers, so one service, store, driver and fuzzer serve them all.

A game is created from a setup and a seed, takes actions in its own text notation, says which actions
are legal, reports what happened as events, serialises to plain JSON and hides secrets in its views.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, Self, final


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message tells the player what is wrong and what is
    possible. The game is unchanged when this is raised.

    ``msg`` and ``params``, when given, name the text in the game's catalogue (see
    :mod:`rules.catalogue`) and its parameters, so a front end can say it again in another language;
    ``str(exc)`` is the English text.
    """

    def __init__(self, *args: object, msg: str | None = None, params: dict[str, Any] | None = None) -> None:
        super().__init__(*args)
        self.msg = msg
        self.params: dict[str, Any] = dict(params or {})


class Reason(str):
    """A reason the rules give as English text (why a move can't be taken back) that carries its catalogue
    id and parameters like an :class:`IllegalAction`, so a front end can say it in a player's language."""

    msg: str
    params: dict[str, Any]

    def __new__(cls, text: str, msg: str, params: dict[str, Any] | None = None) -> Reason:
        self = super().__new__(cls, text)
        self.msg = msg
        self.params = dict(params or {})
        return self

    def __reduce__(self) -> tuple[Any, ...]:  # pickled (for a worker process) with its id and parameters
        return (Reason, (str(self), self.msg, self.params))


class NotationError(IllegalAction):
    """Text that does not parse as an action; the message says what was expected."""


class SetupError(ValueError):
    """A setup (seats, options, track) that cannot start a game."""


class Action(Protocol):
    """An action knows its notation: ``str(action)`` parses back to an equal action."""

    def __str__(self) -> str: ...


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, in order.

    ``text`` is public narration. ``secret`` is extra narration only ``seat`` may read (the tile a
    player picked up); views for anyone else drop it. ``data`` carries machine-readable details for
    pictures and logs (cells as labels, dice as ints) and must itself hold nothing secret unless the
    event is ``private``, in which case only ``seat`` ever sees the event at all. A game whose texts come
    from a catalogue puts the public narration's message id and parameters in ``data["msg"]`` and
    ``data["params"]``, and the secret narration's in ``secret_data`` (``{"msg": ..., "params": ...}``),
    which views for anyone but ``seat`` drop exactly like ``secret``.
    """

    kind: str
    text: str
    seat: int | None = None
    data: dict[str, Any] = field(default_factory=dict)
    secret: str | None = None
    private: bool = False
    secret_data: dict[str, Any] | None = None

    def for_viewer(self, viewer: int | None) -> Event | None:
        """This event as ``viewer`` (a seat, or None for the public) may see it."""
        if viewer is not None and viewer == self.seat:
            return self
        if self.private:
            return None
        if self.secret is None and self.secret_data is None:
            return self
        return Event(self.kind, self.text, self.seat, self.data, None, False, None)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "text": self.text}
        if self.seat is not None:
            out["seat"] = self.seat
        if self.data:
            out["data"] = self.data
        if self.secret is not None:
            out["secret"] = self.secret
        if self.private:
            out["private"] = True
        if self.secret_data is not None:
            out["secret_data"] = self.secret_data
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Event:
        secret_data = d.get("secret_data")
        return cls(d["kind"], d["text"], d.get("seat"), dict(d.get("data", {})), d.get("secret"),
                   bool(d.get("private", False)), dict(secret_data) if secret_data is not None else None)


def events_for(events: Sequence[Event], viewer: int | None) -> list[Event]:
    """The events ``viewer`` may see, secrets of others removed."""
    out = []
    for e in events:
        seen = e.for_viewer(viewer)
        if seen is not None:
            out.append(seen)
    return out


def tells_secret(events: Sequence[Event]) -> bool:
    """Whether some of ``events`` told a seat something the others may not know (a tile drawn)."""
    return any(e.private or e.secret is not None or e.secret_data is not None for e in events)


class Game(ABC):
    """Base class of every game's rules object.

    Subclasses keep all their state in plain attributes that ``to_dict`` writes and ``from_dict``
    reads back; equality compares those dictionaries.
    """

    #: registry key, also used in commands and the store ("races", "piecepack")
    key: ClassVar[str]
    #: display name
    title: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    #: bump when the JSON layout changes
    format_version: ClassVar[int] = 1

    # Creation ----------------------------------------------------------------------------------

    @classmethod
    @abstractmethod
    def create(cls, setup: dict[str, Any], seed: int) -> Self:
        """A new game. ``setup`` holds ``seats`` (a list of dicts with at least ``name``) and
        ``options`` (game specific). Raises :class:`SetupError` when it cannot start."""

    @classmethod
    @abstractmethod
    def from_position(cls, position: dict[str, Any]) -> Self:
        """A game set up from the position format (a short JSON situation for tests and puzzles)."""

    # Play --------------------------------------------------------------------------------------

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """Parse notation; raises :class:`NotationError` saying what was expected."""

    @abstractmethod
    def legal_actions(self) -> Sequence[Action]:
        """Every action the player to act may take now; never empty while the game runs."""

    def only_action(self) -> Action | None:
        """The one legal action when there is exactly one (a move with nothing to decide), else None. A game
        may answer sooner than by listing every action: asked after every move, it is usually None."""
        acts = self.legal_actions()
        return acts[0] if len(acts) == 1 else None

    @final
    def apply(self, action: Action | str) -> list[Event]:
        """Play ``action`` (an action of this game or its notation) and return the events it caused.

        The one place that keeps the promise "refused ⇒ unchanged" for every game: the move is played on a
        working copy (:meth:`_copy`) by the game's :meth:`_apply`, and the copy becomes this state only when
        the move went through. Whatever :meth:`_apply` raises (:class:`IllegalAction` for a move the rules
        refuse), this state is exactly what it was.
        """
        work = self._copy()
        events = work._apply(action)
        self.__dict__.clear()
        self.__dict__.update(work.__dict__)
        return events

    @abstractmethod
    def _apply(self, action: Action | str) -> list[Event]:
        """Check ``action`` against the rules and play it on this state (a working copy: see :meth:`apply`);
        raise :class:`IllegalAction` saying why when it is not allowed, at any point of the way."""

    def _copy(self) -> Self:
        """A working copy equal to this state that shares nothing it could change. By default a round trip
        through :meth:`to_dict`; a game overrides it with something quicker, carrying its caches along."""
        return type(self).from_dict(self.to_dict())

    @property
    @abstractmethod
    def to_act(self) -> int | None:
        """The seat whose decision the game waits for; None once the game is over."""

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @property
    @abstractmethod
    def winners(self) -> list[int]:
        """Winning seats (several for a team); empty while the game runs."""

    @property
    @abstractmethod
    def seat_names(self) -> list[str]: ...

    @property
    @abstractmethod
    def ply(self) -> int:
        """How many actions have been applied since setup."""

    def may_act(self, seat: int) -> bool:
        """Whether ``seat`` may act now: it is the seat the game waits for."""
        return self.to_act == seat

    def undo_barrier(self, before: Self, events: Sequence[Event]) -> str | None:
        """Why the action that led from ``before`` to this state (telling ``events``) can't be taken back,
        or None when it can. An action may be taken back only while nothing new became known through it
        (no die rolled, no tile drawn or turned up, no other random or hidden outcome) and the turn it was
        played in goes on. By default a game takes nothing back."""
        return f"{self.title} does not take moves back."

    def describe_legal(self, limit: int = 12, lang: str = "en") -> str:
        """A short list of what is possible now, for refusals and status, in ``lang``: the actions in the
        notation players type. The default lists the first ``limit`` legal actions and counts the rest
        (``… (+3)``, in no language); a game with its own words overrides it."""
        acts = [str(a) for a in self.legal_actions()]
        more = f", … (+{len(acts) - limit})" if len(acts) > limit else ""
        return ", ".join(acts[:limit]) + more

    # Persistence and views ---------------------------------------------------------------------

    @abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able state, including ``format_version`` and the dice state."""

    @classmethod
    @abstractmethod
    def from_dict(cls, data: dict[str, Any]) -> Self: ...

    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """The state as ``seat`` (or the public, for None) may see it: other seats' secrets removed."""

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Game)
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]


def public_views(game: Game, actions: Iterable[str]) -> list[dict[str, Any]]:
    """The public view of ``game`` now and after each of ``actions`` (applied to ``game`` in turn): what a
    replay draws, rebuilt from a logged game's setup, seed and actions."""
    views = [game.view(None)]
    for text in actions:
        game.apply(text)
        views.append(game.view(None))
    return views


#: the phase a :class:`PhasedGame` is in once somebody has won
OVER = "over"


class PhasedGame(Game):
    """A game that keeps its seats' ``names``, a ``phase`` (``OVER`` once won), a single ``winner``
    and its action count ``_ply`` as attributes: the contract properties that follow from those."""

    names: list[str]
    phase: str
    winner: int | None
    _ply: int

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def winners(self) -> list[int]:
        return [] if self.winner is None else [self.winner]

    @property
    def seat_names(self) -> list[str]:
        return list(self.names)

    @property
    def ply(self) -> int:
        return self._ply
