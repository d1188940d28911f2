"""The board pictures sized for the screen: the page names the whole board at a few widths (``srcset``) and, for a
game whose channel is shown a close-up, that close-up for a phone; the server answers those widths only, each
picture shrunk once and kept; a seat's page learns the whole board's size to map a tap on a smaller picture."""

from __future__ import annotations

import html
import re

import aiohttp

from bot import terminal as term
from bot.play.service import Service
from bot.telling.outcomes import Accepted
from bot.web import seats
from bot.web.page import WIDTHS, png_size, srcset, widths
from render.races.chat import canvas_size
from tests.bot.web_helpers import Client, open_people_race, open_race, page_of, play, serving


def test_a_picture_is_offered_at_each_width_well_below_its_own_and_at_its_own():
    assert widths(1414) == [360, 540, 720, 1080, 1414]
    assert widths(732) == [360, 540, 732]  # 720 is almost its own: not offered twice
    assert widths(300) == [300]
    assert srcset("b.png?lang=en", 700) == "b.png?lang=en&w=360 360w, b.png?lang=en&w=540 540w, b.png?lang=en 700w"


async def test_a_race_page_offers_its_board_at_a_few_widths_and_a_phone_the_channels_close_up(store):
    service = Service(store, seed_source=lambda: 3)
    rec = await play(service, await open_race(service), 6)
    async with serving(store) as (server, base), aiohttp.ClientSession() as session:
        client = Client(session)
        url = await page_of(store, base, rec)
        page = (await client.get(url + "?lang=en"))[1].decode()
        source = re.search(r'<source id="board-close" media="\(max-width: 599px\)" srcset="([^"]+)"', page)
        image = re.search(r'<img id="board" src="([^"]+)" srcset="([^"]+)" sizes="([^"]+)" width="(\d+)"', page)
        assert source is not None and image is not None
        whole_width = int(image[4])
        for candidates in (source[1], image[2]):
            for candidate in html.unescape(candidates).split(", "):
                address, descriptor = candidate.rsplit(" ", 1)
                status, png, answer = await client.get(f"{url.rsplit('/', 1)[0]}/{address}")
                assert status == 200 and answer.content_type == "image/png"
                assert png_size(png)[0] == int(descriptor[:-1])  # the width it says is the width it is
        # the close-up is the picture the channel is shown: the chat's size for the track
        close = html.unescape(source[1]).split(", ")[-1].rsplit(" ", 1)[0]
        png = (await client.get(f"{url.rsplit('/', 1)[0]}/{close}"))[1]
        assert png_size(png) == canvas_size("A")
        # a width not offered is no picture, and a shrunk one keeps the proportions
        whole = html.unescape(image[1])
        for asked in ("361", "0", "-360", "abc", "100000"):
            assert (await client.get(f"{url.rsplit('/', 1)[0]}/{whole}&w={asked}"))[0] == 404
        small = (await client.get(f"{url.rsplit('/', 1)[0]}/{whole}&w=360"))[1]
        full = (await client.get(f"{url.rsplit('/', 1)[0]}/{whole}"))[1]
        assert png_size(full)[0] == whole_width
        assert png_size(small) == (360, round(png_size(full)[1] * 360 / whole_width))
        assert sum(1 for key in server.pictures if key[4] == 360) == 2  # the close-up's and the board's, once each
        assert set(WIDTHS) >= {key[4] for key in server.pictures} - {0}


async def test_a_game_whose_channel_sees_the_whole_board_offers_no_close_up(store):
    service = Service(store, seed_source=lambda: 5)
    opening, _ = await term.open_table(service, term.new_channel_id(), "piecepack", {}, [term.SeatSpec("smart")] * 2)
    assert isinstance(opening.outcome, Accepted)
    rec = await play(service, await store.games.get_game(opening.outcome.game_id), 3)
    async with serving(store) as (_, base), aiohttp.ClientSession() as session:
        client = Client(session)
        page = (await client.get(await page_of(store, base, rec)))[1].decode()
        assert '<img id="board"' in page and "board-close" not in page and "-close.png" not in page


async def test_a_seat_page_learns_the_whole_boards_size_with_its_cells(store):
    """The cells' boxes are in the whole board's pixels; the page is shown a smaller picture on a phone."""
    service = Service(store, seed_source=lambda: 7)
    rec = await open_people_race(service)
    async with serving(store, service=service) as (_, base), aiohttp.ClientSession() as session:
        client = Client(session)
        url = seats.seat_url(base, await seats.seat_token(store, rec.id, rec.seats[0].user_id))
        view = await client.json(url + "/seat.json")
        assert view["targets"]
        state = await client.json(url + "/state.json")
        fingerprint = state["log"][-1]["fp"] if state["log"] else state["start"]
        png = (await client.get(f"{url}/board/{state['moves']}-{fingerprint}.png"))[1]
        assert view["size"] == list(png_size(png))


async def test_the_page_comes_with_the_words_its_script_shows_first(store):
    """The status, whose turn, the board's caption and the standings are in the page as served (so nothing moves
    when the script starts, and they read without it), as the state words them."""
    service = Service(store, seed_source=lambda: 3)
    rec = await play(service, await open_race(service), 5)
    async with serving(store) as (_, base), aiohttp.ClientSession() as session:
        client = Client(session)
        url = await page_of(store, base, rec)
        page = (await client.get(url + "?lang=de"))[1].decode()
        state = await client.json(url + "/state.json?lang=de")
        assert f'<p id="turn" aria-live="polite">{html.escape(state["turn"])}</p>' in page
        assert f'<figcaption id="caption">{html.escape(state["log"][-1]["text"])}</figcaption>' in page
        assert f'<p id="status" aria-live="polite">{html.escape(state["status_text"])}</p>' in page
        head = "".join(f'<th scope="col">{html.escape(h)}</th>' for h in state["standings"]["head"])
        assert f"<thead><tr>{head}</tr></thead>" in page
        for row in state["standings"]["rows"]:
            assert f"<td>{html.escape(row['place'])}</td><td>{html.escape(row['cells'][0])}</td>" in page
            label = html.escape(state["standings"]["head"][2])
            assert f'<td data-label="{label}">{html.escape(row["cells"][1])}</td>' in page


async def test_a_seat_with_a_cell_to_tap_is_served_the_whole_board_on_a_phone_too(store):
    """The cells' boxes are the whole board's: a seat's page whose player has cells to tap opens on it (the
    close-up comes once the move is played), and the game's page still opens a phone on the close-up."""
    service = Service(store, seed_source=lambda: 7)
    rec = await open_people_race(service)
    async with serving(store, service=service) as (_, base), aiohttp.ClientSession() as session:
        client = Client(session)
        for url, close in ((seats.seat_url(base, await seats.seat_token(store, rec.id, rec.seats[0].user_id)), False),
                           (await page_of(store, base, rec), True)):
            page = (await client.get(url))[1].decode()
            source = re.search(r'<source id="board-close" media="[^"]+" srcset="([^"]+)"', page)
            assert source is not None and ("-close.png" in source[1]) is close
