"""Server-side checks of slash command options (the checks themselves serve every front end and live in
:mod:`bot.games.options`)."""

from bot.games.options import MAX_INTEGER, MAX_TEXT, BadOption, flag, integer, text

__all__ = ["MAX_INTEGER", "MAX_TEXT", "BadOption", "flag", "integer", "text"]
