"""The ``/game`` group shared by every game: new, join, computer, leave, kick, start, play, status, log,
abort. Each command checks its options, calls the service and sends its reply."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.discord import options as opt
from bot.discord.replies import send_reply
from bot.games import front_for, playable_keys
from bot.service import Reply, may_act, refuse

if TYPE_CHECKING:
    from bot.service import Service

log = logging.getLogger(__name__)

Choice = app_commands.Choice


def service_of(interaction: discord.Interaction) -> Service:
    return interaction.client.service  # type: ignore[attr-defined]


def can_manage(interaction: discord.Interaction) -> bool:
    """Whether the user may manage this channel (and so abort or kick in any game here)."""
    return bool(interaction.permissions.manage_channels)


async def answer(interaction: discord.Interaction, reply: Reply) -> None:
    await send_reply(interaction, reply)


async def refuse_option(interaction: discord.Interaction, exc: Exception) -> None:
    await send_reply(interaction, refuse(f"{exc} Nothing was changed."))


def _choices(pairs: list[tuple[str, str]]) -> list[Choice[str]]:
    """Autocomplete choices within Discord's limits (25, names and values of at most 100 characters); a
    value too long to send whole is left out rather than cut."""
    fits = [(name, value) for name, value in pairs if 0 < len(value) <= 100]
    return [Choice(name=(name or value)[:100], value=value) for name, value in fits[:25]]


async def game_autocomplete(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    cur = current.lower()
    pairs = []
    for key in playable_keys():
        title = front_for(key).title
        if cur in key.lower() or cur in title.lower():
            pairs.append((f"{title} ({key})", key))
    return _choices(pairs)


def resolve_game(text: str | None) -> str | None:
    """A game key from what was typed: the key itself or the game's title, in any case."""
    if not isinstance(text, str):
        return None
    wanted = text.strip().lower()
    for key in playable_keys():
        if wanted in (key.lower(), front_for(key).title.lower()):
            return key
    return None


def _new_game_key(interaction: discord.Interaction) -> str | None:
    return resolve_game(getattr(interaction.namespace, "game", None))


async def track_autocomplete(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    key = _new_game_key(interaction)
    if key is None:
        return []
    return _choices(front_for(key).choices("track", current))


def _seat_autocomplete(field: str):
    async def complete(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
        if interaction.channel_id is None:
            return []
        rec, _, seat = await service_of(interaction).current(interaction.channel_id, interaction.user.id)
        if rec is None:
            return []
        taken = [s.options for i, s in enumerate(rec.seats) if i != seat]
        return _choices(front_for(rec.game_key).choices(field, current, rec.setup.get("options", {}), taken))

    complete.__name__ = f"{field}_autocomplete"
    return complete


async def action_autocomplete(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """The asker's legal actions, when it is their turn, filtered by what they typed."""
    if interaction.channel_id is None:
        return []
    _, game, seat = await service_of(interaction).current(interaction.channel_id, interaction.user.id)
    if game is None or seat is None or not may_act(game, seat):
        return []
    cur = current.strip().lower()
    acts = [str(a) for a in game.legal_actions()]
    hits = [a for a in acts if a.lower().startswith(cur)] + [a for a in acts if cur in a.lower()
                                                              and not a.lower().startswith(cur)]
    return _choices([(a, a) for a in hits if len(a) <= 100])


async def kind_autocomplete(interaction: discord.Interaction, current: str) -> list[Choice[str]]:
    """Computer player kinds for the channel's game."""
    if interaction.channel_id is None:
        return []
    service = service_of(interaction)
    rec = await service.store.channel_game(interaction.channel_id)
    if rec is None:
        return []
    return _choices([(k, k) for k in service.driver_kinds(rec.game_key) if current.lower() in k])


@app_commands.guild_only()
class GameGroup(app_commands.Group, name="game", description="Start, join and manage this channel's game"):
    """One game per channel; these commands work the same for every game."""

    @app_commands.command(name="new", description="Open a new game in this channel")
    @app_commands.describe(game="Which game", track="Track or board (games that have several)",
                           teams="Team racing", crew="Play with the crew characters and starting sets",
                           play="Take a seat yourself (default: yes)")
    @app_commands.autocomplete(game=game_autocomplete, track=track_autocomplete)
    async def new(self, interaction: discord.Interaction, game: str, track: str | None = None,
                  teams: bool | None = None, crew: bool | None = None,
                  laps: app_commands.Range[int, 1, 5] | None = None, play: bool | None = None) -> None:
        try:
            key = opt.text("game", game, required=True)
            raw: dict[str, Any] = {"track": opt.text("track", track), "teams": opt.flag("teams", teams),
                                   "crew": opt.flag("crew", crew), "laps": opt.integer("laps", laps, 1, 5)}
            join = opt.flag("play", play)
        except opt.BadOption as exc:
            await refuse_option(interaction, exc)
            return
        assert key is not None and interaction.channel_id is not None
        key = resolve_game(key) or key
        reply = await service_of(interaction).new_game(
            guild_id=interaction.guild_id, channel_id=interaction.channel_id, user_id=interaction.user.id,
            user_name=interaction.user.display_name, game_key=key, options=raw, join=join is not False)
        await answer(interaction, reply)

    @app_commands.command(name="join", description="Take a seat in this channel's game (again: change your options)")
    @app_commands.describe(colour="Your colour", team="Your team number (team play)",
                           character="Your crew character (crew play)", start_set="Your crew starting set")
    @app_commands.rename(start_set="set")
    @app_commands.autocomplete(colour=_seat_autocomplete("colour"), character=_seat_autocomplete("character"))
    async def join(self, interaction: discord.Interaction, colour: str | None = None,
                   team: app_commands.Range[int, 1, 8] | None = None, character: str | None = None,
                   start_set: app_commands.Range[int, 1, 2] | None = None) -> None:
        try:
            raw = {"colour": opt.text("colour", colour), "team": opt.integer("team", team, 1, 8),
                   "character": opt.text("character", character), "set": opt.integer("set", start_set, 1, 2)}
        except opt.BadOption as exc:
            await refuse_option(interaction, exc)
            return
        assert interaction.channel_id is not None
        reply = await service_of(interaction).join(interaction.channel_id, interaction.user.id,
                                                   interaction.user.display_name, raw)
        await answer(interaction, reply)

    @app_commands.command(name="leave", description="Give up your seat (in a running game a computer plays it on)")
    async def leave(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        await answer(interaction, await service_of(interaction).leave(interaction.channel_id, interaction.user.id))

    @app_commands.command(name="start", description="Start the game (host)")
    async def start(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        reply = await service_of(interaction).start(interaction.channel_id, interaction.user.id,
                                                    can_manage=can_manage(interaction))
        await answer(interaction, reply)

    @app_commands.command(name="play", description="Play an action in the game's notation (any game)")
    @app_commands.describe(action="The action, e.g. `roll`; start typing for the legal ones")
    @app_commands.autocomplete(action=action_autocomplete)
    async def play(self, interaction: discord.Interaction, action: str) -> None:
        try:
            text = opt.text("action", action, required=True, limit=200)
        except opt.BadOption as exc:
            await refuse_option(interaction, exc)
            return
        assert text is not None and interaction.channel_id is not None
        await answer(interaction, await service_of(interaction).act(interaction.channel_id, interaction.user.id,
                                                                    text))

    @app_commands.command(name="status", description="The board, whose turn it is and what you can do")
    async def status(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        await answer(interaction, await service_of(interaction).status(interaction.channel_id, interaction.user.id))

    @app_commands.command(name="log", description="The last moves of this channel's game (only you see it; "
                                                    "your own moves in full)")
    @app_commands.describe(moves="How many moves (1–100, default 20)")
    async def log(self, interaction: discord.Interaction, moves: app_commands.Range[int, 1, 100] | None = None
                  ) -> None:
        try:
            limit = opt.integer("moves", moves, 1, 100) or 20
        except opt.BadOption as exc:
            await refuse_option(interaction, exc)
            return
        assert interaction.channel_id is not None
        await answer(interaction, await service_of(interaction).log(interaction.channel_id, limit,
                                                                    user_id=interaction.user.id))

    @app_commands.command(name="abort", description="End this channel's game without a winner (host or moderators)")
    async def abort(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        reply = await service_of(interaction).abort(interaction.channel_id, interaction.user.id,
                                                    can_manage=can_manage(interaction))
        await answer(interaction, reply)

    @app_commands.command(name="kick",
                          description="Remove a player (in a running game a computer plays on) (host or moderators)")
    @app_commands.describe(player="Who to remove", seat="Or the seat number to clear (as the seat list shows)")
    async def kick(self, interaction: discord.Interaction, player: discord.User | None = None,
                   seat: app_commands.Range[int, 1, 25] | None = None) -> None:
        try:
            number = opt.integer("seat", seat, 1, 25)
        except opt.BadOption as exc:
            await refuse_option(interaction, exc)
            return
        if (player is None) == (number is None):
            await answer(interaction, refuse("Name either a `player` or a `seat` number to remove."))
            return
        assert interaction.channel_id is not None
        service = service_of(interaction)
        if player is not None:
            reply = await service.kick(interaction.channel_id, interaction.user.id, player.id,
                                       can_manage=can_manage(interaction))
        else:
            assert number is not None
            reply = await service.kick_seat(interaction.channel_id, interaction.user.id, number,
                                            can_manage=can_manage(interaction))
        await answer(interaction, reply)

    @app_commands.command(name="computer", description="Seat a computer player in the lobby (host or moderators)")
    @app_commands.describe(kind="How it plays (default: random)")
    @app_commands.autocomplete(kind=kind_autocomplete)
    async def computer(self, interaction: discord.Interaction, kind: str | None = None) -> None:
        try:
            chosen = opt.text("kind", kind) or "random"
        except opt.BadOption as exc:
            await refuse_option(interaction, exc)
            return
        assert interaction.channel_id is not None
        reply = await service_of(interaction).add_computer(interaction.channel_id, interaction.user.id, chosen,
                                                           can_manage=can_manage(interaction))
        await answer(interaction, reply)
