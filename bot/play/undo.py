"""Taking back a slip, for every game alike: ``undo`` drops the asker's last action(s) of their current turn
while nothing new became known through them.

The game decides what may come back (:meth:`rules.contract.Game.undo_barrier`); this module replays the
log (the record of truth) to see each of the asker's trailing actions with the state before it and the
events it told, drops the actions with a versioned write, and posts the board as it stands again (a new
message of the turn, whose moves then edit it; the message that showed the moves taken back loses its
buttons). What the autopilot, a forced move or a plan played for the player comes back the same way, and the
channel is told so (:mod:`bot.play.takeback`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Protocol

from bot import texts
from bot.games import GameUnit
from bot.messages import Showing, person_of
from bot.play import takeback
from bot.store import ACTIVE, LOBBY, ActionRecord, GameRecord, Outgoing, StaleVersion, Store
from bot.telling import turn_messages
from bot.telling.compose import table_of
from bot.telling.outcomes import Accepted, Refusal
from rules.contract import Game, IllegalAction

log = logging.getLogger(__name__)

#: the most actions one ``undo`` takes back
MAX_UNDO = 20


@dataclass(frozen=True, slots=True)
class Step:
    """One of the asker's trailing actions: the state before it, and why it can't come back (None: it can)."""

    action: ActionRecord
    before: dict[str, Any]
    barrier: str | None


def trailing(actions: Sequence[ActionRecord], seat: int, user_id: int) -> list[ActionRecord]:
    """The actions at the end of the log that ``user_id`` played in ``seat``, without anyone in between."""
    out: list[ActionRecord] = []
    for a in reversed(actions):
        if a.seat != seat or a.user_id != user_id:
            break
        out.append(a)
    return out[::-1]


def replay_steps(cls: type[Game], rec: GameRecord, actions: Sequence[ActionRecord], count: int) -> list[Step]:
    """Replay the log; for each of its last ``count`` actions the state before it and its barrier. Raises
    ValueError when the replay does not end at the stored snapshot."""
    game = cls.create(rec.setup, rec.seed)
    split = len(actions) - count
    for a in actions[:split]:
        game.apply(a.action)
    steps = []
    for a in actions[split:]:
        before = game.to_dict()
        events = game.apply(a.action)
        steps.append(Step(a, before, game.undo_barrier(cls.from_dict(before), events)))
    if game.to_dict() != rec.state:
        raise ValueError(f"game {rec.id}: the log does not replay to the stored state")
    return steps


def barrier_text(front: GameUnit[Any], barrier: object, lang: str) -> str:
    """Why a move can't come back, as a sentence in ``lang``: a reason that carries its catalogue id
    (``msg``, ``params``) is said again by the game's front; any other as the game gave it."""
    text = str(barrier)
    msg = getattr(barrier, "msg", None)
    if isinstance(msg, str):
        exc = IllegalAction(text, msg=msg, params=dict(getattr(barrier, "params", None) or {}))
        text = str(front.refusal(exc, lang=lang))
    text = text.rstrip(".")
    return text[:1].upper() + text[1:]


def moves(n: int, lang: str = texts.DEFAULT) -> str:
    """A number of moves in words: "1 move", "3 Züge"."""
    return texts.say("undo.moves", lang, count=n)


class Undoer(Protocol):
    """What an undo goes through (the service is one): the channel's lock, the store, the game classes and
    units, the running games it keeps in memory, the asker's language, who a board may ping and the delivery
    records of a message's parts."""

    @property
    def store(self) -> Store: ...

    @property
    def classes(self) -> Callable[[str], type[Game]]: ...

    @property
    def fronts(self) -> Callable[[str], GameUnit[Any]]: ...

    def lock(self, channel_id: int) -> AbstractAsyncContextManager[Any]: ...

    async def load(self, rec: GameRecord) -> Game: ...

    def keep(self, rec: GameRecord, game: Game) -> None: ...

    def forget(self, game_id: int, *, drivers: bool = False) -> None: ...

    def lang_of(self, rec: GameRecord, user_id: int | None, lang: str | None) -> str: ...

    def pingable(self, rec: GameRecord) -> frozenset[int]: ...

    def outgoing(self, records: Sequence[Showing]) -> list[Outgoing]: ...


def refuse(text: str) -> Refusal:
    return Refusal(text)


async def undo(undoer: Undoer, channel_id: int, user_id: int, count: int = 1, *, lang: str | None = None
               ) -> Accepted | Refusal:
    """Take back ``user_id``'s last ``count`` actions in the channel's game. A refusal is in the asker's
    ``lang``; what the channel reads, in the game's."""
    own = lang or texts.DEFAULT
    if not 1 <= count <= MAX_UNDO:
        return refuse(texts.say("undo.range", own, max=MAX_UNDO))
    async with undoer.lock(channel_id):
        rec = await undoer.store.games.channel_game(channel_id)
        if rec is None:
            return refuse(texts.say("undo.no_game", own))
        own = undoer.lang_of(rec, user_id, lang)
        if rec.status == LOBBY:
            return refuse(texts.say("undo.not_started", own))
        seat = rec.seat_of(user_id)
        if seat is None:
            return refuse(texts.say("undo.no_seat", own))
        game = await undoer.load(rec)
        if rec.status != ACTIVE or not game.may_act(seat):
            return refuse(texts.say("undo.not_your_turn", own))
        actions = await undoer.store.games.actions(rec.id)
        mine = trailing(actions, seat, user_id)[-MAX_UNDO:]
        if not mine:
            return refuse(texts.say("undo.nothing", own))
        cls, front = undoer.classes(rec.game_key), undoer.fronts(rec.game_key)
        try:
            steps = await asyncio.to_thread(replay_steps, cls, rec, actions, len(mine))
        except Exception:
            log.exception("game %s: its log did not replay for an undo", rec.id)
            return refuse(texts.say("undo.no_replay", own))
        problem = blocked(front, steps, count, own)
        if problem is not None:
            return problem
        return await _take_back(undoer, rec, seat, user_id, steps[len(steps) - count:])


def blocked(front: GameUnit[Any], steps: Sequence[Step], count: int, lang: str) -> Refusal | None:
    """Why ``count`` of the asker's trailing ``steps`` can't all come back (None: they can)."""
    free = 0
    for s in reversed(steps):
        if s.barrier is not None:
            break
        free += 1
    if count > free == len(steps):
        return refuse(texts.say("undo.only_played", lang, count=free))
    if count <= free:
        return None
    stop = steps[len(steps) - free - 1]
    reason = barrier_text(front, stop.barrier, lang)
    if free == 0:
        return refuse(texts.say("undo.last_stays", lang, action=stop.action.action, reason=reason))
    return refuse(texts.say("undo.only_last", lang, count=free, action=stop.action.action, reason=reason))


async def _take_back(undoer: Undoer, rec: GameRecord, seat: int, user_id: int, back: Sequence[Step]
                     ) -> Accepted | Refusal:
    """Drop ``back`` (the asker's last steps) with a versioned write and the board as it stands again."""
    front = undoer.fronts(rec.game_key)
    # the public narration only: the action as typed may name a hidden tile
    said = [" ".join(s.action.narration.split()) or texts.say("log.nothing_to_show", rec.lang) for s in back]
    played = await takeback.kinds(undoer.store, user_id, rec.id, [s.action.index for s in back])
    line = takeback.took_back(person_of(rec, user_id), " / ".join(said), played)
    state = back[0].before
    game = undoer.classes(rec.game_key).from_dict(state)
    table = table_of(rec, rec.version - len(back))
    records = turn_messages.plan_anew(await undoer.store.outbox.latest_delivery(rec.id), game=game, table=table,
                                      actor=seat, lines=[line], period=front.period(game),
                                      may_ping=undoer.pingable(rec).__contains__)
    out = undoer.outgoing(records)
    undoer.forget(rec.id)
    try:
        rec = await undoer.store.games.take_back(rec.id, expected_version=rec.version, count=len(back), state=state,
                                                  outgoing=out)
    except StaleVersion:
        return refuse(texts.say("undo.moved_on", undoer.lang_of(rec, user_id, None)))
    undoer.keep(rec, game)
    if any(played):
        await takeback.forget(undoer.store, user_id, rec.id, rec.version)
    return Accepted(rec.id, tuple(o.id for o in out if o.id is not None))


__all__ = ["MAX_UNDO", "Step", "blocked", "replay_steps", "trailing", "undo"]
