"""Checks of option values, for every front end: what arrives from Discord (its client enforces limits,
raw requests need not), the command line or a test is checked here before a game sees it."""

from __future__ import annotations

from typing import Any

from bot import texts


class BadOption(ValueError):
    """An option value outside what the command accepts; the message says what is allowed. It carries its
    message id (``option.required``…) and parameters, so :meth:`say` words it in any language; ``str`` is
    the English text."""

    def __init__(self, msg: str, **params: Any) -> None:
        super().__init__(texts.say(msg, texts.DEFAULT, **params))
        self.msg = msg
        self.params = params

    def say(self, lang: str = texts.DEFAULT, **words: Any) -> str:
        """The refusal in ``lang``; ``words`` replace parameters by their words in that language (the option's
        ``name`` as the reader's Discord shows it)."""
        return texts.say(self.msg, lang, **{**self.params, **words})


MAX_TEXT = 100
#: the largest integer Discord accepts as an option's value or bound (its min_value and max_value are
#: 53-bit safe integers: a bound beyond it makes Discord refuse the whole registration)
MAX_INTEGER = 2**53 - 1


def text(name: str, value: Any, *, required: bool = False, limit: int = MAX_TEXT) -> str | None:
    """A short single-line string, stripped; None when absent (unless required)."""
    if value is None:
        if required:
            raise BadOption("option.required", name=name)
        return None
    if not isinstance(value, str):
        raise BadOption("option.not_text", name=name)
    stripped = value.strip()
    if not stripped:
        if required:
            raise BadOption("option.empty", name=name)
        return None
    if len(stripped) > limit or "\n" in stripped:
        raise BadOption("option.too_long", name=name, limit=limit)
    return stripped


def integer(name: str, value: Any, low: int, high: int) -> int | None:
    """An integer in ``low..high``; None when absent."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadOption("option.not_number", name=name, low=low, high=high)
    if not low <= value <= high:
        raise BadOption("option.out_of_range", name=name, low=low, high=high, value=value)
    return value


def flag(name: str, value: Any) -> bool | None:
    if value is None:
        return None
    if not isinstance(value, bool):
        raise BadOption("option.not_flag", name=name)
    return value


def refusal_text(exc: Exception, lang: str = texts.DEFAULT) -> str:
    """An option's refusal in ``lang`` (any other exception as its own text)."""
    return exc.say(lang) if isinstance(exc, BadOption) else str(exc)
