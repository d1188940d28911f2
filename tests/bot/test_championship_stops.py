"""A stop inside ``/championship next``: the round's lobby was opened, the process stopped before it was
recorded as the round. ``next`` again takes that lobby as the round (the channel is not left blocked by a
lobby of no championship), seated as the round before finished."""

from __future__ import annotations

from bot.play.championships import Asker
from bot.telling.outcomes import Accepted
from tests.bot.test_championship_run import ANN, BOB, CH, GUILD, play_round, service_on


async def test_a_lobby_a_stop_left_unrecorded_becomes_the_round_at_the_next_next(store):
    service = service_on(store)
    ann = Asker(GUILD, CH, ANN, "Ann", "en", "en")
    await service.championships.create(ann, name="Stop Cup", game="races", rounds="A 1; B 1", points="f1")
    assert isinstance(await service.championships.next_round(ann), Accepted)
    assert isinstance(await service.join(CH, BOB, "Bob"), Accepted)
    assert isinstance(await service.start(CH, ANN), Accepted)
    first = await play_round(service, CH)
    champ = await store.championships.running_championship(CH)
    assert champ is not None
    # the stop: round 2's lobby opened (as next does), not recorded as round 2
    opened = await service.lobby.new_game(guild_id=GUILD, channel_id=CH, user_id=ANN, user_name="Ann",
                                          game_key="races", options=dict(champ.rounds[1]), join=False)
    assert isinstance(opened, Accepted)
    again = await service.championships.next_round(ann)
    assert isinstance(again, Accepted) and again.game_id == opened.game_id
    assert await store.championships.round_games(champ.id) == [(1, first), (2, opened.game_id)]
    lobby = await store.games.channel_game(CH)
    assert lobby is not None and [s.user_id for s in lobby.seats] == [ANN, BOB]


async def test_a_lobby_of_another_setup_is_not_taken_for_the_round(store):
    service = service_on(store)
    ann = Asker(GUILD, CH, ANN, "Ann", "en", "en")
    await service.championships.create(ann, name="Stop Cup", game="races", rounds="A 1", points="f1")
    await service.lobby.new_game(guild_id=GUILD, channel_id=CH, user_id=ANN, user_name="Ann", game_key="races",
                                 options={"track": "B", "laps": 2})
    refused = await service.championships.next_round(ann)
    assert not isinstance(refused, Accepted)
    champ = await store.championships.running_championship(CH)
    assert champ is not None and await store.championships.round_games(champ.id) == []
