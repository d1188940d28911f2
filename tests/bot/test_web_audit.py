"""axe-core, the accessibility checker, over every state of the games' pages in headless Chromium: both
languages, a phone (360×740) and a desk (1280×900); the live page, the whole board pressed on a phone, the
replay stepped back with its list of moves open, the page after a live update, a seat's page with the ways to a
cell open, a Schrottplatz Rally and a piecepack page (their standings), and a championship's page. Every state
has no violation of any impact. axe-core comes from npm (``npm ci --prefix tests/browser``, which .ci/run does):
under CI a missing checker fails these tests, elsewhere it skips them."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

from bot import terminal as term
from bot.play.service import Service
from bot.telling.outcomes import Accepted
from bot.telling.pictures import Pictures
from bot.web import links, seats
from bot.web.browser import Tab, browser
from tests.bot.test_web_championship import CH, play_toy_round
from tests.bot.web_helpers import (
    AXE,
    axe_violations,
    chromium_or_skip,
    open_people_race,
    open_race,
    page_of,
    play,
    serving,
)

PHONE = (360, 740)
DESK = (1280, 900)
BOARD = "document.getElementById('board')"


@pytest.fixture
def program() -> str:
    return chromium_or_skip()


@pytest.fixture
def axe() -> str:
    """axe.min.js's text."""
    if not AXE.is_file():
        if os.environ.get("CI") == "true":
            pytest.fail("no axe-core: .ci/run installs it with `npm ci --prefix tests/browser`")
        pytest.skip("no axe-core: run `npm ci --prefix tests/browser`")
    return AXE.read_text(encoding="utf-8")


async def size(tab: Tab, screen: tuple[int, int]) -> None:
    await tab.size(*screen, scale=2 if screen == PHONE else 1, mobile=screen == PHONE)


async def audited(tab: Tab, axe: str, state: str, found: dict[str, list[dict[str, Any]]]) -> None:
    """Run axe over the page as it is now and keep what it found under ``state``."""
    found[state] = await axe_violations(tab, axe)


async def shown(tab: Tab) -> None:
    await tab.wait_for(f"{BOARD}.complete && {BOARD}.naturalWidth > 0")


async def test_every_state_of_a_race_page_passes_axe_in_both_languages_on_a_phone_and_a_desk(store, program, axe):
    service = Service(store, seed_source=lambda: 4)
    rec = await play(service, await open_race(service), 4)
    found: dict[str, list[dict[str, Any]]] = {}
    async with serving(store, poll_seconds=0.1) as (_, base), browser(program) as chrome:
        url = await page_of(store, base, rec)
        tab = await chrome.tab()
        for lang in ("en", "de"):
            for screen in (PHONE, DESK):
                where = f"{lang} {screen[0]}"
                await size(tab, screen)
                await tab.open(f"{url}?lang={lang}")
                await shown(tab)
                await audited(tab, axe, f"{where} live", found)
                if screen == PHONE:  # the close-up, then the whole board one press away
                    assert "-close.png" in await tab.evaluate(f"{BOARD}.currentSrc")
                    await tab.evaluate("document.getElementById('whole').click()")
                    await tab.wait_for(f"!{BOARD}.currentSrc.includes('-close') && {BOARD}.complete")
                    assert await tab.evaluate("document.getElementById('whole').getAttribute('aria-pressed')") \
                        == "true"
                    await audited(tab, axe, f"{where} whole board", found)
                await tab.evaluate("document.getElementById('back').click()")
                await tab.evaluate("document.getElementById('steps').open = true")
                await tab.wait_for("document.querySelectorAll('#step-list button').length > 0")
                await tab.evaluate("document.querySelectorAll('#step-list button')[1].click()")
                await tab.wait_for(f"{BOARD}.src.includes('/board/1-') && {BOARD}.complete")
                await audited(tab, axe, f"{where} replay", found)
        rec = await play(service, rec, 2)
        await tab.wait_for(f"document.getElementById('slider').max === '{rec.version}'")
        await audited(tab, axe, "de 1280 after a live update", found)
        await tab.close()
    assert {state: v for state, v in found.items() if v} == {}, json.dumps(found, indent=1)
    assert len(found) == 11


async def test_a_seat_page_with_its_ways_open_passes_axe_in_both_languages_on_a_phone_and_a_desk(store, program,
                                                                                                 axe):
    service = Service(store, seed_source=lambda: 7)
    rec = await open_people_race(service)
    found: dict[str, list[dict[str, Any]]] = {}
    async with serving(store, poll_seconds=0.1, service=service) as (_, base), browser(program) as chrome:
        url = seats.seat_url(base, await seats.seat_token(store, rec.id, rec.seats[0].user_id))
        tab = await chrome.tab()
        for lang in ("en", "de"):
            for screen in (PHONE, DESK):
                await size(tab, screen)
                await tab.open(f"{url}?lang={lang}")
                await shown(tab)
                await tab.wait_for("document.getElementById('seat-cells').children.length > 0")
                # a cell to choose: the whole board is shown on a phone too (a tap picks its cell)
                assert "-close" not in await tab.evaluate(f"{BOARD}.currentSrc")
                await tab.evaluate("document.querySelector('#seat-cells button').click()")
                await tab.wait_for("!document.getElementById('seat-ways').hidden")
                await audited(tab, axe, f"{lang} {screen[0]} ways open", found)
        await tab.close()
    assert {state: v for state, v in found.items() if v} == {}, json.dumps(found, indent=1)


async def test_a_rally_and_a_piecepack_page_pass_axe_and_their_standings_fit_a_phone_and_a_desk(store, program,
                                                                                                axe):
    service = Service(store, seed_source=lambda: 5)
    found: dict[str, list[dict[str, Any]]] = {}
    widths: dict[str, tuple[int, int]] = {}
    async with serving(store, poll_seconds=0.1) as (_, base), browser(program) as chrome:
        tab = await chrome.tab()
        for key, options in (("rally", {"laps": 1}), ("piecepack", {})):
            opening, _ = await term.open_table(service, term.new_channel_id(), key, options,
                                               [term.SeatSpec("smart")] * 3)
            assert isinstance(opening.outcome, Accepted), opening.outcome
            rec = await play(service, await store.games.get_game(opening.outcome.game_id), 12)
            url = await page_of(store, base, rec)
            for lang in ("en", "de"):
                for screen in (PHONE, DESK):
                    await size(tab, screen)
                    await tab.open(f"{url}?lang={lang}")
                    await shown(tab)
                    await audited(tab, axe, f"{key} {lang} {screen[0]}", found)
                    widths[f"{key} {lang} {screen[0]}"] = tuple(await tab.evaluate(
                        "[document.querySelector('#table .scroll').scrollWidth, "
                        "document.querySelector('#table .scroll').clientWidth]"))
        await tab.close()
    assert {state: v for state, v in found.items() if v} == {}, json.dumps(found, indent=1)
    assert {state: w for state, w in widths.items() if w[0] > w[1]} == {}  # no standings scroll sideways


async def test_a_championship_page_passes_axe_in_both_languages_on_a_phone_and_a_desk(store, program, axe):
    service = Service(store, seed_source=iter(range(1, 10**6)).__next__, pictures=Pictures(processes=0))
    champ = await store.championships.create_championship(
        guild_id=1, channel_id=CH, host_id=1, name="Toy Cup", game_key="toy", rounds=[{}, {}], points=[5, 2],
        options={})
    found: dict[str, list[dict[str, Any]]] = {}
    async with serving(store) as (_, base), browser(program) as chrome:
        first = await play_toy_round(service, champ.id, 1)
        token = await links.link_token(store, first)
        tab = await chrome.tab()
        for lang in ("en", "de"):
            for screen in (PHONE, DESK):
                await size(tab, screen)
                await tab.open(f"{base}/g/{token}/championship?lang={lang}")
                await tab.wait_for("document.getElementById('championship').complete")
                await audited(tab, axe, f"{lang} {screen[0]}", found)
        await tab.close()
    assert {state: v for state, v in found.items() if v} == {}, json.dumps(found, indent=1)
    assert len(found) == 4


async def test_nothing_on_a_page_moves_once_it_is_shown_on_a_phone_or_a_desk(store, program):
    """Lighthouse's layout shift, measured in the browser: the page as served has the picture's size and the
    words the script shows first, and keeps the scroll bar's place, so loading it shifts (almost) nothing."""
    service = Service(store, seed_source=lambda: 4)
    rec = await play(service, await open_race(service, 4), 30)
    shifts: dict[tuple[int, int], float] = {}
    async with serving(store) as (_, base), browser(program) as chrome:
        url = await page_of(store, base, rec)
        for screen in (PHONE, DESK):
            tab = await chrome.tab()
            await size(tab, screen)
            # a slow network, as Lighthouse's: the page is shown before its script and pictures come
            await tab.send("Network.enable")
            await tab.send("Network.emulateNetworkConditions", offline=False, latency=150,
                           downloadThroughput=200_000, uploadThroughput=100_000)
            await tab.open(url)
            await shown(tab)
            shifts[screen] = await tab.evaluate(
                "new Promise(done => { let sum = 0; new PerformanceObserver(l => { for (const e of l.getEntries()) "
                "sum += e.value; }).observe({type: 'layout-shift', buffered: true}); "
                "setTimeout(() => done(sum), 300); })")
            await tab.close()
    assert all(shift < 0.01 for shift in shifts.values()), shifts
