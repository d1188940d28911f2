"""Junkyard for a piecepack in words for a picture's description (read aloud in its place), written to be
heard: what happened over every move the message tells (the turn's account, :mod:`bot.games.piecepack.account`:
a move by its start, the squares passed over and its end, a pawn landed on and sent home from that square, the
trash handed on, the good stuff taken or sent back, with the rule that did it), whose turn it is and what they
can do, then the standings in one sentence (the carrier of the good stuff first, then the fewest
pieces of trash; each seat's square and how many pieces it holds). Trash is counted, not listed by its codes
(``MA MB``, which a speech synthesizer reads as words); the home corners are left to ``/game status``. Discord
keeps 1,024 characters: when a busy message does not fit, the rolls and passes give way first, then landings
and the good stuff ("…" says so); a move of a pawn is never left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.games import telling
from bot.games.piecepack import account
from rules.contract import Event
from rules.piecepack import PiecepackGame, texts


def told(events: Sequence[Event], lang: str, most: int = account.REST) -> str:
    """The turn's account (:mod:`bot.games.piecepack.account`) in one paragraph; ``most``: the heaviest weight
    told (moves are always told)."""
    return " ".join(account.sentences(account.account(events), lang, most))


def turn_sentence(game: PiecepackGame, lang: str) -> str:
    """Who is to act, where, and what they can do (roll, or move the roll's steps)."""
    view = game.view(None)
    if game.is_over:
        won = " & ".join(texts.name_word(s, game.seat_names[s], lang) for s in game.winners)
        return texts.say("alt.over", lang, name=won)
    seat = game.to_act if game.to_act is not None else 0
    who = texts.seat(seat, game.seat_names[seat])
    square = view["seats"][seat]["square"]
    if view.get("phase") == "move":
        return texts.say("alt.turn_move", lang, count=view["roll"], who=who, square=square)
    return texts.say("alt.turn_roll", lang, who=who, square=square)


def standings_sentence(game: PiecepackGame, lang: str) -> str:
    """Every seat in the order of the standings: the good stuff's carrier, then the fewest pieces of trash."""
    view: Any = game.view(None)
    won = set(game.winners)
    order = sorted(view["seats"], key=lambda s: (s["seat"] not in won, not s["carrying"], len(s["trash"]),
                                                 s["seat"]))
    parts = [texts.say("alt.seat_carrying" if s["carrying"] else "alt.seat", lang, count=len(s["trash"]),
                       who=texts.seat(s["seat"], s["name"]), square=s["square"]) for s in order]
    good = "" if view["carrier"] is not None or game.is_over else texts.say("alt.centre", lang,
                                                                            square=view["centre"])
    return texts.say("alt.standings", lang, seats="; ".join(parts), good=good).replace(" .", ".").strip()


def alt_text(game: PiecepackGame, events: Sequence[Event], lang: str) -> str:
    """The description of a picture of the game (see the module's docstring)."""
    status = [turn_sentence(game, lang), standings_sentence(game, lang)]
    return telling.described("", lambda most: told(events, lang, most) if events else "", status,
                             (account.REST, account.GAIN, account.MOVE))


__all__ = ["alt_text", "standings_sentence", "told", "turn_sentence"]
