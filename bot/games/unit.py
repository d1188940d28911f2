"""What a game unit is made of: options, commands described as data, buttons, and :class:`GameUnit`, the
one object a game registers with everything it offers.

Nothing here imports discord.py: the Discord front turns these descriptions into slash commands
(:mod:`bot.discord.command_group`), the terminal and ``junkyard demo`` call the hooks directly.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, TypeVar

from bot import texts
from bot.games import options as opt
from rules.contract import Event, Game, SetupError
from rules.literal import listed, mark

if TYPE_CHECKING:
    from bot.drivers.base import Driver

#: the game class a unit serves
G = TypeVar("G", bound=Game)
ButtonStyle = Literal["primary", "secondary", "success", "danger"]
OptionType = Literal["text", "integer", "flag"]

#: Discord allows 25 buttons on a message (5 rows of 5); we offer fewer so the choice stays clear.
MAX_BUTTONS = 10
#: Discord shows at most 25 buttons on a message
MAX_BUTTONS_ON_MESSAGE = 25
#: autocomplete shows at most 25 choices
MAX_CHOICES = 25
#: languages that write nouns with a capital (the lobby names options as nouns: ``Farbe rot``)
CAPITALISED_NOUNS = frozenset({"de"})
#: the longest description Discord keeps for an attachment (read aloud by screen readers in place of the picture)
ALT_TEXT_CHARS = 1024
#: the button that asks, privately, where the player to act can go (it plays nothing)
REACH_ACTION = "?reach"
REACH_LABEL = texts.say("reach")


@dataclass(frozen=True, slots=True)
class ButtonSpec:
    """A button to offer: its label, the action notation it plays, and its colour."""

    label: str
    action: str
    style: ButtonStyle = "secondary"


@dataclass(frozen=True, slots=True)
class Target:
    """A cell of the whole board's picture that a seat may tap now: the cell's name, its box in the picture's
    pixels ``(x0, y0, x1, y1)``, and the ways there (each a legal action, labelled)."""

    cell: str
    box: tuple[int, int, int, int]
    ways: tuple[ButtonSpec, ...]


@dataclass(frozen=True, slots=True)
class Forced:
    """A move with nothing to decide: ``action`` in the game's notation, and ``why`` it plays itself:
    ``"only"`` (the one legal action, which tells nothing new) or ``"dice"`` (the one legal action is a
    roll, whose outcome is the same whoever presses)."""

    action: str
    why: Literal["only", "dice"]


@dataclass(frozen=True, slots=True)
class StandingItem(Generic[G]):
    """A ready-made plan item a game offers (``buy-mud-tyres``): ``choose`` gives the action it plays for a
    seat to act (one of the legal ones), None while it does not apply; ``label`` names it in a language;
    ``once``: it is used up when it plays, else it stands until the player clears their plan."""

    name: str
    choose: Callable[[G, int], str | None]
    label: Callable[[str], str]
    once: bool = True


@dataclass(frozen=True, slots=True)
class SelfPlay(Generic[G]):
    """What of a game plays itself for a person (:mod:`bot.play.plans`). ``forced``: a seat's one legal action
    plays itself (a game says so only when the one action tells nobody anything new, or its outcome is the
    dice's whoever presses); ``rolls``: the prefixes of the actions that are rolls, told as such;
    ``openers``: the actions that could begin a seat's next turn, offered when a plan is made ahead;
    ``items``: the ready-made plan items; ``ahead``: how a queued plan item is read before its player's turn
    (:meth:`plan_item`), for a game whose notation is worked out against the turn (a destination becomes the
    path of the piece to act)."""

    forced: bool = False
    rolls: tuple[str, ...] = ()
    openers: tuple[str, ...] = ()
    items: tuple[StandingItem[G], ...] = ()
    ahead: Callable[[G, str], str] | None = None

    def forced_move(self, game: G, seat: int) -> Forced | None:
        """The move ``seat`` has to make now with nothing to decide; None when there is a choice, it is not
        their turn, or the game plays none by itself."""
        if not self.forced or game.to_act != seat or game.is_over:
            return None
        found = game.only_action()
        if found is None:
            return None
        only = str(found)
        return Forced(only, "dice" if only.startswith(self.rolls) else "only")

    def plan_openers(self, game: G, seat: int) -> list[str]:
        """What could begin ``seat``'s next turn: the legal actions while the seat is to act, else the
        game's openers."""
        if game.to_act == seat and not game.is_over:
            return [str(a) for a in game.legal_actions()]
        return list(self.openers)

    def item(self, name: str) -> StandingItem[G] | None:
        return next((i for i in self.items if i.name == name), None)

    def plan_item(self, game: G, text: str) -> str:
        """A plan item as it is kept: checked only as far as it can be before its player's turn (that it is
        the game's notation, or one of the shorthands its unit's ``expand`` reads), never against the seat
        now to act, whose piece, roll and turn are not the planner's; raises
        :class:`~rules.contract.IllegalAction` when it is neither. The item is worked out against the
        planner's own position when it plays (``expand``, then the game's parse). Without ``ahead``: the
        game's notation as it parses."""
        return self.ahead(game, text) if self.ahead is not None else str(game.parse_action(text))


@dataclass(frozen=True)
class Described:
    """A picture drawn with its description (alt text, read aloud in the picture's place)."""

    png: bytes
    description: str


class Refusal(Exception):
    """A command's options make no action: the message tells the player what is wrong and what is allowed."""


# Asking: what a builder or an autocomplete source knows ----------------------------------------------


@dataclass
class Ask:
    """What a command builder or an autocomplete source may look at. ``values`` holds the options given
    (checked when building, as typed so far when completing); ``setup`` and ``taken`` are the lobby's
    options and the other seats' options (for ``/game join``). ``legal`` is the asker's legal actions,
    empty when it is not theirs to act; it is worked out on first use."""

    game: Game | None = None
    seat: int | None = None
    current: str = ""
    values: Mapping[str, Any] = field(default_factory=dict)
    setup: Mapping[str, Any] = field(default_factory=dict)
    taken: Sequence[Mapping[str, Any]] = ()
    legal_of: Callable[[], list[Any]] | None = None
    #: the asker's language (``"en"``/``"de"``), for refusals a builder words itself
    lang: str = "en"
    _legal: list[Any] | None = None

    @property
    def legal(self) -> list[Any]:
        if self._legal is None:
            self._legal = list(self.legal_of()) if self.legal_of is not None else []
        return self._legal

    def value(self, name: str) -> str:
        """An option's value as text ("" when absent)."""
        v = self.values.get(name)
        return "" if v is None else str(v)


Complete = Callable[[Ask], Iterable[tuple[str, str]]]


@dataclass(frozen=True)
class Option:
    """One option of a command or of the setup: name, type, limits, fixed choices or an autocomplete
    source (``complete(ask) -> [(name, value)]``, already matched against ``ask.current``)."""

    name: str
    description: str
    type: OptionType = "text"
    required: bool = False
    low: int | None = None
    high: int | None = None
    #: longest text accepted
    limit: int = opt.MAX_TEXT
    choices: tuple[tuple[str, str], ...] = ()
    complete: Complete | None = None

    def check(self, value: Any) -> Any:
        """The value, checked against type, range, length and fixed choices; raises :class:`BadOption`."""
        if self.type == "integer":
            low = self.low if self.low is not None else -opt.MAX_INTEGER
            high = self.high if self.high is not None else opt.MAX_INTEGER
            number = opt.integer(self.name, value, low, high)
            if number is None and self.required:
                raise opt.BadOption("option.required", name=self.name)
            return number
        if self.type == "flag":
            return opt.flag(self.name, value)
        checked = opt.text(self.name, value, required=self.required, limit=self.limit)
        values = [v for _, v in self.choices]
        if checked is not None and values and checked not in values:
            raise opt.BadOption("option.one_of", name=self.name, values=", ".join(f"`{v}`" for v in values))
        return checked


@dataclass(frozen=True)
class Command:
    """One command of a game's group, as data. ``play(ask)`` builds the action's notation from the checked
    options (raise :class:`Refusal` for options that make no action); the service plays it. A ``look``
    command plays nothing: it shows the asker their hidden things (:meth:`GameUnit.hand_text`) and their
    player card (:meth:`GameUnit.card_picture`), privately."""

    name: str
    description: str
    options: tuple[Option, ...] = ()
    play: Callable[[Ask], str] | None = None
    look: bool = False

    @staticmethod
    def fixed(name: str, description: str, action: str | None = None) -> Command:
        """A command without options that always plays the same action (its own name by default)."""
        text = action or name
        return Command(name, description, play=lambda ask: text)


@dataclass(frozen=True)
class CommandGroup:
    """A game's own slash command group (``/race``), and what it answers when it cannot be used. Each answer
    is a message id of the game's ``words`` (``words(msg, lang)``, its catalogue) or of the service's
    catalogue (the defaults), or else plain text for a game that speaks only English."""

    name: str
    description: str
    commands: tuple[Command, ...]
    #: the channel has no game of this kind
    no_game: str = "group.no_game"
    #: a ``look`` command before the game started, and by someone without a seat
    not_started: str = "group.not_started"
    no_seat: str = "group.no_seat"
    #: the game's own words: ``(msg, lang) -> text`` for the ids it gives above (None: only the service's)
    words: Callable[[str, str], str] | None = None
    #: the game's title, for the default answers
    title: str = ""

    def answer(self, which: Literal["no_game", "not_started", "no_seat"], lang: str = texts.DEFAULT) -> str:
        """One of the answers above in ``lang``."""
        msg = getattr(self, which)
        if msg in texts.CATALOGUE.ids:
            return texts.say(msg, lang, group=self.name, title=self.title or self.name)
        if self.words is not None:
            return self.words(msg, lang)
        return str(msg)

    def command(self, name: str) -> Command:
        for c in self.commands:
            if c.name == name:
                return c
        raise KeyError(f"/{self.name} has no command {name!r}")


# Matching typed text ---------------------------------------------------------------------------------


def fuzzy(pairs: Iterable[tuple[str, str]], typed: str, limit: int = MAX_CHOICES) -> list[tuple[str, str]]:
    """(name, value) pairs matching ``typed``: prefixes first, then substrings, then letters in order,
    then close spellings; at most ``limit``, none with a value over 100 characters."""
    items = [(n, v) for n, v in pairs if 0 < len(v) <= 100]
    cur = " ".join(typed.lower().split())
    if not cur:
        return items[:limit]
    tiers: list[list[tuple[str, str]]] = [[], [], [], []]
    for name, value in items:
        hay = f"{value.lower()} {name.lower()}"
        if value.lower().startswith(cur) or name.lower().startswith(cur):
            tiers[0].append((name, value))
        elif cur in hay:
            tiers[1].append((name, value))
        elif _subsequence(cur.replace(" ", ""), hay.replace(" ", "")):
            tiers[2].append((name, value))
        elif difflib.SequenceMatcher(None, cur, value.lower()).ratio() >= 0.6:
            tiers[3].append((name, value))
    return [p for tier in tiers for p in tier][:limit]


def _subsequence(needle: str, hay: str) -> bool:
    it = iter(hay)
    return all(ch in it for ch in needle)


# Languages ---------------------------------------------------------------------------------------------


def legal_list(game: Game, lang: str = "en", limit: int = 12) -> str:
    """The short list of what is possible now (:meth:`Game.describe_legal`), in ``lang`` when the game words it;
    the actions themselves stay in the notation players type."""
    return game.describe_legal(limit, lang=lang)


def fitted(parts: Sequence[str], limit: int = ALT_TEXT_CHARS, *, cut: int = 0) -> str:
    """``parts`` joined by spaces in at most ``limit`` characters. Only part ``cut`` gives way when they are
    too long: it keeps its first sentences that fit (a "…" says more was left out); should the others alone
    be too long, the end is cut at a word. Empty parts are left out."""
    kept = [p.strip() for p in parts]
    total = sum(len(p) + 1 for p in kept if p) - 1
    if total > limit and 0 <= cut < len(kept) and kept[cut]:
        room = limit - (total - len(kept[cut]))
        kept[cut] = _first_sentences(kept[cut], room)
    text = " ".join(p for p in kept if p)
    if len(text) > limit:
        text = text[: limit - 1].rsplit(" ", 1)[0].rstrip(" ,;:") + "…"
    return text


def _first_sentences(text: str, room: int) -> str:
    """The first sentences of ``text`` that fit in ``room`` characters with a closing "…" (the first one cut at
    a word when even it is too long; empty when there is no room at all)."""
    if len(text) <= room:
        return text
    out = ""
    for sentence in _sentences(text):
        longer = f"{out} {sentence}".strip()
        if len(longer) + 2 > room:
            break
        out = longer
    if out:
        return f"{out} …"
    return text[: room - 1].rsplit(" ", 1)[0].rstrip(" ,;:") + "…" if room > 1 else ""


def _sentences(text: str) -> list[str]:
    """``text`` split after each full stop, question or exclamation mark and at each line's end."""
    out: list[str] = []
    start = 0
    for i, ch in enumerate(text):
        if ch == "\n" or (ch in ".!?" and (i + 1 == len(text) or text[i + 1] in " \n")):
            piece = text[start:i + 1].strip()
            if piece:
                out.append(piece)
            start = i + 1
    rest = text[start:].strip()
    return [*out, rest] if rest else out


# The unit --------------------------------------------------------------------------------------------

DriverFactory = Callable[[int], "Driver"]

#: every registered unit by its key, the flagship first (:func:`bot.games.register` fills it; read it through
#: :func:`bot.games.units`, which loads the listed games first)
REGISTERED: dict[str, GameUnit[Any]] = {}


@dataclass(frozen=True)
class LookupSource:
    """Where a game's rule-lookup entries live: a package and a file inside it."""

    package: str
    path: tuple[str, ...] = ("data", "lookup.toml")


@dataclass(frozen=True)
class Standings:
    """The final table: column heads, and one row per seat in finishing order (winners first)."""

    head: tuple[str, ...]
    rows: list[tuple[int, tuple[str, ...]]]


class Taps:
    """Where a game's page lets a player tap the whole board (:meth:`GameUnit.board_picture` of the public
    view) to move; by default nowhere."""

    def targets(self, game: Any, seat: int, lang: str = "en") -> list[Target]:
        """The cells ``seat`` may tap now, each with its box in the picture and the ways there labelled in
        ``lang`` (a seat's page maps a tap to them)."""
        return []


class Laps:
    """How a racing game counts its laps, for the championships' lead bonus: by default it has none."""

    def done(self, game: Any, seat: int) -> int | None:
        """The laps ``seat`` has completed so far, as the game's own rules count them (None: no laps)."""
        return None

    def leaders(self, game: Any, actions: Sequence[str]) -> dict[int, int]:
        """Who led each lap completed while ``actions`` are played on ``game`` (a new game, for a whole log):
        lap number → the seat that completed it first, watched move by move (:meth:`done`; two seats
        completing a lap in one move: the lower seat first). A lap some seat had completed before the first
        action has no known leader and is left out. Empty for a game without laps."""
        seats = range(len(game.seat_names))
        counted = max((self.done(game, s) or 0 for s in seats), default=0)
        leaders: dict[int, int] = {}
        for action in actions:
            game.apply(action)
            for seat in seats:
                now = self.done(game, seat) or 0
                while now > counted:
                    counted += 1
                    leaders[counted] = seat
        return leaders


class Reading:
    """A game read at the terminal instead of looked at: a small text map around a seat and the words of the
    move list explained. By default neither: the status tells it all."""

    def board(self, game: Any, seat: int, lang: str = "en") -> str:
        """The terminal's ``board``: a small text map around ``seat`` with a legend and the same cells in words,
        as ``seat`` may see them, in ``lang`` (empty when the game draws none)."""
        return ""

    def glossary(self, lang: str = "en") -> Sequence[tuple[str, str]]:
        """(word, what it means) for the words of the terminal's move list, in ``lang``: the terminal explains a
        word once, the first time a listed action holds it, and all of them in ``help``."""
        return ()


class GameUnit(Generic[G]):
    """Everything one game offers, registered once in :mod:`bot.games`. A game subclasses this, sets the
    class attributes and overrides the hooks it needs; the defaults serve a game with plain text.

    - ``rules``: the rules class (its key, title, seats and notation);
    - ``new_options`` / ``join_options``: what ``/game new`` and ``/game join`` offer for this game,
      checked by :meth:`setup_options` and :meth:`seat_options` in the service;
    - ``commands``: the game's own command group as data (or None);
    - ``drivers``: computer players by kind (``"random"`` serves every game without listing it);
    - ``lookup``: where its rule-lookup entries are;
    - pictures (:meth:`picture`, :meth:`card_picture`, :meth:`replay`), words (:meth:`narrate`,
      :meth:`describe`), buttons, and the hooks of the terminal and the demo.
    """

    rules: type[G]
    key: ClassVar[str]
    title: ClassVar[str]
    new_options: ClassVar[tuple[Option, ...]] = ()
    join_options: ClassVar[tuple[Option, ...]] = ()
    commands: ClassVar[CommandGroup | None] = None
    drivers: ClassVar[Mapping[str, DriverFactory]] = {}
    lookup: ClassVar[LookupSource | None] = None
    #: command-line tools the game adds (``junkyard track``): name → module with ``add_arguments``, ``run``
    tools: ClassVar[Mapping[str, str]] = {}
    #: how many play when nobody says (``junkyard play``/``demo``); the fewest the rules allow by default
    default_players: ClassVar[int | None] = None
    #: the file name of the player card picture
    card_filename: ClassVar[str] = "card.png"
    #: the game's command words in other languages: language → path → (name, description). A path is the
    #: command's qualified name (``"race roll"``), an option's is that plus its name (``"race roll green"``),
    #: a fixed choice's is ``"=value"`` (its description empty), a setup option's ``"new:laps"`` or
    #: ``"join:colour"`` (for ``/game new`` and ``/game join``)
    translations: ClassVar[Mapping[str, Mapping[str, tuple[str, str]]]] = {}
    #: setup or seat options stored under another key than the option's name, by ``command:key``
    #: (``"join:crew_set": "set"``), so the lobby names them as the commands do
    stored_as: ClassVar[Mapping[str, str]] = {}
    #: how the game reads at the terminal without its pictures (:class:`Reading`)
    reading: ClassVar[Reading] = Reading()
    #: where a seat's page may tap the board to move (:class:`Taps`)
    taps: ClassVar[Taps] = Taps()
    #: whether the game is a race whose places a championship scores (``/championship``)
    racing: ClassVar[bool] = False
    #: how a racing game counts laps, and so who led each (:class:`Laps`)
    laps: ClassVar[Laps] = Laps()
    #: whether the game draws animated replays: it overrides :meth:`replay` (set for each game's class)
    has_replay: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        rules = cls.__dict__.get("rules")
        if rules is not None:
            cls.key = cls.__dict__.get("key", rules.key)
            cls.title = cls.__dict__.get("title", rules.title)
        cls.has_replay = cls.replay is not GameUnit.replay

    @property
    def players(self) -> int:
        return self.default_players or self.rules.min_seats

    # Setup -------------------------------------------------------------------------------------

    def _option_name(self, name: str, lang: str = texts.DEFAULT) -> str:
        """A setup or seat option's name as ``lang``'s Discord shows it (``laps``; German ``runden``). The
        options of ``/game new`` and ``/game join`` are shared by the games, so an option this game does not
        offer is named as the game that offers it names it."""
        for unit in (self, *REGISTERED.values()):
            words = unit.translations.get(lang, {})
            for command in ("new", "join"):
                if f"{command}:{name}" in words:
                    return words[f"{command}:{name}"][0]
        return name

    def option_words(self, command: Literal["new", "join"], options: Mapping[str, Any], lang: str = texts.DEFAULT
                     ) -> str:
        """A lobby's or a seat's stored options for people to read in ``lang``: each option as
        :meth:`_option_label` names it with its value's name (:meth:`option_value`: ``Farbe rot``), a flag by
        its name alone when on (``Crew``) and not at all when off; empty when nothing is left."""
        offered = {o.name: o for o in (self.new_options if command == "new" else self.join_options)}
        parts = []
        for key, value in options.items():
            name = self.stored_as.get(f"{command}:{key}", key)
            option = offered.get(name)
            label = self._option_label(command, name, lang)
            if isinstance(value, bool) or (option is not None and option.type == "flag"):
                if value:
                    parts.append(label)
                continue
            parts.append(f"{label} {self.option_value(command, name, value, lang)}")
        return ", ".join(parts)

    def _option_label(self, command: Literal["new", "join"], name: str, lang: str = texts.DEFAULT) -> str:
        """An option's name for reading, as the game's command words name it in ``lang``; German writes these
        nouns lower case only because Discord wants command words so, and capitalises them in a sentence."""
        word = self.translations.get(lang, {}).get(f"{command}:{name}", (name, ""))[0]
        return word[:1].upper() + word[1:] if lang in CAPITALISED_NOUNS else word

    def option_value(self, command: Literal["new", "join"], name: str, value: Any, lang: str = texts.DEFAULT
                     ) -> str:
        """An option's value for reading in ``lang``: a fixed choice by its name (in the command words of
        ``lang`` when they have it), anything else as it was given. A game names its own values (a colour,
        a crew member) by overriding this."""
        option = next((o for o in (self.new_options if command == "new" else self.join_options) if o.name == name),
                      None)
        for shown, given in option.choices if option is not None else ():
            if given == str(value):
                return self.translations.get(lang, {}).get(f"={given}", (shown, ""))[0]
        return str(value)

    def _checked(self, raw: Mapping[str, Any], offered: Sequence[Option], lang: str = texts.DEFAULT
                 ) -> tuple[dict[str, Any], list[str]]:
        by_name = {o.name: o for o in offered}
        out: dict[str, Any] = {}
        notes = []
        for name, value in raw.items():
            option = by_name.get(name)
            if option is None:
                notes.append(texts.say("option.ignored", lang, name=self._option_name(name, lang), title=self.title))
                continue
            try:
                checked = option.check(value)
            except opt.BadOption as exc:
                raise SetupError(exc.say(lang, name=self._option_name(name, lang))) from None
            if checked is not None:
                out[name] = checked
        return out, notes

    def setup_options(self, raw: Mapping[str, Any], lang: str = texts.DEFAULT) -> tuple[dict[str, Any], list[str]]:
        """Check ``/game new`` options (only those given); return the game's ``options`` and notes for the
        player (an option this game ignores) in ``lang``. Raise :class:`SetupError` saying what is allowed."""
        return self._checked(raw, self.new_options, lang)

    def seat_options(self, raw: Mapping[str, Any], setup: Mapping[str, Any], taken: Sequence[Mapping[str, Any]],
                     lang: str = texts.DEFAULT) -> tuple[dict[str, Any], list[str]]:
        """Check ``/game join`` options against the game's options and the other seats' choices."""
        return self._checked(raw, self.join_options, lang)

    def choices(self, field: str, current: str, setup: Mapping[str, Any] | None = None,
                taken: Sequence[Mapping[str, Any]] = (), lang: str = texts.DEFAULT) -> list[tuple[str, str]]:
        """Autocomplete (name, value) pairs for a setup or seat option, from its source: names in ``lang``
        (the asker's), values as the option takes them."""
        for option in (*self.new_options, *self.join_options):
            if option.name == field and option.complete is not None:
                ask = Ask(current=current, setup=setup or {}, taken=taken, lang=lang)
                return list(option.complete(ask))[:MAX_CHOICES]
        return []

    # Pictures and words ------------------------------------------------------------------------

    def picture(self, view: dict[str, Any], events: Sequence[Event], lang: str = "en") -> bytes | None:
        """PNG of a view, its words in ``lang``; called in a worker. ``events``: the public events of every move
        the message tells, oldest first (the turn's account, which its description tells too)."""
        return None

    def card_picture(self, view: dict[str, Any], seat: int, lang: str = "en") -> bytes | None:
        """PNG of ``seat``'s player card with its hidden things (only for that seat's eyes), in ``lang``."""
        return None

    def board_picture(self, view: dict[str, Any], lang: str = "en", moves: Sequence[Event] | None = None
                      ) -> bytes | None:
        """PNG of the whole board (``/game board``, ``/game status``, the start of a new period: then ``moves``
        are the public events of every move its message tells); by default the move's picture, for a game whose
        picture already shows everything."""
        return self.picture(view, list(moves or ()), lang=lang)

    def reach_picture(self, game: G, seat: int, lang: str = "en") -> Described | None:
        """PNG of where ``seat`` can go now, for its eyes only, with its description in ``lang`` (where the
        piece can reach, in words); None when the game draws none. Called off the event loop (it may search
        for a while)."""
        return None

    def offers_reach(self, game: G, seat: int) -> bool:
        """Whether ``seat`` may ask where it can go now (its movement, in a game that draws it)."""
        return False

    def alt_text(self, game: G, events: Sequence[Event], *, lang: str, whole: bool = False) -> str:
        """The description of a picture of ``game`` (events: the public events of every move the message tells,
        oldest first: the turn's account; ``whole``: the picture is the whole board a new period brought), read
        aloud in place of the picture, in ``lang``, at most :data:`ALT_TEXT_CHARS` characters: what happened,
        whose turn it is and what they can do, and the standings. Worded from the public view and public events
        only: it never names a hidden thing. By default the narration (cut first when too long) and the public
        status."""
        told = self.narrate(list(events), lang=lang)
        return fitted([told, self.describe(game, None, lang=lang).replace("**", "")], cut=0)

    def text_board(self, game: G, viewer: int | None, *, lang: str) -> str:
        """The whole position in words, for ``viewer``'s eyes (their own hidden things may show): per player
        where they are and what they hold, and whose turn it is; by default the game's status."""
        return self.describe(game, viewer, lang=lang)

    def period(self, game: G) -> Any:
        """What changes when the channel should see the whole board again (a new lap, a new round); None:
        never. The turn's message that begins a new period shows the whole board instead of the close-up."""
        return None

    def replay(self, setup: Mapping[str, Any], seed: int, actions: Sequence[str], cell_size: int | None = None,
               lang: str = "en", start: int = 0) -> tuple[bytes, int] | None:
        """An animated GIF of a game from its log, and its number of frames, its words in ``lang``; None if the
        game has none. ``start``: the frames begin with the game before action ``start`` (a part of the game:
        what someone missed), one more frame after each later action."""
        return None

    def narrate(self, events: Sequence[Event], lang: str = "en") -> str:
        """One line (or a few) telling what happened, in ``lang``; shows ``event.secret`` when it is set."""
        parts = [f"{e.text} {e.secret}" if e.secret else e.text for e in events]
        return " ".join(p for p in parts if p)

    def narrate_moves(self, moves: Sequence[Sequence[Event]], lang: str = "en") -> str:
        """The lines telling several moves in a row (a computer's batch), each move's public events in order;
        a game with an account of a turn tells a drive over several moves once. By default, each move's
        narration in turn."""
        return "\n".join(t for t in (self.narrate(list(m), lang=lang) for m in moves) if t)

    def describe(self, game: G, viewer: int | None, lang: str = "en") -> str:
        """Status text for ``viewer`` in ``lang``: standings, whose turn, and that seat's hidden things."""
        names = game.seat_names
        if game.is_over:
            won = listed(names[s] for s in game.winners) or texts.say("move.nobody", lang)
            return texts.say("unit.over", lang, count=game.ply, title=self.title, winners=won)
        turn = game.to_act
        who = mark(names[turn]) if turn is not None else texts.say("move.nobody", lang)
        return texts.say("unit.turn", lang, title=self.title, ply=game.ply, name=who)

    def buttons(self, game: G, seat: int, lang: str = "en") -> list[ButtonSpec]:
        """Buttons for the common moves of ``seat`` now, each a legal action, labelled in ``lang``."""
        if game.is_over or game.to_act != seat:
            return []
        acts = [str(a) for a in game.legal_actions()]
        if len(acts) > 5:
            return []
        return [ButtonSpec(a, a, "primary" if i == 0 else "secondary") for i, a in enumerate(acts)]

    def turn_buttons(self, game: G, seat: int, lang: str = "en") -> list[ButtonSpec]:
        """The buttons of the turn's message for ``seat``: the game's own, and "Where can I go?" when the
        player may ask it now; labelled in ``lang``."""
        out = self.buttons(game, seat, lang=lang)
        if self.offers_reach(game, seat):
            out = [*out[: MAX_BUTTONS_ON_MESSAGE - 1], ButtonSpec(texts.say("reach", lang), REACH_ACTION)]
        return out

    # Moves that play themselves ------------------------------------------------------------------

    #: what plays itself for a person in this game (:mod:`bot.play.plans`); by default nothing
    selfplay: ClassVar[SelfPlay[Any]] = SelfPlay()

    # The terminal and the demo -----------------------------------------------------------------

    def hand_text(self, game: G, seat: int, lang: str = "en") -> str:
        """What only ``seat`` may know, in ``lang`` (empty when the game hides nothing)."""
        return ""

    def refusal(self, exc: Exception, lang: str = "en") -> str:
        """A refused action (:class:`IllegalAction`, :class:`Refusal`, an option's
        :class:`~bot.games.options.BadOption`) worded for the player in ``lang``."""
        return opt.refusal_text(exc, lang)

    def refused_move(self, game: G, exc: Exception, lang: str = "en") -> str:
        """A refused move for the player in ``lang``: the game's reason, and what is possible now unless the
        reason already lists it (a refusal whose parameters carry ``legal``)."""
        reason = self.refusal(exc, lang=lang)
        if "legal" in (getattr(exc, "params", None) or {}):
            return reason
        return texts.say("possible_now", lang, reason=reason, legal=legal_list(game, lang))

    def seat_label(self, game: G, seat: int, lang: str = "en") -> str:
        """How a seat is named in a turn header: ``Player 2 (blue)``."""
        return mark(game.seat_names[seat])

    def short_list(self, game: G, seat: int, lang: str = "en") -> list[tuple[str, str]]:
        """The moves worth offering ``seat`` now as (action, hint); the caller checks that it may act."""
        return [(str(a), "") for a in game.legal_actions()]

    def situation(self, game: G, lang: str = "en") -> str:
        """Where the turn stands, in a few words (empty when there is nothing to say)."""
        return ""

    def expand(self, game: G, text: str) -> str:
        """A shorthand typed at the terminal, in the game's notation (unchanged when it is none)."""
        return text

    def standings(self, game: G, lang: str = "en") -> Standings:
        """The final table (its headings in ``lang``); by default the winners first, then seat order."""
        won = set(game.winners)
        order = sorted(range(len(game.seat_names)), key=lambda s: (s not in won, s))
        return Standings(("Name",), [(s, (game.seat_names[s],)) for s in order])

    def progress(self, game: G, lang: str = "en") -> tuple[str, Any]:
        """A progress line for ``junkyard demo``, and what must change for a new line on a non-terminal."""
        return "", game.ply // 50

    def table_title(self, game: G, players: str, lang: str = "en") -> str:
        """The demo's heading: the game, where it is played and by whom."""
        return f"{self.title}: {players}"


__all__ = ["ALT_TEXT_CHARS", "MAX_BUTTONS", "MAX_CHOICES", "REACH_ACTION", "REACH_LABEL", "Ask", "ButtonSpec",
           "ButtonStyle", "Command", "CommandGroup", "Complete", "DriverFactory", "Forced", "GameUnit", "Laps",
           "LookupSource", "Option", "OptionType", "Reading", "Refusal", "SelfPlay", "StandingItem", "Standings",
           "Taps", "Target", "fitted", "fuzzy", "legal_list"]
