"""Settings of games, servers and players, for the timing of long races.

A game's settings are the defaults below, overridden by its server's defaults (set by members who may
manage channels), overridden by the game's own (set by its host). A server also keeps its public language
(:data:`LANGUAGE`: the language of what its channels read; a new game takes it). A player's preferences (how
turn notices reach them, quiet hours, being away) are kept per user, for all their games or for one game;
they are few and read on every board, so they are cached in memory and written through.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot import texts
from bot.store import GameRecord, Reads, SettingKey, Store

#: hours without acting before the player to act is reminded (0: never)
DEFAULT_REMINDER = 12
#: hours a player has for a turn (0: no limit)
DEFAULT_TURN_LIMIT = 0
#: what happens when the limit passes: the computer plays the turn, or the host is asked to kick
AUTOPILOT, ASK_HOST = "autopilot", "ask-host"
TIMEOUTS = (AUTOPILOT, ASK_HOST)
#: missed turns before the host is asked to kick
DEFAULT_KICK_AFTER = 3
#: hours a player must have been gone for their turn's message to offer "What did I miss?" (0: never)
DEFAULT_RECAP_AFTER = 12
#: how turn notices reach a player
CHANNEL, DM, OFF = "channel", "dm", "off"
MODES = (CHANNEL, DM, OFF)

GAME_DEFAULTS: dict[str, Any] = {"reminder": DEFAULT_REMINDER, "turn_limit": DEFAULT_TURN_LIMIT,
                                 "on_timeout": AUTOPILOT, "kick_after": DEFAULT_KICK_AFTER,
                                 "recap_after": DEFAULT_RECAP_AFTER}
#: the longest reminder interval and turn limit, in hours (four weeks)
MAX_HOURS = 24 * 28
#: the server setting of its public language (``en``, ``de``): what its channels read
LANGUAGE = "language"


class BadSetting(ValueError):
    """A setting's value is out of range; the message (in English; :meth:`say` in another language) says
    what is allowed."""

    def __init__(self, msg: str, **params: Any) -> None:
        super().__init__(texts.say(msg, **params))
        self.msg, self.params = msg, params

    def say(self, lang: str) -> str:
        return texts.say(self.msg, lang, **self.params)


def check_game_settings(values: Mapping[str, Any], *, server: bool = False) -> dict[str, Any]:
    """Checked game settings from what was given (None values dropped), with the server's language when
    ``server``; raises :class:`BadSetting`."""
    out: dict[str, Any] = {}
    for name, value in values.items():
        if value is None:
            continue
        if name in ("reminder", "turn_limit", "recap_after"):
            if not isinstance(value, int) or not 0 <= value <= MAX_HOURS:
                raise BadSetting(f"settings.bad_{name}", max=MAX_HOURS)
        elif name == "kick_after":
            if not isinstance(value, int) or not 1 <= value <= 20:
                raise BadSetting("settings.bad_kick_after")
        elif name == "on_timeout":
            if value not in TIMEOUTS:
                raise BadSetting("settings.bad_on_timeout")
        elif name == LANGUAGE and server:
            if value not in texts.LANGS:
                raise BadSetting("settings.bad_language")
        else:
            raise BadSetting("settings.bad_name", name=name)
        out[name] = value
    return out


def describe_game_settings(s: Mapping[str, Any], lang: str = texts.DEFAULT) -> str:
    """The settings in words, in ``lang``."""
    remind = texts.say("settings.remind_after", lang, count=s["reminder"]) if s["reminder"] \
        else texts.say("settings.off", lang)
    if not s["turn_limit"]:
        limit = texts.say("settings.none", lang)
    elif s["on_timeout"] == AUTOPILOT:
        limit = texts.say("settings.limit_autopilot", lang, count=s["turn_limit"])
    else:
        limit = texts.say("settings.limit_ask_host", lang, hours=s["turn_limit"], count=s["kick_after"])
    summary = texts.say("settings.summary", lang, remind=remind, limit=limit)
    away = s.get("recap_after", DEFAULT_RECAP_AFTER)
    recap = texts.say("settings.recap_after", lang, count=away) if away else texts.say("settings.off", lang)
    return summary + "; " + texts.say("settings.recap_line", lang, recap=recap)


def describe_server_settings(s: Mapping[str, Any], lang: str = texts.DEFAULT) -> str:
    """A server's defaults in words, its public language with them."""
    language = texts.language_name(str(s.get(LANGUAGE, texts.DEFAULT)), lang)
    return describe_game_settings(s, lang) + "; " + texts.say("settings.language_line", lang, language=language)


@dataclass(frozen=True, slots=True)
class Quiet:
    """Quiet hours: from ``start`` to ``end`` (minutes after local midnight) in the time zone ``tz``."""

    start: int
    end: int
    tz: str


@dataclass(frozen=True, slots=True)
class Prefs:
    """A player's preferences as they apply to one game."""

    mode: str = CHANNEL
    quiet: Quiet | None = None
    away_until: float | None = None


def game_keys(rec: GameRecord) -> list[SettingKey]:
    """The rows a game's settings come from: its own, then its server's."""
    return [("game", rec.id, 0)] + ([("server", rec.guild_id, 0)] if rec.guild_id is not None else [])


async def game_settings(reads: Reads, rec: GameRecord) -> dict[str, Any]:
    """The game's settings in force: defaults ← server ← game (one read)."""
    chosen, *server = await reads.settings.settings_of(game_keys(rec))
    out = dict(GAME_DEFAULTS)
    for layer in (*server, chosen):
        out.update({k: v for k, v in layer.items() if k in GAME_DEFAULTS})
    return out


class Settings:
    """Game and server settings from the store; players' preferences cached (:meth:`load` at start-up)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        #: (user, target game or 0 for all) → preferences as stored
        self._users: dict[tuple[int, int], dict[str, Any]] = {}

    async def load(self) -> None:
        self._users = {(owner, target): data for owner, target, data in await self.store.settings.all_settings("user")}

    # Games and servers ---------------------------------------------------------------------------

    async def server(self, guild_id: int | None) -> dict[str, Any]:
        return await self.store.settings.get_settings("server", guild_id) if guild_id is not None else {}

    async def language(self, guild_id: int | None, fallback: str) -> str:
        """The server's public language: the one set, else ``fallback`` (its Discord's preferred locale)."""
        lang = (await self.server(guild_id)).get(LANGUAGE)
        return str(lang) if lang in texts.LANGS else fallback

    async def game(self, rec: GameRecord) -> dict[str, Any]:
        """The game's settings in force: defaults ← server ← game (one read)."""
        return await game_settings(self.store, rec)

    async def set_game(self, game_id: int, values: Mapping[str, Any]) -> None:
        data = await self.store.settings.get_settings("game", game_id)
        data.update(check_game_settings(values))
        await self.store.settings.put_settings("game", game_id, 0, data)

    async def set_server(self, guild_id: int, values: Mapping[str, Any]) -> None:
        data = await self.server(guild_id)
        data.update(check_game_settings(values, server=True))
        await self.store.settings.put_settings("server", guild_id, 0, data)

    async def missed(self, game_id: int, seat: int) -> int:
        """One more missed turn for ``seat`` in the game; returns how many it has missed."""
        return await self._count_up(game_id, "missed", seat)

    async def autopiloted(self, game_id: int, seat: int) -> int:
        """One more turn of ``seat`` the autopilot played in the game; returns how many it has played."""
        return await self._count_up(game_id, "autopilot", seat)

    async def _count_up(self, game_id: int, field: str, seat: int) -> int:
        """Add one to ``seat``'s count under ``field`` of the game's settings; returns the new count."""
        data = await self.store.settings.get_settings("game", game_id)
        counts = dict(data.get(field, {}))
        counts[str(seat)] = int(counts.get(str(seat), 0)) + 1
        data[field] = counts
        await self.store.settings.put_settings("game", game_id, 0, data)
        return int(counts[str(seat)])

    # Players -------------------------------------------------------------------------------------

    def prefs(self, user_id: int, game_id: int | None = None) -> Prefs:
        """A player's preferences in a game: the game's own over those for all games."""
        merged = dict(self._users.get((user_id, 0), {}))
        if game_id is not None:
            merged.update(self._users.get((user_id, game_id), {}))
        q = merged.get("quiet")
        quiet = Quiet(int(q["start"]), int(q["end"]), str(q["tz"])) if q else None
        away = merged.get("away")
        return Prefs(str(merged.get("mode", CHANNEL)), quiet, float(away) if away else None)

    def drop_user(self, user_id: int) -> None:
        """Forget a person's preferences kept in memory (their rows were deleted: ``junkyard forget``)."""
        self._users = {key: data for key, data in self._users.items() if key[0] != user_id}

    async def set_user(self, user_id: int, target: int, **values: Any) -> None:
        """Change a player's preferences for one game (``target``) or all (0); a None value removes one. The
        row is read from the store, not the cache: other choices live in it too (``/game auto``'s, written
        by :mod:`bot.play.plans`, or another process's), and they stay as they are."""
        data = await self.store.settings.get_settings("user", user_id, target)
        for k, v in values.items():
            if v is None:
                data.pop(k, None)
            else:
                data[k] = v
        await self.store.settings.put_settings("user", user_id, target, data)
        self._users[(user_id, target)] = data

    def away_targets(self, user_id: int) -> list[int]:
        """The targets (games, or 0 for all) where the user set an away time."""
        return [t for (u, t), d in self._users.items() if u == user_id and d.get("away")]
