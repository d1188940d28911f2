"""A real browser on a game's page: headless Chromium (Debian's; .ci/run installs it) opens the page while a race
is played through the service, sees the board change without a reload, steps the replay back and forward, and
fits a phone's 360 px; a player taps a cell on their seat's page and plays a way there. Screenshots are left in
$JUNKYARD_SCREENSHOTS (default: the test's temporary folder)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.play.service import Service
from bot.web import seats
from bot.web.browser import browser
from rules import catalogue
from tests.bot.web_helpers import chromium_or_skip, open_people_race, open_race, page_of, play, serving
from tests.test_pseudo_locale import stray_words

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def program() -> str:
    return chromium_or_skip()


def board_move(src: str) -> int:
    """The move a board picture's address shows (``…/board/12-abcdef012345.png?lang=en``)."""
    return int(src.rsplit("/board/", 1)[1].split("-", 1)[0])


async def test_a_browser_follows_the_race_live_and_steps_its_replay(store, tmp_path, program):
    shots = Path(os.environ.get("JUNKYARD_SCREENSHOTS") or tmp_path)
    service = Service(store, seed_source=lambda: 4)
    rec = await play(service, await open_race(service), 4)
    async with serving(store, poll_seconds=0.1) as (_, base), browser(program) as chrome:
        url = await page_of(store, base, rec)
        tab = await chrome.tab()
        await tab.size(1280, 900)
        await tab.open(url + "?lang=en")
        board = "document.getElementById('board')"
        await tab.wait_for(f"{board}.complete && {board}.naturalWidth > 0")
        assert board_move(await tab.evaluate(f"{board}.src")) == rec.version
        assert await tab.evaluate("document.getElementById('mode').textContent") == "Live"
        await tab.evaluate("window.notReloaded = true")
        before = rec.version
        rec = await play(service, rec, 3)
        assert rec.version > before
        # the board changes without a reload: the same document, a newer picture, the new moves listed
        await tab.wait_for(f"document.getElementById('slider').max === '{rec.version}'")
        await tab.wait_for(f"{board}.src.includes('/board/{rec.version}-') && {board}.complete")
        assert await tab.evaluate("window.notReloaded === true")
        assert await tab.evaluate(f"{board}.naturalWidth") > 0
        turn = await tab.evaluate("document.getElementById('turn').textContent")
        assert turn.endswith("is to move.")
        await tab.screenshot(shots / "web-page-1280-en.png")
        # one move back, then another, then forward again: the replay's step, its picture and its caption
        await tab.evaluate("document.getElementById('back').click()")
        await tab.wait_for(f"{board}.src.includes('/board/{rec.version - 1}-')")
        assert await tab.evaluate("document.getElementById('mode').textContent") == \
            f"Move {rec.version - 1} of {rec.version}"
        assert not await tab.evaluate("document.getElementById('live').hidden")
        await tab.evaluate("document.getElementById('back').click()")
        await tab.wait_for(f"{board}.src.includes('/board/{rec.version - 2}-') && {board}.complete")
        caption = await tab.evaluate("document.getElementById('caption').textContent")
        assert caption
        await tab.evaluate("document.getElementById('forward').click()")
        await tab.wait_for(f"{board}.src.includes('/board/{rec.version - 1}-')")
        await tab.evaluate("document.getElementById('first').click()")
        await tab.wait_for(f"{board}.src.includes('/board/0-') && {board}.complete")
        await tab.screenshot(shots / "web-page-1280-en-start.png")
        # a move played while replaying leaves the replay where it is, and the slider reaches the new move
        rec = await play(service, rec, 1)
        await tab.wait_for(f"document.getElementById('slider').max === '{rec.version}'")
        assert board_move(await tab.evaluate(f"{board}.src")) == 0
        await tab.evaluate("document.getElementById('last').click()")
        await tab.wait_for(f"{board}.src.includes('/board/{rec.version}-')")
        assert await tab.evaluate("document.getElementById('mode').textContent") == "Live"
        # a phone: 360 px wide, nothing wider than the screen, the buttons a finger's size
        for lang in ("en", "de"):
            await tab.size(360, 780, scale=2, mobile=True)
            await tab.open(url + f"?lang={lang}")
            await tab.wait_for(f"{board}.complete && {board}.naturalWidth > 0")
            assert await tab.evaluate("document.documentElement.scrollWidth") <= 360
            assert await tab.evaluate(f"{board}.getBoundingClientRect().width") <= 360
            heights = await tab.evaluate(
                "[...document.querySelectorAll('.controls button')].map(b => b.getBoundingClientRect().height)")
            assert heights and min(heights) >= 44
            await tab.screenshot(shots / f"web-page-360-{lang}.png")
        assert await tab.evaluate("document.documentElement.lang") == "de"
        assert "ist am Zug" in await tab.evaluate("document.getElementById('turn').textContent")
        await tab.size(1280, 900)
        await tab.open(url + "?lang=de")
        await tab.wait_for(f"{board}.complete && {board}.naturalWidth > 0")
        await tab.screenshot(shots / "web-page-1280-de.png")
        await tab.close()


async def test_a_player_taps_a_cell_of_the_board_on_a_phone_and_plays_a_way_there(store, tmp_path, program):
    """A seat's page at 360×740: a tap on a cell the roll reaches opens the ways there; pressing one plays it
    (one POST), and the live update shows the new board without a reload."""
    shots = Path(os.environ.get("JUNKYARD_SCREENSHOTS") or tmp_path)
    service = Service(store, seed_source=lambda: 7)
    rec = await open_people_race(service)
    async with serving(store, poll_seconds=0.1, service=service) as (_, base), browser(program) as chrome:
        url = seats.seat_url(base, await seats.seat_token(store, rec.id, rec.seats[0].user_id))
        tab = await chrome.tab()
        await tab.size(360, 740, scale=2, mobile=True)
        await tab.open(url + "?lang=en")
        board = "document.getElementById('board')"
        await tab.wait_for(f"{board}.complete && {board}.naturalWidth > 0")
        await tab.wait_for("document.getElementById('seat-cells').children.length > 0")
        await tab.evaluate("window.notReloaded = true")
        assert await tab.evaluate("document.documentElement.scrollWidth") <= 360
        view = json.loads(await tab.evaluate(f"fetch('{url}/seat.json?lang=en').then(r => r.text())"))
        target = view["targets"][0]
        x0, y0, x1, y1 = target["box"]
        await tab.evaluate(f"{board}.scrollIntoView({{block: 'center'}})")
        box = await tab.evaluate(f"(() => {{ const r = {board}.getBoundingClientRect(); "
                                 f"return [r.left, r.top, r.width / {view['size'][0]}]; }})()")
        left, top, scale = box
        await tab.tap(left + (x0 + x1) / 2 * scale, top + (y0 + y1) / 2 * scale)
        ways = "document.getElementById('seat-ways')"
        await tab.wait_for(f"!{ways}.hidden")
        assert target["cell"] in await tab.evaluate(f"{ways}.textContent")
        assert await tab.evaluate(f"document.activeElement.parentElement === {ways}")  # the keyboard is there
        await tab.screenshot(shots / "web-seat-360-ways.png")
        await tab.evaluate(f"{ways}.querySelector('button.move').click()")
        await tab.wait_for(f"{board}.src.includes('/board/{rec.version + 1}-')", timeout=30)
        assert await tab.evaluate("window.notReloaded === true")
        assert (await store.games.actions(rec.id))[-1].action == target["ways"][0]["action"]
        assert (await store.games.get_game(rec.id)).version == rec.version + 1
        await tab.screenshot(shots / "web-seat-360-played.png")
        await tab.close()


async def test_the_page_in_qps_fits_a_phone_and_a_desk_and_says_every_word_through_a_catalogue(program, tmp_path):
    """The page in the pseudo-language ``qps`` (every text about 40 % longer) at 360×740 and 1280×900, live
    and with the replay two moves back: the document never scrolls sideways, no element's box cuts its text
    off (the standings scroll in a region of their own), and every visible word outside a name (a seat's, a
    game's title, a language's own name) came through a catalogue (``tests/test_pseudo_locale.py``'s scan)."""
    env = {**os.environ, catalogue.PSEUDO_VARIABLE: "1", "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "tests.bot.web_qps_child", program, str(tmp_path)],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout)
    assert [s["state"] for s in found["states"]] == ["phone-live", "phone-replay", "desk-live", "desk-replay"]
    names = sorted(found["names"], key=len, reverse=True)
    for state in found["states"]:
        assert state["scroll"] <= state["width"], state["state"]
        assert state["clipped"] == [], state["state"]
        text = state["text"]
        for name in names:
            text = text.replace(name, " ")
        assert "⟦" in text and sorted(set(stray_words(text))) == [], state["state"]
