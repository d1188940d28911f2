"""A racing driver for Junkyard Races that plays to win.

The driver measures everything in *progress round the lap*: for every cell, facing and lap state it
knows how many forward steps are left to the next Checkered Line crossing that scores a flag (R4: a
bridge must be crossed since the line, and the first crossing after the start only arms the count).
These distances come from the rules (:mod:`rules.races.progress`, once per track): a backward search over the
forward-step graph, which respects walls and one-way bridges (R2, R6).

In Phase 5 it searches its whole roll: every legal first step (bumps and jumps included) and then
every way of spending the rest on plain steps, scoring where the move ends (progress, the terrain it
starts the next turn on, Pit Stops worth stopping in, Time Bombs next door, traps) and what it collects
on the way (junk tiles, bottle tops, laps). It plays the best as a whole move when the engine lists
that move, or step by step otherwise, remembering its plan between steps.

It only uses what its seat may know: kart positions, parts, flags and the traps on the board are
public; face-down tiles are known only to be there (read from the seat's own view), and it never looks
at another kart's saddlebags or at the game's dice. Choices (R14) it answers itself: start cells,
saddlebags, how far a Battering Ram pushes, facings after a Spring or a Magnet, snatched tiles.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.drivers.base import DRIVER_STREAM, check_turn
from bot.drivers.reasons import Choice, Reason, Word, because, only
from rules.contract import Game
from rules.dice import Dice
from rules.hexgrid import Facing, Hex, parse_label
from rules.literal import Name
from rules.races import actions as act
from rules.races import catalogue, queries
from rules.races.engine import Races
from rules.races.movement import Field, Plan, legal_plans, step_plans
from rules.races.progress import ARMED, BRIDGED, FALL_STEPS, UNARMED, Transition, mode_of, progress
from rules.races.progress import LapDistances as TrackInfo
from rules.races.progress import lap_distances as track_info
from rules.races.state import PHASE_DEEDS, PHASE_MOVE, PHASE_PARTS, PHASE_ROLL, PRINTED_BAG, Kart
from rules.races.track import Terrain, Track

STREAM_COST = FALL_STEPS  # a fall: the rest of the move is lost, and the lap state does not change
TILE_VALUE = 2.0  # a junk tile picked up, when there is room for it
TOP_VALUE = 0.6  # one bottle top
TRAP_COST = 6.0  # driving into a trap
WHOLE_SLACK = 1.0  # a listed whole move this close to the best plan is played in one go
BUMP_COST = 0.5  # bumping a kart on later in the move (it may block the way once pushed)
BOMB_NEXT_COST = 3.0  # ending next to a Time Bomb that may go off
WIN_VALUE = 10_000.0
ROLL_GREEN = 10.5  # what three green dice are worth
MAX_DICE_WITH_RED = 9  # more dice than this and five sixes (the Jet Engine blows off) get likely
TRAP_REACH = 12  # traps are laid only for karts at most this far behind: they stay on the racing line


# ---------------------------------------------------------------------------------------------------
# What the seat knows


@dataclass
class Context:
    """The public facts (and the seat's own) that scoring a move needs."""

    game: Races
    seat: int
    info: TrackInfo
    kart: Kart
    junk: frozenset[Hex]  # face-down tiles lying on the board
    bombs: frozenset[Hex]  # face-up Time Bombs not frozen
    tile_room: int
    top_room: int
    terrain_cost: dict[Terrain, float]
    pit_bonus: dict[str, float]
    to_win: int  # flags still needed to win
    mates: frozenset[int]

    @property
    def track(self) -> Track:
        return self.info.track


def _terrain_costs(game: Races, kart: Kart) -> dict[Terrain, float]:
    """What starting the next turn on each terrain costs against tarmac (fewer dice)."""
    fuel = 0.0
    if kart.has_part("turbo-engine"):
        fuel += 3.5 * kart.fuel["white"] * 0.3
    grass = kart.count_part("grass-tyres")
    mud = kart.count_part("mud-tyres")
    mud_roll = sum(d + mud for d in range(1, 7) if d + mud >= 3) / 6.0
    base = ROLL_GREEN + fuel
    return {
        Terrain.TARMAC: 0.0,
        Terrain.GRASS: 0.8 * (base - 3.5 - grass),
        Terrain.MUD: 0.8 * (base - mud_roll) + (4.0 if mud == 0 else 0.0),
        Terrain.BRIDGE: 0.8 * (base - 3.5),
    }


def context(game: Races, seat: int) -> Context:
    """What ``seat`` knows for scoring moves: tiles from its own view, public karts, parts and traps."""
    view = game.view(seat)
    track = game.track
    info = track_info(track).with_traps(queries.field(game).stop_cells, TRAP_COST)
    kart = game.karts[seat]
    junk: set[Hex] = set()
    bombs: set[Hex] = set()
    for label, tile in view["board"].items():
        cell = parse_label(label)
        if tile.get("face_down", True):
            junk.add(cell)
        elif tile["kind"] == "time-bomb":
            bombs.add(cell)
    bombs = {b for b in bombs if not any(k.cell is not None and k.cell.distance(b) == 1 and k.has_part("freezer")
                                         for k in game.karts)}
    own = view["karts"][seat]
    room = sum(queries.capacity(kart, int(loc)) - len(tiles) for loc, tiles in own["bags"].items())
    cap = catalogue.supply().bottle_top_cap
    mates = frozenset(k.seat for k in game.karts if game.teams and k.seat != seat and k.team == kart.team)
    return Context(game, seat, info, kart, frozenset(junk), frozenset(bombs), max(0, room),
                   max(0, min(cap - kart.bottle_tops, game.bottle_tops_left)), _terrain_costs(game, kart),
                   _pit_bonus(game, kart, own), _flags_to_win(game, kart, mates), mates)


def _flags_to_win(game: Races, kart: Kart, mates: frozenset[int]) -> int:
    """Flags this kart still needs for the race to be won by scoring them (R4); in team racing only the
    last team member still short of the laps wins by its own lap."""
    if kart.flags >= game.laps or any(game.karts[m].flags < game.laps for m in mates):
        return 1 << 20
    return game.laps - kart.flags


# ---------------------------------------------------------------------------------------------------
# Parts worth buying


def _held(own: dict[str, Any]) -> list[str]:
    return [t.rstrip("+") for tiles in own["bags"].values() for t in tiles]


def wanted_parts(game: Races, kart: Kart, own: dict[str, Any]) -> list[tuple[float, str, int]]:
    """Parts this kart would buy now, best first: (value, part id, location)."""
    specs = catalogue.parts()
    held = _held(own)
    out: list[tuple[float, str, int]] = []

    def want(value: float, part: str) -> None:
        spec = specs[part]
        if game.parts_left.get(part, 0) <= 0 or spec.cost > kart.bottle_tops:
            return
        free = [loc for loc in spec.locations if loc not in kart.parts]
        if part in ("grass-tyres", "mud-tyres"):
            free = [loc for loc in free if loc != 5 or 4 in kart.parts]  # keep room for a saddlebag
        if free:
            out.append((value, part, free[0]))

    if not kart.has_part("turbo-engine") and ("turbo-fuel" in held or kart.fuel["white"]) \
            and (game.dice_left["white"] or kart.fuel["white"]):
        want(9.0, "turbo-engine")
    printed = own["bags"].get(str(PRINTED_BAG), [])
    if not kart.has_part("jet-engine") and "jet-fuel" in held and game.dice_left["red"] >= 3 and len(printed) <= 2:
        want(10.0, "jet-engine")
    if not kart.has_part("mud-tyres"):
        want(4.0, "mud-tyres")
    if not kart.has_part("grass-tyres"):
        want(3.0, "grass-tyres")
    if "missile" in held and not kart.has_part("missile-launcher"):
        want(3.0, "missile-launcher")
    if kart.bottle_tops >= 6:
        for part, value in (("missile-deflector", 2.5), ("field-generator", 2.0), ("bomb-catcher", 2.0),
                            ("freezer", 1.0)):
            if not kart.has_part(part):
                want(value, part)
    out.sort(key=lambda x: -x[0])
    return out


def _pit_bonus(game: Races, kart: Kart, own: dict[str, Any]) -> dict[str, float]:
    specs = catalogue.parts()
    bonus: dict[str, float] = {}
    for value, part, _ in wanted_parts(game, kart, own):
        pile = specs[part].pile
        bonus[pile] = max(bonus.get(pile, 0.0), min(6.0, value * 0.7))
    return bonus


# ---------------------------------------------------------------------------------------------------
# Scoring a move


def end_value(ctx: Context, cell: Hex, facing: Facing, mode: int, laps: int) -> float:
    """How good it is to end the move here (having scored ``laps`` flags on the way)."""
    info = ctx.info
    if laps and laps >= ctx.to_win:
        return WIN_VALUE
    v = laps * info.lap - info.remaining(cell, facing, mode)
    track = ctx.track
    terrain = track.terrain.get(cell)
    if terrain is Terrain.STREAM:
        return v
    if terrain is not None:
        v -= ctx.terrain_cost.get(terrain, 0.0)
    pit = track.pits.get(cell)
    if pit is not None:
        v += ctx.pit_bonus.get(pit.value, 0.0)
    for b in ctx.bombs:
        if b.distance(cell) == 1:
            v -= BOMB_NEXT_COST
    return v


def arrive_bonus(ctx: Context, cell: Hex, taken: set[Hex] | None = None) -> float:
    v = 0.0
    if cell in ctx.junk and ctx.tile_room > 0 and (taken is None or cell not in taken):
        v += TILE_VALUE
    tops = ctx.track.bottle_tops.get(cell)
    if tops:
        v += TOP_VALUE * min(tops, ctx.top_room)
    return v


State = tuple[Hex, Facing, int, int]  # cell, facing, lap state, laps scored this move


BEAM = 40  # states kept per number of points left: the most promising by progress


Link = tuple[Hex, Any] | None  # the cells driven, newest first, as a linked list (cell, earlier link)
Node = tuple[float, int, Link]  # score so far, the first step it came from, the cells driven
Found = tuple[float, int, tuple[Hex, ...]]  # value, first step, cells driven


def search(ctx: Context, fld: Field, seeds: dict[State, Found], points: dict[State, int]) -> Found:
    """Best (value, seed index, cells driven) over plain continuations from the seeds.

    ``seeds`` maps a state to (score so far, which first step led there, cells driven) and ``points``
    to the movement points left there. A continuation spends exactly the points left on plain steps
    (no bumps, no traps); a jump over a collapsed bridge is taken when the points reach the far end.
    Where no way on exists the move ends (blocked); driving into a trap ends it with a penalty. Each
    number of points left keeps only its :data:`BEAM` most promising states.
    """
    return _Search(ctx, fld).run(seeds, points)


class _Search:
    """One :func:`search`: layers of states by points left, spent from the most points down, and the
    best end found so far."""

    def __init__(self, ctx: Context, fld: Field) -> None:
        self.ctx = ctx
        self.info = ctx.info
        self.track = ctx.track
        self.karts = fld.karts
        self.bumped = fld.bumped
        self.stops = fld.stop_cells
        self.junk = ctx.junk if ctx.tile_room > 0 else frozenset()
        self.tops = self.track.bottle_tops
        self.layers: dict[int, dict[State, Node]] = {}
        self.best_v = float("-inf")
        self.best_node: tuple[int, Link] | None = None

    def run(self, seeds: dict[State, Found], points: dict[State, int]) -> Found:
        for s, (score, seed, cells) in seeds.items():
            link: Link = None
            for c in cells:
                link = (c, link)
            self._add(points[s], s, (score, seed, link))
        while self.layers:
            q = max(self.layers)
            for state, node in self._kept(q, self.layers.pop(q)):
                self._expand(q, state, node)
        if self.best_node is None:
            return (self.best_v, -1, ())
        seed, link = self.best_node
        driven: list[Hex] = []
        while link is not None:
            driven.append(link[0])
            link = link[1]
        return (self.best_v, seed, tuple(reversed(driven)))

    def _kept(self, q: int, layer: dict[State, Node]) -> list[tuple[State, Node]]:
        """The layer's states, cut to the :data:`BEAM` most promising while points are left."""
        items = list(layer.items())
        if len(items) > BEAM and q > 0:
            lap, dist, big = self.info.lap, self.info.dist, self.info.big
            items.sort(key=lambda it: it[1][0] + it[0][3] * lap - dist.get(it[0][:3], big), reverse=True)
            del items[BEAM:]
        return items

    def _add(self, q: int, state: State, node: Node) -> None:
        """Keep ``node`` for ``state`` with ``q`` points left unless a better one is kept already."""
        layer = self.layers.get(q)
        if layer is None:
            self.layers[q] = {state: node}
            return
        cur = layer.get(state)
        if cur is None or node[0] > cur[0]:
            layer[state] = node

    def _finish(self, v: float, seed: int, link: Link) -> None:
        if v > self.best_v:
            self.best_v, self.best_node = v, (seed, link)

    def _end(self, score: float, cell: Hex, facing: Facing, mode: int, laps: int) -> float:
        return score + end_value(self.ctx, cell, facing, mode, laps)

    def _collect(self, score: float, cell: Hex) -> float:
        """The score after arriving on ``cell``: a junk tile with room for it, bottle tops."""
        score += TILE_VALUE if cell in self.junk else 0.0
        if cell in self.tops:
            score += TOP_VALUE * min(self.tops[cell], self.ctx.top_room)
        return score

    def _expand(self, q: int, state: State, node: Node) -> None:
        """Every way on from ``state`` with ``q`` points left, or the move's end there."""
        cell, facing, mode, laps = state
        score, seed, link = node
        if laps and laps >= self.ctx.to_win:
            self._finish(WIN_VALUE + score, seed, link)
            return
        if q <= 0:
            self._finish(self._end(score, cell, facing, mode, laps), seed, link)
            return
        moved = False
        for move in self.info.transitions.get((cell, facing), ()):
            if move[4]:
                self._jump(q, state, node, move)
                moved = True
            elif self._drive(q, state, node, move):
                moved = True
        if not moved:
            self._finish(self._end(score, cell, facing, mode, laps), seed, link)

    def _jump(self, q: int, state: State, node: Node, move: Transition) -> None:
        """Into a collapsed bridge's gap: fall short, land on a trap, or land and drive on. A kart on the
        far end leaves no landing."""
        cell, _, mode, laps = state
        score, seed, link = node
        target, nf, cost, end, _, _ = move
        if cost > q:
            fell = self.track.gap_from[cell].cells[q - 1]
            self._finish(self._end(score, fell, nf, mode, laps), seed, (target, link))
        elif end in self.karts:
            return
        elif end in self.stops:
            self._finish(self._end(score, end, nf, mode, laps) - TRAP_COST, seed, (target, link))
        else:
            self._add(q - cost, (end, nf, mode, laps), (self._collect(score, end), seed, (target, link)))

    def _drive(self, q: int, state: State, node: Node, move: Transition) -> bool:
        """A plain step, bumping a kart on if it can be pushed (judged exactly when reached); a trap ends
        the move. False when a kart that cannot be pushed is in the way."""
        _, _, mode, laps = state
        score, seed, link = node
        target, nf, _, _, _, modes = move
        if target in self.karts:
            beyond = target.neighbour(nf)
            if self.karts[target] in self.bumped or beyond in self.karts or not self.track.may_bump(target, beyond):
                return False
            score -= BUMP_COST
        nmode, scored = modes[mode]
        nlaps = laps + scored
        if target in self.stops:
            self._finish(self._end(score, target, nf, nmode, nlaps) - TRAP_COST, seed, (target, link))
        else:
            self._add(q - 1, (target, nf, nmode, nlaps), (self._collect(score, target), seed, (target, link)))
        return True


def path_value(ctx: Context, cell: Hex, facing: Facing, mode: int, cells: tuple[Hex, ...]) -> float:
    """The score of driving a listed whole move (plain steps) from the kart's cell."""
    info = ctx.info
    laps = 0
    score = 0.0
    for nxt in cells:
        f = cell.facing_to(nxt)
        assert f is not None
        mode, scored = info.step_mode(cell, nxt, mode)
        laps += scored
        if laps and laps >= ctx.to_win:
            return WIN_VALUE + score
        score += arrive_bonus(ctx, nxt)
        cell, facing = nxt, f
    return score + end_value(ctx, cell, facing, mode, laps)


def victim_loss(ctx: Context, seat: int, frm: Hex, to: Hex, direction: Facing) -> float:
    """How much a push from ``frm`` to ``to`` sets the pushed kart back (negative: it helps it)."""
    info = ctx.info
    k = ctx.game.karts[seat]
    mode = mode_of(k)
    before = info.remaining(frm, k.facing, mode)
    cur = frm
    while cur != to:
        nxt = cur.neighbour(direction)
        mode, _ = info.step_mode(cur, nxt, mode)
        cur = nxt
    after = info.remaining(to, k.facing, mode)
    loss = after - before
    if ctx.track.is_stream(to):
        loss += 3.0
    return loss if seat not in ctx.mates else -loss


# ---------------------------------------------------------------------------------------------------
# The driver


class RacingDriver:
    """Races round the racing line, buys and uses parts and junk, and answers every choice."""

    kind = "smart"

    def __init__(self, seed: int = 0) -> None:
        self.dice = Dice.seeded(seed, stream=DRIVER_STREAM + 2)
        self._plan: tuple[tuple[Any, ...], tuple[Hex, ...]] | None = None

    def choose(self, game: Game, seat: int) -> str:
        check_turn(game, seat)
        if not isinstance(game, Races):
            raise TypeError(f"the racing driver cannot play {type(game).__name__}")
        actions = game.legal_actions()
        if len(actions) == 1:
            return str(actions[0])
        phase = game.turn.phase
        if phase == PHASE_MOVE and game.choice is None and not game.turn.reversing:
            return self._move(game, seat, actions)
        legal = [str(a) for a in actions]
        if game.choice is not None:
            return self._answer(game, seat, legal)
        if phase == PHASE_MOVE:
            return self._reverse_step(game, seat, legal)
        if phase == PHASE_ROLL:
            return self._roll(game, seat, legal)
        if phase == PHASE_DEEDS:
            return self._deeds(game, seat, legal)
        if phase == PHASE_PARTS:
            return self._parts(game, seat, legal)
        return legal[0]

    # Why ------------------------------------------------------------------------------------------

    def explain(self, game: Game, seat: int) -> Choice:
        check_turn(game, seat)
        if not isinstance(game, Races):
            raise TypeError(f"the racing driver cannot play {type(game).__name__}")
        actions = game.legal_actions()
        action = self.choose(game, seat)
        if len(actions) == 1:
            return Choice(action, only())
        return Choice(action, self._why(game, seat, action, [str(a) for a in actions]))

    def _why(self, game: Races, seat: int, action: str, legal: list[str]) -> Reason:
        if game.choice is not None:
            return _why_choice(game, seat, action)
        phase = game.turn.phase
        if phase == PHASE_MOVE and not game.turn.reversing:
            return self._why_move(game, seat, act.parse(action))
        if phase == PHASE_MOVE:
            return because("reason.races.reverse_step")
        if phase == PHASE_ROLL:
            return _why_roll(game, seat, action, legal)
        if phase == PHASE_DEEDS:
            return self._why_deed(game, seat, action)
        if phase == PHASE_PARTS:
            return _why_parts(game, seat, action)
        return because("reason.picked", count=len(legal))

    def _why_move(self, game: Races, seat: int, action: act.Action) -> Reason:
        """The move's path (the whole move, or the step and the rest of the plan it remembered) scored as
        the driver scores it: what it gains there."""
        if isinstance(action, act.Move):
            path = action.cells
        elif isinstance(action, act.Step) and action.cell is not None:
            path = (action.cell, *(self._plan[1] if self._plan is not None else ()))
        else:
            return because("reason.races.best_move")
        kart = game.karts[seat]
        assert kart.cell is not None
        try:
            return path_reason(context(game, seat), kart.cell, kart.facing, mode_of(kart), path)
        except (AssertionError, KeyError, ValueError):  # a path the plain walk does not follow (a jump)
            return because("reason.races.best_move")

    def _why_deed(self, game: Races, seat: int, action: str) -> Reason:
        words = action.split()
        if words[0] == "done":
            return because("reason.races.no_deed")
        target = queries.seat_by_colour(game, words[-1]) if words[-1].isalpha() else None
        name = Name(game.seat_names[target] if target is not None else "")
        if words[0] == "trap":
            return because("reason.races.trap")
        if words[0] in ("missile", "bomb"):
            odds = self._strike_odds(context(game, seat), action)
            if odds is not None:
                chance, loss, hit = odds
                return because("reason.races.strike", kart=Name(game.seat_names[hit]), chance=round(100 * chance),
                               count=round(loss))
        if words[0] == "magnet" and target is not None:
            own = target == seat or (game.teams and game.karts[target].team == game.karts[seat].team)
            return because("reason.races.magnet_own" if own else "reason.races.magnet_other", kart=name)
        if words[0] in ("snatch", "smash") and target is not None:
            return because(f"reason.races.{words[0]}", kart=name)
        return because("reason.races.best_deed")

    # Phase 5 --------------------------------------------------------------------------------------

    def _plan_key(self, game: Races, seat: int) -> tuple[Any, ...]:
        kart = game.karts[seat]
        others = tuple((k.cell, k.facing) for k in game.karts if k.seat != seat)
        return (game.turn.number, seat, kart.cell, kart.facing, game.turn.points, others)

    def _move(self, game: Races, seat: int, actions: list[act.Action]) -> str:
        """The move to play: the rest of a plan made earlier this turn if it still holds, else the best path
        searched from each first step (the whole move to the same end when it is as good)."""
        kart = game.karts[seat]
        assert kart.cell is not None
        steps = {a.cell for a in actions if isinstance(a, act.Step)}
        wholes = [a for a in actions if isinstance(a, act.Move)]
        planned = self._follow_plan(game, seat, steps, wholes)
        if planned is not None:
            return planned
        ctx = context(game, seat)
        mode = mode_of(kart)
        best, firsts = self._best_path(game, seat, ctx, mode, steps)
        if best[1] < 0:
            if wholes:
                here = kart.cell
                return str(max(wholes, key=lambda m: path_value(ctx, here, kart.facing, mode, m.cells)))
            return str(actions[self.dice.below(len(actions))])
        if best[2]:
            # the engine lists one whole move per end cell: play it when it is as good as the best found
            same_end = next((m for m in wholes if m.cells[-1] == best[2][-1]), None)
            whole_v = float("-inf") if same_end is None else path_value(ctx, kart.cell, kart.facing, mode,
                                                                         same_end.cells)
            if same_end is not None and whole_v >= best[0] - WHOLE_SLACK:
                return str(same_end)
        path = best[2]
        if len(path) > 1:
            self._remember_after(game, seat, path)
        return f"step {firsts[best[1]].label}"

    def _follow_plan(self, game: Races, seat: int, steps: set[Hex | None], wholes: list[act.Move]) -> str | None:
        """The rest of the plan made earlier this turn, when the turn is where the plan left it: as a whole
        move (or one to the same end that is nearly as good), or its next step; None to plan afresh."""
        if self._plan is None:
            return None
        kart = game.karts[seat]
        assert kart.cell is not None
        key, rest = self._plan
        self._plan = None
        if key != self._plan_key(game, seat) or not rest:
            return None
        whole = act.Move(rest)
        if whole in wholes:
            return str(whole)
        same_end = next((m for m in wholes if m.cells[-1] == rest[-1]), None)
        if same_end is not None and len(rest) == game.turn.points:
            ctx = context(game, seat)
            mode = mode_of(kart)
            mine = path_value(ctx, kart.cell, kart.facing, mode, rest)
            if path_value(ctx, kart.cell, kart.facing, mode, same_end.cells) >= mine - WHOLE_SLACK:
                return str(same_end)
        if rest[0] in steps:
            self._remember_after(game, seat, rest)
            return str(act.Step(rest[0]))
        return None

    def _best_path(self, game: Races, seat: int, ctx: Context, mode: int, steps: set[Hex | None]
                   ) -> tuple[tuple[float, int, tuple[Hex, ...]], list[Hex]]:
        """The best (value, index of the first step, path) found from every legal first step, and those
        first steps; the index is -1 when none was found."""
        kart = game.karts[seat]
        assert kart.cell is not None
        fld = queries.field(game)
        points = game.turn.points
        allowed, _ = legal_plans(fld, kart.cell, kart.facing, points)
        others = {c: s for c, s in fld.karts.items() if s != seat}
        base = Field(fld.track, others, fld.bumped, fld.stop_cells, fld.bump_reach,
                     (frozenset(others.items()), fld.bumped))
        seeds: dict[State, tuple[float, int, tuple[Hex, ...]]] = {}
        left: dict[State, int] = {}
        firsts: list[Hex] = []
        best: tuple[float, int, tuple[Hex, ...]] = (float("-inf"), -1, ())
        for target, plans in sorted(allowed.items()):
            if target not in steps:
                continue
            idx = len(firsts)
            firsts.append(target)
            for plan in plans:
                value = self._first_step(ctx, base, kart, mode, plan, points, idx, seeds, left)
                if value is not None and value[0] > best[0]:
                    best = value
        if seeds:
            found = search(ctx, base, seeds, left)
            if found[0] > best[0]:
                best = found
        return best, firsts

    def _first_step(self, ctx: Context, base: Field, kart: Kart, mode: int, plan: Plan, points: int, idx: int,
                    seeds: dict[Any, Any], left: dict[Any, Any]) -> tuple[float, int, tuple[Hex, ...]] | None:
        """Score a first step: a final value when it ends the move, else seed the search with it."""
        info = ctx.info
        score = 0.0
        fld = base
        if plan.bump is not None:
            victim, frm, to = plan.bump
            direction = kart.cell.facing_to(plan.target) if kart.cell else None
            if direction is not None:
                score += 0.5 * victim_loss(ctx, victim, frm, to, direction)
            fld = base.with_bump(victim, frm, to)
        if plan.over:
            nmode, laps = mode, 0
        else:
            assert kart.cell is not None
            nmode, scored = info.step_mode(kart.cell, plan.target, mode)
            laps = int(scored)
        if laps and laps >= ctx.to_win:
            return (WIN_VALUE, idx, (plan.target,))
        if plan.falls:
            return (score + end_value(ctx, plan.end, plan.facing, nmode, laps) - STREAM_COST, idx, (plan.target,))
        score += arrive_bonus(ctx, plan.end)
        if plan.trap:
            return (score + end_value(ctx, plan.end, plan.facing, nmode, laps) - TRAP_COST, idx, (plan.target,))
        state = (plan.end, plan.facing, nmode, laps)
        if plan.bump is not None:
            return search(ctx, fld, {state: (score, idx, (plan.target,))}, {state: points - plan.cost})
        cur = seeds.get(state)
        if cur is None or score > cur[0]:
            seeds[state] = (score, idx, (plan.target,))
            left[state] = points - plan.cost
        return None

    def _remember_after(self, game: Races, seat: int, path: tuple[Hex, ...]) -> None:
        """Keep the rest of the planned path for the next decision, if the first step goes as planned."""
        kart = game.karts[seat]
        assert kart.cell is not None
        first = path[0]
        facing = kart.cell.facing_to(first)
        if facing is None or first not in game.track.track_cells:
            return
        others = tuple((k.cell, k.facing) for k in game.karts if k.seat != seat)
        key = (game.turn.number, seat, first, facing, game.turn.points - 1, others)
        self._plan = (key, path[1:])

    def _reverse_step(self, game: Races, seat: int, legal: list[str]) -> str:
        ctx = context(game, seat)
        kart = game.karts[seat]
        assert kart.cell is not None
        fld = queries.field(game)
        forward = self._forward_ok(fld, kart.cell, kart.facing)
        best_text, best_v = legal[0], float("-inf")
        for text in legal:
            if text == "done":
                v = self._reverse_end(ctx, kart.cell, kart.facing, mode_of(kart), forward)
            else:
                cell = parse_label(text.split()[1])
                opts = step_plans(fld, kart.cell, kart.facing, 1, reversing=True)
                plans = opts.get(cell)
                if not plans or isinstance(plans, str):
                    continue
                plan = plans[0]
                nmode, _ = ctx.info.step_mode(kart.cell, cell, mode_of(kart))
                v = self._reverse_end(ctx, cell, plan.facing, nmode, self._forward_ok(fld, cell, plan.facing))
            if v > best_v + 1e-9:
                best_text, best_v = text, v
        return best_text

    @staticmethod
    def _forward_ok(fld: Field, cell: Hex, facing: Facing) -> bool:
        return any(not isinstance(p, str) for p in step_plans(fld, cell, facing, 1).values())

    @staticmethod
    def _reverse_end(ctx: Context, cell: Hex, facing: Facing, mode: int, forward: bool) -> float:
        return end_value(ctx, cell, facing, mode, 0) - (0.0 if forward else 20.0)

    # Phase 3 --------------------------------------------------------------------------------------

    def _roll(self, game: Races, seat: int, legal: list[str]) -> str:
        kart = game.karts[seat]
        assert kart.cell is not None
        rolls = [r for r in map(act.parse, legal) if isinstance(r, act.Roll)]
        if not rolls:
            return "reverse" if "reverse" in legal else legal[0]
        terrain = game.track.terrain.get(kart.cell)
        if terrain is Terrain.MUD and not kart.has_part("mud-tyres") and "reverse" in legal:
            return "reverse"

        def worth(r: act.Roll) -> tuple[float, int]:
            dice = r.green + r.white + r.red
            if r.red and dice > MAX_DICE_WITH_RED:
                return (-1.0, 0)
            return (float(dice), -r.red)

        best = max(rolls, key=worth)
        return str(best)

    # Phase 1 --------------------------------------------------------------------------------------

    def _deeds(self, game: Races, seat: int, legal: list[str]) -> str:
        ctx = context(game, seat)
        best_text, best_v = "done", 0.0
        for text in legal:
            verb = text.split()[0]
            v = 0.0
            if verb == "trap":
                v = self._trap_value(ctx, text)
            elif verb in ("missile", "bomb"):
                v = self._strike_value(ctx, text)
            elif verb == "magnet":
                v = self._magnet_value(ctx, text)
            elif verb in ("snatch", "smash"):
                target = queries.seat_by_colour(game, text.split()[1])
                if target is not None and target not in ctx.mates:
                    v = 1.0 if verb == "smash" or game.karts[target].tile_count else 0.0
            if v > best_v + 1e-9:
                best_text, best_v = text, v
        return best_text

    def _opponents(self, ctx: Context) -> list[Kart]:
        return [k for k in ctx.game.karts if k.seat != ctx.seat and k.seat not in ctx.mates]

    def _weight(self, ctx: Context, target: Kart) -> float:
        """How much hurting this kart matters: most for the leader and karts ahead of us."""
        info = ctx.info
        mine = progress(info, ctx.kart)
        theirs = progress(info, target)
        lead = max((progress(info, k) for k in self._opponents(ctx)), default=theirs)
        w = 0.4
        if theirs >= mine - 2:
            w = 0.8
        if theirs >= lead - 1e-9:
            w = 1.0
        return w

    def _trap_value(self, ctx: Context, text: str) -> float:
        parts = text.split()
        kind, cell = parts[1], parse_label(parts[2])
        info = ctx.info
        kart = ctx.kart
        assert kart.cell is not None
        mode = mode_of(kart)
        here = info.remaining(kart.cell, kart.facing, mode)
        ahead = {kart.cell.neighbour(f) for f in (kart.facing, kart.facing.left, kart.facing.right)}
        if cell in ahead:
            return 0.0
        there = min(info.remaining(cell, f, mode) for f in Facing)
        if there <= here:
            return 0.0  # not behind us on the racing line
        lap = info.lap
        mine = progress(info, kart)
        behind = [k for k in ctx.game.karts if k.seat != ctx.seat and k.cell is not None
                  and 0 < (mine - progress(info, k)) % lap <= TRAP_REACH]
        if not behind or any(k.seat in ctx.mates for k in behind):
            return 0.0
        if kind == "acid" and not any(p in ("grass-tyres", "mud-tyres") for k in behind for p in k.parts.values()):
            return 0.0
        on_line = 1.0 if there <= here + 1 else 0.6 if there <= here + 2 else 0.2
        v = {"glue": 2.0, "oil": 1.8, "spring": 1.5, "time-bomb": 1.6, "acid": 1.0}.get(kind, 1.0) * on_line
        if kind == "oil" and len(parts) == 4:
            to = cell.neighbour(Facing[parts[3]])
            if ctx.track.is_stream(to):
                v += 0.3
            else:
                v += 0.05 * (min(info.remaining(to, f, mode) for f in Facing) - there)
        return v

    def _strike_value(self, ctx: Context, text: str) -> float:
        odds = self._strike_odds(ctx, text)
        if odds is None:
            return 0.0
        p, loss, seat = odds
        v = p * loss * self._weight(ctx, ctx.game.karts[seat])
        return v if v >= 1.2 else 0.0

    def _strike_odds(self, ctx: Context, text: str) -> tuple[float, float, int] | None:
        """A missile or bomb: the chance it hits, the steps the target would lose, and the target's seat
        (None: no opponent's kart to aim at)."""
        verb, cell_text, target_text = text.split()
        if not target_text.isalpha():
            return None
        seat = queries.seat_by_colour(ctx.game, target_text)
        if seat is None or seat in ctx.mates:
            return None
        target = ctx.game.karts[seat]
        if target.cell is None:
            return None
        cell = parse_label(cell_text)
        distance = cell.distance(target.cell)
        need = distance + (2 if target.has_part("smoke-screen") else 0)
        kart = ctx.kart
        if verb == "missile":
            n = 3 if kart.has_part("missile-launcher") else 2
        else:
            n = 2 if kart.has_part("bomb-launcher") else 1
        p = _chance_at_least(n, need)
        info = ctx.info
        mode = mode_of(target)
        loss = info.remaining(target.cell, target.facing.opposite, mode) - info.remaining(target.cell, target.facing,
                                                                                            mode)
        loss = max(loss, 0.0) + 1.5  # the spin, and a part or a saddlebag maybe
        if verb == "missile" and target.has_part("missile-deflector"):
            p *= 0.55
        if verb == "bomb" and target.has_part("bomb-catcher"):
            p *= 0.5
        return p, loss, seat

    def _magnet_value(self, ctx: Context, text: str) -> float:
        _, cell_text, target_text = text.split()
        seat = queries.seat_by_colour(ctx.game, target_text)
        if seat is None:
            return 0.0
        cell = parse_label(cell_text)
        info = ctx.info
        target = ctx.game.karts[seat]
        if target.cell is None:
            return 0.0
        mode = mode_of(target)
        before = info.remaining(target.cell, target.facing, mode)
        if seat == ctx.seat or seat in ctx.mates:
            after = min(info.remaining(cell, f, mode) for f in Facing) + ctx.terrain_cost.get(
                ctx.track.terrain.get(cell, Terrain.TARMAC), 0.0)
            gain = before - after
            return gain - 1.5 if gain >= 2.5 else 0.0
        after = max((info.remaining(cell, f, mode) for f in Facing if info.remaining(cell, f, mode) < info.big),
                    default=before)
        gain = (after - before) * self._weight(ctx, target)
        return gain - 2.0 if gain >= 4.0 else 0.0

    # Phase 2 --------------------------------------------------------------------------------------

    def _parts(self, game: Races, seat: int, legal: list[str]) -> str:
        for text in legal:
            if text.startswith("refuel"):
                return text
        kart = game.karts[seat]
        own = game.view(seat)["karts"][seat]
        for _, part, loc in wanted_parts(game, kart, own):
            for text in (f"buy {part} {loc}", f"buy {part}"):
                if text in legal:
                    return text
        mates = {k.colour: k for k in game.karts if game.teams and k.seat != seat and k.team == kart.team}
        for text in legal:
            words = text.split()
            if words[0] != "swap" or words[2] != "give" or words[1] not in mates:
                continue
            mate = mates[words[1]]
            if words[3] == "turbo-fuel" and mate.has_part("turbo-engine") and not kart.has_part("turbo-engine"):
                return text
            if words[3] == "jet-fuel" and mate.has_part("jet-engine") and not kart.has_part("jet-engine"):
                return text
        return "done"

    # Choices --------------------------------------------------------------------------------------

    def _answer(self, game: Races, seat: int, legal: list[str]) -> str:
        choice = game.choice
        assert choice is not None
        options = list(choice.options)
        info = track_info(game.track)
        kart = game.karts[seat]
        if choice.kind == "enter":
            facing = Facing[choice.context.get("facing", game.track.starts[0].facing.name)]
            by_start = {s.cell: s.facing for s in game.track.starts}

            def enter_cost(o: str) -> float:
                cell = parse_label(o)
                return info.remaining(cell, by_start.get(cell, facing), UNARMED)

            return f"choose {min(options, key=lambda o: (enter_cost(o), o))}"
        if choice.kind == "bag":
            own = game.view(seat)["karts"][seat]["bags"]

            def room(o: str) -> tuple[int, int]:
                loc = int(o)
                return (queries.capacity(kart, loc) - len(own.get(o, [])), loc != PRINTED_BAG)

            return f"choose {max(options, key=room)}"
        if choice.kind == "facing":
            who = game.karts[int(choice.context.get("seat", seat))]
            mates = {seat} | {k.seat for k in game.karts if game.teams and k.team == kart.team}
            assert who.cell is not None
            mode = mode_of(who)
            finite = [f for f in Facing if info.remaining(who.cell, f, mode) < info.big]
            pool = finite or list(Facing)
            if who.seat in mates:
                f = min(pool, key=lambda f: (info.remaining(who.cell, f, mode), f.value))  # type: ignore[arg-type]
            else:
                f = max(pool, key=lambda f: (info.remaining(who.cell, f, mode), -f.value))  # type: ignore[arg-type]
            return f"choose {f.name}" if f.name in options else legal[0]
        if choice.kind == "ram":
            return self._ram(game, seat, options)
        return f"choose {options[0]}"

    def _ram(self, game: Races, seat: int, options: list[str]) -> str:
        """Battering Ram: push an opponent the way that sets it back most (or a team mate least)."""
        kart = game.karts[seat]
        target_label = game.choice.context.get("target") if game.choice else None
        if kart.cell is None or target_label is None:
            return f"choose {options[0]}"
        target = parse_label(target_label)
        ctx = context(game, seat)
        fld = queries.field(game)
        plans = step_plans(fld, kart.cell, kart.facing, game.turn.points).get(target)
        if not plans or isinstance(plans, str):
            return f"choose {options[0]}"
        direction = kart.cell.facing_to(target)
        best, best_v = options[0], float("-inf")
        for i, plan in enumerate(plans):
            if str(i + 1) not in options or plan.bump is None or direction is None:
                continue
            victim, frm, to = plan.bump
            v = victim_loss(ctx, victim, frm, to, direction)
            if v > best_v:
                best, best_v = str(i + 1), v
        return f"choose {best}"


# ---------------------------------------------------------------------------------------------------
# Why: the reason of a choice, from what the driver weighed for it (bot.drivers.reasons)


def path_reason(ctx: Context, cell: Hex, facing: Facing, mode: int, cells: tuple[Hex, ...]) -> Reason:
    """What a path is worth to the driver (as :func:`path_value` scores it), in words: the race won, a flag,
    a pit stop selling a part it wants, face-down tiles or bottle tops picked up, else the steps it gains."""
    info = ctx.info
    start = info.remaining(cell, facing, mode)
    laps = tiles = tops = 0
    for nxt in cells:
        f = cell.facing_to(nxt)
        if f is None:
            raise ValueError("not a plain step")
        mode, scored = info.step_mode(cell, nxt, mode)
        laps += scored
        if laps and laps >= ctx.to_win:
            return because("reason.races.win")
        tiles += 1 if nxt in ctx.junk and tiles < ctx.tile_room else 0
        tops += min(ctx.track.bottle_tops.get(nxt, 0), max(0, ctx.top_room - tops))
        cell, facing = nxt, f
    end = info.remaining(cell, facing, mode)
    steps = round(laps * info.lap + start - end) if max(start, end) < info.big else 0
    if laps:
        return because("reason.races.flag")
    pit = ctx.track.pits.get(cell)
    part = _pit_part(ctx, pit.value) if pit is not None and ctx.pit_bonus.get(pit.value, 0.0) > 0 else None
    if part is not None:
        return because("reason.races.pit", part=Word(f"part.{part}.the_dat"))
    if tiles:
        return because("reason.races.tiles", count=tiles)
    if tops:
        return because("reason.races.tops", count=tops)
    if steps > 0:
        return because("reason.races.gain", count=steps)
    return because("reason.races.best_move")


def _pit_part(ctx: Context, pile: str) -> str | None:
    """The part the driver wants most of those a pit stop's pile sells (what its bonus there was for)."""
    own = ctx.game.view(ctx.seat)["karts"][ctx.seat]
    specs = catalogue.parts()
    return next((part for _, part, _ in wanted_parts(ctx.game, ctx.kart, own) if specs[part].pile == pile), None)


def _why_roll(game: Races, seat: int, action: str, legal: list[str]) -> Reason:
    """Phase 3 as :meth:`RacingDriver._roll` weighs it: out of mud without Mud Tyres backwards, else the most
    dice, short of a red-dice roll so big that five sixes get likely."""
    kart = game.karts[seat]
    chosen = act.parse(action)
    if not isinstance(chosen, act.Roll):
        mud = kart.cell is not None and game.track.terrain.get(kart.cell) is Terrain.MUD
        stuck = mud and not kart.has_part("mud-tyres")
        return because("reason.races.mud_reverse" if stuck else "reason.races.no_roll")
    dice = chosen.green + chosen.white + chosen.red
    rolls = [r for r in map(act.parse, legal) if isinstance(r, act.Roll)]
    if any(r.red and r.green + r.white + r.red > max(dice, MAX_DICE_WITH_RED) for r in rolls):
        return because("reason.races.red_risk", count=dice)
    return because("reason.races.most_dice", count=dice)


def _why_parts(game: Races, seat: int, action: str) -> Reason:
    """Phase 2 as :meth:`RacingDriver._parts` weighs it: fuel first, then the part it wants most that it can
    buy here, then fuel for a team mate's engine."""
    kart = game.karts[seat]
    chosen = act.parse(action)
    if isinstance(chosen, act.Refuel):
        return because("reason.races.refuel")
    if isinstance(chosen, act.Buy):
        return because("reason.races.buy", part=Word(f"part.{chosen.part}.the_acc"),
                       cost=catalogue.parts()[chosen.part].cost, tops=kart.bottle_tops)
    if isinstance(chosen, act.Swap):
        given = queries.seat_by_colour(game, action.split()[1]) or 0
        return because("reason.races.give", kart=Name(game.seat_names[given]))
    return because("reason.races.no_buy", count=kart.bottle_tops)


def _why_choice(game: Races, seat: int, action: str) -> Reason:
    """A question (R14) as :meth:`RacingDriver._answer` answers it."""
    choice = game.choice
    assert choice is not None
    if choice.kind == "enter":
        return because("reason.races.enter")
    if choice.kind == "bag":
        return because("reason.races.bag")
    if choice.kind == "facing":
        who = game.karts[int(choice.context.get("seat", seat))]
        kart = game.karts[seat]
        own = who.seat == seat or (game.teams and who.team == kart.team)
        return because("reason.races.face_own") if own else because("reason.races.face_other", kart=Name(who.name))
    if choice.kind == "ram":
        target = choice.context.get("target")
        victim = queries.field(game).karts.get(parse_label(target)) if isinstance(target, str) else None
        if victim is not None:
            return because("reason.races.ram", kart=Name(game.seat_names[victim]))
    return because("reason.races.first")


def _chance_at_least(n: int, need: int) -> float:
    """The chance that ``n`` dice total at least ``need``."""
    if need <= n:
        return 1.0
    ways = {0: 1}
    for _ in range(n):
        nxt: dict[int, int] = {}
        for total, w in ways.items():
            for face in range(1, 7):
                nxt[total + face] = nxt.get(total + face, 0) + w
        ways = nxt
    return sum(w for total, w in ways.items() if total >= need) / 6.0**n


__all__ = ["ARMED", "BRIDGED", "UNARMED", "RacingDriver", "TrackInfo", "mode_of", "progress", "track_info"]
