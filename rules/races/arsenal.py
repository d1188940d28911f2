"""The Junkyard Races arsenal: what Phases 1 and 2 offer and who carries each action out.

Everything beyond racing round the track lives in typed parts of the game (see rules/races/base.py):
``game.bags`` (saddlebags/saddlebags.py), ``game.deeds`` (Phase 1 placements, deeds.py),
``game.weapons`` (Magnet, Missile, Bomb, gadgets, damage; weapons.py), ``game.garage`` (parts, Pit
Stops, fuel, team swaps; garage.py) and ``game.traps`` (traps going off and the Time Bombs; traps.py).
``game.arsenal`` lists the actions Phases 1 and 2 offer and hands each action to its part. Rulebook
sections: Phase 1, Phase 2, Junk Tiles, Junk Tile List, Part Cards, Team Racing; rulings R10–R18.

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

from rules.races import actions as act
from rules.races import queries
from rules.races.base import Part
from rules.races.state import PHASE_DEEDS, PHASE_PARTS, Kart
from rules.races.texts import refuse


class Arsenal(Part):
    """The arsenal's front door (game.arsenal): the offers of Phases 1 and 2 and their dispatch."""

    def offers(self, kart: Kart, phase: str) -> list[act.Action]:
        """The deeds (Phase 1) or the parts, fuel and swaps (Phase 2) this kart may play now."""
        if kart.cell is None or not self.g.track.on_track(kart.cell):
            return []
        if phase == PHASE_DEEDS:
            return self.g.deeds.actions(kart)
        if phase == PHASE_PARTS:
            return self.g.garage.actions(kart)
        return []

    def do(self, action: act.Action) -> bool:
        """Carry out an arsenal action; False when the action is not one of the arsenal's."""
        kart = self.g.karts[self.g.turn.seat]
        if isinstance(action, (act.BagMove, act.Flip)):
            if self.g.turn.phase not in (PHASE_DEEDS, PHASE_PARTS):
                raise refuse("refuse.bag_phase")
            if isinstance(action, act.BagMove):
                self.g.bags.move(kart, action)
            else:
                self.g.bags.flip(kart, action)
            return True
        deeds = (act.PlaceTrap, act.Fire, act.Gadget)
        parts = (act.Buy, act.Return, act.Refuel, act.Swap)
        if isinstance(action, deeds):
            if self.g.turn.phase != PHASE_DEEDS:
                raise refuse("refuse.not_now_deeds", **queries.not_now(self.g, f"'{action}'"))
            if isinstance(action, act.PlaceTrap):
                self.g.deeds.place_trap(kart, action)
            elif isinstance(action, act.Gadget):
                self.g.weapons.gadget(kart, action)
            elif action.weapon == "magnet":
                self.g.weapons.magnet(kart, action)
            elif action.weapon == "missile":
                self.g.weapons.missile(kart, action)
            else:
                self.g.weapons.bomb(kart, action)
            return True
        if isinstance(action, parts):
            if self.g.turn.phase != PHASE_PARTS:
                raise refuse("refuse.not_now_parts", **queries.not_now(self.g, f"'{action}'"))
            if isinstance(action, act.Buy):
                self.g.garage.buy(kart, action)
            elif isinstance(action, act.Return):
                self.g.garage.return_part(kart, action)
            elif isinstance(action, act.Refuel):
                self.g.garage.refuel(kart, action)
            else:
                self.g.garage.swap(kart, action)
            return True
        return False
