"""Start-up catch-up: what a stop left behind is settled a page at a time and after the first answers."""

from __future__ import annotations

import asyncio
import threading

import bot.standing.history
from bot.discord import JunkyardBot
from rules import lookup
from tests.bot.helpers import finished_unrecorded


async def test_unrecorded_ends_are_settled_a_page_at_a_time_and_one_that_fails_stays_behind(service, monkeypatch):
    """Thousands of unrecorded ends must not be read at once: pages of SETTLE_PAGE, a game that cannot be
    settled is tried once and does not stop the others."""
    ids = await finished_unrecorded(service, monkeypatch, range(21, 26))
    monkeypatch.setattr(bot.standing.history, "SETTLE_PAGE", 2)
    real_end, real_read = bot.standing.history.record_end, service.store.standings.unrecorded_ends
    limits: list[int] = []
    tried: list[int] = []

    async def record_end(store, front, rec, game, **kwargs):
        tried.append(rec.id)
        if rec.id == ids[1]:
            raise RuntimeError("this one does not load")
        return await real_end(store, front, rec, game, **kwargs)

    async def unrecorded_ends(limit=50):
        limits.append(limit)
        return await real_read(limit=limit)

    monkeypatch.setattr(bot.standing.history, "record_end", record_end)
    monkeypatch.setattr(service.store.standings, "unrecorded_ends", unrecorded_ends)
    assert await bot.standing.history.settle_ends(service) == 4
    assert sorted(tried) == sorted(ids)  # each tried once
    assert [r.id for r in await real_read()] == [ids[1]]
    assert max(limits) <= 2 + 1  # a page, plus the one left behind


async def test_catching_up_waits_until_the_first_answers_had_the_loop(service, monkeypatch):
    """Resuming computers, settling ends and timing turns start ``catch_up_after`` seconds after READY."""
    client = JunkyardBot(service=service)
    client.catch_up_after = 0.2
    started: list[str] = []

    async def resume() -> None:
        started.append("resume")

    monkeypatch.setattr(client, "resume_computers", resume)
    client.start_background()
    try:
        await asyncio.sleep(0.05)
        assert started == []
        await asyncio.sleep(0.3)
        assert started == ["resume"]
    finally:
        for task in client._background:
            task.cancel()
        await asyncio.gather(*client._background, return_exceptions=True)


async def test_the_rule_lookup_is_built_in_a_thread_for_every_game_and_language(service, monkeypatch):
    """After the first answers had the loop, each game's lookup in each language it has is prepared off the
    loop, one at a time, so no first `/rules` question waits for its index and phrasings model."""
    prepared: list[tuple[str, str, bool]] = []

    def prepare(game: str, lang: str) -> None:
        prepared.append((game, lang, threading.current_thread() is threading.main_thread()))

    monkeypatch.setattr(lookup, "prepare", prepare)
    client = JunkyardBot(service=service)
    client.catch_up_after = 0.05
    client.start_background()
    try:
        expected = [(game, lang) for game in lookup.all_games() for lang in lookup.languages(game)]
        for _ in range(100):
            if len(prepared) == len(expected):
                break
            await asyncio.sleep(0.02)
        assert [(game, lang) for game, lang, _ in prepared] == expected
        assert not any(on_main for _, _, on_main in prepared)
        assert {"races", "rally", "piecepack"} <= {game for game, _ in expected}
    finally:
        for task in client._background:
            task.cancel()
        await asyncio.gather(*client._background, return_exceptions=True)
