"""The static Junkyard Races board picture: size, caching, geometry and features drawn where they belong."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render.common import arrow_polygon, clip_polygon, encode_png, regular_polygon
from render.races.board import board_base, board_image, track_png
from render.races.geometry import MIN_WIDTH, facing_angle
from render.races.symbols import PIT_COLOURS, RED_ARROW, STONE
from rules.hexgrid import Facing, Hex, parse_label
from rules.races.track import PitColour, Track, builtin_tracks, load_track_text
from tests.render.ring import RING_TRACK

SIZE = 30
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def ring() -> Track:
    return load_track_text(RING_TRACK, "ring.track")


@pytest.fixture(scope="module")
def base(ring: Track):
    return board_base(ring, SIZE)


def pixel(base, point: tuple[float, float]) -> tuple[int, int, int]:
    return base.image.getpixel((round(point[0]), round(point[1])))


def close(a: tuple[int, ...], b: tuple[int, ...], tolerance: int = 10) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


def test_ring_track_loads_cleanly(ring: Track) -> None:
    assert ring.name == "Test Ring"
    assert len(ring.gaps) == 2 and len(ring.bottle_tops) == 4
    assert sorted(ring.deliveries) == list(range(3, 19))


def test_picture_is_a_png_at_least_1400_pixels_wide(ring: Track) -> None:
    data = track_png(ring, SIZE)
    assert data.startswith(PNG_SIGNATURE)
    img = Image.open(io.BytesIO(data))
    assert img.width >= MIN_WIDTH
    assert img.mode == "P"  # palette PNG: the fast and small encoding
    assert (img.width, img.height) == (board_base(ring, SIZE).geometry.width, board_base(ring, SIZE).geometry.height)


@pytest.mark.parametrize("name", sorted(builtin_tracks()))
def test_every_builtin_track_draws_at_least_1400_pixels_wide(name: str) -> None:
    track = builtin_tracks()[name]
    data = track_png(track)
    img = Image.open(io.BytesIO(data))
    assert img.width >= MIN_WIDTH
    geo = board_base(track).geometry
    for cell in track.terrain:
        x, y = geo.centre(cell)
        assert geo.board_box[0] <= x <= geo.board_box[2] and geo.board_box[1] <= y <= geo.board_box[3]


def test_cache_returns_the_same_base_for_the_same_track_and_size(ring: Track) -> None:
    assert board_base(ring, SIZE) is board_base(ring, SIZE)
    again = load_track_text(RING_TRACK, "ring.track")  # an equal track loaded anew
    assert board_base(again, SIZE) is board_base(ring, SIZE)
    assert board_base(ring, SIZE + 2) is not board_base(ring, SIZE)


def test_cache_redraws_a_changed_track_with_the_same_name(ring: Track) -> None:
    changed = load_track_text(RING_TRACK.replace("B7 1 M7 2", "B7 3 M7 2"), "ring.track")
    assert changed.name == ring.name
    assert board_base(changed, SIZE) is not board_base(ring, SIZE)


def test_board_image_is_a_copy_callers_may_draw_on(ring: Track, base) -> None:
    img = board_image(ring, SIZE)
    assert img is not base.image
    img.putpixel((0, 0), (255, 0, 255))
    assert base.image.getpixel((0, 0)) != (255, 0, 255)


def test_geometry_finds_every_cell_from_its_centre(base) -> None:
    geo = base.geometry
    for cell in geo.cells():
        assert geo.cell_at(*geo.centre(cell)) == cell
    assert geo.cell_at(0, 0) is None
    assert geo.status_box[1] < geo.status_box[3]  # room under the legend for a live status panel


def test_stream_cell_centre_is_blue(ring: Track, base) -> None:
    """Ruling R3: the stream crosses the board; it is drawn as water."""
    for label in ("H7", "I8", "F8"):
        r, g, b = pixel(base, base.geometry.centre(parse_label(label)))
        assert b > r + 60 and b > g + 20, (label, (r, g, b))


def test_walls_are_stone_coloured_on_the_edge_between_track_and_junk(ring: Track, base) -> None:
    """Ruling R2: every edge between a track cell and junk is a wall."""
    geo = base.geometry
    cell = parse_label("I2")  # top straight; the cell above it is junk
    a, b = geo.edge(cell, Facing.N)
    probe = (a[0] + (b[0] - a[0]) * 0.3, a[1] + (b[1] - a[1]) * 0.3)
    assert close(pixel(base, probe), STONE)


def test_listed_wall_between_two_track_cells_is_drawn(ring: Track, base) -> None:
    geo = base.geometry
    a, b = geo.edge_between(parse_label("E2"), parse_label("E3"))  # beside the green Pit Stop
    assert close(pixel(base, (a[0] + (b[0] - a[0]) * 0.3, a[1] + (b[1] - a[1]) * 0.3)), STONE)


def test_no_wall_between_two_open_track_cells(ring: Track, base) -> None:
    geo = base.geometry
    a, b = geo.edge_between(parse_label("I3"), parse_label("I4"))
    assert not close(pixel(base, (a[0] + (b[0] - a[0]) * 0.3, a[1] + (b[1] - a[1]) * 0.3)), STONE, 30)


@pytest.mark.parametrize(("label", "colour"), [("D2", PitColour.GREEN), ("H13", PitColour.RED)])
def test_pit_stop_cells_are_green_and_red(ring: Track, base, label: str, colour: PitColour) -> None:
    """Rulebook, Pit Stops: one green and one red, four cells each."""
    assert ring.pits[parse_label(label)] is colour
    cx, cy = base.geometry.centre(parse_label(label))
    # beside the spanner, which runs from lower left to upper right
    assert close(pixel(base, (cx - SIZE * 0.45, cy - SIZE * 0.2)), PIT_COLOURS[colour])


def test_red_bump_arrow_points_into_the_stream(ring: Track, base) -> None:
    """Ruling R3: a red arrow on each side of a bridge where a bump drops a kart in the water."""
    cell = parse_label("M7")
    assert Facing.SE in ring.bridges[cell].bump_sides
    from render.common import polar

    tip_side = polar(base.geometry.centre(cell), facing_angle(Facing.SE), SIZE * 0.6)
    assert close(pixel(base, tip_side), RED_ARROW, 20)


def test_start_cells_carry_a_white_arrow(ring: Track, base) -> None:
    for start in ring.starts:
        assert pixel(base, base.geometry.centre(start.cell)) == (250, 250, 246)


def test_checkered_line_is_black_and_white(ring: Track, base) -> None:
    geo = base.geometry
    seen = set()
    for behind, ahead in ring.line:
        a, b = geo.edge_between(behind, ahead)
        for t in (0.375, 0.625):  # clear of the walls at the ends
            for side in (-0.08, 0.08):
                x = a[0] + (b[0] - a[0]) * t - (b[1] - a[1]) * side
                y = a[1] + (b[1] - a[1]) * t + (b[0] - a[0]) * side
                seen.add(pixel(base, (x, y)))
    assert (250, 250, 246) in seen and (24, 22, 20) in seen
    assert seen <= {(250, 250, 246), (24, 22, 20)}


def test_board_is_drawn_the_same_way_every_time(ring: Track) -> None:
    import render.races.board as board

    first = board._draw_board(ring, board_base(ring, SIZE).geometry)
    assert first.tobytes() == board_base(ring, SIZE).image.tobytes()


# The shared helpers -----------------------------------------------------------------------------


def test_encode_png_gives_a_palette_png() -> None:
    img = Image.new("RGB", (40, 30), (10, 120, 200))
    data = encode_png(img)
    out = Image.open(io.BytesIO(data))
    assert data.startswith(PNG_SIGNATURE) and out.mode == "P" and out.size == (40, 30)
    assert out.convert("RGB").getpixel((5, 5)) == (10, 120, 200)


def test_arrow_polygon_ends_at_its_head() -> None:
    pts = arrow_polygon((0, 0), (100, 0), 10)
    assert len(pts) == 7
    assert max(p[0] for p in pts) == pytest.approx(100)
    assert max(abs(p[1]) for p in pts) > 5  # the head is wider than the shaft


def test_clip_polygon_keeps_the_part_inside_a_hex() -> None:
    hexagon = regular_polygon((0, 0), 10, 6)
    strip = [(-1, -50), (1, -50), (1, 50), (-1, 50)]
    part = clip_polygon(strip, hexagon)
    ys = [p[1] for p in part]
    assert min(ys) == pytest.approx(-10 * 3**0.5 / 2) and max(ys) == pytest.approx(10 * 3**0.5 / 2)
    assert clip_polygon([(20, 20), (30, 20), (30, 30)], hexagon) == []


def test_hex_centres_follow_the_odd_q_layout(base) -> None:
    """Ruling R1: odd columns sit half a cell lower."""
    geo = base.geometry
    a1, b1 = geo.centre(Hex.from_offset(0, 0)), geo.centre(Hex.from_offset(1, 0))
    assert b1[1] > a1[1]


def test_frames_encoded_with_the_board_palette_keep_overlay_colours_exact(ring: Track, base) -> None:
    """Live layers draw on a copy and encode with the board's fixed palette plus their own colours."""
    from PIL import ImageDraw

    kart = (214, 40, 40)
    frame = board_image(ring, SIZE)
    x, y = base.geometry.centre(parse_label("I3"))
    ImageDraw.Draw(frame).ellipse([x - 8, y - 8, x + 8, y + 8], fill=kart)
    out = Image.open(io.BytesIO(base.encode(frame, [kart]))).convert("RGB")
    assert out.getpixel((round(x), round(y))) == kart
    assert base.palette([kart]) is base.palette([kart])


def test_fonts_fall_back_to_regular_width_then_to_pillows_own(monkeypatch) -> None:
    import render.common as common

    files = dict(common._FONT_FILES)
    files[(False, True)] = "NoSuchCondensedFace.ttf"
    files[(True, False)] = "NoSuchBoldFace.ttf"
    files[(True, True)] = "NoSuchBoldCondensedFace.ttf"
    monkeypatch.setattr(common, "_FONT_FILES", files)
    common._font.cache_clear()
    common._face.cache_clear()
    try:
        assert common.font(14, condensed=True).path.endswith("DejaVuSans.ttf")  # no condensed face
        assert common.font(14, bold=True).getbbox("A")  # no bold face at all: Pillow's own font draws
    finally:
        common._font.cache_clear()
        common._face.cache_clear()
