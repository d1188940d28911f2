"""Every text Junkyard Races says to players, from its catalogue (``rules/races/locale/en.po``, ``de.po``).

Rules never build sentences: they name a message id and give its parameters as data, and :func:`say`
words them in the language asked for.

- A refusal is ``raise refuse("refuse.glue_one_die")``: an :class:`IllegalAction` whose ``str`` is the
  English text and whose ``msg``/``params`` let :func:`refusal_text` say it again in any language.
- A reason the rules pass along as a string (why a step is refused, why a cell can't take a trap) is a
  :class:`Said`: a ``str`` holding the English text that remembers its id and parameters, so a refusal
  built around it is worded in one language throughout.
- An event keeps its English ``text`` (for logs and old readers) and carries ``data["msg"]`` and
  ``data["params"]``; its secret narration carries its own id and parameters in ``Event.secret_data``,
  which views for other seats drop (see :mod:`rules.contract`). :func:`event_text`,
  :func:`secret_text` and :func:`narrate` word them; events stored before they had ids keep their text.

Parameters are data, worded by :func:`say`:

- a kart, ``kart_of(k)`` = ``{"name": ..., "colour": ...}``: "Ann (red)", "Ann (rot)";
- ``tile`` (a junk tile kind), ``part``/``held``/``engine`` (a part id), ``phase``, ``terrain``, ``facing``/
  ``arrow``, ``fuel`` (a fuel die colour), ``pile`` (a Pit Stop's colour), ``weapon`` and ``colour`` (a kart
  colour) are words of the catalogue (``tile.oil``, ``part.jet-engine``…); a format spec
  picks a form the language needs, ``{part:the_acc}`` → ``part.jet-engine.the_acc`` ("the Jet Engine",
  "das Jet-Triebwerk");
- a list is joined (``{locations:or}``: "4 or 5", "4 oder 5"); ``tiles`` is a list of tile kinds;
- a :class:`Said` (or ``{"msg": ..., "params": ...}``) is a message of its own, worded in the same language;
- ``count`` chooses the form of a plural entry and is itself ``{count}``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from rules.catalogue import LANGS, Catalogue
from rules.contract import Event, IllegalAction, NotationError
from rules.literal import Name

CATALOGUE = Catalogue(Path(__file__).parent / "locale")

#: parameter names whose values are ids of words in the catalogue: name -> the words' id prefix
WORDS: dict[str, str] = {
    "tile": "tile", "part": "part", "held": "part", "engine": "part", "phase": "phase", "terrain": "terrain",
    "facing": "facing", "arrow": "facing", "fuel": "fuel", "pile": "pile", "weapon": "weapon", "colour": "colour",
}
#: list parameters whose items are words: name -> the words' id prefix
LIST_WORDS: dict[str, str] = {"tiles": "tile", "racing": "colour"}


class Said(str):
    """A text the rules pass on as a string (English), remembering its message id and parameters."""

    msg: str
    params: dict[str, Any]

    def __new__(cls, msg: str, **params: Any) -> Said:
        self = super().__new__(cls, say(msg, "en", **params))
        self.msg = msg
        self.params = plain(params)
        return self

    def to_data(self) -> dict[str, Any]:
        return {"msg": self.msg, "params": self.params}

    def __reduce__(self) -> tuple[Any, ...]:  # pickled (for a worker process) and copied as its id and parameters
        return (_said_from, (self.msg, self.params))


def _said_from(msg: str, params: dict[str, Any]) -> Said:
    return Said(msg, **params)


def said(msg: str, **params: Any) -> Said:
    """Message ``msg`` as a :class:`Said` (an English ``str`` that can be worded again). Reasons with plain
    parameters are made once: the movement rules give them for every refused step they look at."""
    try:
        return _said_once(msg, tuple(sorted(params.items())))
    except TypeError:  # a parameter that can't be a key (a kart, a list)
        return Said(msg, **params)


@lru_cache(maxsize=4096)
def _said_once(msg: str, params: tuple[tuple[str, Any], ...]) -> Said:
    return Said(msg, **dict(params))


def said_back(value: Any, default: str) -> Said | str:
    """A :class:`Said` stored as data (``{"msg", "params"}``) as one again; an old stored English text stays
    as it is, and nothing stored is message ``default``."""
    if isinstance(value, Mapping) and isinstance(value.get("msg"), str):
        return Said(value["msg"], **dict(value.get("params") or {}))
    return str(value) if value is not None else Said(default)


def refuse(msg: str, **params: Any) -> IllegalAction:
    """The refusal ``msg``: an :class:`IllegalAction` in English that carries its id and parameters."""
    return IllegalAction(say(msg, "en", **params), msg=msg, params=plain(params))


def bad_notation(msg: str, **params: Any) -> NotationError:
    """A notation error ``msg``, like :func:`refuse`."""
    return NotationError(say(msg, "en", **params), msg=msg, params=plain(params))


def kart_of(k: Any) -> dict[str, str]:
    """A kart as a parameter: its player's name and its colour."""
    return {"name": str(k.name), "colour": str(k.colour)}


def reason_of(exc: Exception) -> Any:
    """A refusal as a parameter of another message: its id and parameters, or its text if it has no id."""
    msg = getattr(exc, "msg", None)
    if isinstance(msg, str):
        return {"msg": msg, "params": plain(getattr(exc, "params", {}) or {})}
    return str(exc)


def plain(value: Any) -> Any:
    """Parameters as plain JSON data (a :class:`Said` becomes ``{"msg", "params"}``)."""
    if isinstance(value, Said):
        return value.to_data()
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


@lru_cache(maxsize=8192)
def template(msg: str, lang: str, count: int | None = None) -> str:
    """The unfilled text of ``msg`` (see :meth:`Catalogue.template`), looked up once: refusals and reasons are
    said many times while the rules search for legal moves."""
    return CATALOGUE.template(msg, lang, count)


@cache
def plural_ids() -> frozenset[str]:
    """The ids of the entries that count something (asked for with ``count``)."""
    return frozenset(k for k, forms in CATALOGUE.entries("en").items() if len(forms) > 1)


class _Word:
    """A word of the catalogue; ``format(word, "acc")`` gives its form ``<id>.acc``."""

    def __init__(self, wid: str, lang: str) -> None:
        self.wid, self.lang = wid, lang

    def __format__(self, spec: str) -> str:
        return template(f"{self.wid}.{spec}" if spec else self.wid, self.lang)

    def __str__(self) -> str:
        return self.__format__("")


class _List:
    """A list of words or labels: ``{x}`` joins with commas, ``{x:semi}`` with semicolons, ``{x:slash}`` with
    slashes, ``{x:or}`` says "a, b or c"; ``{x:none}`` and ``{x:nothing}`` say that word for an empty list."""

    def __init__(self, items: list[str], lang: str) -> None:
        self.items, self.lang = items, lang

    def __format__(self, spec: str) -> str:
        items = self.items
        if not items and spec in ("none", "nothing"):
            return template(f"word.{spec}", self.lang)
        if spec in ("or", "and") and len(items) > 1:
            last = template(f"word.{spec}", self.lang)
            return ", ".join(items[:-1]) + f" {last} " + items[-1]
        return {"semi": "; ", "slash": " / "}.get(spec, ", ").join(items)


def _worded(key: str, value: Any, lang: str) -> Any:
    if isinstance(value, Said):
        value = value.to_data()
    if isinstance(value, Mapping):
        if "msg" in value:
            return say(str(value["msg"]), lang, **dict(value.get("params") or {}))
        if "name" in value and "colour" in value:
            colour = _Word(f"colour.{value['colour']}", lang)
            return template("kart", lang).format(name=Name(str(value["name"])), colour=colour)
        return value
    if isinstance(value, (list, tuple)):
        prefix = LIST_WORDS.get(key)
        items = [str(_Word(f"{prefix}.{v}", lang)) if prefix else str(_worded("", v, lang)) for v in value]
        return _List(items, lang)
    if key in WORDS and isinstance(value, str):
        return _Word(f"{WORDS[key]}.{value}", lang)
    return value


def say(msg: str, lang: str = "en", **params: Any) -> str:
    """Message ``msg`` in ``lang`` (English for a language the catalogue lacks), its parameters worded."""
    count = params.get("count") if msg in plural_ids() else None
    worded = {k: _worded(k, v, lang) for k, v in params.items()}
    return template(msg, lang if lang in LANGS else "en", count).format(**worded)


def _said_again(msg: Any, params: Any, lang: str) -> str | None:
    if not isinstance(msg, str) or msg not in CATALOGUE.ids:
        return None
    try:
        return say(msg, lang, **dict(params or {}))
    except (KeyError, IndexError, ValueError, TypeError):
        return None


def event_text(event: Event, lang: str = "en") -> str:
    """An event's public narration in ``lang``; an event stored without an id keeps its (English) text."""
    data = event.data or {}
    text = _said_again(data.get("msg"), data.get("params"), lang)
    return event.text if text is None else text


def secret_text(event: Event, lang: str = "en") -> str | None:
    """The secret narration of an event (only its seat's view still has it) in ``lang``, or None."""
    secret = event.secret_data or {}
    text = _said_again(secret.get("msg"), secret.get("params"), lang)
    return event.secret if text is None else text


def narrate(events: Sequence[Event], lang: str = "en") -> str:
    """The events as lines in ``lang``, each with its secret when the viewer may read it; a line repeated
    at once is said once."""
    lines: list[str] = []
    for e in events:
        text = event_text(e, lang)
        secret = secret_text(e, lang)
        if secret:
            text = f"{text} {secret}"
        if text and (not lines or lines[-1] != text):
            lines.append(text)
    return "\n".join(lines)


def prompt_text(choice: Mapping[str, Any], lang: str = "en") -> str:
    """The question a game asks (a view's ``choice``) in ``lang``; a question stored without an id keeps its
    English prompt."""
    ask = choice.get("ask") or {}
    text = _said_again(ask.get("msg"), ask.get("params"), lang) if isinstance(ask, Mapping) else None
    return str(choice.get("prompt", "")) if text is None else text


def refusal_text(exc: Exception, lang: str = "en") -> str:
    """A refused action in ``lang``: said again from its id, or its own text when it has none. A setup the
    rules refuse (:class:`SetupError`) carries its reason as a :class:`Said`, worded the same way."""
    msg, params = getattr(exc, "msg", None), getattr(exc, "params", None)
    if msg is None and exc.args and isinstance(exc.args[0], Said):
        msg, params = exc.args[0].msg, exc.args[0].params
    text = _said_again(msg, params, lang)
    return str(exc) if text is None else text


__all__ = [
    "CATALOGUE",
    "Said",
    "bad_notation",
    "event_text",
    "kart_of",
    "narrate",
    "plain",
    "prompt_text",
    "reason_of",
    "refusal_text",
    "refuse",
    "said",
    "said_back",
    "say",
    "secret_text",
    "template",
]
