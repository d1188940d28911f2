"""A game's page link: an unguessable token per game, kept in the store's settings, which the host can revoke.

Two kinds of settings row hold a link (both stores have the settings table; :func:`bot.store.open_store` opens either):

- scope ``web``, owner the game's id: ``{"token": TOKEN}``, the game's current link;
- scope ``web.token``, owner a number taken from the token's first bytes: ``{"game": ID, "token": TOKEN}``, so a
  request finds its game by one read of the table's key, and the whole token is then compared in constant time.

A token is 16 random bytes (128 bits) in URL-safe base64. Revoking clears every token of the game (a race of two
processes making a link at once may have left two), so no old link opens the page again; the next ``/game link``
makes a new one. A token is read from the store each time it is asked about (nothing here remembers one), so a
revoke is seen by every process on the store from the moment it is stored.
"""

from __future__ import annotations

import base64
import binascii
import hmac
import secrets
from collections.abc import Iterable
from typing import Any

from bot.store import Store

#: the settings scope of a game's current link (owner: the game's id)
GAME_SCOPE = "web"
#: the settings scope that finds a game by its token (owner: :func:`token_key`)
TOKEN_SCOPE = "web.token"
#: random bytes in a token
TOKEN_BYTES = 16
#: the length of a token as text
TOKEN_CHARS = 22
#: the most tokens :func:`games_of` asks the store for in one read
BATCH = 500


def new_token() -> str:
    """A fresh token: 128 random bits as 22 URL-safe characters."""
    return base64.urlsafe_b64encode(secrets.token_bytes(TOKEN_BYTES)).decode("ascii").rstrip("=")


def token_key(token: str) -> int | None:
    """The settings owner under which ``token`` is found (its first 7 bytes as a number), or None when the text
    cannot be a token."""
    if len(token) != TOKEN_CHARS:
        return None
    try:
        raw = base64.urlsafe_b64decode(token + "==")
    except (binascii.Error, ValueError):
        return None
    if len(raw) != TOKEN_BYTES or base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=") != token:
        return None
    return int.from_bytes(raw[:7], "big")


async def current_token(store: Store, game_id: int) -> str | None:
    """The game's page token, or None when it has none (never made, or revoked)."""
    token = (await store.settings.get_settings(GAME_SCOPE, game_id)).get("token")
    return token if isinstance(token, str) and token_key(token) is not None else None


async def unused_token(store: Store, scope: str) -> tuple[str, int]:
    """A fresh token and its key that no row of ``scope`` holds yet (56 bits of key: a clash is all but
    impossible, and checked all the same)."""
    while True:
        token = new_token()
        key = token_key(token)
        assert key is not None
        if not await store.settings.get_settings(scope, key):
            return token, key


async def link_token(store: Store, game_id: int) -> str:
    """The game's page token, made (and stored) when it has none."""
    token = await current_token(store, game_id)
    if token is not None:
        return token
    token, key = await unused_token(store, TOKEN_SCOPE)
    await store.settings.put_settings(TOKEN_SCOPE, key, 0, {"game": game_id, "token": token})
    await store.settings.put_settings(GAME_SCOPE, game_id, 0, {"token": token})
    return token


def _opens(row: dict[str, Any], token: str) -> int | None:
    """The game a ``web.token`` row says ``token`` opens (the whole token compared in constant time), or None."""
    stored, game = row.get("token"), row.get("game")
    if not isinstance(stored, str) or not isinstance(game, int) or not hmac.compare_digest(stored, token):
        return None
    return game


async def game_of(store: Store, token: str) -> int | None:
    """The game whose page ``token`` opens, or None (no such token, or revoked): one read of the store, never
    remembered, so a revoke stored by any process is seen by the next call."""
    key = token_key(token)
    if key is None:
        return None
    return _opens(await store.settings.get_settings(TOKEN_SCOPE, key), token)


async def token_rows(store: Store, scope: str, tokens: Iterable[str]) -> list[tuple[str, dict[str, Any] | None]]:
    """Each distinct token with its settings row of ``scope`` (found by :func:`token_key`; None when the text
    cannot be a token), in one read of the store per :data:`BATCH` tokens."""
    out: list[tuple[str, dict[str, Any] | None]] = []
    keyed: list[tuple[str, int]] = []
    for token in dict.fromkeys(tokens):
        key = token_key(token)
        if key is None:
            out.append((token, None))
        else:
            keyed.append((token, key))
    for start in range(0, len(keyed), BATCH):
        part = keyed[start:start + BATCH]
        rows = await store.settings.settings_of([(scope, key, 0) for _, key in part])
        out.extend((token, row) for (token, _), row in zip(part, rows, strict=True))
    return out


async def games_of(store: Store, tokens: Iterable[str]) -> dict[str, int | None]:
    """:func:`game_of` of each token, in one read of the store per :data:`BATCH` tokens."""
    return {token: None if row is None else _opens(row, token)
            for token, row in await token_rows(store, TOKEN_SCOPE, tokens)}


async def revoke(store: Store, game_id: int) -> bool:
    """Revoke every page token of the game; whether it had one."""
    had = False
    for owner, target, data in await store.settings.all_settings(TOKEN_SCOPE):
        if data.get("game") == game_id:
            await store.settings.put_settings(TOKEN_SCOPE, owner, target, {})
            had = True
    if await store.settings.get_settings(GAME_SCOPE, game_id):
        await store.settings.put_settings(GAME_SCOPE, game_id, 0, {})
    return had


def page_url(base: str, token: str) -> str:
    """The page of a game under the operator's public base URL."""
    return f"{base.rstrip('/')}/g/{token}"


__all__ = ["BATCH", "GAME_SCOPE", "TOKEN_SCOPE", "current_token", "game_of", "games_of", "link_token", "new_token",
           "page_url", "revoke", "token_key", "token_rows", "unused_token"]
