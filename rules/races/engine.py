"""The Junkyard Races game master: setup, the six phases, movement, laps and winning.

``Races`` follows the game contract (``rules/contract.py``). ``apply`` parses and validates an action,
carries it out on a copy of the state and adopts the copy only when everything succeeded, so a refused
action leaves the game exactly as it was. After every action the engine moves on by itself through
whatever offers the player nothing (an empty Phase 1, the delivery of Phase 4, passing the dice), so
the game always rests where a player has something to decide.

Everything beyond racing round the track is in typed parts of the game (``game.bags``, ``game.deeds``,
``game.weapons``, ``game.garage``, ``game.traps``, ``game.arsenal``; see ``rules/races/base.py``). The
engine calls them at the places marked "hook": entering a cell, the end of a turn, the dice a kart may
roll and how far a bump pushes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Self

from rules.contract import Action as ContractAction
from rules.contract import Event, Game, IllegalAction, NotationError, SetupError, events_for, tells_secret
from rules.dice import Dice
from rules.hexgrid import Facing, Hex
from rules.literal import Name
from rules.races import actions as act
from rules.races import catalogue, queries
from rules.races.arsenal import Arsenal
from rules.races.deeds import Deeds
from rules.races.garage import Garage
from rules.races.movement import Plan, full_moves, has_step, legal_plans, step_plans
from rules.races.paths import shortest_paths
from rules.races.progress import lap_step
from rules.races.saddlebags import Saddlebags
from rules.races.state import (
    PHASE_DEEDS,
    PHASE_ENTER,
    PHASE_MOVE,
    PHASE_OVER,
    PHASE_PARTS,
    PHASE_ROLL,
    BoardTile,
    Choice,
    Kart,
    Tile,
    Turn,
    cell_from_json,
)
from rules.races.texts import Said, kart_of, plain, reason_of, refuse, said, said_back, say
from rules.races.track import Terrain, Track, get_track, track_choices
from rules.races.traps import Traps
from rules.races.weapons import Weapons
from rules.registry import register

WHOLE_MOVE_LIMIT = 30  # longer moves are listed as single steps only, to keep legal_actions quick


def _team_sizes_ok(sizes: list[int]) -> bool:
    """R13: 2 teams of 3 or 4, or 2 to 4 teams of 2."""
    if len(sizes) == 2 and all(s in (3, 4) for s in sizes) and sizes[0] == sizes[1]:
        return True
    return 2 <= len(sizes) <= 4 and all(s == 2 for s in sizes)


@register
class Races(Game):
    key = "races"
    title = "Junkyard Races"
    min_seats = 2
    max_seats = 8
    format_version = 1

    def __init__(self) -> None:
        self.setup: dict[str, Any] = {}
        self.seed = 0
        self.track: Track
        self.laps = 5
        self.teams = False
        self.karts: list[Kart] = []
        self.board: dict[Hex, BoardTile] = {}
        self.junk: list[str] = []
        self.parts_left: dict[str, int] = {}
        self.bottle_tops_left = 0
        self.flags_left = 0
        self.dice_left: dict[str, int] = {}
        self.dice = Dice.seeded(0)
        self.turn = Turn(0)
        self.last_turn: Turn | None = None  # the turn just finished, for pictures and narration
        self.choice: Choice | None = None
        self._ply = 0
        self._winners: list[int] = []
        self.last_events: list[Event] = []
        self._events: list[Event] = []
        self._leaving: int | None = None  # R18: the seat whose step or move under way leaves junk tiles

    # ------------------------------------------------------------------------------------------------
    # The typed parts of the rules (rules/races/base.py): each a fresh view bound to this game

    @property
    def arsenal(self) -> Arsenal:
        return Arsenal(self)

    @property
    def bags(self) -> Saddlebags:
        return Saddlebags(self)

    @property
    def deeds(self) -> Deeds:
        return Deeds(self)

    @property
    def weapons(self) -> Weapons:
        return Weapons(self)

    @property
    def garage(self) -> Garage:
        return Garage(self)

    @property
    def traps(self) -> Traps:
        return Traps(self)

    # ------------------------------------------------------------------------------------------------
    # Creation

    @classmethod
    def create(cls, setup: dict[str, Any], seed: int) -> Self:
        g = cls()
        g.setup = cls.normalise_setup(setup)
        g.seed = int(seed)
        opts = g.setup["options"]
        g.track = get_track(opts["track"])
        g.laps = int(opts["laps"])
        g.teams = bool(opts["teams"])
        sup = catalogue.supply()
        g.dice = Dice.seeded(g.seed)
        g.junk = [kind for kind, n in sup.junk.items() for _ in range(n)]
        g.dice.shuffle(g.junk)
        g.parts_left = {pid: p.cards for pid, p in catalogue.parts().items()}
        g.bottle_tops_left = sup.bottle_tops
        g.flags_left = sup.flags
        g.dice_left = {"white": sup.dice["white"], "red": sup.dice["red"]}
        for i, s in enumerate(g.setup["seats"]):
            g.karts.append(Kart(i, s["name"], s["colour"], team=s.get("team"), crew=s.get("crew"),
                                crew_set=s.get("crew_set")))
        if opts["crew"]:
            for k in g.karts:
                g._apply_crew_set(k)
        first = g.dice.below(len(g.karts))
        g._events = []
        g.emit("start", "event.start", first, {"who": g._kart_of(first)}, seat=first)
        g._begin_turn(first, 1)
        g._advance()
        g.last_events = g._events
        g._events = []
        return g

    @classmethod
    def normalise_setup(cls, setup: dict[str, Any]) -> dict[str, Any]:
        """Check a setup and fill in defaults; raises SetupError saying what is wrong."""
        seats = list(setup.get("seats", []))
        if not cls.min_seats <= len(seats) <= cls.max_seats:
            raise SetupError(said("setup.players", count=len(seats), least=cls.min_seats, most=cls.max_seats))
        options = dict(setup.get("options", {}))
        track_name = str(options.get("track", "A"))
        try:
            track = get_track(track_name)
        except KeyError:
            raise SetupError(said("setup.no_track", typed=track_name, tracks=track_choices())) from None
        laps = int(options.get("laps", catalogue.supply().laps_to_win))
        if not 1 <= laps <= 5:
            raise SetupError(said("setup.laps"))
        colours = catalogue.colours()
        free = [c for c in colours if c not in {s.get("colour") for s in seats}]
        out_seats = []
        for i, s in enumerate(seats):
            s = dict(s)
            s.setdefault("name", f"Player {i + 1}")
            if not s.get("colour"):
                s["colour"] = free.pop(0)
            if s["colour"] not in colours:
                raise SetupError(said("setup.colour", typed=s["colour"], colours=colours))
            out_seats.append(s)
        used = [s["colour"] for s in out_seats]
        if len(set(used)) != len(used):
            raise SetupError(said("setup.same_colour"))
        teams = bool(options.get("teams", False))
        if teams:
            sizes: dict[int, int] = {}
            for s in out_seats:
                if s.get("team") is None:
                    raise SetupError(said("setup.no_team", name=Name(s["name"])))
                sizes[int(s["team"])] = sizes.get(int(s["team"]), 0) + 1
            if not _team_sizes_ok(list(sizes.values())):
                raise SetupError(said("setup.team_sizes"))
        else:
            for s in out_seats:
                s.pop("team", None)
        crew = bool(options.get("crew", False))
        if crew:
            roster = catalogue.crew()
            chosen = [s.get("crew") for s in out_seats]
            for s in out_seats:
                if s.get("crew") not in roster:
                    raise SetupError(said("setup.crew_member", name=Name(s["name"]), crew=list(roster)))
                if s.get("crew_set") not in (1, 2):
                    raise SetupError(said("setup.crew_set", name=Name(s["name"])))
            if len(set(chosen)) != len(chosen):
                raise SetupError(said("setup.crew_once"))
        else:
            for s in out_seats:
                s.pop("crew", None)
                s.pop("crew_set", None)
        return {"seats": out_seats, "options": {"track": track.name, "laps": laps, "teams": teams, "crew": crew}}

    def _apply_crew_set(self, kart: Kart) -> None:
        """Optional setup: fit the parts, bag the tiles and take the bottle tops of a starting set."""
        member = catalogue.crew()[kart.crew or ""]
        cset = member.sets[(kart.crew_set or 1) - 1]
        for part, loc in cset.parts:
            self.parts_left[part] -= 1
            self.garage.fit(kart, part, loc)
        for kind in cset.tiles:
            self.junk.remove(kind)
            bag = next((loc for loc in self.bags.order(kart) if self.bags.room(kart, loc) > 0), None)
            if bag is None:
                raise SetupError(said("setup.set_too_big", name=Name(member.name)))
            kart.bags[bag].append(Tile(kind))
        take = min(cset.bottle_tops, self.bottle_tops_left)
        kart.bottle_tops += take
        self.bottle_tops_left -= take

    # ------------------------------------------------------------------------------------------------
    # The contract: state access

    @property
    def to_act(self) -> int | None:
        if self._winners:
            return None
        return self.choice.seat if self.choice is not None else self.turn.seat

    @property
    def is_over(self) -> bool:
        return bool(self._winners)

    @property
    def winners(self) -> list[int]:
        return list(self._winners)

    @property
    def seat_names(self) -> list[str]:
        return [k.name for k in self.karts]

    @property
    def ply(self) -> int:
        return self._ply

    @property
    def phase(self) -> str:
        return PHASE_OVER if self._winners else self.turn.phase

    # ------------------------------------------------------------------------------------------------
    # Movement context

    def _dice_allowed(self, kart: Kart) -> tuple[int, int, int]:
        """Hook (Phase 3): the most green, white and red dice this kart may roll now."""
        cell = kart.cell
        assert cell is not None
        terrain = self.track.terrain[cell]
        restricted = terrain in (Terrain.GRASS, Terrain.MUD, Terrain.BRIDGE)
        if self.turn.die_limit is not None:
            return self.turn.die_limit, 0, 0
        if restricted:
            return 1, 0, 0
        white = kart.fuel["white"] if kart.has_part("turbo-engine") else 0
        red = kart.fuel["red"] if kart.has_part("jet-engine") else 0
        return 3, white, red

    def _forward_possible(self, kart: Kart) -> bool:
        assert kart.cell is not None
        return has_step(queries.field(self), kart.cell, kart.facing, 1)

    def _reverse_possible(self, kart: Kart) -> bool:
        assert kart.cell is not None
        return has_step(queries.field(self), kart.cell, kart.facing, 1, reversing=True)

    # ------------------------------------------------------------------------------------------------
    # Legal actions

    def legal_actions(self) -> list[act.Action]:
        if self._winners:
            return []
        if self.choice is not None:
            return [act.Choose(o) for o in self.choice.options]
        kart = self.karts[self.turn.seat]
        phase = self.turn.phase
        if phase in (PHASE_DEEDS, PHASE_PARTS):
            return [act.Done(), *self.arsenal.offers(kart, phase), *self.bags.free_actions(kart)]
        if phase == PHASE_ROLL:
            out: list[act.Action] = []
            if self._forward_possible(kart):
                g, w, r = self._dice_allowed(kart)
                out += [act.Roll(gi, wi, ri) for gi in range(1, g + 1) for wi in range(w + 1) for ri in range(r + 1)]
            if self._reverse_possible(kart):
                out.append(act.Reverse())
            return out
        if phase == PHASE_MOVE:
            return self._move_actions(kart) + self._whole_moves(kart)
        return []

    def only_action(self) -> ContractAction | None:
        """As the contract says; while driving, two steps already mean a choice, so the whole moves (the
        costly part of the list) are not worked out."""
        if not self._winners and self.choice is None and self.turn.phase == PHASE_MOVE \
                and len(self._move_actions(self.karts[self.turn.seat])) > 1:
            return None
        return super().only_action()

    def _whole_moves(self, kart: Kart) -> list[act.Action]:
        """Whole moves that spend every point on plain steps, one per end cell (short rolls only), and
        after them the same moves leaving the junk tiles on the way, for those that pass one (R18)."""
        if self.turn.reversing or not 1 < self.turn.points <= WHOLE_MOVE_LIMIT or kart.cell is None:
            return []
        avoid: frozenset[Hex] = frozenset()
        if len(self.bags.with_room(kart)) > 1:
            avoid = frozenset(c for c, t in self.board.items() if t.face_down)
        ends = full_moves(queries.field(self), kart.cell, kart.facing, self.turn.points, avoid)
        moves = [act.Move(path) for _, path in sorted(ends.items())]
        matters = self._leave_matters(kart)
        return [*moves, *(act.Move(m.cells, True) for m in moves if matters(m.cells))]

    def _move_actions(self, kart: Kart) -> list[act.Action]:
        assert kart.cell is not None
        if self.turn.points <= 0 or self.track.is_stream(kart.cell):
            return []
        if self.turn.reversing:
            opts = step_plans(queries.field(self), kart.cell, kart.facing, 1, reversing=True)
            cells = [c for c, p in opts.items() if not isinstance(p, str)]
        else:
            cells = list(legal_plans(queries.field(self), kart.cell, kart.facing, self.turn.points)[0])
        steps: list[act.Action] = [act.Step(c) for c in cells]
        matters = self._leave_matters(kart)
        steps += [act.Step(c, None, True) for c in cells if matters((c,))]
        return steps + ([act.Done()] if self.turn.reversing and self.turn.reverse_steps else [])

    def _leave_matters(self, kart: Kart) -> Callable[[tuple[Hex, ...]], bool]:
        """Whether 'leave' means something for a step or move of ``kart`` through given cells (R18, as
        :meth:`_leave_problem` says): the board and the bags are read once for the many paths of a turn."""
        if not self.bags.with_room(kart):
            return lambda cells: False
        return self._passes_face_down()

    def _passes_face_down(self) -> Callable[[tuple[Hex, ...]], bool]:
        """Whether a way through given cells (the cells driven to; a cell in a collapsed bridge's gap stands
        for its far end) passes a face-down junk tile."""
        down = {c for c, t in self.board.items() if t.face_down}
        gaps = self.track.gap_cells
        if not down:
            return lambda cells: False
        if not gaps:
            return lambda cells: not down.isdisjoint(cells)
        return lambda cells: any((gap.far if (gap := gaps.get(c)) is not None else c) in down for c in cells)

    def _leave_problem(self, kart: Kart, cells: tuple[Hex, ...]) -> Said | None:
        """R18: why 'leave' means nothing for a step or move through ``cells``, or None when it matters."""
        if not self._passes_face_down()(cells):
            return said("why.nothing_to_leave")
        if not self.bags.with_room(kart):
            return said("why.leave_bags_full")
        return None

    # ------------------------------------------------------------------------------------------------
    # Applying actions

    def undo_barrier(self, before: Self, events: Sequence[Event]) -> str | None:
        """Only what the turn's own player did without learning anything new comes back: not a roll (nor a
        trap or weapon die), not a tile picked up, shown or turned up, nor anything once the dice passed. The
        reason is a :class:`Said`, so a front end can word it in the player's language."""
        if self.dice.to_dict() != before.dice.to_dict():
            return said("undo.roll")
        if tells_secret(events):
            return said("undo.picked_up")
        if any(e.kind == "show" for e in events) or self._face_down() != before._face_down():
            return said("undo.turned_up")
        if self.to_act != before.to_act or self.turn.number != before.turn.number:
            return said("undo.turn_over")
        return None

    def _face_down(self) -> int:
        return sum(1 for t in self.board.values() if t.face_down)

    def parse_action(self, text: str) -> act.Action:
        return act.parse(text, self.track.columns, self.track.rows)

    def _apply(self, action: ContractAction | str) -> list[Event]:
        if isinstance(action, str):
            action = self.parse_action(action)
        if not isinstance(action, act.Action):
            raise refuse("refuse.not_an_action", action=str(action))
        if self._winners:
            raise refuse("refuse.race_over")
        self._events = []
        self._do(action)
        self._advance()
        self._ply += 1
        self.last_events = self._events
        self._events = []
        return list(self.last_events)

    def _copy(self) -> Races:
        return self._clone()

    def _clone(self) -> Races:
        g = Races.__new__(Races)
        g.__dict__.update(self.__dict__)
        g.karts = [k.copy() for k in self.karts]
        g.board = {c: t.copy() for c, t in self.board.items()}
        g.junk = list(self.junk)
        g.parts_left = dict(self.parts_left)
        g.dice_left = dict(self.dice_left)
        g.dice = self.dice.copy()
        g.turn = self.turn.copy()
        g.last_turn = self.last_turn.copy() if self.last_turn is not None else None
        g.choice = self.choice.copy() if self.choice else None
        g._winners = list(self._winners)
        return g

    def emit(self, kind: str, msg: str, seat: int | None = None, params: dict[str, Any] | None = None, /,
             secret: str | None = None, secret_params: dict[str, Any] | None = None, **data: Any) -> None:
        """Tell an event: message ``msg`` of the catalogue with ``params`` (public; rules/races/texts.py), and
        maybe the secret message ``secret`` with ``secret_params`` that only ``seat`` may read."""
        said_params = plain(params or {})
        data = {**data, "msg": msg, "params": said_params}
        hidden: dict[str, Any] | None = None
        if secret is not None:
            hidden = {"msg": secret, "params": plain(secret_params or {})}
        self._events.append(Event(kind, say(msg, "en", **said_params), seat, data,
                                  say(secret, "en", **hidden["params"]) if hidden and secret else None,
                                  secret_data=hidden))

    def _kart_of(self, seat: int) -> dict[str, str]:
        """A kart as a message parameter (worded "Ann (red)" in each language)."""
        return kart_of(self.karts[seat])

    def _do(self, action: act.Action) -> None:
        if self.choice is not None:
            if not isinstance(action, act.Choose):
                ask = self.choice.context.get("ask") or str(self.choice.prompt)
                raise refuse("refuse.answer_first", question=ask, options=self.choice.options)
            self._answer(action.option)
            return
        if isinstance(action, act.Choose):
            raise refuse("refuse.nothing_asked")
        kart = self.karts[self.turn.seat]
        phase = self.turn.phase
        if isinstance(action, act.Done):
            if phase in (PHASE_DEEDS, PHASE_PARTS):
                self.emit("done", "event.done_deeds" if phase == PHASE_DEEDS else "event.done_parts", kart.seat,
                          {"who": self._kart_of(kart.seat)})
                self.turn.phase = PHASE_PARTS if phase == PHASE_DEEDS else PHASE_ROLL
                return
            if phase == PHASE_MOVE and self.turn.reversing:
                if not self.turn.reverse_steps:
                    raise refuse("refuse.reverse_first")
                self.emit("done", "event.done_reversing", kart.seat, {"who": self._kart_of(kart.seat)})
                self._end_move(kart)
                return
            raise refuse("refuse.not_now", **queries.not_now(self, "'done'"))
        if isinstance(action, (act.Roll, act.Reverse)):
            if phase != PHASE_ROLL:
                raise refuse("refuse.not_now", **queries.not_now(self, f"'{action}'"))
            if isinstance(action, act.Reverse):
                self._start_reverse(kart)
            else:
                self._roll(kart, action)
            return
        if isinstance(action, (act.Step, act.Move)):
            if phase != PHASE_MOVE:
                what = said("what.step") if isinstance(action, act.Step) else said("what.move")
                raise refuse("refuse.not_now", **queries.not_now(self, what))
            start = kart.cell.label if kart.cell is not None else None
            mark = (len(self._events), len(self.turn.path), self.turn, self.turn.reversing, start)
            cells = (self._resolve_step(kart, action),) if isinstance(action, act.Step) else action.cells
            if action.leave:
                problem = self._leave_problem(kart, cells)
                if problem is not None:
                    raise refuse("refuse.leave_pointless", action=str(action), problem=problem)
                self._leaving = kart.seat
            try:
                if isinstance(action, act.Step):
                    self._step(kart, cells[0])
                else:
                    self._move_path(kart, cells)
            finally:
                self._leaving = None
            self._announce_drive(kart, *mark)
            return
        if self.arsenal.do(action):
            return
        raise refuse("refuse.not_now", **queries.not_now(self, f"'{action}'"))

    # Phase 3 ----------------------------------------------------------------------------------------

    def _roll(self, kart: Kart, roll: act.Roll) -> None:
        assert kart.cell is not None
        if not self._forward_possible(kart):
            raise refuse("refuse.no_forward_step", cell=kart.cell.label)
        g, w, r = self._dice_allowed(kart)
        terrain = self.track.terrain[kart.cell]
        if not 1 <= roll.green <= g:
            if self.turn.die_limit is not None:
                raise refuse("refuse.glue_one_die")
            if g == 1:
                raise refuse("refuse.one_green_die", terrain=terrain.value)
            raise refuse("refuse.green_dice", most=g)
        if roll.white > w or roll.red > r:
            have: list[Said] = []
            if kart.has_part("turbo-engine"):
                have.append(said("refuse.have_turbo", dice=kart.fuel["white"]))
            if kart.has_part("jet-engine"):
                have.append(said("refuse.have_jet", dice=kart.fuel["red"]))
            if (w, r) == (0, 0) and have and terrain in (Terrain.GRASS, Terrain.MUD, Terrain.BRIDGE):
                raise refuse("refuse.no_fuel_dice_here", terrain=terrain.value)
            if not have:
                raise refuse("refuse.fuel_no_engine")
            raise refuse("refuse.fuel_dice", have=have)
        dice = {"green": self.dice.rolls(roll.green)}
        if roll.white:
            dice["white"] = self.dice.rolls(roll.white)
        if roll.red:
            dice["red"] = self.dice.rolls(roll.red)
        for colour in ("white", "red"):
            used = len(dice.get(colour, []))
            kart.fuel[colour] -= used
            self.dice_left[colour] += used  # used fuel dice go back to the supply
        total = sum(sum(v) for v in dice.values())
        bonus = 0
        if terrain is Terrain.GRASS:
            bonus = kart.count_part("grass-tyres")
        elif terrain is Terrain.MUD:
            bonus = kart.count_part("mud-tyres")
        total += bonus
        self.turn.dice = dice
        self.turn.total = total
        shown = [said("event.dice_of", colour=c, dice=", ".join(map(str, v))) for c, v in dice.items()]
        self.emit("roll", "event.roll_bonus" if bonus else "event.roll", kart.seat,
                  {"who": self._kart_of(kart.seat), "dice": shown, "bonus": bonus, "count": total},
                  dice=dice, total=total, bonus=bonus)
        self._deliver(sum(dice["green"]))
        if dice.get("red") and sum(1 for v in dice.values() for d in v if d == 6) >= 5:
            self._jet_explodes(kart)
            return
        if terrain is Terrain.MUD and total < 3:
            self.emit("stuck", "event.stuck", kart.seat, {"who": self._kart_of(kart.seat)}, cell=kart.cell.label)
            self.turn.marks.append([kart.cell.label, "stuck"])
            self._end_turn()
            return
        self.turn.phase = PHASE_MOVE
        self.turn.points = total
        self.turn.move_from = kart.cell
        self.turn.move_facing = kart.facing

    def _jet_explodes(self, kart: Kart) -> None:
        """Five or more sixes with red dice: the Jet Engine and all its fuel are lost, the turn ends."""
        self.emit("jet-explodes", "event.jet_explodes", kart.seat, {"who": self._kart_of(kart.seat)})
        for loc, part in list(kart.parts.items()):
            if part == "jet-engine":
                self.garage.remove_part(kart, loc, said("why.blown_off"))
        self._end_turn()

    def _deliver(self, green: int) -> None:
        """Phase 4: a face-down junk tile to the unoccupied Delivery Point of the green total (R12)."""
        cell = self.track.deliveries.get(green)
        if cell is None:
            return
        if cell in self.board or queries.kart_at(self, cell) is not None:
            self.emit("no-delivery", "event.delivery_occupied", None, {"number": green, "cell": cell.label},
                      number=green, cell=cell.label)
            return
        if not self.junk:
            self.emit("no-delivery", "event.pile_empty", None, number=green)
            return
        self.board[cell] = BoardTile(self.junk.pop(0), face_down=True)
        self.emit("delivery", "event.delivery", None, {"number": green, "cell": cell.label}, number=green,
                  cell=cell.label)

    def _start_reverse(self, kart: Kart) -> None:
        if not self._reverse_possible(kart):
            raise refuse("refuse.no_room_to_reverse")
        self.turn.phase = PHASE_MOVE
        self.turn.reversing = True
        self.turn.points = 3
        self.turn.move_from = kart.cell
        self.turn.move_facing = kart.facing
        self.emit("reverse", "event.reverse", kart.seat, {"who": self._kart_of(kart.seat)})

    # Phase 5 ----------------------------------------------------------------------------------------

    def _resolve_step(self, kart: Kart, step: act.Step) -> Hex:
        assert kart.cell is not None
        if step.cell is not None:
            return step.cell
        turn = step.turn or 0
        if self.turn.reversing:
            target = kart.cell.neighbour(kart.facing.opposite.turn(-turn))
        else:
            target = kart.cell.neighbour(kart.facing.turn(turn))
        if not target.on_board(self.track.columns, self.track.rows):
            way = {-1: "left", 0: "straight", 1: "right"}[turn]
            msg = "refuse.step_off_board_back" if self.turn.reversing else "refuse.step_off_board"
            raise refuse(msg, step=way, cell=kart.cell.label)
        return target

    def _step(self, kart: Kart, target: Hex) -> None:
        assert kart.cell is not None
        fld = queries.field(self)
        if self.turn.reversing:
            opts = step_plans(fld, kart.cell, kart.facing, self.turn.points, reversing=True)
            plans = opts.get(target)
            if plans is None:
                raise self._step_help(kart, target, {c: p for c, p in opts.items() if not isinstance(p, str)})
            if isinstance(plans, str):
                raise refuse("refuse.cant_reverse_to", cell=target.label, reason=plans)
            self.turn.reverse_steps += 1
            self.turn.points -= plans[0].cost
            self._carry_out(kart, plans[0])
            if plans[0].falls:
                self.turn.points = 0
            return
        allowed, refused = legal_plans(fld, kart.cell, kart.facing, self.turn.points)
        if target in refused:
            raise refuse("refuse.cant_drive_to", cell=target.label, reason=refused[target])
        plans_ok = allowed.get(target)
        if plans_ok is None:
            raise self._step_help(kart, target, allowed)
        if len(plans_ok) > 1:
            # Battering Ram (R14): the player chooses how far the bumped kart goes.
            context: dict[str, Any] = {"target": target.label}
            if self._leaving == kart.seat:
                context["leave"] = True  # R18: the step said to leave the junk tile there
            ask = said("ask.ram", cell=target.label)
            context["ask"] = ask.to_data()
            self.choice = Choice("ram", kart.seat, [str(i + 1) for i in range(len(plans_ok))], ask, context)
            return
        self._drive(kart, plans_ok[0])

    def _step_help(self, kart: Kart, target: Hex, opts: dict[Hex, Any]) -> IllegalAction:
        assert kart.cell is not None
        msg = "refuse.not_next_reverse" if self.turn.reversing else "refuse.not_next"
        return refuse(msg, target=target.label, cell=kart.cell.label, facing=kart.facing.name,
                      cells=[c.label for c in opts])

    def _drive(self, kart: Kart, plan: Plan) -> None:
        """A forward step in Phase 5, then whatever it triggers, then the end of the move if due."""
        self.turn.points -= plan.cost
        self._carry_out(kart, plan)
        if self.turn.phase != PHASE_MOVE or self.turn.seat != kart.seat or self._winners:
            return
        if plan.falls or kart.cell is None or self.track.is_stream(kart.cell):
            self.turn.points = 0
        if self.choice is not None:
            return
        self._after_step(kart, plan)

    def _after_step(self, kart: Kart, plan: Plan | None) -> None:
        assert kart.cell is not None
        bumped = plan is not None and plan.bump is not None
        if (self.turn.points > 0 and bumped
                and not has_step(queries.field(self), kart.cell, kart.facing, self.turn.points)):
            params = {"who": self._kart_of(kart.seat), "cell": kart.cell.label, "count": self.turn.points}
            self.emit("blocked", "event.no_way_round", kart.seat, params, cell=kart.cell.label)
            self.turn.points = 0
        if self.turn.points > 0 and not has_step(queries.field(self), kart.cell, kart.facing, self.turn.points):
            params = {"who": self._kart_of(kart.seat), "cell": kart.cell.label, "count": self.turn.points}
            self.emit("blocked", "event.blocked", kart.seat, params, cell=kart.cell.label)
            self.turn.points = 0
        if self.turn.points <= 0:
            self._end_move(kart)

    def _carry_out(self, kart: Kart, plan: Plan) -> None:
        """Move the kart (and any kart it bumps) as the plan says, with everything that triggers.

        Both karts are in their new cells before anything where the bumped kart lands takes effect,
        so a skid or a blast there finds the mover already standing in its place.
        """
        assert kart.cell is not None
        start = kart.cell
        victim: Kart | None = None
        if plan.bump is not None:
            seat, frm, to = plan.bump
            victim = self.karts[seat]
            self._push(victim, frm, to, plan.facing)
            self.turn.bumped.append(seat)
        if plan.over:
            self.emit("jump", "event.jump", kart.seat, {"who": self._kart_of(kart.seat), "cell": start.label},
                      cell=start.label)
            kart.facing = plan.facing
            self.turn.path.extend(c.label for c in plan.over)
            kart.cell = plan.end
            if plan.falls:
                self.turn.marks.append([plan.end.label, "splash"])
                self.emit("fall", "event.fall", kart.seat, {"who": self._kart_of(kart.seat), "cell": plan.end.label},
                          cell=plan.end.label)
                return
        else:
            self.moved(kart, start, plan.target)
            kart.cell = plan.target
            kart.facing = plan.facing
        self.turn.path.append(plan.end.label)
        if victim is not None:
            self._pushed_arrives(victim)
        self.arrive(kart, plan.end, "drive")

    def _push(self, victim: Kart, frm: Hex, to: Hex, direction: Facing) -> None:
        """A bumped kart moves without turning (rulebook: Bumping Other Karts); see _pushed_arrives."""
        params = {"who": self._kart_of(self.turn.seat), "victim": self._kart_of(victim.seat), "cell": frm.label,
                  "to": to.label}
        self.emit("bump", "event.bump", victim.seat, params, cell=frm.label, to=to.label, by=self.turn.seat)
        self.turn.marks.append([frm.label, "bump"])
        cur = frm
        # walk the push cell by cell so laps and bridge crossings count
        while cur != to:
            nxt = cur.neighbour(direction)
            self.moved(victim, cur, nxt)
            cur = nxt
        victim.cell = to

    def _pushed_arrives(self, victim: Kart) -> None:
        """What the bumped kart's new cell does to it: the stream, tiles, traps, Time Bombs (R16)."""
        to = victim.cell
        assert to is not None
        if self.track.is_stream(to):
            self.turn.marks.append([to.label, "splash"])
            self.emit("splash", "event.splash", victim.seat, {"who": self._kart_of(victim.seat), "cell": to.label},
                      cell=to.label)
            return
        self.arrive(victim, to, "bump")
        if victim.cell is not None and self.track.on_track(victim.cell):
            self.traps.bumped_next_to_bombs(victim)

    def moved(self, kart: Kart, frm: Hex, to: Hex) -> None:
        """Laps (R4) and bridge crossings, for every cell-to-cell move, driven or bumped."""
        kart.armed, kart.bridge_since_line, scored = lap_step(self.track, frm, to, kart.armed, kart.bridge_since_line)
        if scored:
            self._award_flag(kart)

    def _award_flag(self, kart: Kart) -> None:
        if kart.flags >= self.laps or self.flags_left <= 0:
            self.emit("lap", "event.lap_no_flag", kart.seat, {"who": self._kart_of(kart.seat)})
            return
        kart.flags += 1
        self.flags_left -= 1
        self.emit("lap", "event.lap", kart.seat, {"who": self._kart_of(kart.seat), "lap": kart.flags}, flags=kart.flags)
        self._check_win()

    def _check_win(self) -> None:
        if self._winners:
            return
        if self.teams:
            teams: dict[int, list[Kart]] = {}
            for k in self.karts:
                teams.setdefault(int(k.team or 0), []).append(k)
            for team, members in sorted(teams.items()):
                if all(m.flags >= self.laps for m in members):
                    self._winners = [m.seat for m in members]
                    names = [self._kart_of(m.seat) for m in members]
                    self.emit("win", "event.team_wins", None, {"team": team + 1, "karts": names}, seats=self._winners)
                    return
            return
        for k in self.karts:
            if k.flags >= self.laps:
                self._winners = [k.seat]
                self.emit("win", "event.wins", k.seat, {"who": self._kart_of(k.seat)}, seats=[k.seat])
                return

    def arrive(self, kart: Kart, cell: Hex, how: str) -> None:
        """Hook: a kart enters a cell by driving, being bumped, landing or being placed."""
        value = self.track.bottle_tops.get(cell)
        if value:
            cap = catalogue.supply().bottle_top_cap
            take = max(0, min(value, cap - kart.bottle_tops, self.bottle_tops_left))
            kart.bottle_tops += take
            self.bottle_tops_left -= take
            msg = "event.bottle_tops_capped" if take < value else "event.bottle_tops"
            params = {"who": self._kart_of(kart.seat), "count": take, "cell": cell.label, "cap": cap}
            self.emit("bottle-tops", msg, kart.seat, params, cell=cell.label, amount=take)
            self.turn.marks.append([cell.label, "bottle-tops"])
        tile = self.board.get(cell)
        if tile is not None and tile.face_down and self._leaving == kart.seat:
            self.emit("leave", "event.leave", kart.seat, {"who": self._kart_of(kart.seat), "cell": cell.label},
                      cell=cell.label)
        elif tile is not None and tile.face_down:
            self._pick_up(kart, cell, tile)
        elif tile is not None:
            self.traps.meet(kart, cell, tile, how)

    def _pick_up(self, kart: Kart, cell: Hex, tile: BoardTile) -> None:
        if not self.bags.with_room(kart):
            self.emit("bags-full", "event.bags_full", kart.seat, {"who": self._kart_of(kart.seat), "cell": cell.label},
                      cell=cell.label)
            return
        del self.board[cell]
        self.turn.marks.append([cell.label, "pickup"])
        self.emit("pickup", "event.pickup", kart.seat, {"who": self._kart_of(kart.seat), "cell": cell.label},
                  secret="secret.pickup", secret_params={"tile": tile.kind}, cell=cell.label)
        self.bags.store(kart, tile.kind, said("where.from_cell", cell=cell.label))

    def _end_move(self, kart: Kart) -> None:
        """Phase 5 is over: so is the turn."""
        self._end_turn()

    def _end_turn(self) -> None:
        """The one place a turn ends, however it ends (R16: the Time Bombs are rolled for); the dice pass."""
        self.turn.points = 0
        self._leaving = None  # a 'leave' speaks for this turn's step or move only (R18)
        if not self._winners:
            self.traps.turn_ends()
        if self._winners:
            self.turn.phase = PHASE_OVER
            return
        nxt = (self.turn.seat + 1) % len(self.karts)
        self.last_turn = self.turn
        self._begin_turn(nxt, self.turn.number + 1)

    # Choices ----------------------------------------------------------------------------------------

    def _answer(self, option: str) -> None:
        choice = self.choice
        assert choice is not None
        match = next((o for o in choice.options if o.lower() == option.lower()), None)
        if match is None:
            raise refuse("refuse.not_a_choice", option=option, options=choice.options)
        self.choice = None
        kart = self.karts[choice.seat]
        if choice.kind == "enter":
            self._place(kart, cell_from_json(match), Facing[choice.context["facing"]], "enter")
        elif choice.kind == "bag":
            kart.bags[int(match)].append(Tile.from_json(choice.context.get("tile", choice.context["kind"])))
            queue = [Tile.from_json(t) for t in choice.context.get("queue", [])]
            self.bags.rehome(kart, queue, said_back(choice.context.get("why"), "why.covered"))
        elif choice.kind == "ram":
            mover = self.karts[self.turn.seat]
            target = cell_from_json(choice.context["target"])
            assert mover.cell is not None and target is not None
            allowed, _ = legal_plans(queries.field(self), mover.cell, mover.facing, self.turn.points)
            self._leaving = mover.seat if choice.context.get("leave") else None
            try:
                self._drive(mover, allowed[target][int(match) - 1])
            finally:
                self._leaving = None
        elif choice.kind == "facing":
            who = self.karts[int(choice.context["seat"])]
            who.facing = Facing[match]
            self.emit("facing", "event.facing", who.seat, {"who": self._kart_of(who.seat), "facing": match})
        elif choice.kind == "snatch":  # a question saved before snatches were drawn blind: draw blind now
            self.weapons.snatch(kart, self.karts[int(choice.context["seat"])], int(choice.context["bag"]))
        else:  # pragma: no cover - every kind is handled above
            raise refuse("refuse.unknown_choice", kind=choice.kind)

    # Turns ------------------------------------------------------------------------------------------

    def _begin_turn(self, seat: int, number: int) -> None:
        kart = self.karts[seat]
        self.turn = Turn(seat, number, PHASE_DEEDS)
        if kart.cell is None:
            self._enter_race(kart)
            return
        if self.track.is_stream(kart.cell):
            landing = self.track.landing_for(kart.cell)
            if queries.kart_at(self, landing.cell) is not None:
                params = {"who": self._kart_of(seat), "cell": landing.cell.label}
                self.emit("turn-lost", "event.turn_lost", seat, params, cell=landing.cell.label)
                self._end_turn()
                return
            self.emit("landing", "event.landing", seat, {"who": self._kart_of(seat), "cell": landing.cell.label},
                      cell=landing.cell.label)
            self._place(kart, landing.cell, landing.facing, "land")
            if self.turn.seat != seat or self._winners or self.turn.phase != PHASE_DEEDS:
                return  # a trap on the Landing Point ended the turn before the kart moved (R8)
        if kart.glued:
            kart.glued = False
            self.turn.die_limit = 1
            if self.board.get(kart.cell) is not None and self.board[kart.cell].kind == "glue":
                self.return_tile(self.board.pop(kart.cell).kind)
            self.emit("unglued", "event.unglued", seat, {"who": self._kart_of(seat)})
        self.turn.began_at = kart.cell

    def _enter_race(self, kart: Kart) -> None:
        """R15: a kart enters on a free start cell of its player's choice."""
        free = [s for s in self.track.starts if queries.kart_at(self, s.cell) is None]
        facing = self.track.starts[0].facing
        if free:
            cells = [s.cell for s in free]
            facing = free[0].facing if len({s.facing for s in free}) == 1 else facing
        else:
            cells = self._overflow_start_cells()
        if len(cells) == 1:
            start = next((s for s in free if s.cell == cells[0]), None)
            self._place(kart, cells[0], start.facing if start else facing, "enter")
            return
        self.turn.phase = PHASE_ENTER
        by_cell = {s.cell: s.facing for s in free}
        facings = {by_cell.get(c, facing) for c in cells}
        enter_facing = facings.pop() if len(facings) == 1 else facing
        self.choice = Choice("enter", kart.seat, [c.label for c in cells], said("ask.start_cell"),
                             {"facing": enter_facing.name, "ask": said("ask.start_cell").to_data()})

    def _overflow_start_cells(self) -> list[Hex]:
        """R15, R24: all three start cells taken: the free track cells (not a bridge) from which a kart, facing
        the white arrows, could drive onto a start cell in the fewest forward steps (R5: ahead or 60° to
        either side, walls and bridge arrows respected, never over the line; karts on the way do not
        count), rather than the fewest hexes away. Ties are the player's choice."""
        track = self.track
        facing = track.starts[0].facing
        ahead = {b for _, b in track.line}
        preds: dict[tuple[Hex, Facing], list[tuple[tuple[Hex, Facing], int]]] = {}
        for cell in track.track_cells - ahead:
            for f in Facing:
                for nxt in track.forward_successors(cell, f):
                    if nxt[0] not in ahead:
                        preds.setdefault(nxt, []).append(((cell, f), 1))
        sources = {(s.cell, f): 0 for s in track.starts for f in Facing}
        dist = shortest_paths(sources, lambda state: preds.get(state, ()))[0]
        steps = {cell: d for (cell, f), d in dist.items()
                 if f is facing and d > 0 and queries.kart_at(self, cell) is None and not track.is_bridge(cell)}
        fewest = min(steps.values(), default=None)
        return sorted(cell for cell, d in steps.items() if d == fewest)

    def _place(self, kart: Kart, cell: Hex | None, facing: Facing, how: str) -> None:
        assert cell is not None
        kart.cell = cell
        kart.facing = facing
        if how == "enter":
            self.emit("enter", "event.enter", kart.seat, {"who": self._kart_of(kart.seat), "cell": cell.label},
                      cell=cell.label)
        self.turn.began_at = cell
        self.arrive(kart, cell, how)
        if self.turn.phase == PHASE_ENTER and self.choice is None:
            self.turn.phase = PHASE_DEEDS

    def return_tile(self, kind: str) -> None:
        """A used trap or weapon goes to the bottom of the junk pile."""
        self.junk.append(kind)

    def _advance(self) -> None:
        """Move on through everything that offers the player to act nothing (phases 1, 2, 4, 6)."""
        guard = 0
        while not self._winners and self.choice is None:
            guard += 1
            if guard > 40 * len(self.karts):
                raise RuntimeError("the race cannot go on: no player can act")
            kart = self.karts[self.turn.seat]
            phase = self.turn.phase
            if phase == PHASE_DEEDS:
                if self.arsenal.offers(kart, phase):
                    return
                self.turn.phase = PHASE_PARTS
            elif phase == PHASE_PARTS:
                if self.arsenal.offers(kart, phase):
                    return
                pit = self.garage.pit_of_turn(kart)
                if pit is not None:  # stopped in a Pit Stop with nothing to buy or give back: say so
                    self.emit("pit-nothing", "event.pit_nothing", kart.seat,
                              {"who": self._kart_of(kart.seat), "pile": pit.value, "count": kart.bottle_tops})
                self.turn.phase = PHASE_ROLL
            elif phase == PHASE_ROLL:
                if self._forward_possible(kart) or self._reverse_possible(kart):
                    return
                assert kart.cell is not None
                self.emit("boxed-in", "event.boxed_in", kart.seat, {"who": self._kart_of(kart.seat),
                                                                     "cell": kart.cell.label}, cell=kart.cell.label)
                self._end_turn()
            elif phase == PHASE_MOVE:
                if self._move_actions(kart):
                    return
                self._end_move(kart)
            else:
                return

    def _announce_drive(self, kart: Kart, first_event: int, path_from: int, turn: Turn, backwards: bool,
                        start: str | None) -> None:
        """One line for the cells a step or a move drove through, ahead of what happened on the way; its data
        keep the path and the cell it started from (``from``), so a description can say start and end. ``turn``
        is the turn the drive belongs to, kept by itself: the turns after it may all have ended meanwhile (the
        next kart's turn lost at once, R8)."""
        cells = turn.path[path_from:]
        if not cells:
            return
        msg = "event.back_up" if backwards else "event.drive_to" if len(cells) == 1 else "event.drive"
        params = {"who": self._kart_of(kart.seat), "cells": list(cells)}
        event = Event("drive", say(msg, "en", **params), kart.seat,
                      {"path": cells, "from": start, "msg": msg, "params": plain(params)})
        self._events.insert(first_event, event)

    def _move_path(self, kart: Kart, cells: tuple[Hex, ...]) -> None:
        """Drive a whole path: each cell must be a legal step when it is reached."""
        seat = kart.seat
        rolled_before = self.dice.state
        for i, cell in enumerate(cells):
            if self._winners or self.turn.seat != seat or self.turn.phase != PHASE_MOVE:
                rest = " ".join(c.label for c in cells[i:])
                self.emit("path-cut", "event.path_ended", seat, {"rest": rest})
                return
            if self.choice is not None:
                rest = " ".join(c.label for c in cells[i:])
                self.emit("path-cut", "event.path_paused", seat, {"rest": rest})
                return
            try:
                self._step(self.karts[seat], cell)
            except IllegalAction as exc:
                if self.dice.state != rolled_before:
                    self.emit("path-cut", "event.path_stopped", seat, {"step": i + 1, "reason": reason_of(exc)})
                    return
                raise refuse("refuse.path_step", step=i + 1, reason=reason_of(exc)) from None

    # ------------------------------------------------------------------------------------------------
    # Serialisation and views

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.key,
            "format_version": self.format_version,
            "setup": self.setup,
            "seed": self.seed,
            "ply": self._ply,
            "karts": [k.to_dict() for k in self.karts],
            "board": {c.label: t.to_dict() for c, t in sorted(self.board.items())},
            "junk": list(self.junk),
            "parts_left": dict(self.parts_left),
            "bottle_tops_left": self.bottle_tops_left,
            "flags_left": self.flags_left,
            "dice_left": dict(self.dice_left),
            "dice": self.dice.to_dict(),
            "turn": self.turn.to_dict(),
            "last_turn": self.last_turn.to_dict() if self.last_turn is not None else None,
            "choice": self.choice.to_dict() if self.choice else None,
            "winners": list(self._winners),
            "events": [e.to_dict() for e in self.last_events],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        if data.get("game") != cls.key:
            raise ValueError(f"not a Junkyard Races game: {data.get('game')!r}")
        if data.get("format_version") != cls.format_version:
            raise ValueError(f"format version {data.get('format_version')} is not {cls.format_version}")
        g = cls()
        g.setup = data["setup"]
        g.seed = int(data["seed"])
        opts = g.setup["options"]
        g.track = get_track(opts["track"])
        g.laps = int(opts["laps"])
        g.teams = bool(opts["teams"])
        g._ply = int(data["ply"])
        g.karts = [Kart.from_dict(k) for k in data["karts"]]
        g.board = {cell_from_json(c): BoardTile.from_dict(t) for c, t in data["board"].items()}  # type: ignore[misc]
        g.junk = list(data["junk"])
        g.parts_left = {k: int(v) for k, v in data["parts_left"].items()}
        g.bottle_tops_left = int(data["bottle_tops_left"])
        g.flags_left = int(data["flags_left"])
        g.dice_left = {k: int(v) for k, v in data["dice_left"].items()}
        g.dice = Dice.from_dict(data["dice"])
        g.turn = Turn.from_dict(data["turn"])
        g.last_turn = Turn.from_dict(data["last_turn"]) if data.get("last_turn") else None
        g.choice = Choice.from_dict(data["choice"]) if data.get("choice") else None
        g._winners = [int(s) for s in data.get("winners", [])]
        g.last_events = [Event.from_dict(e) for e in data.get("events", [])]
        return g

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (or the public) may see: no face-down tile kinds, no dice state (R12)."""
        karts = []
        for k in self.karts:
            d = k.to_dict()
            if seat != k.seat:
                d["bags"] = {loc: [t if t.endswith("+") else "hidden" for t in tiles]
                             for loc, tiles in d["bags"].items()}
            karts.append(d)
        board = {}
        for c, t in sorted(self.board.items()):
            board[c.label] = {"kind": "junk", "face_down": True} if t.face_down else t.to_dict()
        choice = None
        if self.choice is not None:
            choice = self.choice.to_dict()
            context = choice.pop("context", None) or {}
            if "ask" in context:  # the question's id and parameters (what the prompt says, no more)
                choice["ask"] = context["ask"]
        return {
            "game": self.key,
            "viewer": seat,
            "track": self.track.name,
            "laps": self.laps,
            "teams": self.teams,
            "ply": self._ply,
            "to_act": self.to_act,
            "phase": self.phase,
            "winners": list(self._winners),
            "karts": karts,
            "board": board,
            "turn": self.turn.to_dict(),
            "last_turn": self.last_turn.to_dict() if self.last_turn is not None else None,
            "choice": choice,
            "supply": {
                "junk": len(self.junk),
                "bottle_tops": self.bottle_tops_left,
                "flags": self.flags_left,
                "parts": dict(self.parts_left),
                "dice": dict(self.dice_left),
            },
            "events": [e.to_dict() for e in events_for(self.last_events, seat)],
        }

    # ------------------------------------------------------------------------------------------------
    # The position format

    @classmethod
    def from_position(cls, position: dict[str, Any]) -> Self:
        """Set up a situation directly (see NOTATION.md): karts, tiles, whose turn, the phase, dice."""
        from rules.races.position import build

        return build(cls, position)


__all__ = ["IllegalAction", "NotationError", "Races"]
