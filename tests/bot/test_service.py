"""The front-end-neutral service: lobby flow, turn checks, refusals that change nothing, serialised acts."""

from __future__ import annotations

import asyncio

import pytest

from bot.play.service import Service
from bot.store import SqliteStore
from bot.upkeep.consistency import check_consistency
from tests.bot.speaking import Speaking

CH, GUILD, ANN, BOB, CAT, MOD = 100, 5, 1, 2, 3, 9


async def lobby(service: Service, **options):
    r = await service.new_game(guild_id=GUILD, channel_id=CH, user_id=ANN, user_name="Ann", game_key="toy",
                               options=options)
    assert r.ok, r.text
    r = await service.join(CH, BOB, "Bob", {"colour": "blue"})
    assert r.ok, r.text


async def running(service: Service):
    await lobby(service)
    r = await service.start(CH, ANN)
    assert r.ok, r.text
    return r


async def play_turn(service: Service, user: int):
    r = await service.act(CH, user, "roll")
    assert r.ok, r.text
    _, game, _ = await service.current(CH)
    if game is None:
        return r
    best = max(a for a in map(str, game.legal_actions()) if a.startswith("move"))
    return await service.act(CH, user, best)


async def waiting(service: Service) -> bool:
    """Whether the channel's game waits on its computers (the store's queue, which survives restarts)."""
    return any(channel == CH for _, channel in await service.store.games.waiting_on_computers())


async def kinds(service: Service, r) -> list[str]:
    """The kinds of the records an acceptance wrote, in order."""
    return [(await service.store.outbox.delivery(i)).kind for i in r.deliveries]


async def snapshot(service: Service):
    rec = await service.store.games.channel_game(CH)
    return rec, await service.store.games.actions(rec.id) if rec else None


async def test_lobby_flow_new_join_start(service):
    await lobby(service, track="short")
    rec = await service.store.games.channel_game(CH)
    assert rec.status == "lobby" and [s.name for s in rec.seats] == ["Ann", "Bob"]
    assert rec.seats[1].options == {"colour": "blue"} and rec.setup == {"options": {"track": "short"}}
    r = await service.start(CH, ANN)
    assert r.ok and r.changed and r.png.startswith(b"\x89PNG")
    assert r.mention == ANN and [b.action for b in r.buttons] == ["roll"]
    rec = await service.store.games.channel_game(CH)
    assert rec.status == "active" and rec.setup["seats"] == [{"name": "Ann"}, {"name": "Bob", "colour": "blue"}]


async def test_unused_new_option_is_ignored_with_a_note(service):
    r = await service.new_game(guild_id=GUILD, channel_id=CH, user_id=ANN, user_name="Ann", game_key="toy",
                               options={"teams": True, "crew": None})
    assert r.ok and "`teams` is not used by Race to Ten; ignored." in r.text
    assert (await service.store.games.channel_game(CH)).setup == {"options": {}}


async def test_bad_options_are_refused_without_change(service):
    r = await service.new_game(guild_id=GUILD, channel_id=CH, user_id=ANN, user_name="Ann", game_key="toy",
                               options={"track": "moon"})
    assert not r.ok and r.ephemeral and "choose short or long" in r.text
    assert await service.store.games.channel_game(CH) is None
    r = await service.new_game(guild_id=GUILD, channel_id=CH, user_id=ANN, user_name="Ann", game_key="chess")
    assert not r.ok and "toy" in r.text
    await lobby(service)
    r = await service.join(CH, CAT, "Cat", {"colour": "blue"})
    assert not r.ok and "blue is taken" in r.text
    assert len((await service.store.games.channel_game(CH)).seats) == 2


async def test_second_game_in_a_channel_is_refused(service):
    await lobby(service)
    r = await service.new_game(guild_id=GUILD, channel_id=CH, user_id=CAT, user_name="Cat", game_key="toy")
    assert not r.ok and "already has a game of Race to Ten (lobby)" in r.text


async def test_join_twice_changes_options_not_seats(service):
    await lobby(service)
    r = await service.join(CH, BOB, "Bob", {"colour": "green"})
    assert r.ok
    rec = await service.store.games.channel_game(CH)
    assert len(rec.seats) == 2 and rec.seats[1].options == {"colour": "green"}


async def test_table_full(service):
    await lobby(service)
    assert (await service.join(CH, CAT, "Cat")).ok
    r = await service.join(CH, 4, "Dan")
    assert not r.ok and "at most 3" in r.text


async def test_start_needs_host_or_manager_and_enough_players(service):
    await service.new_game(guild_id=GUILD, channel_id=CH, user_id=ANN, user_name="Ann", game_key="toy")
    r = await service.start(CH, ANN)
    assert not r.ok and "needs 2–3 players; 1 seated" in r.text
    await service.join(CH, BOB, "Bob")
    r = await service.start(CH, BOB)
    assert not r.ok and "Only the host" in r.text
    r = await service.start(CH, MOD, can_manage=True)
    assert r.ok


async def test_leave_and_kick_in_the_lobby(service):
    await lobby(service)
    r = await service.kick(CH, BOB, ANN)
    assert not r.ok and "Only the host" in r.text
    r = await service.kick(CH, ANN, BOB)
    assert r.ok and len((await service.store.games.channel_game(CH)).seats) == 1
    r = await service.leave(CH, ANN)
    assert r.ok and "closed" in r.text
    assert await service.store.games.channel_game(CH) is None


async def test_no_joining_once_running(service):
    await running(service)
    r = await service.join(CH, CAT, "Cat")
    assert not r.ok and r.ephemeral and "already started" in r.text


async def test_abort_by_host_or_manager_only(service):
    await running(service)
    r = await service.abort(CH, BOB)
    assert not r.ok and "Only the host" in r.text
    r = await service.abort(CH, MOD, can_manage=True)
    assert r.ok and await service.store.games.channel_game(CH) is None
    assert (await service.store.games.channel_history(CH))[0].status == "aborted"


async def test_turn_checks_and_refusals_change_nothing(service):
    await running(service)
    before = await snapshot(service)
    for user, text, expect in [
        (BOB, "roll", "not your turn"),
        (CAT, "roll", "no seat"),
        (ANN, "move 1", "Possible now: roll"),
        (ANN, "fly", "expected `roll`"),
    ]:
        r = await service.act(CH, user, text)
        assert not r.ok and r.ephemeral and expect in r.text, r.text
        assert await snapshot(service) == before


async def test_acting_without_a_game_or_before_start(service):
    r = await service.act(CH, ANN, "roll")
    assert not r.ok and "/game new" in r.text
    await lobby(service)
    r = await service.act(CH, ANN, "roll")
    assert not r.ok and "hasn't started" in r.text


async def test_a_move_stores_action_and_snapshot(service):
    await running(service)
    r = await service.act(CH, ANN, "roll")
    assert r.ok and r.changed and r.version == 1 and r.png.startswith(b"\x89PNG")
    assert r.mention is None  # Ann continues
    assert all(b.action.startswith(("move", "pass")) for b in r.buttons)
    r = await service.act(CH, ANN, "pass")
    assert r.mention == BOB and f"<@{BOB}>, your turn." in r.text and r.buttons[0].action == "roll"
    rec = await service.store.games.channel_game(CH)
    assert [a.action for a in await service.store.games.actions(rec.id)] == ["roll", "pass"]
    await check_consistency(service.store.games, rec.id)


async def test_stale_expected_version_is_refused(service):
    await running(service)
    assert (await service.act(CH, ANN, "roll", expected_version=0)).ok
    r = await service.act(CH, ANN, "pass", expected_version=0)
    assert not r.ok and "from move 0" in r.text
    r = await service.act(CH, ANN, "pass", expected_version=1, game_id=999)
    assert not r.ok and "not running in this channel" in r.text  # no such game: forged


async def test_a_button_from_a_future_move_is_refused_without_touching_the_board(service):
    """A press naming a move the game has not reached is forged: refused privately, and nothing changes."""
    await running(service)
    before = await snapshot(service)
    r = await service.act(CH, ANN, "roll", expected_version=7, game_id=before[0].id)
    assert not r.ok and r.ephemeral and "nothing was changed" in r.text
    assert await snapshot(service) == before


async def test_a_button_of_an_earlier_game_here_is_stale(service):
    await running(service)
    old = (await service.store.games.channel_game(CH)).id
    await service.abort(CH, ANN)
    await running(service)
    r = await service.act(CH, ANN, "roll", expected_version=0, game_id=old)
    assert not r.ok and "has ended" in r.text


async def test_concurrent_acts_on_one_channel_serialise(service):
    await running(service)
    results = await asyncio.gather(*(service.act(CH, ANN, "roll", expected_version=0) for _ in range(4)))
    assert sum(r.ok for r in results) == 1
    assert all("from move 0" in r.text for r in results if not r.ok)
    rec = await service.store.games.channel_game(CH)
    assert rec.version == 1
    await check_consistency(service.store.games, rec.id)


async def test_concurrent_acts_without_versions_apply_in_turn(service):
    """Without expected versions each act sees the state the previous one left."""
    await running(service)
    results = await asyncio.gather(service.act(CH, ANN, "roll"), service.act(CH, ANN, "pass"),
                                   service.act(CH, BOB, "roll"))
    assert [r.ok for r in results] == [True, True, True]
    rec = await service.store.games.channel_game(CH)
    assert rec.version == 3
    await check_consistency(service.store.games, rec.id)


async def test_play_to_the_end(service):
    await running(service)
    users, r = [ANN, BOB], None
    for turn in range(40):
        r = await play_turn(service, users[turn % 2])
        if "wins" in r.text:
            break
    assert r is not None and "Winner" in r.text and not r.buttons and r.mention is None
    assert await service.store.games.channel_game(CH) is None
    last = (await service.store.games.channel_history(CH))[0]
    assert last.status == "finished"
    await check_consistency(service.store.games, last.id)
    status = await service.status(CH, ANN)
    assert "finished" in status.text and status.png
    log = await service.log(CH)
    assert "moves 1–" in log.text and "rolled" in log.text


async def test_hidden_card_goes_only_to_its_holder(service):
    await running(service)
    _, game, _ = await service.current(CH)
    game.dice.load([6])  # the next roll is a six: Ann draws a card
    r = await service.act(CH, ANN, "roll")
    card = (await service.current(CH))[1].cards[0]
    assert [(p.seat, p.user_id) for p in r.private] == [(0, ANN)]
    assert f"Your new card is {card}." in r.private[0].text and "peek" in r.private[0].text
    assert "card is" not in r.text and "peek" not in r.text
    log = await service.log(CH)
    assert "card is" not in log.text


async def test_status_shows_what_the_asker_can_do(service):
    await running(service)
    r = await service.status(CH, ANN)
    assert r.ephemeral and "You can: roll" in r.text and r.buttons
    r = await service.status(CH, BOB)
    assert "You can" not in r.text and not r.buttons


async def test_a_move_by_another_process_is_seen(service, db_path):
    """A second process (sharing the file) moved first: the cached game is not used, the stored one is."""
    await running(service)
    async with SqliteStore(db_path) as other_store:
        other = Speaking(Service(other_store))
        assert (await other.act(CH, ANN, "roll")).ok
        r = await service.act(CH, ANN, "roll")
        assert not r.ok and "Possible now: move 1" in r.text  # the re-read record shows the roll
    rec2, game2, _ = await service.current(CH)
    assert rec2.version == 1 and game2.rolled is not None


@pytest.mark.parametrize("limit", [0, 5, 1000])
async def test_log_limit_is_clamped(service, limit):
    await running(service)
    await service.act(CH, ANN, "roll")
    r = await service.log(CH, limit=limit, user_id=ANN)  # her own move, as she typed it
    assert r.ok and "1. `roll`: Ann rolled" in r.text  # Ann is named once, by the narration


async def test_host_leaving_the_lobby_hands_it_on(service):
    await lobby(service)
    r = await service.leave(CH, ANN)
    assert r.ok and f"<@{BOB}> is the host now." in r.text
    assert (await service.store.games.channel_game(CH)).host_id == BOB
    assert (await service.join(CH, CAT, "Cat")).ok
    assert (await service.start(CH, BOB)).ok


# Computer players --------------------------------------------------------------------------------


async def test_computer_seat_needs_host_and_a_known_kind(service):
    await service.new_game(guild_id=GUILD, channel_id=CH, user_id=ANN, user_name="Ann", game_key="toy")
    r = await service.add_computer(CH, BOB)
    assert not r.ok and "Only the host" in r.text
    r = await service.add_computer(CH, ANN, "genius")
    assert not r.ok and "choose random" in r.text
    r = await service.add_computer(CH, ANN)
    assert r.ok and "Computer 2 (random) takes a seat" in r.text  # named by its seat
    rec = await service.store.games.channel_game(CH)
    assert rec.seats[1].is_computer and rec.seats[1].user_id < 0 and rec.seats[1].driver == "random"
    r = await service.kick_seat(CH, ANN, 2)
    assert r.ok and "**Computer 2 (random)** was removed" in r.text
    r = await service.kick_seat(CH, ANN, 5)
    assert not r.ok and "no seat 5" in r.text


async def test_person_against_computer_to_the_end(service):
    await service.new_game(guild_id=GUILD, channel_id=CH, user_id=ANN, user_name="Ann", game_key="toy")
    await service.add_computer(CH, ANN)
    assert (await service.start(CH, ANN)).ok
    r = None
    for _ in range(40):
        r = await play_turn(service, ANN)
        assert r.ok, r.text
        if "Winner" in r.text:
            break
        # Ann's moves go on in the message that asked her (the computer's turn told in it), and her last move
        # ends her turn there; the computer's whole turn is a message of its own, which asks Ann again
        assert r.edited and await waiting(service) and r.mention is None
        r = await service.play_computers(CH)
        assert r is not None
        if "Winner" in r.text:
            break
        assert r.text.startswith("Computer 2 (random) rolled") and r.mention == ANN and not await waiting(service)
    assert r is not None and "Winner" in r.text
    last = (await service.store.games.channel_history(CH))[0]
    acts = await service.store.games.actions(last.id)
    assert {a.user_id for a in acts if a.seat == 1} == {None}
    await check_consistency(service.store.games, last.id)


async def test_computer_in_the_first_seat_moves_at_start(service):
    await service.new_game(guild_id=GUILD, channel_id=CH, user_id=ANN, user_name="Ann", game_key="toy", join=False)
    await service.add_computer(CH, ANN)
    await service.join(CH, ANN, "Ann")
    r = await service.start(CH, ANN)
    assert r.ok and "Computer 1 (random) rolled" in r.text and r.mention == ANN and r.version == 2
    assert [b.action for b in r.buttons] == ["roll"]


async def test_a_computer_turn_left_over_is_played_on_request(service):
    """If the computers stopped before their turn was done (a restart), a person's request is refused and the
    computers are woken to play on; then the person can move."""
    woken = []
    service.on_computers = woken.append
    service.autoplay.moves_per_reply = 0  # the restart: no computer moves at all
    await service.new_game(guild_id=GUILD, channel_id=CH, user_id=ANN, user_name="Ann", game_key="toy", join=False)
    await service.add_computer(CH, ANN)
    await service.join(CH, ANN, "Ann")
    r = await service.start(CH, ANN)
    assert r.ok and r.version == 0 and r.mention is None and await waiting(service)
    service.autoplay.moves_per_reply = 40
    r = await service.act(CH, ANN, "roll")
    assert not r.ok and r.ephemeral and "still to move" in r.text and woken == [CH]
    r = await service.play_computers(CH)  # the computer's turn goes on in the start's message, posted already…
    assert r is not None and r.changed and "Computer 1 (random) rolled" in r.text and await waiting(service)
    r = await service.play_computers(CH)  # …so the move that hands the turn to Ann posts the message that pings her
    assert r is not None and r.mention == ANN and await kinds(service, r) == ["post"]
    assert not await waiting(service) and [b.action for b in r.buttons] == ["roll"]
    assert await service.play_computers(CH) is None
    assert (await service.act(CH, ANN, "roll")).ok


async def test_a_failing_computer_plays_a_random_move_instead(store, seeds, toy_game):
    class Broken:
        def choose(self, game, seat):
            raise RuntimeError("driver crashed")

    def drivers(key, kind, seed):
        from bot.drivers import driver_for

        return Broken() if kind == "clever" else driver_for(key, kind, seed)

    service = Speaking(Service(store, seed_source=seeds, drivers=drivers,
                               driver_kinds=lambda key: ["clever", "random"]))
    await service.new_game(guild_id=GUILD, channel_id=CH, user_id=ANN, user_name="Ann", game_key="toy", join=False)
    await service.add_computer(CH, ANN, "clever")
    await service.join(CH, ANN, "Ann")
    r = await service.start(CH, ANN)
    assert r.ok and "Computer 1 (clever) rolled" in r.text and r.mention == ANN


async def test_long_computer_sequences_come_in_several_replies(service):
    """Each reply carries at most a budget of computer moves; the rest follow through play_computers."""
    service.autoplay.moves_per_reply = 1
    await service.new_game(guild_id=GUILD, channel_id=CH, user_id=ANN, user_name="Ann", game_key="toy")
    await service.add_computer(CH, ANN)
    await service.add_computer(CH, ANN)
    await service.start(CH, ANN)
    await service.act(CH, ANN, "roll")
    r = await service.act(CH, ANN, "pass")
    assert r.ok and await waiting(service) and r.mention is None and not r.buttons
    replies = []
    while await waiting(service):
        r = await service.play_computers(CH)
        replies.append(r)
    assert len(replies) == 4 and replies[-1].mention == ANN  # 4 computer actions, one per reply
    rec = await service.store.games.channel_game(CH)
    assert rec.version == 6
    await check_consistency(service.store.games, rec.id)


async def test_log_keeps_the_newest_moves_that_fit(service):
    await running(service)
    for _ in range(6):
        await service.act(CH, ANN, "roll")
        await service.act(CH, ANN, "pass")
        await service.act(CH, BOB, "roll")
        await service.act(CH, BOB, "pass")
    r = await service.log(CH, limit=100, max_chars=300)
    assert len(r.text) <= 300 and r.text.rstrip().endswith("Bob passed.")
    assert "moves 24–24" not in r.text and "–24:" in r.text


async def test_leaving_a_running_game_hands_the_seat_to_a_computer(service):
    await running(service)
    await service.act(CH, ANN, "roll")
    await service.act(CH, ANN, "pass")
    r = await service.leave(CH, BOB)  # Bob is to act
    assert r.ok and not r.ephemeral and "A computer (random) plays Bob's seat" in r.text and await waiting(service)
    rec = await service.store.games.channel_game(CH)
    assert rec.seats[1].is_computer and rec.seats[1].name == "Bob (computer)" and rec.seat_of(BOB) is None
    r = await service.play_computers(CH)  # Bob's turn goes on in its message, without his buttons now…
    assert "Bob rolled" in r.text and r.edited and not r.buttons
    r = await service.play_computers(CH)  # …and the move that hands it to Ann posts the message that pings her
    assert "Bob moved" in r.text and r.mention == ANN and not r.edited
    rec = await service.store.games.channel_game(CH)
    await check_consistency(service.store.games, rec.id)


async def test_kicking_from_a_running_game_and_the_last_person_leaving(service):
    await running(service)
    r = await service.kick(CH, BOB, ANN)
    assert not r.ok and "Only the host" in r.text
    r = await service.kick(CH, ANN, BOB)
    assert r.ok and "plays Bob's seat" in r.text
    r = await service.kick_seat(CH, ANN, 2)
    assert not r.ok and "can't leave a running game" in r.text
    r = await service.leave(CH, ANN)
    assert r.ok and "Nobody is left to play" in r.text
    assert await service.store.games.channel_game(CH) is None


async def test_host_leaving_a_running_game_hands_on_the_host_role(service):
    await lobby(service)
    await service.join(CH, CAT, "Cat")
    await service.start(CH, ANN)
    r = await service.leave(CH, ANN)
    assert r.ok and f"<@{BOB}> is the host now." in r.text
    assert (await service.store.games.channel_game(CH)).host_id == BOB


# Delivery records ----------------------------------------------------------------------------------


async def test_every_public_change_carries_its_delivery_records(service):
    """A lobby's news, a start, a move, a computer taking a seat over and an abort each store what the channel
    must be shown, in the same transaction; the abort also takes the buttons off the turn's message."""
    await lobby(service)
    joined = await service.join(CH, CAT, "Cat")
    r = await service.start(CH, ANN)
    moved = await service.act(CH, ANN, "roll")
    left = await service.leave(CH, CAT)
    ended = await service.abort(CH, ANN)
    records = await service.store.outbox.deliveries()
    assert [d.kind for d in records] == ["note", "note", "note", "post", "edit", "note", "retire", "note"]
    assert [d.id for d in records][2:] == [*joined.deliveries, *r.deliveries, *moved.deliveries,
                                           *left.deliveries, *ended.deliveries]
    assert all(d.channel_id == CH for d in records) and [d.version for d in records] == [0, 0, 0, 0, 1, 1, 1, 1]
    # Ann's roll goes on with her turn: its record edits the start's message and holds the turn's narration
    assert records[4].payload["edit_of"] == records[3].id and records[4].payload["board"]
    assert moved.text.startswith("**Race to Ten** begins!") and "Ann rolled" in moved.text
    assert records[6].payload["edit_of"] == records[4].id  # the retirement of the turn's message
    assert not records[7].payload["board"] and "ended the game" in ended.text
    assert all(d.claimed_by == service.owner and not d.delivered for d in records)


async def test_computer_moves_join_the_record_of_the_batch_they_belong_to(service):
    await service.new_game(guild_id=GUILD, channel_id=CH, user_id=ANN, user_name="Ann", game_key="toy")
    await service.add_computer(CH, ANN)
    await service.start(CH, ANN)
    await service.act(CH, ANN, "roll")
    r = await service.act(CH, ANN, "pass")
    assert await kinds(service, r) == ["edit"] and await waiting(service)  # Ann's pass ends her turn, in its message
    r = await service.play_computers(CH)
    last = (await service.store.outbox.deliveries())[-1]
    assert r.deliveries == (last.id,) and last.version == r.version == 4 and last.kind == "post"  # the computer's turn
    assert len(last.payload["lines"]) == 2 and "rolled" in str(last.payload["lines"][0])
    service._composed.clear()  # composed again from the store alone
    rebuilt = await service.message(last)
    assert rebuilt.text == r.text and rebuilt.png == r.png and [b.action for b in rebuilt.buttons] == ["roll"]


async def test_a_computer_move_another_process_overtook_is_neither_shown_nor_kept(service):
    """The game moves on while a computer's batch is under way (another process stored first): the move is
    dropped, and the message the batch delivers and the game it keeps are those of the moves that were stored
    (the same message composed afresh from the store)."""
    from bot.store import StaleVersion

    await service.new_game(guild_id=GUILD, channel_id=CH, user_id=ANN, user_name="Ann", game_key="toy")
    await service.add_computer(CH, ANN)
    assert (await service.start(CH, ANN)).ok
    await play_turn(service, ANN)
    store = service.store
    real = store.games.append_action
    calls = 0

    async def overtaken(game_id, *, expected_version, **kwargs):
        nonlocal calls
        calls += 1
        if calls == 2:  # the computer's second move of its turn
            raise StaleVersion(game_id, expected_version, expected_version + 1)
        return await real(game_id, expected_version=expected_version, **kwargs)

    store.games.append_action = overtaken
    assert await service.play_computers(CH) is not None
    store.games.append_action = real
    assert calls == 2
    rec = await store.games.channel_game(CH)
    assert (await service.load(rec)).to_dict() == rec.state  # kept: the stored game, not the dropped move's
    await check_consistency(store.games, rec.id)
    latest = await store.outbox.latest_delivery(rec.id)
    delivered = await service.message(latest)
    service._composed.clear()
    assert delivered.text == (await service.message(latest)).text
