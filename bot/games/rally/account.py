"""One account of a Schrottplatz Rally turn: what a message tells, made once from the public events of every move
it covers (a person's several actions, a computer's batch, what played itself).

:func:`account` walks the events in order and keeps, for every car, where it went and why: a drive told once by
its real start, end and length (a booster's second move and the first are ONE drive, with the place the booster
took over), a car pulling out of a spot onto the first free cell behind the car blocking the exit (S11), the
drive and the parking on its end in one sentence (a pit spot too: S10), a spin or an accident with the part it
cost (S5, S14), a car pushed onto a spot for repairs (S6), the parts put on in one sentence, then the laps and
the rest. Each sentence carries a weight, so a description short of room says less about what matters less and
never drops a move. ``journeys`` say where each car that moved began and ended (places as the rules name them:
``30b``, ``A.2``, ``pit.1``, ``stop``), which tests hold against the car's place.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bot.games import telling
from rules.contract import Event
from rules.rally.texts import say

#: a move of a car: a drive, parking, a push onto a spot (never left out of a description)
MOVE = 0
#: a lap, the race won, a spin or an accident, a stop at the sign
LAP = 1
#: something gained or lost (parts, fuel, repairs)
GAIN = 2
#: the rest (a roll, a shift, a new round)
REST = 3

LAPS = frozenset({"lap", "win", "spin", "accident", "halt", "misshift", "forced_stay"})
GAINS = frozenset({"take", "take_fuel", "take_none", "lose", "lose_none", "repair", "booster_lost", "stuck",
                   "repair_wait", "repair_due"})
#: events that leave a car's drive open: what happens between its first move and the booster's
KEEPS_OPEN = frozenset({"squeeze", "lap", "booster_roll"})


@dataclass(frozen=True, slots=True)
class Told:
    """One sentence of the account. ``event``: the event it words (a drive: its first move's); a move has its
    ``seat``, ``start`` and ``end`` (places as the rules name them), a drive its ``cells`` and ``path``, ``via``
    (where the booster took over), ``behind`` (S11: pulled out behind a car at the exit) and ``parked`` (the
    spot it parked on); a spin or an accident its ``loss`` (the part lost, or none) and ``die``; parts put on
    their ``items``."""

    event: Event
    weight: int
    seat: int | None = None
    start: str | None = None
    end: str | None = None
    cells: int = 0
    path: tuple[str, ...] = ()
    via: str | None = None
    behind: bool = False
    parked: str | None = None
    loss: Event | None = None
    die: int | None = None
    items: tuple[Event, ...] = ()

    @property
    def is_move(self) -> bool:
        return self.weight == MOVE and self.end is not None


@dataclass(frozen=True, slots=True)
class Account:
    """What a message tells, in order; ``journeys``: for every car that moved, the place it began on (None:
    unknown) and the place it ended on."""

    told: tuple[Told, ...] = ()
    journeys: Mapping[int, tuple[str | None, str]] = field(default_factory=dict)

    @property
    def moves(self) -> tuple[Told, ...]:
        return tuple(t for t in self.told if t.is_move)


def _weight(e: Event) -> int:
    return LAP if e.kind in LAPS else GAIN if e.kind in GAINS else REST


class _Teller:
    """The account being made, event by event: what is told so far, each car's place as the account last left
    it and where it began, the drive each seat still has going on and whether its booster was rolled since."""

    def __init__(self, secrets: bool = False) -> None:
        self.secrets = secrets
        self.told: list[Told] = []
        self.where: dict[int, str] = {}
        self.began: dict[int, str | None] = {}
        self.open_drive: dict[int, int] = {}  # seat -> index in ``told`` of its drive still going on
        self.boosted: set[int] = set()  # seats whose booster die has been rolled since their open drive

    def moved(self, seat: int, start: str | None, end: str) -> None:
        self.began.setdefault(seat, start)
        self.where[seat] = end

    def add(self, e: Event) -> None:
        if e.secret is not None and not self.secrets:  # a seat's own view: the picture's words are the public ones
            return
        seat = e.seat
        if seat is None:
            self.open_drive.clear()
            self.told.append(Told(e, _weight(e)))
        elif e.kind == "move" and (e.data or {}).get("path"):
            self.drive(e, seat)
        elif not self.joined(e, seat):
            self.told.append(Told(e, _weight(e), seat))

    def drive(self, e: Event, seat: int) -> None:
        """A move along a path: a drive of its own, or the booster's part of the seat's open drive."""
        data, told, at = e.data or {}, self.told, self.open_drive.get(seat)
        path = tuple(str(c) for c in data["path"])
        start, end = str(data.get("from")), path[-1]
        self.moved(seat, self.where.get(seat, start), end)
        self.boosted, boosted = self.boosted - {seat}, seat in self.boosted
        if at is not None and boosted and told[at].end == start:
            first = told[at]
            rolls = [t for t in told[at + 1:] if t.event.kind == "booster_roll"]
            after = [t for t in told[at + 1:] if t.event.kind != "booster_roll"]
            merged = replace(first, end=end, cells=first.cells + len(path), path=first.path + path, via=first.end)
            told[at:] = [*rolls, merged, *after]
            self.open_drive[seat] = at + len(rolls)
            return
        self.open_drive[seat] = len(told)
        told.append(Told(e, MOVE, seat, start, end, len(path), path))

    def joined(self, e: Event, seat: int) -> bool:
        """Whether ``e`` joins what is told already (or is told in a way of its own); False: a line of its own."""
        data, told, at = e.data or {}, self.told, self.open_drive.get(seat)
        if e.kind == "squeeze" and at is not None:  # S11: the drive pulled out behind the car at the exit
            told[at] = replace(told[at], behind=True)
            return True
        if e.kind == "booster_roll" and at is not None:
            self.boosted.add(seat)
        if e.kind == "park" and at is not None and told[at].end == (data.get("params") or {}).get("spot"):
            told[at] = replace(told[at], parked=told[at].end)
            self.open_drive.pop(seat, None)
            return True
        if e.kind not in KEEPS_OPEN:
            self.open_drive.pop(seat, None)
        if e.kind in ("loss_roll", "lose", "lose_none") and told and told[-1].seat == seat \
                and told[-1].event.kind in ("spin", "accident") and told[-1].loss is None:
            last = told[-1]
            told[-1] = (replace(last, die=data.get("die")) if e.kind == "loss_roll" else replace(last, loss=e))
            return True
        if e.kind == "take":
            if told and told[-1].seat == seat and told[-1].event.kind == "take":
                told[-1] = replace(told[-1], items=(*told[-1].items, e))
            else:
                told.append(Told(e, GAIN, seat, items=(e,)))
            return True
        if e.kind == "accident" and data.get("cell"):
            self.moved(seat, self.where.get(seat, str(data["cell"])), str(data["cell"]))
        if e.kind == "forced_park" and data.get("spot"):
            spot, was = str(data["spot"]), self.where.get(seat)
            self.moved(seat, was, spot)
            told.append(Told(e, MOVE, seat, was, spot))
            return True
        return False


def account(events: Iterable[Event], *, secrets: bool = False) -> Account:
    """The account of the public ``events`` of every move a message covers, oldest first; ``secrets``: the
    events are a viewer's (the chat's narration), and an event holding a secret is told with it, else such an
    event is left out (the picture tells the public words)."""
    teller = _Teller(secrets)
    for e in events:
        teller.add(e)
    return Account(tuple(teller.told), {s: (teller.began.get(s), end) for s, end in teller.where.items()})


def of_moves(moves: Sequence[Sequence[Event]], *, secrets: bool = False) -> Account:
    """The account of a message's moves (each move's public events; ``secrets``: a viewer's, see
    :func:`account`)."""
    return account((e for move in moves for e in move), secrets=secrets)


def _event_text(e: Event, lang: str) -> str:
    data = e.data or {}
    msg = data.get("msg")
    if not isinstance(msg, str):
        return e.text
    try:
        return say(msg, lang, **dict(data.get("params") or {}))
    except (KeyError, IndexError, ValueError, TypeError):
        return e.text


def sentence(t: Told, lang: str, place: Any) -> str:
    """One sentence of the account in ``lang``; ``place(code, bare)`` words a place (:func:`described.place`)."""
    e = t.event
    params = dict((e.data or {}).get("params") or {})
    who = {k: params[k] for k in ("car", "name") if k in params}
    if e.kind == "move" and t.end is not None:
        start = place(t.start, True) if t.start else ""
        if t.behind:
            out = (say("alt_pull_out_boost", lang, count=t.cells, start=start, via=place(t.via, True),
                       end=place(t.end, True), **who) if t.via
                   else say("alt_pull_out", lang, start=start, end=place(t.end, True), **who))
            if t.parked:
                out += " " + say("alt_park", lang, spot=place(t.parked, True), **who)
            return out
        if t.parked:
            if t.via:
                return say("alt_move_boost_park", lang, count=t.cells, start=start, via=place(t.via, True),
                           spot=place(t.parked, True), **who)
            return say("alt_move_park", lang, count=t.cells, start=start, spot=place(t.parked, True), **who)
        if t.via:
            return say("alt_move_boost", lang, count=t.cells, start=start, via=place(t.via, True),
                       end=place(t.end, True), **who)
        return say("alt_move", lang, count=t.cells, start=start, end=place(t.end, True), **who)
    if e.kind == "forced_park" and t.end is not None:
        if t.start is None:
            return _event_text(e, lang)
        return say("alt_pushed", lang, start=place(t.start, True), spot=place(t.end, True), **who)
    if e.kind in ("spin", "accident") and t.loss is not None:
        lost = dict((t.loss.data or {}).get("params") or {})
        kind = "lose" if t.loss.kind == "lose" else "none"
        cell = params.get("cell", "")
        if e.kind == "spin":
            return say(f"alt_spin_{kind}", lang, cell=cell, limit=params.get("limit"), range=params.get("range"),
                       die=t.die if t.die is not None else "", item=lost.get("item"), gear=lost.get("gear"), **who)
        return say(f"alt_accident_{kind}", lang, cell=cell, item=lost.get("item"), gear=lost.get("gear"), **who)
    if e.kind == "take" and t.items:
        parts = [say("alt_item_on", lang, **dict((i.data or {}).get("params") or {})) for i in t.items]
        return say("alt_takes", lang, items=f" {say('word.and', lang)} ".join(parts), **who)
    return _event_text(e, lang)


def chat_sentence(t: Told, lang: str, place: Any) -> str:
    """One sentence of the chat: the account's (:func:`sentence`), with the event's secret where the viewer's
    events kept it."""
    text = sentence(t, lang, place)
    return f"{text} {t.event.secret}" if t.event.secret else text


def chat_lines(acc: Account, lang: str, place: Any) -> list[str]:
    """The chat's lines of the account: every sentence (:func:`chat_sentence`), one line for each car's run of
    them (:func:`bot.games.telling.lines`)."""
    return telling.lines(acc.told, lambda t: chat_sentence(t, lang, place))


def sentences(acc: Account, lang: str, place: Any, most: int = REST) -> list[str]:
    """The account's sentences of weight ``most`` or less, in order (:func:`bot.games.telling.sentences`)."""
    return telling.sentences(acc.told, lambda t: sentence(t, lang, place), most)


__all__ = ["GAIN", "LAP", "MOVE", "REST", "Account", "Told", "account", "chat_lines", "chat_sentence", "of_moves",
           "sentence", "sentences"]
