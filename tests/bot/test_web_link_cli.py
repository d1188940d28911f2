"""The games' page links without Discord: ``junkyard link GAME_ID`` prints the link ``/game link`` gives, and
``junkyard play`` / ``junkyard demo`` say how to watch the game in a browser."""

from __future__ import annotations

import asyncio

import pytest

from bot import texts
from bot.cli import main
from bot.play.service import Service
from bot.store import SqliteStore
from bot.web import share
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


@pytest.mark.parametrize(("args", "code", "said"), [
    (["link", "99"], 1, texts.say("web.cli_no_game", "en", game=99, db="{db}")),
    (["link", "1", "--url", "ftp://x"], 2, "http:// or https://"),
    (["link", "1", "--listen", "0.0.0.0:8080"], 2, "--url"),
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
