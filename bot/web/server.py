"""The web server of the games' pages (aiohttp): a page per game, live, with its replay, and a page per seat from
which its player plays.

Routes (GET and HEAD, and one POST; any other method is 405):

- ``/g/TOKEN``: the page, in ``?lang=en|de`` or the browser's language, its state embedded;
- ``/g/TOKEN/state.json``: the page's whole state (:func:`bot.web.page.page_state`);
- ``/g/TOKEN/events``: server-sent events, one live update (:func:`bot.web.page.live_event`) whenever the game
  changes, a comment every :data:`HEARTBEAT_SECONDS`;
- ``/g/TOKEN/board/N-FINGERPRINT.png``: the whole board after move N (0: the start), from the public view;
  ``…-close.png`` the close-up the channel is shown after that move (the whole board for a game without one);
  ``?w=`` one of :data:`bot.web.page.WIDTHS` shrinks either to that width (drawn and shrunk once, kept), any other
  width is 404. The page names them in ``srcset``, the close-up for a narrow screen only;
- ``/s/page.js``, ``/s/page.css``: the page's script and style (``?v=`` the current version: kept a year);
- ``/favicon.ico``: no icon (204, cached for a week), counted against no client's rate;
- ``/p/SEAT``: a seat's page (:mod:`bot.web.seats`: one link per player and game), the game's page with that
  seat's part (:func:`bot.web.page.seat_html`), and ``/p/SEAT/state.json``, ``/events``, ``/board/…`` as above;
- ``/p/SEAT/seat.json``: the seat's own view (:func:`bot.web.page.seat_view`): its hidden things, its buttons,
  and the cells of the newest board it may tap with the ways there (boxes in the whole board's pixels, its
  ``size`` beside them);
- ``POST /p/SEAT/act``: a move, JSON ``{"action": TEXT, "version": N}`` with the link's CSRF token in the
  ``X-Junkyard-CSRF`` header. Played only when the link opens its seat (read from the store, its player still
  seated), the token is equal (compared in constant time), the request comes from the pages' own origin
  (``Sec-Fetch-Site``, ``Origin``) and within the seat's rate (:attr:`Limits.move_rate`); then through the very
  call a press makes, ``Service.act`` with the seat's player, the version and the game, so the same refusals,
  the same version check and the same channel messages (``played`` delivers them, as a press's answer does).
  Answers ``{"ok": true}`` or ``{"ok": false, "error": LINE}``, the line in the page's language. A server without
  a service (``junkyard web`` on its own) shows a seat's page but plays no move.

The store is the source: a move this process stored wakes its game at once (:meth:`WebServer.changed`); what
another process stored the store tells (:meth:`bot.store.Store.changes`: PostgreSQL's ``NOTIFY`` on commit,
SQLite's look every :data:`LOOK_SECONDS`), and the game is read again (one read of its record; its log and
delivery records when the record changed, the records also every :data:`RECORDS_SECONDS`), so moves stored by
any process, on either store (several bot processes on one PostgreSQL too), reach the page within 250 ms.

A revoked link opens nothing from the moment its revoke is stored, on every server on the store: each request reads
its token from the store (one read of the settings' key, a seat's link two, nothing remembered), so the page, its
data, its pictures, a new live stream and a seat's move answer 404; an open live stream has its token read again
once it is registered and then at every poll (one read for up to 500 streams' tokens), and ends when the token opens
its game no more. A revoke in this process wakes the poller at once (:meth:`WebServer.revoked`).

Safe by default: no write but a seat's move (above), no other request body, a token bucket of requests per client, a
cap on each client's live connections (a client: its address, an IPv6 one by its /64; over it: 429) and one on the
server's (over it: 503; both with ``Retry-After``, and the page's script tries again later, waiting longer each
time; a closed stream frees its place at once), a size limit on every answer and on each live stream (the browser
reconnects), a content security policy that allows the page's own script, style and pictures only, no framing, no
referrer, no access log (the addresses carry tokens). A connection that sends nothing, or stops within its request's
headers, is closed after :attr:`Limits.header_seconds` (so slow clients cannot hold every socket); a request that
cannot be read (a bad request line or header, one too long, too many) is answered 400 with the same headers, a line
from the catalogue and nothing of the request; no answer names the server's software. The text answers (page, state,
script, style) travel gzipped to a client that accepts gzip; the pictures and the live stream never do. Nothing
listens until :meth:`WebServer.start` is called.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import ipaddress
import logging
import re
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from aiohttp import hdrs, web
from aiohttp.web import BaseRequest, ContentCoding, RequestHandler
from yarl import URL

from bot import texts
from bot.games import GameUnit, game_class, unit_for
from bot.play.service import Service
from bot.store import ACTIVE, LOBBY, Delivery, GameNotFound, GameRecord, Store
from bot.telling.outcomes import Accepted
from bot.terminal import plain
from bot.web import championship as champ_page
from bot.web import links, seats
from bot.web import page as pages
from bot.web.timeline import Timeline, build
from rules.contract import Game

log = logging.getLogger(__name__)

#: seconds between two checks of the live streams' tokens, and the longest a request trusts its game's last read
POLL_SECONDS = 1.0
#: seconds between two looks at the store for what other processes committed (SQLite; PostgreSQL tells at once)
LOOK_SECONDS = 0.1
#: the most seconds between two reads of a watched game's delivery records when its record did not change
RECORDS_SECONDS = 5.0
#: seconds between two comments on an idle live stream (so proxies keep it open)
HEARTBEAT_SECONDS = 15.0
#: what every answer carries
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
                               "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()",
    "X-Robots-Tag": "noindex, nofollow",
}
#: what every answer says of the server (no software or version)
SERVER_NAME = "Junkyard GM"
_PICTURE = re.compile(r"(\d{1,6})-([0-9a-f]{12})(-close)?\.png")
_STATIC = {"page.js": "application/javascript", "page.css": "text/css"}
#: the header a seat's page sends its link's CSRF token in
CSRF_HEADER = "X-Junkyard-CSRF"
#: the longest action a seat's page may send
ACTION_CHARS = 400


@dataclass(frozen=True, slots=True)
class Limits:
    """What one server allows: requests per second and burst per client, live streams per client and in all,
    the largest answer and the most bytes of one live stream, how many games and pictures it keeps, and how long
    and how large a request's headers may be."""

    rate: float = 10.0
    burst: int = 60
    streams_per_client: int = 8
    streams: int = 5000
    answer_bytes: int = 4_000_000
    stream_bytes: int = 8_000_000
    games: int = 256
    pictures: int = 256
    #: seconds a connection may take to send a request's line and headers, and may stay idle between requests
    #: (one timer from the connection's start or its last answer: trickled bytes do not extend it)
    header_seconds: float = 10.0
    #: the longest request line or header line, and the most header lines of one request
    line_bytes: int = 4096
    headers: int = 48
    #: moves per second and at once that one seat's page may send (its link's own bucket)
    move_rate: float = 2.0
    move_burst: int = 10


def _static(name: str) -> bytes:
    return resources.files("bot.web").joinpath("static", name).read_bytes()


class Listener:
    """One browser on a game's live updates: the newest update not yet sent to it (only the newest matters)."""

    def __init__(self, token: str, lang: str, client: str, seat: bool = False) -> None:
        self.token, self.lang, self.client, self.seat = token, lang, client, seat
        self.pending: bytes | None = None
        self.wake = asyncio.Event()
        self.closed = False

    def send(self, data: bytes) -> None:
        self.pending = data
        self.wake.set()

    def close(self) -> None:
        self.closed = True
        self.wake.set()

    def gone(self) -> bool:
        """Whether the stream is to end (the server closes, or the token was revoked)."""
        return self.closed


@dataclass
class Watch:
    """A game the server serves: its record, its timeline and game, what its page says in each language, and who
    listens to it."""

    game_id: int
    rec: GameRecord | None = None
    key: tuple[Any, ...] | None = None
    timeline: Timeline | None = None
    game: Game | None = None
    front: GameUnit[Any] | None = None
    states: dict[str, bytes] = field(default_factory=dict)
    events: dict[str, bytes] = field(default_factory=dict)
    memo: pages.Memo = field(default_factory=dict)
    listeners: set[Listener] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    read_at: float = 0.0
    records_at: float = float("-inf")
    seen: tuple[int, int] = (0, 0)
    broken: bool = False
    #: the page's states changed since the listeners last heard (a request may read the change first)
    unpublished: bool = False
    again: bool = False
    task: asyncio.Task[None] | None = None


class Bucket:
    """A token bucket: ``rate`` requests a second, ``burst`` at once."""

    __slots__ = ("at", "tokens")

    def __init__(self, burst: int, now: float) -> None:
        self.tokens, self.at = float(burst), now

    def take(self, rate: float, burst: int, now: float) -> bool:
        self.tokens = min(float(burst), self.tokens + (now - self.at) * rate)
        self.at = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


class WebServer:
    """The pages of the games in ``store`` (see the module's docstring). ``forwarded``: the server stands behind
    a reverse proxy, which names the client in ``X-Forwarded-For`` (its last address). ``public_url``: the
    pages' public base address, for the absolute addresses of link previews (else the request's own)."""

    def __init__(self, store: Store, *, classes: Callable[[str], type[Game]] = game_class,
                 fronts: Callable[[str], GameUnit[Any]] = unit_for, limits: Limits | None = None,
                 poll_seconds: float = POLL_SECONDS, forwarded: bool = False,
                 clock: Callable[[], float] = time.monotonic, public_url: str | None = None,
                 look_seconds: float = LOOK_SECONDS, service: Service | None = None,
                 played: Callable[[Accepted], Awaitable[None]] | None = None) -> None:
        self.store = store
        self.service, self.played = service, played
        self.public_url = public_url
        self.classes, self.fronts = classes, fronts
        self.limits = limits or Limits()
        self.poll_seconds = poll_seconds
        self.look_seconds = look_seconds
        self.forwarded = forwarded
        self.clock = clock
        self.watches: OrderedDict[int, Watch] = OrderedDict()
        self.pictures: OrderedDict[tuple[int, str, str, str, int], bytes] = OrderedDict()
        self._buckets: dict[str, Bucket] = {}
        self._moves: dict[int, Bucket] = {}  # each seat link's moves, by its token's key
        self._streams: dict[str, int] = {}
        self._live = 0  # the live streams open, of every client
        self._drawing = asyncio.Semaphore(1)
        self._closing = asyncio.Event()
        self._wake = asyncio.Event()
        self._poller: asyncio.Task[None] | None = None
        self._follower: asyncio.Task[None] | None = None
        self._runner: web.AppRunner | None = None
        self.template = _static("page.html").decode("utf-8")
        self.static = {name: _static(name) for name in _STATIC}
        self.static_version = hashlib.sha256(b"".join(self.static.values())).hexdigest()[:10]
        self.app = self._make_app()

    # Running -----------------------------------------------------------------------------------

    def _make_app(self) -> web.Application:
        app = web.Application(client_max_size=1024, middlewares=[self._guard])
        app.router.add_get("/g/{token}", self.page)
        app.router.add_get("/g/{token}/state.json", self.state)
        app.router.add_get("/g/{token}/events", self.events)
        app.router.add_get("/g/{token}/board/{picture}", self.board)
        app.router.add_get("/g/{token}/championship", self.championship)
        app.router.add_get("/g/{token}/championship.png", self.championship_picture)
        app.router.add_get("/p/{token}", self.page)
        app.router.add_get("/p/{token}/state.json", self.state)
        app.router.add_get("/p/{token}/events", self.events)
        app.router.add_get("/p/{token}/board/{picture}", self.board)
        app.router.add_get("/p/{token}/seat.json", self.seat_state)
        app.router.add_post("/p/{token}/act", self.act)
        app.router.add_get("/s/{name}", self.asset)
        app.router.add_get("/favicon.ico", self.favicon)
        app.on_response_prepare.append(self._headers)
        return app

    async def start(self, host: str, port: int) -> tuple[str, int]:
        """Listen on ``host``:``port`` (port 0: a free one) and start reading the watched games; the address
        listened on."""
        # a request whose client went away is cancelled at once: a closed live stream frees its place now
        # an idle connection, or one that stops within its headers, is closed after header_seconds (aiohttp's
        # keep-alive timer runs from the connection's start and from each answer, and counts no trickled byte)
        self._runner = _Runner(self.app, access_log=None, handle_signals=False, shutdown_timeout=2.0,
                               handler_cancellation=True, keepalive_timeout=self.limits.header_seconds,
                               max_line_size=self.limits.line_bytes, max_field_size=self.limits.line_bytes,
                               max_headers=self.limits.headers)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        self.run_poller()
        server = getattr(site, "_server", None)
        sockets = getattr(server, "sockets", None) or []
        bound = sockets[0].getsockname() if sockets else (host, port)
        return str(bound[0]), int(bound[1])

    def run_poller(self) -> None:
        """Start reading the watched games (:meth:`start` does; a test serving the app itself calls it)."""
        if self._poller is None:
            self._poller = asyncio.get_running_loop().create_task(self._poll(), name="junkyard-web-poll")
        if self._follower is None:
            self._follower = asyncio.get_running_loop().create_task(self._follow(), name="junkyard-web-follow")

    async def close(self) -> None:
        """Stop listening: live streams end, the poller stops."""
        self._closing.set()
        for watch in self.watches.values():
            for listener in list(watch.listeners):
                listener.close()
        for task in (self._poller, self._follower):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._poller = self._follower = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def changed(self, game_id: int) -> None:
        """A write of ``game_id`` was stored by this process: its listeners hear of it at once (the
        service's ``on_stored``)."""
        watch = self.watches.get(game_id)
        if watch is not None and watch.listeners:
            self._update_soon(watch)

    def revoked(self, game_id: int) -> None:
        """This process revoked the page links of ``game_id``: the poller reads the live streams' tokens at once,
        so the game's open streams end now rather than at the next poll (the service's ``on_revoked``)."""
        if game_id in self.watches:
            self._wake.set()

    # Reading games -----------------------------------------------------------------------------

    async def _open(self, request: web.Request) -> tuple[Watch, seats.SeatLink | None]:
        """The game the request's token opens, and for a seat's page (``/p/``) the seat: its token read from the
        store, and its player still seated in the game; 404 when it opens none."""
        token = request.match_info["token"]
        if not request.path.startswith("/p/"):
            return await self._watch(token), None
        seat = await seats.seat_of(self.store, token)
        if seat is None:
            raise _not_found()
        watch = await self._watch_game(seat.game_id)
        assert watch.rec is not None
        if watch.rec.seat_of(seat.user_id) is None:  # they left, or were removed: the link opens nothing
            raise _not_found()
        return watch, seat

    async def _watch(self, token: str) -> Watch:
        """The game a page token opens (the token read from the store), read again when nobody keeps it fresh;
        404 when the token opens none."""
        game_id = await links.game_of(self.store, token)
        if game_id is None:
            raise _not_found()
        return await self._watch_game(game_id)

    async def _watch_game(self, game_id: int) -> Watch:
        """The game ``game_id``, read again when nobody keeps it fresh; 404 when there is none."""
        watch = self.watches.get(game_id)
        if watch is None:
            watch = self.watches[game_id] = Watch(game_id)
        self.watches.move_to_end(game_id)
        self._forget_idle()
        if watch.key is None or self.clock() - watch.read_at >= self.poll_seconds:
            # shielded: a request cancelled as its client goes leaves the shared read to finish
            await asyncio.shield(self._refresh(watch, fresh=self.poll_seconds))
            if watch.unpublished and watch.listeners:  # a change this request found: the listeners hear of it
                self._update_soon(watch)
        if watch.rec is None:
            raise _not_found()
        if watch.broken:
            raise web.HTTPServiceUnavailable(text=texts.say("web.unavailable", watch.rec.lang))
        return watch

    def _forget_idle(self) -> None:
        while len(self.watches) > self.limits.games:
            idle = next((gid for gid, w in self.watches.items() if not w.listeners), None)
            if idle is None:
                return
            del self.watches[idle]

    async def _refresh(self, watch: Watch, fresh: float | None = None) -> bool:
        """Read the game again (not when it was read within ``fresh`` seconds); whether it changed (its timeline
        and page states are then made anew). One read of the game's record each time; its log when the record
        changed, its delivery records then too and at least every :data:`RECORDS_SECONDS` (a message beside the
        moves, like a shared link, changes no record)."""
        async with watch.lock:
            now = self.clock()
            if fresh is not None and watch.key is not None and now - watch.read_at < fresh:
                return False
            watch.read_at = now
            try:
                rec = await self.store.games.get_game(watch.game_id)
            except GameNotFound:
                watch.rec, watch.key = None, None
                return False
            key = (rec.version, rec.updated_at, rec.status)
            if key == watch.key and now - watch.records_at < RECORDS_SECONDS:
                return False
            try:
                records = await self.store.outbox.deliveries(game_id=rec.id)
                watch.records_at = now
                seen = (len(records), records[-1].id if records else 0)
                if key == watch.key and seen == watch.seen:
                    return False
                front = self.fronts(rec.game_key)
                timeline = None
                if rec.status != LOBBY and rec.state is not None:
                    if key == watch.key and watch.timeline is not None:
                        timeline = watch.timeline
                    else:
                        log_ = (await self.store.games.actions(rec.id))[: rec.version]
                        if len(log_) != rec.version:  # moves taken back between the two reads: next time
                            return False
                        timeline = await asyncio.to_thread(build, self.classes(rec.game_key).create, rec, log_,
                                                           watch.timeline)
                states, events = await asyncio.to_thread(self._compose, rec, timeline, front, records, watch.memo)
            except Exception:
                log.exception("game %s: its page could not be made", rec.id)
                watch.rec, watch.key, watch.broken, watch.timeline = rec, key, True, None
                return True
            watch.rec, watch.key, watch.seen, watch.front, watch.timeline = rec, key, seen, front, timeline
            watch.game = timeline.game if timeline is not None else None
            watch.states, watch.events, watch.broken, watch.unpublished = states, events, False, True
            if len(watch.memo) > 8 * ((len(timeline.steps) if timeline else 1) + len(records)) + 64:
                watch.memo.clear()
            return True

    @staticmethod
    def _compose(rec: GameRecord, timeline: Timeline | None, front: GameUnit[Any], records: list[Delivery],
                 memo: pages.Memo) -> tuple[dict[str, bytes], dict[str, bytes]]:
        """The page's state and live update in every language (in a thread, on the timeline's game)."""
        game = timeline.game if timeline is not None else None
        states, events = {}, {}
        for lang in pages.LANGS:
            said = pages.messages(records, rec, front, game, lang, memo)
            states[lang] = pages.as_json(pages.page_state(rec, timeline, front, game, lang, memo, said))
            update = pages.live_event(rec, timeline, front, game, lang, memo, said)
            events[lang] = b"data: " + pages.as_json(update) + b"\n\n"
        return states, events

    def _update_soon(self, watch: Watch) -> None:
        if watch.task is not None and not watch.task.done():
            watch.again = True
            return
        watch.task = asyncio.get_running_loop().create_task(self._update(watch), name="junkyard-web-update")

    async def _update(self, watch: Watch) -> None:
        """Read the game again and, when it changed, tell its listeners (the newest board drawn first)."""
        while True:
            watch.again = False
            try:
                if await self._refresh(watch) or watch.unpublished:
                    await self._publish(watch)
            except Exception:
                log.exception("game %s: a live update failed", watch.game_id)
            if not watch.again:
                return

    async def _publish(self, watch: Watch) -> None:
        watch.unpublished = False
        timeline, front = watch.timeline, watch.front
        if timeline is not None and front is not None:
            for lang in {listener.lang for listener in watch.listeners}:
                await self._picture(watch, timeline.moves, timeline.steps[-1].fingerprint, lang)
        for listener in list(watch.listeners):
            data = watch.events.get(listener.lang)
            if data is not None:
                listener.send(data)

    async def _poll(self) -> None:
        """Every :attr:`poll_seconds` (or at once when woken): end the live streams whose token was revoked."""
        while not self._closing.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.poll_seconds)
            self._wake.clear()
            await self._check_tokens([w for w in self.watches.values() if w.listeners])
            self._prune_buckets()

    def _watched(self) -> list[int]:
        """The games with live listeners."""
        return [game_id for game_id, watch in self.watches.items() if watch.listeners]

    async def _follow(self) -> None:
        """Read again the watched games another process changed, as the store tells of them
        (:meth:`bot.store.Store.changes`: PostgreSQL's ``NOTIFY`` at once, SQLite's look every
        :attr:`look_seconds`); every watched game when the store may have missed something."""
        while not self._closing.is_set():
            try:
                async with contextlib.aclosing(self.store.changes(self._watched, every=self.look_seconds)) as feed:
                    async for ids in feed:
                        for game_id in self._watched() if ids is None else ids:
                            self.changed(game_id)
            except Exception:
                log.exception("following the store's changes failed: following again")
                await asyncio.sleep(self.poll_seconds)

    async def _check_tokens(self, watched: list[Watch]) -> None:
        """End the live streams whose token no longer opens their game (revoked), all tokens in one read."""
        try:
            listeners = [x for w in watched for x in w.listeners]
            opens = await links.games_of(self.store, {x.token for x in listeners if not x.seat})
            opens.update(await seats.games_of(self.store, {x.token for x in listeners if x.seat}))
        except Exception:
            log.exception("reading the pages' tokens failed")
            return
        for watch in watched:
            for listener in list(watch.listeners):
                if opens.get(listener.token, watch.game_id) != watch.game_id:
                    listener.close()

    async def _picture(self, watch: Watch, move: int, fingerprint: str, lang: str, kind: str = pages.WHOLE,
                       width: int = 0) -> bytes | None:
        """The board after ``move`` while that step still has ``fingerprint``, drawn once (in a thread): the whole
        board or its close-up (``kind``), at its own size (``width`` 0) or shrunk to ``width`` pixels."""
        timeline, front = watch.timeline, watch.front
        if timeline is None or front is None or not 0 <= move <= timeline.moves:
            return None
        step = timeline.steps[move]
        if step.fingerprint != fingerprint:
            return None
        key = (watch.game_id, fingerprint, lang, kind, width)
        async with self._drawing:
            png = self.pictures.get(key)
            if png is None:
                if width:  # shrunk from the picture at its own size, drawn (and kept) first when it is not yet
                    own = self.pictures.get((*key[:4], 0))
                    if own is None:
                        own = await asyncio.to_thread(pages.picture, front, step, lang, kind)
                        if own is not None:
                            self._keep((*key[:4], 0), own)
                    png = None if own is None else await asyncio.to_thread(pages.scaled, own, width)
                else:
                    png = await asyncio.to_thread(pages.picture, front, step, lang, kind)
                if png is None:
                    return None
                self._keep(key, png)
            self.pictures.move_to_end(key)
        return png

    def _keep(self, key: tuple[int, str, str, str, int], png: bytes) -> None:
        """Keep a drawn picture, forgetting the longest unused beyond :attr:`Limits.pictures`."""
        self.pictures[key] = png
        self.pictures.move_to_end(key)
        while len(self.pictures) > self.limits.pictures:
            self.pictures.popitem(last=False)

    # Handlers ----------------------------------------------------------------------------------

    def _lang(self, request: web.Request, watch: Watch) -> str:
        assert watch.rec is not None
        return pages.choose_lang(request.query.get("lang"), request.headers.get("Accept-Language"), watch.rec.lang)

    async def page(self, request: web.Request) -> web.Response:
        token = request.match_info["token"]
        watch, seat = await self._open(request)
        assert watch.rec is not None
        lang = self._lang(request, watch)
        title = watch.front.title if watch.front is not None else self.fronts(watch.rec.game_key).title
        mine = "" if seat is None else pages.seat_html(self._seat_name(watch, seat), seat.csrf, lang)
        body = pages.document(self.template, title, watch.states[lang].decode("utf-8"), lang, token,
                              [other for other in pages.LANGS if other != lang],
                              {"v": self.static_version, "seat": mine},
                              players=[seat.name for seat in watch.rec.seats],
                              over=watch.rec.status not in (LOBBY, ACTIVE),
                              status=texts.status_word(watch.rec.status, lang),
                              board=await self._board(request, watch, token, lang, seat), prefix=request.path[1])
        return _packed(request, web.Response(text=body, content_type="text/html", charset="utf-8"))

    async def _board(self, request: web.Request, watch: Watch, token: str, lang: str,
                     seat: seats.SeatLink | None = None) -> pages.Board | None:
        """The newest board, as the page names it before its script runs (drawn now, once: the browser asks for
        it next), with its close-up's size when the game has one (a seat with a cell to tap opens on the whole
        board); None before the game starts."""
        timeline = watch.timeline
        if timeline is None or watch.front is None:
            return None
        step, fingerprint = timeline.moves, timeline.steps[-1].fingerprint
        png = await self._picture(watch, step, fingerprint, lang)
        if png is None:
            return None
        close = None
        if pages.has_close_up(watch.front):
            shown = await self._picture(watch, step, fingerprint, lang, pages.CLOSE)
            close = None if shown is None else pages.png_size(shown)
        width, height = pages.png_size(png)
        choosing = seat is not None and close is not None and bool(
            (await self._seat_view(watch, seat, lang))["targets"])
        path = f"board/{step}-{fingerprint}.png?lang={lang}"
        origin = self.public_url or str(request.url.origin())
        url = f"{origin.rstrip('/')}/{request.path[1]}/{token}/{path}"
        return pages.Board(f"{token}/{path}", url, width, height, step, close, close_first=not choosing)

    async def state(self, request: web.Request) -> web.Response:
        watch, _ = await self._open(request)
        return _packed(request, web.Response(body=watch.states[self._lang(request, watch)],
                                             content_type="application/json", charset="utf-8"))

    async def board(self, request: web.Request) -> web.Response:
        match = _PICTURE.fullmatch(request.match_info["picture"])
        if match is None:
            raise _not_found()
        asked = request.query.get("w")
        width = 0
        if asked is not None:
            if not asked.isdigit() or int(asked) not in pages.WIDTHS:
                raise _not_found()
            width = int(asked)
        watch, _ = await self._open(request)
        kind = pages.CLOSE if match[3] else pages.WHOLE
        png = await self._picture(watch, int(match[1]), match[2], self._lang(request, watch), kind, width)
        if png is None:
            raise _not_found()
        # the same address is the same picture; private: a revoked link's pictures stay out of shared caches
        return web.Response(body=png, content_type="image/png",
                            headers={"Cache-Control": "private, max-age=86400, immutable"})

    async def _championship(self, request: web.Request) -> tuple[champ_page.View, str]:
        """The championship page of the round whose page token the request names, and the language; 404 when
        the token opens no round of a championship."""
        lang = pages.choose_lang(request.query.get("lang"), request.headers.get("Accept-Language"), "en")
        found = await champ_page.view(self.store, request.match_info["token"], lang)
        if found is None:
            raise _not_found()
        return found, lang

    async def championship(self, request: web.Request) -> web.Response:
        """A championship's page: its table and a link to each round's page."""
        found, lang = await self._championship(request)
        body = champ_page.document(found, request.match_info["token"], lang, self.static_version)
        return _packed(request, web.Response(text=body, content_type="text/html", charset="utf-8"))

    async def championship_picture(self, request: web.Request) -> web.Response:
        """A championship's table as the picture its page shows."""
        found, _ = await self._championship(request)
        if found.png is None:
            raise _not_found()
        return web.Response(body=found.png, content_type="image/png", headers={"Cache-Control": "private, no-cache"})

    async def asset(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in self.static:
            raise _not_found()
        # the current version's address never changes its bytes (a new script is a new version): kept a year
        current = request.query.get("v") == self.static_version
        cache = "public, max-age=31536000, immutable" if current else "public, max-age=86400"
        return _packed(request, web.Response(body=self.static[name], content_type=_STATIC[name], charset="utf-8",
                                             headers={"Cache-Control": cache}))

    def _seat_name(self, watch: Watch, seat: seats.SeatLink) -> str:
        assert watch.rec is not None
        index = watch.rec.seat_of(seat.user_id)
        return watch.rec.seats[index].name if index is not None else ""

    async def _seat_view(self, watch: Watch, seat: seats.SeatLink, lang: str) -> dict[str, Any]:
        """The seat's own view now (:func:`bot.web.page.seat_view`), with the newest step's ``fingerprint``."""
        async with watch.lock:  # the game is the timeline's, which a refresh extends under this lock
            rec, game, front, timeline = watch.rec, watch.game, watch.front, watch.timeline
            assert rec is not None
            index = rec.seat_of(seat.user_id)
            assert index is not None
            step = timeline.moves if timeline is not None else 0
            view = await asyncio.to_thread(pages.seat_view, rec, front, game, index, step, lang)
            view["fingerprint"] = timeline.steps[-1].fingerprint if timeline is not None else ""
        return view

    async def seat_state(self, request: web.Request) -> web.Response:
        """A seat's own view now (:func:`bot.web.page.seat_view`): its hidden things and its legal moves."""
        watch, seat = await self._open(request)
        assert seat is not None
        lang = self._lang(request, watch)
        view = await self._seat_view(watch, seat, lang)
        if view["targets"]:  # the boxes are in the whole board's pixels: the page scales them from its width
            png = await self._picture(watch, view["step"], view.pop("fingerprint"), lang)
            view["size"] = list(pages.png_size(png)) if png is not None else None
        view.pop("fingerprint", None)
        return _packed(request, web.Response(body=pages.as_json(view), content_type="application/json",
                                             charset="utf-8"))

    async def act(self, request: web.Request) -> web.Response:
        """A move from a seat's page: its link opens the seat, the request comes from the page's own origin with
        the link's CSRF token, within the seat's rate; then the very call a press makes (``Service.act`` with the
        seat's player, the version the page saw and the game), so the same refusals and the same messages."""
        watch, seat = await self._open(request)
        assert seat is not None and watch.rec is not None
        rec, lang = watch.rec, self._lang(request, watch)
        if not self._same_origin(request):
            return _said(403, texts.say("web.seat_cross_origin", lang))
        sent = request.headers.get(CSRF_HEADER, "")
        if not hmac.compare_digest(sent.encode("utf-8", "replace"), seat.csrf.encode("utf-8")):
            return _said(403, texts.say("web.seat_bad_csrf", lang))
        key = links.token_key(request.match_info["token"])
        assert key is not None
        now = self.clock()
        bucket = self._moves.get(key)
        if bucket is None:
            bucket = self._moves[key] = Bucket(self.limits.move_burst, now)
        if not bucket.take(self.limits.move_rate, self.limits.move_burst, now):
            return _said(429, texts.say("web.seat_too_fast", lang), {"Retry-After": "2"})
        move = await _move_of(request)
        if move is None:
            return _said(400, texts.say("web.seat_bad_move", lang))
        if self.service is None:
            return _said(503, texts.say("web.seat_no_moves", lang))
        action, version = move
        outcome = await self.service.act(rec.channel_id, seat.user_id, action, version, game_id=rec.id, lang=lang)
        if not isinstance(outcome, Accepted):
            return _said(200, " ".join(plain(outcome.text).split()))
        if self.played is not None:
            try:
                await self.played(outcome)
            except Exception:
                log.exception("game %s: a move from its page was stored, its delivery failed", rec.id)
        self.changed(rec.id)
        return web.json_response({"ok": True}, dumps=lambda d: pages.as_json(d).decode("utf-8"))

    def _same_origin(self, request: web.Request) -> bool:
        """Whether a request comes from the pages themselves: the browser's ``Sec-Fetch-Site`` says
        same-origin when it sends one, and its ``Origin`` is the server's own (or its public address)."""
        site = request.headers.get("Sec-Fetch-Site")
        if site is not None and site != "same-origin":
            return False
        origin = request.headers.get(hdrs.ORIGIN)
        if origin is None:
            return site == "same-origin"
        allowed = {str(request.url.origin())}
        if self.public_url:
            allowed.add(str(URL(self.public_url).origin()))
        return origin in allowed

    async def favicon(self, request: web.Request) -> web.Response:
        """No icon, said once for a week (browsers ask every page for one); counted against no client."""
        return web.Response(status=204, headers={"Cache-Control": "public, max-age=604800"})

    async def events(self, request: web.Request) -> web.StreamResponse:
        token = request.match_info["token"]
        watch, seat = await self._open(request)
        client = self.client(request)
        if self._streams.get(client, 0) >= self.limits.streams_per_client:  # this client holds its share
            raise web.HTTPTooManyRequests(text=texts.say("web.too_many", self._lang(request, watch)),
                                          headers={"Retry-After": "30"})
        if self._live >= self.limits.streams:  # the server holds all it may: every client waits
            raise web.HTTPServiceUnavailable(text=texts.say("web.busy", self._lang(request, watch)),
                                             headers={"Retry-After": "30"})
        listener = Listener(token, self._lang(request, watch), client, seat=seat is not None)
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream; charset=utf-8",
                                               "Cache-Control": "no-store", "X-Accel-Buffering": "no"})
        self._streams[client] = self._streams.get(client, 0) + 1
        self._live += 1
        watch.listeners.add(listener)
        sent = 0
        try:
            # read again now that the poller sees the stream: a revoke stored since the first read ends it here
            opens = (await seats.games_of(self.store, [token])).get(token) if listener.seat else \
                await links.game_of(self.store, token)
            if opens != watch.game_id:
                raise _not_found()
            await response.prepare(request)
            listener.send(b"retry: 3000\n" + watch.events[listener.lang])
            while not listener.gone() and not self._closing.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(listener.wake.wait(), HEARTBEAT_SECONDS)
                listener.wake.clear()
                data, listener.pending = listener.pending, None
                if listener.gone():
                    break
                data = data if data is not None else b": still here\n\n"
                if sent + len(data) > self.limits.stream_bytes:
                    break  # the browser reconnects and goes on from the page's state
                await response.write(data)
                sent += len(data)
        except ConnectionResetError:
            pass  # the browser went away (a request whose browser goes is cancelled: its place is freed below)
        finally:
            watch.listeners.discard(listener)
            self._streams[client] -= 1
            self._live -= 1
            if not self._streams[client]:
                del self._streams[client]
        return response

    # Guards ------------------------------------------------------------------------------------

    def client(self, request: web.Request) -> str:
        """Who asks (:func:`client_key`): the peer's address, or behind a proxy the last address it put in
        ``X-Forwarded-For``."""
        if self.forwarded:
            hops = [h.strip() for h in request.headers.get("X-Forwarded-For", "").split(",") if h.strip()]
            if hops:
                return client_key(hops[-1])
        return client_key(request.remote or "?")

    def _prune_buckets(self) -> None:
        """Forget the buckets that are full again (of clients, and of seats' moves), once there are many."""
        now = self.clock()
        if len(self._buckets) >= 1000:
            full = self.limits.burst / max(self.limits.rate, 0.001)
            for client in [c for c, b in self._buckets.items() if now - b.at > full]:
                del self._buckets[client]
        if len(self._moves) >= 1000:
            full = self.limits.move_burst / max(self.limits.move_rate, 0.001)
            for key in [k for k, b in self._moves.items() if now - b.at > full]:
                del self._moves[key]

    @web.middleware
    async def _guard(self, request: web.Request,
                     handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        """Every request but the icon's: within its client's rate; every answer: within the size limit."""
        if request.path == "/favicon.ico":
            return await handler(request)
        client, now = self.client(request), self.clock()
        bucket = self._buckets.get(client)
        if bucket is None:
            bucket = self._buckets[client] = Bucket(self.limits.burst, now)
        if not bucket.take(self.limits.rate, self.limits.burst, now):
            lang = pages.choose_lang(request.query.get("lang"), request.headers.get("Accept-Language"), "en")
            return web.Response(status=429, text=texts.say("web.too_many", lang), headers={"Retry-After": "2"})
        response = await handler(request)
        if isinstance(response, web.Response) and response.body is not None:
            body = response.body
            size = len(body) if isinstance(body, bytes | bytearray | str) else response.content_length or 0
            if size > self.limits.answer_bytes:
                log.error("an answer of %d bytes was held back (the limit is %d)", size, self.limits.answer_bytes)
                return web.Response(status=507, text="too large")
        return response

    async def _headers(self, request: web.Request, response: web.StreamResponse) -> None:
        response.headers.update(SECURITY_HEADERS)
        response.headers["Server"] = SERVER_NAME
        response.headers.setdefault("Cache-Control", "no-store")


class _Connection(RequestHandler):
    """aiohttp's connection, answering a request it cannot read (a bad request line or header, an oversized
    one) or a handler's failure as the pages answer: the security headers, no server banner, a line from the
    catalogue and never the request's own bytes."""

    def handle_error(self, request: BaseRequest, status: int = 500, exc: BaseException | None = None,
                     message: str | None = None) -> web.StreamResponse:
        if request.writer.output_size > 0:  # part of an answer is out: only closing is left
            raise ConnectionError("an answer was under way")
        if status >= 500:
            log.error("a request failed", exc_info=exc)
            key = "web.unavailable"
        else:
            log.debug("an unreadable request: %s", exc)
            status, key = 400, "web.bad_request"
        text = texts.say(key, texts.DEFAULT) + "\n" + texts.say(key, "de")
        response = web.Response(status=status, text=text, headers={**SECURITY_HEADERS, "Server": SERVER_NAME,
                                                                   "Cache-Control": "no-store"})
        response.force_close()
        return response


class _Server(web.Server):
    """aiohttp's low-level server, making :class:`_Connection` connections."""

    def __call__(self) -> RequestHandler:
        return _Connection(self, loop=asyncio.get_running_loop(), **self._kwargs)


class _Runner(web.AppRunner):
    """aiohttp's runner of an application, serving it through :class:`_Server`."""

    async def _make_server(self) -> web.Server:
        made = await super()._make_server()
        return _Server(made.request_handler, request_factory=made.request_factory, **self._kwargs)


def client_key(address: str) -> str:
    """The client an address counts as: an IPv4 address as it is (also written as IPv4-mapped IPv6), an IPv6
    address by its /64 (one household or host holds a whole /64); anything else as it is."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
    return str(ip)


def _accepts_gzip(accept_encoding: str) -> bool:
    """Whether an ``Accept-Encoding`` header takes gzip (named, or ``*``, and not with ``q=0``)."""
    for part in accept_encoding.lower().split(","):
        coding, _, params = part.partition(";")
        if coding.strip() in ("gzip", "x-gzip", "*"):
            q = params.strip().removeprefix("q=").strip() if params.strip().startswith("q=") else "1"
            try:
                return float(q) > 0
            except ValueError:
                return False
    return False


def _packed(request: web.Request, response: web.Response) -> web.Response:
    """A text answer, gzipped when the client accepts gzip (pictures are packed already; a live stream is
    never packed, so each update leaves at once); caches keep the packed and the plain answer apart."""
    response.headers[hdrs.VARY] = hdrs.ACCEPT_ENCODING
    if _accepts_gzip(request.headers.get(hdrs.ACCEPT_ENCODING, "")):
        response.enable_compression(ContentCoding.gzip)
    return response


async def _move_of(request: web.Request) -> tuple[str, int] | None:
    """The move a seat's page sent: JSON ``{"action": TEXT, "version": N}``; None when it is not one."""
    if request.content_type != "application/json":
        return None
    try:
        data = await request.json()
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(data, dict):
        return None
    action, version = data.get("action"), data.get("version")
    if not isinstance(action, str) or not action.strip() or len(action) > ACTION_CHARS:
        return None
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        return None
    return action, version


def _said(status: int, line: str, headers: dict[str, str] | None = None) -> web.Response:
    """A seat's move not played: its one line, as JSON."""
    return web.json_response({"ok": False, "error": line}, status=status, headers=headers,
                             dumps=lambda d: pages.as_json(d).decode("utf-8"))


def _not_found() -> web.HTTPNotFound:
    """The answer to a token that opens nothing (wrong or revoked: the same answer, so nothing is told)."""
    return web.HTTPNotFound(text=texts.say("web.not_found", texts.DEFAULT) + "\n" + texts.say("web.not_found", "de"))


__all__ = ["HEARTBEAT_SECONDS", "POLL_SECONDS", "SECURITY_HEADERS", "Limits", "WebServer", "client_key"]
