"""Helpers of the web pages' tests: a race of computers through the service, the pages' server on a free port,
and a client that keeps every byte it was served."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot import terminal as term
from bot.play.service import Service
from bot.store import GameRecord, Store
from bot.telling.outcomes import Accepted
from bot.web import links
from bot.web.browser import Tab, chromium
from bot.web.server import Limits, WebServer


def chromium_or_skip() -> str:
    """Debian's Chromium for the browser tests: skipped where it is not installed, a failure under CI (whose
    ``.ci/run`` installs it)."""
    found = chromium()
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail("no Chromium: .ci/run installs Debian's chromium")
        pytest.skip("no Chromium installed")
    return found


async def open_race(service: Service, seats: int = 2, options: dict[str, Any] | None = None,
                    kind: str = "smart") -> GameRecord:
    """A one-lap race of computers, started (computers move through :func:`term.play_computers`)."""
    opening, _ = await term.open_table(service, term.new_channel_id(), "races", options or {"laps": 1, "track": "A"},
                                       [term.SeatSpec(kind)] * seats)
    assert isinstance(opening.outcome, Accepted), opening.outcome
    return await service.store.games.get_game(opening.outcome.game_id)


async def open_people_race(service: Service, channel: int = 7001) -> GameRecord:
    """A one-lap race of two people (111 and 222), started, both karts on the grid and the first player's roll
    made: their drive's cells are to choose."""
    for outcome in (await service.new_game(guild_id=1, channel_id=channel, user_id=111, user_name="Ann",
                                           game_key="races", options={"laps": 1, "track": "A"}),
                    await service.join(channel, 222, "Bob"), await service.start(channel, 111)):
        assert isinstance(outcome, Accepted), outcome
    for _ in range(6):
        rec, game, _ = await service.current(channel)
        assert rec is not None and game is not None
        if game.to_act == 0 and game.legal_actions() and type(game.legal_actions()[0]).__name__ in ("Step", "Move"):
            return rec
        seat = game.to_act
        assert seat is not None
        assert isinstance(await service.act(channel, rec.seats[seat].user_id, str(game.legal_actions()[0])),
                          Accepted)
    raise AssertionError("the first player never came to drive")


async def play(service: Service, rec: GameRecord, moves: int = 1) -> GameRecord:
    """Up to ``moves`` computer moves; the game's record after them."""
    await term.play_computers(service, rec.channel_id, moves)
    return await service.store.games.get_game(rec.id)


@contextlib.asynccontextmanager
async def serving(store: Store, **kwargs: Any) -> AsyncIterator[tuple[WebServer, str]]:
    """The pages' server on a free port of this machine, and its address."""
    kwargs.setdefault("poll_seconds", 0.05)
    kwargs.setdefault("limits", Limits(rate=1000.0, burst=1000, move_rate=1000.0, move_burst=1000))
    server = WebServer(store, **kwargs)
    host, port = await server.start("127.0.0.1", 0)
    try:
        yield server, f"http://{host}:{port}"
    finally:
        await server.close()


async def page_of(store: Store, base: str, rec: GameRecord) -> str:
    """The address of a game's page (its link made)."""
    return links.page_url(base, await links.link_token(store, rec.id))


class Client:
    """An HTTP client that keeps every byte it was served (headers and bodies)."""

    def __init__(self, session: aiohttp.ClientSession) -> None:
        self.session = session
        self.served: list[bytes] = []

    def _keep(self, answer: aiohttp.ClientResponse, body: bytes) -> None:
        self.served.append("\n".join(f"{k}: {v}" for k, v in answer.headers.items()).encode())
        self.served.append(body)

    async def get(self, url: str, **kwargs: Any) -> tuple[int, bytes, aiohttp.ClientResponse]:
        async with self.session.get(url, **kwargs) as answer:
            body = await answer.read()
            self._keep(answer, body)
            return answer.status, body, answer

    async def json(self, url: str) -> Any:
        status, body, _ = await self.get(url)
        assert status == 200, (status, body)
        return json.loads(body)


class Stream:
    """One browser's live updates: the events of a page's ``/events`` stream as they come."""

    def __init__(self, client: Client, url: str) -> None:
        self.client, self.url = client, url
        self.updates: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.raw = bytearray()
        self.ended = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.status: int | None = None

    async def _run(self) -> None:
        try:
            async with self.client.session.get(self.url, timeout=aiohttp.ClientTimeout(total=None)) as answer:
                self.status = answer.status
                buffer = b""
                async for chunk in answer.content.iter_any():
                    self.raw.extend(chunk)
                    buffer += chunk
                    while b"\n\n" in buffer:
                        event, buffer = buffer.split(b"\n\n", 1)
                        for line in event.split(b"\n"):
                            if line.startswith(b"data: "):
                                await self.updates.put(json.loads(line[6:]))
        finally:
            self.client.served.append(bytes(self.raw))
            self.ended.set()

    async def __aenter__(self) -> Stream:
        self.task = asyncio.get_running_loop().create_task(self._run())
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self.task is not None
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError, aiohttp.ClientError):
            await self.task

    async def next(self, timeout: float = 20.0) -> dict[str, Any]:
        return await asyncio.wait_for(self.updates.get(), timeout)

    async def until(self, moves: int, timeout: float = 30.0) -> dict[str, Any]:
        """The first update showing at least ``moves`` moves."""
        while True:
            update = await self.next(timeout)
            if update.get("moves", 0) >= moves:
                return update


#: axe-core as ``npm ci --prefix tests/browser`` installs it (tests/browser/package-lock.json names its version)
AXE = Path(__file__).resolve().parents[1] / "browser" / "node_modules" / "axe-core" / "axe.min.js"


async def axe_violations(tab: Tab, axe: str) -> list[dict[str, Any]]:
    """What axe-core finds wrong on the page the tab shows, of any impact: each rule broken, its impact, its
    help and the elements it found. ``axe``: axe.min.js's text, run in the page by the DevTools protocol (the
    page's content security policy loads no script of another origin, and need not)."""
    if not await tab.evaluate("typeof window.axe === 'object'"):
        await tab.evaluate(axe + "\n;true")
    found = await tab.evaluate(
        "axe.run(document, {resultTypes: ['violations']}).then(r => r.violations.map(v => ({id: v.id, "
        "impact: v.impact, help: v.help, nodes: v.nodes.map(n => n.target.join(' ') + ': ' + n.failureSummary)})))")
    assert isinstance(found, list)
    return found
