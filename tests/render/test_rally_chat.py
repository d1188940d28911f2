"""Schrottplatz Rally in a chat: the close-up of the turn, the whole board one click away, the heading that
says who moved and who is next, and a panel that is neither clipped nor left empty."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from bot.drivers.rally import SmartDriver
from bot.games.rally.unit import GAME as RALLY
from render.common import recording_text
from render.rally import rally_png
from render.rally.chat import (
    CHAT_WIDTH,
    MIN_TEXT_AT_CHAT,
    SCALES,
    STRIP_FIXED,
    WIDE,
    canvas_size,
    chat_frame,
    chat_image,
    finish_points,
    frame_points,
    lane_px_at,
    rally_chat_png,
    strip_image,
)
from render.rally.layout import layout_for
from render.rally.panel import LEGEND, legend_image, legend_words, moved_line, next_line
from render.rally.picture import PANEL, _base, content_box, move_points, place_point, rally_image
from rules.rally import RallyGame, find_track
from rules.rally.texts import say
from tests.rally.conftest import pos

LONG = "Wolfgang Amadeus Mozartkugelmann"  # 32 characters: the longest display name Discord allows
WIDE_NAME = "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW"  # and the widest


def width_of(png: bytes) -> int:
    return Image.open(io.BytesIO(png)).width


def race(track: str, seats: int, seed: int, laps: int = 1, names: list[str] | None = None) -> list[dict[str, Any]]:
    """The public view after every action of a seeded race of smart drivers."""
    names = names or [f"Computer {i + 1} (smart)" for i in range(seats)]
    game = RallyGame.create({"seats": [{"name": n} for n in names], "options": {"track": track, "laps": laps}}, seed)
    drivers = [SmartDriver(seed + i) for i in range(seats)]
    views = []
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        game.apply(drivers[seat].choose(game, seat))
        views.append(game.view(None))
    return views


def moved() -> RallyGame:
    """Ann has just driven 11b → 13b; Bob (on 9c) is next."""
    g = pos(players=["Ann", "Bob"], cars={"red": {"at": "11b"}, "blue": {"at": "9c"}}, order=["red", "blue"],
            phase="move", points=2)
    g.apply("move 13b")
    return g


# The close-up and the whole board --------------------------------------------------------------------


def test_the_turns_picture_is_a_close_up_and_the_board_is_the_whole_track() -> None:
    view = moved().view(None)
    close = RALLY.picture(view, [], "en")
    whole = RALLY.board_picture(view, "en")
    assert close is not None and whole is not None
    assert width_of(close) < width_of(whole)
    assert lane_px_at(width_of(close)) >= 16  # a lane as a chat shows the picture, 550 px wide
    assert lane_px_at(width_of(whole)) < 16  # the whole board is for opening full size


@pytest.mark.parametrize(("track", "seed"), [("A", 4), ("B", 9)])
def test_every_close_up_of_a_six_car_race_has_one_size_and_lanes_of_16_px_at_550(track: str, seed: int) -> None:
    views = race(track, 6, seed)
    shown = [*views[::3], views[-1]]
    assert {chat_image(v).size for v in shown} == {canvas_size(track)}
    width = canvas_size(track)[0]
    assert min(lane_px_at(width, CHAT_WIDTH, chat_frame(v).scale) for v in shown) >= 16
    assert {lane_px_at(width, CHAT_WIDTH, SCALES[zoom]) >= 16 for zoom in SCALES} == {True}


def test_what_is_too_large_for_the_wider_view_keeps_its_last_point_in_the_usual_box() -> None:
    """The frame keeps its size and zoom; the last point (where a drive stopped) stays in it."""
    view = moved().view(None)
    x0, y0, x1, y1 = content_box("A", True)
    far = [(x0 + 20, y0 + 20), (x1 - 20, y1 - 20), (x0 + 20, y1 - 20)]  # corners of the whole track
    frame = frame_points(view, far)
    assert frame.zoom == "wide" and (frame.width, frame.height) == WIDE
    fx0, fy0, fx1, fy1 = frame.box
    inside = [fx0 < x < fx1 and fy0 < y < fy1 for x, y in far]
    assert inside[-1] and not all(inside)
    assert chat_image(view, frame).size == canvas_size("A")


def test_a_name_that_wraps_takes_its_room_from_the_track_not_the_picture() -> None:
    names = [LONG, LONG[:-1] + "2", LONG[:-1] + "3"]
    views = race("A", 3, 2, names=names)
    view = next(v for v in views if v.get("last_move") and v["phase"] == "move")
    start = RallyGame.create({"seats": [{"name": "Ann"}, {"name": "Bob"}]}, 1).view(None)
    assert strip_image(start, 640).height < STRIP_FIXED  # one line: centred in the usual height
    for v in (view, start):
        assert chat_image(v, lang="de").size == canvas_size("A")


def test_a_move_is_framed_with_where_it_started_and_the_car_to_act_is_added() -> None:
    view = moved().view(None)
    frame = chat_frame(view)
    assert frame.zoom == "close"
    x0, y0, x1, y1 = frame.box
    track = find_track("A")
    lay = layout_for(track)
    bob = place_point(lay, track, True, "9c")[0]
    for x, y in [*move_points(view), bob]:
        assert x0 < x < x1 and y0 < y < y1


def test_after_a_roll_the_frame_holds_the_car_and_every_destination() -> None:
    g = moved()
    g.apply("roll green")
    view = g.view(None)
    assert view["moves"]
    x0, y0, x1, y1 = chat_frame(view).box
    track = find_track("A")
    lay = layout_for(track)
    for where in [view["seats"][1]["at"], *view["moves"]]:
        x, y = place_point(lay, track, True, where)[0]
        assert x0 < x < x1 and y0 < y < y1


@pytest.mark.parametrize(("track", "seats", "seed"), [("A", 3, 2), ("B", 2, 3), ("B", 6, 9)])
def test_the_end_of_the_race_shows_the_winner_at_the_finish_in_the_usual_box(track: str, seats: int,
                                                                              seed: int) -> None:
    view = race(track, seats, seed)[-1]
    frame = chat_frame(view)
    assert frame.zoom == "finish"
    x0, y0, x1, y1 = frame.box
    lay = layout_for(find_track(track))
    car = place_point(lay, find_track(track), True, view["seats"][view["winner"]]["at"])[0]
    assert x0 < car[0] < x1 and y0 < car[1] < y1
    assert all(x0 <= x <= x1 and y0 <= y <= y1 for x, y in finish_points(view))
    assert chat_image(view).size == canvas_size(track)
    assert (frame.width, frame.height) < content_box(track, True)[2:]  # not the whole track


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("names", [None, [LONG, WIDE_NAME]])
def test_every_word_of_the_game_over_picture_is_9_px_at_550(lang: str, names: list[str] | None) -> None:
    """The track's words inside the frame (drawn again: the track's picture is cached) count at the
    finish's scale, the strip's as they are."""
    view = race("B", 2, 3, names=names)[-1]
    frame = chat_frame(view)
    _base.cache_clear()
    with recording_text() as drawn:
        img = chat_image(view, lang=lang)
    track_size = _base(view["track"], True, len(view["seats"])).size
    x0, y0, x1, y1 = frame.box
    sizes = []
    for t in drawn:
        if t.image != track_size:
            sizes.append(t.size)
        elif t.box[2] > x0 and t.box[0] < x1 and t.box[3] > y0 and t.box[1] < y1:
            sizes.append(float(t.size * frame.scale))
    assert len(sizes) > 15  # the strip's words and the labels round the finish
    assert min(sizes) * CHAT_WIDTH / img.width >= MIN_TEXT_AT_CHAT


def test_the_whole_board_comes_once_the_leader_starts_a_new_lap() -> None:
    game = RallyGame.create({"seats": [{"name": "Ann"}, {"name": "Bob"}], "options": {"laps": 2}}, 5)
    drivers = [SmartDriver(5), SmartDriver(6)]
    periods = [RALLY.period(game)]
    while not game.is_over:
        seat = game.to_act
        assert seat is not None
        game.apply(drivers[seat].choose(game, seat))
        periods.append(RALLY.period(game))
    assert periods[0] == 0 and sorted(set(periods)) == [0, 1, 2]
    assert periods == sorted(periods)


# Who moved, who is next ------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_heading_names_the_player_whose_move_is_drawn_and_who_is_next(lang: str) -> None:
    view = moved().view(None)
    assert view["last_move"]["seat"] == 0 and view["to_act"] == 1
    for draw in (lambda: chat_image(view, lang=lang), lambda: rally_image(view, lang)):
        with recording_text() as drawn:
            draw()
        texts = [t.text for t in drawn]
        assert say("p_moved_drive", lang, name="Ann", frm="11b", to="13b") in texts
        assert say("p_next", lang, what=say("p_roll", lang, name="Bob")) in texts
    assert moved_line(view, "en") == "Ann drove 11b → 13b"
    assert next_line(view, "de") == "Als Nächstes: Bob: schalten und würfeln"


def test_before_the_first_move_the_heading_says_only_who_is_next() -> None:
    view = RallyGame.create({"seats": [{"name": "Ann"}, {"name": "Bob"}]}, 1).view(None)
    assert moved_line(view) == ""
    with recording_text() as drawn:
        chat_image(view)
    assert any(t.text.startswith("Next: ") for t in drawn)


# Names are never cut ---------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("name", [LONG, WIDE_NAME])
def test_the_longest_names_fit_the_heading_and_the_car_lines_whole(lang: str, name: str) -> None:
    names = [name, name[:-1] + "2", name[:-1] + "3"]
    views = race("A", 3, 2, names=names)
    view = next(v for v in views if v.get("last_move") and v["phase"] == "move")
    heading = {names[view["last_move"]["seat"]], names[view["to_act"]]}
    for draw, shown in ((lambda: chat_image(view, lang=lang), heading), (lambda: rally_image(view, lang), names)):
        with recording_text() as drawn:
            draw()
        assert all(t.inside for t in drawn), [t for t in drawn if not t.inside]
        assert not any("…" in t.text for t in drawn)
        joined = " ".join(t.text for t in drawn), "".join(t.text for t in drawn)
        for n in shown:
            assert any(n in j for j in joined), n


# The panel -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 3, 6])
def test_the_panel_has_no_empty_quarter(seats: int) -> None:
    """No band of the panel taller than a tenth of the picture is left bare: the legend fills what the cars
    leave."""
    view = race("B", seats, 7)[10]
    img = rally_image(view)
    left = content_box(view["track"], True)[2] - content_box(view["track"], True)[0]
    panel = img.crop((left + 4, 0, img.width - 4, img.height))
    bare = longest = 0
    for y in range(panel.height):
        row = panel.crop((0, y, panel.width, y + 1))
        colours = row.getcolors(4)
        if colours is not None and len(colours) == 1 and colours[0][1] == PANEL:
            bare += 1
            longest = max(longest, bare)
        else:
            bare = 0
    assert longest < img.height / 10


def test_the_legend_names_every_symbol_of_the_board_in_both_languages() -> None:
    kinds = {a.kind for key in ("A", "B") for a in find_track(key).areas}
    services = {p.get("service") for _, msg, p in LEGEND if msg == "p_key_service"}
    assert kinds <= services
    needed = {"p_key_curve", "p_key_sign", "p_key_arch", "p_key_arrow", "p_key_spot", "p_key_closed",
              "p_key_waiting", "p_key_stop", "p_key_path", "p_key_target", "p_key_to_act"}
    assert needed <= {msg for _, msg, _ in LEGEND}
    assert {p.get("limit") for _, msg, p in LEGEND if msg == "p_key_curve"} == {"green", "yellow"}
    view = moved().view(None)
    legend_image.cache_clear()
    for lang in ("en", "de"):
        with recording_text() as drawn:
            rally_image(view, lang)
        drawn_texts = " ".join(t.text for t in drawn)
        for words in legend_words(lang):
            assert all(w in drawn_texts for w in words.split())


def test_the_close_up_stays_small() -> None:
    views = race("A", 6, 4)
    assert max(len(rally_chat_png(v)) for v in views[::25]) <= 150_000
    assert len(rally_png(views[-1])) < 250_000
