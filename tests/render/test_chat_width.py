"""Pictures as Discord's chat column shows them (550 px wide): every close-up of a race has one size, the
whole board's words are at least 9 px tall there, and the replay shows the track and plays in about a
minute."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from bot.drivers.match import play_match
from render.common import gif_seconds, recording_text
from render.races import chat, key, live
from render.races.chat import CHAT_WIDTH, MIN_TEXT_AT_CHAT, board_chat_png, canvas_size, chat_png
from render.races.replay import WATCH_MS, kept_frames, replay_durations, replay_gif, replay_views
from rules.races.engine import Races
from rules.races.track import get_track


@pytest.fixture(scope="module")
def race() -> tuple[dict[str, Any], int, list[str]]:
    """A whole race of six smart drivers on track A."""
    setup = {"seats": [{"name": f"P{i + 1}"} for i in range(6)], "options": {"track": "A"}}
    return setup, 5, play_match("races", setup, 5, ["smart"] * 6).actions


@pytest.fixture(scope="module")
def views(race: tuple[dict[str, Any], int, list[str]]) -> list[dict[str, Any]]:
    return replay_views(*race)


def test_every_close_up_of_a_race_has_the_same_size(views: list[dict[str, Any]]) -> None:
    """Close, wide and whole-track frames, one- and two-line strips: the height never changes."""
    sizes = {Image.open(io.BytesIO(chat_png(v))).size for v in views[::4] + views[-3:]}
    assert sizes == {canvas_size("A")}
    zooms = {chat.chat_frame(v).zoom for v in views[::4] + views[-3:]}
    assert {"close", "track"} <= zooms  # the race's end shows the whole track, in the same box


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_whole_boards_words_are_at_least_9_px_at_chat_width(views: list[dict[str, Any]], lang: str) -> None:
    view = views[len(views) // 2]
    board_chat_png(view, lang=lang)  # the board and the pieces are cached: only the panel's words are drawn again
    for cached in (live._header_image, live._row_image, key.key_image):
        cached.cache_clear()
    with recording_text() as drawn:
        data = board_chat_png(view, lang=lang)
    width = Image.open(io.BytesIO(data)).width
    assert len(drawn) > 60  # the head, six rows and the key
    smallest = min(t.size for t in drawn)
    assert smallest * CHAT_WIDTH / width >= MIN_TEXT_AT_CHAT
    assert all(t.inside for t in drawn)


def test_the_replay_is_cropped_to_the_track(race: tuple[dict[str, Any], int, list[str]],
                                             views: list[dict[str, Any]]) -> None:
    """The track's cells fill most of every frame's map (the junkyard round it is cut away)."""
    data = replay_gif(views[:5])
    gif = Image.open(io.BytesIO(data))
    from render.races.replay import STRIP_H, _kit

    replay_kit = _kit("A", 14)
    x0, y0, x1, y1 = replay_kit.crop
    geo = replay_kit.base.geometry
    cells = get_track("A").track_cells
    xs = [geo.centre(c)[0] for c in cells]
    ys = [geo.centre(c)[1] for c in cells]
    track_w = max(xs) - min(xs) + 2 * geo.cell_size
    track_h = max(ys) - min(ys) + 2 * geo.cell_size
    assert gif.size == (x1 - x0, y1 - y0 + STRIP_H)
    assert track_w / (x1 - x0) >= 0.85 and track_h / (y1 - y0) >= 0.85
    assert (x1 - x0) < geo.board_box[2] - geo.board_box[0]  # narrower than the whole map


def test_a_whole_race_plays_in_about_a_minute(race: tuple[dict[str, Any], int, list[str]]) -> None:
    from bot.games.races.unit import GAME

    made = GAME.replay(*race)
    assert made is not None
    seconds = gif_seconds(made[0])
    assert 50 <= seconds <= WATCH_MS / 1000 + 0.01
    assert made[1] == len(race[2]) + 1  # a frame per action still


def test_a_short_race_keeps_its_pace_and_a_long_one_drops_quiet_frames_first() -> None:
    game = Races.create({"seats": [{"name": "A"}, {"name": "B"}], "options": {"track": "A"}}, 3)
    still = [game.view(None)] * 3
    assert replay_durations(still) == [450, 450, 4000]
    many = [game.view(None)] * 4000  # nothing moves: every frame but the first is quiet
    kept = kept_frames(many)
    assert kept == [0, 3999]
    busy = [{**game.view(None), "karts": [{"cell": f"A{i}"}]} for i in range(4000)]  # a kart moves each frame
    kept = kept_frames(busy)
    timing = replay_durations([busy[i] for i in kept])
    assert kept[0] == 0 and kept[-1] == 3999 and len(kept) < 4000
    assert sum(timing) <= WATCH_MS and min(timing) >= 20
