"""Names a person chose (a season's name, a player's display name, a track file's name), carried inside our
texts so that every front shows them exactly as typed.

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
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator

#: the marks around a name in a text
OPEN = "\ufdd0"
CLOSE = "\ufdd1"
#: what some front reads as markup or a mention: Discord's markdown and mentions (a heading, quote or list
#: only at the start of a line, so at the start of a name), the terminal's bold and code marks
SPECIAL = re.compile(r"[\\*_~|`\[\]<@]|^\s*[#>\-]")


class Name(str):
    """A name a person chose: formatted into a text it is a marked span (:func:`mark`); otherwise the name."""

    __slots__ = ()

    def __format__(self, spec: str) -> str:
        return mark(format(str(self), spec))


def mark(name: str) -> str:
    """``name`` as a marked span of a text; as it is when no front would read anything in it (:data:`SPECIAL`)."""
    clean = str(name).replace(OPEN, "").replace(CLOSE, "")
    return f"{OPEN}{clean}{CLOSE}" if SPECIAL.search(clean) else clean


def listed(names: Iterable[str], sep: str = ", ") -> str:
    """Names joined by ``sep``, each a marked span (``str.join`` alone would drop the marks)."""
    return sep.join(mark(n) for n in names)


def spans(text: str) -> Iterator[tuple[str, bool]]:
    """The pieces of ``text`` in order, each with whether it is a name. A span a clipped text left open is a
    name to the end; a stray closing mark is dropped."""
    rest = text
    while rest:
        start = rest.find(OPEN)
        before = rest if start < 0 else rest[:start]
        if before.replace(CLOSE, ""):
            yield before.replace(CLOSE, ""), False
        if start < 0:
            return
        rest = rest[start + 1:]
        end = rest.find(CLOSE)
        inside = rest if end < 0 else rest[:end]
        if inside.replace(OPEN, ""):
            yield inside.replace(OPEN, ""), True
        rest = "" if end < 0 else rest[end + 1:]


def _same(text: str) -> str:
    return text


def render(text: str, name: Callable[[str], str], ours: Callable[[str], str] = _same) -> str:
    """``text`` as a front shows it: each name through ``name``, the text around them through ``ours``."""
    if OPEN not in text and CLOSE not in text:
        return ours(text)
    return "".join(name(piece) if is_name else ours(piece) for piece, is_name in spans(text))


def bare(text: str) -> str:
    """``text`` without the marks: its names as typed (for fields that show no markup)."""
    return text.replace(OPEN, "").replace(CLOSE, "")


__all__ = ["CLOSE", "OPEN", "SPECIAL", "Name", "bare", "listed", "mark", "render", "spans"]
