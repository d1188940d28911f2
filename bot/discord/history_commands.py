"""The record and undo commands: ``/game undo``, ``/game mine``, ``/game history``, ``/game replay`` and the top-level
``/stats`` and ``/season``. Each checks its options, calls :mod:`bot.play.undo` or :mod:`bot.standing.history` and
sends the reply; ``/game mine`` and ``/stats`` also work in direct messages. ``/season``, which a server's managers use
a few times a year, stands on its own: ``/game`` has 25 subcommands, as many as Discord allows, and every character of
its options counts toward the 4,000 a command may have."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str

from bot.discord import options as opt
from bot.discord.command_group import as_choices, refuse_option, service_of, user_language
from bot.discord.context import Interaction
from bot.discord.replies import send_reply
from bot.play.undo import MAX_UNDO, undo
from bot.standing import history
from bot.store import GameRecord

log = logging.getLogger(__name__)

Choice = app_commands.Choice
#: the mark of a command that may be used outside a server (read by the ``/game`` group's check)
ANYWHERE = "anywhere"


def jump_link(rec: GameRecord, message_id: int | None) -> str:
    """A link that opens the game's channel, at its newest board when it is known."""
    where = rec.guild_id if rec.guild_id is not None else "@me"
    return f"https://discord.com/channels/{where}/{rec.channel_id}" + (f"/{message_id}" if message_id else "")


async def _undo(interaction: Interaction, moves: app_commands.Range[int, 1, MAX_UNDO] | None = None) -> None:
    try:
        count = opt.integer("moves", moves, 1, MAX_UNDO) or 1
    except opt.BadOption as exc:
        await refuse_option(interaction, exc)
        return
    assert interaction.channel_id is not None
    await send_reply(interaction, await undo(service_of(interaction), interaction.channel_id, interaction.user.id,
                                            count, lang=user_language(interaction)))


async def _mine(interaction: Interaction) -> None:
    await send_reply(interaction, await history.mine(service_of(interaction), interaction.user.id, jump_link,
                                                    lang=user_language(interaction)))


async def _history(interaction: Interaction) -> None:
    assert interaction.channel_id is not None
    await send_reply(interaction, await history.history(service_of(interaction), interaction.channel_id,
                                                       lang=user_language(interaction)))


async def _replay_source(interaction: Interaction, current: str) -> list[Choice[str]]:
    if interaction.channel_id is None:
        return []
    return as_choices(await history.replay_choices(service_of(interaction), interaction.channel_id, current))


async def _replay(interaction: Interaction, game: str) -> None:
    try:
        text = opt.text("game", game, required=True, limit=100)
    except opt.BadOption as exc:
        await refuse_option(interaction, exc)
        return
    assert text is not None and interaction.channel_id is not None
    await send_reply(interaction, await history.replay(service_of(interaction), interaction.channel_id, text,
                                                      lang=user_language(interaction)))


@app_commands.command(name="season", description="This server's seasons: start, end, list, or rate one again")
@app_commands.describe(action="start, end, rebuild (server managers) or list", name="The new season's name (start)",
                       number="The season to rebuild: its number (0: all time; default: the running one)")
@app_commands.choices(action=[Choice(name=a, value=a) for a in history.SEASON_ACTIONS])
@app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
async def season_command(interaction: Interaction, action: str, name: str | None = None,
                         number: app_commands.Range[int, 0, opt.MAX_INTEGER] | None = None) -> None:
    try:
        label = opt.text("name", name, limit=40)
    except opt.BadOption as exc:
        await refuse_option(interaction, exc)
        return
    manage = bool(interaction.permissions.manage_guild)
    await send_reply(interaction, await history.season_command(
        service_of(interaction).store, interaction.guild_id, interaction.user.id, action, manage=manage, name=label,
        season=number, lang=user_language(interaction)))


def add_history_commands(group: app_commands.Group) -> None:
    """Add undo, mine, history and replay to the ``/game`` group."""
    Cmd = app_commands.Command[Any, ..., None]
    undo_cmd: Cmd = app_commands.Command(
        name="undo", description="Take back your last moves this turn while nothing new became known",
        callback=_undo)
    # described after it is built: a locale_str, so the translator words it too (a plain str would not be)
    app_commands.describe(moves=locale_str(f"How many moves (1–{MAX_UNDO}, default 1)"))(undo_cmd)
    mine: Cmd = app_commands.Command(
        name="mine", description="Your running games on every server, your turns first (works in DMs)",
        callback=_mine)
    mine.extras[ANYWHERE] = True
    hist: Cmd = app_commands.Command(
        name="history", description="This channel's finished games: date, players, winner, moves", callback=_history)
    replay: Cmd = app_commands.Command(
        name="replay", description="Post a finished game's replay and final standings", callback=_replay)
    app_commands.describe(game=locale_str("Start typing: this channel's finished games"))(replay)
    replay.autocomplete("game")(_replay_source)
    for cmd in (undo_cmd, mine, hist, replay):
        group.add_command(cmd)


@app_commands.command(name="stats", description="A player's record per game, or this server's (no player)")
@app_commands.describe(player="Whose record (default: the server's; in a direct message, yours)",
                       season="Which season's ladder (its number, 0 is all time; default: the running one)")
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
async def stats_command(interaction: Interaction, player: discord.User | None = None,
                        season: app_commands.Range[int, 0, opt.MAX_INTEGER] | None = None) -> None:
    reply = await history.stats(service_of(interaction), interaction.guild_id, player.id if player else None,
                                asker_id=interaction.user.id, lang=user_language(interaction), season=season)
    await send_reply(interaction, reply)


__all__ = ["ANYWHERE", "add_history_commands", "jump_link", "season_command", "stats_command"]
