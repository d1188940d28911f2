"""Slash commands built from commands described as data (:mod:`bot.games.unit`): a game's own group
(``/race``) and the per-game options of ``/game new`` and ``/game join``.

:func:`make_command` turns an option list into a discord.py command: the callback's signature is made
from the options (types, ``Range`` limits, required or not), then the usual decorators add descriptions,
fixed choices and autocomplete. Discord does not enforce ranges on what arrives, so every value is
checked again here (:meth:`Option.check`) before anything else happens.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from typing import Any, Optional

from discord import app_commands

from bot import texts
from bot.discord.buttons import clip, ours_length
from bot.discord.context import Interaction
from bot.discord.replies import send_reply
from bot.discord.translator import option_word
from bot.games import options as opt
from bot.games.unit import ALT_TEXT_CHARS, Ask, Command, GameUnit, Option, Refusal
from bot.play.service import Service, refuse
from bot.telling import outcomes
from bot.telling.compose import Message
from rules.literal import Person, bare

log = logging.getLogger(__name__)

Choice = app_commands.Choice
Run = Callable[[Interaction, dict[str, Any]], Awaitable[None]]
Source = Callable[[Interaction, Option, str], Awaitable[list[tuple[str, str]]]]

MAX_CHOICES = 25


def service_of(interaction: Interaction) -> Service:
    return interaction.client.service


def languages(interaction: Interaction) -> tuple[str, str]:
    """The asker's language (their Discord locale) and the server's (its preferred locale; the asker's in
    a direct message), each ``"de"`` or ``"en"``."""
    own = texts.language(getattr(interaction, "locale", None))
    guild = getattr(interaction, "guild_locale", None)
    return own, texts.language(guild) if guild is not None else own


async def refuse_option(interaction: Interaction, exc: Exception) -> None:
    """A refused option value, privately, the option named as the asker's Discord shows it (``züge``, not
    ``moves``)."""
    lang = user_language(interaction)
    reason: object = exc
    if isinstance(exc, opt.BadOption):
        name = str(exc.params.get("name", ""))
        command = interaction.command.qualified_name if interaction.command is not None else ""
        reason = exc.say(lang, name=option_word(command, name, lang))
    await send_reply(interaction, refuse(texts.say("refused", lang, reason=reason)))


def asker(interaction: Interaction) -> Person:
    """The one who asked, as a person: their id and their display name now."""
    return Person(interaction.user.id, interaction.user.display_name)


def user_language(interaction: Interaction) -> str:
    """The asker's language, for what only they see."""
    return languages(interaction)[0]


async def server_language(interaction: Interaction) -> str:
    """The language the server's channels read: the server's setting (``/game settings scope:server
    language:``), else its Discord's preferred locale (the asker's in a direct message)."""
    guild = languages(interaction)[1]
    timers = getattr(interaction.client, "timers", None)
    if interaction.guild_id is None or timers is None:
        return guild
    return str(await timers.settings.language(interaction.guild_id, guild))


def as_choices(pairs: Sequence[tuple[str, str]]) -> list[Choice[str]]:
    """Autocomplete choices within Discord's limits (25, names and values of at most 100 characters); a
    value too long to send whole is left out rather than cut."""
    fits = [(name, value) for name, value in pairs if 0 < len(value) <= 100]
    return [Choice(name=clip(bare(name or value), 100, ours=ours_length(name or value)), value=value)
            for name, value in fits[:MAX_CHOICES]]


def _annotation(option: Option) -> Any:
    if option.type == "flag":
        base: Any = bool
    elif option.type == "integer":
        base = app_commands.Range[int, option.low, option.high] if option.low is not None and option.high is not None \
            else int
    else:
        base = str
    return base if option.required else Optional[base]  # noqa: UP045 (discord.py reads typing's Optional)


def make_command(name: str, description: str, options: Sequence[Option], run: Run,
                 source: Source | None = None) -> app_commands.Command[Any, ..., Any]:
    """A slash command whose options are ``options``; ``run(interaction, values)`` gets the raw values by
    option name, ``source(interaction, option, current)`` answers autocomplete of options that have one."""

    async def callback(interaction: Interaction, **values: Any) -> None:
        await run(interaction, values)

    params = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                annotation=Interaction)]
    for option in sorted(options, key=lambda o: not o.required):
        params.append(inspect.Parameter(option.name, inspect.Parameter.KEYWORD_ONLY, annotation=_annotation(option),
                                        default=inspect.Parameter.empty if option.required else None))
    callback.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    callback.__name__ = callback.__qualname__ = name.replace("-", "_")
    if options:
        app_commands.describe(**{o.name: o.description[:100] for o in options})(callback)
    fixed = {o.name: [Choice(name=n, value=v) for n, v in o.choices] for o in options if o.choices}
    if fixed:
        app_commands.choices(**fixed)(callback)
    if source is not None:
        completed = {o.name: _completer(o, source) for o in options if o.complete is not None and not o.choices}
        if completed:
            app_commands.autocomplete(**completed)(callback)
    return app_commands.Command(name=name, description=description[:100], callback=callback)


def _completer(option: Option, source: Source
               ) -> Callable[[Interaction, str], Coroutine[Any, Any, list[Choice[str]]]]:
    async def complete(interaction: Interaction, current: str) -> list[Choice[str]]:
        return as_choices(await source(interaction, option, current or ""))

    complete.__name__ = complete.__qualname__ = f"{option.name}_autocomplete"
    return complete


def check_values(options: Sequence[Option], values: Mapping[str, Any]) -> dict[str, Any]:
    """Every option's value checked (None for those not given); raises :class:`BadOption`."""
    return {o.name: o.check(values.get(o.name)) for o in options}


def typed_so_far(interaction: Interaction, options: Sequence[Option]) -> dict[str, Any]:
    """The values of the other options as typed so far (for autocomplete)."""
    return {o.name: getattr(interaction.namespace, o.name, None) for o in options}


class GameCommandGroup(app_commands.Group):
    """A game's own command group (``/race``), built from its :class:`~bot.games.unit.CommandGroup`.

    Each command checks its options, then that the channel plays this game, then builds the action's
    notation from the data's ``play`` (a :class:`Refusal` is answered privately) and hands it to the
    service, which checks turn and legality like every other way of playing."""

    def __init__(self, unit: GameUnit[Any]) -> None:
        spec = unit.commands
        assert spec is not None
        super().__init__(name=spec.name, description=spec.description[:100], guild_only=True)
        self.unit = unit
        self.spec = spec
        for command in spec.commands:
            self.add_command(make_command(command.name, command.description, command.options,
                                          self._runner(command), self._source(command)))

    # Reading the channel -----------------------------------------------------------------------

    async def _state(self, interaction: Interaction) -> tuple[Any, Any, int | None]:
        """The channel's record, running game and the asker's seat, when the channel plays this game."""
        if interaction.channel_id is None:
            return None, None, None
        rec, game, seat = await service_of(interaction).current(interaction.channel_id, interaction.user.id)
        if rec is None or rec.game_key != self.unit.key:
            return None, None, None
        return rec, game, seat

    async def _channel_problem(self, interaction: Interaction) -> outcomes.Refusal | None:
        """A refusal when the channel holds no game of this kind (another game, or none)."""
        assert interaction.channel_id is not None
        rec = await service_of(interaction).store.games.channel_game(interaction.channel_id)
        if rec is None:
            return refuse(self.spec.answer("no_game", user_language(interaction)))
        if rec.game_key != self.unit.key:
            return refuse(texts.say("move.wrong_game", user_language(interaction), game=rec.game_key,
                                    title=self.unit.title))
        return None

    @staticmethod
    def _legal_of(game: Any, seat: int | None) -> Callable[[], list[Any]]:
        def legal() -> list[Any]:
            if game is None or seat is None or game.is_over or not game.may_act(seat):
                return []
            return list(game.legal_actions())

        return legal

    # Commands ----------------------------------------------------------------------------------

    def _runner(self, command: Command) -> Run:
        async def run(interaction: Interaction, values: dict[str, Any]) -> None:
            try:
                checked = check_values(command.options, values)
            except opt.BadOption as exc:
                reason = self._option_refusal(command, exc, user_language(interaction))
                await send_reply(interaction, refuse(texts.say("refused", user_language(interaction), reason=reason)))
                return
            problem = await self._channel_problem(interaction)
            if problem is not None:
                await send_reply(interaction, problem)
                return
            if command.look:
                await self._look(interaction)
            else:
                await self._play(interaction, command, checked)

        return run

    def _option_refusal(self, command: Command, exc: opt.BadOption, lang: str) -> str:
        """Why an option's value is refused, in ``lang``, the option named as that language's Discord shows it
        (``green``; German ``grün``)."""
        name = str(exc.params.get("name", ""))
        words = self.unit.translations.get(lang, {})
        return exc.say(lang, name=words.get(f"{self.spec.name} {command.name} {name}", (name, ""))[0])

    async def _play(self, interaction: Interaction, command: Command, values: dict[str, Any]) -> None:
        assert command.play is not None and interaction.channel_id is not None
        _, game, seat = await self._state(interaction)
        lang = user_language(interaction)
        ask = Ask(game=game, seat=seat, values=values, legal_of=self._legal_of(game, seat), lang=lang)
        try:
            text = await asyncio.to_thread(command.play, ask)  # a long roll's whole moves take a while
        except Refusal as exc:
            await send_reply(interaction, refuse(texts.say("refused", lang, reason=self.unit.refusal(exc, lang))))
            return
        await send_reply(interaction, await service_of(interaction).act(interaction.channel_id,
                                                                       interaction.user.id, text, lang=lang))

    async def _look(self, interaction: Interaction) -> None:
        """The asker's hidden things and player card, only for them."""
        rec, game, seat = await self._state(interaction)
        lang = user_language(interaction)
        if game is None:
            await send_reply(interaction, refuse(self.spec.answer("not_started", lang)))
            return
        if seat is None:
            await send_reply(interaction, refuse(self.spec.answer("no_seat", lang)))
            return
        view = game.view(seat)
        try:
            png = await asyncio.to_thread(self.unit.card_picture, view, seat, lang=lang)
        except Exception:
            log.exception("drawing the player card failed")
            png = None
        text = self.unit.hand_text(game, seat, lang=lang) or texts.say("nothing_hidden", lang)
        await send_reply(interaction, Message(text, png, self.unit.card_filename, game_id=rec.id,
                                              description=text[:ALT_TEXT_CHARS]))

    # Autocomplete ------------------------------------------------------------------------------

    def _source(self, command: Command) -> Source:
        async def source(interaction: Interaction, option: Option, current: str) -> list[tuple[str, str]]:
            assert option.complete is not None
            _, game, seat = await self._state(interaction)
            ask = Ask(game=game, seat=seat, current=current, values=typed_so_far(interaction, command.options),
                      legal_of=self._legal_of(game, seat), lang=user_language(interaction))
            return list(await asyncio.to_thread(lambda: list(option.complete(ask))))  # type: ignore[misc]

        return source


def game_groups(units: Sequence[GameUnit[Any]]) -> list[GameCommandGroup]:
    """The command group of every game that has one."""
    return [GameCommandGroup(unit) for unit in units if unit.commands is not None]
