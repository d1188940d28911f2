"""Small things every part of the service says the same way: who sits where (the seat list, a seat as
text, with its options in the reader's words), which language a person reads, the refusal when a channel has
no game, a note beside the turns and the answer for what was stored. Pure functions, of a record and the
units at most, so the lobby, the reading side and the play share them without knowing each other."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot import texts
from bot.games import GameUnit, playable_keys
from bot.messages import NOTE, Line, Showing
from bot.store import GameRecord, Outgoing, Seat
from bot.telling.outcomes import Accepted, Private, Refusal, refuse
from rules.literal import Name, Person

#: the unit of a game by its key (the service's ``fronts``)
Fronts = Callable[[str], GameUnit[Any]]


def no_game(lang: str | None = None) -> Refusal:
    """The refusal when the channel has no game, in the asker's language."""
    return refuse(texts.say("lobby.no_game", lang or texts.DEFAULT, games=", ".join(playable_keys())))


def lang_of(rec: GameRecord, user_id: int | None, lang: str | None) -> str:
    """The language a user reads: the one given (their Discord's now), else the one they sat down with,
    else the game's."""
    if lang:
        return lang
    seat = rec.seat_of(user_id) if user_id is not None else None
    return (rec.seats[seat].lang if seat is not None else None) or rec.lang


def who(seat: Seat) -> str:
    """A seat as text: the person (each front shows them its way), the name in bold for a computer."""
    return f"**{Name(seat.name)}**" if seat.is_computer else str(Person(seat.user_id, seat.name))


def note(*lines: Line) -> Showing:
    """A message beside the turns, of ``lines``."""
    return Showing(NOTE, tuple(lines))


def accepted(rec: GameRecord, outgoing: Sequence[Outgoing], private: Sequence[Private] = ()) -> Accepted:
    """The answer for a write of ``rec``: the ids of its delivery rows, and the private notes."""
    return Accepted(rec.id, tuple(o.id for o in outgoing if o.id is not None), tuple(private))


def option_words(fronts: Fronts, game_key: str, command: str, options: Mapping[str, Any], lang: str) -> str:
    """Options for the lobby's readers in ``lang``, worded by the game's unit (``Farbe rot`` for
    ``colour red``, a flag by its name alone)."""
    try:
        unit = fronts(game_key)
    except KeyError:
        return ", ".join(f"{name} {value}" for name, value in options.items())
    return unit.option_words("new" if command == "new" else "join", options, lang)


def seat_line(fronts: Fronts, rec: GameRecord, lang: str = texts.DEFAULT) -> str:
    """The seats in order, each with its options in the words of ``lang``."""
    if not rec.seats:
        return texts.say("lobby.nobody_yet", lang)
    parts = []
    for i, s in enumerate(rec.seats):
        opts = option_words(fronts, rec.game_key, "join", s.options, lang)
        parts.append(f"{i + 1}. {who(s)}" + (f" ({opts})" if opts else ""))
    return "; ".join(parts)


__all__ = ["Fronts", "accepted", "lang_of", "no_game", "note", "option_words", "seat_line", "who"]
