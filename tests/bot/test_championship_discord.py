"""``/championship`` through the real discord.py stack (offline harness): the host creates one (said to the
channel, in the server's language), a refusal is one private line that changes nothing (not the host, a bad
points list, a game without places), ``next`` opens the round's lobby, ``table`` answers the asker alone,
``end`` is the host's."""

from __future__ import annotations

from tests.bot.harness import answer
from tests.bot.helpers import ANN, BOB


async def test_a_championship_is_created_opened_shown_and_ended_by_its_host(h):
    made = answer(await h.slash(ANN, "championship create", name="Spring Cup", game="races",
                                rounds="A 1; B 2; A 3", points="cup", drop=1))
    assert not made.ephemeral and "Spring Cup" in made.content and "3 rounds" in made.content
    assert "15, 12, 10" in made.content and "<@" not in made.content
    champ = await h.bot.service.store.championships.running_championship(h.channel_id)
    assert champ is not None and champ.points[:3] == (15, 12, 10) and champ.options["drop_worst"] == 1

    refused = answer(await h.slash(BOB, "championship next"))
    assert refused.ephemeral and "Only the host of" in refused.content
    assert await h.bot.service.store.games.channel_game(h.channel_id) is None

    shown = answer(await h.slash(BOB, "championship table"))
    assert shown.ephemeral and "no round finished yet, 3 to run" in shown.content

    sent = await h.slash(ANN, "championship next")
    lobby = await h.bot.service.store.games.channel_game(h.channel_id)
    assert lobby is not None and lobby.seats[0].user_id == ANN and lobby.setup["options"]["laps"] == 1
    assert any("round 1 of 3" in s.content for s in sent if not s.ephemeral)
    assert await h.bot.service.store.championships.round_games(champ.id) == [(1, lobby.id)]

    assert "Only the host" in answer(await h.slash(BOB, "championship end")).content
    ended = answer(await h.slash(ANN, "championship end"))
    assert not ended.ephemeral and "after 0 of 3 rounds" in ended.content
    assert await h.bot.service.store.championships.running_championship(h.channel_id) is None


async def test_a_refused_championship_says_why_in_one_line_and_stores_nothing(h):
    for options, why in (({"game": "piecepack", "rounds": "A 1"}, "racing game"),
                         ({"game": "races", "rounds": "A 1; B 1", "points": "10 12"}, "Place 2 can't score more"),
                         ({"game": "races", "rounds": "Z 1"}, "Round 1 can't be set up"),
                         ({"game": "races", "rounds": "A 1", "drop": 1}, "0 to 0")):
        refused = answer(await h.slash(ANN, "championship create", name="Cup", **options))
        assert refused.ephemeral and why in refused.content and "\n" not in refused.content.strip(), refused.content
    assert await h.bot.service.store.championships.running_championship(h.channel_id) is None


async def test_a_german_server_reads_the_championship_in_german(h):
    h.guild_locale = "de"
    h.locales[BOB] = "de"
    made = answer(await h.slash(ANN, "championship create", name="Herbstpokal", game="rally",
                                rounds="A 1; A 2"))
    assert "hat die Meisterschaft **Herbstpokal**" in made.content and "2 Runden" in made.content
    refused = answer(await h.slash(BOB, "championship end"))
    assert "Nur der Gastgeber von **Herbstpokal**" in refused.content
