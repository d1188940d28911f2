"""The pictures' fonts are found wherever the system keeps them, and a missing face is said once."""

from __future__ import annotations

import logging
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import ImageFont

from render import common


@pytest.fixture
def fresh_fonts(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    """A font folder of our own and no system font folders (Pillow searches ``XDG_DATA_*/fonts``)."""
    empty = tmp_path / "nothing"
    empty.mkdir()
    monkeypatch.setenv("XDG_DATA_HOME", str(empty))
    monkeypatch.setenv("XDG_DATA_DIRS", str(empty))
    folder = tmp_path / "fonts"
    folder.mkdir()
    monkeypatch.setenv(common.FONT_DIR_VARIABLE, str(folder))
    caches = (common._font, common._face, common.font_file)
    for cached in caches:
        cached.cache_clear()
    yield folder
    for cached in caches:
        cached.cache_clear()


#: where the system keeps each face, looked up before any test hides the system's folders
SYSTEM = {name: common.font_file(name) for name in common._FONT_FILES.values()}


def system_face(name: str) -> Path:
    path = SYSTEM[name]
    assert path is not None, f"{name} is not installed: the README names the font packages"
    return Path(path)


@pytest.mark.parametrize("name", sorted(common._FONT_FILES.values()))
def test_every_face_the_pictures_use_is_installed(name: str) -> None:
    """CI and the Docker image install every DejaVu face a picture asks for (the condensed ones too)."""
    assert system_face(name).name == name


def test_a_face_in_the_named_folder_is_used(fresh_fonts: Path) -> None:
    for name in common._FONT_FILES.values():
        shutil.copy(system_face(name), fresh_fonts)
    bold = common.font(20, bold=True, condensed=True)
    assert isinstance(bold, ImageFont.FreeTypeFont)
    assert Path(str(bold.path)) == fresh_fonts / "DejaVuSansCondensed-Bold.ttf"


def test_a_missing_condensed_face_stands_in_with_one_line(fresh_fonts: Path, caplog: pytest.LogCaptureFixture
                                                         ) -> None:
    shutil.copy(system_face("DejaVuSans.ttf"), fresh_fonts)
    with caplog.at_level(logging.WARNING, logger="render.common"):
        first = common.font(14, condensed=True)
        common.font(30, condensed=True)
    assert isinstance(first, ImageFont.FreeTypeFont) and Path(str(first.path)).name == "DejaVuSans.ttf"
    assert [r.getMessage() for r in caplog.records] == [
        f"font DejaVuSansCondensed.ttf not found: using {fresh_fonts / 'DejaVuSans.ttf'} (install fonts-dejavu-extra)"]


def test_without_dejavu_the_built_in_font_draws_and_says_so_once(fresh_fonts: Path,
                                                                  caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="render.common"):
        shown = common.font(16, bold=True)
        common.font(24, bold=True)
    assert shown.getbbox("Lap 3/5")[2] > 0
    assert [r.getMessage() for r in caplog.records] == [
        "font DejaVuSans-Bold.ttf not found: using Pillow's built-in font (install fonts-dejavu-core)"]
