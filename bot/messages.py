"""What a public message must show, as data: the typed record a move's transaction stores.

A channel follows a game through messages the service writes as delivery records (:mod:`bot.store`). The
record says *what* a message shows, not how Discord shows it: the lines of narration as catalogue ids and
parameters (so any language can word them), the picture to draw, whose turn it shows and who is named and
pinged, and whether it is a new message, a new state of a posted one, or the retirement of an old one (its
buttons taken away). :mod:`bot.telling.compose` turns a record into a message; :mod:`bot.telling.delivery` delivers it.

Kinds:

- ``post``: a new message (the start of a turn, a lobby's news, the end of a game);
- ``edit``: the next state of a turn's message (``edit_of`` names the record whose message it changes,
  ``first`` the record that posted it);
- ``retire``: the message of record ``edit_of`` keeps its words and picture and loses its buttons, because
  a newer message now carries the game's live buttons (only the live turn's message has move buttons);
- ``note``: a message beside the turns (a lobby's news, someone leaving, the end of a game, a board asked
  for): posted once, never edited, and no turn's message goes on from it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal, cast

from bot import texts
from rules.contract import Event
from rules.literal import Name, Person

if TYPE_CHECKING:
    from bot.store import GameRecord

Kind = Literal["post", "edit", "retire", "note"]
Picture = Literal["none", "close", "whole", "replay", "table"]

POST: Kind = "post"
EDIT: Kind = "edit"
RETIRE: Kind = "retire"
NOTE: Kind = "note"
KINDS: tuple[Kind, ...] = (POST, EDIT, RETIRE, NOTE)

#: the most lines a record keeps of a turn (the message shows the newest that fit; see :mod:`bot.telling.compose`)
KEPT_LINES = 60


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a message, as data. ``events`` are a move's public events, worded by the game's unit in
    the reader's language; ``say`` is an id of the service's catalogue (:mod:`bot.texts`) with ``params``,
    used when the events word nothing (or when there are none); a parameter may itself be a :class:`Line`
    (a narration inside a sentence), a :class:`~rules.literal.Name` (a name a person chose, kept as one, so the
    line shows it as typed in every language) or a :class:`~rules.literal.Person` (someone spoken of: id and
    name). ``text`` is a line stored already worded (records of older
    versions)."""

    say: str = ""
    params: Mapping[str, Any] = field(default_factory=dict)
    events: tuple[Event, ...] = ()
    text: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.say:
            out["say"] = self.say
        if self.params:
            out["params"] = {k: _param(v) for k, v in self.params.items()}
        if self.events:
            out["events"] = [spoken(e) for e in self.events]
        if self.text:
            out["text"] = self.text
        return out

    @classmethod
    def from_json(cls, data: object) -> Line:
        """A line as stored: a dict of :meth:`to_json`, or a plain string (a record of an older version)."""
        if isinstance(data, str):
            return cls(text=data)
        if not isinstance(data, Mapping):
            return cls(text=str(data))
        params = {k: _unparam(v) for k, v in dict(data.get("params") or {}).items()}
        return cls(str(data.get("say", "")), params, tuple(heard(e) for e in data.get("events") or ()),
                   str(data.get("text", "")))


def person_of(rec: GameRecord, user_id: int, lang: str | None = None) -> Person:
    """``user_id`` as a person of the game ``rec``: named by their seat (the first they hold), else "someone" in
    ``lang`` (the game's language by default)."""
    seat = rec.seat_of(user_id)
    if seat is not None and rec.seats[seat].name:
        return Person(user_id, rec.seats[seat].name)
    return Person(user_id, texts.say("terminal.someone", lang or rec.lang))


def host_of(rec: GameRecord, lang: str | None = None) -> Person:
    """The host of the game ``rec`` as a person (:func:`person_of`)."""
    return person_of(rec, rec.host_id, lang)


def _param(value: Any) -> Any:
    """A line's parameter as stored: a line inside it and a person's name keep what they are."""
    if isinstance(value, Line):
        return {"line": value.to_json()}
    if isinstance(value, Name):
        return {"name": str(value)}
    if isinstance(value, Person):
        return {"person": [value.user_id, value.name]}
    return value


def _unparam(value: Any) -> Any:
    """A line's parameter as :func:`_param` stored it."""
    if isinstance(value, Mapping) and len(value) == 1:
        if "line" in value:
            return Line.from_json(value["line"])
        if isinstance(value.get("name"), str):
            return Name(value["name"])
        person = value.get("person")
        if isinstance(person, list) and len(person) == 2 and isinstance(person[0], int):
            return Person(person[0], str(person[1]))
    return value


def spoken(event: Event) -> dict[str, Any]:
    """What narration reads of a public event, as a record keeps it for its lines: the catalogue id and
    parameters of its words, or its text when it has no id (a record keeps no more of a move's events)."""
    msg = event.data.get("msg")
    if isinstance(msg, str):
        return {"msg": msg, "params": event.data.get("params") or {}}
    return {"text": event.text}


def heard(data: Mapping[str, Any]) -> Event:
    """An event as a record's line kept it (:func:`spoken`), for the game's unit to word again. Records of older
    versions kept whole events, which read the same way."""
    if "kind" in data:
        return Event.from_dict(dict(data))
    msg = data.get("msg")
    words = {"msg": msg, "params": dict(data.get("params") or {})} if msg is not None else {}
    return Event("said", str(data.get("text", "")), None, words)


@dataclass(frozen=True, slots=True)
class Showing:
    """The record of one public message (see the module's docstring for the kinds).

    - ``lines``: the message's narration, oldest first (a turn's message: every move of the turn so far);
    - ``picture``: none, the close-up of the turn (``events`` are the public events it highlights: the last
      move's), the whole board, or the game's animated replay (the end of a game);
    - ``moves``: the public events of every move the message tells, one tuple a move, oldest first (a person's
      several actions, a computer's batch, what played itself): the turn's account, which the picture's
      description reads (records of older versions kept the last move's only, in ``events``);
    - ``turn``: the seat whose turn the message shows; ``actor``: the seat whose moves it tells;
    - ``named``: the person the message names as the one to act now (None: nobody), ``ping`` whether they are
      pinged by it (their notices and quiet hours allow it, and the message is new); ``buttons``: a person
      is to act at the record's move, so the message carries their move buttons while it is the live one;
    - ``describe``: the game's status follows the lines; ``finale``: the final standings do;
    - ``edit_of``, ``first``, ``message``: for an edit or a retirement, the record whose message it changes, the
      record that posted that message, and the message when known as the record is written;
    - ``period``: the game's period after the record's moves (a new one shows the whole board);
    - ``page``: the address of the game's page on the web, which the message names (the end of a game);
    - ``chart``: for the picture ``table``, a championship's table as :func:`render.championship.to_json` keeps
      it, drawn with its description when the message goes out;
    - ``recap``: the turn's player had been gone a while (:mod:`bot.clock.recap`): their seat, the move of their last
      own move and the move their turn began at, so the message offers them "What did I miss?".
    """

    kind: Kind = POST
    lines: tuple[Line, ...] = ()
    picture: Picture = "none"
    events: tuple[Event, ...] = ()
    moves: tuple[tuple[Event, ...], ...] = ()
    turn: int | None = None
    actor: int | None = None
    named: int | None = None
    ping: bool = False
    buttons: bool = False
    describe: bool = False
    finale: bool = False
    edit_of: int | None = None
    first: int | None = None
    message: int | None = None
    period: Any = None
    page: str | None = None
    recap: tuple[int, int, int] | None = None
    chart: Mapping[str, Any] | None = None

    @property
    def board(self) -> bool:
        """Whether the message shows the game's board (a close-up or the whole)."""
        return self.picture in ("close", "whole")

    def with_lines(self, lines: Sequence[Line]) -> Showing:
        """The record with ``lines`` added to its narration (the oldest dropped past :data:`KEPT_LINES`)."""
        return replace(self, lines=(*self.lines, *lines)[-KEPT_LINES:])

    def with_move(self, events: Sequence[Event]) -> Showing:
        """The record with one more move told: ``events`` (its public events) highlighted and added to the
        turn's account."""
        return replace(self, events=tuple(events), moves=(*self.moves, tuple(events)))

    @property
    def told(self) -> tuple[Event, ...]:
        """The public events of every move the message tells, oldest first (the last move's, for a record
        of an older version that kept no more)."""
        if not self.moves:
            return self.events
        return tuple(e for move in self.moves for e in move)

    def to_payload(self) -> dict[str, Any]:
        """The record as its delivery row stores it (``board`` kept for readers that look only at that)."""
        out: dict[str, Any] = {"lines": [line.to_json() for line in self.lines], "picture": self.picture,
                               "board": self.board}
        if self.events:
            out["events"] = [e.to_dict() for e in self.events]
        if self.moves:
            out["moves"] = [[e.to_dict() for e in move] for move in self.moves]
        for key in ("turn", "actor", "named", "edit_of", "first", "message", "period", "page"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        for key in ("ping", "buttons", "describe", "finale"):
            if getattr(self, key):
                out[key] = True
        if self.recap is not None:
            out["recap"] = list(self.recap)
        if self.chart is not None:
            out["chart"] = dict(self.chart)
        return out

    @classmethod
    def from_payload(cls, kind: str, payload: Mapping[str, Any]) -> Showing:
        """The record of a delivery row; rows of older versions (lines as text, ``board`` and ``whole`` flags)
        read the same way."""
        picture = payload.get("picture")
        if picture not in ("none", "close", "whole", "replay", "table"):
            picture = ("replay" if payload.get("finale") else "whole" if payload.get("whole")
                       else "close" if payload.get("board") else "none")
        return cls(
            kind=kind if kind in KINDS else POST,
            lines=tuple(Line.from_json(x) for x in payload.get("lines") or ()),
            picture=cast(Picture, picture),
            events=tuple(Event.from_dict(e) for e in payload.get("events") or ()),
            moves=tuple(tuple(Event.from_dict(e) for e in move) for move in payload.get("moves") or ()),
            turn=payload.get("turn"), actor=payload.get("actor"), named=payload.get("named"),
            ping=bool(payload.get("ping")), buttons=bool(payload.get("buttons", "picture" not in payload)),
            describe=bool(payload.get("describe")),
            finale=bool(payload.get("finale")), edit_of=payload.get("edit_of"), first=payload.get("first"),
            message=payload.get("message"), period=payload.get("period"),
            page=payload["page"] if isinstance(payload.get("page"), str) else None,
            recap=_recap(payload.get("recap")),
            chart=payload["chart"] if isinstance(payload.get("chart"), Mapping) else None)


def _recap(value: object) -> tuple[int, int, int] | None:
    """A record's stored recap (seat, since, until), None when it has none or it is damaged."""
    if isinstance(value, list) and len(value) == 3 and all(isinstance(v, int) for v in value):
        return value[0], value[1], value[2]
    return None


__all__ = ["EDIT", "KEPT_LINES", "KINDS", "NOTE", "POST", "RETIRE", "Kind", "Line", "Picture", "Showing", "heard",
           "spoken"]
