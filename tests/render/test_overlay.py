"""The "where can I go" overlay: the reach search agrees with driving every legal way through the
engine, and the picture tints exactly the cells it names."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image, ImageChops

from render.races.live import LIVE_CELL, board_png, live_base
from rules.hexgrid import parse_label
from rules.races import actions as act
from rules.races.engine import Races
from rules.races.reach import reach, reachable_cells


def game_at(points: int, karts: list[dict[str, Any]] | None = None, **extra: Any) -> Races:
    return Races.from_position({
        "track": "A",
        "karts": karts or [{"colour": "red", "cell": "U11", "facing": "N"}, {"colour": "blue", "cell": "U9",
                                                                            "facing": "N"}],
        "turn": "red", "phase": "move", "points": points, **extra,
    })


def drive_every_way(game: Races) -> tuple[set[str], set[str]]:
    """Brute force through the engine: (cells where the move ends, cells driven or flown through)
    over every sequence of legal single steps, with every answer to a Battering Ram's question. A
    step onto a face-up trap that ends the move ends it on the trap's cell, as the reach names it
    (an Oil then moves the kart on)."""
    ends: set[str] = set()
    visited: set[str] = set()
    seat = game.turn.seat

    def step(g: Races, action: act.Step, nxt: Races) -> None:
        cell = nxt.karts[seat].cell
        assert cell is not None and action.cell is not None
        over = nxt.turn.seat != seat or nxt.phase != "move"
        tile = g.board.get(action.cell)
        if over and tile is not None and not tile.face_down:
            cell = action.cell
        visited.add(cell.label)
        gap = g.track.gap_cells.get(action.cell)
        if gap is not None:  # R7: a jump flies over the gap, or falls into it
            flown = gap.cells[: gap.cells.index(cell) + 1] if cell in gap.cells else gap.cells
            visited.update(c.label for c in flown)
        if over:
            ends.add(cell.label)
        else:
            go(nxt)

    def go(g: Races) -> None:
        for action in g.legal_actions():
            if not isinstance(action, act.Step):
                continue
            nxt = Races.from_dict(g.to_dict())
            nxt.apply(action)
            if nxt.choice is not None and nxt.choice.kind == "ram":  # R14: one cell or two
                for option in nxt.choice.options:
                    pushed = Races.from_dict(nxt.to_dict())
                    pushed.apply(act.Choose(option))
                    step(g, action, pushed)
            else:
                step(g, action, nxt)

    go(game)
    return ends, visited - ends


def test_one_point_reaches_exactly_the_legal_steps() -> None:
    """R5: a forward step goes ahead, or 60 degrees left or right of ahead."""
    game = game_at(1)
    steps = {a.cell.label for a in game.legal_actions() if isinstance(a, act.Step) and a.cell is not None}
    assert reachable_cells(game) == steps == {"T10", "U10", "V10"}


@pytest.mark.parametrize("points", [2, 3, 4])
def test_reach_agrees_with_driving_every_legal_way_past_a_kart(points: int) -> None:
    """R5, R9 and bumping (rulebook: Bumping Other Karts): the search names the same end cells and the
    same cells driven through as trying every legal sequence of steps in the engine."""
    game = game_at(points)
    ends, passes = drive_every_way(game)
    found = reach(game)
    assert {c.label for c in found.ends} == ends
    assert {c.label for c in found.passes} == passes


def test_reach_agrees_with_the_engine_in_a_one_lane_stretch() -> None:
    """The single-lane stretch K9 L9 on track A, with a kart in it: only bumping gets through."""
    game = game_at(3, [{"colour": "red", "cell": "J9", "facing": "SE"},
                       {"colour": "blue", "cell": "L9", "facing": "SE"}])
    ends, passes = drive_every_way(game)
    found = reach(game)
    assert {c.label for c in found.ends} == ends
    assert {c.label for c in found.passes} == passes


def test_a_bump_off_an_oils_arrow_cell_lets_the_oil_stop_the_kart() -> None:
    """An Oil stops a kart only while no kart stands on the cell its arrow points at (R9, Field): here
    the kart on O8 keeps the Oil on P8 from firing until red bumps it away (rulebook: Bumping Other
    Karts); after that, driving onto P8 ends the move, so P8 is an end, as driving every legal way
    through the engine finds."""
    game = game_at(4, [{"colour": "red", "cell": "M9", "facing": "N"}, {"colour": "blue", "cell": "O8", "facing": "N"},
                       {"colour": "green", "cell": "K9", "facing": "NE"},
                       {"colour": "yellow", "cell": "M7", "facing": "N"},
                       {"colour": "purple", "cell": "M6", "facing": "NE"}],
                   board={"J9": "oil NE", "P8": "oil NW"})
    ends, passes = drive_every_way(game)
    found = reach(game)
    assert "P8" in ends
    assert ({c.label for c in found.ends}, {c.label for c in found.passes}) == (ends, passes)


def test_reach_agrees_with_the_engine_with_a_battering_ram() -> None:
    """R14: with a Battering Ram the player chooses to push the kart one cell or two, and each choice
    leads on differently; the reach names what every choice through the engine reaches."""
    game = game_at(3, [{"colour": "red", "cell": "J9", "facing": "SE", "parts": {"6": "battering-ram"}},
                       {"colour": "blue", "cell": "K9", "facing": "SE"},
                       {"colour": "green", "cell": "L11", "facing": "N"}])
    ends, passes = drive_every_way(game)
    found = reach(game)
    assert ({c.label for c in found.ends}, {c.label for c in found.passes}) == (ends, passes)


def test_reversing_reaches_up_to_the_reverse_steps_left() -> None:
    """Rulebook, Reversing: back one cell at a time, straight back or back-left or back-right, and the
    player may stop after any step."""
    game = game_at(3, reversing=True)
    assert game.turn.reversing
    ends, _ = drive_every_way(game)
    found = reach(game)
    assert {c.label for c in found.ends} >= ends
    assert not found.passes
    assert "U12" in {c.label for c in found.ends}  # straight back from U11 facing N


def test_nothing_to_show_before_the_roll() -> None:
    game = Races.from_position({"track": "A", "karts": [{"colour": "red", "cell": "U11", "facing": "N"},
                                                       {"colour": "blue", "cell": "U9", "facing": "N"}],
                                "turn": "red", "phase": "roll"})
    assert reachable_cells(game) == set()


def test_the_overlay_tints_the_cells_it_names_and_nothing_else() -> None:
    game = game_at(2)
    found = reach(game)
    view = game.view(None)
    plain = Image.open(io.BytesIO(board_png(view))).convert("RGB")
    tinted = Image.open(io.BytesIO(board_png(view, overlay=found))).convert("RGB")
    geo = live_base("A").geometry
    occupied = {k["cell"] for k in view["karts"]}
    for cell in found.ends:
        if cell.label in occupied:
            continue
        x, y = geo.centre(cell)
        spot = (round(x - LIVE_CELL * 0.45), round(y + LIVE_CELL * 0.3))  # clear of label and pieces
        before, after = plain.getpixel(spot), tinted.getpixel(spot)
        assert after != before and after[2] > before[2], cell.label  # bluer
    diff = ImageChops.difference(plain, tinted).getbbox()
    assert diff is not None
    cells = [geo.centre(c) for c in found.cells]
    assert diff[0] >= min(x for x, _ in cells) - LIVE_CELL - 2 and diff[2] <= max(x for x, _ in cells) + LIVE_CELL + 2
    far = geo.centre(parse_label("H15"))
    assert plain.getpixel((round(far[0]), round(far[1]))) == tinted.getpixel((round(far[0]), round(far[1])))


def test_an_overlay_given_as_labels_draws_the_same_as_a_reach() -> None:
    game = game_at(2)
    found = reach(game)
    view = game.view(None)
    ends, passes = found.labels()
    assert board_png(view, overlay=found) == board_png(view, overlay=(ends, passes))


def test_a_huge_roll_still_answers_quickly_enough_and_on_the_track() -> None:
    """A Jet-fuelled roll of 40: past the exact search's budget the answer is approximate, never empty."""
    game = game_at(40)
    found = reach(game)
    assert found.ends
    assert all(game.track.on_track(c) or game.track.is_stream(c) for c in found.cells)


def test_entering_the_race_shows_the_free_start_cells() -> None:
    """R15: a kart enters on a free start cell of its player's choice."""
    game = Races.create({"seats": [{"name": "Ann"}, {"name": "Bob"}], "options": {"track": "A"}}, 3)
    assert game.choice is not None and game.choice.kind == "enter"
    assert reachable_cells(game) == set(game.choice.options)


def _random_position(rng, track_name: str) -> dict[str, Any] | None:
    from rules.races.track import get_track

    track = get_track(track_name)
    cells = sorted(c for c in track.track_cells if c not in track.pits)
    mover = rng.choice(cells)
    near = [c for c in cells if 1 <= c.distance(mover) <= 2]
    others = rng.sample(near, min(len(near), rng.randint(1, 3)))
    facings = ["N", "NE", "SE", "S", "SW", "NW"]
    colours = ["red", "blue", "green", "yellow"]
    karts = [{"colour": colours[0], "cell": mover.label, "facing": rng.choice(facings)}]
    karts += [{"colour": colours[i + 1], "cell": c.label, "facing": rng.choice(facings)} for i, c in enumerate(others)]
    return {"track": track_name, "karts": karts, "turn": "red", "phase": "move", "points": rng.randint(1, 3)}


@pytest.mark.parametrize("track", ["A", "B"])
def test_reach_agrees_with_the_engine_on_random_positions(track: str) -> None:
    """R5, R6, R7, R9 and bumping, on positions drawn at random near walls, bridges and karts."""
    import random

    from rules.contract import SetupError

    rng = random.Random(f"reach-{track}")
    checked = 0
    while checked < 12:
        position = _random_position(rng, track)
        try:
            game = Races.from_position(position)
        except SetupError:
            continue
        if game.phase != "move" or game.choice is not None:
            continue
        ends, passes = drive_every_way(game)
        found = reach(game)
        assert ({c.label for c in found.ends}, {c.label for c in found.passes}) == (ends, passes), position
        checked += 1
