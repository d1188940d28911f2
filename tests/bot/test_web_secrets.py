"""R12 on the web: every byte the pages' server sends over a whole race (the page and its data in both
languages, every replay picture, the live updates) tells no hidden tile. Team races with crew starting sets, so
tiles are held, moved between saddlebags and swapped; the check: no raw action naming a tile, no line of a
private note, and no kind of tile (in either language) that lies face down at the end while no public thing
ever named it. The pictures are drawn from the public view, which the twin test of R12 shows does not depend on
the hidden tiles (tests/bot/test_hidden_information.py)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import aiohttp

import rules.races
from bot.drivers import driver_for
from bot.play.service import Service
from bot.store import GameRecord
from bot.telling.outcomes import Accepted
from rules.races import Races
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
from tests.bot.web_helpers import Client, Stream, page_of, serving


async def open_crew_team_race(service: Service) -> GameRecord:
    """A one-lap team race on track A with crew starting sets, started by Ann: Ann, Bob and two smart computers
    (the service's game classes must be :class:`TeamCrewRaces`)."""
    assert isinstance(await service.new_game(guild_id=GUILD, channel_id=CH, user_id=ANN, user_name="Ann",
                                             game_key="races", options={"track": "A", "laps": 1}), Accepted)
    assert isinstance(await service.join(CH, BOB, "Bob"), Accepted)
    for _ in range(2):
        assert isinstance(await service.add_computer(CH, ANN, "smart"), Accepted)
    assert isinstance(await service.start(CH, ANN), Accepted)
    rec, _, _ = await service.current(CH)
    assert rec is not None
    return rec


def hidden_kinds(game: Races) -> set[str]:
    """The kinds of every tile no one at the table sees (face down on the board or in a saddlebag)."""
    out = {t.kind for t in game.board.values() if t.face_down}
    for kart in game.karts:
        out |= {t.kind for tiles in kart.bags.values() for t in tiles if not t.face_up}
    return out


def tile_words() -> dict[str, set[str]]:
    """Each kind of tile by the words both languages name it with (the races' catalogues)."""
    out: dict[str, set[str]] = {k: {k} for k in TILE_KINDS}
    for lang in ("en", "de"):
        po = (Path(rules.races.__file__).parent / "locale" / f"{lang}.po").read_text("utf-8")
        for kind, word in re.findall(r'msgid "tile\.([\w-]+)"\nmsgstr "([^"]+)"', po):
            if kind in out:
                out[kind].add(word)
    return out


WORDS = tile_words()


def named_kinds(text: str) -> set[str]:
    """The kinds of tile ``text`` names, in either language."""
    return {k for k, words in WORDS.items()
            if any(re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text, re.IGNORECASE) for w in words)}


async def test_nothing_served_over_a_whole_race_tells_a_hidden_tile(store):
    service = Service(store, seed_source=lambda: 2, classes=lambda key: TeamCrewRaces)
    rec = await open_crew_team_race(service)
    rng = random.Random(2)
    smart = driver_for("races", "smart", 2)
    privates: list = []
    async with serving(store, classes=lambda key: TeamCrewRaces) as (_, base), aiohttp.ClientSession() as session:
        client = Client(session)
        url = await page_of(store, base, rec)
        await client.get(url)
        async with Stream(client, url + "/events?lang=en") as english, Stream(client, url + "/events?lang=de"):
            for _ in range(400):
                while (batch := await service.play_computers(CH)) is not None:
                    privates.extend(batch.private)
                rec, game, _ = await service.current(CH)
                if rec is None or game is None or game.is_over:
                    break
                seat = game.to_act
                assert seat is not None
                hidden = [a for a in game.legal_actions() if isinstance(a, HIDDEN_ACTIONS)]
                choice = pick(game, rng) if hidden and rng.random() < 0.5 else str(smart.choose(game, seat))
                moved = await service.act(CH, rec.seats[seat].user_id, choice)
                assert isinstance(moved, Accepted), moved
                privates.extend(moved.private)
                if rng.random() < 0.15:  # now and then a page is opened anew
                    await client.get(url + "?lang=" + rng.choice(["en", "de"]))
            rec = (await store.games.channel_history(CH, 1))[0]
            assert rec.status == "finished"
            await english.until(rec.version, timeout=60)
        for lang in ("en", "de"):
            state = await client.json(f"{url}/state.json?lang={lang}")
            fingerprints = [state["start"], *(e["fp"] for e in state["log"])]
            for n, fp in enumerate(fingerprints):
                status, _, _ = await client.get(f"{url}/board/{n}-{fp}.png?lang={lang}")
                assert status == 200
    actions = await store.games.actions(rec.id)
    named = [a.action for a in actions if any(k in a.action.split() for k in TILE_KINDS)]
    assert [a for a in named if a.split()[0] in ("bag", "swap", "hide")], "no hidden tile moved: the scan proves little"
    assert privates, "nobody was told anything privately: the scan proves little"
    served = b"\n".join(client.served).decode("utf-8", "replace")
    words = "\n".join(b.decode("utf-8") for b in client.served if not b.startswith(b"\x89PNG"))
    assert len(client.served) > 100
    for action in named:
        assert action not in served, f"{action!r} was served"
    for line in secret_lines(privates):
        assert line not in served, f"the private {line!r} was served"
    assert "junk:" not in served and "You picked up" not in served and "You snatched" not in served
    # the kinds hidden at the end that nothing public ever named are named nowhere on the page
    final = TeamCrewRaces.create(dict(rec.setup), rec.seed)
    for a in actions:
        final.apply(a.action)
    public = [json.dumps(final.view(None))]
    for d in await store.outbox.deliveries(game_id=rec.id):
        public += [(await service.message(d, lang, words_only=True)).text for lang in ("en", "de")]
    secret = hidden_kinds(final) - named_kinds("\n".join(public))
    assert secret and named_kinds(words), "no tile stayed hidden, or the page names none: the scan proves little"
    for kind in secret:
        assert kind not in named_kinds(words), f"the hidden {kind} was served"
