"""One message per turn: which stored move posts a new message and which edits the turn's message.

A channel follows a game through one message per turn. The move that hands the turn to a person (or the
start of the game) posts a new message, which pings them; every further move of theirs while the turn
goes on (dice, steps, choices) edits that message: its picture, the narration accumulated over the turn
and the buttons. A computer's turn is one message too, posted with its first move and holding its whole
turn, so its picture shows its own drive; the move that ends a turn stays in that turn's message unless it
hands the turn to a person (whose message it then begins, with the ping).

Both go through the outbox (:mod:`bot.delivery`): a move's delivery record is of kind ``post`` or
``edit``. An edit record names the record it follows (``edit_of``), whose message it changes, and the
record that posted the turn's message (``first``); its payload holds the whole turn's narration, so the
record alone says what the message must show. The message id is resolved when the edit is carried out,
so an edit stored before its message was posted waits for it; an edit of a message that was deleted
posts a new one instead (see :meth:`bot.delivery.Outbox.deliver`).

The whole board comes with the turn's message when the game says a new period began
(:meth:`bot.games.GameUnit.period`: for a race, when the first kart starts a new lap): that turn's message
shows the whole board instead of the close-up, once a lap rather than every round, so the channel keeps
its overview without scrolling past a board per round.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.store import EDIT, POST, Delivery, Outgoing

#: payload keys of a board record
TURN = "turn"          # the seat whose turn the message shows
EDIT_OF = "edit_of"    # the record whose message an edit changes
FIRST = "first"        # the record that posted the turn's message
MESSAGE = "message"    # the message to edit, when known as the record is written
WHOLE = "whole"        # the message shows the whole board (a new period began)
PERIOD = "period"      # the game's period after the record's moves

#: the most characters of narration one turn's message keeps (Discord allows 2,000 with the rest)
NARRATION_CHARS = 1500


def trimmed(lines: Sequence[str], limit: int = NARRATION_CHARS) -> list[str]:
    """The newest lines that fit in ``limit`` characters, after a "…" line when older ones were left out."""
    kept: list[str] = []
    used = 0
    for line in reversed(lines):
        if kept and used + len(line) + 1 > limit:
            return ["…", *reversed(kept)]
        kept.append(line[-limit:] if not kept and len(line) > limit else line)
        used += len(line) + 1
    return list(reversed(kept))


def goes_on(latest: Delivery | None, *, actor: int | None, version: int) -> bool:
    """Whether a move by ``actor`` made at ``version`` goes on with the message ``latest`` posted: it is
    the newest record, a board of that seat's turn, showing the game as the move found it."""
    return (latest is not None and actor is not None and latest.kind in (POST, EDIT)
            and bool(latest.payload.get("board")) and latest.payload.get(TURN) == actor and latest.version == version)


def as_edit(out: Outgoing, latest: Delivery, lines: Sequence[str]) -> None:
    """Make ``out`` the record of the next state of ``latest``'s message, adding ``lines`` to the turn's."""
    before = latest.payload
    out.kind = EDIT
    out.payload.update({
        "lines": trimmed([*before.get("lines", []), *lines]), "board": True,
        "describe": bool(before.get("describe")), TURN: before.get(TURN), EDIT_OF: latest.id,
        FIRST: before.get(FIRST, latest.id), MESSAGE: latest.message_id or before.get(MESSAGE),
        WHOLE: bool(before.get(WHOLE)), PERIOD: before.get(PERIOD)})


def as_post(out: Outgoing, latest: Delivery | None, *, turn: int | None, period: Any) -> None:
    """Make ``out`` the record of a new message, of seat ``turn``'s turn, showing the whole board when
    ``period`` differs from the one the newest record saw."""
    out.kind = POST
    seen = latest.payload.get(PERIOD) if latest is not None else None
    out.payload.update({TURN: turn, PERIOD: period,
                        WHOLE: period is not None and seen is not None and period != seen})


def add_lines(out: Outgoing, lines: Sequence[str]) -> dict[str, Any]:
    """``out``'s payload with ``lines`` added to the turn's narration (a new dict; ``out`` is unchanged)."""
    return dict(out.payload, lines=trimmed([*out.payload.get("lines", []), *lines]))


def reply_fields(payload: Mapping[str, Any]) -> dict[str, Any]:
    """What a :class:`bot.service.Reply` carries of a record's turn: the record it edits, the message when
    known, and whether it shows the whole board."""
    return {"edit_of": payload.get(EDIT_OF), "message_id": payload.get(MESSAGE), "whole": bool(payload.get(WHOLE))}


def same_turn_later(records: Sequence[Delivery], d: Delivery) -> bool:
    """Whether a record newer than ``d`` shows a later state of the same turn's message."""
    first = d.payload.get(FIRST, d.id)
    return any(r.id > d.id and r.kind == EDIT and r.payload.get(FIRST) == first for r in records)
