"""The log lines of the long-running commands (``junkyard bot`` and ``junkyard sync``) on standard error: in
colour only on a terminal, and never when ``NO_COLOR`` is set (https://no-color.org), so a log written to a
file or collected from a container carries no colour codes."""

from __future__ import annotations

import logging
import os
import sys
from typing import TextIO

#: the format of a plain log line
FORMAT = "[{asctime}] [{levelname:<8}] {name}: {message}"
DATE_FORMAT = "%Y-%m-%d %H:%M:%S"


def wants_colour(stream: TextIO) -> bool:
    """Colour codes for ``stream``: only when it is a terminal and ``NO_COLOR`` is unset or empty."""
    if os.environ.get("NO_COLOR"):
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def formatter(stream: TextIO) -> logging.Formatter:
    """discord.py's coloured lines on a terminal that wants them, the same lines plain elsewhere."""
    if wants_colour(stream):
        from discord.utils import _ColourFormatter

        return _ColourFormatter()
    return logging.Formatter(FORMAT, DATE_FORMAT, style="{")


def setup_logging(level: int) -> None:
    """Send every logger's lines from ``level`` on to standard error, coloured as :func:`wants_colour` says
    (discord.py's own set-up, with the formatter chosen here: its own would colour a container's log)."""
    import discord.utils

    discord.utils.setup_logging(level=level, root=True, formatter=formatter(sys.stderr))
