"""Laps led and the championship's lead bonus: a lap is led by the first driver to complete it (the game's own
lap count, watched move by move over a round's log), and the round's bonus goes to the driver who led most
laps, level ones parted by the better place, then by who led first."""

from __future__ import annotations

from bot.drivers import driver_for
from bot.games import game_class, unit_for
from bot.play.championships import MAX_BONUS, Asker
from bot.play.service import Service
from bot.standing.championship import Finish, Options, PointsTable, bonus_driver, laps_led, table
from bot.store import Store
from bot.telling.compose import Message
from bot.telling.outcomes import Accepted, Refusal
from bot.telling.pictures import Pictures
from rules.contract import Game
from rules.literal import bare
from rules.races import Races
from rules.rally.game import RallyGame
from tests.bot.test_championship_run import charts, play_round

GUILD, CH = 5 << 22, 7002
ANN, BOB = 111_000_000_000_000_001, 222_000_000_000_000_002

#: S8: a two-lap rally on track A, Ann (red) and Bob (blue) from the grid
SPLIT = {"players": ["Ann", "Bob"], "track": "A", "laps": 2, "seed": 8}
#: the race's log, both cars driven by the smart driver: Bob completes lap 1 first, Ann lap 2 and wins
SPLIT_LOG = " | ".join((
    "roll green boost | move 4a | move 5a | roll green boost | move 5b | move 6c | roll green | move 8c",
    "roll green | move 5c | roll green | move 9c | roll green | move 6c | roll green | move 10c",
    "roll green | move 8c | roll green | park M10.1 m4 | roll green | move 9c | roll green | move 10c",
    "roll green | move 9c | roll green | park M10.1 m4 | roll yellow | move 12c | roll yellow | move 15c",
    "roll green | move 10b | roll yellow | move 18b | roll yellow | park M10.1 m6 | roll yellow",
    "park B20.1 b6 | roll green | move 11c | roll yellow | move 15c | roll green | move 20a | roll yellow",
    "move 24a | roll yellow | move 18c | roll green | move 25b | roll red | move 22b | roll green",
    "move 26b | roll yellow | move 24a | roll green | move 28b | roll green | move 24b | roll yellow",
    "move pit | roll green | move 26b | roll yellow | park pit.1 m6 | roll green | move 28b | roll yellow",
    "move 31b | roll green boost | move stop | roll green boost | move 35c | move 37c | roll red",
    "move 36b | roll yellow | move 40b | roll red | move 40a | roll yellow | move 43a | roll yellow",
    "move 44b | roll red | move 50b | roll yellow | move 46a | roll yellow | move 52b | roll red",
    "move 51b | roll green | move 53b | roll green | move 52a | roll green | move 54b | roll green",
    "move 53a | roll green | move 56b | roll green | move 55a | roll yellow | move 3b | roll green",
    "move 56a | roll red | move 8b | roll yellow | move 4a | roll red boost | move 12b | move 13a",
    "roll red boost | move 10a | park M10.1 m3 | roll green | move 14a | roll green | move 11c",
    "roll yellow | move 18a | roll yellow | move 15c | roll red | move 23a | roll yellow | move 18b",
    "roll green | move 24b | roll red | move 23b | roll green | move 26b | roll green | move 24b",
    "roll green | move 28b | roll green | move 25b | roll yellow | move pit | roll green | move 27b",
    "roll yellow | park pit.1 m3 | roll green | move 29b | roll yellow | move 32b | roll green boost",
    "move stop | roll green boost | move 35c | move 37c | roll red | move 37b | roll yellow | move 41b",
    "roll yellow boost | move 40c | move 41a | roll yellow | move 45a | roll yellow | move 44b | roll red",
    "move 49b | roll red | move 49c | roll yellow | move 52b | roll yellow | move 52c | roll green",
    "move 53b | roll green | move 53c | roll green | move 54b | roll green | move 55c | roll green",
    "move 1c | roll green | move 56b | roll yellow | move 5c",
)).split(" | ")


def lap_events(game: Game, actions: list[str]) -> dict[int, int]:
    """Who completed each lap first, read from the game's own ``lap`` events (the oracle)."""
    out: dict[int, int] = {}
    for action in actions:
        for event in game.apply(action):
            lap = event.data.get("lap", event.data.get("flags"))  # a rally's lap, a kart's flags
            if event.kind == "lap" and event.seat is not None and isinstance(lap, int):
                out.setdefault(lap, event.seat)
    return out


def test_two_drivers_split_the_laps_led_of_a_two_lap_rally_S8() -> None:
    """Bob completes lap 1 first and Ann lap 2: one lap each; level on laps, Ann's win earns her the bonus."""
    unit = unit_for("rally")
    leaders = unit.laps.leaders(RallyGame.from_position(SPLIT), SPLIT_LOG)
    assert leaders == {1: 1, 2: 0} == lap_events(RallyGame.from_position(SPLIT), SPLIT_LOG)
    assert laps_led([leaders[lap] for lap in sorted(leaders)]) == {0: 1, 1: 1}
    assert bonus_driver([1, 0], {0: 1, 1: 2}) == 0  # level: the better place
    assert bonus_driver([1, 0], {}) == 1  # level, no places: who led first
    assert bonus_driver([1, 0, 1], {0: 1, 1: 2}) == 1  # most laps led, whatever the place
    assert bonus_driver([], {0: 1}) is None


def test_a_lap_completed_before_the_log_has_no_known_leader_S8() -> None:
    """From the same race after its first 60 moves (Bob has completed lap 1 by then): only lap 2 is told."""
    unit = unit_for("rally")
    game = RallyGame.from_position(SPLIT)
    done = 0
    while unit.laps.done(game, 1) == 0:
        game.apply(SPLIT_LOG[done])
        done += 1
    assert unit.laps.leaders(game, SPLIT_LOG[done:]) == {2: 0}


def test_a_races_log_names_its_lap_leaders_as_its_flags_fall_R4() -> None:
    """R4: a kart's laps are its flags; over a whole two-lap race of four smart karts the leaders are the
    first to take each flag, as the game's lap events tell."""
    setup = {"seats": [{"name": n} for n in ("Ann", "Bob", "Cat", "Dan")], "options": {"track": "A", "laps": 2}}
    game = Races.create(setup, 3)
    drivers = [driver_for("races", "smart", s) for s in range(4)]
    actions = []
    while not game.is_over and len(actions) < 4000:
        seat = game.to_act
        assert seat is not None
        action = drivers[seat].choose(game, seat)
        actions.append(str(action))
        game.apply(action)
    assert game.is_over
    leaders = unit_for("races").laps.leaders(Races.create(setup, 3), actions)
    assert leaders == lap_events(Races.create(setup, 3), actions)
    assert sorted(leaders) == [1, 2]


def test_a_lead_bonus_adds_to_the_place_points_of_the_one_who_led_most_laps() -> None:
    """Round 1: Ann wins, Bob led most laps (+5); round 2: Bob wins and leads. 10-6 points."""
    pts = PointsTable((10, 6))
    rounds = [[Finish(ANN, 1), Finish(BOB, 2, led=True)], [Finish(ANN, 2), Finish(BOB, 1, led=True)]]
    standing = table(rounds, pts, Options(lead_bonus=5))
    assert [(r.driver, r.points) for r in standing.rows] == [(BOB, 26), (ANN, 16)]
    assert [s.led for s in standing.rows[0].rounds] == [True, True]


def service_on(store: Store) -> Service:
    return Service(store, seed_source=iter(range(1, 10**6)).__next__, pictures=Pictures(processes=0))


async def test_a_rally_championship_with_a_lead_bonus_scores_it_for_the_driver_who_led_most_laps(store) -> None:
    """A one-round rally of two laps with a 7-point bonus: the final table gives the place's points plus the
    bonus to the driver the game's lap events name as leading most laps, and its words say who."""
    service = service_on(store)
    ann = Asker(GUILD, CH, ANN, "Ann", "en", "en")
    refused = await service.championships.create(ann, name="Cup", game="rally", rounds="A 2", lead_bonus=MAX_BONUS + 1)
    assert isinstance(refused, Refusal) and f"0 to {MAX_BONUS}" in refused.text
    assert isinstance(await service.championships.create(ann, name="Cup", game="rally", rounds="A 2", points="10 6",
                                                         lead_bonus=7), Message)
    assert isinstance(await service.championships.next_round(ann), Accepted)
    assert isinstance(await service.join(CH, BOB, "Bob"), Accepted)
    assert isinstance(await service.start(CH, ANN), Accepted)
    game_id = await play_round(service, CH)
    rec = await store.games.get_game(game_id)
    led = lap_events(game_class("rally").create(dict(rec.setup), rec.seed),
                     [a.action for a in await store.games.actions(game_id)])
    results = {r.seat: r for r in await store.standings.results(game_id=game_id)}
    counts = laps_led([led[lap] for lap in sorted(led)])
    best = max(counts.values())
    top = sorted((s for s in counts if counts[s] == best), key=lambda s: (results[s].place, min(
        lap for lap in led if led[lap] == s)))[0]
    (text, chart), = await charts(store, game_id)
    totals = {bare(name): points for _, name, points, *_ in chart["drivers"]}
    for seat, r in results.items():
        assert totals[r.name] == (10, 6)[r.place - 1] + (7 if seat == top else 0), (led, chart)
    assert f"{results[top].name} led the most laps this round: +7 points." in text
