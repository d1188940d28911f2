"""The Rally pictures: valid PNGs that show the race where a player looks for it."""

from __future__ import annotations

import io

from PIL import Image

from render.rally import CAR_COLOURS, car_board_png, picture, rally_png
from render.rally.layout import layout_for
from render.rally.picture import CURVE, HATCH_A, LEVER, board_point, place_point
from rules.rally import RallyGame, find_track
from tests.rally.conftest import pos


def decode(png: bytes) -> Image.Image:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(png)).convert("RGB")


def near(a: object, b: tuple[int, int, int], tol: int = 30) -> bool:
    assert isinstance(a, tuple)
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def scene() -> RallyGame:
    return pos(players=4, cars={"red": {"at": "11b", "lever": "yellow"}, "blue": {"at": "F7.1"},
                                "orange": {"at": "pit"}, "purple": {"at": "pit.2"}}, phase="move", points=3)


def test_same_view_same_bytes_and_the_front_end_name() -> None:
    view = scene().view(None)
    assert rally_png(view) == rally_png(view) and picture is rally_png


def test_cars_stand_where_the_view_says() -> None:
    g = scene()
    view = g.view(None)
    img = decode(rally_png(view))
    track = find_track("A")
    lay = layout_for(track)
    for seat in (1, 2, 3):  # blue on its spot, orange in the pit lane, purple on a pit spot
        x, y = board_point(view, place_point(lay, track, True, g.cars[seat].at)[0])
        colour = CAR_COLOURS[("red", "blue", "orange", "purple")[seat]]
        assert any(near(img.getpixel((round(x) + dx, round(y) + dy)), colour) for dx in (-8, 0, 8) for dy in (-5, 5))


def test_curves_are_coloured_by_their_limit_and_the_pit_lane_is_hatched() -> None:
    g = RallyGame.create({"seats": [{"name": "A"}, {"name": "B"}]}, 1)
    view = g.view(None)
    img = decode(rally_png(view))
    lay = layout_for(find_track("A"))
    yellow = board_point(view, lay.offset_point(14, -1.0))  # row 14 lane a: a yellow curve
    green = board_point(view, lay.offset_point(26, 0.0))  # row 26 lane b: a green curve
    assert near(img.getpixel((round(yellow[0]), round(yellow[1]))), CURVE["yellow"])
    assert near(img.getpixel((round(green[0]), round(green[1]))), CURVE["green"])
    points = (board_point(view, lay.beside(33, "R", 18 + k)) for k in range(-4, 5))
    pixels = {img.getpixel((round(x), round(y))) for x, y in points}
    assert any(near(p, HATCH_A, 40) for p in pixels)


def test_the_destinations_are_ringed_in_the_movers_colour() -> None:
    g = scene()
    view = g.view(None)
    img = decode(rally_png(view))
    track = find_track("A")
    lay = layout_for(track)
    for cell in g.endings():
        x, y = board_point(view, place_point(lay, track, True, cell)[0])
        assert near(img.getpixel((round(x) + 6, round(y) + 6)), CAR_COLOURS["red"])


def test_car_board_shows_lever_and_working_gears() -> None:
    g = pos(cars={"red": {"at": "12b", "lever": "yellow", "board": "1:M 2:BE 4:M 5:BE", "fuel": 1}})
    img = decode(car_board_png(g.view(None), 0))
    assert img.size == (900, 430)
    knob = (50 + 38, 80 + 100 + 50)  # the lever's knob on the yellow range
    assert near(img.getpixel(knob), LEVER["yellow"])


def test_anticlockwise_and_six_cars_on_track_b() -> None:
    g = RallyGame.create({"seats": [{"name": f"P{i}"} for i in range(6)],
                          "options": {"track": "B", "direction": "anticlockwise"}}, 2)
    img = decode(rally_png(g.view(None)))
    assert img.width > 1300 and img.height >= 760


def test_replay_gif_has_a_frame_per_move() -> None:
    from render.rally.replay import replay_gif, replay_views

    setup = {"seats": [{"name": "A"}, {"name": "B"}], "options": {"laps": 1}}
    g = RallyGame.create(setup, 3)
    log = []
    for _ in range(12):
        action = str(g.legal_actions()[0])
        g.apply(action)
        log.append(action)
    views = replay_views(setup, 3, log)
    moves = sum(1 for a in log if a.startswith(("move", "park")))
    assert len(views) == 1 + moves
    gif = Image.open(io.BytesIO(replay_gif(views)))
    assert gif.format == "GIF" and getattr(gif, "n_frames", 1) == len(views)


def test_the_strip_and_the_board_speak_german() -> None:
    view = scene().view(None)
    assert rally_png(view, lang="de") != rally_png(view)
    assert car_board_png(view, 0, lang="de") != car_board_png(view, 0)
