"""Every request a whole game makes, judged by Discord's OpenAPI specification: a short race of each game
(Junkyard Races with six seats, Schrottplatz Rally, Junkyard for a piecepack) played through the real
discord.py stack offline, by two people (buttons where the board offers the move, else ``/game play``) and
computers, with the commands around a game (status, board, log, undo, a look at one's hidden things, the
rules, refusals, "Where can I go?", a turn's notice by direct message, a reminder and the autopilot at the
turn limit, the end's standings and replay, history, stats, seasons), in English and in German. Each recorded
body (channel messages and their edits, interaction callbacks, follow-ups and edits of the original
response, a multipart request's ``payload_json``) must be what its route's request schema allows."""

from __future__ import annotations

import io
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.drivers import driver_for
from bot.games import unit_for, units
from bot.games.unit import REACH_ACTION
from tests.bot import discord_spec as ds
from tests.bot.discord_spec import Spec
from tests.bot.harness import CHANNEL_ID, DiscordHarness, Sent
from tests.bot.helpers import ANN, BOB, EVE, USERS, public
from tests.bot.timing_helpers import Clock, later, timed_bot

MANAGE_GUILD = (1 << 5) | (1 << 10) | (1 << 11) | (1 << 31)


@dataclass(frozen=True)
class Table:
    """How a short game of one kind is set up: its options, the people's seat options, how many computers,
    the command that shows a player their hidden things."""

    new: dict[str, Any]
    joins: tuple[dict[str, Any], dict[str, Any]]
    computers: int
    look: str | None
    wrong: tuple[str, ...] = ()


TABLES = {
    "races": Table({"track": "A", "laps": 1}, ({"colour": "red"}, {"colour": "blue"}), 4, "race hand",
                   ("buy mud-tyres", "roll 3")),
    "rally": Table({"laps": 1}, ({}, {}), 1, "rally board", ("repair", "move 1a")),
    "piecepack": Table({}, ({}, {}), 1, None, ("move c3", "move a1")),
}
LANGS = {"en": "en-US", "de": "de"}


@pytest.fixture(autouse=True)
def quick_replays(monkeypatch: pytest.MonkeyPatch) -> None:
    """A replay is one small frame here: drawing whole animations (tested in tests/bot/test_history.py and
    the games' own tests) took most of the time, and their bytes change nothing of the requests that carry
    them."""
    frame = io.BytesIO()
    Image.new("RGB", (8, 8), "white").save(frame, format="GIF")
    for unit in units():
        if unit.has_replay:
            monkeypatch.setattr(type(unit), "replay", lambda self, *args, **kwargs: (frame.getvalue(), 1))


def route_of(sent: Sent) -> str:
    """The request's method and route with its parameters unnamed (``POST /channels/{}/messages``)."""
    return f"{sent.method} {re.sub(r'{[^}]*}', '{}', sent.path)}"


class Play:
    """A game being played through the harness on a clock the test moves: its state, its buttons."""

    def __init__(self, h: DiscordHarness, clock: Clock) -> None:
        self.h, self.clock = h, clock

    async def current(self) -> tuple[Any, Any]:
        rec, game, _ = await self.h.bot.service.current(CHANNEL_ID)  # type: ignore[attr-defined]
        return rec, game

    def button_for(self, version: int, wanted: str) -> tuple[Sent, str] | None:
        """The newest message showing a button for ``wanted`` at move ``version``, and its custom_id."""
        for sent in reversed(self.h.sent):
            if sent.message is None or sent.ephemeral or sent.dm:
                continue
            for cid in sent.custom_ids:
                parts = cid.split(":", 3)
                if len(parts) == 4 and parts[0] == "jy" and parts[2] == str(version) and parts[3] == wanted:
                    return sent, cid
        return None

    async def tick(self, hours: float = 0.0) -> list[Sent]:
        """Let the ticker fire what is due ``hours`` from now (notices, reminders, the autopilot)."""
        return await later(self.h, self.clock, hours)


async def around_a_turn(h: DiscordHarness, table: Table, t: Play, mover: int, other: int) -> None:
    """The commands a player uses around a turn, the refusals among them."""
    rec, game = await t.current()
    await h.slash(mover, "game status")
    await h.slash(other, "game status")
    await h.slash(mover, "game board")
    await h.slash(mover, "game board", private=True, text=True)
    await h.slash(mover, "game log", moves=5)
    await h.slash(mover, "game play", action="fly away")
    await h.slash(other, "game play", action=str(game.legal_actions()[0]))
    for action in table.wrong:
        if action not in {str(a) for a in game.legal_actions()}:
            await h.slash(mover, "game play", action=action)
    await h.autocomplete(mover, "game play", "action", action="")
    if table.look:
        await h.slash(mover, table.look)
        await h.slash(EVE, table.look)
    await h.slash(mover, "game recap", replay=mover == BOB)
    await h.slash(mover, "game undo")
    await h.slash(mover, "game link")
    await h.slash(EVE, "game join")
    reach = t.button_for(rec.version, REACH_ACTION)
    if reach is not None:
        await h.press_custom_id(mover, reach[0].message or {}, reach[1])


async def play_a_game(h: DiscordHarness, key: str, lang: str, clock: Clock) -> None:
    """Ann and Bob (and computers) play a short game of ``key`` to its end on a server speaking ``lang``."""
    table, t = TABLES[key], Play(h, clock)
    h.guild_locale = LANGS[lang]
    h.locales.update({ANN: LANGS[lang], BOB: LANGS[lang], EVE: LANGS[lang]})
    await h.slash(ANN, "game new", game=key, **table.new)
    await h.slash(ANN, "game join", **table.joins[0])
    await h.slash(BOB, "game join", **table.joins[1])
    await h.autocomplete(ANN, "game computer", "kind")
    for _ in range(table.computers):
        await h.slash(ANN, "game computer", kind="smart")
    await h.slash(ANN, "game settings", reminder=1, turn_limit=3, on_timeout="autopilot")
    await h.slash(BOB, "game notify", mode="dm")
    await h.slash(BOB, "game start")  # not the host: refused
    await h.slash(ANN, "game start")
    drivers = {user: driver_for(key, "smart", seed) for seed, user in enumerate((ANN, BOB), start=7)}
    looked: set[int] = set()
    timed_out = False
    for _ in range(3000):
        await t.tick()
        rec, game = await t.current()
        if game is None or game.is_over:
            break
        seat = game.to_act
        mover = rec.seats[seat].user_id
        assert mover in drivers, f"{key}: a computer's turn was left waiting"
        other = BOB if mover == ANN else ANN
        if mover not in looked and game.ply >= 2:
            looked.add(mover)
            await around_a_turn(h, table, t, mover, other)
            rec, game = await t.current()
        if mover == BOB and not timed_out and game.ply >= 4:
            timed_out = True
            await t.tick(1.5)  # a reminder by direct message
            await t.tick(2.0)  # the turn limit: the autopilot plays Bob's turn
            continue
        action = str(drivers[mover].choose(game, seat))
        button = t.button_for(rec.version, action)
        if button is not None:
            await h.press_custom_id(mover, button[0].message or {}, button[1])
        else:
            await h.slash(mover, "game play", action=action)
    else:
        raise AssertionError(f"{key}: the game did not end")
    assert timed_out, f"{key}: Bob never had a turn late enough to time out"
    h.bot.outbox.clock = lambda: clock() + 60  # type: ignore[attr-defined]  # the standings follow, on its clock
    await h.bot.outbox.flush()  # type: ignore[attr-defined]
    await h.slash(ANN, "game history")
    await h.slash(BOB, "game replay", game="1")
    await h.autocomplete(BOB, "game replay", "game")
    await h.slash(ANN, "game mine")
    await h.slash(BOB, "stats")
    await h.slash(BOB, "stats", player=ANN)
    await h.slash(ANN, "season", action="list")
    await h.slash(ANN, "season", action="start", name="Spring", permissions=MANAGE_GUILD)
    topics = await h.autocomplete(ANN, "rules", "topic", topic="")
    if topics:
        answer = await h.slash(ANN, "rules", topic=topics[0]["value"], game=key)
        buttons = [(s, cid) for s in answer for cid in s.custom_ids]
        if buttons:
            await h.press_custom_id(ANN, buttons[0][0].message or {}, buttons[0][1])


def judged(spec: Spec, sent: list[Sent]) -> tuple[list[str], set[str]]:
    """Every request's problems, and what was seen: each route, each with files (``… with files``), each
    interaction callback's type."""
    problems: list[str] = []
    seen: set[str] = set()
    for s in sent:
        seen.add(route_of(s))
        if s.parts:
            seen.add(f"{route_of(s)} with files")
        if s.kind == "callback":
            seen.add(f"callback {s.response_type}")
        problems += ds.request_problems(spec, s.method, s.path, s.payload, s.parts)
    return problems, seen


#: what a whole game must have sent, so the check judged every kind of request the bot makes: interaction
#: callbacks (deferrals of commands and presses, autocomplete), edits of the original response and
#: follow-ups (with pictures), channel posts (with pictures) and edits, a direct-message channel opened
EXPECTED = {
    "POST /interactions/{}/{}/callback", "callback 5", "callback 6", "callback 8",
    "PATCH /webhooks/{}/{}/messages/@original", "PATCH /webhooks/{}/{}/messages/@original with files",
    "POST /webhooks/{}/{}", "POST /webhooks/{}/{} with files", "POST /channels/{}/messages",
    "POST /channels/{}/messages with files", "PATCH /channels/{}/messages/{} with files", "POST /users/@me/channels",
}


@pytest.mark.parametrize("lang", sorted(LANGS))
@pytest.mark.parametrize("key", sorted(TABLES))
async def test_every_request_of_a_whole_game_is_what_the_specification_allows(
        tmp_path: Path, discord_spec: Spec, key: str, lang: str) -> None:
    clock = Clock(time.time())
    async with DiscordHarness(timed_bot(tmp_path / "spec.db", clock)) as h:
        h.users.update(USERS)
        await play_a_game(h, key, lang, clock)
        sent = list(h.sent)
    gifs = [name for s in sent if s.kind == "channel" for name, _ in s.files if name.endswith(".gif")]
    assert gifs or not unit_for(key).has_replay, "the end's standings came with the replay"
    problems, seen = judged(discord_spec, sent)
    assert problems == [], f"{len(problems)} problems, the first: " + "\n".join(problems[:15])
    assert sorted(EXPECTED - seen) == [], sorted(seen)
    assert any(s.kind == "channel" and s.dm for s in sent), "Bob's turn notice by direct message"
    assert len(public(sent)) > 10


def test_a_wrong_payload_is_named(discord_spec: Spec) -> None:
    """The check itself: a button without a custom_id, an embed title over 256 characters, a file part the
    payload does not describe, a body on a route that takes none."""
    row = {"type": 1, "components": [{"type": 2, "style": 1, "label": "R" * 81, "custom_id": "jy:races:1:roll"}]}
    problems = ds.request_problems(discord_spec, "POST", "/channels/{channel_id}/messages",
                                   {"content": "x", "components": [row], "embeds": [{"title": "t" * 300}]},
                                   ["payload_json", "files[0]"])
    text = "\n".join(problems)
    assert "components/0" in text and "embeds/0/title" in text and "files[0] has no attachment" in text, text
    fine = {"content": "x", "attachments": [{"id": "0", "filename": "board.png", "description": "The board"}]}
    assert ds.request_problems(discord_spec, "POST", "/channels/{channel_id}/messages", fine,
                               ["payload_json", "files[0]"]) == []
    assert ds.request_problems(discord_spec, "GET", "/users/{user_id}", {"x": 1}, []) != []
    assert ds.request_problems(discord_spec, "GET", "/users/{user_id}", {}, []) == []
