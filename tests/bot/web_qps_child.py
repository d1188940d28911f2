"""Child process of ``tests/bot/test_web_browser.py``'s pseudo-language check: a race's page in ``qps`` (a
language only when the variable is set before import) opened in headless Chromium at a phone's and a desk's
size, live and with the replay stepped back. Prints, as JSON, for each state: how wide the document is and
the window, every element whose text its own box clips, and the page's visible text.

Usage: ``JUNKYARD_PSEUDO_LOCALE=1 python -m tests.bot.web_qps_child <chromium> <folder>``
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from bot import texts
from bot.games import units
from bot.play.service import Service
from bot.store import GameRecord, SqliteStore
from bot.web.browser import Tab, browser
from rules import catalogue
from tests.bot.web_helpers import open_race, page_of, play, serving

#: every shown element whose text its box cuts off (overflow hidden or clip, wider or taller inside than it
#: is), but the standings' own scrolling region
CLIPPED = """[...document.querySelectorAll('body *')].filter(e => {
  if (!e.getClientRects().length || e.closest('.scroll') || !e.textContent.trim()) return false;
  const s = getComputedStyle(e), cut = v => v === 'hidden' || v === 'clip';
  return (cut(s.overflowX) && e.scrollWidth > e.clientWidth + 1)
    || (cut(s.overflowY) && e.scrollHeight > e.clientHeight + 1);
}).map(e => (e.id || e.tagName.toLowerCase() + '.' + e.className) + ': ' + e.textContent.trim().slice(0, 120))"""
BOARD = "document.getElementById('board')"
SIZES = {"phone": (360, 740, 2.0, True), "desk": (1280, 900, 1.0, False)}


async def seen(tab: Tab, name: str, folder: Path) -> dict[str, Any]:
    """What the page shows now."""
    await tab.screenshot(folder / f"web-qps-{name}.png")
    return {"state": name, "scroll": await tab.evaluate("document.documentElement.scrollWidth"),
            "width": await tab.evaluate("window.innerWidth"), "clipped": await tab.evaluate(CLIPPED),
            "text": await tab.evaluate("document.body.innerText")}


def names(rec: GameRecord) -> list[str]:
    """What the page shows as it was named, in no language: the seats' names, the games' titles, and each
    language's own name on the switch between them."""
    titles = [unit.title for unit in units()]
    return [*(seat.name for seat in rec.seats), *titles, *(texts.language_name(lang, lang) for lang in texts.LANGS)]


async def main(program: str, folder: Path) -> dict[str, Any]:
    store = SqliteStore(folder / "web.db")
    await store.open()
    out = []
    try:
        service = Service(store, seed_source=lambda: 4)
        rec = await play(service, await open_race(service), 8)
        async with serving(store, poll_seconds=0.1) as (_, base), browser(program) as chrome:
            url = await page_of(store, base, rec)
            tab = await chrome.tab()
            for size, (width, height, scale, mobile) in SIZES.items():
                await tab.size(width, height, scale=scale, mobile=mobile)
                await tab.open(url + "?lang=qps")
                await tab.wait_for(f"{BOARD}.complete && {BOARD}.naturalWidth > 0")
                await tab.wait_for("document.getElementById('log').children.length > 0")
                out.append(await seen(tab, f"{size}-live", folder))
                for _ in range(2):
                    await tab.evaluate("document.getElementById('back').click()")
                await tab.wait_for(f"{BOARD}.src.includes('/board/{rec.version - 2}-') && {BOARD}.complete")
                out.append(await seen(tab, f"{size}-replay", folder))
            await tab.close()
    finally:
        await store.close()
    return {"names": names(rec), "states": out}


if __name__ == "__main__":
    assert catalogue.PSEUDO in catalogue.LANGS, "run with JUNKYARD_PSEUDO_LOCALE=1"
    print(json.dumps(asyncio.run(main(sys.argv[1], Path(sys.argv[2])))))
