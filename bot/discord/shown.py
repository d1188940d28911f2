"""How our texts read on Discord: the names people chose (the marked spans of :mod:`rules.literal`) shown
exactly as typed.

Message content and embeds are markdown, so a name's markdown is escaped and its mentions are broken with a
zero-width space (after every ``@`` and ``<``: ``@everyone``, ``@here``, ``<@id>``, ``<@&id>``, ``<#id>`` read
as text and ping no one), while our own markup around it (bold, code, mentions of the players) stays. A field
Discord shows without markup (a button's label, an autocomplete choice, a picture's description) gets the name's
characters as they are.

A person the bot speaks of (a :class:`~rules.literal.Person` span) is a mention in content and embeds
(``<@id>``), and their name where Discord shows no markup; a computer's or an unknown id (not a Discord
account's) reads as the name, escaped like any name.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.discord.buttons import MAX_CONTENT, clip, ours_length
from rules.literal import Person, bare, marked, render

#: what breaks a mention without showing
ZERO_WIDTH = "\u200b"
#: a markdown character escape_markdown leaves alone (one with no partner after it), not yet escaped
_LONE = re.compile(r"(?<!\\)((?:\\\\)*)([*_~|`])")


def escape_name(name: str) -> str:
    """A name as Discord's markdown shows it as typed: its markdown (backslashes too, and a lone ``*``, ``_``,
    ``~``, ``|`` or backtick that :func:`discord.utils.escape_markdown` leaves) escaped, its mentions broken."""
    escaped = discord.utils.escape_markdown(name, ignore_links=False)
    escaped = _LONE.sub(r"\1\\\2", escaped)
    return escaped.replace("@", "@" + ZERO_WIDTH).replace("<", "<" + ZERO_WIDTH)


def mention(person: Person) -> str:
    """A person in content: their mention when the id is a Discord account's, else their name escaped."""
    return f"<@{person.user_id}>" if person.user_id > 0 else escape_name(person.name)


def shown(text: str, limit: int = MAX_CONTENT) -> str:
    """Message content (or an embed's text) of at most ``limit`` characters, its names escaped, its people
    mentioned."""
    return clip(render(text, escape_name, person=mention), limit, ours=ours_length(text))


def shown_parts(text: str, limit: int = MAX_CONTENT) -> list[str]:
    """Message content as :func:`shown` shows it, in as many messages as it needs: broken between lines into
    parts of at most ``limit`` characters (a six-seat table's status runs long in a long language); only a
    single line longer than a whole message is cut."""
    whole = render(text, escape_name, person=mention)
    if len(whole) <= limit:
        return [whole]
    parts: list[str] = []
    for line in whole.split("\n"):
        if parts and len(parts[-1]) + 1 + len(line) <= limit:
            parts[-1] += "\n" + line
        else:
            parts.append(clip(line, limit))
    return parts


def plain(text: str, limit: int = MAX_CONTENT) -> str:
    """A field without markup of at most ``limit`` characters: its names as typed."""
    return clip(bare(text), limit, ours=ours_length(text))


#: an embed's most characters: title, description, field name and value, footer
_EMBED = {"title": 256, "description": 4096, "name": 256, "value": 1024, "footer": 2048}


def shown_embed(embed: discord.Embed) -> discord.Embed:
    """``embed`` with its title, description, fields and footer shown as :func:`shown` shows content (the same
    embed when no name is in it)."""
    data: dict[str, Any] = dict(embed.to_dict())
    texts: list[tuple[dict[str, Any], str]] = [(data, key) for key in ("title", "description")]
    texts += [(item, key) for item in data.get("fields") or () for key in ("name", "value")]
    if isinstance(data.get("footer"), dict):
        texts.append((data["footer"], "text"))
    texts = [(place, key) for place, key in texts if isinstance(place.get(key), str)]
    if not any(marked(place[key]) for place, key in texts):
        return embed
    for place, key in texts:
        place[key] = shown(place[key], _EMBED["footer" if place is data.get("footer") else key])
    return discord.Embed.from_dict(data)


__all__ = ["ZERO_WIDTH", "escape_name", "mention", "plain", "shown", "shown_embed", "shown_parts"]
