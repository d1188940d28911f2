"""Legality has one source: what ``apply`` accepts is exactly what ``legal_actions`` lists (ARCHITECTURE.md, the
game contract), checked both ways on random reachable positions of Junkyard Races.

Positions come from seeded random races (crew, team racing) sampled every few actions, and from random
situations set up in the position format (karts close together with parts, saddlebag tiles, bottle tops
and traps or junk next to them, in any phase), each played on by a few random legal actions.

*Listed ⇒ accepted*: every listed action is taken by ``apply``.

*Accepted ⇒ listed*, in every finite phase: every action from a broad candidate set that ``apply`` takes
is listed. A phase is *finite* when its legal actions are a finite list naming every action it accepts:
a question (R14), Phase 1, Phase 2, Phase 3, reversing and Phase 5's single steps. Phase 5's whole moves
are not: many paths reach one cell and NOTATION.md lists one ``move`` per end cell (rolls of 2 to 30).
So a whole move is compared by where it ends: a plain path (no kart, trap, collapsed bridge or
face-down tile on the way) that spends the whole roll and is accepted must end where a listed move ends;
a shorter accepted path must start with a listed step.

The candidates: every notation form the parser knows, over the cells and options near the kart to act:
steps to every cell within two (absolute and relative, with and without ``leave``), plain paths, every
roll of 0–4 green, 0–5 white and 0–7 red dice, ``reverse``, every trap kind on every cell within two
(Oil with every arrow), Magnet, Missile and Bomb from every neighbour at every kart (by colour and by
cell) and every tile, snatch and smash at every colour, every part bought at every location or none,
every return, refuel and swap, saddlebag moves and show/hide of every kind, every option of a question
plus every facing, number and nearby cell, and one of each other verb in every phase. Synonyms count
as their listed spelling: ``step left`` (R5's relative step), a one-cell ``move``, a weapon aimed at a
kart's cell instead of its colour, and ``buy PART`` without a location (compared by its outcome).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest

from rules.contract import IllegalAction, NotationError, SetupError
from rules.hexgrid import Facing, Hex
from rules.races import Races, catalogue
from rules.races import actions as act
from rules.races.state import PHASE_DEEDS, PHASE_MOVE, PHASE_PARTS, PHASE_ROLL
from rules.races.track import Track, builtin_tracks
from tests.legality import listed_but_refused
from tests.races.conftest import position

TRACKS = sorted(builtin_tracks())
CREW = sorted(catalogue.crew())
PARTS = catalogue.parts()
COLOURS = ["red", "blue", "green", "yellow"]
RACES = 3  # seeded random races, sampled every SAMPLE_EVERY actions
SAMPLE_EVERY = 9
MAX_PLIES = 300
SITUATIONS = 140  # random situations from the position format


# Positions -------------------------------------------------------------------------------------------------


def _copy(g: Races) -> Races:
    return Races.from_dict(g.to_dict())


def _race_positions() -> Iterator[Races]:
    for seed in range(RACES):
        rng = random.Random(seed)
        seats = (2, 4, 6)[seed % 3]
        crew = rng.sample(CREW, seats)
        teams = seats > 2
        setup = {"seats": [{"name": f"P{i}", **({"team": i % 2} if teams else {}), "crew": crew[i],
                            "crew_set": rng.randint(1, 2)} for i in range(seats)],
                 "options": {"track": TRACKS[seed % len(TRACKS)], "crew": True, "teams": teams, "laps": 2}}
        g = Races.create(setup, seed)
        for ply in range(MAX_PLIES):
            if g.is_over:
                break
            if ply % SAMPLE_EVERY == 0:
                yield _copy(g)
            g.apply(rng.choice(g.legal_actions()))


def _oil_arrows(track: Track, cell: Hex) -> list[Facing]:
    """Arrows an Oil on ``cell`` may have (over no wall, onto the track or into the stream)."""
    return [f for f in Facing if not track.wall_between(cell, cell.neighbour(f))
            and (track.on_track(cell.neighbour(f)) or track.is_stream(cell.neighbour(f)))]


def _kart_spec(rng: random.Random, i: int, cell: Hex, teams: bool) -> dict[str, Any]:
    parts: dict[str, str] = {}
    for pid in rng.sample(sorted(PARTS), rng.randint(0, 4)):
        free = [loc for loc in PARTS[pid].locations if str(loc) not in parts]
        if free:
            parts[str(rng.choice(free))] = pid
    tiles = [rng.choice(catalogue.JUNK_KINDS) + ("+" if rng.random() < 0.2 else "") for _ in range(rng.randint(0, 4))]
    spec: dict[str, Any] = {
        "colour": COLOURS[i], "cell": cell.label, "facing": rng.choice(list(Facing)).name, "parts": parts,
        "bags": {} if "7" in parts else {"7": tiles}, "bottle_tops": rng.randint(0, 8),
        "fuel": {"white": rng.randint(0, 1), "red": rng.randint(0, 1)},
    }
    if teams:
        spec["team"] = i % 2
    return spec


def _situation(rng: random.Random, track_name: str) -> Races:
    """A random situation: karts within three cells of each other (the one to act sometimes in a Pit Stop)."""
    track = builtin_tracks()[track_name]
    cells = sorted(track.track_cells)
    centre = rng.choice(cells)
    close = [c for c in cells if c.distance(centre) <= 3]
    karts = rng.choice([2, 2, 3, 4, 4])
    teams = karts == 4 and rng.random() < 0.5
    spots = rng.sample(close, min(karts, len(close)))
    if rng.random() < 0.3:
        pit = rng.choice(sorted(track.pits))
        spots = [pit, *(c for c in spots[1:] if c != pit)]
    board: dict[str, str] = {}
    for c in rng.sample(close, min(len(close), rng.randint(0, 4))):
        roll = rng.random()
        if c in spots:
            continue
        if roll < 0.5:
            board[c.label] = "junk"
        elif roll < 0.7 and _oil_arrows(track, c):
            board[c.label] = "oil " + rng.choice(_oil_arrows(track, c)).name
        else:
            board[c.label] = rng.choice(["glue", "acid", "spring", "time-bomb"])
    phase = rng.choice([PHASE_DEEDS, PHASE_DEEDS, PHASE_PARTS, PHASE_ROLL, PHASE_MOVE, PHASE_MOVE])
    pos: dict[str, Any] = {"track": track_name, "board": board, "phase": phase, "seed": rng.randint(0, 999),
                           "options": {"teams": teams}}
    if phase == PHASE_MOVE:
        pos["points"] = rng.randint(1, 12)
        if rng.random() < 0.25:
            pos.update(reversing=True, points=rng.randint(1, 3), reverse_steps=rng.randint(0, 1))
    return position([_kart_spec(rng, i, c, teams) for i, c in enumerate(spots)], **pos)


def _situations() -> Iterator[Races]:
    rng = random.Random(11)
    made = 0
    while made < SITUATIONS:
        try:
            g = _situation(rng, TRACKS[made % len(TRACKS)])
        except SetupError:
            continue  # e.g. more tiles of one kind than the box holds
        made += 1
        for _ in range(rng.randint(0, 3)):
            if g.is_over:
                break
            g.apply(rng.choice(g.legal_actions()))
        if not g.is_over:
            yield g


@cache
def positions() -> tuple[Races, ...]:
    return (*_race_positions(), *_situations())


def phase_of(g: Races) -> str:
    if g.choice is not None:
        return f"choose {g.choice.kind}"
    if g.turn.phase == PHASE_MOVE and g.turn.reversing:
        return "reversing"
    return g.turn.phase


# Candidates -------------------------------------------------------------------------------------------------


def _near(cell: Hex, radius: int) -> list[Hex]:
    out = {cell}
    ring = {cell}
    for _ in range(radius):
        ring = {n for c in ring for n in c.neighbours()} - out
        out |= ring
    return sorted(c for c in out if c.q >= 0 and c.row >= 0)


def _free_actions(kart: Any) -> list[str]:
    held = sorted({t.kind for tiles in kart.bags.values() for t in tiles})
    locs = [*sorted(kart.bags), 0, 3]
    out = [f"bag {k} {a} {b}" for k in [*held, "missile"] for a in locs for b in locs]
    return out + [f"{verb} {k}" for k in catalogue.JUNK_KINDS for verb in ("show", "hide")]


def _deeds(g: Races, kart: Any, ring1: list[Hex], ring2: list[Hex]) -> list[str]:
    out = []
    for kind in act.TRAP_KINDS:
        for c in ring2:
            out.append(f"trap {kind} {c.label}")
            if kind == "oil":
                out += [f"trap oil {c.label} {f.name}" for f in Facing]
    colours = [k.colour for k in g.karts] + ["pink"]
    targets = colours + [c.label for c in sorted(g.board)] + [k.cell.label for k in g.karts if k.cell is not None]
    out += [f"{weapon} {c.label} {t}" for weapon in ("magnet", "missile", "bomb") for c in ring1 for t in targets]
    return out + [f"{use} {c}" for use in ("snatch", "smash") for c in colours] + _free_actions(kart)


def _parts(g: Races, kart: Any) -> list[str]:
    out = [f"buy {pid}{loc}" for pid in PARTS for loc in ["", *(f" {i}" for i in range(1, 11))]]
    out += [f"return {loc}" for loc in range(1, 11)] + ["refuel white", "refuel red"]
    for colour in [k.colour for k in g.karts] + ["pink"]:
        for way in ("give", "take"):
            out += [f"swap {colour} {way} {k}" for k in catalogue.JUNK_KINDS]
            out += [f"swap {colour} {way} part {loc}" for loc in range(2, 10)]
    return out + _free_actions(kart)


def _plain_paths(g: Races, rng: random.Random, limit: int = 12) -> list[str]:
    """Random paths of plain forward steps from the kart, up to the points left."""
    kart = g.karts[g.turn.seat]
    assert kart.cell is not None
    fld = g.field()
    avoid = set(fld.karts) | set(fld.stop_cells) | {c for c, t in g.board.items() if t.face_down}
    found: set[tuple[Hex, ...]] = set()
    for _ in range(3 * limit):
        cell, facing, path = kart.cell, kart.facing, []
        for _ in range(g.turn.points):
            ways = [(n, f) for n, f in g.track.forward_successors(cell, facing) if n not in avoid]
            if not ways:
                break
            cell, facing = rng.choice(ways)
            path.append(cell)
        if path:
            found.add(tuple(path))
        if len(found) >= limit:
            break
    texts = ["move " + " ".join(c.label for c in p) for p in sorted(found)]
    return texts + [t + " leave" for t in texts]


def candidates(g: Races, rng: random.Random) -> list[str]:
    """A broad set of action texts for the position's phase, plus one of each other verb."""
    seat = g.to_act
    assert seat is not None
    kart = g.karts[seat]
    ring1 = [c for c in _near(kart.cell, 1) if c != kart.cell] if kart.cell is not None else []
    ring2 = _near(kart.cell, 2) if kart.cell is not None else []
    somewhere = (ring1 or [g.track.starts[0].cell])[0].label
    out = ["done", "reverse", "roll 1", "step left", f"step {somewhere}", f"move {somewhere}", "choose 1",
           f"trap glue {somewhere}", f"missile {somewhere} red", "snatch red", "buy mud-tyres", "return 2",
           "refuel white", "swap red give oil", "bag oil 7 4", "show oil", "hide oil"]
    if g.choice is not None:
        options = [*g.choice.options, *(f.name for f in Facing), *map(str, range(10)),
                   *(s.cell.label for s in g.track.starts), *(c.label for c in ring2)]
        return out + [f"choose {o}" for o in options]
    phase = g.turn.phase
    if phase == PHASE_ROLL:
        return out + [f"roll {n}" + (f" {w}w" if w else "") + (f" {r}r" if r else "")
                      for n in range(5) for w in range(6) for r in range(8)]
    if phase == PHASE_MOVE:
        out += [f"step {c.label}{x}" for c in ring2 for x in ("", " leave")]
        out += [f"step {w}{x}" for w in ("left", "straight", "right", "l", "s", "r", "ahead") for x in ("", " leave")]
        return out + ([] if g.turn.reversing else _plain_paths(g, rng))
    if phase == PHASE_DEEDS:
        return out + _deeds(g, kart, ring1, ring2)
    if phase == PHASE_PARTS:
        return out + _parts(g, kart)
    return out


def canonical(g: Races, a: act.Action) -> act.Action:
    """The listed spelling of a synonym: a relative step (R5), a one-cell move, a weapon aimed at a
    kart's cell."""
    kart = g.karts[g.turn.seat]
    if isinstance(a, act.Step) and a.cell is None and kart.cell is not None:
        turn = a.turn or 0
        way = kart.facing.opposite.turn(-turn) if g.turn.reversing else kart.facing.turn(turn)
        return act.Step(kart.cell.neighbour(way), leave=a.leave)
    if isinstance(a, act.Move) and len(a.cells) == 1:
        return act.Step(a.cells[0], leave=a.leave)
    if isinstance(a, act.Fire) and not a.target.isalpha():
        for k in g.karts:
            if k.cell is not None and k.cell.label == a.target.upper() and k.seat != kart.seat:
                return act.Fire(a.weapon, a.cell, k.colour)
    return a


def _state(g: Races) -> dict[str, Any]:
    data = g.to_dict()
    data.pop("events")
    return data


def unlisted_but_accepted(g: Races, rng: random.Random) -> list[str]:
    """Candidates ``apply`` takes that ``legal_actions`` does not list (each with why it counts)."""
    listed = g.legal_actions()
    wanted = set(listed)
    trial = _copy(g)
    seen: set[act.Action] = set()
    out = []
    for text in candidates(g, rng):
        try:
            a = g.parse_action(text)
        except NotationError:
            continue
        if a in seen or a in wanted or canonical(g, a) in wanted:
            continue
        seen.add(a)
        try:
            trial.apply(a)
        except IllegalAction:
            continue
        after, trial = _state(trial), _copy(g)
        if isinstance(a, act.Move):
            if len(a.cells) == g.turn.points:
                if any(isinstance(m, act.Move) and m.cells[-1] == a.cells[-1] and m.leave == a.leave for m in listed):
                    continue
            elif act.Step(a.cells[0], leave=a.leave) in wanted:
                continue
        elif isinstance(a, act.Buy) and a.location is None and any(
                isinstance(b, act.Buy) and b.part == a.part and _state(_applied(g, b)) == after for b in listed):
            continue
        out.append(f"{phase_of(g)}: {text!r} is accepted but not listed")
    return out


def _applied(g: Races, a: act.Action) -> Races:
    out = _copy(g)
    out.apply(a)
    return out


# The properties ---------------------------------------------------------------------------------------------


def test_every_listed_action_is_accepted():
    """Listed ⇒ accepted: every action ``legal_actions`` lists, in every position, is taken by ``apply``."""
    assert listed_but_refused(positions(), phase_of) == []


def test_every_accepted_action_is_listed():
    """Accepted ⇒ listed in every finite phase, whole moves by their end cell (see the module docstring)."""
    rng = random.Random(5)
    found = [p for g in positions() for p in unlisted_but_accepted(g, rng)]
    assert found == []


def test_the_positions_reach_every_finite_phase():
    """The positions the properties run on cover each finite phase with something to choose."""
    seen = Counter(phase_of(g) for g in positions())
    rich = Counter(phase_of(g) for g in positions() if g.choice is None and len(g.legal_actions()) > 2)
    for phase in (PHASE_ROLL, PHASE_MOVE, "reversing"):
        assert seen[phase] >= 10, seen
    for phase in (PHASE_DEEDS, PHASE_PARTS):
        assert rich[phase] >= 10, rich
    assert sum(n for p, n in seen.items() if p.startswith("choose")) >= 3, seen


def test_a_missile_aimed_by_cell_at_a_kart_in_the_stream_is_refused_like_the_list_says():
    """Accepted ⇒ listed, the Missile (rulebook: Missiles): a kart in the stream is no target, so aiming at
    its cell is refused just as aiming at its colour is."""
    g = position([{"colour": "red", "cell": "J3", "facing": "SE", "bags": {"7": ["missile"]}},
                  {"colour": "blue", "cell": "J7", "facing": "N"}], phase=PHASE_DEEDS, board={"J5": "junk"})
    assert g.turn.phase == PHASE_DEEDS and g.track.is_stream(g.track.parse_cell("J7"))
    assert "missile K3 J5" in [str(a) for a in g.legal_actions()]
    assert "missile K3 blue" not in [str(a) for a in g.legal_actions()]
    with pytest.raises(IllegalAction):
        _copy(g).apply("missile K3 blue")
    with pytest.raises(IllegalAction):
        g.apply("missile K3 J7")
