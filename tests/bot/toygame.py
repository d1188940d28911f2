"""A tiny game that exercises the whole contract for the bot's tests: "race to 10".

Two to three players take turns. On your turn you ``roll`` one die, then ``move N`` with 1 ≤ N ≤ the roll,
or ``pass``. Whoever reaches 10 first wins. Every player holds one hidden card (1–3); rolling a 6 draws
a new one, told only to its holder (a private event), and the card's value is a secret on the roll event.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any, Self

from bot.games import Ask, ButtonSpec, Command, CommandGroup, GameUnit, Option, Refusal, Standings
from rules.contract import Event, Game, IllegalAction, NotationError, SetupError
from rules.dice import Dice

GOAL = 10


@dataclass(frozen=True)
class ToyAction:
    verb: str
    n: int | None = None

    def __str__(self) -> str:
        return f"{self.verb} {self.n}" if self.n is not None else self.verb


class ToyGame(Game):
    key = "toy"
    title = "Race to Ten"
    min_seats = 2
    max_seats = 3

    def __init__(self, names: list[str], colours: list[str], pos: list[int], cards: list[int], turn: int,
                 rolled: int | None, dice: Dice, ply: int, winner: int | None, options: dict[str, Any]) -> None:
        self.names, self.colours, self.pos, self.cards = names, colours, pos, cards
        self.turn, self.rolled, self.dice, self._ply, self.winner, self.options = (
            turn, rolled, dice, ply, winner, options)

    @classmethod
    def create(cls, setup: dict[str, Any], seed: int) -> Self:
        seats = setup.get("seats", [])
        if not cls.min_seats <= len(seats) <= cls.max_seats:
            raise SetupError(f"Race to Ten needs 2–3 players, not {len(seats)}")
        dice = Dice.seeded(seed)
        cards = [dice.roll(3) for _ in seats]
        return cls([s["name"] for s in seats], [s.get("colour", "grey") for s in seats], [0] * len(seats),
                   cards, 0, None, dice, 0, None, dict(setup.get("options", {})))

    @classmethod
    def from_position(cls, position: dict[str, Any]) -> Self:
        n = len(position["pos"])
        return cls(position.get("names", [f"P{i + 1}" for i in range(n)]), ["grey"] * n, list(position["pos"]),
                   list(position.get("cards", [1] * n)), position.get("turn", 0), position.get("rolled"),
                   Dice.seeded(position.get("seed", 0)), 0, None, {})

    def parse_action(self, text: str) -> ToyAction:
        words = text.split()
        if words == ["roll"]:
            return ToyAction("roll")
        if words == ["pass"]:
            return ToyAction("pass")
        if len(words) == 2 and words[0] == "move" and words[1].isdigit():
            return ToyAction("move", int(words[1]))
        raise NotationError(f"expected `roll`, `move N` or `pass`, not {text!r}")

    def legal_actions(self) -> list[ToyAction]:
        if self.winner is not None:
            return []
        if self.rolled is None:
            return [ToyAction("roll")]
        return [ToyAction("move", n) for n in range(1, self.rolled + 1)] + [ToyAction("pass")]

    def apply(self, action: ToyAction | str) -> list[Event]:
        act = self.parse_action(action) if isinstance(action, str) else action
        if self.winner is not None:
            raise IllegalAction("the race is over")
        if act not in self.legal_actions():
            raise IllegalAction(f"`{act}` is not possible now; possible: {self.describe_legal()}")
        seat = self.turn
        events: list[Event] = []
        if act.verb == "roll":
            self.rolled = self.dice.roll(6)
            events.append(Event("roll", f"{self.names[seat]} rolled {self.rolled}.", seat, {"die": self.rolled}))
            if self.rolled == 6:
                self.cards[seat] = self.dice.roll(3)
                events.append(Event("card", f"{self.names[seat]} drew a card.", seat,
                                    secret=f"Your new card is {self.cards[seat]}."))
                events.append(Event("peek", f"You peek: the card value is {self.cards[seat]}.", seat, private=True))
        else:
            if act.verb == "move":
                assert act.n is not None
                self.pos[seat] = min(GOAL, self.pos[seat] + act.n)
                events.append(Event("move", f"{self.names[seat]} moved to {self.pos[seat]}.", seat))
                if self.pos[seat] >= GOAL:
                    self.winner = seat
                    events.append(Event("win", f"{self.names[seat]} wins!", seat))
            else:
                events.append(Event("pass", f"{self.names[seat]} passed.", seat))
            self.rolled = None
            if self.winner is None:
                self.turn = (seat + 1) % len(self.names)
        self._ply += 1
        return events

    @property
    def to_act(self) -> int | None:
        return None if self.winner is not None else self.turn

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def winners(self) -> list[int]:
        return [] if self.winner is None else [self.winner]

    @property
    def seat_names(self) -> list[str]:
        return list(self.names)

    @property
    def ply(self) -> int:
        return self._ply

    def to_dict(self) -> dict[str, Any]:
        return {"format_version": self.format_version, "names": list(self.names), "colours": list(self.colours),
                "pos": list(self.pos), "cards": list(self.cards), "turn": self.turn, "rolled": self.rolled,
                "dice": self.dice.to_dict(), "ply": self._ply, "winner": self.winner, "options": dict(self.options)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        return cls(list(data["names"]), list(data["colours"]), list(data["pos"]), list(data["cards"]), data["turn"],
                   data["rolled"], Dice.from_dict(data["dice"]), data["ply"], data["winner"], dict(data["options"]))

    def view(self, seat: int | None) -> dict[str, Any]:
        d = self.to_dict()
        d.pop("dice")
        d["cards"] = [c if i == seat else None for i, c in enumerate(self.cards)]
        return d


def tiny_png(view: dict[str, Any]) -> bytes:
    """A small picture of the positions, enough to check a PNG travels."""
    from PIL import Image, ImageDraw

    img = Image.new("RGB", (110, 20 * len(view["pos"])), "white")
    draw = ImageDraw.Draw(img)
    for i, p in enumerate(view["pos"]):
        draw.rectangle((0, 20 * i + 4, 10 * p + 5, 20 * i + 16), fill=(200, 60, 60) if i == 0 else (60, 60, 200))
    out = io.BytesIO()
    img.save(out, "PNG")
    return out.getvalue()


# The toy's unit: registered by tests/bot/conftest.py for each test, through bot.games.register -----------

TRACKS = ("short", "long")
COLOURS = ("red", "blue", "green")


def _tracks(ask: Ask) -> list[tuple[str, str]]:
    return [(t, t) for t in TRACKS if t.startswith(ask.current)]


def _colours(ask: Ask) -> list[tuple[str, str]]:
    used = {t.get("colour") for t in ask.taken}
    return [(c, c) for c in COLOURS if c not in used and c.startswith(ask.current)]


class ToyUnit(GameUnit):
    """Race to Ten as a game unit: setup options, buttons, a picture, a hidden card; no command group."""

    rules = ToyGame
    new_options = (Option("track", "Short or long", complete=_tracks),)
    join_options = (Option("colour", "Your colour", complete=_colours),)

    def setup_options(self, raw):
        opts, notes = super().setup_options(raw)
        if "track" in opts and opts["track"] not in TRACKS:
            raise SetupError(f"unknown track {opts['track']!r}: choose short or long")
        return opts, notes

    def seat_options(self, raw, setup, taken):
        opts, notes = super().seat_options(raw, setup, taken)
        colour = opts.get("colour")
        if colour is not None:
            if colour not in COLOURS:
                raise SetupError(f"no colour {colour!r}: choose red, blue or green")
            if any(t.get("colour") == colour for t in taken):
                raise SetupError(f"{colour} is taken")
        return opts, notes

    def picture(self, view, events):
        return tiny_png(view)

    def buttons(self, game, seat):
        acts = [str(a) for a in game.legal_actions()]
        if acts == ["roll"]:
            return [ButtonSpec("Roll", "roll", "primary")]
        return [ButtonSpec(f"Move {a.split()[1]}", a, "success") for a in acts if a.startswith("move")] + [
            ButtonSpec("Pass", "pass", "secondary")]

    def hand_text(self, game, seat, lang="en"):
        return f"Your card is {game.cards[seat]}."

    def standings(self, game):
        won = set(game.winners)
        order = sorted(range(len(game.pos)), key=lambda s: (s not in won, -game.pos[s], s))
        return Standings(("Name", "Square"), [(s, (game.names[s], str(game.pos[s]))) for s in order])

    def progress(self, game):
        return f"move {game.ply:>4}  " + "  ".join(f"{n} at {p}" for n, p in zip(game.names, game.pos, strict=True)), \
            tuple(game.pos)


def _move(ask: Ask) -> str:
    n = ask.values["steps"]
    if ask.legal and f"move {n}" not in {str(a) for a in ask.legal}:
        raise Refusal(f"You can move at most {ask.game.rolled}.")
    return f"move {n}"


TOY_COMMANDS = CommandGroup(
    name="toy",
    description="Play Race to Ten in this channel",
    no_game="There is no Race to Ten in this channel. Start one with `/game new game:toy`.",
    no_seat="You have no card in this game.",
    commands=(
        Command.fixed("roll", "Roll the die"),
        Command("move", "Move forward", (Option("steps", "How far (1 to 6)", "integer", required=True, low=1, high=6),),
                play=_move),
        Command.fixed("pass", "End your turn without moving"),
        Command("card", "Your hidden card, only for you", look=True),
    ),
)


class ToyUnitWithCommands(ToyUnit):
    """The toy with its own ``/toy`` command group, described as data like the real games' groups."""

    commands = TOY_COMMANDS
