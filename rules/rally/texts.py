"""Every player-facing text of Schrottplatz Rally, in English and German: the catalogue in ``locale/``
(``en.po``, ``de.po``; see :mod:`rules.catalogue`), keyed by message id.

Events carry their message id and parameters in ``data["msg"]`` and ``data["params"]``; refusals
(:class:`rules.rally.game.Refusal`) and notation errors (:class:`rules.rally.actions.BadNotation`) carry
them in ``msg`` and ``params``, so a front end can say them again in the player's language with
:func:`say`. Parameters are data (seats, names, supply ids, numbers), never words: :func:`say` words them
in the language asked for:

- ``car`` with ``name`` becomes ``who`` ("Red (Ann)", "Rot (Ann)");
- ``seats`` with ``names`` (every seat's player name) becomes ``cars`` ("Red (Ann) and Blue (Bob)") and
  ``ranking`` ("1. Red (Ann), 2. Blue (Bob)");
- ``item`` (a supply id: ``mechanic``, ``body``, ``engine``, ``fuel``) becomes ``item`` (its noun, counted
  like the text), ``a_item`` (with the indefinite article) and ``no_item`` (negated); ``parts`` (a list of
  supply ids) becomes ``parts`` ("body part + engine part");
- ``range``, ``limit``, ``lever``, ``service``, ``direction`` and ``other`` are words of the catalogue
  (``word.<key>``).

A text that counts something is a plural entry of the catalogue, asked for with ``count=`` (the number it
counts: laps, points, parts; the catalogue's comment on the entry names the parameter it goes with).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rules.catalogue import LANGS, Catalogue
from rules.literal import Name

#: the rally's texts in every language
CATALOGUE = Catalogue(Path(__file__).parent / "locale")

#: car colours by seat (avoiding green and yellow, the colours of the rev ranges and curves)
COLOUR_KEYS: tuple[str, ...] = ("red", "blue", "orange", "purple", "white", "black")

_TRANSLATED = {"range", "limit", "lever", "service", "direction"}


def _lang(lang: str) -> str:
    return lang if lang in LANGS else "en"


def word(key: str, lang: str = "en") -> str:
    """A word of the catalogue (``word.<key>``: a colour, a range, a service, a supply): ``item.<id>`` is
    its noun, ``items.<id>`` its plural; an unknown key as it is."""
    if key.startswith("items."):
        return CATALOGUE.say(f"word.item.{key[6:]}", _lang(lang), count=2)
    msg = f"word.{key}"
    if msg not in CATALOGUE.ids:
        return key
    return CATALOGUE.say(msg, _lang(lang), count=1 if key.startswith("item.") else None)


def message_ids() -> list[str]:
    """Every message id of the catalogue but its words."""
    return sorted(m for m in CATALOGUE.ids if not m.startswith("word."))


def template(msg: str, lang: str, count: int | None = None) -> str:
    """The text of ``msg`` in ``lang``, in the form ``count`` asks for if it counts something."""
    return CATALOGUE.template(msg, _lang(lang), count)


def amount(count: int, item: str, lang: str = "en") -> str:
    """``count`` of a supply in words, singular or plural: "1 fuel can", "2 body parts"."""
    return f"{count} {CATALOGUE.say('word.item.' + item, _lang(lang), count=count)}"


def _who(car: str, name: Any, lang: str) -> str:
    colour = word(car, lang)
    return colour if str(name).lower() == car.lower() else f"{colour} ({Name(str(name))})"


def _seat_lists(values: dict[str, Any], lang: str) -> None:
    """``seats`` and ``names`` → ``cars`` ("Red (Ann) and Blue (Bob)") and ``ranking`` ("1. Red (Ann), …")."""
    names = list(values.get("names") or [])
    cars = [_who(COLOUR_KEYS[s], names[s] if s < len(names) else COLOUR_KEYS[s], lang) for s in values["seats"]]
    values["cars"] = cars[0] if len(cars) == 1 else ", ".join(cars[:-1]) + f" {word('and', lang)} {cars[-1]}"
    values["ranking"] = ", ".join(f"{i + 1}. {c}" for i, c in enumerate(cars))


def say(msg: str, lang: str = "en", count: int | None = None, **params: Any) -> str:
    """The text of message ``msg`` in ``lang`` (English if the language is unknown); ``count`` picks the
    form of a text that counts something (and of its ``item``)."""
    lang = _lang(lang)
    text = template(msg, lang, count)
    values = dict(params)
    if count is not None:
        values["count"] = count
    if "car" in values:
        values["who"] = _who(str(values["car"]), values.get("name", values["car"]), lang)
    if isinstance(values.get("seats"), list):
        _seat_lists(values, lang)
    if "other" in values:
        values["other"] = word(values["other"], lang)
    for key in _TRANSLATED:
        if key in values and isinstance(values[key], str) and not msg.startswith("n_"):
            values[key] = word(f"range.{values[key]}", lang) if f"word.range.{values[key]}" in CATALOGUE.ids \
                else word(values[key], lang)
    if "item" in values:
        item = values["item"]
        values["a_item"], values["no_item"] = word(f"a.{item}", lang), word(f"no.{item}", lang)
        values["item"] = CATALOGUE.say(f"word.item.{item}", lang, count=1 if count is None else count)
    if isinstance(values.get("parts"), list):
        values["parts"] = " + ".join(word(f"item.{p}", lang) for p in values["parts"])
    return text.format(**values)


__all__ = ["CATALOGUE", "COLOUR_KEYS", "LANGS", "amount", "message_ids", "say", "template", "word"]
