"""``/championship`` (a command of its own: ``/game`` has as many subcommands as Discord allows): create (a
host names a championship of a racing game, its rounds, points and options), next (the next round's lobby,
with the last round's seats), table (the table now, for the asker) and end (the host stops it). The work is
:mod:`bot.play.championships`'s; the table after each round is posted with the round's results."""

from __future__ import annotations

from discord import app_commands

from bot.discord import options as opt
from bot.discord.command_group import refuse_option, server_language, service_of, user_language
from bot.discord.context import Interaction
from bot.discord.payloads import no_mentions
from bot.discord.replies import answer_with, send_reply
from bot.games import units
from bot.play.championships import MAX_EVERY_DAYS, MAX_ROUNDS, Asker
from bot.standing.championship import MAX_PLACES
from bot.telling.compose import Message
from bot.telling.outcomes import Refusal

Choice = app_commands.Choice


async def _asker(interaction: Interaction) -> Asker:
    assert interaction.channel_id is not None
    return Asker(interaction.guild_id, interaction.channel_id, interaction.user.id,
                 getattr(interaction.user, "display_name", None) or interaction.user.name,
                 user_language(interaction), await server_language(interaction))


async def _public(interaction: Interaction, reply: Message | Refusal) -> None:
    """A refusal privately; a message for the channel."""
    if isinstance(reply, Refusal):
        await send_reply(interaction, reply)
        return
    await answer_with(interaction, public=True, content=reply.text, allowed_mentions=no_mentions())


async def _racing_games(interaction: Interaction, current: str) -> list[Choice[str]]:
    cur = current.lower()
    return [Choice(name=f"{u.title} ({u.key})", value=u.key) for u in units()
            if u.racing and (cur in u.key or cur in u.title.lower())][:25]


@app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False)
class ChampionshipGroup(app_commands.Group, name="championship",
                        description="A championship of racing games in this channel: rounds scored by places"):
    """The ``/championship`` commands."""

    @app_commands.command(name="create", description="Start a championship in this channel (you host it)")
    @app_commands.describe(name="The championship's name", game="Which racing game",
                           rounds="Each round's track and laps, separated by ; (like A 2; B 3)",
                           points="f1, cup, n8 (8 to 1) or your own list (like 10 6 4 3); default f1",
                           drop="How many of each driver's worst results are struck (default 0)",
                           lead_bonus="Points for leading most laps; a lap is led by who completes it first "
                                      "(default 0)",
                           teams="Team racing where the game has it (default: no)",
                           every="Days after a round ends at which the next opens and starts by itself (default: "
                                 "you open each)")
    @app_commands.autocomplete(game=_racing_games)
    async def create(self, interaction: Interaction, name: str, game: str, rounds: str, points: str | None = None,
                     drop: app_commands.Range[int, 0, MAX_ROUNDS - 1] | None = None,
                     lead_bonus: app_commands.Range[int, 0, 100] | None = None,
                     teams: bool | None = None,
                     every: app_commands.Range[int, 0, MAX_EVERY_DAYS] | None = None) -> None:
        try:
            title = opt.text("name", name, limit=60) or ""
            laid = opt.text("rounds", rounds, limit=400) or ""
            table = opt.text("points", points, limit=MAX_PLACES * 4)
            racing = bool(opt.flag("teams", teams))
        except opt.BadOption as exc:
            await refuse_option(interaction, exc)
            return
        championships = service_of(interaction).championships
        await _public(interaction, await championships.create(
            await _asker(interaction), name=title, game=game, rounds=laid, points=table, drop=drop or 0,
            lead_bonus=lead_bonus or 0, teams=racing, every=every or 0))

    @app_commands.command(name="next", description="Open the next round's game with the last round's seats (host)")
    async def next_round(self, interaction: Interaction) -> None:
        await send_reply(interaction, await service_of(interaction).championships.next_round(
            await _asker(interaction)))

    @app_commands.command(name="table", description="The championship's table now (only you see it)")
    async def table(self, interaction: Interaction) -> None:
        await send_reply(interaction, await service_of(interaction).championships.table(await _asker(interaction)))

    @app_commands.command(name="end", description="End the championship (host)")
    async def end(self, interaction: Interaction) -> None:
        await _public(interaction, await service_of(interaction).championships.end(await _asker(interaction)))


__all__ = ["ChampionshipGroup"]
