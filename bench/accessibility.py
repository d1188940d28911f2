"""Pictures for everyone: how long a picture's description gets, and how far apart the seat colours stay.

``alt_text_chars_max``: the longest description (alt text) of a posted picture over real 8-seat races
(smart computers, two laps, two seeds, both languages), every position after every move: the busiest ones
included; Discord keeps 1,024 characters. ``alt_text_moves_told``: over the same races, the share of karts' moves
(a kart on a new cell after a move) whose description, worded from the account of every move of the turn so
far (as its message tells them), tells the kart's move to that cell: 1.0.
``cvd_min_delta``: the smallest CAM02-UCS difference between two
seat colours of any game under simulated protanopia, deuteranopia and tritanopia
(:mod:`render.colour_vision`; the tests ask for 15).
"""

from __future__ import annotations

from bench.registry import Figures, benchmark
from bot.texts import LANGS

SEEDS = (5, 11)
MOVE_CAP = 4000


@benchmark("accessibility")
def accessibility() -> Figures:
    from bot.drivers import driver_for
    from bot.games import unit_for
    from bot.games.races import account
    from render.colour_vision import seat_palettes, smallest_differences
    from rules.contract import Event
    from rules.races import Races

    unit = unit_for("races")
    longest, positions, made, told = 0, 0, 0, 0
    for seed in SEEDS:
        seats = [{"name": f"Player {i + 1}", "options": {}} for i in range(8)]
        game = Races.create({"seats": seats, "options": {"track": "A", "laps": 2}}, seed=seed)
        drivers = {s: driver_for("races", "smart", seed + s) for s in range(8)}
        turn: list[Event] = []
        number = game.turn.number
        while not game.is_over and game.ply < MOVE_CAP:
            seat = game.to_act
            assert seat is not None
            if game.turn.number != number:  # a new turn: a new message, whose account starts afresh
                turn, number = [], game.turn.number
            before = [k.cell for k in game.karts]
            game.apply(drivers[seat].choose(game, seat))
            turn += [Event.from_dict(e) for e in game.view(None)["events"]]
            moved = [k for k in game.karts if k.cell != before[k.seat] and k.cell is not None]
            for lang in LANGS:
                said = unit.alt_text(game, turn, lang=lang)
                longest = max(longest, len(said))
                last = {t.seat: t for t in account.account(turn).moves}
                made += len(moved)
                told += sum(1 for k in moved if k.seat in last and last[k.seat].end == k.cell.label  # type: ignore[union-attr]
                            and account.sentence(last[k.seat], lang) in said)
            positions += 1
    cvd = min(delta for palette in seat_palettes().values()
              for name, (delta, _, _) in smallest_differences(palette).items() if name != "normal")
    return {"alt_text_chars_max": longest, "alt_text_positions": positions,
            "alt_text_moves_told": round(told / made, 4) if made else 1.0, "cvd_min_delta": round(cvd, 1)}
