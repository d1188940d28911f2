"""The Junkyard (piecepack) picture: a valid PNG that shows the board state where a player looks for it."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from render.piecepack import GOLD, PATH, SUIT_COLOURS, Layout, picture, piecepack_png
from rules.piecepack import PiecepackGame

REFERENCE = Path(__file__).parent / "data" / "reference-4p.png"


def decode(png: bytes) -> Image.Image:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(png)).convert("RGB")


def near(a: tuple[int, ...], b: tuple[int, ...], tol: int = 40) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def reference_game() -> PiecepackGame:
    g = PiecepackGame.from_position({
        "players": ["Ann", "Bob", "Cy", "Di"],
        "pawns": {"Suns": "b2", "Moons": "c4", "Crowns": "e5", "Arms": "d1"},
        "trash": {"Suns": ["SA", "SB", "SC", "MA"], "Moons": ["MB", "CA"], "Crowns": [],
                  "Arms": ["AA", "AB", "AC", "MC", "CB", "CC"]},
        "phase": "move", "roll": 3,
    })
    g.apply("move b2-b3-a3-a4")
    return g


def test_picture_is_a_png_of_the_layout_size():
    img = decode(piecepack_png(reference_game().view(None)))
    lay = Layout(112)
    assert img.size == (lay.width, lay.height)


def test_front_end_name_is_the_same_function():
    assert picture is piecepack_png
    view = reference_game().view(None)
    assert picture(view, []) == piecepack_png(view)


def test_same_view_same_bytes():
    view = reference_game().view(None)
    assert piecepack_png(view) == piecepack_png(view)


def test_good_stuff_is_drawn_in_the_centre_until_taken():
    g = PiecepackGame.from_position({"pawns": {"Suns": "c1"}, "trash": {"Suns": []}, "phase": "move", "roll": 2})
    lay = Layout(112)
    cx, cy = lay.centre("c3")
    assert near(decode(piecepack_png(g.view(None))).getpixel((cx, cy + 20)), GOLD)
    g.apply("move c1-c2-c3")
    img = decode(piecepack_png(g.view(None)))
    # the carrier's pawn now stands on the centre, with the F pyramid at its side
    px, py = lay.origin("c3")
    assert near(img.getpixel((px + 112 * 0.42, py + 112 * 0.56 + 20)), SUIT_COLOURS["Suns"], 60)
    assert near(img.getpixel((px + 112 * 0.8, py + 112 * 0.5)), GOLD)


def test_last_move_path_is_highlighted():
    img = decode(piecepack_png(reference_game().view(None)))
    lay = Layout(112)
    (ax, ay), (bx, by) = lay.centre("b3"), lay.centre("a3")
    assert near(img.getpixel(((ax + bx) / 2, (ay + by) / 2)), PATH)
    # a square the path does not touch keeps its tile colour
    (cx, cy) = lay.centre("d3")
    assert not near(img.getpixel((cx + 20, cy + 20)), PATH)


@pytest.mark.parametrize("suit,square", [("Suns", "a4"), ("Moons", "c4"), ("Arms", "d1")])
def test_pawns_are_drawn_in_suit_colours(suit, square):
    img = decode(piecepack_png(reference_game().view(None)))
    x, y = Layout(112).origin(square)
    # the rim of the pawn disc, clear of the white symbol in its middle
    assert near(img.getpixel((x + 112 * 0.42 - 112 * 0.2, y + 112 * 0.56)), SUIT_COLOURS[suit], 50)


def test_matches_the_reference_picture():
    """Compared with a tolerance: fonts and antialiasing may differ slightly between machines.
    After an intended change, run with UPDATE_REFERENCE_PICTURES=1 and look at the new file."""
    img = decode(piecepack_png(reference_game().view(None)))
    if os.environ.get("UPDATE_REFERENCE_PICTURES"):  # pragma: no cover - after an intended change
        REFERENCE.parent.mkdir(exist_ok=True)
        img.save(REFERENCE)
    ref = Image.open(REFERENCE).convert("RGB")
    assert ref.size == img.size
    diff = ImageStat.Stat(ImageChops.difference(ref, img)).mean
    assert max(diff) < 6, f"picture differs from {REFERENCE.name}: mean channel difference {diff}"


def test_reachable_squares_are_marked_in_the_movers_colour():
    g = PiecepackGame.from_position({"pawns": {"Suns": "b2", "Moons": "c2"}, "phase": "move", "roll": 1})
    assert g.view(None)["reachable"] == ["b1", "a2", "c2", "b3"]
    img = decode(piecepack_png(g.view(None)))
    lay = Layout(112)
    for sq in ("b1", "a2", "b3"):
        assert near(img.getpixel(lay.centre(sq)), SUIT_COLOURS["Suns"])
    assert not near(img.getpixel(lay.centre("d4")), SUIT_COLOURS["Suns"])
    # Moons on c2 can be landed on: a Suns-coloured ring shows round its pawn
    x, y = lay.origin("c2")
    assert near(img.getpixel((x + 112 * 0.42, y + 112 * 0.56 - 112 * 0.33)), SUIT_COLOURS["Suns"])
