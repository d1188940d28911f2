"""Hex geometry of the board (ruling R1): flat-top hexes, six facings, map-style labels, odd-q offset."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.hexgrid import Facing, Hex, column_index, column_letters, parse_label, pixel_to_hex

COLUMNS, ROWS = 30, 22
BOARD = [Hex.from_offset(c, r) for c in range(COLUMNS) for r in range(ROWS)]

cells = st.builds(Hex, st.integers(-40, 40), st.integers(-40, 40))
facings = st.sampled_from(list(Facing))


def at(label: str) -> Hex:
    return parse_label(label)


# Facings ---------------------------------------------------------------------------------------------


def test_r1_six_facings_run_clockwise_from_north() -> None:
    assert [f.name for f in Facing] == ["N", "NE", "SE", "S", "SW", "NW"]


@pytest.mark.parametrize(
    ("facing", "left", "right", "opposite"),
    [
        (Facing.N, Facing.NW, Facing.NE, Facing.S),
        (Facing.NE, Facing.N, Facing.SE, Facing.SW),
        (Facing.SE, Facing.NE, Facing.S, Facing.NW),
        (Facing.S, Facing.SE, Facing.SW, Facing.N),
        (Facing.SW, Facing.S, Facing.NW, Facing.NE),
        (Facing.NW, Facing.SW, Facing.N, Facing.SE),
    ],
)
def test_r5_turning_left_right_and_about(facing: Any, left: Any, right: Any, opposite: Any) -> None:
    assert facing.left is left
    assert facing.right is right
    assert facing.opposite is opposite


@given(facings, st.integers(-20, 20))
def test_turn_by_whole_turns_changes_nothing_and_steps_compose(facing: Any, steps: Any) -> None:
    assert facing.turn(6 * steps) is facing
    assert facing.turn(steps).turn(-steps) is facing
    assert facing.turn(steps + 1) is facing.turn(steps).right


def test_facing_parse_accepts_any_case_and_names_the_choices_when_wrong() -> None:
    assert Facing.parse(" ne ") is Facing.NE
    assert Facing.parse("s") is Facing.S
    with pytest.raises(ValueError, match=r"'E' is not a facing: use one of N, NE, SE, S, SW, NW"):
        Facing.parse("E")


# Neighbours, facing_to, distance -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("cell", "expected"),
    [
        # even column: its neighbours in the odd columns either side sit on its row and the row above
        ("C5", {"N": "C4", "NE": "D4", "SE": "D5", "S": "C6", "SW": "B5", "NW": "B4"}),
        # odd column, half a cell lower: its side neighbours are on its row and the row below
        ("D5", {"N": "D4", "NE": "E5", "SE": "E6", "S": "D6", "SW": "C6", "NW": "C5"}),
    ],
)
def test_r1_neighbours_by_label_in_odd_q_layout(cell: str, expected: dict[str, Any]) -> None:
    centre = at(cell)
    assert {f.name: centre.neighbour(f).label for f in Facing} == expected
    assert sorted(n.label for n in centre.neighbours()) == sorted(expected.values())


@given(cells, facings)
def test_stepping_and_stepping_back_returns_home(cell: Any, facing: Any) -> None:
    assert cell.neighbour(facing).neighbour(facing.opposite) == cell


@given(cells)
def test_six_distinct_neighbours_each_one_step_away_and_named_by_facing_to(cell: Any) -> None:
    ns = cell.neighbours()
    assert len(set(ns)) == 6
    for f, n in zip(Facing, ns, strict=True):
        assert cell.distance(n) == 1
        assert cell.facing_to(n) is f
        assert n.facing_to(cell) is f.opposite


def test_facing_to_is_none_for_a_cell_that_is_not_adjacent() -> None:
    assert at("C5").facing_to(at("C5")) is None
    assert at("C5").facing_to(at("C7")) is None
    assert at("C5").facing_to(at("E5")) is None


@pytest.mark.parametrize(
    ("a", "b", "steps"),
    [("A1", "A1", 0), ("A1", "A22", 21), ("A1", "AD1", 29), ("C5", "D5", 1), ("C5", "E4", 2), ("B2", "D4", 3),
     ("A1", "AD22", 36)],
)
def test_distance_examples(a: str, b: str, steps: int) -> None:
    assert at(a).distance(at(b)) == steps
    assert at(b).distance(at(a)) == steps


def test_distance_equals_the_fewest_steps_found_by_walking() -> None:
    start = at("O11")
    seen = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for cell in frontier:
            for n in cell.neighbours():
                if n not in seen and seen[cell] < 12:
                    seen[n] = seen[cell] + 1
                    nxt.append(n)
        frontier = nxt
    assert all(start.distance(c) == d for c, d in seen.items())


@given(cells, cells, cells)
def test_distance_is_a_metric(a: Any, b: Any, c: Any) -> None:
    assert a.distance(b) == b.distance(a) >= 0
    assert (a.distance(b) == 0) == (a == b)
    assert a.distance(c) <= a.distance(b) + b.distance(c)


def test_line_walks_straight() -> None:
    assert [c.label for c in at("C5").line(Facing.SE, 3)] == ["D5", "E6", "F6"]
    assert at("C5").line(Facing.N, 0) == []


# Labels -------------------------------------------------------------------------------------------


def test_r1_labels_round_trip_over_a_whole_30_by_22_board() -> None:
    labels = [c.label for c in BOARD]
    assert len(set(labels)) == COLUMNS * ROWS
    for cell, label in zip(BOARD, labels, strict=True):
        assert parse_label(label, COLUMNS, ROWS) == cell
        assert parse_label(label.lower(), COLUMNS, ROWS) == cell
        assert Hex.from_offset(cell.col, cell.row) == cell
        assert str(cell) == label


def test_r1_corner_labels() -> None:
    assert Hex.from_offset(0, 0).label == "A1"
    assert Hex.from_offset(29, 21).label == "AD22"
    assert Hex.from_offset(26, 0).label == "AA1"


@pytest.mark.parametrize(("col", "letters"), [(0, "A"), (25, "Z"), (26, "AA"), (29, "AD"), (51, "AZ"), (52, "BA"),
                                              (701, "ZZ"), (702, "AAA")])
def test_column_letters_spreadsheet_style(col: int, letters: str) -> None:
    assert column_letters(col) == letters
    assert column_index(letters) == col


def test_column_letters_round_trip_and_refuse_negative() -> None:
    assert all(column_index(column_letters(c)) == c for c in range(2000))
    with pytest.raises(ValueError, match="negative"):
        column_letters(-1)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Q0", r"^'Q0': rows start at 1$"),
        ("Q-3", r"^'Q-3': rows start at 1$"),
        ("AE5", r"'AE5': the board's columns run from A to AD"),
        ("ZZ1", r"'ZZ1': the board's columns run from A to AD"),
        ("B23", r"'B23': the board's rows run from 1 to 22"),
        ("", r"a cell label is needed"),
        ("   ", r"a cell label is needed"),
        ("17", r"'17': a cell label starts with its column letters, like 'F17'"),
        ("QQ", r"'QQ': a cell label needs a row number after the letters, like 'QQ7'"),
        ("F7x", r"'F7x' is not a cell label"),
        ("7F", r"'7F' is not a cell label"),
        ("F 7", r"'F 7' is not a cell label"),
    ],
)
def test_r1_parse_label_errors_name_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_label(text, COLUMNS, ROWS)


def test_parse_label_without_bounds_accepts_any_size_and_trims_spaces() -> None:
    assert parse_label(" ad22 ") == Hex.from_offset(29, 21)
    assert parse_label("ZZ99") == Hex.from_offset(701, 98)


# Pixels ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("size", "origin"), [(1.0, (0.0, 0.0)), (23.5, (40.0, 60.0)), (37.0, (-5.0, 12.5))])
def test_pixel_centre_and_pixel_to_hex_round_trip_over_the_board(size: float, origin: tuple[Any, ...]) -> None:
    for cell in BOARD:
        x, y = cell.centre(size, origin)
        assert pixel_to_hex(x, y, size, origin) == cell


def test_flat_top_layout_columns_are_one_and_a_half_sizes_apart_and_odd_columns_sit_lower() -> None:
    size = 10.0
    a1, b1, a2 = (Hex.from_offset(0, 0), Hex.from_offset(1, 0), Hex.from_offset(0, 1))
    ax, ay = a1.centre(size)
    bx, by = b1.centre(size)
    cx, cy = a2.centre(size)
    assert bx - ax == pytest.approx(15.0)
    assert by - ay == pytest.approx(size * math.sqrt(3) / 2)
    assert (cx, cy - ay) == pytest.approx((ax, size * math.sqrt(3)))


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(BOARD), st.floats(0, 2 * math.pi), st.floats(0, 0.85))
def test_any_point_inside_a_cell_maps_back_to_it(cell: Any, angle: Any, fraction: Any) -> None:
    size = 20.0
    inner = size * math.sqrt(3) / 2  # distance from the centre to the middle of a side
    cx, cy = cell.centre(size, (3.0, 4.0))
    x, y = cx + math.cos(angle) * inner * fraction, cy + math.sin(angle) * inner * fraction
    assert pixel_to_hex(x, y, size, (3.0, 4.0)) == cell


def test_corners_lie_on_the_circumcircle_starting_east() -> None:
    size = 12.0
    cell = at("H9")
    cx, cy = cell.centre(size)
    corners = cell.corners(size)
    assert len(corners) == 6
    assert all(math.hypot(x - cx, y - cy) == pytest.approx(size) for x, y in corners)
    assert corners[0] == pytest.approx((cx + size, cy))


@pytest.mark.parametrize("facing", list(Facing))
def test_edge_towards_a_facing_is_the_side_shared_with_that_neighbour(facing: Any) -> None:
    size = 16.0
    cell = at("H9")
    a, b = cell.edge(facing, size)
    mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    here, there = cell.centre(size), cell.neighbour(facing).centre(size)
    assert mid == pytest.approx(((here[0] + there[0]) / 2, (here[1] + there[1]) / 2))
    assert math.dist(a, b) == pytest.approx(size)
    # the neighbour's opposite side is the same segment
    c, d = cell.neighbour(facing).edge(facing.opposite, size)
    assert {tuple(round(v, 6) for v in p) for p in (a, b)} == {tuple(round(v, 6) for v in p) for p in (c, d)}
