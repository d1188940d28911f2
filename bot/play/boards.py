"""The whole board on request (``/game board``) and "Where can I go?" (a private picture for the player to
act), for every front end. A private board and the reach picture are drawn for the asker at once, on a game
rebuilt from its snapshot, off the event loop (the picture workers, or a thread), without a lock; a board for
the channel is a record beside the turns, delivered like every public message."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from bot import texts
from bot.games import GameUnit
from bot.messages import NOTE, Line, Showing, person_of
from bot.store import ACTIVE, FINISHED, LOBBY, GameRecord, Outgoing, Store
from bot.telling.compose import Message
from bot.telling.outcomes import Accepted, Refusal, refuse
from bot.telling.pictures import Pictures
from rules.contract import Game
from rules.literal import Person

log = logging.getLogger(__name__)


class Shower(Protocol):
    """What a board on request is made with (the service is one): the store, the game classes and units, the
    picture workers, the asker's language and the delivery records of a message's parts."""

    @property
    def store(self) -> Store: ...

    @property
    def classes(self) -> Callable[[str], type[Game]]: ...

    @property
    def fronts(self) -> Callable[[str], GameUnit[Any]]: ...

    @property
    def pictures(self) -> Pictures: ...

    def lang_of(self, rec: GameRecord, user_id: int | None, lang: str | None) -> str: ...

    def outgoing(self, records: Sequence[Showing]) -> list[Outgoing]: ...


async def whole_board(shower: Shower, channel_id: int, user_id: int, *, private: bool, lang: str | None = None
                      ) -> Message | Accepted | Refusal:
    """The channel's game (or its last one) as a whole-board picture. Public for a player of the game who
    asks so (the channel sees it, in the game's language); private for anyone, with the asker's own view
    in their language ``lang``."""
    shown = await _shown_game(shower, channel_id, user_id, lang)
    if isinstance(shown, Refusal):
        return shown
    rec, state, own = shown
    seat = rec.seat_of(user_id)
    if not private and seat is None:
        return refuse(texts.say("board.players_only", own))
    title = shower.classes(rec.game_key).title
    if not private:
        when = Line(say="board.at_move", params={"move": rec.version}) if rec.status == ACTIVE \
            else Line(say="board.finished_after", params={"count": rec.version}) if rec.status == FINISHED \
            else Line(text=texts.status_word(rec.status, rec.lang))
        head = Line(say="board.head_public", params={"title": title, "when": when, "user": person_of(rec, user_id)})
        out = shower.outgoing([Showing(NOTE, (head,), "whole")])
        await shower.store.outbox.add_deliveries(rec.id, out)
        return Accepted(rec.id, tuple(o.id for o in out if o.id is not None))
    front = shower.fronts(rec.game_key)
    game = shower.classes(rec.game_key).from_dict(state)
    try:
        png = await shower.pictures.call(rec.game_key, front.board_picture, game.view(seat), own)
    except Exception:
        log.exception("drawing the whole board of game %s failed", rec.id)
        return refuse(texts.say("board.draw_failed", own))
    when_text = texts.say("board.at_move", own, move=rec.version) if rec.status == ACTIVE \
        else texts.say("board.finished_after", own, count=rec.version) if rec.status == FINISHED \
        else texts.status_word(rec.status, own)
    text = texts.say("board.head_private", own, title=title, when=when_text)
    text += "\n" + front.describe(game, seat, lang=own)
    described = front.alt_text(game, [], lang=own) if png is not None else ""
    return Message(text, png, "board.png", game_id=rec.id, version=rec.version, description=described)


async def text_board(shower: Shower, channel_id: int, user_id: int, lang: str | None = None
                     ) -> Message | Refusal:
    """The channel's game (or its last one) in words, for the asker alone (their own hidden things may show),
    in their language ``lang``: per player where they are, what they hold and what lies next to them."""
    shown = await _shown_game(shower, channel_id, user_id, lang)
    if isinstance(shown, Refusal):
        return shown
    rec, state, own = shown
    front = shower.fronts(rec.game_key)
    game = shower.classes(rec.game_key).from_dict(state)
    return Message(front.text_board(game, rec.seat_of(user_id), lang=own), game_id=rec.id, version=rec.version)


async def _shown_game(shower: Shower, channel_id: int, user_id: int, lang: str | None
                      ) -> tuple[GameRecord, dict[str, Any], str] | Refusal:
    """The game a board is asked of (the channel's, else its last one that started), its state and the
    asker's language; refused when there is none or it has not started."""
    rec = await shower.store.games.channel_game(channel_id)
    if rec is None:
        last = await shower.store.games.channel_history(channel_id, 1)
        if not last or last[0].state is None:
            return refuse(texts.say("board.no_game", lang or texts.DEFAULT))
        rec = last[0]
    own = shower.lang_of(rec, user_id, lang)
    if rec.status == LOBBY or rec.state is None:
        return refuse(texts.say("board.not_started", own))
    return rec, rec.state, own


async def where_can_i_go(shower: Shower, channel_id: int, user_id: int, game_id: int | None = None,
                         lang: str | None = None) -> Message | Refusal:
    """A private picture of where the asker's piece can go now, in their language ``lang``; refused unless it
    is their movement."""
    rec = await shower.store.games.channel_game(channel_id)
    if rec is None or rec.status != ACTIVE or rec.state is None or (game_id is not None and rec.id != game_id):
        return refuse(texts.say("reach.gone", lang or texts.DEFAULT))
    own = shower.lang_of(rec, user_id, lang)
    seat = rec.seat_of(user_id)
    front = shower.fronts(rec.game_key)
    game = shower.classes(rec.game_key).from_dict(rec.state)
    if seat is None or not front.offers_reach(game, seat):
        turn = game.to_act
        who = str(Person(rec.seats[turn].user_id, rec.seats[turn].name)) \
            if turn is not None and not rec.seats[turn].is_computer \
            else texts.say("move.nobody", own)
        return refuse(texts.say("reach.only_driver", own, who=who))
    try:
        drawn = await shower.pictures.call(rec.game_key, front.reach_picture, game, seat, own)
    except Exception:
        log.exception("drawing where game %s's seat %s can go failed", rec.id, seat)
        drawn = None
    if drawn is None:
        return refuse(texts.say("reach.nothing", own))
    answer = texts.say("reach.answer", own)
    return Message(answer, drawn.png, "reach.png", game_id=rec.id, version=rec.version,
                   description=drawn.description or answer)
