"""The whole board on request (``/game board``) and "Where can I go?" (a private picture for the player to
act), for every front end. Both only read: no lock is held while they draw, on a game rebuilt from its
snapshot, off the event loop (the picture workers, or a thread)."""

from __future__ import annotations

import logging

from bot import texts
from bot.games.unit import takes_lang, worded
from bot.service import Reply, Service, refuse
from bot.store import ACTIVE, FINISHED, LOBBY

log = logging.getLogger(__name__)


async def whole_board(service: Service, channel_id: int, user_id: int, *, private: bool, lang: str | None = None
                      ) -> Reply:
    """The channel's game (or its last one) as a whole-board picture. Public for a player of the game who
    asks so (the channel sees it, in the game's language); private for anyone, with the asker's own view
    in their language ``lang``."""
    rec = await service.store.channel_game(channel_id)
    if rec is None:
        last = await service.store.channel_history(channel_id, 1)
        if not last or last[0].state is None:
            return refuse(texts.say("board.no_game", lang or texts.DEFAULT))
        rec = last[0]
    own = service.lang_of(rec, user_id, lang)
    if rec.status == LOBBY or rec.state is None:
        return refuse(texts.say("board.not_started", own))
    seat = rec.seat_of(user_id)
    if not private and seat is None:
        return refuse(texts.say("board.players_only", own))
    front = service.fronts(rec.game_key)
    game = service.classes(rec.game_key).from_dict(rec.state)
    viewer = seat if private else None
    view = game.view(viewer)
    lang = own if private else rec.lang  # the asker's, or the game's public one
    try:
        words = (lang,) if takes_lang(front.board_picture) else ()
        png = await service.pictures.call(rec.game_key, front.board_picture, view, *words)
    except Exception:
        log.exception("drawing the whole board of game %s failed", rec.id)
        return refuse(texts.say("board.draw_failed", own))
    when = texts.say("board.at_move", lang, move=rec.version) if rec.status == ACTIVE \
        else texts.say("board.finished_after", lang, count=rec.version) if rec.status == FINISHED \
        else texts.status_word(rec.status, lang)
    title = service.classes(rec.game_key).title
    text = texts.say("board.head_private", lang, title=title, when=when) if private \
        else texts.say("board.head_public", lang, title=title, when=when, user=user_id)
    if private:
        text += "\n" + worded(front.describe, game, viewer, lang=lang)
    return Reply(text, ephemeral=private, png=png, filename="board.png", game_id=rec.id, version=rec.version)


async def where_can_i_go(service: Service, channel_id: int, user_id: int, game_id: int | None = None,
                         lang: str | None = None) -> Reply:
    """A private picture of where the asker's piece can go now, in their language ``lang``; refused unless it
    is their movement."""
    rec = await service.store.channel_game(channel_id)
    if rec is None or rec.status != ACTIVE or rec.state is None or (game_id is not None and rec.id != game_id):
        return refuse(texts.say("reach.gone", lang or texts.DEFAULT))
    own = service.lang_of(rec, user_id, lang)
    seat = rec.seat_of(user_id)
    front = service.fronts(rec.game_key)
    game = service.classes(rec.game_key).from_dict(rec.state)
    if seat is None or not front.offers_reach(game, seat):
        turn = game.to_act
        who = f"<@{rec.seats[turn].user_id}>" if turn is not None and not rec.seats[turn].is_computer \
            else texts.say("move.nobody", own)
        return refuse(texts.say("reach.only_driver", own, who=who))
    try:
        words = (own,) if takes_lang(front.reach_picture) else ()
        png = await service.pictures.call(rec.game_key, front.reach_picture, game, seat, *words)
    except Exception:
        log.exception("drawing where game %s's seat %s can go failed", rec.id, seat)
        png = None
    if png is None:
        return refuse(texts.say("reach.nothing", own))
    return Reply(texts.say("reach.answer", own), ephemeral=True, png=png, filename="reach.png", game_id=rec.id,
                 version=rec.version)
