"""Ratings of stated finishes (bot/standing/ratings.py): who gains, who loses, by how much relative to each other."""

from __future__ import annotations

from bot.standing.ratings import MODELS, Entry, Skill, computer_skill, mostly_autopilot, rate, shown, simulate

A, B, C, D = 1, 2, 3, 4


def test_a_new_player_reads_1000_and_the_winner_of_a_duel_gains_what_the_loser_drops() -> None:
    assert shown(25.0, 25.0 / 3.0) == 1000
    new = rate([Entry(A, 1), Entry(B, 2)], {})
    assert new[A].mu > 25.0 > new[B].mu
    assert abs((new[A].mu - 25.0) - (25.0 - new[B].mu)) < 1e-9
    assert new[A].sigma < 25.0 / 3.0 and new[B].sigma < 25.0 / 3.0


def test_a_win_over_a_higher_rated_player_gains_more() -> None:
    strong, weak = Skill(32.0, 4.0), Skill(20.0, 4.0)
    over_strong = rate([Entry(A, 1), Entry(B, 2)], {A: Skill(), B: strong})[A].mu - 25.0
    over_weak = rate([Entry(A, 1), Entry(B, 2)], {A: Skill(), B: weak})[A].mu - 25.0
    assert over_strong > over_weak > 0


def test_a_full_finishing_order_of_four_moves_each_place_the_right_way() -> None:
    new = rate([Entry(A, 1), Entry(B, 2), Entry(C, 3), Entry(D, 4)], {})
    assert new[A].mu > new[B].mu > new[C].mu > new[D].mu
    assert new[A].mu > 25.0 > new[D].mu


def test_teammates_are_one_side_and_move_together() -> None:
    # A and B race as team 1 (places 1 and 4), C and D as team 2 (places 2 and 3): team 1 finished first
    new = rate([Entry(A, 1, team=1), Entry(C, 2, team=2), Entry(D, 3, team=2), Entry(B, 4, team=1)], {})
    assert new[A].mu > 25.0 and new[B].mu > 25.0
    assert new[C].mu < 25.0 and new[D].mu < 25.0
    assert abs(new[A].mu - new[B].mu) < 1e-9  # the team's place is its best kart's, shared


def test_beating_the_smart_computer_gains_more_than_beating_the_random_one_and_computers_stay_fixed() -> None:
    smart = rate([Entry(A, 1), Entry(-1, 2, driver="smart")], {})
    rand = rate([Entry(A, 1), Entry(-1, 2, driver="random")], {})
    assert smart[A].mu > rand[A].mu > 25.0
    assert -1 not in smart and computer_skill("smart").mu > computer_skill("random").mu


def test_a_seat_played_mostly_by_the_autopilot_is_a_loss_for_its_person_and_not_rated_for_the_others() -> None:
    # B was away and the autopilot drove B's kart to first place: for B it is a loss to every side played
    new = rate([Entry(B, 1, absent=True), Entry(A, 2), Entry(C, 3)], {})
    assert new[B].mu < 25.0
    # A and C are rated as though B's seat had not been there: A beat C, and nothing else
    alone = rate([Entry(A, 2), Entry(C, 3)], {})
    assert new[A] == alone[A] and new[C] == alone[C]
    assert mostly_autopilot(turns=10, autopilot=6) and not mostly_autopilot(turns=10, autopilot=5)


def test_beside_an_absent_person_the_others_are_rated_among_the_people_who_played_only() -> None:
    # B's seat was on autopilot; A beat the smart computer, which beat C: with B absent, A and C are rated
    # as a duel A over C, the computer left out as well as B's seat
    game = [Entry(A, 1), Entry(-1, 2, driver="smart"), Entry(B, 3, absent=True), Entry(C, 4)]
    new = rate(game, {})
    duel = rate([Entry(A, 1), Entry(C, 4)], {})
    assert new[A] == duel[A] and new[C] == duel[C]
    # B lost to every side that was played, the computer too: the same as losing to all three
    behind = rate([Entry(A, 1), Entry(-1, 2, driver="smart"), Entry(C, 4), Entry(B, 5)], {})
    assert new[B] == behind[B] and new[B].mu < 25.0
    # without anyone absent, the computer is a side as always
    assert rate([Entry(A, 1), Entry(-1, 2, driver="smart"), Entry(C, 4)], {})[A] != duel[A]
    # only B and computers: nobody else is rated, and B still loses
    alone = rate([Entry(B, 1, absent=True), Entry(-1, 2, driver="random")], {})
    assert list(alone) == [B] and alone[B].mu < 25.0


def test_a_game_with_nobody_else_to_be_rated_against_changes_nothing() -> None:
    assert rate([Entry(A, 1)], {}) == {}
    assert rate([Entry(A, 1, absent=True)], {}) == {}
    assert rate([Entry(A, 1), Entry(A, 2)], {}) == {}  # one person in two seats (a test table)


def test_the_chosen_model_predicts_simulated_races_at_least_as_well_as_the_others() -> None:
    shares = {m: simulate(m, learn=200, test=150).share for m in MODELS}
    assert shares["plackett-luce"] > 0.6
    assert shares["plackett-luce"] >= max(shares.values()) - 0.01
