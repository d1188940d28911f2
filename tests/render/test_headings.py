"""The headings of every game's pictures: who moved and who is next, turns counted in rounds, the winner by
name, and no name ever cut, for the longest names Discord allows (32 characters) in English and German.

Every word a picture draws goes through :func:`render.common.draw_text`, which
:func:`render.common.recording_text` listens to: a text is "cut" when it ends in an ellipsis or runs off the
image it is drawn on (a panel drawn apart and pasted is its own image).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import _lru_cache_wrapper
from typing import Any

import pytest

from bot.drivers.races import RacingDriver
from render import piecepack
from render.common import DrawnText, recording_text
from render.races import card, chat, key, live, replay
from render.races.card import kart_card_png
from render.races.chat import board_chat_png, chat_png
from render.races.heading import round_number
from render.races.replay import replay_gif
from render.races.words import say
from rules.contract import public_views
from rules.piecepack import PiecepackGame
from rules.races.engine import Races

LONG = "Wolfgang Amadeus Mozartkugelmann"  # 32 characters, the longest display name Discord allows
WIDE = "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW"  # 32 of the widest letter
NAMES = [LONG, WIDE]


def _clear() -> None:
    """Panels and strips are cached by their content; a recording must draw them again."""
    for module in (card, chat, key, live, replay, piecepack):
        for value in vars(module).values():
            if isinstance(value, _lru_cache_wrapper):
                value.cache_clear()


def drawn(draw: Callable[[], Any]) -> list[DrawnText]:
    _clear()
    with recording_text() as texts:
        draw()
    return texts


def shows_whole(texts: list[DrawnText], name: str) -> bool:
    """Whether ``name`` is drawn in full: in one text, or over lines that follow each other."""
    words = [t.text for t in texts]
    return any(name in joined for joined in (" ".join(words), "".join(words)))


def assert_nothing_cut(texts: list[DrawnText]) -> None:
    assert not [t.text for t in texts if "…" in t.text]
    assert not [t for t in texts if not t.inside]


def race(names: list[str], seed: int = 11, actions: int = 0, laps: int = 1) -> Races:
    """A seeded race of smart drivers after ``actions`` actions (or to its end: 0)."""
    game = Races.create({"seats": [{"name": n} for n in names], "options": {"track": "A", "laps": laps}}, seed)
    drivers = [RacingDriver(i) for i in range(len(names))]
    done = 0
    while not game.is_over and (actions == 0 or done < actions):
        seat = game.to_act
        assert seat is not None
        game.apply(drivers[seat].choose(game, seat))
        done += 1
    return game


def after_a_turn(names: list[str]) -> Races:
    """The first moment the turn drawn (the last one, with its path) is another kart's than the one to act."""
    game = race(names, actions=1)
    drivers = [RacingDriver(i) for i in range(len(names))]
    for _ in range(200):
        view = game.view(None)
        last = view.get("last_turn") or {}
        if last.get("path") and not view["turn"].get("path") and last["seat"] != view["turn"]["seat"]:
            return game
        seat = game.to_act
        assert seat is not None
        game.apply(drivers[seat].choose(game, seat))
    raise AssertionError("no turn ended")


# Junkyard Races -------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_races_headings_name_who_moved_and_who_is_next(lang: str) -> None:
    game = after_a_turn(["Ann", "Bob", "Cy"])
    view = game.view(None)
    mover = view["karts"][view["last_turn"]["seat"]]["name"]
    nxt = view["karts"][view["turn"]["seat"]]["name"]
    moved = say("strip.moved", lang, name=mover, number=round_number(view, view["last_turn"]["number"]))
    for picture in (lambda: chat_png(view, lang=lang), lambda: board_chat_png(view, lang=lang),
                    lambda: replay_gif([view], lang=lang)):
        texts = [t.text for t in drawn(picture)]
        assert moved in texts
        assert any(nxt in t and t != moved for t in texts)
    strip = [t.text for t in drawn(lambda: chat_png(view, lang=lang))]
    assert any(t.startswith(say("strip.next", lang, name=nxt, number=1, phase="x").split(nxt)[0]) for t in strip)


def test_turns_are_counted_in_rounds() -> None:
    """Four karts: the fifth turn of the race is the first of round 2, and every picture says "turn 2"."""
    game = race(["Ann", "Bob", "Cy", "Di"], actions=1)
    drivers = [RacingDriver(i) for i in range(4)]
    while game.turn.number < 5:
        seat = game.to_act
        assert seat is not None
        game.apply(drivers[seat].choose(game, seat))
    view = game.view(None)
    assert round_number(view) == 2
    name = view["karts"][view["turn"]["seat"]]["name"]
    for picture in (lambda: chat_png(view), lambda: board_chat_png(view), lambda: replay_gif([view])):
        texts = " ".join(t.text for t in drawn(picture))
        assert "turn 2" in texts and "turn 5" not in texts, texts
        assert name in texts


def test_the_final_banner_names_the_winner() -> None:
    game = race(["Ann", "Bob", "Cy"])
    assert game.is_over
    view = game.view(None)
    winner = view["karts"][view["winners"][0]]["name"]
    for picture in (lambda: chat_png(view), lambda: replay_gif([view])):
        texts = " ".join(t.text for t in drawn(picture))
        assert winner in texts and "#" not in texts


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("name", NAMES)
def test_no_races_picture_cuts_a_long_name(lang: str, name: str) -> None:
    names = [name, name[:-1] + "2", name[:-1] + "3"]
    game = after_a_turn(names)
    view = game.view(None)
    over = race(names).view(None)
    views = public_views(Races.create({"seats": [{"name": n} for n in names], "options": {"track": "A"}}, 11), [])
    pictures: dict[str, tuple[Callable[[], Any], list[str]]] = {
        "close-up": (lambda: chat_png(view, lang=lang), [names[view["last_turn"]["seat"]],
                                                        names[view["turn"]["seat"]]]),
        "whole board": (lambda: board_chat_png(view, lang=lang), names),
        "replay": (lambda: replay_gif([*views, view], lang=lang), [names[view["turn"]["seat"]]]),
        "end": (lambda: chat_png(over, lang=lang), [names[s] for s in over["winners"]]),
        "end board": (lambda: board_chat_png(over, lang=lang), names),
        "card": (lambda: kart_card_png(game.view(0), 0, lang), [names[0]]),
    }
    for what, (picture, shown) in pictures.items():
        texts = drawn(picture)
        assert_nothing_cut(texts)
        for n in shown:
            assert shows_whole(texts, n), (what, n)


# Junkyard for a piecepack -----------------------------------------------------------------------------


def moved_piecepack(names: list[str]) -> PiecepackGame:
    g = PiecepackGame.from_position({
        "players": names,
        "pawns": {"Suns": "b2", "Moons": "c4", "Crowns": "e5", "Arms": "d1"},
        "trash": {"Suns": ["SA", "SB", "SC", "MA"], "Moons": ["MB", "CA"], "Crowns": [],
                  "Arms": ["AA", "AB", "AC", "MC", "CB", "CC"]},
        "phase": "move", "roll": 3,
    })
    g.apply("move b2-b3-a3-a4")
    return g


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_piecepack_heading_names_who_moved_and_who_is_next(lang: str) -> None:
    from rules.piecepack.texts import say as pp_say

    view = moved_piecepack(["Ann", "Bob", "Cy", "Di"]).view(None)
    texts = [t.text for t in drawn(lambda: piecepack.piecepack_png(view, lang=lang))]
    assert pp_say("picture.moved", lang, name="Ann", frm="b2", to="a4") in texts
    assert any("Bob" in t and t.startswith(pp_say("picture.next", lang, what="")) for t in texts)


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("name", NAMES)
def test_no_piecepack_picture_cuts_a_long_name(lang: str, name: str) -> None:
    names = [name[:-1] + str(i) for i in range(4)]
    view = moved_piecepack(names).view(None)
    texts = drawn(lambda: piecepack.piecepack_png(view, lang=lang))
    assert_nothing_cut(texts)
    for n in names:
        assert shows_whole(texts, n), n


def test_a_pawn_carrying_six_pieces_of_trash_shows_six() -> None:
    """The Arms pawn on d1 carries six pyramids: all six letters are drawn on its square, inside it."""
    view = moved_piecepack(["Ann", "Bob", "Cy", "Di"]).view(None)
    lay = piecepack.Layout(piecepack.DEFAULT_TILE)
    x, y = lay.origin("d1")
    t = lay.tile
    texts = drawn(lambda: piecepack.piecepack_png(view))
    on_square = [d for d in texts if x <= d.box[0] and d.box[2] <= x + t and y <= d.box[1] and d.box[3] <= y + t
                 and d.text in ("A", "B", "C")]
    assert sorted(d.text for d in on_square) == sorted(p[1] for p in view["seats"][3]["trash"])
    size, places = piecepack.stack_places(lay, "d1", 6)
    assert size >= lay.tile * 0.12  # small, but each letter still reads
    assert len(places) == 6 and len({(round(px), round(py)) for px, py in places}) == 6
