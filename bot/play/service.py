"""The game master's flow, shared by every front end (Discord, the terminal, tests): a thin coordinator.

For an action: find the channel's game → check the user sits there and may act → take the channel's lock → apply, plan
the records of the public messages the move owes (:mod:`bot.telling.turn_messages`) and compose the newest of them
(:mod:`bot.telling.compose`), off the event loop (a process pool, see :mod:`bot.telling.pictures`; the move itself is
:mod:`bot.play.moving`) → store the action, the new snapshot and the records in one transaction, expecting the version
→ answer :class:`~bot.telling.outcomes.Accepted` (the records' ids, and private notes) or a
:class:`~bot.telling.outcomes.Refusal`. A front delivers the records (:mod:`bot.telling.delivery`); it never composes a
public message itself. The rest is handed on: the lobby (:mod:`bot.play.lobby`), the reading side
(:mod:`bot.play.reading`), and the moves nobody presses, computers' and people's plans and forced moves
(:mod:`bot.play.autoplay`), which the bot's computer worker (:mod:`bot.play.computers`) asks for when a delivered move
left them to act. Games load when touched and stay in a bounded cache; channel locks live only while held
(:mod:`bot.play.memory`). Nothing here knows about Discord; nothing here knows about any one game.
"""
from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from bot import texts
from bot.clock import recap
from bot.drivers import Driver, driver_for, driver_kinds
from bot.drivers.reasons import Reason
from bot.games import GameUnit, game_class, unit_for
from bot.messages import Line, Showing
from bot.play import seats, takeback
from bot.play.autoplay import Autoplay, computer_to_act
from bot.play.championships import Championships
from bot.play.lobby import Lobby
from bot.play.memory import LRU, ChannelLocks
from bot.play.moving import move_keys, play_move, step
from bot.play.reading import Reading
from bot.standing import history
from bot.store import (
    ACTIVE,
    FINISHED,
    LOBBY,
    Delivery,
    GameNotFound,
    GameRecord,
    Outgoing,
    Preread,
    Seat,
    StaleVersion,
    Store,
    written,
)
from bot.telling.compose import Message, Moved, Table, compose, compose_state, table_of
from bot.telling.outcomes import Accepted, Private, Refusal, refuse
from bot.telling.pictures import Pictures
from bot.telling.written import Written
from rules.contract import Event, Game, IllegalAction

log = logging.getLogger(__name__)

#: running games kept in memory (least recently used ones are dropped; they load again when touched)
CACHE_SIZE = 512
#: how long the writer of a delivery record holds it before another worker may post it
DELIVERY_LEASE = 120.0

Outcome = Accepted | Refusal


def clip_input(text: object, limit: int = 80) -> str:
    """User input as it may appear in a log line: at most ``limit`` characters, one line."""
    s = " ".join(str(text).split())
    return s if len(s) <= limit else s[: limit - 1] + "…"


# The service -----------------------------------------------------------------------------------------


class Service:
    """Lobby, play and queries for one-game-per-channel play over a :class:`Store`."""

    def __init__(self, store: Store, *, classes: Callable[[str], type[Game]] = game_class,
                 fronts: Callable[[str], GameUnit[Any]] = unit_for,
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
        self.pictures = pictures or Pictures(processes=0)
        self._locks = ChannelLocks()
        self._cache: LRU[int, tuple[int, Game]] = LRU(cache_size)
        #: messages composed with the move that wrote their record: (record, move) → message
        self._composed: LRU[tuple[int, int], Message] = LRU(cache_size)
        #: who holds the delivery records this process writes
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        self.delivery_lease = DELIVERY_LEASE
        #: whether a board may ping the player to act (their notice mode and quiet hours); None: always
        self.ping_filter: Callable[[GameRecord, int], bool] | None = None
        #: told the channel of a game whose move, now delivered, left computers to act (the computer worker)
        self.on_computers: Callable[[int], None] | None = None
        #: channels whose computers move once this process's record (the id) of their last move is delivered
        self._waiting: dict[int, int] = {}
        self._moving = 0  # moves being applied now (see _move)
        self._pressing = 0  # presses under way, waiting for their channel or the store included
        #: the delivery records this process wrote, so a move's records reach the channel without reading them
        self.written = Written()
        #: the address of a game's page on the web, made when asked (None: this bot publishes no pages)
        self.page_link: history.PageLink | None = None
        #: the address of a player's own page of a game (their seat's link), made when asked (None: no pages)
        self.seat_link: Callable[[GameRecord, int], Awaitable[str | None]] | None = None
        #: told the id of a game this process just stored a write of (the web pages' live updates)
        self.on_stored: Callable[[int], None] | None = None
        #: told the id of a game whose page links this process just revoked (the web pages end its live streams)
        self.on_revoked: Callable[[int], None] | None = None
        #: told the channel of a game that just ended, finished or aborted (a game's thread is then archived)
        self.on_ended: Callable[[int, int], None] | None = None
        #: told when records nobody holds were stored (a game's end message): the outbox delivers them now
        self.on_outbox: Callable[[], None] | None = None
        #: told the id of a game whose turn a write may have changed: the timing looks at it now
        self.on_turn: Callable[[int], None] | None = None
        #: the lobby (:mod:`bot.play.lobby`), the reading side (:mod:`bot.play.reading`) and the moves nobody presses
        #: (:mod:`bot.play.autoplay`), which call back here
        self.autoplay = Autoplay(store, classes=classes, fronts=fronts, host=self, cache_size=cache_size)
        self.lobby = Lobby(store, classes=classes, fronts=fronts, host=self)
        self.reading = Reading(store, classes=classes, fronts=fronts, host=self)
        #: the channels' championships (:mod:`bot.play.championships`), their rounds opened by the lobby
        self.championships = Championships(store, self.lobby, fronts, self.outgoing)

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

    def keep(self, rec: GameRecord, game: Game) -> None:
        """Keep ``game`` in memory as the running game of ``rec`` at its version."""
        self._cache.put(rec.id, (rec.version, game))

    def forget(self, game_id: int, *, drivers: bool = False) -> None:
        self._cache.pop(game_id)
        if drivers:
            self.autoplay.forget(game_id)

    async def current(self, channel_id: int, user_id: int | None = None
                      ) -> tuple[GameRecord | None, Game | None, int | None]:
        """The channel's open game record, its rules object when running, and the user's seat.
        For autocomplete and game command groups; do not mutate the game."""
        rec = await self.store.games.channel_game(channel_id)
        if rec is None:
            return None, None, None
        game = await self.load(rec) if rec.status == ACTIVE else None
        seat = rec.seat_of(user_id) if user_id is not None else None
        return rec, game, seat

    @staticmethod
    def _no_game(lang: str | None = None) -> Refusal:
        """The refusal when the channel has no game, in the asker's language."""
        return seats.no_game(lang)

    def outgoing(self, records: Sequence[Showing]) -> list[Outgoing]:
        """The delivery rows of ``records``, held by this process while it delivers them."""
        return self.held([(r.kind, r.to_payload()) for r in records])

    def held(self, rows: Sequence[tuple[str, dict[str, Any]]]) -> list[Outgoing]:
        """Delivery rows of (kind, payload), held by this process while it delivers them."""
        return [Outgoing(payload, kind, owner=self.owner, lease=self.delivery_lease) for kind, payload in rows]

    @staticmethod
    def _note(*lines: Line) -> Showing:
        """A message beside the turns, of ``lines``."""
        return seats.note(*lines)

    def _accepted(self, rec: GameRecord, outgoing: Sequence[Outgoing], private: Sequence[Private] = ()) -> Accepted:
        return seats.accepted(rec, outgoing, private)

    def pingable(self, rec: GameRecord) -> frozenset[int]:
        """The people of a game a new board may ping now (their notice mode and quiet hours allow it)."""
        people = {s.user_id for s in rec.seats if not s.is_computer}
        return frozenset(u for u in people if self.ping_filter is None or self.ping_filter(rec, u))

    @staticmethod
    def _who(seat: Seat) -> str:
        """A seat as text: a mention for a person, the name for a computer."""
        return seats.who(seat)

    def _private_notes(self, rec: GameRecord, front: GameUnit[Any], events: Sequence[Event],
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
                text = front.narrate(own, lang=lang)
                if text:
                    notes.append(Private(seat, s.user_id, text, lang))
        return notes

    @staticmethod
    def lang_of(rec: GameRecord, user_id: int | None, lang: str | None) -> str:
        """The language a user reads: the one given (their Discord's now), else the one they sat down with,
        else the game's."""
        return seats.lang_of(rec, user_id, lang)

    def _seat_line(self, rec: GameRecord, lang: str = texts.DEFAULT) -> str:
        """The seats in order, each with its options in the words of ``lang``."""
        return seats.seat_line(self.fronts, rec, lang)

    def takeover_kind(self, game_key: str) -> str:
        """The computer that takes over a seat: the game's own kind if it has one, else random."""
        kinds = [k for k in self.driver_kinds(game_key) if k != "random"]
        return kinds[0] if kinds else "random"

    # Lobby -------------------------------------------------------------------------------------

    async def new_game(self, *, guild_id: int | None, channel_id: int, user_id: int, user_name: str,
                       game_key: str, options: Mapping[str, Any] | None = None, join: bool = True,
                       seat_options: Mapping[str, Any] | None = None, lang: str = "en",
                       user_lang: str | None = None) -> Outcome:
        """Open a lobby in the channel (:meth:`bot.play.lobby.Lobby.new_game`)."""
        return await self.lobby.new_game(guild_id=guild_id, channel_id=channel_id, user_id=user_id,
                                         user_name=user_name, game_key=game_key, options=options, join=join,
                                         seat_options=seat_options, lang=lang, user_lang=user_lang)

    async def join(self, channel_id: int, user_id: int, user_name: str,
                   seat_options: Mapping[str, Any] | None = None, lang: str | None = None) -> Outcome:
        """Take a seat in the channel's lobby, or change your seat options there (:meth:`bot.play.lobby.Lobby.join`)."""
        return await self.lobby.join(channel_id, user_id, user_name, seat_options, lang)

    async def leave(self, channel_id: int, user_id: int, lang: str | None = None) -> Outcome:
        """Give up a seat (:meth:`bot.play.lobby.Lobby.leave`)."""
        return await self.lobby.leave(channel_id, user_id, lang)

    async def kick(self, channel_id: int, actor_id: int, target_id: int, *, can_manage: bool = False,
                   lang: str | None = None) -> Outcome:
        """Remove a player (:meth:`bot.play.lobby.Lobby.kick`)."""
        return await self.lobby.kick(channel_id, actor_id, target_id, can_manage=can_manage, lang=lang)

    async def add_computer(self, channel_id: int, user_id: int, kind: str = "random", *,
                           can_manage: bool = False, lang: str | None = None, team: int | None = None) -> Outcome:
        """Seat a computer player of ``kind`` in the lobby, in ``team`` when given
        (:meth:`bot.play.lobby.Lobby.add_computer`)."""
        return await self.lobby.add_computer(channel_id, user_id, kind, can_manage=can_manage, lang=lang, team=team)

    async def kick_seat(self, channel_id: int, actor_id: int, seat_number: int, *, can_manage: bool = False,
                        lang: str | None = None) -> Outcome:
        """Remove seat ``seat_number`` (1-based) from the lobby (:meth:`bot.play.lobby.Lobby.kick_seat`)."""
        return await self.lobby.kick_seat(channel_id, actor_id, seat_number, can_manage=can_manage, lang=lang)

    async def start(self, channel_id: int, user_id: int, *, can_manage: bool = False, lang: str | None = None
                    ) -> Outcome:
        """Start the lobby's game (:meth:`bot.play.lobby.Lobby.start`)."""
        return await self.lobby.start(channel_id, user_id, can_manage=can_manage, lang=lang)

    async def abort(self, channel_id: int, user_id: int, *, can_manage: bool = False, lang: str | None = None
                    ) -> Outcome:
        """End the channel's game without a winner (:meth:`bot.play.lobby.Lobby.abort`)."""
        return await self.lobby.abort(channel_id, user_id, can_manage=can_manage, lang=lang)

    # Play --------------------------------------------------------------------------------------

    async def act(self, channel_id: int, user_id: int, action_text: str, expected_version: int | None = None,
                  *, game_id: int | None = None, autopilot: bool = False, reason: Reason | None = None,
                  lang: str | None = None) -> Outcome:
        """Play ``action_text`` for ``user_id`` in the channel's game. ``expected_version`` and ``game_id``
        come from buttons: a press from an older move is refused as stale. ``autopilot``: the computer plays
        for an absent player; the board and the log say so, and why (``reason``: the driver's). ``lang``: the
        player's language, for what only they see (refusals, their private notes); the channel reads the game's
        language."""
        self._pressing += 1
        try:
            return await self._act(channel_id, user_id, action_text, expected_version, game_id=game_id,
                                   autopilot=autopilot, reason=reason, lang=lang)
        finally:
            self._pressing -= 1

    async def _act(self, channel_id: int, user_id: int, action_text: str, expected_version: int | None, *,
                   game_id: int | None, autopilot: bool, reason: Reason | None, lang: str | None) -> Outcome:
        async with self.lock(channel_id):
            read = await self.store.read_move(channel_id, move_keys)  # all the move reads, at once
            rec, reads = read.game, Preread(self.store, read.settings)
            self.written.check(channel_id, read)
            problem = await self._refusal_to_act(rec, channel_id, user_id, expected_version, game_id, lang)
            if problem is not None or rec is None:
                return problem or self._no_game(lang)
            seat, own = rec.seat_of(user_id), self.lang_of(rec, user_id, lang)
            assert seat is not None
            game, front = await self.load(rec), self.fronts(rec.game_key)
            try:
                moved, after = await self._move(rec, game, front, action_text.strip(), seat, autopilot, reason,
                                                latest=read.latest)
            except IllegalAction as exc:
                self.keep(rec, game)  # unchanged, as the contract promises
                return refuse(front.refused_move(game, exc, own))  # with what is possible, said once
            except Exception:
                log.exception("game %s: applying %r failed", rec.id, clip_input(action_text))
                return refuse(texts.say("apply_failed", own))
            moved = await recap.flag_move(reads, rec, moved)
            out = self.held(moved.rows)
            waiting = await self.autoplay.waiting(rec, after, reads=reads)
            try:
                rec = await self.store.games.append_action(
                    rec.id, expected_version=rec.version, seat=seat, user_id=user_id, action=moved.action,
                    state=moved.state, status=FINISHED if after.is_over else ACTIVE, narration=moved.narration,
                    outgoing=out, computers_waiting=waiting,
                    settings=[await takeback.mark(reads, user_id, rec.id, rec.version, "autopilot")]
                    if autopilot else [recap.seen(reads, user_id, rec.id, rec.version + 1)])
            except StaleVersion as exc:
                return refuse(texts.say("move.moved_on", own, error=exc))
            records = self._stored(rec, after, out, moved.message, waiting, whole=True)
            await self._end(rec, after)
        return Accepted(rec.id, tuple(d.id for d in records), tuple(self._private_notes(rec, front, moved.events,
                                                                                        {seat: own})), records)

    async def _refusal_to_act(self, rec: GameRecord | None, channel_id: int, user_id: int,
                              expected_version: int | None, game_id: int | None, lang: str | None
                              ) -> Refusal | None:
        """Why ``user_id`` may not act in the channel's game now (None: they may). A press of another
        channel's game, of a move that never happened or of an older move is refused without touching any
        message; a game left waiting on a computer is handed to the computers again."""
        if game_id is not None and (rec is None or rec.id != game_id):
            own = lang or texts.DEFAULT
            if await self._ended_here(game_id, channel_id):
                return refuse(texts.say("move.ended_button", own))
            return refuse(texts.say("move.other_game_button", own))  # another channel's, or forged
        if rec is None:
            return self._no_game(lang)
        own = self.lang_of(rec, user_id, lang)
        if rec.status == LOBBY:
            return refuse(texts.say("not_started", own, seats=self._seat_line(rec, own)))
        if expected_version is not None and expected_version > rec.version:
            return refuse(texts.say("move.foreign_button", own))  # a move that never happened: forged
        if expected_version is not None and expected_version != rec.version:
            return refuse(texts.say("stale_button", own, old=expected_version, now=rec.version))
        seat = rec.seat_of(user_id)
        if seat is None:
            return refuse(texts.say("no_seat", own, seats=self._seat_line(rec, own)))
        game = await self.load(rec)
        turn = game.to_act
        if computer_to_act(rec, game):  # left over from a restart or a long computer sequence
            assert turn is not None
            self._wake(channel_id)
            return refuse(texts.say("computer_to_move", own, who=self._who(rec.seats[turn])))
        if not game.may_act(seat):
            who = self._who(rec.seats[turn]) if turn is not None else texts.say("move.nobody", own)
            return refuse(texts.say("not_your_turn", own, who=who))
        return None

    async def _move(self, rec: GameRecord, game: Game, front: GameUnit[Any], text: str, seat: int, autopilot: bool,
                    reason: Reason | None = None, *, latest: Delivery | None) -> tuple[Moved, Game]:
        """A person's move, applied, planned and composed. Alone, on the event loop itself: it holds the loop a
        few milliseconds, and a thread would cost more (it starts on a cold core). With other presses under way,
        off the loop: in a worker process on a copy when moves are being applied already (so the cores share a
        busy moment's work; the copy replaces ours), else in a thread on the game itself. While it is applied
        and saved the game object is ours alone: readers load a fresh copy from the snapshot."""
        table, pingable = table_of(rec), self.pingable(rec)
        self.forget(rec.id)
        crowded, alone = self._moving > 0, self._pressing <= 1
        self._moving += 1
        try:
            if crowded and self._remote(rec):
                moved = await self.pictures.call(rec.game_key, step, rec.game_key, rec.state, text, seat, table,
                                                 latest, pingable, autopilot, reason)
                return moved, self.classes(rec.game_key).from_dict(moved.state)
            if alone and not crowded:
                return play_move(front, game, text, seat, table, latest, pingable, autopilot, reason), game
            moved = await asyncio.to_thread(play_move, front, game, text, seat, table, latest, pingable, autopilot,
                                            reason)
            return moved, game
        finally:
            self._moving -= 1

    def _stored(self, rec: GameRecord, game: Game, out: Sequence[Outgoing], message: Message | None = None,
                waiting: bool | None = None, *, whole: bool = False) -> tuple[Delivery, ...]:
        """A write is committed: keep the game, the message composed for its newest record, and whether the
        channel's computers (or a person's forced move or plan: ``waiting``) move once that record is
        delivered. ``whole``: ``out`` was written by this one write, and the records as stored are known (they
        are returned); else what this process knew of the channel's records is forgotten."""
        records = tuple(written(o, rec, self.store.now()) for o in out if o.id is not None) if whole else ()
        if whole:
            self.written.wrote(records)
        else:
            self.written.forget(rec.channel_id)
        self.keep(rec, game)
        if self.on_stored is not None:
            self.on_stored(rec.id)
        if self.on_turn is not None:
            self.on_turn(rec.id)
        last = out[-1].id if out else None
        if message is not None and last is not None:
            self._composed.put((last, rec.version), message)
        if (computer_to_act(rec, game) if waiting is None else waiting) and last is not None:
            self._waiting[rec.channel_id] = last
        return records

    async def _end(self, rec: GameRecord, game: Game) -> None:
        """A game that just ended: its results and its end message (standings, replay) are stored, once; the
        final move stands however that goes."""
        if not game.is_over:
            return
        self.forget(rec.id, drivers=True)
        self.keep(rec, game)
        try:
            end = await history.record_end(self.store, self.fronts(rec.game_key), rec, game, page=self.page_link)
        except Exception:
            log.exception("game %s: recording its end failed", rec.id)
            end = None
        if end is not None and self.on_outbox is not None:
            self.on_outbox()
        if self.on_ended is not None:
            self.on_ended(rec.id, rec.channel_id)

    async def _ended_here(self, game_id: int, channel_id: int) -> bool:
        """Whether ``game_id`` is an earlier game of this channel (its buttons are merely stale)."""
        try:
            old = await self.store.games.get_game(game_id)
        except GameNotFound:
            return False
        return old.channel_id == channel_id and not old.is_open

    def _remote(self, rec: GameRecord) -> bool:
        """Whether a move of this game is applied in a worker process: the pool runs, and the game's rules
        and unit are the registered ones a worker finds by key."""
        return (rec.state is not None and self.classes is game_class and self.fronts is unit_for
                and self.pictures.ready_for(rec.game_key))

    def _wake(self, channel_id: int) -> None:
        """Tell the computer worker that the channel's computers are to move."""
        self._waiting.pop(channel_id, None)
        if self.on_computers is not None:
            self.on_computers(channel_id)

    # Things that play themselves (:mod:`bot.play.autoplay`) ----------------------------------------

    async def channels_waiting_on_computers(self) -> list[int]:
        """Channels whose running game waits for a computer, after a restart
        (:meth:`bot.play.autoplay.Autoplay.channels_waiting_on_computers`)."""
        return await self.autoplay.channels_waiting_on_computers()

    async def play_computers(self, channel_id: int) -> Accepted | None:
        """A batch of the moves that play themselves (:meth:`bot.play.autoplay.Autoplay.play_computers`)."""
        return await self.autoplay.play_computers(channel_id)

    async def autoplay_due(self, rec: GameRecord, channel_id: int) -> None:
        """A plan or forced moves changed during their player's turn (:meth:`bot.play.autoplay.Autoplay.due`)."""
        await self.autoplay.due(rec, channel_id)

    # Messages ----------------------------------------------------------------------------------

    async def _draw(self, record: Showing, table: Table, front: GameUnit[Any], game: Game | None,
                    state: Mapping[str, Any] | None = None, actions: Sequence[str] = ()) -> Message:
        """The message of ``record`` composed off the event loop: in a worker process when the game's are
        ready (from ``state``, else the game's snapshot), else in a thread on ``game`` itself."""
        registered = self.classes is game_class and self.fronts is unit_for
        if game is not None and registered and self.pictures.ready_for(table.game_key):
            snapshot = dict(state) if state is not None else await asyncio.to_thread(game.to_dict)
            return await self.pictures.call(table.game_key, compose_state, record, table, snapshot, table.lang,
                                            list(actions))
        return await asyncio.to_thread(compose, record, table, front, game, table.lang, actions=actions)

    async def message(self, d: Delivery, lang: str | None = None, *, words_only: bool = False) -> Message:
        """The message of a delivery record, in ``lang`` (the game's by default): the one composed with its
        move when it is still at hand, else composed now from the store, the game as it stood at the record's
        move (the snapshot, or a replay of the log; words only when that move is gone, taken back).
        ``words_only``: the record's lines alone (a turn's state that a newer one follows)."""
        composed = self._composed.get((d.id, d.version)) if lang is None and not words_only else None
        if composed is not None:
            return composed
        record = Showing.from_payload(d.kind, d.payload)
        if words_only:
            record = replace(record, picture="none", describe=False, named=None, ping=False, finale=False)
        if d.game_id is None:
            return compose(record, Table(0, "", d.version, lang or texts.DEFAULT, ()), None, None, lang or "en")
        rec = await self.store.games.get_game(d.game_id)
        front = self.fronts(rec.game_key)
        table = replace(table_of(rec, d.version), lang=lang or rec.lang)
        needs_game = record.board or record.finale or record.describe or record.named is not None
        state = await self.state_at(rec, d.version) if needs_game else None
        game = self.classes(rec.game_key).from_dict(state) if state is not None else None
        actions = [a.action for a in await self.store.games.actions(rec.id)] if record.picture == "replay" else []
        return await self._draw(record, table, front, game, state, actions)

    async def state_at(self, rec: GameRecord, version: int) -> dict[str, Any] | None:
        """The game's snapshot as it stood at ``version``: the stored one, or a replay of its log; None when
        the log no longer reaches that move (moves taken back)."""
        if version == rec.version:
            return rec.state
        actions = await self.store.games.actions(rec.id)
        if rec.status == LOBBY or len(actions) < version:
            return None
        cls = self.classes(rec.game_key)

        def replay() -> dict[str, Any]:
            game = cls.create(rec.setup, rec.seed)
            for a in actions[:version]:
                game.apply(a.action)
            return game.to_dict()

        return await asyncio.to_thread(replay)

    async def delivered(self, d: Delivery, message_id: int | None) -> bool:
        """The message of delivery record ``d`` was posted (``message_id``; None: given up); False if it
        already was. Once a move's last record is out, the computers it left to act move on."""
        done = await self.store.outbox.mark_delivered(d.id, message_id)
        self.written.delivered(d, message_id, self.store.now())
        waiting = self._waiting.get(d.channel_id)
        if waiting is not None and d.id >= waiting:
            self._wake(d.channel_id)
        return done

    async def undelivered(self, delivery_id: int, *, retry_at: float) -> None:
        """Posting failed: the record is free again, for the outbox worker to try from ``retry_at``."""
        await self.store.outbox.release_delivery(delivery_id, due_at=retry_at)

    # Queries -----------------------------------------------------------------------------------

    async def status(self, channel_id: int, user_id: int | None = None, lang: str | None = None
                     ) -> Message | Refusal:
        """The board as ``user_id`` may see it, whose turn, and what they can do now
        (:meth:`bot.play.reading.Reading.status`)."""
        return await self.reading.status(channel_id, user_id, lang)

    async def log(self, channel_id: int, limit: int = 20, max_chars: int = 1900, *,
                  user_id: int | None = None, lang: str | None = None) -> Message | Refusal:
        """The last ``limit`` moves of the channel's game, as the asker may read them
        (:meth:`bot.play.reading.Reading.log`)."""
        return await self.reading.log(channel_id, limit, max_chars, user_id=user_id, lang=lang)



__all__ = ["Accepted", "Moved", "Outcome", "Private", "Refusal", "Service", "clip_input", "refuse", "table_of"]
