"""A Schrottplatz Rally car as the game keeps it, and the two phases of a turn: what the rules object and the
position format (:mod:`rules.rally.position`) both build."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.rally import board as B

#: the phases of a turn: the roll (lever, booster, die), then the move or the parking
TURN, MOVE = "turn", "move"


@dataclass
class Car:
    """One car: where it is, its board, its supplies and counters."""

    at: str
    progress: int  # rows driven from the arch: (lap - 1) * rows + offset; negative on the grid
    gears: list[str]
    fuel: int = B.START_FUEL
    lever: str = "green"
    stops: int = 0
    restart: bool = True  # the next roll must be green (S3)
    repair: int = 0  # 1: forced to park, gear 1 still broken; 2: may still take the parts for gear 2 (S6)
    parked: int | None = None  # the car's place on the parking bar (order of parking), while it is parked
    since: int = 0  # when it reached its place (orders cars sharing the waiting cell or stop sign)

    def reserve(self) -> dict[str, int]:
        """S7: everything the player owns that is not on the car (or, for mechanics, on the counters)."""
        return {
            "mechanic": B.TOTALS["mechanic"] - B.ON_COUNTERS - B.count(self.gears, "M"),
            "body": B.TOTALS["body"] - B.count(self.gears, "B"),
            "engine": B.TOTALS["engine"] - B.count(self.gears, "E"),
            "fuel": B.TOTALS["fuel"] - self.fuel,
        }

    def to_dict(self) -> dict[str, Any]:
        return {"at": self.at, "progress": self.progress, "gears": list(self.gears), "fuel": self.fuel,
                "lever": self.lever, "stops": self.stops, "restart": self.restart, "repair": self.repair,
                "parked": self.parked, "since": self.since}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Car:
        return cls(d["at"], d["progress"], list(d["gears"]), d["fuel"], d["lever"], d["stops"], d["restart"],
                   d["repair"], d["parked"], d["since"])


__all__ = ["MOVE", "TURN", "Car"]
