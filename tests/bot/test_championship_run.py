"""Championships run through the service: a host creates one, each round is a game of the channel opened by
``next`` with the seats of the round before, and the table after each round goes out once, with the round's
results, in the channel's language."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.drivers import driver_for
from bot.messages import NOTE, Line, Showing
from bot.play.championships import Asker
from bot.play.service import Service
from bot.standing.championship import PointsTable
from bot.standing.ladder import signed
from bot.standing.ratings import Skill
from bot.store import Store
from bot.telling.compose import Message, Table, compose
from bot.telling.outcomes import Accepted, Refusal
from bot.telling.pictures import Pictures
from rules.literal import bare

GUILD, CH = 5 << 22, 7001
ANN, BOB, EVE, MOD = 111_000_000_000_000_001, 222_000_000_000_000_002, 333_000_000_000_000_003, 444_000_000_000_004


def service_on(store: Store) -> Service:
    return Service(store, seed_source=iter(range(1, 10**6)).__next__, pictures=Pictures(processes=0))


async def play_round(service: Service, channel: int, *, autopilot: bool = False) -> int:
    """Play the channel's started game to its end: computers by themselves, people by a driver (``autopilot``:
    every person's move is marked as the autopilot's). Returns the game's id."""
    rec = await service.store.games.channel_game(channel)
    assert rec is not None
    game_id = rec.id
    for _ in range(3000):
        while await service.play_computers(channel) is not None:
            pass
        rec = await service.store.games.channel_game(channel)
        if rec is None:
            return game_id
        game = await service.load(rec)
        seat = game.to_act
        assert seat is not None and not rec.seats[seat].is_computer
        action = driver_for(rec.game_key, "random", rec.version).choose(game, seat)
        done = await service.act(channel, rec.seats[seat].user_id, str(action), autopilot=autopilot)
        assert isinstance(done, Accepted), done
    raise AssertionError("the round never ended")


async def tables(store: Store, game_id: int) -> list[str]:
    """The texts of a game's delivery records that are a championship's table."""
    return [text for text, _ in await charts(store, game_id)]


async def charts(store: Store, game_id: int) -> list[tuple[str, dict[str, Any]]]:
    """A game's delivery records that are a championship's table: their words and the picture's value."""
    out = []
    for d in await store.outbox.deliveries(game_id=game_id):
        shown = Showing.from_payload(d.kind, d.payload)
        if shown.picture == "table":
            assert shown.chart is not None
            out.append((bare("\n".join(line.text for line in shown.lines)), dict(shown.chart)))
    return out


def drawn(chart: dict[str, Any], lang: str = "en") -> Message:
    """The table's record as the channel gets it: composed with its picture and description."""
    return compose(Showing(NOTE, lines=(Line(text="…"),), picture="table", chart=chart),
                   Table(1, "races", 1, lang, ()), None, None, lang)


def totals_of(chart: dict[str, Any]) -> dict[str, int]:
    """Each driver's total in the picture's value, by name."""
    return {bare(name): points for _, name, points, *_ in chart["drivers"]}


def expected_totals(rounds: list[dict[int, int]], points: PointsTable, drop: int) -> dict[int, int]:
    """Each driver's total from their places per round (absent: 0), the ``drop`` worst struck."""
    drivers = {d for r in rounds for d in r}
    totals = {}
    for d in drivers:
        scores = sorted(points.of(r[d]) if d in r else 0 for r in rounds)
        totals[d] = sum(scores[min(drop, len(scores) - 1):])
    return totals


@pytest.mark.parametrize(("key", "rounds"), [("races", "A 1; B 1; A 1"), ("rally", "A 1; A 1; A 1")])
async def test_a_three_round_championship_posts_its_table_once_after_each_round(store, key, rounds):
    service = service_on(store)
    ann = Asker(GUILD, CH, ANN, "Ann", "en", "en")
    made = await service.championships.create(ann, name="Spring Cup", game=key, rounds=rounds, points="10 6 3 1",
                                              drop=1)
    assert isinstance(made, Message) and "Spring Cup" in bare(made.text)
    running = await store.championships.running_championship(CH)
    assert running is not None
    made_id = running.id
    places: list[dict[int, int]] = []
    for number in (1, 2, 3):
        opened = await service.championships.next_round(ann)
        assert isinstance(opened, Accepted), opened
        if number == 1:
            assert isinstance(await service.join(CH, BOB, "Bob"), Accepted)
            assert isinstance(await service.add_computer(CH, ANN, "random"), Accepted)
        lobby = await store.games.channel_game(CH)
        assert lobby is not None and [s.user_id for s in lobby.seats][:2] == [ANN, BOB] and len(lobby.seats) == 3
        refused = await service.championships.next_round(ann)
        assert isinstance(refused, Refusal) and "Round" in refused.text
        started = await service.start(CH, ANN)
        assert isinstance(started, Accepted)
        if number == 2:  # the autopilot plays Bob's seat throughout: his round scores nothing
            await store.settings.put_settings("game", started.game_id, 0, {"autopilot": {"1": 10_000}})
        game_id = await play_round(service, CH)
        results = await store.standings.results(game_id=game_id)
        places.append({r.user_id: r.place for r in results if not (number == 2 and r.user_id == BOB)})
        posted = await charts(store, game_id)
        assert len(posted) == 1, posted
        table, chart = posted[0]
        assert (f"after round {number} of 3" in table) if number < 3 else ("final table after round 3 of 3" in table)
        totals = expected_totals(places, PointsTable((10, 6, 3, 1)), 1)
        pictured = totals_of(chart)
        for name, user in (("Ann", ANN), ("Bob", BOB)):
            assert pictured[name] == totals[user], (name, totals, chart)
        autopiloted = any(cell[3] for line in chart["drivers"] for cell in line[4])
        assert autopiloted == (number >= 2)
        best = max(totals.values())
        first = [u for u, t in totals.items() if t == best]
        if number < 3:
            assert re.search(rf"In the lead with {best} points: ", table), table
        else:
            assert ("is the champion" in table) == (len(first) == 1)
            assert sum(line[7] for line in chart["drivers"]) == (len(first) == 1)
            moved = {ANN: 0, BOB: 0}  # each round's rating change, from the moves stored with its results
            for _, round_game in await store.championships.round_games(made_id):
                for c in await store.standings.game_changes(round_game):
                    if c.user_id in moved:
                        moved[c.user_id] += Skill(c.mu, c.sigma).shown - Skill(c.mu_before, c.sigma_before).shown
            said = re.search(r"Rating changes over the championship \(its 3 rounds added up\): (.*)", table)
            assert said is not None, table
            for name, user in (("Ann", ANN), ("Bob", BOB)):
                assert f"{name} {signed(moved[user])}" in said[1], (moved, said[1])
        message = drawn(chart)
        assert message.png is not None and message.png.startswith(b"\x89PNG") and message.shows == "table"
        assert "Spring Cup" in message.description
    assert (await store.championships.latest_championship(CH)).status == "ended"  # it finished by itself
    assert await store.championships.running_championship(CH) is None
    finished = await service.championships.next_round(ann)
    assert isinstance(finished, Refusal) and "Every round" in finished.text
    shown = await service.championships.table(Asker(GUILD, CH, BOB, "Bob", "de", "en"))
    assert isinstance(shown, Message) and "Endtabelle nach Runde 3 von 3" in bare(shown.text)
    assert shown.png is not None and "Spring Cup" in shown.description


async def test_a_team_championship_of_races_posts_the_teams_table_after_each_round(store):
    """R13: two teams of two; each round's table adds the teams' points, the sum of their drivers' points."""
    service = service_on(store)
    ann = Asker(GUILD, CH, ANN, "Ann", "de", "de")
    made = await service.championships.create(ann, name="Teampokal", game="races", rounds="A 1; A 1", points="n4",
                                              teams=True)
    assert isinstance(made, Message)
    people = ((ANN, "Ann", 1), (BOB, "Bob", 2), (EVE, "Eve", 1), (MOD, "Mod", 2))
    team_points = {1: 0, 2: 0}
    for number in (1, 2):
        assert isinstance(await service.championships.next_round(ann), Accepted)
        if number == 1:
            for user, name, team in people:
                assert isinstance(await service.join(CH, user, name, {"team": team}), Accepted)
        assert isinstance(await service.start(CH, ANN), Accepted)
        game_id = await play_round(service, CH)
        for r in await store.standings.results(game_id=game_id):
            team_points[r.team] += 5 - r.place
        posted = await charts(store, game_id)
        assert len(posted) == 1 and posted[0][1]["teams"], posted
        text, chart = posted[0]
        assert {name: points for _, name, points, *_ in chart["teams"]} == \
            {f"Team {team}": total for team, total in team_points.items()}, (team_points, chart)
        assert ("Runde 1 von 2" in text) == (number == 1)
        if number == 2 and team_points[1] != team_points[2]:  # the final table crowns the teams' champion
            best = max(team_points, key=lambda t: team_points[t])
            assert f"Team {best} holt den Teamtitel" in text, text
            assert [line[4] for line in chart["teams"]] == [True, False]


async def test_a_round_whose_results_a_stop_left_unrecorded_posts_its_table_once_when_they_are(store, monkeypatch):
    """The final move of a round was stored but the process stopped before its results: the results and the
    table go out together when the end is settled, and settling again adds nothing (written in one
    transaction with the results: never lost, never doubled)."""
    import bot.standing.history

    service = service_on(store)
    champ = await store.championships.create_championship(
        guild_id=1, channel_id=CH, host_id=ANN, name="Toy Cup", game_key="toy", rounds=[{}, {}], points=[5, 2],
        options={})

    async def stopped(*args, **kwargs):
        raise RuntimeError("stopped")

    monkeypatch.setattr(bot.standing.history, "record_end", stopped)
    await service.new_game(guild_id=1, channel_id=CH, user_id=ANN, user_name="Ann", game_key="toy")
    await service.join(CH, BOB, "Bob")
    rec = await store.games.channel_game(CH)
    await store.championships.set_round(champ.id, 1, rec.id)
    await service.start(CH, ANN)
    while (now := await store.games.channel_game(CH)) is not None:
        game = await service.load(now)
        user = now.seats[game.to_act].user_id
        await service.act(CH, user, "roll" if game.rolled is None else f"move {game.rolled}")
    assert await tables(store, rec.id) == []
    monkeypatch.undo()
    assert await bot.standing.history.settle_ends(service) == 1
    posted = await tables(store, rec.id)
    assert len(posted) == 1 and "Toy Cup**: the table after round 1 of 2" in posted[0]
    assert await bot.standing.history.settle_ends(service) == 0
    assert len(await tables(store, rec.id)) == 1
