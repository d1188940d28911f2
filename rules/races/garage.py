"""Junkyard Races Phase 2: Pit Stops, parts fitted and removed, fuel and team swaps.

Rulebook: Phase 2, Part Cards, Turbo and Jet Fuel, Team Racing; rulings R10 and R11.
"""

from __future__ import annotations

from rules.contract import IllegalAction, SetupError
from rules.races import actions as act
from rules.races import catalogue
from rules.races.base import Part
from rules.races.state import PRINTED_BAG, Kart, Tile
from rules.races.track import PitColour
from rules.races.words import a_an, counted, either, tile_name

FUEL_TILE = {"white": "turbo-fuel", "red": "jet-fuel"}
ENGINE_FOR = {"white": "turbo-engine", "red": "jet-engine"}


class Garage(Part):
    """Parts and Phase 2 (game.garage): fitting, buying, returning, refuelling, swapping."""

    def fit(self, kart: Kart, part: str, loc: int) -> None:
        spec = catalogue.parts()[part]
        if loc not in spec.locations:
            raise SetupError(f"{spec.name} does not fit location {loc}")
        kart.parts[loc] = part
        if spec.capacity:
            kart.bags.setdefault(loc, [])
        if loc == PRINTED_BAG:
            kart.bags.pop(PRINTED_BAG, None)  # R10: a card on location 7 covers the printed saddlebag

    def actions(self, kart: Kart) -> list[act.Action]:
        out: list[act.Action] = []
        pit = self.pit_of_turn(kart)
        if pit is not None:
            for pid, spec in catalogue.parts().items():
                if spec.pile != pit.value or self.g.parts_left[pid] <= 0 or spec.cost > kart.bottle_tops:
                    continue
                out += [act.Buy(pid, loc) for loc in spec.locations if loc not in kart.parts]
            out += [act.Return(loc) for loc in sorted(kart.parts)]
        kinds = self.g.bags.kinds(kart)
        for colour in ("white", "red"):
            if kart.has_part(ENGINE_FOR[colour]) and FUEL_TILE[colour] in kinds and self.g.dice_left[colour] > 0:
                out.append(act.Refuel(colour))
        if self.g.teams:
            out += self.swap_actions(kart)
        return out

    def remove_part(self, kart: Kart, location: int, why: str) -> None:
        part = kart.parts.pop(location)
        self.g.parts_left[part] += 1
        spec = catalogue.parts()[part]
        if spec.capacity:
            self.g.bags.lose(kart, location, why)
            kart.bags.pop(location, None)
        for colour, engine in ENGINE_FOR.items():
            if part == engine and kart.fuel[colour]:
                self.g.dice_left[colour] += kart.fuel[colour]
                lost = counted(kart.fuel[colour], colour + " fuel die")
                self.g.emit("fuel-lost", f"{self.g.who(kart.seat)} loses {lost}.", kart.seat)
                kart.fuel[colour] = 0
        if location == PRINTED_BAG:
            kart.bags[PRINTED_BAG] = []  # the printed saddlebag is uncovered again (R10)

    def pit_of_turn(self, kart: Kart) -> PitColour | None:
        """The Pit Stop the kart began this turn stopped in, if it is still there."""
        began = self.g.turn.began_at
        if began is None or kart.cell != began:
            return None
        return self.g.track.pits.get(began)

    def buy(self, kart: Kart, buy: act.Buy) -> None:
        parts = catalogue.parts()
        spec = parts.get(buy.part)
        if spec is None:
            raise IllegalAction(f"No part is called {buy.part!r}; parts: {', '.join(parts)}.")
        pit = self.pit_of_turn(kart)
        if pit is None:
            raise IllegalAction("Parts are bought only when your turn began stopped in a Pit Stop.")
        if spec.pile != pit.value:
            raise IllegalAction(f"The {spec.name} is a {spec.pile} part: buy it at the {spec.pile} Pit Stop.")
        if self.g.parts_left[buy.part] <= 0:
            raise IllegalAction(f"No {spec.name} cards are left in the supply.")
        if kart.bottle_tops < spec.cost:
            raise IllegalAction(f"The {spec.name} costs {counted(spec.cost, 'bottle top')}; you have "
                                f"{kart.bottle_tops}.")
        loc = buy.location
        if loc is None:
            free = [x for x in spec.locations if x not in kart.parts] or list(spec.locations[:1])
            if len(free) != 1:
                where = either([str(x) for x in free])
                raise IllegalAction(f"Say where to fit the {spec.name}: location {where} (like 'buy {buy.part} "
                                    f"{free[0]}').")
            loc = free[0]
        if loc not in spec.locations:
            raise IllegalAction(f"The {spec.name} fits location {' or '.join(map(str, spec.locations))} only.")
        if loc in kart.parts:
            held = parts[kart.parts[loc]].name
            raise IllegalAction(f"Location {loc} holds your {held}: 'return {loc}' first to make room.")
        kart.bottle_tops -= spec.cost
        self.g.bottle_tops_left += spec.cost
        self.g.parts_left[buy.part] -= 1
        covered: list[Tile] = []
        if loc == PRINTED_BAG:
            tiles = kart.bags.get(PRINTED_BAG, [])
            other_room = sum(self.g.bags.room(kart, b) for b in kart.bags if b != PRINTED_BAG)
            fuel = next((t for t in tiles if t.kind == "jet-fuel"), None)
            if buy.part == "jet-engine" and fuel is not None and len(tiles) > other_room and self.g.dice_left["red"]:
                # The rulebook lets a Jet Fuel be traded before the covered saddlebag's tiles are lost.
                tiles.remove(fuel)
                self.g.return_tile("jet-fuel")
                kart.fuel["red"] += self.g.dice_left["red"]
                dice = counted(self.g.dice_left["red"], "red die")
                self.g.emit("refuel", f"{self.g.who(kart.seat)} trades Jet Fuel for {dice} before the saddlebag is "
                            "covered.", kart.seat)
                self.g.dice_left["red"] = 0
            covered = kart.bags.pop(PRINTED_BAG, [])
        self.fit(kart, buy.part, loc)
        price = counted(spec.cost, "bottle top")
        self.g.emit("buy", f"{self.g.who(kart.seat)} buys {a_an(spec.name)} for {price} and fits it at location {loc}.",
                    kart.seat, part=buy.part, location=loc)
        self.g.bags.rehome(kart, covered, f"covered by the {spec.name}")

    def return_part(self, kart: Kart, ret: act.Return) -> None:
        if self.pit_of_turn(kart) is None:
            raise IllegalAction("Parts are returned only when your turn began stopped in a Pit Stop.")
        if ret.location not in kart.parts:
            fitted = ", ".join(f"{loc} ({catalogue.parts()[p].name})" for loc, p in sorted(kart.parts.items()))
            raise IllegalAction(f"Nothing is fitted at location {ret.location}; fitted: {fitted or 'nothing'}.")
        name = catalogue.parts()[kart.parts[ret.location]].name
        self.remove_part(kart, ret.location, "returned")
        self.g.emit("return", f"{self.g.who(kart.seat)} returns the {name}.", kart.seat, location=ret.location)

    def refuel(self, kart: Kart, refuel: act.Refuel) -> None:
        engine = catalogue.parts()[ENGINE_FOR[refuel.colour]].name
        if not kart.has_part(ENGINE_FOR[refuel.colour]):
            raise IllegalAction(f"{refuel.colour.capitalize()} fuel dice need {a_an(engine)} fitted.")
        kind = FUEL_TILE[refuel.colour]
        self.g.bags.need(kart, kind)
        have = self.g.dice_left[refuel.colour]
        if have <= 0:
            raise IllegalAction(f"No {refuel.colour} dice are left in the supply.")
        self.g.bags.take(kart, kind)
        self.g.return_tile(kind)
        kart.fuel[refuel.colour] += have
        self.g.dice_left[refuel.colour] = 0
        dice = counted(have, refuel.colour + " die")
        self.g.emit("refuel", f"{self.g.who(kart.seat)} fills the {engine} with {dice}.", kart.seat,
                    colour=refuel.colour, dice=have)

    def teammates(self, kart: Kart) -> list[Kart]:
        return [k for k in self.g.karts if k.seat != kart.seat and k.team == kart.team]

    def swap_actions(self, kart: Kart) -> list[act.Action]:
        out: list[act.Action] = []
        near = self.g.deeds.adjacent_karts(kart)
        own_pit = self.g.track.pits.get(kart.cell) if kart.cell else None
        for mate in self.teammates(kart):
            if mate in near:
                if self.g.bags.with_room(mate):
                    out += [act.Swap(mate.colour, "give", kind) for kind in sorted(self.g.bags.kinds(kart))]
                if self.g.bags.with_room(kart):
                    out += [act.Swap(mate.colour, "take", kind) for kind in sorted(self.g.bags.kinds(mate))]
            mate_pit = self.g.track.pits.get(mate.cell) if mate.cell else None
            if own_pit is not None and own_pit == mate_pit:
                out += [act.Swap(mate.colour, "give", None, loc) for loc, p in sorted(kart.parts.items())
                        if loc not in mate.parts and not kart.bags.get(loc)]
                out += [act.Swap(mate.colour, "take", None, loc) for loc, p in sorted(mate.parts.items())
                        if loc not in kart.parts and not mate.bags.get(loc)]
        return out

    def swap(self, kart: Kart, swap: act.Swap) -> None:
        if not self.g.teams:
            raise IllegalAction("Swaps are for team racing.")
        mate = self.g.deeds.target_kart(swap.colour)
        if mate not in self.teammates(kart):
            raise IllegalAction(f"{self.g.who(mate.seat)} is not on your team.")
        giver, taker = (kart, mate) if swap.direction == "give" else (mate, kart)
        if swap.tile is not None:
            if mate not in self.g.deeds.adjacent_karts(kart):
                raise IllegalAction("Team mates swap tiles only when their karts are next to each other.")
            if swap.tile not in self.g.bags.kinds(giver):
                raise IllegalAction(f"{self.g.who(giver.seat)} has no {tile_name(swap.tile)} tile.")
            if not self.g.bags.with_room(taker):
                raise IllegalAction(f"{self.g.who(taker.seat)}'s saddlebags are full.")
            self.g.bags.take(giver, swap.tile)
            # R12: the tile's kind is told to the receiving team mate alone (the giver named it).
            self.g.emit("swap", f"{self.g.who(giver.seat)} passes a tile to {self.g.who(taker.seat)}.", taker.seat,
                        secret=f"You received {a_an(tile_name(swap.tile))} tile from {self.g.who(giver.seat)}.")
            self.g.bags.store(taker, swap.tile, f"from {giver.colour}")
            return
        loc = swap.part_location
        assert loc is not None
        pit_a = self.g.track.pits.get(kart.cell) if kart.cell else None
        pit_b = self.g.track.pits.get(mate.cell) if mate.cell else None
        if pit_a is None or pit_a != pit_b:
            raise IllegalAction("Team mates swap parts only when both karts stand in the same Pit Stop.")
        if loc not in giver.parts:
            raise IllegalAction(f"{self.g.who(giver.seat)} has nothing fitted at location {loc}.")
        if loc in taker.parts:
            raise IllegalAction(f"{self.g.who(taker.seat)} already has a part at location {loc}.")
        if giver.bags.get(loc):
            raise IllegalAction(f"Empty saddlebag {loc} before handing it over.")
        part = giver.parts[loc]
        self.remove_part(giver, loc, "handed over")
        self.g.parts_left[part] -= 1
        covered = taker.bags.pop(PRINTED_BAG, []) if loc == PRINTED_BAG else []
        self.fit(taker, part, loc)
        self.g.emit("swap", f"{self.g.who(giver.seat)} hands the {catalogue.parts()[part].name} to "
                    f"{self.g.who(taker.seat)}.", kart.seat, part=part)
        self.g.bags.rehome(taker, covered, f"covered by the {catalogue.parts()[part].name}")
