"""Small helpers shared by the Schrottplatz Rally tests.

Track A (Rostbogen-Ring), driven clockwise, is the board of most tests: rows 1–3 are the grid behind the
arch (which stands before row 4); F7 is a petrol station beside row 7 on the left (spots open from 2 and
3 players), M10 a workshop on the right of row 10, E18 a warehouse and B20 a scrap heap on the left; rows
13–16 are a yellow curve, rows 25–28 a green one (lanes b and c); the pit lane is on the right of rows
30–35 (entered from 30c, waiting cell ``pit``, spots pit.1–pit.4 beside rows 32–35, stop sign, back onto
35c).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.contract import Event
from rules.rally import RallyGame
from tests.bot.conftest import db_path, h  # noqa: F401  (the offline Discord harness, as the bot's tests have it)


def pos(**position: Any) -> RallyGame:
    return RallyGame.from_position(position)


def kinds(events: Sequence[Event]) -> list[str]:
    return [e.kind for e in events]


def legal(game: RallyGame) -> set[str]:
    return {str(a) for a in game.legal_actions()}


def cells(game: RallyGame) -> set[str]:
    """The destinations of the move to make."""
    return set(game.endings())


def setup(n: int, **options: Any) -> dict[str, Any]:
    return {"seats": [{"name": f"P{i}"} for i in range(n)], "options": options}
