"""The base of the typed parts the Junkyard Races rules are built from.

``Races`` (rules/races/engine.py) holds the state and runs the turn; each part (``game.bags``,
``game.deeds``, ``game.weapons``, ``game.garage``, ``game.traps`` and ``game.arsenal``) is a small view of
one game that knows one area of the rules. A part keeps no state of its own, so the engine makes a
fresh one whenever it is asked for, always bound to the game it is asked of (a refused action works on
a copy of the game, and its parts must work on that copy).

A part sees its game as a :class:`Race`: what the parts, the queries and the position format use of the
engine, with the other parts as the Protocols below (what one part calls of another). ``Races`` satisfies it,
so no part, nor :mod:`rules.races.queries` nor :mod:`rules.races.position`, imports the engine's module: the
engine imports them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, Self

if TYPE_CHECKING:
    from rules.contract import Event
    from rules.dice import Dice
    from rules.hexgrid import Hex
    from rules.races import actions as act
    from rules.races.state import BoardTile, Choice, Kart, Tile, Turn
    from rules.races.texts import Said
    from rules.races.track import Track


class BagsPart(Protocol):
    """What the other parts ask of a kart's saddlebags (rules/races/saddlebags.py)."""

    def flip(self, kart: Kart, flip: act.Flip) -> None: ...

    def kinds(self, kart: Kart) -> set[str]: ...

    def lose(self, kart: Kart, loc: int, why: Said) -> None: ...

    def move(self, kart: Kart, move: act.BagMove) -> None: ...

    def need(self, kart: Kart, kind: str) -> None: ...

    def rehome(self, kart: Kart, tiles: list[Tile], why: Said | str) -> None: ...

    def room(self, kart: Kart, loc: int) -> int: ...

    def store(self, kart: Kart, kind: str, where: Said) -> bool: ...

    def take(self, kart: Kart, kind: str) -> Tile | None: ...

    def with_room(self, kart: Kart) -> list[int]: ...


class DeedsPart(Protocol):
    """What the other parts ask of the deeds (rules/races/deeds.py): placing, targets, neighbours."""

    def actions(self, kart: Kart) -> list[act.Action]: ...

    def adjacent_karts(self, kart: Kart) -> list[Kart]: ...

    def check_placement(self, kart: Kart, cell: Hex, what: str) -> None: ...

    def place_trap(self, kart: Kart, trap: act.PlaceTrap) -> None: ...

    def target_kart(self, colour: str) -> Kart: ...


class GaragePart(Protocol):
    """What the other parts and the position format ask of the garage (rules/races/garage.py)."""

    def actions(self, kart: Kart) -> list[act.Action]: ...

    def buy(self, kart: Kart, buy: act.Buy) -> None: ...

    def fit(self, kart: Kart, part: str, loc: int) -> None: ...

    def refuel(self, kart: Kart, refuel: act.Refuel) -> None: ...

    def remove_part(self, kart: Kart, location: int, why: Said) -> None: ...

    def return_part(self, kart: Kart, ret: act.Return) -> None: ...

    def swap(self, kart: Kart, swap: act.Swap) -> None: ...


class WeaponsPart(Protocol):
    """What the other parts ask of the weapons (rules/races/weapons.py)."""

    def blast(self, kart: Kart, source: str) -> None: ...

    def bomb(self, kart: Kart, fire: act.Fire) -> None: ...

    def bomb_line(self, start: Hex, target: Hex) -> bool: ...

    def gadget(self, kart: Kart, gadget: act.Gadget) -> None: ...

    def magnet(self, kart: Kart, fire: act.Fire) -> None: ...

    def magnet_path(self, user: Kart, target: Kart, magnet: Hex) -> list[Hex] | None: ...

    def missile(self, kart: Kart, fire: act.Fire) -> None: ...

    def strike_targets(self, kart: Kart) -> list[tuple[str, Hex]]: ...


class TrapsPart(Protocol):
    """What the queries ask of the traps (rules/races/traps.py)."""

    def stops(self, kart: Kart, kind: str) -> bool: ...


class Race(Protocol):
    """What the parts, the queries and the position format use of a game (``Races`` is the one kind): its
    state, its parts, its events and hooks, and how it is made and moved on."""

    track: Track
    teams: bool
    karts: list[Kart]
    board: dict[Hex, BoardTile]
    junk: list[str]
    parts_left: dict[str, int]
    bottle_tops_left: int
    flags_left: int
    dice_left: dict[str, int]
    dice: Dice
    turn: Turn
    choice: Choice | None
    last_events: list[Event]
    _ply: int

    @property
    def bags(self) -> BagsPart: ...

    @property
    def deeds(self) -> DeedsPart: ...

    @property
    def garage(self) -> GaragePart: ...

    @property
    def weapons(self) -> WeaponsPart: ...

    @property
    def traps(self) -> TrapsPart: ...

    def arrive(self, kart: Kart, cell: Hex, how: str) -> None: ...

    @classmethod
    def create(cls, setup: dict[str, Any], seed: int) -> Self: ...

    def emit(self, kind: str, msg: str, seat: int | None = None, params: dict[str, Any] | None = None, /,
             secret: str | None = None, secret_params: dict[str, Any] | None = None, **data: Any) -> None: ...

    def legal_actions(self) -> list[act.Action]: ...

    def moved(self, kart: Kart, frm: Hex, to: Hex) -> None: ...

    def return_tile(self, kind: str) -> None: ...

    def _advance(self) -> None: ...

    def _begin_turn(self, seat: int, number: int) -> None: ...


class Part:
    """One area of the rules working on one game, ``g``."""

    __slots__ = ("g",)

    def __init__(self, game: Race) -> None:
        self.g = game
