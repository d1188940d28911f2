"""The games' web pages: links that the host can revoke, the page and its data from the public view and the
stored messages, live updates from another process's store (both backends), and the safe defaults (no write
endpoint, rate and size limits, security headers, nothing listening unless asked)."""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import json
import re

import aiohttp
import pytest

from bot import texts
from bot.commands import web as web_command
from bot.commands.web import base_url, check_url, parse_address
from bot.messages import Showing
from bot.play.service import Service
from bot.store import GameRecord, SqliteStore
from bot.telling.compose import Message
from bot.telling.outcomes import Accepted, Refusal
from bot.terminal import plain
from bot.web import links, share
from bot.web.server import SECURITY_HEADERS, Limits, WebServer, client_key
from tests.bot.web_helpers import Client, Stream, open_race, page_of, play, serving

# ------------------------------------------------------------------ links


async def test_a_link_is_one_unguessable_token_per_game_until_the_host_revokes_it(any_store):
    """Both stores keep the links in their settings: the same token each time, found by its token only, and
    none once revoked; the next link is a new token."""
    token = await links.link_token(any_store, 41)
    assert re.fullmatch(r"[A-Za-z0-9_-]{22}", token)
    assert await links.link_token(any_store, 41) == token
    assert await links.link_token(any_store, 42) != token
    assert await links.game_of(any_store, token) == 41
    assert await links.revoke(any_store, 41)
    assert await links.game_of(any_store, token) is None and await links.current_token(any_store, 41) is None
    assert not await links.revoke(any_store, 41)
    again = await links.link_token(any_store, 41)
    assert again != token and await links.game_of(any_store, again) == 41
    for junk in ("", "x" * 22, token[:-1], token + "A", "../../etc/passwd", again[:-1] + "!"):
        assert await links.game_of(any_store, junk) is None


def test_the_operator_sets_the_public_address():
    assert base_url(None, "https://games.example/junkyard/") == "https://games.example/junkyard"
    assert base_url(("127.0.0.1", 8080), None) == "http://127.0.0.1:8080"
    assert base_url(("0.0.0.0", 8080), None) is None  # every network: no address to give
    assert base_url(None, None) is None
    assert parse_address("[::1]:9000") == ("::1", 9000)
    for wrong in ("8080", "host:", "host:99999"):
        with pytest.raises(ValueError, match="HOST:PORT"):
            parse_address(wrong)
    for wrong in ("ftp://x", "https://x/?a=1", "games.example"):
        with pytest.raises(ValueError, match="http:// or https://"):
            check_url(wrong)


def test_nothing_listens_until_asked():
    server = WebServer.__new__(WebServer)  # the class binds nothing when made; start() listens
    assert getattr(server, "_runner", None) is None


# ------------------------------------------------------------------ /game link


async def test_game_link_posts_the_page_and_the_host_revokes_it(store):
    service = Service(store, seed_source=lambda: 3)
    rec = await open_race(service)
    host = rec.host_id
    off = await share.share(service, rec.channel_id, host)
    assert isinstance(off, Refusal) and off.text == texts.say("web.link_off", "en")
    service.page_link = share.page_links(store, "https://games.example")
    asked = await share.share(service, rec.channel_id, 999)  # not at the table: only the asker sees it
    assert isinstance(asked, Message)
    url = asked.text.rsplit(" ", 1)[-1]
    assert url.startswith("https://games.example/g/")
    player = rec.seats[0].user_id
    posted = await share.share(service, rec.channel_id, player)
    assert isinstance(posted, Accepted)
    note = await store.outbox.delivery(posted.deliveries[0])
    assert note is not None and note.kind == "note"
    assert url in (await service.message(note)).text
    refused = await share.revoke(service, rec.channel_id, 999)
    assert isinstance(refused, Refusal) and "host" in refused.text
    assert await links.game_of(store, url.rsplit("/", 1)[1]) == rec.id
    done = await share.revoke(service, rec.channel_id, 999, can_manage=True)
    assert isinstance(done, Message) and done.text == texts.say("web.link_revoked", "en")
    assert await links.game_of(store, url.rsplit("/", 1)[1]) is None


async def test_the_end_of_a_game_names_its_page(store, monkeypatch):
    service = Service(store, seed_source=lambda: 3)
    service.page_link = share.page_links(store, "https://games.example")
    rec = await open_race(service)
    while rec.status == "active":
        rec = await play(service, rec, 40)
    end = [d for d in await store.outbox.deliveries(game_id=rec.id) if d.payload.get("finale")]
    assert len(end) == 1
    token = await links.current_token(store, rec.id)
    assert token is not None
    assert f"https://games.example/g/{token}" in (await service.message(end[0])).text
    assert f"https://games.example/g/{token}" in (await service.message(end[0], "de")).text


# ------------------------------------------------------------------ the page


async def test_the_page_shows_the_board_the_turn_the_standings_and_the_channels_messages(store):
    service = Service(store, seed_source=lambda: 3)
    rec = await play(service, await open_race(service), 6)
    async with serving(store) as (_, base), aiohttp.ClientSession() as session:
        client = Client(session)
        url = await page_of(store, base, rec)
        status, body, answer = await client.get(url, headers={"Accept-Language": "de-DE,de;q=0.9"})
        assert status == 200 and answer.content_type == "text/html"
        page = body.decode()
        assert '<html lang="de">' in page and "Junkyard Races: Brett live und Wiederholung" in page
        for name, value in SECURITY_HEADERS.items():
            assert answer.headers[name] == value
        assert "frame-ancestors 'none'" in answer.headers["Content-Security-Policy"]
        state = await client.json(url + "/state.json?lang=en")
        assert state["moves"] == rec.version and state["live"] and state["lang"] == "en"
        game = await service.load(rec)
        seat = game.to_act
        assert state["turn"] == f"{rec.seats[seat].name} is to move."
        assert [row["cells"][0] for row in state["standings"]["rows"]] == \
            [rec.seats[s].name for s, _ in service.fronts("races").standings(game).rows]
        assert len(state["log"]) == rec.version and all(e["text"] for e in state["log"])
        # the messages are the channel's: each the newest state of a posted message, worded by the composer
        records = [d for d in await store.outbox.deliveries(game_id=rec.id) if d.kind != "retire"]
        newest: dict[int, int] = {}
        for d in records:
            first = d.payload.get("first")
            newest[first if d.kind == "edit" and first in newest else d.id] = d.id
        every = sorted(d.id for d in await store.outbox.deliveries(game_id=rec.id))
        number = {stored: n for n, stored in enumerate(every, start=1)}  # the page counts the game's own records
        assert [m["id"] for m in state["messages"]] == [number[stored] for stored in sorted(newest)]
        by_id = {number[d.id]: d for d in records}
        for m in state["messages"]:
            d = by_id[m["at"]]
            composed = await service.message(d, "en", words_only=True)
            assert m["text"] == "\n".join(" ".join(plain(x).split()) for x in composed.text.splitlines()
                                          if x.strip()), Showing.from_payload(d.kind, d.payload)
            assert m["n"] == d.version
        # the board after each move, by its step's fingerprint; a wrong one is no picture
        step = state["log"][-1]
        status, png, answer = await client.get(f"{url}/board/{step['n']}-{step['fp']}.png")
        assert status == 200 and png.startswith(b"\x89PNG") and answer.content_type == "image/png"
        status, _, _ = await client.get(f"{url}/board/{step['n']}-{'0' * 12}.png")
        assert status == 404
        status, png0, _ = await client.get(f"{url}/board/0-{state['start']}.png")
        assert status == 200 and png0 != png
        german = await client.json(url + "/state.json?lang=de")
        assert german["turn"] == f"{rec.seats[seat].name} ist am Zug." and german["standings"]["head"][0] == "Platz"


async def test_a_finished_games_page_says_it_is_over_and_names_its_players(store):
    """The heading of a finished game's page says the game is over (in either language), not "Live"; the page's
    description names the game and its players."""
    service = Service(store, seed_source=lambda: 3)
    rec = await open_race(service)
    async with serving(store) as (server, base), aiohttp.ClientSession() as session:
        client = Client(session)
        url = await page_of(store, base, rec)
        page = (await client.get(url + "?lang=en"))[1].decode()
        assert f'<h2 id="mode">{texts.say("web.heading_live", "en")}</h2>' in page
        while rec.status == "active":
            rec = await play(service, rec, 40)
        for watch in server.watches.values():
            watch.read_at = float("-inf")  # as if last read long ago (the race may end within a poll tick)
        for lang in ("en", "de"):
            page = (await client.get(f"{url}?lang={lang}"))[1].decode()
            over = texts.say("web.over", lang)
            assert f'<h2 id="mode">{over}</h2>' in page and over != texts.say("web.heading_live", lang)
            assert f'"over":"{over}"' in page  # the script's word for the heading
            description = re.search(r'<meta name="description" content="([^"]*)">', page)
            assert description is not None and "Junkyard Races" in description[1]
            assert all(seat.name in description[1] for seat in rec.seats)
        assert not (await client.json(url + "/state.json"))["live"]


async def test_text_answers_are_gzipped_when_the_browser_accepts_it_and_pictures_and_streams_are_not(store):
    """The page, its state, script and style travel gzipped to a browser that accepts gzip, and unpack to the
    very bytes served unpacked; the board pictures (already packed) and the live stream go as they are."""
    service = Service(store, seed_source=lambda: 3)
    rec = await play(service, await open_race(service), 2)
    async with serving(store) as (server, base), aiohttp.ClientSession(auto_decompress=False) as session:
        client = Client(session)
        url = await page_of(store, base, rec)
        v = server.static_version
        for path in (url + "?lang=en", url + "/state.json?lang=en", f"{base}/s/page.js?v={v}",
                     f"{base}/s/page.css?v={v}"):
            status, plain_body, answer = await client.get(path, headers={"Accept-Encoding": "identity"})
            assert status == 200 and "Content-Encoding" not in answer.headers, path
            status, packed, answer = await client.get(path, headers={"Accept-Encoding": "gzip"})
            assert status == 200 and answer.headers["Content-Encoding"] == "gzip", path
            assert "Accept-Encoding" in answer.headers.get("Vary", ""), path
            assert gzip.decompress(packed) == plain_body and len(packed) < len(plain_body), path
        state = json.loads((await client.get(url + "/state.json?lang=en",
                                             headers={"Accept-Encoding": "identity"}))[1])
        step = state["log"][-1]
        status, png, answer = await client.get(f"{url}/board/{step['n']}-{step['fp']}.png",
                                               headers={"Accept-Encoding": "gzip"})
        assert status == 200 and png.startswith(b"\x89PNG") and "Content-Encoding" not in answer.headers
        async with session.get(url + "/events", headers={"Accept-Encoding": "gzip"}) as answer:
            assert answer.status == 200 and "Content-Encoding" not in answer.headers
            assert (await answer.content.readuntil(b"\n\n")).startswith(b"retry: ")


async def test_the_script_and_style_of_the_current_version_are_kept_for_a_year(store):
    """The page names its script and style with the current version (``?v=``): that address never changes its
    bytes, so browsers keep it a year without asking again; without a version, or with an old one, a day."""
    async with serving(store) as (server, base), aiohttp.ClientSession() as session:
        client = Client(session)
        for name in ("page.js", "page.css"):
            status, body, answer = await client.get(f"{base}/s/{name}?v={server.static_version}")
            assert status == 200 and body == server.static[name]
            assert answer.headers["Cache-Control"] == "public, max-age=31536000, immutable"
            for other in (f"{base}/s/{name}", f"{base}/s/{name}?v=0123456789", f"{base}/s/{name}?v="):
                status, body, answer = await client.get(other)
                assert status == 200 and body == server.static[name], other
                assert answer.headers["Cache-Control"] == "public, max-age=86400", other


async def test_the_icon_is_answered_without_counting_against_the_client(store):
    """Browsers ask every page for ``/favicon.ico``: no content, cached long, and never a rate's 429."""
    service = Service(store, seed_source=lambda: 3)
    rec = await open_race(service)
    async with serving(store, limits=Limits(rate=0.01, burst=2)) as (_, base), aiohttp.ClientSession() as session:
        client = Client(session)
        url = await page_of(store, base, rec)
        for _ in range(4):
            status, body, answer = await client.get(base + "/favicon.ico")
            assert status == 204 and body == b"" and "max-age=604800" in answer.headers["Cache-Control"]
        assert [(await client.get(url))[0] for _ in range(3)] == [200, 200, 429]
        assert (await client.get(base + "/favicon.ico"))[0] == 204


async def test_a_wrong_or_revoked_link_opens_nothing_and_tells_nothing(store):
    service = Service(store, seed_source=lambda: 3)
    rec = await open_race(service)
    async with serving(store) as (_, base), aiohttp.ClientSession() as session:
        client = Client(session)
        url = await page_of(store, base, rec)
        assert (await client.get(url))[0] == 200
        wrong = await client.get(f"{base}/g/{links.new_token()}")
        await links.revoke(store, rec.id)
        revoked = await client.get(url)
        assert wrong[0] == revoked[0] == 404 and wrong[1] == revoked[1]
        assert texts.say("web.not_found", "en").encode() in wrong[1]
        for path in ("/", "/g/", "/g/../etc/passwd", "/s/../server.py", "/s/page.html"):
            assert (await client.get(base + path))[0] == 404


async def test_no_endpoint_writes(store):
    service = Service(store, seed_source=lambda: 3)
    rec = await open_race(service)
    async with serving(store) as (_, base), aiohttp.ClientSession() as session:
        url = await page_of(store, base, rec)
        for method in ("POST", "PUT", "PATCH", "DELETE"):
            for path in (url, url + "/state.json", url + "/events"):
                async with session.request(method, path, data=b"x" * 10) as answer:
                    assert answer.status == 405, (method, path)
        async with session.head(url) as answer:
            assert answer.status == 200
    assert (await store.games.get_game(rec.id)).version == rec.version


async def test_each_client_has_a_rate_and_every_answer_a_size_limit(store):
    service = Service(store, seed_source=lambda: 3)
    rec = await open_race(service)
    async with serving(store, limits=Limits(rate=0.01, burst=3)) as (_, base), aiohttp.ClientSession() as session:
        client = Client(session)
        url = await page_of(store, base, rec)
        statuses = [(await client.get(url))[0] for _ in range(5)]
        assert statuses == [200, 200, 200, 429, 429]
        status, body, answer = await client.get(url)
        assert status == 429
        assert body.decode().strip() == texts.say("web.too_many", "en") and answer.headers["Retry-After"]
    async with serving(store, limits=Limits(answer_bytes=500)) as (_, base), aiohttp.ClientSession() as session:
        client = Client(session)
        url = await page_of(store, base, rec)
        assert (await client.get(url))[0] == 507
    async with serving(store, limits=Limits(streams_per_client=1, rate=1000, burst=1000)) as (_, base), \
            aiohttp.ClientSession() as session:
        client = Client(session)
        url = await page_of(store, base, rec)
        async with Stream(client, url + "/events") as first:
            await first.next()
            assert (await client.get(url + "/events"))[0] == 429


async def test_a_closed_live_stream_frees_its_clients_place_at_once(store):
    """Reloading a page again and again: each closed stream gives its place back as the browser goes (not at
    the next heartbeat), so every new stream from the same address is accepted."""
    service = Service(store, seed_source=lambda: 3)
    rec = await open_race(service)
    async with serving(store, limits=Limits(streams_per_client=2, rate=1000, burst=1000)) as (server, base), \
            aiohttp.ClientSession() as session:
        client = Client(session)
        url = await page_of(store, base, rec)
        for _ in range(7):
            async with Stream(client, url + "/events") as stream:
                assert (await stream.next())["moves"] == rec.version and stream.status == 200
        for _ in range(100):  # the last one's place too, without a heartbeat
            if not server._streams:
                break
            await asyncio.sleep(0.02)
        assert server._streams == {}


def test_a_client_is_its_address_with_ipv6_grouped_by_its_64():
    assert client_key("203.0.113.7") == "203.0.113.7"
    assert client_key("2001:db8:1:2::1") == client_key("2001:db8:1:2:ffff:ffff:ffff:ffff") == "2001:db8:1:2::/64"
    assert client_key("2001:db8:1:3::1") != client_key("2001:db8:1:2::1")
    assert client_key("fe80::1%eth0") == "fe80::/64"
    assert client_key("::ffff:203.0.113.7") == "203.0.113.7"
    assert client_key("?") == "?"


async def test_two_addresses_of_one_ipv6_64_share_one_clients_live_streams(store):
    """Behind a proxy, one client with many addresses of its /64 holds no more streams than one address would;
    another /64 is another client."""
    service = Service(store, seed_source=lambda: 3)
    rec = await open_race(service)
    async with serving(store, forwarded=True, limits=Limits(streams_per_client=1, rate=1000, burst=1000)) \
            as (_, base), aiohttp.ClientSession() as session:
        client = Client(session)
        url = await page_of(store, base, rec)

        def by(address: str) -> dict[str, str]:
            return {"X-Forwarded-For": address}

        async with session.get(url + "/events", headers=by("2001:db8:5:6::1")) as first:
            assert first.status == 200
            assert (await client.get(url + "/events", headers=by("2001:db8:5:6::abcd")))[0] == 429
            async with session.get(url + "/events", headers=by("2001:db8:5:7::1")) as other:
                assert other.status == 200


# ------------------------------------------------------------------ live updates


async def test_live_updates_follow_moves_stored_by_another_process(twin_stores):
    """The page's server reads its own store (another process's view of the database, on either backend): a
    move the bot stores reaches every open page without a reload, the new steps joined to the old."""
    bot_store, web_store = twin_stores(), twin_stores()
    await bot_store.open()
    await web_store.open()
    service = Service(bot_store, seed_source=lambda: 5)
    rec = await open_race(service)
    async with serving(web_store) as (_, base), aiohttp.ClientSession() as session:
        client = Client(session)
        url = await page_of(bot_store, base, rec)
        state = await client.json(url + "/state.json")
        async with Stream(client, url + "/events?lang=de") as stream:
            first = await stream.next()
            assert first["moves"] == state["moves"] == rec.version and first["lang"] == "de"
            rec = await play(service, rec, 2)
            update = await stream.until(rec.version)
            assert update["moves"] == rec.version and update["tail"][-1]["n"] == rec.version
            assert update["base"] == ([state["start"]] + [e["fp"] for e in state["log"]])[update["tail"][0]["n"] - 1]
            assert update["said"] and "ist am Zug" in update["turn"]
        whole = await client.json(url + "/state.json")
        assert whole["log"][-len(update["tail"]):] == [
            {**e, "text": w["text"]} for e, w in zip(update["tail"], whole["log"][-len(update["tail"]):], strict=True)]


async def test_a_move_stored_by_the_bot_in_the_same_process_wakes_the_pages_at_once(store):
    service = Service(store, seed_source=lambda: 3)
    rec = await open_race(service)
    async with serving(store, poll_seconds=3600) as (server, base), aiohttp.ClientSession() as session:
        service.on_stored = server.changed
        client = Client(session)
        url = await page_of(store, base, rec)
        async with Stream(client, url + "/events") as stream:
            await stream.next()
            rec = await play(service, rec, 1)
            assert (await stream.until(rec.version, timeout=10))["moves"] == rec.version


async def test_a_change_a_request_reads_first_still_reaches_the_live_pages(store):
    """A page's request (a picture, the state) may read the new move before the poller does: the listeners hear
    of it all the same."""
    service = Service(store, seed_source=lambda: 3)
    rec = await open_race(service)
    async with serving(store, poll_seconds=3600) as (server, base), aiohttp.ClientSession() as session:
        client = Client(session)
        url = await page_of(store, base, rec)
        async with Stream(client, url + "/events") as stream:
            await stream.next()
            rec = await play(service, rec, 1)
            for watch in server.watches.values():
                watch.read_at = float("-inf")  # as if the poller had last read it long ago
            assert (await client.json(url + "/state.json"))["moves"] == rec.version
            assert (await stream.until(rec.version, timeout=10))["moves"] == rec.version



# ------------------------------------------------------------------ revoking

#: a poll tick of the revoking tests' servers, and how long a stream already open may take to end after a revoke:
#: a tick, with room for a busy machine (a server that did not read the token again would keep it open)
TICK = 0.25
ENDS_WITHIN = 3.0


async def statuses(client: Client, url: str, start: str, *, stream: bool = True) -> list[int]:
    """What the page, its data, its first board and (``stream``) its live stream at ``url`` answer; a live stream
    that opens is left after a few seconds, its status 200."""
    out = [(await client.get(url + path))[0] for path in ("", "/state.json", f"/board/0-{start}.png")]
    if stream:
        with contextlib.suppress(TimeoutError):
            async with client.session.get(url + "/events", timeout=aiohttp.ClientTimeout(total=3)) as answer:
                out.append(answer.status)
                await answer.read()
    return out


async def revoke_as_host(service: Service, rec: GameRecord) -> None:
    """The host's ``/game link revoke:True``, answered."""
    done = await share.revoke(service, rec.channel_id, rec.host_id)
    assert isinstance(done, Message) and done.text == texts.say("web.link_revoked", "en")


async def test_a_revoked_link_opens_nothing_from_the_moment_the_revoke_answers(any_store):
    """On either store, once the host's revoke answers: the page, its data, its board and its live stream answer
    404 (as a wrong link does), a stream already open ends within a poll tick, and reconnecting gets 404."""
    service = Service(any_store, seed_source=lambda: 3)
    rec = await open_race(service)
    async with serving(any_store, poll_seconds=TICK) as (_, base), aiohttp.ClientSession() as session:
        client = Client(session)
        url = await page_of(any_store, base, rec)
        start = (await client.json(url + "/state.json"))["start"]
        assert await statuses(client, url, start, stream=False) == [200, 200, 200]
        async with Stream(client, url + "/events") as stream:
            assert (await stream.next())["moves"] == rec.version and stream.status == 200
            await revoke_as_host(service, rec)
            assert await statuses(client, url, start) == [404, 404, 404, 404]
            await asyncio.wait_for(stream.ended.wait(), ENDS_WITHIN)
        wrong = await client.get(f"{base}/g/{links.new_token()}/events")
        again = await client.get(url + "/events")
        assert again[0] == wrong[0] == 404 and again[1] == wrong[1]


async def test_a_revoke_in_the_bots_process_ends_the_open_streams_at_once(store):
    """In the bot's process the revoke wakes the pages' server: its open streams end though no poll is due."""
    service = Service(store, seed_source=lambda: 3)
    rec = await open_race(service)
    async with serving(store, poll_seconds=3600) as (server, base), aiohttp.ClientSession() as session:
        service.on_revoked = server.revoked
        client = Client(session)
        url = await page_of(store, base, rec)
        async with Stream(client, url + "/events") as stream, Stream(client, url + "/events") as other:
            await stream.next()
            await other.next()
            await revoke_as_host(service, rec)
            await asyncio.wait_for(asyncio.gather(stream.ended.wait(), other.ended.wait()), ENDS_WITHIN)
        assert (await client.get(url + "/events"))[0] == 404


async def test_the_bots_pages_server_is_told_of_its_moves_and_revokes(db_path):
    """``junkyard bot --web``: the server on its own connection to the bot's database hears of what the bot
    stores and revokes, until it stops."""
    service = Service(SqliteStore(db_path))
    async with web_command.serving(str(db_path), ("127.0.0.1", 0), service=service) as server:
        assert service.on_stored == server.changed and service.on_revoked == server.revoked
    assert service.on_stored is None and service.on_revoked is None


async def test_a_revoke_through_one_pages_server_closes_the_link_on_another_at_once(twin_stores):
    """Two pages' servers on one database (either backend), each on its own connection: the bot's process serves
    one and revokes the link; the other (``junkyard web`` elsewhere) answers 404 for it at once and ends its open
    stream within its poll tick, as the first does."""
    bot_store, own_store, other_store = twin_stores(), twin_stores(), twin_stores()
    for s in (bot_store, own_store, other_store):
        await s.open()
    service = Service(bot_store, seed_source=lambda: 3)
    rec = await open_race(service)
    async with serving(own_store, poll_seconds=3600) as (own, own_base), \
            serving(other_store, poll_seconds=TICK) as (_, other_base), aiohttp.ClientSession() as session:
        service.on_revoked = own.revoked
        client = Client(session)
        token = await links.link_token(bot_store, rec.id)
        urls = [links.page_url(own_base, token), links.page_url(other_base, token)]
        start = (await client.json(urls[1] + "/state.json"))["start"]
        async with Stream(client, urls[0] + "/events") as here, Stream(client, urls[1] + "/events") as there:
            await here.next()
            await there.next()
            await revoke_as_host(service, rec)
            for url in reversed(urls):
                assert await statuses(client, url, start) == [404, 404, 404, 404], url
            await asyncio.wait_for(asyncio.gather(here.ended.wait(), there.ended.wait()), ENDS_WITHIN)
        assert [(await client.get(url + "/events"))[0] for url in urls] == [404, 404]
