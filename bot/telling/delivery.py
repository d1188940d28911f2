"""One delivery routine, and the outbox worker: every public message a stored record owes reaches its channel
exactly once.

The service writes a delivery record in the same transaction as the move, the lobby change or the end it
tells (see :mod:`bot.messages`). :func:`deliver` carries out one record through a :class:`Transport`, and it
is the only code that decides how: a ``post`` or ``note`` is posted as a new message with a nonce made from
the record, so a post repeated after a crash between posting and recording is one message; an ``edit``
changes the message of the record it follows (it waits while that one is not posted, posts anew when that
message is gone, and is done without a request when a newer state of the same message follows it); a
``retire`` takes the buttons off the message of its record. A turn's state posted or edited while a newer turn
record of its game exists is told in words only, without picture or buttons: only the live turn's message has
buttons. The exception is a post whose newer records are later states of its own message (the computer worker
played the turn's forced roll before the post went out): it shows the newest state, and pings as it would have,
since Discord notifies nobody of a mention an edit adds.

The front that wrote a record delivers it at once through its fastest transport (an interaction can change
the message that was pressed); the :class:`Outbox` posts what nobody delivered (the answer failed, or the
process stopped in between), at start-up and whenever a record falls due, through the channel. Records are
claimed before they are carried out, so two workers never deliver the same one. A record the channel refuses
for now (:class:`ChannelRefused`: a permission missing, a thread archived) waits for it (:func:`hold`) and
is delivered when the channel is woken (:meth:`Outbox.wake`) or at a slow retry.


A channel's messages reach it in the order their records were stored, whoever delivers them: before a record
is carried out, the undelivered records its channel got earlier are delivered first (claimed here when they
are free and due), or waited for while another worker holds them (at most :data:`ORDER_WAIT` seconds); a
record behind one that is not due yet (a failed post waiting for its retry) is handed back to follow it.
The outbox delivers different channels side by side (:mod:`bot.telling.lanes`): at most :data:`CHANNELS_AT_ONCE`
records with their own places, and records with a heavy picture and no buttons (a game's end with its
replay) in :data:`HEAVY_AT_ONCE` places of their own, so they never hold up a board of another channel.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import weakref
from collections.abc import Callable
from dataclasses import replace
from typing import Protocol

from bot.messages import EDIT, KINDS, NOTE, POST, RETIRE
from bot.store import TURN_KINDS, Delivery, Store
from bot.telling import turn_messages
from bot.telling.compose import Message
from bot.telling.lanes import Lanes
from bot.telling.written import Written

log = logging.getLogger(__name__)

#: seconds between looks at the outbox for records that fell due
POLL_SECONDS = 5.0
#: seconds before a record the channel refused (a permission missing, the thread archived) is tried again;
#: sooner when the channel is woken (:meth:`Outbox.wake`)
HELD_RETRY = 600.0
#: the settings scope (owner: the channel) that flags a channel whose records wait for it
HELD = "held"
#: seconds a record waits for an earlier record of its channel that another worker holds, before it is handed
#: back to follow it later
ORDER_WAIT = 30.0
#: seconds between looks at the store while waiting for an earlier record (this process's deliveries wake
#: the wait at once)
ORDER_LOOK = 0.5
#: records the outbox carries out at once in different channels (boards, notes without a replay)
CHANNELS_AT_ONCE = 4
#: records with a heavy picture and no buttons (a game's end with its replay) carried out at once, in places
#: of their own
HEAVY_AT_ONCE = 2


class Undeliverable(Exception):
    """The channel cannot take the message (deleted, or closed to the bot for good), or the message to change
    is gone: give up on it."""


class ChannelRefused(Exception):
    """The channel refuses the bot for now: ``reason`` is ``view`` (View Channel missing), ``send`` (Send
    Messages or Attach Files missing) or ``archived`` (the thread is archived and the bot may not reopen it).
    The record waits for the channel (:func:`hold`), nothing is given up."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(detail or reason)
        self.reason = reason


class Transport(Protocol):
    """How messages reach a channel (a front implements it)."""

    async def post(self, channel_id: int, message: Message, nonce: str) -> int | None:
        """Post ``message`` with ``nonce`` (the same nonce posts once); its id. Raises :class:`Undeliverable`
        when the channel can't take it."""
        ...

    async def edit(self, channel_id: int, message_id: int, message: Message | None) -> int | None:
        """Show ``message`` in message ``message_id`` (without a picture: keep the one it has; without
        buttons: remove them); ``None``: only take its buttons away. Raises :class:`Undeliverable` when that
        message is gone."""
        ...


class Sender(Protocol):
    """What the routine delivers through (the service is one): the store, this worker's name and lease on a
    record, a record's message, and the record marked posted or free again."""

    @property
    def store(self) -> Store: ...

    @property
    def owner(self) -> str: ...

    @property
    def delivery_lease(self) -> float: ...

    async def message(self, d: Delivery, lang: str | None = None, *, words_only: bool = False) -> Message: ...

    async def delivered(self, d: Delivery, message_id: int | None) -> bool: ...

    async def undelivered(self, delivery_id: int, *, retry_at: float) -> None: ...

    @property
    def written(self) -> Written: ...


class _Wait(Exception):
    """The message a record changes is not posted yet."""


def nonce_for(delivery_id: int) -> str:
    """The message nonce of a delivery record: the same record always posts with the same nonce."""
    return f"jy-{delivery_id}"


def retry_delay(attempts: int) -> float:
    """Seconds before posting a record again after ``attempts`` failed tries (at most five minutes)."""
    return float(min(300, 5 * 2 ** max(0, attempts - 1)))


def heavy(d: Delivery) -> bool:
    """Whether a record's message has a heavy picture (an animated replay) and no buttons."""
    return d.kind == NOTE and (d.payload.get("picture") == "replay" or bool(d.payload.get("finale")))


class _Progress:
    """Wakes the records of a channel that wait for its earlier ones, when one of this process is done."""

    def __init__(self) -> None:
        self._events: dict[int, asyncio.Event] = {}

    def event(self, channel_id: int) -> asyncio.Event:
        """The event the next change in ``channel_id`` sets (take it before looking at the store)."""
        return self._events.setdefault(channel_id, asyncio.Event())

    def changed(self, channel_id: int) -> None:
        event = self._events.pop(channel_id, None)
        if event is not None:
            event.set()


_progress: weakref.WeakKeyDictionary[Sender, _Progress] = weakref.WeakKeyDictionary()


def _progress_of(sender: Sender) -> _Progress:
    progress = _progress.get(sender)
    if progress is None:
        progress = _progress[sender] = _Progress()
    return progress


async def deliver(sender: Sender, d: Delivery, transport: Transport, *, clock: Callable[[], float] = time.time,
                  attempts: int = 0) -> bool:
    """Carry out record ``d`` through ``transport`` and record the message, after the earlier records of its
    channel; True when a message was posted or changed now. What fails is handed back to be tried again later
    (``attempts`` tries so far)."""
    if d.kind not in KINDS:
        log.warning("delivery %s has kind %r, which this version does not know; left for later", d.id, d.kind)
        await sender.undelivered(d.id, retry_at=clock() + 3600)
        return False
    try:
        after = await _after_earlier(sender, d, transport, clock)
        if after is not None:
            log.info("delivery %s follows an earlier record of channel %s", d.id, d.channel_id)
            await sender.undelivered(d.id, retry_at=after)
            return False
        return await _deliver_now(sender, d, transport, clock, attempts)
    finally:
        _progress_of(sender).changed(d.channel_id)


async def _after_earlier(sender: Sender, d: Delivery, transport: Transport, clock: Callable[[], float]
                         ) -> float | None:
    """Deliver first (when free and due), or wait for (while another worker holds them, at most
    :data:`ORDER_WAIT` seconds), the undelivered records ``d``'s channel got before it. None once none is
    left; else when ``d`` may be tried again, behind the one that holds it up."""
    known = _known(sender, d)
    if known is not None and not any(e.id < d.id and not e.delivered and e.kind in KINDS for e in known):
        return None  # this process wrote the channel's waiting records, and none is before ``d``
    progress = _progress_of(sender)
    give_up = time.monotonic() + ORDER_WAIT
    while True:
        changed = progress.event(d.channel_id)
        pending = await sender.store.outbox.deliveries(channel_id=d.channel_id, pending=True)
        earlier = [e for e in pending if e.id < d.id and e.kind in KINDS]
        if not earlier:
            return None
        first, now = earlier[0], clock()
        held = first.claimed_until is not None and first.claimed_until >= now
        if first.due_at > now and not held:
            return first.due_at  # a retry not due yet: this one follows it
        if not held:
            mine = await sender.store.outbox.claim_delivery(first.id, sender.owner, now=now,
                                                             lease=sender.delivery_lease)
            if mine is not None:
                await deliver(sender, mine, transport, clock=clock, attempts=mine.attempts)
            continue
        if time.monotonic() >= give_up:
            return max(now + retry_delay(1), first.claimed_until or now)
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(ORDER_LOOK):
                await changed.wait()


async def _deliver_now(sender: Sender, d: Delivery, transport: Transport, clock: Callable[[], float],
                       attempts: int) -> bool:
    """Carry out ``d`` (nothing earlier in its channel waits)."""
    try:
        if d.kind in (EDIT, RETIRE) and await _superseded(sender, d):
            return False
        message_id = await _carry_out(sender, d, transport)
    except _Wait:
        log.info("delivery %s waits for the message it changes", d.id)
        await sender.undelivered(d.id, retry_at=clock() + retry_delay(1))
        return False
    except ChannelRefused as exc:
        await hold(sender, d, exc.reason, clock=clock)
        return False
    except Undeliverable as exc:
        log.warning("delivery %s to channel %s given up: %s", d.id, d.channel_id, exc)
        await sender.delivered(d, None)
        return False
    except Exception as exc:
        log.warning("delivery %s to channel %s failed (%s: %s); trying again later", d.id, d.channel_id,
                    type(exc).__name__, exc)
        await sender.undelivered(d.id, retry_at=clock() + retry_delay(attempts + 1))
        return False
    await sender.delivered(d, message_id)
    return True


async def hold(sender: Sender, d: Delivery, reason: str, *, clock: Callable[[], float] = time.time) -> None:
    """Record ``d`` waits for its channel (``reason``: what is missing): neither delivered nor given up, tried
    again after :data:`HELD_RETRY` or as soon as the channel is woken; the channel is flagged (settings
    scope :data:`HELD`) with the game, so :meth:`Outbox.wake` knows what waits there, after a restart too."""
    log.info("delivery %s waits for channel %s (%s)", d.id, d.channel_id, reason)
    await sender.undelivered(d.id, retry_at=clock() + HELD_RETRY)
    settings = sender.store.settings
    flag = await settings.get_settings(HELD, d.channel_id)
    games = sorted({*flag.get("games", []), *([d.game_id] if d.game_id is not None else [])})
    await settings.put_settings(HELD, d.channel_id, 0, {"reason": reason, "since": flag.get("since", clock()),
                                                       "games": games})
    if sender.written.held is not None:
        sender.written.held.add(d.channel_id)


async def _carry_out(sender: Sender, d: Delivery, transport: Transport) -> int | None:
    """The one decision: post, edit (a new post when its message is gone) or retire."""
    if d.kind == RETIRE:
        target = await _target(sender, d)
        if target is not None:
            try:
                await transport.edit(d.channel_id, target, None)
            except Undeliverable as exc:
                log.info("the message retired by delivery %s is gone (%s)", d.id, exc)
        return target
    latest = await _latest(sender, d) if d.kind in TURN_KINDS else None
    # a turn's state that a newer message follows is told in words only (the newer one shows the board and the
    # live buttons); a turn's message that goes out after later states of its own were stored (the computer
    # worker played on meanwhile) shows the newest, with the ping it owes
    newest = turn_messages.newest_state(latest, d)
    if newest is None:
        message = await sender.message(d, words_only=True)
    elif newest.id == d.id:
        message = await sender.message(d)
    else:
        message = replace(await sender.message(newest), mention=turn_messages.pinged(d, newest))
    if d.kind == EDIT:
        target = await _target(sender, d)
        if target is not None:
            try:
                return await transport.edit(d.channel_id, target, message)
            except Undeliverable as exc:
                log.info("the message of delivery %s is gone (%s); posting it anew", d.id, exc)
    assert d.kind in (POST, EDIT, NOTE)
    return await transport.post(d.channel_id, message, nonce_for(d.id))


async def _target(sender: Sender, d: Delivery) -> int | None:
    """The message an edit or a retirement changes: named in its record, or that of the record it follows
    (raises :class:`_Wait` while that one is not posted; None when it never was)."""
    known = d.payload.get("message")
    if isinstance(known, int):
        return known
    edit_of = d.payload.get("edit_of")
    if edit_of is None:
        return None
    known = _known(sender, d)
    target = next((r for r in known if r.id == int(edit_of)), None) if known is not None else None
    if target is None:
        target = await sender.store.outbox.delivery(int(edit_of))
    if target is None:
        return None
    if not target.delivered:
        raise _Wait
    return target.message_id


async def _superseded(sender: Sender, d: Delivery) -> bool:
    """An edit record that a newer state of the same turn's message follows: done without a request (the newer
    one shows more), recorded with the message it would have changed. A retirement of a message that a newer
    edit record still changes is done when that one is: it shows no buttons once a newer record exists."""
    if d.game_id is None:
        return False
    known = _known(sender, d)
    records = known if known is not None else await sender.store.outbox.deliveries(game_id=d.game_id)
    if not turn_messages.same_turn_later([r for r in records if r.game_id == d.game_id], d):
        return False
    await sender.delivered(d, await _target(sender, d))
    return True


def _known(sender: Sender, d: Delivery) -> list[Delivery] | None:
    """The records of ``d``'s channel as this process wrote them, when that knowledge is whole and holds ``d``
    (:class:`bot.telling.written.Written`): then nothing needs a look at the store to deliver ``d``."""
    known = sender.written.known(d.channel_id)
    return known if known is not None and any(r.id == d.id for r in known) else None


async def _latest(sender: Sender, d: Delivery) -> Delivery | None:
    """The newest turn record of ``d``'s game: as this process knows it, else as the store has it."""
    if d.game_id is None:
        return None
    known = _known(sender, d)
    if known is None:
        return await sender.store.outbox.latest_delivery(d.game_id)
    return max((r for r in known if r.game_id == d.game_id and r.kind in TURN_KINDS), key=lambda r: r.id,
               default=None)


class Outbox:
    """Delivers, through the channel, the records nobody delivered: at start-up, then whenever one falls due
    or it is woken; different channels side by side, each channel's records in order."""

    def __init__(self, sender: Sender, transport: Transport, *, clock: Callable[[], float] = time.time,
                 poll: float = POLL_SECONDS, min_channel_id: int | None = None, batch: int = 20,
                 channels: int = CHANNELS_AT_ONCE, heavy: int = HEAVY_AT_ONCE) -> None:
        self.sender = sender
        self.transport = transport
        self.clock = clock
        self.poll = poll
        self.min_channel_id = min_channel_id
        self.batch = batch
        self.places = {"light": channels, "heavy": heavy}
        #: set once :meth:`run` has delivered what was pending at start-up
        self.caught_up = asyncio.Event()
        self._waking: dict[int, asyncio.Lock] = {}
        self._woken = asyncio.Event()

    async def wake(self, channel_id: int) -> int:
        """The channel may take messages again (someone acted there, or its permissions changed): deliver now
        what waits for it (:func:`hold`), in order; returns how many posted or changed a message. Records the
        channel refuses again wait again. Nothing is read when no record of the channel is known to wait (the
        channels that wait are read once, then kept up to date by :func:`hold` and at each look at the
        outbox)."""
        held = self.sender.written.held
        if held is None:
            held = self.sender.written.held = set(await self.held_channels())
        if channel_id not in held:
            return 0
        lock = self._waking.setdefault(channel_id, asyncio.Lock())
        async with lock:
            held.discard(channel_id)
            settings = self.sender.store.settings
            flag = await settings.get_settings(HELD, channel_id)
            if not flag:
                return 0
            await settings.put_settings(HELD, channel_id, 0, {})
            now = self.clock()
            ids: list[int] = []
            for game_id in flag.get("games", []):
                for d in await self.sender.store.outbox.deliveries(game_id=int(game_id), pending=True):
                    if d.channel_id == channel_id and (d.claimed_until is None or d.claimed_until < now):
                        ids.append(d.id)
            log.info("channel %s woken: %d records that waited for it", channel_id, len(ids))
            return await self.deliver(tuple(ids))

    async def held_channels(self) -> list[int]:
        """The channels whose records wait for them."""
        return [owner for owner, _, flag in await self.sender.store.settings.all_settings(HELD) if flag]

    async def wake_all(self, channels: Callable[[int], bool] = lambda channel: True) -> int:
        """:meth:`wake` every waiting channel that ``channels`` picks (a permission changed somewhere)."""
        done = 0
        for channel_id in await self.held_channels():
            if channels(channel_id):
                done += await self.wake(channel_id)
        return done

    def look_now(self) -> None:
        """Look at the outbox now (records nobody holds were stored: a game's end message)."""
        self._woken.set()

    async def deliver(self, ids: tuple[int, ...]) -> int:
        """Deliver the records ``ids`` (a move's, just written by this process) through the channel, in order;
        returns how many posted or changed a message."""
        done = 0
        for delivery_id in ids:
            d = await self.sender.store.outbox.delivery(delivery_id)
            if d is not None and not d.delivered:
                done += await deliver(self.sender, d, self.transport, clock=self.clock)
        return done

    async def flush(self, *, takeover: bool = False) -> int:
        """Deliver every record that is due and free (``takeover``: also those a previous run of this program
        held when it stopped): each channel's in order, channels side by side (at most :attr:`batch` records
        claimed and waiting at once); returns how many posted or changed a message."""
        lanes: Lanes[Delivery] = Lanes(self._one, lambda d: "heavy" if heavy(d) else "light", self.places)
        try:
            while True:
                room = self.batch - lanes.queued
                batch = await self.sender.store.outbox.claim_deliveries(
                    self.sender.owner, now=self.clock(), lease=self.sender.delivery_lease, limit=room,
                    takeover=takeover, min_channel_id=self.min_channel_id) if room > 0 else []
                for d in sorted(batch, key=lambda d: d.id):
                    lanes.add(d.channel_id, d)
                if lanes.idle:
                    return await lanes.join()
                if not batch or lanes.queued >= self.batch:
                    await lanes.progress()
                    lanes.check()
        finally:
            await lanes.cancel()

    async def _one(self, d: Delivery) -> int:
        return int(await deliver(self.sender, d, self.transport, clock=self.clock, attempts=d.attempts))

    async def run(self) -> None:
        """Deliver what is pending now, then keep looking every ``poll`` seconds (at once when woken) until
        cancelled."""
        takeover = True
        while True:
            self._woken.clear()
            try:
                self.sender.written.held = set(await self.held_channels())  # another process may hold some
                await self.flush(takeover=takeover)
                takeover = False
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the outbox worker failed; it looks again in %s s", self.poll)
            self.caught_up.set()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.poll):
                    await self._woken.wait()


__all__ = ["CHANNELS_AT_ONCE", "HEAVY_AT_ONCE", "HELD", "HELD_RETRY", "ORDER_WAIT", "POLL_SECONDS", "ChannelRefused",
           "Outbox", "Transport", "Undeliverable", "deliver", "heavy", "hold", "nonce_for", "retry_delay"]
