"""Junkyard Races Phase 2: Pit Stops, parts fitted and removed, fuel and team swaps.

Rulebook: Phase 2, Part Cards, Turbo and Jet Fuel, Team Racing; rulings R10 and R11.
"""

from __future__ import annotations

from rules.contract import SetupError
from rules.races import actions as act
from rules.races import catalogue
from rules.races.base import Part
from rules.races.state import PRINTED_BAG, Kart, Tile
from rules.races.texts import Said, kart_of, refuse, said
from rules.races.track import PitColour

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

    def remove_part(self, kart: Kart, location: int, why: Said) -> None:
        part = kart.parts.pop(location)
        self.g.parts_left[part] += 1
        spec = catalogue.parts()[part]
        if spec.capacity:
            self.g.bags.lose(kart, location, why)
            kart.bags.pop(location, None)
        for colour, engine in ENGINE_FOR.items():
            if part == engine and kart.fuel[colour]:
                self.g.dice_left[colour] += kart.fuel[colour]
                self.g.emit("fuel-lost", "event.fuel_lost", kart.seat, {"who": kart_of(kart), "fuel": colour,
                                                                         "count": kart.fuel[colour]})
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
            raise refuse("refuse.no_such_part", typed=buy.part, parts=list(parts))
        pit = self.pit_of_turn(kart)
        if pit is None:
            raise refuse("refuse.buy_in_pit")
        if spec.pile != pit.value:
            raise refuse("refuse.other_pile", part=buy.part, pile=spec.pile)
        if self.g.parts_left[buy.part] <= 0:
            raise refuse("refuse.no_cards_left", part=buy.part)
        if kart.bottle_tops < spec.cost:
            raise refuse("refuse.cost", part=buy.part, count=spec.cost, have=kart.bottle_tops)
        loc = buy.location
        if loc is None:
            free = [x for x in spec.locations if x not in kart.parts] or list(spec.locations[:1])
            if len(free) != 1:
                raise refuse("refuse.say_where", part=buy.part, locations=[str(x) for x in free],
                             example=f"buy {buy.part} {free[0]}")
            loc = free[0]
        if loc not in spec.locations:
            raise refuse("refuse.fits_only", part=buy.part, locations=[str(x) for x in spec.locations])
        if loc in kart.parts:
            raise refuse("refuse.location_taken", location=loc, held=kart.parts[loc])
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
                self.g.emit("refuel", "event.trade_jet_fuel", kart.seat, {"who": kart_of(kart),
                                                                          "count": self.g.dice_left["red"]})
                self.g.dice_left["red"] = 0
            covered = kart.bags.pop(PRINTED_BAG, [])
        self.fit(kart, buy.part, loc)
        self.g.emit("buy", "event.buy", kart.seat, {"who": kart_of(kart), "part": buy.part, "count": spec.cost,
                                                    "location": loc}, part=buy.part, location=loc)
        self.g.bags.rehome(kart, covered, said("why.covered_by", part=buy.part))

    def return_part(self, kart: Kart, ret: act.Return) -> None:
        if self.pit_of_turn(kart) is None:
            raise refuse("refuse.return_in_pit")
        if ret.location not in kart.parts:
            fitted = [said("word.fitted", location=loc, part=p) for loc, p in sorted(kart.parts.items())]
            raise refuse("refuse.nothing_fitted", location=ret.location, fitted=fitted)
        part = kart.parts[ret.location]
        self.remove_part(kart, ret.location, said("why.returned"))
        self.g.emit("return", "event.return", kart.seat, {"who": kart_of(kart), "part": part}, location=ret.location)

    def refuel(self, kart: Kart, refuel: act.Refuel) -> None:
        engine = ENGINE_FOR[refuel.colour]
        if not kart.has_part(engine):
            raise refuse("refuse.fuel_needs_engine", fuel=refuel.colour, engine=engine)
        kind = FUEL_TILE[refuel.colour]
        self.g.bags.need(kart, kind)
        have = self.g.dice_left[refuel.colour]
        if have <= 0:
            raise refuse("refuse.no_fuel_left", fuel=refuel.colour)
        self.g.bags.take(kart, kind)
        self.g.return_tile(kind)
        kart.fuel[refuel.colour] += have
        self.g.dice_left[refuel.colour] = 0
        self.g.emit("refuel", "event.refuel", kart.seat, {"who": kart_of(kart), "engine": engine, "fuel": refuel.colour,
                                                          "count": have}, colour=refuel.colour, dice=have)

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
            raise refuse("refuse.swap_teams")
        mate = self.g.deeds.target_kart(swap.colour)
        if mate not in self.teammates(kart):
            raise refuse("refuse.not_team_mate", who=kart_of(mate))
        giver, taker = (kart, mate) if swap.direction == "give" else (mate, kart)
        if swap.tile is not None:
            if mate not in self.g.deeds.adjacent_karts(kart):
                raise refuse("refuse.swap_tiles_adjacent")
            if swap.tile not in self.g.bags.kinds(giver):
                raise refuse("refuse.has_no_tile", who=kart_of(giver), tile=swap.tile)
            if not self.g.bags.with_room(taker):
                raise refuse("refuse.bags_full_of", who=kart_of(taker))
            self.g.bags.take(giver, swap.tile)
            # R12: the tile's kind is told to the receiving team mate alone (the giver named it).
            self.g.emit("swap", "event.pass_tile", taker.seat, {"who": kart_of(giver), "taker": kart_of(taker)},
                        secret="secret.received", secret_params={"tile": swap.tile, "who": kart_of(giver)})
            self.g.bags.store(taker, swap.tile, said("where.from_kart", colour=giver.colour))
            return
        loc = swap.part_location
        assert loc is not None
        pit_a = self.g.track.pits.get(kart.cell) if kart.cell else None
        pit_b = self.g.track.pits.get(mate.cell) if mate.cell else None
        if pit_a is None or pit_a != pit_b:
            raise refuse("refuse.swap_parts_pit")
        if loc not in giver.parts:
            raise refuse("refuse.nothing_at", who=kart_of(giver), location=loc)
        if loc in taker.parts:
            raise refuse("refuse.part_at", who=kart_of(taker), location=loc)
        if giver.bags.get(loc):
            raise refuse("refuse.empty_bag_first", location=loc)
        part = giver.parts[loc]
        self.remove_part(giver, loc, said("why.handed_over"))
        self.g.parts_left[part] -= 1
        covered = taker.bags.pop(PRINTED_BAG, []) if loc == PRINTED_BAG else []
        self.fit(taker, part, loc)
        params = {"who": kart_of(giver), "part": part, "taker": kart_of(taker)}
        self.g.emit("swap", "event.hand_part", kart.seat, params, part=part)
        self.g.bags.rehome(taker, covered, said("why.covered_by", part=part))
