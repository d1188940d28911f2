"""The outbox worker: every public message a stored move owes its channel reaches it once.

The service writes a delivery record in the same transaction as the move (see :class:`bot.store.Outgoing`).
A front end answers the player and records the posted message (:meth:`Service.delivered`); what it could
not post (its answer failed or expired, or the process stopped between the commit and the post) this
worker posts as a plain channel message: at start-up, then whenever a record falls due. Records are
claimed before posting, so two workers never post the same one, and every post carries a nonce made
from the record, so a post repeated after a crash between posting and recording is one message.

The records have a kind and a due time. A ``post`` record posts a message; an ``edit`` record changes the
message of the record it follows (the turn's message, see :mod:`bot.turn_messages`): it waits while that
message is not posted yet, posts a new message (with its own nonce) when that one was deleted or never
made it, and when a newer state of the same turn's message exists it is done without a request.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Protocol

from bot import turn_messages
from bot.service import Reply, Service
from bot.store import EDIT, POST, Delivery

log = logging.getLogger(__name__)

#: seconds between looks at the outbox for records that fell due
POLL_SECONDS = 5.0


class Undeliverable(Exception):
    """The channel cannot take the message (deleted, or the bot may not write there): give up on it."""


class Poster(Protocol):
    """Posts a message to a channel and returns its id; raises :class:`Undeliverable` for good."""

    async def post(self, channel_id: int, reply: Reply, nonce: str) -> int | None: ...

    async def edit(self, channel_id: int, message_id: int, reply: Reply) -> int | None:
        """Show ``reply`` in message ``message_id`` (without a picture: keep the one it has; without buttons:
        remove them); raises :class:`Undeliverable` when that message is gone."""
        ...


class _Wait(Exception):
    """The message an edit changes is not posted yet."""


def nonce_for(delivery_id: int) -> str:
    """The message nonce of a delivery record: the same record always posts with the same nonce."""
    return f"jy-{delivery_id}"


def retry_delay(attempts: int) -> float:
    """Seconds before posting a record again after ``attempts`` failed tries (at most five minutes)."""
    return float(min(300, 5 * 2 ** max(0, attempts - 1)))


class Outbox:
    """Posts the delivery records nobody posted; ``on_computers(channel)`` is told when a recovered board
    leaves computers to move."""

    def __init__(self, service: Service, poster: Poster, *, clock: Callable[[], float] = time.time,
                 poll: float = POLL_SECONDS, min_channel_id: int | None = None, batch: int = 20,
                 on_computers: Callable[[int], None] | None = None) -> None:
        self.service = service
        self.poster = poster
        self.clock = clock
        self.poll = poll
        self.min_channel_id = min_channel_id
        self.batch = batch
        self.on_computers = on_computers
        self._attempts: dict[int, int] = {}
        #: set once :meth:`run` has posted what was pending at start-up
        self.caught_up = asyncio.Event()

    async def deliver(self, reply: Reply) -> bool:
        """Post ``reply`` (it has a delivery record) to its channel and record the message. On failure the
        record is handed back to be tried again later; True when it was posted now."""
        if reply.delivery is None or reply.channel_id is None:
            raise ValueError("only a reply with a delivery record and a channel can be delivered")
        try:
            message_id = await self._send(reply.channel_id, reply, reply.delivery)
        except _Wait:
            log.info("delivery %s waits for the message it edits", reply.delivery)
            await self.service.undelivered(reply.delivery, retry_at=self.clock() + retry_delay(1))
            return False
        except Undeliverable as exc:
            log.warning("delivery %s to channel %s given up: %s", reply.delivery, reply.channel_id, exc)
            self._attempts.pop(reply.delivery, None)
            await self.service.delivered(reply.delivery, None)
            return False
        except Exception as exc:
            tries = self._attempts.get(reply.delivery, 0) + 1
            self._attempts[reply.delivery] = tries
            log.warning("delivery %s to channel %s failed (%s); trying again later", reply.delivery,
                        reply.channel_id, type(exc).__name__)
            await self.service.undelivered(reply.delivery, retry_at=self.clock() + retry_delay(tries))
            return False
        self._attempts.pop(reply.delivery, None)
        await self.service.delivered(reply.delivery, message_id)
        return True

    async def _send(self, channel_id: int, reply: Reply, delivery: int) -> int | None:
        """Post ``reply``, or edit the turn's message it goes on with (a new post when that is gone)."""
        if reply.edit_of is not None:
            target = reply.message_id or await self._message_of(reply.edit_of)
            if target is not None:
                try:
                    return await self.poster.edit(channel_id, target, reply)
                except Undeliverable as exc:
                    log.info("the message of delivery %s is gone (%s); posting it anew", delivery, exc)
        return await self.poster.post(channel_id, reply, nonce_for(delivery))

    async def _message_of(self, delivery_id: int) -> int | None:
        """The message a record showed; raises :class:`_Wait` while it is not posted."""
        target = await self.service.store.delivery(delivery_id)
        if target is None:
            return None
        if not target.delivered:
            raise _Wait
        return target.message_id

    async def fire(self, d: Delivery) -> bool:
        """Carry out one claimed record."""
        if d.kind == EDIT and await self._superseded(d):
            return False
        if d.kind not in (POST, EDIT):
            log.warning("delivery %s has kind %r, which this version does not know; left for later", d.id, d.kind)
            await self.service.undelivered(d.id, retry_at=self.clock() + 3600)
            return False
        try:
            reply = await self.service.delivery_reply(d)
        except Exception:
            log.exception("delivery %s could not be composed", d.id)
            await self.service.undelivered(d.id, retry_at=self.clock() + retry_delay(d.attempts))
            return False
        posted = await self.deliver(reply)
        if posted and reply.computers_pending and self.on_computers is not None:
            self.on_computers(d.channel_id)
        return posted

    async def _superseded(self, d: Delivery) -> bool:
        """An edit record that a newer state of the same turn's message follows: done without a request
        (the newer one shows more), recorded with the message it would have changed."""
        if d.game_id is None:
            return False
        records = await self.service.store.deliveries(game_id=d.game_id)
        if not turn_messages.same_turn_later(records, d):
            return False
        try:
            message = d.payload.get(turn_messages.MESSAGE) or await self._message_of(d.payload[turn_messages.EDIT_OF])
        except _Wait:  # its message is not posted yet: settle this one after it, with that message
            await self.service.undelivered(d.id, retry_at=self.clock() + retry_delay(1))
            return True
        await self.service.delivered(d.id, message)
        return True

    async def flush(self, *, takeover: bool = False) -> int:
        """Post every record that is due and free (``takeover``: also those a previous run of this program
        held when it stopped), oldest first; returns how many were posted."""
        posted = 0
        while True:
            batch = await self.service.store.claim_deliveries(
                self.service.owner, now=self.clock(), lease=self.service.delivery_lease, limit=self.batch,
                takeover=takeover, min_channel_id=self.min_channel_id)
            if not batch:
                return posted
            for d in batch:
                posted += await self.fire(d)

    async def run(self) -> None:
        """Post what is pending now, then keep looking every ``poll`` seconds until cancelled."""
        takeover = True
        while True:
            try:
                await self.flush(takeover=takeover)
                takeover = False
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the outbox worker failed; it looks again in %s s", self.poll)
            self.caught_up.set()
            await asyncio.sleep(self.poll)
