"""Child process of ``tests/bot/test_discord_limits.py``: a whole game of one kind played through the offline
Discord stack in ``qps`` (the pseudo-language is a language only when the variable is set before import),
with :func:`bot.discord.buttons.recording_cuts` listening. Prints, as JSON, every request's body and every
text cut to fit.

Usage: ``JUNKYARD_PSEUDO_LOCALE=1 python -m tests.bot.limits_child <game> <folder>``
"""

from __future__ import annotations

import asyncio
import io
import json
import sys
import time
from pathlib import Path
from typing import Any

from PIL import Image

from bot.discord.buttons import recording_cuts
from bot.games import units
from rules import catalogue
from tests.bot import test_discord_spec_messages as whole
from tests.bot.harness import DiscordHarness
from tests.bot.helpers import USERS
from tests.bot.timing_helpers import Clock, timed_bot


def small_replays() -> None:
    """A replay is one small frame (as the specification test draws it): its bytes say no words."""
    frame = io.BytesIO()
    Image.new("RGB", (8, 8), "white").save(frame, format="GIF")
    for unit in units():
        if unit.has_replay:
            type(unit).replay = lambda self, *args, **kwargs: (frame.getvalue(), 1)  # type: ignore[method-assign]


async def main(game: str, folder: Path) -> dict[str, Any]:
    small_replays()
    whole.LANGS[catalogue.PSEUDO] = catalogue.PSEUDO
    clock = Clock(time.time())
    with recording_cuts() as cuts:
        async with DiscordHarness(timed_bot(folder / "limits.db", clock)) as h:
            h.users.update(USERS)
            await whole.play_a_game(h, game, catalogue.PSEUDO, clock)
            sent = list(h.sent)
    return {"bodies": [[s.kind, s.response_type, s.payload] for s in sent],
            "cuts": [[c.text, c.limit] for c in cuts]}


if __name__ == "__main__":
    assert catalogue.PSEUDO in catalogue.LANGS, "run with JUNKYARD_PSEUDO_LOCALE=1"
    print(json.dumps(asyncio.run(main(sys.argv[1], Path(sys.argv[2])))))
