"""The table a championship posts after a round, from its rounds' result rows: positions (shared when level),
changes since the round before, each round's points with a dropped result struck and an autopilot seat's
round scoring nothing, the teams' table, what each contender needs before the last rounds, and the champion,
in English and German."""

from __future__ import annotations

from bot.standing.series import table_text
from bot.store import Championship, Result
from rules.literal import bare

ANN, BOB, CAT = 1, 2, 3
NAMES = {ANN: "Ann", BOB: "Bob", CAT: "Cat"}


def champ(rounds: int = 3, points: tuple[int, ...] = (10, 6, 3), drop: int = 0) -> Championship:
    return Championship(1, 5, 100, ANN, "Spring Cup", "races", tuple({"track": "A"} for _ in range(rounds)), points,
                        {"drop_worst": drop, "lead_bonus": 0}, "running", 0.0)


def round_of(game: int, places: dict[int, int], *, autopilot: tuple[int, ...] = (),
             teams: dict[int, int] | None = None) -> list[Result]:
    """One round's result rows: each driver's place, ``autopilot`` seats played by the autopilot throughout."""
    return [Result(game, seat, user, NAMES[user], place, place == 1, 40, "races", 5, 100, 0.0, 1.0,
                   team=(teams or {}).get(user), turns=10, autopilot=10 if user in autopilot else 0)
            for seat, (user, place) in enumerate(places.items())]


def lines(text: str) -> list[str]:
    return bare(text).splitlines()


def test_the_first_round_s_table_ranks_by_points_with_no_changes():
    text = table_text(champ(), [round_of(1, {ANN: 2, BOB: 1, CAT: 3})])
    assert lines(text)[:4] == ["🏁 **Spring Cup**: the table after round 1 of 3",
                               "1. Bob: **10** (10)", "2. Ann: **6** (6)", "3. Cat: **3** (3)"]


def test_a_tie_on_points_is_split_by_wins_and_changes_are_shown():
    rounds = [round_of(1, {ANN: 1, BOB: 2, CAT: 3}), round_of(2, {ANN: 3, BOB: 1, CAT: 2})]
    text = lines(table_text(champ(points=(10, 6, 3)), rounds))
    # Ann 13, Bob 16, Cat 9: Bob climbs one, Ann drops one
    assert text[1:4] == ["1. Bob: **16** (6 · 10) ▲1", "2. Ann: **13** (10 · 3) ▼1", "3. Cat: **9** (3 · 6)"]


def test_drivers_level_on_everything_share_their_position():
    rounds = [round_of(1, {ANN: 1, BOB: 2, CAT: 3}), round_of(2, {ANN: 2, BOB: 1, CAT: 3})]
    text = lines(table_text(champ(rounds=3), rounds))
    # Ann and Bob: 16 each, one win and one second each; the latest round breaks it: Bob won it
    assert text[1:3] == ["1. Bob: **16** (6 · 10) ▲1", "2. Ann: **16** (10 · 6) ▼1"]
    tied = [round_of(1, {ANN: 1, BOB: 1, CAT: 3})]
    assert lines(table_text(champ(), tied))[1:3] == ["1. Ann: **10** (10)", "1. Bob: **10** (10)"]


def test_the_worst_result_is_struck_when_one_is_dropped():
    rounds = [round_of(1, {ANN: 1, BOB: 2, CAT: 3}), round_of(2, {ANN: 3, BOB: 2, CAT: 1})]
    text = lines(table_text(champ(drop=1), rounds))
    # Ann and Cat: 10 kept each, one win each; Cat won the latest round
    assert text[1:4] == ["1. Cat: **10** (~~3~~ · 10) ▲2", "2. Ann: **10** (10 · ~~3~~) ▼1",
                         "3. Bob: **6** (~~6~~ · 6) ▼1"]


def test_an_autopilot_seat_scores_nothing_but_shows_its_round():
    rounds = [round_of(1, {ANN: 1, BOB: 2, CAT: 3}, autopilot=(ANN,))]
    text = lines(table_text(champ(), rounds))
    assert text[1:4] == ["1. Bob: **6** (6)", "2. Cat: **3** (3)", "3. Ann: **0** (0 (autopilot))"]


def test_a_driver_absent_from_a_round_shows_a_dash_there():
    rounds = [round_of(1, {ANN: 1, BOB: 2}), round_of(2, {ANN: 2, BOB: 3, CAT: 1})]
    assert "3. Cat: **10** (– · 10) " not in (text := lines(table_text(champ(), rounds)))
    assert "2. Cat: **10** (– · 10)" in text


def test_teams_score_a_team_table():
    teams = {ANN: 1, BOB: 2, CAT: 1}
    rounds = [round_of(1, {ANN: 1, BOB: 2, CAT: 3}, teams=teams)]
    text = lines(table_text(champ(), rounds))
    at = text.index("**Teams**")
    assert text[at + 1:at + 3] == ["1. Team 1: **13**", "2. Team 2: **6**"]


def test_before_the_last_round_each_contender_hears_what_they_need_and_the_final_names_the_champion():
    rounds = [round_of(1, {ANN: 1, BOB: 2, CAT: 3}), round_of(2, {ANN: 1, BOB: 3, CAT: 2})]
    text = lines(table_text(champ(), rounds))
    # Ann 20, Bob 9, Cat 9: one round left worth 10 at most, so Ann is champion already
    assert "**What it takes** (rounds left: 1)" in text
    assert "Ann: Champion already: nobody can catch them in the rounds left." in text
    assert not any(line.startswith(("Bob:", "Cat:")) for line in text)
    final = lines(table_text(champ(), [*rounds, round_of(3, {ANN: 3, BOB: 1, CAT: 2})]))
    assert final[0] == "🏆 **Spring Cup**: the final table after round 3 of 3"
    assert final[-1] == "🏆 Ann is the champion!" and not any("What it takes" in line for line in final)


def test_a_shared_first_place_at_the_end_names_no_single_champion():
    level = [round_of(1, {ANN: 1, BOB: 1})]
    assert lines(table_text(champ(rounds=1), level))[-1] == "No single champion: Ann, Bob share first place."


def test_the_table_reads_in_german():
    rounds = [round_of(1, {ANN: 1, BOB: 2, CAT: 3}, autopilot=(CAT,), teams={ANN: 1, BOB: 2, CAT: 2})]
    text = lines(table_text(champ(rounds=2), rounds, "de"))
    assert text[0] == "🏁 **Spring Cup**: die Tabelle nach Runde 1 von 2"
    assert "3. Cat: **0** (0 (Autopilot))" in text and "**Was es braucht** (Runden übrig: 1)" in text
    final = lines(table_text(champ(rounds=1), [round_of(1, {ANN: 2, BOB: 1})], "de"))
    assert final[0] == "🏆 **Spring Cup**: die Endtabelle nach Runde 1 von 1" and final[-1] == "🏆 Bob ist Meister!"
