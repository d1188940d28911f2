"""What Schrottplatz Rally says to players, in English or German: narration of events and refusals.

Every sentence comes from the message catalogue of the rules (:mod:`rules.rally.texts`): events carry
their message id and parameters (``data["msg"]``, ``data["params"]``), refusals carry them as ``msg`` and
``params``, and :func:`rules.rally.texts.say` words them in either language. Parameters are data
(seats and names, supply ids, numbers), so a German line holds no English word. A move's narration is its
account's (:mod:`bot.games.rally.account`), so the chat tells a drive as the picture's description does.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot import texts
from bot.games.rally import account
from bot.games.rally.described import place_words
from rules.contract import Event
from rules.rally.texts import LANGS, say


def language(locale: str | None) -> str:
    """The catalogue language for a Discord locale (:func:`bot.texts.language`: ``"de"`` → German, one
    the catalogues lack → English)."""
    return texts.language(locale)


def event_text(event: Event, lang: str = "en") -> str:
    """One event in ``lang``; an event without a catalogue id (or with parameters this catalogue cannot word)
    keeps its own (English) text."""
    data = event.data or {}
    msg = data.get("msg")
    if not isinstance(msg, str) or lang not in LANGS:
        return event.text
    try:
        return say(msg, lang, **dict(data.get("params") or {}))
    except (KeyError, IndexError, ValueError, TypeError):
        return event.text


def chat_lines(moves: Sequence[Sequence[Event]], lang: str) -> list[str]:
    """One move or several in a row, from their account (:func:`bot.games.rally.account.chat_lines`), as the
    picture's description tells them: a drive once by its real start and end (a booster's part too), with where
    it parked; a line for each car's run of sentences, a secret only where the viewer's events kept it."""
    acc = account.of_moves(moves, secrets=True)
    return account.chat_lines(acc, lang, lambda at, bare: place_words(at, lang, bare=bare))


def narrate(events: Sequence[Event], lang: str = "en") -> str:
    """One move in ``lang``, on one line (:func:`chat_lines`)."""
    return " ".join(chat_lines([events], lang))


def narrate_moves(moves: Sequence[Sequence[Event]], lang: str = "en") -> str:
    """Several moves in a row in ``lang``, a line for each car's run of sentences (:func:`chat_lines`)."""
    return "\n".join(chat_lines(moves, lang))


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


__all__ = ["chat_lines", "event_text", "language", "narrate", "narrate_moves", "refusal"]
