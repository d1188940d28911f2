"""The live race board: what it shows, that it shows nothing hidden (R12), its size, and its look
compared with stored reference pictures.

After a deliberate change to the look, write new references and look at them before committing:
``JUNKYARD_UPDATE_REFERENCES=1 python -m pytest tests/render/test_live.py``.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from render.common import polar
from render.races.geometry import facing_angle
from render.races.live import LIVE_CELL, board_png, live_base
from render.races.pieces import kart_colour
from render.races.samples import busy_game
from rules.hexgrid import Facing, parse_label
from rules.races.engine import Races
from tests.render.pictures import assert_matches_reference

DATA = Path(__file__).parent / "data"
MAX_BYTES = 200_000


def busy_view(track: str) -> dict:
    """A stored public view of a busy mid-race position (eight karts, every trap, a move with a bump
    and a pick-up): the picture is a function of the view alone, so the reference needs no engine."""
    return json.loads((DATA / f"busy_view_{track}.json").read_text())


def rgb(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


@pytest.mark.parametrize("track", ["A", "B"])
def test_live_board_matches_its_reference_picture(track: str) -> None:
    picture = rgb(board_png(busy_view(track))).reduce(2)
    assert_matches_reference(picture, f"live_busy_{track}_half.png")


@pytest.mark.parametrize("track", ["A", "B"])
def test_live_board_is_a_palette_png_under_200_kb(track: str) -> None:
    data = board_png(busy_view(track))
    img = Image.open(io.BytesIO(data))
    assert img.mode == "P"
    assert len(data) <= MAX_BYTES
    geo = live_base(track).geometry
    assert img.size == (geo.width, geo.height)


def test_every_kart_is_drawn_in_its_colour_behind_its_seat_mark() -> None:
    view = busy_view("A")
    picture = rgb(board_png(view))
    geo = live_base("A").geometry
    for kart in view["karts"]:
        if kart["cell"] is None:
            continue
        centre = geo.centre(parse_label(kart["cell"]))
        # the body between the seat disc and the tail, along the kart's facing
        body = polar(centre, facing_angle(Facing[kart["facing"]]) + 180, LIVE_CELL * 0.4)
        got = picture.getpixel((round(body[0]), round(body[1])))
        want = kart_colour(kart["colour"])
        assert max(abs(a - b) for a, b in zip(got, want, strict=True)) <= 12, (kart["colour"], got, want)


def _game_with(face_down: str) -> Races:
    return busy_game("A", face_down=face_down)


def test_public_picture_is_the_same_whatever_the_face_down_tiles_are() -> None:
    """R12: a face-down junk tile's kind never shows: a board of Time Bombs and a board of Glue look
    alike to the public, byte for byte (the kart that picked one up carries it face down too)."""
    bombs, glue = _game_with("time-bomb"), _game_with("glue")
    differ = [c for c, t in bombs.board.items()
              if t.face_down and t.kind == "time-bomb" and glue.board[c].kind == "glue"]
    assert len(differ) >= 4
    assert bombs.karts[0].bags[7][-1].kind == "time-bomb" and glue.karts[0].bags[7][-1].kind == "glue"
    assert board_png(bombs.view(None)) == board_png(glue.view(None))
    assert board_png(bombs.view(3)) == board_png(glue.view(3))  # another player sees no more


def _bag_game(tiles: list[str]) -> Races:
    return Races.from_position({
        "track": "A",
        "karts": [
            {"colour": "red", "cell": "U11", "facing": "N"},
            {"colour": "blue", "cell": "H9", "facing": "N", "parts": {"4": "saddlebag-4"},
             "bags": {"7": tiles[:2], "4": tiles[2:]}},
        ],
        "turn": "red", "phase": "roll",
    })


def test_public_picture_is_the_same_whatever_another_players_saddlebags_hold() -> None:
    """R12: saddlebag tiles are hidden from the others: only their number shows."""
    a = _bag_game(["missile", "spring", "bomb"])
    b = _bag_game(["glue", "oil", "acid"])
    assert board_png(a.view(None)) == board_png(b.view(None))
    assert board_png(a.view(0)) == board_png(b.view(0))


def test_a_shown_tile_is_public() -> None:
    """A tile its owner keeps face up is no secret: the public picture tells a shown Glue from a
    shown Oil (on the status row's count it is the same; on the Kart Card it is not)."""
    from render.races.card import kart_card_png

    a = _bag_game(["glue+", "spring"])
    b = _bag_game(["oil+", "spring"])
    assert kart_card_png(a.view(None), 1) != kart_card_png(b.view(None), 1)


def test_a_kart_in_the_stream_gets_a_splash_ring() -> None:
    """R8: a kart bumped into the stream waits in the water; the picture rings it with a splash."""
    game = Races.from_position({"track": "A", "karts": [
        {"colour": "red", "cell": "U11", "facing": "N"},
        {"colour": "blue", "cell": "Q2", "facing": "S"},
    ], "turn": "red", "phase": "roll"})
    assert game.track.is_stream(parse_label("Q2"))
    picture = rgb(board_png(game.view(None)))
    geo = live_base("A").geometry
    cx, cy = geo.centre(parse_label("Q2"))
    ring = [picture.getpixel((round(cx + dx), round(cy))) for dx in range(-round(LIVE_CELL * 0.95) - 2,
                                                                          -round(LIVE_CELL * 0.6))]
    assert any(min(p) > 200 for p in ring), "a white ring round the kart in the water"


def test_the_last_path_and_its_marks_are_drawn() -> None:
    view = busy_view("A")
    without = {**view, "turn": {**view["turn"], "path": [], "marks": []}}
    a, b = rgb(board_png(view)), rgb(board_png(without))
    geo = live_base("A").geometry
    for label in view["turn"]["path"]:
        x, y = geo.centre(parse_label(label))
        box = (round(x - LIVE_CELL), round(y - LIVE_CELL), round(x + LIVE_CELL), round(y + LIVE_CELL))
        assert ImageChops.difference(a.crop(box), b.crop(box)).getbbox() is not None, label


def test_the_status_panel_shows_the_dice_just_rolled() -> None:
    view = busy_view("A")
    assert view["turn"]["dice"]
    no_dice = {**view, "turn": {**view["turn"], "dice": {}}}
    a, b = rgb(board_png(view)), rgb(board_png(no_dice))
    diff = ImageChops.difference(a, b).getbbox()
    assert diff is not None
    x0, y0, x1, y1 = live_base("A").geometry.status_box
    assert diff[0] >= x0 and diff[2] <= x1 and diff[1] >= y0 and diff[3] <= y1


def _finished_move() -> tuple[dict, dict]:
    """The views just before and just after a move's last step, which bumps a kart."""
    game = Races.from_position({"track": "A", "karts": [
        {"colour": "red", "cell": "U11", "facing": "N"},
        {"colour": "blue", "cell": "U9", "facing": "N"},
        {"colour": "green", "cell": "H15", "facing": "S"}],
        "turn": "red", "phase": "move", "points": 2})
    game.apply("step U10")
    before = game.view(None)
    game.apply("step U9")
    after = game.view(None)
    assert after["turn"]["seat"] != before["turn"]["seat"] and not after["turn"]["path"]
    return before, after


def test_the_move_just_finished_stays_on_the_picture_with_last_turn() -> None:
    before, after = _finished_move()
    after = {**after, "last_turn": None}
    plain = rgb(board_png(after))
    kept = rgb(board_png(after, last_turn={**before["turn"], "path": [*before["turn"]["path"], "U9"],
                                           "marks": [["U9", "bump"]]}))
    geo = live_base("A").geometry
    x, y = geo.centre(parse_label("U10"))
    box = (round(x - LIVE_CELL), round(y - LIVE_CELL), round(x + LIVE_CELL), round(y + LIVE_CELL))
    assert ImageChops.difference(plain.crop(box), kept.crop(box)).getbbox() is not None


def test_the_views_own_last_turn_keeps_the_move_on_the_picture() -> None:
    _, after = _finished_move()
    assert after.get("last_turn") and after["last_turn"]["path"][-1] == "U9"
    forgotten = {**after, "last_turn": None, "events": []}
    a, b = rgb(board_png(after)), rgb(board_png(forgotten))
    geo = live_base("A").geometry
    x, y = geo.centre(parse_label("U10"))
    box = (round(x - LIVE_CELL), round(y - LIVE_CELL), round(x + LIVE_CELL), round(y + LIVE_CELL))
    assert ImageChops.difference(a.crop(box), b.crop(box)).getbbox() is not None


def test_without_a_path_the_events_mark_where_things_happened() -> None:
    _, after = _finished_move()
    after = {**after, "last_turn": None}
    assert any(e["kind"] == "bump" for e in after["events"])
    quiet = {**after, "events": []}
    a, b = rgb(board_png(after)), rgb(board_png(quiet))
    diff = ImageChops.difference(a, b).getbbox()
    geo = live_base("A").geometry
    x, y = geo.centre(parse_label("U9"))
    assert diff is not None and diff[0] < x + LIVE_CELL * 1.5 and diff[2] > x and diff[1] < y
