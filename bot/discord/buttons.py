"""Action buttons as Discord shows them: a custom_id that carries game id, move number and action
(``jy:<game>:<version>:<action>``), and the views that hold them. The buttons sent are not dispatchable
themselves; one dynamic item (:class:`bot.discord.presses.ActionButton`) answers every press, so buttons keep
working after restarts and for days, and no per-message view is kept in memory or can expire."""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import discord

from bot.games import ButtonSpec
from rules.literal import bare, spans

log = logging.getLogger(__name__)

CUSTOM_ID_PREFIX = "jy"
CUSTOM_ID_TEMPLATE = r"jy:(?P<game>[0-9]+):(?P<version>[0-9]+):(?P<action>[^\n]+)"
MAX_CUSTOM_ID = 100
#: the longest game id and move number a real button carries (digits)
MAX_ID_DIGITS = 18
MAX_CONTENT = 2000
MAX_LABEL = 80

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def custom_id(game_id: int, version: int, action: str) -> str | None:
    """The custom_id of an action button, or None if it would be longer than Discord allows."""
    cid = f"{CUSTOM_ID_PREFIX}:{game_id}:{version}:{action}"
    if len(cid) > MAX_CUSTOM_ID or "\n" in action:
        return None
    return cid


@dataclass(frozen=True)
class Cut:
    """A text cut short to fit one of Discord's limits: the whole text and the limit."""

    text: str
    limit: int


#: the cuts noted while :func:`recording_cuts` listens (a plain module value: the bot's sends run in one
#: loop); None, and nothing noted, otherwise
_CUTS: list[Cut] | None = None


@contextmanager
def recording_cuts() -> Iterator[list[Cut]]:
    """Every text inside the ``with`` block that :func:`clip` cut short, but a cut that only a person's name
    made necessary. For tests (the words of a longer language must fit without being cut); production never
    listens."""
    global _CUTS
    found: list[Cut] = []
    before, _CUTS = _CUTS, found
    try:
        yield found
    finally:
        _CUTS = before


def clip(text: str, limit: int = MAX_CONTENT, *, ours: int | None = None) -> str:
    """``text`` within ``limit`` characters, cut with an ellipsis when longer. ``ours`` is how long the text
    is without the names in it: a cut is noted (:func:`recording_cuts`) unless our own words alone fit."""
    if len(text) <= limit:
        return text
    if _CUTS is not None and (ours if ours is not None else len(text)) > limit:
        _CUTS.append(Cut(text, limit))
    return text[: limit - 1] + "…"


def ours_length(text: str) -> int:
    """How long ``text`` is without the names in it (our own words only)."""
    return sum(len(piece) for piece, name in spans(text) if not name)


class SentButton(discord.ui.Button[discord.ui.View]):
    """A button as sent: not dispatchable itself; the dynamic :class:`ActionButton` answers its presses."""

    def is_dispatchable(self) -> bool:
        return False


def action_view(game_id: int, version: int, specs: Sequence[ButtonSpec]) -> discord.ui.View | None:
    """A view of action buttons for ``game_id`` at ``version``; None if there are none."""
    view = discord.ui.View(timeout=None)
    for spec in specs[:25]:
        cid = custom_id(game_id, version, spec.action)
        if cid is None:
            log.warning("action %r is too long for a button; left out", spec.action)
            continue
        label = clip(bare(spec.label), MAX_LABEL, ours=ours_length(spec.label)) or spec.action[:MAX_LABEL]
        view.add_item(SentButton(label=label,
                                 style=STYLES.get(spec.style, discord.ButtonStyle.secondary), custom_id=cid))
    return view if view.children else None


__all__ = ["CUSTOM_ID_PREFIX", "CUSTOM_ID_TEMPLATE", "MAX_CONTENT", "MAX_CUSTOM_ID", "MAX_ID_DIGITS", "MAX_LABEL",
           "STYLES", "Cut", "SentButton", "action_view", "clip", "custom_id", "ours_length",
           "recording_cuts"]
