"""The ``/race`` command group as data: one command per kind of action, each option with its type, range
and autocomplete source, and how the options make the action's notation. Everything offered comes from
the engine's ``legal_actions()``; what a command builds is checked by the engine again when it is played.
Refusals and the names of choices speak the asker's language (``Ask.lang``); values stay notation.
"""

from __future__ import annotations

from typing import Any

from bot.games import options as opt
from bot.games.races import texts
from bot.games.races.moves import FACINGS, destinations, part_name, prompt, resolve_part, step_word
from bot.games.unit import Ask, Command, CommandGroup, Option, Refusal, fuzzy
from rules.hexgrid import parse_label
from rules.races import actions as act
from rules.races import catalogue

# Reading options -------------------------------------------------------------------------------------


def _bounds(ask: Ask) -> tuple[int | None, int | None]:
    track = getattr(ask.game, "track", None)
    return (track.columns, track.rows) if track is not None else (None, None)


def _refuse(ask: Ask, msg: str, **params: Any) -> Refusal:
    """A refusal worded in the asker's language."""
    return Refusal(texts.say(msg, ask.lang, **params))


def _option(ask: Ask, command: str, name: str) -> str:
    """An option's name as the asker's Discord shows it (``location``; German ``platz``)."""
    return texts.command_name(f"race {command} {name}", ask.lang)


def _why(ask: Ask, exc: Exception, given: Any) -> str:
    """Why a text is not a cell: the reader's own words in English, in another language that it is none."""
    if texts.lang_of(ask.lang) == "en":
        return str(exc)
    return texts.say("refuse.not_a_cell", ask.lang, given=repr(str(given or ""))[:40])


def cell_of(ask: Ask, name: str, command: str = "") -> str:
    """A cell label checked against the track; refuses what is not one."""
    try:
        text = opt.text(name, ask.values.get(name), required=True, limit=8)
        assert text is not None
        return parse_label(text, *_bounds(ask)).label
    except (opt.BadOption, ValueError) as exc:
        raise _refuse(ask, "refuse.cell", option=_option(ask, command, name) if command else name,
                      error=_why(ask, exc, ask.values.get(name))) from None


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
            raise _refuse(ask, "refuse.path", option=_option(ask, "move", "to"), error=_why(ask, exc, c)) from None
    if len(cells) == 1 and ask.game is not None:
        whole = destinations(ask.game, ask.legal).get(cells[0].upper())
        if whole is not None:
            return str(whole) + _leave(ask)
    return "move " + " ".join(c.upper() for c in cells) + _leave(ask)


def _step(ask: Ask) -> str:
    low = ask.value("way").strip().lower()
    if low in act.RELATIVE_STEPS:
        return f"step {low}" + _leave(ask)
    return f"step {cell_of(ask, 'way', 'step')}" + _leave(ask)


def _leave(ask: Ask) -> str:
    """R18: the notation's last word when the player chose to leave the junk tiles on the way."""
    return f" {act.LEAVE}" if ask.values.get("leave") else ""


#: R18: picking up is optional, chosen with the move (never asked at each tile).
LEAVE_OPTION = Option("leave", "Leave the face-down junk tiles on the way where they lie (default: pick them up)",
                      "flag")


def _location(ask: Ask, command: str) -> int:
    text = ask.value("location")
    if not text.strip().isdigit() or not 2 <= int(text.strip()) <= 9:
        raise _refuse(ask, "refuse.location", option=_option(ask, command, "location"))
    return int(text.strip())


def _buy(ask: Ask) -> str:
    part = ask.value("part")
    pid = resolve_part(part)
    if pid is None:
        raise _refuse(ask, "refuse.no_part", given=repr(part[:40]), parts=", ".join(catalogue.parts()))
    where = ask.value("location")
    return str(act.Buy(pid, _location(ask, "buy") if where.strip() else None))


def _trap(ask: Ask) -> str:
    tile = ask.value("tile")
    kind = _tile_kind(tile)
    if kind not in act.TRAP_KINDS:
        raise _refuse(ask, "refuse.not_trap", given=repr(tile[:30]), traps=", ".join(act.TRAP_KINDS))
    label = cell_of(ask, "cell", "trap")
    arrow = ask.value("arrow").strip().upper()
    if arrow and arrow not in FACINGS:
        raise _refuse(ask, "refuse.arrow", option=_option(ask, "trap", "arrow"), facings=", ".join(FACINGS))
    return f"trap {kind} {label}" + (f" {arrow}" if arrow else "")


def _fire(weapon: str) -> Any:
    def build(ask: Ask) -> str:
        label = cell_of(ask, "cell", weapon)
        aim = ask.value("target").strip().lower()
        if not aim.isalpha():
            aim = cell_of(ask, "target", weapon)
        elif aim not in catalogue.colours():
            raise _refuse(ask, "refuse.target", option=_option(ask, weapon, "target"),
                          colours=", ".join(catalogue.colours()))
        return f"{weapon} {label} {aim}"

    return build


def _gadget(use: str) -> Any:
    def build(ask: Ask) -> str:
        aim = ask.value("target").strip().lower()
        if aim not in catalogue.colours():
            raise _refuse(ask, "refuse.kart", option=_option(ask, use, "target"),
                          colours=", ".join(catalogue.colours()))
        return f"{use} {aim}"

    return build


def _choose(ask: Ask) -> str:
    text = ask.value("option")
    if " " in text:
        raise _refuse(ask, "refuse.one_word", option=_option(ask, "choose", "option"))
    return f"choose {text}"


def _flip(verb: str) -> Any:
    def build(ask: Ask) -> str:
        kind = _tile_kind(ask.value("tile"))
        if kind not in catalogue.JUNK_KINDS:
            raise _refuse(ask, "refuse.tile", option=_option(ask, verb, "tile"), kinds=", ".join(catalogue.JUNK_KINDS))
        return f"{verb} {kind}"

    return build


def _words(verb: str, option: str) -> Any:
    return lambda ask: f"{verb} {ask.value(option)}"


# Autocomplete sources: each from the asker's legal actions -------------------------------------------


def ac_move(ask: Ask) -> list[tuple[str, str]]:
    if ask.game is None:
        return []
    pairs = [(texts.say("choice.via", ask.lang, cell=cell, path=str(m).removeprefix("move ")), cell)
             for cell, m in destinations(ask.game, ask.legal).items()]
    return fuzzy(pairs, ask.current)


def ac_step(ask: Ask) -> list[tuple[str, str]]:
    pairs = []
    for a in _of(ask, act.Step):
        if a.cell is not None and not a.leave:
            word = step_word(ask.game, a)
            way = texts.way(word, ask.lang) if word else ""
            pairs.append((f"{a.cell.label} ({way})" if word else a.cell.label, a.cell.label))
            if word:
                pairs.append((f"{way} ({a.cell.label})", word))
    return fuzzy(pairs, ask.current)


def ac_buy_part(ask: Ask) -> list[tuple[str, str]]:
    seen: dict[str, str] = {}
    for a in _of(ask, act.Buy):
        spec = catalogue.parts().get(a.part)
        seen.setdefault(a.part, texts.say("choice.part", ask.lang, count=spec.cost, name=part_name(a.part, ask.lang))
                        if spec else a.part)
    return fuzzy([(n, pid) for pid, n in seen.items()], ask.current)


def ac_buy_location(ask: Ask) -> list[tuple[str, str]]:
    part = resolve_part(ask.value("part"))
    locs = sorted({a.location for a in _of(ask, act.Buy) if a.location is not None
                   and (part is None or a.part == part)})
    return fuzzy([(texts.say("choice.location", ask.lang, location=loc), str(loc)) for loc in locs], ask.current)


def ac_return(ask: Ask) -> list[tuple[str, str]]:
    game: Any = ask.game
    kart = game.karts[game.turn.seat] if game is not None else None
    pairs = [(f"{a.location}: {part_name(kart.parts.get(a.location, '?'), ask.lang) if kart else ''}", str(a.location))
             for a in _of(ask, act.Return)]
    return fuzzy(pairs, ask.current)


def _kind_choice(ask: Ask, kind: str) -> tuple[str, str]:
    """A tile kind to choose: its name in the asker's language, and the notation when that differs."""
    name = texts.tile(kind, ask.lang)
    return (kind if name.replace(" ", "-") == kind else f"{name} ({kind})"), kind


def ac_trap_kind(ask: Ask) -> list[tuple[str, str]]:
    return fuzzy([_kind_choice(ask, k) for k in sorted({a.kind for a in _of(ask, act.PlaceTrap)})], ask.current)


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
    asked = prompt(game, ask.lang) if game is not None else ""
    pairs = [(f"{a.option} ({asked})" if asked else a.option, a.option) for a in _of(ask, act.Choose)]
    return fuzzy(pairs, ask.current)


def ac_bag(ask: Ask) -> list[tuple[str, str]]:
    pairs = [(texts.say("choice.bag", ask.lang, kind=texts.tile(a.kind, ask.lang), source=a.source, dest=a.dest),
              f"{a.kind} {a.source} {a.dest}") for a in _of(ask, act.BagMove)]
    return fuzzy(pairs, ask.current)


def ac_flip(face_up: bool) -> Any:
    return lambda ask: fuzzy([_kind_choice(ask, a.kind) for a in _of(ask, act.Flip) if a.face_up == face_up],
                             ask.current)


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
    no_game="command.no_race",
    not_started="command.not_started",
    no_seat="command.no_kart",
    words=texts.say,
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
            play=lambda ask: f"return {_location(ask, 'return')}"),
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
