"""The reading side, for every front end: a channel's game as one person may see it now (``/game status``:
the whole board, whose turn, their moves and buttons) and its log of moves. Both answer the asker alone and
store nothing; the status reads under the channel's lock and hands a game left waiting on a computer to the
computers again (:class:`Host`)."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable
from typing import Any, Protocol

from bot import texts
from bot.games import GameUnit
from bot.messages import host_of
from bot.play import takeback
from bot.play.autoplay import computer_to_act
from bot.play.seats import Fronts, lang_of, no_game, seat_line
from bot.store import ACTIVE, LOBBY, GameRecord, Store
from bot.telling.compose import Message
from bot.telling.outcomes import Refusal
from rules.contract import Game
from rules.literal import CLOSE, OPEN, mark

log = logging.getLogger(__name__)


class Host(Protocol):
    """What the reading side asks of the service that holds it (the service is one): the channel's lock, the
    running games it keeps in memory, and the computer worker woken when a computer is to act."""

    def lock(self, channel_id: int) -> Any: ...

    async def load(self, rec: GameRecord) -> Game: ...

    def _wake(self, channel_id: int) -> None: ...


class Reading:
    """A channel's game for one reader: its status and its log, over a :class:`Store`."""

    def __init__(self, store: Store, *, classes: Callable[[str], type[Game]], fronts: Fronts, host: Host) -> None:
        self.store = store
        self.classes = classes
        self.fronts = fronts
        self.host = host

    async def status(self, channel_id: int, user_id: int | None = None, lang: str | None = None
                     ) -> Message | Refusal:
        """The board as ``user_id`` may see it, whose turn, and what they can do now (private, in their
        language ``lang``; when not given, the one they sat down with, else the game's)."""
        async with self.host.lock(channel_id):
            rec = await self.store.games.channel_game(channel_id)
            if rec is None:
                last = await self.store.games.channel_history(channel_id, 1)
                if not last or last[0].state is None:
                    return no_game(lang)
                rec = last[0]
            cls, front = self.classes(rec.game_key), self.fronts(rec.game_key)
            own = lang_of(rec, user_id, lang)
            if rec.status == LOBBY:
                return Message(texts.say("lobby.status", own, title=cls.title, host=host_of(rec, own),
                                         seats=seat_line(self.fronts, rec, own), low=cls.min_seats, high=cls.max_seats),
                               game_id=rec.id)
            game = await self.host.load(rec)
            seat = rec.seat_of(user_id) if user_id is not None else None
            can = rec.status == ACTIVE and seat is not None and game.may_act(seat)
            png, text, buttons, legal = await asyncio.to_thread(self._status_parts, front, game, seat, can, own)
            if can:
                text += "\n" + texts.say("you_can", own, legal=legal)
            elif rec.status != ACTIVE:
                text = texts.say("last_game", own, status=texts.status_word(rec.status, own)) + " " + text
            if rec.status == ACTIVE and computer_to_act(rec, game):
                self.host._wake(channel_id)
        described = front.alt_text(game, [], lang=own) if png is not None else ""
        return Message(text, png, "board.png", tuple(buttons), None, rec.id, rec.version, description=described)

    @staticmethod
    def _status_parts(front: GameUnit[Any], game: Game, seat: int | None, can_act: bool, lang: str = "en"
                      ) -> tuple[bytes | None, str, list[Any], str]:
        """The whole board as ``seat`` sees it, their status, and (when they may act) their buttons and moves."""
        try:
            png = front.board_picture(game.view(seat), lang=lang)
        except Exception:
            log.exception("drawing the whole board of %s failed", front.key)
            png = None
        text = front.describe(game, seat, lang=lang)
        if not can_act or seat is None:
            return png, text, [], ""
        return png, text, front.turn_buttons(game, seat, lang=lang), game.describe_legal(lang=lang)

    async def log(self, channel_id: int, limit: int = 20, max_chars: int = 1900, *,
                  user_id: int | None = None, lang: str | None = None) -> Message | Refusal:
        """The last ``limit`` moves of the channel's game (or its last finished one), as many of the newest
        as fit in ``max_chars``.

        Every move shows its public form only, the narration everyone saw when it was played: the action
        as typed may name a face-down tile (``bag acid 7 5``), so it is shown only in the moves of
        ``user_id`` themselves, whose copy of the log nobody else sees (R12). In the asker's ``lang``, but
        each move as the channel was told it, marked (in ``lang``) when it was played for its person: by the
        autopilot, as a forced move, from their plan or by a standing order (:mod:`bot.play.takeback`)."""
        rec = await self.store.games.channel_game(channel_id)
        if rec is None:
            last = await self.store.games.channel_history(channel_id, 1)
            if not last:
                return no_game(lang)
            rec = last[0]
        reader = lang_of(rec, user_id, lang)
        limit = max(1, min(limit, takeback.KEEP))
        acts = await self.store.games.actions(rec.id, since=max(0, rec.version - limit))
        how = await takeback.played_for(self.store, rec.id, [(a.user_id, a.index) for a in acts])
        title = self.classes(rec.game_key).title
        status = texts.status_word(rec.status, reader)
        if not acts:
            return Message(texts.say("log.no_moves", reader, title=title, status=status),
                           game_id=rec.id)
        lines: list[str] = []
        used = 0
        first = acts[-1].index
        mine = False
        for a in reversed(acts):
            who = rec.seats[a.seat].name if a.seat is not None and a.seat < len(rec.seats) else "?"
            said = " ".join(a.narration.split()) or texts.say("log.nothing_to_show", reader)
            own = user_id is not None and a.user_id == user_id
            # the player is named once: by the narration when it begins with them ("Ann (red) rolls",
            # "Red (Ann) rolls 4"), else here
            opens = re.match(rf"(?:[^\W\d_]+ \()?{OPEN}?{re.escape(who)}{CLOSE}?(?!\w)", said) is not None
            named = [*([] if opens else [mark(who)]), *([f"`{a.action}`"] if own else [])]
            marked = texts.say(f"log.by.{how[a.index]}", reader) + " " if a.index in how else ""
            line = f"{a.index + 1}. {marked}" + (" ".join(named) + ": " if named else "") + said
            if lines and used + len(line) + 1 > max_chars - 120:
                break
            lines.append(line)
            used += len(line) + 1
            first = a.index
            mine = mine or own
        head = texts.say("log.head", reader, title=title, status=status, first=first + 1, last=acts[-1].index + 1)
        if mine:
            head += texts.say("log.own_moves", reader)
        return Message(head + "\n" + "\n".join(reversed(lines)), game_id=rec.id, version=rec.version)


__all__ = ["Host", "Reading"]
