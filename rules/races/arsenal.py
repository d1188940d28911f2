"""The Junkyard Races arsenal: traps, weapons, gadgets, damage, saddlebags, Pit Stops and team swaps.

``Arsenal`` is a mixin of :class:`rules.races.engine.Races`: the engine calls its hooks (a kart
arriving on a trap, the end of a move, the actions Phases 1 and 2 offer) and it uses the engine's
state and helpers. Rulebook sections: Phase 1, Phase 2, Junk Tiles, Junk Tile List, Part Cards, Team
Racing; rulings R10–R14 and R16.

Decisions where the rulebook leaves a gap (each also told to players in the rule lookup):
- a fuel tile trades for every die of its colour left in the supply;
- Acid melts the tyre at the location the die names (2–5) and ends the move, whether or not a tyre
  was there; on 1 or 6 the kart drives on;
- Oil throws a kart (driving, bumped or skidding from another Oil) one cell along its arrow, spun
  round, and then goes back to the pile like any trap that went off; it does nothing when a kart
  stands on that cell, and its arrow may not point across a wall;
- a kart that drives onto a Time Bomb is caught in the blast and its move ends;
- a Spring that throws a kart back to an occupied cell leaves it on the Spring's cell instead.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any

from rules.contract import IllegalAction
from rules.hexgrid import Facing, Hex
from rules.races import actions as act
from rules.races import catalogue
from rules.races.state import PHASE_DEEDS, PHASE_MOVE, PHASE_PARTS, PRINTED_BAG, BoardTile, Choice, Kart, Tile
from rules.races.track import PitColour
from rules.races.words import a_an, counted, tile_name

if TYPE_CHECKING:
    from rules.races.engine import Races

FUEL_TILE = {"white": "turbo-fuel", "red": "jet-fuel"}
ENGINE_FOR = {"white": "turbo-engine", "red": "jet-engine"}
TYRES = ("grass-tyres", "mud-tyres")
MAGNET_REACH = 10  # cells counted, the target's and the Magnet's included


class Arsenal:
    """Mixin: everything beyond racing round the track."""

    # ----------------------------------------------------------------------------------------------
    # What Phases 1 and 2 offer

    def _phase_extras(self: Races, kart: Kart, phase: str) -> list[act.Action]:
        if kart.cell is None or not self.track.on_track(kart.cell):
            return []
        if phase == PHASE_DEEDS:
            return self._deed_actions(kart)
        if phase == PHASE_PARTS:
            return self._parts_actions(kart)
        return []

    def _free_actions(self: Races, kart: Kart) -> list[act.Action]:
        """Tile moves between saddlebags and showing or hiding tiles, any time in your own turn."""
        out: list[act.Action] = []
        for src, tiles in sorted(kart.bags.items()):
            for kind in sorted({t.kind for t in tiles}):
                for dst in sorted(kart.bags):
                    if dst != src and self._room(kart, dst) > 0:
                        out.append(act.BagMove(kind, src, dst))
        kinds_down = sorted({t.kind for ts in kart.bags.values() for t in ts if not t.face_up})
        kinds_up = sorted({t.kind for ts in kart.bags.values() for t in ts if t.face_up})
        out += [act.Flip(k, True) for k in kinds_down] + [act.Flip(k, False) for k in kinds_up]
        return out

    def _tile_kinds(self, kart: Kart) -> set[str]:
        return {t.kind for tiles in kart.bags.values() for t in tiles}

    def _deed_actions(self: Races, kart: Kart) -> list[act.Action]:
        kinds = self._tile_kinds(kart)
        out: list[act.Action] = []
        for kind in act.TRAP_KINDS:
            if kind not in kinds:
                continue
            for cell in self._placement_cells(kart, "trap"):
                if kind == "oil":
                    out += [act.PlaceTrap(kind, cell, f) for f in Facing if self._oil_arrow_ok(cell, f)]
                else:
                    out.append(act.PlaceTrap(kind, cell))
        if "magnet" in kinds:
            for cell in self._placement_cells(kart, "magnet"):
                out += [act.Fire("magnet", cell, k.colour) for k in self.karts if self._magnet_path(kart, k, cell)]
        if "missile" in kinds:
            targets = self._strike_targets(kart)
            for cell in self._placement_cells(kart, "missile"):
                out += [act.Fire("missile", cell, t) for t, c in targets if c != cell]
        if "bomb" in kinds:
            for cell in self._placement_cells(kart, "bomb"):
                out += [act.Fire("bomb", cell, t) for t, c in self._strike_targets(kart) if self._bomb_line(cell, c)]
        for use, part in (("snatch", "bomb-catcher"), ("smash", "missile-deflector")):
            if kart.has_part(part) and use not in self.turn.gadgets:
                if use == "snatch" and not self._bags_with_room(kart):
                    continue
                out += [act.Gadget(use, k.colour) for k in self._adjacent_karts(kart)]
        return out

    def _parts_actions(self: Races, kart: Kart) -> list[act.Action]:
        out: list[act.Action] = []
        pit = self._pit_of_turn(kart)
        if pit is not None:
            for pid, spec in catalogue.parts().items():
                if spec.pile != pit.value or self.parts_left[pid] <= 0 or spec.cost > kart.bottle_tops:
                    continue
                out += [act.Buy(pid, loc) for loc in spec.locations if loc not in kart.parts]
            out += [act.Return(loc) for loc in sorted(kart.parts)]
        kinds = self._tile_kinds(kart)
        for colour in ("white", "red"):
            if kart.has_part(ENGINE_FOR[colour]) and FUEL_TILE[colour] in kinds and self.dice_left[colour] > 0:
                out.append(act.Refuel(colour))
        if self.teams:
            out += self._swap_actions(kart)
        return out

    # ----------------------------------------------------------------------------------------------
    # Dispatch

    def _do_arsenal(self: Races, action: Any) -> bool:
        """Carry out an arsenal action; False when the action is not one of the arsenal's."""
        kart = self.karts[self.turn.seat]
        if isinstance(action, (act.BagMove, act.Flip)):
            if self.turn.phase not in (PHASE_DEEDS, PHASE_PARTS):
                raise IllegalAction("Tiles are moved between saddlebags, shown or hidden in Phase 1 or 2 of your turn.")
            if isinstance(action, act.BagMove):
                self._bag_move(kart, action)
            else:
                self._flip(kart, action)
            return True
        deeds = (act.PlaceTrap, act.Fire, act.Gadget)
        parts = (act.Buy, act.Return, act.Refuel, act.Swap)
        if isinstance(action, deeds):
            if self.turn.phase != PHASE_DEEDS:
                raise IllegalAction(self._not_now(f"'{action}'") + " Traps and weapons belong to Phase 1.")
            if isinstance(action, act.PlaceTrap):
                self._place_trap(kart, action)
            elif isinstance(action, act.Gadget):
                self._gadget(kart, action)
            elif action.weapon == "magnet":
                self._magnet(kart, action)
            elif action.weapon == "missile":
                self._missile(kart, action)
            else:
                self._bomb(kart, action)
            return True
        if isinstance(action, parts):
            if self.turn.phase != PHASE_PARTS:
                raise IllegalAction(self._not_now(f"'{action}'") + " Buying, refuelling and swapping are Phase 2.")
            if isinstance(action, act.Buy):
                self._buy(kart, action)
            elif isinstance(action, act.Return):
                self._return_part(kart, action)
            elif isinstance(action, act.Refuel):
                self._refuel(kart, action)
            else:
                self._swap(kart, action)
            return True
        return False

    # ----------------------------------------------------------------------------------------------
    # Saddlebags

    def _bags_with_room(self: Races, kart: Kart) -> list[int]:
        return [loc for loc in self._bag_order(kart) if self._room(kart, loc) > 0]

    def _store_tile(self: Races, kart: Kart, kind: str, where: str) -> bool:
        """Put a tile in a saddlebag; with room in several the player chooses (R14). False: no room."""
        bags = self._bags_with_room(kart)
        if not bags:
            return False
        if len(bags) == 1 or self.choice is not None:
            # With another question already waiting (two karts picking up in one bump), the tile goes
            # in the first bag with room rather than the second question being lost.
            kart.bags[bags[0]].append(Tile(kind))
        else:
            self.choice = Choice("bag", kart.seat, [str(b) for b in bags], f"Which saddlebag takes the tile {where}?",
                                 {"kind": kind})
        return True

    def _rehome(self: Races, kart: Kart, tiles: list[Tile], why: str) -> None:
        """R10: a part covering the printed saddlebag: its tiles move to the kart's other saddlebags.

        They go in the order they lay. With room in one saddlebag only they go there; with room in
        several the player says which takes each tile (R14, one question at a time); tiles that find no
        room are lost to the pile (move the ones to keep with 'bag' before fitting the part).
        """
        tiles = list(tiles)
        while tiles:
            bags = self._bags_with_room(kart)
            if not bags:
                for t in tiles:
                    self._return_tile(t.kind)
                self._emit("tiles-lost", f"{self._who(kart.seat)} loses {counted(len(tiles), 'tile')} from saddlebag "
                           f"{PRINTED_BAG} ({why}).", kart.seat, location=PRINTED_BAG, count=len(tiles))
                return
            if len(bags) > 1 and self.choice is None:
                self.choice = Choice("bag", kart.seat, [str(b) for b in bags],
                                     f"Saddlebag {PRINTED_BAG} is covered: which saddlebag takes its next tile "
                                     f"({len(tiles)} to place)?",
                                     {"kind": tiles[0].kind, "tile": tiles[0].to_json(),
                                      "queue": [t.to_json() for t in tiles[1:]], "why": why})
                return
            take = min(len(tiles), self._room(kart, bags[0]))
            kart.bags[bags[0]].extend(tiles[:take])
            tiles = tiles[take:]
            self._emit("bag", f"{self._who(kart.seat)} moves {counted(take, 'tile')} from the covered saddlebag "
                       f"{PRINTED_BAG} into saddlebag {bags[0]}.", kart.seat)

    def _take_tile(self, kart: Kart, kind: str) -> Tile | None:
        """Remove one tile of a kind from the kart's bags (face-down ones first)."""
        for face_up in (False, True):
            for loc in sorted(kart.bags):
                for i, t in enumerate(kart.bags[loc]):
                    if t.kind == kind and t.face_up == face_up:
                        return kart.bags[loc].pop(i)
        return None

    def _need_tile(self: Races, kart: Kart, kind: str) -> None:
        if kind not in self._tile_kinds(kart):
            held = ", ".join(sorted(self._tile_kinds(kart))) or "nothing"
            raise IllegalAction(f"You have no {tile_name(kind)} tile (your saddlebags hold: {held}).")

    def _lose_bag(self: Races, kart: Kart, loc: int, why: str) -> None:
        tiles = kart.bags.get(loc, [])
        if tiles:
            for t in tiles:
                self._return_tile(t.kind)
            lost = counted(len(tiles), "tile")
            self._emit("tiles-lost", f"{self._who(kart.seat)} loses {lost} from saddlebag {loc} ({why}).",
                       kart.seat, location=loc, count=len(tiles))
        kart.bags[loc] = []

    def _bag_move(self: Races, kart: Kart, move: act.BagMove) -> None:
        if move.source not in kart.bags or move.dest not in kart.bags:
            where = ", ".join(map(str, sorted(kart.bags)))
            raise IllegalAction(f"Your saddlebags are at {'location' if len(kart.bags) == 1 else 'locations'} {where}.")
        if move.source == move.dest:
            raise IllegalAction("Name two different saddlebags.")
        tiles = kart.bags[move.source]
        index = next((i for i, t in enumerate(tiles) if t.kind == move.kind), None)
        if index is None:
            raise IllegalAction(f"Saddlebag {move.source} holds no {tile_name(move.kind)}.")
        if self._room(kart, move.dest) <= 0:
            raise IllegalAction(f"Saddlebag {move.dest} is full.")
        kart.bags[move.dest].append(tiles.pop(index))
        self._emit("bag", f"{self._who(kart.seat)} moves a tile from saddlebag {move.source} to {move.dest}.",
                   kart.seat)

    def _flip(self: Races, kart: Kart, flip: act.Flip) -> None:
        for tiles in kart.bags.values():
            for t in tiles:
                if t.kind == flip.kind and t.face_up != flip.face_up:
                    t.face_up = flip.face_up
                    if flip.face_up:
                        self._emit("show", f"{self._who(kart.seat)} shows {a_an(tile_name(flip.kind))} tile.",
                                   kart.seat, tile=flip.kind)
                    else:
                        self._emit("hide", f"{self._who(kart.seat)} turns a tile face down.", kart.seat)
                    return
        state = "face down" if flip.face_up else "face up"
        raise IllegalAction(f"You have no {tile_name(flip.kind)} tile {state}.")

    # ----------------------------------------------------------------------------------------------
    # Phase 1: placing traps and weapons

    def _adjacent_karts(self: Races, kart: Kart) -> list[Kart]:
        assert kart.cell is not None
        near = set(kart.cell.neighbours())
        return [k for k in self.karts if k.seat != kart.seat and k.cell in near and self.track.on_track(k.cell)]

    def _placement_cells(self: Races, kart: Kart, what: str) -> list[Hex]:
        """Phase 1: the cells around the kart a trap or weapon may be set on."""
        assert kart.cell is not None
        out = []
        for cell in kart.cell.neighbours_on(self.track.columns, self.track.rows):
            if self._placement_problem(kart, cell, what) is None:
                out.append(cell)
        return out

    def _placement_problem(self: Races, kart: Kart, cell: Hex, what: str) -> str | None:
        assert kart.cell is not None
        if kart.cell.distance(cell) != 1:
            return f"{cell.label} is not next to your kart"
        if self.track.is_stream(cell):
            return f"{cell.label} is in the stream, and nothing is set on the water"
        if not self.track.on_track(cell):
            return f"{cell.label} is off the track"
        if cell in self.track.pits:
            return f"{cell.label} is in a Pit Stop, where nothing may be set"
        wall = self.track.wall_between(kart.cell, cell)
        if wall and what != "missile" and not (what == "bomb" and kart.has_part("bomb-launcher")):
            return f"a wall stands between your kart and {cell.label}"
        if what in ("missile", "bomb"):
            return None  # R17: set on a trap, a junk tile or a kart, they leave that cell at once
        if self.kart_at(cell) is not None:
            return f"a kart is on {cell.label}"
        if cell in self.board:
            tile = self.board[cell]
            return f"{cell.label} already holds {'a junk tile' if tile.face_down else a_an(tile_name(tile.kind))}"
        return None

    def _check_placement(self: Races, kart: Kart, cell: Hex, what: str) -> None:
        problem = self._placement_problem(kart, cell, what)
        if problem is not None:
            choices = ", ".join(c.label for c in self._placement_cells(kart, what)) or "none"
            raise IllegalAction(f"Can't set it there: {problem}. Cells you can use: {choices}.")

    def _oil_arrow_ok(self: Races, cell: Hex, arrow: Facing) -> bool:
        to = cell.neighbour(arrow)
        return not self.track.wall_between(cell, to) and (self.track.on_track(to) or self.track.is_stream(to))

    def _place_trap(self: Races, kart: Kart, trap: act.PlaceTrap) -> None:
        self._need_tile(kart, trap.kind)
        self._check_placement(kart, trap.cell, "trap")
        if trap.kind == "oil":
            if trap.arrow is None:
                raise IllegalAction("Oil needs its arrow: the way it throws a kart, like 'trap oil G7 NE'.")
            if not self._oil_arrow_ok(trap.cell, trap.arrow):
                raise IllegalAction(f"Oil's arrow can't point {trap.arrow.name} from {trap.cell.label}: a wall is "
                                    "there.")
        elif trap.arrow is not None:
            raise IllegalAction(f"Only Oil has an arrow; 'trap {trap.kind} {trap.cell.label}' is enough.")
        tile = self._take_tile(kart, trap.kind)
        assert tile is not None
        self.board[trap.cell] = BoardTile(trap.kind, face_down=False, arrow=trap.arrow, owner=kart.seat)
        arrow = f" pointing {trap.arrow.name}" if trap.arrow else ""
        self._emit("trap", f"{self._who(kart.seat)} sets {a_an(tile_name(trap.kind))}{arrow} on {trap.cell.label}.",
                   kart.seat, cell=trap.cell.label, tile=trap.kind)

    # Magnet ---------------------------------------------------------------------------------------

    def _magnet_path(self: Races, user: Kart, target: Kart, magnet: Hex) -> list[Hex] | None:
        """The shortest pull from the target to the Magnet, within reach, or None.

        Counted like a drive: round karts and walls, never over a bridge against its arrows.
        """
        if target.cell is None or not self.track.on_track(target.cell):
            return None
        if target.has_part("field-generator"):
            return None
        if target.seat == user.seat:
            ok = self.track.may_step(target.cell, magnet)
            return [target.cell, magnet] if ok else None
        blocked = {k.cell for k in self.karts if k.cell is not None and k.seat != target.seat}
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
                if n in prev or n in blocked or not self.track.may_step(cell, n):
                    continue
                prev[n] = cell
                frontier.append((n, count + 1))
        return None

    def _target_kart(self: Races, colour: str) -> Kart:
        seat = self.seat_by_colour(colour)
        if seat is None:
            racing = ", ".join(k.colour for k in self.karts)
            raise IllegalAction(f"No kart is {colour}; the karts are {racing}.")
        return self.karts[seat]

    def _magnet(self: Races, kart: Kart, fire: act.Fire) -> None:
        self._need_tile(kart, "magnet")
        self._check_placement(kart, fire.cell, "magnet")
        target = self._target_kart(fire.target)
        if target.has_part("field-generator"):
            raise IllegalAction(f"{self._who(target.seat)} has an Anti-magnetic Field Generator: magnets don't work "
                                "on it.")
        path = self._magnet_path(kart, target, fire.cell)
        if path is None:
            raise IllegalAction(f"The Magnet on {fire.cell.label} can't reach {self._who(target.seat)}: it pulls at "
                                "most 10 cells counted round karts and walls, never against a bridge's arrows.")
        self._take_tile(kart, "magnet")
        self._return_tile("magnet")
        assert target.cell is not None
        self._emit("magnet", f"{self._who(kart.seat)}'s Magnet on {fire.cell.label} pulls {self._who(target.seat)} "
                   f"from {target.cell.label}.", target.seat, cell=fire.cell.label, frm=target.cell.label,
                   by=kart.seat)
        self.turn.marks.append([fire.cell.label, "magnet"])
        target.cell = fire.cell
        self._arrive(target, fire.cell, "pull")
        options = [f.name for f in Facing]
        self.choice = self.choice or Choice("facing", kart.seat, options,
                                            f"Which way does {target.colour} face on {fire.cell.label}?",
                                            {"seat": target.seat})

    # Missile and Bomb --------------------------------------------------------------------------------

    def _strike_targets(self: Races, kart: Kart) -> list[tuple[str, Hex]]:
        """Karts on the track (other than your own) and tiles on the board: (target text, cell)."""
        out = [(k.colour, k.cell) for k in self.karts
               if k.seat != kart.seat and k.cell is not None and self.track.on_track(k.cell)]
        out += [(c.label, c) for c in sorted(self.board)]
        return out  # type: ignore[return-value]

    def _resolve_target(self: Races, kart: Kart, text: str) -> tuple[Kart | None, Hex]:
        if text.isalpha():
            target = self._target_kart(text)
            if target.seat == kart.seat:
                raise IllegalAction("Aim at another kart, a trap or a junk tile, not your own kart.")
            if target.cell is None or not self.track.on_track(target.cell):
                raise IllegalAction(f"{self._who(target.seat)} is not on the track.")
            return target, target.cell
        cell = self.track.parse_cell(text)
        k = self.kart_at(cell)
        if k is not None and k.seat != kart.seat:
            if not self.track.on_track(cell):
                raise IllegalAction(f"{self._who(k.seat)} is in the stream on {cell.label}: no target there.")
            return k, cell
        if cell not in self.board:
            raise IllegalAction(f"Nothing to aim at on {cell.label}: choose a kart's colour, a trap or a junk tile.")
        return None, cell

    def _bomb_line(self: Races, start: Hex, target: Hex) -> bool:
        """A Bomb rolls straight over empty track, never over a wall, from its cell to the target."""
        facing = _direction(start, target)
        if facing is None:
            return False
        cell = start
        while True:
            nxt = cell.neighbour(facing)
            if self.track.wall_between(cell, nxt) or not self.track.on_track(nxt):
                return False
            if nxt == target:
                return True
            if self.kart_at(nxt) is not None or nxt in self.board:
                return False
            cell = nxt

    def _missile(self: Races, kart: Kart, fire: act.Fire) -> None:
        self._need_tile(kart, "missile")
        self._check_placement(kart, fire.cell, "missile")
        target, cell = self._resolve_target(kart, fire.target)
        if cell == fire.cell:
            raise IllegalAction(f"A Missile set on {cell.label} leaves that cell at once and can't hit what is on it "
                                "(R17): set it on another cell.")
        self._take_tile(kart, "missile")
        dice = self.dice.rolls(3 if kart.has_part("missile-launcher") else 2)
        self._strike(kart, "missile", fire.cell, target, cell, dice)

    def _bomb(self: Races, kart: Kart, fire: act.Fire) -> None:
        self._need_tile(kart, "bomb")
        self._check_placement(kart, fire.cell, "bomb")
        target, cell = self._resolve_target(kart, fire.target)
        if not self._bomb_line(fire.cell, cell):
            raise IllegalAction(f"A Bomb on {fire.cell.label} has no straight, clear line to {cell.label}: it rolls "
                                "only in a straight line over empty track, never over a wall.")
        self._take_tile(kart, "bomb")
        dice = self.dice.rolls(2 if kart.has_part("bomb-launcher") else 1)
        self._strike(kart, "bomb", fire.cell, target, cell, dice)

    def _strike(self: Races, kart: Kart, weapon: str, start: Hex, target: Kart | None, cell: Hex,
                dice: list[int]) -> None:
        distance = start.distance(cell)
        smoke = 2 if target is not None and target.has_part("smoke-screen") else 0
        reach = sum(dice) - smoke
        name = weapon.capitalize()
        what = self._who(target.seat) if target is not None else f"the tile on {cell.label}"
        shown = ", ".join(map(str, dice)) + (" - 2 for the Smoke Screen" if smoke else "")
        self.turn.marks.append([start.label, weapon])
        if reach < distance:
            self._return_tile(weapon)
            self._emit(weapon, f"{self._who(kart.seat)}'s {name} from {start.label} at {what} ({distance} away) "
                       f"rolls {shown}: a dud.", kart.seat, dice=dice, hit=False, cell=cell.label)
            return
        self._emit(weapon, f"{self._who(kart.seat)}'s {name} from {start.label} at {what} ({distance} away) rolls "
                   f"{shown}: it gets there!", kart.seat, dice=dice, hit=True, cell=cell.label)
        self._return_tile(weapon)
        if target is None:
            tile = self.board.pop(cell)
            self._return_tile(tile.kind)
            self.turn.marks.append([cell.label, "blast"])
            self._emit("destroyed", f"The tile on {cell.label} is destroyed.", None, cell=cell.label)
            return
        if weapon == "missile":
            self._missile_lands(kart, target)
        else:
            if target.has_part("bomb-catcher"):
                roll = self.dice.roll()
                if roll >= 4:
                    self._emit("caught", f"{self._who(target.seat)}'s Bomb Catcher rolls {roll} and catches the Bomb!",
                               target.seat, roll=roll)
                    return
                self._emit("catch-missed", f"{self._who(target.seat)}'s Bomb Catcher rolls {roll} and misses.",
                           target.seat, roll=roll)
            self._blast(target, "the Bomb")

    def _missile_lands(self: Races, sender: Kart, target: Kart) -> None:
        """Missile Deflector ping-pong: 5 or 6 sends it back; whoever misses is hit."""
        victim, other = target, sender
        for _ in range(200):
            if not victim.has_part("missile-deflector"):
                break
            roll = self.dice.roll()
            if roll < 5:
                self._emit("deflect-missed", f"{self._who(victim.seat)}'s Missile Deflector rolls {roll}: no luck.",
                           victim.seat, roll=roll)
                break
            self._emit("deflected", f"{self._who(victim.seat)}'s Missile Deflector rolls {roll} and sends the Missile "
                       f"back at {self._who(other.seat)}!", victim.seat, roll=roll)
            victim, other = other, victim
        self._blast(victim, "the Missile")

    # Damage -----------------------------------------------------------------------------------------

    def _blast(self: Races, kart: Kart, source: str) -> None:
        """An explosion hits a kart: it spins to face the other way and rolls two dice for damage."""
        kart.facing = kart.facing.opposite
        assert kart.cell is not None
        self.turn.marks.append([kart.cell.label, "blast"])
        self._emit("hit", f"{source.capitalize()} hits {self._who(kart.seat)}, spinning it round.", kart.seat,
                   cell=kart.cell.label)
        self._damage(kart, self.dice.roll() + self.dice.roll(), "damage")

    def _damage(self: Races, kart: Kart, location: int, how: str) -> None:
        """Locations 2–9 of the Kart Card: the part there is destroyed; a saddlebag hit loses its tiles."""
        if not 2 <= location <= 9:
            self._emit(how, f"{self._who(kart.seat)} rolls {location} for damage: nothing is hit.", kart.seat,
                       location=location)
            return
        part = kart.parts.get(location)
        if part is None:
            if location in kart.bags:
                self._emit(how, f"{self._who(kart.seat)} rolls {location}: the saddlebag there is hit.", kart.seat,
                           location=location)
                self._lose_bag(kart, location, "hit")
                return
            self._emit(how, f"{self._who(kart.seat)} rolls {location} for damage: nothing is fitted there.", kart.seat,
                       location=location)
            return
        self._emit(how, f"{self._who(kart.seat)} rolls {location}: the {catalogue.parts()[part].name} is destroyed.",
                   kart.seat, location=location, part=part)
        self._remove_part(kart, location, "destroyed")

    def _remove_part(self: Races, kart: Kart, location: int, why: str) -> None:
        part = kart.parts.pop(location)
        self.parts_left[part] += 1
        spec = catalogue.parts()[part]
        if spec.capacity:
            self._lose_bag(kart, location, why)
            kart.bags.pop(location, None)
        for colour, engine in ENGINE_FOR.items():
            if part == engine and kart.fuel[colour]:
                self.dice_left[colour] += kart.fuel[colour]
                lost = counted(kart.fuel[colour], colour + " fuel die")
                self._emit("fuel-lost", f"{self._who(kart.seat)} loses {lost}.", kart.seat)
                kart.fuel[colour] = 0
        if location == PRINTED_BAG:
            kart.bags[PRINTED_BAG] = []  # the printed saddlebag is uncovered again (R10)

    # Gadgets ------------------------------------------------------------------------------------------

    def _gadget(self: Races, kart: Kart, gadget: act.Gadget) -> None:
        part = "bomb-catcher" if gadget.use == "snatch" else "missile-deflector"
        name = catalogue.parts()[part].name
        if not kart.has_part(part):
            raise IllegalAction(f"{a_an(gadget.use).capitalize()} needs {a_an(name)} fitted.")
        if gadget.use in self.turn.gadgets:
            raise IllegalAction(f"One {gadget.use} attempt a turn, at one kart.")
        target = self._target_kart(gadget.target)
        if target not in self._adjacent_karts(kart):
            raise IllegalAction(f"{self._who(target.seat)} is not next to your kart.")
        if gadget.use == "snatch" and not self._bags_with_room(kart):
            raise IllegalAction("Your saddlebags are full: there is no room for a snatched tile.")
        self.turn.gadgets.append(gadget.use)
        location = self.dice.roll() + self.dice.roll()
        if gadget.use == "smash":
            self._emit("smash", f"{self._who(kart.seat)} swings the Missile Deflector at {self._who(target.seat)}.",
                       kart.seat, location=location)
            self._damage(target, location, "smash-roll")
            return
        tiles = target.bags.get(location, []) if location in target.bags and self.capacity(target, location) else []
        if not tiles:
            self._emit("snatch", f"{self._who(kart.seat)}'s Bomb Catcher grabs at {self._who(target.seat)}'s "
                       f"location {location}: nothing there.", kart.seat, location=location)
            return
        self._snatch(kart, target, location)

    def _snatch(self: Races, kart: Kart, target: Kart, location: int) -> None:
        """Bomb Catcher (R12): the tiles of the saddlebag hit are offered face down and one is drawn blind,
        by the game's dice, so a tile kept face up can't be picked on purpose."""
        tiles = target.bags[location]
        tile = tiles.pop(self.dice.below(len(tiles)))
        self._emit("snatch", f"{self._who(kart.seat)}'s Bomb Catcher reaches into {self._who(target.seat)}'s "
                   f"saddlebag {location} and draws a tile blind.", kart.seat, location=location)
        self._emit("snatched", f"{self._who(kart.seat)} snatches a tile from {self._who(target.seat)}.", kart.seat,
                   secret=f"You snatched {tile.kind}.")
        self._store_tile(kart, tile.kind, f"snatched from {target.colour}")

    # ----------------------------------------------------------------------------------------------
    # Phase 2: Pit Stops, fuel, team swaps

    def _pit_of_turn(self: Races, kart: Kart) -> PitColour | None:
        """The Pit Stop the kart began this turn stopped in, if it is still there."""
        began = self.turn.began_at
        if began is None or kart.cell != began:
            return None
        return self.track.pits.get(began)

    def _buy(self: Races, kart: Kart, buy: act.Buy) -> None:
        parts = catalogue.parts()
        spec = parts.get(buy.part)
        if spec is None:
            raise IllegalAction(f"No part is called {buy.part!r}; parts: {', '.join(parts)}.")
        pit = self._pit_of_turn(kart)
        if pit is None:
            raise IllegalAction("Parts are bought only when your turn began stopped in a Pit Stop.")
        if spec.pile != pit.value:
            raise IllegalAction(f"The {spec.name} is a {spec.pile} part: buy it at the {spec.pile} Pit Stop.")
        if self.parts_left[buy.part] <= 0:
            raise IllegalAction(f"No {spec.name} cards are left in the supply.")
        if kart.bottle_tops < spec.cost:
            raise IllegalAction(f"The {spec.name} costs {counted(spec.cost, 'bottle top')}; you have "
                                f"{kart.bottle_tops}.")
        loc = buy.location
        if loc is None:
            free = [x for x in spec.locations if x not in kart.parts] or list(spec.locations[:1])
            if len(free) != 1:
                where = ", ".join(map(str, spec.locations))
                raise IllegalAction(f"Say where to fit the {spec.name}: location {where} (like 'buy {buy.part} "
                                    f"{spec.locations[0]}').")
            loc = free[0]
        if loc not in spec.locations:
            raise IllegalAction(f"The {spec.name} fits location {' or '.join(map(str, spec.locations))} only.")
        if loc in kart.parts:
            held = parts[kart.parts[loc]].name
            raise IllegalAction(f"Location {loc} holds your {held}: 'return {loc}' first to make room.")
        kart.bottle_tops -= spec.cost
        self.bottle_tops_left += spec.cost
        self.parts_left[buy.part] -= 1
        covered: list[Tile] = []
        if loc == PRINTED_BAG:
            tiles = kart.bags.get(PRINTED_BAG, [])
            other_room = sum(self._room(kart, b) for b in kart.bags if b != PRINTED_BAG)
            fuel = next((t for t in tiles if t.kind == "jet-fuel"), None)
            if buy.part == "jet-engine" and fuel is not None and len(tiles) > other_room and self.dice_left["red"]:
                # The rulebook lets a Jet Fuel be traded before the covered saddlebag's tiles are lost.
                tiles.remove(fuel)
                self._return_tile("jet-fuel")
                kart.fuel["red"] += self.dice_left["red"]
                self._emit("refuel", f"{self._who(kart.seat)} trades Jet Fuel for "
                           f"{counted(self.dice_left['red'], 'red die')} before the saddlebag is covered.", kart.seat)
                self.dice_left["red"] = 0
            covered = kart.bags.pop(PRINTED_BAG, [])
        self._fit(kart, buy.part, loc)
        price = counted(spec.cost, "bottle top")
        self._emit("buy", f"{self._who(kart.seat)} buys {a_an(spec.name)} for {price} and fits it at location {loc}.",
                   kart.seat, part=buy.part, location=loc)
        self._rehome(kart, covered, f"covered by the {spec.name}")

    def _return_part(self: Races, kart: Kart, ret: act.Return) -> None:
        if self._pit_of_turn(kart) is None:
            raise IllegalAction("Parts are returned only when your turn began stopped in a Pit Stop.")
        if ret.location not in kart.parts:
            fitted = ", ".join(f"{loc} ({catalogue.parts()[p].name})" for loc, p in sorted(kart.parts.items()))
            raise IllegalAction(f"Nothing is fitted at location {ret.location}; fitted: {fitted or 'nothing'}.")
        name = catalogue.parts()[kart.parts[ret.location]].name
        self._remove_part(kart, ret.location, "returned")
        self._emit("return", f"{self._who(kart.seat)} returns the {name}.", kart.seat, location=ret.location)

    def _refuel(self: Races, kart: Kart, refuel: act.Refuel) -> None:
        engine = catalogue.parts()[ENGINE_FOR[refuel.colour]].name
        if not kart.has_part(ENGINE_FOR[refuel.colour]):
            raise IllegalAction(f"{refuel.colour.capitalize()} fuel dice need {a_an(engine)} fitted.")
        kind = FUEL_TILE[refuel.colour]
        self._need_tile(kart, kind)
        have = self.dice_left[refuel.colour]
        if have <= 0:
            raise IllegalAction(f"No {refuel.colour} dice are left in the supply.")
        self._take_tile(kart, kind)
        self._return_tile(kind)
        kart.fuel[refuel.colour] += have
        self.dice_left[refuel.colour] = 0
        self._emit("refuel", f"{self._who(kart.seat)} fills the {engine} with {counted(have, refuel.colour + ' die')}.",
                   kart.seat, colour=refuel.colour, dice=have)

    def _teammates(self, kart: Kart) -> list[Kart]:
        return [k for k in self.karts if k.seat != kart.seat and k.team == kart.team]  # type: ignore[attr-defined]

    def _swap_actions(self: Races, kart: Kart) -> list[act.Action]:
        out: list[act.Action] = []
        near = self._adjacent_karts(kart)
        own_pit = self.track.pits.get(kart.cell) if kart.cell else None
        for mate in self._teammates(kart):
            if mate in near:
                if self._bags_with_room(mate):
                    out += [act.Swap(mate.colour, "give", kind) for kind in sorted(self._tile_kinds(kart))]
                if self._bags_with_room(kart):
                    out += [act.Swap(mate.colour, "take", kind) for kind in sorted(self._tile_kinds(mate))]
            mate_pit = self.track.pits.get(mate.cell) if mate.cell else None
            if own_pit is not None and own_pit == mate_pit:
                out += [act.Swap(mate.colour, "give", None, loc) for loc, p in sorted(kart.parts.items())
                        if loc not in mate.parts and not kart.bags.get(loc)]
                out += [act.Swap(mate.colour, "take", None, loc) for loc, p in sorted(mate.parts.items())
                        if loc not in kart.parts and not mate.bags.get(loc)]
        return out

    def _swap(self: Races, kart: Kart, swap: act.Swap) -> None:
        if not self.teams:
            raise IllegalAction("Swaps are for team racing.")
        mate = self._target_kart(swap.colour)
        if mate not in self._teammates(kart):
            raise IllegalAction(f"{self._who(mate.seat)} is not on your team.")
        giver, taker = (kart, mate) if swap.direction == "give" else (mate, kart)
        if swap.tile is not None:
            if mate not in self._adjacent_karts(kart):
                raise IllegalAction("Team mates swap tiles only when their karts are next to each other.")
            if swap.tile not in self._tile_kinds(giver):
                raise IllegalAction(f"{self._who(giver.seat)} has no {tile_name(swap.tile)} tile.")
            if not self._bags_with_room(taker):
                raise IllegalAction(f"{self._who(taker.seat)}'s saddlebags are full.")
            self._take_tile(giver, swap.tile)
            self._emit("swap", f"{self._who(giver.seat)} passes a tile to {self._who(taker.seat)}.", kart.seat)
            self._store_tile(taker, swap.tile, f"from {giver.colour}")
            return
        loc = swap.part_location
        assert loc is not None
        pit_a = self.track.pits.get(kart.cell) if kart.cell else None
        pit_b = self.track.pits.get(mate.cell) if mate.cell else None
        if pit_a is None or pit_a != pit_b:
            raise IllegalAction("Team mates swap parts only when both karts stand in the same Pit Stop.")
        if loc not in giver.parts:
            raise IllegalAction(f"{self._who(giver.seat)} has nothing fitted at location {loc}.")
        if loc in taker.parts:
            raise IllegalAction(f"{self._who(taker.seat)} already has a part at location {loc}.")
        if giver.bags.get(loc):
            raise IllegalAction(f"Empty saddlebag {loc} before handing it over.")
        part = giver.parts[loc]
        self._remove_part(giver, loc, "handed over")
        self.parts_left[part] -= 1
        covered = taker.bags.pop(PRINTED_BAG, []) if loc == PRINTED_BAG else []
        self._fit(taker, part, loc)
        self._emit("swap", f"{self._who(giver.seat)} hands the {catalogue.parts()[part].name} to "
                   f"{self._who(taker.seat)}.", kart.seat, part=part)
        self._rehome(taker, covered, f"covered by the {catalogue.parts()[part].name}")

    # ----------------------------------------------------------------------------------------------
    # Traps going off

    def _trap_stops(self, kart: Kart, kind: str) -> bool:
        """Whether a trap of this kind (Oil aside: see Field) would stop this kart driving onto it (R9)."""
        if kind == "acid":
            return any(p in TYRES for p in kart.parts.values())  # standard tyres are acid-proof
        return kind in ("glue", "spring", "time-bomb")

    def _trap(self: Races, kart: Kart, cell: Hex, tile: BoardTile, how: str) -> None:
        """Hook: a kart arrives on a face-up trap by driving, being bumped, sliding, pulled or placed.

        A kart put on its Landing Point (R8) or on a start cell (R15) meets the trap there as if it had
        driven onto it before its move: where a trap would end a driving kart's move, its turn ends.
        """
        kind = tile.kind
        placed = how in ("land", "enter") and kart.seat == self.turn.seat
        mover = placed or (self.turn.phase == PHASE_MOVE and kart.seat == self.turn.seat and how == "drive")
        caught = how in ("drive", "bump", "slide") or placed
        if kind == "glue":
            if caught:
                kart.glued = True
                self.turn.marks.append([cell.label, "glue"])
                self._emit("glue", f"{self._who(kart.seat)} is stuck in Glue on {cell.label}.", kart.seat,
                           cell=cell.label)
                if mover:
                    self._stop_move()
        elif kind == "spring":
            if mover:
                self._spring(kart, cell)
        elif kind == "acid":
            if mover and any(p in TYRES for p in kart.parts.values()):
                self._acid(kart, cell)
        elif kind == "oil":
            if caught:
                self._oil(kart, cell, tile, mover)
        elif kind == "time-bomb" and caught:
            self._time_bomb_explodes(cell, f"{self._who(kart.seat)} hits the Time Bomb on {cell.label}")
            if mover:
                self._stop_move()

    def _stop_move(self: Races) -> None:
        """A trap ends the mover's Phase 5 where it stands; before Phase 5 (a kart put on a trap on its
        Landing Point or start cell) the move ends before it began, and with it the turn."""
        self.turn.points = 0
        self.turn.phase = PHASE_MOVE

    def _spring(self: Races, kart: Kart, cell: Hex) -> None:
        roll = self.dice.roll()
        if roll >= 4:
            self._emit("spring", f"{self._who(kart.seat)} hits the Spring on {cell.label} and rolls {roll}: it's "
                       "stuck, drive on.", kart.seat, roll=roll, cell=cell.label)
            return
        self.board.pop(cell)
        self._return_tile("spring")
        back = self.turn.move_from
        self.turn.marks.append([cell.label, "spring"])
        if back is None or back == cell:
            where = f"{cell.label}, where its move began"  # a kart put on the Spring before moving (R8, R15)
        elif self.kart_at(back) is None:
            kart.cell = back
            where = back.label
        else:
            where = f"{cell.label} (its start cell is taken)"
        self._emit("spring", f"{self._who(kart.seat)} hits the Spring on {cell.label}, rolls {roll} and is flung back "
                   f"to {where}.", kart.seat, roll=roll, cell=cell.label)
        self._stop_move()
        self.choice = Choice("facing", kart.seat, [f.name for f in Facing], "The Spring flung you back: which way "
                             "do you face?", {"seat": kart.seat})

    def _acid(self: Races, kart: Kart, cell: Hex) -> None:
        roll = self.dice.roll()
        if roll in (1, 6):
            self._emit("acid", f"{self._who(kart.seat)} skirts the Acid on {cell.label} (rolled {roll}).", kart.seat,
                       roll=roll)
            return
        self.board.pop(cell)
        self._return_tile("acid")
        self.turn.marks.append([cell.label, "acid"])
        part = kart.parts.get(roll)
        if part in TYRES:
            self._emit("acid", f"Acid on {cell.label} melts {self._who(kart.seat)}'s "
                       f"{catalogue.parts()[part].name} at location {roll}!", kart.seat, roll=roll)
            self._remove_part(kart, roll, "melted")
        else:
            self._emit("acid", f"{self._who(kart.seat)} skids in the Acid on {cell.label} (rolled {roll}); no tyre is "
                       f"at location {roll}.", kart.seat, roll=roll)
        self._stop_move()

    def _oil(self: Races, kart: Kart, cell: Hex, tile: BoardTile, mover: bool) -> None:
        assert tile.arrow is not None
        to = cell.neighbour(tile.arrow)
        if self.kart_at(to) is not None:
            self._emit("oil", f"{self._who(kart.seat)} crosses the Oil on {cell.label}: a kart blocks the skid.",
                       kart.seat, cell=cell.label)
            return
        self._emit("oil", f"{self._who(kart.seat)} skids on the Oil on {cell.label} into {to.label}, spun round!",
                   kart.seat, cell=cell.label, to=to.label)
        self.board.pop(cell)
        self._return_tile("oil")
        self.turn.marks.append([cell.label, "oil"])
        if mover:
            self._stop_move()
        kart.facing = kart.facing.opposite
        self._moved(kart, cell, to)
        kart.cell = to
        if self.track.is_stream(to):
            self.turn.marks.append([to.label, "splash"])
            self._emit("splash", f"{self._who(kart.seat)} slides into the stream at {to.label}.", kart.seat,
                       cell=to.label)
            return
        self._arrive(kart, to, "slide")

    # Time Bombs (R16) ---------------------------------------------------------------------------------

    def _frozen(self: Races, bomb: Hex) -> bool:
        return any(k.cell is not None and k.cell.distance(bomb) == 1 and k.has_part("freezer") for k in self.karts)

    def _time_bomb_explodes(self: Races, cell: Hex, why: str) -> None:
        tile = self.board.pop(cell, None)
        if tile is None:
            return
        self._return_tile(tile.kind)
        self.turn.marks.append([cell.label, "blast"])
        self._emit("time-bomb", f"{why}: the Time Bomb on {cell.label} explodes!", None, cell=cell.label)
        start = self.turn.seat
        order = self.karts[start:] + self.karts[:start]
        for k in order:
            if k.cell is not None and self.track.on_track(k.cell) and k.cell.distance(cell) <= 1:
                self._blast(k, "the Time Bomb")

    def _tick(self: Races, kart: Kart, bomb: Hex) -> None:
        roll = self.dice.roll()
        if roll >= 4:
            self._emit("tick", f"{self._who(kart.seat)}, next to the Time Bomb on {bomb.label}, rolls {roll}: it keeps "
                       "ticking.", kart.seat, roll=roll, cell=bomb.label)
            return
        self._time_bomb_explodes(bomb, f"{self._who(kart.seat)} rolls {roll} next to it")

    def _bumped_next_to_bombs(self: Races, kart: Kart) -> None:
        """R16: a kart bumped next to a Time Bomb rolls for it at once."""
        assert kart.cell is not None
        for bomb in sorted(c for c, t in self.board.items() if t.kind == "time-bomb" and not t.face_down):
            if bomb.distance(kart.cell) == 1 and not self._frozen(bomb):
                self._tick(kart, bomb)

    def _turn_ends(self: Races) -> None:
        """Hook (R16): however a turn ends, every kart next to a Time Bomb rolls for it."""
        start = self.turn.seat
        order = self.karts[start:] + self.karts[:start]
        for bomb in sorted(c for c, t in self.board.items() if t.kind == "time-bomb" and not t.face_down):
            if self._frozen(bomb):
                continue
            for k in order:
                if bomb not in self.board:
                    break
                if k.cell is not None and self.track.on_track(k.cell) and k.cell.distance(bomb) == 1:
                    self._tick(k, bomb)


def _direction(a: Hex, b: Hex) -> Facing | None:
    """The facing that leads in a straight line from ``a`` to ``b``, if one does."""
    n = a.distance(b)
    if n == 0:
        return None
    for f in Facing:
        if a.line(f, n)[-1] == b:
            return f
    return None
