"""Junkyard Races actions and their text notation.

Every action prints as one short line and parses back to an equal action (see
``rules/races/NOTATION.md``). Parse errors say what was expected. Which actions are legal is the
engine's business; this module only knows their shape.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rules.contract import NotationError
from rules.hexgrid import Facing, Hex, column_index, column_letters, parse_label
from rules.races.texts import bad_notation

LEAVE = "leave"  # R18: the last word of a step or move that drives past face-down junk tiles

RELATIVE_STEPS = {
    "l": -1, "left": -1,
    "s": 0, "straight": 0, "ahead": 0,
    "r": 1, "right": 1,
}


@dataclass(frozen=True, slots=True)
class Done:
    """End the current phase (1 or 2), or stop reversing after at least one step."""

    def __str__(self) -> str:
        return "done"


@dataclass(frozen=True, slots=True)
class Roll:
    """Phase 3: roll this many green, white (Turbo) and red (Jet) dice together."""

    green: int
    white: int = 0
    red: int = 0

    def __str__(self) -> str:
        text = f"roll {self.green}"
        if self.white:
            text += f" {self.white}w"
        if self.red:
            text += f" {self.red}r"
        return text


@dataclass(frozen=True, slots=True)
class Reverse:
    """Phase 3: reverse 1–3 cells instead of rolling."""

    def __str__(self) -> str:
        return "reverse"


@dataclass(frozen=True, slots=True)
class Step:
    """Phase 5: one step to a neighbouring cell (forward, or backward while reversing).

    ``turn`` keeps a relative form (-1 left, 0 straight, 1 right) until the engine resolves it.
    """

    cell: Hex | None
    turn: int | None = None
    leave: bool = False  # R18: leave the face-down junk tile on the way (default: take it)

    def __str__(self) -> str:
        where = {-1: "left", 0: "straight", 1: "right"}[self.turn or 0] if self.cell is None else self.cell.label
        return f"step {where}" + (f" {LEAVE}" if self.leave else "")


@dataclass(frozen=True, slots=True)
class Move:
    """Phase 5: several steps at once, as the path of cells driven through."""

    cells: tuple[Hex, ...]
    leave: bool = False  # R18: leave every face-down junk tile on the way (default: take them)

    def __str__(self) -> str:
        return "move " + " ".join(c.label for c in self.cells) + (f" {LEAVE}" if self.leave else "")


@dataclass(frozen=True, slots=True)
class Choose:
    """Answer a choice the rules leave to a player (R14): a cell, a facing, a number, a tile."""

    option: str

    def __str__(self) -> str:
        return f"choose {self.option}"


TRAP_KINDS = ("glue", "oil", "acid", "spring", "time-bomb")
TILE_ALIASES = {"timebomb": "time-bomb", "time_bomb": "time-bomb", "turbo": "turbo-fuel", "jet": "jet-fuel",
                "turbofuel": "turbo-fuel", "jetfuel": "jet-fuel"}


@dataclass(frozen=True, slots=True)
class PlaceTrap:
    """Phase 1: set a trap from your saddlebags on a cell next to your kart (Oil with its arrow)."""

    kind: str
    cell: Hex
    arrow: Facing | None = None

    def __str__(self) -> str:
        return f"trap {self.kind} {self.cell.label}" + (f" {self.arrow.name}" if self.arrow is not None else "")


@dataclass(frozen=True, slots=True)
class Fire:
    """Phase 1: a Magnet, Missile or Bomb set next to your kart and aimed at a kart (colour) or a cell."""

    weapon: str  # "magnet", "missile" or "bomb"
    cell: Hex
    target: str  # a kart colour, or a cell label for a trap or junk tile

    def __str__(self) -> str:
        return f"{self.weapon} {self.cell.label} {self.target}"


@dataclass(frozen=True, slots=True)
class Gadget:
    """Phase 1: Bomb Catcher snatch or Missile Deflector smash against an adjacent kart."""

    use: str  # "snatch" or "smash"
    target: str  # kart colour

    def __str__(self) -> str:
        return f"{self.use} {self.target}"


@dataclass(frozen=True, slots=True)
class Buy:
    """Phase 2, in a Pit Stop: buy a part and fit it (at a location when it fits several)."""

    part: str
    location: int | None = None

    def __str__(self) -> str:
        return f"buy {self.part}" + (f" {self.location}" if self.location is not None else "")


@dataclass(frozen=True, slots=True)
class Return:
    """Phase 2, in a Pit Stop: return the part at a location to its supply pile."""

    location: int

    def __str__(self) -> str:
        return f"return {self.location}"


@dataclass(frozen=True, slots=True)
class Refuel:
    """Phase 2: trade a fuel tile for the dice of its colour left in the supply."""

    colour: str  # "white" (Turbo) or "red" (Jet)

    def __str__(self) -> str:
        return f"refuel {self.colour}"


@dataclass(frozen=True, slots=True)
class Swap:
    """Phase 2, team racing: give or take a junk tile (adjacent karts) or a part (same Pit Stop)."""

    colour: str
    direction: str  # "give" or "take"
    tile: str | None = None
    part_location: int | None = None

    def __str__(self) -> str:
        what = self.tile if self.tile is not None else f"part {self.part_location}"
        return f"swap {self.colour} {self.direction} {what}"


@dataclass(frozen=True, slots=True)
class BagMove:
    """Any time in your own turn: move a tile from one of your saddlebags to another."""

    kind: str
    source: int
    dest: int

    def __str__(self) -> str:
        return f"bag {self.kind} {self.source} {self.dest}"


@dataclass(frozen=True, slots=True)
class Flip:
    """Any time in your own turn: show a tile face up to everyone, or hide it again."""

    kind: str
    face_up: bool

    def __str__(self) -> str:
        return f"{'show' if self.face_up else 'hide'} {self.kind}"


Action = (Done | Roll | Reverse | Step | Move | Choose | PlaceTrap | Fire | Gadget | Buy | Return | Refuel | Swap
          | BagMove | Flip)

HELP = {
    "done": "done: end this phase (or stop reversing)",
    "roll": "roll N [Ww] [Rr]: roll N green dice (1-3), plus W white and R red fuel dice, e.g. 'roll 3' or 'roll 2 1w'",
    "reverse": "reverse: reverse 1-3 cells instead of rolling",
    "step": "step CELL (or step left/straight/right) [leave]: drive one cell; 'leave' leaves a junk tile there",
    "move": "move CELL CELL ... [leave]: drive a path; 'leave' leaves the junk tiles on the way",
    "choose": "choose OPTION: answer the question the game is asking",
    "trap": "trap KIND CELL [ARROW]: set glue, oil (with its arrow), acid, spring or time-bomb next to you",
    "magnet": "magnet CELL COLOUR: set a Magnet next to you and pull that kart onto it",
    "missile": "missile CELL TARGET: launch a Missile at a kart (colour) or a tile (cell)",
    "bomb": "bomb CELL TARGET: roll a Bomb in a straight line at a kart (colour) or a tile (cell)",
    "snatch": "snatch COLOUR: Bomb Catcher, try to take a tile from an adjacent kart",
    "smash": "smash COLOUR: Missile Deflector, try to smash a part of an adjacent kart",
    "buy": "buy PART [LOCATION]: buy a part in this Pit Stop, like 'buy mud-tyres 3'",
    "return": "return LOCATION: give the part at that location back",
    "refuel": "refuel white|red: trade a fuel tile for fuel dice",
    "swap": "swap COLOUR give|take KIND, or swap COLOUR give|take part LOCATION (team racing)",
    "bag": "bag KIND FROM TO: move a tile between your saddlebags",
    "show": "show KIND: keep a tile face up; hide KIND turns it face down again",
}


def _cell(text: str, columns: int | None, rows: int | None) -> Hex:
    try:
        return parse_label(text, columns, rows)
    except ValueError as exc:
        raise _cell_error(text.strip(), columns, rows, exc) from None


def _cell_error(raw: str, columns: int | None, rows: int | None, exc: ValueError) -> NotationError:
    """What is wrong with a label :func:`parse_label` refused, as a message of the catalogue."""
    letters = raw.rstrip("-0123456789")
    digits = raw[len(letters):]
    if not raw:
        return bad_notation("notation.cell_needed")
    if raw.isdigit():
        return bad_notation("notation.cell_letters_first", text=raw)
    if raw.isalpha():
        return bad_notation("notation.cell_needs_row", text=raw)
    if not (letters.isalpha() and digits.lstrip("-").isdigit()):
        return bad_notation("notation.not_a_cell", text=raw)
    if int(digits) < 1:
        return bad_notation("notation.rows_from_one", text=raw)
    if columns is not None and column_index(letters.upper()) >= columns:
        return bad_notation("notation.columns_run", text=raw, last=column_letters(columns - 1))
    if rows is not None:
        return bad_notation("notation.rows_run", text=raw, rows=rows)
    return NotationError(str(exc))  # pragma: no cover - parse_label refuses nothing else


def _count(text: str, suffix: str, what: str) -> int:
    body = text[: -len(suffix)] if suffix and text.lower().endswith(suffix) else text
    if not body.isdigit():
        raise bad_notation("notation.dice_number", text=text, colour=what, suffix=suffix)
    return int(body)


def _leave(args: list[str]) -> tuple[list[str], bool]:
    """R18: a step or move may end with 'leave' (leave the face-down junk tiles on the way)."""
    if args and args[-1].lower() == LEAVE:
        return args[:-1], True
    return args, False


def _tile(text: str) -> str:
    low = text.lower()
    return TILE_ALIASES.get(low, low)


@dataclass(frozen=True, slots=True)
class _Board:
    """The board size cell labels are checked against (None: any size)."""

    columns: int | None
    rows: int | None

    def cell(self, text: str) -> Hex:
        return _cell(text, self.columns, self.rows)


def _nothing_after(verb: str, action: Action,
                   msg: str = "notation.nothing_after") -> Callable[[list[str], _Board], Action]:
    def parse_bare(args: list[str], board: _Board) -> Action:
        if args:
            raise bad_notation(msg, verb=verb)
        return action

    return parse_bare


def _parse_roll(args: list[str], board: _Board) -> Action:
    if not args:
        raise bad_notation("notation.roll")
    green = _count(args[0], "", "green")
    white = red = 0
    for a in args[1:]:
        low = a.lower()
        if low.endswith("w"):
            white = _count(low, "w", "white")
        elif low.endswith("r"):
            red = _count(low, "r", "red")
        else:
            raise bad_notation("notation.fuel_dice", text=a)
    return Roll(green, white, red)


def _parse_step(args: list[str], board: _Board) -> Action:
    args, leave = _leave(args)
    if len(args) != 1:
        raise bad_notation("notation.step")
    rel = RELATIVE_STEPS.get(args[0].lower())
    if rel is not None:
        return Step(None, rel, leave)
    return Step(board.cell(args[0]), None, leave)


def _parse_move(args: list[str], board: _Board) -> Action:
    args, leave = _leave(args)
    if not args:
        raise bad_notation("notation.move")
    return Move(tuple(board.cell(a) for a in args), leave)


def _parse_trap(args: list[str], board: _Board) -> Action:
    if len(args) not in (2, 3):
        raise bad_notation("notation.trap")
    kind = _tile(args[0])
    if kind not in TRAP_KINDS:
        raise bad_notation("notation.not_a_trap", text=args[0], traps=list(TRAP_KINDS))
    arrow = None
    if len(args) == 3:
        try:
            arrow = Facing.parse(args[2])
        except ValueError:
            raise bad_notation("notation.not_a_facing", text=args[2]) from None
    return PlaceTrap(kind, board.cell(args[1]), arrow)


def _fire(verb: str) -> Callable[[list[str], _Board], Action]:
    def parse_fire(args: list[str], board: _Board) -> Action:
        if len(args) != 2:
            raise bad_notation("notation.fire", verb=verb)
        target = args[1].lower()
        if not target.isalpha():
            target = board.cell(args[1]).label
        return Fire(verb, board.cell(args[0]), target)

    return parse_fire


def _gadget(verb: str) -> Callable[[list[str], _Board], Action]:
    def parse_gadget(args: list[str], board: _Board) -> Action:
        if len(args) != 1:
            raise bad_notation("notation.gadget", verb=verb)
        return Gadget(verb, args[0].lower())

    return parse_gadget


def _parse_buy(args: list[str], board: _Board) -> Action:
    if len(args) not in (1, 2):
        raise bad_notation("notation.buy")
    if len(args) == 2 and not args[1].isdigit():
        raise bad_notation("notation.location_number", text=args[1])
    loc = int(args[1]) if len(args) == 2 else None
    return Buy(args[0].lower(), loc)


def _parse_return(args: list[str], board: _Board) -> Action:
    if len(args) != 1 or not args[0].isdigit():
        raise bad_notation("notation.return")
    return Return(int(args[0]))


def _parse_refuel(args: list[str], board: _Board) -> Action:
    if len(args) != 1 or args[0].lower() not in ("white", "red"):
        raise bad_notation("notation.refuel")
    return Refuel(args[0].lower())


def _parse_swap(args: list[str], board: _Board) -> Action:
    if len(args) < 3 or args[1].lower() not in ("give", "take"):
        raise bad_notation("notation.swap")
    colour, direction = args[0].lower(), args[1].lower()
    if args[2].lower() == "part":
        if len(args) != 4 or not args[3].isdigit():
            raise bad_notation("notation.swap_part")
        return Swap(colour, direction, None, int(args[3]))
    if len(args) != 3:
        raise bad_notation("notation.swap_tile")
    return Swap(colour, direction, _tile(args[2]))


def _parse_bag(args: list[str], board: _Board) -> Action:
    if len(args) != 3 or not (args[1].isdigit() and args[2].isdigit()):
        raise bad_notation("notation.bag")
    return BagMove(_tile(args[0]), int(args[1]), int(args[2]))


def _flip(verb: str) -> Callable[[list[str], _Board], Action]:
    def parse_flip(args: list[str], board: _Board) -> Action:
        if len(args) != 1:
            raise bad_notation("notation.flip", verb=verb)
        return Flip(_tile(args[0]), verb == "show")

    return parse_flip


def _parse_choose(args: list[str], board: _Board) -> Action:
    if len(args) != 1:
        raise bad_notation("notation.choose")
    return Choose(args[0])


PARSERS: dict[str, Callable[[list[str], _Board], Action]] = {
    "done": _nothing_after("done", Done()),
    "reverse": _nothing_after("reverse", Reverse(), "notation.reverse_alone"),
    "roll": _parse_roll,
    "step": _parse_step,
    "move": _parse_move,
    "trap": _parse_trap,
    "magnet": _fire("magnet"),
    "missile": _fire("missile"),
    "bomb": _fire("bomb"),
    "snatch": _gadget("snatch"),
    "smash": _gadget("smash"),
    "buy": _parse_buy,
    "return": _parse_return,
    "refuel": _parse_refuel,
    "swap": _parse_swap,
    "bag": _parse_bag,
    "show": _flip("show"),
    "hide": _flip("hide"),
    "choose": _parse_choose,
}


def parse(text: str, columns: int | None = None, rows: int | None = None) -> Action:
    """Parse one action: the first word picks its parser from :data:`PARSERS`. ``columns``/``rows``
    bound cell labels to the board when given."""
    words = text.strip().split()
    if not words:
        raise bad_notation("notation.empty", verbs=list(HELP))
    verb, args = words[0].lower(), words[1:]
    parser = PARSERS.get(verb)
    if parser is None:
        raise bad_notation("notation.unknown", verb=verb, verbs=list(HELP))
    return parser(args, _Board(columns, rows))
