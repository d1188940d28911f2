"""Junkyard Races Phase 1: what a kart may set around it and where (traps, Magnets, Missiles, Bombs).

Rulebook: Phase 1, Junk Tile List; ruling R17.
"""

from __future__ import annotations

from rules.contract import IllegalAction
from rules.hexgrid import Facing, Hex
from rules.races import actions as act
from rules.races.base import Part
from rules.races.state import BoardTile, Kart
from rules.races.words import a_an, tile_name


class Deeds(Part):
    """Phase 1 (game.deeds): the deeds on offer, the placement rules, setting traps."""

    def actions(self, kart: Kart) -> list[act.Action]:
        kinds = self.g.bags.kinds(kart)
        out: list[act.Action] = []
        for kind in act.TRAP_KINDS:
            if kind not in kinds:
                continue
            for cell in self.placement_cells(kart, "trap"):
                if kind == "oil":
                    out += [act.PlaceTrap(kind, cell, f) for f in Facing if self.oil_arrow_ok(cell, f)]
                else:
                    out.append(act.PlaceTrap(kind, cell))
        if "magnet" in kinds:
            for cell in self.placement_cells(kart, "magnet"):
                out += [act.Fire("magnet", cell, k.colour) for k in self.g.karts
                        if self.g.weapons.magnet_path(kart, k, cell)]
        if "missile" in kinds:
            targets = self.g.weapons.strike_targets(kart)
            for cell in self.placement_cells(kart, "missile"):
                out += [act.Fire("missile", cell, t) for t, c in targets if c != cell]
        if "bomb" in kinds:
            for cell in self.placement_cells(kart, "bomb"):
                out += [act.Fire("bomb", cell, t) for t, c in self.g.weapons.strike_targets(kart)
                        if self.g.weapons.bomb_line(cell, c)]
        for use, part in (("snatch", "bomb-catcher"), ("smash", "missile-deflector")):
            if kart.has_part(part) and use not in self.g.turn.gadgets:
                if use == "snatch" and not self.g.bags.with_room(kart):
                    continue
                out += [act.Gadget(use, k.colour) for k in self.adjacent_karts(kart)]
        return out

    def adjacent_karts(self, kart: Kart) -> list[Kart]:
        assert kart.cell is not None
        near = set(kart.cell.neighbours())
        return [k for k in self.g.karts if k.seat != kart.seat and k.cell in near and self.g.track.on_track(k.cell)]

    def placement_cells(self, kart: Kart, what: str) -> list[Hex]:
        """Phase 1: the cells around the kart a trap or weapon may be set on."""
        assert kart.cell is not None
        out = []
        for cell in kart.cell.neighbours_on(self.g.track.columns, self.g.track.rows):
            if self.placement_problem(kart, cell, what) is None:
                out.append(cell)
        return out

    def placement_problem(self, kart: Kart, cell: Hex, what: str) -> str | None:
        assert kart.cell is not None
        if kart.cell.distance(cell) != 1:
            return f"{cell.label} is not next to your kart"
        if self.g.track.is_stream(cell):
            return f"{cell.label} is in the stream, and nothing is set on the water"
        if not self.g.track.on_track(cell):
            return f"{cell.label} is off the track"
        if cell in self.g.track.pits:
            return f"{cell.label} is in a Pit Stop, where nothing may be set"
        wall = self.g.track.wall_between(kart.cell, cell)
        if wall and what != "missile" and not (what == "bomb" and kart.has_part("bomb-launcher")):
            return f"a wall stands between your kart and {cell.label}"
        if what in ("missile", "bomb"):
            return None  # R17: set on a trap, a junk tile or a kart, they leave that cell at once
        if self.g.kart_at(cell) is not None:
            return f"a kart is on {cell.label}"
        if cell in self.g.board:
            tile = self.g.board[cell]
            return f"{cell.label} already holds {'a junk tile' if tile.face_down else a_an(tile_name(tile.kind))}"
        return None

    def check_placement(self, kart: Kart, cell: Hex, what: str) -> None:
        problem = self.placement_problem(kart, cell, what)
        if problem is not None:
            choices = ", ".join(c.label for c in self.placement_cells(kart, what)) or "none"
            raise IllegalAction(f"Can't set it there: {problem}. Cells you can use: {choices}.")

    def oil_arrow_ok(self, cell: Hex, arrow: Facing) -> bool:
        to = cell.neighbour(arrow)
        return not self.g.track.wall_between(cell, to) and (self.g.track.on_track(to) or self.g.track.is_stream(to))

    def place_trap(self, kart: Kart, trap: act.PlaceTrap) -> None:
        self.g.bags.need(kart, trap.kind)
        self.check_placement(kart, trap.cell, "trap")
        if trap.kind == "oil":
            if trap.arrow is None:
                raise IllegalAction("Oil needs its arrow: the way it throws a kart, like 'trap oil G7 NE'.")
            if not self.oil_arrow_ok(trap.cell, trap.arrow):
                raise IllegalAction(f"Oil's arrow can't point {trap.arrow.name} from {trap.cell.label}: a wall is "
                                    "there.")
        elif trap.arrow is not None:
            raise IllegalAction(f"Only Oil has an arrow; 'trap {trap.kind} {trap.cell.label}' is enough.")
        tile = self.g.bags.take(kart, trap.kind)
        assert tile is not None
        self.g.board[trap.cell] = BoardTile(trap.kind, face_down=False, arrow=trap.arrow, owner=kart.seat)
        arrow = f" pointing {trap.arrow.name}" if trap.arrow else ""
        self.g.emit("trap", f"{self.g.who(kart.seat)} sets {a_an(tile_name(trap.kind))}{arrow} on {trap.cell.label}.",
                    kart.seat, cell=trap.cell.label, tile=trap.kind)

    def target_kart(self, colour: str) -> Kart:
        seat = self.g.seat_by_colour(colour)
        if seat is None:
            racing = ", ".join(k.colour for k in self.g.karts)
            raise IllegalAction(f"No kart is {colour}; the karts are {racing}.")
        return self.g.karts[seat]
