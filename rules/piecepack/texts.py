"""Every player-facing text of Junkyard (piecepack), in English and German, from the catalogue in ``locale/``.

Events carry their message id and parameters in ``data["msg"]`` and ``data["params"]``; refusals and
notation errors carry them as ``IllegalAction.msg`` and ``.params``. Parameters are data, never words, so a
stored event or a refusal can be said again in any language with :func:`say`, which words them:

- a seat, ``{"seat": 1, "name": "Bob"}`` (:func:`seat`) → "Moons (Bob)" / "Monde (Bob)", or the suit alone
  when the player's name is the suit's;
- a suit, ``{"suit": 1}`` (:func:`suit`) → "Moons" / "Monde";
- a die face, ``{"face": 1}`` (:func:`face`) under key ``k`` → ``{k}`` ("Ace" / "Ass") and ``{a_k}``
  (German with its article: "ein Ass");
- a trash pyramid, ``{"piece": "MB"}`` (:func:`piece`) → "Moons B" / "Monde B";
- legal destinations, ``{"legal": ["a2", "b1"]}`` (:func:`legal`) → "move to a2, b1" / "Zug nach a2, b1".

A text that counts something is a plural entry of the catalogue; its number is the parameter ``count``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from rules.catalogue import LANGS, Catalogue
from rules.contract import Event, IllegalAction, NotationError
from rules.literal import Name, mark
from rules.piecepack.board import SUIT_CODES, SUITS

CATALOGUE = Catalogue(Path(__file__).parent / "locale")

#: how many legal destinations a refusal lists before "… and N more"
LEGAL_LIMIT = 12


# Data parameters ---------------------------------------------------------------------------------------


def seat(number: int, name: str) -> dict[str, Any]:
    """A seat as a parameter: its number and its player's name."""
    return {"seat": number, "name": name}


def suit(number: int) -> dict[str, Any]:
    """A suit (by seat number) as a parameter."""
    return {"suit": number}


def face(number: int) -> dict[str, Any]:
    """A die face (0 Null, 1 Ace, 2–5) as a parameter."""
    return {"face": number}


def piece(code: str) -> dict[str, Any]:
    """A trash pyramid (``"MB"``) as a parameter."""
    return {"piece": code}


def legal(squares: Iterable[str]) -> dict[str, Any]:
    """The legal destinations as a parameter."""
    return {"legal": list(squares)}


# Wording -----------------------------------------------------------------------------------------------


def _lang(lang: str) -> str:
    return lang if lang in LANGS else "en"


def suit_word(number: int, lang: str = "en") -> str:
    """The suit of seat ``number`` in ``lang``."""
    return CATALOGUE.say(f"suit.{number}", _lang(lang))


def seat_word(number: int, name: str, lang: str = "en") -> str:
    """A seat in ``lang``: its suit, with the player's name unless the name is the suit's own."""
    word = suit_word(number, lang)
    if name in (SUITS[number], word):
        return word
    return CATALOGUE.say("seat.named", _lang(lang), suit=word, name=Name(name))


def name_word(number: int, name: str, lang: str = "en") -> str:
    """A seat's player name (as typed: :mod:`rules.literal`), or its suit in ``lang`` when the player is named
    after the suit."""
    return suit_word(number, lang) if name == SUITS[number] else mark(name)


def face_word(number: int, lang: str = "en", article: bool = False) -> str:
    """A die face in ``lang``; with ``article`` as the object of "rolls" ("ein Ass")."""
    return CATALOGUE.say(f"{'a_face' if article else 'face'}.{number}", _lang(lang))


def piece_word(code: str, lang: str = "en") -> str:
    """A trash pyramid in ``lang``: ``"MB"`` → "Moons B"."""
    return CATALOGUE.say("piece", _lang(lang), suit=suit_word(SUIT_CODES.index(code[0]), lang), letter=code[1])


def legal_word(squares: Sequence[str], lang: str = "en", limit: int = LEGAL_LIMIT) -> str:
    """The legal destinations in ``lang``, the first ``limit`` of them named."""
    lang = _lang(lang)
    shown = ", ".join(squares[:limit])
    if len(squares) > limit:
        shown = CATALOGUE.say("legal.more", lang, squares=shown, more=len(squares) - limit)
    return CATALOGUE.say("legal.moves", lang, squares=shown)


def _worded(key: str, value: Any, lang: str) -> dict[str, Any]:
    """The placeholder values one parameter gives."""
    if not isinstance(value, dict):
        return {key: value}
    if "seat" in value:
        return {key: seat_word(int(value["seat"]), str(value.get("name", SUITS[int(value["seat"])])), lang)}
    if "suit" in value:
        return {key: suit_word(int(value["suit"]), lang)}
    if "face" in value:
        number = int(value["face"])
        return {key: face_word(number, lang), f"a_{key}": face_word(number, lang, article=True)}
    if "piece" in value:
        return {key: piece_word(str(value["piece"]), lang)}
    if "legal" in value:
        return {key: legal_word([str(s) for s in value["legal"]], lang)}
    return {key: value}


@cache
def _plural(msg: str) -> bool:
    return len(CATALOGUE.entries("en").get(msg, ())) > 1


def say(msg: str, lang: str = "en", **params: Any) -> str:
    """Message ``msg`` in ``lang`` (English for a language the catalogue lacks), its data parameters worded;
    ``count`` chooses the form of a counted text."""
    lang = _lang(lang)
    values: dict[str, Any] = {}
    for key, value in params.items():
        values.update(_worded(key, value, lang))
    count = values.pop("count", None) if _plural(msg) else None
    return CATALOGUE.say(msg, lang, count=count, **values)


# Events and refusals -----------------------------------------------------------------------------------


def event(kind: str, msg: str, seat_number: int | None, data: dict[str, Any] | None = None,
          **params: Any) -> Event:
    """An event whose ``text`` is message ``msg`` in English; the id and parameters go in its data."""
    full = dict(data or {})
    full["msg"] = msg
    full["params"] = params
    return Event(kind, say(msg, "en", **params), seat_number, full)


def refuse(msg: str, **params: Any) -> IllegalAction:
    """A refusal: message ``msg`` in English, carrying its id and parameters."""
    return IllegalAction(say(msg, "en", **params), msg=msg, params=params)


def bad_notation(msg: str, **params: Any) -> NotationError:
    """A notation error: message ``msg`` in English, carrying its id and parameters."""
    return NotationError(say(msg, "en", **params), msg=msg, params=params)


def event_text(e: Event, lang: str = "en") -> str:
    """One event in ``lang``; an event stored without an id (or with parameters the catalogue cannot word)
    keeps its own English ``text``."""
    data = e.data or {}
    msg = data.get("msg")
    if not isinstance(msg, str) or msg not in CATALOGUE.ids:
        return e.text
    try:
        return say(msg, lang, **dict(data.get("params") or {}))
    except (KeyError, IndexError, ValueError, TypeError):
        return e.text


def narrate(events: Sequence[Event], lang: str = "en") -> str:
    """The events' sentences in ``lang``, in order, with any secret the viewer may read."""
    parts = [event_text(e, lang) for e in events]
    parts = [f"{p} {e.secret}" if e.secret else p for p, e in zip(parts, events, strict=True)]
    return " ".join(p for p in parts if p)


def refusal_text(exc: Exception, lang: str = "en") -> str:
    """A refused action in ``lang``; a refusal without a catalogue id keeps its own text."""
    msg, params = getattr(exc, "msg", None), getattr(exc, "params", None)
    if isinstance(msg, str) and msg in CATALOGUE.ids and isinstance(params, dict):
        try:
            return say(msg, lang, **params)
        except (KeyError, IndexError, ValueError, TypeError):
            pass
    return str(exc)


__all__ = ["CATALOGUE", "LEGAL_LIMIT", "bad_notation", "event", "event_text", "face", "face_word", "legal",
           "legal_word", "name_word", "narrate", "piece", "piece_word", "refusal_text", "refuse", "say", "seat",
           "seat_word", "suit", "suit_word"]
