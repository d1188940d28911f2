"""Schrottplatz Rally at the terminal, in the demo and in ``/game status``: the short list of moves,
shorthands, where the turn stands, the car board as text, the standings (S8) and the progress line."""

from __future__ import annotations

from typing import Any

from bot.games.rally.moves import (
    best_items,
    can_boost,
    can_repair,
    choice_hint,
    choices,
    kept_range,
    range_hint,
    range_word,
    ranges,
)
from bot.games.unit import Standings
from rules.literal import Name
from rules.rally import board as B
from rules.rally import queries
from rules.rally.actions import Park, Roll, parse_syntax
from rules.rally.game import RallyGame
from rules.rally.texts import CATALOGUE, COLOUR_KEYS, amount, say, word

BAR = 10
_RANGE_KEYS = {"g": "green", "y": "yellow", "r": "red", "green": "green", "yellow": "yellow", "red": "red",
               "grün": "green", "gelb": "yellow", "rot": "red"}
_BOOST_WORDS = ("boost", "b", "+", "booster")


def who(game: RallyGame, seat: int, lang: str = "en") -> str:
    """``Red (Ann)``: the car's colour and its player."""
    return say("who", lang, car=COLOUR_KEYS[seat], name=game.names[seat])


def place_words(game: RallyGame, seat: int, lang: str = "en") -> str:
    """Where a car stands, in words: a cell, the pit lane, the stop sign or a parking spot."""
    car = game.cars[seat]
    if car.at == "pit":
        return say("t_at_pit", lang)
    if car.at == "stop":
        return say("t_at_stop", lang)
    if queries.is_spot(car.at):
        return say("t_at_parked", lang, spot=car.at, service=queries.spot_kind(game, car.at))
    return car.at


def short_list(game: RallyGame, lang: str = "en") -> list[tuple[str, str]]:
    """Before the roll: each range the lever may take (with which of its gears work) and the same with the
    booster, then repair; after it: every destination, best first, a car park with the placement that helps
    most (``legal`` lists the other placements)."""
    acts = list(game.legal_actions())
    out: list[tuple[str, str]] = []
    if game.phase == "move":
        for c in choices(game, acts):
            out.append((c.action, choice_hint(game, c, lang)))
        return out
    fuel = game.cars[game.turn].fuel
    for r in ranges(acts):
        out.append((str(Roll(r)), range_hint(game, r, lang)))
    if can_boost(acts):
        for r in ranges(acts):
            out.append((str(Roll(r, True)), say("t_boost_hint", lang, fuel=fuel)))
    if can_repair(acts):
        out.append(("repair", say("t_repair_hint", lang)))
    return out


def situation(game: RallyGame, lang: str = "en") -> str:
    """Where the turn stands: to roll (with the lever), to drive N cells, or a repair due."""
    if game.is_over:
        return ""
    car = game.cars[game.turn]
    if game.phase == "move":
        gear = game.points or 0  # a gear moves as many cells as its number (S2)
        msg = "t_sit_drive" + ("_rolled" if game.roll is not None else "") + \
            ("_boost" if game.boost == "pending" else "")
        return say(msg, lang, round=game.round, die=game.roll, gear=gear, range=B.range_of(gear),
                   points=game.points)
    if car.repair == 1:
        return say("t_sit_repair", lang, round=game.round)
    allowed = ranges(game.legal_actions())
    return say("t_sit_roll_green" if allowed == ["green"] else "t_sit_roll", lang, round=game.round, lever=car.lever)


def expand(game: RallyGame, text: str) -> str:
    """Shorthands: ``y`` or ``yellow`` rolls yellow, ``y+``/``y b`` with the booster, ``roll`` and ``boost``
    keep the lever (green when it may not stay); the Discord commands' words work too: ``shift yellow`` is
    ``roll yellow``, ``boost yellow`` is ``roll yellow boost``; a spot alone, or ``park SPOT`` without
    placements, parks there with the placement that helps most. Anything else is the notation itself."""
    if game.is_over:
        return text
    short = _shorthand(text)
    if short is None:
        return text
    kind, value, boost = short
    if kind == "range":
        return str(Roll(value, boost))
    if kind == "keep":
        return str(Roll(kept_range(game, game.legal_actions()), boost))
    for a in game.legal_actions():
        if isinstance(a, Park) and a.spot.lower() == value:
            return str(Park(a.spot, best_items(game, game.turn, a.spot)))
    return text


def read_ahead(game: RallyGame, text: str) -> str:
    """A plan item read before its player's turn: a range's roll as the notation (``y+`` is ``roll yellow
    boost``); ``roll`` (``roll boost``) keeping the lever and ``park SPOT`` kept, to be worked out from the
    planner's own car on their turn; else the notation alone (a path stays a path: it is checked against the
    planner's car when it plays). Raises the notation's refusal for anything else."""
    short = _shorthand(text)
    if short is None:
        return str(parse_syntax(text))
    kind, value, boost = short
    if kind == "range":
        return str(Roll(value, boost))
    if kind == "keep":
        return "roll boost" if boost else "roll"
    return str(parse_syntax(f"park {value}"))


def _shorthand(text: str) -> tuple[str, str, bool] | None:
    """What a shorthand says without the game: ``("range", colour, boost)``, ``("keep", "", boost)`` (roll
    keeping the lever) or ``("spot", spot, False)`` (park there); None when it is none."""
    words = text.lower().replace("+", " +").split()
    if not words:
        return None
    if words[0] == "shift":
        words = words[1:] or ["roll"]
    elif words[0] == "boost" and len(words) > 1:
        words = [*words[1:], "boost"]
    boost = len(words) > 1 and words[-1] in _BOOST_WORDS
    head = words[:-1] if boost else words
    if len(head) == 1 and head[0] in _RANGE_KEYS:
        return "range", _RANGE_KEYS[head[0]], boost
    if head == ["roll"] or words == ["boost"]:
        return "keep", "", boost or words == ["boost"]
    spot = head[-1] if head and head[0] in ("park", "p") and len(head) == 2 else head[0] if len(head) == 1 else ""
    return ("spot", spot, False) if "." in spot else None




def car_text(game: RallyGame, seat: int, lang: str = "en") -> str:
    """A car board in words, in ``lang``: lever, the six gears (which work), fuel, counters and the
    reserve (S7)."""
    car = game.cars[seat]
    gears = " ".join(f"{g}:{car.gears[g - 1] or '-'}{'✓' if B.works(car.gears[g - 1]) else ''}" for g in B.GEARS)
    reserve = car.reserve()
    notes = []
    if car.repair == 1:
        notes.append(CATALOGUE.say("car.repair1", lang))
    elif car.repair == 2:
        notes.append(CATALOGUE.say("car.repair2", lang))
    elif car.restart:
        notes.append(CATALOGUE.say("car.restart", lang))
    tail = f" ({'; '.join(notes)})" if notes else ""
    at = place_words(game, seat) if lang == "en" else car.at
    return CATALOGUE.say(
        "car.board", lang,
        who=who(game, seat, lang), at=at, laps=laps_text(game, seat), lever=range_word(car.lever, lang), tail=tail,
        gears=gears, fuel=car.fuel, stops=car.stops,
        reserve=", ".join(amount(reserve[k], k, lang) for k in ("mechanic", "body", "engine", "fuel")))


def laps_text(game: RallyGame, seat: int) -> str:
    return f"{min(queries.laps_done(game, seat), game.laps)}/{game.laps}"




def status_text(game: RallyGame, viewer: int | None, lang: str = "en") -> str:
    """``/game status`` and the last board: the race, every car in the order of the standings (S8), the
    turn order and the parking bar (S9), and what the player to act must do (with the commands for it
    when ``viewer`` is that player)."""
    direction = word("clockwise" if game.clockwise else "anticlockwise", lang)
    head = say("p_header", lang, round=game.round, laps=game.laps, count=game.laps, direction=direction)
    lines = [CATALOGUE.say("status.head", lang, title=game.title, track=Name(game.track.name),
                           alias=game.track.alias, header=head, move=CATALOGUE.say("status.move", lang, ply=game.ply))]
    for rank, s in enumerate(game.standings(), 1):
        car = game.cars[s]
        works = " ".join(str(n) for n in B.GEARS if B.works(car.gears[n - 1])) or "–"
        done = min(queries.laps_done(game, s), game.laps)  # laps done, as every text and picture counts them
        notes = [say("p_lap", lang, lap=done, laps=game.laps, stops=car.stops), say("p_at", lang, place=car.at),
                 f"{say('p_lever', lang)} {range_word(car.lever, lang)}",
                 f"{CATALOGUE.say('status.gears', lang)} {works}", f"{CATALOGUE.say('status.fuel', lang)} {car.fuel}"]
        if car.parked is not None:
            notes.append(say("p_parked", lang))
        if car.repair == 1:
            notes.append(say("p_repair_due", lang))
        lines.append(f"{rank}. {who(game, s, lang)}: " + " · ".join(notes))
    if game.is_over:
        lines.append(say("p_wins", lang, name=who(game, game.winners[0], lang)) + " "
                     + CATALOGUE.say("status.s8", lang))
        return "\n".join(lines)
    driving = [s for s in game.order if game.cars[s].parked is None]
    parked = [s for s in game.order if game.cars[s].parked is not None]
    bar = say("p_order", lang).capitalize() + ": " + ", ".join(word(COLOUR_KEYS[s], lang) for s in driving)
    if parked:
        bar += " · " + say("p_parking", lang).capitalize() + ": " + \
            ", ".join(word(COLOUR_KEYS[s], lang) for s in parked)
    lines.append(bar)
    lines.append(_to_act(game, lang))
    if viewer is not None and viewer == game.turn:
        acts = game.legal_actions()
        if game.phase == "turn":
            verbs = ["roll", "shift"] + (["boost"] if can_boost(acts) else []) + (["repair"] if can_repair(acts)
                                                                                   else [])
        else:
            verbs = sorted({str(a).split()[0] for a in acts})
        lines.append(CATALOGUE.say("status.commands", lang) + " " + ", ".join(f"`/rally {v}`" for v in verbs))
    return "\n".join(lines)


def _to_act(game: RallyGame, lang: str) -> str:
    name = who(game, game.turn, lang)
    if game.phase == "move":
        msg = "p_drive_boost" if game.boost == "pending" else "p_drive"
        return say(msg, lang, name=name, points=game.points)
    return say("p_repair" if game.cars[game.turn].repair == 1 else "p_roll", lang, name=name)


def standings(game: RallyGame, lang: str = "en") -> Standings:
    """S8: the winner, then laps done, fewer stops, position on the track."""
    rows: list[tuple[int, tuple[str, ...]]] = []
    for s in game.standings():
        car = game.cars[s]
        rows.append((s, (game.names[s], word(COLOUR_KEYS[s], lang).lower(), laps_text(game, s),
                         str(car.stops), place_words(game, s, lang))))
    return Standings(tuple(say(f"t_head_{h}", lang) for h in ("name", "car", "laps", "stops", "at")), rows)


def progress_line(game: RallyGame, lang: str = "en") -> tuple[str, Any]:
    """A bar per car: how far through the whole race it is, its laps and its stops."""
    total = max(1, game.laps * game.track.length)
    parts = []
    for s, car in enumerate(game.cars):
        share = min(1.0, max(0.0, car.progress / total))
        filled = round(share * BAR)
        parts.append(f"{word(COLOUR_KEYS[s], lang).lower()} [{'#' * filled}{'-' * (BAR - filled)}] "
                     f"{laps_text(game, s)} {say('p_bar_stops', lang, stops=car.stops)}")
    key = tuple((queries.laps_done(game, s), c.stops) for s, c in enumerate(game.cars))
    return say("p_move", lang, move=f"{game.ply:>4}") + "  " + "  ".join(parts), key


__all__ = [
    "car_text",
    "expand",
    "laps_text",
    "place_words",
    "progress_line",
    "short_list",
    "situation",
    "standings",
    "status_text",
    "who",
]
