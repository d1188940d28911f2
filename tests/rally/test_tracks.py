"""The lane-track loader: built-in tracks load; mistakes are all reported, each with line and column."""

from __future__ import annotations

from importlib import resources

import pytest

from rules.rally import TrackError, builtin_tracks, find_track, load_track_text


def track_text(name: str = "rostbogen-ring") -> str:
    return resources.files("rules.rally").joinpath("tracks", f"{name}.track").read_text(encoding="utf-8")


def problems(text: str) -> list[str]:
    with pytest.raises(TrackError) as info:
        load_track_text(text, "t.track")
    return [str(p) for p in info.value.problems]


def line_of(text: str, start: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if line.startswith(start))


def test_builtin_tracks_load_and_are_found_by_alias_and_name() -> None:
    tracks = builtin_tracks()
    assert set(tracks) == {"rostbogen-ring", "kurbelwellen-kurs"}
    assert find_track("a") is tracks["rostbogen-ring"] and find_track("Kurbelwellen-Kurs").alias == "B"
    with pytest.raises(KeyError, match="choose one of"):
        find_track("Z")


def test_a_bad_lane_character_is_reported_with_line_and_column() -> None:
    text = track_text().replace("   9  .     |ooo|", "   9  .     |oxo|")
    n = line_of(text, "   9 ")
    assert problems(text) == [f"t.track:{n}:15: 'x' is not a lane: use `o` (road), `g` (green curve), `y` "
                              "(yellow curve), upper case for a cell with a road sign, `.` for no lane"]


def test_every_problem_is_collected() -> None:
    text = track_text()
    text = text.replace("   9  .     |ooo|", "   9  .     |o.o|")  # lanes apart
    text = text.replace("  11  .     |ooo|", "  11  Q2    |ooo|")  # unknown feature
    text = text.replace("  12  .     |ooo|", "  14  .     |ooo|")  # wrong number
    text = text.replace("  13  .     |yyy|", "  13  .     |yoy|")  # mixed curve
    found = problems(text)
    lines = [int(p.split(":")[1]) for p in found]
    assert len(found) == 4 and lines == sorted(lines)
    assert "must lie side by side" in found[0] and ":7:" in found[1] and "is not a side feature" in found[1]
    assert "row 14 where row 12 was expected" in found[2] and found[2].split(":")[2] == "3"
    assert "mixes curve marks" in found[3]


def test_missing_arch_and_pit_lane() -> None:
    text = track_text().replace("      ======|###|======\n", "")
    text = text.replace("  H\n", "  .\n").replace("  P2\n", "  .\n").replace("  P3\n", "  .\n")
    text = text.replace("  P4\n", "  .\n").replace("  P6\n", "  .\n")
    found = problems(text)
    assert any("no start/finish arch" in p for p in found)
    assert any("no pit lane" in p for p in found)


def test_too_few_rows() -> None:
    lines = track_text().splitlines()
    short = "\n".join(line for line in lines if not (line[:4].strip().isdigit() and int(line[:4]) > 40))
    assert any("has 40 rows; a track has 48 to 64" in p for p in problems(short))


def test_spots_for_every_player_count_are_required() -> None:
    text = track_text().replace("F23  ", "F3   ").replace("E235 ", "E35  ").replace("B246 ", "B46  ")
    text = text.replace("M24", "M4").replace("F256", "F56").replace("E25 ", "E5  ")
    found = problems(text)
    assert any("with 2 players only 0 car-park spots are open" in p for p in found)
    assert any("petrol station with a spot open to 2 players" in p for p in found)


def test_unknown_section_and_key() -> None:
    text = track_text().replace("[track]", "[track]\ncolour red").replace("[map]", "[legend]\n[map]")
    found = problems(text)
    assert any("unknown key 'colour'" in p for p in found) and any("unknown section [legend]" in p for p in found)


def test_a_car_park_may_not_sit_on_the_pit_lane() -> None:
    text = track_text().replace("  31  .     |ooo|  H", "  31  .     |ooo|  H\n")
    text = text.replace("  33  B34   |ooo|  P3", "  33  B34   |ooo|  F3")
    assert any("the pit lane's rows must follow each other" in p or "stands where the pit lane is" in p
               for p in problems(text))
