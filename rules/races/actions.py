"""Junkyard Races actions and their text notation.

Every action prints as one short line and parses back to an equal action (see
``rules/races/NOTATION.md``). Parse errors say what was expected. Which actions are legal is the
engine's business; this module only knows their shape.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.contract import NotationError
from rules.hexgrid import Hex, parse_label

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

    def __str__(self) -> str:
        if self.cell is None:
            return "step " + {-1: "left", 0: "straight", 1: "right"}[self.turn or 0]
        return f"step {self.cell.label}"


@dataclass(frozen=True, slots=True)
class Move:
    """Phase 5: several steps at once, as the path of cells driven through."""

    cells: tuple[Hex, ...]

    def __str__(self) -> str:
        return "move " + " ".join(c.label for c in self.cells)


@dataclass(frozen=True, slots=True)
class Choose:
    """Answer a choice the rules leave to a player (R14): a cell, a facing, a number, a tile."""

    option: str

    def __str__(self) -> str:
        return f"choose {self.option}"


Action = Done | Roll | Reverse | Step | Move | Choose

HELP = {
    "done": "done: end this phase (or stop reversing)",
    "roll": "roll N [Ww] [Rr]: roll N green dice (1-3), plus W white and R red fuel dice, e.g. 'roll 3' or 'roll 2 1w'",
    "reverse": "reverse: reverse 1-3 cells instead of rolling",
    "step": "step CELL (or step left/straight/right): drive one cell",
    "move": "move CELL CELL ...: drive a path, one cell after another",
    "choose": "choose OPTION: answer the question the game is asking",
}


def _cell(text: str, columns: int | None, rows: int | None) -> Hex:
    try:
        return parse_label(text, columns, rows)
    except ValueError as exc:
        raise NotationError(str(exc)) from None


def _count(text: str, suffix: str, what: str) -> int:
    body = text[: -len(suffix)] if suffix and text.lower().endswith(suffix) else text
    if not body.isdigit():
        raise NotationError(f"{text!r}: expected a number of {what} dice, like '2{suffix}'")
    return int(body)


def parse(text: str, columns: int | None = None, rows: int | None = None) -> Action:
    """Parse one action. ``columns``/``rows`` bound cell labels to the board when given."""
    words = text.strip().split()
    if not words:
        raise NotationError("an action is needed; try one of: " + ", ".join(HELP))
    verb, args = words[0].lower(), words[1:]
    if verb == "done":
        if args:
            raise NotationError("'done' takes nothing after it")
        return Done()
    if verb == "reverse":
        if args:
            raise NotationError("'reverse' takes nothing after it: choose each backward step with 'step CELL'")
        return Reverse()
    if verb == "roll":
        if not args:
            raise NotationError("say how many green dice: 'roll 1', 'roll 2' or 'roll 3' (add '1w' or '1r' for fuel)")
        green = _count(args[0], "", "green")
        white = red = 0
        for a in args[1:]:
            low = a.lower()
            if low.endswith("w"):
                white = _count(low, "w", "white")
            elif low.endswith("r"):
                red = _count(low, "r", "red")
            else:
                raise NotationError(f"{a!r}: fuel dice are written like '2w' (white) or '1r' (red)")
        return Roll(green, white, red)
    if verb == "step":
        if len(args) != 1:
            raise NotationError("'step' takes one cell, like 'step F7', or left/straight/right")
        rel = RELATIVE_STEPS.get(args[0].lower())
        if rel is not None:
            return Step(None, rel)
        return Step(_cell(args[0], columns, rows))
    if verb == "move":
        if not args:
            raise NotationError("'move' takes the cells of the path in order, like 'move F7 G7 H8'")
        return Move(tuple(_cell(a, columns, rows) for a in args))
    if verb == "choose":
        if len(args) != 1:
            raise NotationError("'choose' takes one option, like 'choose NE' or 'choose F7'")
        return Choose(args[0])
    raise NotationError(f"unknown action {verb!r}; try one of: " + ", ".join(HELP))
