"""Junkyard Races weapons and damage: Magnet, Missile, Bomb, the gadgets, and what an explosion does.

Rulebook: Magnet, Missile, Bomb, Bomb Catcher, Missile Deflector, Smoke Screen Generator, damage.
"""

from __future__ import annotations

from collections import deque

from rules.hexgrid import Facing, Hex
from rules.races import actions as act
from rules.races import queries
from rules.races.base import Part
from rules.races.state import Choice, Kart
from rules.races.texts import Said, kart_of, refuse, said

MAGNET_REACH = 10  # cells counted, the target's and the Magnet's included


class Weapons(Part):
    """Weapons and damage (game.weapons): pulling, striking, blasting, snatching and smashing."""

    def magnet_path(self, user: Kart, target: Kart, magnet: Hex) -> list[Hex] | None:
        """The shortest pull from the target to the Magnet, within reach, or None.

        Counted like a drive: round karts and walls, never over a bridge against its arrows.
        """
        if target.cell is None or not self.g.track.on_track(target.cell):
            return None
        if target.has_part("field-generator"):
            return None
        if target.seat == user.seat:
            ok = self.g.track.may_step(target.cell, magnet)
            return [target.cell, magnet] if ok else None
        blocked = {k.cell for k in self.g.karts if k.cell is not None and k.seat != target.seat}
        prev: dict[Hex, Hex | None] = {target.cell: None}
        frontier = deque([(target.cell, 1)])
        while frontier:
            cell, count = frontier.popleft()
            if cell == magnet:
                path = [cell]
                node = prev[cell]
                while node is not None:
                    path.append(node)
                    node = prev[node]
                return path[::-1]
            if count >= MAGNET_REACH:
                continue
            for n in cell.neighbours():
                if n in prev or n in blocked or not self.g.track.may_step(cell, n):
                    continue
                prev[n] = cell
                frontier.append((n, count + 1))
        return None

    def magnet(self, kart: Kart, fire: act.Fire) -> None:
        self.g.bags.need(kart, "magnet")
        self.g.deeds.check_placement(kart, fire.cell, "magnet")
        target = self.g.deeds.target_kart(fire.target)
        if target.has_part("field-generator"):
            raise refuse("refuse.field_generator", who=kart_of(target))
        path = self.magnet_path(kart, target, fire.cell)
        if path is None:
            raise refuse("refuse.magnet_reach", cell=fire.cell.label, who=kart_of(target), reach=MAGNET_REACH)
        self.g.bags.take(kart, "magnet")
        self.g.return_tile("magnet")
        assert target.cell is not None
        self.g.emit("magnet", "event.magnet", target.seat, {"who": kart_of(kart), "cell": fire.cell.label,
                                                            "victim": kart_of(target), "frm": target.cell.label},
                    cell=fire.cell.label, frm=target.cell.label, by=kart.seat)
        self.g.turn.marks.append([fire.cell.label, "magnet"])
        target.cell = fire.cell
        self.g.arrive(target, fire.cell, "pull")
        options = [f.name for f in Facing]
        if self.g.choice is None:
            ask = said("ask.magnet_facing", colour=target.colour, cell=fire.cell.label)
            self.g.choice = Choice("facing", kart.seat, options, ask, {"seat": target.seat, "ask": ask.to_data()})

    def strike_targets(self, kart: Kart) -> list[tuple[str, Hex]]:
        """Karts on the track (other than your own) and tiles on the board: (target text, cell)."""
        out = [(k.colour, k.cell) for k in self.g.karts
               if k.seat != kart.seat and k.cell is not None and self.g.track.on_track(k.cell)]
        out += [(c.label, c) for c in sorted(self.g.board)]
        return out

    def resolve_target(self, kart: Kart, text: str) -> tuple[Kart | None, Hex]:
        if text.isalpha():
            target = self.g.deeds.target_kart(text)
            if target.seat == kart.seat:
                raise refuse("refuse.aim_own_kart")
            if target.cell is None or not self.g.track.on_track(target.cell):
                raise refuse("refuse.not_on_track", who=kart_of(target))
            return target, target.cell
        cell = self.g.track.parse_cell(text)
        k = queries.kart_at(self.g, cell)
        if k is not None and k.seat != kart.seat:
            if not self.g.track.on_track(cell):
                raise refuse("refuse.target_in_stream", who=kart_of(k), cell=cell.label)
            return k, cell
        if cell not in self.g.board:
            raise refuse("refuse.nothing_to_aim_at", cell=cell.label)
        return None, cell

    def bomb_line(self, start: Hex, target: Hex) -> bool:
        """A Bomb rolls straight over empty track, never over a wall, from its cell to the target."""
        facing = _direction(start, target)
        if facing is None:
            return False
        cell = start
        while True:
            nxt = cell.neighbour(facing)
            if self.g.track.wall_between(cell, nxt) or not self.g.track.on_track(nxt):
                return False
            if nxt == target:
                return True
            if queries.kart_at(self.g, nxt) is not None or nxt in self.g.board:
                return False
            cell = nxt

    def missile(self, kart: Kart, fire: act.Fire) -> None:
        self.g.bags.need(kart, "missile")
        self.g.deeds.check_placement(kart, fire.cell, "missile")
        target, cell = self.resolve_target(kart, fire.target)
        if cell == fire.cell:
            raise refuse("refuse.missile_same_cell", cell=cell.label)
        self.g.bags.take(kart, "missile")
        dice = self.g.dice.rolls(3 if kart.has_part("missile-launcher") else 2)
        self.strike(kart, "missile", fire.cell, target, cell, dice)

    def bomb(self, kart: Kart, fire: act.Fire) -> None:
        self.g.bags.need(kart, "bomb")
        self.g.deeds.check_placement(kart, fire.cell, "bomb")
        target, cell = self.resolve_target(kart, fire.target)
        if not self.bomb_line(fire.cell, cell):
            raise refuse("refuse.bomb_line", start=fire.cell.label, cell=cell.label)
        self.g.bags.take(kart, "bomb")
        dice = self.g.dice.rolls(2 if kart.has_part("bomb-launcher") else 1)
        self.strike(kart, "bomb", fire.cell, target, cell, dice)

    def strike(self, kart: Kart, weapon: str, start: Hex, target: Kart | None, cell: Hex,
                dice: list[int]) -> None:
        distance = start.distance(cell)
        smoke = 2 if target is not None and target.has_part("smoke-screen") else 0
        reach = sum(dice) - smoke
        what: dict[str, str] | Said = kart_of(target) if target is not None else said("word.tile_on", cell=cell.label)
        params = {"who": kart_of(kart), "weapon": weapon, "start": start.label, "target": what, "distance": distance,
                  "dice": ", ".join(map(str, dice)), "smoke": said("word.smoke") if smoke else ""}
        self.g.turn.marks.append([start.label, weapon])
        if reach < distance:
            self.g.return_tile(weapon)
            self.g.emit(weapon, "event.dud", kart.seat, params, dice=dice, hit=False, cell=cell.label)
            return
        self.g.emit(weapon, "event.strike", kart.seat, params, dice=dice, hit=True, cell=cell.label)
        self.g.return_tile(weapon)
        if target is None:
            tile = self.g.board.pop(cell)
            self.g.return_tile(tile.kind)
            self.g.turn.marks.append([cell.label, "blast"])
            self.g.emit("destroyed", "event.tile_destroyed", None, {"cell": cell.label}, cell=cell.label)
            return
        if weapon == "missile":
            self.missile_lands(kart, target)
        else:
            if target.has_part("bomb-catcher"):
                roll = self.g.dice.roll()
                if roll >= 4:
                    self.g.emit("caught", "event.caught", target.seat, {"who": kart_of(target), "roll": roll},
                                roll=roll)
                    return
                self.g.emit("catch-missed", "event.catch_missed", target.seat, {"who": kart_of(target), "roll": roll},
                            roll=roll)
            self.blast(target, "bomb")

    def missile_lands(self, sender: Kart, target: Kart) -> None:
        """Missile Deflector ping-pong: 5 or 6 sends it back; whoever misses is hit."""
        victim, other = target, sender
        for _ in range(200):
            if not victim.has_part("missile-deflector"):
                break
            roll = self.g.dice.roll()
            if roll < 5:
                params = {"who": kart_of(victim), "roll": roll}
                self.g.emit("deflect-missed", "event.deflect_missed", victim.seat, params, roll=roll)
                break
            self.g.emit("deflected", "event.deflected", victim.seat, {"who": kart_of(victim), "roll": roll,
                                                                      "other": kart_of(other)}, roll=roll)
            victim, other = other, victim
        self.blast(victim, "missile")

    def blast(self, kart: Kart, source: str) -> None:
        """An explosion (``source``: missile, bomb or time-bomb) hits a kart: it spins to face the other way and
        rolls two dice for damage."""
        kart.facing = kart.facing.opposite
        assert kart.cell is not None
        self.g.turn.marks.append([kart.cell.label, "blast"])
        self.g.emit("hit", "event.hit", kart.seat, {"weapon": source, "who": kart_of(kart)}, cell=kart.cell.label)
        self.damage(kart, self.g.dice.roll() + self.g.dice.roll(), "damage")

    def damage(self, kart: Kart, location: int, how: str) -> None:
        """Locations 2–9 of the Kart Card: the part there is destroyed; a saddlebag hit loses its tiles."""
        if not 2 <= location <= 9:
            self.g.emit(how, "event.damage_miss", kart.seat, {"who": kart_of(kart), "location": location},
                        location=location)
            return
        part = kart.parts.get(location)
        if part is None:
            if location in kart.bags:
                self.g.emit(how, "event.damage_bag", kart.seat, {"who": kart_of(kart), "location": location},
                            location=location)
                self.g.bags.lose(kart, location, said("why.hit"))
                return
            self.g.emit(how, "event.damage_empty", kart.seat, {"who": kart_of(kart), "location": location},
                        location=location)
            return
        self.g.emit(how, "event.damage_part", kart.seat, {"who": kart_of(kart), "location": location, "part": part},
                    location=location, part=part)
        self.g.garage.remove_part(kart, location, said("why.destroyed"))

    def gadget(self, kart: Kart, gadget: act.Gadget) -> None:
        part = "bomb-catcher" if gadget.use == "snatch" else "missile-deflector"
        snatch = gadget.use == "snatch"
        if not kart.has_part(part):
            raise refuse("refuse.snatch_needs" if snatch else "refuse.smash_needs")
        if gadget.use in self.g.turn.gadgets:
            raise refuse("refuse.one_snatch" if snatch else "refuse.one_smash")
        target = self.g.deeds.target_kart(gadget.target)
        if target not in self.g.deeds.adjacent_karts(kart):
            raise refuse("refuse.not_adjacent", who=kart_of(target))
        if snatch and not self.g.bags.with_room(kart):
            raise refuse("refuse.no_room_to_snatch")
        self.g.turn.gadgets.append(gadget.use)
        location = self.g.dice.roll() + self.g.dice.roll()
        if gadget.use == "smash":
            self.g.emit("smash", "event.smash", kart.seat, {"who": kart_of(kart), "victim": kart_of(target)},
                        location=location)
            self.damage(target, location, "smash-roll")
            return
        tiles = target.bags.get(location, []) if location in target.bags and queries.capacity(target, location) else []
        if not tiles:
            self.g.emit("snatch", "event.snatch_nothing", kart.seat, {"who": kart_of(kart), "victim": kart_of(target),
                                                                      "location": location}, location=location)
            return
        self.snatch(kart, target, location)

    def snatch(self, kart: Kart, target: Kart, location: int) -> None:
        """Bomb Catcher (R12): the tiles of the saddlebag hit are offered face down and one is drawn blind,
        by the game's dice, so a tile kept face up can't be picked on purpose."""
        tiles = target.bags[location]
        tile = tiles.pop(self.g.dice.below(len(tiles)))
        self.g.emit("snatch", "event.snatch", kart.seat, {"who": kart_of(kart), "victim": kart_of(target),
                                                          "location": location}, location=location)
        self.g.emit("snatched", "event.snatched", kart.seat, {"who": kart_of(kart), "victim": kart_of(target)},
                    secret="secret.snatched", secret_params={"tile": tile.kind})
        self.g.bags.store(kart, tile.kind, said("where.snatched", colour=target.colour))


def _direction(a: Hex, b: Hex) -> Facing | None:
    """The facing that leads in a straight line from ``a`` to ``b``, if one does."""
    n = a.distance(b)
    if n == 0:
        return None
    for f in Facing:
        if a.line(f, n)[-1] == b:
            return f
    return None
