"""Junkyard Races through Discord: /game new and join with race options, /race commands, buttons, hidden
tiles, restarts and refusals, run offline through the real discord.py stack (tests/bot/harness.py).

Races are one lap on the Sump Creek Loop (track A); a smart driver picks each move, and the test plays it
as a person would: by a button when the board offers one for that move, else by a /race command.
"""

from __future__ import annotations

import pytest

from bot.drivers import driver_for
from bot.games.races import FRONT, step_word
from bot.games.unit import REACH_ACTION
from rules import lookup
from rules.races.state import BoardTile
from tests.bot.harness import CHANNEL_ID, DiscordHarness, Sent
from tests.bot.helpers import ANN, BOB, EVE, answer, make_bot, pressed_edit, public, shown

OTHER_CHANNEL = CHANNEL_ID + 17


async def open_race(h: DiscordHarness, **new) -> Sent:
    """Ann opens a one-lap race on track A as red, Bob joins as blue, Ann starts: the first board."""
    r = answer(await h.slash(ANN, "game new", game="races", track="A", laps=1, **new))
    assert not r.ephemeral and "Junkyard Races" in r.content and "laps 1" in r.content
    r = answer(await h.slash(ANN, "game join", colour="red"))
    assert not r.ephemeral
    r = answer(await h.slash(BOB, "game join", colour="blue"))
    assert not r.ephemeral and "blue" in r.content
    board = answer(await h.slash(ANN, "game start"))
    assert not board.ephemeral and board.png and board.png.startswith(b"\x89PNG")
    return board


async def game_state(h: DiscordHarness):
    rec, game, _ = await h.bot.service.current(CHANNEL_ID)
    return rec, game


def slash_for(action: str) -> tuple[str, dict]:
    """The /race command and options a player types for an action in notation."""
    verb, *args = action.split()
    if verb == "roll":
        opts: dict = {"green": int(args[0])}
        for a in args[1:]:
            opts["white" if a.endswith("w") else "red"] = int(a[:-1])
        return "race roll", opts
    if verb == "move":
        return "race move", {"to": " ".join(args)}
    if verb == "step":
        return "race step", {"way": args[0]}
    if verb == "choose":
        return "race choose", {"option": args[0]}
    if verb == "trap":
        return "race trap", {"tile": args[0], "cell": args[1], **({"arrow": args[2]} if len(args) > 2 else {})}
    if verb in ("magnet", "missile", "bomb"):
        return f"race {verb}", {"cell": args[0], "target": args[1]}
    if verb in ("snatch", "smash"):
        return f"race {verb}", {"target": args[0]}
    if verb == "buy":
        return "race buy", {"part": args[0], **({"location": args[1]} if len(args) > 1 else {})}
    if verb == "return":
        return "race return", {"location": args[0]}
    if verb == "refuel":
        return "race refuel", {"fuel": args[0]}
    if verb in ("swap", "bag"):
        return f"race {verb}", {"what" if verb == "swap" else "move": " ".join(args)}
    if verb in ("show", "hide"):
        return f"race {verb}", {"tile": args[0]}
    return f"race {verb}", {}


def assert_buttons_legal(game, board: Sent) -> None:
    """Every button plays a legal action (a relative step counts as the cell it leads to), fits in a
    custom_id and within Discord's 25 buttons."""
    legal = {str(a) for a in game.legal_actions()}
    assert len(board.custom_ids) <= 25
    for cid in board.custom_ids:
        assert len(cid) <= 100
        action = cid.split(":", 3)[3]
        if action == REACH_ACTION:  # asks where the kart can go: offered only while it drives
            assert game.phase == "move" and game.choice is None and game.turn.points > 0
            continue
        if action.startswith("step ") and action.split()[1] in ("left", "straight", "right"):
            assert any(step_word(game, game.parse_action(a)) == action.split()[1] for a in legal
                       if a.startswith("step ")), action
        else:
            assert action in legal, action


async def play_out(h: DiscordHarness, board: Sent, *, buttons: bool, limit: int = 400, stop_after: int | None = None
                   ) -> tuple[Sent, dict]:
    """Play the race to its end (or ``stop_after`` moves); returns the last board and how many moves went by
    button and by command."""
    users = {0: ANN, 1: BOB}
    drivers = {0: driver_for("races", "smart", 11), 1: driver_for("races", "smart", 12)}
    used = {"button": 0, "slash": 0}
    for _ in range(limit):
        rec, game = await game_state(h)
        if game is None or game.is_over or used["button"] + used["slash"] == stop_after:
            return board, used
        seat = game.to_act
        before = rec.version
        assert_buttons_legal(game, board)
        action = drivers[seat].choose(game, seat)
        word = step_word(game, game.parse_action(action)) if action.startswith("step") else None
        wanted = {action, f"step {word}"} if word else {action}
        pressed = [cid for cid in board.custom_ids if cid.split(":", 3)[3] in wanted and f":{before}:" in cid]
        if buttons and pressed:
            sent = await h.press_custom_id(users[seat], board.message, pressed[0])
            assert pressed_edit(sent)  # the turn's message edited, or its buttons gone as the turn passed
            used["button"] += 1
        else:
            path, opts = slash_for(action)
            sent = await h.slash(users[seat], path, **opts)
            used["slash"] += 1
        shown = public(sent)
        assert shown, [s.content for s in sent]
        board = shown[-1]
        assert board.png and board.png.startswith(b"\x89PNG")
        assert (await h.bot.service.store.games.channel_game(CHANNEL_ID) or rec).version == before + 1 or game.is_over
    raise AssertionError("the race did not end")


@pytest.mark.presses_every_move
async def test_race_played_to_the_end_by_buttons(h):
    board = await open_race(h)
    assert board.custom_ids and all(len(c) <= 100 for c in board.custom_ids) and len(board.custom_ids) <= 25
    end, used = await play_out(h, board, buttons=True)
    assert used["button"] > used["slash"]
    assert "Winner" in end.content and not end.custom_ids
    _, game = await game_state(h)
    assert game is None  # finished: no running game in the channel
    r = answer(await h.slash(ANN, "game status"))
    assert r.ephemeral and "The race is over" in r.content


@pytest.mark.presses_every_move
async def test_race_played_to_the_end_by_slash_commands(h):
    board = await open_race(h)
    end, used = await play_out(h, board, buttons=False)
    assert used["button"] == 0 and used["slash"] > 3
    assert "Winner" in end.content


async def test_buttons_offer_dice_steps_done_and_choices(h):
    """The first turn asks for a start cell (R15): its options are the buttons; then the dice, then steps."""
    board = await open_race(h)
    _, game = await game_state(h)
    user = [ANN, BOB][game.to_act]
    assert game.choice is not None and board.labels == game.choice.options[:20]
    sent = await h.press(user, board, board.labels[0])
    board = public(sent)[-1]
    assert [lab for lab in board.labels if lab.startswith("Roll")] == ["Roll 1", "Roll 2", "Roll 3"]
    game.dice.load([1])
    board = public(await h.press(user, board, "Roll 1"))[-1]
    assert board.labels[-1] == "Where can I go?"  # while the kart drives, its player may ask privately
    assert all(lab.split()[-1] in ("left", "straight", "right", "Done") or lab.startswith("→")
               for lab in board.labels[:-1])


async def test_stranger_and_player_out_of_turn_are_refused(h):
    await open_race(h)
    rec, game = await game_state(h)
    other = [BOB, ANN][game.to_act]
    r = answer(await h.slash(EVE, "race choose", option=game.choice.options[0]))
    assert r.ephemeral and "no seat" in r.content
    r = answer(await h.slash(other, "race choose", option=game.choice.options[0]))
    assert r.ephemeral and "not your turn" in r.content
    assert (await h.bot.service.store.games.channel_game(CHANNEL_ID)).version == rec.version


async def test_the_same_button_pressed_twice_is_applied_once(h):
    board = await open_race(h)
    _, game = await game_state(h)
    user = [ANN, BOB][game.to_act]
    first = await h.press(user, board, board.labels[0])
    assert public(first)
    again = await h.press(user, board, board.labels[0])
    assert not public(again) and any(s.ephemeral and "is from move 0" in s.content for s in again)
    assert (await h.bot.service.store.games.channel_game(CHANNEL_ID)).version == 1


async def test_an_old_button_works_after_a_restart_and_the_race_goes_on(db_path):
    async with DiscordHarness(make_bot(db_path)) as h1:
        board, _ = await play_out(h1, await open_race(h1), buttons=True, stop_after=5)
        rec, game = await game_state(h1)
        assert rec.version == 5 and board.custom_ids
        user = [ANN, BOB][game.to_act]
    async with DiscordHarness(make_bot(db_path)) as h2:
        sent = await h2.press(user, board, board.labels[0])
        [after] = public(sent)
        assert after.png
        rec, game = await game_state(h2)
        assert rec.version == 6 and game.to_act is not None
        end, _ = await play_out(h2, after, buttons=True)
        assert "Winner" in end.content


async def test_rules_lookup_with_autocomplete(h):
    choices = await h.autocomplete(ANN, "rules", "topic", game="races", topic="glue")
    assert choices and all(len(c["name"]) <= 100 for c in choices)
    r = answer(await h.slash(ANN, "rules", game="races", topic=choices[0]["value"]))
    entry = lookup.find("races", choices[0]["value"])
    assert r.ephemeral and r.embeds[0]["title"] == entry.title


async def test_setup_options_are_checked(h):
    r = answer(await h.slash(ANN, "game new", game="races", track="Nowhere"))
    assert r.ephemeral and "no track called" in r.content
    r = answer(await h.slash(ANN, "game new", game="races", laps=9))
    assert r.ephemeral and "laps" in r.content
    tracks = await h.autocomplete(ANN, "game new", "track", game="races", track="sump")
    assert tracks[0]["value"] == "Sump Creek Loop"
    answer(await h.slash(ANN, "game new", game="races", track="B", crew=True))
    answer(await h.slash(ANN, "game join", colour="red"))
    colours = [c["value"] for c in await h.autocomplete(BOB, "game join", "colour", colour="")]
    assert "red" not in colours and "blue" in colours
    r = answer(await h.slash(BOB, "game join", colour="red"))
    assert r.ephemeral and "red is taken" in r.content
    r = answer(await h.slash(BOB, "game join", colour="pink"))
    assert r.ephemeral and "not a kart colour" in r.content
    crew = await h.autocomplete(BOB, "game join", "character", character="ti")
    assert crew and all("ti" in c["name"].lower() for c in crew)
    r = answer(await h.slash(BOB, "game join", colour="blue", character=crew[0]["value"], set=2))
    assert not r.ephemeral
    r = answer(await h.slash(ANN, "game start"))
    assert r.ephemeral and "crew" in r.content  # Ann has no crew member yet: the engine says what is missing


async def test_malformed_options_are_refused_and_change_nothing(h):
    await open_race(h)
    rec, game = await game_state(h)
    user = [ANN, BOB][game.to_act]
    assert public(await h.slash(user, "race choose", option=game.choice.options[0]))
    rec = await h.bot.service.store.games.channel_game(CHANNEL_ID)
    before = (rec.version, rec.state)
    for path, opts, words in [
        ("race roll", {"green": 4}, "from 1 to 3"),
        ("race roll", {"green": 2, "white": 7}, "from 0 to 3"),
        ("race buy", {"part": "rocket-skates"}, "no part called"),
        ("race buy", {"part": "mud-tyres", "location": "12"}, "2 to 9"),
        ("race step", {"way": "hello"}, "cell"),
        ("race move", {"to": "ZZ99"}, "columns"),
        ("race trap", {"tile": "banana", "cell": "F7"}, "not a trap"),
        ("race missile", {"cell": "F7", "target": "pink"}, "kart colour"),
        ("race choose", {"option": "two words"}, "one word"),
        ("race return", {"location": "x"}, "2 to 9"),
    ]:
        r = answer(await h.slash(user, path, **opts))
        assert r.ephemeral and words in r.content, (path, r.content)
    r = answer(await h.slash(user, "race buy", part="mud-tyres"))
    # a real part, but not now: the engine refuses, listing what is possible once
    assert r.ephemeral and "You can: roll 1" in r.content and "Possible now" not in r.content, r.content
    answer(await h.slash(EVE, "game new", game="piecepack", channel_id=OTHER_CHANNEL))
    r = answer(await h.slash(EVE, "race roll", green=1, channel_id=OTHER_CHANNEL))
    assert r.ephemeral and "not Junkyard Races" in r.content
    rec = await h.bot.service.store.games.channel_game(CHANNEL_ID)
    assert (rec.version, rec.state) == before


async def test_autocomplete_comes_from_the_legal_actions(h):
    board = await open_race(h)
    _, game = await game_state(h)
    user, other = [ANN, BOB][game.to_act], [BOB, ANN][game.to_act]
    options = await h.autocomplete(user, "race choose", "option", option="")
    assert [c["value"] for c in options] == game.choice.options[:25]
    assert await h.autocomplete(other, "race choose", "option", option="") == []
    board = public(await h.press(user, board, board.labels[0]))[-1]
    game.dice.load([6, 6, 6])
    assert public(await h.slash(user, "race roll", green=3))
    _, game = await game_state(h)
    ends = {str(a).split()[-1]: str(a) for a in game.legal_actions() if str(a).startswith("move")}
    dests = await h.autocomplete(user, "race move", "to", to="")
    assert dests and len(dests) <= 25 and {c["value"] for c in dests} <= set(ends)
    steps = await h.autocomplete(user, "race step", "way", way="")
    legal_steps = {str(a).split()[1] for a in game.legal_actions() if str(a).startswith("step")}
    assert {c["value"] for c in steps} - {"left", "straight", "right"} == legal_steps
    cell = dests[0]["value"]
    r = public(await h.slash(user, "race move", to=cell))[-1]
    assert not r.ephemeral
    _, game = await game_state(h)
    assert game.karts[[ANN, BOB].index(user)].cell.label == cell


async def test_hidden_tiles_only_in_ephemeral_replies(h):
    """A picked-up junk tile (R12) is named only to its owner; /race hand is private."""
    board = await open_race(h)
    _, game = await game_state(h)
    seat = game.to_act
    user = [ANN, BOB][seat]
    board = public(await h.press(user, board, board.labels[0]))[-1]
    game.dice.load([1])
    sent = await h.slash(user, "race roll", green=1)
    _, game = await game_state(h)
    step = next(a for a in game.legal_actions() if str(a).startswith("step"))
    game.board[step.cell] = BoardTile("magnet")
    sent = await h.slash(user, "race step", way=step.cell.label)
    secret = "You picked up magnet."
    assert any(s.ephemeral and secret in s.content for s in sent)
    in_public = public(sent)
    assert in_public and "picks up a junk tile" in in_public[0].content
    assert not any(secret in s.content or "magnet" in s.content for s in shown(h.sent) if not s.ephemeral)
    r = answer(await h.slash(user, "race hand"))
    assert r.ephemeral and "magnet" in r.content and r.png and r.png.startswith(b"\x89PNG")
    other = [BOB, ANN][seat]
    r = answer(await h.slash(other, "race hand"))
    assert r.ephemeral and "magnet" not in r.content
    r = answer(await h.slash(other, "game status"))
    assert "magnet" not in r.content
    r = answer(await h.slash(EVE, "race hand"))
    assert r.ephemeral and "no kart" in r.content


def test_narrate_shows_a_secret_only_in_the_owners_events():
    from rules.contract import Event

    e = Event("pickup", "Ann (red) picks up a junk tile at F7.", 0, {}, "You picked up oil.")
    assert FRONT.narrate([e.for_viewer(None)]) == "Ann (red) picks up a junk tile at F7."
    assert FRONT.narrate([e]).endswith("You picked up oil.")


async def test_crew_tiles_in_the_hand_and_a_trap_set_by_command(h):
    """Crew setup (optional rules): Pockets' first starting set brings tiles; /race hand shows them to Ann
    alone, and /race trap offers only her trap tiles and the cells next to her kart (Phase 1)."""
    answer(await h.slash(ANN, "game new", game="races", track="A", laps=1, crew=True))
    answer(await h.slash(ANN, "game join", colour="red", character="pockets", set=1))
    answer(await h.slash(BOB, "game join", colour="blue", character="Tiny", set=2))
    answer(await h.slash(ANN, "game start"))
    bob = driver_for("races", "smart", 5)
    for _ in range(20):
        _, game = await game_state(h)
        if game.to_act == 0 and game.phase == "deeds":
            break
        seat = game.to_act
        action = bob.choose(game, seat) if seat == 1 else str(game.legal_actions()[0])
        path, opts = slash_for(action)
        assert public(await h.slash([ANN, BOB][seat], path, **opts))
    else:
        raise AssertionError("Ann never reached Phase 1")
    r = answer(await h.slash(ANN, "race hand"))
    assert r.ephemeral and "glue" in r.content and "magnet" in r.content and r.png
    r = answer(await h.slash(BOB, "race hand"))
    assert "glue" not in r.content
    for s in shown(h.sent):  # every message posted or changed
        if not s.ephemeral:  # neither the text nor a button of a public message names a hidden tile
            assert not any(kind in s.content or any(kind in c for c in s.custom_ids)
                           for kind in ("glue", "acid", "spring", "magnet", "missile", "bomb")), s.content
    kinds = {c["value"] for c in await h.autocomplete(ANN, "race trap", "tile", tile="")}
    assert kinds == {"glue", "oil", "acid", "spring"}
    traps = {str(a) for a in game.legal_actions() if str(a).startswith("trap oil")}
    cells = [c["value"] for c in await h.autocomplete(ANN, "race trap", "cell", tile="oil", cell="")]
    assert cells and {f"trap oil {c}" for c in cells} <= {t.rsplit(" ", 1)[0] for t in traps}
    arrows = [c["value"] for c in await h.autocomplete(ANN, "race trap", "arrow", tile="oil", cell=cells[0])]
    assert arrows and all(f"trap oil {cells[0]} {a}" in traps for a in arrows)
    sent = await h.slash(ANN, "race trap", tile="oil", cell=cells[0], arrow=arrows[0])
    assert public(sent) and not public(sent)[0].ephemeral
    _, game = await game_state(h)
    placed = {c.label: t for c, t in game.board.items()}
    assert placed[cells[0]].kind == "oil" and placed[cells[0]].arrow.name == arrows[0]
    assert game.karts[0].tile_count == 4


def test_team_and_crew_seat_options_are_checked_by_the_front_end():
    """R13 team racing reads `team`; crew options need the crew setup; a crew member races once."""
    from rules.contract import SetupError

    opts, notes = FRONT.setup_options({"track": "b", "teams": True, "laps": 3})
    assert opts == {"track": "Canal Dogbone", "teams": True, "laps": 3} and not notes
    seat, notes = FRONT.seat_options({"colour": "Green", "team": 2}, opts, [])
    assert seat == {"colour": "green", "team": 2} and not notes
    seat, notes = FRONT.seat_options({"team": 2, "character": "tiny"}, {"track": "A"}, [])
    assert seat == {} and len(notes) == 2
    with pytest.raises(SetupError, match="already races"):
        FRONT.seat_options({"character": "Tiny"}, {"crew": True}, [{"crew": "tiny"}])
    with pytest.raises(SetupError, match="not in the crew"):
        FRONT.seat_options({"character": "Nobody"}, {"crew": True}, [])
    with pytest.raises(SetupError, match="1 to 5 laps"):
        FRONT.setup_options({"laps": 0})


def test_fuzzy_matching_of_typed_text():
    from bot.games.races import fuzzy

    pairs = [(f"cell {c}", c) for c in ("F7", "F8", "G7", "AB12")] + [("Mud Tyres", "mud-tyres")]
    assert [v for _, v in fuzzy(pairs, "f")][:2] == ["F7", "F8"]
    assert [v for _, v in fuzzy(pairs, "mdtyr")] == ["mud-tyres"]
    assert len(fuzzy([(str(i), str(i)) for i in range(60)], "")) == 25


async def test_a_button_pressed_in_another_channel_or_without_a_race_is_refused(h):
    board = await open_race(h)
    r = answer(await h.slash(ANN, "race done", channel_id=OTHER_CHANNEL))
    assert r.ephemeral and "no race in this channel" in r.content
    for user, cmd, opts in ((ANN, "game new", {"game": "races", "track": "B", "laps": 1}), (BOB, "game join", {}),
                            (ANN, "game start", {})):
        answer(await h.slash(user, cmd, channel_id=OTHER_CHANNEL, **opts))
    here = await h.bot.service.store.games.channel_game(CHANNEL_ID)
    there = await h.bot.service.store.games.channel_game(OTHER_CHANNEL)
    for user in (ANN, BOB):
        sent = await h.press(user, board, board.labels[0], channel_id=OTHER_CHANNEL)
        assert not public(sent) and any(s.ephemeral and "belongs to a game" in s.content for s in sent)
    assert (await h.bot.service.store.games.channel_game(CHANNEL_ID)).version == here.version
    assert (await h.bot.service.store.games.channel_game(OTHER_CHANNEL)).version == there.version
