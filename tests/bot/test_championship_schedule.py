"""A championship on a schedule (``/championship create every:``): a set number of days after a round ends,
the next round opens and starts by itself with the same seats, and its note tells the players. What the store
holds decides: looking again, or a restarted bot looking, opens nothing twice; a lobby a stop left is taken
up."""

from __future__ import annotations

from bot.play.championships import DAY, Asker
from bot.telling.outcomes import Accepted, Refusal
from rules.literal import bare
from tests.bot.test_championship_run import ANN, BOB, CH, GUILD, play_round, service_on


async def notes(service, game_id: int) -> list[str]:
    """The texts of a game's delivery records, as the channel reads them."""
    return [bare((await service.message(d)).text) for d in await service.store.outbox.deliveries(game_id=game_id)]


async def test_the_next_round_opens_by_itself_once_its_days_have_passed(store):
    service = service_on(store)
    ann = Asker(GUILD, CH, ANN, "Ann", "en", "en")
    made = await service.championships.create(ann, name="Weekly Cup", game="races", rounds="A 1; A 1; A 1",
                                              points="f1", every=7)
    assert not isinstance(made, Refusal) and "7 days after a round ends" in bare(made.text)
    assert await service.championships.open_due(10**10) == 0  # round 1 is the host's to open
    assert isinstance(await service.championships.next_round(ann), Accepted)
    assert isinstance(await service.join(CH, BOB, "Bob"), Accepted)
    assert isinstance(await service.add_computer(CH, ANN, "random"), Accepted)
    assert isinstance(await service.start(CH, ANN), Accepted)
    first = await play_round(service, CH)
    ended = (await store.games.get_game(first)).updated_at
    assert await service.championships.open_due(ended + 6.9 * DAY) == 0
    assert await store.games.channel_game(CH) is None
    assert await service.championships.open_due(ended + 7 * DAY + 1) == 1
    second = await store.games.channel_game(CH)
    assert second is not None and second.status == "active"
    assert [s.user_id for s in second.seats] == [s.user_id for s in (await store.games.get_game(first)).seats]
    said = [n for n in await notes(service, second.id) if "opens by the schedule" in n]
    assert len(said) == 1 and "Ann, Bob" in said[0] and "round 2 of 3" in said[0], said
    # looked at again, and by a restarted bot on the same store: nothing opens twice
    assert await service.championships.open_due(ended + 8 * DAY) == 0
    assert await service_on(store).championships.open_due(ended + 8 * DAY) == 0
    champ = await store.championships.running_championship(CH)
    assert champ is not None and [n for n, _ in await store.championships.round_games(champ.id)] == [1, 2]


async def test_a_lobby_the_schedule_opened_but_a_stop_left_unstarted_starts_at_the_next_look(store):
    service = service_on(store)
    ann = Asker(GUILD, CH, ANN, "Ann", "en", "en")
    await service.championships.create(ann, name="Daily Cup", game="races", rounds="A 1; A 1", points="f1",
                                       every=1)
    await service.championships.next_round(ann)
    await service.join(CH, BOB, "Bob")
    await service.start(CH, ANN)
    first = await play_round(service, CH)
    ended = (await store.games.get_game(first)).updated_at
    opened = await service.championships.next_round(ann, scheduled=True)  # the stop came before the start
    assert isinstance(opened, Accepted)
    assert await service.championships.open_due(ended + 2 * DAY) == 1
    rec = await store.games.channel_game(CH)
    assert rec is not None and rec.id == opened.game_id and rec.status == "active"


async def test_a_schedule_out_of_range_is_refused_in_one_line(store):
    service = service_on(store)
    refused = await service.championships.create(Asker(GUILD, CH, ANN, "Ann", "de", "de"), name="Cup",
                                                 game="races", rounds="A 1; A 1", every=61)
    assert isinstance(refused, Refusal) and "\n" not in refused.text and "60 Tage" in refused.text
    assert await store.championships.running_championship(CH) is None


async def test_the_store_lists_the_running_championships_oldest_first(any_store):
    """Where the schedules are looked for: an ended championship is not listed (both stores)."""
    made = [await any_store.championships.create_championship(
        guild_id=1, channel_id=channel, host_id=ANN, name=f"Cup {channel}", game_key="races", rounds=[{}],
        points=[3, 1], options={"every_days": 2}) for channel in (11, 12, 13)]
    assert await any_store.championships.end_championship(made[1].id)
    running = await any_store.championships.running_championships()
    assert [c.id for c in running] == [made[0].id, made[2].id]
    assert running[0].options == {"every_days": 2}
