"""What the bot sends, shaped as Discord's OpenAPI specification types it. discord.py writes some ids as JSON
numbers where the specification has a snowflake, a string of digits: an attachment's id (the index of its
``files[n]`` part), the users a message may ping, the recipient of a direct-message channel. These three are
the ones the bot sends; each is written here as a string (``tests/bot/test_discord_spec_messages.py`` checks
every request of whole games against the specification)."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

import discord
from discord.http import Route

if TYPE_CHECKING:
    from discord.types.message import AllowedMentions as MentionsPayload


class Mentions(discord.AllowedMentions):
    """Allowed mentions whose user and role ids are strings; merged with another, still so (discord.py merges
    each message's with the client's, which is one of these)."""

    def to_dict(self) -> MentionsPayload:
        data = super().to_dict()
        if "users" in data:
            data["users"] = [str(u) for u in data["users"]]
        if "roles" in data:
            data["roles"] = [str(r) for r in data["roles"]]
        return data

    def merge(self, other: discord.AllowedMentions) -> Mentions:
        merged = super().merge(other)
        return Mentions(everyone=merged.everyone, users=merged.users, roles=merged.roles,
                        replied_user=merged.replied_user)


def no_mentions() -> Mentions:
    """Nobody is pinged."""
    return Mentions(everyone=False, users=False, roles=False, replied_user=False)


def mention_only(user_id: int) -> Mentions:
    """Only this user is pinged; other names in the text stay quiet."""
    return Mentions(everyone=False, roles=False, replied_user=False, users=[discord.Object(user_id)])


class Attachment(discord.File):
    """A file whose entry in the message's ``attachments`` has its id (the ``files[n]`` index) as a string."""

    def to_dict(self, index: int) -> dict[str, Any]:
        payload = super().to_dict(index)
        payload["id"] = str(index)
        return payload


def attachment(data: bytes, filename: str, description: str | None = None) -> Attachment:
    """``data`` attached as ``filename``, with its description (alt text) when it has one."""
    return Attachment(io.BytesIO(data), filename=filename, description=description or None)


async def direct_channel(client: discord.Client, user_id: int) -> discord.DMChannel:
    """The direct-message channel with a user: the one known, else opened (the recipient's id a string)."""
    state = client._connection
    known = state._get_private_channel_by_user(user_id)
    if isinstance(known, discord.DMChannel):
        return known
    data = await client.http.request(Route("POST", "/users/@me/channels"), json={"recipient_id": str(user_id)})
    return state.add_dm_channel(data)


__all__ = ["Attachment", "Mentions", "attachment", "direct_channel", "mention_only", "no_mentions"]
