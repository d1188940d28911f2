"""``junkyard bot`` and ``junkyard sync``: token handling and command registration, offline."""

from __future__ import annotations

import pytest
from discord.http import HTTPClient

from bot.cli import SUBCOMMANDS, build_parser, main, served
from bot.commands import sync as sync_cmd
from bot.commands.token import TokenMissing, TokenUnreadable, read_token
from tests.bot.harness import APP_ID, user_payload

SECRET = "MTIz.secret-token-value"


def test_token_from_environment_or_file(monkeypatch, tmp_path):
    monkeypatch.setenv("DISCORD_TOKEN", f" {SECRET}\n")
    assert read_token(None) == SECRET
    f = tmp_path / "token"
    f.write_text("from-file\n")
    assert read_token(str(f)) == "from-file"
    monkeypatch.delenv("DISCORD_TOKEN")
    with pytest.raises(TokenMissing, match="DISCORD_TOKEN"):
        read_token(None)
    with pytest.raises(TokenUnreadable, match=r"the token file .*missing does not exist"):
        read_token(str(tmp_path / "missing"))


def test_bot_without_token_exits_with_a_message(monkeypatch, capsys):
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert main(["bot", "--db", "unused.db"]) == 2
    assert "DISCORD_TOKEN" in capsys.readouterr().err


def test_subcommands_are_listed():
    args = build_parser().parse_args(["sync", "--guild", "42"])
    assert args.guild == 42
    args = build_parser().parse_args(["bot", "--db", "x.db", "--token-file", "t"])
    assert (args.db, args.token_file) == ("x.db", "t")


async def test_sync_registers_the_command_tree(monkeypatch):
    calls = []

    async def request(self, route, *, files=None, form=None, **kwargs):
        calls.append((route.method, route.url, kwargs.get("json")))
        if route.path == "/users/@me":
            return user_payload(APP_ID, "junkyard", bot=True)
        if route.path == "/oauth2/applications/@me":
            return {"id": str(APP_ID), "name": "Junkyard GM", "description": "", "icon": None, "bot_public": True,
                    "bot_require_code_grant": False, "owner": user_payload(1, "owner"), "verify_key": "k",
                    "flags": 0}
        if route.method == "PUT":
            return [{"id": str(i + 1), "application_id": str(APP_ID), "name": c["name"], "description": "x",
                     "type": 1, "version": "1", **({"guild_id": "42"} if "guilds" in route.url else {})}
                    for i, c in enumerate(kwargs["json"])]
        return {}

    monkeypatch.setattr(HTTPClient, "request", request)
    names = await sync_cmd.sync(SECRET, 42, clear=False)
    assert {"game", "rules"} <= set(names)
    put = [c for c in calls if c[0] == "PUT"]
    assert len(put) == 1 and f"/applications/{APP_ID}/guilds/42/commands" in put[0][1]
    game = next(c for c in put[0][2] if c["name"] == "game")
    assert {o["name"] for o in game["options"]} >= {"new", "join", "leave", "start", "status", "log", "abort", "kick"}


def test_bot_runs_with_the_token_and_never_logs_it(monkeypatch, tmp_path, caplog, capsys):
    import logging
    import signal

    from bot.discord.client import JunkyardBot

    seen = {}

    def fake_run(self, token, **kwargs):
        seen["token"], seen["db"], seen["kwargs"] = token, self.store.path, kwargs
        logging.getLogger("discord.client").info("pretending to connect")

    monkeypatch.setattr(JunkyardBot, "run", fake_run)
    monkeypatch.setattr(signal, "signal", lambda *args: None)
    monkeypatch.setattr("discord.utils.setup_logging", lambda **kwargs: None)  # keep the test's logging as it is
    monkeypatch.setenv("DISCORD_TOKEN", SECRET)
    db = tmp_path / "games.db"
    with caplog.at_level(logging.DEBUG):
        assert main(["bot", "--db", str(db)]) == 0
    assert seen == {"token": SECRET, "db": str(db), "kwargs": {"log_handler": None}}
    out = capsys.readouterr()
    assert SECRET not in caplog.text + out.out + out.err
    assert f"store: SQLite {db}, schema" in caplog.text and "shards: one connection" in caplog.text


def _refuse_the_token(monkeypatch):
    """Discord answers 401 to the login request, as it does for a wrong or revoked token."""
    from types import SimpleNamespace

    import discord

    async def request(self, route, **kwargs):
        raise discord.HTTPException(SimpleNamespace(status=401, reason="Unauthorized"),
                                    {"code": 0, "message": "401: Unauthorized"})

    monkeypatch.setattr(HTTPClient, "request", request)
    monkeypatch.setattr("discord.utils.setup_logging", lambda **kwargs: None)
    monkeypatch.setenv("DISCORD_TOKEN", SECRET)


@pytest.mark.parametrize("command", [["bot", "--picture-processes", "0"], ["sync"]])
def test_a_refused_token_is_one_line_and_status_1(monkeypatch, tmp_path, capsys, command):
    """Discord refusing the token is a failure while running (1), not a usage mistake."""
    import signal

    _refuse_the_token(monkeypatch)
    monkeypatch.setattr(signal, "signal", lambda *args: None)
    monkeypatch.chdir(tmp_path)
    assert main(command) == 1
    out = capsys.readouterr()
    assert out.out == "" and len(out.err.strip().splitlines()) == 1
    assert "refused the token" in out.err and "Traceback" not in out.err and SECRET not in out.err


@pytest.mark.parametrize("command", list(SUBCOMMANDS))
def test_every_help_names_every_game_it_serves(command, capsys):
    """``junkyard COMMAND --help`` names each game the command serves (``replay`` said only Junkyard Races,
    ``--game`` listed bare keys)."""
    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    games = served(SUBCOMMANDS[command][2])
    assert games and all(title in text for title in games), (games, text)
    if command == "replay":
        assert {"Junkyard Races", "Schrottplatz Rally"} <= set(games)
    if command in ("play", "demo"):
        assert "Schrottplatz Rally" in text and "rally (Schrottplatz Rally)" in text


class _Tree:
    def __init__(self, mine, there):
        self.mine, self.there = mine, there

    def get_commands(self):
        return [type("C", (), {"name": n})() for n in self.mine]

    async def fetch_commands(self):
        return [type("C", (), {"name": n})() for n in self.there]


@pytest.mark.parametrize(("there", "said"), [
    ([], "slash commands: none registered for all servers; run `junkyard sync` once"),
    (["game"], "slash commands: /rules not registered; run `junkyard sync` after upgrading"),
    (["game", "rules"], "slash commands: registered (/game, /rules)"),
])
async def test_the_bot_says_whether_its_slash_commands_are_registered(caplog, there, said):
    import logging
    from types import SimpleNamespace

    from bot.commands.bot import report_commands

    with caplog.at_level(logging.INFO, logger="junkyard"):
        await report_commands(SimpleNamespace(tree=_Tree(["game", "rules"], there)))
    assert said in caplog.text
