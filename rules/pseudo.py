"""The pseudo-language ``qps``: English made strange on purpose, to find words that do not go through a
catalogue.

Every text of ``qps`` is its English text with each letter accented (``a`` → ``á``), padded about 40 %
longer (``·``) and bracketed (``⟦…⟧``). A word shown outside such a bracket, or written in plain ASCII
letters, was not said through a catalogue. What a program reads stays as it is: ``{placeholders}``,
backtick spans (notation a player types), Discord's ``<…>`` marks, addresses, the name marks of
:mod:`rules.literal`, markdown marks, emoji and newlines. Texts a program splits into words a player types
(:data:`TYPED`) are accented only, without bracket or padding.

``qps`` is an ISO 639 code reserved for local use. The project offers it only when the environment has
``JUNKYARD_PSEUDO_LOCALE=1`` (:func:`rules.catalogue.languages`); ``python -m bot.pseudo`` writes its files
from the English ones.
"""

from __future__ import annotations

import math
import re

#: the pseudo-language's code
CODE = "qps"
#: around every pseudo text
OPEN, CLOSE = "⟦", "⟧"
#: what pads a text
PAD = "·"
#: how much longer a pseudo text is than its English (the words of German and others run longer)
GROWTH = 0.4

_LOWER = "áƀçđéƒĝĥíĵķĺḿńóƥǫŕšţúṽŵẋýž"
_UPPER = "ÁƁÇĐÉƑĜĤÍĴĶĹḾŃÓƤǪŔŠŢÚṼŴẊÝŽ"
ACCENTS = str.maketrans("abcdefghijklmnopqrstuvwxyz" + "ABCDEFGHIJKLMNOPQRSTUVWXYZ", _LOWER + _UPPER)

#: spans a program reads, kept as they are: escaped braces, placeholders, code spans, Discord's marks
#: (mentions, channels, timestamps, commands), addresses, marked names, emoji short codes
KEPT = re.compile(r"\{\{|\}\}|\{[^{}]*\}|```.*?```|`[^`]*`|<[@#/:at!&][^<>\s]*>|https?://\S+"
                  r"|\ufdd0[^\ufdd1]*\ufdd1|:[a-z0-9_]+:", re.DOTALL)
#: markdown that must open a line: a heading, a quote, a list item
LEADING = re.compile(r"(?:#{1,3} |> |[-*] )")

#: message ids whose text a program splits into words a player types (accented, never bracketed)
TYPED = re.compile(r"terminal\.word\..*")


def accent(text: str) -> str:
    """Every ASCII letter of ``text`` accented, what a program reads (:data:`KEPT`) left as it is."""
    out, at = [], 0
    for kept in KEPT.finditer(text):
        out.append(text[at:kept.start()].translate(ACCENTS))
        out.append(kept.group())
        at = kept.end()
    out.append(text[at:].translate(ACCENTS))
    return "".join(out)


def padding(text: str) -> str:
    """The padding that makes ``text`` about :data:`GROWTH` longer (at least one mark)."""
    return PAD * max(1, math.ceil(len(text) * GROWTH))


def pseudo(text: str, limit: int | None = None) -> str:
    """A text in ``qps``: accented, padded and bracketed, its leading and trailing white space and a
    line-opening markdown mark outside the bracket; within ``limit`` characters if given (the padding
    shrinks first, then the text)."""
    core = text.strip()
    if not core:
        return text
    head = text[: len(text) - len(text.lstrip())]
    tail = text[len(text.rstrip()):]
    mark = LEADING.match(core)
    if mark:
        head, core = head + mark.group(), core[mark.end():]
    body, pad = accent(core), padding(core)
    if limit is not None:
        room = limit - len(head) - len(tail) - 2
        body = body[:room]
        pad = pad[: max(0, room - len(body))]
    return f"{head}{OPEN}{body}{pad}{CLOSE}{tail}"


def typed(text: str) -> str:
    """A text of words a player types, comma-separated: each word accented, nothing added."""
    return accent(text)


def name(text: str, limit: int = 32) -> str:
    """A command's or option's name in ``qps``, valid for Discord (lower case, letters, ``-`` and ``_``,
    at most ``limit`` characters): accented and padded with ``ẋ``."""
    word = accent(text.lower())
    extra = max(1, math.ceil(len(text) * GROWTH))
    return (word + "ẋ" * extra)[:limit]


def forms(msg: str, texts: tuple[str, ...]) -> tuple[str, ...]:
    """The ``qps`` forms of a catalogue entry's English forms."""
    if TYPED.fullmatch(msg):
        return tuple(typed(t) for t in texts)
    return tuple(pseudo(t) for t in texts)


def unbracketed(text: str) -> list[str]:
    """The ASCII words of ``text`` (runs of letters and digits with a letter) outside every pseudo bracket
    (brackets nest): words that did not go through a ``qps`` catalogue. Marked names (:mod:`rules.literal`)
    are skipped."""
    text = re.sub("\ufdd0[^\ufdd1]*\ufdd1", " ", text)
    depth, outside = 0, []
    for char in text:
        if char == OPEN:
            depth += 1
        elif char == CLOSE:
            depth = max(0, depth - 1)
        outside.append(char if depth == 0 else " ")
    return [w for w in re.findall(r"[A-Za-z0-9]+", "".join(outside)) if re.search("[A-Za-z]", w)]


__all__ = ["ACCENTS", "CLOSE", "CODE", "GROWTH", "OPEN", "PAD", "TYPED", "accent", "forms", "name", "padding",
           "pseudo", "typed", "unbracketed"]
