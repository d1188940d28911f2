"""A sweep for English left in German: every game of :data:`bot.games.GAMES` played to its end through the
offline Discord harness on a German server by players whose Discord speaks German (issue of languages:
every text a player sees is in their language). Lobby, autocomplete, join, start, the turn's buttons,
refusals, status, the player's own look, the board, the log, undo, history and the final standings are
gathered, and none may hold a word only English has. Notation and code (in backticks), mentions and the
players' names are left out: players type the notation as it is in either language."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Any

import pytest

from bot.drivers import driver_for
from bot.games import GAMES, unit_for
from tests.bot.harness import CHANNEL_ID, DiscordHarness
from tests.bot.helpers import ANN, BOB, EVE, USERS, public

#: words and phrases that are English only (a German text never needs them)
ENGLISH = re.compile(
    r"\b(the|The|your|Your|you|You|turn|turns|Possible|possible|move to|seat|seats|lap|laps|and|is|are|has|"
    r"with|of|to|not|can't|nothing|Nothing|nobody|winner|Winner|finished|rolls|moves|game|Game|only|"
    r"Done|begins|joined|opened|standings|Where|no longer|more|on|at|for|by|from|it|its|this|This|that|which|"
    r"what|when|will|can|cannot|must|may|been|was|were|have|had|does|did|none|left|right|after|before|"
    r"back|there|here|round|drives|parks|points|players|player|yet|already|first|last|now|see|"
    r"board|car|race|rally|dice|wins|won)\b")
#: what is not prose: code and notation in backticks, mentions and channel links, links
NOT_PROSE = re.compile(r"```.*?```|`[^`]*`|<[@#][!&]?\d+>|https?://\S+", re.S)
#: proper names the games use in every language (titles, tracks): they may hold English words
NAMES = ("Junkyard Races", "Junkyard (piecepack)", "Junkyard (Piecepack)", "Schrottplatz Rally")


@dataclass(frozen=True)
class Plan:
    """How a small game of one kind is set up and looked at."""

    new: dict[str, Any]
    joins: tuple[dict[str, Any], dict[str, Any]]
    #: the game's own command that shows a player's hidden things (None: the game has none)
    look: str | None
    #: a seat option offered by autocomplete while joining
    completes: str | None
    #: well-formed actions the rules refuse at some point of a game (their reasons, with what is possible)
    wrong: tuple[str, ...]
    #: a command of the game's own group and its option offered by autocomplete during a turn
    command: tuple[str, str] | None = None
    #: setup options offered by autocomplete while opening the game
    setup_completes: tuple[str, ...] = ()


PLANS: dict[str, Plan] = {
    "races": Plan({"track": "A", "laps": 1}, ({"colour": "red"}, {"colour": "blue"}), "race hand", "colour",
                  ("buy mud-tyres", "choose Z1", "roll 3"), ("race move", "to"), ("track",)),
    "piecepack": Plan({"laps": 1}, ({}, {}), None, None, ("move c3", "move a1", "roll"), ("piecepack move", "to")),
    "rally": Plan({"laps": 1}, ({}, {}), "rally board", "board", ("repair", "move 1a", "roll red"),
                  ("rally move", "to"), ("track", "direction")),
}
#: the seats of a race with the crew: a character and a starting set each
CREW_SEATS = ({"colour": "green", "character": "tilly", "set": 1}, {"character": "jack", "set": 2})
#: longer games, other tracks and the races' crew (``-m slow``)
HEAVIER: dict[str, tuple[str, Plan]] = {
    "races with the crew": ("races", Plan({"track": "B", "laps": 1, "crew": True}, CREW_SEATS, "race hand",
                                          "character", PLANS["races"].wrong, ("race buy", "part"))),
    "rally the other way round": ("rally", Plan({"track": "B", "laps": 2, "direction": "anticlockwise"}, ({}, {}),
                                                "rally board", "board", PLANS["rally"].wrong, ("rally park", "spot"))),
}


def english_in(text: str) -> list[str]:
    """The English words of a text, outside notation, mentions, links, titles and the players' names."""
    prose = NOT_PROSE.sub(" ", text)
    for name in (*NAMES, *USERS.values(), *(n.title() for n in USERS.values())):
        prose = prose.replace(name, " ")
    return sorted(set(ENGLISH.findall(prose)))


def test_the_sweep_sees_english() -> None:
    """The check itself: English prose is caught, German and notation are not."""
    assert english_in("It is your turn: roll the dice.") == ["dice", "is", "the", "turn", "your"]
    assert english_in("Jetzt möglich: Zug nach e1, d2") == []
    assert english_in("Du kannst: `move to the end` <@123> Junkyard Races") == []
    assert english_in("Possible now: move to e1") == ["Possible", "move to", "now"]


class Sweep:
    """Everything the players and the channel read, by where it was read."""

    def __init__(self) -> None:
        self.read: list[tuple[str, str]] = []

    def add(self, where: str, sent: list[Any]) -> list[Any]:
        for s in sent:
            if s.content:
                self.read.append((where, s.content))
            self.read += [(f"{where} (button)", label) for label in s.labels]
        return sent

    def english(self) -> list[tuple[str, list[str], str]]:
        return [(where, words, text[:300]) for where, text in self.read if (words := english_in(text))]


def _game_key(module: str) -> str:
    return unit_for(module.rsplit(".", 1)[-1]).key


async def play_in_german(h: DiscordHarness, key: str, seed: int = 11, plan: Plan | None = None) -> Sweep:
    """Ann and Bob play a whole game of ``key`` (as ``plan`` sets it up) on a German server, both in German;
    Eve, without a seat, looks on. Returns what everyone read."""
    plan = plan or PLANS[key]
    sweep = Sweep()
    bot: Any = h.bot
    service, outbox = bot.service, bot.outbox
    h.guild_locale = "de"
    h.locales.update({ANN: "de", BOB: "de", EVE: "de"})
    if plan.look:
        sweep.add("look without a game", await h.slash(ANN, plan.look))
    if plan.command:
        given: dict[str, Any] = {plan.command[1]: "a1"}
        sweep.add("command without a game", await h.slash(ANN, plan.command[0], **given))
    sweep.add("setup refused", await h.slash(ANN, "game new", game=key, laps=5, track="Nowhere"))
    for option in plan.setup_completes:
        offered = await h.autocomplete(ANN, "game new", option, game=key)
        assert offered, option
        sweep.read += [("setup autocomplete", c["name"]) for c in offered]
    sweep.add("new", await h.slash(ANN, "game new", game=key, **plan.new))
    sweep.add("option refused", await h.slash(BOB, "game join", colour="x" * 120))
    if plan.look:
        sweep.add("look in the lobby", await h.slash(ANN, plan.look))
    if plan.completes:
        offered = await h.autocomplete(BOB, "game join", plan.completes)
        assert offered, plan.completes
        sweep.read += [("join autocomplete", c["name"]) for c in offered]
    sweep.add("join", await h.slash(ANN, "game join", **plan.joins[0]))
    sweep.add("join", await h.slash(BOB, "game join", **plan.joins[1]))
    sweep.add("start too early", await h.slash(BOB, "game start"))
    board = sweep.add("start", await h.slash(ANN, "game start"))[-1]
    assert (await service.current(CHANNEL_ID))[1] is not None, (key, board.content)
    users = {0: ANN, 1: BOB}
    drivers = {seat: driver_for(key, "smart", seed + seat) for seat in users}
    looked = False
    for turn in range(2000):
        _, game, _ = await service.current(CHANNEL_ID)
        if game is None or game.is_over:
            break
        seat = game.to_act
        assert seat is not None
        mover, other = users[seat], users[1 - seat]
        if turn < 6:  # the refusals and looks around a turn, a few times in different phases
            sweep.add("refused", await h.slash(mover, "game play", action="fly away"))
            sweep.add("refused", await h.slash(mover, "game play", action="move z99"))
            for action in plan.wrong:
                if action not in {str(a) for a in game.legal_actions()}:
                    sweep.add("the rules refuse", await h.slash(mover, "game play", action=action))
            if plan.command:
                sweep.read += [("command autocomplete", c["name"])
                               for c in await h.autocomplete(mover, *plan.command)]
                too_long: dict[str, Any] = {plan.command[1]: "x" * 120}
                sweep.add("option refused", await h.slash(mover, plan.command[0], **too_long))
            sweep.add("out of turn", await h.slash(other, "game play", action=str(game.legal_actions()[0])))
            sweep.add("status", await h.slash(mover, "game status"))
            sweep.add("status", await h.slash(other, "game status"))
            sweep.add("board", await h.slash(mover, "game board"))
            sweep.add("log", await h.slash(mover, "game log"))
            sweep.add("undo", await h.slash(mover, "game undo"))
            if plan.look:
                sweep.add("look", await h.slash(mover, plan.look))
                sweep.add("look without a seat", await h.slash(EVE, plan.look))
        choice = str(drivers[seat].choose(game, seat))
        pressed = next((b for b in board.buttons() if b.get("label") and b["custom_id"].split(":", 3)[-1] == choice),
                       None) if board.message else None
        if pressed is not None:
            sent = sweep.add("button", await h.press(mover, board, pressed["custom_id"]))
        else:
            sent = sweep.add("play", await h.slash(mover, "game play", action=choice))
        if not looked and turn >= 1:
            looked = True
            sweep.add("undo after a move", await h.slash(mover, "game undo"))
        shown = public(sent)
        if shown and shown[-1].buttons():
            board = shown[-1]
    else:
        raise AssertionError(f"{key}: the game did not end")
    outbox.clock = lambda: time.time() + 60  # the final standings follow a moment later
    before = len(h.sent)
    await outbox.flush()
    sweep.add("end", h.sent[before:])
    sweep.add("history", await h.slash(ANN, "game history"))
    sweep.add("log at the end", await h.slash(BOB, "game log"))
    sweep.add("mine", await h.slash(ANN, "game mine"))
    sweep.add("stats", await h.slash(BOB, "stats"))
    sweep.add("replay", await h.slash(BOB, "game replay", game="1"))
    return sweep


@pytest.mark.parametrize("module", GAMES)
async def test_a_german_table_reads_no_english(h: DiscordHarness, module: str) -> None:
    """A whole game of each kind in German: no English word in any message, answer or button label."""
    key = _game_key(module)
    sweep = await play_in_german(h, key)
    assert any(where == "end" for where, _ in sweep.read), "the final standings were not posted"
    assert len(sweep.read) > 30, sweep.read
    assert not sweep.english(), sweep.english()[:12]


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(HEAVIER))
async def test_heavier_german_tables_read_no_english(h: DiscordHarness, variant: str) -> None:
    key, plan = HEAVIER[variant]
    sweep = await play_in_german(h, key, seed=5, plan=plan)
    assert any(where == "end" for where, _ in sweep.read), "the final standings were not posted"
    assert not sweep.english(), sweep.english()[:12]


async def test_a_refused_option_is_named_as_the_readers_discord_names_it(h: DiscordHarness) -> None:
    """``/spiel beitreten farbe:…`` and ``/rennen würfeln grün:9``: each refusal names the option as a German
    Discord shows it (``farbe``, ``grün``)."""
    await h.slash(ANN, "game new", game="races", track="A", laps=1)
    h.locales[BOB] = "de"
    said = [s.content for s in await h.slash(BOB, "game join", colour="x" * 120) if s.content]
    assert said == ["`farbe` muss eine Zeile mit höchstens 100 Zeichen sein. Es wurde nichts geändert."], said
    await h.slash(BOB, "game join")
    await h.slash(ANN, "game start")
    h.locales[ANN] = "de"
    said = [s.content for s in await h.slash(ANN, "race roll", green=9) if s.content]
    assert said == ["`grün` muss zwischen 1 und 3 liegen, nicht bei 9. Es wurde nichts geändert."], said


# What is possible now, said once -------------------------------------------------------------------------


def test_the_legal_list_is_worded_in_the_readers_language() -> None:
    """A piecepack move's destinations in either language; the rally's cut-short list counts the rest in the
    reader's words; the actions themselves stay notation."""
    from rules.piecepack import PiecepackGame
    from rules.rally import RallyGame

    g = PiecepackGame.from_position({"pawns": {"Suns": "b2"}, "phase": "move", "roll": 1})
    assert g.describe_legal() == "move to b1, a2, c2, b3"
    assert g.describe_legal(lang="de") == "Zug nach b1, a2, c2, b3"
    assert g.describe_legal(2, "de") == "Zug nach b1, a2 … und 2 weitere"
    rally = RallyGame.create({"seats": [{"name": "Ann"}, {"name": "Bob"}], "options": {"laps": 1}}, seed=3)
    for _ in range(200):  # on until a roll may end on several cells
        if rally.describe_legal().startswith(("move", "park")) and ", " in rally.describe_legal():
            break
        rally.apply(rally.legal_actions()[-1])
    shown = rally.describe_legal(1, "de")
    assert shown.startswith(("move ", "park ")) and " … und " in shown and shown.endswith(" weitere"), shown


def test_a_refusal_that_lists_what_is_possible_gets_no_second_list() -> None:
    """Piecepack refusals name the legal destinations themselves (P3): the front adds nothing; a notation
    error gets the list once, in the reader's words."""
    from bot.games import unit_for
    from rules.contract import IllegalAction
    from rules.piecepack import PiecepackGame

    front = unit_for("piecepack")
    g = PiecepackGame.from_position({"pawns": {"Suns": "b2"}, "phase": "move", "roll": 1})
    for action, lists in (("move b2-b1-a1-a2", True), ("fly away", False)):
        try:
            g.apply(action)
        except IllegalAction as exc:
            said = front.refused_move(g, exc, "de")
        else:
            raise AssertionError(f"{action} was played")
        assert said.count("Zug nach b1, a2, c2, b3") == 1, said
        assert ("Jetzt möglich:" in said) is not lists, said


def test_why_a_roll_stays_carries_its_id_in_every_game_that_takes_moves_back() -> None:
    """Piecepack and rally: a roll can't be taken back (the die is known); the reason is English text that
    carries its catalogue id (also through a worker process), so the undo answer words it in German."""
    import copy
    import pickle

    from bot.games import unit_for
    from bot.play.undo import barrier_text
    from rules.piecepack import PiecepackGame
    from rules.rally import RallyGame

    rally = RallyGame.create({"seats": [{"name": "Ann"}, {"name": "Bob"}], "options": {"laps": 1}}, seed=3)
    games: dict[str, Any] = {"piecepack": PiecepackGame.from_position({"pawns": {"Suns": "a1", "Moons": "e5"}}),
                             "rally": rally}
    for key, game in games.items():
        before = copy.deepcopy(game)
        while game.dice.to_dict() == before.dice.to_dict():
            game.apply(next(a for a in game.legal_actions() if str(a).startswith("roll")))
        reason = game.undo_barrier(before, [])
        assert reason == "a roll can't be taken back: the die is known", (key, reason)
        again = pickle.loads(pickle.dumps(reason))
        assert barrier_text(unit_for(key), again, "de") == (
            "Ein Wurf lässt sich nicht zurücknehmen: sein Ergebnis ist bekannt"), key
