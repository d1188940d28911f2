"""Engine faults the driver soak found, each stated as a minimal position, kept as regression tests."""

from __future__ import annotations

from rules.races import Races


def test_oil_never_skids_a_bumped_kart_back_into_the_bumpers_cell() -> None:
    """Rulebook, Bumping Other Karts and the Oil tile; R2: one kart per cell.

    Orange on U12 drives south-west into Blue on T12, pushing Blue on to S13, where Oil points NE,
    back at T12. Orange takes T12 as Blue leaves it, so Blue's skid is blocked (found by the soak,
    seed 5, action 1122: both karts ended on T12).
    """
    g = Races.from_position({"track": "A", "karts": [
        {"colour": "orange", "cell": "U12", "facing": "S"},
        {"colour": "blue", "cell": "T12", "facing": "NW"}],
        "board": {"S13": "oil NE"}, "turn": "orange", "phase": "move", "points": 1})
    g.apply("step T12")
    cells = [k.cell for k in g.karts]
    assert len(set(cells)) == len(cells), f"two karts share a cell: {[(k.colour, k.cell) for k in g.karts]}"
