"""Junkyard for a piecepack: shed your trash on the others, grab the good stuff, get home with it.

Rules come from ``rulebooks/piecepack-junkyard.en.txt`` (sections cited as §4.B and so on) and the
house rulings P1–P7 in ``RULINGS.md``. The notation and the position format are described in this
package's README.

A turn has two halves: ``roll`` (the game rolls the suit's piecepack die: Null, Ace, 2–5), then a move of
exactly that many steps. A Null, or a roll no path of that length can use, passes the turn by itself
(P3): the roll's events say so and the next player is asked to roll, so the player to act always has a
legal action.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar, Self

from rules import contract
from rules.contract import OVER, Event, IllegalAction, PhasedGame, Reason, SetupError
from rules.dice import Dice
from rules.piecepack import texts
from rules.piecepack.actions import Action, Destination, Move, Roll, parse_syntax
from rules.piecepack.board import (
    CENTRE,
    CORNERS_BY_PLAYERS,
    KING_NEIGHBOURS,
    ORTHO_NEIGHBOURS,
    SQUARES,
    SUIT_CODES,
    SUITS,
    TRASH_LETTERS,
    coords,
    is_diagonal,
    is_square,
    is_step,
)
from rules.registry import register

ROLL, MOVE = "roll", "move"
_PHASES = (ROLL, MOVE, OVER)


_XY = {sq: coords(sq) for sq in SQUARES}


def _turns(path: tuple[str, ...]) -> int:
    """How often a path changes direction (the canonical path for a destination turns least)."""
    xy = [_XY[sq] for sq in path]
    dirs = [(b[0] - a[0], b[1] - a[1]) for a, b in itertools.pairwise(xy)]
    return sum(1 for d, e in itertools.pairwise(dirs) if d != e)


@register
class PiecepackGame(PhasedGame):
    """Junkyard (piecepack) for 2–4 players. Seat ``i`` plays suit ``SUITS[i]``."""

    key: ClassVar[str] = "piecepack"
    title: ClassVar[str] = "Junkyard (piecepack)"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 4
    format_version: ClassVar[int] = 1

    def __init__(
        self,
        names: list[str],
        pawns: list[str],
        trash: list[list[str]],
        carrier: int | None,
        first: int,
        turn: int,
        phase: str,
        roll: int | None,
        winner: int | None,
        ply: int,
        events: list[Event],
        last_move: dict[str, Any] | None,
        dice: Dice,
    ) -> None:
        self.names = names
        self.pawns = pawns
        self.trash = trash
        self.carrier = carrier
        self.first = first
        self.turn = turn
        self.phase = phase
        self.roll = roll
        self.winner = winner
        self._ply = ply
        self.events = events
        self.last_move = last_move
        self.dice = dice
        self._dests: tuple[list[tuple[str, ...]], dict[str, Move]] | None = None
        self._cache: tuple[tuple[Any, ...], list[tuple[str, ...]], set[tuple[str, ...]], list[Move]] | None = None

    # Seats ----------------------------------------------------------------------------------------

    @property
    def n(self) -> int:
        return len(self.names)

    @property
    def suits(self) -> tuple[str, ...]:
        return SUITS[: self.n]

    @property
    def corners(self) -> tuple[str, ...]:
        return CORNERS_BY_PLAYERS[self.n]

    def label(self, seat: int) -> str:
        """``"Moons (Bob)"``, or just the suit when the player's name is the suit."""
        name, suit = self.names[seat], SUITS[seat]
        return suit if name == suit else f"{suit} ({name})"

    def who(self, seat: int) -> dict[str, Any]:
        """Seat ``seat`` as a text parameter (worded in any language by :func:`rules.piecepack.texts.say`)."""
        return texts.seat(seat, self.names[seat])

    def seat_at(self, square: str) -> int | None:
        for seat, sq in enumerate(self.pawns):
            if sq == square:
                return seat
        return None

    def corner_owner(self, square: str) -> int | None:
        return self.corners.index(square) if square in self.corners else None

    @property
    def good_stuff_square(self) -> str:
        """Where the good stuff is: the centre, or the square of the pawn carrying it."""
        return CENTRE if self.carrier is None else self.pawns[self.carrier]

    # Creation -------------------------------------------------------------------------------------

    @classmethod
    def _names_from_setup(cls, setup: Any) -> list[str]:
        if not isinstance(setup, dict):
            raise SetupError("The setup must be a mapping with `seats` and `options`.")
        seats = setup.get("seats")
        if not isinstance(seats, list) or not cls.min_seats <= len(seats) <= cls.max_seats:
            raise SetupError(f"{cls.title} needs {cls.min_seats} to {cls.max_seats} seats.")
        names = []
        for i, seat in enumerate(seats):
            name = seat.get("name") if isinstance(seat, dict) else None
            if not isinstance(name, str) or not name.strip():
                raise SetupError(f"Seat {i + 1} needs a name.")
            names.append(name.strip())
        options = setup.get("options") or {}
        if not isinstance(options, dict):
            raise SetupError("`options` must be a mapping.")
        if options:
            raise SetupError(f"{cls.title} has no options (got {', '.join(sorted(map(str, options)))}).")
        return names

    @classmethod
    def create(cls, setup: dict[str, Any], seed: int) -> Self:
        """Pawns on their corners with their own A, B, C trash; the dice draw the starting player (P2)."""
        names = cls._names_from_setup(setup)
        n = len(names)
        dice = Dice.seeded(seed)
        first = dice.choice_index(n)
        corners = CORNERS_BY_PLAYERS[n]
        trash = [[SUIT_CODES[s] + letter for letter in TRASH_LETTERS] for s in range(n)]
        game = cls(names, list(corners), trash, None, first, first, ROLL, None, None, 0, [], None, dice)
        game.events = [texts.event("start", "event.start", first, who=game.who(first))]
        return game

    @classmethod
    def from_position(cls, position: dict[str, Any]) -> Self:
        """A game in the situation ``position`` describes (see README: "Position format")."""
        if not isinstance(position, dict):
            raise SetupError("A position is a mapping.")
        known = {"players", "pawns", "trash", "good", "to_act", "phase", "roll", "load", "seed", "first", "ply"}
        unknown = set(position) - known
        if unknown:
            raise SetupError(f"Unknown position keys: {', '.join(sorted(unknown))}; known: {', '.join(sorted(known))}.")
        names = cls._position_names(position.get("players", 2))
        suits = SUITS[:len(names)]
        pawns, trash = _position_pieces(position, suits)
        good = position.get("good", "centre")
        carrier = None if good in ("centre", "center", None) else _seat_of(suits, good, "good")
        to_act = _seat_of(suits, position["to_act"], "to_act") if "to_act" in position else 0
        first = _seat_of(suits, position["first"], "first") if "first" in position else to_act
        phase, roll = _position_phase(position)
        dice = _position_dice(position)
        ply = position.get("ply", 0)
        if not isinstance(ply, int) or ply < 0:
            raise SetupError("`ply` is a whole number.")
        game = cls(names, pawns, trash, carrier, first, to_act, phase, roll, None, ply, [], None, dice)
        game._check_position()
        if phase == MOVE and not game.legal_paths():
            raise SetupError(
                f"{game.label(to_act)} has no legal move of {roll} steps: such a roll passes the turn, "
                "so set the position in the `roll` phase."
            )
        return game

    @classmethod
    def _position_names(cls, players: Any) -> list[str]:
        """The seats' names of a position's ``players``: a number of players (named by their suits) or the
        names."""
        if isinstance(players, int) and not isinstance(players, bool):
            if not cls.min_seats <= players <= cls.max_seats:
                raise SetupError(f"`players` must be {cls.min_seats} to {cls.max_seats}.")
            return list(SUITS[:players])
        if isinstance(players, list):
            return cls._names_from_setup({"seats": [{"name": p} for p in players]})
        raise SetupError("`players` is a number of players or a list of names.")

    def _check_position(self) -> None:
        """Refuse situations the rules can never reach (as :class:`SetupError`)."""
        seen: dict[str, int] = {}
        for seat, sq in enumerate(self.pawns):
            if sq in seen:
                raise SetupError(f"{SUITS[seat]} and {SUITS[seen[sq]]} cannot share {sq}.")
            seen[sq] = seat
            owner = self.corner_owner(sq)
            if owner is not None and owner != seat:
                raise SetupError(f"{SUITS[seat]} cannot stand on {sq}: it is {SUITS[owner]}' start corner (P4).")
            if sq == CENTRE and self.carrier != seat:
                raise SetupError(f"{SUITS[seat]} cannot stand on the centre without the good stuff (P5).")
        valid = {SUIT_CODES[s] + letter for s in range(self.n) for letter in TRASH_LETTERS}
        pieces: set[str] = set()
        for seat, stack in enumerate(self.trash):
            for piece in stack:
                if piece not in valid:
                    raise SetupError(f"trash: {piece!r} is not a trash piece here ({', '.join(sorted(valid))}).")
                if piece in pieces:
                    raise SetupError(f"trash: {piece} appears twice.")
                pieces.add(piece)
            if self.carrier == seat and stack:
                raise SetupError(f"{SUITS[seat]} carries the good stuff, so it has no trash (§4.C).")
        if self.carrier is not None and self.pawns[self.carrier] == self.corners[self.carrier]:
            raise SetupError(f"{SUITS[self.carrier]} would already have won: the carrier is on its own corner (§5).")

    # Contract properties --------------------------------------------------------------------------

    @property
    def to_act(self) -> int | None:
        return None if self.phase == OVER else self.turn

    # Legal moves ----------------------------------------------------------------------------------

    def _paths_for(self, seat: int, steps: int) -> list[tuple[str, ...]]:
        """Every legal path of exactly ``steps`` steps for ``seat`` (P3–P6), in a fixed order."""
        if steps <= 0:
            return []
        carrying = self.carrier == seat
        start = self.pawns[seat]
        occupied = {sq for s, sq in enumerate(self.pawns) if s != seat}
        forbidden_end = {c for s, c in enumerate(self.corners) if s != seat}
        # P5: the centre is a last step only, for a clean pawn, while the good stuff is there.
        centre_open = (
            not self.trash[seat]
            and not carrying
            and (self.carrier is None or self.pawns[self.carrier] == CENTRE)
        )
        neighbours = KING_NEIGHBOURS if carrying else ORTHO_NEIGHBOURS
        out: list[tuple[str, ...]] = []
        path = [start]
        visited = {start}

        def extend(square: str, left: int) -> None:
            for nxt in neighbours[square]:
                if nxt in visited:
                    continue
                if carrying and nxt in occupied:  # P6: the carrier neither passes over nor lands on pawns
                    continue
                if nxt == CENTRE and (left != 1 or not centre_open):
                    continue
                if left == 1:
                    if nxt not in forbidden_end:  # P4: pass over, never stop on, another's corner
                        out.append((*path, nxt))
                    continue
                path.append(nxt)
                visited.add(nxt)
                extend(nxt, left - 1)
                visited.discard(nxt)
                path.pop()

        extend(start, steps)
        return out

    def legal_paths(self) -> list[tuple[str, ...]]:
        """Every legal path for the player to act (empty outside the move phase)."""
        if self.phase != MOVE or self.roll is None:
            return []
        key = (self._ply, self.turn, self.roll, tuple(self.pawns), self.carrier)
        if self._cache is None or self._cache[0] != key:
            paths = self._paths_for(self.turn, self.roll)
            self._cache = (key, paths, set(paths), [Move(p) for p in paths])
        return self._cache[1]

    def _legal_set(self) -> set[tuple[str, ...]]:
        self.legal_paths()
        return self._cache[2] if self._cache is not None and self.phase == MOVE else set()

    def destinations(self) -> dict[str, Move]:
        """One move per reachable square: the path that turns least (then the first in square order).

        Every path to a square has the same outcome, since passing over a square has no effect; this is
        what ``move c2`` means and what buttons and drivers offer.
        """
        paths = self.legal_paths()
        if self._dests is not None and self._dests[0] is paths:
            return dict(self._dests[1])
        best: dict[str, tuple[int, tuple[str, ...]]] = {}
        for path in paths:
            rank = (_turns(path), path)
            dest = path[-1]
            if dest not in best or rank < best[dest]:
                best[dest] = rank
        order = {sq: i for i, sq in enumerate(SQUARES)}
        out = {d: Move(best[d][1]) for d in sorted(best, key=order.__getitem__)}
        self._dests = (paths, out)
        return dict(out)

    def legal_actions(self) -> list[Action]:
        if self.phase == ROLL:
            return [Roll()]
        if self.phase == MOVE:
            self.legal_paths()
            assert self._cache is not None
            return list(self._cache[3])
        return []

    def undo_barrier(self, before: Self, events: Sequence[Event]) -> str | None:
        """The die is the only chance in the game and a move ends the turn, so nothing comes back once the
        die is rolled; what is left of a turn can't be taken back either."""
        if self.dice.to_dict() != before.dice.to_dict():
            return Reason(texts.say("refuse.undo_roll"), "refuse.undo_roll")
        if self.turn != before.turn or self.to_act != before.to_act:
            return Reason(texts.say("refuse.undo_turn_over"), "refuse.undo_turn_over")
        return None

    def describe_legal(self, limit: int = 12, lang: str = "en") -> str:
        """The destinations a move may end on (``move to b1, a2``), worded in ``lang``; else the notation."""
        if self.phase == MOVE:
            return texts.legal_word(list(self.destinations()), lang, limit)
        return super().describe_legal(limit, lang)

    # Parsing and validation -----------------------------------------------------------------------

    def parse_action(self, text: str) -> Action:
        """Parse notation. A destination (``move c2``) becomes the full path :meth:`destinations` gives;
        an unreachable destination raises :class:`IllegalAction` saying why."""
        parsed = parse_syntax(text)
        if isinstance(parsed, Destination):
            return self._resolve(parsed)
        return parsed

    def _resolve(self, dest: Destination) -> Move:
        self._check_phase(MOVE)
        moves = self.destinations()
        if dest.square in moves:
            return moves[dest.square]
        raise self._why_not_destination(dest.square)

    def _check_phase(self, wanted: str) -> None:
        if self.phase == OVER:
            raise texts.refuse("refuse.game_over", who=self.who(self.winner or 0))
        if self.phase == wanted:
            return
        if wanted == MOVE:
            raise texts.refuse("refuse.roll_first", who=self.who(self.turn))
        raise texts.refuse("refuse.rolled_already", who=self.who(self.turn), face=texts.face(self.roll or 0),
                           legal=self._legal())

    def _legal(self) -> dict[str, Any]:
        """The legal destinations, as the parameter every refusal of a move ends with."""
        return texts.legal(self.destinations())

    def _refuse(self, msg: str, **params: Any) -> IllegalAction:
        """A refused move: message ``msg``, then the legal destinations."""
        return texts.refuse(msg, **params, legal=self._legal())

    def _why_not_destination(self, square: str) -> IllegalAction:
        seat, steps = self.turn, self.roll or 0
        here = self.pawns[seat]
        owner = self.corner_owner(square)
        other = self.seat_at(square)
        if square == here:
            return self._refuse("refuse.same_square", square=square)
        if owner is not None and owner != seat:
            return self._refuse("refuse.corner", square=square, owner=texts.suit(owner))
        if square == CENTRE:
            return self._why_not_centre(seat)
        if self.carrier == seat and other is not None:
            return self._refuse("refuse.carrier_lands", them=self.who(other), square=square)
        return self._refuse("refuse.no_path", count=steps, here=here, square=square)

    def _why_not_centre(self, seat: int) -> IllegalAction:
        if self.carrier == seat:
            return self._refuse("refuse.centre_carrier")
        if self.trash[seat]:
            return self._refuse("refuse.centre_trash", count=len(self.trash[seat]))
        if self.carrier is not None:
            return self._refuse("refuse.centre_carried", who=self.who(self.carrier))
        return self._refuse("refuse.centre_exact", count=self.roll or 0)

    def _why_not_path(self, path: tuple[str, ...]) -> IllegalAction | None:
        """Why ``path`` is not a legal move now (the refusal to raise), or None if it is."""
        if path in self._legal_set():
            return None
        seat, steps = self.turn, self.roll or 0
        here = self.pawns[seat]
        carrying = self.carrier == seat
        if path[0] != here:
            return self._refuse("refuse.wrong_start", here=here)
        if len(path) - 1 != steps:
            return self._refuse("refuse.wrong_length", face=texts.face(steps), count=steps, length=len(path) - 1)
        seen = {here}
        for i, (a, b) in enumerate(itertools.pairwise(path)):
            last = i == len(path) - 2
            if not is_step(a, b):
                return self._refuse("refuse.not_a_step", start=a, end=b)
            if is_diagonal(a, b) and not carrying:
                return self._refuse("refuse.diagonal", start=a, end=b)
            if b in seen:
                return self._refuse("refuse.twice", square=b)
            seen.add(b)
            if b == CENTRE and not last:
                return self._refuse("refuse.centre_through")
            other = self.seat_at(b)
            if carrying and other is not None:
                msg = "refuse.carrier_lands" if last else "refuse.carrier_passes"
                return self._refuse(msg, them=self.who(other), square=b)
        dest = path[-1]
        if dest == CENTRE:
            return self._why_not_centre(seat)
        owner = self.corner_owner(dest)
        if owner is not None and owner != seat:
            return self._refuse("refuse.corner", square=dest, owner=texts.suit(owner))
        return self._refuse("refuse.not_legal")

    # Applying -------------------------------------------------------------------------------------

    def _coerce(self, action: object) -> Action:
        if isinstance(action, str):
            return self.parse_action(action)
        if isinstance(action, Destination):
            return self._resolve(action)
        if isinstance(action, Roll | Move):
            return action
        raise texts.bad_notation("notation.not_action", action=repr(action))

    def _copy(self) -> PiecepackGame:
        work = type(self).from_dict(self.to_dict())
        work._cache, work._dests = self._cache, self._dests  # keyed by the position the copy shares
        return work

    def _apply(self, action: contract.Action | str) -> list[Event]:
        """Check ``action`` (one of ours, a :class:`Destination` or notation; anything else is refused)
        completely, then play it; returns the events it caused."""
        act = self._coerce(action)
        if isinstance(act, Roll):
            self._check_phase(ROLL)
            events = self._do_roll()
        else:
            self._check_phase(MOVE)
            if not isinstance(act.path, tuple) or not all(isinstance(s, str) and is_square(s) for s in act.path) \
                    or len(act.path) < 2:
                raise texts.bad_notation("notation.short_path")
            why = self._why_not_path(act.path)
            if why is not None:
                raise why
            events = self._do_move(act.path)
        self._ply += 1
        self.events = events
        self._cache = None
        return list(events)

    def _do_roll(self) -> list[Event]:
        seat = self.turn
        dice = self.dice.copy()
        face = dice.roll(6) - 1  # a d6 stands in for the piecepack die: 1 → Null, 2 → Ace, 3–6 → 2–5
        who = self.who(seat)
        events = [texts.event("roll", "event.roll", seat, {"face": face}, who=who, face=texts.face(face))]
        paths = self._paths_for(seat, face)
        self.dice = dice
        self.roll = face
        if paths:
            self.phase = MOVE
            return events
        nxt = (seat + 1) % self.n
        data = {"face": face, "next": nxt}
        if face == 0:
            events.append(texts.event("pass", "event.pass_null", seat, data, who=who, next=self.who(nxt)))
        else:
            events.append(texts.event("pass", "event.pass_blocked", seat, data, who=who, next=self.who(nxt),
                                      count=face))
        self.turn = nxt
        self.phase = ROLL
        return events

    def _do_move(self, path: tuple[str, ...]) -> list[Event]:
        seat = self.turn
        dest = path[-1]
        who = self.who(seat)
        events = [texts.event("move", "event.move", seat, {"path": list(path)}, who=who, path="-".join(path))]
        victim = self.seat_at(dest)
        if dest == CENTRE and self.carrier is None:
            self.carrier = seat
            events.append(texts.event("take", "event.take", seat, {"square": dest}, who=who))
        elif victim is not None:
            events += self._land_on(seat, victim, dest)
        self.pawns[seat] = dest
        self.last_move = {"seat": seat, "path": list(path)}
        if self.carrier == seat and dest == self.corners[seat]:
            self.winner = seat
            self.phase = OVER
            events.append(texts.event("win", "event.win", seat, {"square": dest}, who=who, square=dest))
            return events
        self.turn = (seat + 1) % self.n
        self.phase = ROLL
        return events

    def _land_on(self, seat: int, victim: int, square: str) -> list[Event]:
        """P7 / §4.B, §4.D: the lander gives its top trash piece if it has any; a carried good stuff
        goes back to the centre, or to a clean lander; the landed-on pawn goes home."""
        who, them = self.who(seat), self.who(victim)
        events = [texts.event("land", "event.land", seat, {"square": square, "victim": victim}, who=who, them=them,
                              square=square)]
        had_trash = bool(self.trash[seat])
        if had_trash:
            piece = self.trash[seat].pop()
            self.trash[victim].append(piece)
            events.append(texts.event("gift", "event.gift", seat, {"piece": piece, "to": victim}, who=who, them=them,
                                      piece=texts.piece(piece)))
        if self.carrier == victim:
            if had_trash:
                self.carrier = None
                events.append(texts.event("return", "event.return", victim, {"square": CENTRE}))
            else:
                self.carrier = seat
                events.append(texts.event("steal", "event.steal", seat, {"from": victim}, who=who, them=them))
        home = self.corners[victim]
        self.pawns[victim] = home
        events.append(texts.event("home", "event.home", victim, {"square": home}, who=them, square=home))
        return events

    # Persistence and views ------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.key,
            "format_version": self.format_version,
            "seats": [{"name": n} for n in self.names],
            "pawns": list(self.pawns),
            "trash": [list(t) for t in self.trash],
            "carrier": self.carrier,
            "first": self.first,
            "turn": self.turn,
            "phase": self.phase,
            "roll": self.roll,
            "winner": self.winner,
            "ply": self._ply,
            "events": [e.to_dict() for e in self.events],
            "last_move": None if self.last_move is None else {
                "seat": self.last_move["seat"], "path": list(self.last_move["path"])},
            "dice": self.dice.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        if data.get("game", cls.key) != cls.key:
            raise ValueError(f"not a {cls.key} game: {data.get('game')!r}")
        version = data.get("format_version")
        if version != cls.format_version:
            raise ValueError(f"{cls.key} state format {version!r} is not supported (expected {cls.format_version})")
        if data["phase"] not in _PHASES:
            raise ValueError(f"unknown phase {data['phase']!r}")
        lm = data.get("last_move")
        return cls(
            [s["name"] for s in data["seats"]],
            list(data["pawns"]),
            [list(t) for t in data["trash"]],
            data["carrier"],
            data["first"],
            data["turn"],
            data["phase"],
            data["roll"],
            data["winner"],
            data["ply"],
            [Event.from_dict(e) for e in data["events"]],
            None if lm is None else {"seat": lm["seat"], "path": list(lm["path"])},
            Dice.from_dict(data["dice"]),
        )

    def view(self, seat: int | None) -> dict[str, Any]:
        """Everything on the table, plus ``reachable``: the squares the player to act may move to. Only
        the dice generator's state is left out: it would tell the next rolls."""
        return {
            "game": self.key,
            "title": self.title,
            "viewer": seat,
            "centre": CENTRE,
            "seats": [
                {
                    "seat": s,
                    "name": self.names[s],
                    "suit": SUITS[s],
                    "label": self.label(s),
                    "corner": self.corners[s],
                    "square": self.pawns[s],
                    "trash": list(self.trash[s]),
                    "carrying": self.carrier == s,
                }
                for s in range(self.n)
            ],
            "carrier": self.carrier,
            "good_stuff": self.good_stuff_square,
            "first": self.first,
            "turn": self.turn,
            "to_act": self.to_act,
            "phase": self.phase,
            "roll": self.roll,
            "winner": self.winner,
            "ply": self._ply,
            "events": [e.to_dict() for e in self.events],
            "last_move": None if self.last_move is None else {
                "seat": self.last_move["seat"], "path": list(self.last_move["path"])},
            "reachable": list(self.destinations()) if self.phase == MOVE else [],
        }

    def replay(self, actions: Iterable[str]) -> Self:
        """Apply notation strings in order (a convenience for logs and tests); returns ``self``."""
        for text in actions:
            self.apply(text)
        return self


# The position format -----------------------------------------------------------------------------


def _seat_of(suits: Sequence[str], suit: Any, what: str) -> int:
    """The seat playing ``suit`` among ``suits``, for the position's field ``what``."""
    if suit not in suits:
        raise SetupError(f"{what}: {suit!r} is not a suit in play ({', '.join(suits)}).")
    return suits.index(suit)


def _position_pieces(position: dict[str, Any], suits: Sequence[str]) -> tuple[list[str], list[list[str]]]:
    """A position's pawns (each on its corner unless placed) and trash stacks (a suit left out keeps those
    of its own pieces that no listed stack holds)."""
    for key in ("pawns", "trash"):
        if not isinstance(position.get(key, {}), dict):
            raise SetupError(f"`{key}` maps suits to {'squares' if key == 'pawns' else 'stacks of pieces'}.")
    n = len(suits)
    pawns = list(CORNERS_BY_PLAYERS[n])
    for suit, square in position.get("pawns", {}).items():
        if not isinstance(square, str) or not is_square(square.lower()):
            raise SetupError(f"pawns: {square!r} is not a square (a1 to e5).")
        pawns[_seat_of(suits, suit, "pawns")] = square.lower()
    given: dict[int, list[str]] = {}
    for suit, pieces in position.get("trash", {}).items():
        if not isinstance(pieces, list):
            raise SetupError(f"trash: {suit}'s trash is a list of pieces such as [\"SA\", \"MB\"].")
        given[_seat_of(suits, suit, "trash")] = [str(p).upper() for p in pieces]
    placed = {p for stack in given.values() for p in stack}
    trash = [
        given[s] if s in given else [c for c in (SUIT_CODES[s] + x for x in TRASH_LETTERS) if c not in placed]
        for s in range(n)
    ]
    return pawns, trash


def _position_phase(position: dict[str, Any]) -> tuple[str, int | None]:
    """A position's phase (``roll`` or ``move``) and the face rolled (needed to move)."""
    phase = position.get("phase", ROLL)
    if phase not in (ROLL, MOVE):
        raise SetupError("`phase` is `roll` or `move`.")
    roll = position.get("roll")
    if phase == MOVE and (not isinstance(roll, int) or not 1 <= roll <= 5):
        raise SetupError("A position in the `move` phase needs `roll`: the face rolled, 1 (Ace) to 5.")
    if roll is not None and (not isinstance(roll, int) or not 0 <= roll <= 5):
        raise SetupError("`roll` is a die face: 0 (Null), 1 (Ace) to 5.")
    return phase, roll


def _position_dice(position: dict[str, Any]) -> Dice:
    """A position's dice: seeded with ``seed``, with the faces of ``load`` to roll next."""
    seed = position.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise SetupError("`seed` is a whole number.")
    dice = Dice.seeded(seed)
    load = position.get("load", [])
    if not isinstance(load, list) or not all(isinstance(f, int) and 0 <= f <= 5 for f in load):
        raise SetupError("`load` lists die faces to roll next: 0 (Null), 1 (Ace) to 5.")
    dice.load(f + 1 for f in load)
    return dice
