"""Everything the whole Junkyard Races board draws is in its key: the track's features (the stream's numbered
circles and the Landing Points' blue arrows among them), the pieces and the marks of the last move."""

from __future__ import annotations

import pytest

from bot.drivers.races import RacingDriver
from render.common import recording_text
from render.races import key as key_module
from render.races.chat import board_chat_png
from render.races.key import KEY, KEYS, drawn_features, key_image, track_features
from render.races.legend import LEGEND
from render.races.live import with_last_move
from render.races.samples import busy_game
from render.races.words import say
from rules.races.engine import Races
from rules.races.track import get_track


@pytest.mark.parametrize("track", ["A", "B"])
def test_every_feature_of_the_track_is_in_the_key_and_in_the_legend(track: str) -> None:
    features = track_features(get_track(track))
    assert {"section", "landing", "bridge", "red_arrow", "collapsed", "caps"} <= features
    assert features <= KEYS
    assert features <= {k for _, k in LEGEND}


@pytest.mark.parametrize(("track", "seed"), [("A", 3), ("B", 4)])
def test_every_piece_and_mark_a_race_draws_is_in_the_key(track: str, seed: int) -> None:
    game = Races.create({"seats": [{"name": f"P{i}"} for i in range(6)], "options": {"track": track, "laps": 1}},
                        seed)
    drivers = [RacingDriver(i) for i in range(6)]
    seen: set[str] = set()
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        game.apply(drivers[seat].choose(game, seat))
        view = game.view(None)
        seen |= drawn_features(with_last_move(view), get_track(track))
    busy = busy_game(track).view(None)
    seen |= drawn_features(with_last_move(busy), get_track(track))
    assert {"kart", "to_act", "path", "junk_tile", "bump"} <= seen
    assert seen <= KEYS, seen - KEYS


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_whole_board_draws_every_entry_of_its_key(lang: str) -> None:
    key_image.cache_clear()
    view = busy_game("A").view(None)
    with recording_text() as drawn:
        board_chat_png(view, lang=lang)
    words = " ".join(t.text for t in drawn)
    for _, _, msg in KEY:
        name = say(msg, lang)
        assert all(part in words for part in name.replace("-", "- ").split()), name
    assert len({msg for _, _, msg in KEY}) == len(KEY) == len(KEYS)
    assert key_module.key_height(700) < key_module.key_height(340)  # a wider key needs fewer rows
