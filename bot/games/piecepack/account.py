"""One account of a turn of Junkyard for a piecepack: what a message tells, made once from the public events of
every move it covers (a person's roll and move, a computer's batch, what played itself).

:func:`account` walks the events in order and keeps, for every pawn that moved, where it went and by which
rule: a move told by its real start, the squares it passed over and its end (P3), a landing on another pawn and
the trash it hands on (P7), the pawn landed on sent back from that square to its start corner, the good stuff
picked up in the centre (P5), taken from its carrier or sent back to the centre (P7), and the win; then the
rolls and passes. Each sentence carries a weight, so a description short of room says less about what matters
less and never drops a move; ``journeys`` say where each pawn that moved began and ended.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bot.games import telling
from rules.contract import Event
from rules.piecepack import texts

#: a pawn moved or sent home (never left out of a description)
MOVE = 0
#: a landing, trash handed on, the good stuff taken, lost or brought home
GAIN = 1
#: the rest (a roll, a turn passed, the first player drawn)
REST = 2


@dataclass(frozen=True, slots=True)
class Told:
    """One sentence of the account: its catalogue id (``msg``; empty: the event's own words), its parameters,
    its weight, and for a pawn that moved its ``seat``, ``start`` and ``end`` (else ``seat``: the event's)."""

    event: Event
    weight: int
    msg: str = ""
    params: Mapping[str, Any] = field(default_factory=dict)
    seat: int | None = None
    start: str | None = None
    end: str | None = None


@dataclass(frozen=True, slots=True)
class Account:
    """What a message tells, in order; ``journeys``: for every pawn that moved, its first and last square."""

    told: tuple[Told, ...] = ()
    journeys: Mapping[int, tuple[str, str]] = field(default_factory=dict)

    @property
    def moves(self) -> tuple[Told, ...]:
        return tuple(t for t in self.told if t.end is not None)


def _told(e: Event, landed: dict[str, Any]) -> Told:
    """The sentence of one public event; ``landed`` keeps the last landing (square, the pawn landed on)."""
    data, params = e.data or {}, dict((e.data or {}).get("params") or {})
    if e.kind == "move" and len(data.get("path") or ()) > 1:
        path = [str(c) for c in data["path"]]
        msg = "alt.move_over" if len(path) > 2 else "alt.move"
        return Told(e, MOVE, msg, {"who": params.get("who"), "count": len(path) - 1, "start": path[0],
                                   "end": path[-1], "over": ", ".join(path[1:-1])}, e.seat, path[0], path[-1])
    if e.kind == "land":
        landed.update(square=data.get("square"), them=params.get("them"))
        return Told(e, GAIN, "alt.land", {"who": params.get("who"), "them": params.get("them"),
                                          "square": data.get("square")})
    if e.kind == "gift":
        return Told(e, GAIN, "alt.gift", {"who": params.get("who"), "them": params.get("them"),
                                          "piece": params.get("piece")})
    if e.kind == "home" and landed.get("square"):
        return Told(e, MOVE, "alt.sent_home", {"them": params.get("who"), "start": landed["square"],
                                               "end": data.get("square")}, e.seat, landed["square"],
                    str(data.get("square")))
    if e.kind == "take":
        return Told(e, GAIN, "alt.take", {"who": params.get("who"), "square": data.get("square")})
    if e.kind == "steal":
        return Told(e, GAIN, "alt.steal", {"who": params.get("who"), "them": params.get("them")})
    if e.kind == "return" and landed.get("them") is not None:
        return Told(e, GAIN, "alt.return", {"them": landed["them"], "square": data.get("square")})
    return Told(e, GAIN if e.kind == "win" else REST)


def account(events: Iterable[Event], *, secrets: bool = False) -> Account:
    """The account of the public ``events`` of every move a message covers, oldest first; ``secrets``: the
    events are a viewer's (the chat's narration), and an event holding a secret is told with it, else such an
    event is left out (the picture tells the public words)."""
    told: list[Told] = []
    began: dict[int, str] = {}
    where: dict[int, str] = {}
    landed: dict[str, Any] = {}
    for e in events:
        if e.secret is not None and not secrets:
            continue
        t = _told(e, landed)
        if t.seat is None and e.seat is not None:
            t = replace(t, seat=e.seat)
        told.append(t)
        if t.seat is not None and t.start is not None and t.end is not None:
            began.setdefault(t.seat, t.start)
            where[t.seat] = t.end
    return Account(tuple(told), {s: (began[s], end) for s, end in where.items()})


def sentence(t: Told, lang: str) -> str:
    """One sentence of the account in ``lang``."""
    if t.msg:
        return texts.say(t.msg, lang, **t.params)
    return texts.event_text(t.event, lang)


def of_moves(moves: Sequence[Sequence[Event]], *, secrets: bool = False) -> Account:
    """The account of a message's moves (each move's public events; ``secrets``: a viewer's, see
    :func:`account`)."""
    return account((e for move in moves for e in move), secrets=secrets)


def chat_sentence(t: Told, lang: str) -> str:
    """One sentence of the chat: the account's (:func:`sentence`), with the event's secret where the viewer's
    events kept it."""
    text = sentence(t, lang)
    return f"{text} {t.event.secret}" if t.event.secret else text


def chat_lines(acc: Account, lang: str) -> list[str]:
    """The chat's lines of the account: every sentence (:func:`chat_sentence`), one line for each seat's run of
    them (:func:`bot.games.telling.lines`)."""
    return telling.lines(acc.told, lambda t: chat_sentence(t, lang))


def sentences(acc: Account, lang: str, most: int = REST) -> list[str]:
    """The account's sentences of weight ``most`` or less, in order (:func:`bot.games.telling.sentences`)."""
    return telling.sentences(acc.told, lambda t: sentence(t, lang), most)


__all__ = ["GAIN", "MOVE", "REST", "Account", "Told", "account", "chat_lines", "chat_sentence", "of_moves",
           "sentence", "sentences"]
