"""Checks of option values, for every front end: what arrives from Discord (its client enforces limits,
raw requests need not), the command line or a test is checked here before a game sees it."""

from __future__ import annotations

from typing import Any


class BadOption(ValueError):
    """An option value outside what the command accepts; the message says what is allowed."""


MAX_TEXT = 100


def text(name: str, value: Any, *, required: bool = False, limit: int = MAX_TEXT) -> str | None:
    """A short single-line string, stripped; None when absent (unless required)."""
    if value is None:
        if required:
            raise BadOption(f"`{name}` is required.")
        return None
    if not isinstance(value, str):
        raise BadOption(f"`{name}` must be text.")
    value = value.strip()
    if not value:
        if required:
            raise BadOption(f"`{name}` can't be empty.")
        return None
    if len(value) > limit or "\n" in value:
        raise BadOption(f"`{name}` must be one line of at most {limit} characters.")
    return value


def integer(name: str, value: Any, low: int, high: int) -> int | None:
    """An integer in ``low..high``; None when absent."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadOption(f"`{name}` must be a whole number from {low} to {high}.")
    if not low <= value <= high:
        raise BadOption(f"`{name}` must be from {low} to {high}, not {value}.")
    return value


def flag(name: str, value: Any) -> bool | None:
    if value is None:
        return None
    if not isinstance(value, bool):
        raise BadOption(f"`{name}` must be true or false.")
    return value
