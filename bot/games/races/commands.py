"""The ``/race`` command group as data: one command per kind of action, each option with its type, range
and autocomplete source, and how the options make the action's notation. Everything offered comes from
the engine's ``legal_actions()``; what a command builds is checked by the engine again when it is played.
"""

from __future__ import annotations

from typing import Any

from bot.games import options as opt
from bot.games.races.moves import FACINGS, destinations, part_name, resolve_part, step_word
from bot.games.unit import Ask, Command, CommandGroup, Option, Refusal, fuzzy
from rules.hexgrid import parse_label
from rules.races import actions as act
from rules.races import catalogue

# Reading options -------------------------------------------------------------------------------------


def _bounds(ask: Ask) -> tuple[int | None, int | None]:
    track = getattr(ask.game, "track", None)
    return (track.columns, track.rows) if track is not None else (None, None)


def cell_of(ask: Ask, name: str) -> str:
    """A cell label checked against the track; refuses what is not one."""
    try:
        text = opt.text(name, ask.values.get(name), required=True, limit=8)
        assert text is not None
        return parse_label(text, *_bounds(ask)).label
    except (opt.BadOption, ValueError) as exc:
        raise Refusal(f"`{name}`: {exc}. A cell is a column and a row, like `F7`.") from None


def _of(ask: Ask, kind: type) -> list[Any]:
    return [a for a in ask.legal if isinstance(a, kind)]


def _tile_kind(text: str) -> str:
    low = text.strip().lower()
    return act.TILE_ALIASES.get(low, low)


# Building the notation -------------------------------------------------------------------------------


def _roll(ask: Ask) -> str:
    return str(act.Roll(ask.values.get("green") or 1, ask.values.get("white") or 0, ask.values.get("red") or 0))


def _move(ask: Ask) -> str:
    cells = ask.value("to").replace(",", " ").replace("-", " ").split()
    for c in cells:
        try:
            parse_label(c, *_bounds(ask))
        except ValueError as exc:
            raise Refusal(f"`to`: {exc}. Name cells like `F7`, or a path like `F7 G7 H8`.") from None
    if len(cells) == 1 and ask.game is not None:
        whole = destinations(ask.game, ask.legal).get(cells[0].upper())
        if whole is not None:
            return str(whole) + _leave(ask)
    return "move " + " ".join(c.upper() for c in cells) + _leave(ask)


def _step(ask: Ask) -> str:
    low = ask.value("way").strip().lower()
    if low in act.RELATIVE_STEPS:
        return f"step {low}" + _leave(ask)
    return f"step {cell_of(ask, 'way')}" + _leave(ask)


def _leave(ask: Ask) -> str:
    """R18: the notation's last word when the player chose to leave the junk tiles on the way."""
    return f" {act.LEAVE}" if ask.values.get("leave") else ""


#: R18: picking up is optional, chosen with the move (never asked at each tile).
LEAVE_OPTION = Option("leave", "Leave the face-down junk tiles on the way where they lie (default: pick them up)",
                      "flag")


def _location(text: str) -> int:
    if not text.strip().isdigit() or not 2 <= int(text.strip()) <= 9:
        raise Refusal("`location` is a number from 2 to 9.")
    return int(text.strip())


def _buy(ask: Ask) -> str:
    part = ask.value("part")
    pid = resolve_part(part)
    if pid is None:
        raise Refusal(f"There is no part called {part[:40]!r}; parts are: {', '.join(catalogue.parts())}.")
    where = ask.value("location")
    return str(act.Buy(pid, _location(where) if where.strip() else None))


def _trap(ask: Ask) -> str:
    tile = ask.value("tile")
    kind = _tile_kind(tile)
    if kind not in act.TRAP_KINDS:
        raise Refusal(f"{tile[:30]!r} is not a trap; traps are {', '.join(act.TRAP_KINDS)}.")
    label = cell_of(ask, "cell")
    arrow = ask.value("arrow").strip().upper()
    if arrow and arrow not in FACINGS:
        raise Refusal(f"`arrow` is one of {', '.join(FACINGS)}.")
    return f"trap {kind} {label}" + (f" {arrow}" if arrow else "")


def _fire(weapon: str) -> Any:
    def build(ask: Ask) -> str:
        label = cell_of(ask, "cell")
        aim = ask.value("target").strip().lower()
        if not aim.isalpha():
            aim = cell_of(ask, "target")
        elif aim not in catalogue.colours():
            raise Refusal(f"`target` is a kart colour ({', '.join(catalogue.colours())}) or a cell.")
        return f"{weapon} {label} {aim}"

    return build


def _gadget(use: str) -> Any:
    def build(ask: Ask) -> str:
        aim = ask.value("target").strip().lower()
        if aim not in catalogue.colours():
            raise Refusal(f"`target` is a kart colour: {', '.join(catalogue.colours())}.")
        return f"{use} {aim}"

    return build


def _choose(ask: Ask) -> str:
    text = ask.value("option")
    if " " in text:
        raise Refusal("`option` is one word, like `NE`, `F7` or `2`.")
    return f"choose {text}"


def _flip(verb: str) -> Any:
    def build(ask: Ask) -> str:
        kind = _tile_kind(ask.value("tile"))
        if kind not in catalogue.JUNK_KINDS:
            raise Refusal(f"`tile` is one of {', '.join(catalogue.JUNK_KINDS)}.")
        return f"{verb} {kind}"

    return build


def _words(verb: str, option: str) -> Any:
    return lambda ask: f"{verb} {ask.value(option)}"


# Autocomplete sources: each from the asker's legal actions -------------------------------------------


def ac_move(ask: Ask) -> list[tuple[str, str]]:
    if ask.game is None:
        return []
    pairs = [(f"{cell} (via {str(m).removeprefix('move ')})", cell)
             for cell, m in destinations(ask.game, ask.legal).items()]
    return fuzzy(pairs, ask.current)


def ac_step(ask: Ask) -> list[tuple[str, str]]:
    pairs = []
    for a in _of(ask, act.Step):
        if a.cell is not None and not a.leave:
            word = step_word(ask.game, a)
            pairs.append((f"{a.cell.label} ({word})" if word else a.cell.label, a.cell.label))
            if word:
                pairs.append((f"{word} ({a.cell.label})", word))
    return fuzzy(pairs, ask.current)


def ac_buy_part(ask: Ask) -> list[tuple[str, str]]:
    seen: dict[str, str] = {}
    for a in _of(ask, act.Buy):
        spec = catalogue.parts().get(a.part)
        seen.setdefault(a.part, f"{part_name(a.part)} ({spec.cost} bottle tops)" if spec else a.part)
    return fuzzy([(n, pid) for pid, n in seen.items()], ask.current)


def ac_buy_location(ask: Ask) -> list[tuple[str, str]]:
    part = resolve_part(ask.value("part"))
    locs = sorted({a.location for a in _of(ask, act.Buy) if a.location is not None
                   and (part is None or a.part == part)})
    return fuzzy([(f"location {loc}", str(loc)) for loc in locs], ask.current)


def ac_return(ask: Ask) -> list[tuple[str, str]]:
    game: Any = ask.game
    kart = game.karts[game.turn.seat] if game is not None else None
    pairs = [(f"{a.location}: {part_name(kart.parts.get(a.location, '?')) if kart else ''}", str(a.location))
             for a in _of(ask, act.Return)]
    return fuzzy(pairs, ask.current)


def ac_trap_kind(ask: Ask) -> list[tuple[str, str]]:
    return fuzzy([(k, k) for k in sorted({a.kind for a in _of(ask, act.PlaceTrap)})], ask.current)


def ac_trap_cell(ask: Ask) -> list[tuple[str, str]]:
    kind = _tile_kind(ask.value("tile"))
    cells = sorted({a.cell.label for a in _of(ask, act.PlaceTrap) if not kind or a.kind == kind})
    return fuzzy([(c, c) for c in cells], ask.current)


def ac_trap_arrow(ask: Ask) -> list[tuple[str, str]]:
    cell = ask.value("cell").upper()
    arrows = [a.arrow.name for a in _of(ask, act.PlaceTrap)
              if a.kind == "oil" and a.arrow is not None and (not cell or a.cell.label == cell)]
    return fuzzy([(f, f) for f in FACINGS if f in arrows], ask.current)


def ac_fire(weapon: str, field: str) -> Any:
    def complete(ask: Ask) -> list[tuple[str, str]]:
        fires = [a for a in _of(ask, act.Fire) if a.weapon == weapon]
        if field == "cell":
            target = ask.value("target").lower()
            vals = sorted({a.cell.label for a in fires if not target or a.target.lower() == target})
        else:
            cell = ask.value("cell").upper()
            vals = sorted({a.target for a in fires if not cell or a.cell.label == cell})
        return fuzzy([(v, v) for v in vals], ask.current)

    return complete


def ac_gadget(use: str) -> Any:
    return lambda ask: fuzzy([(a.target, a.target) for a in _of(ask, act.Gadget) if a.use == use], ask.current)


def ac_swap(ask: Ask) -> list[tuple[str, str]]:
    pairs = [(str(a).removeprefix("swap "), str(a).removeprefix("swap ")) for a in _of(ask, act.Swap)]
    return fuzzy(pairs, ask.current)


def ac_choose(ask: Ask) -> list[tuple[str, str]]:
    game: Any = ask.game
    prompt = game.choice.prompt if game is not None and game.choice is not None else ""
    pairs = [(f"{a.option} ({prompt})" if prompt else a.option, a.option) for a in _of(ask, act.Choose)]
    return fuzzy(pairs, ask.current)


def ac_bag(ask: Ask) -> list[tuple[str, str]]:
    pairs = [(f"{a.kind} from bag {a.source} to bag {a.dest}", f"{a.kind} {a.source} {a.dest}")
             for a in _of(ask, act.BagMove)]
    return fuzzy(pairs, ask.current)


def ac_flip(face_up: bool) -> Any:
    return lambda ask: fuzzy([(a.kind, a.kind) for a in _of(ask, act.Flip) if a.face_up == face_up], ask.current)


# The group -------------------------------------------------------------------------------------------

_CELL = "The cell next to your kart to set it on"
_TARGET = "A kart's colour, or the cell of a tile"


def _weapon(name: str, description: str) -> Command:
    return Command(name, description, (Option("cell", _CELL, required=True, complete=ac_fire(name, "cell")),
                                       Option("target", _TARGET, required=True, complete=ac_fire(name, "target"))),
                   play=_fire(name))


def _gadget_command(name: str, description: str) -> Command:
    return Command(name, description, (Option("target", "The colour of an adjacent kart", required=True,
                                              complete=ac_gadget(name)),), play=_gadget(name))


def _flip_command(face_up: bool) -> Command:
    name = "show" if face_up else "hide"
    description = "Turn a tile of yours face up for all to see" if face_up else "Turn a shown tile face down again"
    return Command(name, description, (Option("tile", "The kind of tile", required=True, complete=ac_flip(face_up)),),
                   play=_flip(name))


RACE_COMMANDS = CommandGroup(
    name="race",
    description="Drive your kart in this channel's Junkyard Races",
    no_game="There is no race in this channel. Start one with `/game new game:races`.",
    not_started="The race hasn't started yet; `/game start` begins it.",
    no_seat="You have no kart in this race.",
    commands=(
        Command("roll", "Phase 3: roll green dice, plus white (Turbo) or red (Jet) fuel dice", (
            Option("green", "Green dice, 1 to 3", "integer", required=True, low=1, high=3),
            Option("white", "White Turbo fuel dice (0 to 3)", "integer", low=0, high=3),
            Option("red", "Red Jet fuel dice (0 to 3)", "integer", low=0, high=3)), play=_roll),
        Command.fixed("reverse", "Phase 3: reverse 1 to 3 cells instead of rolling"),
        Command("move", "Drive to a cell using your whole roll, or along a path of cells", (
            Option("to", "An end cell (start typing for the legal ones) or a path like `F7 G7 H8`", required=True,
                   complete=ac_move), LEAVE_OPTION), play=_move),
        Command("step", "Phase 5: drive one cell: left, straight, right or a cell", (
            Option("way", "left, straight, right or a cell; start typing for the legal ones", required=True,
                   complete=ac_step), LEAVE_OPTION), play=_step),
        Command.fixed("done", "End Phase 1 or 2, or stop reversing"),
        Command("hand", "Your kart card and saddlebag tiles, only for you", look=True),
        Command("buy", "Phase 2 in a Pit Stop: buy a part and fit it", (
            Option("part", "The part; start typing for those you can buy here", required=True, complete=ac_buy_part),
            Option("location", "Where to fit it (2 to 9), when it fits several places", complete=ac_buy_location)),
            play=_buy),
        Command("return", "Phase 2 in a Pit Stop: give back the part at a location", (
            Option("location", "The location (2 to 9) of the part", required=True, complete=ac_return),),
            play=lambda ask: f"return {_location(ask.value('location'))}"),
        Command("refuel", "Phase 2: trade a fuel tile for fuel dice", (
            Option("fuel", "white (Turbo Fuel) or red (Jet Fuel)", required=True,
                   choices=(("white (Turbo)", "white"), ("red (Jet)", "red"))),),
            play=_words("refuel", "fuel")),
        Command("trap", "Phase 1: set a trap from your saddlebags next to your kart", (
            Option("tile", "glue, oil, acid, spring or time-bomb", required=True, complete=ac_trap_kind),
            Option("cell", "The cell to set it on", required=True, complete=ac_trap_cell),
            Option("arrow", "Oil only: the way its arrow points", complete=ac_trap_arrow)), play=_trap),
        _weapon("magnet", "Phase 1: set a Magnet next to you and pull a kart onto it"),
        _weapon("missile", "Phase 1: launch a Missile at a kart or a tile"),
        _weapon("bomb", "Phase 1: roll a Bomb in a straight line at a kart or a tile"),
        _gadget_command("snatch", "Phase 1, Bomb Catcher: try to take a tile from an adjacent kart"),
        _gadget_command("smash", "Phase 1, Missile Deflector: try to smash a part of an adjacent kart"),
        Command("swap", "Phase 2, team racing: give or take a tile or a part", (
            Option("what", "Like `blue give oil` or `blue take part 3`; start typing for the legal ones",
                   required=True, limit=60, complete=ac_swap),), play=_words("swap", "what")),
        Command("choose", "Answer the question the race is asking you", (
            Option("option", "Your answer; start typing for the options", required=True, limit=20,
                   complete=ac_choose),), play=_choose),
        Command("bag", "Move a tile from one of your saddlebags to another", (
            Option("move", "Tile, from, to: like `oil 7 4`; start typing for the legal ones", required=True, limit=40,
                   complete=ac_bag),), play=_words("bag", "move")),
        _flip_command(True),
        _flip_command(False),
    ),
)
