"""Playing from a seat's page in a real browser (headless Chromium, one for the whole module): in each game a
player plays whole turns from their page, tapping the board's cells or pressing the page's buttons, while the
other presses on Discord (``Service.act``); the channel gets the very messages presses give, and the page shows
each new board without a reload. Then the page's hardening: ten reloads in a row never leave it on "Connection
lost", and a held ← over a long replay ends on a shown board although the server refused some pictures (429).
Screenshots are left in $JUNKYARD_SCREENSHOTS (default: the test's temporary folder)."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot import texts
from bot.play.service import Service
from bot.store import GameRecord, SqliteStore, Store
from bot.telling.outcomes import Accepted
from bot.web import seats
from bot.web.browser import Browser, Tab, browser
from bot.web.server import Limits
from tests.bot.test_hidden_information import ANN, BOB, CH
from tests.bot.test_web_seat import pressed, seated
from tests.bot.web_helpers import chromium_or_skip, open_race, page_of, play, serving

pytestmark = pytest.mark.asyncio(loop_scope="module")

BOARD = "document.getElementById('board')"

#: counts, in the page, the live streams it opened, the updates they brought and the errors they met (the
#: browser's own EventSource, wrapped before the page's script runs)
STREAM_COUNTER = """
(() => {
  const Real = window.EventSource;
  if (!Real) return;
  window.opened = 0; window.heard = 0; window.failed = 0;
  const Counted = function (url, options) {
    const source = new Real(url, options);
    window.opened += 1;
    source.addEventListener('message', () => { window.heard += 1; });
    source.addEventListener('error', () => { window.failed += 1; });
    return source;
  };
  Counted.prototype = Real.prototype;
  Counted.CONNECTING = Real.CONNECTING; Counted.OPEN = Real.OPEN; Counted.CLOSED = Real.CLOSED;
  window.EventSource = Counted;
})();
"""


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def chrome() -> AsyncIterator[Browser]:
    async with browser(chromium_or_skip()) as made:
        yield made


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    return Path(os.environ.get("JUNKYARD_SCREENSHOTS") or tmp_path)


async def said(service: Service, store: Store, game_id: int, lang: str) -> list[tuple[str, str]]:
    """The channel's messages of a game in ``lang``, in order: each record's kind and words."""
    return [(d.kind, (await service.message(d, lang, words_only=True)).text)
            for d in await store.outbox.deliveries(game_id=game_id)]


async def centre(tab: Tab, element: str, box: list[float] | None = None,
                 across: float | None = None) -> tuple[float, float]:
    """Where on the screen to put a finger or the mouse: the centre of ``element``, or of ``box`` (pixels of the
    whole board, ``across`` pixels wide: the seat view's size, whatever size of picture the page shows) within
    it; the page is scrolled so that it is in the window's middle."""
    inner = "null" if box is None else json.dumps(box)
    wide = "null" if across is None else json.dumps(across)
    x, y = await tab.evaluate(f"""(() => {{
        const e = {element}, box = {inner}, across = {wide};
        const at = () => {{
          const r = e.getBoundingClientRect();
          if (box === null) return [r.left + r.width / 2, r.top + r.height / 2];
          const s = r.width / (across === null ? e.naturalWidth : across);
          return [r.left + (box[0] + box[2]) / 2 * s, r.top + (box[1] + box[3]) / 2 * s];
        }};
        window.scrollBy(0, at()[1] - window.innerHeight / 2);
        return at();
    }})()""")
    return float(x), float(y)


async def press(tab: Tab, element: str, box: list[float] | None, touch: bool, across: float | None = None) -> None:
    x, y = await centre(tab, element, box, across)
    await (tab.tap(x, y) if touch else tab.click(x, y))


async def shows_moves_of(tab: Tab, view: dict[str, Any]) -> bool:
    """Whether the page's "Your moves" shows the seat's view ``view``: its buttons and its cells."""
    labels = await tab.evaluate("[...document.getElementById('seat-buttons').children].map(b => b.textContent)")
    cells = await tab.evaluate("[...document.getElementById('seat-cells').children].map(b => b.textContent)")
    return bool(labels == [b["label"] for b in view["buttons"]] and cells == [t["cell"] for t in view["targets"]])


async def settled(service: Service, game_id: int, before: int) -> GameRecord:
    """The game once a move was stored after version ``before`` (and what played itself after it)."""
    for _ in range(400):
        rec = await service.store.games.get_game(game_id)
        if rec.version > before:
            await asyncio.sleep(0.05)
            return await service.store.games.get_game(game_id)
        await asyncio.sleep(0.025)
    raise AssertionError(f"no move was stored after version {before}")


async def shows_board(tab: Tab, version: int) -> None:
    """The page shows the live board of ``version``, loaded."""
    await tab.wait_for(f"document.getElementById('slider').max === '{version}' && "
                       f"{BOARD}.src.includes('/board/{version}-') && {BOARD}.complete && {BOARD}.naturalWidth > 0",
                       timeout=30)


@pytest.mark.parametrize(("key", "width", "height", "lang"), [
    ("races", 360, 740, "en"),
    ("rally", 1280, 900, "de"),
    ("piecepack", 360, 740, "de"),
])
async def test_a_whole_turn_from_the_seat_page_in_a_browser_gives_the_channel_a_press_s_messages(
        chrome, tmp_path, shots, key, width, height, lang):
    """Ann plays her turns from her seat's page (a phone taps, a desktop clicks): a cell of the board when the
    page offers cells (then the way there), else the page's first button (roll, choose, done…); Bob presses on
    Discord. A twin table where every move is a press ends with the same channel messages, word for word in
    both languages; every page move was handed to the delivery a press's answer gets; the page shows each new
    board, Ann's and Bob's, in the same document."""
    store = SqliteStore(tmp_path / "page.db")
    twin_store = SqliteStore(tmp_path / "twin.db")
    await store.open()
    await twin_store.open()
    touch = width < 600
    try:
        service = Service(store, seed_source=lambda: 7)
        twin = Service(twin_store, seed_source=lambda: 7)
        rec = await seated(service, key)
        twin_rec = await seated(twin, key)
        handed: list[Accepted] = []

        async def played(accepted: Accepted) -> None:
            handed.append(accepted)

        async with serving(store, service=service, played=played, poll_seconds=0.1) as (_, base):
            url = seats.seat_url(base, await seats.seat_token(store, rec.id, ANN)) + f"?lang={lang}"
            tab = await chrome.tab()
            await tab.size(width, height, scale=2 if touch else 1, mobile=touch)
            await tab.open(url)
            await shows_board(tab, rec.version)
            await tab.evaluate("window.notReloaded = true")
            assert await tab.evaluate("document.documentElement.lang") == lang
            ann_turns = bob_turns = posts = taps = 0
            for _ in range(80):
                rec, game, _ = await service.current(CH)
                assert rec is not None and game is not None
                if game.is_over or (ann_turns >= 1 and bob_turns >= 1):
                    break
                seat = game.to_act
                assert seat is not None
                before = rec.version
                done = len(await store.games.actions(rec.id))
                if rec.seats[seat].user_id == ANN:
                    view = json.loads(await tab.evaluate(
                        f"fetch(location.pathname + '/seat.json?lang={lang}').then(r => r.text())"))
                    assert view["to_act"] and view["version"] == before, view
                    for _ in range(200):  # the page's own read of the seat's view has come
                        if await shows_moves_of(tab, view):
                            break
                        await asyncio.sleep(0.025)
                    else:
                        raise AssertionError(f"the page never showed the moves of {view}")
                    if view["targets"]:
                        target = view["targets"][0]
                        meant = target["ways"][0]["action"]
                        await press(tab, BOARD, target["box"], touch, view["size"][0])
                        ways = "document.getElementById('seat-ways')"
                        await tab.wait_for(f"!{ways}.hidden")
                        assert target["cell"] in await tab.evaluate(f"{ways}.textContent")
                        if not taps:
                            await tab.screenshot(shots / f"web-play-{key}-{width}-{lang}-ways.png", full=False)
                        await press(tab, f"{ways}.querySelector('button.move')", None, touch)
                        taps += 1
                    else:
                        meant = view["buttons"][0]["action"]
                        await press(tab, "document.querySelector('#seat-buttons button.move')", None, touch)
                    posts += 1
                    rec = await settled(service, rec.id, before)
                    action = (await store.games.actions(rec.id))[done].action
                    assert action == meant, (action, view)  # the tapped cell's way, or the pressed button
                else:
                    action = pressed(service, key, game, seat)
                    assert isinstance(await service.act(CH, BOB, action, before), Accepted)
                    rec = await settled(service, rec.id, before)
                assert isinstance(await twin.act(CH, rec.seats[seat].user_id, action), Accepted), action
                await shows_board(tab, rec.version)  # Ann's move and Bob's, live in the same document
                assert await tab.evaluate("window.notReloaded === true")
                _, game_after, _ = await service.current(CH)
                if game_after is None or game_after.to_act != seat:
                    ann_turns += rec.seats[seat].user_id == ANN
                    bob_turns += rec.seats[seat].user_id == BOB
            assert ann_turns >= 1 and bob_turns >= 1, (ann_turns, bob_turns)
            assert taps, "no cell of the board was offered: the taps are untested"
            assert len(handed) == posts and all(a.records for a in handed)
            await tab.screenshot(shots / f"web-play-{key}-{width}-{lang}.png")
            await tab.close()
        for words in ("en", "de"):
            assert await said(service, store, rec.id, words) == await said(twin, twin_store, twin_rec.id, words)
        assert [a.action for a in await store.games.actions(rec.id)] == \
            [a.action for a in await twin_store.games.actions(twin_rec.id)]
    finally:
        await store.close()
        await twin_store.close()


async def test_ten_reloads_in_a_row_never_leave_the_page_on_connection_lost(chrome, tmp_path):
    """With the server's usual cap of live streams per client: each of ten reloads, made as soon as the page
    is loaded, opens its live stream at the first try (no error, never "Connection lost"), and after them the
    page still follows the race live."""
    store = SqliteStore(tmp_path / "reload.db")
    await store.open()
    try:
        service = Service(store, seed_source=lambda: 4)
        rec = await play(service, await open_race(service), 2)
        async with serving(store, poll_seconds=0.1, limits=Limits(rate=1000.0, burst=1000)) as (server, base):
            assert server.limits.streams_per_client == Limits().streams_per_client
            tab = await chrome.tab()
            await tab.send("Page.addScriptToEvaluateOnNewDocument", source=STREAM_COUNTER)
            await tab.size(1280, 900)
            await tab.open(await page_of(store, base, rec) + "?lang=en")
            lost = texts.say("web.reconnecting", "en")
            for n in range(10):
                await tab.reload()
                await tab.wait_for("window.heard >= 1", timeout=10)
                status = await tab.evaluate("document.getElementById('status').textContent")
                assert await tab.evaluate("[window.opened, window.failed]") == [1, 0], (n, status)
                assert status != lost, n
            await asyncio.sleep(1.0)
            assert await tab.evaluate("[window.opened, window.failed]") == [1, 0]
            await tab.evaluate("window.notReloaded = true")
            rec = await play(service, rec, 1)
            await shows_board(tab, rec.version)
            assert await tab.evaluate("window.notReloaded === true")
            assert await tab.evaluate("document.getElementById('status').textContent") != lost
            await tab.close()
    finally:
        await store.close()


async def test_a_held_left_arrow_over_a_long_replay_ends_on_a_shown_board_despite_refused_pictures(
        chrome, tmp_path, shots):
    """A small rate per client (4 requests a second, 12 at once): ← held over a race of many moves steps back
    quickly, the server refuses some of the pictures (429), and when the key is let go the page shows the
    step it stopped on, its picture loaded (page.js asks a refused picture again)."""
    store = SqliteStore(tmp_path / "replay.db")
    await store.open()
    try:
        service = Service(store, seed_source=lambda: 4)
        rec = await open_race(service, options={"laps": 3, "track": "A"})
        for _ in range(40):
            if rec.version >= 45 or rec.status != "active":
                break
            rec = await play(service, rec, 60)
        assert rec.version >= 45 and rec.status == "active", rec.version
        async with serving(store, poll_seconds=0.1, limits=Limits(rate=4.0, burst=12)) as (_, base):
            tab = await chrome.tab()
            await tab.send("Network.enable")
            await tab.size(1280, 900)
            await tab.open(await page_of(store, base, rec) + "?lang=en")
            await shows_board(tab, rec.version)
            steps = 30
            await tab.key("ArrowLeft", 37)
            for _ in range(steps - 1):
                await asyncio.sleep(0.033)  # a held key's repeat
                await tab.key("ArrowLeft", 37, repeat=True)
            await tab.key("ArrowLeft", 37, up=True)
            stop = rec.version - steps
            assert await tab.evaluate("document.getElementById('mode').textContent") == \
                f"Move {stop} of {rec.version}"
            await tab.wait_for(f"{BOARD}.src.includes('/board/{stop}-') && {BOARD}.complete && "
                               f"{BOARD}.naturalWidth > 0", timeout=15)
            refused = []
            while not tab.events.empty():
                event = tab.events.get_nowait()
                if event.get("method") == "Network.responseReceived":
                    answer = event["params"]["response"]
                    if answer["status"] == 429 and "/board/" in answer["url"]:
                        refused.append(answer["url"])
            assert refused, "no picture was refused: the retry is untested"
            await tab.screenshot(shots / "web-replay-held-back.png", full=False)
            await tab.close()
    finally:
        await store.close()
