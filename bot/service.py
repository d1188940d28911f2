"""The game master's flow, shared by every front end (Discord, the terminal, tests).

For an action: find the channel's game → check the user sits there and may act → take the channel's lock
→ apply → store the action, the new snapshot and the delivery record of the public message in one
transaction, expecting the version → draw the picture off the event loop (a process pool, see
:mod:`bot.pictures`) → return a :class:`Reply` that a front end turns into messages and whose delivery it
records (what it cannot post, :mod:`bot.delivery` posts). Games load when touched and stay in a bounded
cache; channel locks live only while held. Nothing here knows about Discord; nothing here knows about any
one game.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import secrets
import socket
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from typing import Any, Generic, TypeVar

from bot import history, texts, turn_messages
from bot.drivers import Driver, driver_for, driver_kinds
from bot.games import ButtonSpec, GameFront, front_for, game_class, playable_keys
from bot.games.unit import takes_lang, worded
from bot.pictures import Pictures
from bot.store import (
    ACTIVE,
    EDIT,
    FINISHED,
    LOBBY,
    ChannelBusy,
    Delivery,
    GameNotFound,
    GameRecord,
    Outgoing,
    Seat,
    StaleVersion,
    Store,
)
from rules.contract import Event, Game, IllegalAction, SetupError

log = logging.getLogger(__name__)
K = TypeVar("K")
V = TypeVar("V")

#: computer moves in one reply; more follow in further replies (see :meth:`Service.play_computers`)
COMPUTER_MOVES_PER_REPLY = 40
#: wall-clock budget for computer moves in one reply, so an interaction is answered in time
COMPUTER_SECONDS_PER_REPLY = 1.5
#: running games kept in memory (least recently used ones are dropped; they load again when touched)
CACHE_SIZE = 512
#: how long the writer of a delivery record holds it before another worker may post it
DELIVERY_LEASE = 120.0


def clip_input(text: object, limit: int = 80) -> str:
    """User input as it may appear in a log line: at most ``limit`` characters, one line."""
    s = " ".join(str(text).split())
    return s if len(s) <= limit else s[: limit - 1] + "…"


@dataclass(slots=True)
class Private:
    """Hidden information for one seat only (a tile drawn, a card in hand)."""

    seat: int
    user_id: int
    text: str
    #: the language ``text`` is in (the words around it follow it)
    lang: str = texts.DEFAULT


@dataclass(slots=True)
class Reply:
    """What a front end should say. ``ephemeral`` replies go only to the asker; ``private`` notes go only
    to the seat they name; ``buttons`` belong to ``game_id`` at ``version``."""

    text: str
    ok: bool = True
    ephemeral: bool = False
    png: bytes | None = None
    filename: str = "board.png"
    mention: int | None = None
    buttons: list[ButtonSpec] = field(default_factory=list)
    private: list[Private] = field(default_factory=list)
    game_id: int | None = None
    version: int | None = None
    #: the board changed (a move, a start): front ends post a fresh message
    changed: bool = False
    #: a button from an older move was pressed: front ends remove that message's buttons
    stale: bool = False
    #: computers are still to move: the front end should call :meth:`Service.play_computers` next
    computers_pending: bool = False
    #: the delivery record of this public message: the front end posts it, then records the message
    #: (:meth:`Service.delivered`); what is not recorded is posted by the outbox worker
    delivery: int | None = None
    #: where the public message goes
    channel_id: int | None = None
    #: the record goes on with a turn's message: the record whose message it edits (None: a new message),
    #: and that message when known (see :mod:`bot.turn_messages`)
    edit_of: int | None = None
    message_id: int | None = None
    #: the picture is the whole board (a new lap or round began), not the close-up
    whole: bool = False


@dataclass(frozen=True, slots=True)
class _After:
    view: dict[str, Any]
    buttons: list[ButtonSpec]
    describe: str
    #: the close-up of the move, drawn where the move was applied (a worker), for a turn's message that shows
    #: no whole board and no computer moves after it; None when not drawn
    png: bytes | None = None


def refuse(text: str, *, stale: bool = False, game_id: int | None = None) -> Reply:
    """A private refusal: what is wrong and what is possible."""
    return Reply(text, ok=False, ephemeral=True, stale=stale, game_id=game_id)


def may_act(game: Game, seat: int) -> bool:
    """Whether ``seat`` may act now: its turn, or the game says so through an optional ``may_act(seat)``."""
    hook = getattr(game, "may_act", None)
    if callable(hook):
        return bool(hook(seat))
    return game.to_act == seat


def after_move(computers: Sequence[bool], front: GameFront, game: Game, lang: str = "en") -> _After:
    """The public view, buttons for the next person to act (none for a computer) and the status line, in
    the game's public language ``lang``."""
    seat = game.to_act
    person = seat is not None and 0 <= seat < len(computers) and not computers[seat]
    buttons = worded(front.turn_buttons, game, seat, lang=lang) if person and seat is not None else []
    return _After(game.view(None), buttons, worded(front.describe, game, None, lang=lang))


def step(key: str, state: dict[str, Any], text: str, computers: Sequence[bool], lang: str = "en"
         ) -> tuple[str, list[Event], dict[str, Any], _After]:
    """A move applied in a worker process to the game rebuilt from its snapshot: the action, its events,
    the new snapshot, and the view, buttons and status line that follow. Raises IllegalAction as apply does."""
    game = game_class(key).from_dict(state)
    action = game.parse_action(text)
    events = game.apply(action)
    front = front_for(key)
    after = after_move(computers, front, game, lang)
    seat = game.to_act
    if not game.is_over and seat is not None and 0 <= seat < len(computers) and not computers[seat]:
        # the picture the turn's message will most likely show, drawn here: one trip to a worker, not two
        public = [e for e in (ev.for_viewer(None) for ev in events) if e is not None]
        try:
            after = replace(after, png=worded(front.picture, after.view, public, lang=lang))
        except Exception:  # a picture is a nicety; the move stands, and the service draws it again
            log.exception("drawing %s in a worker failed", key)
    return str(action), events, game.to_dict(), after


class ChannelLocks:
    """One lock per channel, dropped as soon as nobody holds or waits for it (memory stays bounded)."""

    def __init__(self) -> None:
        self._entries: dict[int, list[Any]] = {}

    def __len__(self) -> int:
        return len(self._entries)

    @asynccontextmanager
    async def hold(self, channel_id: int) -> AsyncIterator[None]:
        entry = self._entries.get(channel_id)
        if entry is None:
            entry = self._entries[channel_id] = [asyncio.Lock(), 0]
        entry[1] += 1
        try:
            async with entry[0]:
                yield
        finally:
            entry[1] -= 1
            if entry[1] == 0 and self._entries.get(channel_id) is entry:
                del self._entries[channel_id]


class LRU(Generic[K, V]):
    """A mapping that keeps at most ``size`` entries, dropping the least recently used."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def get(self, key: K) -> V | None:
        """The entry of ``key`` (now the most recently used), or None."""
        if key in self._items:
            self._items.move_to_end(key)
            return self._items[key]
        return None

    def put(self, key: K, value: V) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)

    def pop(self, key: K) -> V | None:
        """Forget ``key``; its entry, or None."""
        return self._items.pop(key, None)

    def drop(self, which: Callable[[K], bool]) -> None:
        """Forget every entry whose key ``which`` picks."""
        for key in [k for k in self._items if which(k)]:
            del self._items[key]

    def clear(self) -> None:
        self._items.clear()

    def items(self) -> list[tuple[K, V]]:
        """The entries, least recently used first."""
        return list(self._items.items())


class Service:
    """Lobby, play and queries for one-game-per-channel play over a :class:`Store`."""

    def __init__(self, store: Store, *, classes: Callable[[str], type[Game]] = game_class,
                 fronts: Callable[[str], GameFront] = front_for,
                 seed_source: Callable[[], int] = lambda: secrets.randbits(62),
                 drivers: Callable[[str, str, int], Driver] = driver_for,
                 driver_kinds: Callable[[str], list[str]] = driver_kinds, pictures: Pictures | None = None,
                 cache_size: int = CACHE_SIZE) -> None:
        self.store = store
        self.classes = classes
        self.fronts = fronts
        self.seed_source = seed_source
        self.drivers = drivers
        self.driver_kinds = driver_kinds
        self.computer_moves_per_reply = COMPUTER_MOVES_PER_REPLY
        self.computer_seconds_per_reply = COMPUTER_SECONDS_PER_REPLY
        self.pictures = pictures or Pictures(processes=0)
        self._locks = ChannelLocks()
        self._cache: LRU[int, tuple[int, Game]] = LRU(cache_size)
        #: each computer seat's driver, kept between its moves so its plans carry over: (game, seat, kind)
        self._drivers: LRU[tuple[int, int, str], Driver] = LRU(cache_size * 2)
        #: a computer's move that began the next turn, chosen but kept for the next reply: (game, version)
        self._next_moves: LRU[tuple[int, int], str] = LRU(cache_size)
        #: who holds the delivery records this process writes
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        self.delivery_lease = DELIVERY_LEASE
        #: whether a board may ping the player to act (their notice mode and quiet hours); None: always
        self.ping_filter: Callable[[GameRecord, int], bool] | None = None

    async def close(self) -> None:
        """Stop the picture workers (the store is closed by its owner)."""
        await asyncio.to_thread(self.pictures.close)

    # Helpers -----------------------------------------------------------------------------------

    def lock(self, channel_id: int) -> Any:
        """``async with service.lock(channel)``: one writer per channel at a time."""
        return self._locks.hold(channel_id)

    async def load(self, rec: GameRecord) -> Game:
        """The running game of a record, from the cache when it is at the same version."""
        cached = self._cache.get(rec.id)
        if cached is not None and cached[0] == rec.version:
            return cached[1]
        if rec.state is None:
            raise ValueError(f"game {rec.id} has no state yet")
        game = self.classes(rec.game_key).from_dict(rec.state)
        self._cache.put(rec.id, (rec.version, game))
        return game

    def _keep(self, rec: GameRecord, game: Game) -> None:
        self._cache.put(rec.id, (rec.version, game))

    def forget(self, game_id: int, *, drivers: bool = False) -> None:
        self._cache.pop(game_id)
        if drivers:
            self._drivers.drop(lambda key: key[0] == game_id)

    async def current(self, channel_id: int, user_id: int | None = None
                      ) -> tuple[GameRecord | None, Game | None, int | None]:
        """The channel's open game record, its rules object when running, and the user's seat.
        For autocomplete and game command groups; do not mutate the game."""
        rec = await self.store.channel_game(channel_id)
        if rec is None:
            return None, None, None
        game = await self.load(rec) if rec.status == ACTIVE else None
        seat = rec.seat_of(user_id) if user_id is not None else None
        return rec, game, seat

    @staticmethod
    def _no_game(lang: str | None = None) -> Reply:
        """The refusal when the channel has no game, in the asker's language."""
        return refuse(texts.say("lobby.no_game", lang or texts.DEFAULT, games=", ".join(playable_keys())))

    def _can_manage(self, rec: GameRecord, user_id: int, can_manage: bool) -> bool:
        return can_manage or rec.host_id == user_id

    async def _render(self, front: GameFront, view: dict[str, Any], events: Sequence[Event], lang: str = "en"
                      ) -> bytes | None:
        try:
            if takes_lang(front.picture):
                drawn: bytes | None = await self.pictures.call(front.key, front.picture, view, list(events), lang)
                return drawn
            return await self.pictures.draw(front.key, front.picture, view, list(events))
        except Exception:  # a picture is a nicety; the move stands without it
            log.exception("drawing %s failed", front.key)
            return None

    async def _render_turn(self, front: GameFront, view: dict[str, Any], events: Sequence[Event],
                           payload: Mapping[str, Any], lang: str = "en") -> bytes | None:
        """The picture of a turn's message (its words in ``lang``): the whole board when a new period began,
        else the close-up."""
        if not payload.get(turn_messages.WHOLE):
            return await self._render(front, view, events, lang)
        try:
            if takes_lang(front.board_picture):
                return await self.pictures.call(front.key, front.board_picture, view, lang)
            return await self.pictures.call(front.key, front.board_picture, view)
        except Exception:
            log.exception("drawing the whole board of %s failed", front.key)
            return await self._render(front, view, events, lang)

    @staticmethod
    def _period(front: GameFront, game: Game) -> Any:
        hook = getattr(front, "period", None)
        return hook(game) if callable(hook) else None

    async def _plan_turn(self, out: Outgoing, rec: GameRecord, front: GameFront, game: Game, actor: int,
                         lines: list[str]) -> None:
        """Make ``out`` (the record of ``actor``'s move at ``rec.version``, ``game`` after it) an edit of
        ``actor``'s turn's message while it is the newest, else the post of a new one. A move that hands
        the turn to a person posts the message that pings them, which their moves then edit; a computer's
        first move posts its own turn's message (its ping, if any, goes with it)."""
        latest = await self.store.latest_delivery(rec.id)
        pings = self._pings_next(rec, game, actor)
        going = latest is not None and turn_messages.goes_on(latest, actor=actor, version=rec.version)
        if going and not pings:
            assert latest is not None
            turn_messages.as_edit(out, latest, lines)
        else:
            computer = 0 <= actor < len(rec.seats) and rec.seats[actor].is_computer
            turn_messages.as_post(out, latest, turn=game.to_act if pings and (going or not computer) else actor,
                                  period=self._period(front, game))

    @staticmethod
    def _pings_next(rec: GameRecord, game: Game, actor: int) -> bool:
        """Whether a move by ``actor`` handed the turn to a person (whom its message then pings)."""
        nxt = game.to_act
        return (nxt is not None and nxt != actor and not game.is_over and 0 <= nxt < len(rec.seats)
                and not rec.seats[nxt].is_computer)

    def _mention_for(self, rec: GameRecord, game: Game) -> int | None:
        seat = game.to_act
        if seat is None or not 0 <= seat < len(rec.seats) or rec.seats[seat].is_computer:
            return None
        return rec.seats[seat].user_id

    @staticmethod
    def _who(seat: Seat) -> str:
        """A seat as text: a mention for a person, the name for a computer."""
        return f"**{seat.name}**" if seat.is_computer else f"<@{seat.user_id}>"

    def _private_notes(self, rec: GameRecord, front: GameFront, events: Sequence[Event],
                       langs: Mapping[int, str] | None = None) -> list[Private]:
        """Each person's hidden events, in their language: ``langs`` by seat (the actor's now), else the one
        they sat down with, else the game's."""
        notes = []
        for seat, s in enumerate(rec.seats):
            if s.is_computer:
                continue
            own = [e for e in events if e.seat == seat and (e.private or e.secret)]
            if own:
                lang = (langs or {}).get(seat) or s.lang or rec.lang
                text = worded(front.narrate, own, lang=lang)
                if text:
                    notes.append(Private(seat, s.user_id, text, lang))
        return notes

    @staticmethod
    def lang_of(rec: GameRecord, user_id: int | None, lang: str | None) -> str:
        """The language a user reads: the one given (their Discord's now), else the one they sat down with,
        else the game's."""
        if lang:
            return lang
        seat = rec.seat_of(user_id) if user_id is not None else None
        return (rec.seats[seat].lang if seat is not None else None) or rec.lang

    def _seat_line(self, rec: GameRecord, lang: str = texts.DEFAULT) -> str:
        """The seats in order, each with its options in the words of ``lang``."""
        if not rec.seats:
            return texts.say("lobby.nobody_yet", lang)
        parts = []
        for i, s in enumerate(rec.seats):
            opts = self._option_words(rec.game_key, "join", s.options, lang)
            parts.append(f"{i + 1}. {Service._who(s)}" + (f" ({opts})" if opts else ""))
        return "; ".join(parts)

    @staticmethod
    def _setup_hook(hook: Callable[..., Any], *args: Any, lang: str, own: str) -> Any:
        """A unit's setup check (``setup_options``, ``seat_options``): what it refuses is said in the asker's
        language ``own``, the notes it adds for the channel in the game's ``lang``."""
        checked = worded(hook, *args, lang=own)
        return checked if own == lang else worded(hook, *args, lang=lang)

    def _option_words(self, game_key: str, command: str, options: Mapping[str, Any], lang: str) -> str:
        """Options for the lobby's readers in ``lang``, worded by the game's unit (``Farbe rot`` for
        ``colour red``, a flag by its name alone); ``name value`` pairs for a front without the hook."""
        try:
            worder = getattr(self.fronts(game_key), "option_words", None)
        except KeyError:
            worder = None
        if worder is not None:
            return str(worder(command, options, lang))
        return ", ".join(f"{name} {value}" for name, value in options.items())

    # Lobby -------------------------------------------------------------------------------------

    async def new_game(self, *, guild_id: int | None, channel_id: int, user_id: int, user_name: str,
                       game_key: str, options: Mapping[str, Any] | None = None, join: bool = True,
                       seat_options: Mapping[str, Any] | None = None, lang: str = "en",
                       user_lang: str | None = None) -> Reply:
        """Open a lobby in the channel with ``game_key`` and the shared options given (None values dropped).
        ``lang``: the game's public language (the server's), kept for every message everyone sees;
        ``user_lang``: the host's own, for their private notes and refusals."""
        own = user_lang or lang
        try:
            cls = self.classes(game_key)
            front = self.fronts(game_key)
        except KeyError:
            return refuse(texts.say("lobby.no_such_game", own, game=game_key, games=", ".join(playable_keys())))
        raw = {k: v for k, v in (options or {}).items() if v is not None}
        try:
            opts, notes = self._setup_hook(front.setup_options, raw, lang=lang, own=own)
        except (SetupError, ValueError) as exc:
            why = worded(front.refusal, exc, lang=own)
            return refuse(texts.say("lobby.cant_set_up", own, title=cls.title, error=why))
        seats: list[Seat] = []
        if join:
            raw_seat = {k: v for k, v in (seat_options or {}).items() if v is not None}
            try:
                seat_opts, seat_notes = self._setup_hook(front.seat_options, raw_seat, opts, [], lang=lang, own=own)
            except (SetupError, ValueError) as exc:
                return refuse(texts.say("lobby.cant_seat", own, error=worded(front.refusal, exc, lang=own)))
            notes += seat_notes
            seats.append(Seat(user_id, user_name, seat_opts, lang=user_lang))
        async with self.lock(channel_id):
            try:
                rec = await self.store.create_game(guild_id=guild_id, channel_id=channel_id, game_key=game_key,
                                                   host_id=user_id, setup={"options": opts},
                                                   seed=self.seed_source(), seats=seats, lang=lang)
            except ChannelBusy:
                busy = await self.store.channel_game(channel_id)
                if busy is None:
                    return refuse(texts.say("lobby.busy", own))
                return refuse(texts.say("lobby.busy_game", own, title=self.classes(busy.game_key).title,
                                        status=texts.status_word(busy.status, own)))
        opt_text = self._option_words(game_key, "new", opts, lang) or texts.say("lobby.standard_setup", lang)
        text = texts.say("lobby.opened", lang, user=user_id, title=cls.title, options=opt_text, low=cls.min_seats,
                         high=cls.max_seats)
        if notes:
            text += "\n" + "\n".join(notes)
        return Reply(text, game_id=rec.id, version=rec.version)

    async def join(self, channel_id: int, user_id: int, user_name: str,
                   seat_options: Mapping[str, Any] | None = None, lang: str | None = None) -> Reply:
        """Take a seat in the channel's lobby, or change your seat options there. ``lang``: the player's
        language, for their private notes."""
        async with self.lock(channel_id):
            rec = await self.store.channel_game(channel_id)
            if rec is None:
                return self._no_game(lang)
            own = self.lang_of(rec, user_id, lang)
            if rec.status != LOBBY:
                return refuse(texts.say("lobby.started_already", own))
            cls, front = self.classes(rec.game_key), self.fronts(rec.game_key)
            mine = rec.seat_of(user_id)
            others = [s.options for i, s in enumerate(rec.seats) if i != mine]
            if mine is None and len(rec.seats) >= cls.max_seats:
                return refuse(texts.say("lobby.full", own, title=cls.title, max=cls.max_seats))
            raw = {k: v for k, v in (seat_options or {}).items() if v is not None}
            try:
                opts, notes = self._setup_hook(front.seat_options, raw, rec.setup.get("options", {}), others,
                                               lang=rec.lang, own=own)
            except (SetupError, ValueError) as exc:
                return refuse(texts.say("lobby.cant_seat", own, error=worded(front.refusal, exc, lang=own)))
            seats = list(rec.seats)
            if mine is None:
                seats.append(Seat(user_id, user_name, opts, lang=lang))
                said = "lobby.joined"
            else:
                seats[mine] = Seat(user_id, user_name, opts, lang=lang or rec.seats[mine].lang)
                said = "lobby.changed_options"
            rec = await self.store.update_lobby(rec.id, seats=seats, expected_seats=rec.seats)
        text = texts.say(said, rec.lang, user=user_id, title=cls.title, seats=self._seat_line(rec, rec.lang))
        if notes:
            text += "\n" + "\n".join(notes)
        return Reply(text, game_id=rec.id)

    async def leave(self, channel_id: int, user_id: int, lang: str | None = None) -> Reply:
        """Give up a seat (``lang``: the asker's language, for a refusal)."""
        async with self.lock(channel_id):
            rec = await self.store.channel_game(channel_id)
            if rec is None:
                return self._no_game(lang)
            mine = rec.seat_of(user_id)
            if mine is None:
                return refuse(texts.say("lobby.no_seat_here", self.lang_of(rec, user_id, lang)))
            if rec.status != LOBBY:
                return await self._hand_to_computer(rec, mine, texts.say("lobby.left_game", rec.lang, user=user_id),
                                                    lang)
            return await self._remove_seat(rec, mine, texts.say("lobby.left_lobby", rec.lang, user=user_id))

    def _takeover_kind(self, game_key: str) -> str:
        """The computer that takes over a seat: the game's own kind if it has one, else random."""
        kinds = [k for k in self.driver_kinds(game_key) if k != "random"]
        return kinds[0] if kinds else "random"

    async def _hand_to_computer(self, rec: GameRecord, seat: int, text: str, lang: str | None = None) -> Reply:
        """A person leaves a running game: a computer plays their seat on. When nobody is left, it ends.
        ``text`` says who left (in the game's language); ``lang``: the asker's, for a refusal."""
        if all(s.is_computer for i, s in enumerate(rec.seats) if i != seat):
            text = texts.say("lobby.nobody_left", rec.lang, text=text)
            out = self._outgoing([text], board=False)
            await self.store.set_status(rec.id, "aborted", from_statuses=(ACTIVE,), outgoing=out)
            self.forget(rec.id, drivers=True)
            return Reply(text, game_id=rec.id, changed=True, delivery=out.id, channel_id=rec.channel_id)
        kind = self._takeover_kind(rec.game_key)
        old = rec.seats[seat]
        uid = min([-1, *(s.user_id - 1 for s in rec.seats if s.user_id < 0)])
        seats = list(rec.seats)
        seats[seat] = Seat(uid, texts.say("lobby.computer_name", rec.lang, name=old.name), dict(old.options), kind)
        host = None
        if old.user_id == rec.host_id:
            host = next(s for s in seats if not s.is_computer).user_id
        text = texts.say("lobby.computer_takes_over", rec.lang, text=text, kind=kind, name=old.name)
        if host is not None:
            text = texts.say("lobby.new_host", rec.lang, text=text, host=host)
        game = await self.load(rec)
        out = self._outgoing([text], board=False)
        waiting = game.to_act == seat and not game.is_over
        try:
            rec = await self.store.replace_seats(rec.id, version=rec.version, seats=seats, expected_seats=rec.seats,
                                                 outgoing=out, computers_waiting=waiting)
        except StaleVersion:
            return refuse(texts.say("lobby.moved_on", lang or texts.DEFAULT))
        if host is not None:
            rec = await self._set_host(rec, host)
        return Reply(text, game_id=rec.id, computers_pending=self._computer_to_act(rec, game), delivery=out.id,
                     channel_id=rec.channel_id)

    async def _set_host(self, rec: GameRecord, host_id: int) -> GameRecord:
        await self.store.set_host(rec.id, host_id)
        return await self.store.get_game(rec.id)

    async def _remove_seat(self, rec: GameRecord, seat: int, text: str) -> Reply:
        seats = [s for i, s in enumerate(rec.seats) if i != seat]
        if not seats:
            await self.store.set_status(rec.id, "aborted", from_statuses=(LOBBY,))
            return Reply(texts.say("lobby.empty_closed", rec.lang, text=text), game_id=rec.id)
        host = None
        if rec.seats[seat].user_id == rec.host_id:
            host = seats[0].user_id
            text = texts.say("lobby.new_host", rec.lang, text=text, host=host)
        rec = await self.store.update_lobby(rec.id, seats=seats, host_id=host, expected_seats=rec.seats)
        return Reply(texts.say("lobby.seats_now", rec.lang, text=text, seats=self._seat_line(rec, rec.lang)),
                     game_id=rec.id)

    async def kick(self, channel_id: int, actor_id: int, target_id: int, *, can_manage: bool = False,
                   lang: str | None = None) -> Reply:
        """Remove a player (``lang``: the asker's language, for a refusal)."""
        async with self.lock(channel_id):
            rec = await self.store.channel_game(channel_id)
            if rec is None:
                return self._no_game(lang)
            own = self.lang_of(rec, actor_id, lang)
            if not self._can_manage(rec, actor_id, can_manage):
                return refuse(texts.say("lobby.only_host_kick", own, host=rec.host_id))
            seat = rec.seat_of(target_id)
            if seat is None:
                return refuse(texts.say("lobby.no_seat_for", own, user=target_id, seats=self._seat_line(rec, own)))
            who = self._who(rec.seats[seat])
            if rec.status != LOBBY:
                if rec.seats[seat].is_computer:
                    return refuse(texts.say("lobby.computer_cant_leave", own))
                return await self._hand_to_computer(rec, seat, texts.say("lobby.removed_game", rec.lang, who=who),
                                                    own)
            return await self._remove_seat(rec, seat, texts.say("lobby.removed_lobby", rec.lang, who=who))

    async def add_computer(self, channel_id: int, user_id: int, kind: str = "random", *,
                           can_manage: bool = False, lang: str | None = None) -> Reply:
        """Seat a computer player of ``kind`` (see :mod:`bot.drivers`) in the lobby (``lang``: the asker's
        language, for a refusal)."""
        async with self.lock(channel_id):
            rec = await self.store.channel_game(channel_id)
            if rec is None:
                return self._no_game(lang)
            own = self.lang_of(rec, user_id, lang)
            if rec.status != LOBBY:
                return refuse(texts.say("lobby.seats_fixed", own))
            if not self._can_manage(rec, user_id, can_manage):
                return refuse(texts.say("lobby.only_host_computer", own, host=rec.host_id))
            cls = self.classes(rec.game_key)
            kinds = self.driver_kinds(rec.game_key)
            if kind not in kinds:
                return refuse(texts.say("lobby.no_such_computer", own, kind=kind, title=cls.title,
                                        kinds=", ".join(kinds)))
            if len(rec.seats) >= cls.max_seats:
                return refuse(texts.say("lobby.full", own, title=cls.title, max=cls.max_seats))
            number = len(rec.seats) + 1  # the seat it takes: its name matches the number on its badge
            uid = min([-1, *(s.user_id - 1 for s in rec.seats if s.user_id < 0)])
            seat = Seat(uid, texts.say("lobby.computer_seat_name", rec.lang, number=number, kind=kind), {}, kind)
            rec = await self.store.update_lobby(rec.id, seats=[*rec.seats, seat], expected_seats=rec.seats)
        return Reply(texts.say("lobby.computer_sits", rec.lang, name=seat.name, seats=self._seat_line(rec, rec.lang)),
                     game_id=rec.id)

    async def kick_seat(self, channel_id: int, actor_id: int, seat_number: int, *, can_manage: bool = False,
                        lang: str | None = None) -> Reply:
        """Remove seat ``seat_number`` (1-based, as the seat list shows) from the lobby: a person or a computer."""
        rec = await self.store.channel_game(channel_id)
        if rec is None:
            return self._no_game(lang)
        if not 1 <= seat_number <= len(rec.seats):
            own = self.lang_of(rec, actor_id, lang)
            return refuse(texts.say("lobby.no_such_seat", own, number=seat_number, seats=self._seat_line(rec, own)))
        return await self.kick(channel_id, actor_id, rec.seats[seat_number - 1].user_id, can_manage=can_manage,
                               lang=lang)

    async def start(self, channel_id: int, user_id: int, *, can_manage: bool = False, lang: str | None = None
                    ) -> Reply:
        """Start the lobby's game (``lang``: the asker's language, for a refusal)."""
        async with self.lock(channel_id):
            rec = await self.store.channel_game(channel_id)
            if rec is None:
                return self._no_game(lang)
            own = self.lang_of(rec, user_id, lang)
            if rec.status != LOBBY:
                return refuse(texts.say("lobby.running_already", own))
            if not self._can_manage(rec, user_id, can_manage):
                return refuse(texts.say("lobby.only_host_start", own, host=rec.host_id))
            cls, front = self.classes(rec.game_key), self.fronts(rec.game_key)
            if not cls.min_seats <= len(rec.seats) <= cls.max_seats:
                return refuse(texts.say("lobby.seat_count", own, title=cls.title, low=cls.min_seats,
                                        high=cls.max_seats, count=len(rec.seats), seats=self._seat_line(rec, own)))
            setup = {"seats": [{"name": s.name, **s.options} for s in rec.seats],
                     "options": dict(rec.setup.get("options", {}))}
            try:
                game = await asyncio.to_thread(cls.create, setup, rec.seed)
            except (SetupError, ValueError) as exc:
                return refuse(texts.say("lobby.cant_start", own, title=cls.title, error=worded(front.refusal, exc,
                                                                                                  lang=own)))
            status = FINISHED if game.is_over else ACTIVE
            head = [texts.say("begins", rec.lang, title=cls.title, seats=self._seat_line(rec, rec.lang))]
            out = self._outgoing(head, describe=True)
            turn_messages.as_post(out, None, turn=game.to_act, period=self._period(front, game))
            rec = await self.store.start_game(rec.id, setup=setup, seats=rec.seats,
                                              state=await asyncio.to_thread(game.to_dict), status=status,
                                              outgoing=out, computers_waiting=self._computer_to_act(rec, game))
            self._keep(rec, game)
            rec, shown, _, private, game = await self._run_computers(rec, game, front, out)
            after = await asyncio.to_thread(self._after_move, rec, front, game)
        png = await self._render_turn(front, after.view, shown, out.payload, rec.lang)
        text, mention = self._board_text(rec, game, after, out.payload)
        return Reply(text, png=png, mention=mention, buttons=after.buttons, private=private,
                     game_id=rec.id, version=rec.version, changed=True,
                     computers_pending=self._computer_to_act(rec, game), delivery=out.id, channel_id=channel_id,
                     **turn_messages.reply_fields(out.payload))

    async def abort(self, channel_id: int, user_id: int, *, can_manage: bool = False, lang: str | None = None
                    ) -> Reply:
        """End the channel's game without a winner (``lang``: the asker's language, for a refusal)."""
        async with self.lock(channel_id):
            rec = await self.store.channel_game(channel_id)
            if rec is None:
                return self._no_game(lang)
            if not self._can_manage(rec, user_id, can_manage):
                return refuse(texts.say("lobby.only_host_abort", self.lang_of(rec, user_id, lang), host=rec.host_id))
            title = self.classes(rec.game_key).title
            text = texts.say("lobby.aborted", rec.lang, user=user_id, title=title, count=rec.version)
            out = self._outgoing([text], board=False)
            await self.store.set_status(rec.id, "aborted", outgoing=out)
            self.forget(rec.id, drivers=True)
        return Reply(text, game_id=rec.id, changed=True, delivery=out.id, channel_id=channel_id)

    # Play --------------------------------------------------------------------------------------

    async def act(self, channel_id: int, user_id: int, action_text: str, expected_version: int | None = None,
                  *, game_id: int | None = None, autopilot: bool = False, lang: str | None = None) -> Reply:
        """Play ``action_text`` for ``user_id`` in the channel's game. ``expected_version`` and ``game_id``
        come from buttons: a press from an older move is refused as stale. ``autopilot``: the computer plays
        for an absent player; the board and the log say so. ``lang``: the player's language, for what only
        they see (refusals, their private notes); the channel reads the game's language."""
        async with self.lock(channel_id):
            rec = await self.store.channel_game(channel_id)
            if game_id is not None and (rec is None or rec.id != game_id):
                own = lang or texts.DEFAULT
                if await self._ended_here(game_id, channel_id):
                    return refuse(texts.say("move.ended_button", own), stale=True, game_id=game_id)
                # another channel's, or forged: the message keeps its buttons
                return refuse(texts.say("move.other_game_button", own))
            if rec is None:
                return self._no_game(lang)
            own = self.lang_of(rec, user_id, lang)
            if rec.status == LOBBY:
                return refuse(texts.say("not_started", own, seats=self._seat_line(rec, own)))
            if expected_version is not None and expected_version > rec.version:
                # a move that never happened: forged; the board keeps its buttons
                return refuse(texts.say("move.foreign_button", own))
            if expected_version is not None and expected_version != rec.version:
                return refuse(texts.say("stale_button", own, old=expected_version, now=rec.version),
                              stale=True, game_id=rec.id)
            seat = rec.seat_of(user_id)
            if seat is None:
                return refuse(texts.say("no_seat", own, seats=self._seat_line(rec, own)))
            game = await self.load(rec)
            front = self.fronts(rec.game_key)
            turn = game.to_act
            if self._computer_to_act(rec, game):
                # Left over from a restart or a long computer sequence: the front end lets it play on.
                assert turn is not None
                reply = refuse(texts.say("computer_to_move", own, who=self._who(rec.seats[turn])))
                reply.computers_pending = True
                return reply
            if not may_act(game, seat):
                who = self._who(rec.seats[turn]) if turn is not None else texts.say("move.nobody", own)
                return refuse(texts.say("not_your_turn", own, who=who))
            # While this move is applied and saved, the game object is ours alone: readers such as
            # autocomplete load a fresh copy from the snapshot.
            self.forget(rec.id)
            after: _After | None = None
            try:
                if self._remote(rec):
                    # on a copy in a worker process (so the cores share the work); the copy replaces ours
                    action, events, state, after = await self.pictures.call(
                        rec.game_key, step, rec.game_key, rec.state, action_text.strip(),
                        [s.is_computer for s in rec.seats], rec.lang)
                    game = self.classes(rec.game_key).from_dict(state)
                else:
                    action, events, state = await asyncio.to_thread(self._apply, game, action_text.strip())
            except IllegalAction as exc:
                self._keep(rec, game)  # unchanged, as the contract promises
                return refuse(front.refused_move(game, exc, own))  # with what is possible, said once
            except Exception:
                log.exception("game %s: applying %r failed", rec.id, clip_input(action_text))
                return refuse(texts.say("apply_failed", own))
            public = [e for e in (ev.for_viewer(None) for ev in events) if e is not None]
            narration = worded(front.narrate, public, lang=rec.lang)
            if autopilot:
                name = rec.seats[seat].name
                narration = (texts.say("move.autopilot", rec.lang, name=name, narration=narration) if narration
                             else texts.say("move.autopilot_action", rec.lang, name=name, action=action))
            status = FINISHED if game.is_over else ACTIVE
            line = narration or texts.say("played", rec.lang, name=rec.seats[seat].name, action=action)
            out = self._outgoing([line], actor=seat)
            await self._plan_turn(out, rec, front, game, seat, [line])
            try:
                rec = await self.store.append_action(rec.id, expected_version=rec.version, seat=seat,
                                                     user_id=user_id, action=str(action), state=state,
                                                     status=status, narration=narration, outgoing=out,
                                                     computers_waiting=self._computer_to_act(rec, game))
            except StaleVersion as exc:
                return refuse(texts.say("move.moved_on", own, error=exc), stale=True, game_id=rec.id)
            self._keep(rec, game)
            private = self._private_notes(rec, front, events, {seat: own})
            rec, shown, lines, told, game = await self._run_computers(rec, game, front, out)
            pending = self._computer_to_act(rec, game)
            if after is None or lines:
                after = await asyncio.to_thread(self._after_move, rec, front, game)
        if after.png is not None and not shown and not out.payload.get(turn_messages.WHOLE):
            png: bytes | None = after.png  # drawn with the move, of the same view and events
        else:
            png = await self._render_turn(front, after.view, shown or public, out.payload, rec.lang)
        text, mention = self._board_text(rec, game, after, out.payload)
        return Reply(text, png=png, mention=mention, buttons=after.buttons, private=private + told, game_id=rec.id,
                     version=rec.version, changed=True, computers_pending=pending, delivery=out.id,
                     channel_id=channel_id, **turn_messages.reply_fields(out.payload))

    def _outgoing(self, lines: list[str], *, board: bool = True, actor: int | None = None,
                  describe: bool = False) -> Outgoing:
        """The delivery record of a public message, held by this process while it posts it. ``lines`` grow
        with the computer moves of the same reply; the rest of the text is made from the game when posted."""
        return Outgoing({"lines": lines, "board": board, "actor": actor, "describe": describe},
                        owner=self.owner, lease=self.delivery_lease)

    def _board_text(self, rec: GameRecord, game: Game, after: _After, payload: Mapping[str, Any]
                    ) -> tuple[str, int | None]:
        """A board message's text and whom it pings: its lines, then the standings at the end (or always,
        with ``describe``) or the next person's turn. The mover is not pinged for their own next step."""
        lines: list[str] = list(payload.get("lines", []))
        actor = payload.get("actor")
        nxt = game.to_act
        mention = None
        if nxt is not None and (actor is None or nxt != actor or len(lines) > 1):
            mention = self._mention_for(rec, game)
        text = "\n".join(lines)
        if game.is_over or payload.get("describe"):
            text += "\n" + after.describe
        elif mention is not None:
            text += "\n" + texts.say("your_turn", rec.lang, user=mention)
        if payload.get(turn_messages.EDIT_OF) is not None:
            mention = None  # the turn goes on in the message it began: nobody is pinged again
        if mention is not None and self.ping_filter is not None and not self.ping_filter(rec, mention):
            mention = None  # named on the board, but not pinged (direct messages, no notices, quiet hours)
        return text, mention

    async def _ended_here(self, game_id: int, channel_id: int) -> bool:
        """Whether ``game_id`` is an earlier game of this channel (its buttons are merely stale)."""
        try:
            old = await self.store.get_game(game_id)
        except GameNotFound:
            return False
        return old.channel_id == channel_id and not old.is_open

    async def _run_computers(self, rec: GameRecord, game: Game, front: GameFront, out: Outgoing | None = None
                             ) -> tuple[GameRecord, list[Event], list[str], list[Private], Game]:
        """Let computer seats move while one is to act (channel lock held), within this reply's budget.
        Returns the new record, the public events of the last computer move, one line per move and the
        private notes those moves owe to people (a kart bumped onto a face-down tile picks it up, R12).
        Each move's narration joins ``out``'s delivery record in the move's own transaction while it shows
        the same turn (see :mod:`bot.turn_messages`): the loop stops before another computer's turn (the
        next reply posts its message), and a move that hands the turn to a person once ``out`` holds moves
        is kept for the next reply (which posts the message that pings them) and not applied now; the game
        returned is then the one before that move."""
        shown: list[Event] = []
        lines: list[str] = []
        played: list[Event] = []
        deadline = time.monotonic() + self.computer_seconds_per_reply
        for _ in range(self.computer_moves_per_reply):
            if not self._computer_to_act(rec, game) or time.monotonic() > deadline:
                break
            seat = game.to_act
            assert seat is not None
            if out is not None and out.payload["lines"] and out.payload.get(turn_messages.TURN) != seat:
                break  # another seat's turn: a message of its own, in the next reply
            kind = rec.seats[seat].driver or "random"
            driver = self._driver(rec, seat, kind)
            self.forget(rec.id)
            kept = self._next_moves.pop((rec.id, rec.version))
            try:
                if kept is not None:  # chosen last reply, when it began the next turn
                    action, events, state = await asyncio.to_thread(self._apply, game, kept)
                else:
                    action, events, state = await asyncio.to_thread(self._drive, rec, game, seat, kind, driver)
            except Exception:
                log.exception("game %s: the %s computer in seat %s failed", rec.id, kind, seat)
                break
            public = [e for e in (ev.for_viewer(None) for ev in events) if e is not None]
            narration = (worded(front.narrate, public, lang=rec.lang)
                         or texts.say("computer_played", rec.lang, name=rec.seats[seat].name, action=action))
            if out is None:
                out = self._outgoing([])
            if (out.payload["lines"] and out.kind == EDIT and self._pings_next(rec, game, seat)
                    and rec.state is not None):
                # the turn passes to a person, and this turn's message is out already (an edit pings nobody):
                # that move opens the message that pings them, in the next reply
                game = self.classes(rec.game_key).from_dict(rec.state)
                self._keep(rec, game)
                self._next_moves.put((rec.id, rec.version), str(action))
                break
            before, before_kind = out.payload, out.kind
            if out.payload["lines"]:
                out.payload = turn_messages.add_lines(out, [narration])
            else:
                out.payload = dict(out.payload, lines=[narration], actor=seat)
                await self._plan_turn(out, rec, front, game, seat, [narration])
            try:
                rec = await self.store.append_action(rec.id, expected_version=rec.version, seat=seat, user_id=None,
                                                     action=str(action), state=state,
                                                     status=FINISHED if game.is_over else ACTIVE,
                                                     narration=narration, outgoing=out,
                                                     computers_waiting=self._computer_to_act(rec, game))
            except StaleVersion:
                out.payload, out.kind = before, before_kind
                log.warning("game %s moved on while a computer played; its move was dropped", rec.id)
                break
            self._keep(rec, game)
            shown = public
            lines.append(narration)
            played += events
        if game.is_over:
            self.forget(rec.id, drivers=True)
            self._keep(rec, game)
            try:  # the results and the end message (standings, replay), once; the final move stands regardless
                await history.record_end(self, rec, game)
            except Exception:
                log.exception("game %s: recording its end failed", rec.id)
        return rec, shown, lines, self._private_notes(rec, front, played), game

    def _driver(self, rec: GameRecord, seat: int, kind: str) -> Driver:
        """The seat's driver, kept while the game is in memory so its plans carry from move to move. Its seed
        depends on the game and the seat, so after a restart a computer of the same seat starts alike."""
        key = (rec.id, seat, kind)
        driver = self._drivers.get(key)
        if driver is None:
            seed = (rec.seed * 1_000_003 + seat * 7919 + 17) & ((1 << 62) - 1)
            driver = self.drivers(rec.game_key, kind, seed)
            self._drivers.put(key, driver)
        return driver

    @staticmethod
    def _computer_to_act(rec: GameRecord, game: Game) -> bool:
        seat = game.to_act
        return seat is not None and not game.is_over and 0 <= seat < len(rec.seats) and rec.seats[seat].is_computer

    async def channels_waiting_on_computers(self) -> list[int]:
        """Channels whose running game waits for a computer (after a restart: resume them). Read from the
        store's queue, without loading any game."""
        return [channel for _, channel in await self.store.waiting_on_computers()]

    async def play_computers(self, channel_id: int) -> Reply | None:
        """Let computers move in the channel's game if one is to act; None when none is. Front ends call
        this after a reply with ``computers_pending`` (and may at start-up for waiting games)."""
        async with self.lock(channel_id):
            rec = await self.store.channel_game(channel_id)
            if rec is None or rec.status != ACTIVE:
                return None
            game = await self.load(rec)
            if not self._computer_to_act(rec, game):
                return None
            front = self.fronts(rec.game_key)
            before = rec.version
            out = self._outgoing([])
            rec, shown, _, private, game = await self._run_computers(rec, game, front, out)
            if rec.version == before:
                return None
            after = await asyncio.to_thread(self._after_move, rec, front, game)
            pending = self._computer_to_act(rec, game)
        png = await self._render_turn(front, after.view, shown, out.payload, rec.lang)
        text, mention = self._board_text(rec, game, after, out.payload)
        return Reply(text, png=png, mention=mention, buttons=after.buttons, private=private, game_id=rec.id,
                     version=rec.version, changed=True, computers_pending=pending, delivery=out.id,
                     channel_id=channel_id, **turn_messages.reply_fields(out.payload))

    # Delivery ----------------------------------------------------------------------------------

    async def delivered(self, delivery_id: int, message_id: int | None) -> bool:
        """The public message of a delivery record was posted (``message_id``); False if it already was."""
        return await self.store.mark_delivered(delivery_id, message_id)

    async def undelivered(self, delivery_id: int, *, retry_at: float) -> None:
        """Posting failed: the record is free again, for the outbox worker to try from ``retry_at``."""
        await self.store.release_delivery(delivery_id, due_at=retry_at)

    async def delivery_reply(self, d: Delivery) -> Reply:
        """The message of a delivery record the front end did not post (a crash, a failed answer). The
        board is drawn when the game still stands at the record's move; otherwise the moves are told in
        text only, since a newer board follows."""
        if d.payload.get("finale"):
            return await history.finale_reply(self, d)
        lines: list[str] = list(d.payload.get("lines", []))
        plain = Reply("\n".join(lines), game_id=d.game_id, version=d.version, changed=True, delivery=d.id,
                      channel_id=d.channel_id, **dict(turn_messages.reply_fields(d.payload), whole=False))
        if not d.payload.get("board") or d.game_id is None:
            return plain
        rec = await self.store.get_game(d.game_id)
        if rec.version != d.version or rec.state is None or rec.status not in (ACTIVE, FINISHED):
            return plain
        game = await self.load(rec)
        front = self.fronts(rec.game_key)
        after = await asyncio.to_thread(self._after_move, rec, front, game)
        text, mention = self._board_text(rec, game, after, d.payload)
        png = await self._render_turn(front, after.view, [], d.payload, rec.lang)
        return Reply(text, png=png, mention=mention, buttons=after.buttons if rec.status == ACTIVE else [],
                     game_id=rec.id, version=rec.version, changed=True, delivery=d.id, channel_id=d.channel_id,
                     computers_pending=rec.status == ACTIVE and self._computer_to_act(rec, game),
                     **turn_messages.reply_fields(d.payload))

    def _drive(self, rec: GameRecord, game: Game, seat: int, kind: str, driver: Driver
               ) -> tuple[Any, list[Event], dict[str, Any]]:
        """One computer move (in a worker thread) by the seat's kept ``driver``; a failing driver gives way
        to a random one."""
        try:
            return self._apply(game, driver.choose(game, seat))
        except Exception:  # drivers choose on copies and apply leaves the game unchanged when it refuses
            if kind == "random":
                raise
            log.exception("game %s: the %s computer failed; it plays a random move instead", rec.id, kind)
            seed = (rec.seed * 1_000_003 + rec.version * 101 + seat) & ((1 << 62) - 1)
            return self._apply(game, self.drivers(rec.game_key, "random", seed).choose(game, seat))

    @staticmethod
    def _apply(game: Game, text: str) -> tuple[Any, list[Event], dict[str, Any]]:
        """Parse, apply and serialise (in a worker thread: a game's rules may take a while)."""
        action = game.parse_action(text)
        events = game.apply(action)
        return action, events, game.to_dict()

    @staticmethod
    def _after_move(rec: GameRecord, front: GameFront, game: Game) -> _After:
        """The public view, buttons for the next person to act and the status line (in a worker thread)."""
        return after_move([s.is_computer for s in rec.seats], front, game, rec.lang)

    def _remote(self, rec: GameRecord) -> bool:
        """Whether a move of this game is applied in a worker process: the pool runs, and the game's rules
        and front are the registered ones a worker finds by key."""
        return (rec.state is not None and self.classes is game_class and self.fronts is front_for
                and self.pictures.ready_for(rec.game_key))

    # Queries -----------------------------------------------------------------------------------

    async def status(self, channel_id: int, user_id: int | None = None, lang: str | None = None) -> Reply:
        """The board as ``user_id`` may see it, whose turn, and what they can do now (private, in their
        language ``lang``; when not given, the one they sat down with, else the game's)."""
        async with self.lock(channel_id):
            rec = await self.store.channel_game(channel_id)
            if rec is None:
                history = await self.store.channel_history(channel_id, 1)
                if history and history[0].state is not None:
                    rec = history[0]
                else:
                    return self._no_game(lang)
            cls, front = self.classes(rec.game_key), self.fronts(rec.game_key)
            if rec.status == LOBBY:
                own = self.lang_of(rec, user_id, lang)
                return Reply(texts.say("lobby.status", own, title=cls.title, host=rec.host_id,
                                       seats=self._seat_line(rec, own), low=cls.min_seats, high=cls.max_seats),
                             ephemeral=True, game_id=rec.id)
            game = await self.load(rec)
            seat = rec.seat_of(user_id) if user_id is not None else None
            can = rec.status == ACTIVE and seat is not None and may_act(game, seat)
            own = self.lang_of(rec, user_id, lang)
            view, text, buttons, legal = await asyncio.to_thread(self._status_parts, front, game, seat, can, own)
            if can:
                text += "\n" + texts.say("you_can", own, legal=legal)
            elif rec.status != ACTIVE:
                text = texts.say("last_game", own, status=texts.status_word(rec.status, own)) + " " + text
        png = await self._render_turn(front, view, [], {turn_messages.WHOLE: True}, own)  # the whole board
        return Reply(text, ephemeral=True, png=png, buttons=buttons, game_id=rec.id, version=rec.version,
                     computers_pending=rec.status == ACTIVE and self._computer_to_act(rec, game))

    @staticmethod
    def _status_parts(front: GameFront, game: Game, seat: int | None, can_act: bool, lang: str = "en"
                      ) -> tuple[dict[str, Any], str, list[ButtonSpec], str]:
        view = game.view(seat)
        text = worded(front.describe, game, seat, lang=lang)
        if not can_act or seat is None:
            return view, text, [], ""
        return view, text, worded(front.turn_buttons, game, seat, lang=lang), \
            worded(game.describe_legal, lang=lang)

    async def log(self, channel_id: int, limit: int = 20, max_chars: int = 1900, *,
                  user_id: int | None = None, lang: str | None = None) -> Reply:
        """The last ``limit`` moves of the channel's game (or its last finished one), as many of the newest
        as fit in ``max_chars``.

        Every move shows its public form only, the narration everyone saw when it was played: the action
        as typed may name a face-down tile (``bag acid 7 5``), so it is shown only in the moves of
        ``user_id`` themselves, whose copy of the log nobody else sees (R12). In the asker's ``lang``, but
        each move as the channel was told it."""
        rec = await self.store.channel_game(channel_id)
        if rec is None:
            history = await self.store.channel_history(channel_id, 1)
            if not history:
                return self._no_game(lang)
            rec = history[0]
        reader = self.lang_of(rec, user_id, lang)
        limit = max(1, min(limit, 100))
        acts = await self.store.actions(rec.id, since=max(0, rec.version - limit))
        title = self.classes(rec.game_key).title
        status = texts.status_word(rec.status, reader)
        if not acts:
            return Reply(texts.say("log.no_moves", reader, title=title, status=status), ephemeral=True,
                         game_id=rec.id)
        lines: list[str] = []
        used = 0
        first = acts[-1].index
        mine = False
        for a in reversed(acts):
            who = rec.seats[a.seat].name if a.seat is not None and a.seat < len(rec.seats) else "?"
            said = " ".join(a.narration.split()) or texts.say("log.nothing_to_show", reader)
            own = user_id is not None and a.user_id == user_id
            # the player is named once: by the narration when it begins with them ("Ann (red) rolls",
            # "Red (Ann) rolls 4"), else here
            opens = re.match(rf"(?:[^\W\d_]+ \()?{re.escape(who)}(?!\w)", said) is not None
            named = [*([] if opens else [who]), *([f"`{a.action}`"] if own else [])]
            line = f"{a.index + 1}. " + (" ".join(named) + ": " if named else "") + said
            if lines and used + len(line) + 1 > max_chars - 120:
                break
            lines.append(line)
            used += len(line) + 1
            first = a.index
            mine = mine or own
        head = texts.say("log.head", reader, title=title, status=status, first=first + 1, last=acts[-1].index + 1)
        if mine:
            head += texts.say("log.own_moves", reader)
        return Reply(head + "\n" + "\n".join(reversed(lines)), ephemeral=True, game_id=rec.id, version=rec.version)
