"""Pictures for everyone: how long a picture's description gets, and how far apart the seat colours stay.

``alt_text_chars_max``: the longest description (alt text) of a posted picture over real 8-seat races
(smart computers, two laps, two seeds, both languages), every position after every move: the busiest ones
included; Discord keeps 1,024 characters. ``cvd_min_delta``: the smallest CAM02-UCS difference between two
seat colours of any game under simulated protanopia, deuteranopia and tritanopia
(:mod:`render.colour_vision`; the tests ask for 15).
"""

from __future__ import annotations

from bench.registry import Figures, benchmark

SEEDS = (5, 11)
MOVE_CAP = 4000


@benchmark("accessibility")
def accessibility() -> Figures:
    from bot.drivers import driver_for
    from bot.games import unit_for
    from render.colour_vision import seat_palettes, smallest_differences
    from rules.contract import Event
    from rules.races import Races

    unit = unit_for("races")
    longest, positions = 0, 0
    for seed in SEEDS:
        seats = [{"name": f"Player {i + 1}", "options": {}} for i in range(8)]
        game = Races.create({"seats": seats, "options": {"track": "A", "laps": 2}}, seed=seed)
        drivers = {s: driver_for("races", "smart", seed + s) for s in range(8)}
        while not game.is_over and game.ply < MOVE_CAP:
            seat = game.to_act
            assert seat is not None
            game.apply(drivers[seat].choose(game, seat))
            events = [Event.from_dict(e) for e in game.view(None)["events"]]
            for lang in ("en", "de"):
                longest = max(longest, len(unit.alt_text(game, events, lang=lang)))
            positions += 1
    cvd = min(delta for palette in seat_palettes().values()
              for name, (delta, _, _) in smallest_differences(palette).items() if name != "normal")
    return {"alt_text_chars_max": longest, "alt_text_positions": positions, "cvd_min_delta": round(cvd, 1)}
