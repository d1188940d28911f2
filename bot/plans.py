"""Moves a person's seat plays by itself: forced moves (nothing to decide) and the player's plan made ahead.

Both are the player's own moves, played for them by the computer worker (:mod:`bot.computers`) the way it
plays a computer seat's: the move that leaves one to play says so in its transaction (the resume queue), so
a restart neither loses nor repeats one, and a plan's step is stored with the move that plays it, in one
transaction (:class:`~bot.store.SettingsWrite`), or not at all.

- A **forced move** is the game's to name (its unit's :attr:`~bot.games.GameUnit.selfplay`); each player may turn
  them off (:data:`AUTO` in their user settings, for all games or one).
- A **plan** is kept per player and game (settings scope :data:`PLAN`): queued actions in the game's
  notation, played in order while their turn lasts and each is legal (the game's ``apply`` decides), stopping
  at the first that is not, with the reason kept for the player; and the game's ready-made items
  (``selfplay.items``), played whenever they apply.

:func:`next_move` decides what plays next; it reads nothing but what it is given.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from bot import texts
from bot.games import GameUnit, fuzzy
from bot.outcomes import Refusal
from bot.store import ACTIVE, GameRecord, SettingsWrite, Store
from rules.contract import Game, IllegalAction

if TYPE_CHECKING:
    from bot.service import Service

#: the settings scope of plans: owner the player, target the game
PLAN = "plan"
#: the user setting that turns forced moves off (False); on by default
AUTO = "auto"
#: whether forced moves play themselves for a player who never said
AUTO_DEFAULT = True
#: the most actions one plan queues
MAX_ITEMS = 20

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
    for a standing item its name), and the plan as it stands once the move is stored (None: unchanged)."""

    action: str
    kind: Kind
    why: str = ""
    plan: Plan | None = None


async def load_plan(store: Store, user_id: int, game_id: int) -> Plan:
    return Plan.from_dict(await store.settings.get_settings(PLAN, user_id, game_id))


async def save_plan(store: Store, user_id: int, game_id: int, plan: Plan) -> None:
    await store.settings.put_settings(PLAN, user_id, game_id, plan.to_dict())


async def auto_on(store: Store, user_id: int, game_id: int) -> bool:
    """Whether forced moves play themselves for ``user_id`` in the game: the game's own choice over the one
    for all their games; on unless turned off."""
    return _auto(*await store.settings.settings_of(_choice_keys(user_id, game_id)))


async def plan_and_auto(store: Store, user_id: int, game_id: int) -> tuple[Plan, bool]:
    """The player's plan in the game and :func:`auto_on`, in one read (a move asks for both)."""
    plan, *choices = await store.settings.settings_of([(PLAN, user_id, game_id), *_choice_keys(user_id, game_id)])
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
    player decides. A queued item is checked by the game when it is played (:func:`check_item`)."""
    forced = unit.selfplay.forced_move(game, seat) if auto else None
    if plan.items:
        first = plan.items[0]
        if forced is not None and normal(game, first) != forced.action:
            return AutoMove(forced.action, "forced", forced.why)
        return AutoMove(first, "plan", plan=Plan(plan.items[1:], plan.standing))
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


def check_items(game: Game, items: Sequence[str]) -> list[str]:
    """Queued items as the game writes them; raises IllegalAction for one that does not parse."""
    return [str(game.parse_action(i.strip())) for i in items if i.strip()]


# The player's commands ---------------------------------------------------------------------------


async def _seat(service: Service, channel_id: int, user_id: int, lang: str | None
                ) -> tuple[GameRecord, Game, int, str] | Refusal:
    """The channel's running game, the asker's seat and language, or why there is none."""
    rec, game, seat = await service.current(channel_id, user_id)
    own = lang or texts.DEFAULT
    if rec is None:
        return Refusal(texts.say("plan.no_game", own))
    own = service.lang_of(rec, user_id, lang)
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


async def plan_command(service: Service, channel_id: int, user_id: int, *, add: str | None = None,
                       standing: str | None = None, clear: bool = False, lang: str | None = None) -> str | Refusal:
    """``/game plan``: queue ``add`` (actions in the game's notation, separated by ``;``), add the ready-made
    item ``standing``, or ``clear`` the plan; then show it. Private to the asker. When it is their turn, what
    was queued plays at once."""
    found = await _seat(service, channel_id, user_id, lang)
    if isinstance(found, Refusal):
        return found
    rec, game, seat, own = found
    unit = service.fronts(rec.game_key)
    plan = await load_plan(service.store, user_id, rec.id)
    if clear:
        plan = Plan()
    if add:
        try:
            items = check_items(game, add.replace("\n", ";").split(";"))
        except IllegalAction as exc:
            return Refusal(texts.say("plan.bad_item", own, reason=unit.refusal(exc, lang=own)))
        if len(plan.items) + len(items) > MAX_ITEMS:
            return Refusal(texts.say("plan.too_long", own, max=MAX_ITEMS))
        plan = Plan((*plan.items, *items), plan.standing)
    if standing:
        names = [i.name for i in unit.selfplay.items]
        if standing not in names:
            offered = "; ".join(f"`{n}` ({label(unit, n, own)})" for n in names)
            return Refusal(texts.say("plan.no_such_item" if names else "plan.no_items", own, item=standing,
                                     items=offered))
        plan = Plan(plan.items, plan.standing if standing in plan.standing else (*plan.standing, standing))
    if clear or add or standing:
        await save_plan(service.store, user_id, rec.id, plan)
        if game.to_act == seat and not plan.empty:
            await service.autoplay_due(rec, channel_id)
    return describe(unit, plan, own)


async def auto_command(service: Service, channel_id: int, user_id: int, on: bool, *, everywhere: bool = False,
                       lang: str | None = None) -> str | Refusal:
    """``/game auto``: forced moves play themselves for the asker (``on``) or wait for them, in this
    channel's game or in all their games."""
    if everywhere:
        await set_auto(service.store, user_id, 0, on)
        return texts.say("auto.on" if on else "auto.off", lang or texts.DEFAULT,
                         where=texts.say("auto.everywhere", lang or texts.DEFAULT))
    found = await _seat(service, channel_id, user_id, lang)
    if isinstance(found, Refusal):
        return found
    rec, game, seat, own = found
    await set_auto(service.store, user_id, rec.id, on)
    if on and game.to_act == seat:
        await service.autoplay_due(rec, channel_id)
    return texts.say("auto.on" if on else "auto.off", own, where=texts.say("auto.this_game", own))


async def plan_choices(service: Service, channel_id: int, user_id: int, typed: str, lang: str | None = None
                       ) -> list[tuple[str, str]]:
    """Autocomplete for ``/game plan add``: what could be legal at the start of the asker's next turn (the
    game's openers), after what they already queued."""
    found = await _seat(service, channel_id, user_id, lang)
    if isinstance(found, Refusal):
        return []
    rec, game, seat, _ = found
    head = typed.rpartition(";")[0]
    prefix = f"{head.strip()}; " if head.strip() else ""
    pairs = [(f"{prefix}{a}", f"{prefix}{a}") for a in service.fronts(rec.game_key).selfplay.plan_openers(game, seat)]
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
    "save_plan",
    "set_auto",
    "standing_choices",
]
