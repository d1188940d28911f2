"""The Discord client: a ``commands.Bot`` whose app command tree holds ``/game``, ``/rules`` and one group
per game, whose single dynamic button answers every action button ever sent, and which runs the outbox, the
computers' moves and the timers in the background."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import texts
from bot.clock.timers import Ticker
from bot.discord.championship_commands import ChampionshipGroup
from bot.discord.command_group import game_groups
from bot.discord.context import Interaction, JunkyardClient
from bot.discord.game_commands import GameGroup
from bot.discord.history_commands import season_command, stats_command
from bot.discord.payloads import no_mentions
from bot.discord.presses import ActionButton
from bot.discord.replies import DEFER_AFTER, answer_privately, arm_defer, direct_message
from bot.discord.rules_command import RuleButton, lookup_module, rules_command
from bot.discord.threads import archive_when_done
from bot.discord.timing_commands import DiscordMessenger
from bot.discord.translator import JunkyardTranslator
from bot.discord.transport import ChannelTransport
from bot.games import units
from bot.play.computers import Computers
from bot.play.service import Service, clip_input
from bot.standing import history
from bot.store import Store, open_store
from bot.telling.delivery import Outbox
from bot.telling.outcomes import Accepted

log = logging.getLogger(__name__)


#: commands that answer at once without the service (no lock, no I/O), or defer themselves when they must read
INSTANT_COMMANDS = frozenset({"rules"})
#: seconds after READY before the bot catches up on what a stop left behind (the outbox does not wait)
CATCH_UP_AFTER = 1.0
#: how often the championships' schedules are looked at, in seconds
SCHEDULE_SECONDS = 60.0
#: the most characters of a user's input a log line carries
LOGGED_INPUT = 60


class JunkyardTree(app_commands.CommandTree["JunkyardBot"]):
    """Defers every command that reads or stores a game before its callback runs (privately: a refusal stays
    private), answers commands the bot no longer has, logs unexpected errors and tells the user privately that
    nothing happened."""

    async def interaction_check(self, interaction: Interaction) -> bool:
        if interaction.type is discord.InteractionType.application_command:
            data: dict[str, Any] = dict(interaction.data or {})
            name = str(data.get("name", ""))
            if name not in INSTANT_COMMANDS:
                await arm_defer(interaction, thinking=True)
        return True

    async def on_error(self, interaction: Interaction, error: app_commands.AppCommandError) -> None:
        if isinstance(error, app_commands.CommandNotFound):
            # Discord still offers a command this version dropped (before `junkyard sync`): not a bug here.
            log.info("a command this version does not have: /%s", clip_input(error.name, LOGGED_INPUT))
            if interaction.type is discord.InteractionType.autocomplete:
                with contextlib.suppress(discord.HTTPException):
                    await interaction.response.autocomplete([])
                return
            lang = texts.language(interaction.locale)
            await answer_privately(interaction, texts.say("discord.unknown_command", lang))
            return
        lang = texts.language(interaction.locale)
        if isinstance(error, app_commands.CheckFailure | app_commands.TransformerError):
            text = texts.say("discord.cant_here", lang, error=clip_input(error, 200))
        else:
            log.error("command %r failed", interaction.command and interaction.command.qualified_name,
                      exc_info=error)
            text = texts.say("move.something_wrong", lang)
        await answer_privately(interaction, text)


class JunkyardBot(JunkyardClient):
    """The game master on Discord. ``store`` is opened in ``setup_hook`` and closed with the bot."""

    def __init__(self, store: Store | None = None, *, service: Service | None = None,
                 intents: discord.Intents | None = None, defer_after: float = DEFER_AFTER, **options: Any) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=intents or discord.Intents.default(),
                         tree_cls=JunkyardTree, help_command=None,
                         allowed_mentions=no_mentions(), **options)  # options: shards
        self.store: Store = store if store is not None else (service.store if service else open_store())
        self.service: Service = service or Service(self.store)
        #: seconds an acting interaction waits before it is deferred (0, the default: it is deferred first)
        self.defer_after = defer_after
        #: delivers what the service stored but no answer carried (crashes, failed answers), once
        self.outbox = Outbox(self.service, ChannelTransport(self), min_channel_id=1)
        self.service.on_outbox = self.outbox.look_now
        #: the computers' moves, each channel's in a task of its own, owned here and cancelled on close
        self.computers = Computers(self.service, self.deliver, min_channel_id=1)
        self.service.on_computers = self.computers.wake
        self.service.on_ended = self._ended
        #: turn notices, reminders, deadlines and the autopilot, from timers in the store
        self.timers = Ticker(self.service, DiscordMessenger(self))
        self._background: list[asyncio.Task[Any]] = []
        #: short tasks started by events (waking a channel's outbox, archiving a game's thread)
        self._tasks: set[asyncio.Task[Any]] = set()
        #: seconds after READY before games waiting on computers resume, unrecorded ends are settled and timers run
        self.catch_up_after = CATCH_UP_AFTER
        self.add_app_commands()

    def add_app_commands(self) -> None:
        """Register every command on the tree (syncing with Discord is ``junkyard sync``'s job)."""
        self.tree.add_command(GameGroup())
        self.tree.add_command(rules_command)
        self.tree.add_command(stats_command)
        self.tree.add_command(season_command)
        self.tree.add_command(ChampionshipGroup())
        for group in game_groups(units()):
            self.tree.add_command(group)

    async def setup_hook(self) -> None:
        await self.tree.set_translator(JunkyardTranslator())  # the German command names `junkyard sync` sends
        await self.store.open()
        await self.timers.open()
        self.add_dynamic_items(ActionButton, RuleButton)
        # the picture processes start with the catch-up work, after the first interactions (pictures are
        # drawn in threads until then): starting processes takes the cores the first answers need
        self.service.pictures.start_on_use = False

    @property
    def computer_tasks(self) -> dict[int, asyncio.Task[None]]:
        """The running computer moves of each channel."""
        return self.computers.tasks

    async def deliver(self, accepted: Accepted) -> None:
        """Deliver what the service accepted without an interaction (computers' moves, timers) through the
        channel, and its private notes by direct message."""
        await self.outbox.deliver(accepted.deliveries)
        for note in accepted.private:  # a computer's move told a person something (a tile picked up)
            await direct_message(self, note)

    async def close(self) -> None:
        tasks = [*self._background, *self._tasks]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.computers.close()
        self._background.clear()
        try:
            await super().close()
        finally:
            await self.service.close()
            await self.store.close()

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s) in %d servers", self.user, self.user and self.user.id, len(self.guilds))
        self.start_background()

    def start_background(self) -> None:
        """Start, once, the outbox worker and the queue of games waiting on computers. Nothing is loaded
        here: the bot serves at once, whatever the number of games; each game loads when touched."""
        if self._background:
            return
        loop = asyncio.get_running_loop()
        self._background.append(loop.create_task(self.outbox.run(), name="junkyard-outbox"))
        self._background.append(loop.create_task(self._later(self._start_pictures), name="junkyard-pictures"))
        self._background.append(loop.create_task(self._later(self._settle_ends), name="junkyard-ends"))
        self._background.append(loop.create_task(self._later(self.resume_computers), name="junkyard-resume"))
        self._background.append(loop.create_task(self._later(self.timers.run), name="junkyard-timers"))
        self._background.append(loop.create_task(self._later(self._schedules), name="junkyard-schedules"))
        self._background.append(loop.create_task(self._later(self._prepare_lookup), name="junkyard-lookup"))

    async def _settle_ends(self) -> None:
        """Record the ends a stop left unrecorded; the outbox posts their end messages at once."""
        if await history.settle_ends(self.service):
            self.outbox.look_now()

    async def _schedules(self) -> None:
        """Open the championship rounds whose schedule fell due, looking every :data:`SCHEDULE_SECONDS` (the
        store decides what is due, so a restart neither loses nor doubles a round)."""
        while True:
            try:
                if await self.service.championships.open_due(time.time()):
                    self.outbox.look_now()
            except Exception:
                log.exception("the championships' schedules could not be looked at")
            await asyncio.sleep(SCHEDULE_SECONDS)

    async def _prepare_lookup(self) -> None:
        """Build the rule lookup of every game and language in a thread, one at a time, so that no first
        `/rules` question waits for it (and the loop is never held while it is built)."""
        lookup = lookup_module()
        for game in lookup.all_games():
            for lang in lookup.languages(game):
                await asyncio.to_thread(lookup.prepare, game, lang)

    async def _start_pictures(self) -> None:
        self.service.pictures.start()

    async def _later(self, work: Callable[[], Awaitable[Any]]) -> Any:
        """``work`` once :attr:`catch_up_after` seconds have passed: catching up on what a stop left behind
        (computers' moves, ends to record, turns to time) waits, so the first interactions after READY get
        the loop and the cores to themselves."""
        await asyncio.sleep(self.catch_up_after)
        return await work()

    async def resume_computers(self) -> None:
        """Games left waiting for a computer player (the bot stopped mid-sequence) play on, a few at a time,
        once the boards a crash left behind are out."""
        if self._background:
            await self.outbox.caught_up.wait()
        await self.computers.resume()

    def _soon(self, work: Awaitable[Any], name: str) -> None:
        """Run ``work`` in a task of its own, kept until it ends (its failure is logged)."""
        task = asyncio.get_running_loop().create_task(self._logged(work), name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @staticmethod
    async def _logged(work: Awaitable[Any]) -> None:
        try:
            await work
        except Exception:
            log.exception("background work failed")

    def _ended(self, game_id: int, channel_id: int) -> None:
        """A game ended: its thread, if it has one, is archived once its last messages are out."""
        self._soon(archive_when_done(self, game_id, channel_id), "junkyard-archive")

    def wake_channels(self, channels: Callable[[int], bool] = lambda channel: True) -> None:
        """The bot's permissions changed somewhere: what waits for the channels ``channels`` picks is tried now."""
        self._soon(self.outbox.wake_all(channels), "junkyard-wake")

    async def on_guild_channel_update(self, before: Any, after: Any) -> None:
        """A channel's permissions may have changed: its messages, and its threads', are tried again."""
        guild = getattr(after, "guild", None)
        self.wake_channels(lambda channel: guild is None or self._in_guild(channel, guild.id))

    async def on_guild_role_update(self, before: Any, after: Any) -> None:
        """A role's permissions changed: the messages waiting in its server are tried again."""
        guild = getattr(after, "guild", None)
        self.wake_channels(lambda channel: guild is None or self._in_guild(channel, guild.id))

    async def on_member_update(self, before: Any, after: Any) -> None:
        """The bot got (or lost) a role: the messages waiting in that server are tried again."""
        if self.user is not None and after.id == self.user.id:
            self.wake_channels(lambda channel: self._in_guild(channel, after.guild.id))

    async def on_thread_update(self, before: Any, after: Any) -> None:
        """A thread was reopened: what waits for it is posted now."""
        if getattr(before, "archived", False) and not getattr(after, "archived", True):
            thread_id = after.id
            self.wake_channels(lambda channel: channel == thread_id)

    def _in_guild(self, channel_id: int, guild_id: int) -> bool:
        """Whether a channel or thread is in server ``guild_id`` (when the cache does not know it: yes, the
        look costs one read)."""
        channel = self.get_channel(channel_id)
        guild = getattr(channel, "guild", None)
        return guild is None or guild.id == guild_id

    async def on_interaction(self, interaction: Interaction) -> None:
        """Any interaction in a channel delivers first what waits there (the bot may post again); a press of a
        component nothing here answers (a custom_id no game sent) gets a short private answer."""
        if interaction.channel_id is not None and interaction.type in (
                discord.InteractionType.application_command, discord.InteractionType.component):
            self._soon(self.outbox.wake(interaction.channel_id), "junkyard-wake")
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        cid = data.get("custom_id")
        if isinstance(cid, str) and self._answered_by_views(interaction, cid):
            return
        log.info("a press of a button no game sent: %s", clip_input(cid, LOGGED_INPUT))
        await answer_privately(interaction, texts.say("move.foreign_button", texts.language(interaction.locale)))

    def _answered_by_views(self, interaction: Interaction, cid: str) -> bool:
        """Whether discord.py will hand this press to a dynamic item or a stored view."""
        store = self._connection._view_store
        message = interaction.message
        on_message = message is not None and any(
            getattr(child, "custom_id", None) == cid
            for row in message.components for child in getattr(row, "children", [row]))
        patterns: dict[re.Pattern[str], Any] = getattr(store, "_dynamic_items", {})
        if on_message and any(p.fullmatch(cid) for p in patterns):
            return True
        views: dict[Any, dict[Any, Any]] = getattr(store, "_views", {})
        for key in (message.id if message is not None else None, None):
            if any(k[1] == cid for k in views.get(key, {})):
                return True
        return False
