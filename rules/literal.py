"""Names a person chose (a season's name, a player's display name, a track file's name) and the people the
bot speaks of, carried inside our texts so that every front shows them as it should.

A name goes into a text as a marked span. :class:`Name` is the name itself: a ``str`` that compares, hashes,
serialises and prints as the name; formatting it (``"{name}".format(...)``, an f-string, a catalogue's
``say``) gives the name between two marks, the Unicode noncharacters U+FDD0 and U+FDD1, which are meant for a
program's own use and which no text carries otherwise (a name's own are dropped). The marks stay with the text
wherever it goes (joined, worded inside another sentence, stored in a record), and each front renders them
where the text leaves it (:func:`render`): Discord escapes the span's markdown and mentions, the terminal and
the web page show its characters while they strip their own markup around it, and a field shown without
markup (a button's label, a picture's description) drops the marks (:func:`bare`).

A name with none of the characters a front reads as markup or a mention (:data:`SPECIAL`) reads the same on
every front with or without marks, so it goes into the text as it is: texts with ordinary names ("Ann",
"Computer 2 (random)") are what they always were.

A person the bot speaks of (a player, the host) is a :class:`Person`: their user id and the name the bot knows
for them (their seat's name, their display name at the time). Formatted into a text it is a person span, the
id and the name between the noncharacters U+FDD2, U+FDD3 and U+FDD4, always marked. Each front decides how a
person reads (``render(..., person=...)``): Discord mentions them (a computer's or an unknown id reads as the
name), the terminal, the web page and fields without markup show the name (:func:`bare`). So no Discord markup
is written below the Discord front.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Literal

#: the marks around a name in a text
OPEN = "\ufdd0"
CLOSE = "\ufdd1"
#: the marks around a person in a text: ``PERSON_OPEN id PERSON_SEP name PERSON_CLOSE``
PERSON_OPEN = "\ufdd2"
PERSON_SEP = "\ufdd3"
PERSON_CLOSE = "\ufdd4"
#: every mark of this module (a text without any holds no span)
MARKS = (OPEN, CLOSE, PERSON_OPEN, PERSON_SEP, PERSON_CLOSE)
_MARKS = re.compile("[" + "".join(MARKS) + "]")
#: a piece of a text: our own words, a name, or a person
Kind = Literal["text", "name", "person"]
#: what some front reads as markup or a mention: Discord's markdown and mentions (a heading, quote or list
#: only at the start of a line, so at the start of a name), the terminal's bold and code marks
SPECIAL = re.compile(r"[\\*_~|`\[\]@<]|^\s*[#>\-]")


class Name(str):
    """A name a person chose: formatted into a text it is a marked span (:func:`mark`); otherwise the name."""

    __slots__ = ()

    def __format__(self, spec: str) -> str:
        return mark(format(str(self), spec))


@dataclass(frozen=True, slots=True)
class Person:
    """A person the bot speaks of: their user id and the name the bot knows for them. Formatted into a text
    (catalogue, f-string, ``str.format``) it is a person span (:data:`PERSON_OPEN`…); each front renders it."""

    user_id: int
    name: str

    def __format__(self, spec: str) -> str:
        return format(self.span(), spec)

    def __str__(self) -> str:
        return self.span()

    def span(self) -> str:
        """The person as a span of a text (the name without any marks of ours)."""
        return f"{PERSON_OPEN}{int(self.user_id)}{PERSON_SEP}{unmarked(self.name)}{PERSON_CLOSE}"


def unmarked(text: str) -> str:
    """``text`` without any mark of this module."""
    return _MARKS.sub("", str(text))


def marked(text: str) -> bool:
    """Whether ``text`` holds any mark of this module (a name or a person)."""
    return _MARKS.search(text) is not None


def mark(name: str) -> str:
    """``name`` as a marked span of a text; as it is when no front would read anything in it (:data:`SPECIAL`)."""
    clean = unmarked(name)
    return f"{OPEN}{clean}{CLOSE}" if SPECIAL.search(clean) else clean


def listed(names: Iterable[str], sep: str = ", ") -> str:
    """Names joined by ``sep``, each a marked span (``str.join`` alone would drop the marks)."""
    return sep.join(mark(n) for n in names)


def pieces(text: str) -> Iterator[tuple[str | Person, Kind]]:
    """The pieces of ``text`` in order, each with its kind: our words and a name as text, a person as a
    :class:`Person`. A span a clipped text left open runs to the end (a person clipped before their name is
    dropped); a stray mark is dropped."""
    rest = text
    while rest:
        found = [i for i in (rest.find(OPEN), rest.find(PERSON_OPEN)) if i >= 0]
        start = min(found) if found else -1
        before = unmarked(rest if start < 0 else rest[:start])
        if before:
            yield before, "text"
        if start < 0:
            return
        opener, rest = rest[start], rest[start + 1:]
        end = rest.find(CLOSE if opener == OPEN else PERSON_CLOSE)
        inside = rest if end < 0 else rest[:end]
        rest = "" if end < 0 else rest[end + 1:]
        if opener == OPEN:
            if unmarked(inside):
                yield unmarked(inside), "name"
            continue
        digits, sep, name = inside.partition(PERSON_SEP)
        digits = unmarked(digits)
        if sep and re.fullmatch(r"-?\d+", digits):
            yield Person(int(digits), unmarked(name)), "person"


def spans(text: str) -> Iterator[tuple[str, bool]]:
    """The pieces of ``text`` in order, each with whether it is a name (a person reads as their name)."""
    for piece, kind in pieces(text):
        yield (piece.name, True) if isinstance(piece, Person) else (piece, kind == "name")


def _same(text: str) -> str:
    return text


def render(text: str, name: Callable[[str], str], ours: Callable[[str], str] = _same,
           person: Callable[[Person], str] | None = None) -> str:
    """``text`` as a front shows it: each name through ``name``, each person through ``person`` (by default
    their name through ``name``), the text around them through ``ours``."""
    if not marked(text):
        return ours(text)
    out = []
    for piece, kind in pieces(text):
        if isinstance(piece, Person):
            out.append(person(piece) if person is not None else name(piece.name))
        else:
            out.append(name(piece) if kind == "name" else ours(piece))
    return "".join(out)


def bare(text: str) -> str:
    """``text`` without the marks: its names as typed, each person by their name (for fields that show no
    markup)."""
    return render(text, name=_same) if marked(text) else text


__all__ = ["CLOSE", "MARKS", "OPEN", "PERSON_CLOSE", "PERSON_OPEN", "PERSON_SEP", "SPECIAL", "Kind", "Name", "Person",
           "bare", "listed", "mark", "marked", "pieces", "render", "spans", "unmarked"]
