"""While you were away: what a player missed since their last own move, for their eyes only.

- **Presence** is the player's own moves: each move a person plays themselves (not the autopilot, a forced
  move or a plan) stores, in its own transaction, the move it made and when (settings scope :data:`SEEN`);
  without one, the player was last there when the game was opened.
- **The offer**: when a new turn's message names a person who has been gone longer than the game's
  ``recap_after`` hours (:mod:`bot.clock.settings`; 0: never), the record stores their seat, the move of their last
  own move and the move their turn begins at (``Showing.recap``), and the message carries "What did I miss?"
  (:func:`bot.telling.compose.recap_button`). The record is stored with the move, so a restart loses nothing and the
  outbox posts the message once, as any other.
- **The answer** is worked out when asked, from the action log: the game rebuilt up to the player's last own
  move and up to their turn, the events of the moves between as their seat may see them. Their place then and
  now, what the others' moves did to them, how many moves were played for them, and what they hold: never
  another player's hidden things (each event is the player's view of it, the holdings are their own).
  Only that player gets it (the button answers anyone else with a refusal), privately; ``/game recap``
  answers the same at any time.
- **The replay** of exactly those moves is the game's own animated replay from the player's last own move on
  (one frame for the board as they left it, one after each move), drawn from public views only.

Nothing here is kept in memory between calls.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from bot import texts
from bot.clock.settings import game_settings
from bot.games import ButtonSpec, GameUnit
from bot.messages import POST, Showing
from bot.store import ACTIVE, ActionRecord, GameRecord, Reads, SettingKey, SettingsWrite, Store
from bot.telling.compose import MAX_REPLAY_BYTES, RECAP_ACTION, REPLAY_SIZES, Message, Moved, with_recap
from bot.telling.outcomes import Refusal
from rules.contract import Event, Game, events_for
from rules.literal import Person

#: the settings scope of presence: owner the player, target the game; ``{"version": …, "at": …}``
SEEN = "seen"
#: the action of the recap's "Replay these moves" (``?recap-gif:<seat>:<since>:<until>``)
REPLAY_ACTION = "?recap-gif"
#: the most characters of what hit a player a recap tells (the newest kept)
HITS_CHARS = 1100

Span = tuple[int, int, int]


# Presence ---------------------------------------------------------------------------------------


def keys_of(user_id: int, game_id: int) -> list[SettingKey]:
    """The rows a move reads for a person seated: when they last played."""
    return [(SEEN, user_id, game_id)]


def seen(store: Reads, user_id: int, game_id: int, version: int) -> SettingsWrite:
    """The row that says ``user_id`` played the game's move up to ``version`` themselves, now; stored with
    that move."""
    return SettingsWrite(SEEN, user_id, game_id, {"version": version, "at": store.now()})


async def last_seen(store: Reads, rec: GameRecord, user_id: int) -> tuple[int, float]:
    """The move after the player's last own move and when it was played; (0, the game's opening) without
    one. A move since taken back counts as the log's end."""
    data = await store.settings.get_settings(SEEN, user_id, rec.id)
    if "version" not in data:
        return 0, rec.created_at
    return min(int(data["version"]), rec.version), float(data.get("at", rec.created_at))


async def away_hours(store: Reads, rec: GameRecord) -> int:
    """The game's ``recap_after`` in force (its own, its server's, the default)."""
    return int((await game_settings(store, rec))["recap_after"])


async def flag(store: Reads, rec: GameRecord, record: Showing, until: int) -> Showing:
    """``record`` (of a move that leaves the game at move ``until``) offering its named person a recap when it
    is a new turn's message and they have been gone longer than the game's setting; else unchanged."""
    if record.kind != POST or record.named is None or record.recap is not None:
        return record
    seat = rec.seat_of(record.named)
    hours = await away_hours(store, rec)
    if seat is None or hours <= 0:
        return record
    since, at = await last_seen(store, rec, record.named)
    if since >= until or store.now() - at < hours * 3600.0:
        return record
    return replace(record, recap=(seat, since, until))


async def flag_move(store: Reads, rec: GameRecord, moved: Moved) -> Moved:
    """A person's move whose newest record now offers a recap when :func:`flag` says so (its message, composed
    with the move, carries the button too)."""
    kind, payload = moved.rows[-1]
    record = Showing.from_payload(kind, payload)
    flagged = await flag(store, rec, record, rec.version + 1)
    if flagged.recap is None:
        return moved
    rows = [*moved.rows[:-1], (kind, {**payload, "recap": list(flagged.recap)})]
    buttons = with_recap(moved.message.buttons, flagged.recap, rec.lang)
    return replace(moved, rows=rows, message=replace(moved.message, buttons=buttons))


class Recapper(Protocol):
    """What a recap is told with (the service is one): the store, the game classes and units and the asker's
    language."""

    @property
    def store(self) -> Store: ...

    @property
    def classes(self) -> Callable[[str], type[Game]]: ...

    @property
    def fronts(self) -> Callable[[str], GameUnit[Any]]: ...

    def lang_of(self, rec: GameRecord, user_id: int | None, lang: str | None) -> str: ...


# What was missed --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Missed:
    """What ``seat`` missed between move ``since`` and ``until``: the game at both, each move's events as the
    seat may see them, and which of those moves were its own (played for it)."""

    seat: int
    since: int
    until: int
    then: Game
    now: Game
    moves: tuple[tuple[int | None, tuple[Event, ...]], ...]

    @property
    def played_for(self) -> int:
        return sum(1 for mover, _ in self.moves if mover == self.seat)

    def hits(self) -> list[list[Event]]:
        """Per move of another seat, the events that concern ``seat`` (a bump, a hit, a pawn sent home)."""
        out = []
        for mover, events in self.moves:
            own = [e for e in events if e.seat == self.seat]
            if mover != self.seat and own:
                out.append(own)
        return out


def missed(cls: type[Game], setup: Mapping[str, Any], seed: int, log: Sequence[ActionRecord], seat: int,
           since: int, until: int) -> Missed:
    """The game rebuilt from its log: at ``since``, at ``until``, and the moves between as ``seat`` sees them."""
    game = cls.create(dict(setup), seed)
    for a in log[:since]:
        game.apply(a.action)
    then = cls.from_dict(game.to_dict())
    moves = []
    for a in log[since:until]:
        moves.append((a.seat, tuple(events_for(game.apply(a.action), seat))))
    return Missed(seat, since, until, then, game, tuple(moves))


def place(unit: GameUnit[Any], game: Game, seat: int) -> int:
    """``seat``'s place in the game's standings as they stand (1 first)."""
    order = [s for s, _ in unit.standings(game).rows]
    return order.index(seat) + 1 if seat in order else len(order) + 1


def lines(unit: GameUnit[Any], m: Missed, lang: str, hours: float) -> list[str]:
    """What ``m.seat``'s player missed, as lines in ``lang``: how much, their place then and now, what the
    others' moves did to them, what was played for them, and what they hold now (their own hidden things)."""
    out = [texts.say("recap.heading", lang, count=m.until - m.since, hours=max(1, round(hours)))]
    before, after = place(unit, m.then, m.seat), place(unit, m.now, m.seat)
    where = texts.ordinal(after, lang)
    if after < before:
        out.append(texts.say("recap.gained", lang, count=before - after, place=where))
    elif after > before:
        out.append(texts.say("recap.lost", lang, count=after - before, place=where))
    else:
        out.append(texts.say("recap.kept", lang, place=where))
    told = [t for t in (unit.narrate(h, lang=lang) for h in m.hits()) if t]
    while len(" ".join(told)) > HITS_CHARS and len(told) > 1:
        told = told[1:] if told[0] == "…" else ["…", *told[2:]]
    out.append(texts.say("recap.hit", lang, what=" ".join(told)) if told else texts.say("recap.not_hit", lang))
    if m.played_for:
        out.append(texts.say("recap.played_for", lang, count=m.played_for))
    held = unit.hand_text(m.now, m.seat, lang=lang)
    if held:
        out.append(texts.say("recap.holds", lang, what=held))
    return out


def replay_gif(unit: GameUnit[Any], setup: Mapping[str, Any], seed: int, actions: Sequence[str], since: int,
               until: int, lang: str) -> tuple[bytes, int] | None:
    """The game's replay of exactly the moves ``since``..``until`` (public views), at the largest size that
    fits; None when the game draws none or it does not fit."""
    if not unit.has_replay:
        return None
    for size in REPLAY_SIZES:
        made = unit.replay(setup, seed, list(actions[:until]), size, lang=lang, start=since)
        if made is None or len(made[0]) <= MAX_REPLAY_BYTES:
            return made
    return None


# Asking ------------------------------------------------------------------------------------------


def is_recap(action: str) -> bool:
    """Whether a button's action asks for a recap (it plays nothing)."""
    return action.partition(":")[0] in (RECAP_ACTION, REPLAY_ACTION)


def parse(action: str) -> tuple[str, Span] | None:
    """A recap button's action as (its kind, (seat, since, until)); None when it is none or damaged."""
    kind, _, rest = action.partition(":")
    parts = rest.split(":")
    if kind not in (RECAP_ACTION, REPLAY_ACTION) or len(parts) != 3 or not all(p.isdigit() for p in parts):
        return None
    seat, since, until = (int(p) for p in parts)
    return kind, (seat, since, until)


async def _asker(recapper: Recapper, channel_id: int, user_id: int, game_id: int | None, lang: str | None
                 ) -> tuple[GameRecord, int, str] | Refusal:
    """The channel's running game (the one asked of), the asker's seat and language, or why there is none."""
    rec = await recapper.store.games.channel_game(channel_id)
    own = lang or texts.DEFAULT
    if rec is None or rec.status != ACTIVE or rec.state is None or (game_id is not None and rec.id != game_id):
        return Refusal(texts.say("recap.no_game", own))
    own = recapper.lang_of(rec, user_id, lang)
    seat = rec.seat_of(user_id)
    if seat is None:
        return Refusal(texts.say("recap.no_seat", own))
    return rec, seat, own


async def _span_now(store: Store, rec: GameRecord, seat: int, user_id: int) -> Span:
    """What ``/game recap`` covers: the live turn's recap when it is the asker's, else since their last own
    move."""
    latest = await store.outbox.latest_delivery(rec.id)
    offered = Showing.from_payload(latest.kind, latest.payload).recap if latest is not None else None
    if offered is not None and offered[0] == seat and offered[2] <= rec.version:
        return offered
    since, _ = await last_seen(store, rec, user_id)
    return seat, since, rec.version


async def answer(recapper: Recapper, channel_id: int, user_id: int, *, action: str | None = None,
                 game_id: int | None = None, gif: bool = False, lang: str | None = None) -> Message | Refusal:
    """What the asker missed, for them alone: the answer to a "What did I miss?" press (``action``, of game
    ``game_id``; only its player may press it) or to ``/game recap`` (``gif``: with the replay at once)."""
    found = await _asker(recapper, channel_id, user_id, game_id, lang)
    if isinstance(found, Refusal):
        return found
    rec, seat, own = found
    span = await _span_now(recapper.store, rec, seat, user_id)
    if action is not None:
        parsed = parse(action)
        if parsed is None or not 0 <= parsed[1][0] < len(rec.seats):
            return Refusal(texts.say("move.foreign_button", own))
        if parsed[1][0] != seat:
            theirs = rec.seats[parsed[1][0]]
            return Refusal(texts.say("recap.not_yours", own, user=Person(theirs.user_id, theirs.name)))
        gif, span = gif or parsed[0] == REPLAY_ACTION, parsed[1]
    log = await recapper.store.games.actions(rec.id)
    _, since, until = span
    until = min(until, len(log))
    if since >= until:
        return Refusal(texts.say("recap.nothing", own))
    return await _told(recapper, rec, (seat, since, until), log, gif, own)


async def _told(recapper: Recapper, rec: GameRecord, span: Span, log: Sequence[ActionRecord], gif: bool, lang: str
                ) -> Message | Refusal:
    """The recap's message (with the replay when ``gif``, else a button that asks for it), made off the event
    loop."""
    seat, since, until = span
    unit, cls = recapper.fronts(rec.game_key), recapper.classes(rec.game_key)
    hours = (log[until - 1].at - (log[since - 1].at if since else rec.created_at)) / 3600.0

    def work() -> tuple[list[str], tuple[bytes, int] | None]:
        m = missed(cls, rec.setup, rec.seed, log, seat, since, until)
        words = lines(unit, m, lang, hours)
        made = replay_gif(unit, rec.setup, rec.seed, [a.action for a in log], since, until, lang) if gif else None
        return words, made

    words, made = await asyncio.to_thread(work)
    if gif and made is None:
        words.append(texts.say("history.no_animation", lang, title=unit.title) if not unit.has_replay
                     else texts.say("history.replay_too_large", lang))
    if made is not None:
        return Message("\n".join(words), made[0], f"recap-{rec.id}-{since}-{until}.gif", game_id=rec.id,
                       version=rec.version, shows="replay",
                       description=texts.say("recap.alt", lang, count=until - since, title=unit.title))
    button = () if gif or not unit.has_replay else (
        ButtonSpec(texts.say("recap.replay_button", lang), f"{REPLAY_ACTION}:{seat}:{since}:{until}"),)
    return Message("\n".join(words), buttons=button, game_id=rec.id, version=rec.version)


__all__ = ["REPLAY_ACTION", "SEEN", "Missed", "answer", "away_hours", "flag", "flag_move", "is_recap", "last_seen",
           "lines", "missed", "parse", "place", "replay_gif", "seen"]
