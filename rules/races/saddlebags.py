"""Junkyard Races saddlebags: room, storing and losing tiles, moving, showing and hiding them.

Rulebook: Junk Tile Storage, Saddlebags; rulings R10, R12 and R14.
"""

from __future__ import annotations

from rules.races import actions as act
from rules.races import queries
from rules.races.base import Part
from rules.races.state import PRINTED_BAG, Choice, Kart, Tile
from rules.races.texts import Said, kart_of, plain, refuse, said


class Saddlebags(Part):
    """The kart's saddlebags (game.bags): where a tile goes, and what the player does with tiles held."""

    def room(self, kart: Kart, loc: int) -> int:
        return queries.capacity(kart, loc) - len(kart.bags.get(loc, []))

    def order(self, kart: Kart) -> list[int]:
        return sorted(kart.bags, key=lambda loc: (loc != PRINTED_BAG, loc))

    def free_actions(self, kart: Kart) -> list[act.Action]:
        """Tile moves between saddlebags and showing or hiding tiles, any time in your own turn."""
        out: list[act.Action] = []
        for src, tiles in sorted(kart.bags.items()):
            for kind in sorted({t.kind for t in tiles}):
                for dst in sorted(kart.bags):
                    if dst != src and self.room(kart, dst) > 0:
                        out.append(act.BagMove(kind, src, dst))
        kinds_down = sorted({t.kind for ts in kart.bags.values() for t in ts if not t.face_up})
        kinds_up = sorted({t.kind for ts in kart.bags.values() for t in ts if t.face_up})
        out += [act.Flip(k, True) for k in kinds_down] + [act.Flip(k, False) for k in kinds_up]
        return out

    def kinds(self, kart: Kart) -> set[str]:
        return {t.kind for tiles in kart.bags.values() for t in tiles}

    def with_room(self, kart: Kart) -> list[int]:
        return [loc for loc in self.order(kart) if self.room(kart, loc) > 0]

    def store(self, kart: Kart, kind: str, where: Said) -> bool:
        """Put a tile in a saddlebag; with room in several the player chooses (R14). False: no room."""
        bags = self.with_room(kart)
        if not bags:
            return False
        if len(bags) == 1 or self.g.choice is not None:
            # With another question already waiting (two karts picking up in one bump), the tile goes
            # in the first bag with room rather than the second question being lost.
            kart.bags[bags[0]].append(Tile(kind))
        else:
            ask = said("ask.bag", where=where)
            self.g.choice = Choice("bag", kart.seat, [str(b) for b in bags], ask, {"kind": kind, "ask": ask.to_data()})
        return True

    def rehome(self, kart: Kart, tiles: list[Tile], why: Said | str) -> None:
        """R10: a part covering the printed saddlebag: its tiles move to the kart's other saddlebags.

        They go in the order they lay. With room in one saddlebag only they go there; with room in
        several the player says which takes each tile (R14, one question at a time); tiles that find no
        room are lost to the pile (move the ones to keep with 'bag' before fitting the part).
        """
        tiles = list(tiles)
        while tiles:
            bags = self.with_room(kart)
            if not bags:
                for t in tiles:
                    self.g.return_tile(t.kind)
                self.g.emit("tiles-lost", "event.tiles_lost", kart.seat,
                            {"who": kart_of(kart), "count": len(tiles), "location": PRINTED_BAG, "why": why},
                            location=PRINTED_BAG, count=len(tiles))
                return
            if len(bags) > 1 and self.g.choice is None:
                ask = said("ask.covered_bag", location=PRINTED_BAG, count=len(tiles))
                self.g.choice = Choice("bag", kart.seat, [str(b) for b in bags], ask,
                                       {"kind": tiles[0].kind, "tile": tiles[0].to_json(),
                                        "queue": [t.to_json() for t in tiles[1:]], "why": plain(why),
                                        "ask": ask.to_data()})
                return
            take = min(len(tiles), self.room(kart, bags[0]))
            kart.bags[bags[0]].extend(tiles[:take])
            tiles = tiles[take:]
            self.g.emit("bag", "event.rehome", kart.seat, {"who": kart_of(kart), "count": take, "location": PRINTED_BAG,
                                                           "dest": bags[0]})

    def take(self, kart: Kart, kind: str) -> Tile | None:
        """Remove one tile of a kind from the kart's bags (face-down ones first)."""
        for face_up in (False, True):
            for loc in sorted(kart.bags):
                for i, t in enumerate(kart.bags[loc]):
                    if t.kind == kind and t.face_up == face_up:
                        return kart.bags[loc].pop(i)
        return None

    def need(self, kart: Kart, kind: str) -> None:
        if kind not in self.kinds(kart):
            raise refuse("refuse.no_tile", tile=kind, tiles=sorted(self.kinds(kart)))

    def lose(self, kart: Kart, loc: int, why: Said) -> None:
        tiles = kart.bags.get(loc, [])
        if tiles:
            for t in tiles:
                self.g.return_tile(t.kind)
            self.g.emit("tiles-lost", "event.tiles_lost", kart.seat,
                        {"who": kart_of(kart), "count": len(tiles), "location": loc, "why": why},
                        location=loc, count=len(tiles))
        kart.bags[loc] = []

    def move(self, kart: Kart, move: act.BagMove) -> None:
        if move.source not in kart.bags or move.dest not in kart.bags:
            where = [str(loc) for loc in sorted(kart.bags)]
            raise refuse("refuse.bags_at", count=len(where), locations=where)
        if move.source == move.dest:
            raise refuse("refuse.two_bags")
        tiles = kart.bags[move.source]
        index = next((i for i, t in enumerate(tiles) if t.kind == move.kind), None)
        if index is None:
            raise refuse("refuse.bag_lacks", location=move.source, tile=move.kind)
        if self.room(kart, move.dest) <= 0:
            raise refuse("refuse.bag_full", location=move.dest)
        kart.bags[move.dest].append(tiles.pop(index))
        self.g.emit("bag", "event.bag_move", kart.seat, {"who": kart_of(kart), "location": move.source,
                                                         "dest": move.dest})

    def flip(self, kart: Kart, flip: act.Flip) -> None:
        # In location order, as everywhere else: the bags' insertion order is not part of the state, so a
        # game loaded from its snapshot must turn the same tile as the game that was never stored.
        for loc in sorted(kart.bags):
            for t in kart.bags[loc]:
                if t.kind == flip.kind and t.face_up != flip.face_up:
                    t.face_up = flip.face_up
                    if flip.face_up:
                        self.g.emit("show", "event.show", kart.seat, {"who": kart_of(kart), "tile": flip.kind},
                                    tile=flip.kind)
                    else:
                        self.g.emit("hide", "event.hide", kart.seat, {"who": kart_of(kart)})
                    return
        raise refuse("refuse.none_face_down" if flip.face_up else "refuse.none_face_up", tile=flip.kind)
