"""Junkyard Races traps going off: Glue, Oil, Acid, Spring and Time Bomb.

Rulebook: Moving On Or Over Traps, Junk Tile List; rulings R8, R9, R15, R16 and R20–R23.
"""

from __future__ import annotations

from rules.hexgrid import Facing, Hex
from rules.races import queries
from rules.races.base import Part
from rules.races.movement import in_blast, oil_skid
from rules.races.state import PHASE_MOVE, BoardTile, Choice, Kart
from rules.races.texts import Said, kart_of, said

TYRES = ("grass-tyres", "mud-tyres")


class Traps(Part):
    """Traps on the board (game.traps): what each does to a kart that meets it, and the Time Bombs."""

    def stops(self, kart: Kart, kind: str) -> bool:
        """Whether a trap of this kind (Oil aside: see Field) would stop this kart driving onto it (R9)."""
        if kind == "acid":
            return any(p in TYRES for p in kart.parts.values())  # standard tyres are acid-proof
        return kind in ("glue", "spring", "time-bomb")

    def meet(self, kart: Kart, cell: Hex, tile: BoardTile, how: str) -> None:
        """Hook: a kart arrives on a face-up trap by driving, being bumped, sliding, pulled or placed.

        A kart put on its Landing Point (R8) or on a start cell (R15) meets the trap there as if it had
        driven onto it before its move: where a trap would end a driving kart's move, its turn ends.
        """
        kind = tile.kind
        placed = how in ("land", "enter") and kart.seat == self.g.turn.seat
        mover = placed or (self.g.turn.phase == PHASE_MOVE and kart.seat == self.g.turn.seat and how == "drive")
        caught = how in ("drive", "bump", "slide") or placed
        if kind == "glue":
            if caught:
                kart.glued = True
                self.g.turn.marks.append([cell.label, "glue"])
                self.g.emit("glue", "event.glue", kart.seat, {"who": kart_of(kart), "cell": cell.label},
                            cell=cell.label)
                if mover:
                    self.stop_move()
        elif kind == "spring":
            if mover:
                self.spring(kart, cell)
        elif kind == "acid":
            if mover and any(p in TYRES for p in kart.parts.values()):
                self.acid(kart, cell)
        elif kind == "oil":
            if caught:
                self.oil(kart, cell, tile, mover)
        elif kind == "time-bomb" and caught:
            self.explode(cell, said("why.hits_time_bomb", who=kart_of(kart), cell=cell.label))
            if mover:
                self.stop_move()  # R21: the driving kart's move ends on the bomb's cell

    def stop_move(self) -> None:
        """A trap ends the mover's Phase 5 where it stands; before Phase 5 (a kart put on a trap on its
        Landing Point or start cell) the move ends before it began, and with it the turn."""
        self.g.turn.points = 0
        self.g.turn.phase = PHASE_MOVE

    def spring(self, kart: Kart, cell: Hex) -> None:
        roll = self.g.dice.roll()
        if roll >= 4:
            params = {"who": kart_of(kart), "cell": cell.label, "roll": roll}
            self.g.emit("spring", "event.spring_stuck", kart.seat, params, roll=roll, cell=cell.label)
            return
        self.g.board.pop(cell)
        self.g.return_tile("spring")
        back = self.g.turn.move_from
        self.g.turn.marks.append([cell.label, "spring"])
        params = {"who": kart_of(kart), "cell": cell.label, "roll": roll}
        if back is None or back == cell:  # a kart put on the Spring before moving (R8, R15)
            self.g.emit("spring", "event.spring_where_began", kart.seat, params, roll=roll, cell=cell.label)
        elif queries.kart_at(self.g, back) is None:
            kart.cell = back
            self.g.emit("spring", "event.spring", kart.seat, {**params, "to": back.label}, roll=roll, cell=cell.label)
        else:  # R23: another kart stands where the move began: the kart stays on the Spring's cell
            self.g.emit("spring", "event.spring_start_taken", kart.seat, params, roll=roll, cell=cell.label)
        self.stop_move()
        ask = said("ask.spring_facing")
        self.g.choice = Choice("facing", kart.seat, [f.name for f in Facing], ask, {"seat": kart.seat,
                                                                                   "ask": ask.to_data()})

    def acid(self, kart: Kart, cell: Hex) -> None:
        roll = self.g.dice.roll()
        if roll in (1, 6):
            params = {"who": kart_of(kart), "cell": cell.label, "roll": roll}
            self.g.emit("acid", "event.acid_skirted", kart.seat, params, roll=roll)
            return
        self.g.board.pop(cell)
        self.g.return_tile("acid")
        self.g.turn.marks.append([cell.label, "acid"])
        part = kart.parts.get(roll)
        if part in TYRES:
            self.g.emit("acid", "event.acid_melts", kart.seat, {"who": kart_of(kart), "cell": cell.label, "part": part,
                                                                "location": roll}, roll=roll)
            self.g.garage.remove_part(kart, roll, said("why.melted"))
        else:  # R20: no tyre at that location melts, but the move ends and the Acid is gone all the same
            params = {"who": kart_of(kart), "cell": cell.label, "roll": roll}
            self.g.emit("acid", "event.acid_no_tyre", kart.seat, params, roll=roll)
        self.stop_move()

    def oil(self, kart: Kart, cell: Hex, tile: BoardTile, mover: bool) -> None:
        assert tile.arrow is not None
        to = oil_skid(cell.neighbour(tile.arrow), lambda c: queries.kart_at(self.g, c) is not None)
        if to is None:
            self.g.emit("oil", "event.oil_blocked", kart.seat, {"who": kart_of(kart), "cell": cell.label},
                        cell=cell.label)
            return
        self.g.emit("oil", "event.oil", kart.seat, {"who": kart_of(kart), "cell": cell.label, "to": to.label},
                    cell=cell.label, to=to.label)
        self.g.board.pop(cell)
        self.g.return_tile("oil")
        self.g.turn.marks.append([cell.label, "oil"])
        if mover:
            self.stop_move()
        kart.facing = kart.facing.opposite
        self.g.moved(kart, cell, to)
        kart.cell = to
        if self.g.track.is_stream(to):
            self.g.turn.marks.append([to.label, "splash"])
            self.g.emit("splash", "event.slide_splash", kart.seat, {"who": kart_of(kart), "cell": to.label},
                        cell=to.label)
            return
        self.g.arrive(kart, to, "slide")

    def frozen(self, bomb: Hex) -> bool:
        return any(k.cell is not None and k.cell.distance(bomb) == 1 and k.has_part("freezer") for k in self.g.karts)

    def explode(self, cell: Hex, why: Said) -> None:
        tile = self.g.board.pop(cell, None)
        if tile is None:
            return
        self.g.return_tile(tile.kind)
        self.g.turn.marks.append([cell.label, "blast"])
        self.g.emit("time-bomb", "event.time_bomb", None, {"why": why, "cell": cell.label}, cell=cell.label)
        start = self.g.turn.seat
        order = self.g.karts[start:] + self.g.karts[:start]
        for k in order:
            if k.cell is not None and self.g.track.on_track(k.cell) and in_blast(cell, k.cell):
                self.g.weapons.blast(k, "time-bomb")

    def tick(self, kart: Kart, bomb: Hex) -> None:
        roll = self.g.dice.roll()
        if roll >= 4:
            self.g.emit("tick", "event.tick", kart.seat, {"who": kart_of(kart), "cell": bomb.label, "roll": roll},
                        roll=roll, cell=bomb.label)
            return
        self.explode(bomb, said("why.rolls_next_to_it", who=kart_of(kart), roll=roll))

    def bumped_next_to_bombs(self, kart: Kart) -> None:
        """R16, R22: a kart bumped next to a Time Bomb rolls for it at once (and, still there when the turn
        ends, again with the others: :meth:`turn_ends`)."""
        assert kart.cell is not None
        for bomb in sorted(c for c, t in self.g.board.items() if t.kind == "time-bomb" and not t.face_down):
            if bomb.distance(kart.cell) == 1 and not self.frozen(bomb):
                self.tick(kart, bomb)

    def turn_ends(self) -> None:
        """Hook (R16): however a turn ends, every kart next to a Time Bomb rolls for it."""
        start = self.g.turn.seat
        order = self.g.karts[start:] + self.g.karts[:start]
        for bomb in sorted(c for c, t in self.g.board.items() if t.kind == "time-bomb" and not t.face_down):
            if self.frozen(bomb):
                continue
            for k in order:
                if bomb not in self.g.board:
                    break
                if k.cell is not None and self.g.track.on_track(k.cell) and k.cell.distance(bomb) == 1:
                    self.tick(k, bomb)
