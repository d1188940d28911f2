"""The games' web pages: how fast a page answers, how soon a stored move shows in a browser, how many live clients
one game holds.

A race of two computers is played through the service on a fresh SQLite store while the pages' server runs in
the same process (as ``junkyard bot --web`` does: the service wakes the pages when it stores a move).

* ``web_page_ms``: a game's page (``GET /g/TOKEN``), from the request to its first byte (median of 40);
* ``web_update_ms``: a move stored by the service until headless Chromium's page shows it (the replay's
  slider reaches the move), median over 12 moves; 0 when no Chromium is installed (``web_update_note`` says so);
* ``web_clients_held``: the most clients on one game's live updates (a child process holds them: 250, 500,
  1,000, 2,000) that each hear every one of 10 moves while the server's event loop lags under 50 ms at the 99th
  percentile (``web_lag_p99_ms``: that lag at that count).

``web_move`` (a benchmark of its own) times a move played from a seat's page: ``web_move_ms``, from the page's
``POST /p/TOKEN/act`` until the channel's message is changed, through the bot's own delivery
(``JunkyardBot.deliver``, as ``junkyard bot --web`` hands it to the pages' server) on the offline Discord stack.
"""

from __future__ import annotations

import asyncio
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Any

from bench.registry import Figures, benchmark

#: the clients tried on one game's live updates, in turn
CLIENTS = (250, 500, 1000, 2000)
#: the event loop's lag allowed at the 99th percentile (milliseconds)
LAG_MS = 50.0
#: moves played while the clients listen
MOVES = 10

#: the child process that holds the clients: each opens the stream and counts the updates it hears
HOLDER = textwrap.dedent("""
    import asyncio, sys, aiohttp, json
    url, count, moves = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    heard = [0] * count
    async def one(session, i, ready):
        async with session.get(url, timeout=aiohttp.ClientTimeout(total=None)) as answer:
            ready.release()
            buffer = b""
            async for chunk in answer.content.iter_any():
                buffer += chunk
                while b"\\n\\n" in buffer:
                    event, buffer = buffer.split(b"\\n\\n", 1)
                    if event.startswith(b"data: ") or b"\\ndata: " in event:
                        heard[i] += 1
    async def main():
        ready = asyncio.Semaphore(0)
        connector = aiohttp.TCPConnector(limit=0)
        async with aiohttp.ClientSession(connector=connector) as session:
            tasks = [asyncio.create_task(one(session, i, ready)) for i in range(count)]
            for _ in range(count):
                await ready.acquire()
            print("ready", flush=True)
            line = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
            print(json.dumps(heard), flush=True)
            for t in tasks:
                t.cancel()
    asyncio.run(main())
""")


async def _setup(path: Path) -> tuple[Any, Any, Any, Any, str]:
    from bot import terminal as term
    from bot.play.service import Service
    from bot.store import SqliteStore
    from bot.telling.outcomes import Accepted
    from bot.web import links
    from bot.web.server import Limits, WebServer

    store = SqliteStore(path)
    await store.open()
    service = Service(store, seed_source=lambda: 7)
    opening, _ = await term.open_table(service, term.new_channel_id(), "races", {"laps": 3, "track": "A"},
                                       [term.SeatSpec("smart"), term.SeatSpec("smart")])
    if not isinstance(opening.outcome, Accepted):
        raise RuntimeError(f"the race did not start: {opening.outcome}")
    rec = await store.games.get_game(opening.outcome.game_id)
    server = WebServer(store, limits=Limits(rate=1e6, burst=10**6, streams_per_client=10**6, streams=10**6))
    host, port = await server.start("127.0.0.1", 0)
    service.on_stored = server.changed
    url = links.page_url(f"http://{host}:{port}", await links.link_token(store, rec.id))
    return store, service, server, rec, url


async def _page_ms(url: str) -> float:
    import aiohttp

    times = []
    async with aiohttp.ClientSession() as session:
        for _ in range(41):
            start = time.perf_counter()
            async with session.get(url) as answer:
                await answer.content.readany()
                times.append(time.perf_counter() - start)
    return round(statistics.median(times[1:]) * 1000, 2)


async def _update_ms(service: Any, rec: Any, url: str) -> tuple[float, str]:
    from bot import terminal as term
    from bot.web.browser import browser, chromium

    if chromium() is None:
        return 0.0, "no Chromium installed"
    times = []
    async with browser() as chrome:
        tab = await chrome.tab()
        await tab.open(url)
        await tab.wait_for("document.getElementById('board').complete")
        for _ in range(12):
            await term.play_computers(service, rec.channel_id, 1)
            start = time.perf_counter()
            rec = await service.store.games.get_game(rec.id)
            await tab.wait_for(f"document.getElementById('slider').max === '{rec.version}'", every=0.002)
            times.append(time.perf_counter() - start)
        await tab.close()
    return round(statistics.median(times) * 1000, 1), "in-process server, woken by the service"


async def _held(service: Any, rec: Any, url: str, count: int) -> tuple[bool, float]:
    """Whether ``count`` clients each heard every move, and the loop's lag p99 (ms) meanwhile."""
    from bot import terminal as term

    child = await asyncio.create_subprocess_exec(sys.executable, "-c", HOLDER, url + "/events", str(count),
                                                 str(MOVES), stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert child.stdout is not None and child.stdin is not None
    try:
        line = await asyncio.wait_for(child.stdout.readline(), 120)
        if line.strip() != b"ready":
            return False, float("inf")
        lags: list[float] = []
        stop = asyncio.Event()

        async def ticker() -> None:
            while not stop.is_set():
                start = time.perf_counter()
                await asyncio.sleep(0.005)
                lags.append((time.perf_counter() - start - 0.005) * 1000)

        ticking = asyncio.get_running_loop().create_task(ticker())
        for _ in range(MOVES):
            await term.play_computers(service, rec.channel_id, 1)
            await asyncio.sleep(0.3)
        await asyncio.sleep(1.0)
        stop.set()
        await ticking
        child.stdin.write(b"done\n")
        await child.stdin.drain()
        heard = [int(x) for x in (await asyncio.wait_for(child.stdout.readline(), 60)).strip(b"[]\n").split(b",")]
        lags.sort()
        p99 = lags[int(len(lags) * 0.99)] if lags else 0.0
        return min(heard) >= MOVES + 1, round(p99, 1)
    finally:
        if child.returncode is None:
            child.kill()
        await child.wait()


async def _run() -> Figures:
    with tempfile.TemporaryDirectory() as folder:
        store, service, server, rec, url = await _setup(Path(folder) / "web.db")
        try:
            page = await _page_ms(url)
            update, note = await _update_ms(service, rec, url)
            held, lag = 0, 0.0
            for count in CLIENTS:
                rec = await store.games.get_game(rec.id)
                if rec.status != "active":
                    break
                ok, p99 = await _held(service, rec, url, count)
                if not ok or p99 >= LAG_MS:
                    break
                held, lag = count, p99
        finally:
            await server.close()
            await service.close()
            await store.close()
    return {"web_page_ms": page, "web_update_ms": update, "web_update_note": note, "web_clients_held": held,
            "web_lag_p99_ms": lag}


@benchmark("web")
def web_pages() -> Figures:
    return asyncio.run(_run())


#: the people of the race whose moves are played from their seat pages
MOVERS = (101, 202)
#: the moves timed from a seat page's POST to the channel's board
PAGE_MOVES = 30


async def _page_moves(path: Path) -> Figures:
    """A two-person race on the bot's offline Discord stack with the pages' server beside it, wired as
    ``junkyard bot --web`` wires them (``played``: the bot's delivery); each person's moves (the smart driver's
    choice, a person's tap) are POSTed from their seat page."""
    import aiohttp

    from bot.discord import JunkyardBot
    from bot.discord.offline import CHANNEL_ID, DiscordHarness
    from bot.drivers import driver_for
    from bot.play.service import Service
    from bot.store import SqliteStore
    from bot.web import seats
    from bot.web.server import CSRF_HEADER, Limits, WebServer

    bot = JunkyardBot(service=Service(SqliteStore(path), seed_source=lambda: 7))
    times: list[float] = []
    boards = 0
    async with DiscordHarness(bot) as h:
        h.users.update({user: f"p{user}" for user in MOVERS})
        await h.slash(MOVERS[0], "game new", game="races", track="A", laps=3)
        for user, colour in zip(MOVERS, ("red", "blue"), strict=True):
            await h.slash(user, "game join", colour=colour)
        await h.slash(MOVERS[0], "game start")
        server = WebServer(bot.store, service=bot.service, played=bot.deliver,
                           limits=Limits(rate=1e6, burst=10**6, move_rate=1e6, move_burst=10**6))
        host, port = await server.start("127.0.0.1", 0)
        bot.service.on_stored = server.changed
        base = f"http://{host}:{port}"
        driver = driver_for("races", "smart", 7)
        try:
            async with aiohttp.ClientSession() as session:
                pages: dict[int, tuple[str, str]] = {}
                rec, _, _ = await bot.service.current(CHANNEL_ID)
                assert rec is not None
                for user in MOVERS:
                    token = await seats.seat_token(bot.store, rec.id, user)
                    link = await seats.seat_of(bot.store, token)
                    assert link is not None
                    pages[user] = (seats.seat_url(base, token), link.csrf)
                while len(times) < PAGE_MOVES:
                    rec, game, _ = await bot.service.current(CHANNEL_ID)
                    if rec is None or game is None or game.is_over or game.to_act is None:
                        break
                    url, csrf = pages[rec.seats[game.to_act].user_id]
                    action = str(driver.choose(game, game.to_act))
                    sent = len(h.sent)
                    start = time.perf_counter()
                    async with session.post(f"{url}/act", json={"action": action, "version": rec.version},
                                            headers={"Origin": base, CSRF_HEADER: csrf}) as answer:
                        said = await answer.json()
                    # the delivery is awaited before the page's answer: the channel's message is changed by now
                    times.append(time.perf_counter() - start)
                    if not said.get("ok"):
                        raise RuntimeError(f"a page's move was refused: {action}: {said}")
                    new = [s for s in h.sent[sent:] if s.kind in ("channel", "edit") or s.changes]
                    if not new:
                        raise RuntimeError(f"a page's move changed no message of the channel: {action}")
                    boards += any(s.png is not None for s in new)
        finally:
            await server.close()
    first, times = times[0], sorted(times)
    return {"web_move_ms": round(statistics.median(times) * 1000, 1), "web_move_worst_ms": round(times[-1] * 1000, 1),
            "web_move_first_ms": round(first * 1000, 1), "web_move_moves": len(times), "web_move_boards": boards}


@benchmark("web_move")
def web_move() -> Figures:
    """``web_move_ms``: a seat page's move (``POST /p/TOKEN/act``) until the channel's messages are changed by
    the bot's delivery (the offline Discord stack), median over 30 moves of a race (``web_move_worst_ms`` the
    slowest, ``web_move_first_ms`` the first, whose pictures start cold; ``web_move_boards`` how many of them
    posted or edited a board picture)."""
    with tempfile.TemporaryDirectory() as folder:
        return asyncio.run(_page_moves(Path(folder) / "moves.db"))
