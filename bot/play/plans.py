"""Moves a person's seat plays by itself: forced moves (nothing to decide) and the player's plan made ahead.

Both are the player's own moves, played for them by the computer worker (:mod:`bot.play.computers`) the way it
plays a computer seat's: the move that leaves one to play says so in its transaction (the resume queue), so
a restart neither loses nor repeats one, and a plan's step is stored with the move that plays it, in one
transaction (:class:`~bot.store.SettingsWrite`), or not at all.

- A **forced move** is the game's to name (its unit's :attr:`~bot.games.GameUnit.selfplay`); each player may turn
  them off (:data:`AUTO` in their user settings, for all games or one).
- A **plan** is kept per player and game (settings scope :data:`PLAN`): queued actions in the game's
  notation or its shorthands, played in order while their turn lasts and each is legal (the game's ``apply``
  decides), stopping at the first that is not, with the reason kept for the player; and the game's ready-made
  items (``selfplay.items``), played whenever they apply. An item belongs to the player who queued it: when
  it is queued it is only read (``selfplay.plan_item``), never worked out against the seat then to act; it
  becomes a move of the planner's own piece when it plays (the unit's ``expand``, then the game's parse).

:func:`next_move` decides what plays next; it reads nothing but what it is given.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from bot import texts
from bot.games import GameUnit, fuzzy
from bot.store import ACTIVE, GameRecord, Reads, SettingKey, SettingsWrite, Store
from bot.telling.outcomes import Refusal
from rules.contract import Game, IllegalAction

#: the settings scope of plans: owner the player, target the game
PLAN = "plan"
#: the user setting that turns forced moves off (False); on by default
AUTO = "auto"
#: whether forced moves play themselves for a player who never said
AUTO_DEFAULT = True
#: the most actions one plan queues
MAX_ITEMS = 20
#: the longest one queued action may be (as long as ``/game play`` takes)
MAX_ITEM_CHARS = 200
#: how much of an over-long item a refusal quotes back
QUOTE_CHARS = 40

Kind = Literal["forced", "plan", "standing"]


@dataclass(frozen=True, slots=True)
class Plan:
    """A player's plan in one game: ``items`` queued in order, the ready-made ``standing`` items, and how
    the last run stopped (``stopped``: the item and the reason in the player's language), if it did."""

    items: tuple[str, ...] = ()
    standing: tuple[str, ...] = ()
    stopped: Mapping[str, str] | None = None

    @property
    def empty(self) -> bool:
        return not self.items and not self.standing

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"items": list(self.items), "standing": list(self.standing)}
        if self.stopped is not None:
            out["stopped"] = dict(self.stopped)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Plan:
        stopped = data.get("stopped")
        return cls(tuple(str(i) for i in data.get("items", ())), tuple(str(i) for i in data.get("standing", ())),
                   {str(k): str(v) for k, v in stopped.items()} if isinstance(stopped, Mapping) else None)

    def write(self, user_id: int, game_id: int) -> SettingsWrite:
        """This plan as the settings row of ``user_id`` in game ``game_id``."""
        return SettingsWrite(PLAN, user_id, game_id, self.to_dict())


@dataclass(frozen=True, slots=True)
class AutoMove:
    """What plays next for a person: ``action`` (its ``kind``, and for a forced move why it plays itself,
    for a standing item its name), the plan as it stands once the move is stored (None: unchanged), and for
    a queued item the ``item`` as the player queued it (``action`` is what it stands for now)."""

    action: str
    kind: Kind
    why: str = ""
    plan: Plan | None = None
    item: str = ""


async def load_plan(store: Store, user_id: int, game_id: int) -> Plan:
    return Plan.from_dict(await store.settings.get_settings(PLAN, user_id, game_id))


async def save_plan(store: Store, user_id: int, game_id: int, plan: Plan) -> None:
    await store.settings.put_settings(PLAN, user_id, game_id, plan.to_dict())


async def auto_on(store: Reads, user_id: int, game_id: int) -> bool:
    """Whether forced moves play themselves for ``user_id`` in the game: the game's own choice over the one
    for all their games; on unless turned off."""
    return _auto(*await store.settings.settings_of(_choice_keys(user_id, game_id)))


def keys_of(user_id: int, game_id: int) -> list[SettingKey]:
    """The rows a move reads for a person seated: their plan, then their choices (this game's, all games')."""
    return [(PLAN, user_id, game_id), *_choice_keys(user_id, game_id)]


async def plan_and_auto(store: Reads, user_id: int, game_id: int) -> tuple[Plan, bool]:
    """The player's plan in the game and :func:`auto_on`, in one read (a move asks for both)."""
    plan, *choices = await store.settings.settings_of(keys_of(user_id, game_id))
    return Plan.from_dict(plan), _auto(*choices)


def _choice_keys(user_id: int, game_id: int) -> list[tuple[str, int, int]]:
    """Where the player's choices live, nearest first: for this game, then for all their games."""
    return [("user", user_id, game_id), ("user", user_id, 0)]


def _auto(*choices: Mapping[str, Any]) -> bool:
    """The first of the player's choices (nearest first) that says whether forced moves play themselves."""
    return next((bool(c[AUTO]) for c in choices if AUTO in c), AUTO_DEFAULT)


async def set_auto(store: Store, user_id: int, target: int, on: bool) -> None:
    """Turn forced moves on or off for ``user_id`` in one game (``target``) or all (0)."""
    data = await store.settings.get_settings("user", user_id, target)
    data[AUTO] = on
    await store.settings.put_settings("user", user_id, target, data)


def next_move(unit: GameUnit[Any], game: Game, seat: int, plan: Plan, auto: bool) -> AutoMove | None:
    """What plays itself for ``seat`` now (it is to act): the plan's first item, unless the one forced move
    must come first; else a standing item that applies; else the forced move (when ``auto``); None: the
    player decides. A queued item is worked out here for ``seat``'s own piece (its shorthand expanded); the
    game checks it when it is played."""
    forced = unit.selfplay.forced_move(game, seat) if auto else None
    if plan.items:
        first = plan.items[0]
        worked = unit.expand(game, first) if game.to_act == seat and not game.is_over else first
        if forced is not None and normal(game, worked) != forced.action:
            return AutoMove(forced.action, "forced", forced.why)
        return AutoMove(worked, "plan", plan=Plan(plan.items[1:], plan.standing), item=first)
    for name in plan.standing:
        item = unit.selfplay.item(name)
        action = item.choose(game, seat) if item is not None and game.to_act == seat and not game.is_over else None
        if action is not None:
            once = item is None or item.once
            rest = tuple(n for n in plan.standing if n != name) if once else plan.standing
            return AutoMove(action, "standing", name, Plan((), rest) if once else None)
    if forced is not None:
        return AutoMove(forced.action, "forced", forced.why)
    return None


def normal(game: Game, text: str) -> str | None:
    """An action as the game writes it (None: it does not parse)."""
    try:
        return str(game.parse_action(text))
    except (IllegalAction, ValueError):
        return None


def check_items(unit: GameUnit[Any], game: Game, items: Sequence[str]) -> list[str]:
    """Queued items as they are kept (:meth:`~bot.games.SelfPlay.plan_item`: read, not worked out against
    the seat now to act); raises IllegalAction for one that is neither the game's notation nor a shorthand."""
    return [unit.selfplay.plan_item(game, i.strip()) for i in items if i.strip()]


def quote(text: str) -> str:
    """The start of what a player typed, short enough to quote back in one line."""
    flat = " ".join(text.split())
    return flat if len(flat) <= QUOTE_CHARS else flat[:QUOTE_CHARS] + "…"


# The player's commands ---------------------------------------------------------------------------


class Planner(Protocol):
    """What plans and forced moves are set through (the service is one): the store, the game units, the
    channel's game and the asker's seat in it, the asker's language, and the resume queue of a game whose
    plan changed during its player's turn."""

    @property
    def store(self) -> Store: ...

    @property
    def fronts(self) -> Callable[[str], GameUnit[Any]]: ...

    async def current(self, channel_id: int, user_id: int | None = None
                      ) -> tuple[GameRecord | None, Game | None, int | None]: ...

    def lang_of(self, rec: GameRecord, user_id: int | None, lang: str | None) -> str: ...

    async def autoplay_due(self, rec: GameRecord, channel_id: int) -> None: ...


async def _seat(planner: Planner, channel_id: int, user_id: int, lang: str | None
                ) -> tuple[GameRecord, Game, int, str] | Refusal:
    """The channel's running game, the asker's seat and language, or why there is none."""
    rec, game, seat = await planner.current(channel_id, user_id)
    own = lang or texts.DEFAULT
    if rec is None:
        return Refusal(texts.say("plan.no_game", own))
    own = planner.lang_of(rec, user_id, lang)
    if rec.status != ACTIVE or game is None:
        return Refusal(texts.say("plan.not_running", own))
    if seat is None:
        return Refusal(texts.say("plan.no_seat", own))
    return rec, game, seat, own


def describe(unit: GameUnit[Any], plan: Plan, lang: str) -> str:
    """A plan in words, for its player alone."""
    lines = []
    if plan.items:
        lines.append(texts.say("plan.queued", lang, items=", ".join(f"`{i}`" for i in plan.items)))
    if plan.standing:
        lines.append(texts.say("plan.standing", lang,
                               items="; ".join(label(unit, n, lang) for n in plan.standing)))
    if not lines:
        lines.append(texts.say("plan.empty", lang))
    if plan.stopped is not None:
        lines.append(texts.say("plan.stopped", lang, item=plan.stopped.get("item", ""),
                               reason=plan.stopped.get("reason", "")))
    return "\n".join(lines)


async def plan_command(planner: Planner, channel_id: int, user_id: int, *, add: str | None = None,
                       standing: str | None = None, clear: bool = False, lang: str | None = None) -> str | Refusal:
    """``/game plan``: queue ``add`` (actions in the game's notation, separated by ``;``), add the ready-made
    item ``standing``, or ``clear`` the plan; then show it. Private to the asker. When it is their turn, what
    was queued plays at once."""
    found = await _seat(planner, channel_id, user_id, lang)
    if isinstance(found, Refusal):
        return found
    rec, game, seat, own = found
    unit = planner.fronts(rec.game_key)
    plan = await load_plan(planner.store, user_id, rec.id)
    if clear:
        plan = Plan()
    if add:
        added = _add(unit, game, plan, add, own)
        if isinstance(added, Refusal):
            return added
        plan = added
    if standing:
        names = [i.name for i in unit.selfplay.items]
        if standing not in names:
            offered = "; ".join(f"`{n}` ({label(unit, n, own)})" for n in names)
            return Refusal(texts.say("plan.no_such_item" if names else "plan.no_items", own, item=standing,
                                     items=offered))
        plan = Plan(plan.items, plan.standing if standing in plan.standing else (*plan.standing, standing))
    if clear or add or standing:
        await save_plan(planner.store, user_id, rec.id, plan)
        if game.to_act == seat and not plan.empty:
            await planner.autoplay_due(rec, channel_id)
    return describe(unit, plan, own)


def _add(unit: GameUnit[Any], game: Game, plan: Plan, add: str, lang: str) -> Plan | Refusal:
    """``plan`` with the items of ``add`` (separated by ``;`` or lines) queued after its own, or why not."""
    typed = [i.strip() for i in add.replace("\n", ";").split(";") if i.strip()]
    if len(plan.items) + len(typed) > MAX_ITEMS:
        return Refusal(texts.say("plan.too_long", lang, max=MAX_ITEMS))
    long = next((i for i in typed if len(i) > MAX_ITEM_CHARS), None)
    if long is not None:
        return Refusal(texts.say("plan.item_too_long", lang, item=quote(long), max=MAX_ITEM_CHARS))
    try:
        items = check_items(unit, game, typed)
    except IllegalAction as exc:
        return Refusal(texts.say("plan.bad_item", lang, reason=unit.refusal(exc, lang=lang)))
    return Plan((*plan.items, *items), plan.standing)


async def auto_command(planner: Planner, channel_id: int, user_id: int, on: bool, *, everywhere: bool = False,
                       lang: str | None = None) -> str | Refusal:
    """``/game auto``: forced moves play themselves for the asker (``on``) or wait for them, in this
    channel's game (from its lobby on) or in all their games."""
    if everywhere:
        await set_auto(planner.store, user_id, 0, on)
        return texts.say("auto.on" if on else "auto.off", lang or texts.DEFAULT,
                         where=texts.say("auto.everywhere", lang or texts.DEFAULT))
    rec, game, seat = await planner.current(channel_id, user_id)
    if rec is None:
        return Refusal(texts.say("auto.no_game", lang or texts.DEFAULT))
    own = planner.lang_of(rec, user_id, lang)
    if seat is None:
        return Refusal(texts.say("plan.no_seat", own))
    await set_auto(planner.store, user_id, rec.id, on)
    if on and game is not None and game.to_act == seat:
        await planner.autoplay_due(rec, channel_id)
    return texts.say("auto.on" if on else "auto.off", own, where=texts.say("auto.this_game", own))


async def plan_choices(planner: Planner, channel_id: int, user_id: int, typed: str, lang: str | None = None
                       ) -> list[tuple[str, str]]:
    """Autocomplete for ``/game plan add``: what could be legal at the start of the asker's next turn (the
    game's openers), after what they already queued."""
    found = await _seat(planner, channel_id, user_id, lang)
    if isinstance(found, Refusal):
        return []
    rec, game, seat, _ = found
    head = typed.rpartition(";")[0]
    prefix = f"{head.strip()}; " if head.strip() else ""
    pairs = [(f"{prefix}{a}", f"{prefix}{a}") for a in planner.fronts(rec.game_key).selfplay.plan_openers(game, seat)]
    return fuzzy(pairs, typed)


def standing_choices(unit: GameUnit[Any], typed: str, lang: str) -> list[tuple[str, str]]:
    """Autocomplete for ``/game plan standing``: the game's ready-made items, named in ``lang``."""
    return fuzzy([(i.label(lang), i.name) for i in unit.selfplay.items], typed)


def label(unit: GameUnit[Any], name: str, lang: str) -> str:
    """A ready-made plan item of the game named in ``lang`` (its name when the game no longer offers it)."""
    item = unit.selfplay.item(name)
    return item.label(lang) if item is not None else name


__all__ = [
    "AUTO",
    "MAX_ITEMS",
    "MAX_ITEM_CHARS",
    "PLAN",
    "AutoMove",
    "Plan",
    "auto_command",
    "auto_on",
    "check_items",
    "describe",
    "load_plan",
    "next_move",
    "normal",
    "plan_choices",
    "plan_command",
    "quote",
    "save_plan",
    "set_auto",
    "standing_choices",
]
