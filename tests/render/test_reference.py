"""The ring track's board compared with a stored reference picture, with a tolerance.

After a deliberate change to the look, write a new reference and look at it before committing:
``JUNKYARD_UPDATE_REFERENCES=1 python -m pytest tests/render/test_reference.py``.
"""

from __future__ import annotations

import os
from pathlib import Path

from PIL import Image, ImageChops

from render.races.board import board_base
from rules.races.track import load_track_text
from tests.render.ring import RING_TRACK

REFERENCE = Path(__file__).parent / "reference" / "ring_board_18_half.png"
CELL_SIZE = 18


def _half_size_board() -> Image.Image:
    img = board_base(load_track_text(RING_TRACK, "ring.track"), CELL_SIZE).image
    return img.reduce(2)


def test_ring_board_matches_its_reference_picture() -> None:
    picture = _half_size_board()
    if os.environ.get("JUNKYARD_UPDATE_REFERENCES"):
        picture.quantize(colors=256, method=Image.Quantize.FASTOCTREE).save(REFERENCE, optimize=True)
    reference = Image.open(REFERENCE).convert("RGB")
    assert picture.size == reference.size
    diff = ImageChops.difference(picture, reference).convert("L")
    histogram = diff.histogram()
    total = picture.width * picture.height
    mean = sum(i * n for i, n in enumerate(histogram)) / total
    far = sum(histogram[48:]) / total
    assert mean < 4, f"mean difference {mean:.2f} from {REFERENCE.name}"
    assert far < 0.01, f"{far:.2%} of pixels differ a lot from {REFERENCE.name}"
