"""The PNG writer of the move pictures: what it writes reads back as the very image it was given."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from render.common import encode_png, palette_png, to_palette


def _noisy_palette_image(colours: int, size: tuple[int, int] = (97, 41), seed: int = 3) -> Image.Image:
    rng = random.Random(seed)
    image = Image.new("P", size)
    image.putpalette([rng.randrange(256) for _ in range(3 * colours)])
    image.putdata([rng.randrange(colours) for _ in range(size[0] * size[1])])
    return image


@pytest.mark.parametrize("colours", [1, 2, 17, 256])
def test_a_palette_png_reads_back_as_the_same_pixels_and_colours(colours: int) -> None:
    image = _noisy_palette_image(colours)
    back = Image.open(io.BytesIO(palette_png(image)))
    back.load()
    assert back.mode == "P" and back.size == image.size
    assert back.convert("RGB").tobytes() == image.convert("RGB").tobytes()


def test_a_transparent_entry_stays_transparent() -> None:
    image = _noisy_palette_image(8)
    image.info["transparency"] = 5
    back = Image.open(io.BytesIO(palette_png(image)))
    assert back.convert("RGBA").tobytes() == image.convert("RGBA").tobytes()
    alphas = back.convert("RGBA").getchannel("A").getextrema()
    assert alphas == (0, 255)


def test_a_move_picture_goes_through_the_fast_writer_and_a_kept_one_through_pillow() -> None:
    """Both give the same picture; the kept one (a higher level) is smaller, the move picture faster."""
    rgb = Image.new("RGB", (120, 60), (30, 140, 60))
    rgb.paste((200, 40, 40), (10, 10, 50, 40))
    quick, kept, held = encode_png(rgb), encode_png(rgb, compress_level=6), encode_png(rgb, fast=False)
    assert quick == palette_png(to_palette(rgb))
    assert kept != quick and held != quick
    for data in (quick, kept, held):
        assert Image.open(io.BytesIO(data)).convert("RGB").tobytes() == rgb.tobytes()
