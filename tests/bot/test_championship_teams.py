"""A Races team championship with computers: the host seats a computer in a team (``/game computer team:``),
``next`` carries it into the next round with its team, and the teams' table counts its points (R13)."""

from __future__ import annotations

from bot.play.championships import Asker
from bot.telling.compose import Message
from bot.telling.outcomes import Accepted, Refusal
from rules.literal import bare
from tests.bot.test_championship_run import ANN, BOB, CH, GUILD, charts, play_round, service_on


async def test_a_computer_seated_in_a_team_keeps_it_in_every_round_and_scores_for_it(store):
    """R13: Ann and a computer race for team 1, Bob and a computer for team 2, over two rounds of track A
    (1 lap, points n4): each round's teams' table is the sum of its drivers' points, the computers' included."""
    service = service_on(store)
    ann = Asker(GUILD, CH, ANN, "Ann", "en", "en")
    made = await service.championships.create(ann, name="Mixed Cup", game="races", rounds="A 1; A 1",
                                              points="n4", teams=True)
    assert isinstance(made, Message)
    team_points = {1: 0, 2: 0}
    for number in (1, 2):
        assert isinstance(await service.championships.next_round(ann), Accepted)
        if number == 1:
            assert isinstance(await service.join(CH, BOB, "Bob", {"team": 2}), Accepted)
            assert isinstance(await service.join(CH, ANN, "Ann", {"team": 1}), Accepted)
            assert isinstance(await service.add_computer(CH, ANN, "random", team=1), Accepted)
            assert isinstance(await service.add_computer(CH, ANN, "random", team=2), Accepted)
        lobby = await store.games.channel_game(CH)
        assert lobby is not None
        assert [(s.is_computer, s.options.get("team")) for s in lobby.seats] == [
            (False, 1), (False, 2), (True, 1), (True, 2)]
        assert isinstance(await service.start(CH, ANN), Accepted)
        game_id = await play_round(service, CH)
        results = await store.standings.results(game_id=game_id)
        assert sorted(r.team for r in results) == [1, 1, 2, 2]
        for r in results:
            team_points[r.team] += 5 - r.place
        posted = await charts(store, game_id)
        assert len(posted) == 1, posted
        _, chart = posted[0]
        assert {name: points for _, name, points, *_ in chart["teams"]} == \
            {f"Team {team}": total for team, total in team_points.items()}, (team_points, chart)


async def test_a_computer_refused_a_team_is_one_line_and_seats_nothing(store):
    """R13: a team for a computer where the race has no teams, or a team past 8, is refused in one line (in the
    asker's language) and the lobby stays as it was."""
    service = service_on(store)
    await service.new_game(guild_id=GUILD, channel_id=CH, user_id=ANN, user_name="Ann", game_key="races",
                           options={"track": "A", "laps": 1})
    refused = await service.add_computer(CH, ANN, "random", team=1)
    assert isinstance(refused, Refusal) and "\n" not in refused.text and "team" in bare(refused.text).lower()
    german = await service.add_computer(CH, ANN, "random", team=1, lang="de")
    assert isinstance(german, Refusal) and "Teams" in german.text
    lobby = await store.games.channel_game(CH)
    assert lobby is not None and len(lobby.seats) == 1
    await service.championships.end(Asker(GUILD, CH, ANN, "Ann"))
    await service.leave(CH, ANN)
    await service.new_game(guild_id=GUILD, channel_id=CH + 1, user_id=ANN, user_name="Ann", game_key="races",
                           options={"track": "A", "laps": 1, "teams": True})
    too_far = await service.add_computer(CH + 1, ANN, "random", team=9)
    assert isinstance(too_far, Refusal) and "\n" not in too_far.text
    lobby = await store.games.channel_game(CH + 1)
    assert lobby is not None and len(lobby.seats) == 1
    assert isinstance(await service.add_computer(CH + 1, ANN, "random", team=2), Accepted)
