"""The games' page links without Discord: ``junkyard link GAME_ID`` prints the link ``/game link`` gives,
``junkyard link GAME_ID --seat N`` the person's own link it offers them, and ``junkyard play`` /
``junkyard demo`` say how to watch the game in a browser."""

from __future__ import annotations

import asyncio

import pytest

from bot import texts
from bot.cli import main
from bot.play.service import Service
from bot.store import SqliteStore
from bot.telling.outcomes import Accepted
from bot.web import seats, share
from tests.bot.web_helpers import open_race


def _stored_race(path: str) -> int:
    async def make() -> int:
        async with SqliteStore(path) as store:
            return (await open_race(Service(store, seed_source=lambda: 3))).id

    return asyncio.run(make())


def _discord_link(path: str, game_id: int, base: str) -> str | None:
    async def ask() -> str | None:
        async with SqliteStore(path) as store:
            return await share.page_links(store, base)(await store.games.get_game(game_id))

    return asyncio.run(ask())


def test_link_prints_the_stored_games_page_link_as_game_link_gives_it(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("JUNKYARD_WEB_URL", raising=False)
    db = str(tmp_path / "g.db")
    game = _stored_race(db)
    assert main(["link", str(game), "--db", db]) == 0
    printed = capsys.readouterr().out.strip()
    assert printed == _discord_link(db, game, "http://127.0.0.1:8080")  # the same token, under web's address
    assert main(["link", str(game), "--db", db, "--url", "https://games.example/jy/"]) == 0
    assert capsys.readouterr().out.strip() == printed.replace("http://127.0.0.1:8080", "https://games.example/jy")
    monkeypatch.setenv("JUNKYARD_WEB_URL", "https://pages.example")
    assert main(["link", str(game), "--db", db]) == 0
    assert capsys.readouterr().out.strip() == printed.replace("http://127.0.0.1:8080", "https://pages.example")


def _people_race(path: str) -> int:
    """A race stored in ``path``: Ann (seat 1), a computer (seat 2), Bob (seat 3)."""

    async def make() -> int:
        async with SqliteStore(path) as store:
            service = Service(store, seed_source=lambda: 3)
            for outcome in (await service.new_game(guild_id=1, channel_id=5, user_id=111, user_name="Ann",
                                                   game_key="races", options={"laps": 1, "track": "A"}),
                            await service.add_computer(5, 111, "smart"), await service.join(5, 222, "Bob")):
                assert isinstance(outcome, Accepted), outcome
            rec = await store.games.channel_game(5)
            assert rec is not None and [s.is_computer for s in rec.seats] == [False, True, False]
            return rec.id

    return asyncio.run(make())


def _seat_links(path: str, game_id: int, base: str) -> list[str | None]:
    """What ``/game link`` offers each person of the game privately ("Open my board"), seat by seat."""

    async def ask() -> list[str | None]:
        async with SqliteStore(path) as store:
            rec = await store.games.get_game(game_id)
            made = share.seat_links(store, base)
            return [None if s.is_computer else await made(rec, s.user_id) for s in rec.seats]

    return asyncio.run(ask())


def test_link_seat_prints_the_persons_own_link_as_game_link_offers_it(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("JUNKYARD_WEB_URL", raising=False)
    db = str(tmp_path / "g.db")
    game = _people_race(db)
    assert main(["link", str(game), "--seat", "3", "--db", db, "--url", "https://games.example"]) == 0
    bob = capsys.readouterr().out.strip()
    assert main(["link", str(game), "--seat", "1", "--db", db, "--url", "https://games.example"]) == 0
    ann = capsys.readouterr().out.strip()
    assert ann != bob and "/p/" in ann
    # the very links /game link offers them: made once, the same token asked again
    assert _seat_links(db, game, "https://games.example") == [ann, None, bob]

    async def opened(url: str) -> tuple[int, int] | None:
        async with SqliteStore(db) as store:
            found = await seats.seat_of(store, url.rsplit("/p/", 1)[1])
            return None if found is None else (found.game_id, found.user_id)

    assert asyncio.run(opened(ann)) == (game, 111) and asyncio.run(opened(bob)) == (game, 222)
    assert main(["link", str(game), "--seat", "1", "--db", db]) == 0  # under junkyard web's own address
    assert capsys.readouterr().out.strip() == ann.replace("https://games.example", "http://127.0.0.1:8080")


@pytest.mark.parametrize(("seat", "key"), [("2", "web.cli_computer_seat"), ("4", "web.cli_no_seat"),
                                           ("0", "web.cli_no_seat"), ("-1", "web.cli_no_seat")])
def test_link_seat_of_a_computer_or_no_seat_is_a_usage_mistake(tmp_path, capsys, monkeypatch, seat, key):
    """Exit 2 and one line from the catalogue; no link is made for anyone."""
    monkeypatch.delenv("JUNKYARD_WEB_URL", raising=False)
    db = str(tmp_path / "g.db")
    game = _people_race(db)
    assert main(["link", str(game), "--seat", seat, "--db", db]) == 2
    captured = capsys.readouterr()
    said = texts.say(key, "en", seat=int(seat), game=game, seats=3)
    assert captured.out == "" and captured.err.strip() == f"junkyard link: {said}"

    async def made() -> int:
        async with SqliteStore(db) as store:
            return len(await store.settings.all_settings(seats.TOKEN_SCOPE))

    assert asyncio.run(made()) == 0


@pytest.mark.parametrize(("args", "code", "said"), [
    (["link", "99"], 1, texts.say("web.cli_no_game", "en", game=99, db="{db}")),
    (["link", "1", "--url", "ftp://x"], 2, "http:// or https://"),
    (["link", "1", "--listen", "0.0.0.0:8080"], 2, "--url"),
    (["link", "99", "--seat", "1"], 1, texts.say("web.cli_no_game", "en", game=99, db="{db}")),
])
def test_links_mistakes_are_one_line_each(tmp_path, capsys, monkeypatch, args, code, said):
    monkeypatch.delenv("JUNKYARD_WEB_URL", raising=False)
    db = str(tmp_path / "g.db")
    _stored_race(db)
    assert main([*args, "--db", db]) == code
    err = capsys.readouterr().err.strip()
    assert said.format(db=db) in err and len(err.splitlines()) == 1


def test_demo_and_play_say_how_to_watch_their_game(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("JUNKYARD_WEB_URL", raising=False)
    monkeypatch.chdir(tmp_path)
    assert main(["demo", "--db", "d.db", "--out", "pics", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    link = _discord_link("d.db", 1, "http://127.0.0.1:8080")
    assert texts.say("web.cli_watch", "en", command="junkyard web --db d.db", url=link) in out.splitlines()
    monkeypatch.setattr("sys.stdin", open("/dev/null"))  # noqa: SIM115
    main(["play", "--db", "p.db", "--out", "pics", "--seats", "smart,smart", "--lang", "de", "--seed", "3"])
    first = capsys.readouterr().out.splitlines()[0]
    link = _discord_link("p.db", 1, "http://127.0.0.1:8080")
    assert first == texts.say("web.cli_watch", "de", command="junkyard web --db p.db", url=link)
