"""The timing commands of ``/game`` (notify, quiet, away, back, settings,
                                                                  plan, auto) and the messenger through which
the ticker (:mod:`bot.clock.timers`) reaches channels and players."""

from __future__ import annotations

import datetime as dt
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot import texts
from bot.clock import notices
from bot.clock.settings import (
    GAME_DEFAULTS,
    LANGUAGE,
    MAX_HOURS,
    MODES,
    TIMEOUTS,
    BadSetting,
    check_game_settings,
    describe_game_settings,
    describe_server_settings,
)
from bot.clock.timers import Ticker
from bot.discord import options as opt
from bot.discord.command_group import as_choices, asker, server_language, service_of, user_language
from bot.discord.context import Interaction
from bot.discord.payloads import direct_channel, mention_only, no_mentions
from bot.discord.replies import answer_privately, answer_with
from bot.discord.shown import shown
from bot.messages import host_of
from bot.play import plans
from bot.telling.outcomes import Accepted

if TYPE_CHECKING:
    from bot.discord.context import JunkyardClient

log = logging.getLogger(__name__)

Choice = app_commands.Choice
#: ``/game away`` without a number of days: until ``/game back``
AWAY_FOR_GOOD = 3650
MAX_AWAY_DAYS = 365


class DiscordMessenger:
    """Channel messages, direct messages and autopilot boards for the ticker, each sent with its nonce."""

    def __init__(self, client: JunkyardClient) -> None:
        self.client = client

    async def to_channel(self, channel_id: int, text: str, mention: int | None, nonce: str) -> int | None:
        allowed = mention_only(mention) if mention is not None else no_mentions()
        channel = self.client.get_partial_messageable(channel_id)
        try:
            message = await channel.send(shown(text), nonce=nonce, allowed_mentions=allowed)
        except (discord.Forbidden, discord.NotFound) as exc:
            log.info("channel %s refused a notice (HTTP %s); given up", channel_id, exc.status)
            return None
        return message.id

    async def to_user(self, user_id: int, text: str, nonce: str) -> int | None:
        try:
            channel = await direct_channel(self.client, user_id)
            message = await channel.send(shown(text), nonce=nonce)
        except (discord.Forbidden, discord.NotFound):
            log.info("could not send a notice to user %s (direct messages closed?)", user_id)
            return None
        return message.id

    async def deliver(self, accepted: Accepted) -> None:
        await self.client.deliver(accepted)


def ticker_of(interaction: Interaction) -> Ticker:
    return interaction.client.timers


async def _private(interaction: Interaction, text: str) -> None:
    await answer_privately(interaction, text)


async def _public(interaction: Interaction, text: str) -> None:
    """The command's answer for the channel (a change of someone's seats or of a game's settings)."""
    await answer_with(interaction, public=True, content=text, allowed_mentions=no_mentions())


async def _refuse(interaction: Interaction, msg: str, **params: Any) -> None:
    """A private refusal in the asker's language."""
    await answer_privately(interaction, texts.say(msg, user_language(interaction), **params))


async def _refuse_error(interaction: Interaction, exc: Exception) -> None:
    """A bad option's refusal in the asker's language (an error that words itself, else its English)."""
    lang = user_language(interaction)
    say = getattr(exc, "say", None)
    await _refuse(interaction, "refused", reason=say(lang) if callable(say) else str(exc))


async def _retime(ticker: Ticker, channel_id: int | None) -> None:
    """The channel's running game follows changed settings at once."""
    if channel_id is None:
        return
    rec = await ticker.store.games.channel_game(channel_id)
    mark = await ticker.store.turns.turn_mark(rec.id) if rec is not None else None
    if rec is not None and mark is not None and mark.version == rec.version:
        await ticker.mark(rec, again=True)


@app_commands.command(name="notify", description="How you learn it is your turn")
@app_commands.describe(mode="channel: a mention; dm: a direct message with a link; off: none",
                       this_game="Only this channel's game (default: all your games)")
@app_commands.choices(mode=[Choice(name=m, value=m) for m in MODES])
async def notify(interaction: Interaction, mode: str, this_game: bool | None = None) -> None:
    try:
        chosen = opt.text("mode", mode, required=True)
        only_here = opt.flag("this_game", this_game)
    except opt.BadOption as exc:
        await _refuse_error(interaction, exc)
        return
    if chosen not in MODES:
        await _refuse(interaction, "notify.bad_mode")
        return
    ticker = ticker_of(interaction)
    lang = user_language(interaction)
    target, where = 0, "notify.all_games"
    if only_here:
        rec = await ticker.store.games.channel_game(interaction.channel_id or 0)
        if rec is None:
            await _refuse(interaction, "notify.no_game")
            return
        target, where = rec.id, "notify.this_game"
    await ticker.settings.set_user(interaction.user.id, target, mode=chosen)
    await ticker.refresh(interaction.user.id)
    await _private(interaction, texts.say("notify.set", lang, where=texts.say(where, lang),
                                          mode=texts.say(f"notify.mode_{chosen}", lang)))


@app_commands.command(name="quiet", description="Quiet hours: pings wait until they end")
@app_commands.describe(start="From (HH:MM)", end="Until (HH:MM)", timezone="Your time zone, e.g. Europe/Berlin",
                       clear="Remove your quiet hours")
async def quiet(interaction: Interaction, start: str | None = None, end: str | None = None,
                timezone: str | None = None, clear: bool | None = None) -> None:
    ticker = ticker_of(interaction)
    user = interaction.user.id
    try:
        values = [opt.text(n, v, limit=40) for n, v in (("start", start), ("end", end), ("timezone", timezone))]
        off = opt.flag("clear", clear)
    except opt.BadOption as exc:
        await _refuse_error(interaction, exc)
        return
    lang = user_language(interaction)
    if off:
        await ticker.settings.set_user(user, 0, quiet=None)
        await ticker.refresh(user)
        await _private(interaction, texts.say("quiet.removed", lang))
        return
    if not any(values):
        q = ticker.settings.prefs(user).quiet
        await _private(interaction, texts.say("quiet.none", lang) if q is None else texts.say(
            "quiet.now", lang, start=f"{q.start // 60:02}:{q.start % 60:02}", end=f"{q.end // 60:02}:{q.end % 60:02}",
            tz=q.tz))
        return
    if not all(values):
        await _refuse(interaction, "quiet.together")
        return
    s, e, tz = (v or "" for v in values)
    try:
        q = notices.quiet_hours(s, e, tz)
    except notices.BadQuietHours as exc:
        await _refuse_error(interaction, exc)
        return
    await ticker.settings.set_user(user, 0, quiet={"start": q.start, "end": q.end, "tz": q.tz})
    await ticker.refresh(user)
    await _private(interaction, texts.say("quiet.set", lang, start=s, end=e, tz=q.tz))


@app_commands.command(name="away", description="Autopilot: a computer plays your turns")
@app_commands.describe(days="Days (default: until /game back)",
                       everywhere="In all your games (default: this one only)")
async def away(interaction: Interaction, days: app_commands.Range[int, 1, MAX_AWAY_DAYS] | None = None,
               everywhere: bool | None = None) -> None:
    try:
        n = opt.integer("days", days, 1, MAX_AWAY_DAYS)
        all_games = opt.flag("everywhere", everywhere)
    except opt.BadOption as exc:
        await _refuse_error(interaction, exc)
        return
    ticker = ticker_of(interaction)
    game_id = None
    lang = await server_language(interaction)  # said in the channel
    if not all_games:
        rec = await ticker.store.games.channel_game(interaction.channel_id or 0)
        if rec is None or rec.seat_of(interaction.user.id) is None:
            await _refuse(interaction, "away.no_seat")
            return
        game_id, lang = rec.id, rec.lang
    until = await ticker.away(interaction.user.id, game_id, n or AWAY_FOR_GOOD)
    when = texts.say("away.for_good", lang) if n is None else texts.say(
        "away.until", lang, stamp=int(until), utc=f"{dt.datetime.fromtimestamp(until, dt.UTC):%Y-%m-%d %H:%M}")
    where = texts.say("away.all_games" if game_id is None else "away.this_game", lang)
    text = texts.say("away.set", lang, user=asker(interaction), where=where, when=when)
    await _public(interaction, text)
    if not ticker.running:  # the running ticker was woken by the turn's new deadline; else look here
        await ticker.tick()


@app_commands.command(name="back", description="Take your seats off autopilot")
async def back(interaction: Interaction) -> None:
    ticker = ticker_of(interaction)
    if not await ticker.back(interaction.user.id):
        await _refuse(interaction, "away.not_away")
        return
    rec = await ticker.store.games.channel_game(interaction.channel_id or 0)
    lang = rec.lang if rec is not None else await server_language(interaction)
    await _public(interaction, texts.say("away.back", lang, user=asker(interaction)))


async def _plan_autocomplete(interaction: Interaction, current: str) -> list[Choice[str]]:
    """What could begin the asker's next turn, after what they queued."""
    pairs = await plans.plan_choices(service_of(interaction), interaction.channel_id or 0, interaction.user.id,
                                     current, user_language(interaction))
    return as_choices(pairs)


async def _standing_autocomplete(interaction: Interaction, current: str) -> list[Choice[str]]:
    """The ready-made plan items of the channel's game, in the asker's language."""
    service = service_of(interaction)
    rec, _, _ = await service.current(interaction.channel_id or 0)
    if rec is None:
        return []
    return as_choices(plans.standing_choices(service.fronts(rec.game_key), current, user_language(interaction)))


@app_commands.command(name="plan", description="Queue actions (private): they play on your turn, in order")
@app_commands.describe(add="Actions in the game's notation, separated by ;", standing="A ready-made plan item",
                       clear="Empty your plan first")
@app_commands.autocomplete(add=_plan_autocomplete, standing=_standing_autocomplete)
async def plan(interaction: Interaction, add: str | None = None, standing: str | None = None,
               clear: bool | None = None) -> None:
    out = await plans.plan_command(service_of(interaction), interaction.channel_id or 0, interaction.user.id,
                                   add=add, standing=standing, clear=bool(clear), lang=user_language(interaction))
    await _private(interaction, out if isinstance(out, str) else out.text)


@app_commands.command(name="auto", description="Whether moves with nothing to decide play themselves")
@app_commands.describe(mode="on or off", everywhere="In all your games (default: this one only)")
@app_commands.choices(mode=[Choice(name="on", value="on"), Choice(name="off", value="off")])
async def auto(interaction: Interaction, mode: str, everywhere: bool | None = None) -> None:
    out = await plans.auto_command(service_of(interaction), interaction.channel_id or 0, interaction.user.id,
                                   mode == "on", everywhere=bool(everywhere), lang=user_language(interaction))
    await _private(interaction, out if isinstance(out, str) else out.text)


SCOPES = ("game", "server")


@app_commands.command(name="settings", description="Reminders and turn limits of this game or the server")
@app_commands.describe(scope="game: this one (host); server: for new games (Manage Channels)",
                       reminder="Hours without a move before a reminder (0: off; default 12)",
                       turn_limit="Hours per turn (0: no limit, the default)",
                       on_timeout="When time runs out: the autopilot plays, or ask the host",
                       kick_after="Missed turns before the host is asked to kick (ask-host)",
                       recap_after="Hours away until \"What did I miss?\" is offered (0: never; default 12)",
                       language="Language of the server's channels (scope server; default: Discord's)")
@app_commands.choices(scope=[Choice(name=s, value=s) for s in SCOPES],
                      on_timeout=[Choice(name=t, value=t) for t in TIMEOUTS],
                      language=[Choice(name="English", value="en"), Choice(name="Deutsch", value="de")])
async def settings(interaction: Interaction, scope: str | None = None,
                   reminder: app_commands.Range[int, 0, MAX_HOURS] | None = None,
                   turn_limit: app_commands.Range[int, 0, MAX_HOURS] | None = None,
                   on_timeout: str | None = None, kick_after: app_commands.Range[int, 1, 20] | None = None,
                   language: str | None = None, recap_after: app_commands.Range[int, 0, MAX_HOURS] | None = None
                   ) -> None:
    values: dict[str, Any] = {"reminder": reminder, "turn_limit": turn_limit, "on_timeout": on_timeout,
                              "kick_after": kick_after, "recap_after": recap_after}
    ticker = ticker_of(interaction)
    lang = user_language(interaction)
    try:
        where = opt.text("scope", scope) or ("server" if language is not None else "game")
        if where not in SCOPES:
            await _refuse(interaction, "refused", reason=texts.say("settings.scope", lang))
            return
        if language is not None and where != "server":
            await _refuse(interaction, "settings.language_game_only")
            return
        checked = check_game_settings({**values, LANGUAGE: language} if where == "server" else values,
                                      server=where == "server")
    except (opt.BadOption, BadSetting) as exc:
        await _refuse_error(interaction, exc)
        return
    manage = bool(interaction.permissions.manage_channels)
    if where == "server":
        if interaction.guild_id is None:
            await _refuse(interaction, "settings.server_only")
            return
        if not checked:
            current = {**GAME_DEFAULTS, LANGUAGE: await server_language(interaction),
                       **await ticker.settings.server(interaction.guild_id)}
            await _private(interaction, texts.say("settings.server_now", lang,
                                                  settings=describe_server_settings(current, lang)))
            return
        if not manage:
            await _refuse(interaction, "settings.server_manage")
            return
        await ticker.settings.set_server(interaction.guild_id, checked)
        current = {**GAME_DEFAULTS, LANGUAGE: await server_language(interaction),
                   **await ticker.settings.server(interaction.guild_id)}
        await _private(interaction, texts.say("settings.server_set", lang,
                                              settings=describe_server_settings(current, lang)))
        await ticker.refresh()
        return
    rec = await ticker.store.games.channel_game(interaction.channel_id or 0)
    if rec is None:
        await _refuse(interaction, "settings.no_game")
        return
    if not checked:
        await _private(interaction, texts.say("settings.game_now", lang, settings=describe_game_settings(
            await ticker.settings.game(rec), lang)))
        return
    if not (manage or rec.host_id == interaction.user.id):
        await _refuse(interaction, "settings.only_host", host=host_of(rec, user_language(interaction)))
        return
    await ticker.settings.set_game(rec.id, checked)
    await _retime(ticker, interaction.channel_id)
    now = describe_game_settings(await ticker.settings.game(rec), rec.lang)
    await _public(interaction, texts.say("settings.game_set", rec.lang, user=asker(interaction), settings=now))


def add_timing_commands(group: app_commands.Group) -> None:
    """Add the timing commands to the ``/game`` group."""
    commands: tuple[app_commands.Command[Any, ..., None], ...] = (notify, quiet, away, back, settings,
                                                                  plan, auto)
    for command in commands:
        group.add_command(command)
