"""The Junkyard Races unit: setup, the ``/race`` commands, buttons, pictures, narration and the terminal
and demo hooks, gathered in one object the registry lists. The text and picture hooks speak ``lang``
(English or German): the front's texts come from :mod:`bot.games.races.texts`, the pictures' words from
:mod:`render.races.words`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any, ClassVar, Literal

from bot.drivers.races import RacingDriver
from bot.games.races import account, board_words, described, setup, table, texts
from bot.games.races.commands import RACE_COMMANDS
from bot.games.races.moves import (
    RELATIVE,
    choice_label,
    destinations,
    hand_text,
    legal,
    prompt,
    step_word,
    tiles_text,
)
from bot.games.races.reach_words import reach_text
from bot.games.unit import (
    ButtonSpec,
    Described,
    DriverFactory,
    GameUnit,
    Laps,
    LookupSource,
    Reading,
    SelfPlay,
    StandingItem,
    Standings,
    Taps,
    Target,
)
from bot.texts import command_words
from render.races.card import kart_card_png
from render.races.chat import board_chat_png, chat_png, reach_png, whole_cells
from render.races.live import with_told
from render.races.replay import REPLAY_CELL, replay_gif, replay_views
from rules.contract import Event
from rules.literal import Name, listed, mark
from rules.races import Races, catalogue
from rules.races import actions as act
from rules.races import texts as race_texts
from rules.races.reach import reach

#: at most this many buttons on one message (Discord allows 5 rows of 5)
MAX_BUTTONS = 20
#: the most ways to one cell a game's page offers (the shortest)
MAX_WAYS = 6
#: an action longer than this does not go on a button: ``jy:<game>:<move>:`` must still fit in 100
MAX_BUTTON_ACTION = 72


def _buy(part: str, game: Races, seat: int) -> str | None:
    """Buying ``part`` when the kart may buy it now (at a Pit Stop that sells it, with the money)."""
    return next((a for a in map(str, game.legal_actions()) if a.split()[:2] == ["buy", part]), None)


def _roll_most(game: Races, seat: int) -> str | None:
    """The roll of as many green dice as the kart may now, without fuel dice."""
    plain = [a for a in map(str, game.legal_actions()) if a.startswith("roll ") and len(a.split()) == 2]
    return max(plain, key=lambda a: int(a.split()[1]), default=None)


def told_view(view: Mapping[str, Any], events: Sequence[Event]) -> Mapping[str, Any]:
    """The view a message's picture draws: its trail is the account of ``events``, the public events of every
    move the message tells, so picture and description show the same moves."""
    return with_told(view, account.trail(account.account(events), events))


class RaceLaps(Laps):
    """A kart's laps are its flags (R4)."""

    def done(self, game: Any, seat: int) -> int | None:
        return int(game.karts[seat].flags) if 0 <= seat < len(game.karts) else None


class RaceTaps(Taps):
    """A seat's page drives by tapping the whole board: the cells the roll reaches."""

    def targets(self, game: Any, seat: int, lang: str = "en") -> list[Target]:
        """The cells ``seat`` may drive to now on the whole board (:meth:`board_picture`), each with its ways:
        the step there, then the whole moves ending there, shortest first, as ``/race move`` lists them (a move
        leaving junk tiles where they lie is a command of its own, R18)."""
        acts = legal(game, seat)
        if not acts or isinstance(acts[0], act.Choose):
            return []
        ways: dict[str, list[tuple[int, ButtonSpec]]] = {}
        for a in acts:
            if isinstance(a, act.Step) and a.cell is not None and not a.leave:
                word = step_word(game, a)
                label = texts.say("web.step", lang, cell=a.cell.label, way=texts.way(word, lang)) if word else ""
                ways.setdefault(a.cell.label, []).append((0, ButtonSpec(label or a.cell.label, str(a), "primary")))
            elif isinstance(a, act.Move) and a.cells and not a.leave:
                cell = a.cells[-1].label
                label = texts.say("choice.via", lang, cell=cell, path=" ".join(c.label for c in a.cells))
                ways.setdefault(cell, []).append((len(a.cells), ButtonSpec(label, str(a), "success")))
        if not ways:
            return []
        boxes = whole_cells(game.view(None), ways, lang)
        return [Target(cell, boxes[cell], tuple(b for _, b in sorted(found, key=lambda w: w[0])[:MAX_WAYS]))
                for cell, found in ways.items() if cell in boxes]


class RacesUnit(GameUnit[Races]):
    rules = Races
    new_options = setup.NEW_OPTIONS
    join_options = setup.JOIN_OPTIONS
    commands = RACE_COMMANDS
    drivers: ClassVar[Mapping[str, DriverFactory]] = {"smart": RacingDriver}
    lookup = LookupSource("rules.races")
    tools: ClassVar[Mapping[str, str]] = {"track": "bot.games.races.track_tool"}
    default_players = 4
    racing = True
    card_filename = "kart.png"
    translations: ClassVar[Mapping[str, Mapping[str, tuple[str, str]]]] = command_words(Path(__file__).parent)
    stored_as: ClassVar[Mapping[str, str]] = {"join:crew": "character", "join:crew_set": "set"}
    reading: ClassVar[Reading] = board_words.RaceReading()
    taps: ClassVar[Taps] = RaceTaps()
    laps: ClassVar[Laps] = RaceLaps()

    #: a lone roll or reverse plays itself (the dice fall the same whoever presses), and so does a lone step
    #: or answer (R9 and the bridges' arrows can leave one way); a turn begins with a roll of up to three
    #: green dice, or a reverse (Phase 3); ready-made items buy a tyre at the next Pit Stop that sells it if
    #: the kart can afford it then, and roll as many green dice as the kart may (no fuel dice) whenever it rolls;
    #: a plan's ``move E10`` (or a lone cell, way or facing) is kept as typed, the whole move found on the
    #: planner's own turn
    selfplay: ClassVar[SelfPlay[Races]] = SelfPlay(
        forced=True, rolls=("roll", "reverse"), openers=("roll 1", "roll 2", "roll 3", "reverse"),
        items=(StandingItem("buy-mud-tyres", partial(_buy, "mud-tyres"), partial(texts.say, "plan.buy-mud-tyres")),
               StandingItem("buy-grass-tyres", partial(_buy, "grass-tyres"),
                            partial(texts.say, "plan.buy-grass-tyres")),
               StandingItem("roll-most", _roll_most, partial(texts.say, "plan.roll-most"), once=False)),
        ahead=table.read_ahead)

    # Setup -------------------------------------------------------------------------------------

    def option_value(self, command: Literal["new", "join"], name: str, value: Any, lang: str = "en") -> str:
        """A kart's colour in ``lang`` (``rot``), a crew member by name, the track by its name as its file gives
        it; other values as given."""
        if command == "new" and name == "track":
            return mark(str(value))
        if command == "join" and name == "colour":
            return texts.colour(str(value), lang)
        if command == "join" and name == "character":
            member = catalogue.crew().get(str(value))
            return member.name if member is not None else str(value)
        return super().option_value(command, name, value, lang)

    def setup_options(self, raw: Mapping[str, Any], lang: str = "en") -> tuple[dict[str, Any], list[str]]:
        opts = setup.setup_options(raw, lang)
        _, notes = self._checked(raw, self.new_options)
        return opts, notes

    def seat_options(self, raw: Mapping[str, Any], options: Mapping[str, Any], taken: Sequence[Mapping[str, Any]],
                     lang: str = "en") -> tuple[dict[str, Any], list[str]]:
        _, notes = self._checked(raw, self.join_options)
        seat, more = setup.seat_options(raw, options, taken, lang)
        return seat, notes + more

    # Pictures and words ------------------------------------------------------------------------

    def picture(self, view: dict[str, Any], events: Sequence[Event], lang: str = "en") -> bytes | None:
        """The picture posted after an action: a close-up of where the message's moves happened, sized for a
        chat, its strip in ``lang``. Its trail is the account of ``events`` (every move the message tells), the
        one its description tells (:func:`bot.games.races.account.trail`)."""
        return chat_png(told_view(view, events), lang=lang)

    def board_picture(self, view: dict[str, Any], lang: str = "en", moves: Sequence[Event] | None = None
                      ) -> bytes | None:
        """The whole board (cropped to the track) with every player's status, for ``/game board``; with
        ``moves`` (a new lap's message), the trail of the moves the message tells."""
        return board_chat_png(view if moves is None else told_view(view, moves), lang=lang)

    def reach_picture(self, game: Races, seat: int, lang: str = "en") -> Described | None:
        """Where ``seat`` can drive with its roll (R9 included), for its eyes, described in words
        (:func:`bot.games.races.reach_words.reach_text`); None when it is not its move."""
        if game.is_over or game.to_act != seat:
            return None
        found = reach(game)
        if not found.cells:
            return None
        return Described(reach_png(game.view(seat), found, lang), reach_text(game, found, seat, lang))

    def offers_reach(self, game: Races, seat: int) -> bool:
        """While ``seat`` drives: its roll is made and it has points to spend, no question pending."""
        if game.is_over or game.to_act != seat or game.choice is not None:
            return False
        return bool(game.phase == "move" and game.turn.points > 0)

    def period(self, game: Races) -> Any:
        """The lap the leader drives: the whole board comes with the turn in which the first kart starts a
        new lap (every round would be a board per few turns; a lap is long enough to lose the overview)."""
        karts = game.karts
        return max((k.flags for k in karts), default=0)

    def card_picture(self, view: dict[str, Any], seat: int, lang: str = "en") -> bytes | None:
        return kart_card_png(view, seat, lang)

    def replay(self, setup_: Mapping[str, Any], seed: int, actions: Sequence[str], cell_size: int | None = None,
               lang: str = "en", start: int = 0) -> tuple[bytes, int] | None:
        views = replay_views(dict(setup_), seed, list(actions))[start:]
        return replay_gif(views, cell_size=cell_size or REPLAY_CELL, lang=lang), len(views)

    def narrate(self, events: Sequence[Event], lang: str = "en") -> str:
        """A move in ``lang`` from its account, as the picture's description tells it (a drive once, by its
        start, end and cells); a secret only where the viewer's events kept it."""
        return account.narration([events], lang)

    def narrate_moves(self, moves: Sequence[Sequence[Event]], lang: str = "en") -> str:
        """A computer's moves in a row from the turn's account: one line per kart's drive (its start, end and
        cells) with what it brought about, then the rest (:func:`bot.games.races.account.chat_lines`)."""
        return account.narration(moves, lang)

    def alt_text(self, game: Races, events: Sequence[Event], *, lang: str, whole: bool = False) -> str:
        """What a picture of the race shows, in words (:func:`bot.games.races.described.alt_text`)."""
        return described.alt_text(game, events, lang, whole=whole)

    def text_board(self, game: Races, viewer: int | None, *, lang: str) -> str:
        """The whole race in words for ``viewer`` (:func:`bot.games.races.described.text_board`)."""
        return described.text_board(game, viewer, lang, self.title)

    def refusal(self, exc: Exception, lang: str = "en") -> str:
        """A refused action (or notation error) in ``lang``, said again from its catalogue id."""
        return race_texts.refusal_text(exc, lang)

    def describe(self, game: Races, viewer: int | None, lang: str = "en") -> str:
        """The race for ``viewer`` in ``lang``: track and laps, every kart's standing, whose turn it is, and
        that seat's own tiles and commands."""
        view = game.view(viewer)
        head = "describe.head_teams" if view.get("teams") else "describe.head"
        lines = [texts.say(head, lang, count=view["laps"], title=self.title, track=Name(view["track"]),
                           ply=view["ply"])]
        for k in view["karts"]:
            where = texts.say("describe.where", lang, cell=k["cell"], facing=texts.facing(k.get("facing", "?"), lang)) \
                if k.get("cell") else texts.say("describe.not_entered", lang)
            tiles = sum(len(t) for t in (k.get("bags") or {}).values())
            team = k.get("team")
            lines.append(texts.say(
                "describe.kart" if team is None else "describe.kart_team", lang, name=Name(k["name"]),
                colour=texts.colour(k["colour"], lang), team=team, where=where, flags=k.get("flags", 0),
                laps=view["laps"], tops=texts.say("describe.bottle_tops", lang, count=k.get("bottle_tops", 0)),
                parts=texts.say("describe.parts", lang, count=len(k.get("parts") or {})),
                tiles=texts.say("describe.tiles", lang, count=tiles)))
        if game.is_over:
            won = listed(game.seat_names[s] for s in game.winners) or texts.say("describe.nobody", lang)
            lines.append(texts.say("describe.over", lang, count=game.ply, winners=won))
            return "\n".join(lines)
        lines += self._turn_lines(game, view, viewer, lang)
        return "\n".join(lines)

    def _turn_lines(self, game: Races, view: dict[str, Any], viewer: int | None, lang: str = "en") -> list[str]:
        lines = []
        turn = game.to_act
        if turn is not None:
            who = Name(game.seat_names[turn])
            choice = view.get("choice")
            phase = texts.say(f"phase.{view['phase']}", lang)
            if choice:
                lines.append(texts.say("describe.choose", lang, who=who, prompt=prompt(game, lang),
                                       options=" / ".join(choice["options"])))
            elif view["phase"] == "move" and view["turn"].get("points"):
                lines.append(texts.say("describe.drive", lang, count=view["turn"]["points"], who=who, phase=phase))
            else:
                lines.append(texts.say("describe.act", lang, who=who, phase=phase))
        if viewer is not None and 0 <= viewer < len(view["karts"]):
            lines.append(texts.say("describe.your_tiles", lang, tiles=tiles_text(view["karts"][viewer], lang)))
            if turn == viewer:
                verbs = sorted({str(a).split()[0] for a in game.legal_actions()})
                if verbs:
                    commands = ", ".join(f"`{texts.command(v, lang)}`" for v in verbs)
                    lines.append(texts.say("describe.commands", lang, commands=commands))
        return lines

    # Buttons -----------------------------------------------------------------------------------

    def buttons(self, game: Races, seat: int, lang: str = "en") -> list[ButtonSpec]:
        """The common flow: answers to a pending choice (R14); dice to roll or reverse; steps left, straight
        or right and whole moves to the cells furthest on; done. Everything else is a command. Buttons sit
        on a public message, so none may tell what a face-down tile is (a Refuel button would)."""
        acts = legal(game, seat)
        if not acts:
            return []
        if isinstance(acts[0], act.Choose):
            kind = game.choice.kind if game.choice is not None else ""
            return [ButtonSpec(choice_label(kind, a.option, lang), str(a), "primary") for a in acts][:MAX_BUTTONS]
        out = self._roll_buttons(acts, lang)
        steps = [a for a in acts if isinstance(a, act.Step)]
        words = {w for a in steps if not a.leave and (w := step_word(game, a)) is not None}
        leaving = {w for a in steps if a.leave and (w := step_word(game, a)) is not None}
        back = bool(getattr(game.turn, "reversing", False))
        for turn in (-1, 0, 1):
            word = RELATIVE[turn]
            if word in words:
                way = texts.way(word, lang)
                label = texts.say("button.back", lang, way=way) if back else f"{'↖↑↗'[turn + 1]} {way}"
                out.append(ButtonSpec(label, f"step {word}", "primary"))
        if any(isinstance(a, act.Done) for a in acts):
            done = texts.say("button.stop" if back else "button.done", lang)
            out.append(ButtonSpec(done, "done", "danger" if steps else "secondary"))
        for turn in (-1, 0, 1):  # R18: a face-down tile lies that way; the player may drive over it
            word = RELATIVE[turn]
            if word in leaving:
                label = texts.say("button.leave", lang, way=texts.way(word, lang).capitalize())
                out.append(ButtonSpec(label, f"step {word} {act.LEAVE}"))
        for cell, move in destinations(game, acts).items():
            if len(out) >= MAX_BUTTONS:
                break
            if len(text := str(move)) <= MAX_BUTTON_ACTION:
                out.append(ButtonSpec(f"→ {cell}", text, "success"))
        return out[:MAX_BUTTONS]

    @staticmethod
    def _roll_buttons(acts: Sequence[Any], lang: str = "en") -> list[ButtonSpec]:
        rolls = [a for a in acts if isinstance(a, act.Roll)]
        out = [ButtonSpec(texts.say("button.roll", lang, green=a.green), str(a), "primary")
               for a in rolls if not (a.white or a.red)]
        if any(isinstance(a, act.Reverse) for a in acts):
            out.append(ButtonSpec(texts.say("button.reverse", lang), "reverse", "secondary"))
        for a in rolls:
            if a.white or a.red:
                msg = "button.roll_both" if a.white and a.red else "button.roll_white" if a.white else "button.roll_red"
                out.append(ButtonSpec(texts.say(msg, lang, green=a.green, white=a.white, red=a.red), str(a), "success"))
        return out

    # The terminal and the demo -----------------------------------------------------------------

    def hand_text(self, game: Races, seat: int, lang: str = "en") -> str:
        return hand_text(game, seat, lang)

    def seat_label(self, game: Races, seat: int, lang: str = "en") -> str:
        karts = game.karts
        name = mark(game.seat_names[seat])
        return f"{name} ({texts.colour(karts[seat].colour, lang)})" if 0 <= seat < len(karts) else name

    def short_list(self, game: Races, seat: int, lang: str = "en") -> list[tuple[str, str]]:
        return table.short_list(game, lang)

    def situation(self, game: Races, lang: str = "en") -> str:
        return table.situation(game, lang)

    def expand(self, game: Races, text: str) -> str:
        return table.expand(game, text)

    def standings(self, game: Races, lang: str = "en") -> Standings:
        return table.standings(game, lang)

    def progress(self, game: Races, lang: str = "en") -> tuple[str, Any]:
        return table.progress_line(game, lang)

    def table_title(self, game: Races, players: str, lang: str = "en") -> str:
        return texts.say("table.title", lang, count=game.laps, title=self.title, track=Name(game.track.name),
                         players=players)


GAME = RacesUnit()
