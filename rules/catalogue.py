"""Catalogues of player-facing texts: one gettext ``.po`` file per language and domain.

A domain is a folder (``rules/races/locale``, ``bot/locale``…) holding ``en.po``, ``de.po``… Each entry's
``msgid`` is a stable message id (``possible_now``), never English prose, and its ``msgstr`` the text in
that language with ``{named}`` placeholders for :meth:`str.format`. A text that counts something is a
plural entry (``msgid_plural`` repeats the id) and is asked for with ``count=``; the catalogue's
``Plural-Forms`` header chooses the form, so German and English each count in their own way. Every
language's text of an id has the same placeholders as the English one (checked by the tests).

Files are read when a language is first asked for (Babel parses them; the stdlib's gettext looks them up),
so importing a game costs nothing until it speaks.
"""

from __future__ import annotations

import gettext
import io
import os
import string
from collections.abc import Iterator
from functools import cached_property
from pathlib import Path
from typing import Any

#: English: the fallback of every text and the language of the ids
DEFAULT = "en"

#: the service's catalogue (``bot/locale``): its ``<lang>.po`` files name the languages the project speaks
LOCALE = Path(__file__).resolve().parent.parent / "bot" / "locale"


#: the pseudo-language (:mod:`rules.pseudo`): a language only when :data:`PSEUDO_VARIABLE` is ``1``
PSEUDO = "qps"
#: the environment variable that makes :data:`PSEUDO` a language of the project (for tests, never for players)
PSEUDO_VARIABLE = "JUNKYARD_PSEUDO_LOCALE"


def pseudo_enabled() -> bool:
    """Whether the environment asks for the pseudo-language (``JUNKYARD_PSEUDO_LOCALE=1``)."""
    return os.environ.get(PSEUDO_VARIABLE) == "1"


def languages(folder: str | Path = LOCALE, pseudo: bool | None = None) -> tuple[str, ...]:
    """The languages of a catalogue folder, one per ``<lang>.po`` file: English first, then the others in
    alphabetical order. Of :data:`LOCALE`, the languages every front and game offers (:data:`LANGS`). The
    pseudo-language counts only when ``pseudo`` is true (by default: when :func:`pseudo_enabled`)."""
    with_pseudo = pseudo_enabled() if pseudo is None else pseudo
    found = sorted(p.stem for p in Path(folder).glob("*.po") if with_pseudo or p.stem != PSEUDO)
    return (DEFAULT, *(lang for lang in found if lang != DEFAULT))


#: the languages the project speaks, read once from the service's catalogue: the one list every part uses
LANGS: tuple[str, ...] = languages()


class Catalogue:
    """The texts of one domain (a folder of ``<lang>.po`` files) in every language."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self._loaded: dict[str, gettext.GNUTranslations] = {}

    def _file(self, lang: str) -> Path:
        return self.folder / f"{lang}.po"

    @cached_property
    def languages(self) -> frozenset[str]:
        """The languages this domain has a file for (looked up once: texts are said on every move and
        picture)."""
        return frozenset(languages(self.folder))

    def _translations(self, lang: str) -> gettext.GNUTranslations:
        if lang not in self._loaded:
            from babel.messages.mofile import write_mo
            from babel.messages.pofile import read_po

            with self._file(lang).open("rb") as fh:
                catalog = read_po(fh, locale=lang)
            buf = io.BytesIO()
            write_mo(buf, catalog, use_fuzzy=False)
            buf.seek(0)
            self._loaded[lang] = gettext.GNUTranslations(buf)
        return self._loaded[lang]

    @cached_property
    def ids(self) -> frozenset[str]:
        """Every message id of the domain (those of the English catalogue)."""
        return frozenset(self.entries(DEFAULT))

    def entries(self, lang: str) -> dict[str, tuple[str, ...]]:
        """``id → forms`` of a language's file as written (one form, or one per plural form)."""
        from babel.messages.pofile import read_po

        with self._file(lang).open("rb") as fh:
            catalog = read_po(fh, locale=lang)
        out: dict[str, tuple[str, ...]] = {}
        for message in catalog:
            if not message.id:
                continue
            key = message.id[0] if isinstance(message.id, (tuple, list)) else message.id
            forms = message.string if isinstance(message.string, (tuple, list)) else (message.string,)
            out[str(key)] = tuple(str(f or "") for f in forms)
        return out

    def template(self, msg: str, lang: str = DEFAULT, count: int | None = None) -> str:
        """The unfilled text of ``msg`` in ``lang`` (English when that language lacks it)."""
        if msg not in self.ids:
            raise KeyError(f"no message {msg!r} in {self.folder}")
        tried = (lang, DEFAULT) if lang != DEFAULT else (DEFAULT,)
        for code in tried:
            if code not in self.languages:
                continue
            tr = self._translations(code)
            text = tr.gettext(msg) if count is None else msg
            if text == msg:  # a plural entry, or asked with a count
                text = tr.ngettext(msg, msg, 1 if count is None else count)
            if text == msg and count is not None:  # asked with a count, but the text counts nothing
                text = tr.gettext(msg)
            if text != msg:
                return text
        return msg

    def say(self, msg: str, lang: str = DEFAULT, count: int | None = None, **params: Any) -> str:
        """Message ``msg`` in ``lang`` with its placeholders filled; ``count`` picks the plural form and is
        itself available as ``{count}``."""
        if count is not None:
            params.setdefault("count", count)
        return self.template(msg, lang, count).format(**params)


def placeholders(text: str) -> frozenset[str]:
    """The names of the ``{placeholders}`` in a text."""
    return frozenset(_fields(text))


def _fields(text: str) -> Iterator[str]:
    for _, field, _, _ in string.Formatter().parse(text):
        if field is not None:
            yield field.split(".")[0].split("[")[0]


__all__ = ["DEFAULT", "LANGS", "LOCALE", "PSEUDO", "PSEUDO_VARIABLE", "Catalogue", "languages", "placeholders",
           "pseudo_enabled"]
