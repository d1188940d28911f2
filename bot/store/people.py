"""The schema upgrade's data step that names people in stored texts as person spans (:mod:`rules.literal`).

Older versions wrote Discord's mention (``<@id>``, ``<@!id>``) into the texts they stored: the narration of a
move, a delivery's lines, a timer's data. Now a person is a span of id and name, which each front shows its
way, so this step rewrites every stored mention into a span named by the game's seat (the first that person
holds), else "someone" in the game's language. A stored line's ``user`` or ``host`` parameter (a bare id: every
catalogue text with such a placeholder names a person) becomes a stored person, named the same way.

Both stores run it once, in the transaction of their upgrade's migration :data:`MARKER`, over the rows
:func:`upgraded` reads.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from bot import texts
from bot.store.sql import dumps
from rules.literal import Person

#: a mention an older version stored
MENTION = re.compile(r"<@!?(\d+)>")
#: the parameters of a stored line that name a person
PERSON_PARAMS = ("user", "host")
#: the text columns of each table the step reads (JSON or words)
TEXTS: dict[str, tuple[str, ...]] = {"actions": ("narration",), "deliveries": ("payload",), "timers": ("data",)}


class People:
    """Who sits in each game (user id → seat name) and its language, to name the people of its rows."""

    def __init__(self, games: Iterable[Mapping[str, Any]]) -> None:
        self.names: dict[int, dict[int, str]] = {}
        self.langs: dict[int, str] = {}
        for game in games:
            seats: dict[int, str] = {}
            for seat in json.loads(game.get("seats") or "[]"):
                seats.setdefault(int(seat.get("user_id", 0)), str(seat.get("name") or ""))
            self.names[int(game["id"])] = seats
            self.langs[int(game["id"])] = str(game.get("lang") or texts.DEFAULT)

    def person(self, game_id: int | None, user_id: int) -> Person:
        """``user_id`` of game ``game_id`` as a person: the seat's name, else "someone"."""
        name = self.names.get(game_id, {}).get(user_id) if game_id is not None else None
        lang = self.langs.get(game_id, texts.DEFAULT) if game_id is not None else texts.DEFAULT
        return Person(user_id, name or texts.say("terminal.someone", lang))


def spans_for(text: str, person: Callable[[int], Person]) -> str:
    """``text`` with each mention a person span."""
    return MENTION.sub(lambda m: str(person(int(m.group(1)))), text)


def _value(value: Any, person: Callable[[int], Person]) -> Any:
    """A JSON value with its mentions and its lines' person parameters rewritten."""
    if isinstance(value, str):
        return spans_for(value, person)
    if isinstance(value, list):
        return [_value(v, person) for v in value]
    if not isinstance(value, dict):
        return value
    out = {k: _value(v, person) for k, v in value.items()}
    params = out.get("params")
    if isinstance(out.get("say"), str) and isinstance(params, dict):
        for key in PERSON_PARAMS:
            who = params.get(key)
            if isinstance(who, int) and not isinstance(who, bool):
                found = person(who)
                params[key] = {"person": [found.user_id, found.name]}
    return out


def rewritten(raw: str, person: Callable[[int], Person], as_json: bool) -> str:
    """A stored column's text with people as person spans (the same text when it names none)."""
    if not as_json:
        return spans_for(raw, person)
    try:
        value = json.loads(raw)
    except ValueError:
        return spans_for(raw, person)
    new = _value(value, person)
    return raw if new == value else dumps(new)


def upgraded(table: str, row: Mapping[str, Any], people: People, keys: Iterable[str]) -> dict[str, Any] | None:
    """The row's key and its rewritten text columns, or None when nothing in it names a person."""
    game_id = row.get("game_id")
    person: Callable[[int], Person] = lambda uid: people.person(None if game_id is None else int(game_id), uid)  # noqa: E731
    changed: dict[str, Any] = {}
    for column in TEXTS[table]:
        raw = row.get(column)
        if isinstance(raw, str):
            new = rewritten(raw, person, as_json=column != "narration")
            if new != raw:
                changed[column] = new
    return {**{k: row[k] for k in keys}, **changed} if changed else None


#: the migration that marks the step in both stores' lists: nothing in the schema changes, the rows do
MARKER = "-- people in stored texts become person spans (bot/store/people.py)"

__all__ = ["MARKER", "MENTION", "TEXTS", "People", "rewritten", "spans_for", "upgraded"]
