"""When and how a player hears that it is their turn: modes, quiet hours, jump links and the texts.

A turn notice goes out when the turn passes to a person: a mention on the board in the channel (the
default), a direct message with a link to the board, or nothing. Reminders follow the same mode. During a
player's quiet hours nothing pings them: what falls due then waits for the end of the quiet hours.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot import texts
from bot.clock.settings import CHANNEL, Prefs, Quiet
from rules.literal import Person

_TIME = re.compile(r"^\s*([01]?\d|2[0-3])(?::([0-5]\d))?\s*$")


class BadQuietHours(ValueError):
    """Quiet hours that can't be read; the message (in English; :meth:`say` in another language) says what
    is expected."""

    def __init__(self, msg: str, **params: Any) -> None:
        super().__init__(texts.say(msg, **params))
        self.msg, self.params = msg, params

    def say(self, lang: str) -> str:
        return texts.say(self.msg, lang, **self.params)


def parse_time(text: str) -> int:
    """Minutes after midnight from ``HH:MM`` (or ``HH``)."""
    m = _TIME.match(text or "")
    if m is None:
        raise BadQuietHours("quiet.bad_time", text=text)
    return int(m.group(1)) * 60 + int(m.group(2) or 0)


def zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name.strip())
    except (ZoneInfoNotFoundError, ValueError):
        raise BadQuietHours("quiet.bad_zone", name=name) from None


def quiet_hours(start: str, end: str, tz: str) -> Quiet:
    """Checked quiet hours; raises :class:`BadQuietHours`."""
    q = Quiet(parse_time(start), parse_time(end), tz.strip())
    zone(q.tz)
    if q.start == q.end:
        raise BadQuietHours("quiet.same")
    return q


def quiet_end(quiet: Quiet | None, now: float) -> float | None:
    """When the quiet hours that hold at ``now`` end (a timestamp), or None if ``now`` is not quiet."""
    if quiet is None:
        return None
    tz = zone(quiet.tz)
    local = dt.datetime.fromtimestamp(now, tz)
    minute = local.hour * 60 + local.minute
    if quiet.start < quiet.end:
        inside = quiet.start <= minute < quiet.end
    else:  # over midnight
        inside = minute >= quiet.start or minute < quiet.end
    if not inside:
        return None
    end = local.replace(hour=quiet.end // 60, minute=quiet.end % 60, second=0, microsecond=0)
    if end <= local:
        end = (local + dt.timedelta(days=1)).replace(hour=quiet.end // 60, minute=quiet.end % 60, second=0,
                                                     microsecond=0)
    # a wall-clock time is turned into an instant in the zone itself (daylight saving changes included)
    return dt.datetime(end.year, end.month, end.day, end.hour, end.minute, tzinfo=tz).timestamp()


def pings_in_channel(prefs: Prefs, now: float) -> bool:
    """Whether the board may mention the player with a ping now."""
    return prefs.mode == CHANNEL and quiet_end(prefs.quiet, now) is None


def jump_link(guild_id: int | None, channel_id: int, message_id: int) -> str:
    """A link that opens the message in Discord."""
    return f"https://discord.com/channels/{guild_id if guild_id is not None else '@me'}/{channel_id}/{message_id}"


def hours(seconds: float, lang: str = texts.DEFAULT) -> str:
    """A waiting time in words: minutes, hours or days."""
    if seconds < 3600:
        return texts.say("notice.wait_min", lang, count=max(1, round(seconds / 60)))
    if seconds < 48 * 3600:
        return texts.say("notice.wait_h", lang, count=round(seconds / 3600))
    return texts.say("notice.wait_days", lang, count=round(seconds / 86400))


def with_link(text: str, link: str | None, lang: str = texts.DEFAULT) -> str:
    """A notice with the link to its board, when there is one."""
    return texts.say("notice.board", lang, text=text, link=link) if link else text


def notice_text(title: str, channel_id: int, link: str | None, lang: str = texts.DEFAULT) -> str:
    return with_link(texts.say("notice.turn", lang, title=title, channel=channel_id), link, lang)


def reminder_text(user: Person, title: str, waited: float, number: int, link: str | None, *, dm: bool,
                  lang: str = texts.DEFAULT) -> str:
    """Reminder ``number`` (1–3) of a turn that has waited ``waited`` seconds, in ``lang``."""
    last = "_last" if number >= 3 else ""
    if dm:
        text = texts.say(f"notice.reminder_dm{last}", lang, title=title, waited=hours(waited, lang))
    else:
        said = texts.say(f"notice.reminder{last}", lang, title=title, waited=hours(waited, lang))
        text = texts.say("notice.to_user", lang, user=user, text=said)
    return with_link(text, link, lang)
