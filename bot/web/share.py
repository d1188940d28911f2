"""``/game link`` for every front: the game's page posted to the channel, and the host's revocation of it.

The link is a record beside the turns (a note), stored and delivered like every public message, so it can be
rebuilt from the store. A player posts it to the channel; anyone else gets it privately (they can read the
channel, so they may see the page). A seated player is also offered, privately, their own board: their seat's
link (:mod:`bot.web.seats`), which only they ever see. Revoking the page is for the host, or anyone who may manage
the channel, and closes every seat's link too; another player revokes their own seat's link.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot import texts
from bot.messages import NOTE, Line, Showing, host_of, person_of
from bot.play.service import Service, refuse
from bot.standing.history import PageLink
from bot.store import GameRecord, Store
from bot.telling.compose import Message
from bot.telling.outcomes import Accepted, Refusal
from bot.web import links, seats


def page_links(store: Store, base: str) -> PageLink:
    """The addresses of the games' pages under the operator's public ``base`` URL, each made when first asked
    (``Service.page_link``)."""

    async def page_link(rec: GameRecord) -> str | None:
        return links.page_url(base, await links.link_token(store, rec.id))

    return page_link


def seat_links(store: Store, base: str) -> Callable[[GameRecord, int], Awaitable[str | None]]:
    """The addresses of the players' own pages under ``base``, each made when first asked
    (``Service.seat_link``)."""

    async def seat_link(rec: GameRecord, user_id: int) -> str | None:
        return seats.seat_url(base, await seats.seat_token(store, rec.id, user_id))

    return seat_link


@dataclass(frozen=True, slots=True)
class SeatOffer:
    """A player's own board, offered to them alone: the words, the address and the button's label."""

    text: str
    url: str
    label: str


async def seat_offer(service: Service, channel_id: int, user_id: int, *, lang: str | None = None
                     ) -> SeatOffer | None:
    """The asker's own board of the channel's open game, for their eyes only: None unless they sit in it and
    the bot publishes pages."""
    if service.seat_link is None:
        return None
    rec = await service.store.games.channel_game(channel_id)
    if rec is None or rec.seat_of(user_id) is None:
        return None
    url = await service.seat_link(rec, user_id)
    if url is None:
        return None
    own = service.lang_of(rec, user_id, lang)
    return SeatOffer(texts.say("web.seat_link", own, url=url), url, texts.say("web.seat_open", own))


async def _game(service: Service, channel_id: int) -> GameRecord | None:
    """The channel's open game, else its last one."""
    rec = await service.store.games.channel_game(channel_id)
    if rec is None:
        last = await service.store.games.channel_history(channel_id, 1)
        rec = last[0] if last else None
    return rec


async def share(service: Service, channel_id: int, user_id: int, *, lang: str | None = None
                ) -> Accepted | Message | Refusal:
    """The page of the channel's game (or its last one): posted to the channel when a player asks, else only
    to the asker; ``lang`` is the asker's, for what only they read."""
    if service.page_link is None:
        return refuse(texts.say("web.link_off", lang or texts.DEFAULT))
    rec = await _game(service, channel_id)
    if rec is None:
        return refuse(texts.say("web.link_no_game", lang or texts.DEFAULT))
    own = service.lang_of(rec, user_id, lang)
    url = await service.page_link(rec)
    if url is None:
        return refuse(texts.say("web.link_off", own))
    if rec.seat_of(user_id) is None and rec.host_id != user_id:
        return Message(texts.say("web.page_link", own, url=url), game_id=rec.id)
    posted = Line(say="web.link_posted", params={"user": person_of(rec, user_id), "url": url})
    out = service.outgoing([Showing(NOTE, (posted,))])
    await service.store.outbox.add_deliveries(rec.id, out)
    return Accepted(rec.id, tuple(o.id for o in out if o.id is not None))


async def revoke(service: Service, channel_id: int, user_id: int, *, can_manage: bool = False,
                 lang: str | None = None) -> Message | Refusal:
    """Revoke the page link of the channel's game (or its last one): it opens nothing from now on (the host, or
    someone who may manage the channel); answered privately in ``lang``. Once it answers, every page server on the
store answers 404 for that link (:mod:`bot.web.server`); this process's ends the link's live streams at once."""
    rec = await _game(service, channel_id)
    if rec is None:
        return refuse(texts.say("web.link_no_game", lang or texts.DEFAULT))
    own = service.lang_of(rec, user_id, lang)
    if not can_manage and rec.host_id != user_id:
        if rec.seat_of(user_id) is None:
            return refuse(texts.say("web.link_only_host", own, host=host_of(rec, own)))
        mine = await seats.revoke_seat(service.store, rec.id, user_id)  # a player closes their own board
        if service.on_revoked is not None:
            service.on_revoked(rec.id)
        return Message(texts.say("web.seat_revoked" if mine else "web.seat_none_to_revoke", own), game_id=rec.id)
    had = await links.revoke(service.store, rec.id)
    had = bool(await seats.revoke_game(service.store, rec.id)) or had
    if service.on_revoked is not None:
        service.on_revoked(rec.id)
    return Message(texts.say("web.link_revoked" if had else "web.link_none_to_revoke", own), game_id=rec.id)


__all__ = ["SeatOffer", "page_links", "revoke", "seat_links", "seat_offer", "share"]
