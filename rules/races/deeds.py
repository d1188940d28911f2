"""Junkyard Races Phase 1: what a kart may set around it and where (traps, Magnets, Missiles, Bombs).

Rulebook: Phase 1, Junk Tile List; ruling R17.
"""

from __future__ import annotations

from rules.hexgrid import Facing, Hex
from rules.races import actions as act
from rules.races import queries
from rules.races.base import Part
from rules.races.state import BoardTile, Kart
from rules.races.texts import Said, kart_of, refuse, said


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

    def placement_problem(self, kart: Kart, cell: Hex, what: str) -> Said | None:
        assert kart.cell is not None
        at = cell.label
        if kart.cell.distance(cell) != 1:
            return said("place.not_next", cell=at)
        if self.g.track.is_stream(cell):
            return said("place.stream", cell=at)
        if not self.g.track.on_track(cell):
            return said("place.off_track", cell=at)
        if cell in self.g.track.pits:
            return said("place.pit", cell=at)
        wall = self.g.track.wall_between(kart.cell, cell)
        if wall and what != "missile" and not (what == "bomb" and kart.has_part("bomb-launcher")):
            return said("place.wall", cell=at)
        if what in ("missile", "bomb"):
            return None  # R17: set on a trap, a junk tile or a kart, they leave that cell at once
        if queries.kart_at(self.g, cell) is not None:
            return said("place.kart", cell=at)
        if cell in self.g.board:
            tile = self.g.board[cell]
            return said("place.junk", cell=at) if tile.face_down else said("place.trap", cell=at, tile=tile.kind)
        return None

    def check_placement(self, kart: Kart, cell: Hex, what: str) -> None:
        problem = self.placement_problem(kart, cell, what)
        if problem is not None:
            choices = [c.label for c in self.placement_cells(kart, what)]
            raise refuse("refuse.placement", problem=problem, cells=choices)

    def oil_arrow_ok(self, cell: Hex, arrow: Facing) -> bool:
        to = cell.neighbour(arrow)
        return not self.g.track.wall_between(cell, to) and (self.g.track.on_track(to) or self.g.track.is_stream(to))

    def place_trap(self, kart: Kart, trap: act.PlaceTrap) -> None:
        self.g.bags.need(kart, trap.kind)
        self.check_placement(kart, trap.cell, "trap")
        if trap.kind == "oil":
            if trap.arrow is None:
                raise refuse("refuse.oil_arrow")
            if not self.oil_arrow_ok(trap.cell, trap.arrow):
                raise refuse("refuse.oil_wall", arrow=trap.arrow.name, cell=trap.cell.label)
        elif trap.arrow is not None:
            raise refuse("refuse.arrow_oil_only", action=f"trap {trap.kind} {trap.cell.label}")
        tile = self.g.bags.take(kart, trap.kind)
        assert tile is not None
        self.g.board[trap.cell] = BoardTile(trap.kind, face_down=False, arrow=trap.arrow, owner=kart.seat)
        params = {"who": kart_of(kart), "tile": trap.kind, "cell": trap.cell.label}
        if trap.arrow:
            self.g.emit("trap", "event.trap_arrow", kart.seat, {**params, "arrow": trap.arrow.name},
                        cell=trap.cell.label, tile=trap.kind)
        else:
            self.g.emit("trap", "event.trap", kart.seat, params, cell=trap.cell.label, tile=trap.kind)

    def target_kart(self, colour: str) -> Kart:
        seat = queries.seat_by_colour(self.g, colour)
        if seat is None:
            raise refuse("refuse.no_such_kart", typed=colour, karts=[k.colour for k in self.g.karts])
        return self.g.karts[seat]
