"""The timing commands of ``/game`` (notify, quiet, away, back, settings) and the messenger through which
the ticker (:mod:`bot.timers`) reaches channels and players."""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

import discord
from discord import app_commands

from bot import notices
from bot.discord import options as opt
from bot.discord.replies import _direct_message, clip, schedule_computers, send_reply
from bot.service import Reply, refuse
from bot.settings import (
    GAME_DEFAULTS,
    MAX_HOURS,
    MODES,
    TIMEOUTS,
    BadSetting,
    check_game_settings,
    describe_game_settings,
)
from bot.timers import Ticker

log = logging.getLogger(__name__)

Choice = app_commands.Choice
#: ``/game away`` without a number of days: until ``/game back``
AWAY_FOR_GOOD = 3650
MAX_AWAY_DAYS = 365


class DiscordMessenger:
    """Channel messages, direct messages and autopilot boards for the ticker, each sent with its nonce."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    async def to_channel(self, channel_id: int, text: str, mention: int | None, nonce: str) -> int | None:
        allowed = discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(mention)]) \
            if mention is not None else discord.AllowedMentions.none()
        channel = self.client.get_partial_messageable(channel_id)
        try:
            message = await channel.send(clip(text), nonce=nonce, allowed_mentions=allowed)
        except (discord.Forbidden, discord.NotFound) as exc:
            log.info("channel %s refused a notice (HTTP %s); given up", channel_id, exc.status)
            return None
        return message.id

    async def to_user(self, user_id: int, text: str, nonce: str) -> int | None:
        try:
            user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
            message = await user.send(clip(text), nonce=nonce)
        except (discord.Forbidden, discord.NotFound):
            log.info("could not send a notice to user %s (direct messages closed?)", user_id)
            return None
        return message.id

    async def deliver(self, reply: Reply) -> None:
        outbox = self.client.outbox  # type: ignore[attr-defined]
        if reply.delivery is not None:
            await outbox.deliver(reply)
        for note in reply.private:
            await _direct_message(self.client, note)
        if reply.computers_pending and reply.channel_id is not None:
            schedule_computers(self.client, reply.channel_id)


def ticker_of(interaction: discord.Interaction) -> Ticker:
    return interaction.client.timers  # type: ignore[attr-defined]


async def _private(interaction: discord.Interaction, text: str) -> None:
    await send_reply(interaction, Reply(text, ephemeral=True))


async def _retime(ticker: Ticker, channel_id: int | None) -> None:
    """The channel's running game follows changed settings at once."""
    if channel_id is None:
        return
    rec = await ticker.store.channel_game(channel_id)
    mark = await ticker.store.turn_mark(rec.id) if rec is not None else None
    if rec is not None and mark is not None and mark.version == rec.version:
        await ticker.mark(rec, again=True)


@app_commands.command(name="notify", description="How you hear it is your turn: a mention, a direct message, or not")
@app_commands.describe(mode="channel: a mention on the board; dm: a direct message with a link; off: nothing",
                       this_game="Only for this channel's game (default: all your games)")
@app_commands.choices(mode=[Choice(name=m, value=m) for m in MODES])
async def notify(interaction: discord.Interaction, mode: str, this_game: bool | None = None) -> None:
    try:
        chosen = opt.text("mode", mode, required=True)
        only_here = opt.flag("this_game", this_game)
    except opt.BadOption as exc:
        await send_reply(interaction, refuse(f"{exc} Nothing was changed."))
        return
    if chosen not in MODES:
        await send_reply(interaction, refuse(f"`mode` is {', '.join(MODES)}. Nothing was changed."))
        return
    ticker = ticker_of(interaction)
    target, where = 0, "in all your games"
    if only_here:
        rec = await ticker.store.channel_game(interaction.channel_id or 0)
        if rec is None:
            await send_reply(interaction, refuse("There is no game in this channel; leave out `this_game`."))
            return
        target, where = rec.id, "in this channel's game"
    await ticker.settings.set_user(interaction.user.id, target, mode=chosen)
    await ticker.refresh(interaction.user.id)
    said = {"channel": "a mention on the board", "dm": "a direct message with a link to the board",
            "off": "no notices or reminders"}[chosen]
    await _private(interaction, f"Turn notices {where}: {said}.")


@app_commands.command(name="quiet", description="Your quiet hours: no pings then; they follow when they end")
@app_commands.describe(start="From (HH:MM)", end="Until (HH:MM)", timezone="Your time zone, e.g. Europe/Berlin",
                       clear="Remove your quiet hours")
async def quiet(interaction: discord.Interaction, start: str | None = None, end: str | None = None,
                timezone: str | None = None, clear: bool | None = None) -> None:
    ticker = ticker_of(interaction)
    user = interaction.user.id
    try:
        values = [opt.text(n, v, limit=40) for n, v in (("start", start), ("end", end), ("timezone", timezone))]
        off = opt.flag("clear", clear)
    except opt.BadOption as exc:
        await send_reply(interaction, refuse(f"{exc} Nothing was changed."))
        return
    if off:
        await ticker.settings.set_user(user, 0, quiet=None)
        await ticker.refresh(user)
        await _private(interaction, "Your quiet hours are removed.")
        return
    if not any(values):
        q = ticker.settings.prefs(user).quiet
        await _private(interaction, "You have no quiet hours. Set them with `/game quiet start:22:00 end:07:00 "
                                    "timezone:Europe/Berlin`." if q is None else
                       f"Your quiet hours: {q.start // 60:02}:{q.start % 60:02}–{q.end // 60:02}:{q.end % 60:02} "
                       f"({q.tz}).")
        return
    if not all(values):
        await send_reply(interaction, refuse("Give `start`, `end` and `timezone` together. Nothing was changed."))
        return
    s, e, tz = (v or "" for v in values)
    try:
        q = notices.quiet_hours(s, e, tz)
    except notices.BadQuietHours as exc:
        await send_reply(interaction, refuse(f"{exc} Nothing was changed."))
        return
    await ticker.settings.set_user(user, 0, quiet={"start": q.start, "end": q.end, "tz": q.tz})
    await ticker.refresh(user)
    await _private(interaction, f"Quiet hours set: {s}–{e} ({q.tz}). Pings that fall due then wait for the end.")


@app_commands.command(name="away", description="Put your seat on autopilot (the computer plays your turns)")
@app_commands.describe(days="For how many days (default: until /game back)",
                       everywhere="In all your games (default: this channel's game only)")
async def away(interaction: discord.Interaction, days: app_commands.Range[int, 1, MAX_AWAY_DAYS] | None = None,
               everywhere: bool | None = None) -> None:
    try:
        n = opt.integer("days", days, 1, MAX_AWAY_DAYS)
        all_games = opt.flag("everywhere", everywhere)
    except opt.BadOption as exc:
        await send_reply(interaction, refuse(f"{exc} Nothing was changed."))
        return
    ticker = ticker_of(interaction)
    game_id = None
    if not all_games:
        rec = await ticker.store.channel_game(interaction.channel_id or 0)
        if rec is None or rec.seat_of(interaction.user.id) is None:
            await send_reply(interaction, refuse("You have no seat in this channel's game; use `everywhere:true` "
                                                 "for all your games."))
            return
        game_id = rec.id
    until = await ticker.away(interaction.user.id, game_id, n or AWAY_FOR_GOOD)
    when = "until `/game back`" if n is None else \
        f"until <t:{int(until)}:f> ({dt.datetime.fromtimestamp(until, dt.UTC):%Y-%m-%d %H:%M} UTC)"
    where = "in all your games" if game_id is None else "in this game"
    text = f"<@{interaction.user.id}> is away {where} {when}: the autopilot plays their turns."
    await send_reply(interaction, Reply(text))
    await ticker.tick()


@app_commands.command(name="back", description="Take your seats off autopilot")
async def back(interaction: discord.Interaction) -> None:
    ticker = ticker_of(interaction)
    if not await ticker.back(interaction.user.id):
        await send_reply(interaction, refuse("You were not away."))
        return
    await send_reply(interaction, Reply(f"<@{interaction.user.id}> is back and plays their own turns again."))


SCOPES = ("game", "server")


@app_commands.command(name="settings", description="Reminders and turn limits of this game (host) or the "
                                                   "server's defaults (Manage Channels)")
@app_commands.describe(scope="game: this channel's game (host); server: defaults for new games (Manage Channels)",
                       reminder="Hours without a move before a reminder (0: off; default 12)",
                       turn_limit="Hours a player has for a turn (0: no limit, the default)",
                       on_timeout="When the turn limit passes: the autopilot plays, or the host is asked",
                       kick_after="Missed turns before the host is asked to kick (with on_timeout ask-host)")
@app_commands.choices(scope=[Choice(name=s, value=s) for s in SCOPES],
                      on_timeout=[Choice(name=t, value=t) for t in TIMEOUTS])
async def settings(interaction: discord.Interaction, scope: str | None = None,
                   reminder: app_commands.Range[int, 0, MAX_HOURS] | None = None,
                   turn_limit: app_commands.Range[int, 0, MAX_HOURS] | None = None,
                   on_timeout: str | None = None, kick_after: app_commands.Range[int, 1, 20] | None = None) -> None:
    values: dict[str, Any] = {"reminder": reminder, "turn_limit": turn_limit, "on_timeout": on_timeout,
                              "kick_after": kick_after}
    ticker = ticker_of(interaction)
    try:
        where = opt.text("scope", scope) or "game"
        if where not in SCOPES:
            raise opt.BadOption("`scope` is game or server.")
        checked = check_game_settings(values)
    except (opt.BadOption, BadSetting) as exc:
        await send_reply(interaction, refuse(f"{exc} Nothing was changed."))
        return
    manage = bool(interaction.permissions.manage_channels)
    if where == "server":
        if interaction.guild_id is None:
            await send_reply(interaction, refuse("Server settings are set in a server."))
            return
        if not checked:
            current = {**GAME_DEFAULTS, **await ticker.settings.server(interaction.guild_id)}
            await _private(interaction, f"This server's defaults for new games: {describe_game_settings(current)}.")
            return
        if not manage:
            await send_reply(interaction, refuse("Only members who may manage channels set the server's defaults."))
            return
        await ticker.settings.set_server(interaction.guild_id, checked)
        current = {**GAME_DEFAULTS, **await ticker.settings.server(interaction.guild_id)}
        await _private(interaction, f"Server defaults: {describe_game_settings(current)}. Games without their own "
                                    f"settings follow them.")
        await ticker.refresh()
        return
    rec = await ticker.store.channel_game(interaction.channel_id or 0)
    if rec is None:
        await send_reply(interaction, refuse("There is no game in this channel; use `scope:server` for the "
                                             "server's defaults."))
        return
    if not checked:
        await _private(interaction, f"This game's settings: {describe_game_settings(await ticker.settings.game(rec))}.")
        return
    if not (manage or rec.host_id == interaction.user.id):
        await send_reply(interaction, refuse(f"Only the host (<@{rec.host_id}>) or someone who may manage this "
                                             f"channel changes the game's settings."))
        return
    await ticker.settings.set_game(rec.id, checked)
    await _retime(ticker, interaction.channel_id)
    now = describe_game_settings(await ticker.settings.game(rec))
    text = f"<@{interaction.user.id}> changed this game's settings: {now}."
    await send_reply(interaction, Reply(text))


def add_timing_commands(group: app_commands.Group) -> None:
    """Add the timing commands to the ``/game`` group."""
    commands: tuple[app_commands.Command[Any, ..., None], ...] = (notify, quiet, away, back, settings)
    for command in commands:
        group.add_command(command)
