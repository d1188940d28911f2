"""The ring track's board compared with a stored reference picture, with a tolerance.

After a deliberate change to the look, write a new reference and look at it before committing:
``JUNKYARD_UPDATE_REFERENCES=1 python -m pytest tests/render/test_reference.py``.
"""

from __future__ import annotations

from PIL import Image

from render.races.board import board_base
from rules.races.track import load_track_text
from tests.render.pictures import assert_matches_reference
from tests.render.ring import RING_TRACK

REFERENCE = "ring_board_18_half.png"
CELL_SIZE = 18


def _half_size_board() -> Image.Image:
    img = board_base(load_track_text(RING_TRACK, "ring.track"), CELL_SIZE).image
    return img.reduce(2)


def test_ring_board_matches_its_reference_picture() -> None:
    picture = _half_size_board()
    assert_matches_reference(picture, REFERENCE)
