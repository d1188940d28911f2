"""One message per turn: which stored move posts a new message and which edits the turn's message.

A channel follows a game through one message per turn. The move that hands the turn to a person (or the
start of the game) posts a new message, which pings them; every further move of theirs while the turn
goes on (dice, steps, choices) edits that message: its picture, the narration accumulated over the turn
and the buttons. A computer's turn is one message too, posted with its first move and holding its whole
turn, so its picture shows its own drive; the move that ends a turn stays in that turn's message unless it
hands the turn to a person, whose message it then begins, with the ping (a computer's one-move turn that
hands over is told in the message of the person's turn, which their moves then edit).

A person's ping comes only with a new message (Discord notifies nobody of a mention an edit adds): a move
played in a batch that hands the turn to a person while the batch's message is an edit waits for the next
batch, whose new message pings them (:func:`joins`); and a turn's message that goes out after later states of
it were stored shows the newest and still pings (:func:`newest_state`, :func:`pinged`).

When a new message is posted while the newest turn's message still carries the buttons of a person's move,
a ``retire`` record in the same transaction takes those buttons away: only the live turn's message has move
buttons, however the turn ended (a button, a command, a deadline).

The whole board comes with the turn's message when the game says a new period began
(:meth:`bot.games.GameUnit.period`: for a race, when the first kart starts a new lap): that turn's message
shows the whole board instead of the close-up, once a lap rather than every round.

Everything here is pure: the records are planned from the newest turn record, the game after the move and
the table; the service stores them with the move.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from bot.messages import EDIT, POST, RETIRE, Line, Showing
from bot.store import Delivery
from bot.telling.compose import Table
from rules.contract import Event, Game

#: whether a person may be pinged by a new message (their notice mode and quiet hours)
MayPing = Callable[[int], bool]


def shown(d: Delivery | None) -> Showing | None:
    """The record a delivery row holds (None for none)."""
    return None if d is None else Showing.from_payload(d.kind, d.payload)


def goes_on(latest: Delivery | None, *, actor: int | None, version: int) -> bool:
    """Whether a move by ``actor`` made at ``version`` goes on with the message ``latest`` posted: it is the
    newest turn record, a board of that seat's turn, showing the game as the move found it."""
    record = shown(latest)
    return (latest is not None and record is not None and actor is not None and latest.kind in (POST, EDIT)
            and record.board and record.turn == actor and latest.version == version)


def hands_over(game: Game, table: Table, actor: int | None) -> bool:
    """Whether a move by ``actor`` handed the turn to a person (whom its message then pings)."""
    nxt = game.to_act
    return nxt is not None and nxt != actor and not game.is_over and table.person(nxt) is not None


def named(game: Game, table: Table, actor: int | None, lines: int) -> int | None:
    """The person a board message names as the one to act: not the mover for their own next step (unless the
    message tells more than their move), nobody once the game is over."""
    nxt = game.to_act
    if nxt is None or game.is_over or (actor is not None and nxt == actor and lines <= 1):
        return None
    return table.person(nxt)


def retire(latest: Delivery | None) -> Showing | None:
    """The retirement of the newest turn's message, when it carries a person's buttons (it is not live any
    more once another message is posted)."""
    record = shown(latest)
    if latest is None or record is None or latest.kind not in (POST, EDIT) or not record.buttons:
        return None
    return Showing(RETIRE, edit_of=latest.id, first=record.first or latest.id,
                   message=latest.message_id or record.message)


def plan_move(latest: Delivery | None, *, game: Game, table: Table, actor: int, before: int, lines: Sequence[Line],
              events: Sequence[Event], period: Any, may_ping: MayPing) -> list[Showing]:
    """The records of a move by ``actor`` made at move ``before`` (``game``: after it; ``table``: at the new
    move): an edit of the actor's turn's message while it goes on and nobody else is handed the turn, else a
    new message (the next person's turn, which it pings, or the actor's own), with the retirement of the
    message it replaces. ``events`` are the move's public events, which the close-up highlights."""
    pings = hands_over(game, table, actor)
    if goes_on(latest, actor=actor, version=before) and not pings:
        assert latest is not None
        old = shown(latest)
        assert old is not None
        record = replace(old.with_lines(lines).with_move(events), kind=EDIT, edit_of=latest.id,
                         first=old.first or latest.id, message=latest.message_id or old.message, ping=False)
        return [finish(record, game, table)]
    seen = shown(latest)
    whole = period is not None and seen is not None and seen.period is not None and period != seen.period
    record = Showing(POST, tuple(lines), "whole" if whole else "close", tuple(events), (tuple(events),),
                     turn=game.to_act if pings else actor, actor=actor, period=period)
    out = [finish(record, game, table, may_ping)]
    gone = retire(latest)
    return [gone, *out] if gone is not None else out


def joins(message: Showing, hands_over: bool) -> bool:
    """Whether a move played in a batch (computers, or what plays itself for a person) joins the batch's
    ``message``: always, unless it hands the turn to a person while that message is an edit, which pings
    nobody; that move waits for the next batch, whose new message then pings them."""
    return not hands_over or message.kind == POST


def plan_anew(latest: Delivery | None, *, game: Game, table: Table, actor: int, lines: Sequence[Line], period: Any,
              may_ping: MayPing) -> list[Showing]:
    """A new message of ``actor``'s turn showing the game as it stands (after moves were taken back), with the
    retirement of the message it replaces."""
    record = finish(Showing(POST, tuple(lines), "close", turn=actor, actor=actor, period=period), game, table,
                    may_ping)
    gone = retire(latest)
    return [gone, record] if gone is not None else [record]


def plan_start(*, game: Game, table: Table, lines: Sequence[Line], period: Any, may_ping: MayPing) -> Showing:
    """The first board of a game: the seats, the game's status, and the first to act named (and pinged)."""
    return finish(Showing(POST, tuple(lines), "close", turn=game.to_act, describe=True, period=period), game, table,
                  may_ping)


def finish(record: Showing, game: Game, table: Table, may_ping: MayPing | None = None) -> Showing:
    """A board record with the person it names, whether it pings them (a new message, when they allow it) and
    whether it carries their buttons."""
    who = named(game, table, record.actor, len(record.lines))
    ping = record.kind == POST and who is not None and may_ping is not None and may_ping(who)
    person = not game.is_over and table.person(game.to_act) is not None
    return replace(record, named=who, ping=ping, buttons=person, period=record.period)


def first_of(d: Delivery) -> int:
    """The record that posted the message ``d`` shows (``d`` itself for a post)."""
    first = d.payload.get("first")
    return first if isinstance(first, int) else d.id


def newest_state(latest: Delivery | None, d: Delivery) -> Delivery | None:
    """What the message of record ``d`` shows when it goes out, ``latest`` being the game's newest turn record
    (None: ``d`` is no turn record): ``d`` while it is the newest; the newest when that is a later state of
    ``d``'s own message (its turn goes on: a post that goes out late shows it); None when another message
    follows (``d`` is then told in words only)."""
    if latest is None or latest.id == d.id:
        return d
    if latest.id > d.id and latest.kind == EDIT and first_of(latest) == first_of(d):
        return latest
    return None


def pinged(posted: Delivery, newest: Delivery) -> int | None:
    """Whom the new message of record ``posted`` pings when it shows ``newest``, a later state of it: the
    person ``posted`` pings, while ``newest`` still names them as the one to act (an edit pings nobody, so a
    turn's ping stays with the post that opens it, however late that goes out)."""
    post, now = shown(posted), shown(newest)
    if post is None or now is None or posted.kind != POST or not post.ping or post.named != now.named:
        return None
    return post.named


def same_turn_later(records: Sequence[Delivery], d: Delivery) -> bool:
    """Whether a record newer than ``d`` shows a later state of the same turn's message (``d`` then needs no
    request of its own)."""
    first = first_of(d)
    return any(r.id > d.id and r.kind == EDIT and first_of(r) == first for r in records)


__all__ = ["MayPing", "finish", "first_of", "goes_on", "hands_over", "joins", "named", "newest_state", "pinged",
           "plan_anew", "plan_move", "plan_start", "retire", "same_turn_later", "shown"]
