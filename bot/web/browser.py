"""A headless Chromium driven over the DevTools protocol (aiohttp's websocket client), to check the web pages in a real
test and benchmarks: open a page, read it by evaluating script, click, resize, take a screenshot."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp

#: where Debian's Chromium is looked for
CANDIDATES = ("chromium", "chromium-browser", "google-chrome")


def chromium() -> str | None:
    """The browser's program, or None when none is installed."""
    found = os.environ.get("JUNKYARD_CHROMIUM")
    if found:
        return found
    for name in CANDIDATES:
        path = shutil.which(name)
        if path:
            return path
    return None


class BrowserError(Exception):
    """The browser did not start, or a command failed."""


class Tab:
    """One page of the browser, over its DevTools websocket."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.events: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        async for msg in self.ws:
            if msg.type != aiohttp.WSMsgType.TEXT:
                continue
            data = json.loads(msg.data)
            future = self._waiting.pop(data.get("id", -1), None)
            if future is not None and not future.done():
                future.set_result(data)
            elif "method" in data:
                await self.events.put(data)

    async def send(self, method: str, timeout: float = 30.0, **params: Any) -> dict[str, Any]:
        """One DevTools command; its result (raises :class:`BrowserError` for an error)."""
        n = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[n] = future
        await self.ws.send_str(json.dumps({"id": n, "method": method, "params": params}))
        answer = await asyncio.wait_for(future, timeout)
        if "error" in answer:
            raise BrowserError(f"{method}: {answer['error']}")
        result: dict[str, Any] = answer.get("result", {})
        return result

    async def evaluate(self, script: str) -> Any:
        """The value of a script in the page (awaited when it is a promise)."""
        result = await self.send("Runtime.evaluate", expression=script, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise BrowserError(f"script failed: {result['exceptionDetails']}")
        return result.get("result", {}).get("value")

    async def wait_for(self, script: str, timeout: float = 20.0, every: float = 0.02) -> Any:
        """The first true value of ``script``, read again and again until ``timeout`` seconds."""
        end = time.monotonic() + timeout
        while True:
            value = await self.evaluate(script)
            if value:
                return value
            if time.monotonic() > end:
                raise BrowserError(f"waited {timeout} s in vain for {script}")
            await asyncio.sleep(every)

    async def open(self, url: str) -> None:
        """Go to ``url`` and wait until its document and script are loaded."""
        await self.send("Page.enable")
        await self.send("Page.navigate", url=url)
        await self.wait_for("document.readyState === 'complete'")

    async def size(self, width: int, height: int, scale: float = 1.0, mobile: bool = False) -> None:
        """Make the page's window ``width`` × ``height`` CSS pixels."""
        await self.send("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=scale,
                        mobile=mobile)

    async def tap(self, x: float, y: float) -> None:
        """A finger's tap at ``x``, ``y`` (CSS pixels from the window's top left): touched and lifted, so the
        page gets the click a phone's tap makes."""
        await self.send("Emulation.setTouchEmulationEnabled", enabled=True, maxTouchPoints=1)
        await self.send("Input.dispatchTouchEvent", type="touchStart", touchPoints=[{"x": x, "y": y}])
        await self.send("Input.dispatchTouchEvent", type="touchEnd", touchPoints=[])

    async def click(self, x: float, y: float) -> None:
        """A mouse's left click at ``x``, ``y`` (CSS pixels from the window's top left)."""
        for kind in ("mousePressed", "mouseReleased"):
            await self.send("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)

    async def key(self, key: str, code: int, *, repeat: bool = False, up: bool = False) -> None:
        """A key pressed (``repeat``: as a held key repeats it) or, with ``up``, let go; ``code`` is its
        Windows key code (37: ←)."""
        await self.send("Input.dispatchKeyEvent", type="keyUp" if up else "rawKeyDown", key=key, code=key,
                        windowsVirtualKeyCode=code, autoRepeat=repeat)

    async def reload(self) -> None:
        """Load the page again (as the browser's reload does) and wait until its document is complete."""
        await self.evaluate("window.reloading = true")
        await self.send("Page.reload", ignoreCache=False)
        await self.wait_for("window.reloading === undefined && document.readyState === 'complete'")

    async def screenshot(self, path: Path, full: bool = True) -> Path:
        """A PNG of the page (``full``: all of it, not only the window) written to ``path``."""
        result = await self.send("Page.captureScreenshot", format="png", captureBeyondViewport=full)
        path.write_bytes(base64.b64decode(result["data"]))
        return path

    async def close(self) -> None:
        self._reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._reader
        await self.ws.close()


class Browser:
    """A headless Chromium of its own (a fresh profile, a free DevTools port) and its tabs."""

    def __init__(self, program: str) -> None:
        self.program = program
        self.profile = tempfile.mkdtemp(prefix="junkyard-chromium-")
        self.process: subprocess.Popen[bytes] | None = None
        self.session: aiohttp.ClientSession | None = None
        self.endpoint = ""

    async def start(self) -> None:
        self.process = subprocess.Popen(
            [self.program, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
             "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--mute-audio",
             "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic",
             "--remote-debugging-port=0", "--remote-allow-origins=*", f"--user-data-dir={self.profile}",
             "about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = Path(self.profile) / "DevToolsActivePort"
        end = time.monotonic() + 30
        while not port_file.exists() or not port_file.read_text().strip():
            if self.process.poll() is not None or time.monotonic() > end:
                raise BrowserError("Chromium did not start")
            await asyncio.sleep(0.05)
        port = port_file.read_text().split()[0]
        self.endpoint = f"http://127.0.0.1:{port}"
        self.session = aiohttp.ClientSession()

    async def tab(self) -> Tab:
        """A new tab on about:blank."""
        assert self.session is not None
        async with self.session.put(f"{self.endpoint}/json/new?about:blank") as answer:
            target = await answer.json()
        ws = await self.session.ws_connect(target["webSocketDebuggerUrl"], max_msg_size=64 * 1024 * 1024)
        return Tab(ws)

    async def close(self) -> None:
        if self.session is not None:
            await self.session.close()
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


@contextlib.asynccontextmanager
async def browser(program: str | None = None) -> AsyncIterator[Browser]:
    """A headless Chromium while the block runs (raises :class:`BrowserError` when there is none)."""
    found = program or chromium()
    if found is None:
        raise BrowserError("no Chromium installed (Debian: apt-get install chromium)")
    made = Browser(found)
    try:
        await made.start()
        yield made
    finally:
        await made.close()


__all__ = ["Browser", "BrowserError", "Tab", "browser", "chromium"]
