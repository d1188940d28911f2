"""Computer drivers for Junkyard (piecepack): the registry, the random driver, the greedy driver and a soak."""

from __future__ import annotations

import pytest

from bot.drivers import Driver, RandomDriver, driver_for, driver_kinds
from bot.drivers.piecepack import GreedyDriver
from rules.piecepack import PiecepackGame
from tests.piecepack.conftest import pos

MOVE_CAP = 800


def test_registry_finds_drivers_by_game_and_kind():
    assert isinstance(driver_for("piecepack", "random"), RandomDriver)
    assert isinstance(driver_for("piecepack", "smart", seed=4), GreedyDriver)
    assert driver_kinds("piecepack") == ["random", "smart"]
    assert isinstance(driver_for("piecepack", "smart"), Driver)
    with pytest.raises(KeyError, match="choose one of random, smart"):
        driver_for("piecepack", "genius")


def test_random_driver_plays_legal_actions_reproducibly():
    def game_log(seed: int) -> list[str]:
        g = PiecepackGame.create({"seats": [{"name": "A"}, {"name": "B"}, {"name": "C"}], "options": {}}, seed=5)
        d = RandomDriver(seed)
        log = []
        for _ in range(60):
            text = d.choose(g, g.to_act)
            assert text in {str(a) for a in g.legal_actions()}
            g.apply(text)
            log.append(text)
        return log

    assert game_log(1) == game_log(1)
    assert game_log(1) != game_log(2)


def test_driver_refuses_to_choose_out_of_turn():
    g = pos(to_act="Moons")
    with pytest.raises(ValueError, match="not to act"):
        GreedyDriver().choose(g, 0)


def test_greedy_takes_the_win():
    """§5: the carrier goes home when the roll allows it."""
    g = pos(pawns={"Suns": "c1"}, trash={"Suns": []}, good="Suns", phase="move", roll=2)
    assert GreedyDriver().choose(g, 0).endswith("-a1")


def test_greedy_hands_trash_on_by_landing():
    """§4.B: landing on a pawn sheds a piece of trash."""
    g = pos(pawns={"Suns": "b2", "Moons": "d2"}, phase="move", roll=2)
    assert GreedyDriver().choose(g, 0).endswith("-d2")


def test_greedy_goes_for_the_centre_when_clean():
    """§4.C.i."""
    g = pos(pawns={"Suns": "c1"}, trash={"Suns": []}, phase="move", roll=2)
    assert GreedyDriver().choose(g, 0) == "move c1-c2-c3"


def test_greedy_steals_the_good_stuff():
    """§4.D.i."""
    g = pos(pawns={"Suns": "b4", "Moons": "d4"}, trash={"Suns": [], "Moons": []}, good="Moons",
            phase="move", roll=2)
    assert GreedyDriver().choose(g, 0) == "move b4-c4-d4"


def test_greedy_knocks_the_carrier_when_dirty():
    """§4.D.ii: a pawn with trash sends the good stuff back to the centre."""
    g = pos(pawns={"Suns": "b4", "Moons": "d4"}, trash={"Suns": ["SA"], "Moons": []}, good="Moons",
            phase="move", roll=2)
    assert GreedyDriver().choose(g, 0) == "move b4-c4-d4"


def play(kinds: list[str], seed: int) -> PiecepackGame:
    g = PiecepackGame.create({"seats": [{"name": k} for k in kinds], "options": {}}, seed)
    drivers = [driver_for("piecepack", k, seed=seed * 10 + i) for i, k in enumerate(kinds)]
    while not g.is_over and g.ply < MOVE_CAP:
        g.apply(drivers[g.to_act].choose(g, g.to_act))
    return g


def test_soak_greedy_beats_random_and_games_finish():
    wins = 0
    games = 20
    for seed in range(games):
        kinds = ["smart", "random"] if seed % 2 == 0 else ["random", "smart"]
        g = play(kinds, seed)
        assert g.is_over, f"seed {seed}: no winner after {MOVE_CAP} actions"
        wins += kinds[g.winners[0]] == "smart"
    assert wins >= 0.8 * games


@pytest.mark.parametrize("kinds", [["smart", "random", "smart"], ["smart"] * 4, ["random", "smart", "random", "smart"]])
def test_soak_multiplayer_games_finish(kinds):
    for seed in range(3):
        g = play(kinds, seed)
        assert g.is_over, f"{kinds} seed {seed}: no winner after {MOVE_CAP} actions"
