"""``junkyard track``: draw, list and check tracks from the command line."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.cli import main
from rules.races.track import builtin_tracks
from tests.render.ring import RING_TRACK


@pytest.fixture
def ring_file(tmp_path):
    path = tmp_path / "ring.track"
    path.write_text(RING_TRACK, encoding="utf-8")
    return path


def test_draws_a_track_file_to_a_png(ring_file, tmp_path, capsys) -> None:
    out = tmp_path / "ring.png"
    assert main(["track", str(ring_file), "--out", str(out), "--size", "20"]) == 0
    img = Image.open(io.BytesIO(out.read_bytes()))
    assert img.format == "PNG" and img.width >= 1400
    assert "wrote" in capsys.readouterr().out


def test_draws_a_builtin_track_by_alias(tmp_path) -> None:
    tracks = builtin_tracks()
    assert tracks, "no built-in track"
    alias = sorted(t.alias for t in tracks.values())[0]
    out = tmp_path / "a.png"
    assert main(["track", alias.lower(), "--out", str(out)]) == 0
    assert out.read_bytes().startswith(b"\x89PNG")


def test_unknown_track_name_says_which_exist(tmp_path, capsys) -> None:
    """An unknown name is a usage mistake: exit code 2 (bot.commands.EXIT_CODES)."""
    assert main(["track", "no such track", "--out", str(tmp_path / "x.png")]) == 2
    assert "no track called" in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()


def test_list_names_the_builtin_tracks(capsys) -> None:
    code = main(["track", "--list"])
    out = capsys.readouterr().out
    tracks = builtin_tracks()
    assert code == (0 if tracks else 1)
    for t in tracks.values():
        assert t.name in out


def test_check_of_a_good_file_prints_a_one_line_summary(ring_file, capsys) -> None:
    assert main(["track", "--check", str(ring_file)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 1
    assert "ok" in lines[0] and "shortest lap" in lines[0] and "track cells" in lines[0]


def test_check_of_a_broken_file_lists_every_located_problem(tmp_path, capsys) -> None:
    broken = (
        RING_TRACK.replace("3 I2 4 K4", "3 I2 4 I2")  # two numbers on one cell
        .replace("B7 1 M7 2", "I2 1 M7 2")  # a collection point off the bridges
        .replace("1a M7  from M6 N6", "1a M7  from M6 Z6")  # a label outside the board
    )
    path = tmp_path / "broken.track"
    path.write_text(broken, encoding="utf-8")
    assert main(["track", "--check", str(path)]) == 1
    out = capsys.readouterr().out
    assert "Traceback" not in out
    delivery_line = 1 + broken.splitlines().index("3 I2 4 I2 5 M3 6 M5 7 O11 8 M10 9 L12 10 J11")
    assert f"broken.track:{delivery_line}: [I2] two delivery numbers on one cell" in out
    assert "[I2] Bottle Top Collection Point must be on a bridge" in out
    assert "'Z6'" in out


def test_check_of_a_missing_file_is_a_message_not_a_traceback(tmp_path, capsys) -> None:
    assert main(["track", "--check", str(tmp_path / "nope.track")]) == 1
    assert "cannot read" in capsys.readouterr().out


def test_check_of_a_garbled_file_is_a_message_not_a_traceback(tmp_path, capsys) -> None:
    path = tmp_path / "garbled.track"
    path.write_bytes(b"\xff\xfe\x00 not text [map]")
    assert main(["track", "--check", str(path)]) == 1
    assert "Traceback" not in capsys.readouterr().out


def test_wrong_usage_exits_2(tmp_path, capsys) -> None:
    assert main(["track"]) == 2
    assert main(["track", "A"]) == 2  # no --out
    assert main(["track", "A", "--out", str(tmp_path / "a.png"), "--size", "500"]) == 2
    assert "--size" in capsys.readouterr().err
