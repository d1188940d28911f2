"""Reading the Discord bot token: from a file or ``DISCORD_TOKEN``, never printed or logged."""

from __future__ import annotations

import os
from pathlib import Path


class TokenMissing(RuntimeError):
    pass


def read_token(token_file: str | None) -> str:
    """The token from ``token_file`` (first line) or the ``DISCORD_TOKEN`` environment variable."""
    if token_file:
        try:
            token = Path(token_file).read_text(encoding="utf-8").strip().splitlines()[0].strip()
        except (OSError, IndexError) as exc:
            raise TokenMissing(f"could not read a token from {token_file}: {type(exc).__name__}") from None
    else:
        token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        raise TokenMissing("no bot token: set DISCORD_TOKEN or pass --token-file")
    return token
