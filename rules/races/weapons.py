"""Junkyard Races weapons and damage: Magnet, Missile, Bomb, the gadgets, and what an explosion does.

Rulebook: Magnet, Missile, Bomb, Bomb Catcher, Missile Deflector, Smoke Screen Generator, damage.
"""

from __future__ import annotations

from collections import deque

from rules.contract import IllegalAction
from rules.hexgrid import Facing, Hex
from rules.races import actions as act
from rules.races import catalogue
from rules.races.base import Part
from rules.races.state import Choice, Kart
from rules.races.words import a_an

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
            raise IllegalAction(f"{self.g.who(target.seat)} has an Anti-magnetic Field Generator: magnets don't work "
                                "on it.")
        path = self.magnet_path(kart, target, fire.cell)
        if path is None:
            raise IllegalAction(f"The Magnet on {fire.cell.label} can't reach {self.g.who(target.seat)}: it pulls at "
                                "most 10 cells counted round karts and walls, never against a bridge's arrows.")
        self.g.bags.take(kart, "magnet")
        self.g.return_tile("magnet")
        assert target.cell is not None
        self.g.emit("magnet", f"{self.g.who(kart.seat)}'s Magnet on {fire.cell.label} pulls {self.g.who(target.seat)} "
                    f"from {target.cell.label}.", target.seat, cell=fire.cell.label, frm=target.cell.label,
                    by=kart.seat)
        self.g.turn.marks.append([fire.cell.label, "magnet"])
        target.cell = fire.cell
        self.g.arrive(target, fire.cell, "pull")
        options = [f.name for f in Facing]
        self.g.choice = self.g.choice or Choice("facing", kart.seat, options,
                                            f"Which way does {target.colour} face on {fire.cell.label}?",
                                            {"seat": target.seat})

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
                raise IllegalAction("Aim at another kart, a trap or a junk tile, not your own kart.")
            if target.cell is None or not self.g.track.on_track(target.cell):
                raise IllegalAction(f"{self.g.who(target.seat)} is not on the track.")
            return target, target.cell
        cell = self.g.track.parse_cell(text)
        k = self.g.kart_at(cell)
        if k is not None and k.seat != kart.seat:
            if not self.g.track.on_track(cell):
                raise IllegalAction(f"{self.g.who(k.seat)} is in the stream on {cell.label}: no target there.")
            return k, cell
        if cell not in self.g.board:
            raise IllegalAction(f"Nothing to aim at on {cell.label}: choose a kart's colour, a trap or a junk tile.")
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
            if self.g.kart_at(nxt) is not None or nxt in self.g.board:
                return False
            cell = nxt

    def missile(self, kart: Kart, fire: act.Fire) -> None:
        self.g.bags.need(kart, "missile")
        self.g.deeds.check_placement(kart, fire.cell, "missile")
        target, cell = self.resolve_target(kart, fire.target)
        if cell == fire.cell:
            raise IllegalAction(f"A Missile set on {cell.label} leaves that cell at once and can't hit what is on it "
                                "(R17): set it on another cell.")
        self.g.bags.take(kart, "missile")
        dice = self.g.dice.rolls(3 if kart.has_part("missile-launcher") else 2)
        self.strike(kart, "missile", fire.cell, target, cell, dice)

    def bomb(self, kart: Kart, fire: act.Fire) -> None:
        self.g.bags.need(kart, "bomb")
        self.g.deeds.check_placement(kart, fire.cell, "bomb")
        target, cell = self.resolve_target(kart, fire.target)
        if not self.bomb_line(fire.cell, cell):
            raise IllegalAction(f"A Bomb on {fire.cell.label} has no straight, clear line to {cell.label}: it rolls "
                                "only in a straight line over empty track, never over a wall.")
        self.g.bags.take(kart, "bomb")
        dice = self.g.dice.rolls(2 if kart.has_part("bomb-launcher") else 1)
        self.strike(kart, "bomb", fire.cell, target, cell, dice)

    def strike(self, kart: Kart, weapon: str, start: Hex, target: Kart | None, cell: Hex,
                dice: list[int]) -> None:
        distance = start.distance(cell)
        smoke = 2 if target is not None and target.has_part("smoke-screen") else 0
        reach = sum(dice) - smoke
        name = weapon.capitalize()
        what = self.g.who(target.seat) if target is not None else f"the tile on {cell.label}"
        shown = ", ".join(map(str, dice)) + (" - 2 for the Smoke Screen" if smoke else "")
        self.g.turn.marks.append([start.label, weapon])
        if reach < distance:
            self.g.return_tile(weapon)
            self.g.emit(weapon, f"{self.g.who(kart.seat)}'s {name} from {start.label} at {what} ({distance} away) "
                        f"rolls {shown}: a dud.", kart.seat, dice=dice, hit=False, cell=cell.label)
            return
        self.g.emit(weapon, f"{self.g.who(kart.seat)}'s {name} from {start.label} at {what} ({distance} away) rolls "
                    f"{shown}: it gets there!", kart.seat, dice=dice, hit=True, cell=cell.label)
        self.g.return_tile(weapon)
        if target is None:
            tile = self.g.board.pop(cell)
            self.g.return_tile(tile.kind)
            self.g.turn.marks.append([cell.label, "blast"])
            self.g.emit("destroyed", f"The tile on {cell.label} is destroyed.", None, cell=cell.label)
            return
        if weapon == "missile":
            self.missile_lands(kart, target)
        else:
            if target.has_part("bomb-catcher"):
                roll = self.g.dice.roll()
                if roll >= 4:
                    self.g.emit("caught", f"{self.g.who(target.seat)}'s Bomb Catcher rolls {roll} and catches the "
                                "Bomb!", target.seat, roll=roll)
                    return
                self.g.emit("catch-missed", f"{self.g.who(target.seat)}'s Bomb Catcher rolls {roll} and misses.",
                            target.seat, roll=roll)
            self.blast(target, "the Bomb")

    def missile_lands(self, sender: Kart, target: Kart) -> None:
        """Missile Deflector ping-pong: 5 or 6 sends it back; whoever misses is hit."""
        victim, other = target, sender
        for _ in range(200):
            if not victim.has_part("missile-deflector"):
                break
            roll = self.g.dice.roll()
            if roll < 5:
                self.g.emit("deflect-missed", f"{self.g.who(victim.seat)}'s Missile Deflector rolls {roll}: no luck.",
                            victim.seat, roll=roll)
                break
            self.g.emit("deflected", f"{self.g.who(victim.seat)}'s Missile Deflector rolls {roll} and sends the "
                        f"Missile back at {self.g.who(other.seat)}!", victim.seat, roll=roll)
            victim, other = other, victim
        self.blast(victim, "the Missile")

    def blast(self, kart: Kart, source: str) -> None:
        """An explosion hits a kart: it spins to face the other way and rolls two dice for damage."""
        kart.facing = kart.facing.opposite
        assert kart.cell is not None
        self.g.turn.marks.append([kart.cell.label, "blast"])
        self.g.emit("hit", f"{source.capitalize()} hits {self.g.who(kart.seat)}, spinning it round.", kart.seat,
                    cell=kart.cell.label)
        self.damage(kart, self.g.dice.roll() + self.g.dice.roll(), "damage")

    def damage(self, kart: Kart, location: int, how: str) -> None:
        """Locations 2–9 of the Kart Card: the part there is destroyed; a saddlebag hit loses its tiles."""
        if not 2 <= location <= 9:
            self.g.emit(how, f"{self.g.who(kart.seat)} rolls {location} for damage: nothing is hit.", kart.seat,
                        location=location)
            return
        part = kart.parts.get(location)
        if part is None:
            if location in kart.bags:
                self.g.emit(how, f"{self.g.who(kart.seat)} rolls {location}: the saddlebag there is hit.", kart.seat,
                            location=location)
                self.g.bags.lose(kart, location, "hit")
                return
            self.g.emit(how, f"{self.g.who(kart.seat)} rolls {location} for damage: nothing is fitted there.",
                        kart.seat, location=location)
            return
        self.g.emit(how, f"{self.g.who(kart.seat)} rolls {location}: the {catalogue.parts()[part].name} is destroyed.",
                    kart.seat, location=location, part=part)
        self.g.garage.remove_part(kart, location, "destroyed")

    def gadget(self, kart: Kart, gadget: act.Gadget) -> None:
        part = "bomb-catcher" if gadget.use == "snatch" else "missile-deflector"
        name = catalogue.parts()[part].name
        if not kart.has_part(part):
            raise IllegalAction(f"{a_an(gadget.use).capitalize()} needs {a_an(name)} fitted.")
        if gadget.use in self.g.turn.gadgets:
            raise IllegalAction(f"One {gadget.use} attempt a turn, at one kart.")
        target = self.g.deeds.target_kart(gadget.target)
        if target not in self.g.deeds.adjacent_karts(kart):
            raise IllegalAction(f"{self.g.who(target.seat)} is not next to your kart.")
        if gadget.use == "snatch" and not self.g.bags.with_room(kart):
            raise IllegalAction("Your saddlebags are full: there is no room for a snatched tile.")
        self.g.turn.gadgets.append(gadget.use)
        location = self.g.dice.roll() + self.g.dice.roll()
        if gadget.use == "smash":
            self.g.emit("smash", f"{self.g.who(kart.seat)} swings the Missile Deflector at {self.g.who(target.seat)}.",
                        kart.seat, location=location)
            self.damage(target, location, "smash-roll")
            return
        tiles = target.bags.get(location, []) if location in target.bags and self.g.capacity(target, location) else []
        if not tiles:
            self.g.emit("snatch", f"{self.g.who(kart.seat)}'s Bomb Catcher grabs at {self.g.who(target.seat)}'s "
                        f"location {location}: nothing there.", kart.seat, location=location)
            return
        self.snatch(kart, target, location)

    def snatch(self, kart: Kart, target: Kart, location: int) -> None:
        """Bomb Catcher (R12): the tiles of the saddlebag hit are offered face down and one is drawn blind,
        by the game's dice, so a tile kept face up can't be picked on purpose."""
        tiles = target.bags[location]
        tile = tiles.pop(self.g.dice.below(len(tiles)))
        self.g.emit("snatch", f"{self.g.who(kart.seat)}'s Bomb Catcher reaches into {self.g.who(target.seat)}'s "
                    f"saddlebag {location} and draws a tile blind.", kart.seat, location=location)
        self.g.emit("snatched", f"{self.g.who(kart.seat)} snatches a tile from {self.g.who(target.seat)}.", kart.seat,
                    secret=f"You snatched {tile.kind}.")
        self.g.bags.store(kart, tile.kind, f"snatched from {target.colour}")


def _direction(a: Hex, b: Hex) -> Facing | None:
    """The facing that leads in a straight line from ``a`` to ``b``, if one does."""
    n = a.distance(b)
    if n == 0:
        return None
    for f in Facing:
        if a.line(f, n)[-1] == b:
            return f
    return None
