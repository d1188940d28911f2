"""Hidden information (R12): nothing public tells what a face-down junk tile or a hidden saddlebag tile is.

The checks:
- the rules and the game's front: in random team races with crew starting sets, every hidden tile of the
  other players is given another kind in a twin of the game; everything public (the public view, the
  status text, the buttons, and the public events and narration of the next action) must not change;
- the service: random races driven through the Service (two people, two computers) never show a private
  note or a raw action that names a tile in any public text: channel messages, buttons, the public log;
- a computer that bumps a person's kart onto a face-down tile: that person is told privately what it was;
- `/game log` in Discord: each asker sees their own moves as typed, everyone else's as the channel saw them.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from bot.games import unit_for
from bot.play.service import Service
from bot.telling.outcomes import Accepted, Private
from rules.contract import IllegalAction
from rules.races import Races
from rules.races import actions as act
from rules.races.state import Tile
from tests.bot.helpers import ANN as PERSON_A
from tests.bot.helpers import BOB as PERSON_B
from tests.bot.helpers import answer, public, started
from tests.bot.speaking import Said, Speaking
from tests.races.conftest import PROVING_GROUND  # registers the Proving Ground test track

CH, GUILD, ANN, BOB = 700, 7, 1, 2
TILE_KINDS = ("acid", "glue", "oil", "turbo-fuel", "jet-fuel", "bomb", "time-bomb", "missile", "magnet", "spring")
#: seat → (team, crew member, starting set): two bags each for the people, so tiles move between bags
CREW = [(1, "pockets", 1), (2, "orlando", 2), (1, "tiny", 1), (2, "tilly", 1)]
HIDDEN_ACTIONS = (act.BagMove, act.Swap, act.Flip)


class TeamCrewRaces(Races):
    """Junkyard Races whose setup is always team racing with crew starting sets, so tiles are held, moved
    between bags and swapped from the first turn on."""

    @classmethod
    def create(cls, setup: dict[str, Any], seed: int) -> TeamCrewRaces:
        teams = len(setup["seats"]) == 4
        seats = [dict(s, team=team, crew=crew, crew_set=n)
                 for s, (team, crew, n) in zip(setup["seats"], CREW, strict=False)]
        return super().create({"seats": seats, "options": {**setup.get("options", {}), "teams": teams,
                                                           "crew": True}}, seed)


def pick(game: Races, rng: random.Random) -> str:
    """A random legal action, often one that handles a hidden tile when there is one."""
    legal = game.legal_actions()
    hidden = [a for a in legal if isinstance(a, HIDDEN_ACTIONS)]
    if hidden and rng.random() < 0.5:
        return str(rng.choice(hidden))
    return str(rng.choice(legal))


# ------------------------------------------------------------------ the rules and the front: a twin test


def redrawn(game: Races, rng: random.Random, seat: int | None = None) -> Races:
    """A twin of ``game`` in which every tile hidden from ``seat`` (by default the player to act: face-down
    junk on the board, face-down tiles in the other karts' saddlebags) is of another kind."""
    twin = Races.from_dict(game.to_dict())
    me = twin.to_act if seat is None else seat
    for tile in twin.board.values():
        if tile.face_down:
            tile.kind = rng.choice([k for k in TILE_KINDS if k != tile.kind])
    for kart in twin.karts:
        if kart.seat == me:
            continue
        for tiles in kart.bags.values():
            for i, t in enumerate(tiles):
                if not t.face_up:
                    tiles[i] = Tile(rng.choice([k for k in TILE_KINDS if k != t.kind]))
    return twin


def public_face(game: Races) -> dict[str, Any]:
    """Everything the channel sees of a game between two actions."""
    front = unit_for("races")
    seat = game.to_act
    buttons = [(b.label, b.action) for b in front.buttons(game, seat)] if seat is not None else []
    return {"view": game.view(None), "describe": front.describe(game, None), "buttons": buttons}


def public_events(events: list) -> list[dict[str, Any]]:
    return [e.to_dict() for e in (ev.for_viewer(None) for ev in events) if e is not None]


@pytest.mark.parametrize("seed", [11, *(pytest.param(s, marks=pytest.mark.slow) for s in (12, 13, 14, 15))])
def test_what_is_public_does_not_depend_on_hidden_tiles(seed):
    """R12: redraw every hidden tile and nothing public changes, before or after the next action."""
    rng = random.Random(seed)
    setup = {"seats": [{"name": n} for n in ("Ann", "Bob", "Cat", "Dan")], "options": {"track": "A"}}
    game = TeamCrewRaces.create(setup, seed)
    compared = hidden_moves = 0
    for _ in range(400):
        if game.is_over:
            break
        twin = redrawn(game, rng)
        assert public_face(twin) == public_face(game)
        action = pick(game, rng)
        events = game.apply(action)
        try:
            twin_events = twin.apply(action)
        except IllegalAction:
            continue  # named a tile the redraw changed (a team mate's): nothing to compare
        compared += 1
        hidden_moves += isinstance(game.parse_action(action), HIDDEN_ACTIONS)
        assert public_events(twin_events) == public_events(events), action
        front = unit_for("races")
        assert front.narrate([e for e in (ev.for_viewer(None) for ev in twin_events) if e is not None]) == \
            front.narrate([e for e in (ev.for_viewer(None) for ev in events) if e is not None])
    assert compared >= 300 and hidden_moves >= 10, (compared, hidden_moves)


# ------------------------------------------------------------------ the service: public texts over random races


class NoPictures:
    """A game's front without pictures, so that many moves stay quick (pictures show the public view,
    which the twin test covers)."""

    def __init__(self, key: str) -> None:
        self._front = unit_for(key)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._front, name)

    def picture(self, view: dict[str, Any], events: list) -> None:
        return None


class Scan:
    """Every public text one race produced, and every private note."""

    def __init__(self) -> None:
        self.public: list[str] = []
        self.private: list[Private] = []
        #: pick-ups by people's karts the channel was told of
        self.pickups = 0
        #: the text of the last public message (a turn's message grows by edits)
        self.shown = ""

    def reply(self, r: Said | None) -> Said | None:
        if r is None:
            return None
        if not r.ephemeral:
            self.public.append(r.text)
            self.public.extend(f"{b.label} {b.action}" for b in r.buttons)
        self.private.extend(r.private)
        news = r.text
        if r.edited:  # an edit of the turn's message: only the lines it adds are news
            seen = set(self.shown.splitlines())
            news = "\n".join(line for line in r.text.splitlines() if line not in seen)
        if not r.ephemeral:
            self.shown = r.text
        # a pick-up the channel reads about for a person comes with a private note for them (R12)
        for name, user in (("Ann", ANN), ("Bob", BOB)):
            if re.search(rf"\b{name} \(\w+\) picks up a junk tile", news):
                self.pickups += 1
                assert any(p.user_id == user and "You picked up" in p.text for p in r.private), r.text
        return r


async def play_race(service: Speaking, seed: int, moves: int) -> Scan:
    scan = Scan()
    rng = random.Random(seed)
    assert (await service.new_game(guild_id=GUILD, channel_id=CH, user_id=ANN, user_name="Ann",
                                   game_key="races", options={"track": "A"})).ok
    assert (await service.join(CH, BOB, "Bob")).ok
    for _ in range(2):
        assert (await service.add_computer(CH, ANN, "random")).ok
    scan.reply(await service.start(CH, ANN))
    for _ in range(moves):
        while scan.reply(await service.play_computers(CH)) is not None:
            pass
        rec, game, _ = await service.current(CH)
        if rec is None or game is None or game.is_over:
            break
        seat = game.to_act
        assert seat is not None and not rec.seats[seat].is_computer
        r = scan.reply(await service.act(CH, rec.seats[seat].user_id, pick(game, rng)))
        assert r is not None and r.ok, r.text
    return scan


def secret_lines(notes: list[Private]) -> Iterator[str]:
    for note in notes:
        yield from (line.strip() for line in note.text.splitlines() if line.strip())


@pytest.mark.parametrize("seed", [1, *(pytest.param(s, marks=pytest.mark.slow) for s in (2, 3, 4))])
async def test_no_public_text_tells_a_hidden_tile(store, seed):
    """R12 over random races: channel messages, buttons and the public log show no private note and no
    raw action naming a tile; the asker's own copy of the log shows their own moves in full."""
    service = Speaking(Service(store, seed_source=lambda: seed, fronts=NoPictures, classes=lambda key: TeamCrewRaces))
    scan = await play_race(service, seed, moves=300)
    rec = (await store.games.channel_history(CH, 1))[0]
    actions = await store.games.actions(rec.id)
    log = await service.log(CH, limit=100, max_chars=100_000)
    status = await service.status(CH, None)
    texts = [*scan.public, log.text, status.text]
    named = [a for a in actions if any(k in a.action.split() for k in TILE_KINDS)]
    hidden = [a for a in named if a.action.split()[0] in ("bag", "swap", "hide")]
    assert hidden, "the race moved no hidden tile: the scan proves little"
    assert scan.pickups and scan.private, "nobody picked anything up: the scan proves little"
    for text in texts:
        for a in named:
            assert a.action not in text, f"{a.action!r} is public: {text!r}"
        for line in secret_lines(scan.private):
            assert line not in text, f"private {line!r} is public"
        assert "junk:" not in text and "You picked up" not in text and "You snatched" not in text
    mine = await service.log(CH, limit=100, max_chars=100_000, user_id=ANN)
    # a move played for its player (forced, plan) is marked so after its number: the mark is left out here
    lines = {int(line.split(".", 1)[0]): re.sub(r"^(\d+\.) \[[^]]+\]", r"\1", line)
             for line in mine.text.splitlines()[1:]}
    assert len(lines) == 100
    for a in actions[-100:]:  # the moves the log covers
        if a.user_id == ANN:  # Ann named once: before the action, or by the narration it opens with
            assert (f"{a.index + 1}. Ann `{a.action}`:" in lines[a.index + 1]
                    or lines[a.index + 1].startswith(f"{a.index + 1}. `{a.action}`: Ann ")), lines[a.index + 1]
        elif a in named:
            assert a.action not in lines[a.index + 1]


async def test_the_public_log_shows_narration_and_the_asker_sees_their_own_moves(store):
    """`bag KIND FROM TO` tells the kind: the public log shows what the channel was told instead."""
    service = Speaking(Service(store, seed_source=lambda: 3, fronts=NoPictures, classes=lambda key: TeamCrewRaces))
    assert (await service.new_game(guild_id=GUILD, channel_id=CH, user_id=ANN, user_name="Ann",
                                   game_key="races")).ok
    assert (await service.join(CH, BOB, "Bob")).ok
    assert (await service.start(CH, ANN)).ok
    rng = random.Random(3)
    for _ in range(50):  # play on until someone may move a tile between saddlebags
        rec, game, _ = await service.current(CH)
        user = rec.seats[game.to_act].user_id
        moves = [str(a) for a in game.legal_actions() if isinstance(a, act.BagMove)]
        if moves:
            break
        assert (await service.act(CH, user, str(rng.choice(game.legal_actions())))).ok
    move = moves[0]
    r = await service.act(CH, user, move)
    assert r.ok and move not in r.text and "moves a tile from saddlebag" in r.text
    public = (await service.log(CH)).text
    assert move not in public and "moves a tile from saddlebag" in public and "only you see" not in public
    own = (await service.log(CH, user_id=user)).text
    assert f"`{move}`" in own and "your own moves as you typed them: only you see this" in own
    other = (await service.log(CH, user_id=BOB if user == ANN else ANN)).text
    assert move not in other


# ------------------------------------------------------------------ a computer bumps a person onto a tile


class Scripted:
    """A computer that plays the given action whenever it is legal, else the first legal one."""

    def __init__(self, action: str) -> None:
        self.action = action

    def choose(self, game: Races, seat: int) -> str:
        legal = [str(a) for a in game.legal_actions()]
        return self.action if self.action in legal else legal[0]


class BumpPosition(Races):
    """Ann (red) on K4; the computer (blue) on J3 facing SE with one point to move; face-down Glue on L4.
    Stepping to K4 bumps Ann on to L4, where her kart picks the tile up (Proving Ground)."""

    @classmethod
    def create(cls, setup: dict[str, Any], seed: int) -> Races:  # type: ignore[override]
        return Races.from_position({
            "track": PROVING_GROUND.name,
            "karts": [{"colour": "red", "name": "Ann", "cell": "K4", "facing": "N"},
                      {"colour": "blue", "name": "Computer", "cell": "J3", "facing": "SE"}],
            "board": {"L4": "junk:glue"}, "turn": "blue", "phase": "move", "points": 1,
        })


async def test_a_person_bumped_onto_a_tile_by_a_computer_is_told_privately(store):
    """R12: the tile a bumped kart picks up is named to its owner only, whoever moved."""
    service = Speaking(Service(store, seed_source=lambda: 5, fronts=NoPictures, classes=lambda key: BumpPosition,
                               drivers=lambda key, kind, seed: Scripted("step K4")))
    assert (await service.new_game(guild_id=GUILD, channel_id=CH, user_id=ANN, user_name="Ann",
                                   game_key="races")).ok
    assert (await service.add_computer(CH, ANN, "random")).ok
    r = await service.start(CH, ANN)  # the computer is to move: it bumps Ann at once
    _, game, _ = await service.current(CH)
    assert game.karts[0].cell is not None and game.karts[0].cell.label == "L4"
    assert [t.kind for t in game.karts[0].bags[7]] == ["glue"]
    assert [(p.seat, p.user_id) for p in r.private] == [(0, ANN)]
    assert "You picked up glue" in r.private[0].text
    assert "picks up a junk tile at L4" in r.text and "glue" not in r.text.lower()


def test_the_public_view_of_a_redrawn_twin_is_the_same_json():
    """The twin helper itself: it changes every hidden tile and nothing else."""
    game = TeamCrewRaces.create({"seats": [{"name": n} for n in ("Ann", "Bob", "Cat", "Dan")]}, 1)
    twin = redrawn(game, random.Random(0))
    me = game.to_act
    for a, b in zip(game.karts, twin.karts, strict=True):
        mine = a.seat == me
        for loc in a.bags:
            kinds_a = [t.kind for t in a.bags[loc]]
            kinds_b = [t.kind for t in b.bags[loc]]
            assert (kinds_a == kinds_b) if mine else all(x != y for x, y in zip(kinds_a, kinds_b, strict=True))
    assert json.dumps(game.view(None), sort_keys=True) == json.dumps(twin.view(None), sort_keys=True)
    assert game.to_dict() != twin.to_dict()


# ------------------------------------------------------------------ /game log in Discord


async def test_game_log_in_discord_shows_each_asker_their_own_moves_in_full(h):
    """`/game log` answers only the asker: their own moves as typed, everyone else's as narrated."""
    await started(h)
    await h.slash(PERSON_A, "game play", action="roll")
    mine = answer(await h.slash(PERSON_A, "game log"))
    assert mine.ephemeral and "`roll`" in mine.content and "only you see this" in mine.content
    theirs = answer(await h.slash(PERSON_B, "game log"))
    assert theirs.ephemeral and "`roll`" not in theirs.content and "rolled" in theirs.content


async def test_a_note_from_computer_moves_posted_later_reaches_its_person_by_direct_message(h):
    """Computer moves past one reply's budget are posted from the background: a private note they carry
    (a tile a person's kart picked up) is sent to that person directly, never to the channel."""
    service = h.bot.service
    service.autoplay.moves_per_reply = 1
    original = service.play_computers

    async def play_computers(channel_id: int) -> Accepted | None:
        batch = await original(channel_id)
        if batch is not None:
            batch = replace(batch, private=(*batch.private, Private(0, PERSON_A, "You picked up Glue.")))
        return batch

    service.play_computers = play_computers
    answer(await h.slash(PERSON_A, "game new", game="toy"))
    answer(await h.slash(PERSON_A, "game computer"))
    answer(await h.slash(PERSON_A, "game computer"))
    board = answer(await h.slash(PERSON_A, "game start"))
    [after] = public(await h.press(PERSON_A, board, "Roll"))
    sent = await h.press(PERSON_A, after, "Pass")
    # posted later, or the turn's message edited later (the press's own answer aside)
    later = [s for s in public(sent) if s.kind in ("channel", "edit") and not s.pressed]
    notes = [s for s in sent if s.dm and "You picked up Glue." in s.content]
    assert later and len(notes) == len(later)
    assert not any("Glue" in s.content for s in public(sent))
