"""Schrottplatz Rally through the offline Discord harness: ``/game new`` with the rally's options (checked
on the server), the ``/rally`` group built from its data, autocomplete drawn from the legal actions,
buttons for the common flow, refusals that are private and change nothing, and a whole 3-player race
played by commands and buttons."""

from __future__ import annotations

from typing import Any, cast

import pytest

from bot.discord import JunkyardBot
from bot.drivers.rally import SmartDriver
from bot.play.service import Service
from rules.rally import RallyGame
from rules.rally import board as B
from tests.bot.harness import CHANNEL_ID, DiscordHarness, Sent
from tests.bot.helpers import ANN, BOB, EVE, MOD, answer, public

OTHER_CHANNEL = CHANNEL_ID + 7


def service(h: DiscordHarness) -> Service:
    return cast(JunkyardBot, h.bot).service


async def version(h: DiscordHarness) -> int:
    rec = await service(h).store.games.channel_game(CHANNEL_ID)
    assert rec is not None
    return int(rec.version)


async def game_now(h: DiscordHarness) -> RallyGame:
    _, game, _ = await service(h).current(CHANNEL_ID)
    assert isinstance(game, RallyGame)
    return game


def first_user(game: RallyGame) -> int:
    """The user whose car is to act."""
    assert game.to_act is not None
    return users_by_seat()[game.to_act]


async def start(h: DiscordHarness, **options: Any) -> Sent:
    """Ann opens a rally (one lap unless told), Bob and Eve join, Ann starts it: the first board."""
    options.setdefault("laps", 1)
    r = answer(await h.slash(ANN, "game new", game="rally", **options))
    assert not r.ephemeral, r.content
    answer(await h.slash(BOB, "game join"))
    answer(await h.slash(EVE, "game join"))
    board = answer(await h.slash(ANN, "game start"))
    assert not board.ephemeral and board.png and board.png.startswith(b"\x89PNG")
    return board


def users_by_seat() -> list[int]:
    return [ANN, BOB, EVE]


def button_for(board: Sent, action: str) -> str | None:
    """The custom_id of the button on ``board`` that plays ``action``, if there is one."""
    for cid in board.custom_ids:
        if cid.split(":", 3)[-1] == action:
            return cid
    return None


# The group and the setup -------------------------------------------------------------------------------


async def test_the_rally_group_is_built_from_its_data(h: DiscordHarness) -> None:
    tree = cast(JunkyardBot, h.bot).tree
    group: Any = tree.get_command("rally")
    assert [c.name for c in group.commands] == ["roll", "shift", "boost", "move", "park", "repair", "board"]
    park = {p.name: p for p in group.get_command("park").parameters}
    assert park["spot"].required and park["spot"].autocomplete and not park["items"].required
    game: Any = tree.get_command("game")
    new = {p.name for p in game.get_command("new").parameters}
    assert {"track", "laps", "direction", "board"} <= new


async def test_game_new_takes_the_rally_options_and_refuses_bad_values_privately(h: DiscordHarness) -> None:
    """Setup (S1, S8): laps 1 to 5, a known track, a direction, a legal starting board; Discord does not
    enforce any of it, so the server does, and a refusal opens no lobby."""
    for bad, words in (({"laps": 9}, "1 to 5"), ({"laps": 0}, "1 to 5"), ({"track": "Z"}, "no track 'Z'"),
                       ({"direction": "sideways"}, "clockwise or anticlockwise"),
                       ({"board": "1:M 2:M 3:M"}, "a car starts with 2 mechanics on its board, not 3"),
                       ({"board": "1:M 2:M 3:B 4:E 5:BE"}, "the yellow range needs a working gear"),
                       ({"board": "1:Q"}, "is not a gear")):
        r = answer(await h.slash(ANN, "game new", game="rally", **bad))
        assert r.ephemeral, (bad, r.content)
        assert await service(h).store.games.channel_game(CHANNEL_ID) is None, bad
        assert words in r.content, (bad, r.content)
    r = answer(await h.slash(ANN, "game new", game="rally", track="B", laps=2, direction="anticlockwise",
                           board="1:M 3:M 2:BE 5:BE", teams=True))
    assert not r.ephemeral and "`teams` is not used by Schrottplatz Rally; ignored." in r.content
    rec = await service(h).store.games.channel_game(CHANNEL_ID)
    assert rec is not None and rec.setup["options"] == {"track": "B", "laps": 2, "direction": "anticlockwise",
                                    "boards": "1:M 2:BE 3:M 5:BE"}
    answer(await h.slash(BOB, "game join"))
    answer(await h.slash(ANN, "game start"))
    game = await game_now(h)
    assert (game.track.alias, game.laps, game.clockwise) == ("B", 2, False)
    assert all(car.gears == ["M", "BE", "M", "", "BE", ""] for car in game.cars)


async def test_each_player_places_their_own_parts_by_game_join(h: DiscordHarness) -> None:
    """Setup step 2: each player places their car's parts, so ``/game join`` takes the player's own starting
    board (checked: a working gear in every range, 2 of each part); a seat without one gets the game's."""
    answer(await h.slash(ANN, "game new", game="rally", board="1:M 2:M 3:BE 6:BE"))
    r = answer(await h.slash(BOB, "game join", board="1:M 2:M 3:B 4:E 5:BE"))
    assert r.ephemeral and "the yellow range needs a working gear" in r.content
    r = answer(await h.slash(BOB, "game join", board="1:m 3:M 2:be 5:BE"))
    assert not r.ephemeral, r.content
    boards = await h.autocomplete(EVE, "game join", "board", board="3:M")
    assert boards and "3:M" in boards[0]["value"]
    answer(await h.slash(EVE, "game join"))
    answer(await h.slash(ANN, "game start"))
    game = await game_now(h)
    assert [B.board_text(car.gears) for car in game.cars] == ["1:M 2:M 3:BE 6:BE", "1:M 2:BE 3:M 5:BE",
                                                              "1:M 2:M 3:BE 6:BE"]


async def test_setup_options_autocomplete(h: DiscordHarness) -> None:
    tracks = await h.autocomplete(ANN, "game new", "track", game="rally", track="")
    assert [c["value"] for c in tracks] == ["A", "B"]
    ways = await h.autocomplete(ANN, "game new", "direction", game="rally", direction="anti")
    assert [c["value"] for c in ways] == ["anticlockwise"]
    boards = await h.autocomplete(ANN, "game new", "board", game="rally", board="")
    assert boards[0]["value"] == "1:M 2:M 3:BE 5:BE" and 1 < len(boards) <= 25


# Commands, autocomplete and buttons ------------------------------------------------------------------


async def test_roll_buttons_then_moves_by_autocomplete(h: DiscordHarness) -> None:
    """The first round must roll green (S3): one Roll button and one with the booster; after the roll
    the destinations come from the legal actions, best first, as buttons and as autocomplete."""
    board = await start(h)
    game = await game_now(h)
    first = first_user(game)
    assert board.labels == ["Roll green", "Roll green + boost"] and f"<@{first}>" in board.content
    game.dice.load([5])  # gear 2: two cells
    [after] = public(await h.press(first, board, "Roll green"))
    assert "rolls 5: gear 2 (green)" in after.content
    game = await game_now(h)
    moves = {str(a) for a in game.legal_actions()}
    assert after.labels and all(button_for(after, a) is None or a in moves for a in moves)
    assert {cid.split(":", 3)[-1] for cid in after.custom_ids} <= moves
    choices = await h.autocomplete(first, "rally move", "to")
    assert {c["value"] for c in choices} == {a.split()[1] for a in moves if a.startswith("move ")}
    assert len(choices) <= 25 and all(c["name"].startswith(c["value"]) for c in choices)
    assert await h.autocomplete(BOB if first != BOB else ANN, "rally move", "to") == []  # not their turn
    r = answer(await h.slash(first, "rally move", to=choices[0]["value"]))
    assert not r.ephemeral and "drives" in r.content
    assert await version(h) == 2


async def test_roll_range_autocomplete_and_the_booster_command(h: DiscordHarness) -> None:
    await start(h)
    game = await game_now(h)
    first = first_user(game)
    ranges = await h.autocomplete(first, "rally roll", "range")
    assert [c["value"] for c in ranges] == ["green"] and "gears 1 and 2 work" in ranges[0]["name"]
    game.dice.load([1, 1])
    r = public(await h.slash(first, "rally boost"))[-1]  # the turn goes on: its message is edited
    assert not r.ephemeral and "spends a fuel can on the booster (1 left)" in r.content


@pytest.mark.presses_every_move
async def test_refusals_are_private_and_change_nothing(h: DiscordHarness) -> None:
    """Out of turn, a stranger, option values that make no action, an action the rules refuse (S3: green
    at the start), a cell that is not on the track: each answered privately, the game unchanged."""
    await start(h)
    game = await game_now(h)
    first = first_user(game)
    other = next(u for u in users_by_seat() if u != first)
    before = await version(h)
    cases: list[tuple[int, str, dict[str, Any], str]] = [
        (other, "rally roll", {}, "It is not your turn"),
        (MOD, "rally roll", {}, "You have no seat in this game"),
        (first, "rally roll", {"range": "purple"}, "`range` is green, yellow or red"),
        (first, "rally shift", {"range": "red"}, "Starting off, the lever must be on green, not red"),
        (first, "rally move", {"to": "14b"}, "must roll first"),
        (first, "rally move", {"to": "F7.1"}, "is a parking spot"),
        (first, "rally move", {"to": "xyz"}, "is not a cell"),
        (first, "rally park", {"spot": "nowhere"}, "`spot` is a parking spot"),
        (first, "rally park", {"spot": "F7.1", "items": "q9"}, "is not a placement"),
        (first, "rally repair", {}, "Only a car pushed off for repairs"),
    ]
    for user, command, options, words in cases:
        r = answer(await h.slash(user, command, **options))
        assert r.ephemeral and words in r.content, (command, options, r.content)
    game.dice.load([2])
    assert public(await h.slash(first, "rally roll"))
    r = answer(await h.slash(first, "rally move", to="99a"))
    assert r.ephemeral and "There is no 99a on this track" in r.content
    assert await version(h) == before + 1  # only the roll was played
    r = answer(await h.slash(EVE, "rally roll", channel_id=OTHER_CHANNEL))
    assert r.ephemeral and "There is no rally in this channel" in r.content


async def test_the_car_board_is_shown_privately(h: DiscordHarness) -> None:
    await start(h)
    r = answer(await h.slash(BOB, "rally board"))
    assert r.ephemeral and r.png and "Your car: Blue (Bob)" in r.content and "Reserve: 4 mechanics" in r.content
    r = answer(await h.slash(MOD, "rally board"))
    assert r.ephemeral and "You have no car in this rally." in r.content


async def test_status_shows_the_standings_and_what_to_do(h: DiscordHarness) -> None:
    await start(h)
    game = await game_now(h)
    first = first_user(game)
    r = answer(await h.slash(first, "game status"))
    assert r.ephemeral and "Schrottplatz Rally" in r.content and "Turn order: " in r.content
    assert "Your commands: `/rally roll`, `/rally shift`, `/rally boost`" in r.content
    assert "laps 0/1 · stops 0" in r.content and ": shift and roll" in r.content


# A whole race ----------------------------------------------------------------------------------------


async def test_a_whole_three_player_race_by_commands_and_buttons(h: DiscordHarness) -> None:
    """Ann, Bob and Eve race one lap to the finish. Each action is the one the smart driver picks; on
    alternate turns it is pressed as a button when the board offers it, else typed as the /rally command
    that makes it (roll, shift, boost, move, park, repair)."""
    board = await start(h, laps=1)
    brain = SmartDriver(11)
    used: set[str] = set()
    for turn in range(600):
        _, game, _ = await service(h).current(CHANNEL_ID)
        if game is None:
            break
        assert isinstance(game, RallyGame)
        seat = game.to_act
        assert seat is not None
        user = users_by_seat()[seat]
        action = brain.choose(game, seat)
        words = action.split()
        cid = button_for(board, action)
        if cid is not None and turn % 2 and words[0] != "park":
            assert board.message is not None
            sent = await h.press_custom_id(user, board.message, cid)
            used.add("button")
        elif words[0] == "roll":
            boost = words[-1] == "boost"
            if boost:
                sent = await h.slash(user, "rally boost", range=words[1])
                used.add("boost")
            elif turn % 3 == 0:
                sent = await h.slash(user, "rally shift", range=words[1])
                used.add("shift")
            else:
                sent = await h.slash(user, "rally roll", range=words[1])
                used.add("roll")
        elif words[0] == "move":
            sent = await h.slash(user, "rally move", to=words[1])
            used.add("move")
        elif words[0] == "park":
            sent = await h.slash(user, "rally park", spot=words[1], items=" ".join(words[2:]) or None)
            used.add("park")
        else:
            sent = await h.slash(user, "rally repair")
            used.add("repair")
        posted = public(sent)  # the next turn's message, or this turn's edited (the command answered privately)
        assert posted and not any(s.ephemeral for s in posted), [s.content for s in sent]
        board = posted[-1]
    else:
        raise AssertionError("the race did not end")
    assert "wins the rally" in board.content and "Places: laps first, then fewer stops (S8)." in board.content
    assert board.png and not board.custom_ids
    assert {"button", "roll", "shift", "boost", "move", "park"} <= used, used
    rec = (await service(h).store.games.channel_history(CHANNEL_ID, 1))[0]
    assert rec.status == "finished" and rec.version > 30


# Rule lookup -----------------------------------------------------------------------------------------


async def test_rules_lookup_answers_rally_questions_in_either_language(h: DiscordHarness) -> None:
    """The unit names the rally's lookup entries: a German question finds the German entry (Boxengasse:
    rule text "Boxengasse"; "verschaltet": S4), an English one the English entry, in a channel racing."""
    await start(h)
    choices = await h.autocomplete(ANN, "rules", "topic", topic="Boxengasse", language="de")
    assert choices and choices[0]["value"] == "pit-lane-de"
    r = answer(await h.slash(ANN, "rules", topic="verschaltet", language="de"))
    assert r.ephemeral and r.embeds and "S4" in r.embeds[0]["title"] + r.embeds[0]["description"]
    r = answer(await h.slash(ANN, "rules", topic="what happens in a curve"))
    assert r.ephemeral and r.embeds[0]["title"] == "Curves"
