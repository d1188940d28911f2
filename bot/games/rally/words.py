"""What Schrottplatz Rally says to players, in English or German: narration of events and refusals.

Every sentence comes from the message catalogue of the rules (:mod:`rules.rally.texts`): events carry
their message id and parameters (``data["msg"]``, ``data["params"]``), refusals carry them as ``msg`` and
``params``, and :func:`rules.rally.texts.say` words them in either language. A few parameters arrive
already worded in English (the lists of cars of the start grid, the parts of a repair); they are worded
again here from the event's data, so a German line holds no English word.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.contract import Event
from rules.rally.texts import COLOUR_KEYS, LANGS, say, word

#: Discord locales that read German (``de`` itself; Discord sends ``de`` for German)
GERMAN_LOCALES = ("de", "de-de", "de-at", "de-ch")


def language(locale: str | None) -> str:
    """The catalogue language for a Discord locale (``"de"`` → German, anything else English)."""
    low = (locale or "").lower().replace("_", "-")
    return "de" if low in GERMAN_LOCALES or low.startswith("de-") else "en"


def _who(seat: int, names: Mapping[int, str], lang: str) -> str:
    colour = COLOUR_KEYS[seat] if 0 <= seat < len(COLOUR_KEYS) else str(seat)
    name = names.get(seat, word(colour, "en"))
    return say("who", lang, car=colour, name=name)


def _names(events: Sequence[Event]) -> dict[int, str]:
    """Seat → player name, from the events that name a car (every batch that lists cars names them)."""
    out: dict[int, str] = {}
    for e in events:
        params = (e.data or {}).get("params") or {}
        if e.seat is not None and "name" in params:
            out[e.seat] = str(params["name"])
    return out


def event_text(event: Event, lang: str = "en", names: Mapping[int, str] | None = None) -> str:
    """One event in ``lang``; an event without a catalogue id keeps its own (English) text."""
    data = event.data or {}
    msg = data.get("msg")
    if not isinstance(msg, str) or lang not in LANGS:
        return event.text
    params: dict[str, Any] = dict(data.get("params") or {})
    known = dict(names or {})
    if msg == "grid" and isinstance(data.get("order"), list):
        if all(s in known for s in data["order"]):
            params["cars"] = ", ".join(f"{i + 1}. {_who(s, known, lang)}" for i, s in enumerate(data["order"]))
        elif lang != "en":
            return event.text
    if msg == "grid_tie" and isinstance(data.get("seats"), list):
        if all(s in known for s in data["seats"]):
            params["cars"] = ", ".join(_who(s, known, lang) for s in data["seats"])
        elif lang != "en":
            return event.text
    if msg == "repair" and isinstance(data.get("items"), list):
        params["items"] = " + ".join(word(f"item.{i}", lang) for i in data["items"])
    try:
        return say(msg, lang, **params)
    except (KeyError, IndexError, ValueError):  # a message this catalogue does not know: its own text
        return event.text


def narrate(events: Sequence[Event], lang: str = "en") -> str:
    """One line per action: its events' sentences in order, a repeated sentence once."""
    names = _names(events)
    parts: list[str] = []
    for e in events:
        text = event_text(e, lang, names)
        if e.secret:
            text = f"{text} {e.secret}"
        if text and (not parts or parts[-1] != text):
            parts.append(text)
    return " ".join(parts)


def refusal(exc: Exception, lang: str = "en") -> str:
    """A refused action in ``lang``: the rules' refusal from the catalogue, else its own text (notation
    errors are worded in English only)."""
    msg, params = getattr(exc, "msg", None), getattr(exc, "params", None)
    if isinstance(msg, str) and isinstance(params, dict) and lang in LANGS:
        try:
            return say(msg, lang, **params)
        except (KeyError, IndexError, ValueError):
            pass
    return str(exc)


__all__ = ["GERMAN_LOCALES", "event_text", "language", "narrate", "refusal"]
