"""The numbers of Junkyard Races, read from the data files in ``rules/races/data``.

Costs, locations, card counts, supplies and the crew's starting sets live in TOML so a group that owns
the printed game can edit them to match their cards (rulings R10, R11).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any


@dataclass(frozen=True, slots=True)
class PartSpec:
    id: str
    name: str
    pile: str  # "green" or "red": which Pit Stop sells it
    cost: int
    cards: int
    locations: tuple[int, ...]
    capacity: int = 0  # saddlebags: tiles it holds


@dataclass(frozen=True, slots=True)
class CrewSet:
    bottle_tops: int
    tiles: tuple[str, ...]
    parts: tuple[tuple[str, int], ...]  # (part id, location)


@dataclass(frozen=True, slots=True)
class CrewMember:
    id: str
    name: str
    sets: tuple[CrewSet, CrewSet]


@dataclass(frozen=True, slots=True)
class Supply:
    bottle_tops: int
    flags: int
    printed_saddlebag: int
    bottle_top_cap: int
    laps_to_win: int
    junk: dict[str, int]
    dice: dict[str, int]
    colours: dict[str, tuple[int, int, int]]


def _load(name: str) -> dict[str, Any]:
    text = resources.files("rules.races").joinpath("data", name).read_text(encoding="utf-8")
    return tomllib.loads(text)


@cache
def parts() -> dict[str, PartSpec]:
    """Every part card kind by id, in catalogue order."""
    out: dict[str, PartSpec] = {}
    for p in _load("parts.toml")["part"]:
        out[p["id"]] = PartSpec(
            p["id"], p["name"], p["pile"], int(p["cost"]), int(p["cards"]), tuple(p["locations"]),
            int(p.get("capacity", 0)),
        )
    return out


@cache
def supply() -> Supply:
    d = _load("supply.toml")
    return Supply(
        bottle_tops=int(d["bottle_tops"]),
        flags=int(d["flags"]),
        printed_saddlebag=int(d["printed_saddlebag"]),
        bottle_top_cap=int(d["bottle_top_cap"]),
        laps_to_win=int(d["laps_to_win"]),
        junk={k: int(v) for k, v in d["junk"].items()},
        dice={k: int(v) for k, v in d["dice"].items()},
        colours={k: (int(v[0]), int(v[1]), int(v[2])) for k, v in d["colours"].items()},
    )


@cache
def crew() -> dict[str, CrewMember]:
    out: dict[str, CrewMember] = {}
    for c in _load("crew.toml")["crew"]:
        sets = tuple(
            CrewSet(int(s.get("bottle_tops", 0)), tuple(s.get("tiles", [])),
                    tuple((str(p), int(loc)) for p, loc in s.get("parts", [])))
            for s in c["set"]
        )
        if len(sets) != 2:
            raise ValueError(f"crew member {c['id']} needs exactly two starting sets")
        out[c["id"]] = CrewMember(c["id"], c["name"], (sets[0], sets[1]))
    return out


def colours() -> list[str]:
    return list(supply().colours)


JUNK_KINDS: tuple[str, ...] = (
    "acid", "glue", "oil", "turbo-fuel", "jet-fuel", "bomb", "time-bomb", "missile", "magnet", "spring",
)
