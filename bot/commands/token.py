"""Reading the Discord bot token: from a file or ``DISCORD_TOKEN``, never printed or logged."""

from __future__ import annotations

import os
import shlex
import stat
from collections.abc import Callable
from pathlib import Path


class TokenMissing(RuntimeError):
    """No token was given at all (neither ``DISCORD_TOKEN`` nor ``--token-file``): a usage mistake."""


class TokenUnreadable(RuntimeError):
    """The token file named cannot give a token (not there, not readable, empty): a failure while running."""


def read_token(token_file: str | None, warn: Callable[[str], None] = lambda _: None) -> str:
    """The token from ``token_file`` (its first line) or the ``DISCORD_TOKEN`` environment variable. A token
    file that others than its owner may read is used, with a line to ``warn``."""
    if token_file:
        return _from_file(Path(token_file), warn)
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise TokenMissing("no bot token: set DISCORD_TOKEN or pass --token-file")
    return token


def _from_file(path: Path, warn: Callable[[str], None]) -> str:
    try:
        mode = path.stat().st_mode
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise TokenUnreadable(f"the token file {path} does not exist") from None
    except IsADirectoryError:
        raise TokenUnreadable(f"the token file {path} is a folder, not a file") from None
    except PermissionError:
        raise TokenUnreadable(f"cannot read the token file {path}: permission denied") from None
    except UnicodeDecodeError:
        raise TokenUnreadable(f"the token file {path} is not text: put the bot's token on its first line") from None
    except OSError as exc:
        raise TokenUnreadable(f"cannot read the token file {path}: {exc.strerror or exc}") from None
    lines = text.strip().splitlines()
    token = lines[0].strip() if lines else ""
    if not token:
        raise TokenUnreadable(f"the token file {path} is empty: put the bot's token on its first line")
    if stat.S_IMODE(mode) & 0o077:
        warn(f"warning: the token file {path} is open to other users of this machine (mode "
             f"{stat.S_IMODE(mode):o}); `chmod 600 {shlex.quote(str(path))}` keeps it to its owner")
    return token
