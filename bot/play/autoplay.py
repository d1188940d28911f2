"""Moves nobody presses: a computer's, and a person's forced move or plan item (:mod:`bot.play.plans`), played in
batches under the channel's lock. Each move is stored with the records of the message it joins, in one
transaction; a batch stops before another seat's turn, within a count and a wall-clock budget, and the bot's
computer worker (:mod:`bot.play.computers`) asks for the next until none is to move. A plan item the game refuses
stops the plan, its reason told to its player alone. The coordinator that holds this (the service) lends its
lock, its running games, its records' rows and the steps of a write (:class:`Host`); the computers' drivers
and the moves kept for the next batch live here."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from bot import texts
from bot.clock import recap
from bot.drivers import Driver
from bot.games import GameUnit
from bot.messages import Line, Showing
from bot.play import plans, takeback
from bot.play.memory import LRU
from bot.play.moving import move_line
from bot.play.seats import accepted, lang_of
from bot.store import ACTIVE, FINISHED, Delivery, GameRecord, Outgoing, Reads, StaleVersion, Store
from bot.telling import turn_messages
from bot.telling.compose import Message, Table, table_of, worded_line
from bot.telling.outcomes import Accepted, Private
from rules.contract import Event, Game, IllegalAction, events_for
from rules.literal import Name

log = logging.getLogger(__name__)

#: computer moves in one batch; more follow in further batches (see :meth:`Autoplay.play_computers`)
COMPUTER_MOVES_PER_REPLY = 40
#: wall-clock budget for computer moves in one batch, so the channel sees them move along
COMPUTER_SECONDS_PER_REPLY = 1.5


def computer_to_act(rec: GameRecord, game: Game) -> bool:
    """Whether a computer's seat is to act in the running game."""
    seat = game.to_act
    return seat is not None and not game.is_over and 0 <= seat < len(rec.seats) and rec.seats[seat].is_computer


class Writer(Protocol):
    """What a write of a move or a lobby's change goes through in the coordinator that holds it (the service
    is one): the channel's lock, the running games it keeps in memory, the delivery rows of records, who may
    be pinged, and the steps shared with a person's move (the message composed, the record of a stored
    write, a game's end, the private notes)."""

    def lock(self, channel_id: int) -> Any: ...

    async def load(self, rec: GameRecord) -> Game: ...

    def keep(self, rec: GameRecord, game: Game) -> None: ...

    def forget(self, game_id: int, *, drivers: bool = False) -> None: ...

    def outgoing(self, records: Sequence[Showing]) -> list[Outgoing]: ...

    def pingable(self, rec: GameRecord) -> frozenset[int]: ...

    async def _draw(self, record: Showing, table: Table, front: GameUnit[Any], game: Game | None) -> Message: ...

    def _stored(self, rec: GameRecord, game: Game, out: Sequence[Outgoing], message: Message | None = None,
                waiting: bool | None = None, *, whole: bool = False) -> tuple[Delivery, ...]: ...

    async def _end(self, rec: GameRecord, game: Game) -> None: ...

    def _private_notes(self, rec: GameRecord, front: GameUnit[Any], events: Sequence[Event]) -> list[Private]: ...


class Host(Writer, Protocol):
    """What the batches ask of the coordinator besides a write (:class:`Writer`): the computers' drivers
    (asked at each use, so drivers set later count) and the computer worker woken."""

    @property
    def drivers(self) -> Callable[[str, str, int], Driver]: ...

    def _wake(self, channel_id: int) -> None: ...


@dataclass
class _Batch:
    """A batch of computer moves (and people's moves that play themselves) under way: the game as stored and
    as played so far, the records of the message the moves join and their rows, every event played, and
    the private notes of plans that stopped."""

    rec: GameRecord
    game: Game
    records: list[Showing]
    out: list[Outgoing]
    played: list[Event] = field(default_factory=list)
    notes: list[Private] = field(default_factory=list)


class Autoplay:
    """The moves that play themselves in a channel's game, over a :class:`Store`."""

    def __init__(self, store: Store, *, classes: Callable[[str], type[Game]], fronts: Callable[[str], GameUnit[Any]],
                 host: Host, cache_size: int) -> None:
        self.store = store
        self.classes = classes
        self.fronts = fronts
        self.host = host
        self.moves_per_reply = COMPUTER_MOVES_PER_REPLY
        self.seconds_per_reply = COMPUTER_SECONDS_PER_REPLY
        #: each computer seat's driver, kept between its moves so its plans carry over: (game, seat, kind)
        self._drivers: LRU[tuple[int, int, str], Driver] = LRU(cache_size * 2)
        #: a computer's move that began the next person's turn, chosen but kept for the next batch
        self._next_moves: LRU[tuple[int, int], str] = LRU(cache_size)

    def forget(self, game_id: int) -> None:
        """Drop the drivers of a game (it ended, or nobody plays it any more)."""
        self._drivers.drop(lambda key: key[0] == game_id)

    async def due(self, rec: GameRecord, channel_id: int) -> None:
        """A player's plan or forced moves changed during their turn: the game is put in the resume queue
        (unless it moved on meanwhile), so what now plays itself plays, after a restart too, and the computer
        worker is woken."""
        try:
            await self.store.games.replace_seats(rec.id, version=rec.version, seats=rec.seats,
                                                 expected_seats=rec.seats, computers_waiting=True)
        except StaleVersion:
            return
        self.host._wake(channel_id)

    async def channels_waiting_on_computers(self) -> list[int]:
        """Channels whose running game waits for a computer (after a restart: resume them). Read from the
        store's queue, without loading any game."""
        return [channel for _, channel in await self.store.games.waiting_on_computers()]

    async def play_computers(self, channel_id: int) -> Accepted | None:
        """Let computers move in the channel's game, one message's worth within the batch's budget; None when
        no computer is to act. The bot's computer worker calls this again until it answers None."""
        async with self.host.lock(channel_id):
            rec = await self.store.games.channel_game(channel_id)
            if rec is None or rec.status != ACTIVE:
                return None
            game = await self.host.load(rec)
            if not await self.waiting(rec, game):
                return None
            front = self.fronts(rec.game_key)
            rec, game, records, out, played, notes = await self.batch(rec, game, front)
            if not out:
                return accepted(rec, out, notes) if notes else None
            message = await self.host._draw(records[-1], table_of(rec), front, game)
            self.host._stored(rec, game, out, message, await self.waiting(rec, game))
            await self.host._end(rec, game)
        return accepted(rec, out, [*self.host._private_notes(rec, front, played), *notes])

    async def batch(self, rec: GameRecord, game: Game, front: GameUnit[Any], records: Sequence[Showing] = (),
                    out: Sequence[Outgoing] = ()
                    ) -> tuple[GameRecord, Game, list[Showing], list[Outgoing], list[Event], list[Private]]:
        """Computer moves while one is to act, each stored with the records of the message it joins: the
        batch stops before another seat's turn (a message of its own, next batch), and a move that hands the
        turn to a person once the batch's message is out (it goes on in an edit, which pings nobody) is kept
        for the next batch (which posts the message that pings them) and not applied now; while the batch's
        message is a new one, that move joins it and it becomes the message of the person's turn. ``records``
        and ``out``: a message just stored and not delivered yet, which the moves join (the first board).
        A person's forced move or plan (:mod:`bot.play.plans`) is played the same way, as theirs: its plan's new
        state is stored with it, and a plan item the game refuses stops the plan, its reason kept and told.
        Returns the record, the game, the records, their rows, every event played (for private notes: a
        kart bumped onto a face-down tile picks it up, R12) and the notes of plans that stopped."""
        batch = _Batch(rec, game, list(records), list(out))
        deadline = time.monotonic() + self.seconds_per_reply
        for _ in range(self.moves_per_reply):
            if not await self._step(batch, front, deadline):
                break
        return batch.rec, batch.game, batch.records, batch.out, batch.played, batch.notes

    async def _step(self, batch: _Batch, front: GameUnit[Any], deadline: float) -> bool:
        """One move of ``batch`` by a computer, or a person's forced move or plan item: played, joined to the
        batch's message and stored. False when the batch stops before it (nobody moves by themselves,
        another seat's turn, a move kept for the next batch, time up), a plan stopped, or it failed."""
        rec, game = batch.rec, batch.game
        seat = game.to_act
        if seat is None or game.is_over or time.monotonic() > deadline:
            return False
        auto = None if computer_to_act(rec, game) else await self.auto_move(rec, game)
        if auto is None and not computer_to_act(rec, game):
            return False
        if batch.records and batch.records[-1].turn != seat:
            return False  # another seat's turn: a message of its own, in the next batch
        kept = self._next_moves.pop((rec.id, rec.version))
        self.host.forget(rec.id)
        try:
            driver = None if auto is not None else self._driver(rec, seat, rec.seats[seat].driver or "random")
            action, events, state = await asyncio.to_thread(self._computer_move, rec, game, seat,
                                                            kept if auto is None else auto[1].action, driver)
        except IllegalAction as exc:  # a plan's item the game refuses now: the plan stops there
            self.host.keep(rec, game)
            assert auto is not None
            batch.notes.append(await self._plan_stops(rec, game, front, seat, auto[1].item or auto[1].action, exc))
            return False
        except Exception:
            log.exception("game %s: the computer in seat %s failed", rec.id, seat)
            return False
        after = table_of(rec, rec.version + 1)
        hands_over = turn_messages.hands_over(game, after, seat)
        if batch.records and not turn_messages.joins(batch.records[-1], hands_over) and rec.state is not None:
            batch.game = self.classes(rec.game_key).from_dict(rec.state)  # as before the move, kept for next time
            self.host.keep(rec, batch.game)
            self._next_moves.put((rec.id, rec.version), action)
            return False
        records = list(batch.records)
        line, told = await self._join_batch(batch, front, seat, action, events, after, hands_over, auto)
        if await self._store_move(batch, front, seat, action, state, events,
                                           told or worded_line(line, front, rec.lang), auto):
            return True
        # the game moved on meanwhile: the move was dropped, so the batch's game and message are as before it
        if batch.out and rec.state is not None:
            batch.records = records
            batch.game = self.classes(rec.game_key).from_dict(rec.state)
        return False

    def _auto_line(self, front: GameUnit[Any], rec: GameRecord, seat: int, line: Line,
                   auto: tuple[int, plans.AutoMove] | None) -> tuple[Line, str | None]:
        """A move's line as the channel reads it: a computer's as it is; a person's forced move or plan item
        says it played for them, and why (with its words, to store as the move's narration)."""
        if auto is None:
            return line, None
        name = Name(rec.seats[seat].name)
        if auto[1].kind == "forced":
            line = Line(say=f"move.forced_{auto[1].why}", params={"name": name, "narration": line})
        else:
            line = Line(say=f"move.{auto[1].kind}", params={"name": name, "narration": line})
        return line, worded_line(line, front, rec.lang)

    async def _join_batch(self, batch: _Batch, front: GameUnit[Any], seat: int, action: str, events: list[Event],
                          after: Table, hands_over: bool, auto: tuple[int, plans.AutoMove] | None
                          ) -> tuple[Line, str]:
        """The move joins the batch's message (not posted yet: a move handing over makes it the person's
        turn's), or plans the message it shows in; returns its line and narration."""
        rec, game = batch.rec, batch.game
        public = events_for(events, None)
        line, told = move_line(front, public, rec.seats[seat].name, action, False, rec.lang, "computer_played")
        line, auto_told = self._auto_line(front, rec, seat, line, auto)
        may_ping = self.host.pingable(rec).__contains__
        if batch.records:
            grown = replace(batch.records[-1].with_lines([line]).with_move(public),
                            turn=game.to_act if hands_over else batch.records[-1].turn)
            batch.records[-1] = turn_messages.finish(grown, game, after, may_ping)
        else:
            latest = await self.store.outbox.latest_delivery(rec.id)
            batch.records = turn_messages.plan_move(latest, game=game, table=after, actor=seat, before=rec.version,
                                                    lines=[line], events=public, period=front.period(game),
                                                    may_ping=may_ping)
            batch.out = self.host.outgoing(batch.records)
        return line, auto_told or told

    async def _store_move(self, batch: _Batch, front: GameUnit[Any], seat: int, action: str,
                          state: dict[str, Any], events: list[Event], narration: str,
                          auto: tuple[int, plans.AutoMove] | None) -> bool:
        """Store the move with the newest record of the batch's message (and a plan's new state with it);
        False when the game moved on meanwhile (the move is dropped, and the record is as it was)."""
        rec, game = batch.rec, batch.game
        plan = auto[1].plan if auto is not None else None
        newest, before = batch.out[-1], batch.out[-1].payload
        batch.records[-1] = await recap.flag(self.store, rec, batch.records[-1], rec.version + 1)
        newest.payload = batch.records[-1].to_payload()
        try:
            batch.rec = await self.store.games.append_action(
                rec.id, expected_version=rec.version, seat=seat, user_id=None if auto is None else auto[0],
                action=action, state=state, status=FINISHED if game.is_over else ACTIVE, narration=narration,
                outgoing=batch.out if newest.id is None else [newest],
                computers_waiting=await self.waiting(rec, game, plan),
                settings=[] if auto is None else [
                    *([plan.write(auto[0], rec.id)] if plan is not None else []),
                    await takeback.mark(self.store, auto[0], rec.id, rec.version, auto[1].kind)])
        except StaleVersion:
            log.warning("game %s moved on while a computer played; its move was dropped", rec.id)
            newest.payload = before
            if newest.id is None:
                batch.records, batch.out = [], []
            return False
        self.host.keep(batch.rec, game)
        batch.played += events
        return True

    async def auto_move(self, rec: GameRecord, game: Game, plan: plans.Plan | None = None, *,
                        reads: Reads | None = None) -> tuple[int, plans.AutoMove] | None:
        """What plays itself now for the person to act (their user id and the move: their plan's next item,
        a standing item, or a forced move), None when they decide. ``plan``: their plan as it will stand
        (not read from the store)."""
        seat = game.to_act
        if (seat is None or game.is_over or not 0 <= seat < len(rec.seats) or rec.seats[seat].is_computer
                or rec.status != ACTIVE):
            return None
        user, reads = rec.seats[seat].user_id, reads or self.store
        if plan is None:
            plan, auto = await plans.plan_and_auto(reads, user, rec.id)
        else:
            auto = await plans.auto_on(reads, user, rec.id)
        move = plans.next_move(self.fronts(rec.game_key), game, seat, plan, auto)
        return None if move is None else (user, move)

    async def waiting(self, rec: GameRecord, game: Game, plan: plans.Plan | None = None, *,
                      reads: Reads | None = None) -> bool:
        """Whether the seat to act moves without anyone pressing: a computer, or a person's forced move or
        plan (``plan``: the actor's plan as it will stand; ``reads``: the settings read with the move)."""
        if computer_to_act(rec, game):
            return True
        return not game.is_over and await self.auto_move(rec, game, plan, reads=reads) is not None


    async def _plan_stops(self, rec: GameRecord, game: Game, front: GameUnit[Any], seat: int, item: str,
                          exc: IllegalAction) -> Private:
        """The plan of ``seat``'s player stops at ``item``, which the game refused: the queue is emptied (its
        standing items stay) and the reason kept, in the player's language, for them alone."""
        user = rec.seats[seat].user_id
        lang = lang_of(rec, user, None)
        reason = front.refused_move(game, exc, lang)
        old = await plans.load_plan(self.store, user, rec.id)
        await plans.save_plan(self.store, user, rec.id,
                              plans.Plan((), old.standing, {"item": item, "reason": reason}))
        return Private(seat, user, texts.say("plan.stopped", lang, item=item, reason=reason), lang)

    def _computer_move(self, rec: GameRecord, game: Game, seat: int, kept: str | None, driver: Driver | None
                       ) -> tuple[str, list[Event], dict[str, Any]]:
        """One computer move (in a worker thread): the move kept from the last batch (or a person's own
        move that plays itself), else the seat's driver's choice; a failing driver gives way to a random one.
        Applied to ``game``."""
        if kept is None:
            assert driver is not None
            try:
                kept = str(driver.choose(game, seat))
            except Exception:  # drivers choose on copies, so the game is as it was
                seed = (rec.seed * 1_000_003 + rec.version * 101 + seat) & ((1 << 62) - 1)
                log.exception("game %s: a computer failed; it plays a random move instead", rec.id)
                kept = str(self.host.drivers(rec.game_key, "random", seed).choose(game, seat))
        action = game.parse_action(kept)
        events = game.apply(action)
        return str(action), events, game.to_dict()

    def _driver(self, rec: GameRecord, seat: int, kind: str) -> Driver:
        """The seat's driver, kept while the game is in memory so its plans carry from move to move. Its seed
        depends on the game and the seat, so after a restart a computer of the same seat starts alike."""
        key = (rec.id, seat, kind)
        driver = self._drivers.get(key)
        if driver is None:
            seed = (rec.seed * 1_000_003 + seat * 7919 + 17) & ((1 << 62) - 1)
            driver = self.host.drivers(rec.game_key, kind, seed)
            self._drivers.put(key, driver)
        return driver


__all__ = ["COMPUTER_MOVES_PER_REPLY", "COMPUTER_SECONDS_PER_REPLY", "Autoplay", "Host", "computer_to_act"]
