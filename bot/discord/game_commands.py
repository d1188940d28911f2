"""The ``/game`` group shared by every game: new, join, computer, leave, kick, start, play, status, log,
abort. Each command checks its options, calls the service and sends its reply."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot import texts
from bot.discord import options as opt
from bot.discord import permissions, threads
from bot.discord.board_commands import add_board_commands
from bot.discord.command_group import (
    as_choices,
    asker,
    check_values,
    languages,
    make_command,
    refuse_option,
    server_language,
    service_of,
    user_language,
)
from bot.discord.context import Interaction
from bot.discord.forget_command import add_forget_command
from bot.discord.history_commands import ANYWHERE, add_history_commands
from bot.discord.link_commands import add_link_commands
from bot.discord.recap_commands import add_recap_commands
from bot.discord.replies import answer_privately, answer_with, send_private, send_reply
from bot.discord.timing_commands import add_timing_commands
from bot.discord.transport import ChannelTransport
from bot.games import GameUnit, Option, join_options, new_options, offered_by, resolve, unit_for, units
from bot.play.service import Outcome, refuse
from bot.telling.compose import Message
from bot.telling.delivery import deliver
from bot.telling.outcomes import Accepted, Refusal

log = logging.getLogger(__name__)

Choice = app_commands.Choice


def can_manage(interaction: Interaction) -> bool:
    """Whether the user may manage this channel (and so abort or kick in any game here)."""
    return bool(interaction.permissions.manage_channels)


async def answer(interaction: Interaction, outcome: Outcome | Message) -> None:
    await send_reply(interaction, outcome)


async def note_missing(interaction: Interaction, reply: Outcome | Message) -> None:
    """After a lobby change or the start: a private note when an optional permission (Manage Threads in a
    thread) is missing; the essential ones the answer itself names (the board waits for them)."""
    found = permissions.missing(interaction)
    if found.optional and not isinstance(reply, Refusal):
        await answer_privately(interaction, permissions.note_line(interaction, found, user_language(interaction)))


async def game_autocomplete(interaction: Interaction, current: str) -> list[Choice[str]]:
    cur = current.lower()
    return as_choices([(f"{u.title} ({u.key})", u.key) for u in units()
                       if cur in u.key.lower() or cur in u.title.lower()])


def resolve_game(text: str | None) -> str | None:
    """A game key from what was typed: the key itself or the game's title, in any case."""
    return resolve(text)


async def _new_source(interaction: Interaction, option: Option, current: str) -> list[tuple[str, str]]:
    """Autocomplete of a ``/game new`` option, from the chosen game's own source for it."""
    key = resolve(getattr(interaction.namespace, "game", None))
    if key is None:
        return []
    return unit_for(key).choices(option.name, current, lang=user_language(interaction))


async def _join_source(interaction: Interaction, option: Option, current: str) -> list[tuple[str, str]]:
    """Autocomplete of a ``/game join`` option, from the channel's game: its setup and the other seats."""
    if interaction.channel_id is None:
        return []
    rec, _, seat = await service_of(interaction).current(interaction.channel_id, interaction.user.id)
    if rec is None:
        return []
    taken = [s.options for i, s in enumerate(rec.seats) if i != seat]
    return unit_for(rec.game_key).choices(option.name, current, rec.setup.get("options", {}), taken,
                                          lang=user_language(interaction))


def _merged(offered: dict[str, list[tuple[GameUnit[Any], Option]]]) -> list[Option]:
    """One optional Discord option per name that any game offers; its description says which games read
    it, its range covers all of theirs. Each game checks its own options on the server."""
    out = []
    for name, offers in offered.items():
        first = offers[0][1]
        lows = [o.low for _, o in offers if o.low is not None]
        highs = [o.high for _, o in offers if o.high is not None]
        described = f"{first.description} ({offered_by(offers)})"[:100]
        out.append(Option(name, described, first.type, low=min(lows, default=None), high=max(highs, default=None),
                          limit=max(o.limit for _, o in offers),
                          complete=_any_source if any(o.complete for _, o in offers) else None))
    return out


def _any_source(ask: Any) -> list[tuple[str, str]]:
    """A marker: the option has autocomplete (the game chosen supplies it)."""
    return []


async def action_autocomplete(interaction: Interaction, current: str) -> list[Choice[str]]:
    """The asker's legal actions, when it is their turn, filtered by what they typed."""
    if interaction.channel_id is None:
        return []
    _, game, seat = await service_of(interaction).current(interaction.channel_id, interaction.user.id)
    if game is None or seat is None or not game.may_act(seat):
        return []
    cur = current.strip().lower()
    acts = [str(a) for a in game.legal_actions()]
    hits = [a for a in acts if a.lower().startswith(cur)] + [a for a in acts if cur in a.lower()
                                                              and not a.lower().startswith(cur)]
    return as_choices([(a, a) for a in hits if len(a) <= 100])


async def kind_autocomplete(interaction: Interaction, current: str) -> list[Choice[str]]:
    """Computer player kinds for the channel's game."""
    if interaction.channel_id is None:
        return []
    service = service_of(interaction)
    rec = await service.store.games.channel_game(interaction.channel_id)
    if rec is None:
        return []
    return as_choices([(k, k) for k in service.driver_kinds(rec.game_key) if current.lower() in k])


@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
class GameGroup(app_commands.Group, name="game", description="Start, join and manage this channel's game"):
    """One game per channel; these commands work the same for every game. ``new`` and ``join`` offer the
    options the games offer (:func:`bot.games.new_options`), built when the group is."""

    def __init__(self) -> None:
        super().__init__()
        game = Option("game", "Which game", required=True, complete=_any_source)
        play = Option("play", "Take a seat yourself (default: yes)", "flag")
        thread = Option("thread", "Play in a new thread of this channel (default: no)", "flag")
        self.new_options = [*_merged(new_options()), play, thread]
        self.join_options = _merged(join_options())
        self.add_command(make_command("new", "Open a new game in this channel", [game, *self.new_options],
                                      self._new, self._new_source))
        self.add_command(make_command("join", "Take a seat (again: change your options)",
                                      self.join_options, self._join, _join_source))
        add_timing_commands(self)
        add_board_commands(self)
        add_history_commands(self)
        add_link_commands(self)
        add_recap_commands(self)
        add_forget_command(self)

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """Outside a server only the commands marked to work anywhere answer (``/game mine``)."""
        command = interaction.command
        if interaction.guild_id is None and not (command is not None and command.extras.get(ANYWHERE)):
            raise app_commands.NoPrivateMessage(texts.say("discord.server_only", user_language(interaction)))
        return True

    @staticmethod
    async def _new_source(interaction: Interaction, option: Option, current: str
                          ) -> list[tuple[str, str]]:
        if option.name == "game":
            return [(c.name, str(c.value)) for c in await game_autocomplete(interaction, current)]
        return await _new_source(interaction, option, current)

    async def _new(self, interaction: Interaction, values: dict[str, Any]) -> None:
        try:
            key = opt.text("game", values.get("game"), required=True)
            raw = check_values(self.new_options, values)
        except opt.BadOption as exc:
            await refuse_option(interaction, exc)
            return
        assert key is not None and interaction.channel_id is not None
        join = raw.pop("play")
        in_thread = bool(raw.pop("thread")) and not permissions.in_thread(interaction)
        key = resolve(key) or key
        own = languages(interaction)[0]
        found = permissions.missing(interaction, new_thread=in_thread)
        if found.essential:
            await answer(interaction, refuse(permissions.refused_line(interaction, found, own)))
            return
        channel_id = interaction.channel_id
        lang = await server_language(interaction)
        if in_thread:
            if key not in {u.key for u in units()}:  # the service words the refusal
                in_thread = False
            else:
                try:
                    channel_id = await threads.open_thread(interaction, unit_for(key).title, lang)
                except discord.HTTPException as exc:
                    log.warning("opening a game's thread failed (HTTP %s, code %s)", exc.status, exc.code)
                    await answer(interaction, refuse(permissions.refused_line(
                        interaction, permissions.Missing(permissions.FOR_THREAD), own)))
                    return
        reply = await service_of(interaction).new_game(
            guild_id=interaction.guild_id, channel_id=channel_id, user_id=interaction.user.id,
            user_name=interaction.user.display_name, game_key=key, options=raw, join=join is not False,
            lang=lang, user_lang=own)
        if in_thread and isinstance(reply, Refusal):  # the thread opened for nothing is put away
            await threads.put_away(interaction.client, channel_id)
        elif channel_id != interaction.channel_id or permissions.in_thread(interaction):
            await threads.remember(interaction.client, channel_id)
        if in_thread and not isinstance(reply, Refusal):
            await self._in_thread(interaction, reply, channel_id, key, lang)
        else:
            await answer(interaction, reply)
        if found.optional:
            await answer_privately(interaction, permissions.note_line(interaction, found, own))

    @staticmethod
    async def _in_thread(interaction: Interaction, reply: Outcome, thread_id: int, key: str, lang: str) -> None:
        """A game opened in a thread of its own: its lobby goes to the thread, a pointer to the channel."""
        if isinstance(reply, Accepted):
            client = interaction.client
            for d in [await client.store.outbox.delivery(i) for i in reply.deliveries]:
                if d is not None and not d.delivered:
                    await deliver(client.service, d, ChannelTransport(client))
            await send_private(interaction, reply.private)
        pointer = texts.say("thread.pointer", lang, user=asker(interaction), title=unit_for(key).title,
                            thread=f"<#{thread_id}>")
        await answer_with(interaction, public=True, content=pointer,
                          allowed_mentions=discord.AllowedMentions.none())

    async def _join(self, interaction: Interaction, values: dict[str, Any]) -> None:
        try:
            raw = check_values(self.join_options, values)
        except opt.BadOption as exc:
            await refuse_option(interaction, exc)
            return
        assert interaction.channel_id is not None
        reply = await service_of(interaction).join(interaction.channel_id, interaction.user.id,
                                                   interaction.user.display_name, raw, lang=languages(interaction)[0])
        await answer(interaction, reply)
        await note_missing(interaction, reply)

    @app_commands.command(name="leave", description="Give up your seat (once started, a computer plays it)")
    async def leave(self, interaction: Interaction) -> None:
        assert interaction.channel_id is not None
        await answer(interaction, await service_of(interaction).leave(interaction.channel_id, interaction.user.id,
                                                                      lang=user_language(interaction)))

    @app_commands.command(name="start", description="Start the game (host)")
    async def start(self, interaction: Interaction) -> None:
        assert interaction.channel_id is not None
        reply = await service_of(interaction).start(interaction.channel_id, interaction.user.id,
                                                    can_manage=can_manage(interaction), lang=user_language(interaction))
        await answer(interaction, reply)
        await note_missing(interaction, reply)

    @app_commands.command(name="play", description="Play an action in the game's notation")
    @app_commands.describe(action="E.g. `roll`; start typing for the legal ones")
    @app_commands.autocomplete(action=action_autocomplete)
    async def play(self, interaction: Interaction, action: str) -> None:
        try:
            text = opt.text("action", action, required=True, limit=200)
        except opt.BadOption as exc:
            await refuse_option(interaction, exc)
            return
        assert text is not None and interaction.channel_id is not None
        await answer(interaction, await service_of(interaction).act(interaction.channel_id, interaction.user.id,
                                                                    text, lang=languages(interaction)[0]))

    @app_commands.command(name="status", description="The board, whose turn it is and what you can do")
    async def status(self, interaction: Interaction) -> None:
        assert interaction.channel_id is not None
        await answer(interaction, await service_of(interaction).status(interaction.channel_id, interaction.user.id,
                                                                       lang=languages(interaction)[0]))

    @app_commands.command(name="log", description="The game's last moves, only for you (yours in full)")
    @app_commands.describe(moves="How many moves (1–100, default 20)")
    async def log(self, interaction: Interaction, moves: app_commands.Range[int, 1, 100] | None = None
                  ) -> None:
        try:
            limit = opt.integer("moves", moves, 1, 100) or 20
        except opt.BadOption as exc:
            await refuse_option(interaction, exc)
            return
        assert interaction.channel_id is not None
        await answer(interaction, await service_of(interaction).log(interaction.channel_id, limit,
                                                                    user_id=interaction.user.id,
                                                                    lang=user_language(interaction)))

    @app_commands.command(name="abort", description="End the game without a winner (host or moderators)")
    async def abort(self, interaction: Interaction) -> None:
        assert interaction.channel_id is not None
        reply = await service_of(interaction).abort(interaction.channel_id, interaction.user.id,
                                                    can_manage=can_manage(interaction), lang=user_language(interaction))
        await answer(interaction, reply)

    @app_commands.command(name="kick",
                          description="Remove a player; a computer plays on (host or moderators)")
    @app_commands.describe(player="Who to remove", seat="Or the seat's number, as the seat list shows")
    async def kick(self, interaction: Interaction, player: discord.User | None = None,
                   seat: app_commands.Range[int, 1, 25] | None = None) -> None:
        try:
            number = opt.integer("seat", seat, 1, 25)
        except opt.BadOption as exc:
            await refuse_option(interaction, exc)
            return
        if (player is None) == (number is None):
            await answer(interaction, refuse(texts.say("lobby.kick_which", user_language(interaction))))
            return
        assert interaction.channel_id is not None
        service = service_of(interaction)
        if player is not None:
            reply = await service.kick(interaction.channel_id, interaction.user.id, player.id,
                                       can_manage=can_manage(interaction), lang=user_language(interaction))
        else:
            assert number is not None
            reply = await service.kick_seat(interaction.channel_id, interaction.user.id, number,
                                            can_manage=can_manage(interaction), lang=user_language(interaction))
        await answer(interaction, reply)

    @app_commands.command(name="computer", description="Seat a computer player (host or moderators)")
    @app_commands.describe(kind="How it plays (default: random)",
                           team="Its team, in a race with teams")
    @app_commands.autocomplete(kind=kind_autocomplete)
    async def computer(self, interaction: Interaction, kind: str | None = None,
                       team: app_commands.Range[int, 1, 8] | None = None) -> None:
        try:
            chosen = opt.text("kind", kind) or "random"
        except opt.BadOption as exc:
            await refuse_option(interaction, exc)
            return
        assert interaction.channel_id is not None
        reply = await service_of(interaction).add_computer(interaction.channel_id, interaction.user.id, chosen,
                                                           can_manage=can_manage(interaction),
                                                           lang=user_language(interaction), team=team)
        await answer(interaction, reply)
