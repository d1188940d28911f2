"""Words that run longer than English still fit their places on every picture: a demo game of each game drawn
in German and in the pseudo-language ``qps`` (about 40 % longer than English), with the whole board, each
seat's card and a championship table on the way, records no overflow (:func:`render.common.recording_overflow`:
a text too big for its box even at the smallest size, a text cut short that is not a name, a text past the
picture's edge)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from render.common import cut_to, draw_bounded, font, recording_overflow
from rules import catalogue

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, catalogue.PSEUDO_VARIABLE: "1", "PYTHONPATH": str(ROOT)}


def test_the_recorder_notes_a_text_too_big_a_cut_and_one_off_the_picture_and_passes_a_cut_name() -> None:
    """So that a clean run means something: each kind of overflow is noted, a name cut with an ellipsis is not,
    and nothing is noted when nobody listens."""
    image = Image.new("RGB", (120, 40))
    draw = ImageDraw.Draw(image)
    long = "A heading far too long for so small a box, however it wraps"
    draw_bounded(draw, (0, 20), long, (60, 1000), 12, (0, 0, 0))
    with recording_overflow() as found:
        draw_bounded(draw, (0, 20), "Two words", (120, 40), 12, (0, 0, 0))
        assert found == []
        draw_bounded(draw, (0, 20), long, (100, 12), 12, (0, 0, 0))
        cut_to(draw, long, font(12), 50)
        cut_to(draw, "Lieselotte von Schrottplatz", font(12), 50, name=True)
        draw_bounded(draw, (200, 20), "x", (120, 40), 12, (0, 0, 0))
    assert [f.why for f in found] == ["too big", "cut", "off the picture"]


@pytest.mark.parametrize("lang", ["qps", "de"])
@pytest.mark.parametrize("game", ["races", "rally", "piecepack"])
def test_every_picture_of_a_demo_game_fits_its_words(game: str, lang: str, tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "render" / "layout_child.py"), game, lang,
                           str(tmp_path / "out"), str(tmp_path / "demo.db")], capture_output=True, text=True,
                          env=ENV, cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    found = sorted({f"{f['why']}: {f['text']}" for f in json.loads(done.stdout.splitlines()[-1])})
    assert found == []
