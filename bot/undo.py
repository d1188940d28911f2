"""Taking back a slip, for every game alike: ``undo`` drops the asker's last action(s) of their current turn
while nothing new became known through them.

The game decides what may come back (:meth:`rules.contract.Game.undo_barrier`); this module replays the
log (the record of truth) to see each of the asker's trailing actions with the state before it and the
events it told, drops the actions with a versioned write, and answers with the board as it stands again,
through the service's usual board reply (delivery record, picture, buttons for the player to act).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot import texts
from bot.games import GameFront
from bot.games.unit import worded
from bot.store import ACTIVE, LOBBY, ActionRecord, GameRecord, StaleVersion
from rules.contract import Game, IllegalAction

if TYPE_CHECKING:
    from bot.service import Reply, Service

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


def barrier_text(front: GameFront, barrier: object, lang: str) -> str:
    """Why a move can't come back, as a sentence in ``lang``: a reason that carries its catalogue id
    (``msg``, ``params``) is said again by the game's front; any other as the game gave it."""
    text = str(barrier)
    msg = getattr(barrier, "msg", None)
    if isinstance(msg, str):
        exc = IllegalAction(text, msg=msg, params=dict(getattr(barrier, "params", None) or {}))
        text = str(worded(front.refusal, exc, lang=lang))
    text = text.rstrip(".")
    return text[:1].upper() + text[1:]


def moves(n: int, lang: str = texts.DEFAULT) -> str:
    """A number of moves in words: "1 move", "3 Züge"."""
    return texts.say("undo.moves", lang, count=n)


async def undo(service: Service, channel_id: int, user_id: int, count: int = 1, *, lang: str | None = None
               ) -> tuple[Reply, list[int]]:
    """Take back ``user_id``'s last ``count`` actions in the channel's game. Returns the reply and the ids of
    the posted board messages that show the moves taken back (the front end removes their buttons). A
    refusal is in the asker's ``lang``; what the channel reads, in the game's."""
    from bot.service import Reply, may_act, refuse

    own = lang or texts.DEFAULT
    if not 1 <= count <= MAX_UNDO:
        return refuse(texts.say("undo.range", own, max=MAX_UNDO)), []
    async with service.lock(channel_id):
        rec = await service.store.channel_game(channel_id)
        if rec is None:
            return refuse(texts.say("undo.no_game", own)), []
        own = service.lang_of(rec, user_id, lang)
        if rec.status == LOBBY:
            return refuse(texts.say("undo.not_started", own)), []
        seat = rec.seat_of(user_id)
        if seat is None:
            return refuse(texts.say("undo.no_seat", own)), []
        game = await service.load(rec)
        if rec.status != ACTIVE or not may_act(game, seat):
            return refuse(texts.say("undo.not_your_turn", own)), []
        actions = await service.store.actions(rec.id)
        mine = trailing(actions, seat, user_id)[-MAX_UNDO:]
        if not mine:
            return refuse(texts.say("undo.nothing", own)), []
        cls, front = service.classes(rec.game_key), service.fronts(rec.game_key)
        try:
            steps = await asyncio.to_thread(replay_steps, cls, rec, actions, len(mine))
        except Exception:
            log.exception("game %s: its log did not replay for an undo", rec.id)
            return refuse(texts.say("undo.no_replay", own)), []
        free = 0
        for s in reversed(steps):
            if s.barrier is not None:
                break
            free += 1
        if count > free == len(steps):
            return refuse(texts.say("undo.only_played", own, count=free), game_id=rec.id), []
        if count > free:
            blocked = steps[len(steps) - free - 1]
            reason = barrier_text(front, blocked.barrier, own)
            if free == 0:
                text = texts.say("undo.last_stays", own, action=blocked.action.action, reason=reason)
            else:
                text = texts.say("undo.only_last", own, count=free, action=blocked.action.action, reason=reason)
            return refuse(text, game_id=rec.id), []
        back = steps[len(steps) - count:]
        # the public narration only: the action as typed may name a hidden tile
        said = [" ".join(s.action.narration.split()) or texts.say("log.nothing_to_show", rec.lang) for s in back]
        text = texts.say("undo.took_back", rec.lang, user=user_id, count=count, moves=" / ".join(said))
        state = back[0].before
        game = cls.from_dict(state)
        out = service._outgoing([text], actor=seat)
        service.forget(rec.id)
        try:
            rec = await service.store.take_back(rec.id, expected_version=rec.version, count=count, state=state,
                                                outgoing=out)
        except StaleVersion:
            return refuse(texts.say("undo.moved_on", own)), []
        service._keep(rec, game)
        stale = await service.store.posted_messages(rec.id, after_version=rec.version, limit=count + 5)
        after = await asyncio.to_thread(service._after_move, rec, front, game)
    png = await service._render(front, after.view, [], rec.lang)
    text, mention = service._board_text(rec, game, after, out.payload)
    return Reply(text, png=png, mention=mention, buttons=after.buttons, game_id=rec.id, version=rec.version,
                 changed=True, delivery=out.id, channel_id=channel_id), stale


__all__ = ["MAX_UNDO", "Step", "replay_steps", "trailing", "undo"]
