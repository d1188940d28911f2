"""The track loader: every mistake in a track file comes back as a located problem, never a crash.

``broken_tracks/base.track`` is a small valid loop; each other file there is that loop with one mistake,
named by the file and described in its first line. The track format is in rules/races/tracks/README.md.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from rules.hexgrid import Facing, Hex, parse_label
from rules.races.track import (
    PitColour,
    Problem,
    Terrain,
    Track,
    TrackError,
    builtin_tracks,
    get_track,
    load_track_file,
    load_track_text,
)

HERE = Path(__file__).parent / "broken_tracks"
BASE = HERE / "base.track"


def at(label: str) -> Hex:
    return parse_label(label)


def problems_of(name: str) -> list[Problem]:
    with pytest.raises(TrackError) as info:
        load_track_file(HERE / f"{name}.track")
    return info.value.problems


# (file, message pattern, line, cell): the problem the mistake must produce, with its place
BROKEN = [
    ("unknown_terrain", r"unknown terrain 'x'; use one of '=', 'g', 'm', 'b', '~', 'G', 'R', '\.'", 14, "C3"),
    ("bridge_no_exit", r"bridge has no exit \('to' cells\)", 41, "F8"),
    ("delivery_missing", r"delivery number\(s\) missing: 18$", 47, None),
    ("delivery_doubled", r"delivery number 17 is doubled \(also at C6\)", 49, "C5"),
    ("pit_three_cells", r"the green Pit Stop has 3 cells \('G' on the map\); it must have 4", 18, "A5"),
    ("pit_split", r"the green Pit Stop is not one connected lane", 18, "A5"),
    ("stream_no_landing", r"stream cell has no Landing Point", 27, "F9"),
    ("stream_no_landing", r"stream cell has no Landing Point", 26, "G9"),
    ("unreachable", r"cell cannot be reached from the start cells", 18, "E5"),
    ("dead_end", r"no way leads from this cell back to the Checkered Line", 11, "H1"),
    ("gap_never_lands", r"collapsed bridge heading SE never reaches a far bridge end", 38, "F2"),
    ("bad_label", r"'Z44': the board's columns run from A to L", 30, "Z44"),
    ("wall_not_neighbours", r"wall A5/C4: the two cells are not neighbours", 30, "A5"),
    ("bottletop_off_bridge", r"Bottle Top Collection Point must be on a bridge", 52, "H8"),
    ("arrow_not_neighbour", r"arrow to D3 does not point at a neighbour", 38, "F2"),
    ("two_starts", r"the Checkered Line needs 3 start cells, found 2", 43, None),
    ("unknown_section", r"unknown section \[pitstops\]; known sections: bottletops, bridges", 51, None),
    ("misaligned_map", r"column D is odd \(B, D, …\) and belongs on the second line of the row", 20, "D6"),
    ("between_columns", r"character 'x' at position 10 sits between two columns", 20, None),
]


def test_the_base_of_the_broken_samples_loads() -> None:
    track = load_track_file(BASE)
    assert (track.name, track.alias, track.columns, track.rows) == ("Test Loop", "S", 12, 9)
    assert track.shortest_lap()[0] == 21


@pytest.mark.parametrize(("name", "pattern", "line", "cell"), BROKEN, ids=[f"{b[0]}-{b[3]}" for b in BROKEN])
def test_a_broken_file_gives_a_located_problem(name: Any, pattern: Any, line: Any, cell: Any) -> None:
    problems = problems_of(name)
    matching = [p for p in problems if re.search(pattern, p.message)]
    assert matching, f"no problem matches {pattern!r}; got {[str(p) for p in problems]}"
    assert [(p.file, p.line, p.cell) for p in matching if p.line == line and p.cell == cell] == [
        (f"{name}.track", line, cell)
    ], [str(p) for p in matching]


def test_every_broken_sample_is_covered_and_every_problem_has_file_and_line() -> None:
    names = sorted(p.stem for p in HERE.glob("*.track") if p.stem != "base")
    assert names == sorted({b[0] for b in BROKEN})
    for name in names:
        for p in problems_of(name):
            assert p.file == f"{name}.track"
            assert isinstance(p.line, int) and p.line > 0, str(p)


def test_each_broken_sample_says_what_is_wrong_on_its_first_line() -> None:
    for path in HERE.glob("*.track"):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith("# "), path.name


def test_a_problem_reads_file_line_cell_then_message() -> None:
    p = next(p for p in problems_of("bridge_no_exit") if "no exit" in p.message)
    assert str(p) == "bridge_no_exit.track:41: [F8] bridge has no exit ('to' cells)"
    with pytest.raises(TrackError, match=r"1 problem\(s\) in track file:\n  bridge_no_exit.track:41: \[F8\]"):
        load_track_file(HERE / "bridge_no_exit.track")


def test_all_problems_are_listed_at_once() -> None:
    text = BASE.read_text(encoding="utf-8")
    text = text.replace(" 17 C6 18 C5", " 17 C6").replace("F2 1 G2 2 G8 3", "F2 1 G2 2 H8 3")
    text = text.replace("2a F8   from G8     to E8", "2a F8   from G8")
    with pytest.raises(TrackError) as info:
        load_track_text(text, "three.track")
    messages = " | ".join(p.message for p in info.value.problems)
    assert "missing: 18" in messages
    assert "must be on a bridge" in messages
    assert "has no exit" in messages


@pytest.mark.parametrize(
    ("old", "new", "pattern"),
    [
        ("[track]", "stray words\n[track]", r"text before the first \[section\]"),
        ("[walls]", "[walls]\n[walls]", r"section \[walls\] appears twice"),
        ("alias S\n", "", r"\[track\] needs a alias"),
        ("alias S\n", "alias S\ncolour blue\n", r"unknown key 'colour' in \[track\]"),
        ("  3 =   =", "  4 =   =", r"map row 4 follows row 2; rows must count up by one"),
        ("1 landing H2 SE rows 1-4", "1 landing H2 SE rows 4-1", r"span '4-1' runs backwards"),
        ("1 landing H2 SE rows 1-4", "1 landing H2 SE columns 1-4", r"span '1-4' does not name columns"),
        ("1 landing H2 SE rows 1-4", "1 landing H2 E rows 1-4", r"'E' is not a facing"),
        ("1 landing H2 SE rows 1-4", "1 landing G3 SE rows 1-4", r"Landing Point is in the stream"),
        ("1 landing H2 SE rows 1-4", "landing H2", r"a crossing reads: ID landing CELL FACING"),
        ("1a F2   from E2 E3  to G2      red SE", "1a F2   from E2 E3  to G2      red NW",
         r"red arrow NW does not point into the stream"),
        ("1a F2   from E2 E3", "1a F2   E2 E3", r"'E2': say 'from', 'to' or 'red' before"),
        ("1a F2   from E2 E3", "bridge F2   from E2 E3", r"bridge name 'bridge' should be the crossing digit"),
        ("1a F2   from E2 E3  to G2      red SE", "1a F2   to G2", r"bridge has no entry \('from' cells\)"),
        ("2a F8   from G8     to E8", "2a E8   from G8     to E8", r"bridge arrows on a cell that is not a bridge"),
        ("2a F8   from G8     to E8", "", r"bridge cell has no arrows in \[bridges\]"),
        ("start B4 N C4 N B5 N", "start B4 N C4 N B3 N", r"start cell is ahead of the line"),
        ("start B4 N C4 N B5 N", "start B4 N C4 N B4 N", r"start cell is listed twice"),
        ("edges A4/A3", "edges A4/A2", r"line edge A4/A2: cells are not neighbours"),
        ("edges A4/A3", "edges A4", r"line edge 'A4' should read BEHIND/AHEAD"),
        ("edges A4/A3", "edges A4/A3 A3/A2", r"cell is both behind and ahead of the Checkered Line"),
        ("3 B3 4 D2", "3 B3 4 F3", r"Delivery Point 4 is in the stream"),
        ("3 B3 4 D2", "3 B3 19 D2", r"delivery number '19' must be 3 to 18"),
        ("3 B3 4 D2", "3 B3 4 B3", r"two delivery numbers on one cell"),
        ("3 B3 4 D2", "3 B3 4 A5", r"Delivery Point inside a Pit Stop"),
        ("F2 1 G2 2 G8 3", "F2 1 G2 4 G8 3", r"worth 1 to 3 bottle tops, not '4'"),
        ("F2 1 G2 2 G8 3", "F2 1 G2 2", r"3 to 5 Bottle Top Collection Points, found 2"),
        ("A5/B4 A5/B5", "A5/A4/B4 A5/B5", r"'A4/B4'"),
        ("[delivery]", "[deliveries]", r"section \[delivery\] is missing"),
    ],
)
def test_other_mistakes_are_named(old: str, new: str, pattern: str) -> None:
    text = BASE.read_text(encoding="utf-8")
    assert text.count(old) == 1
    with pytest.raises(TrackError) as info:
        load_track_text(text.replace(old, new), "edited.track")
    assert any(re.search(pattern, p.message) for p in info.value.problems), [str(p) for p in info.value.problems]
    assert all(p.file == "edited.track" for p in info.value.problems)


def test_damaged_files_never_raise_anything_but_track_error() -> None:
    """Random damage to every line kind: the loader always answers with located problems."""
    lines = BASE.read_text(encoding="utf-8").splitlines()
    tokens = ["A1", "Z99", "b", "~", "G", "from", "to", "red", "N", "XX", "0", "-", "/", "[map]", "", "19", "2b",
              "columns", "rows", "A-", "landing", "edges", "start", "#", "F2/G3", "C3/D3", "1-x"]
    rng = random.Random(7)
    for _ in range(300):
        damaged = list(lines)
        for _ in range(rng.randint(1, 4)):
            k = rng.randrange(len(damaged))
            roll = rng.random()
            if roll < 0.25:
                del damaged[k]
            elif roll < 0.5 and damaged[k]:
                j = rng.randrange(len(damaged[k]))
                damaged[k] = damaged[k][:j] + rng.choice(".=gmb~GRx ") + damaged[k][j + 1:]
            elif roll < 0.8:
                parts = damaged[k].split(" ")
                parts[rng.randrange(len(parts))] = rng.choice(tokens)
                damaged[k] = " ".join(parts)
            else:
                damaged.insert(k, rng.choice(lines))
        try:
            load_track_text("\n".join(damaged), "damaged.track")
        except TrackError as exc:
            assert exc.problems
            assert all(p.file == "damaged.track" for p in exc.problems)


# The model the loader builds ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def small() -> Track:
    return load_track_file(BASE)


def test_terrain_pits_and_stream_cells(small: Any) -> None:
    assert small.terrain[at("C7")] is Terrain.GRASS
    assert small.terrain[at("J3")] is Terrain.MUD
    assert small.terrain[at("F2")] is Terrain.BRIDGE
    assert small.is_stream(at("F3")) and not small.on_track(at("F3"))
    assert small.on_track(at("F2")) and small.on_track(at("A5"))
    assert not small.on_track(at("E5")) and at("E5") not in small.terrain
    assert {c.label for c, p in small.pits.items() if p is PitColour.GREEN} == {"A5", "A6", "A7", "A8"}
    assert {c.label for c, p in small.pits.items() if p is PitColour.RED} == {"L4", "L5", "L6", "L7"}
    assert len(small.track_cells) == 62 and len(small.stream_cells) == 14


def test_r2_walls_stand_at_the_map_edge_off_the_track_and_where_listed(small: Any) -> None:
    assert small.wall_between(at("A5"), at("B4"))  # listed: the pit lane's side
    assert not small.wall_between(at("A5"), at("A4"))  # the lane's open end
    assert small.wall_between(at("C4"), at("D5"))  # D5 is junk
    assert not small.wall_between(at("E2"), at("F3"))  # a stream bank is open
    assert small.wall_between(at("A2"), parse_label("A2").neighbour(Facing.SW))  # off the board


def test_r6_bridges_are_one_way(small: Any) -> None:
    assert small.may_step(at("E2"), at("F2")) and small.may_step(at("E3"), at("F2"))
    assert small.may_step(at("F2"), at("G2")) and small.may_step(at("G2"), at("H2"))
    assert not small.may_step(at("H2"), at("G2"))  # against the arrows
    assert not small.may_step(at("G2"), at("F2"))
    assert not small.may_step(at("F2"), at("E2"))
    assert not small.may_step(at("G3"), at("G2"))  # out of the water
    assert not small.may_step(at("F2"), at("G3"))  # into the water


def test_r6_bumps_follow_arrows_and_red_sides(small: Any) -> None:
    assert small.may_bump(at("F2"), at("G3"))  # red SE: into the stream
    assert not small.may_bump(at("G2"), at("G3"))  # no red arrow that way
    assert small.may_bump(at("F2"), at("G2"))  # along the arrows
    assert not small.may_bump(at("G2"), at("F2"))
    assert small.may_bump(at("E2"), at("F3"))  # off an open bank into the water
    assert not small.may_bump(at("A5"), at("B4"))  # never over a wall


def test_r8_every_stream_cell_has_its_landing_point(small: Any) -> None:
    assert small.landing_for(at("F1")).cell == at("H2")
    assert small.landing_for(at("F1")).facing is Facing.SE
    assert small.landing_for(at("G9")).cell == at("E8")
    assert set(small.stream_landing) == set(small.stream_cells)


def test_checkered_line_starts_deliveries_and_bottle_tops(small: Any) -> None:
    assert small.line_edges[(at("A4"), at("A3"))] == 1
    assert small.line_edges[(at("A3"), at("A4"))] == -1
    assert [(s.cell.label, s.facing) for s in small.starts] == [("B4", Facing.N), ("C4", Facing.N), ("B5", Facing.N)]
    assert sorted(small.deliveries) == list(range(3, 19))
    assert small.delivery_at[at("B3")] == 3
    assert small.bottle_tops == {at("F2"): 1, at("G2"): 2, at("G8"): 3}
    assert small.bridge_names == {"1a": (at("F2"), at("G2")), "2a": (at("F8"), at("G8"))}


def test_parse_cell_knows_the_board_size(small: Any) -> None:
    assert small.parse_cell("l9") == at("L9")
    with pytest.raises(ValueError, match="columns run from A to L"):
        small.parse_cell("M1")
    with pytest.raises(ValueError, match="rows run from 1 to 9"):
        small.parse_cell("A10")


def test_r7_a_kart_may_drive_into_a_gap_facing_it_or_turning_sixty_degrees() -> None:
    track = get_track("A")
    gap = track.gaps[0]
    for facing in Facing:
        jump = track.jump_landing(gap.near, facing)
        if facing in (gap.facing, gap.facing.left, gap.facing.right):
            assert jump == (gap, len(gap.cells) + 1)
        else:
            assert jump is None
    assert track.jump_landing(track.starts[0].cell, track.starts[0].facing) is None


def test_get_track_by_name_or_alias_any_case_and_names_the_choices_when_unknown() -> None:
    tracks = builtin_tracks()
    assert len(tracks) == 2
    for t in tracks.values():
        assert get_track(t.alias) is t
        assert get_track(t.alias.lower()) is t
        assert get_track(f"  {t.name.upper()} ") is t
    with pytest.raises(KeyError, match=r"no track called 'Q'; choose one of: .*\(A\).*\(B\)"):
        get_track("Q")


# The command line check ----------------------------------------------------------------------------

def test_track_check_prints_located_problems_and_fails(capsys: pytest.CaptureFixture[str]) -> None:
    from bot.cli import main

    path = HERE / "bridge_no_exit.track"
    assert main(["track", "--check", str(path)]) != 0
    out = capsys.readouterr().out
    assert f"{path}:41: [F8] bridge has no exit ('to' cells)" in out


def test_track_check_passes_a_good_file(capsys: pytest.CaptureFixture[str]) -> None:
    from bot.cli import main

    assert main(["track", "--check", str(BASE)]) == 0
    assert "ok" in capsys.readouterr().out
