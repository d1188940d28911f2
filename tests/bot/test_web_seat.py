"""A player's own page (a seat link, ``/p/TOKEN``): the game's page with that seat's hidden things and moves, and
moves played by POST through the same ``Service.act`` a press makes. A whole turn of each game played from the
page gives the channel the very messages presses give; every forged, revoked, cross-origin, stale or foreign
move is refused and changes nothing; a seat's page never tells another seat's hidden things (R12)."""

from __future__ import annotations

import asyncio
import json
import random
import re
from typing import Any

import aiohttp
import pytest

from bot.drivers import driver_for
from bot.games import unit_for
from bot.play.service import Service
from bot.store import SEAT_LINK_SCOPE, GameRecord, SqliteStore, Store
from bot.telling.compose import Message
from bot.telling.outcomes import Accepted, Private, Refusal
from bot.web import links, seats, share
from bot.web.server import CSRF_HEADER
from tests.bot.test_hidden_information import (
    ANN,
    BOB,
    CH,
    GUILD,
    HIDDEN_ACTIONS,
    TILE_KINDS,
    TeamCrewRaces,
    pick,
    secret_lines,
)
from tests.bot.test_web_secrets import hidden_kinds, named_kinds, open_crew_team_race
from tests.bot.web_helpers import Client, serving

OPTIONS: dict[str, dict[str, Any]] = {"races": {"track": "A", "laps": 1}, "rally": {}, "piecepack": {}}


async def seated(service: Service, key: str, channel: int = CH) -> GameRecord:
    """A started game of ``key`` in ``channel``: Ann (its host) and Bob."""
    assert isinstance(await service.new_game(guild_id=GUILD, channel_id=channel, user_id=ANN, user_name="Ann",
                                             game_key=key, options=OPTIONS[key]), Accepted)
    assert isinstance(await service.join(channel, BOB, "Bob"), Accepted)
    assert isinstance(await service.start(channel, ANN), Accepted)
    rec = await service.store.games.channel_game(channel)
    assert rec is not None
    return rec


def csrf_of(page: bytes) -> str:
    """The CSRF token a seat's page carries for its script."""
    found = re.search(rb'<script type="application/json" id="seat">(.*?)</script>', page)
    assert found is not None, "no seat data on the page"
    return str(json.loads(found[1])["csrf"])


class Seat:
    """One player's browser on their seat's page: it reads the seat's view and posts moves as page.js does."""

    def __init__(self, client: Client, base: str, token: str) -> None:
        self.client, self.base, self.url = client, base, seats.seat_url(base, token)
        self.csrf = ""

    async def open(self, lang: str = "en") -> bytes:
        status, body, _ = await self.client.get(f"{self.url}?lang={lang}")
        assert status == 200, body
        self.csrf = csrf_of(body)
        return body

    async def view(self, lang: str = "en") -> dict[str, Any]:
        return dict(await self.client.json(f"{self.url}/seat.json?lang={lang}"))

    async def post(self, action: str, version: int, *, headers: dict[str, str] | None = None,
                   lang: str = "en", body: Any = None) -> tuple[int, dict[str, Any]]:
        sent = {"Origin": self.base, CSRF_HEADER: self.csrf, "Content-Type": "application/json"}
        sent.update(headers or {})
        data = json.dumps({"action": action, "version": version} if body is None else body)
        async with self.client.session.post(f"{self.url}/act?lang={lang}", data=data,
                                            headers={k: v for k, v in sent.items() if v}) as answer:
            raw = await answer.read()
            self.client.served.append(raw)
            if answer.content_type != "application/json":
                return answer.status, {"text": raw.decode("utf-8")}
            return answer.status, json.loads(raw)


def offered(view: dict[str, Any]) -> str:
    """What a player taps: the first way to the first cell the board offers, else the first button."""
    if view["targets"]:
        return str(view["targets"][0]["ways"][0]["action"])
    assert view["buttons"], view
    return str(view["buttons"][0]["action"])


def pressed(service: Service, key: str, game: Any, seat: int) -> str:
    """What a player presses on Discord: the turn message's first button, else the first legal action."""
    buttons = unit_for(key).buttons(game, seat)
    return buttons[0].action if buttons else str(game.legal_actions()[0])


async def words(service: Service, store: Store, game_id: int) -> list[tuple[str, str]]:
    """The channel's messages of a game, in order: each record's kind and words (as the channel shows them)."""
    return [(d.kind, (await service.message(d, "en", words_only=True)).text)
            for d in await store.outbox.deliveries(game_id=game_id)]


@pytest.mark.parametrize("key", ["races", "rally", "piecepack"])
async def test_a_whole_turn_played_from_the_page_gives_the_channel_a_press_s_messages(store, tmp_path, key):
    """Ann plays her turns by POSTs from her seat's page while Bob presses (``Service.act``); a twin table whose
    every move is a press, on a store of its own, ends with the same channel messages, word for word."""
    service = Service(store, seed_source=lambda: 7)
    twin_store = SqliteStore(tmp_path / "twin.db")
    await twin_store.open()
    twin = Service(twin_store, seed_source=lambda: 7)
    try:
        rec = await seated(service, key)
        twin_rec = await seated(twin, key)
        handed: list[Accepted] = []

        async def played(accepted: Accepted) -> None:
            handed.append(accepted)

        async with serving(store, service=service, played=played) as (_, base), \
                aiohttp.ClientSession() as session:
            mine = Seat(Client(session), base, await seats.seat_token(store, rec.id, ANN))
            await mine.open()
            ann_turns = bob_turns = posts = 0
            tapped = False
            for _ in range(120):
                rec, game, _ = await service.current(CH)
                assert rec is not None and game is not None
                if game.is_over or (ann_turns >= 2 and bob_turns >= 1):
                    break
                seat = game.to_act
                assert seat is not None
                if rec.seats[seat].user_id == ANN:
                    await asyncio.sleep(0.06)  # the page's copy of the game is fresh (read at most every 0.05 s)
                    view = await mine.view()
                    assert view["to_act"] and view["version"] == rec.version, view
                    action = offered(view)
                    tapped = tapped or bool(view["targets"])
                    status, answer = await mine.post(action, rec.version)
                    assert (status, answer) == (200, {"ok": True}), (action, answer)
                    posts += 1
                else:
                    action = pressed(service, key, game, seat)
                    assert isinstance(await service.act(CH, BOB, action), Accepted)
                assert isinstance(await twin.act(CH, rec.seats[seat].user_id, action), Accepted), action
                after, game_after, _ = await service.current(CH)
                assert after is not None and game_after is not None
                if game_after.to_act != seat:
                    ann_turns += rec.seats[seat].user_id == ANN
                    bob_turns += rec.seats[seat].user_id == BOB
            assert ann_turns >= 1 and bob_turns >= 1, (ann_turns, bob_turns)
            assert posts and len(handed) == posts  # each accepted move was handed over for delivery
            assert tapped, "no cell of the board was offered: the taps are untested"
        assert await words(service, store, rec.id) == await words(twin, twin_store, twin_rec.id)
        assert [a.action for a in await store.games.actions(rec.id)] == \
            [a.action for a in await twin_store.games.actions(twin_rec.id)]
    finally:
        await twin_store.close()


async def test_every_refused_move_changes_nothing(store):
    """A forged token, a revoked link, a missing or wrong CSRF token, a cross-origin POST, another game's action
    or cell, a stale version, a body that is not a move, a GET: each refused with its one line (or 404, 405),
    the game's version, state and messages unchanged."""
    service = Service(store, seed_source=lambda: 7)
    rec = await seated(service, "races")
    _, game, _ = await service.current(CH)
    assert game is not None and rec.seats[game.to_act or 0].user_id == ANN
    async with serving(store, service=service) as (_, base), aiohttp.ClientSession() as session:
        client = Client(session)
        mine = Seat(client, base, await seats.seat_token(store, rec.id, ANN))
        await mine.open()
        view = await mine.view()
        good = offered(view)
        before = (rec.version, rec.state, await words(service, store, rec.id))

        async def unchanged() -> None:
            now = await store.games.get_game(rec.id)
            assert (now.version, now.state, await words(service, store, rec.id)) == before

        forged = Seat(client, base, links.new_token())
        forged.csrf = mine.csrf
        assert (await forged.post(good, rec.version))[0] == 404
        for headers, line in (({CSRF_HEADER: ""}, "out of date"), ({CSRF_HEADER: "x" * 22}, "out of date"),
                              ({"Origin": "https://elsewhere.example"}, "own page"),
                              ({"Sec-Fetch-Site": "cross-site"}, "own page")):
            status, answer = await mine.post(good, rec.version, headers=headers)
            assert status == 403 and answer["ok"] is False and line in answer["error"], (headers, answer)
            await unchanged()
        for action, version, line in (("place 3", rec.version, "place"), ("step Z40", rec.version, "Z40"),
                                      ("choose B2", rec.version, ""), (good, rec.version + 1, "")):
            status, answer = await mine.post(action, version)
            assert status == 200 and answer["ok"] is False and answer["error"] and line in answer["error"], answer
            assert "\n" not in answer["error"]
            await unchanged()
        for body in ({"action": good}, {"action": "", "version": 0}, ["roll"], {"action": good, "version": "0"}):
            status, answer = await mine.post("", 0, body=body)
            assert status == 400 and answer == {"ok": False, "error": "That is not a move this page can send."}
            await unchanged()
        async with session.get(f"{mine.url}/act?action={good}") as answer:
            assert answer.status == 405
        await unchanged()
        # a stale version, in German: the page's language
        status, answer = await mine.post(good, rec.version + 1, lang="de")
        assert status == 200 and answer["ok"] is False and answer["error"]
        await unchanged()
        # Bob's link cannot play Ann's turn: the refusal a press of his gets
        bob = Seat(client, base, await seats.seat_token(store, rec.id, BOB))
        await bob.open()
        status, answer = await bob.post(good, rec.version)
        assert status == 200 and answer["ok"] is False
        await unchanged()
        # another table's seat link opens only its own game
        other = await seated(service, "piecepack", channel=CH + 1)
        theirs = Seat(client, base, await seats.seat_token(store, other.id, ANN))
        await theirs.open()
        assert (await theirs.post(good, rec.version))[1]["ok"] is False
        await unchanged()
        # Bob closes his own board: the link opens nothing from now on
        said = await share.revoke(service, CH, BOB, lang="en")
        assert isinstance(said, Message) and "closed" in said.text
        assert isinstance(await share.revoke(service, CH, BOB, lang="en"), Message)
        assert (await bob.post(good, rec.version))[0] == 404
        assert (await client.get(bob.url))[0] == 404 and (await client.get(bob.url + "/seat.json"))[0] == 404
        # the host revokes the page: every seat's link goes too
        assert isinstance(await share.revoke(service, CH, ANN, lang="en"), Message)
        assert (await mine.post(good, rec.version))[0] == 404
        assert (await client.get(mine.url))[0] == 404
        assert await seats.seat_of(store, (await seats.seat_token(store, rec.id, ANN))) is not None  # a new one
        await unchanged()
        assert (await theirs.post("move e5-e4-e3", other.version))[0] == 200  # the other game's link stays


async def test_a_rate_limit_holds_each_seat_s_moves(store):
    """A seat's moves beyond its burst are refused (429, one line), and nothing is played by them."""
    from bot.web.server import Limits

    service = Service(store, seed_source=lambda: 7)
    rec = await seated(service, "races")
    limits = Limits(rate=1000.0, burst=1000, move_rate=0.001, move_burst=2)
    async with serving(store, service=service, limits=limits) as (_, base), aiohttp.ClientSession() as session:
        mine = Seat(Client(session), base, await seats.seat_token(store, rec.id, ANN))
        await mine.open()
        answers = [await mine.post("step Z40", rec.version) for _ in range(3)]
        assert [status for status, _ in answers] == [200, 200, 429]
        assert answers[2][1] == {"ok": False, "error": "Too many moves at once: wait a moment, then try again."}
    assert (await store.games.get_game(rec.id)).version == rec.version


async def test_a_seat_link_is_revoked_when_its_player_leaves_is_removed_or_forgotten(any_store):
    """Both stores: one token per player and game until revoked; leaving, being removed (in a lobby or a
    running game) and being forgotten close it."""
    service = Service(any_store, seed_source=lambda: 7)
    token = await seats.seat_token(any_store, 5, ANN)
    assert await seats.seat_token(any_store, 5, ANN) == token and await seats.seat_token(any_store, 5, BOB) != token
    link = await seats.seat_of(any_store, token)
    assert link is not None and (link.game_id, link.user_id) == (5, ANN) and len(link.csrf) == 22
    assert await seats.games_of(any_store, [token, "junk"]) == {token: 5, "junk": None}
    rec = await seated(service, "races")
    ann, bob = [await seats.seat_token(any_store, rec.id, u) for u in (ANN, BOB)]
    assert isinstance(await service.leave(CH, BOB), Accepted)  # a computer drives on for Bob
    assert await seats.seat_of(any_store, bob) is None and await seats.seat_of(any_store, ann) is not None
    assert isinstance(await service.new_game(guild_id=GUILD, channel_id=CH + 1, user_id=ANN, user_name="Ann",
                                             game_key="races", options=OPTIONS["races"]), Accepted)
    assert isinstance(await service.join(CH + 1, BOB, "Bob"), Accepted)
    lobby = await any_store.games.channel_game(CH + 1)
    assert lobby is not None
    kicked = await seats.seat_token(any_store, lobby.id, BOB)
    assert isinstance(await service.kick(CH + 1, ANN, BOB), Accepted)
    assert await seats.seat_of(any_store, kicked) is None
    # forgetting Ann deletes every settings row she owns: her seat links with them
    from bot.upkeep.forget import forget

    await forget(service, ANN)
    assert await seats.seat_of(any_store, ann) is None
    assert not await any_store.settings.get_settings(SEAT_LINK_SCOPE, ANN, rec.id)


async def test_game_link_offers_a_seated_asker_their_own_board_and_nobody_else(store):
    service = Service(store, seed_source=lambda: 7)
    service.page_link = share.page_links(store, "https://games.example")
    service.seat_link = share.seat_links(store, "https://games.example")
    rec = await seated(service, "races")
    offer = await share.seat_offer(service, CH, ANN, lang="de")
    assert offer is not None and offer.label == "Mein Brett öffnen" and offer.url in offer.text
    found = await seats.seat_of(store, offer.url.rsplit("/p/", 1)[1])
    assert found is not None and (found.game_id, found.user_id) == (rec.id, ANN)
    assert await share.seat_offer(service, CH, 999, lang="en") is None  # a watcher has no seat
    public = await share.share(service, CH, ANN, lang="en")
    assert isinstance(public, Accepted)
    posted = " ".join(text for _, text in await words(service, store, rec.id))
    assert "/p/" not in posted and offer.url not in posted  # the seat's link is never in the channel
    assert isinstance(await share.share(service, CH, 999, lang="en"), Message)
    refused = await share.revoke(service, CH, 999, lang="en")
    assert isinstance(refused, Refusal)


async def test_a_seat_page_over_a_whole_crew_team_race_never_tells_another_seat_s_hidden_things(store):
    """R12 per seat: every byte Ann's and Bob's pages were served over a whole team race with crew starting sets
    (their page, its data, their seat's view at every move, their moves' answers) holds no private note of
    another player, no raw action of another seat naming a tile, and no kind of tile hidden in another kart at
    the end that nothing public and nothing of their own ever named."""
    service = Service(store, seed_source=lambda: 2, classes=lambda key: TeamCrewRaces)
    rec = await open_crew_team_race(service)
    rng = random.Random(2)
    smart = driver_for("races", "smart", 2)
    privates: list[Private] = []
    own: dict[int, list[str]] = {ANN: [], BOB: []}
    async with serving(store, classes=lambda key: TeamCrewRaces, service=service) as (_, base), \
            aiohttp.ClientSession() as session:
        pages = {user: Seat(Client(session), base, await seats.seat_token(store, rec.id, user)) for user in own}
        for page in pages.values():
            await page.open(rng.choice(["en", "de"]))
        for _ in range(400):
            while (batch := await service.play_computers(CH)) is not None:
                privates.extend(batch.private)
            rec, game, _ = await service.current(CH)
            if rec is None or game is None or game.is_over:
                break
            seat = game.to_act
            assert seat is not None
            user = rec.seats[seat].user_id
            hidden = [a for a in game.legal_actions() if isinstance(a, HIDDEN_ACTIONS)]
            choice = pick(game, rng) if hidden and rng.random() < 0.5 else str(smart.choose(game, seat))
            await asyncio.sleep(0.06)
            for who, page in pages.items():
                view = await page.view(rng.choice(["en", "de"]))
                own[who].append(view["hand"])
            if rng.random() < 0.5:  # from the page, or pressed on Discord
                status, answer = await pages[user].post(choice, rec.version)
                assert status == 200 and answer["ok"], answer
            else:
                moved = await service.act(CH, user, choice)
                assert isinstance(moved, Accepted), moved
                privates.extend(moved.private)
            if rng.random() < 0.1:
                await pages[user].open(rng.choice(["en", "de"]))
        rec = (await store.games.channel_history(CH, 1))[0]
        assert rec.status == "finished"
    actions = await store.games.actions(rec.id)
    final = TeamCrewRaces.create(dict(rec.setup), rec.seed)
    for a in actions:
        final.apply(a.action)
    public = [json.dumps(final.view(None))]
    for d in await store.outbox.deliveries(game_id=rec.id):
        public += [(await service.message(d, lang, words_only=True)).text for lang in ("en", "de")]
    named_publicly = named_kinds("\n".join(public))
    proved = False
    for user, page in pages.items():
        seat = rec.seat_of(user)
        assert seat is not None
        served = b"\n".join(page.client.served).decode("utf-8", "replace")
        words_served = "\n".join(b.decode("utf-8") for b in page.client.served if not b.startswith(b"\x89PNG"))
        others = [a.action for a in actions if a.seat != seat and a.action.split()[0] in ("bag", "swap", "hide")
                  and any(k in a.action.split() for k in TILE_KINDS)]
        for action in others:
            assert action not in served, f"{action!r} of another seat was served to seat {seat}"
        for line in secret_lines([p for p in privates if p.user_id != user]):
            assert line not in served, f"another player's private {line!r} was served to seat {seat}"
        theirs = set()
        for other, kart in enumerate(final.karts):
            if other != seat:
                theirs |= {t.kind for tiles in kart.bags.values() for t in tiles if not t.face_up}
        secret = (theirs & hidden_kinds(final)) - named_publicly - named_kinds("\n".join(own[user]))
        proved = proved or bool(secret and own[user] and any(own[user]))
        for kind in secret:
            assert kind not in named_kinds(words_served), f"another kart's hidden {kind} was served to seat {seat}"
    assert proved, "no other kart kept a hidden tile nobody named: the scan proves little"


async def test_game_link_on_discord_offers_only_the_player_an_open_my_board_button(h):
    """``/game link`` by a seated player: the page's link in the channel, and to them alone a private message
    with an "Open my board" link button to their seat's page; a watcher gets the page's link only."""
    from tests.bot.helpers import ANN as DISCORD_ANN
    from tests.bot.helpers import EVE, started

    service = h.bot.service
    service.page_link = share.page_links(service.store, "https://games.example")
    service.seat_link = share.seat_links(service.store, "https://games.example")
    await started(h)
    sent = await h.slash(DISCORD_ANN, "game link")
    offers = [s for s in sent if any(b.get("style") == 5 for b in s.buttons())]
    assert len(offers) == 1 and offers[0].ephemeral, [(s.kind, s.ephemeral, s.content[:60]) for s in sent]
    button = offers[0].buttons()[0]
    assert button["label"] == "Open my board" and button["url"] in offers[0].content
    found = await seats.seat_of(service.store, button["url"].rsplit("/p/", 1)[1])
    assert found is not None and found.user_id == DISCORD_ANN
    assert all("/p/" not in s.content for s in sent if not s.ephemeral)
    watched = await h.slash(EVE, "game link")
    assert all("/p/" not in s.content and not any(b.get("style") == 5 for b in s.buttons()) for s in watched)
