"""A person's move, apart from its coordination: the settings rows it reads with its game, its line in the
channel and in the log, and its application with the records it owes and the newest one's message composed
(:func:`play_move`), run in a worker process on the game rebuilt from its snapshot (:func:`step`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from bot.clock import recap, settings
from bot.drivers.reasons import Reason
from bot.games import GameUnit, game_class, unit_for
from bot.messages import Line
from bot.play import plans, takeback
from bot.store import Delivery, GameRecord, SettingKey
from bot.telling import turn_messages
from bot.telling.compose import Moved, Table, compose, worded_line
from rules.contract import Event, Game, events_for
from rules.literal import Name


def move_keys(rec: GameRecord) -> list[SettingKey]:
    """The settings rows a move reads, read with its game: the game's settings and, for each person seated,
    their plan and choices, when they last played and the moves played for them."""
    keys = settings.game_keys(rec)
    for seat in rec.seats:
        if not seat.is_computer:
            keys += [*plans.keys_of(seat.user_id, rec.id), *recap.keys_of(seat.user_id, rec.id),
                     *takeback.keys_of(seat.user_id, rec.id)]
    return keys


def move_line(front: GameUnit[Any], public: Sequence[Event], name: str, action: str, autopilot: bool, lang: str,
              bare: str = "played", reason: Reason | None = None) -> tuple[Line, str]:
    """A move's line in the channel and the narration the log keeps: the move's events, else the bare action
    (``bare``: a person's or a computer's words for it); an autopilot move says so, and why (``reason``, the
    driver's, worded in the reader's language when the message is composed). ``name``, the player's, reads as
    typed."""
    name = Name(name)
    line = Line(events=tuple(public), say=bare, params={"name": name, "action": action})
    told = front.narrate(list(public), lang=lang)
    if autopilot:
        line = (Line(say="move.autopilot", params={"name": name, "narration": line}) if told
                else Line(say="move.autopilot_action", params={"name": name, "action": action}))
        if reason is not None:
            line = Line(say="move.autopilot_why", params={"move": line, "reason": reason.line()})
        told = worded_line(line, front, lang)
    return line, told


def play_move(front: GameUnit[Any], game: Game, text: str, seat: int, table: Table, latest: Delivery | None,
              pingable: frozenset[int], autopilot: bool = False, reason: Reason | None = None) -> Moved:
    """Apply ``text`` for ``seat`` to ``game`` (at ``table.version``), plan the move's records and compose the
    newest one's message (its picture drawn here, once). Raises IllegalAction, the game unchanged."""
    action = game.parse_action(text)
    events = game.apply(action)
    public = events_for(events, None)
    line, narration = move_line(front, public, table.seats[seat].name, str(action), autopilot, table.lang,
                                reason=reason)
    after = replace(table, version=table.version + 1)
    records = turn_messages.plan_move(latest, game=game, table=after, actor=seat, before=table.version,
                                      lines=[line], events=public, period=front.period(game),
                                      may_ping=pingable.__contains__)
    message = compose(records[-1], after, front, game, table.lang)
    return Moved(str(action), events, game.to_dict(), narration, [(r.kind, r.to_payload()) for r in records],
                 message)


def step(key: str, state: dict[str, Any], text: str, seat: int, table: Table, latest: Delivery | None,
         pingable: frozenset[int], autopilot: bool = False, reason: Reason | None = None) -> Moved:
    """:func:`play_move` in a worker process, on the game rebuilt from its snapshot."""
    return play_move(unit_for(key), game_class(key).from_dict(state), text, seat, table, latest, pingable, autopilot,
                     reason)


__all__ = ["move_keys", "move_line", "play_move", "step"]
