"""Comparing a picture with a stored reference picture, with a tolerance.

After a deliberate change to the look, write new references and look at them before committing: run the
picture tests with ``JUNKYARD_UPDATE_REFERENCES=1``.
"""

from __future__ import annotations

import os
from pathlib import Path

from PIL import Image, ImageChops

REFERENCES = Path(__file__).parent / "reference"


def assert_matches_reference(picture: Image.Image, name: str) -> None:
    """``picture`` (RGB) looks like the reference ``name``: a mean difference under 4 and under 1 % of the
    pixels far off. With ``JUNKYARD_UPDATE_REFERENCES`` set, ``picture`` first becomes the new reference."""
    path = REFERENCES / name
    if os.environ.get("JUNKYARD_UPDATE_REFERENCES"):
        picture.quantize(colors=256, method=Image.Quantize.FASTOCTREE).save(path, optimize=True)
    reference = Image.open(path).convert("RGB")
    assert picture.size == reference.size
    histogram = ImageChops.difference(picture, reference).convert("L").histogram()
    total = picture.width * picture.height
    mean = sum(i * n for i, n in enumerate(histogram)) / total
    far = sum(histogram[48:]) / total
    assert mean < 4, f"mean difference {mean:.2f} from {name}"
    assert far < 0.01, f"{far:.2%} of pixels differ a lot from {name}"
