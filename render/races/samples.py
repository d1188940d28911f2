"""Sample mid-race positions for the live pictures, drawn by the picture tests and timed by the benchmark.

The busy position has eight karts, traps of every kind, junk tiles, a kart in the stream and a move in
progress whose path has a bump and a pick-up: every layer of the board picture at once.
"""

from __future__ import annotations

from typing import Any

from rules.contract import IllegalAction, SetupError
from rules.hexgrid import Facing, Hex, parse_label
from rules.races.engine import Races
from rules.races.movement import forward_cells
from rules.races.track import Terrain, get_track

COLOURS = ("red", "blue", "green", "yellow", "orange", "purple", "white", "black")
TRAPS = ("glue", "oil", "acid", "spring", "time-bomb")

KART_EXTRAS: list[dict[str, Any]] = [
    {"flags": 2, "bottle_tops": 4, "parts": {"3": "mud-tyres", "6": "turbo-engine"}, "fuel": {"white": 2},
     "bags": {"7": ["oil", "glue+"]}},
    {"flags": 1, "bottle_tops": 7, "parts": {"4": "saddlebag-4", "2": "missile-launcher"},
     "bags": {"4": ["missile", "spring"], "7": ["bomb"]}},
    {"flags": 3, "parts": {"7": "jet-engine"}, "fuel": {"red": 3}},
    {"flags": 0, "bottle_tops": 10, "parts": {"8": "freezer", "9": "field-generator"}, "bags": {"7": ["magnet+"]}},
    {"flags": 4, "bottle_tops": 1, "parts": {"6": "battering-ram", "5": "saddlebag-5"},
     "bags": {"5": ["acid"], "7": ["time-bomb", "turbo-fuel", "jet-fuel"]}},
    {"flags": 2, "parts": {"3": "grass-tyres", "4": "grass-tyres"}, "glued": True},
    {"flags": 1, "bottle_tops": 2, "parts": {"8": "bomb-catcher", "9": "missile-deflector", "7": "smoke-screen"}},
    {"flags": 0, "parts": {"2": "bomb-launcher"}, "bags": {"7": ["bomb", "missile", "magnet", "spring", "glue"]}},
]


def _facing(a: Hex, b: Hex) -> Facing:
    f = a.facing_to(b)
    if f is None:
        raise ValueError(f"{a.label} and {b.label} are not neighbours")
    return f


def busy_position(track_name: str, start: int = 0, face_down: str | None = None) -> tuple[dict[str, Any], list[str]]:
    """A position (the position format) and the steps the mover still has to drive to make its path.

    ``start`` is where on the shortest lap the mover stands; ``face_down`` fixes the kind of every
    face-down junk tile (to compare public pictures)."""
    track = get_track(track_name)
    lap = list(track.shortest_lap()[1])
    n = len(lap)
    while any(track.terrain[lap[(start + k) % n]] is not Terrain.TARMAC for k in range(3)):
        start += 1
    m0, m1, m2 = lap[start % n], lap[(start + 1) % n], lap[(start + 2) % n]
    push = _facing(m1, m2)
    blue_to = m2.neighbour(push)
    pickup = next((c for c, _ in forward_cells(m2, push)
                   if c != blue_to and track.on_track(c) and not track.is_bridge(c) and c not in track.pits), m1)
    used = {m0, m2, blue_to, pickup}
    karts: list[dict[str, Any]] = [
        {"colour": "red", "cell": m0.label, "facing": _facing(m0, m1).name},
        {"colour": "blue", "cell": m2.label, "facing": push.name},
    ]
    water = sorted(track.stream_cells, key=lambda c: (c.distance(m2), c))
    green_cell = next(c for c in water if c.distance(m2) >= 3)
    karts.append({"colour": "green", "cell": green_cell.label, "facing": "S"})
    spots = [lap[(start + 8 + 4 * j) % n] for j in range(5)]
    for colour, cell in zip(COLOURS[3:], spots, strict=False):
        i = lap.index(cell)
        karts.append({"colour": colour, "cell": cell.label, "facing": _facing(cell, lap[(i + 1) % n]).name})
        used.add(cell)
    for kart, extra in zip(karts, KART_EXTRAS, strict=False):
        kart.update(extra)
    used |= {parse_label(k["cell"]) for k in karts if k.get("cell")}
    junk = "junk" + (f":{face_down}" if face_down else "")
    board: dict[str, str] = {pickup.label: junk}
    free = [c for c in sorted(track.track_cells, key=lambda c: (c.distance(m0), c))
            if c not in used and not track.is_bridge(c) and c not in track.pits
            and all(s.cell != c for s in track.starts) and c not in track.deliveries.values()]
    picked: list[Hex] = []
    for c in free[6:]:
        if all(c.distance(p) >= 3 for p in picked) and all(c.distance(u) >= 2 for u in used):
            picked.append(c)
        if len(picked) == len(TRAPS):
            break
    for kind, cell in zip(TRAPS, picked, strict=True):
        text = kind
        if kind == "oil":
            arrow = next(f for f in ("SE", "S", "SW", "NE", "N", "NW") if track.on_track(cell.neighbour(Facing[f])))
            text = f"oil {arrow}"
        if kind == "time-bomb":
            text = "time-bomb N purple"
        board[cell.label] = text
    for number in (3, 8, 11, 14, 17):
        cell = track.deliveries[number]
        if cell not in used and cell.label not in board:
            board[cell.label] = junk
    position = {"track": track_name, "seed": 5, "karts": karts, "board": board, "turn": "red", "phase": "roll",
                "dice": [5, 2, 2, 4]}
    return position, [m1.label, m2.label, pickup.label]


def busy_game(track_name: str, face_down: str | None = None) -> Races:
    """The busy position after the mover rolled 5, 2, 2 and a white 4 and drove three steps (a bump,
    then a pick-up)."""
    for start in range(40):
        position, steps = busy_position(track_name, start=start, face_down=face_down)
        game = Races.from_position(position)
        try:
            game.apply("roll 3 1w")
            for step in steps:
                game.apply(f"step {step}")
        except (IllegalAction, StopIteration, SetupError):
            continue
        if [m[1] for m in game.turn.marks][-2:] == ["bump", "pickup"]:
            return game
    raise LookupError(f"no busy scene on track {track_name}")
