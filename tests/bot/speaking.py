"""The service as the service tests read it: each outcome with the message it shows.

:class:`Speaking` wraps a :class:`~bot.play.service.Service`; a call that answers an outcome answers a
:class:`Said` instead: for a refusal its text, for a private message that message, for an acceptance the
message of its newest public record as the channel gets it (composed from the store, as every front does).
A :class:`Said`'s text names people as Discord does (``<@id>``, :func:`mentioned`), its chosen names still
marked, so a test reads the words a channel reads."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot.games import ButtonSpec
from bot.play.service import Service
from bot.telling.compose import Message
from bot.telling.outcomes import Accepted, Private, Refusal
from rules.literal import mark, render


def mentioned(text: str) -> str:
    """``text`` with each person as Discord's mention of them; names stay marked spans."""
    return render(text, name=mark, person=lambda p: f"<@{p.user_id}>")


@dataclass
class Said:
    """An outcome and the message it shows."""

    text: str
    ok: bool = True
    ephemeral: bool = False
    png: bytes | None = None
    filename: str = "board.png"
    mention: int | None = None
    buttons: list[ButtonSpec] = field(default_factory=list)
    game_id: int | None = None
    version: int | None = None
    private: list[Private] = field(default_factory=list)
    #: the ids of the public records an acceptance wrote, and their messages (retirements left out)
    deliveries: tuple[int, ...] = ()
    messages: list[Message] = field(default_factory=list)
    #: the kinds of those records, in order
    kinds: tuple[str, ...] = ()

    @property
    def changed(self) -> bool:
        return bool(self.deliveries)

    @property
    def edited(self) -> bool:
        """Whether the newest record goes on with the turn's message (an edit of it)."""
        return bool(self.kinds) and self.kinds[-1] == "edit"


async def said(service: Service, outcome: Any) -> Any:
    """``outcome`` as a :class:`Said` (anything else as it is)."""
    if isinstance(outcome, Refusal):
        return Said(mentioned(outcome.text), ok=False, ephemeral=True)
    if isinstance(outcome, Message):
        return Said(mentioned(outcome.text), ephemeral=True, png=outcome.png, filename=outcome.filename,
                    buttons=list(outcome.buttons), game_id=outcome.game_id, version=outcome.version)
    if not isinstance(outcome, Accepted):
        return outcome
    messages = []
    kinds = []
    for delivery_id in outcome.deliveries:
        d = await service.store.outbox.delivery(delivery_id)
        if d is not None and d.kind != "retire":
            kinds.append(d.kind)
            messages.append(await service.message(d))
    last = messages[-1] if messages else Message("")
    return Said(mentioned(last.text), png=last.png, filename=last.filename, mention=last.mention,
                buttons=list(last.buttons), game_id=outcome.game_id, version=last.version,
                private=list(outcome.private), deliveries=outcome.deliveries, messages=messages, kinds=tuple(kinds))


class Speaking:
    """A service whose outcomes are :class:`Said`; everything else passes through to the service."""

    def __init__(self, service: Service) -> None:
        object.__setattr__(self, "service", service)

    def __getattr__(self, name: str) -> Any:
        value = getattr(self.service, name)
        if not inspect.iscoroutinefunction(value):
            return value

        async def call(*args: Any, **kwargs: Any) -> Any:
            return await said(self.service, await value(*args, **kwargs))

        return call

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self.service, name, value)


def speaking(make: Callable[..., Service]) -> Callable[..., Speaking]:
    return lambda *args, **kwargs: Speaking(make(*args, **kwargs))
