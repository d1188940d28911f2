"""Every turn announced once, with a ping: whole games of people played through the offline Discord stack.

People play by button presses (the live message's, when one plays the move) and ``/game play``; what has
nothing to decide plays itself, as by default (forced moves, rolls). After the game, every public request is
laid against the game's log, turn by turn (a turn: the moves of one seat in a row):

- each turn a person decided something in has exactly one message: a new channel post, the first request
  showing that turn, whose ``allowed_mentions`` pings exactly that person (nobody, for a person whose notices
  are not ``channel``);
- every other request of the turn edits that message and pings nobody;
- no channel post of the running game is without the buttons of the turn it shows (a turn's state told a
  second time, in words only).
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field

import pytest

from bot.discord.buttons import CUSTOM_ID_TEMPLATE
from bot.drivers import driver_for, driver_kinds
from bot.telling.outcomes import Accepted
from tests.bot.harness import CHANNEL_ID, DiscordHarness, Sent, answer
from tests.bot.helpers import ANN, BOB, EVE, MOD

PEOPLE = (ANN, BOB, EVE, MOD)
COLOURS = ("red", "blue", "green", "yellow")
CUSTOM_ID = re.compile(CUSTOM_ID_TEMPLATE)


@dataclass
class Played:
    """A whole game as the channel saw it: every request from the first board on, the log's seat of each move,
    the user in each seat, the moves people played by hand (by their index) and who is not pinged in the
    channel."""

    sent: list[Sent]
    seats: list[int | None]
    users: list[int]
    by_hand: set[int]
    quiet: set[int] = field(default_factory=set)


def shows_in_channel(s: Sent) -> bool:
    """A request that posts or changes a message everyone in the channel sees."""
    if s.failed or s.repeated or s.deferral or s.ephemeral or s.dm:
        return False
    return s.kind == "channel" or (s.kind == "edit" and s.changes) or (s.kind == "callback" and s.pressed)


def version_of(s: Sent) -> int | None:
    """The move a message's buttons belong to (None: it carries none)."""
    for cid in s.custom_ids:
        m = CUSTOM_ID.fullmatch(cid)
        if m is not None and not m.group("action").startswith("?"):
            return int(m.group("version"))
    return None


def turns_of(seats: list[int | None]) -> list[int]:
    """The turn of each move of the log (a turn: one seat's moves in a row), numbered from 0."""
    out: list[int] = []
    for i, seat in enumerate(seats):
        out.append(0 if i == 0 else out[-1] + (seat != seats[i - 1]))
    return out


def ping_problems(game: Played) -> list[str]:
    """What breaks "every turn announced once, with a ping" in ``game`` (empty: nothing)."""
    turn = turns_of(game.seats)
    seat_of_turn = {turn[i]: game.seats[i] for i in range(len(turn))}
    decided = {turn[i] for i in game.by_hand}
    messages: dict[str, list[tuple[int, Sent]]] = defaultdict(list)
    problems: list[str] = []
    last_live = max((i for i, s in enumerate(game.sent) if shows_in_channel(s) and version_of(s) is not None),
                    default=-1)
    for i, s in enumerate(game.sent):
        if not shows_in_channel(s) or s.message is None:
            continue
        if s.kind == "channel" and version_of(s) is None and i < last_live:
            problems.append(f"request {i}: a post without the turn's buttons while the game runs: {s.content[-80:]!r}")
        if s.allowed_users and s.kind != "channel":
            problems.append(f"request {i}: an edit pings {s.allowed_users}")
        messages[s.message["id"]].append((i, s))
    opened: dict[int, list[str]] = defaultdict(list)
    for mid, requests in messages.items():
        turns = {turn[v] for _, s in requests if (v := version_of(s)) is not None and v < len(turn)}
        if len(turns) > 1:
            problems.append(f"message {mid} shows turns {sorted(turns)}")
        if len(turns) != 1:
            continue
        (t,) = turns
        first_at, first = requests[0]
        opened[t].append(mid)
        if first.kind != "channel":
            problems.append(f"turn {t}: its message {mid} was not posted by its first request")
            continue
        seat = seat_of_turn[t]
        user = game.users[seat] if seat is not None else None
        wanted = [] if user is None or user in game.quiet else [str(user)]
        if t in decided and (first.allowed_users or []) != wanted:
            problems.append(f"turn {t} (request {first_at}): pings {first.allowed_users}, not {wanted}")
        elif t not in decided and first.allowed_users and first.allowed_users != wanted:
            problems.append(f"turn {t} (request {first_at}), played by itself: pings {first.allowed_users}")
    for t in sorted(decided):
        if len(opened[t]) != 1:
            problems.append(f"turn {t} of seat {seat_of_turn[t]} has {len(opened[t])} messages")
    return problems


async def sit_down(h: DiscordHarness, game_key: str, people: int, options: dict[str, object] | None = None) -> None:
    """Ann opens a game of ``game_key`` and ``people`` - 1 others join (a kart's colour each, in a race)."""
    if options is None:
        options = {"track": "A", "laps": 1} if game_key == "races" else {}
    answer(await h.slash(ANN, "game new", game=game_key, **options))
    for i, user in enumerate(PEOPLE[:people]):
        if game_key == "races":
            answer(await h.slash(user, "game join", colour=COLOURS[i]))
        elif i:
            answer(await h.slash(user, "game join"))


def live_button(h: DiscordHarness, action: str, version: int) -> tuple[Sent, str] | None:
    """The live message and its button that plays ``action`` at ``version``, if it has one."""
    for s in reversed(h.sent):
        if shows_in_channel(s) and s.message is not None and s.custom_ids:
            for cid in s.custom_ids:
                m = CUSTOM_ID.fullmatch(cid)
                if m is not None and m.group("action") == action and int(m.group("version")) == version:
                    return s, cid
            return None
    return None


async def play_game(h: DiscordHarness, game_key: str, people: int, *, seed: int = 0,
                    quiet: dict[int, str] | None = None, options: dict[str, object] | None = None,
                    limit: int = 3000) -> Played:
    """A whole game of ``people`` people, each move chosen by the game's own driver and played by a press of
    the live message's button when it has one, else by ``/game play``."""
    await sit_down(h, game_key, people, options)
    for user, mode in (quiet or {}).items():
        answer(await h.slash(user, "game notify", mode=mode))
    start = len(h.sent)
    answer(await h.slash(ANN, "game start"))
    kind = next((k for k in driver_kinds(game_key) if k != "random"), "random")
    drivers = [driver_for(game_key, kind, 101 * seed + i) for i in range(people)]
    service = h.bot.service
    by_hand: set[int] = set()
    for _ in range(limit):
        rec, game, _ = await service.current(CHANNEL_ID)
        if rec is None or game is None or game.is_over:
            break
        seat = game.to_act
        assert seat is not None
        action = str(drivers[seat].choose(game, seat))
        user = rec.seats[seat].user_id
        by_hand.add(rec.version)
        button = live_button(h, action, rec.version)
        if button is not None:
            await h.press_custom_id(user, button[0].message or {}, button[1])
        else:
            await h.slash(user, "game play", action=action)
        after = await service.store.games.get_game(rec.id)
        assert after.version > rec.version, f"{action!r} was not played"
    else:
        raise AssertionError("the game did not end")
    done = (await service.store.games.channel_history(CHANNEL_ID, 1))[0]
    log = await service.store.games.actions(done.id)
    return Played(h.sent[start:], [a.seat for a in log], [s.user_id for s in done.seats], by_hand,
                  {u for u, m in (quiet or {}).items() if m != "channel"})


@pytest.mark.parametrize(("game_key", "people", "seed"), [("races", 3, 0), ("races", 4, 1), ("rally", 3, 2),
                                                         ("piecepack", 3, 3)])
async def test_every_turn_is_announced_once_with_a_ping(h, game_key, people, seed):
    game = await play_game(h, game_key, people, seed=seed)
    assert len(game.by_hand) < len(game.seats)  # some moves played themselves
    assert ping_problems(game) == []


@pytest.mark.parametrize(("game_key", "people", "seed", "quiet"), [("races", 3, 4, {BOB: "off"}),
                                                                  ("piecepack", 3, 5, {EVE: "dm"})])
async def test_a_person_not_pinged_in_the_channel_gets_no_ping_and_the_others_theirs(h, game_key, people, seed,
                                                                                      quiet):
    """A player whose notices are ``off`` or by direct message is named on their turn's message, never pinged
    there; everyone else's turns ping them once, as always."""
    game = await play_game(h, game_key, people, seed=seed, quiet=quiet)
    assert ping_problems(game) == []
    (who,) = quiet
    posts = [s for s in game.sent if shows_in_channel(s) and s.kind == "channel"]
    assert any(f"<@{who}>, your turn" in s.content for s in posts)
    assert all(str(who) not in (s.allowed_users or []) for s in game.sent)
    assert {u for s in posts for u in s.allowed_users or []} == {str(u) for u in game.users if u != who}


async def test_a_turn_message_that_goes_out_after_its_forced_roll_still_pings(h):
    """Piecepack (P3: every roll plays itself): a move hands the turn to the other player, and the computer worker
    rolls for them before the message that opens their turn is out (the answer to the move is still under way).
    That message goes out new, showing the roll and their buttons, and pings them; the roll's edit of it pings
    nobody."""
    await sit_down(h, "piecepack", 2)
    answer(await h.slash(ANN, "game start"))
    service = h.bot.service
    driver = driver_for("piecepack", "random", 7)
    rec, game, _ = await service.current(CHANNEL_ID)
    assert rec is not None and game is not None and game.to_act is not None
    mover = game.to_act
    while True:
        action = str(driver.choose(game, mover))
        trial = type(game).from_dict(game.to_dict())
        trial.apply(action)
        if trial.to_act != mover:
            break
        await h.slash(rec.seats[mover].user_id, "game play", action=action)
        rec, game, _ = await service.current(CHANNEL_ID)
        assert rec is not None and game is not None and game.to_act == mover
    start = len(h.sent)
    moved = await service.act(CHANNEL_ID, rec.seats[mover].user_id, action)  # stored, not delivered yet
    rolled = await service.play_computers(CHANNEL_ID)  # the worker rolls for the next player meanwhile
    assert isinstance(moved, Accepted) and rolled is not None
    await h.bot.outbox.deliver(rolled.deliveries)  # the roll's edit waits for the message it changes
    await h.bot.outbox.deliver(moved.deliveries)
    await h.bot.outbox.deliver(rolled.deliveries)
    sent = [s for s in h.sent[start:] if shows_in_channel(s)]
    [post] = [s for s in sent if s.kind == "channel"]
    rec = await service.store.games.channel_game(CHANNEL_ID)
    assert rec is not None
    assert post.allowed_users == [str(rec.seats[1 - mover].user_id)] and "Rolled for" in post.content and post.png
    assert post.custom_ids and version_of(post) == rec.version
    edits = [s for s in sent if s.kind == "edit" and s.message and s.message["id"] == post.message["id"]]
    assert edits and all(not s.allowed_users for s in edits)
