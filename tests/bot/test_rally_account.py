"""One account of a Schrottplatz Rally turn (DESIGN "One account of a turn"): every car a move moves ends, in the
account, where the rules put it; a booster's second move is one drive with the first; a spin or an accident is
told with the part it cost, and pulling out behind a car at the exit as such.

Six-car rallies of smart drivers are played move by move and each move's public events are held against the
game; the sentences are checked in English and German.
"""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

import pytest

from bot.drivers import driver_for
from bot.games.rally import account, described
from rules.contract import Event, events_for
from rules.rally.game import RallyGame
from rules.rally.texts import say

SEEDS = (1, 2, 3)


def played(seed: int) -> list[tuple[RallyGame, list[str], list[Event]]]:
    """A six-car rally of seed ``seed``: after each move, a copy of the game, every car's place before it, and
    the move's public events."""
    game = RallyGame.create({"seats": ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"], "options": {}}, seed)
    drivers = {s: driver_for("rally", "smart", seed + s) for s in range(6)}
    out = []
    while not game.is_over and game.ply < 1500:
        seat = game.turn
        before = [c.at for c in game.cars]
        events = events_for(game.apply(drivers[seat].choose(game, seat)), None)
        out.append((RallyGame.from_dict(game.to_dict()), before, events))
    return out


@pytest.fixture(scope="module")
def games() -> list[list[tuple[RallyGame, list[str], list[Event]]]]:
    return [played(seed) for seed in SEEDS]


def test_every_car_moved_ends_where_the_rules_put_it(games) -> None:  # type: ignore[no-untyped-def]
    """S3, S5, S6, S11: for every move, each car whose place changed has a journey in the account from its place
    before the move to its place after it."""
    checked = 0
    for moves in games:
        for game, before, events in moves:
            journeys = account.account(events).journeys
            for seat, car in enumerate(game.cars):
                if car.at != before[seat]:
                    assert journeys.get(seat) == (before[seat], car.at), (game.ply, seat, before[seat], car.at)
                    checked += 1
                else:
                    assert seat not in journeys or journeys[seat][1] == car.at
    assert checked > 500


def test_a_booster_turn_is_one_drive_from_its_real_start(games) -> None:  # type: ignore[no-untyped-def]
    """A booster's second move continues the first: the account tells ONE drive, from the car's place before the
    turn to its end, with the place where the booster took over."""
    boosted = 0
    for moves in games:
        for (_, before, first), (game, _after, second) in pairwise(moves):
            if not any(e.kind == "booster_roll" for e in first) or not any(e.kind == "move" for e in second):
                continue
            events = [*first, *second]
            drives = [t for t in account.account(events).told if t.event.kind == "move"]
            seat = drives[0].seat
            assert seat is not None and len(drives) == 1
            start = next(e for e in first if e.kind == "move")
            assert drives[0].start == before[seat] and drives[0].via == start.data["path"][-1]
            assert drives[0].end == game.cars[seat].at or drives[0].parked == game.cars[seat].at
            assert drives[0].cells == sum(len(e.data["path"]) for e in events if e.kind == "move")
            line = account.sentence(drives[0], "en", lambda at, bare, g=game: described.place(g, at, "en", bare=bare))
            assert line in described.told(game, events, "en") and f" {drives[0].via}" in line
            boosted += 1
    assert boosted > 10


@pytest.mark.parametrize("lang", ["en", "de"])
def test_spins_accidents_and_pulling_out_are_told_with_what_they_cost(games, lang: str) -> None:  # type: ignore[no-untyped-def]
    """S5, S14: a spin and an accident are each one sentence naming the part lost (or that there was none);
    S11: a car pulling out behind a car at the exit is told so, and none of the rules' own lines for these is
    left over."""
    seen: Counter[str] = Counter()
    for moves in games:
        for game, _before, events in moves:
            acc = account.account(events)
            text = described.told(game, events, lang)
            for t in acc.told:
                kind = t.event.kind
                if kind in ("spin", "accident"):
                    assert t.loss is not None
                    lost = t.loss.data["params"]
                    msg = f"alt_{kind}_{'lose' if t.loss.kind == 'lose' else 'none'}"
                    line = account.sentence(t, lang, lambda at, bare, g=game: described.place(g, at, lang, bare=bare))
                    assert line == say(msg, lang, cell=t.event.data["cell"], limit=t.event.data.get("limit"),
                                       range=t.event.data["params"].get("range"), die=t.die, item=lost["item"],
                                       gear=lost.get("gear"), car=lost["car"], name=lost["name"])
                    assert line in text
                    seen[kind] += 1
                if t.behind:
                    def bare(at: str, g: RallyGame = game) -> str:
                        return described.place(g, at, lang, bare=True)

                    who = t.event.data["params"]
                    line = account.sentence(t, lang, lambda at, _b: bare(at))
                    assert line in text and line.startswith(say(
                        "alt_pull_out_boost" if t.via else "alt_pull_out", lang, count=t.cells, start=bare(t.start),
                        end=bare(t.end), via=bare(t.via or ""), car=who["car"], name=who["name"]))
                    seen["behind"] += 1
            for e in events:
                if e.kind in ("lose", "loss_roll", "squeeze"):
                    assert say(e.data["msg"], lang, **e.data["params"]) not in text
    assert seen["spin"] and seen["accident"] and seen["behind"], seen


def test_a_whole_board_says_which_lap_brought_it() -> None:
    """S8: the whole track comes with the turn in which a car begins a new lap, and its description says so
    first: the leader and the lap it leads into."""
    game = RallyGame.create({"seats": ["Ann", "Bob"], "options": {"laps": 2}}, 4)
    drivers = {s: driver_for("rally", "smart", 4 + s) for s in range(2)}
    from bot.games.rally.unit import GAME

    while not game.is_over and GAME.period(game) == 0:
        seat = game.turn
        game.apply(drivers[seat].choose(game, seat))
    assert GAME.period(game) == 1
    lead = game.standings()[0]
    for lang in ("en", "de"):
        text = GAME.alt_text(game, [], lang=lang, whole=True)
        assert text.startswith(say("alt_whole", lang, lap=2, laps=2, **game.who(lead)))
        assert not GAME.alt_text(game, [], lang=lang).startswith(text.split(":")[0])
