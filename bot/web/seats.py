"""A player's own link to a game's page (a seat link): an unguessable token per player and game, kept in the
store's settings like the page's link (:mod:`bot.web.links`), with a token of its own against forged requests.

Two kinds of settings row hold a seat link:

- scope :data:`~bot.store.SEAT_LINK_SCOPE` (``web.seat``), owner the player, target the game:
  ``{"token": TOKEN, "csrf": CSRF}``, the seat's current link;
- scope ``web.seat.token``, owner a number taken from the token's first bytes (:func:`bot.web.links.token_key`):
  ``{"game": ID, "user": USER, "token": TOKEN}``, so a request finds its seat by one read of the table's key.

A link opens its seat while both rows hold the token (each compared in constant time) and the player still
sits in the game (:func:`bot.web.server.WebServer` checks the seat on the game's record). Clearing the first
row revokes it: the player revokes it (``/game link revoke``), the host revokes the game's page
(:func:`revoke_game`), the player leaves or is removed (the lobby clears the row) or is forgotten (every settings
row whose owner is the person is deleted). The CSRF token is 128 random bits, made with the link and sent by the
seat's page with every move. Nothing here remembers a token: each request reads the store, so a revoke stored by
any process is seen by the next request.
"""

from __future__ import annotations

import hmac
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from bot.store import SEAT_LINK_SCOPE, Store
from bot.web.links import BATCH, new_token, token_key, token_rows, unused_token

#: the settings scope that finds a seat by its token (owner: :func:`bot.web.links.token_key`)
TOKEN_SCOPE = "web.seat.token"


@dataclass(frozen=True, slots=True)
class SeatLink:
    """What a seat link opens: the game, the player, and the link's CSRF token."""

    game_id: int
    user_id: int
    csrf: str


async def seat_token(store: Store, game_id: int, user_id: int) -> str:
    """The player's seat token for the game, made (with its CSRF token) when they have none."""
    held = await store.settings.get_settings(SEAT_LINK_SCOPE, user_id, game_id)
    token = held.get("token")
    if isinstance(token, str) and isinstance(held.get("csrf"), str) and token_key(token) is not None:
        return token
    token, key = await unused_token(store, TOKEN_SCOPE)
    await store.settings.put_settings(TOKEN_SCOPE, key, 0, {"game": game_id, "user": user_id, "token": token})
    await store.settings.put_settings(SEAT_LINK_SCOPE, user_id, game_id, {"token": token, "csrf": new_token()})
    return token


def _row(row: dict[str, Any], token: str) -> tuple[int, int] | None:
    """The (game, player) a ``web.seat.token`` row says ``token`` opens (compared in constant time), or None."""
    stored, game, user = row.get("token"), row.get("game"), row.get("user")
    if not isinstance(stored, str) or not isinstance(game, int) or not isinstance(user, int):
        return None
    return (game, user) if hmac.compare_digest(stored, token) else None


async def seat_of(store: Store, token: str) -> SeatLink | None:
    """The seat ``token`` opens, or None (no such token, or revoked): two reads of the store, never
    remembered. The caller checks that the player still sits in the game."""
    key = token_key(token)
    if key is None:
        return None
    found = _row(await store.settings.get_settings(TOKEN_SCOPE, key), token)
    if found is None:
        return None
    game, user = found
    held = await store.settings.get_settings(SEAT_LINK_SCOPE, user, game)
    current, csrf = held.get("token"), held.get("csrf")
    if not isinstance(current, str) or not isinstance(csrf, str) or not hmac.compare_digest(current, token):
        return None
    return SeatLink(game, user, csrf)


async def games_of(store: Store, tokens: Iterable[str]) -> dict[str, int | None]:
    """The game each seat token still opens (None: revoked or never made), in two reads of the store per
    :data:`~bot.web.links.BATCH` tokens (for the live streams of seat pages)."""
    out: dict[str, int | None] = {}
    found = [(token, None if row is None else _row(row, token))
             for token, row in await token_rows(store, TOKEN_SCOPE, tokens)]
    opened = [(token, seat) for token, seat in found if seat is not None]
    out.update((token, None) for token, seat in found if seat is None)
    for start in range(0, len(opened), BATCH):
        part = opened[start:start + BATCH]
        helds = await store.settings.settings_of([(SEAT_LINK_SCOPE, user, game) for _, (game, user) in part])
        for (token, (game, _)), held in zip(part, helds, strict=True):
            current = held.get("token")
            out[token] = game if isinstance(current, str) and hmac.compare_digest(current, token) else None
    return out


async def revoke_seat(store: Store, game_id: int, user_id: int) -> bool:
    """Revoke the player's seat link of the game; whether they had one."""
    held = await store.settings.get_settings(SEAT_LINK_SCOPE, user_id, game_id)
    token = held.get("token")
    if isinstance(token, str) and (key := token_key(token)) is not None:
        await store.settings.put_settings(TOKEN_SCOPE, key, 0, {})
    if held:
        await store.settings.put_settings(SEAT_LINK_SCOPE, user_id, game_id, {})
    return isinstance(token, str)


async def revoke_game(store: Store, game_id: int) -> int:
    """Revoke every seat link of the game (its page's link was revoked); how many there were."""
    users: set[int] = set()
    for owner, target, data in await store.settings.all_settings(TOKEN_SCOPE):
        if data.get("game") == game_id:
            await store.settings.put_settings(TOKEN_SCOPE, owner, target, {})
            if isinstance(user := data.get("user"), int):
                users.add(user)
    for user in users:
        await store.settings.put_settings(SEAT_LINK_SCOPE, user, game_id, {})
    return len(users)


def seat_url(base: str, token: str) -> str:
    """A seat's page under the operator's public base URL."""
    return f"{base.rstrip('/')}/p/{token}"


__all__ = ["TOKEN_SCOPE", "SeatLink", "games_of", "revoke_game", "revoke_seat", "seat_of", "seat_token", "seat_url"]
