"""Schrottplatz Rally's setup: what ``/game new`` offers (track, laps, direction, one starting board for
every car) and what ``/game join`` offers (the player's own starting board: setup step 2 has each player
place their car's parts), with autocomplete, and how each value is checked on the server whatever the
client sent. Cars take their colours in seat order.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from functools import cache
from typing import Any

from bot.games.unit import Ask, Option, fuzzy
from rules.contract import SetupError
from rules.rally import board as B
from rules.rally.game import DEFAULT_LAPS
from rules.rally.texts import say, word
from rules.rally.track import builtin_tracks, find_track

LAPS = (1, 5)
DIRECTIONS = {"clockwise": "clockwise", "cw": "clockwise", "anticlockwise": "anticlockwise",
              "acw": "anticlockwise", "counterclockwise": "anticlockwise", "im uhrzeigersinn": "clockwise",
              "gegen den uhrzeigersinn": "anticlockwise"}


def track_choices(ask: Ask) -> list[tuple[str, str]]:
    pairs = []
    for t in sorted(builtin_tracks().values(), key=lambda t: t.alias):
        pairs.append((say("choice_track", ask.lang, count=t.length, alias=t.alias, name=t.name), t.alias))
    return fuzzy(pairs, ask.current)


def direction_choices(ask: Ask) -> list[tuple[str, str]]:
    pairs = []
    for value in ("clockwise", "anticlockwise"):
        shown = word(value, ask.lang)
        pairs.append((shown if shown == value else f"{shown} ({value})", value))
    return fuzzy(pairs, ask.current)


@cache
def starting_boards() -> tuple[str, ...]:
    """Every starting board with both mechanics and both pairs of parts each on a gear of its own and a
    working gear in every range (setup step 2), the default first."""
    out = [B.DEFAULT_BOARD]
    for working in itertools.combinations(B.GEARS, 4):
        for mech in itertools.combinations(working, 2):
            gears = [""] * 6
            for g in working:
                gears[g - 1] = "M" if g in mech else "BE"
            text = B.board_text(gears)
            if B.check_start_board(gears) is None and text not in out:
                out.append(text)
    return tuple(out)


def board_words(text: str, lang: str = "en") -> str:
    """A starting board and the gears that work in each range, as a choice names it in ``lang``."""
    gears = B.parse_board(text)
    parts = [f"{word(f'range.{r}', lang)} {'+'.join(str(g) for g in B.working_in(gears, r))}" for r in B.RANGES]
    msg = "choice_board_default" if text == B.DEFAULT_BOARD else "choice_board"
    return say(msg, lang, board=text, gears=", ".join(parts))


def board_choices(ask: Ask) -> list[tuple[str, str]]:
    return fuzzy([(board_words(b, ask.lang), b) for b in starting_boards()], ask.current)


def checked_board(value: Any, name: str = "board") -> str:
    """A starting board as typed, checked (setup step 2: 2 mechanics, 2 body and 2 engine parts, a working
    gear in every range; S2, S7) and written the standard way; raises :class:`SetupError` saying why not."""
    text = " ".join(str(value).split())
    try:
        gears = B.parse_board(text)
    except ValueError as exc:
        raise SetupError(f"`{name}`: {exc}") from None
    why = B.check_start_board(gears)
    if why:
        raise SetupError(f"`{name}`: {why} (setup step 2)")
    return B.board_text(gears)


NEW_OPTIONS = (
    Option("track", "Track or board", complete=track_choices),
    Option("laps", "Laps, 1 to 5", "integer", low=LAPS[0], high=LAPS[1]),
    Option("direction", "Clockwise or anticlockwise", limit=30, complete=direction_choices),
    Option("board", "Every car's starting board, like `1:M 2:M 3:BE 5:BE`", limit=40, complete=board_choices),
)
JOIN_OPTIONS = (
    Option("board", "Your car's starting board, like `1:M 3:M 2:BE 5:BE`", limit=40,
           complete=board_choices),
)


def setup_options(raw: Mapping[str, Any], lang: str = "en") -> dict[str, Any]:
    """The race's options from the ``/game new`` options given: a known track (A by default), 1 to 5 laps
    (3 by default, S8), the direction (clockwise by default) and a legal starting board; refused in
    ``lang``."""
    opts: dict[str, Any] = {}
    if raw.get("track") is not None:
        try:
            opts["track"] = find_track(str(raw["track"])).alias
        except KeyError:
            known = ", ".join(f"{t.alias} ({t.name})" for t in builtin_tracks().values())
            raise SetupError(say("setup_track", lang, given=repr(str(raw["track"])[:30]), tracks=known)) from None
    laps = raw.get("laps")
    if laps is not None:
        if isinstance(laps, bool) or not isinstance(laps, int) or not LAPS[0] <= laps <= LAPS[1]:
            raise SetupError(say("setup_laps", lang, low=LAPS[0], high=LAPS[1], given=repr(laps)))
        opts["laps"] = laps
    else:
        opts["laps"] = DEFAULT_LAPS
    if raw.get("direction") is not None:
        given = " ".join(str(raw["direction"]).lower().split())
        if given not in DIRECTIONS:
            raise SetupError(say("setup_direction", lang, given=repr(str(raw["direction"])[:30])))
        opts["direction"] = DIRECTIONS[given]
    if raw.get("board") is not None:
        opts["boards"] = checked_board(raw["board"])
    return opts


def seat_options(raw: Mapping[str, Any]) -> dict[str, Any]:
    """A seat's options from ``/game join``: its own starting board, if given (else the game's board, or the
    default, applies)."""
    return {"board": checked_board(raw["board"])} if raw.get("board") is not None else {}


__all__ = ["JOIN_OPTIONS", "LAPS", "NEW_OPTIONS", "board_choices", "checked_board", "direction_choices",
           "seat_options", "setup_options", "starting_boards", "track_choices"]
