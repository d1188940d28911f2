"""Run by :mod:`tests.render.test_layout_languages` in a process of its own (the pseudo-language is a language
only when its variable is set before the catalogues load): a demo game of one game in one language, every
chat picture, the whole board and each seat's card drawn on the way, the replay, and a championship table,
all while :func:`render.common.recording_overflow` listens. Prints the overflows found as JSON."""

from __future__ import annotations

import contextlib
import io
import json
import sys
from typing import Any

from bot.cli import main
from bot.games import unit_for
from render.championship import Cell, DriverLine, Move, NeedLine, Table, TeamLine, draw
from render.common import recording_overflow


def _with_every_picture(game: str) -> None:
    """The unit's chat picture hook, made to draw the whole board and every seat's card too, now and then."""
    unit = unit_for(game)
    plain = unit.picture
    calls = [0]

    def picture(view: dict[str, Any], events: Any, lang: str = "en") -> bytes | None:
        calls[0] += 1
        if calls[0] % 7 == 1:
            unit.board_picture(view, lang)
            for seat in range(len(view.get("seats", view.get("players", [])) or [0, 1])):
                with contextlib.suppress(LookupError, TypeError, ValueError):
                    unit.card_picture(view, seat, lang)
        return plain(view, events, lang)

    unit.picture = picture  # type: ignore[method-assign]


def _championship(lang: str) -> None:
    """A championship table with long names, teams, what the contenders need, and the final one."""
    rounds = tuple(Cell(10 + i, 1 + i % 3, dropped=i == 1) for i in range(5))
    drivers = tuple(DriverLine(i + 1, f"Driver {i + 1}", 100 - i, i % 3, rounds, Move.UP if i % 2 else Move.NEW, 1)
                    for i in range(6))
    teams = (TeamLine(1, "Team Rust", 190, (20, 30, 40, 50, 50)), TeamLine(2, "Team Bolt", 180, (20, 30, 40, 40, 50)))
    needs = (NeedLine("Driver 2", "win"), NeedLine("Driver 3", "second"))
    for final in (False, True):
        draw(Table("Autumn Cup", 5, 8, drivers, teams, needs, final), lang)


def run(game: str, lang: str, out: str, db: str) -> list[dict[str, str]]:
    _with_every_picture(game)
    laps = ["--laps", "1"] if game != "piecepack" else []
    with recording_overflow() as found, contextlib.redirect_stdout(io.StringIO()):
        code = main(["demo", "--game", game, "--lang", lang, "--out", out, "--seats", "2", "--seed", "7",
                     "--db", db, *laps])
        assert code == 0, code
        _championship(lang)
    return [{"text": f.text, "why": f.why} for f in found]


if __name__ == "__main__":
    print(json.dumps(run(*sys.argv[1:5])))
