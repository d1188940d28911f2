"""Per-game front ends: what the service and the Discord adapter need to know about each game.

A game's rules register in :mod:`rules.registry`; its front end registers here. A front end says how the
shared ``/game new`` and ``/game join`` options map onto the game's setup, draws the picture, narrates
events, offers buttons chosen from the legal actions and may add its own command group (``/race``).
Adding a game is adding a module to :data:`FRONT_MODULES`. A game without a front end still plays
through :class:`BaseFront`: text narration, no picture, buttons when few actions are legal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol, runtime_checkable

from rules.contract import Event, Game, SetupError
from rules.registry import game_class, game_keys, import_present

if TYPE_CHECKING:
    from discord import app_commands

#: Modules whose import registers a front end. A new game adds its module here.
FRONT_MODULES: tuple[str, ...] = ("bot.games.races", "bot.games.piecepack")

#: The shared ``/game new`` options every front end is offered (values arrive already typed).
NEW_OPTIONS: tuple[str, ...] = ("track", "teams", "crew", "laps")
#: The shared ``/game join`` options.
JOIN_OPTIONS: tuple[str, ...] = ("colour", "team", "character", "set")

ButtonStyle = Literal["primary", "secondary", "success", "danger"]

#: Discord allows 25 buttons on a message (5 rows of 5); we offer fewer so the choice stays clear.
MAX_BUTTONS = 10


@dataclass(frozen=True, slots=True)
class ButtonSpec:
    """A button to offer: its label, the action notation it plays, and its colour."""

    label: str
    action: str
    style: ButtonStyle = "secondary"


@runtime_checkable
class GameFront(Protocol):
    """What each game module offers the service and the Discord front end."""

    key: str
    title: str

    def setup_options(self, raw: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
        """Check ``/game new`` options (only those given); return the game's ``options`` and notes for the
        player (e.g. an option this game ignores). Raise :class:`SetupError` saying what is allowed."""
        ...

    def seat_options(self, raw: Mapping[str, Any], setup: Mapping[str, Any], taken: Sequence[Mapping[str, Any]]
                     ) -> tuple[dict[str, Any], list[str]]:
        """Check ``/game join`` options against the game's options and the other seats' choices."""
        ...

    def choices(self, field: str, current: str, setup: Mapping[str, Any] | None = None,
                taken: Sequence[Mapping[str, Any]] = ()) -> list[tuple[str, str]]:
        """Autocomplete (name, value) pairs for a shared option such as ``track`` or ``colour``."""
        ...

    def picture(self, view: dict[str, Any], events: Sequence[Event]) -> bytes | None:
        """PNG of a view with the last events highlighted; called in a worker thread."""
        ...

    def narrate(self, events: Sequence[Event]) -> str:
        """One line (or a few) telling what happened."""
        ...

    def describe(self, game: Game, viewer: int | None) -> str:
        """Status text for ``viewer``: standings, whose turn, and that seat's hidden things if any."""
        ...

    def buttons(self, game: Game, seat: int) -> list[ButtonSpec]:
        """Buttons for the common moves of ``seat`` now, each a legal action."""
        ...

    def command_group(self) -> app_commands.Group | None:
        """This game's own slash command group (``/race``, ``/piecepack``), or None."""
        ...


class BaseFront:
    """Sensible defaults; a game's front end subclasses this and overrides what it needs."""

    key: ClassVar[str]
    title: ClassVar[str]
    #: shared ``/game new`` / ``/game join`` options this game reads; others are ignored with a note
    uses_new: ClassVar[frozenset[str]] = frozenset()
    uses_join: ClassVar[frozenset[str]] = frozenset()

    def _ignored(self, raw: Mapping[str, Any], used: frozenset[str]) -> list[str]:
        return [f"`{name}` is not used by {self.title}; ignored." for name in raw if name not in used]

    def setup_options(self, raw: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
        return {k: v for k, v in raw.items() if k in self.uses_new}, self._ignored(raw, self.uses_new)

    def seat_options(self, raw: Mapping[str, Any], setup: Mapping[str, Any], taken: Sequence[Mapping[str, Any]]
                     ) -> tuple[dict[str, Any], list[str]]:
        return {k: v for k, v in raw.items() if k in self.uses_join}, self._ignored(raw, self.uses_join)

    def choices(self, field: str, current: str, setup: Mapping[str, Any] | None = None,
                taken: Sequence[Mapping[str, Any]] = ()) -> list[tuple[str, str]]:
        return []

    def picture(self, view: dict[str, Any], events: Sequence[Event]) -> bytes | None:
        return None

    def narrate(self, events: Sequence[Event]) -> str:
        parts = []
        for e in events:
            parts.append(f"{e.text} {e.secret}" if e.secret else e.text)
        return " ".join(p for p in parts if p)

    def describe(self, game: Game, viewer: int | None) -> str:
        names = game.seat_names
        if game.is_over:
            won = ", ".join(names[s] for s in game.winners) or "nobody"
            return f"{self.title}: finished after {game.ply} moves. Winner: {won}."
        turn = game.to_act
        who = names[turn] if turn is not None else "nobody"
        return f"{self.title}, move {game.ply}: {who} to act."

    def buttons(self, game: Game, seat: int) -> list[ButtonSpec]:
        if game.is_over or game.to_act != seat:
            return []
        acts = [str(a) for a in game.legal_actions()]
        if len(acts) > 5:
            return []
        return [ButtonSpec(a, a, "primary" if i == 0 else "secondary") for i, a in enumerate(acts)]

    def command_group(self) -> app_commands.Group | None:
        return None


class GenericFront(BaseFront):
    """The front end of a game that has none of its own."""

    def __init__(self, key: str) -> None:
        cls = game_class(key)
        self.key = key  # type: ignore[misc]
        self.title = cls.title  # type: ignore[misc]


_FRONTS: dict[str, GameFront] = {}
_loaded = False


def register_front(front: GameFront) -> GameFront:
    """Make a front end known under its game key (returns it, so a module can write
    ``FRONT = register_front(RaceFront())``)."""
    _FRONTS[front.key] = front
    return front


def _load() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    import_present(FRONT_MODULES)


def front_for(key: str) -> GameFront:
    """The front end of game ``key``; a generic one if the game has none. Raises KeyError if the game
    itself is unknown."""
    _load()
    front = _FRONTS.get(key)
    if front is None:
        front = GenericFront(key)
        _FRONTS[key] = front
    return front


def playable_keys() -> list[str]:
    """Every registered game, for ``/game new``'s choices."""
    _load()
    return game_keys()


def all_fronts() -> list[GameFront]:
    return [front_for(k) for k in playable_keys()]


__all__ = ["JOIN_OPTIONS", "NEW_OPTIONS", "BaseFront", "ButtonSpec", "GameFront", "GenericFront", "SetupError",
           "all_fronts", "front_for", "playable_keys", "register_front"]
