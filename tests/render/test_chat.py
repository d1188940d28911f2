"""The pictures made for a chat column: the close-up posted after each action, the whole board cropped
to the track, and the private "where can I go" picture. The framing rules (render/races/chat.py) are
checked on stored views of real races: a kart entering at the start, a jump over a collapsed bridge
(R7), a chain of bumps (rulebook: Bumping Other Karts), a missile, a kart stuck with nothing moving;
and the look is compared with stored reference pictures.

After a deliberate change to the look, write new references and look at them before committing:
``JUNKYARD_UPDATE_REFERENCES=1 python -m pytest tests/render/test_chat.py``.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

from render.races.chat import (
    CLOSE_CELL,
    Frame,
    board_chat_png,
    cell_px_at,
    chat_base,
    chat_frame,
    chat_png,
    reach_frame,
    reach_png,
    strip_height,
    track_frame,
)
from render.races.live import board_png
from rules.hexgrid import SQRT3, Hex, parse_label
from rules.races.engine import Races
from rules.races.reach import reach
from rules.races.track import get_track
from tests.render.pictures import assert_matches_reference

DATA = Path(__file__).parent / "data"
SCENES: dict[str, dict[str, Any]] = json.loads((DATA / "chat_scenes.json").read_text())
MIN_CELL_AT_550 = 16
MAX_BYTES = 150_000


def rgb(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def inside(frame: Frame, track: str, cell: Hex) -> bool:
    """Whether the whole hex of ``cell`` lies inside the frame."""
    x, y = chat_base(track, frame.size).geometry.centre(cell)
    x0, y0, x1, y1 = frame.box
    return x0 <= x - frame.size and x + frame.size <= x1 and y0 <= y - SQRT3 / 2 * frame.size and \
        y + SQRT3 / 2 * frame.size <= y1


def labels(cells: Any) -> set[Hex]:
    return {parse_label(c) for c in cells}


def picture_cell_px(data: bytes, frame: Frame) -> float:
    return cell_px_at(frame.size, Image.open(io.BytesIO(data)).width)


# Framing -------------------------------------------------------------------------------------------


def test_the_first_kart_to_enter_is_framed_with_its_start_cells() -> None:
    """R15: at the start nothing has moved; the frame holds the start cells the kart may enter on."""
    game = Races.create({"seats": [{"name": n} for n in ("Ann", "Bob", "Cy", "Di")], "options": {"track": "A"}}, 3)
    view = game.view(None)
    frame = chat_frame(view)
    assert frame.zoom == "close"
    assert all(inside(frame, "A", s) for s in labels(view["choice"]["options"]))


def test_a_kart_entering_is_shown_close_up_on_its_start_cell() -> None:
    """R15: the entry names its start cell; the close-up holds it."""
    view = SCENES["start_A"]
    frame = chat_frame(view)
    entered = parse_label(view["events"][0]["data"]["cell"])
    assert frame.zoom == "close" and inside(frame, "A", entered)


def test_a_jump_over_the_collapsed_bridge_shows_take_off_gap_and_landing() -> None:
    """R7: the frame holds where the move started, the cells flown over and where the kart landed."""
    view = SCENES["jump_A"]
    frame = chat_frame(view)
    turn = view["last_turn"] if not view["turn"].get("path") else view["turn"]
    cells = labels(turn["path"]) | labels([turn["move_from"]])
    assert any(e["kind"] == "jump" for e in view["events"])
    assert all(inside(frame, "A", c) for c in cells)
    assert frame.zoom == "close"


@pytest.mark.parametrize("scene", ["bumps_A", "bumps_B"])
def test_a_bump_chain_shows_every_bump_and_where_the_bumped_karts_went(scene: str) -> None:
    """Bumping Other Karts: every bump of the turn, the karts pushed and the cells they were pushed to
    (into the stream on track B) are in the frame, with the whole path."""
    view = SCENES[scene]
    frame = chat_frame(view)
    track = view["track"]
    marks = labels(m[0] for m in view["turn"]["marks"])
    pushed = labels(e["data"]["to"] for e in view["events"] if e["kind"] == "bump")
    path = labels(view["turn"]["path"]) | labels([view["turn"]["move_from"]])
    assert len([m for m in view["turn"]["marks"] if m[1] == "bump"]) >= 2
    assert all(inside(frame, track, c) for c in marks | pushed | path)


def test_a_missile_shows_the_launcher_and_where_it_struck() -> None:
    """A missile from afar: the frame zooms out until it holds the launcher and the blast."""
    view = SCENES["missile_A"]
    frame = chat_frame(view)
    marks = {what: parse_label(cell) for cell, what in view["turn"]["marks"]}
    assert marks["missile"].distance(marks["blast"]) >= 5
    assert inside(frame, "A", marks["missile"]) and inside(frame, "A", marks["blast"])


def test_a_stuck_kart_is_framed_with_the_cells_ahead_of_it() -> None:
    """A turn with no movement: the kart to act and the cells straight ahead, close up."""
    view = SCENES["stuck_B"]
    frame = chat_frame(view)
    kart = next(k for k in view["karts"] if k["seat"] == view["to_act"])
    assert frame.zoom == "close" and inside(frame, "B", parse_label(kart["cell"]))


def test_a_move_across_the_track_zooms_out_to_the_whole_track() -> None:
    """A move spanning much of the track (a big roll with fuel) is shown whole, never cut."""
    track = get_track("B")
    lap = list(track.shortest_lap()[1])
    view = json.loads(json.dumps(SCENES["bumps_B"]))
    view["turn"].update(path=[c.label for c in lap[1:40]], move_from=lap[0].label, marks=[])
    frame = chat_frame(view)
    assert frame.zoom == "track"
    assert all(inside(frame, "B", c) for c in lap[:40])


def test_close_ups_slide_to_stay_on_the_track() -> None:
    """A frame is slid (not grown) to stay inside the track's extent plus a cell."""
    for name, view in SCENES.items():
        frame = chat_frame(view)
        whole = track_frame(view["track"], frame.size)
        x0, y0, x1, y1 = whole.box
        assert x0 - 1 <= frame.box[0] and frame.box[2] <= x1 + 1, name
        assert y0 - 1 <= frame.box[1] and frame.box[3] <= y1 + 1, name


# Size and readability ----------------------------------------------------------------------------


@pytest.mark.parametrize("scene", sorted(SCENES))
def test_a_cell_is_at_least_16_px_across_at_550_px_wide(scene: str) -> None:
    view = SCENES[scene]
    frame = chat_frame(view)
    data = chat_png(view)
    img = Image.open(io.BytesIO(data))
    assert img.mode == "P" and len(data) <= MAX_BYTES
    assert img.size == (frame.width, frame.height + strip_height(view, frame.width))
    assert picture_cell_px(data, frame) >= MIN_CELL_AT_550


@pytest.mark.parametrize("track", ["A", "B"])
def test_even_the_whole_track_reads_at_550_px(track: str) -> None:
    frame = track_frame(track)
    assert cell_px_at(frame.size, frame.width) >= MIN_CELL_AT_550


def test_a_close_up_is_at_least_twice_as_large_as_the_live_board_inline() -> None:
    view = SCENES["jump_A"]
    live = Image.open(io.BytesIO(board_png(view)))
    frame = chat_frame(view)
    assert frame.size == CLOSE_CELL
    assert cell_px_at(frame.size, frame.width) >= 2 * cell_px_at(24, live.width)
    assert cell_px_at(24, live.width) < MIN_CELL_AT_550  # why the close-up exists


def test_the_close_up_is_the_live_board_cut_out() -> None:
    """The close-up at the live board's cell size shows, pixel for pixel, the live board's cells."""
    view = SCENES["missile_A"]
    frame = chat_frame(view)
    assert frame.size == 24
    top = strip_height(view, frame.width)
    close = rgb(chat_png(view)).crop((0, top, frame.width, frame.height + top))
    live = rgb(board_png(view)).crop(frame.box)
    histogram = ImageChops.difference(close, live).convert("L").histogram()
    assert sum(histogram[24:]) / (frame.width * frame.height) < 0.01


# The whole board and the reach picture ---------------------------------------------------------------


@pytest.mark.parametrize(("track", "share"), [("A", 0.75), ("B", 0.95)])
def test_the_whole_board_is_cropped_to_the_track(track: str, share: float) -> None:
    """The junkyard round the track is cut away (track A's track is narrow, B's spans the board)."""
    view = SCENES["bumps_B" if track == "B" else "jump_A"]
    data = board_chat_png(view)
    img = Image.open(io.BytesIO(data))
    live = Image.open(io.BytesIO(board_png(view)))
    frame = track_frame(track)
    assert img.width * img.height < share * live.width * live.height
    assert all(inside(frame, track, c) for c in get_track(track).track_cells)
    assert frame.width <= chat_base(track, 24).geometry.cell_size * (1.5 * _columns(track) + 6)


def _columns(track: str) -> int:
    cols = [c.col for c in get_track(track).track_cells]
    return max(cols) - min(cols) + 1


def test_the_reach_picture_tints_every_cell_the_roll_reaches_and_holds_them_all() -> None:
    """R5, R9: the private picture frames every cell the search names (ends and cells passed) and tints
    each end cell bluer than the plain close-up."""
    game = Races.from_position({
        "track": "A",
        "karts": [{"colour": "red", "cell": "U11", "facing": "N"}, {"colour": "blue", "cell": "U9", "facing": "N"}],
        "turn": "red", "phase": "move", "points": 4,
    })
    found = reach(game)
    view = game.view(0)
    data = reach_png(view, found)
    frame = reach_frame(view, found)
    assert all(inside(frame, "A", c) for c in found.cells)
    tinted = rgb(data)
    plain = rgb(chat_png(view, frame=frame))
    base = chat_base("A", frame.size).geometry
    occupied = {k["cell"] for k in view["karts"]}
    for cell in found.ends:
        if cell.label in occupied:
            continue
        x, y = base.centre(cell)
        top = strip_height(view, frame.width)
        spot = (round(x - frame.box[0] - frame.size * 0.45), round(y - frame.box[1] + top + frame.size * 0.3))
        after, before = tinted.getpixel(spot), plain.getpixel(spot)
        assert isinstance(after, tuple) and isinstance(before, tuple)
        assert after[2] > before[2], cell.label  # bluer
    assert picture_cell_px(data, frame) >= MIN_CELL_AT_550


# Reference pictures -----------------------------------------------------------------------------------

REFERENCE_SCENES = ["start_A", "jump_A", "bumps_B", "missile_A"]


@pytest.mark.parametrize("scene", REFERENCE_SCENES)
def test_close_ups_match_their_reference_pictures(scene: str) -> None:
    assert_matches_reference(rgb(chat_png(SCENES[scene])), f"chat_{scene}.png")


def test_the_whole_board_matches_its_reference_picture() -> None:
    assert_matches_reference(rgb(board_chat_png(SCENES["bumps_B"])).reduce(2), "chat_board_B_half.png")


def test_the_race_unit_posts_the_close_up_and_offers_the_board_and_the_reach_picture() -> None:
    """What the front end gets: the close-up after an action, the cropped whole board on request, and
    the where-can-I-go picture only for the player whose move it is (R12: it is private)."""
    from bot.games.races.unit import GAME

    game = Races.from_position({
        "track": "A",
        "karts": [{"colour": "red", "cell": "U11", "facing": "N"}, {"colour": "blue", "cell": "U9", "facing": "N"}],
        "turn": "red", "phase": "move", "points": 3,
    })
    view = game.view(None)
    assert GAME.picture(view, []) == chat_png(view)
    assert GAME.board_picture(view) == board_chat_png(view)
    assert GAME.reach_picture(game, 1) is None
    mine = GAME.reach_picture(game, 0)
    assert mine is not None and mine.png == reach_png(game.view(0), reach(game))
