"""The slash commands `junkyard sync` registers, exactly as it sends them (``PUT /applications/{id}/commands``
through the bot's own tree and translator), judged by Discord's OpenAPI specification and by the limits
Discord documents beside it: names, descriptions, 25 options and choices, 4,000 characters a command counted
at the longest localisation of each field, in English and in German."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.discord.translator import LOCALE, JunkyardTranslator
from bot.games import join_options, new_options, offered_by, units
from tests.bot import discord_spec as ds
from tests.bot.discord_spec import Spec
from tests.bot.harness import DiscordHarness
from tests.bot.helpers import make_bot

ROUTE = ("PUT", "/applications/{application_id}/commands")


@pytest.fixture(autouse=True)
def toy_game() -> None:
    """The commands the product registers: without the tests' toy game (the suite's fixture adds it)."""


@pytest.fixture
async def registered(tmp_path: Path) -> tuple[str, str, list[dict[str, Any]]]:
    """The request `junkyard sync` makes: its method, route and JSON body."""
    async with DiscordHarness(make_bot(tmp_path / "sync.db")) as h:
        start = len(h.sent)
        await h.bot.tree.sync()
        sent = h.sent[start:]
    assert len(sent) == 1, [s.path for s in sent]
    return sent[0].method, sent[0].path, sent[0].payload  # type: ignore[return-value]


async def test_the_registration_is_what_the_specification_allows(
        registered: tuple[str, str, list[dict[str, Any]]], discord_spec: Spec) -> None:
    method, path, commands = registered
    assert (method, path) == ROUTE
    pointer = discord_spec.request_schema(method, path)
    assert pointer is not None
    assert discord_spec.errors(pointer, commands) == []
    for command in commands:  # each command alone, so a failure names it
        assert discord_spec.errors(pointer, [command]) == [], f"/{command['name']}"


async def test_every_command_keeps_discord_s_documented_limits(
        registered: tuple[str, str, list[dict[str, Any]]], discord_spec: Spec) -> None:
    _, _, commands = registered
    locales = discord_spec.locales()
    assert [p for command in commands for p in ds.documented_limits(command, locales)] == []


async def test_every_command_fits_in_each_language_by_discord_s_count(
        registered: tuple[str, str, list[dict[str, Any]]]) -> None:
    """4,000 characters a command, counting English alone, German alone and the longest of each field."""
    _, _, commands = registered
    assert {c["name"] for c in commands} >= {"game", "rules", "stats"}
    for command in commands:
        for lang in (None, "en-US", LOCALE.value):
            size = ds.command_chars(command, lang)
            assert 0 < size <= ds.MAX_COMMAND_CHARS, f"/{command['name']} ({lang or 'longest'}): {size}"
    assert all(command.get("name_localizations", {}).get(LOCALE.value) for command in commands), \
        "every command carries its German name"


def test_discord_s_count_takes_the_longest_localisation_of_each_field() -> None:
    """The count itself: name and description of each level, choices' names and values, the longest of the
    default text and its localisations (Discord's application command limits)."""
    command = {
        "name": "game", "name_localizations": {"de": "spiel"}, "description": "Play",
        "description_localizations": {"de": "Spielen!"},
        "options": [{"name": "mode", "description": "How", "description_localizations": {"de": "Wie"},
                     "choices": [{"name": "off", "name_localizations": {"de": "aus"}, "value": "off"},
                                 {"name": "one", "value": 1}]}],
    }
    assert ds.command_chars(command) == 5 + 8 + 4 + 3 + 3 + 3 + 3 + 1
    assert ds.command_chars(command, "en-US") == 4 + 4 + 4 + 3 + 3 + 3 + 3 + 1
    assert ds.command_chars(command, "de") == 5 + 8 + 4 + 3 + 3 + 3 + 3 + 1


@pytest.mark.parametrize(("name", "fits"), [("würfeln", True), ("nur_dieses_spiel", True), ("don't", True),
                                             ("खेल", True), ("เกม", True), ("Würfeln", False), ("two words", False),
                                             ("", False), ("x" * 33, False), ("a.b", False)])
def test_discord_s_naming_rule(name: str, fits: bool) -> None:
    assert (bool(ds.NAME.match(name)) and name == name.lower()) is fits


def test_the_limits_name_what_breaks_them() -> None:
    locales = {"de", "en-US"}
    command = {"name": "Game", "description": "x" * 101, "name_localizations": {"xx": "spiel"},
               "options": [{"name": f"o{i}", "description": "d", "choices": [{"name": "", "value": "v"}]}
                           for i in range(26)]}
    problems = "\n".join(ds.documented_limits(command, locales))
    for part in ("name 'Game'", "description (default) of 101", "locales Discord does not have: ['xx']",
                 "26 options", "choice 'v': name (default) of 0"):
        assert part in problems


def test_without_the_specification_the_tests_say_why(tmp_path: Path) -> None:
    """Unset or pointing nowhere: skipped with one line; under CI with the file beside the repository, a
    failure."""
    beside = tmp_path / "openapi.json"
    assert ds.spec_path({}, beside) is None and ds.VARIABLE in ds.skip_reason({})
    assert ds.spec_path({ds.VARIABLE: str(tmp_path / "none.json")}, beside) is None
    assert "none.json" in ds.skip_reason({ds.VARIABLE: str(tmp_path / "none.json")})
    assert ds.spec_path({"CI": "true"}, beside) is None  # CI without the file: nothing to run
    beside.write_text("{}", encoding="utf-8")
    assert ds.spec_path({ds.VARIABLE: str(beside)}, beside) == beside
    with pytest.raises(pytest.fail.Exception, match=ds.VARIABLE):
        ds.spec_path({"CI": "true"}, beside)


def test_no_description_is_cut_to_fit() -> None:
    """Descriptions are cut at Discord's 100 characters where they are registered; none may need it (a cut
    one ends mid-word), in English or German, with the games that read a shared option named."""
    translator = JunkyardTranslator()
    assert translator.words, "no language but English is worded"
    for lang, words in translator.words.items():
        for path, (_, description) in words.items():
            full = f"{description} ({translator.offered[path]})" if path in translator.offered else description
            assert len(full) <= ds.MAX_DESCRIPTION, (lang, path, full)
    for offered in (new_options(), join_options()):
        for name, offers in offered.items():
            for _, option in offers:
                assert len(f"{option.description} ({offered_by(offers)})") <= ds.MAX_DESCRIPTION, name
    for unit in units():
        group = unit.commands
        if group is None:
            continue
        assert len(group.description) <= ds.MAX_DESCRIPTION, unit.key
        for command in group.commands:
            assert len(command.description) <= ds.MAX_DESCRIPTION, (unit.key, command.name)
            for option in command.options:
                assert len(option.description) <= ds.MAX_DESCRIPTION, (unit.key, command.name, option.name)


class EnforcingDiscord:
    """Discord's side of `junkyard sync` as a Discord that enforces its specification: the login and the
    application's record, then the bulk registration, refused whole (400, code 50035) when any command breaks
    the specification or a documented limit, as Discord refuses it."""

    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self.registered: list[dict[str, Any]] = []
        self.refused: list[str] = []

    async def request(self, route: Any, **kwargs: Any) -> Any:
        app = {"id": "1300000000000000001", "name": "Junkyard GM", "icon": None, "description": "",
               "bot_public": True, "bot_require_code_grant": False, "verify_key": "0" * 64, "flags": 0,
               "owner": {"id": "1300000000000000002", "username": "owner", "discriminator": "0", "avatar": None}}
        if (route.method, route.path) == ("GET", "/users/@me"):
            return {"id": app["id"], "username": "Junkyard GM", "discriminator": "0", "avatar": None, "bot": True}
        if (route.method, route.path) == ("GET", "/oauth2/applications/@me"):
            return app
        assert (route.method, route.path) == ROUTE, route.path
        body = kwargs["json"]
        pointer = self.spec.request_schema(*ROUTE)
        assert pointer is not None
        locales = self.spec.locales()
        self.refused = self.spec.errors(pointer, body) + [
            problem for command in body for problem in ds.documented_limits(command, locales)]
        if self.refused:
            import discord

            raise discord.HTTPException(_Refusal(), {"code": 50035, "message": "Invalid Form Body"})
        self.registered = [{**c, "id": str(1400000000000000000 + i), "application_id": app["id"], "version": "1"}
                           for i, c in enumerate(body)]
        return self.registered


class _Refusal:
    status = 400
    reason = "Bad Request"


def test_junkyard_sync_registers_every_command_with_a_discord_that_enforces_the_specification(
        discord_spec: Spec, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import discord

    from bot.cli import main

    server = EnforcingDiscord(discord_spec)
    monkeypatch.setattr(discord.http.HTTPClient, "request", lambda _self, route, **kw: server.request(route, **kw))
    monkeypatch.setenv("DISCORD_TOKEN", "a-token")
    code = main(["sync"])
    out, err = capsys.readouterr()
    assert (code, server.refused) == (0, []), err
    names = sorted(c["name"] for c in server.registered)
    assert names == sorted(c.name for c in make_bot(Path("unused.db")).tree.get_commands())
    assert f"registered {len(names)} commands" in out


def test_junkyard_sync_says_in_one_line_when_discord_refuses_the_commands(
        discord_spec: Spec, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A registration Discord refuses (here: a bound past 2^53 − 1, as `/stats season` once had) is one line
    and exit code 1, with nothing registered."""
    import discord

    from bot.cli import main
    from bot.discord.history_commands import stats_command

    server = EnforcingDiscord(discord_spec)
    monkeypatch.setattr(discord.http.HTTPClient, "request", lambda _self, route, **kw: server.request(route, **kw))
    monkeypatch.setenv("DISCORD_TOKEN", "a-token")
    monkeypatch.setattr(stats_command._params["season"], "max_value", 2**53)
    code = main(["sync"])
    out, err = capsys.readouterr()
    assert code == 1 and server.refused and not server.registered and out == ""
    assert len(err.strip().splitlines()) == 1 and "code 50035" in err and "Traceback" not in err
