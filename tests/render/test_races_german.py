"""The Junkyard Races pictures in German: the same picture as in English but for its words.

Every text a picture draws goes through ``draw_text``; these tests record those calls while drawing the
busy sample position (render/races/samples.py) in both languages. A German picture draws the same texts
at the same places as the English one, none of them an English label, none shortened to fit; and each
picture catalogue entry has its German text with the English one's placeholders.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from functools import _lru_cache_wrapper
from typing import Any

import pytest
from PIL import Image

from bot.games.races.unit import GAME
from render.common import recording_text
from render.races import board, card, chat, key, legend, live, replay
from render.races.card import kart_card_png
from render.races.chat import board_chat_png, chat_png, reach_png
from render.races.live import board_png
from render.races.replay import replay_gif
from render.races.samples import busy_game
from render.races.words import CATALOGUE, kind_name, part_name, question
from rules.catalogue import placeholders
from rules.contract import public_views
from rules.races.engine import Races
from rules.races.reach import reach
from rules.races.track import get_track

MODULES = (board, card, chat, key, legend, live, replay)
Call = tuple[tuple[float, float], str]


def _clear_caches() -> None:
    """Panels and strips are cached by their content; a recording must draw them again."""
    for module in MODULES:
        for value in vars(module).values():
            if isinstance(value, _lru_cache_wrapper):
                value.cache_clear()
    board._CACHE.clear()
    chat._BASES.clear()
    live._KITS.clear()


@pytest.fixture
def record() -> Iterator[Callable[[Callable[[], Any]], list[Call]]]:
    """``record(draw)``: the (position, text) of every text drawn while ``draw()`` runs."""

    def run(draw: Callable[[], Any], but_the_key: bool = False) -> list[Call]:
        """With ``but_the_key``, leave out the texts of the whole board's key, which wraps its names as each
        language needs."""
        _clear_caches()
        with recording_text() as drawn:
            draw()
        keys = {t.image for t in drawn if t.text in KEY_FIRST} if but_the_key else set()
        return [((round(t.at[0], 1), round(t.at[1], 1)), t.text) for t in drawn if t.image not in keys]

    yield run
    _clear_caches()


SETUP = {"seats": [{"name": "Ann"}, {"name": "Bob"}], "options": {"track": "A"}}
PICTURES = ("close-up", "whole board", "live board", "reach", "own card", "public card", "replay", "track and legend")


def _first_moves(n: int) -> list[str]:
    """The first ``n`` actions of a race, each the first legal one."""
    game, log = Races.create(SETUP, 3), []
    for _ in range(n):
        log.append(str(game.legal_actions()[0]))
        game.apply(log[-1])
    return log


def _pictures(lang: str) -> dict[str, Callable[[], Any]]:
    game = busy_game("A")
    public = game.view(None)
    found = reach(game)
    views = public_views(Races.create(SETUP, 3), _first_moves(6))
    return {
        "close-up": lambda: chat_png(public, lang=lang),
        "whole board": lambda: board_chat_png(public, lang=lang),
        "live board": lambda: board_png(public, lang=lang),
        "reach": lambda: reach_png(game.view(game.to_act), found, lang),
        "own card": lambda: kart_card_png(game.view(0), 0, lang),
        "public card": lambda: kart_card_png(public, 4, lang),
        "replay": lambda: replay_gif(views, lang=lang),
        "track and legend": lambda: board.track_png(get_track("B"), lang=lang),
    }


#: the first name of the whole board's key in each language (it tells the key's texts from the others)
KEY_FIRST = {live.say("legend.tarmac", lang) for lang in ("en", "de")}


def _english_only() -> set[str]:
    """The English texts of the pictures' catalogue that German says otherwise."""
    english, german = CATALOGUE.entries("en"), CATALOGUE.entries("de")
    return {en for msg, forms in english.items() for en, de in zip(forms, german[msg], strict=True) if en != de}


@pytest.mark.parametrize("picture", [p for p in PICTURES if p != "track and legend"])
def test_a_german_picture_has_the_english_ones_texts_on_the_same_lines(record: Any, picture: str) -> None:
    """Same texts on the same lines, some of them different (a line's later items move with the length of
    the words before; the legend wraps its notes as each language needs)."""
    english = record(_pictures("en")[picture], picture == "whole board")
    german = record(_pictures("de")[picture], picture == "whole board")
    assert [xy[1] for xy, _ in german] == [xy[1] for xy, _ in english]
    assert sum(a != b for (_, a), (_, b) in zip(english, german, strict=True)) > 0


@pytest.mark.parametrize("picture", PICTURES)
def test_a_german_picture_has_no_english_label(record: Any, picture: str) -> None:
    words = _english_only()
    english_labels = [text for _, text in record(_pictures("de")[picture]) if text in words]
    assert not english_labels, f"English words on the German {picture}: {english_labels}"


@pytest.mark.parametrize("picture", PICTURES)
def test_german_words_fit_without_being_shortened(record: Any, picture: str) -> None:
    """Longer German words still fit their places on the busy sample: nothing ends in an ellipsis."""
    shortened = [text for _, text in record(_pictures("de")[picture]) if text.endswith("…")]
    assert not shortened


def test_the_english_pictures_draw_the_english_words(record: Any) -> None:
    texts = [text for _, text in record(_pictures("en")["whole board"])]
    assert "turn 1 · Phase 5: move" in texts and "junk tile" in texts and "Time Bomb" in texts
    texts = [text for _, text in record(_pictures("de")["whole board"])]
    assert "Zug 1 · Phase 5: Fahren" in texts and "Schrott" in texts and "Zeitbombe" in texts


def test_the_card_names_parts_and_tiles_as_the_rules_do_a_long_list_on_two_lines(record: Any) -> None:
    game = busy_game("A")
    english = [text for _, text in record(lambda: kart_card_png(game.view(4), 4, "en"))]
    german = [text for _, text in record(lambda: kart_card_png(game.view(4), 4, "de"))]
    assert "Time Bomb, Turbo Fuel, Jet Fuel" in english
    assert part_name("battering-ram", "de") == "Rammbock" and "Rammbock" in german
    assert kind_name("time-bomb", "de") == "Zeitbombe"
    assert [t for t in german if "Treibstoff" in t] == ["Zeitbombe, Turbo-Treibstoff,", "Jet-Treibstoff"]
    assert "Kartkarte" in german and "3 von 5 Plättchen" in german
    assert not [t for t in german if t.endswith("…")]


def test_the_units_picture_hooks_pass_the_language_on() -> None:
    game = busy_game("B")
    public = game.view(None)
    mover = game.to_act
    assert mover is not None
    for hook in (lambda lang: GAME.picture(public, [], lang), lambda lang: GAME.board_picture(public, lang),
                 lambda lang: GAME.card_picture(game.view(0), 0, lang),
                 lambda lang: getattr(GAME.reach_picture(game, mover, lang), "png", None)):
        english, german = hook("en"), hook("de")
        assert english is not None and german is not None
        assert english != german
        a, b = Image.open(io.BytesIO(english)), Image.open(io.BytesIO(german))
        assert a.size == b.size
    log = _first_moves(4)
    german_gif, english_gif = GAME.replay(SETUP, 3, log, lang="de"), GAME.replay(SETUP, 3, log)
    assert german_gif is not None and english_gif is not None
    assert german_gif[1] == english_gif[1] and german_gif[0] != english_gif[0]


def test_every_picture_text_has_german_with_the_same_placeholders() -> None:
    english, german = CATALOGUE.entries("en"), CATALOGUE.entries("de")
    assert set(german) == set(english)
    for msg, forms in english.items():
        assert all(german[msg]), f"{msg} has no German text"
        assert len(german[msg]) == len(forms), msg
        for en, de in zip(forms, german[msg], strict=True):
            assert placeholders(de) == placeholders(en), msg


def test_a_team_is_named_by_the_number_its_players_joined_with(record: Any) -> None:
    """Team racing (R13): ``/game join team:1`` is team 1 on the card and on the status panel."""
    seats = [{"name": n, "team": t} for n, t in (("Ann", 1), ("Bob", 2), ("Cy", 1), ("Di", 2))]
    game = Races.create({"seats": seats, "options": {"track": "A", "teams": True}}, 3)
    card_texts = [text for _, text in record(lambda: kart_card_png(game.view(0), 0, "de"))]
    assert "Farbe: rot · Platz 1 · Team 1" in card_texts
    panel = [text for _, text in record(lambda: board_chat_png(game.view(None), lang="en"))]
    assert "Bob · team 2" in panel


def test_the_status_panel_asks_the_pending_question_in_german(record: Any) -> None:
    """R14: a kart picking up a tile with room in two saddlebags is asked which one; the panel says so."""
    karts = [{"name": "Ann", "colour": "red", "cell": "T9", "facing": "S", "parts": {"4": "saddlebag-4"}},
             {"name": "Bob", "colour": "blue", "cell": "J9", "facing": "SE"}]
    game = Races.from_position({"track": "A", "karts": karts, "turn": "red", "phase": "move", "points": 1,
                                "board": {"T10": "junk:oil"}})
    game.apply("step T10")
    view = game.view(None)
    german = [text for _, text in record(lambda: board_chat_png(view, lang="de"))]
    english = [text for _, text in record(lambda: board_chat_png(view, lang="en"))]
    assert view["choice"]["prompt"] in english and view["choice"]["prompt"] not in german
    assert question(view["choice"], "de") in german and "Satteltasche" in question(view["choice"], "de")
