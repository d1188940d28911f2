"""A computer's name carries its seat's number, the number its kart, car or badge wears on every picture."""

from __future__ import annotations

import re

from bot.play.service import Service

CH, GUILD, ANN = 100, 5, 1


async def test_a_computer_after_a_person_is_named_by_its_seat(service: Service) -> None:
    """With Ann in seat 1, the first computer sits in seat 2 and is "Computer 2", badge 2 on the pictures."""
    r = await service.new_game(guild_id=GUILD, channel_id=CH, user_id=ANN, user_name="Ann", game_key="races")
    assert r.ok, r.text
    for _ in range(2):
        assert (await service.add_computer(CH, ANN, "smart")).ok
    assert (await service.start(CH, ANN)).ok
    _, game, _ = await service.current(CH)
    assert game is not None
    karts = game.view(None)["karts"]
    numbers = {k["seat"] + 1: re.match(r"Computer (\d+)", k["name"]) for k in karts}
    assert {badge: int(m.group(1)) for badge, m in numbers.items() if m} == {2: 2, 3: 3}
