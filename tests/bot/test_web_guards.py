"""The pages' server against clients that misbehave on the wire: a connection that sends nothing or stops within
its headers is closed, a request it cannot read is answered with the page's own headers and nothing of the
request, and live streams are capped per client and in all."""

from __future__ import annotations

import asyncio
import html
import re
import time

import aiohttp
import pytest

from bot import texts
from bot.play.service import Service
from bot.web.server import SECURITY_HEADERS, Limits
from tests.bot.web_helpers import open_race, page_of, play, serving


def _address(base: str) -> tuple[str, int]:
    host, port = base.removeprefix("http://").rsplit(":", 1)
    return host, int(port)


async def _closed_after(base: str, sent: bytes, *, trickle: bytes = b"", limit: float = 5.0) -> float:
    """Seconds until the server closes a connection that sent ``sent`` and then ``trickle`` a byte at a time."""
    reader, writer = await asyncio.open_connection(*_address(base))
    started = time.monotonic()
    try:
        writer.write(sent)
        await writer.drain()
        for byte in trickle:
            writer.write(bytes([byte]))
            await writer.drain()
            await asyncio.sleep(0.1)
            if reader.at_eof():
                break
        got = await asyncio.wait_for(reader.read(), limit)  # the server's close ends the read
        assert got == b"" or got.startswith(b"HTTP/1.1 ")
    except ConnectionResetError:
        pass
    finally:
        writer.close()
    return time.monotonic() - started


async def _raw(base: str, request: bytes) -> tuple[str, dict[str, str], bytes]:
    """The answer to raw bytes: its status line, headers (names in lower case) and body."""
    reader, writer = await asyncio.open_connection(*_address(base))
    try:
        writer.write(request)
        await writer.drain()
        data = await asyncio.wait_for(reader.read(), 5.0)
    finally:
        writer.close()
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return lines[0], headers, body


async def test_a_connection_that_sends_nothing_or_stops_in_its_headers_is_closed_soon(store):
    """A few hundred slow clients cannot hold the server's sockets: silence, headers cut off, and headers
    trickled a byte at a time are all closed once ``header_seconds`` has passed since the connection opened."""
    async with serving(store, limits=Limits(rate=1000, burst=1000, header_seconds=0.5)) as (_, base):
        assert await _closed_after(base, b"") < 3.0
        assert await _closed_after(base, b"GET /g/x HTTP/1.1\r\nHost: a\r\n") < 3.0
        assert await _closed_after(base, b"GET /g/x HTTP/1.1\r\n", trickle=b"X-Slow: " + b"a" * 60) < 3.0


async def test_an_open_live_stream_outlives_the_header_timeout(store):
    """The timeout is for requests not yet read: a live stream whose request was read stays open."""
    service = Service(store, seed_source=lambda: 3)
    rec = await open_race(service)
    async with serving(store, limits=Limits(rate=1000, burst=1000, header_seconds=0.3)) as (server, base), \
            aiohttp.ClientSession() as session:
        url = await page_of(store, base, rec)
        async with session.get(url + "/events", timeout=aiohttp.ClientTimeout(total=None)) as stream:
            assert stream.status == 200
            await stream.content.readuntil(b"\n\n")
            await asyncio.sleep(1.0)
            assert sum(server._streams.values()) == 1 and not stream.content.at_eof()


@pytest.mark.parametrize("request_bytes", [
    b"GARBAGE <script>SECRET</script>\r\n\r\n",
    b"GET /g/SECRET HTTP/1.1\r\nHost: a\r\nBad Header SECRET\r\n\r\n",
    b"GET /g/x HTTP/1.1\r\nHost: a\r\nX-Long: " + b"SECRET" * 2000 + b"\r\n\r\n",
    b"GET /g/x HTTP/1.1\r\nHost: a\r\n" + b"".join(b"X-%d: SECRET\r\n" % i for i in range(200)) + b"\r\n",
    b"GET /SECRET" + b"a" * 9000 + b" HTTP/1.1\r\nHost: a\r\n\r\n",
], ids=["request line", "header", "long header", "many headers", "long request line"])
async def test_a_request_that_cannot_be_read_is_answered_like_a_page_and_never_echoed(store, request_bytes):
    async with serving(store) as (_, base):
        status, headers, body = await _raw(base, request_bytes)
    assert status.split(" ", 1)[1].startswith("400")
    for name, value in SECURITY_HEADERS.items():
        assert headers[name.lower()] == value
    assert headers["server"] == "Junkyard GM"
    assert b"SECRET" not in body and b"aiohttp" not in body.lower()
    assert body.decode().splitlines() == [texts.say("web.bad_request", "en"), texts.say("web.bad_request", "de")]


async def test_no_answer_names_the_servers_software(store):
    service = Service(store, seed_source=lambda: 3)
    rec = await open_race(service)
    async with serving(store) as (_, base), aiohttp.ClientSession() as session:
        url = await page_of(store, base, rec)
        for method, address in [("GET", url), ("GET", base + "/nope"), ("POST", url), ("GET", base + "/favicon.ico"),
                                ("HEAD", url + "/state.json")]:
            async with session.request(method, address) as answer:
                assert answer.headers["Server"] == "Junkyard GM", (method, address)
                assert answer.headers["X-Frame-Options"] == "DENY"
                assert b"aiohttp" not in (await answer.read()).lower()


async def test_live_streams_are_capped_per_client_and_in_all_each_with_its_own_answer(store):
    """Two addresses of one IPv6 /64 are one client (429 over its cap); other clients fill the server's cap
    (503, the page's script tries again later); a stream that closes gives its place to the next client."""
    service = Service(store, seed_source=lambda: 3)
    rec = await open_race(service)
    limits = Limits(streams_per_client=1, streams=2, rate=1000, burst=1000)
    async with serving(store, forwarded=True, limits=limits) as (server, base), \
            aiohttp.ClientSession() as session:
        url = await page_of(store, base, rec) + "/events"

        def by(address: str) -> dict[str, str]:
            return {"X-Forwarded-For": address}

        async with session.get(url, headers=by("2001:db8:5:6::1")) as first:
            assert first.status == 200
            async with session.get(url, headers=by("2001:db8:5:6::abcd")) as same:
                assert same.status == 429 and same.headers["Retry-After"]
                assert (await same.text()).strip() == texts.say("web.too_many", "en")
            async with session.get(url, headers=by("203.0.113.7")) as second:
                assert second.status == 200
                async with session.get(url, headers=by("2001:db8:9:9::1")) as third:
                    assert third.status == 503 and third.headers["Retry-After"]
                    assert (await third.text()).strip() == texts.say("web.busy", "en")
                    assert third.headers["Server"] == "Junkyard GM"
        for _ in range(100):
            if not server._live:
                break
            await asyncio.sleep(0.02)
        async with session.get(url, headers=by("2001:db8:9:9::1")) as later:
            assert later.status == 200


def test_the_operator_sets_the_servers_cap_and_header_timeout():
    from bot.cli import build_parser
    from bot.commands.web import limits_of

    parser = build_parser()
    args = parser.parse_args(["web", "--max-streams", "40", "--header-timeout", "2.5"])
    assert (limits_of(args).streams, limits_of(args).header_seconds) == (40, 2.5)
    assert limits_of(parser.parse_args(["web"])) == Limits()
    for wrong in (["--max-streams", "0"], ["--header-timeout", "soon"]):
        with pytest.raises(SystemExit) as exit_:
            parser.parse_args(["web", *wrong])
        assert exit_.value.code == 2


async def test_a_pages_message_ids_count_its_own_games_messages_only(store):
    """The second game's page numbers its messages 1, 2, 3 … as the first game's does: nothing on it tells how
    many messages the bot sent in other games."""
    service = Service(store, seed_source=lambda: 3)
    first = await open_race(service)
    second = await open_race(service)
    async with serving(store) as (_, base), aiohttp.ClientSession() as session:
        for rec in (first, second):
            async with session.get(await page_of(store, base, rec) + "/state.json") as answer:
                said = (await answer.json())["messages"]
            assert said and said[0]["id"] == 1
            assert [m["id"] for m in said] == sorted(m["id"] for m in said)
            assert max(m["at"] for m in said) <= len(await store.outbox.deliveries(game_id=rec.id))
        stored = [d.id for d in await store.outbox.deliveries(game_id=second.id)]
        assert min(stored) > 1  # the store's own ids go on from the first game's


def _tag(page: str, pattern: str) -> str:
    found = re.search(pattern, page)
    assert found is not None, pattern
    return found.group(0)


async def test_the_page_names_its_board_with_its_size_and_a_link_preview_in_its_language(store):
    """Before any script: the board's address and size are in the page (its place kept while the PNG comes),
    and a shared link previews the game, its players and status, and the board at its absolute address."""
    service = Service(store, seed_source=lambda: 3)
    rec = await play(service, await open_race(service), 4)
    async with serving(store, public_url="https://games.example/junkyard") as (_, base), \
            aiohttp.ClientSession() as session:
        url = await page_of(store, base, rec)
        token = url.rsplit("/", 1)[1]
        async with session.get(url + "?lang=de") as answer:
            page = await answer.text()
        img = _tag(page, r'<img id="board"[^>]*>')
        src = html.unescape(re.search(r'src="([^"]+)"', img).group(1))
        assert src.startswith(f"{token}/board/{rec.version}-") and src.endswith(".png?lang=de")
        async with session.get(f"{base}/g/{src}") as picture:
            png = await picture.read()
        assert picture.status == 200
        width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
        assert f'width="{width}" height="{height}"' in img
        assert f'href="{html.escape(src)}"' in page  # the zoom link too
        meta = dict(re.findall(r'<meta (?:property|name)="([^"]+)" content="([^"]*)">', page))
        assert meta["og:title"] == "Junkyard Races"
        assert html.unescape(meta["og:image"]) == f"https://games.example/junkyard/g/{src}"
        assert meta["twitter:card"] == "summary_large_image"
        players = ", ".join(seat.name for seat in rec.seats)
        assert html.unescape(meta["og:description"]) == texts.say(
            "web.share_description", "de", players=players, status=texts.status_word(rec.status, "de"))
        assert meta["og:description"] != texts.say("web.share_description", "en", players=players,
                                                   status=texts.status_word(rec.status, "en"))


def test_a_page_without_a_board_yet_hides_it_and_previews_without_a_picture():
    """A lobby has no board: the picture is hidden with its words, and the preview is a plain card."""
    from importlib import resources

    from bot.web import page as pages

    template_text = resources.files("bot.web").joinpath("static", "page.html").read_text()
    page = pages.document(template_text, "Junkyard Races", "{}", "en", "t" * 22, ["de"], {"v": "1"},
                          players=["Ann"], status="lobby", board=None)
    img = _tag(page, r'<img id="board"[^>]*>')
    assert "hidden" in img and "src=" not in img and texts.say("web.no_board", "en") in html.unescape(img)
    assert "og:image" not in page and '<meta name="twitter:card" content="summary">' in page


async def test_the_standings_scroll_region_is_reachable_by_keyboard_and_named(store):
    """axe's "scrollable-region-focusable": the sideways-scrolling standings take the focus and say what
    they are, in the page's language."""
    service = Service(store, seed_source=lambda: 3)
    rec = await open_race(service)
    async with serving(store) as (_, base), aiohttp.ClientSession() as session:
        url = await page_of(store, base, rec)
        for lang in ("en", "de"):
            async with session.get(f"{url}?lang={lang}") as answer:
                region = _tag(await answer.text(), r'<div class="scroll"[^>]*>')
            assert 'tabindex="0"' in region and 'role="region"' in region
            assert f'aria-label="{html.escape(texts.say("web.standings_region", lang))}"' in region
