"""Front end of Junkyard Races: setup options, the ``/race`` command group, buttons, pictures, narration.

Everything a player may do comes from the engine's ``legal_actions()``: autocomplete and buttons only
ever offer legal actions, and what a command builds is checked by the engine again when it is played.
"""

from __future__ import annotations

import asyncio
import difflib
import importlib
import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import discord
from discord import app_commands

from bot.games import BaseFront, ButtonSpec, register_front
from rules.contract import Event, Game, SetupError
from rules.hexgrid import parse_label
from rules.races import actions as act
from rules.races import catalogue
from rules.races.track import builtin_tracks, get_track

log = logging.getLogger(__name__)

KEY = "races"
#: at most this many buttons on one message (Discord allows 5 rows of 5)
MAX_BUTTONS = 20
#: an action longer than this does not go on a button: ``jy:<game>:<move>:`` must still fit in 100
MAX_BUTTON_ACTION = 72
#: autocomplete shows at most 25 choices
MAX_CHOICES = 25
LAPS = (1, 5)
RELATIVE = {-1: "left", 0: "straight", 1: "right"}
FACINGS = ("N", "NE", "SE", "S", "SW", "NW")


# Helpers shared by the front end and the commands --------------------------------------------------


def _module_fn(module: str, name: str) -> Callable[..., bytes] | None:
    try:
        mod = importlib.import_module(module)
    except ImportError:
        return None
    fn = getattr(mod, name, None)
    return fn if callable(fn) else None


def fuzzy(pairs: Iterable[tuple[str, str]], typed: str, limit: int = MAX_CHOICES) -> list[tuple[str, str]]:
    """(name, value) pairs matching ``typed``: prefixes first, then substrings, then letters in order,
    then close spellings; at most ``limit``, none with a value over 100 characters."""
    items = [(n, v) for n, v in pairs if 0 < len(v) <= 100]
    cur = " ".join(typed.lower().split())
    if not cur:
        return items[:limit]
    tiers: list[list[tuple[str, str]]] = [[], [], [], []]
    for name, value in items:
        hay = f"{value.lower()} {name.lower()}"
        if value.lower().startswith(cur) or name.lower().startswith(cur):
            tiers[0].append((name, value))
        elif cur in hay:
            tiers[1].append((name, value))
        elif _subsequence(cur.replace(" ", ""), hay.replace(" ", "")):
            tiers[2].append((name, value))
        elif difflib.SequenceMatcher(None, cur, value.lower()).ratio() >= 0.6:
            tiers[3].append((name, value))
    return [p for tier in tiers for p in tier][:limit]


def _subsequence(needle: str, hay: str) -> bool:
    it = iter(hay)
    return all(ch in it for ch in needle)


def legal(game: Game | None, seat: int | None) -> list[Any]:
    """The legal actions of ``seat`` now; empty when it is not theirs to act."""
    if game is None or seat is None or game.is_over:
        return []
    from bot.service import may_act

    if not may_act(game, seat):
        return []
    return list(game.legal_actions())


def step_word(game: Any, step: act.Step) -> str | None:
    """``left``/``straight``/``right`` for a legal step to a neighbouring cell, if it is one of those."""
    kart = game.karts[game.turn.seat]
    if kart.cell is None or step.cell is None:
        return None
    for turn, word in RELATIVE.items():
        if game.turn.reversing:
            target = kart.cell.neighbour(kart.facing.opposite.turn(-turn))
        else:
            target = kart.cell.neighbour(kart.facing.turn(turn))
        if target == step.cell:
            return word
    return None


def destinations(game: Any, actions: Sequence[Any]) -> dict[str, act.Move]:
    """End cell → whole move (a path spending every point), from the legal actions, furthest round the
    race first (so the few that fit on buttons are the useful ones)."""
    out: dict[str, act.Move] = {}
    for a in actions:
        if isinstance(a, act.Move) and a.cells:
            out.setdefault(a.cells[-1].label, a)
    if len(out) < 2:
        return out
    try:
        ahead = _progress_of(game)
        ranked = sorted(out.items(), key=lambda kv: (-ahead(kv[1].cells), kv[0]))
    except Exception:  # progress is a nicety: fall back to the engine's order
        log.exception("ranking destinations failed")
        return out
    return dict(ranked)


def _progress_of(game: Any) -> Callable[[Sequence[Any]], float]:
    """How far round the race the kart to act would be after driving a path (larger is further on)."""
    from bot.drivers.races import mode_of, track_info

    info = track_info(game.track)
    kart = game.karts[game.turn.seat]

    def ahead(cells: Sequence[Any]) -> float:
        mode, flags, prev, facing = mode_of(kart), 0, kart.cell, kart.facing
        for cell in cells:
            mode, scored = info.step_mode(prev, cell, mode)
            flags += scored
            facing = prev.facing_to(cell) or facing
            prev = cell
        return flags * info.lap - info.remaining(prev, facing, mode)

    return ahead


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def choice_label(kind: str, option: str) -> str:
    """A button label for an answer to a pending choice."""
    return {"bag": f"Bag {option}", "ram": f"Push {option}", "snatch": f"Tile {option}"}.get(kind, option)


def part_name(pid: str) -> str:
    spec = catalogue.parts().get(pid)
    return spec.name if spec else pid


def resolve_part(text: str) -> str | None:
    """A part id from its id or name, in any case, with spaces or hyphens."""
    want = "-".join(text.lower().replace("_", " ").split())
    for pid, spec in catalogue.parts().items():
        if want in (pid, "-".join(spec.name.lower().split())):
            return pid
    return None


def resolve_crew(text: str) -> str | None:
    want = " ".join(text.lower().replace("-", " ").split())
    for cid, member in catalogue.crew().items():
        if want in (cid.lower().replace("-", " "), member.name.lower()):
            return cid
    return None


def tiles_text(kart: Mapping[str, Any]) -> str:
    """A kart's saddlebag tiles as its owner sees them (``+`` marks a tile kept face up)."""
    bags = kart.get("bags") or {}
    parts = []
    for loc, tiles in sorted(bags.items(), key=lambda kv: int(kv[0])):
        if tiles:
            shown = ", ".join(t.removesuffix("+") + (" (face up)" if t.endswith("+") else "") for t in tiles)
            parts.append(f"bag {loc}: {shown}")
    return "; ".join(parts) or "no tiles"


# The front end -------------------------------------------------------------------------------------


class RaceFront(BaseFront):
    key = KEY
    title = "Junkyard Races"
    uses_new = frozenset({"track", "teams", "crew", "laps"})
    uses_join = frozenset({"colour", "team", "character", "set"})

    # Setup -------------------------------------------------------------------------------------

    def setup_options(self, raw: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
        opts: dict[str, Any] = {}
        if raw.get("track") is not None:
            try:
                opts["track"] = get_track(str(raw["track"])).name
            except KeyError as exc:
                raise SetupError(str(exc.args[0])) from None
        else:
            opts["track"] = get_track("A").name
        for name in ("teams", "crew"):
            if raw.get(name) is not None:
                opts[name] = bool(raw[name])
        if raw.get("laps") is not None:
            laps = raw["laps"]
            if isinstance(laps, bool) or not isinstance(laps, int) or not LAPS[0] <= laps <= LAPS[1]:
                raise SetupError(f"a race lasts {LAPS[0]} to {LAPS[1]} laps, not {laps!r}")
            opts["laps"] = laps
        return opts, self._ignored(raw, self.uses_new)

    def seat_options(self, raw: Mapping[str, Any], setup: Mapping[str, Any], taken: Sequence[Mapping[str, Any]]
                     ) -> tuple[dict[str, Any], list[str]]:
        seat: dict[str, Any] = {}
        notes = self._ignored(raw, self.uses_join)
        if raw.get("colour") is not None:
            colour = str(raw["colour"]).strip().lower()
            colours = catalogue.colours()
            if colour not in colours:
                raise SetupError(f"{raw['colour']!r} is not a kart colour; choose from {', '.join(colours)}")
            if any(t.get("colour") == colour for t in taken):
                free = [c for c in colours if all(t.get("colour") != c for t in taken)]
                raise SetupError(f"{colour} is taken; free colours: {', '.join(free)}")
            seat["colour"] = colour
        if raw.get("team") is not None:
            if setup.get("teams"):
                seat["team"] = int(raw["team"])
            else:
                notes.append("`team` only counts in team racing (`/game new teams:True`); ignored.")
        crew_given = raw.get("character") is not None or raw.get("set") is not None
        if crew_given and not setup.get("crew"):
            notes.append("`character` and `set` only count with the crew setup (`/game new crew:True`); ignored.")
        elif crew_given:
            if raw.get("character") is not None:
                cid = resolve_crew(str(raw["character"]))
                if cid is None:
                    names = ", ".join(m.name for m in catalogue.crew().values())
                    raise SetupError(f"{raw['character']!r} is not in the crew; choose from {names}")
                if any(t.get("crew") == cid for t in taken):
                    raise SetupError(f"{catalogue.crew()[cid].name} already races for someone else")
                seat["crew"] = cid
            if raw.get("set") is not None:
                if raw["set"] not in (1, 2):
                    raise SetupError("the starting set is 1 or 2")
                seat["crew_set"] = int(raw["set"])
        return seat, notes

    def choices(self, field: str, current: str, setup: Mapping[str, Any] | None = None,
                taken: Sequence[Mapping[str, Any]] = ()) -> list[tuple[str, str]]:
        if field == "track":
            pairs = []
            for t in sorted(builtin_tracks().values(), key=lambda t: t.alias or t.name):
                alias = f" ({t.alias})" if t.alias and t.alias != t.name else ""
                pairs.append((f"{t.name}{alias}", t.name))
                if t.alias and t.alias != t.name:
                    pairs.append((f"{t.alias}: {t.name}", t.alias))
            return fuzzy(pairs, current)
        if field == "colour":
            used = {t.get("colour") for t in taken}
            return fuzzy([(c, c) for c in catalogue.colours() if c not in used], current)
        if field == "character":
            used = {t.get("crew") for t in taken}
            return fuzzy([(m.name, cid) for cid, m in catalogue.crew().items() if cid not in used], current)
        return []

    # Pictures and words ------------------------------------------------------------------------

    def picture(self, view: dict[str, Any], events: Sequence[Event]) -> bytes | None:
        live = _module_fn("render.races.live", "board_png")
        if live is not None:
            return live(view)
        static = _module_fn("render.races.board", "track_png")
        return static(get_track(view["track"])) if static is not None else None

    def hand_picture(self, view: dict[str, Any], seat: int) -> bytes | None:
        """The kart card of ``seat`` with its own tiles (only for that seat's eyes)."""
        card = _module_fn("render.races.card", "kart_card_png")
        return card(view, seat) if card is not None else None

    def narrate(self, events: Sequence[Event]) -> str:
        lines = []
        for e in events:
            text = f"{e.text} {e.secret}" if e.secret else e.text
            if text and (not lines or lines[-1] != text):
                lines.append(text)
        return "\n".join(lines)

    def describe(self, game: Game, viewer: int | None) -> str:
        g: Any = game
        view = game.view(viewer)
        head = f"**{self.title}** on {view['track']}, {view['laps']} lap{'s' if view['laps'] != 1 else ''}"
        head += ", team racing" if view.get("teams") else ""
        lines = [head + f", move {view['ply']}."]
        for k in view["karts"]:
            where = f"{k['cell']} facing {k.get('facing', '?')}" if k.get("cell") else "not on the track yet"
            tiles = sum(len(t) for t in (k.get("bags") or {}).values())
            parts = len(k.get("parts") or {})
            team = f", team {k['team']}" if k.get("team") is not None else ""
            lines.append(f"{k['name']} ({k['colour']}{team}): {where}, "
                         f"{k.get('flags', 0)}/{view['laps']} flags, {_count(k.get('bottle_tops', 0), 'bottle top')}, "
                         f"{_count(parts, 'part')}, {_count(tiles, 'tile')}")
        if game.is_over:
            won = ", ".join(game.seat_names[s] for s in game.winners) or "nobody"
            lines.append(f"The race is over after {game.ply} moves. Winner: {won}.")
            return "\n".join(lines)
        turn = game.to_act
        if turn is not None:
            who = game.seat_names[turn]
            choice = view.get("choice")
            if choice:
                lines.append(f"{who} to choose: {choice['prompt']} ({' / '.join(choice['options'])})")
            else:
                pts = view["turn"].get("points")
                extra = f", {pts} points to drive" if view["phase"] == "move" and pts else ""
                lines.append(f"{who} to act, phase: {view['phase']}{extra}.")
        if viewer is not None and 0 <= viewer < len(view["karts"]):
            lines.append(f"Your tiles: {tiles_text(view['karts'][viewer])}.")
            if turn == viewer:
                verbs = sorted({str(a).split()[0] for a in g.legal_actions()})
                if verbs:
                    lines.append("Commands for it: " + ", ".join(f"`/race {v}`" for v in verbs) + ".")
        return "\n".join(lines)

    # Buttons -----------------------------------------------------------------------------------

    def buttons(self, game: Game, seat: int) -> list[ButtonSpec]:
        """The common flow: answers to a pending choice (R14); dice to roll or reverse; steps left, straight
        or right and whole moves to the cells furthest on; done. Everything else is a command. Buttons sit
        on a public message, so none may tell what a face-down tile is (a Refuel button would)."""
        acts = legal(game, seat)
        if not acts:
            return []
        g: Any = game
        if isinstance(acts[0], act.Choose):
            kind = g.choice.kind if g.choice is not None else ""
            return [ButtonSpec(choice_label(kind, a.option), str(a), "primary") for a in acts][:MAX_BUTTONS]
        out: list[ButtonSpec] = []
        rolls = [a for a in acts if isinstance(a, act.Roll)]
        out += [ButtonSpec(f"Roll {a.green}", str(a), "primary") for a in rolls if not (a.white or a.red)]
        if any(isinstance(a, act.Reverse) for a in acts):
            out.append(ButtonSpec("Reverse", "reverse", "secondary"))
        for a in rolls:
            if a.white or a.red:
                fuel = (f" +{a.white} white" if a.white else "") + (f" +{a.red} red" if a.red else "")
                out.append(ButtonSpec(f"Roll {a.green}{fuel}", str(a), "success"))
        steps = [a for a in acts if isinstance(a, act.Step)]
        words = {w for a in steps if (w := step_word(g, a)) is not None}
        back = bool(getattr(g.turn, "reversing", False))
        for turn in (-1, 0, 1):
            word = RELATIVE[turn]
            if word in words:
                label = f"Back {word}" if back else f"{'↖↑↗'[turn + 1]} {word}"
                out.append(ButtonSpec(label, f"step {word}", "primary"))
        if any(isinstance(a, act.Done) for a in acts):
            out.append(ButtonSpec("Stop here" if back else "Done", "done", "danger" if steps else "secondary"))
        for cell, move in destinations(g, acts).items():
            if len(str(move)) <= MAX_BUTTON_ACTION:
                out.append(ButtonSpec(f"→ {cell}", str(move), "success"))
        return out[:MAX_BUTTONS]

    def command_group(self) -> app_commands.Group | None:
        return make_group()


FRONT = register_front(RaceFront())


# The /race command group ---------------------------------------------------------------------------


def make_group() -> app_commands.Group:
    """The ``/race`` group: one command per kind of action, each building the notation for the service."""
    from bot.discord import options as opt
    from bot.discord.replies import send_reply
    from bot.service import Reply, refuse

    Choice = app_commands.Choice
    group = app_commands.Group(name="race", description="Drive your kart in this channel's Junkyard Races",
                               guild_only=True)

    def service_of(interaction: discord.Interaction) -> Any:
        return interaction.client.service  # type: ignore[attr-defined]

    async def state(interaction: discord.Interaction) -> tuple[Any, Any, int | None]:
        if interaction.channel_id is None:
            return None, None, None
        rec, game, seat = await service_of(interaction).current(interaction.channel_id, interaction.user.id)
        if rec is None or rec.game_key != KEY:
            return None, None, None
        return rec, game, seat

    async def mine(interaction: discord.Interaction) -> tuple[Any, list[Any]]:
        """The game and the asker's legal actions (empty when it is not their turn)."""
        _, game, seat = await state(interaction)
        if game is None:
            return None, []
        return game, await asyncio.to_thread(legal, game, seat)  # a long roll's whole moves take a while

    def choices(pairs: Iterable[tuple[str, str]], current: str) -> list[Choice[str]]:
        return [Choice(name=n[:100], value=v) for n, v in fuzzy(pairs, current or "")]

    async def channel_check(interaction: discord.Interaction) -> Reply | None:
        """A refusal when the channel holds no race (another game, or none)."""
        assert interaction.channel_id is not None
        rec = await service_of(interaction).store.channel_game(interaction.channel_id)
        if rec is None:
            return refuse("There is no race in this channel. Start one with `/game new game:races`.")
        if rec.game_key != KEY:
            return refuse(f"This channel is playing `{rec.game_key}`, not Junkyard Races. `/game status` shows it.")
        return None

    async def play(interaction: discord.Interaction, text: str) -> None:
        problem = await channel_check(interaction)
        if problem is not None:
            await send_reply(interaction, problem)
            return
        assert interaction.channel_id is not None
        await send_reply(interaction, await service_of(interaction).act(interaction.channel_id,
                                                                       interaction.user.id, text))

    async def bad(interaction: discord.Interaction, text: str) -> None:
        await send_reply(interaction, refuse(f"{text} Nothing was changed."))

    async def option_text(interaction: discord.Interaction, name: str, value: str, limit: int) -> str | None:
        """A required text option, or None after telling the player what is wrong with it."""
        try:
            return opt.text(name, value, required=True, limit=limit)
        except opt.BadOption as exc:
            await bad(interaction, str(exc))
            return None

    async def cell_of(interaction: discord.Interaction, name: str, value: str) -> str | None:
        """A cell label checked against the track; None after refusing."""
        _, game, _ = await state(interaction)
        try:
            text = opt.text(name, value, required=True, limit=8)
            assert text is not None
            track = game.track if game is not None else None
            hexcell = parse_label(text, track.columns if track else None, track.rows if track else None)
        except (opt.BadOption, ValueError) as exc:
            await bad(interaction, f"`{name}`: {exc}. A cell is a column and a row, like `F7`.")
            return None
        return hexcell.label

    # Autocomplete ------------------------------------------------------------------------------

    async def ac_move(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        game, acts = await mine(interaction)
        pairs = [(f"{cell} (via {str(m).removeprefix('move ')})", cell) for cell, m in destinations(game, acts).items()]
        return choices(pairs, current)

    async def ac_step(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        game, acts = await mine(interaction)
        pairs = []
        for a in acts:
            if isinstance(a, act.Step) and a.cell is not None:
                word = step_word(game, a)
                pairs.append((f"{a.cell.label} ({word})" if word else a.cell.label, a.cell.label))
                if word:
                    pairs.append((f"{word} ({a.cell.label})", word))
        return choices(pairs, current)

    def of(acts: Iterable[Any], kind: type) -> list[Any]:
        return [a for a in acts if isinstance(a, kind)]

    async def ac_buy_part(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        _, acts = await mine(interaction)
        seen: dict[str, str] = {}
        for a in of(acts, act.Buy):
            spec = catalogue.parts().get(a.part)
            seen.setdefault(a.part, f"{part_name(a.part)} ({spec.cost} bottle tops)" if spec else a.part)
        return choices([(n, pid) for pid, n in seen.items()], current)

    async def ac_buy_location(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        _, acts = await mine(interaction)
        part = resolve_part(str(getattr(interaction.namespace, "part", "") or ""))
        locs = sorted({a.location for a in of(acts, act.Buy) if a.location is not None
                       and (part is None or a.part == part)})
        return choices([(f"location {loc}", str(loc)) for loc in locs], current)

    async def ac_return(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        game, acts = await mine(interaction)
        kart = game.karts[game.turn.seat] if game is not None else None
        pairs = [(f"{a.location}: {part_name(kart.parts.get(a.location, '?')) if kart else ''}", str(a.location))
                 for a in of(acts, act.Return)]
        return choices(pairs, current)

    async def ac_trap_kind(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        _, acts = await mine(interaction)
        kinds = sorted({a.kind for a in of(acts, act.PlaceTrap)})
        return choices([(k, k) for k in kinds], current)

    async def ac_trap_cell(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        _, acts = await mine(interaction)
        kind = act.TILE_ALIASES.get(str(getattr(interaction.namespace, "tile", "") or "").lower(),
                                    str(getattr(interaction.namespace, "tile", "") or "").lower())
        cells = sorted({a.cell.label for a in of(acts, act.PlaceTrap) if not kind or a.kind == kind})
        return choices([(c, c) for c in cells], current)

    async def ac_trap_arrow(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        _, acts = await mine(interaction)
        cell = str(getattr(interaction.namespace, "cell", "") or "").upper()
        arrows = [a.arrow.name for a in of(acts, act.PlaceTrap)
                  if a.kind == "oil" and a.arrow is not None and (not cell or a.cell.label == cell)]
        return choices([(f, f) for f in FACINGS if f in arrows], current)

    def fire_ac(weapon: str, field: str) -> Callable[..., Any]:
        async def complete(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
            _, acts = await mine(interaction)
            fires = [a for a in of(acts, act.Fire) if a.weapon == weapon]
            if field == "cell":
                target = str(getattr(interaction.namespace, "target", "") or "").lower()
                vals = sorted({a.cell.label for a in fires if not target or a.target.lower() == target})
            else:
                cell = str(getattr(interaction.namespace, "cell", "") or "").upper()
                vals = sorted({a.target for a in fires if not cell or a.cell.label == cell})
            return choices([(v, v) for v in vals], current)

        complete.__name__ = f"{weapon}_{field}_autocomplete"
        return complete

    def gadget_ac(use: str) -> Callable[..., Any]:
        async def complete(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
            _, acts = await mine(interaction)
            return choices([(a.target, a.target) for a in of(acts, act.Gadget) if a.use == use], current)

        complete.__name__ = f"{use}_autocomplete"
        return complete

    async def ac_swap(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        _, acts = await mine(interaction)
        pairs = [(str(a).removeprefix("swap "), str(a).removeprefix("swap ")) for a in of(acts, act.Swap)]
        return choices(pairs, current)

    async def ac_choose(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        game, acts = await mine(interaction)
        prompt = game.choice.prompt if game is not None and game.choice is not None else ""
        pairs = [(f"{a.option} ({prompt})" if prompt else a.option, a.option) for a in of(acts, act.Choose)]
        return choices(pairs, current)

    async def ac_bag(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        _, acts = await mine(interaction)
        pairs = [(f"{a.kind} from bag {a.source} to bag {a.dest}", f"{a.kind} {a.source} {a.dest}")
                 for a in of(acts, act.BagMove)]
        return choices(pairs, current)

    def flip_ac(face_up: bool) -> Callable[..., Any]:
        async def complete(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
            _, acts = await mine(interaction)
            return choices([(a.kind, a.kind) for a in of(acts, act.Flip) if a.face_up == face_up], current)

        complete.__name__ = f"{'show' if face_up else 'hide'}_autocomplete"
        return complete

    # Commands ----------------------------------------------------------------------------------

    @group.command(name="roll", description="Phase 3: roll green dice, plus white (Turbo) or red (Jet) fuel dice")
    @app_commands.describe(green="Green dice, 1 to 3", white="White Turbo fuel dice (0 to 3)",
                           red="Red Jet fuel dice (0 to 3)")
    async def roll(interaction: discord.Interaction, green: app_commands.Range[int, 1, 3],
                   white: app_commands.Range[int, 0, 3] | None = None,
                   red: app_commands.Range[int, 0, 3] | None = None) -> None:
        try:
            g = opt.integer("green", green, 1, 3)
            w = opt.integer("white", white, 0, 3) or 0
            r = opt.integer("red", red, 0, 3) or 0
        except opt.BadOption as exc:
            await bad(interaction, str(exc))
            return
        await play(interaction, str(act.Roll(g or 1, w, r)))

    @group.command(name="reverse", description="Phase 3: reverse 1 to 3 cells instead of rolling")
    async def reverse(interaction: discord.Interaction) -> None:
        await play(interaction, "reverse")

    @group.command(name="move", description="Drive to a cell using your whole roll, or along a path of cells")
    @app_commands.describe(to="An end cell (start typing for the legal ones) or a path like `F7 G7 H8`")
    @app_commands.autocomplete(to=ac_move)
    async def move(interaction: discord.Interaction, to: str) -> None:
        text = await option_text(interaction, "to", to, limit=100)
        if text is None:
            return
        cells = text.replace(",", " ").replace("-", " ").split()
        game, acts = await mine(interaction)
        for c in cells:
            try:
                parse_label(c, game.track.columns if game else None, game.track.rows if game else None)
            except ValueError as exc:
                await bad(interaction, f"`to`: {exc}. Name cells like `F7`, or a path like `F7 G7 H8`.")
                return
        if len(cells) == 1:
            whole = destinations(game, acts).get(cells[0].upper())
            if whole is not None:
                await play(interaction, str(whole))
                return
        await play(interaction, "move " + " ".join(c.upper() for c in cells))

    @group.command(name="step", description="Phase 5: drive one cell: left, straight, right or a cell")
    @app_commands.describe(way="left, straight, right or a cell; start typing for the legal ones")
    @app_commands.autocomplete(way=ac_step)
    async def step(interaction: discord.Interaction, way: str) -> None:
        low = (way or "").strip().lower()
        if low in act.RELATIVE_STEPS:
            await play(interaction, f"step {low}")
            return
        cell = await cell_of(interaction, "way", way)
        if cell is not None:
            await play(interaction, f"step {cell}")

    @group.command(name="done", description="End Phase 1 or 2, or stop reversing")
    async def done(interaction: discord.Interaction) -> None:
        await play(interaction, "done")

    @group.command(name="hand", description="Your kart card and saddlebag tiles, only for you")
    async def hand(interaction: discord.Interaction) -> None:
        problem = await channel_check(interaction)
        if problem is not None:
            await send_reply(interaction, problem)
            return
        rec, game, seat = await state(interaction)
        if game is None:
            await send_reply(interaction, refuse("The race hasn't started yet; `/game start` begins it."))
            return
        if seat is None:
            await send_reply(interaction, refuse("You have no kart in this race."))
            return
        view = game.view(seat)
        try:
            png = await asyncio.to_thread(FRONT.hand_picture, view, seat)  # type: ignore[attr-defined]
        except Exception:
            log.exception("drawing the kart card failed")
            png = None
        kart = view["karts"][seat]
        parts = ", ".join(f"{loc}: {part_name(p)}" for loc, p in sorted(kart.get("parts", {}).items(),
                                                                          key=lambda kv: int(kv[0])))
        fuel = kart.get("fuel") or {}
        text = (f"Your kart ({kart['colour']}): {tiles_text(kart)}. Parts: {parts or 'none'}. "
                f"Bottle tops: {kart.get('bottle_tops', 0)}. Fuel dice: {fuel.get('white', 0)} white, "
                f"{fuel.get('red', 0)} red.")
        await send_reply(interaction, Reply(text, ephemeral=True, png=png, filename="kart.png", game_id=rec.id))

    @group.command(name="buy", description="Phase 2 in a Pit Stop: buy a part and fit it")
    @app_commands.describe(part="The part; start typing for those you can buy here",
                           location="Where to fit it (2 to 9), when it fits several places")
    @app_commands.autocomplete(part=ac_buy_part, location=ac_buy_location)
    async def buy(interaction: discord.Interaction, part: str, location: str | None = None) -> None:
        pid = resolve_part(part or "") if isinstance(part, str) else None
        if pid is None:
            names = ", ".join(catalogue.parts())
            await bad(interaction, f"There is no part called {str(part)[:40]!r}; parts are: {names}.")
            return
        loc: int | None = None
        if location is not None and str(location).strip():
            if not str(location).strip().isdigit() or not 2 <= int(str(location).strip()) <= 9:
                await bad(interaction, "`location` is a number from 2 to 9.")
                return
            loc = int(str(location).strip())
        await play(interaction, str(act.Buy(pid, loc)))

    @group.command(name="return", description="Phase 2 in a Pit Stop: give back the part at a location")
    @app_commands.describe(location="The location (2 to 9) of the part")
    @app_commands.autocomplete(location=ac_return)
    async def return_(interaction: discord.Interaction, location: str) -> None:
        text = str(location or "").strip()
        if not text.isdigit() or not 2 <= int(text) <= 9:
            await bad(interaction, "`location` is a number from 2 to 9.")
            return
        await play(interaction, f"return {int(text)}")

    @group.command(name="refuel", description="Phase 2: trade a fuel tile for fuel dice")
    @app_commands.describe(fuel="white (Turbo Fuel) or red (Jet Fuel)")
    @app_commands.choices(fuel=[Choice(name="white (Turbo)", value="white"), Choice(name="red (Jet)", value="red")])
    async def refuel(interaction: discord.Interaction, fuel: str) -> None:
        if fuel not in ("white", "red"):
            await bad(interaction, "`fuel` is white or red.")
            return
        await play(interaction, f"refuel {fuel}")

    @group.command(name="trap", description="Phase 1: set a trap from your saddlebags next to your kart")
    @app_commands.describe(tile="glue, oil, acid, spring or time-bomb", cell="The cell to set it on",
                           arrow="Oil only: the way its arrow points")
    @app_commands.autocomplete(tile=ac_trap_kind, cell=ac_trap_cell, arrow=ac_trap_arrow)
    async def trap(interaction: discord.Interaction, tile: str, cell: str, arrow: str | None = None) -> None:
        kind = act.TILE_ALIASES.get(str(tile).strip().lower(), str(tile).strip().lower())
        if kind not in act.TRAP_KINDS:
            await bad(interaction, f"{str(tile)[:30]!r} is not a trap; traps are {', '.join(act.TRAP_KINDS)}.")
            return
        label = await cell_of(interaction, "cell", cell)
        if label is None:
            return
        if arrow is not None and str(arrow).strip().upper() not in FACINGS:
            await bad(interaction, f"`arrow` is one of {', '.join(FACINGS)}.")
            return
        text = f"trap {kind} {label}" + (f" {str(arrow).strip().upper()}" if arrow else "")
        await play(interaction, text)

    def weapon_command(weapon: str, description: str) -> None:
        @group.command(name=weapon, description=description)
        @app_commands.describe(cell="The cell next to your kart to set it on",
                               target="A kart's colour, or the cell of a tile")
        @app_commands.autocomplete(cell=fire_ac(weapon, "cell"), target=fire_ac(weapon, "target"))
        async def fire(interaction: discord.Interaction, cell: str, target: str) -> None:
            label = await cell_of(interaction, "cell", cell)
            if label is None:
                return
            aim = str(target or "").strip().lower()
            if not aim.isalpha():
                aimed = await cell_of(interaction, "target", target)
                if aimed is None:
                    return
                aim = aimed
            elif aim not in catalogue.colours():
                await bad(interaction, f"`target` is a kart colour ({', '.join(catalogue.colours())}) or a cell.")
                return
            await play(interaction, f"{weapon} {label} {aim}")

        fire.__name__ = weapon

    weapon_command("magnet", "Phase 1: set a Magnet next to you and pull a kart onto it")
    weapon_command("missile", "Phase 1: launch a Missile at a kart or a tile")
    weapon_command("bomb", "Phase 1: roll a Bomb in a straight line at a kart or a tile")

    def gadget_command(use: str, description: str) -> None:
        @group.command(name=use, description=description)
        @app_commands.describe(target="The colour of an adjacent kart")
        @app_commands.autocomplete(target=gadget_ac(use))
        async def gadget(interaction: discord.Interaction, target: str) -> None:
            aim = str(target or "").strip().lower()
            if aim not in catalogue.colours():
                await bad(interaction, f"`target` is a kart colour: {', '.join(catalogue.colours())}.")
                return
            await play(interaction, f"{use} {aim}")

        gadget.__name__ = use

    gadget_command("snatch", "Phase 1, Bomb Catcher: try to take a tile from an adjacent kart")
    gadget_command("smash", "Phase 1, Missile Deflector: try to smash a part of an adjacent kart")

    @group.command(name="swap", description="Phase 2, team racing: give or take a tile or a part")
    @app_commands.describe(what="Like `blue give oil` or `blue take part 3`; start typing for the legal ones")
    @app_commands.autocomplete(what=ac_swap)
    async def swap(interaction: discord.Interaction, what: str) -> None:
        text = await option_text(interaction, "what", what, limit=60)
        if text is None:
            return
        await play(interaction, f"swap {text}")

    @group.command(name="choose", description="Answer the question the race is asking you")
    @app_commands.describe(option="Your answer; start typing for the options")
    @app_commands.autocomplete(option=ac_choose)
    async def choose(interaction: discord.Interaction, option: str) -> None:
        text = await option_text(interaction, "option", option, limit=20)
        if text is None:
            return
        if text is None or " " in text:
            await bad(interaction, "`option` is one word, like `NE`, `F7` or `2`.")
            return
        await play(interaction, f"choose {text}")

    @group.command(name="bag", description="Move a tile from one of your saddlebags to another")
    @app_commands.describe(move="Tile, from, to: like `oil 7 4`; start typing for the legal ones")
    @app_commands.autocomplete(move=ac_bag)
    async def bag(interaction: discord.Interaction, move: str) -> None:
        text = await option_text(interaction, "move", move, limit=40)
        if text is None:
            return
        await play(interaction, f"bag {text}")

    def flip_command(face_up: bool) -> None:
        name = "show" if face_up else "hide"
        description = "Turn a tile of yours face up for all to see" if face_up else "Turn a shown tile face down again"

        @group.command(name=name, description=description)
        @app_commands.describe(tile="The kind of tile")
        @app_commands.autocomplete(tile=flip_ac(face_up))
        async def flip(interaction: discord.Interaction, tile: str) -> None:
            kind = act.TILE_ALIASES.get(str(tile).strip().lower(), str(tile).strip().lower())
            if kind not in catalogue.JUNK_KINDS:
                await bad(interaction, f"`tile` is one of {', '.join(catalogue.JUNK_KINDS)}.")
                return
            await play(interaction, f"{name} {kind}")

        flip.__name__ = name

    flip_command(True)
    flip_command(False)
    return group


__all__ = ["FRONT", "RaceFront", "destinations", "fuzzy", "legal", "make_group", "step_word"]
