"""Junkyard Races' setup: what ``/game new`` (track, team racing, crew, laps) and ``/game join`` (colour,
team, crew character and starting set) offer, and how each is checked (refusals and notes in the language
asked for)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.races import texts
from bot.games.races.moves import resolve_crew
from bot.games.unit import Ask, Option, fuzzy
from rules.contract import SetupError
from rules.races import catalogue
from rules.races.track import builtin_tracks, get_track
from rules.races.track import track_choices as known_tracks

LAPS = (1, 5)


def track_choices(ask: Ask) -> list[tuple[str, str]]:
    pairs = []
    for t in sorted(builtin_tracks().values(), key=lambda t: t.alias or t.name):
        alias = f" ({t.alias})" if t.alias and t.alias != t.name else ""
        pairs.append((f"{t.name}{alias}", t.name))
        if t.alias and t.alias != t.name:
            pairs.append((f"{t.alias}: {t.name}", t.alias))
    return fuzzy(pairs, ask.current)


def colour_choices(ask: Ask) -> list[tuple[str, str]]:
    used = {t.get("colour") for t in ask.taken}
    return fuzzy([(_named(texts.colour(c, ask.lang), c), c) for c in catalogue.colours() if c not in used],
                 ask.current)


def _named(word: str, value: str) -> str:
    """A choice's name in the asker's words, with the value typed when they differ (``rot (red)``)."""
    return word if word.lower() == value.lower() else f"{word} ({value})"


def character_choices(ask: Ask) -> list[tuple[str, str]]:
    used = {t.get("crew") for t in ask.taken}
    return fuzzy([(m.name, cid) for cid, m in catalogue.crew().items() if cid not in used], ask.current)


NEW_OPTIONS = (
    Option("track", "Track or board", complete=track_choices),
    Option("teams", "Team racing", "flag"),
    Option("crew", "Play with crew characters and starting sets", "flag"),
    Option("laps", "Laps, 1 to 5", "integer", low=LAPS[0], high=LAPS[1]),
)
JOIN_OPTIONS = (
    Option("colour", "Your colour", complete=colour_choices),
    Option("team", "Your team number", "integer", low=1, high=8),
    Option("character", "Your crew character", complete=character_choices),
    Option("set", "Your crew starting set", "integer", low=1, high=2),
)


def setup_options(raw: Mapping[str, Any], lang: str = "en") -> dict[str, Any]:
    """The race's options from the ``/game new`` options given: a known track (A by default), team racing,
    the crew, 1 to 5 laps."""
    opts: dict[str, Any] = {}
    if raw.get("track") is not None:
        try:
            opts["track"] = get_track(str(raw["track"])).name
        except KeyError:
            raise SetupError(texts.say("setup.track", lang, given=repr(str(raw["track"])[:30]),
                                       tracks=", ".join(known_tracks()))) from None
    else:
        opts["track"] = get_track("A").name
    for name in ("teams", "crew"):
        if raw.get(name) is not None:
            opts[name] = bool(raw[name])
    if raw.get("laps") is not None:
        laps = raw["laps"]
        if isinstance(laps, bool) or not isinstance(laps, int) or not LAPS[0] <= laps <= LAPS[1]:
            raise SetupError(texts.say("setup.laps", lang, low=LAPS[0], high=LAPS[1], given=repr(laps)))
        opts["laps"] = laps
    return opts


def seat_options(raw: Mapping[str, Any], setup: Mapping[str, Any], taken: Sequence[Mapping[str, Any]],
                 lang: str = "en") -> tuple[dict[str, Any], list[str]]:
    """A kart's colour (free, known), team (team racing only), crew member and starting set (crew only)."""
    seat: dict[str, Any] = {}
    notes: list[str] = []
    if raw.get("colour") is not None:
        seat["colour"] = _colour(str(raw["colour"]), taken, lang)
    if raw.get("team") is not None:
        if setup.get("teams"):
            seat["team"] = int(raw["team"])
        else:
            notes.append(texts.say("setup.team_ignored", lang))
    crew_given = raw.get("character") is not None or raw.get("set") is not None
    if crew_given and not setup.get("crew"):
        notes.append(texts.say("setup.crew_ignored", lang))
    elif crew_given:
        if raw.get("character") is not None:
            seat["crew"] = _character(str(raw["character"]), taken, lang)
        if raw.get("set") is not None:
            if raw["set"] not in (1, 2):
                raise SetupError(texts.say("setup.set", lang))
            seat["crew_set"] = int(raw["set"])
    return seat, notes


def _colour(given: str, taken: Sequence[Mapping[str, Any]], lang: str = "en") -> str:
    colour = given.strip().lower()
    colours = catalogue.colours()
    if colour not in colours:
        raise SetupError(texts.say("setup.not_colour", lang, given=repr(given), colours=", ".join(colours)))
    if any(t.get("colour") == colour for t in taken):
        free = [c for c in colours if all(t.get("colour") != c for t in taken)]
        raise SetupError(texts.say("setup.colour_taken", lang, colour=colour, free=", ".join(free)))
    return colour


def _character(given: str, taken: Sequence[Mapping[str, Any]], lang: str = "en") -> str:
    cid = resolve_crew(given)
    if cid is None:
        names = ", ".join(m.name for m in catalogue.crew().values())
        raise SetupError(texts.say("setup.not_crew", lang, given=repr(given), names=names))
    if any(t.get("crew") == cid for t in taken):
        raise SetupError(texts.say("setup.crew_taken", lang, name=catalogue.crew()[cid].name))
    return cid
