"""What this process knows of the delivery records it wrote, channel by channel, so the records of a move it just
stored reach the channel without a look at the store: the game's newest turn record, a later state of the same
message, the message an edit changes, whether anything of the channel waits before them.

A channel's knowledge is *whole* while every undelivered record of the channel is one this process wrote and
knows, and the newest turn record of its game is too. Each move checks that against what it read (:meth:`check`,
under the channel's lock); a channel another process wrote to, or one this process has not seen since it
started, is not whole until a move has read it, and its records are delivered the careful way, reading the
store (:func:`bot.telling.delivery.deliver`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.store import TURN_KINDS, Delivery, MoveRead

#: delivered records kept per channel beyond the undelivered ones (the newest turn records and what they change)
KEEP = 8


class Written:
    """The records of each channel this process wrote (the newest, and every undelivered one) and whether that
    knowledge is whole."""

    def __init__(self, keep: int = KEEP) -> None:
        self.keep = keep
        #: the channels whose records wait for them (a permission missing, a thread archived), as last read and
        #: since changed here; None until first read (:meth:`bot.telling.delivery.Outbox.wake`)
        self.held: set[int] | None = None
        self._records: dict[int, list[Delivery]] = {}
        self._whole: set[int] = set()

    def check(self, channel_id: int, read: MoveRead) -> None:
        """A move read its channel (``read``): the store's newest turn record replaces what was known of it, a
        record known as undelivered that the store no longer has waiting went out elsewhere and is forgotten,
        and the knowledge is whole when every record the store has waiting is known."""
        pending = set(read.pending)
        known = {d.id: d for d in self._records.get(channel_id, []) if d.delivered or d.id in pending}
        if read.latest is not None:
            known[read.latest.id] = read.latest
        self._records[channel_id] = self._trimmed(sorted(known.values(), key=lambda d: d.id))
        if pending <= {d.id for d in self._records[channel_id]}:
            self._whole.add(channel_id)
        else:
            self._whole.discard(channel_id)

    def wrote(self, records: Sequence[Delivery]) -> None:
        """Records this process just stored (a record written again replaces what was known of it)."""
        for d in records:
            kept = [r for r in self._records.get(d.channel_id, []) if r.id != d.id]
            kept.append(d)
            self._records[d.channel_id] = self._trimmed(sorted(kept, key=lambda r: r.id))

    def delivered(self, d: Delivery, message_id: int | None, at: float) -> None:
        """Record ``d`` is out (``message_id``: its message; None: given up)."""
        records = self._records.get(d.channel_id)
        if records is None:
            return
        done = replace(d, message_id=message_id, delivered_at=at)
        self._records[d.channel_id] = self._trimmed([done if r.id == d.id else r for r in records])

    def forget(self, channel_id: int) -> None:
        """Nothing more is known of the channel (its records changed in a way not told here)."""
        self._records.pop(channel_id, None)
        self._whole.discard(channel_id)

    def known(self, channel_id: int) -> list[Delivery] | None:
        """The channel's records as known, oldest first, while that knowledge is whole; else None."""
        if channel_id not in self._whole:
            return None
        return list(self._records.get(channel_id, []))

    def _trimmed(self, records: list[Delivery]) -> list[Delivery]:
        """Every undelivered record, the newest turn record of each game, and the newest :attr:`keep` others."""
        newest_turn = {d.game_id: d.id for d in records if d.kind in TURN_KINDS}
        keep = {d.id for d in records[-self.keep:]} | set(newest_turn.values())
        return [d for d in records if not d.delivered or d.id in keep]


__all__ = ["KEEP", "Written"]
