"""One account of a Junkyard Races turn: what a message tells, made once from the public events of every move
it covers (a person's several actions, a computer's batch, what played itself).

:func:`account` walks the events in order and keeps, for every kart, where it went and by which rule: a drive
told once by its real start, end and length (the steps of one drive, over several moves, are one drive), a
kart bumped, flung back by a Spring, skidding on Oil, pulled by a Magnet, falling into the stream or climbing
out of it, lining up on its start cell; then the laps and flags, pick-ups and losses, and the rest. Each
sentence carries a weight, so a description short of room says less about what matters less and never drops a
move. The picture's description (:mod:`bot.games.races.described`) reads it, and so does the picture itself
(:func:`trail`: every drive's cells and the marks of what happened on the way), so the two always show the same
moves; ``journeys`` say where each kart that moved began and ended, which tests hold against the kart's cell.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.games import telling
from bot.games.races import texts
from rules.contract import Event
from rules.races import texts as race_texts

#: a move of a kart (never left out of a description)
MOVE = 0
#: a lap, a flag, the race won
LAP = 1
#: something gained or lost (bottle tops, tiles, parts)
GAIN = 2
#: the rest (a roll, a delivery, a phase ended)
REST = 3

LAPS = frozenset({"lap", "win"})
GAINS = frozenset({"pickup", "bottle-tops", "tiles-lost", "damage", "hit", "acid", "destroyed", "snatched",
                   "snatch", "smash", "fuel-lost", "jet-explodes", "glue", "caught", "buy", "refuel", "bomb",
                   "missile", "trap", "time-bomb", "tick", "swap", "stuck", "turn-lost", "boxed-in"})


@dataclass(frozen=True, slots=True)
class Told:
    """One sentence of the account. ``event``: the event it words (a drive: the first step's); a move of a
    kart has its ``seat``, ``start`` (None: from off the track, or unknown) and ``end``; a drive its
    ``cells`` (every step of it) and whether it went ``backwards``."""

    event: Event
    weight: int
    seat: int | None = None
    start: str | None = None
    end: str | None = None
    cells: int = 0
    backwards: bool = False
    path: tuple[str, ...] = ()

    @property
    def is_move(self) -> bool:
        return self.weight == MOVE and self.end is not None


@dataclass(frozen=True, slots=True)
class Account:
    """What a message tells, in order; ``journeys``: for every kart that moved, the cell it began on (None: off
    the track) and the cell it ended on; ``marks``: (cell, what) of what happened on the way, as the picture
    marks them (a bump where it struck, a splash, a pick-up, a trap sprung, a weapon fired)."""

    told: tuple[Told, ...] = ()
    journeys: Mapping[int, tuple[str | None, str]] = field(default_factory=dict)
    marks: tuple[tuple[str, str], ...] = ()

    @property
    def moves(self) -> tuple[Told, ...]:
        return tuple(t for t in self.told if t.is_move)


def _move(e: Event) -> tuple[str | None, str] | None:
    """Where an event moves its kart (``e.seat``), as (start, end); None when it moves none."""
    data, params = e.data or {}, (e.data or {}).get("params") or {}
    msg = data.get("msg")
    if e.kind == "drive" and data.get("path"):
        return data.get("from"), str(data["path"][-1])
    if e.kind == "bump" and data.get("to"):
        return data.get("cell"), str(data["to"])
    if e.kind == "magnet" and data.get("cell"):
        return data.get("frm"), str(data["cell"])
    if msg == "event.spring" and params.get("to"):
        return data.get("cell"), str(params["to"])
    if msg == "event.oil" and data.get("to"):
        return data.get("cell"), str(data["to"])
    if e.kind in ("enter", "fall", "landing") and data.get("cell"):
        return None, str(data["cell"])
    return None


#: event kinds that leave a mark on the cell they name (``cell``), and the mark
MARKS = {
    "bump": "bump", "splash": "splash", "fall": "splash", "pickup": "pickup", "bottle-tops": "bottle-tops",
    "stuck": "stuck", "blocked": "blocked", "time-bomb": "blast", "hit": "blast", "destroyed": "blast",
    "glue": "glue", "oil": "oil", "spring": "spring", "acid": "acid", "magnet": "magnet",
}
#: weapons, marked where they were fired from (their ``start``)
WEAPONS = frozenset({"missile", "bomb"})


def _mark(e: Event) -> tuple[str, str] | None:
    """The mark an event leaves on the picture, as (cell, what); None for none."""
    data = e.data or {}
    if e.kind in WEAPONS:
        start = (data.get("params") or {}).get("start")
        return (str(start), e.kind) if start else None
    if e.kind in MARKS and data.get("cell"):
        return str(data["cell"]), MARKS[e.kind]
    return None


def _weight(e: Event) -> int:
    if e.kind in ("splash", "jump"):
        return MOVE
    return LAP if e.kind in LAPS else GAIN if e.kind in GAINS else REST


def account(events: Iterable[Event], *, secrets: bool = False) -> Account:
    """The account of the public ``events`` of every move a message covers, oldest first; ``secrets``: the
    events are a viewer's (the chat's narration), and an event holding a secret is told with it (the secret only
    where the viewer's events kept it), else such an event is left out (the picture tells the public words)."""
    told: list[Told] = []
    where: dict[int, str | None] = {}  # each kart's cell as the account last left it
    began: dict[int, str | None] = {}
    open_drive: dict[int, int] = {}  # seat -> index in ``told`` of its drive still going on
    marks: list[tuple[str, str]] = []
    for e in events:
        if e.secret is not None and not secrets:  # a seat's own view: the picture's words are the public ones
            continue
        mark = _mark(e)
        if mark is not None:
            marks.append(mark)
        moved = _move(e) if e.seat is not None else None
        if moved is None:
            told.append(Told(e, _weight(e), e.seat))
            continue
        seat = e.seat
        assert seat is not None
        start, end = moved
        if start is None and e.kind in ("fall", "landing"):
            start = where.get(seat)
        began.setdefault(seat, start)
        where[seat] = end
        if e.kind == "drive":
            path = tuple(str(c) for c in (e.data or {}).get("path") or ())
            back = (e.data or {}).get("msg") == "event.back_up"
            at = open_drive.get(seat)
            if at is not None and told[at].end == start and told[at].backwards == back:
                first = told[at]
                told[at] = Told(first.event, MOVE, seat, first.start, end, first.cells + len(path), back,
                                first.path + path)
                continue
            open_drive[seat] = len(told)
            told.append(Told(e, MOVE, seat, start, end, len(path), back, path))
            continue
        open_drive.pop(seat, None)
        told.append(Told(e, MOVE, seat, start, end))
    return Account(tuple(told), {s: (began[s], end) for s, end in where.items() if end is not None}, tuple(marks))


def trail(acc: Account, events: Iterable[Event] = ()) -> dict[str, Any]:
    """What the picture draws of the account (:func:`render.races.live.with_told`): every drive as a line in its
    kart's colour (``paths``: seat, the cell it set off from, the cells driven), the ``marks``, and the public
    ``events`` (as dicts), whose cells the close-up keeps in its frame."""
    paths = [{"seat": t.seat, "move_from": t.start, "path": list(t.path)} for t in acc.told
             if t.event.kind == "drive" and t.path]
    return {"paths": paths, "marks": [list(m) for m in acc.marks],
            "events": [e.to_dict() for e in events if e.secret is None]}


def sentence(t: Told, lang: str) -> str:
    """One sentence of the account in ``lang``: a drive by its ends and length, else the event's own words."""
    if t.event.kind == "drive" and t.end is not None:
        who: Mapping[str, Any] = ((t.event.data or {}).get("params") or {}).get("who") or {}
        kart = race_texts.say("kart", lang, name=who.get("name", ""), colour=who.get("colour", ""))
        msg = "alt.back_up" if t.backwards else "alt.drive"
        return texts.say(msg if t.start else f"{msg}_to", lang, count=t.cells, who=kart, start=t.start or "",
                         end=t.end)
    return race_texts.event_text(t.event, lang)


def sentences(acc: Account, lang: str, most: int = REST) -> list[str]:
    """The account's sentences of weight ``most`` or less, in order (:func:`bot.games.telling.sentences`)."""
    return telling.sentences(acc.told, lambda t: sentence(t, lang), most)


#: what a kart does of its own accord: it begins a new line of the chat, never a consequence of the drive before
ACTIONS = frozenset({"roll", "enter", "missile", "bomb", "trap", "done", "choose", "buy", "refuel", "snatch",
                     "swap"})


#: a kart moved by the drive of another (the event's seat is the kart struck)
STRUCK = frozenset({"bump", "magnet"})


def chat_sentence(t: Told, lang: str) -> str:
    """One sentence of the chat: a drive by its ends, length and every cell driven, else the event's own words
    (with its secret, where the events hold one)."""
    if t.event.kind == "drive" and t.end is not None:
        who: Mapping[str, Any] = ((t.event.data or {}).get("params") or {}).get("who") or {}
        kart = race_texts.say("kart", lang, name=who.get("name", ""), colour=who.get("colour", ""))
        msg = "chat.back_up" if t.backwards else "chat.drive"
        return texts.say(msg if t.start else f"{msg}_to", lang, count=t.cells, who=kart, start=t.start or "",
                         end=t.end, cells=", ".join(t.path))
    text = race_texts.event_text(t.event, lang)
    secret = race_texts.secret_text(t.event, lang)
    return f"{text} {secret}" if secret else text


def chat_lines(acc: Account, lang: str) -> list[str]:
    """The chat's lines of the account: one line per kart's drive (its start, end and cells) with what it
    brought about on the same line (a kart bumped, and what befell it, a splash, a tile, bottle tops, a flag, a
    lap: what befell the driver or a kart it struck), then every other sentence on a line of its own, in order;
    a line repeated at once is said once."""
    lines: list[list[str]] = []
    involved: set[int | None] = set()  # the karts of the line's drive: the driver, and every kart it struck
    for t in acc.told:
        text = chat_sentence(t, lang).strip()
        if not text:
            continue
        drive = t.event.kind == "drive" and t.end is not None
        caused = t.event.kind in STRUCK or t.seat in involved
        if involved and not drive and caused and t.event.kind not in ACTIONS and (t.weight < REST or t.is_move):
            lines[-1].append(text)
            involved.add(t.seat)
            continue
        lines.append([text])
        involved = {t.seat} if drive else set()
    out: list[str] = []
    for words in lines:
        line = " ".join(w if w[-1] in ".!?…:" else f"{w}." for w in words) if len(words) > 1 else words[0]
        if not out or out[-1] != line:
            out.append(line)
    return out


def of_moves(moves: Sequence[Sequence[Event]], *, secrets: bool = False) -> Account:
    """The account of a message's moves (each move's public events; ``secrets``: a viewer's, see
    :func:`account`)."""
    return account((e for move in moves for e in move), secrets=secrets)


def narration(moves: Sequence[Sequence[Event]], lang: str) -> str:
    """The chat's narration of one move or several in a row, from their account: its lines
    (:func:`chat_lines`), a secret only where the viewer's events kept it."""
    return "\n".join(chat_lines(of_moves(moves, secrets=True), lang))


__all__ = ["ACTIONS", "GAIN", "LAP", "MOVE", "REST", "STRUCK", "Account", "Told", "account", "chat_lines",
           "chat_sentence", "narration", "of_moves", "sentence", "sentences", "trail"]
