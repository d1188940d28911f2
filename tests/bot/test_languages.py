"""The service's languages, for any game: what only a player sees (refusals, their hidden things, status)
in their own language, what the channel sees in the game's; a game unit written without ``lang`` still
works (in English)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.games.unit import takes_lang
from bot.service import Service
from rules.contract import Event, Game
from tests.bot.toygame import ToyUnit

CHANNEL = 5


class WordedToy(ToyUnit):
    """The toy game with every text marked by the language it was asked in."""

    def narrate(self, events: Sequence[Event], lang: str = "en") -> str:
        return f"[{lang}] " + super().narrate(events)

    def describe(self, game: Game, viewer: int | None, lang: str = "en") -> str:
        return f"[{lang}] " + super().describe(game, viewer)

    def refusal(self, exc: Exception, lang: str = "en") -> str:
        return f"[{lang}] {exc}"


async def table(store: Any, toy_game: Any) -> tuple[Service, WordedToy]:
    front = WordedToy()
    service = Service(store, seed_source=lambda: 4, fronts=lambda key: front)
    await service.new_game(guild_id=1, channel_id=CHANNEL, user_id=1, user_name="ann", game_key="toy", lang="de",
                           user_lang="de")
    await service.join(CHANNEL, 2, "bob", lang="en")
    await service.start(CHANNEL, 1)
    return service, front


async def test_a_refusal_is_worded_in_the_players_language(store, toy_game) -> None:
    service, _ = await table(store, toy_game)
    _, game, _ = await service.current(CHANNEL)
    assert game is not None and game.to_act is not None
    mover = game.to_act + 1
    r = await service.act(CHANNEL, mover, "move 3", lang="de")
    assert not r.ok and r.text.startswith("[de] ") and "\nJetzt möglich: roll" in r.text, r.text
    r = await service.act(CHANNEL, mover, "move 3", lang="en")
    assert not r.ok and r.text.startswith("[en] ") and "\nPossible now: roll" in r.text, r.text
    r = await service.act(CHANNEL, 3 - mover, "roll", lang="de")
    assert not r.ok and r.text.startswith("Du bist nicht am Zug:"), r.text


async def test_the_channel_reads_the_games_language_and_each_player_their_own(store, toy_game) -> None:
    """Moves by an English player in a German game: the channel's narration in German; their status in
    English, the German player's in German; hidden cards told to each holder in the language they sat
    down with (or played in)."""
    service, _ = await table(store, toy_game)
    notes: list[tuple[int, str]] = []
    for _ in range(120):
        _, game, _ = await service.current(CHANNEL)
        if game is None or game.is_over:
            break
        user = (game.to_act or 0) + 1
        reply = await service.act(CHANNEL, user, str(game.legal_actions()[0]), lang="en" if user == 2 else None)
        assert reply.ok, reply.text
        assert "[de] " in reply.text and "[en]" not in reply.text, reply.text
        notes += [(n.user_id, n.text) for n in reply.private]
    assert {u for u, _ in notes} == {1, 2}, notes  # each drew a hidden card at some point
    assert all(text.startswith("[de] " if user == 1 else "[en] ") for user, text in notes), notes
    assert (await service.status(CHANNEL, 2, lang="en")).text.startswith("(last game, finished) [en] ")
    assert (await service.status(CHANNEL, 1, lang="de")).text.startswith("(letztes Spiel, beendet) [de] ")
    assert (await service.status(CHANNEL, 2)).text.startswith("(last game, finished) [en] ")  # as Bob sat down
    assert (await service.status(CHANNEL, 3)).text.startswith("(letztes Spiel, beendet) [de] ")  # the game's


def test_a_hook_without_lang_is_called_without_it() -> None:
    """A unit written before languages: its hooks are called in English, without ``lang``."""
    assert not takes_lang(ToyUnit().picture) and takes_lang(WordedToy().narrate)
