"""The Junkyard Races unit: setup, the ``/race`` commands, buttons, pictures, narration and the terminal
and demo hooks, gathered in one object the registry lists. Its words are English only for now: the text and
picture hooks accept ``lang`` and ignore it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from bot.drivers.races import RacingDriver
from bot.games.races import setup, table
from bot.games.races.commands import RACE_COMMANDS
from bot.games.races.moves import RELATIVE, choice_label, destinations, hand_text, legal, step_word, tiles_text
from bot.games.races.translations import GERMAN
from bot.games.unit import ButtonSpec, DriverFactory, GameUnit, LookupSource, Standings
from render.races.card import kart_card_png
from render.races.chat import board_chat_png, chat_png, reach_png
from render.races.replay import REPLAY_CELL, replay_gif, replay_views
from rules.contract import Event, Game
from rules.races import Races
from rules.races import actions as act
from rules.races.reach import reach

#: at most this many buttons on one message (Discord allows 5 rows of 5)
MAX_BUTTONS = 20
#: an action longer than this does not go on a button: ``jy:<game>:<move>:`` must still fit in 100
MAX_BUTTON_ACTION = 72


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


class RacesUnit(GameUnit):
    rules = Races
    new_options = setup.NEW_OPTIONS
    join_options = setup.JOIN_OPTIONS
    commands = RACE_COMMANDS
    drivers: ClassVar[Mapping[str, DriverFactory]] = {"smart": RacingDriver}
    lookup = LookupSource("rules.races")
    tools: ClassVar[Mapping[str, str]] = {"track": "bot.games.races.track_tool"}
    default_players = 4
    card_filename = "kart.png"
    translations: ClassVar[Mapping[str, Mapping[str, tuple[str, str]]]] = {"de": GERMAN}

    # Setup -------------------------------------------------------------------------------------

    def setup_options(self, raw: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
        opts = setup.setup_options(raw)
        _, notes = self._checked(raw, self.new_options)
        return opts, notes

    def seat_options(self, raw: Mapping[str, Any], options: Mapping[str, Any], taken: Sequence[Mapping[str, Any]]
                     ) -> tuple[dict[str, Any], list[str]]:
        _, notes = self._checked(raw, self.join_options)
        seat, more = setup.seat_options(raw, options, taken)
        return seat, notes + more

    # Pictures and words ------------------------------------------------------------------------

    def picture(self, view: dict[str, Any], events: Sequence[Event], lang: str = "en") -> bytes | None:
        """The picture posted after an action: a close-up of where the turn happened, sized for a chat."""
        return chat_png(view)

    def board_picture(self, view: dict[str, Any], lang: str = "en") -> bytes | None:
        """The whole board (cropped to the track) with every player's status, for ``/game board``."""
        return board_chat_png(view)

    def reach_picture(self, game: Game, seat: int) -> bytes | None:
        """Where ``seat`` can drive with its roll (R9 included), for its eyes; None when it is not its move."""
        g: Any = game
        if game.is_over or game.to_act != seat:
            return None
        found = reach(g)
        if not found.cells:
            return None
        return reach_png(game.view(seat), found)

    def offers_reach(self, game: Game, seat: int) -> bool:
        """While ``seat`` drives: its roll is made and it has points to spend, no question pending."""
        g: Any = game
        if game.is_over or game.to_act != seat or g.choice is not None:
            return False
        return bool(g.phase == "move" and g.turn.points > 0)

    def period(self, game: Game) -> Any:
        """The lap the leader drives: the whole board comes with the turn in which the first kart starts a
        new lap (every round would be a board per few turns; a lap is long enough to lose the overview)."""
        karts: Any = getattr(game, "karts", ())
        return max((k.flags for k in karts), default=0)

    def card_picture(self, view: dict[str, Any], seat: int, lang: str = "en") -> bytes | None:
        return kart_card_png(view, seat)

    def replay(self, setup_: Mapping[str, Any], seed: int, actions: Sequence[str], cell_size: int | None = None
               ) -> tuple[bytes, int] | None:
        views = replay_views(dict(setup_), seed, list(actions))
        return replay_gif(views, cell_size=cell_size or REPLAY_CELL), len(views)

    def narrate(self, events: Sequence[Event], lang: str = "en") -> str:
        lines: list[str] = []
        for e in events:
            text = f"{e.text} {e.secret}" if e.secret else e.text
            if text and (not lines or lines[-1] != text):
                lines.append(text)
        return "\n".join(lines)

    def describe(self, game: Game, viewer: int | None, lang: str = "en") -> str:
        view = game.view(viewer)
        head = f"**{self.title}** on {view['track']}, {view['laps']} lap{'s' if view['laps'] != 1 else ''}"
        head += ", team racing" if view.get("teams") else ""
        lines = [head + f", move {view['ply']}."]
        for k in view["karts"]:
            where = f"{k['cell']} facing {k.get('facing', '?')}" if k.get("cell") else "not on the track yet"
            tiles = sum(len(t) for t in (k.get("bags") or {}).values())
            team = f", team {k['team']}" if k.get("team") is not None else ""
            lines.append(f"{k['name']} ({k['colour']}{team}): {where}, "
                         f"{k.get('flags', 0)}/{view['laps']} flags, {_count(k.get('bottle_tops', 0), 'bottle top')}, "
                         f"{_count(len(k.get('parts') or {}), 'part')}, {_count(tiles, 'tile')}")
        if game.is_over:
            won = ", ".join(game.seat_names[s] for s in game.winners) or "nobody"
            lines.append(f"The race is over after {game.ply} moves. Winner: {won}.")
            return "\n".join(lines)
        lines += self._turn_lines(game, view, viewer)
        return "\n".join(lines)

    def _turn_lines(self, game: Game, view: dict[str, Any], viewer: int | None) -> list[str]:
        lines = []
        turn = game.to_act
        if turn is not None:
            who = game.seat_names[turn]
            choice = view.get("choice")
            if choice:
                lines.append(f"{who} to choose: {choice['prompt']} ({' / '.join(choice['options'])})")
            else:
                pts = view["turn"].get("points")
                extra = f", {pts} points to drive" if view["phase"] == "move" and pts else ""
                lines.append(f"{who} to act, phase: {view['phase']}{extra}.")
        if viewer is not None and 0 <= viewer < len(view["karts"]):
            lines.append(f"Your tiles: {tiles_text(view['karts'][viewer])}.")
            if turn == viewer:
                verbs = sorted({str(a).split()[0] for a in game.legal_actions()})
                if verbs:
                    lines.append("Commands for it: " + ", ".join(f"`/race {v}`" for v in verbs) + ".")
        return lines

    # Buttons -----------------------------------------------------------------------------------

    def buttons(self, game: Game, seat: int, lang: str = "en") -> list[ButtonSpec]:
        """The common flow: answers to a pending choice (R14); dice to roll or reverse; steps left, straight
        or right and whole moves to the cells furthest on; done. Everything else is a command. Buttons sit
        on a public message, so none may tell what a face-down tile is (a Refuel button would)."""
        acts = legal(game, seat)
        if not acts:
            return []
        g: Any = game
        if isinstance(acts[0], act.Choose):
            kind = g.choice.kind if g.choice is not None else ""
            return [ButtonSpec(choice_label(kind, a.option), str(a), "primary") for a in acts][:MAX_BUTTONS]
        out = self._roll_buttons(acts)
        steps = [a for a in acts if isinstance(a, act.Step)]
        words = {w for a in steps if not a.leave and (w := step_word(g, a)) is not None}
        leaving = {w for a in steps if a.leave and (w := step_word(g, a)) is not None}
        back = bool(getattr(g.turn, "reversing", False))
        for turn in (-1, 0, 1):
            word = RELATIVE[turn]
            if word in words:
                label = f"Back {word}" if back else f"{'↖↑↗'[turn + 1]} {word}"
                out.append(ButtonSpec(label, f"step {word}", "primary"))
        if any(isinstance(a, act.Done) for a in acts):
            out.append(ButtonSpec("Stop here" if back else "Done", "done", "danger" if steps else "secondary"))
        for turn in (-1, 0, 1):  # R18: a face-down tile lies that way; the player may drive over it
            word = RELATIVE[turn]
            if word in leaving:
                out.append(ButtonSpec(f"{word.capitalize()}, leave the tile", f"step {word} {act.LEAVE}"))
        for cell, move in destinations(g, acts).items():
            if len(str(move)) <= MAX_BUTTON_ACTION:
                out.append(ButtonSpec(f"→ {cell}", str(move), "success"))
        return out[:MAX_BUTTONS]

    @staticmethod
    def _roll_buttons(acts: Sequence[Any]) -> list[ButtonSpec]:
        rolls = [a for a in acts if isinstance(a, act.Roll)]
        out = [ButtonSpec(f"Roll {a.green}", str(a), "primary") for a in rolls if not (a.white or a.red)]
        if any(isinstance(a, act.Reverse) for a in acts):
            out.append(ButtonSpec("Reverse", "reverse", "secondary"))
        for a in rolls:
            if a.white or a.red:
                fuel = (f" +{a.white} white" if a.white else "") + (f" +{a.red} red" if a.red else "")
                out.append(ButtonSpec(f"Roll {a.green}{fuel}", str(a), "success"))
        return out

    # The terminal and the demo -----------------------------------------------------------------

    def hand_text(self, game: Game, seat: int, lang: str = "en") -> str:
        return hand_text(game, seat)

    def seat_label(self, game: Game, seat: int) -> str:
        karts: Any = getattr(game, "karts", ())
        name = game.seat_names[seat]
        return f"{name} ({karts[seat].colour})" if 0 <= seat < len(karts) else name

    def short_list(self, game: Game, seat: int) -> list[tuple[str, str]]:
        return table.short_list(game)

    def situation(self, game: Game) -> str:
        return table.situation(game)

    def expand(self, game: Game, text: str) -> str:
        return table.expand(game, text)

    def standings(self, game: Game) -> Standings:
        return table.standings(game)

    def progress(self, game: Game) -> tuple[str, Any]:
        return table.progress_line(game)

    def table_title(self, game: Game, players: str) -> str:
        g: Any = game
        laps = f"{g.laps} lap{'s' if g.laps != 1 else ''}"
        return f"{self.title} on {g.track.name}: {players}, {laps}"


GAME = RacesUnit()
