"""The Schrottplatz Rally unit: setup, the ``/rally`` commands, buttons, pictures, narration in English or
German, and the terminal and demo hooks, gathered in one object the registry lists.

Words for players come in two languages: :meth:`RallyUnit.narrate`, :meth:`RallyUnit.refusal`,
:meth:`RallyUnit.buttons` and the pictures take ``lang`` (``"en"`` or ``"de"``, English by default); :func:`language`
turns a Discord locale into one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any, ClassVar, Literal

from bot import texts
from bot.drivers.rally import SmartDriver
from bot.games.rally import described, setup, table
from bot.games.rally.commands import RALLY_COMMANDS
from bot.games.rally.moves import can_boost, can_repair, choices, kept_range, legal, range_word, ranges
from bot.games.rally.replay import REPLAY_SIZE, replay_gif, replay_views
from bot.games.rally.words import language, narrate, narrate_moves, refusal
from bot.games.unit import (
    ButtonSpec,
    DriverFactory,
    GameUnit,
    Laps,
    LookupSource,
    SelfPlay,
    StandingItem,
    Standings,
    Taps,
    Target,
)
from render.rally import car_board_png, rally_png
from render.rally.chat import rally_chat_png
from render.rally.picture import cell_boxes
from rules.contract import Event
from rules.literal import Name, mark
from rules.rally import queries
from rules.rally.game import CRASH, PARK, PIT, SPIN, RallyGame
from rules.rally.texts import CATALOGUE, COLOUR_KEYS, say, word

#: destinations offered as buttons: the best few moves, and the best few car-park or pit spots
MOVE_BUTTONS = 5
PARK_BUTTONS = 3
MAX_LABEL = 80



def _keep_range(game: RallyGame, seat: int) -> str | None:
    """The roll that keeps the lever where it is, when the car rolls now."""
    acts = legal(game, seat)
    if not any(str(a).startswith("roll ") for a in acts):
        return None
    wanted = f"roll {kept_range(game, acts)}"
    return wanted if wanted in {str(a) for a in acts} else None


class RallyTaps(Taps):
    """A seat's page drives by tapping a lane cell the roll reaches on the whole track (:func:`rally_png`):
    every drive ending there (a spin or an accident said on its label); parking is a button."""

    def targets(self, game: Any, seat: int, lang: str = "en") -> list[Target]:
        acts = legal(game, seat)
        if not acts or game.phase == "turn":
            return []
        ways: dict[str, list[ButtonSpec]] = {}
        for c in choices(game, acts):
            if c.kind in (PARK, PIT):
                continue
            warn = f" ({CATALOGUE.say('button.spin', lang)})" if c.kind == SPIN \
                else f" ({CATALOGUE.say('button.accident', lang)})" if c.kind == CRASH else ""
            ways.setdefault(c.cell, []).append(ButtonSpec(f"→ {c.cell}{warn}", c.action,
                                                          "danger" if warn else "success"))
        boxes = cell_boxes(game.view(None), list(ways))
        return [Target(cell, boxes[cell], tuple(found)) for cell, found in ways.items() if cell in boxes]


class RallyLaps(Laps):
    """A car's laps are those finished past the arch (S8)."""

    def done(self, game: Any, seat: int) -> int | None:
        return queries.laps_done(game, seat) if 0 <= seat < game.n else None


class RallyUnit(GameUnit[RallyGame]):
    rules = RallyGame
    taps: ClassVar[Taps] = RallyTaps()
    new_options = setup.NEW_OPTIONS
    join_options = setup.JOIN_OPTIONS
    commands = RALLY_COMMANDS
    drivers: ClassVar[Mapping[str, DriverFactory]] = {"smart": SmartDriver}
    lookup = LookupSource("rules.rally")  # rules/rally/data/lookup.toml, in English and German
    default_players = 3
    racing = True
    card_filename = "car.png"
    translations: ClassVar[Mapping[str, Mapping[str, tuple[str, str]]]] = texts.command_words(Path(__file__).parent)
    stored_as: ClassVar[Mapping[str, str]] = {"new:boards": "board"}
    laps: ClassVar[Laps] = RallyLaps()

    #: a lone roll plays itself (the die falls the same whoever presses), and so does the one cell or spot
    #: the car can take; a turn begins with a roll in a rev range; the ready-made item rolls keeping the
    #: lever where it is, whenever the car rolls; a plan's ``roll``, spot or path is kept as typed and worked
    #: out from the planner's own car on their turn
    selfplay: ClassVar[SelfPlay[RallyGame]] = SelfPlay(
        forced=True, rolls=("roll",), openers=("roll green", "roll yellow", "roll red"),
        items=(StandingItem("keep-range", _keep_range, partial(say, "plan.keep-range"), once=False),),
        ahead=table.read_ahead)

    # Setup -------------------------------------------------------------------------------------

    def option_value(self, command: Literal["new", "join"], name: str, value: Any, lang: str = "en") -> str:
        """The driving direction in ``lang`` (``gegen den Uhrzeigersinn``); other values as given."""
        if name == "direction":
            return word(str(value), lang)
        return super().option_value(command, name, value, lang)

    def setup_options(self, raw: Mapping[str, Any], lang: str = "en") -> tuple[dict[str, Any], list[str]]:
        _, notes = self._checked(raw, self.new_options, lang)
        return setup.setup_options(raw, lang), notes

    def seat_options(self, raw: Mapping[str, Any], options: Mapping[str, Any], taken: Sequence[Mapping[str, Any]],
                     lang: str = "en") -> tuple[dict[str, Any], list[str]]:
        """``/game join``: the player's own starting board (setup step 2), checked."""
        _, notes = self._checked(raw, self.join_options, lang)
        return setup.seat_options(raw), notes

    # Pictures ----------------------------------------------------------------------------------

    def picture(self, view: dict[str, Any], events: Sequence[Event], lang: str = "en") -> bytes | None:
        """The picture posted after an action: a close-up of where the turn happened (once the race is over,
        the finish with the winner's car), one size for the track, with who moved and who is next in ``lang``."""
        return rally_chat_png(view, events, lang)

    def card_picture(self, view: dict[str, Any], seat: int, lang: str = "en") -> bytes | None:
        return car_board_png(view, seat, lang)

    def board_picture(self, view: dict[str, Any], lang: str = "en", moves: Sequence[Event] | None = None
                      ) -> bytes | None:
        """The whole track with the panel and its legend, for ``/game board`` and the start of a new lap."""
        return rally_png(view, [], lang)

    def period(self, game: RallyGame) -> Any:
        """The laps the leader has done: the whole track comes with the turn in which the first car starts a
        new lap (as in a race: often enough to keep the overview, rare enough to leave the close-ups be)."""
        return max((queries.laps_done(game, s) for s in range(len(game.cars))), default=0)

    def replay(self, setup_: Mapping[str, Any], seed: int, actions: Sequence[str], cell_size: int | None = None,
               lang: str = "en", start: int = 0) -> tuple[bytes, int] | None:
        """The race as an animated GIF; its frames carry no words, so every language gets the same."""
        views = replay_views(setup_, seed, actions)[start:]
        return replay_gif(views, cell_size or REPLAY_SIZE), len(views)

    # Words -------------------------------------------------------------------------------------

    def narrate(self, events: Sequence[Event], lang: str = "en") -> str:
        """A move in ``lang`` from its account, as the picture's description tells it."""
        return narrate(events, lang)

    def narrate_moves(self, moves: Sequence[Sequence[Event]], lang: str = "en") -> str:
        """A computer's moves in a row from the turn's account: a booster's drive over two moves told once."""
        return narrate_moves(moves, lang)

    def refusal(self, exc: Exception, lang: str = "en") -> str:
        """A refused action worded for the player (German for ``lang="de"``)."""
        return refusal(exc, lang)

    @staticmethod
    def language(locale: str | None) -> str:
        """``"de"`` for a German Discord locale, else ``"en"``."""
        return language(locale)

    def describe(self, game: RallyGame, viewer: int | None, lang: str = "en") -> str:
        """The standings (laps, stops: S8), turn order and parking bar, and what the player to act must do,
        worded from the rules' catalogue in ``lang``."""
        return table.status_text(game, viewer, lang)

    def alt_text(self, game: RallyGame, events: Sequence[Event], *, lang: str, whole: bool = False) -> str:
        """What a picture of the rally shows, in words to be heard
        (:func:`bot.games.rally.described.alt_text`)."""
        return described.alt_text(game, events, lang, whole=whole)

    # Buttons -----------------------------------------------------------------------------------

    def buttons(self, game: RallyGame, seat: int, lang: str = "en") -> list[ButtonSpec]:
        """The common flow: before the roll, one button per range the lever may take (the lever kept is the
        primary one), the same with the booster, and repair; after it, the best few destinations and the
        best few parking spots (with the placement that helps most). Everything else is a command."""
        acts = legal(game, seat)
        if not acts:
            return []
        if game.phase == "turn":
            kept = kept_range(game, acts)
            out = [ButtonSpec(CATALOGUE.say("button.roll", lang, range=range_word(r, lang)), f"roll {r}",
                              "primary" if r == kept else "secondary") for r in ranges(acts)]
            if can_boost(acts):
                out += [ButtonSpec(CATALOGUE.say("button.boost", lang, range=range_word(r, lang)),
                                   f"roll {r} boost", "success") for r in ranges(acts)]
            if can_repair(acts):
                out.append(ButtonSpec(CATALOGUE.say("button.repair", lang), "repair", "danger"))
            return out
        found = choices(game, acts)
        drives = [c for c in found if c.kind not in (PARK, PIT)][:MOVE_BUTTONS]
        parks = [c for c in found if c.kind in (PARK, PIT)][:PARK_BUTTONS]
        out = []
        for c in drives:
            warn = f" ({CATALOGUE.say('button.spin', lang)})" if c.kind == SPIN \
                else f" ({CATALOGUE.say('button.accident', lang)})" if c.kind == CRASH else ""
            out.append(ButtonSpec(f"→ {c.cell}{warn}", c.action, "danger" if warn else "success"))
        for c in parks:
            items = " ".join(c.action.split()[2:])
            spot = c.cell.split(".")[1] if c.kind == PIT else c.cell
            label = CATALOGUE.say("button.pit" if c.kind == PIT else "button.park", lang, spot=spot) \
                + (f": {items}" if items else "")
            out.append(ButtonSpec(label[:MAX_LABEL], c.action, "primary"))
        return out

    # The terminal and the demo -----------------------------------------------------------------

    def hand_text(self, game: RallyGame, seat: int, lang: str = "en") -> str:
        return table.car_text(game, seat, lang)

    def seat_label(self, game: RallyGame, seat: int, lang: str = "en") -> str:
        if not 0 <= seat < len(game.names):
            return mark(game.seat_names[seat])
        return f"{Name(game.names[seat])} ({word(COLOUR_KEYS[seat], lang).lower()})"

    def short_list(self, game: RallyGame, seat: int, lang: str = "en") -> list[tuple[str, str]]:
        return table.short_list(game, lang)

    def situation(self, game: RallyGame, lang: str = "en") -> str:
        return table.situation(game, lang)

    def expand(self, game: RallyGame, text: str) -> str:
        return table.expand(game, text)

    def standings(self, game: RallyGame, lang: str = "en") -> Standings:
        return table.standings(game, lang)

    def progress(self, game: RallyGame, lang: str = "en") -> tuple[str, Any]:
        return table.progress_line(game, lang)

    def table_title(self, game: RallyGame, players: str, lang: str = "en") -> str:
        return say("t_title", lang, count=game.laps, title=self.title, track=Name(game.track.name),
                   alias=game.track.alias,
                   direction="clockwise" if game.clockwise else "anticlockwise", players=players, laps=game.laps)


GAME = RallyUnit()
