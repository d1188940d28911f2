"""Every front reads the turn's account (DESIGN "One account of a turn"): the chat's narration of a move or of a
computer's batch, the terminal's message text and the web page's captions tell each move as the picture's
description does, by the piece's real start and end, in English and in German.

A game of each kind is played by its computer players. (a) For every move, the web page's caption
(:func:`bot.web.page.narration`, from the narration the log keeps and worded again in the other language) names,
for every piece that moved, the start and the end of that move's account in one sentence. (b) For every message
(a run of moves by one seat, told as the composer words a computer's lines from the record), the chat's lines and
the picture's description each name every move of the message's account by its start and end.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache
from types import SimpleNamespace
from typing import Any

import pytest

from bot.drivers import driver_for
from bot.games import unit_for
from bot.games.piecepack import account as piecepack_account
from bot.games.races import account as races_account
from bot.games.rally import account as rally_account
from bot.games.rally.described import place_words
from bot.messages import Line
from bot.play.moving import move_line
from bot.telling.compose import BATCHED, worded_lines
from bot.web.page import narration
from bot.web.timeline import Step
from rules.contract import Event, Game, events_for

NAMES = ["Ann", "Bob", "Cy", "Dee"]
SETUPS: dict[str, dict[str, Any]] = {
    "races": {"seats": [{"name": n, "options": {}} for n in NAMES], "options": {"track": "A", "laps": 3}},
    "rally": {"seats": NAMES, "options": {}},
    "piecepack": {"seats": [{"name": n} for n in NAMES], "options": {}},
}
#: a game's moves, as (start, end) each: the account's moves of the public events of one move or several
Moves = Callable[[Sequence[Sequence[Event]]], list[tuple[str | None, str]]]


def races_moves(moves: Sequence[Sequence[Event]]) -> list[tuple[str | None, str]]:
    return [(t.start, t.end) for t in races_account.of_moves(moves).moves if t.end is not None]


def rally_moves(moves: Sequence[Sequence[Event]]) -> list[tuple[str | None, str]]:
    return [(t.start, t.parked or t.end) for t in rally_account.of_moves(moves).moves if t.end is not None]


def piecepack_moves(moves: Sequence[Sequence[Event]]) -> list[tuple[str | None, str]]:
    return [(t.start, t.end) for t in piecepack_account.of_moves(moves).moves if t.end is not None]


MOVES: dict[str, Moves] = {"races": races_moves, "rally": rally_moves, "piecepack": piecepack_moves}


def words(key: str, place: str, lang: str) -> str:
    """A place as the game's sentences name it (Rally words its spots and the pit lane)."""
    return place_words(place, lang, bare=True) if key == "rally" else place


def sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!…])\s+", text.replace("\n", " ")) if s]


def names(sentence: str, place: str) -> bool:
    """Whether ``sentence`` names ``place`` as a whole (``I10`` is not ``I1``, ``30b`` not ``130b``)."""
    return re.search(rf"(?<![\w.]){re.escape(place)}(?!\w)", sentence) is not None


def told(key: str, text: str, start: str | None, end: str, lang: str) -> bool:
    """Whether one sentence of ``text`` names the move by its start (when known) and end."""
    want = [words(key, p, lang) for p in (start, end) if p is not None]
    return any(all(names(s, w) for w in want) for s in sentences(text))


@cache
def played(key: str, seed: int) -> tuple[tuple[Game, int, str, tuple[Event, ...]], ...]:
    """A game of ``key`` played by its computer players: after each move, the game, the seat that moved, the
    action and the move's public events."""
    unit = unit_for(key)
    game = unit.rules.create(SETUPS[key], seed)
    drivers = {s: driver_for(key, "smart", seed + s) for s in range(len(NAMES))}
    out = []
    while not game.is_over and len(out) < 4000:
        seat = game.to_act
        assert seat is not None
        action = drivers[seat].choose(game, seat)
        events = tuple(events_for(game.apply(action), None))
        out.append((type(game).from_dict(game.to_dict()), seat, action, events))
    return tuple(out)


GAMES = [("races", 3), ("rally", 2), ("piecepack", 3)]


@pytest.mark.parametrize(("key", "seed"), GAMES)
@pytest.mark.parametrize("lang", ["en", "de"])
def test_each_moves_caption_on_the_page_names_the_accounts_start_and_end(key: str, seed: int, lang: str) -> None:
    """The page's caption of every move (the log kept the game's English narration; a German reader's is worded
    again from the move's events) names each piece's move by the start and end its account gives."""
    front = unit_for(key)
    rec: Any = SimpleNamespace(lang="en", seats=[SimpleNamespace(user_id=i + 1, name=n) for i, n in enumerate(NAMES)])
    checked = 0
    for game, seat, action, events in played(key, seed):
        moves = MOVES[key]([events])
        if not moves:
            continue
        _line, kept = move_line(front, events, NAMES[seat], action, False, rec.lang)
        caption = narration(Step("fp", game.view(None), events, kept, seat), front, rec, lang)
        if caption.endswith("…"):  # a caption cut short by the page keeps its first moves only
            continue
        for start, end in moves:
            assert told(key, caption, start, end, lang), (key, lang, start, end, caption)
            checked += 1
    assert checked > 20


def messages(key: str, seed: int) -> list[tuple[Game, list[tuple[Event, ...]]]]:
    """The game's moves as the messages of its turns: each run of moves by one seat, and the game after it."""
    out: list[tuple[Game, list[tuple[Event, ...]]]] = []
    last = None
    for game, seat, _action, events in played(key, seed):
        if seat != last:
            out.append((game, []))
            last = seat
        out[-1] = (game, [*out[-1][1], events])
    return out


@pytest.mark.parametrize(("key", "seed"), GAMES)
@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_messages_chat_tells_the_moves_its_description_tells(key: str, seed: int, lang: str) -> None:
    """Every message of a computer's turn: its chat lines (as the composer words them from the record) and its
    picture's description both tell each move of the message's account by its start and end."""
    front = unit_for(key)
    checked = 0
    for game, moves in messages(key, seed):
        account = MOVES[key](moves)
        if not account:
            continue
        lines = [Line.from_json(Line(say=BATCHED, params={"name": "Bot", "action": "go"}, events=m).to_json())
                 for m in moves]
        chat = "\n".join(worded_lines(lines, front, lang, moves))
        description = front.alt_text(game, [e for m in moves for e in m], lang=lang)
        for start, end in account:
            assert told(key, description, start, end, lang), (key, lang, start, end, description)
            assert told(key, chat, start, end, lang), (key, lang, start, end, chat, description)
            checked += 1
    assert checked > 20
