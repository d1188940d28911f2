"""A championship's web page (``/g/TOKEN/championship``): opened by the page link of one of its rounds, it shows
the table's picture (its description as the alternative text) and words, and links every round that has a
page to it; the round's table in the channel names the page; a revoked round link opens it no more."""

from __future__ import annotations

import html
import re

import aiohttp

from bot.messages import Showing
from bot.play.service import Service
from bot.store import Store
from bot.telling.pictures import Pictures
from bot.web import links, share
from rules.literal import bare
from tests.bot.web_helpers import Client, serving

CH = 7003
ANN, BOB = 111_000_000_000_000_001, 222_000_000_000_000_002


async def play_toy_round(service: Service, champ_id: int, number: int) -> int:
    """Open, seat and play one round of the toy game to its end; the game's id."""
    await service.new_game(guild_id=1, channel_id=CH, user_id=ANN, user_name="Ann", game_key="toy")
    await service.join(CH, BOB, "Bob")
    rec = await service.store.games.channel_game(CH)
    assert rec is not None
    await service.store.championships.set_round(champ_id, number, rec.id)
    await service.start(CH, ANN)
    while (now := await service.store.games.channel_game(CH)) is not None:
        game = await service.load(now)
        user = now.seats[game.to_act].user_id
        await service.act(CH, user, "roll" if game.rolled is None else f"move {game.rolled}")
    return rec.id


async def table_words(store: Store, game_id: int) -> str:
    """The words of the championship table a round's game posted."""
    for d in await store.outbox.deliveries(game_id=game_id):
        shown = Showing.from_payload(d.kind, d.payload)
        if shown.picture == "table":
            return bare("\n".join(line.text for line in shown.lines))
    raise AssertionError("no table was posted")


async def test_a_championship_page_shows_its_table_and_links_each_round_that_has_a_page(store):
    service = Service(store, seed_source=iter(range(1, 10**6)).__next__, pictures=Pictures(processes=0))
    champ = await store.championships.create_championship(
        guild_id=1, channel_id=CH, host_id=ANN, name="Toy Cup", game_key="toy", rounds=[{}, {}], points=[5, 2],
        options={})
    async with serving(store) as (_, base), aiohttp.ClientSession() as session:
        client = Client(session)
        service.page_link = share.page_links(store, base)
        first = await play_toy_round(service, champ.id, 1)
        token = await links.current_token(store, first)
        assert token is not None
        address = f"{base}/g/{token}/championship"
        assert address in await table_words(store, first)  # the round's table in the channel names the page

        status, body, answer = await client.get(address + "?lang=en")
        assert status == 200 and answer.content_type == "text/html"
        page = body.decode()
        assert "<h1>Toy Cup</h1>" in page and "the table after round 1 of 2" in page
        alt = re.search(r'<img id="championship" src="([^"]+)" alt="([^"]*)"', page)
        assert alt is not None and "Toy Cup" in html.unescape(alt[2])
        assert f'<a href="/g/{token}?lang=en">Round 1' in page
        assert re.search(r"<li>Round 2: [^<]* · no page", page)
        status, png, answer = await client.get(base + html.unescape(alt[1]))
        assert status == 200 and answer.content_type == "image/png" and png.startswith(b"\x89PNG")

        second = await play_toy_round(service, champ.id, 2)
        later = (await client.get(address + "?lang=de"))[1].decode()
        assert "Die Tabelle" in later and "Endtabelle nach Runde 2 von 2" in later
        assert f'<a href="/g/{await links.current_token(store, second)}?lang=de">Runde 2' in later

        assert (await client.get(f"{base}/g/{'A' * 22}/championship"))[0] == 404
        await links.revoke(store, first)
        assert (await client.get(address))[0] == 404
        assert (await client.get(f"{address}.png"))[0] == 404
        assert (await store.championships.championship(champ.id)).status == "ended"
