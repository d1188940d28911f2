"""A championship's table after a round: what posting it costs.

* ``championship_table_ms``: the table of twenty drivers after ten of twelve Formula One rounds (two worst
  rounds dropped, a lead bonus, five teams) worked out from the rounds (``table``) and drawn with its
  description (``draw_table``, with the moves since the round before); the median of seven runs.
* ``championship_table_kb``, ``championship_table_px``: that picture's size in kilobytes and its height.
"""

from __future__ import annotations

import io
import random

from PIL import Image

from bench.registry import benchmark, median_ms
from bot.standing.championship import Finish, Options, PointsTable, Round, table
from bot.standing.championship_picture import draw_table
from render.championship import Pictured

DRIVERS, ROUNDS, OF = 20, 10, 12


def season(seed: int = 3) -> list[Round]:
    """Ten shuffled rounds of twenty drivers in five teams, the runner-up leading most laps."""
    rng = random.Random(seed)
    out: list[Round] = []
    for _ in range(ROUNDS):
        order = list(range(1, DRIVERS + 1))
        rng.shuffle(order)
        out.append([Finish(d, i, team=d % 5, led=i == 2) for i, d in enumerate(order, start=1)])
    return out


@benchmark("championship")
def championship_figures() -> dict[str, float | int | str]:
    rounds = season()
    points, options = PointsTable.formula_one(), Options(drop_worst=2, lead_bonus=1)
    previous = table(rounds[:-1], points, options)
    names = {d: f"Driver {d:02d}" for d in range(1, DRIVERS + 1)}
    teams = {t: f"Team {t}" for t in range(5)}
    drawn: list[Pictured] = []

    def post() -> None:
        standing = table(rounds, points, options)
        drawn.append(draw_table(standing, title="Autumn Cup", round_no=ROUNDS, rounds=OF, names=names,
                                previous=previous, team_names=teams))

    ms = median_ms(post, repeat=7)
    png = drawn[-1].png
    return {"championship_table_ms": ms, "championship_table_kb": round(len(png) / 1024, 1),
            "championship_table_px": Image.open(io.BytesIO(png)).height}
