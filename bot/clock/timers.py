"""Timed events of long races: turn notices, reminders, deadlines and the autopilot, fired once.

The ticker looks at the store, never at memory, so nothing is lost to a restart:

- **sweep**: a running game whose turn it has not seen yet (the game's version moved since its mark) gets
  the timers of its new turn, in one transaction with the mark: a direct-message notice, reminders every
  ``reminder`` hours (at most three a turn), and a deadline after ``turn_limit`` hours (at once when the
  player is away). A move that leaves the same player to act keeps the turn's deadline and reminder count.
- **fire**: timers that fell due are claimed (so one process fires each), checked against the game (a
  timer of an older move, or of a seat a computer took over, is dropped), carried out, then marked fired,
  with the next reminder scheduled in the same transaction. A message carries a nonce made from its timer,
  so a message repeated after a crash between sending and marking is posted once. A deadline whose autopilot
  left the seat still to act in that turn is armed again in the transaction that marks it fired, so a
  timed-out turn never waits without a timer.

What falls due during a player's quiet hours waits for their end. Autopilot moves are played through
:meth:`Service.act` like a player's own (stored with their delivery record, so the board reaches the
channel however the process fares), chosen by the game's best computer driver (in a picture worker process
when they run, so its search never holds the event loop), and say so in the log, with the driver's
one-line reason (:mod:`bot.drivers.reasons`) on the move's line.

How soon a timer fires: the running ticker sleeps until the next timer falls due (looking at the clock every
:data:`LOOK_SECONDS`, at the store every :data:`POLL_SECONDS`), and is woken at once when a move is stored
or a command changes a turn's timers (:meth:`Ticker.wake`), so a notice or an ``away`` turn due now is not
left to the next look. A tick fires the timers of different games side by side (:mod:`bot.telling.lanes`): an
autopilot's turn holds one of :data:`AUTOPILOTS_AT_ONCE` places, notices and reminders one of
:data:`MESSAGES_AT_ONCE` of their own, so a message never waits behind another game's autopilot; each
game's timers fire in order. A tick under way looks again when woken.
The clock is injectable: tests drive a fake one and call :meth:`Ticker.tick`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from bot import texts
from bot.clock import notices
from bot.clock.settings import AUTOPILOT, CHANNEL, DM, OFF, Settings
from bot.drivers import Driver, driver_for
from bot.drivers.reasons import Choice, Reason, explain
from bot.games import game_class
from bot.messages import host_of, person_of
from bot.store import ACTIVE, GameNotFound, GameRecord, NewTimer, Store, Timer
from bot.telling.lanes import Lanes
from bot.telling.outcomes import Accepted, Refusal
from bot.telling.pictures import Pictures
from rules.contract import Game
from rules.literal import Person

log = logging.getLogger(__name__)


def own_lang(rec: GameRecord, seat: int | None) -> str:
    """The language a seat's player reads what is sent to them alone: the one they sat down with, else the
    game's."""
    if seat is not None and 0 <= seat < len(rec.seats) and rec.seats[seat].lang:
        return str(rec.seats[seat].lang)
    return rec.lang


NOTICE, REMIND, DEADLINE = "notice", "remind", "deadline"
#: reminders of one turn
REMINDERS_PER_TURN = 3
#: seconds between looks at the store in the running bot
POLL_SECONDS = 10.0
#: seconds between looks at the clock while the ticker sleeps until the next timer falls due
LOOK_SECONDS = 1.0
#: autopilot turns (deadlines) played at once, each in a game of its own
AUTOPILOTS_AT_ONCE = 2
#: notices, reminders and the host's questions sent at once, in places of their own beside the autopilot's
MESSAGES_AT_ONCE = 4
#: how long a claimed timer is held before another process may fire it
LEASE = 120.0
#: seconds before trying a timer again (the board not posted yet, a failed send)
RETRY = 15.0
#: attempts before a notice goes out without its link, or a failing message is given up
TRIES = 6
#: actions the autopilot plays in one turn at most
AUTOPILOT_STEPS = 40
#: games whose new turn one sweep times
SWEEP_BATCH = 100
#: the computer kind the autopilot prefers
AUTOPILOT_KIND = "smart"


class Messenger(Protocol):
    """How the ticker reaches people (the Discord front end implements it)."""

    async def to_channel(self, channel_id: int, text: str, mention: int | None, nonce: str) -> int | None: ...

    async def to_user(self, user_id: int, text: str, nonce: str) -> int | None: ...

    async def deliver(self, accepted: Accepted) -> None:
        """Deliver the records of a move the ticker played (an autopilot move), and its private notes."""


def nonce_for(timer_id: int) -> str:
    return f"jt-{timer_id}"


class Referee(Protocol):
    """What the timing acts through (the service is one): the store, this worker's name, the game classes and
    the computer players, the picture workers, the running game of a record, a move played for a seat, and
    the two hooks it sets (who a board may ping, a turn begun)."""

    ping_filter: Callable[[GameRecord, int], bool] | None
    on_turn: Callable[[int], None] | None

    @property
    def store(self) -> Store: ...

    @property
    def owner(self) -> str: ...

    @property
    def classes(self) -> Callable[[str], type[Game]]: ...

    @property
    def drivers(self) -> Callable[[str, str, int], Driver]: ...

    @property
    def driver_kinds(self) -> Callable[[str], list[str]]: ...

    @property
    def pictures(self) -> Pictures: ...

    def takeover_kind(self, game_key: str) -> str: ...

    async def load(self, rec: GameRecord) -> Game: ...

    async def act(self, channel_id: int, user_id: int, action_text: str, expected_version: int | None = None,
                  *, game_id: int | None = None, autopilot: bool = False, reason: Reason | None = None,
                  lang: str | None = None) -> Accepted | Refusal: ...


class Ticker:
    """The timing of every running game; ``run`` is the bot's background task."""

    def __init__(self, referee: Referee, messenger: Messenger, *, clock: Callable[[], float] = time.time,
                 poll: float = POLL_SECONDS) -> None:
        self.referee = referee
        self.store = referee.store
        self.messenger = messenger
        self.clock = clock
        self.poll = poll
        self.settings = Settings(referee.store)
        self._started = False
        #: whether :meth:`run` is looking at the store (else a command that makes a timer due now ticks itself)
        self.running = False
        self._woken = asyncio.Event()
        #: the timers of the ticks under way
        self._ticking: list[Lanes[Timer]] = []

    async def open(self) -> None:
        """Load the players' preferences (the store is open), let boards follow them, and look at a game's
        turn as soon as a move of it is stored."""
        await self.settings.load()
        self.referee.ping_filter = self.pings_in_channel
        self.referee.on_turn = lambda _game_id: self.wake()

    def wake(self) -> None:
        """Look at the store now: a move began a turn, or a command made a timer that may be due now."""
        self._woken.set()
        for lanes in self._ticking:
            lanes.changed.set()  # a tick under way looks again

    def pings_in_channel(self, rec: GameRecord, user_id: int) -> bool:
        return notices.pings_in_channel(self.settings.prefs(user_id, rec.id), self.clock())

    async def run(self) -> None:
        """Tick until cancelled: at once when woken, when the next timer falls due, and every ``poll`` seconds;
        the first tick takes over what a previous run held."""
        takeover = True
        self.running = True
        try:
            while True:
                try:
                    await self.tick(takeover=takeover)
                    takeover = False
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("the timing ticker failed; it looks again in %s s", self.poll)
                await self._sleep()
        finally:
            self.running = False

    async def _sleep(self) -> None:
        """Until woken, the next pending timer falls due by :attr:`clock` (looked at every
        :data:`LOOK_SECONDS`, so a step of the clock shows), or ``poll`` seconds passed."""
        try:
            due = await self.store.turns.next_due()
        except Exception:
            log.exception("the next timer could not be read")
            due = None
        if due is not None and due <= self.clock():
            due = None  # one the last tick could not take (another process holds it): the poll looks again
        end = time.monotonic() + self.poll
        while not self._woken.is_set():
            left = end - time.monotonic()
            if left <= 0 or (due is not None and self.clock() >= due):
                return
            step = min(left, LOOK_SECONDS, max(0.01, due - self.clock()) if due is not None else LOOK_SECONDS)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(step):
                    await self._woken.wait()

    async def tick(self, *, takeover: bool = False) -> int:
        """See new turns, then fire what is due: each game's timers in order, different games side by side
        (autopilot turns in places of their own); while some fire, a wake or a finished one looks again (an
        autopilot's move starts a new turn). Returns how many timers fired."""
        lanes: Lanes[Timer] = Lanes(self._fire_one, lambda t: "autopilot" if t.kind == DEADLINE else "message",
                                    {"autopilot": AUTOPILOTS_AT_ONCE, "message": MESSAGES_AT_ONCE})
        self._ticking.append(lanes)
        try:
            while True:
                self._woken.clear()
                await self.sweep()
                batch = await self.store.turns.claim_timers(self.referee.owner, now=self.clock(), lease=LEASE,
                                                            takeover=takeover)
                for t in batch:
                    lanes.add(t.game_id, t)
                if lanes.idle:
                    return await lanes.join()
                if not batch:
                    await lanes.progress()  # a timer done, or woken
                    lanes.check()
        finally:
            self._ticking.remove(lanes)
            await lanes.cancel()

    async def _fire_one(self, t: Timer) -> int:
        """Fire one claimed timer; one that fails is tried again later (a few times)."""
        try:
            await self.fire(t)
        except Exception:
            log.exception("timer %s (%s) failed", t.id, t.kind)
            await self.store.turns.finish_timer(t.id, then=self._again(t))
        return 1

    # Turns -------------------------------------------------------------------------------------

    async def sweep(self) -> int:
        """Time the new turns of at most ``SWEEP_BATCH`` games (the rest follow at the next tick, so a bot
        that starts with thousands of games never to be timed yet serves meanwhile); returns how many."""
        recs = await self.store.turns.unmarked_turns(SWEEP_BATCH)
        for rec in recs:
            try:
                await self.mark(rec)
            except Exception:
                log.exception("game %s: its turn could not be timed", rec.id)
                await self.store.turns.mark_turn(rec.id, version=rec.version, seat=None, started_at=self.clock(),
                                                 timers=[])
            await asyncio.sleep(0)  # let interactions in between
        return len(recs)

    async def mark(self, rec: GameRecord, *, again: bool = False) -> None:
        """Schedule the timers of the game's current turn (replacing those of the last one). ``again``: the
        turn was seen already; its timers follow changed settings or preferences."""
        game = await self.referee.load(rec)
        seat = game.to_act
        now = self.clock()
        # a terminal's game (a negative channel id) waits at its keyboard: nobody on Discord to remind
        if (seat is None or game.is_over or not 0 <= seat < len(rec.seats) or rec.seats[seat].is_computer
                or rec.channel_id < 0):
            await self.store.turns.mark_turn(rec.id, version=rec.version, seat=seat, started_at=now, timers=[])
            return
        mark = await self.store.turns.turn_mark(rec.id)
        same = mark is not None and mark.seat == seat and (
            (again and mark.version == rec.version) or (mark.version != rec.version and all(  # != : undo goes back
                a.seat == seat for a in await self.store.games.actions(rec.id, since=mark.version))))
        started = mark.started_at if same and mark is not None else now
        prefs = self.settings.prefs(rec.seats[seat].user_id, rec.id)
        setting = await self.settings.game(rec)
        old = await self.store.turns.timers(game_id=rec.id)
        pending = {t.kind: t for t in old if t.fired_at is None}
        timers: list[NewTimer] = []
        if same:
            if NOTICE in pending:
                timers.append(NewTimer(NOTICE, seat, pending[NOTICE].due_at, pending[NOTICE].data))
        elif prefs.mode == DM:
            timers.append(NewTimer(NOTICE, seat, now))
        elif prefs.mode == CHANNEL:
            end = notices.quiet_end(prefs.quiet, now)
            if end is not None:  # the board did not ping them: the ping follows when the quiet hours end
                timers.append(NewTimer(NOTICE, seat, end))
        if setting["reminder"] and prefs.mode != OFF:
            sent = sum(1 for t in old if t.kind == REMIND and t.fired_at is not None
                       and t.data.get("turn") == started) if same else 0
            if sent < REMINDERS_PER_TURN:
                timers.append(NewTimer(REMIND, seat, now + setting["reminder"] * 3600.0,
                                       {"turn": started, "number": sent + 1}))
        if prefs.away_until is not None and prefs.away_until > now:
            timers.append(NewTimer(DEADLINE, seat, now, {"turn": started, "away": True}))
        elif setting["turn_limit"]:
            went_back = same and mark is not None and mark.version > rec.version  # an undo within the turn
            timers.append(_deadline(old, seat, started, setting["turn_limit"] * 3600.0, now, went_back))
        await self.store.turns.mark_turn(rec.id, version=rec.version, seat=seat, started_at=started, timers=timers)
        if any(t.due_at <= now for t in timers):
            self.wake()

    # Firing ------------------------------------------------------------------------------------

    def _again(self, t: Timer, *, soon: bool = False) -> NewTimer | None:
        """The timer tried again later (``soon``: the board it links to is on its way: after 1, 2, 4, 8 s)."""
        tries = int(t.data.get("tries", 0)) + 1
        if tries >= TRIES:
            return None
        wait = min(RETRY, 2.0 ** (tries - 1)) if soon else RETRY
        return NewTimer(t.kind, t.seat, self.clock() + wait, {**t.data, "tries": tries})

    async def fire(self, t: Timer) -> None:
        """Carry out one claimed timer, then mark it fired."""
        try:
            rec = await self.store.games.get_game(t.game_id)
        except GameNotFound:
            await self.store.turns.finish_timer(t.id)
            return
        if (rec.status != ACTIVE or rec.version != t.version or t.seat is None or not 0 <= t.seat < len(rec.seats)
                or rec.seats[t.seat].is_computer):
            await self.store.turns.finish_timer(t.id)  # the game moved on, ended, or a computer took the seat
            return
        user = rec.seats[t.seat].user_id
        prefs = self.settings.prefs(user, rec.id)
        now = self.clock()
        if t.kind in (NOTICE, REMIND):
            end = notices.quiet_end(prefs.quiet, now)
            if end is not None:
                await self.store.turns.finish_timer(t.id, then=NewTimer(t.kind, t.seat, end, t.data))
                return
            if prefs.mode == OFF:
                await self.store.turns.finish_timer(t.id)
                return
            link = await self.board_link(rec)
            if link is None and int(t.data.get("tries", 0)) < TRIES - 1 and await self._board_pending(rec):
                await self.store.turns.finish_timer(t.id, then=self._again(t, soon=True))  # the board is on its way
                return
            title = self.referee.classes(rec.game_key).title
            if t.kind == NOTICE:
                if prefs.mode == DM:  # in the player's own language; the channel reads the game's
                    text = notices.notice_text(title, rec.channel_id, link, own_lang(rec, t.seat))
                    await self.messenger.to_user(user, text, nonce_for(t.id))
                else:
                    text = texts.say("notice.quiet_over", rec.lang, user=person_of(rec, user), title=title)
                    await self.messenger.to_channel(rec.channel_id, notices.with_link(text, link, rec.lang),
                                                    user, nonce_for(t.id))
                await self.store.turns.finish_timer(t.id)
                return
            await self._remind(t, rec, user, prefs.mode, title, link, now)
            return
        if t.kind == DEADLINE:
            setting = await self.settings.game(rec)
            then = None
            if t.data.get("away") or setting["on_timeout"] == AUTOPILOT:
                await self.autopilot(rec, t.seat)
                then = await self._unfinished(t)
            else:
                await self._ask_host(rec, t, setting)
            await self.store.turns.finish_timer(t.id, then=then)
            return
        log.warning("timer %s has kind %r, which this version does not know; dropped", t.id, t.kind)
        await self.store.turns.finish_timer(t.id)

    async def _remind(self, t: Timer, rec: GameRecord, user: int, mode: str, title: str, link: str | None,
                      now: float) -> None:
        number = int(t.data.get("number", 1))
        waited = now - float(t.data.get("turn", now))
        lang = own_lang(rec, t.seat) if mode == DM else rec.lang
        text = notices.reminder_text(person_of(rec, user), title, waited, number, link, dm=mode == DM, lang=lang)
        if mode == DM:
            await self.messenger.to_user(user, texts.say("notice.in_channel", lang, text=text, channel=rec.channel_id),
                                         nonce_for(t.id))
        else:
            await self.messenger.to_channel(rec.channel_id, text, user, nonce_for(t.id))
        then = None
        setting = await self.settings.game(rec)
        if number < REMINDERS_PER_TURN and setting["reminder"]:
            then = NewTimer(REMIND, t.seat, now + setting["reminder"] * 3600.0,
                            {"turn": t.data.get("turn", now), "number": number + 1})
        await self.store.turns.finish_timer(t.id, then=then)

    async def _ask_host(self, rec: GameRecord, t: Timer, setting: dict[str, Any]) -> None:
        assert t.seat is not None
        seat = rec.seats[t.seat]
        missed = await self.settings.missed(rec.id, t.seat)
        text = texts.say("notice.time_up", rec.lang, user=Person(seat.user_id, seat.name), hours=setting["turn_limit"],
                         count=missed)
        mention = None
        if missed >= setting["kick_after"]:
            mention = rec.host_id
            text = texts.say("notice.ask_host", rec.lang, text=text, host=host_of(rec), name=seat.name, count=missed)
        await self.messenger.to_channel(rec.channel_id, text, mention, nonce_for(t.id))

    # Autopilot ---------------------------------------------------------------------------------

    def _kind(self, game_key: str) -> str:
        kinds = self.referee.driver_kinds(game_key)
        return AUTOPILOT_KIND if AUTOPILOT_KIND in kinds else self.referee.takeover_kind(game_key)

    async def autopilot(self, rec: GameRecord, seat: int) -> int:
        """Play ``seat``'s turn with the game's computer, move by move, as that player; returns the moves
        played. Each is announced on its board and in the log."""
        user = rec.seats[seat].user_id
        start = rec.version
        played = 0
        await self.settings.autopiloted(rec.id, seat)  # a missed turn, counted before its moves end the game
        for _ in range(AUTOPILOT_STEPS):
            rec = await self.store.games.get_game(rec.id)
            if rec.status != ACTIVE or rec.state is None:
                break
            if any(a.seat != seat for a in await self.store.games.actions(rec.id, since=start)):
                break  # the turn passed on (and came back): that is a new turn
            game = await self.referee.load(rec)
            if game.to_act != seat or game.is_over:
                break
            choice = await self._choice(rec, seat)
            text = choice.action
            outcome = await self.referee.act(rec.channel_id, user, text, rec.version, game_id=rec.id,
                                             autopilot=True, reason=choice.reason)
            if not isinstance(outcome, Accepted):
                log.warning("game %s: the autopilot's move %r was refused: %s", rec.id, text, outcome.text[:120])
                break
            played += 1
            await self.messenger.deliver(outcome)
        return played

    async def _unfinished(self, t: Timer) -> NewTimer | None:
        """The deadline again, a little later, when the autopilot left the seat still to act in the turn it
        was to play (a move refused because another one came first, the step limit): a timed-out turn always
        keeps a timer until it is played, so neither a restart nor a sweep that saw the turn meanwhile can
        leave it waiting for ever. A move played since makes the next sweep time the turn anew."""
        assert t.seat is not None
        rec = await self.store.games.get_game(t.game_id)
        if rec.status != ACTIVE or rec.state is None or rec.seats[t.seat].is_computer:
            return None
        game = await self.referee.load(rec)
        if game.is_over or game.to_act != t.seat:
            return None
        return NewTimer(DEADLINE, t.seat, self.clock() + RETRY, {**t.data, "unfinished": True})

    async def _choice(self, rec: GameRecord, seat: int) -> Choice:
        """The computer's action for ``seat`` and why, off the event loop: in a picture worker process when
        they run and the game's rules and drivers are the registered ones (a search in a thread would hold
        the interpreter the event loop needs), else in a thread."""
        if (self.referee.drivers is driver_for and self.referee.classes is game_class and rec.state is not None
                and self.referee.pictures.ready_for(rec.game_key)):
            try:
                return await self.referee.pictures.call(rec.game_key, choose, rec.game_key, rec.state, seat,
                                                        self._kind(rec.game_key), _seed(rec, seat))
            except Exception:
                log.exception("game %s: the autopilot's computer failed in a worker; a thread tries", rec.id)
        return await asyncio.to_thread(self._choose, rec, seat)

    def _choose(self, rec: GameRecord, seat: int) -> Choice:
        """The computer's action for ``seat`` and why it plays it (on a copy of the game, in a worker thread)."""
        assert rec.state is not None
        game = self.referee.classes(rec.game_key).from_dict(rec.state)
        seed = _seed(rec, seat)
        try:
            return explain(self.referee.drivers(rec.game_key, self._kind(rec.game_key), seed), game, seat)
        except Exception:
            log.exception("game %s: the autopilot's computer failed; a random move instead", rec.id)
            game = self.referee.classes(rec.game_key).from_dict(rec.state)
            return explain(self.referee.drivers(rec.game_key, "random", seed), game, seat)

    # The board ---------------------------------------------------------------------------------

    async def board_link(self, rec: GameRecord) -> str | None:
        """A link to the newest posted board of the game."""
        for d in reversed(await self.store.outbox.deliveries(game_id=rec.id)):
            if d.payload.get("board") and d.message_id is not None:
                return notices.jump_link(rec.guild_id, d.channel_id, d.message_id)
        return None

    async def _board_pending(self, rec: GameRecord) -> bool:
        return any(d.payload.get("board") for d in await self.store.outbox.deliveries(game_id=rec.id, pending=True))

    # Players' commands -------------------------------------------------------------------------

    async def away(self, user_id: int, game_id: int | None, days: float) -> float:
        """Put the user's seat (in one game, or all with None) on autopilot for ``days``; returns until when.
        Their games' turns are looked at again, so a turn already waiting on them is played at once."""
        until = self.clock() + days * 86400.0
        await self.settings.set_user(user_id, game_id or 0, away=until)
        await self.refresh(user_id)
        return until

    async def back(self, user_id: int) -> bool:
        """Take the user off autopilot everywhere; False if they were not away."""
        targets = self.settings.away_targets(user_id)
        for target in targets:
            await self.settings.set_user(user_id, target, away=None)
        await self.refresh(user_id)
        return bool(targets)

    async def refresh(self, user_id: int | None = None) -> None:
        """Look again at the turns of running games where ``user_id`` is to act (all when None), after a
        change of preferences or settings: their timers follow the new ones."""
        for rec in await self.store.games.open_games():
            if user_id is None or rec.seat_of(user_id) is not None:
                mark = await self.store.turns.turn_mark(rec.id)
                if mark is not None and mark.version == rec.version and (
                        user_id is None or (mark.seat is not None and mark.seat < len(rec.seats)
                                            and rec.seats[mark.seat].user_id == user_id)):
                    await self.mark(rec, again=True)


def _seed(rec: GameRecord, seat: int) -> int:
    """The autopilot's seed for ``seat`` at the game's move: the same move is chosen again after a restart."""
    return (rec.seed * 1_000_003 + rec.version * 131 + seat) & ((1 << 62) - 1)


def choose(game_key: str, state: dict[str, Any], seat: int, kind: str, seed: int) -> Choice:
    """The registered ``kind`` driver's action for ``seat`` in the game of ``state``, and why (run in a
    worker process; a failing driver gives way to a random one)."""
    try:
        return explain(driver_for(game_key, kind, seed), game_class(game_key).from_dict(state), seat)
    except Exception:
        log.exception("the autopilot's %s computer failed; a random move instead", kind)
        return explain(driver_for(game_key, "random", seed), game_class(game_key).from_dict(state), seat)


def _deadline(old: Sequence[Timer], seat: int, started: float, limit: float, now: float, went_back: bool
              ) -> NewTimer:
    """The deadline of a turn that began at ``started``. A player who takes back what the autopilot played
    after the deadline (``went_back``) is there: their turn's clock starts again, once a turn, so the
    autopilot does not play the same move again at the next tick, and the turn still cannot last for ever."""
    ours = [t for t in old if t.kind == DEADLINE and t.data.get("turn") == started]
    granted = [t for t in ours if t.data.get("again")]
    pending = [t for t in granted if t.fired_at is None]
    if pending:
        return NewTimer(DEADLINE, seat, pending[0].due_at, pending[0].data)
    if went_back and not granted and started + limit <= now and any(t.fired_at is not None for t in ours):
        return NewTimer(DEADLINE, seat, now + limit, {"turn": started, "again": True})
    return NewTimer(DEADLINE, seat, started + limit, {"turn": started})
