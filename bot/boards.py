"""The whole board on request (``/game board``) and "Where can I go?" (a private picture for the player to
act), for every front end. Both only read: no lock is held while they draw, on a game rebuilt from its
snapshot, off the event loop (the picture workers, or a thread)."""

from __future__ import annotations

import logging

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
            return refuse("There is no game in this channel. Start one with `/game new`.")
        rec = last[0]
    if rec.status == LOBBY or rec.state is None:
        return refuse("The game hasn't started yet: there is no board to show. The host starts it with `/game start`.")
    seat = rec.seat_of(user_id)
    if not private and seat is None:
        return refuse("Only a player of this game can show the board to the channel; ask for it privately "
                      "(`private: True`).")
    front = service.fronts(rec.game_key)
    game = service.classes(rec.game_key).from_dict(rec.state)
    viewer = seat if private else None
    view = game.view(viewer)
    lang = service.lang_of(rec, user_id, lang) if private else rec.lang  # the asker's, or the game's public one
    try:
        words = (lang,) if takes_lang(front.board_picture) else ()
        png = await service.pictures.call(rec.game_key, front.board_picture, view, *words)
    except Exception:
        log.exception("drawing the whole board of game %s failed", rec.id)
        return refuse("The board could not be drawn just now; nothing was changed. Try again in a moment.")
    when = {ACTIVE: f"move {rec.version}", FINISHED: f"finished after {rec.version} moves"}.get(rec.status, rec.status)
    head = f"The whole board of {service.classes(rec.game_key).title}, {when}"
    text = head + ("." if private else f", shown by <@{user_id}>.")
    if private:
        text += "\n" + worded(front.describe, game, viewer, lang=lang)
    return Reply(text, ephemeral=private, png=png, filename="board.png", game_id=rec.id, version=rec.version)


async def where_can_i_go(service: Service, channel_id: int, user_id: int, game_id: int | None = None) -> Reply:
    """A private picture of where the asker's piece can go now; refused unless it is their movement."""
    rec = await service.store.channel_game(channel_id)
    if rec is None or rec.status != ACTIVE or rec.state is None or (game_id is not None and rec.id != game_id):
        return refuse("That game is not running here any more; nothing to show.")
    seat = rec.seat_of(user_id)
    front = service.fronts(rec.game_key)
    game = service.classes(rec.game_key).from_dict(rec.state)
    if seat is None or not front.offers_reach(game, seat):
        turn = game.to_act
        who = f"<@{rec.seats[turn].user_id}>" if turn is not None and not rec.seats[turn].is_computer else "nobody"
        return refuse(f"Only the player driving now can ask where they can go ({who}), and only while they move.")
    try:
        png = await service.pictures.call(rec.game_key, front.reach_picture, game, seat)
    except Exception:
        log.exception("drawing where game %s's seat %s can go failed", rec.id, seat)
        png = None
    if png is None:
        return refuse("There is nothing to show: no cell can be reached with this roll.")
    return Reply("Where you can go with this roll: the cells you can end on and those you pass (only you see "
                 "this).", ephemeral=True, png=png, filename="reach.png", game_id=rec.id, version=rec.version)
