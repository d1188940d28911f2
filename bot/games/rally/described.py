"""Schrottplatz Rally in words for a picture's description (read aloud in its place), written to be heard.

It says what matters first and once: why the whole track is shown (the lap that brought it), what just happened
(the turn's account, :mod:`bot.games.rally.account`: a drive by its start, end and length, not cell by cell, a
booster's second move in the same drive; the parts put on the car's gears in one sentence), whose turn it is
and what they can do (with where the car stands and its lever), or once the race is over who won and where
their car stands past the finish line (the game-over picture is that close-up of the finish), and the
standings in one sentence (the leader with laps and stops, then each car's gap in rows or laps and its stops:
S8; a parked car by its spot). Left out, as the picture and ``/game status`` show them: the track's name, the
round and move number, every car's gears, lever and fuel, and the turn order. Places are said as words ("in
the pit lane, spot 3"), never as codes (``pit.3``), and no number follows another without a word between
them.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from bot.games import telling
from bot.games.rally import account
from bot.games.rally.moves import range_word
from rules.contract import Event
from rules.rally import queries
from rules.rally.game import RallyGame
from rules.rally.texts import COLOUR_KEYS, say
from rules.rally.track import WAITING


def place(game: RallyGame, at: str, lang: str, *, bare: bool = False) -> str:
    """Where a car stands, said as words: "on 30b", "in the pit lane", "in car park A, spot 2"; ``bare``:
    the place alone ("30b", "the pit lane", "car park A, spot 2"), as a drive's start or end."""
    return place_words(at, lang, bare=bare)


def place_words(at: str, lang: str, *, bare: bool = False) -> str:
    """A place as :func:`place` words it, from its name alone (a spot of the pit lane is named ``pit.N``)."""
    tail = "_bare" if bare else ""
    if at == "pit":
        return say(f"alt_in_pit{tail}", lang)
    if at == "stop":
        return say(f"alt_at_stop{tail}", lang)
    if queries.is_spot(at):
        area, number = at.split(".", 1)
        if area == WAITING:
            return say(f"alt_pit_spot{tail}", lang, number=number)
        return say(f"alt_park_spot{tail}", lang, area=area, number=number)
    return at if bare else say("alt_on_cell", lang, cell=at)


def _who(seat: int | None, game: RallyGame) -> dict[str, Any]:
    return {"car": COLOUR_KEYS[seat], "name": game.names[seat]} if seat is not None else {}


def told(game: RallyGame, events: Sequence[Event], lang: str, most: int = account.REST) -> str:
    """The turn's account (:mod:`bot.games.rally.account`) in one paragraph: every move, a drive by its ends;
    ``most``: the heaviest weight told (moves are always told)."""
    return " ".join(account.sentences(account.account(events), lang, partial(_place, game, lang), most))


def _place(game: RallyGame, lang: str, at: str, bare: bool) -> str:
    return place(game, at, lang, bare=bare)


def whole_sentence(game: RallyGame, lang: str) -> str:
    """Why the whole track is shown: the leader has begun a new lap."""
    lead = game.standings()[0]
    lap = min(queries.laps_done(game, lead) + 1, game.laps)
    return say("alt_whole", lang, lap=lap, laps=game.laps, **_who(lead, game))


def turn_sentence(game: RallyGame, lang: str) -> str:
    """Who is to act, where, and what they can do now."""
    seat = game.turn
    car = game.cars[seat]
    where = place(game, car.at, lang)
    if game.phase == "move":
        msg = "alt_turn_boost" if game.boost == "pending" else "alt_turn_drive"
        return say(msg, lang, count=game.points or 0, where=where, **_who(seat, game))
    if car.repair == 1:
        return say("alt_turn_repair", lang, where=where, **_who(seat, game))
    return say("alt_turn_roll", lang, where=where, lever=range_word(car.lever, lang), **_who(seat, game))


def standings_sentence(game: RallyGame, lang: str) -> str:
    """The standings (S8) in one sentence: the leader, then each car's gap and stops."""
    order = game.standings()
    lap = max(1, game.track.length)
    lead = game.cars[order[0]]
    stops = say("alt_stops", lang, count=lead.stops)
    parts = [say("alt_leads", lang, count=game.laps, done=min(queries.laps_done(game, order[0]), game.laps),
                 stops=stops, **_who(order[0], game))]
    for s in order[1:]:
        car = game.cars[s]
        stops = say("alt_stops", lang, count=car.stops)
        gap = lead.progress - car.progress
        if car.parked is not None or queries.is_spot(car.at):
            msg, count = "alt_parked", None
        elif gap >= lap:
            msg, count = "alt_laps_behind", gap // lap
        elif gap > 0:
            msg, count = "alt_rows_behind", gap
        elif gap < 0:
            msg, count = "alt_rows_ahead", -gap
        else:
            msg, count = "alt_level", None
        parts.append(say(msg, lang, count=count, stops=stops, where=place(game, car.at, lang), **_who(s, game)))
    if len(parts) == 1:
        return say("alt_standings_alone", lang, lead=parts[0])
    return say("alt_standings", lang, lead=parts[0], rest="; ".join(parts[1:]))


def alt_text(game: RallyGame, events: Sequence[Event], lang: str, *, whole: bool = False) -> str:
    """The description of a picture of the rally (see the module's docstring): ``events`` are the public
    events of every move the message tells; ``whole``: the picture is the whole track a new lap brought, which
    the description says first. Short of room, the rest gives way first, then gains and losses, then laps,
    spins and accidents ("…" says so); a move of a car is never left out."""
    if game.is_over:  # the picture is the finish: the winner's car past the line
        winner = game.winners[0] if game.winners else None
        ending = (say("alt_over", lang, where=place(game, game.cars[winner].at, lang), **_who(winner, game))
                  if winner is not None else "")
        head, status = "", [ending, standings_sentence(game, lang)]
    else:
        head = whole_sentence(game, lang) if whole else ""
        status = [turn_sentence(game, lang), standings_sentence(game, lang)]
    return telling.described(head, lambda most: told(game, events, lang, most) if events else "", status,
                             (account.REST, account.GAIN, account.LAP, account.MOVE))


__all__ = ["alt_text", "place", "place_words", "standings_sentence", "told", "turn_sentence", "whole_sentence"]
