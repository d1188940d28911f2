"""The unit of Junkyard for a piecepack: ``/piecepack roll`` and ``/piecepack move``, destination
buttons, the picture, the status lines and the standings. Narration, refusals, the status text, button
labels, destination choices and the picture's words follow ``lang`` (``"en"`` or ``"de"``), worded from the
rules' catalogue (:mod:`rules.piecepack.texts`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from bot.drivers.piecepack import GreedyDriver
from bot.games.piecepack import account, described
from bot.games.unit import (
    Ask,
    ButtonSpec,
    Command,
    CommandGroup,
    DriverFactory,
    GameUnit,
    LookupSource,
    Option,
    SelfPlay,
    Standings,
    Taps,
    Target,
)
from bot.texts import command_words
from render.piecepack import DEFAULT_TILE, Layout, piecepack_png
from render.piecepack_replay import replay_gif, replay_views, tile_for
from rules.contract import Event, Game
from rules.literal import Name
from rules.piecepack import PiecepackGame, texts
from rules.piecepack.actions import parse_syntax
from rules.piecepack.board import SUITS

#: Discord shows at most 25 buttons; a roll of 5 rarely opens more than a dozen squares.
MAX_DESTINATIONS = 20


def destinations(game: Game | None) -> dict[str, Any]:
    """Legal destination square → full-path move, empty outside the move phase (and for another game's
    state, which an autocomplete may be handed while a channel changes games)."""
    if not isinstance(game, PiecepackGame) or game.is_over:
        return {}
    try:
        return dict(game.destinations())
    except Exception:  # not in the move phase
        return {}


def read_ahead(game: PiecepackGame, text: str) -> str:
    """A plan item read before its player's turn: the notation alone (``move e3`` stays a destination, to
    be found from the planner's own pawn with the roll they will have)."""
    return str(parse_syntax(text))


def destination_choices(ask: Ask) -> list[tuple[str, str]]:
    """Squares the pawn can reach with the roll, named with their path; matched by square or path."""
    cur = ask.current.strip().lower()
    out = []
    for square, move in destinations(ask.game).items():
        path = str(move).removeprefix("move ")
        if square.startswith(cur) or path.startswith(cur):
            out.append((texts.say("choice.destination", ask.lang, square=square, path=path), square))
    return out


PIECEPACK_COMMANDS = CommandGroup(
    name="piecepack",
    description="Play Junkyard for a piecepack in this channel",
    no_game="refuse.no_game",
    words=texts.say,
    commands=(
        Command.fixed("roll", "Roll the die"),
        Command("move", "Move your pawn: to a square (c2) or along a path (b1-b2-c2)", (
            Option("to", "Destination square or full path; start typing for the legal ones", required=True,
                   limit=60, complete=destination_choices),), play=lambda ask: f"move {ask.value('to')}"),
    ),
)


class PiecepackTaps(Taps):
    """A seat's page moves the pawn by tapping a square the roll reaches, on the board :func:`piecepack_png`
    draws (every path to a square has the same outcome: one way each)."""

    def targets(self, game: Any, seat: int, lang: str = "en") -> list[Target]:
        if game.is_over or game.to_act != seat:
            return []
        layout = Layout(DEFAULT_TILE)
        return [Target(sq, layout.box(sq), (ButtonSpec(f"→ {sq}", str(move), "success"),))
                for sq, move in destinations(game).items()]


class PiecepackUnit(GameUnit[PiecepackGame]):
    rules = PiecepackGame
    commands = PIECEPACK_COMMANDS
    drivers: ClassVar[Mapping[str, DriverFactory]] = {"smart": GreedyDriver}
    lookup = LookupSource("rules.piecepack")
    translations: ClassVar[Mapping[str, Mapping[str, tuple[str, str]]]] = command_words(Path(__file__).parent)

    #: every roll plays itself (P3 leaves nothing to choose before it, and the die falls the same whoever
    #: presses), and so does a move when the roll allows one path only; every turn begins with the roll; a
    #: plan's ``move e3`` is kept as the destination, found from the planner's own pawn on their turn
    taps: ClassVar[Taps] = PiecepackTaps()
    selfplay: ClassVar[SelfPlay[PiecepackGame]] = SelfPlay(forced=True, rolls=("roll",), openers=("roll",),
                                                           ahead=read_ahead)

    def picture(self, view: dict[str, Any], events: Sequence[Event], lang: str = "en") -> bytes | None:
        return piecepack_png(view, list(events), lang=lang)

    def replay(self, setup_: Mapping[str, Any], seed: int, actions: Sequence[str], cell_size: int | None = None,
               lang: str = "en", start: int = 0) -> tuple[bytes, int] | None:
        """An animated GIF of the game from its log, a frame per action, its words in ``lang``."""
        views = replay_views(setup_, seed, actions)[start:]
        return replay_gif(views, tile_for(cell_size), lang), len(views)

    def narrate(self, events: Sequence[Event], lang: str = "en") -> str:
        """A move in ``lang`` from its account, as the picture's description tells it (a pawn's move by its
        start, the squares passed over and its end), on one line; an event stored without a catalogue id keeps
        its English text, a secret shows only where the viewer's events kept it."""
        return " ".join(account.chat_lines(account.of_moves([events], secrets=True), lang))

    def narrate_moves(self, moves: Sequence[Sequence[Event]], lang: str = "en") -> str:
        """A computer's moves in a row from the turn's account: a line for each seat's run of sentences."""
        return "\n".join(account.chat_lines(account.of_moves(moves, secrets=True), lang))

    def refusal(self, exc: Exception, lang: str = "en") -> str:
        """A refused action or notation error in ``lang``."""
        return texts.refusal_text(exc, lang)

    def alt_text(self, game: PiecepackGame, events: Sequence[Event], *, lang: str, whole: bool = False) -> str:
        """What a picture of the game shows, in words to be heard
        (:func:`bot.games.piecepack.described.alt_text`)."""
        return described.alt_text(game, events, lang)

    def describe(self, game: PiecepackGame, viewer: int | None, lang: str = "en") -> str:
        """Whose turn it is (or who won), then every seat's square, home corner and trash, in ``lang``."""
        view = game.view(viewer)
        names = game.seat_names
        if game.is_over:
            won = " & ".join(texts.name_word(s, names[s], lang) for s in game.winners)
            lines = [texts.say("status.over", lang, count=game.ply, name=won)]
        else:
            turn = game.to_act if game.to_act is not None else 0
            lines = [texts.say("status.turn", lang, ply=game.ply, name=texts.name_word(turn, names[turn], lang))]
        for s in view["seats"]:
            msg = "status.seat_carrying" if s["carrying"] else "status.seat"
            stack = " ".join(s["trash"]) or texts.say("status.no_trash", lang)
            lines.append(texts.say(msg, lang, who=texts.seat(s["seat"], s["name"]), square=s["square"],
                                   corner=s["corner"], stack=stack))
        if view["carrier"] is None and not game.is_over:
            lines.append(texts.say("status.centre", lang, square=view["centre"]))
        return "\n".join(lines)

    def buttons(self, game: PiecepackGame, seat: int, lang: str = "en") -> list[ButtonSpec]:
        """One button per reachable square after the roll (the square is the label in every language);
        before it, the roll."""
        if game.is_over or game.to_act != seat:
            return []
        dests = destinations(game)
        if dests:
            return [ButtonSpec(f"→ {sq}", str(move), "success") for sq, move in list(dests.items())[:MAX_DESTINATIONS]]
        if any(str(a) == "roll" for a in game.legal_actions()):
            return [ButtonSpec(texts.say("button.roll", lang), "roll", "primary")]
        return []

    # The terminal and the demo -----------------------------------------------------------------

    def seat_label(self, game: PiecepackGame, seat: int, lang: str = "en") -> str:
        """``Ann (Suns)`` / ``Ann (Sonnen)``; just the suit for a player named after it."""
        name = game.seat_names[seat]
        if name == SUITS[seat]:
            return texts.suit_word(seat, lang)
        return texts.say("terminal.seat", lang, name=Name(name), suit=texts.suit(seat))

    def short_list(self, game: PiecepackGame, seat: int, lang: str = "en") -> list[tuple[str, str]]:
        dests = destinations(game)
        if dests:
            return [(f"move {sq}", texts.say("terminal.path", lang, path=str(m).removeprefix("move ")))
                    for sq, m in dests.items()]
        return super().short_list(game, seat)

    def situation(self, game: PiecepackGame, lang: str = "en") -> str:
        view = game.view(None)
        return texts.say("terminal.rolled", lang, roll=view["roll"]) if view.get("phase") == "move" else ""

    def standings(self, game: PiecepackGame, lang: str = "en") -> Standings:
        won = set(game.winners)
        seats = game.view(None)["seats"]
        order = sorted(seats, key=lambda s: (s["seat"] not in won, not s["carrying"], len(s["trash"]), s["seat"]))
        head = tuple(texts.say(m, lang) for m in ("standings.name", "standings.suit", "standings.trash",
                                                  "standings.good"))
        none, carrying = texts.say("standings.no_trash", lang), texts.say("standings.carrying", lang)
        return Standings(head, [(s["seat"], (texts.name_word(s["seat"], s["name"], lang),
                                             texts.suit_word(s["seat"], lang), " ".join(s["trash"]) or none,
                                             carrying if s["carrying"] else "")) for s in order])

    def progress(self, game: PiecepackGame, lang: str = "en") -> tuple[str, Any]:
        seats = game.view(None)["seats"]
        parts = [texts.say("progress.seat_carrying" if s["carrying"] else "progress.seat", lang,
                           suit=texts.suit(s["seat"]), pieces=len(s["trash"])) for s in seats]
        line = "  ".join([texts.say("progress.move", lang, ply=game.ply), *parts])
        return line, tuple((len(s["trash"]), s["carrying"]) for s in seats)

    def table_title(self, game: PiecepackGame, players: str, lang: str = "en") -> str:
        return texts.say("terminal.title", lang, players=players)


GAME = PiecepackUnit()
