"""The position format: a few lines of JSON that set up any Junkyard Races situation.

A rule test states its situation directly instead of playing fifty moves to reach it. Every field but
``karts`` is optional; see ``rules/races/NOTATION.md`` for the whole format with examples. It sets up a
game through what :class:`~rules.races.base.Race` names of one, so it never imports the engine's module (the
engine imports this one).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from rules.contract import SetupError
from rules.hexgrid import Facing, parse_label
from rules.races import catalogue, queries
from rules.races.state import (
    PHASE_DEEDS,
    PHASE_MOVE,
    PHASE_PARTS,
    PHASE_ROLL,
    PRINTED_BAG,
    BoardTile,
    Kart,
    Tile,
    Turn,
)

if TYPE_CHECKING:
    from rules.races.base import Race

G = TypeVar("G", bound="Race")

PHASES = {"start", PHASE_DEEDS, PHASE_PARTS, PHASE_ROLL, PHASE_MOVE}


def _seat(game: Race, ref: object) -> int:
    if isinstance(ref, int):
        return ref
    seat = queries.seat_by_colour(game, str(ref))
    if seat is None:
        raise SetupError(f"no kart is {ref!r}")
    return seat


def _take_junk(game: Race, kind: str) -> None:
    if kind not in catalogue.JUNK_KINDS:
        raise SetupError(f"{kind!r} is not a junk tile; choose from {', '.join(catalogue.JUNK_KINDS)}")
    try:
        game.junk.remove(kind)
    except ValueError:
        raise SetupError(f"no {kind} tile is left in the junk pile") from None


def build(cls: type[G], pos: dict[str, Any]) -> G:
    """A game set up from the position ``pos``: karts, tiles on the board, whose turn, the phase, dice."""
    karts_in = pos.get("karts")
    if not karts_in:
        raise SetupError("a position needs 'karts'")
    options = {"track": pos.get("track", "A"), **pos.get("options", {})}
    seats = [{k: v for k, v in (("name", kd.get("name")), ("colour", kd.get("colour")), ("team", kd.get("team")))
              if v is not None} for kd in karts_in]
    game = cls.create({"seats": seats, "options": options}, int(pos.get("seed", 1)))
    game.last_events = []
    game.choice = None
    for kart, kd in zip(game.karts, karts_in, strict=True):
        _place_kart(game, kart, kd)
    cells = [k.cell for k in game.karts if k.cell is not None and game.track.on_track(k.cell)]
    if len(cells) != len(set(cells)):
        raise SetupError("two karts stand on the same cell")
    _lay_board(game, pos.get("board", {}))
    _start_turn(game, pos)
    game._advance()
    game._ply = 0
    return game


def _place_kart(game: Race, kart: Kart, kd: dict[str, Any]) -> None:
    """One kart of the position: its cell and facing, flags, bottle tops, parts, saddlebags and fuel, each
    taken from the game's supplies."""
    kart.cell = parse_label(kd["cell"]) if kd.get("cell") else None
    kart.facing = Facing.parse(kd.get("facing", "N"))
    kart.flags = int(kd.get("flags", 0))
    game.flags_left -= kart.flags
    kart.armed = bool(kd.get("armed", kart.flags > 0 or kart.cell is not None))
    kart.bridge_since_line = bool(kd.get("bridge", False))
    kart.bottle_tops = int(kd.get("bottle_tops", 0))
    game.bottle_tops_left -= kart.bottle_tops
    kart.glued = bool(kd.get("glued", False))
    kart.parts = {}
    kart.bags = {PRINTED_BAG: []}
    for loc_text, part in kd.get("parts", {}).items():
        if part not in catalogue.parts():
            raise SetupError(f"{part!r} is not a part; choose from {', '.join(catalogue.parts())}")
        game.parts_left[part] -= 1
        game.garage.fit(kart, part, int(loc_text))
    for loc_text, tiles in kd.get("bags", {}).items():
        _fill_bag(game, kart, int(loc_text), tiles)
    for colour in ("white", "red"):
        n = int(kd.get("fuel", {}).get(colour, 0))
        kart.fuel[colour] = n
        game.dice_left[colour] -= n


def _fill_bag(game: Race, kart: Kart, loc: int, tiles: list[str]) -> None:
    """The tiles of the position in ``kart``'s saddlebag at ``loc``, taken from the junk pile."""
    if loc not in kart.bags:
        raise SetupError(f"{kart.colour} has no saddlebag at location {loc}")
    for text in tiles:
        tile = Tile.from_json(text)
        _take_junk(game, tile.kind)
        kart.bags[loc].append(tile)
    if len(kart.bags[loc]) > queries.capacity(kart, loc):
        raise SetupError(f"{kart.colour}'s saddlebag {loc} holds only {queries.capacity(kart, loc)} tiles")


def _lay_board(game: Race, board: dict[str, str]) -> None:
    """The tiles on the board: ``junk`` (face down, of a kind or the pile's next) or a trap face up, with
    its arrow and owner."""
    game.board = {}
    for label, text in board.items():
        cell = parse_label(label)
        words = text.replace(":", " ").split()
        if words[0] == "junk":
            kind = words[1] if len(words) > 1 else game.junk[0]
            _take_junk(game, kind)
            game.board[cell] = BoardTile(kind, face_down=True)
        else:
            _take_junk(game, words[0])
            arrow = Facing.parse(words[1]) if len(words) > 1 else None
            owner = _seat(game, words[2]) if len(words) > 2 else None
            game.board[cell] = BoardTile(words[0], face_down=False, arrow=arrow, owner=owner)


def _start_turn(game: Race, pos: dict[str, Any]) -> None:
    """Whose turn it is and in which phase: from its start, or in the middle of a phase as given."""
    seat = _seat(game, pos.get("turn", 0))
    phase = pos.get("phase", "start")
    if phase not in PHASES:
        raise SetupError(f"phase {phase!r} is not one of {', '.join(sorted(PHASES))}")
    game.dice.load(pos.get("dice", []))  # before the turn starts: a trap on a Landing Point rolls at once
    if phase == "start":
        game._begin_turn(seat, 1)
        return
    kart = game.karts[seat]
    game.turn = Turn(seat, 1, phase, began_at=kart.cell)
    if phase == PHASE_MOVE:
        game.turn.points = int(pos.get("points", 1))
        game.turn.reversing = bool(pos.get("reversing", False))
        game.turn.reverse_steps = int(pos.get("reverse_steps", 0))
        game.turn.move_from = kart.cell
        game.turn.move_facing = kart.facing
    game.turn.bumped = [_seat(game, s) for s in pos.get("bumped", [])]
    if pos.get("die_limit") is not None:
        game.turn.die_limit = int(pos["die_limit"])
