"""Forgetting a person (``junkyard forget USER_ID``, ``/game forget``): nothing the store keeps names them
afterwards, and the other players' games stay whole.

In an open game the person first leaves as by ``/game leave`` (:meth:`bot.play.service.Service.leave`: a computer
plays a running game's seat on, a lobby loses the seat). Then every row of every table is read and rewritten
where it holds them:

- their seats become anonymous: the user id :data:`ANONYMOUS` (0, which no Discord account has) and the name
  "Player N" (N the seat's number, in the game's language); the host of a game or a championship
  they hosted becomes 0;
- their id, wherever it stands (the actions' ``user_id``, a number, a person span of :mod:`rules.literal` or a
  line's person parameter inside a stored message, timer or setting, a ``<@id>`` mention in a text an older
  version stored, a season's ``started_by``), becomes 0 and, in a person or a mention, the seat's name
  ("someone" where the game gave none);
- every name they played under (seats, results, ratings) is replaced by the seat's name in their games' rows
  (their setup, seats, snapshot, narration, messages and timers; a game in which they held no seat any more,
  such as a lobby they left, says "someone");
- their settings of every scope (notices, quiet hours, plans, ``seen``, ``played_for`` marks, choices, the links
  to their own seats' pages, which then open nothing), their results rows, ratings and rating changes are
  deleted.

A name is replaced where it stands as a whole word, so a name that is also an everyday word in a game's
narration is replaced there too. Messages Discord already shows in a channel stay as Discord keeps them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot import texts
from bot.store import ACTIVE, LOBBY, Store
from bot.store.sql import dumps
from rules.literal import PERSON_CLOSE, PERSON_OPEN, PERSON_SEP, Person

#: the user id a forgotten person's seats and rows get: no Discord account has it
ANONYMOUS = 0
#: the tables whose rows of the person are deleted outright (the user id column of each)
DELETED = {"results": "user_id", "ratings": "user_id", "rating_changes": "user_id"}
#: columns that hold a user id as a plain number
ID_COLUMNS = {"games": ("host_id",), "actions": ("user_id",), "seasons": ("started_by",),
              "championships": ("host_id",)}
#: columns that hold JSON text (scrubbed value by value)
JSON_COLUMNS = {"games": ("setup", "seats", "state"), "deliveries": ("payload",), "timers": ("data",),
                "settings": ("data",)}
#: columns that hold words (a move's narration)
TEXT_COLUMNS = {"actions": ("narration",)}


@dataclass
class Forgotten:
    """What forgetting a person changed: rows rewritten and deleted per table, and the games touched."""

    user_id: int
    rewritten: dict[str, int] = field(default_factory=dict)
    deleted: dict[str, int] = field(default_factory=dict)
    games: set[int] = field(default_factory=set)
    #: the open games they left first (channel ids)
    left: list[int] = field(default_factory=list)

    @property
    def anything(self) -> bool:
        return bool(self.rewritten or self.deleted or self.left)


class Scrubber:
    """Replaces one person's id and names inside values: numbers, JSON and words."""

    def __init__(self, user_id: int, names: set[str]) -> None:
        self.user_id = user_id
        #: a mention in a text an older version stored (before people were person spans)
        self.mention = re.compile(rf"<@!?{user_id}>")
        self.person = re.compile(rf"{PERSON_OPEN}{user_id}{PERSON_SEP}[^{PERSON_CLOSE}{PERSON_OPEN}]*{PERSON_CLOSE}?")
        self.someone = texts.say("forget.someone")
        self.digits = re.compile(rf"(?<!\d){user_id}(?!\d)")
        # longest first, so "Ann Lee" goes before "Ann"
        self.names = [re.compile(rf"(?<!\w){re.escape(n)}(?!\w)") for n in sorted(names, key=len, reverse=True) if n]

    def text(self, value: str, label: str | None) -> str:
        value = self.person.sub(lambda _m: str(Person(ANONYMOUS, label or self.someone)), value)
        if label is not None:
            value = self.mention.sub(lambda _m: label, value)
            for pattern in self.names:
                value = pattern.sub(lambda _m: label, value)
        return self.digits.sub(str(ANONYMOUS), value)

    def json(self, value: Any, label: str | None) -> Any:
        if isinstance(value, bool):
            return value
        if isinstance(value, int):
            return ANONYMOUS if value == self.user_id else value
        if isinstance(value, str):
            return self.text(value, label)
        if isinstance(value, list):
            return [self.json(v, label) for v in value]
        if isinstance(value, dict):
            if self._is_them(value.get("person")) and len(value) == 1:  # a line's person parameter
                return {"person": [ANONYMOUS, label or self.someone]}
            return {self.text(k, label): self.json(v, label) for k, v in value.items()}
        return value

    def _is_them(self, person: Any) -> bool:
        return isinstance(person, list) and len(person) == 2 and person[0] == self.user_id

    def json_text(self, raw: str | None, label: str | None) -> str | None:
        if raw is None:
            return None
        try:
            value = json.loads(raw)
        except ValueError:
            return self.text(raw, label)
        scrubbed = self.json(value, label)
        return raw if scrubbed == value else dumps(scrubbed)


def seat_label(lang: str, seat: int | None) -> str:
    """The name a forgotten person's seat gets: "Player N" in the game's language, "someone" without a seat."""
    if seat is None:
        return texts.say("forget.someone", lang)
    return texts.say("forget.player", lang, n=seat + 1)


async def _survey(store: Store, user_id: int, held: Mapping[int, tuple[int, str]]
                  ) -> tuple[set[str], dict[int, str]]:
    """The names the person played under, and the label of each game their id appears in (``held``: game id
    → (seat, name) of the seats they held in games they just left)."""
    names: set[str] = {name for _, name in held.values()}
    labels: dict[int, str] = {}
    digits = re.compile(rf"(?<!\d){user_id}(?!\d)")
    async for game in store.rows("games"):
        seats = json.loads(game["seats"] or "[]")
        mine = [i for i, s in enumerate(seats) if int(s.get("user_id", 0)) == user_id]
        mine += [held[int(game["id"])][0]] if int(game["id"]) in held else []
        names.update(str(seats[i].get("name", "")) for i in mine if int(seats[i].get("user_id", 0)) == user_id)
        if mine or int(game["host_id"]) == user_id:
            labels[int(game["id"])] = seat_label(game.get("lang") or "en", mine[0] if mine else None)
    for table in ("results", "ratings"):
        async for row in store.rows(table):
            if int(row["user_id"]) == user_id:
                names.add(str(row["name"]))
    langs = {int(g["id"]): g.get("lang") or "en" async for g in store.rows("games")}
    for table, column in (("actions", "user_id"), ("deliveries", "payload"), ("timers", "data")):
        async for row in store.rows(table):
            game_id = row.get("game_id")
            if game_id is None or int(game_id) in labels:
                continue
            value = row[column]
            if (value == user_id) if column == "user_id" else bool(digits.search(str(value))):
                labels[int(game_id)] = seat_label(langs.get(int(game_id), "en"), None)
    names.discard("")
    return names, labels


def _scrubbed(table: str, row: dict[str, Any], scrub: Scrubber, label: Callable[[dict[str, Any]], str | None]
              ) -> dict[str, Any] | None:
    """The row with the person taken out, or None when nothing of them was in it."""
    new = dict(row)
    where = label(row)
    for column in ID_COLUMNS.get(table, ()):
        if new[column] == scrub.user_id:
            new[column] = ANONYMOUS
    for column in JSON_COLUMNS.get(table, ()):
        new[column] = scrub.json_text(new[column], where)
    for column in TEXT_COLUMNS.get(table, ()):
        if isinstance(new[column], str):
            new[column] = scrub.text(new[column], where)
    if table == "games":
        new["seats"] = _anonymous_seats(new["seats"], scrub.user_id, row.get("lang") or "en", row["seats"])
    return new if new != row else None


def _anonymous_seats(seats_json: str, user_id: int, lang: str, before: str) -> str:
    """The seats with the person's (as they were in ``before``) given the anonymous id and "Player N"."""
    seats = json.loads(seats_json or "[]")
    old = json.loads(before or "[]")
    for i, seat in enumerate(old):
        if int(seat.get("user_id", 0)) == user_id and i < len(seats):
            seats[i]["user_id"] = ANONYMOUS
            seats[i]["name"] = seat_label(lang, i)
    return dumps(seats) if seats != json.loads(seats_json or "[]") else seats_json


async def scrub_store(store: Store, user_id: int, held: Mapping[int, tuple[int, str]] | None = None) -> Forgotten:
    """Rewrite and delete every row of the open ``store`` that holds the person ``user_id`` (see the module's
    words), in one transaction; ``held``: game id → (seat, name) of the seats they held in games they just
    left, whose seat keeps its number in the label."""
    if user_id <= 0:
        raise ValueError(f"a person's user id is a positive number, not {user_id}")
    report = Forgotten(user_id)
    names, labels = await _survey(store, user_id, held or {})
    scrub = Scrubber(user_id, names)

    def label(table: str) -> Callable[[dict[str, Any]], str | None]:
        column = "id" if table == "games" else "game_id"
        return lambda row: labels.get(int(row[column])) if row.get(column) is not None else None

    updates: dict[str, list[dict[str, Any]]] = {}
    deletes: dict[str, list[dict[str, Any]]] = {}
    for table in store.tables():
        async for row in store.rows(table):
            if (table in DELETED and row[DELETED[table]] == user_id) or (
                    table == "settings" and (row["owner"] == user_id or row["target"] == user_id)):
                deletes.setdefault(table, []).append(row)
                continue
            new = _scrubbed(table, row, scrub, label(table))
            if new is not None:
                updates.setdefault(table, []).append(new)
    await store.rewrite_rows(updates, deletes)
    report.rewritten = {t: len(rows) for t, rows in updates.items()}
    report.deleted = {t: len(rows) for t, rows in deletes.items()}
    report.games = set(labels)
    return report


class Leaver(Protocol):
    """What a person is forgotten through (the service is one): the store, ``/game leave`` and the running
    games kept in memory."""

    @property
    def store(self) -> Store: ...

    async def leave(self, channel_id: int, user_id: int, lang: str | None = None) -> object: ...

    def forget(self, game_id: int, *, drivers: bool = False) -> None: ...


async def forget(leaver: Leaver, user_id: int) -> Forgotten:
    """Forget the person ``user_id``: they leave every open game they sit in (through ``leaver``, as by
    ``/game leave``), then :func:`scrub_store` takes them out of every row."""
    store = leaver.store
    left: list[int] = []
    held: dict[int, tuple[int, str]] = {}
    for status in (ACTIVE, LOBBY):
        for rec in await store.games.games_of_user(user_id, status):
            seat = rec.seat_of(user_id)
            if seat is not None:
                held[rec.id] = (seat, rec.seats[seat].name)
                await leaver.leave(rec.channel_id, user_id)
                left.append(rec.channel_id)
    report = await scrub_store(store, user_id, held)
    report.left = left
    for game_id in report.games:
        leaver.forget(game_id)  # what the service keeps of those games in memory: read them again
    return report


__all__ = ["ANONYMOUS", "Forgotten", "Scrubber", "forget", "scrub_store", "seat_label"]
