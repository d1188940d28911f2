"""The plain data of a Junkyard Races game: karts, tiles on the board, the turn, the supplies.

Everything here is a small mutable dataclass with ``to_dict``/``from_dict`` and a cheap ``copy``; the
engine validates an action completely, then applies it to a copy, so a refused action never leaves a
trace. Cells travel in JSON as their labels.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.hexgrid import Facing, Hex, parse_label

PHASE_ENTER = "enter"  # R15: choosing a start cell at the start of the first turn
PHASE_DEEDS = "deeds"  # phase 1
PHASE_PARTS = "parts"  # phase 2
PHASE_ROLL = "roll"  # phase 3 (phase 4, the delivery, follows the roll at once)
PHASE_MOVE = "move"  # phase 5 (phase 6, passing the dice, follows the move at once)
PHASE_OVER = "over"

PHASE_NUMBERS = {PHASE_ENTER: 0, PHASE_DEEDS: 1, PHASE_PARTS: 2, PHASE_ROLL: 3, PHASE_MOVE: 5, PHASE_OVER: 6}

PRINTED_BAG = 7  # location of the saddlebag printed on every Kart Card (R10)


def cell_to_json(cell: Hex | None) -> str | None:
    return None if cell is None else cell.label


def cell_from_json(text: str | None) -> Hex | None:
    return None if text is None else parse_label(text)


@dataclass(slots=True)
class Tile:
    """A junk tile in a saddlebag; ``face_up`` tiles are shown to everyone."""

    kind: str
    face_up: bool = False

    def to_json(self) -> str:
        return self.kind + ("+" if self.face_up else "")

    @classmethod
    def from_json(cls, text: str) -> Tile:
        return cls(text.rstrip("+"), text.endswith("+"))


@dataclass(slots=True)
class BoardTile:
    """Something lying on a cell: delivered junk waiting face down, or a trap a player set."""

    kind: str  # for face-down junk this is the secret identity (R12)
    face_down: bool = True
    arrow: Facing | None = None  # Oil's arrow
    owner: int | None = None  # the seat that set a trap

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if not self.face_down:
            out["face_down"] = False
        if self.arrow is not None:
            out["arrow"] = self.arrow.name
        if self.owner is not None:
            out["owner"] = self.owner
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> BoardTile:
        arrow = d.get("arrow")
        return cls(d["kind"], bool(d.get("face_down", True)), Facing[arrow] if arrow else None, d.get("owner"))

    def copy(self) -> BoardTile:
        return BoardTile(self.kind, self.face_down, self.arrow, self.owner)


@dataclass(slots=True)
class Kart:
    seat: int
    name: str
    colour: str
    team: int | None = None
    crew: str | None = None
    crew_set: int | None = None
    cell: Hex | None = None  # None until the kart enters the race (R15)
    facing: Facing = Facing.N
    flags: int = 0
    armed: bool = False  # R4: the first forward crossing after the start only arms the count
    bridge_since_line: bool = False  # R4: a bridge crossed since the line was last crossed
    bottle_tops: int = 0
    parts: dict[int, str] = field(default_factory=dict)  # location -> part id
    bags: dict[int, list[Tile]] = field(default_factory=lambda: {PRINTED_BAG: []})
    fuel: dict[str, int] = field(default_factory=lambda: {"white": 0, "red": 0})
    glued: bool = False  # stopped on Glue: next turn starts by peeling it off and rolls one die

    def copy(self) -> Kart:
        return Kart(
            self.seat, self.name, self.colour, self.team, self.crew, self.crew_set, self.cell, self.facing,
            self.flags, self.armed, self.bridge_since_line, self.bottle_tops, dict(self.parts),
            {loc: [Tile(t.kind, t.face_up) for t in tiles] for loc, tiles in self.bags.items()},
            dict(self.fuel), self.glued,
        )

    @property
    def tile_count(self) -> int:
        return sum(len(tiles) for tiles in self.bags.values())

    def has_part(self, part: str) -> bool:
        return part in self.parts.values()

    def count_part(self, part: str) -> int:
        return sum(1 for p in self.parts.values() if p == part)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "seat": self.seat,
            "name": self.name,
            "colour": self.colour,
            "cell": cell_to_json(self.cell),
            "facing": self.facing.name,
            "flags": self.flags,
            "armed": self.armed,
            "bridge_since_line": self.bridge_since_line,
            "bottle_tops": self.bottle_tops,
            "parts": {str(k): v for k, v in sorted(self.parts.items())},
            "bags": {str(k): [t.to_json() for t in v] for k, v in sorted(self.bags.items())},
            "fuel": dict(self.fuel),
            "glued": self.glued,
        }
        if self.team is not None:
            out["team"] = self.team
        if self.crew is not None:
            out["crew"] = self.crew
            out["crew_set"] = self.crew_set
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Kart:
        return cls(
            seat=int(d["seat"]),
            name=d["name"],
            colour=d["colour"],
            team=d.get("team"),
            crew=d.get("crew"),
            crew_set=d.get("crew_set"),
            cell=cell_from_json(d.get("cell")),
            facing=Facing[d.get("facing", "N")],
            flags=int(d.get("flags", 0)),
            armed=bool(d.get("armed", False)),
            bridge_since_line=bool(d.get("bridge_since_line", False)),
            bottle_tops=int(d.get("bottle_tops", 0)),
            parts={int(k): v for k, v in d.get("parts", {}).items()},
            bags={int(k): [Tile.from_json(t) for t in v] for k, v in d.get("bags", {str(PRINTED_BAG): []}).items()},
            fuel={"white": 0, "red": 0, **{k: int(v) for k, v in d.get("fuel", {}).items()}},
            glued=bool(d.get("glued", False)),
        )


@dataclass(slots=True)
class Choice:
    """A decision the rules leave to one player (R14), waiting for ``choose``."""

    kind: str  # "enter", "facing", "ram", "bag", ...
    seat: int
    options: list[str]
    prompt: str
    context: dict[str, Any] = field(default_factory=dict)

    def copy(self) -> Choice:
        return Choice(self.kind, self.seat, list(self.options), self.prompt, dict(self.context))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "seat": self.seat, "options": list(self.options),
                               "prompt": self.prompt}
        if self.context:
            out["context"] = self.context
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Choice:
        return cls(d["kind"], int(d["seat"]), list(d["options"]), d["prompt"], dict(d.get("context", {})))


@dataclass(slots=True)
class Turn:
    """What the player whose turn it is has done so far this turn."""

    seat: int
    number: int = 1  # turns played in the race, counting from 1
    phase: str = PHASE_DEEDS
    began_at: Hex | None = None  # the kart's cell when the turn began (Pit Stops: bought only there)
    move_from: Hex | None = None  # where Phase 5 started (a Spring flings the kart back here)
    move_facing: Facing | None = None
    dice: dict[str, list[int]] = field(default_factory=dict)  # rolled this turn, by colour
    total: int = 0
    points: int = 0  # movement points left in Phase 5
    reversing: bool = False
    reverse_steps: int = 0
    die_limit: int | None = None  # Glue: one die this turn
    bumped: list[int] = field(default_factory=list)  # seats bumped this turn (once each)
    path: list[str] = field(default_factory=list)  # cells driven this turn, for the picture
    marks: list[list[str]] = field(default_factory=list)  # [cell, what] happenings on the way
    gadgets: list[str] = field(default_factory=list)  # "snatch" / "smash" attempts made this turn

    def copy(self) -> Turn:
        return Turn(
            self.seat, self.number, self.phase, self.began_at, self.move_from, self.move_facing,
            {k: list(v) for k, v in self.dice.items()}, self.total, self.points, self.reversing,
            self.reverse_steps, self.die_limit, list(self.bumped), list(self.path), [list(m) for m in self.marks],
            list(self.gadgets),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "number": self.number,
            "phase": self.phase,
            "began_at": cell_to_json(self.began_at),
            "move_from": cell_to_json(self.move_from),
            "move_facing": self.move_facing.name if self.move_facing is not None else None,
            "dice": {k: list(v) for k, v in self.dice.items()},
            "total": self.total,
            "points": self.points,
            "reversing": self.reversing,
            "reverse_steps": self.reverse_steps,
            "die_limit": self.die_limit,
            "bumped": list(self.bumped),
            "path": list(self.path),
            "marks": [list(m) for m in self.marks],
            "gadgets": list(self.gadgets),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Turn:
        mf = d.get("move_facing")
        return cls(
            seat=int(d["seat"]),
            number=int(d.get("number", 1)),
            phase=d.get("phase", PHASE_DEEDS),
            began_at=cell_from_json(d.get("began_at")),
            move_from=cell_from_json(d.get("move_from")),
            move_facing=Facing[mf] if mf else None,
            dice={k: [int(x) for x in v] for k, v in d.get("dice", {}).items()},
            total=int(d.get("total", 0)),
            points=int(d.get("points", 0)),
            reversing=bool(d.get("reversing", False)),
            reverse_steps=int(d.get("reverse_steps", 0)),
            die_limit=d.get("die_limit"),
            bumped=[int(s) for s in d.get("bumped", [])],
            path=list(d.get("path", [])),
            marks=[list(m) for m in d.get("marks", [])],
            gadgets=list(d.get("gadgets", [])),
        )
