"""A channel kept in memory, for the fronts that show a game without Discord (the terminal, the demo).

The service's records reach it through the one delivery routine (:func:`bot.telling.delivery.deliver`), exactly as
they reach a Discord channel: a record posts a message or edits the turn's message. The front reads what
changed (:class:`Change`) and shows it in its own way: the terminal prints the new lines and writes the
picture, the demo writes each message's picture as a Discord channel would show it."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from bot.telling.compose import Message
from bot.telling.delivery import Sender, Undeliverable, deliver
from bot.telling.outcomes import Accepted, Private


@dataclass(frozen=True, slots=True)
class Change:
    """A message posted (``edit`` False) or changed, by its number in the channel, as it shows now."""

    number: int
    message: Message
    edit: bool


@dataclass
class LocalChannel:
    """A :class:`bot.telling.delivery.Transport` that keeps its messages: a nonce posts once, an edit of a message
    the channel does not hold (one of an earlier run's) is refused, so the routine posts it anew. Taking the
    buttons off a message changes nothing a local front shows. Messages are numbered in the order they were
    posted; their ids (which the store records) differ from every earlier run's."""

    messages: dict[int, Message] = field(default_factory=dict)
    changes: list[Change] = field(default_factory=list)
    _nonces: dict[str, int] = field(default_factory=dict)
    _numbers: dict[int, int] = field(default_factory=dict)
    _base: int = field(default_factory=lambda: time.time_ns() // 1000)

    async def post(self, channel_id: int, message: Message, nonce: str) -> int | None:
        if nonce in self._nonces:
            return self._nonces[nonce]
        number = len(self.messages) + 1
        message_id = self._base + number
        self.messages[message_id] = message
        self._nonces[nonce] = message_id
        self._numbers[message_id] = number
        self.changes.append(Change(number, message, False))
        return message_id

    async def edit(self, channel_id: int, message_id: int, message: Message | None) -> int | None:
        if message_id not in self.messages:
            raise Undeliverable(f"no message {message_id} here")
        if message is not None:
            self.messages[message_id] = message
            self.changes.append(Change(self._numbers[message_id], message, True))
        return message_id

    async def take(self, sender: Sender, accepted: Accepted) -> list[Change]:
        """Deliver the acceptance's records here; what changed, in order."""
        start = len(self.changes)
        for delivery_id in accepted.deliveries:
            d = await sender.store.outbox.delivery(delivery_id)
            if d is not None and not d.delivered:
                await deliver(sender, d, self)
        return self.changes[start:]


__all__ = ["Change", "LocalChannel", "Private"]
