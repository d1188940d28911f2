"""One test per rule of Junkyard (piecepack): rulebook sections (§) and house rulings P1–P7.

Every test sets its situation up with the position format. Two players sit on a1 (Suns) and e5 (Moons);
four players on a1 (Suns), a5 (Moons), e5 (Crowns), e1 (Arms).
"""

from __future__ import annotations

import json

import pytest

from rules import IllegalAction, SetupError, game_class
from rules.piecepack import Move, PiecepackGame
from tests.piecepack.conftest import pos


def dests(game: PiecepackGame) -> set[str]:
    return {m.destination for m in game.legal_actions()}


def kinds(events) -> list[str]:
    return [e.kind for e in events]


def setup(n: int) -> dict:
    return {"seats": [{"name": f"P{i}"} for i in range(n)], "options": {}}


# §3 Set-up and P1, P2 ---------------------------------------------------------------------------------


def test_registered_under_piecepack_key():
    cls = game_class("piecepack")
    assert cls is PiecepackGame
    assert (cls.title, cls.min_seats, cls.max_seats) == ("Junkyard (piecepack)", 2, 4)


@pytest.mark.parametrize(
    ("n", "corners"),
    [(2, ["a1", "e5"]), (3, ["a1", "a5", "e5"]), (4, ["a1", "a5", "e5", "e1"])],
)
def test_p2_each_suit_starts_on_its_own_corner(n, corners):
    """§3.C–D, P2: suits by seat order, each pawn on a different corner (its start coin)."""
    g = PiecepackGame.create(setup(n), seed=1)
    view = g.view(None)
    assert [s["suit"] for s in view["seats"]] == ["Suns", "Moons", "Crowns", "Arms"][:n]
    assert [s["corner"] for s in view["seats"]] == corners
    assert g.pawns == corners


def test_s3_each_player_starts_with_own_a_b_c_trash():
    """§3.C.ii: the A–C pyramids of one's own suit are the starting trash (A at the bottom, C on top)."""
    g = PiecepackGame.create(setup(3), seed=2)
    assert g.trash == [["SA", "SB", "SC"], ["MA", "MB", "MC"], ["CA", "CB", "CC"]]


def test_p1_good_stuff_starts_on_the_centre_tile():
    """§3.A–B, P1: the good stuff lies on c3, the face-up Null tile."""
    g = PiecepackGame.create(setup(2), seed=3)
    assert g.carrier is None
    assert g.good_stuff_square == "c3"


def test_p2_starting_player_is_drawn_with_the_seeded_dice():
    """P2: the starting player is drawn at random, reproducibly from the seed."""
    firsts = {PiecepackGame.create(setup(4), seed=s).to_act for s in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert PiecepackGame.create(setup(4), seed=9).to_act == PiecepackGame.create(setup(4), seed=9).to_act


def test_p2_play_goes_clockwise_round_the_corners():
    """P2: after the starting player, turns follow the corners clockwise: a1, a5, e5, e1."""
    g = pos(players=4, to_act="Crowns", load=[0, 0, 0, 0])
    corners = []
    for _ in range(4):
        corners.append(g.corners[g.to_act])
        g.apply("roll")
    assert corners == ["e5", "e1", "a1", "a5"]


@pytest.mark.parametrize("bad", [setup(1), setup(5), {"seats": [], "options": {}},
                                 {"seats": [{"name": "A"}, {"name": ""}], "options": {}},
                                 {**setup(2), "options": {"speed": 2}}])
def test_setup_refuses_what_cannot_start(bad):
    with pytest.raises(SetupError):
        PiecepackGame.create(bad, seed=0)


# §4.A and P3: rolling and moving --------------------------------------------------------------------


def test_p3_a_turn_is_roll_then_move():
    g = pos(load=[2])
    assert [str(a) for a in g.legal_actions()] == ["roll"]
    g.apply("roll")
    assert g.phase == "move" and g.roll == 2 and g.to_act == 0


def test_p3_move_is_exactly_the_rolled_number_of_steps():
    """§4.A, P3: the pawn moves exactly as many squares as the die shows."""
    g = pos(pawns={"Suns": "b1"}, phase="move", roll=3)
    assert {m.steps for m in g.legal_actions()} == {3}
    with pytest.raises(IllegalAction, match="exactly 3 steps, this one has 2"):
        g.apply("move b1-b2-b3")


def test_p3_null_roll_means_no_move_and_the_turn_passes():
    """§4.A.i, P3: Null is 0, so the pawn stays and the next player rolls."""
    g = pos(load=[0])
    events = g.apply("roll")
    assert kinds(events) == ["roll", "pass"]
    assert g.to_act == 1 and g.phase == "roll" and g.pawns == ["a1", "e5"]
    assert "Null" in events[0].text


def test_p3_ace_is_one_step():
    """§4.A.i: Ace counts one."""
    g = pos(load=[1])
    g.apply("roll")
    assert dests(g) == {"a2", "b1"}


def test_p3_steps_are_orthogonal_without_the_good_stuff():
    """§4.A.ii, P3: horizontal or vertical steps only."""
    g = pos(pawns={"Suns": "b2"}, phase="move", roll=1)
    assert dests(g) == {"a2", "b1", "b3", "c2"}
    with pytest.raises(IllegalAction, match="diagonal"):
        g.apply("move b2-c1")


def test_p3_a_move_may_turn():
    g = pos(pawns={"Suns": "b1"}, phase="move", roll=2)
    assert Move(("b1", "b2", "c2")) in g.legal_actions()


def test_p3_a_move_never_enters_a_square_twice():
    """P3: no square twice in one move, the starting square included."""
    g = pos(pawns={"Suns": "b2"}, phase="move", roll=2)
    assert "b2" not in dests(g)
    with pytest.raises(IllegalAction, match="twice"):
        g.apply("move b2-b3-b2")
    g = pos(pawns={"Suns": "b2"}, phase="move", roll=4)
    with pytest.raises(IllegalAction, match="twice"):
        g.apply("move b2-b3-a3-a2-a3")


def test_p4_may_pass_over_pawns_before_carrying():
    """P4: passing over a pawn is allowed and does nothing to it."""
    g = pos(pawns={"Suns": "b1", "Moons": "b2"}, phase="move", roll=2)
    g.apply("move b1-b2-b3")
    assert g.pawns == ["b3", "b2"]
    assert g.trash[1] == ["MA", "MB", "MC"]


def test_p4_pass_over_but_never_stop_on_another_start_corner():
    """§4.A.iii, P4."""
    g = pos(players=4, pawns={"Suns": "a4"}, phase="move", roll=1)
    assert "a5" not in dests(g)
    before = g.to_dict()
    with pytest.raises(IllegalAction) as exc:
        g.apply("move a5")
    assert str(exc.value).startswith("a5 is Moons' start corner: you may pass over it but not stop there")
    assert g.to_dict() == before
    g = pos(players=4, pawns={"Suns": "a4"}, phase="move", roll=2)
    assert Move(("a4", "a5", "b5")) in g.legal_actions()


def test_p4_own_start_corner_is_open():
    g = pos(pawns={"Suns": "a2"}, phase="move", roll=1)
    assert "a1" in dests(g)


def test_p2_unused_corner_is_an_ordinary_square():
    """With two players e1 and a5 belong to nobody."""
    g = pos(pawns={"Suns": "e2"}, phase="move", roll=1)
    assert "e1" in dests(g)


# §4.B and P7: landing on a pawn ---------------------------------------------------------------------


def test_p7_landing_with_trash_gives_the_top_piece_and_sends_home():
    """§4.B.i–ii, P7: exact count onto a pawn; the top trash piece goes onto the other's stack."""
    g = pos(pawns={"Suns": "b1", "Moons": "b3"}, phase="move", roll=2)
    events = g.apply("move b1-b2-b3")
    assert kinds(events) == ["move", "land", "gift", "home"]
    assert g.trash == [["SA", "SB"], ["MA", "MB", "MC", "SC"]]
    assert g.pawns == ["b3", "e5"]
    assert g.to_act == 1


def test_p7_the_gift_is_the_top_of_the_stack():
    """P7: the top piece, even one that came from someone else."""
    g = pos(pawns={"Suns": "b1", "Moons": "b2"}, trash={"Suns": ["SA", "MB"], "Moons": ["MA", "MC"]},
            phase="move", roll=1)
    g.apply("move b1-b2")
    assert g.trash == [["SA"], ["MA", "MC", "MB"]]


def test_p7_clean_lander_sends_home_without_a_gift():
    """P7: the landed-on pawn goes home in any case."""
    g = pos(pawns={"Suns": "b1", "Moons": "c1"}, trash={"Suns": []}, phase="move", roll=1)
    events = g.apply("move c1")
    assert kinds(events) == ["move", "land", "home"]
    assert g.trash == [[], ["MA", "MB", "MC"]]
    assert g.pawns == ["c1", "e5"]


def test_p7_a_clean_pawn_landed_on_gets_trash_again():
    g = pos(pawns={"Suns": "b1", "Moons": "c1"}, trash={"Moons": []}, phase="move", roll=1)
    g.apply("move c1")
    assert g.trash == [["SA", "SB"], ["SC"]]


def test_p7_landing_needs_the_exact_count():
    """§4.B: only the square the move ends on counts."""
    g = pos(pawns={"Suns": "a2", "Moons": "a3"}, phase="move", roll=2)
    g.apply("move a2-a3-a4")
    assert g.pawns == ["a4", "a3"] and g.trash[1] == ["MA", "MB", "MC"]


# §4.C, P5, P6: the good stuff ------------------------------------------------------------------------


def test_p5_clean_pawn_takes_the_good_stuff_by_exact_count():
    """§4.C.i–ii, P5."""
    g = pos(pawns={"Suns": "c1"}, trash={"Suns": []}, phase="move", roll=2)
    events = g.apply("move c1-c2-c3")
    assert kinds(events) == ["move", "take"]
    assert g.carrier == 0 and g.pawns[0] == "c3"


def test_p5_trash_keeps_a_pawn_out_of_the_centre():
    """§4.C: only a pawn rid of all its trash goes for the good stuff."""
    g = pos(pawns={"Suns": "c1"}, trash={"Suns": ["MA"]}, phase="move", roll=2)
    assert "c3" not in dests(g)
    with pytest.raises(IllegalAction, match="1 piece of trash"):
        g.apply("move c1-c2-c3")


def test_p5_centre_only_as_last_step():
    """P5: nobody passes through the centre, clean or not."""
    for trash in ([], ["SA"]):
        g = pos(pawns={"Suns": "c2"}, trash={"Suns": trash}, phase="move", roll=2)
        assert all("c3" not in m.path[:-1] for m in g.legal_actions())
        with pytest.raises(IllegalAction, match="last step"):
            g.apply("move c2-c3-c4")


def test_p5_centre_closed_while_the_good_stuff_is_carried_away():
    g = pos(pawns={"Suns": "c1", "Moons": "d4"}, trash={"Suns": [], "Moons": []}, good="Moons",
            phase="move", roll=2)
    assert "c3" not in dests(g)
    with pytest.raises(IllegalAction, match="Moons carries it"):
        g.apply("move c3")


def test_p6_carrier_leaves_the_centre_to_any_of_the_eight_squares():
    """§4.C.iii, P6."""
    g = pos(pawns={"Suns": "c3"}, trash={"Suns": []}, good="Suns", phase="move", roll=1)
    assert dests(g) == {"b2", "c2", "d2", "b3", "d3", "b4", "c4", "d4"}


def test_p6_carrier_may_step_diagonally():
    """§4.C.iv, P6."""
    g = pos(pawns={"Suns": "d4"}, trash={"Suns": []}, good="Suns", phase="move", roll=2)
    g.apply("move d4-c4-b3")  # a straight and a diagonal step
    assert g.pawns[0] == "b3" and g.carrier == 0


def test_p6_carrier_may_not_pass_over_pawns():
    """§4.C.v, P6."""
    g = pos(pawns={"Suns": "b2", "Moons": "b3"}, trash={"Suns": []}, good="Suns", phase="move", roll=2)
    assert all("b3" not in m.path for m in g.legal_actions())
    with pytest.raises(IllegalAction, match="may not pass over Moons on b3"):
        g.apply("move b2-b3-b4")


def test_p6_carrier_may_not_land_on_pawns():
    """§4.C.v, P6."""
    g = pos(pawns={"Suns": "b2", "Moons": "b3"}, trash={"Suns": []}, good="Suns", phase="move", roll=1)
    assert "b3" not in dests(g)
    with pytest.raises(IllegalAction, match="may not land on Moons on b3"):
        g.apply("move b3")


def test_p6_carrier_wins_by_exact_count_on_own_start_corner():
    """§4.C.vi, §5, P6."""
    g = pos(pawns={"Suns": "b2"}, trash={"Suns": []}, good="Suns", phase="move", roll=1)
    events = g.apply("move b2-a1")
    assert kinds(events) == ["move", "win"]
    assert g.is_over and g.winners == [0] and g.to_act is None and g.legal_actions() == []
    before = g.to_dict()
    for text in ("roll", "move a1-a2"):
        with pytest.raises(IllegalAction, match="game is over"):
            g.apply(text)
    assert g.to_dict() == before


def test_p6_passing_over_own_corner_does_not_win():
    g = pos(pawns={"Suns": "a2"}, trash={"Suns": []}, good="Suns", phase="move", roll=2)
    g.apply("move a2-a1-b1")
    assert not g.is_over and g.carrier == 0


def test_s5_reaching_home_without_the_good_stuff_does_not_win():
    g = pos(pawns={"Suns": "a2"}, trash={"Suns": []}, phase="move", roll=1)
    g.apply("move a1")
    assert not g.is_over


def test_p7_clean_lander_steals_the_good_stuff():
    """§4.D.i, P7."""
    g = pos(pawns={"Suns": "d2", "Moons": "d4"}, trash={"Suns": [], "Moons": []}, good="Moons",
            phase="move", roll=2)
    events = g.apply("move d2-d3-d4")
    assert kinds(events) == ["move", "land", "steal", "home"]
    assert g.carrier == 0 and g.pawns == ["d4", "e5"] and g.trash == [[], []]


def test_p7_lander_with_trash_sends_the_good_stuff_back_to_the_centre():
    """§4.D.ii–iii, P7: the carrier takes a piece of trash, drops the good stuff and goes home."""
    g = pos(pawns={"Suns": "d2", "Moons": "d4"}, trash={"Suns": ["SA"], "Moons": []}, good="Moons",
            phase="move", roll=2)
    events = g.apply("move d2-d3-d4")
    assert kinds(events) == ["move", "land", "gift", "return", "home"]
    assert g.carrier is None and g.good_stuff_square == "c3"
    assert g.trash == [[], ["SA"]] and g.pawns == ["d4", "e5"]


def test_p5_clean_pawn_may_land_on_the_carrier_still_in_the_centre():
    """P5, P7: the good stuff is still on the centre square while its carrier stands there."""
    g = pos(pawns={"Suns": "c1", "Moons": "c3"}, trash={"Suns": [], "Moons": []}, good="Moons",
            phase="move", roll=2)
    assert "c3" in dests(g)
    g.apply("move c3")
    assert g.carrier == 0 and g.pawns == ["c3", "e5"]


def test_p5_pawn_with_trash_cannot_hit_the_carrier_in_the_centre():
    g = pos(pawns={"Suns": "c1", "Moons": "c3"}, trash={"Moons": []}, good="Moons", phase="move", roll=2)
    assert "c3" not in dests(g)


def test_p6_a_thief_steps_diagonally_on_its_next_move():
    g = pos(pawns={"Suns": "d2", "Moons": "d3"}, trash={"Suns": [], "Moons": []}, good="Moons",
            phase="move", roll=1, load=[0, 1])
    g.apply("move d3")
    g.apply("roll")  # Moons: Null
    g.apply("roll")  # Suns: Ace
    assert "c2" in dests(g) and "e4" in dests(g)


# Contract: validation and positions -------------------------------------------------------------------


def test_illegal_actions_leave_the_state_unchanged():
    g = pos(pawns={"Suns": "b1", "Moons": "b3"}, phase="move", roll=2)
    before = json.dumps(g.to_dict(), sort_keys=True)
    for bad in ("roll", "move a1-a2", "move b1-c2-c3", "move b1-b2", "move b1-b2-b3-b4", "move e5",
                "move z9", "jump", "", "pass", "move b1-b1-b2"):
        with pytest.raises(IllegalAction):
            g.apply(bad)
        assert json.dumps(g.to_dict(), sort_keys=True) == before


def test_move_before_rolling_is_refused():
    g = pos()
    with pytest.raises(IllegalAction, match="must `roll` first"):
        g.apply("move a1-a2")


@pytest.mark.parametrize("bad", [
    {"pawns": {"Suns": "b2", "Moons": "b2"}},
    {"players": 4, "pawns": {"Suns": "e1"}},
    {"pawns": {"Suns": "c3"}},
    {"trash": {"Suns": ["SA", "SA"]}},
    {"trash": {"Suns": ["CA"]}},
    {"good": "Suns"},
    {"good": "Suns", "pawns": {"Suns": "b2"}},
    {"phase": "move"},
    {"players": 5},
    {"colour": "red"},
    {"load": [6]},
    {"pawns": ["b2"]},
    {"trash": "SA"},
    {"seed": "x"},
    {"to_act": "Crowns"},
    {"good": "Stars"},
    {"players": "two"},
])
def test_from_position_refuses_unreachable_situations(bad):
    with pytest.raises(SetupError):
        PiecepackGame.from_position(bad)


def test_view_shows_the_table_but_not_the_dice_generator():
    g = PiecepackGame.create(setup(3), seed=5)
    view = g.view(0)
    assert "dice" not in view and view == {**g.view(None), "viewer": 0}
    assert view["good_stuff"] == "c3" and view["seats"][2]["trash"] == ["CA", "CB", "CC"]
