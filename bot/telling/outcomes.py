"""What the service answers a front end: a refusal, an acceptance, or a private message.

- :class:`Refusal`: nothing happened; the text tells the asker (only them) why, and what is possible.
- :class:`Accepted`: something was stored; the public messages it owes are delivery records in the store
  (their ids, in the order they are delivered), and ``private`` holds hidden things for one person each.
  A front delivers the records (:func:`bot.telling.delivery.deliver`) and the private notes; it never needs to know
  what the messages say.
- a :class:`~bot.telling.compose.Message` answered to the asker alone (their status, the log, a picture for them).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot import texts
from bot.store import Delivery


@dataclass(frozen=True, slots=True)
class Private:
    """Hidden information for one seat only (a tile drawn, a card in hand), in ``lang``."""

    seat: int
    user_id: int
    text: str
    lang: str = texts.DEFAULT


@dataclass(frozen=True, slots=True)
class Refusal:
    """Nothing happened: what is wrong, for the asker alone."""

    text: str


@dataclass(frozen=True, slots=True)
class Accepted:
    """It happened: ``deliveries`` are the ids of the records of the public messages it owes (oldest first),
    ``private`` the notes for single players; ``records``, when given, are those records as stored (a front
    delivers them as they are, without reading them back)."""

    game_id: int
    deliveries: tuple[int, ...] = ()
    private: tuple[Private, ...] = ()
    records: tuple[Delivery, ...] = ()


def refuse(text: str) -> Refusal:
    """A private refusal: what is wrong and what is possible."""
    return Refusal(text)


__all__ = ["Accepted", "Private", "Refusal", "refuse"]
