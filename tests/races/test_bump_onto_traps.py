"""R9's look-ahead after a bump that pushes a kart onto a trap (rulebook: Bumping Other Karts, Oil,
Time Bomb): it must picture the field as the engine leaves it.

The scene is the Proving Ground's whole bridge M7 -> M8 (one way, southwards): red on M6 bumps blue off
M7 onto M8, and whatever lies on M8 decides where blue ends and so whether red's step keeps the roll.
"""

from __future__ import annotations

from typing import Any

import pytest

from rules.contract import IllegalAction
from rules.hexgrid import parse_label
from rules.races import Races, queries
from tests.races.conftest import at, legal, position

CROWD = [  # karts round the bridge so that the other first steps each use the whole roll
    {"colour": "green", "cell": "N6", "facing": "N"},
    {"colour": "yellow", "cell": "L5", "facing": "N"},
    {"colour": "orange", "cell": "L6", "facing": "N"},
    {"colour": "purple", "cell": "N4", "facing": "N"},
    {"colour": "white", "cell": "O6", "facing": "N"},
]


def bridge(board: dict[str, str], *extra: dict[str, Any], points: int = 7) -> Races:
    karts = [{"colour": "red", "cell": "M6", "facing": "S"}, {"colour": "blue", "cell": "M7", "facing": "N"}]
    return position([*karts, *CROWD, *extra], phase="move", points=points, board=board)


def look_ahead_after_bump(g: Races) -> tuple[dict[str, str], set[str]]:
    """The look-ahead's field once red bumps blue from M7 to M8: where each other kart stands, and the
    cells whose trap would stop red."""
    after = queries.field(g).with_bump(queries.seat_by_colour(g, "blue") or 0, parse_label("M7"), parse_label("M8"))
    karts = {g.karts[seat].colour: cell.label for cell, seat in after.karts.items() if seat != g.turn.seat}
    return karts, {c.label for c in after.stop_cells}


def engine_after_bump(g: Races) -> tuple[dict[str, str], set[str]]:
    """The same, from the engine carrying out the step."""
    g.apply("step M7")
    assert g.turn.seat == 0  # the move goes on: nobody has left the stream yet
    karts = {k.colour: k.cell.label for k in g.karts if k.cell is not None and g.track.on_track(k.cell)
             and k.seat != 0}
    return karts, {c.label for c, t in g.board.items() if t.kind == "oil"}


@pytest.mark.parametrize("board", [{"M8": "oil S"}, {"M8": "oil S", "M9": "oil SW"}, {"M8": "oil SE"}],
                         ids=["skid", "skid-twice", "skid-into-stream"])
def test_r9_look_ahead_sees_a_bumped_kart_skid_on_oil_as_the_engine_moves_it(board: dict[str, str]) -> None:
    """Bumping Other Karts: a kart bumped onto a trap follows that trap's rules; Oil throws it to the
    arrow's cell and goes back to the pile, onto another Oil it skids again (NOTATION). R9's look-ahead
    puts the bumped kart (and the Oils) where the engine does."""
    seen, stops = look_ahead_after_bump(bridge(board))
    done, oils_left = engine_after_bump(bridge(board, points=2))  # the move goes on: blue stays put
    assert seen == done
    assert "M8" not in stops and "M8" not in oils_left
    if "M9" in board:  # thrown on from M9 as well: blue ends on the cell M9's arrow points at
        assert seen["blue"] == "L9" and not oils_left


def test_r9_a_bump_whose_kart_skids_on_and_blocks_the_bridge_is_refused() -> None:
    """R9 / Bumping / Oil: blue, bumped onto the Oil on M8, skids on to M9 and blocks the bridge's only
    exit; red would be stuck on M8 after 2 of its 7 points while stepping elsewhere uses all 7, so the
    bump is refused with the whole-roll reason (before, the look-ahead left blue on M8 and took the bump
    for one with no way round, a stop the rules allow)."""
    g = bridge({"M8": "oil S"})
    assert "step M7" not in legal(g) and {"step N6", "step L6"} <= set(legal(g))
    with pytest.raises(IllegalAction, match=r"whole roll \(R9\)"):
        g.apply("step M7")
    # what the engine would leave: blue on M9 and red past the bump with one step left to take
    stuck = position([{"colour": "red", "cell": "M7", "facing": "S"}, {"colour": "blue", "cell": "M9", "facing": "S"},
                      *CROWD], phase="move", points=6, bumped=["blue"])
    stuck.apply("step M8")
    assert at(stuck, "red") == "M8" and stuck.turn.seat != 0  # every way on is blocked: the move ends short


def test_r9_a_bump_onto_oil_that_cannot_throw_stops_the_kart_with_no_way_round() -> None:
    """R9 / Oil: with a kart on M9 the Oil on M8 does nothing (NOTATION), blue stays there and red has no
    way round it: a stop the bumping rule causes, so the step is allowed and ends the move on M7."""
    g = bridge({"M8": "oil S"}, {"colour": "black", "cell": "M9", "facing": "N"})
    assert "step M7" in legal(g)
    g.apply("step M7")
    assert at(g, "red") == "M7" and at(g, "blue") == "M8" and g.turn.seat != 0


def test_r9_a_bump_whose_kart_skids_into_the_stream_leaves_the_bridge_free() -> None:
    """R9 / Oil / the stream: thrown off M8 into the stream, blue is gone from the bridge, so red drives
    on over it and can use its whole roll: the step is allowed and the move goes on."""
    g = bridge({"M8": "oil SE"})
    assert "step M7" in legal(g)
    g.apply("step M7")
    assert g.track.is_stream(g.karts[1].cell) and g.turn.seat == 0 and g.turn.points == 6
    assert "step M8" in legal(g)


def test_look_ahead_takes_a_time_bomb_next_to_a_bumped_kart_not_to_go_off() -> None:
    """R16 / NOTATION: a kart bumped next to a Time Bomb rolls for it; the look-ahead cannot know the
    roll and takes the bomb to keep ticking: blue stays where it was pushed and the bomb stays a stop."""
    g = bridge({"M9": "time-bomb"})
    seen, stops = look_ahead_after_bump(g)
    assert seen["blue"] == "M8" and "M9" in stops


BOMB_SCENE = [{"colour": "red", "cell": "M9", "facing": "S"}, {"colour": "blue", "cell": "M10", "facing": "N"},
              {"colour": "green", "cell": "N9", "facing": "N"}]  # red bumps blue from M10 onto M11


def test_r9_a_bump_onto_a_time_bomb_spins_the_mover_round_in_the_look_ahead() -> None:
    """Time Bomb / Bumping Other Karts / R9: red on M9 bumps blue from M10 onto the Time Bomb on M11. The
    bomb goes off and goes back to the pile, and its blast spins red (next to it on M10) to face north,
    towards the bridge it may not enter from that side: red would be stuck after 2 of its 4 points while
    stepping to L9 uses all 4, so the bump is refused with the whole-roll reason (before, the look-ahead
    drove red on southwards as if nothing had happened)."""
    g = position(BOMB_SCENE, phase="move", points=4, board={"M11": "time-bomb"})
    assert "step M10" not in legal(g) and "step L9" in legal(g)
    with pytest.raises(IllegalAction, match=r"whole roll \(R9\)"):
        g.apply("step M10")
    # what the engine does with the bump as the last-but-one step (the damage dice miss: 6 + 6)
    done = position(BOMB_SCENE, phase="move", points=2, board={"M11": "time-bomb"}, dice=[6, 6, 6, 6])
    done.apply("step M10")
    red = done.karts[0]
    assert at(done, "red") == "M10" and at(done, "blue") == "M11" and red.facing.name == "N"
    assert "M11" not in done.board and done.turn.seat == 0 and done.turn.points == 1


def test_look_ahead_field_after_a_bump_onto_a_time_bomb_is_the_engines() -> None:
    """Time Bomb / NOTATION: the look-ahead's field after the bump has the bomb gone (no longer a stop) and
    says that the blast spins the mover, who stands next to the bomb."""
    g = position(BOMB_SCENE, phase="move", points=4, board={"M11": "time-bomb"})
    after, spun = queries.field(g).after_bump(1, parse_label("M10"), parse_label("M11"))
    assert spun and "M11" not in {c.label for c in after.stop_cells} and not after.bombs
    assert after.karts[parse_label("M11")] == 1
