"""The terminal front end: play any game in a text terminal through the same :class:`~bot.play.service.Service`
and store as Discord.

Local players get made-up user ids (see :func:`local_user`); computer seats are seated with
:meth:`Service.add_computer`. Everything a player types is the game's own notation, handed to
:meth:`Service.act` exactly as ``/game play`` does; the terminal only adds conveniences a keyboard wants:
numbers that pick from the last list shown, the game's own shorthands (:meth:`GameUnit.expand`), and the
extra commands in :data:`COMMANDS` (named in the game's language too: ``hilfe``, ``züge``, ``brett`` …):
``board`` draws the game's text map around the player (:meth:`GameUnit.board_text`), and the words of the move
list are explained once, the first time they are shown, and in ``help`` (:meth:`GameUnit.glossary`). Several people may
share one keyboard (hotseat): a player's hidden things are printed only when that player is to act. Everything
is said in the game's language (``--lang``): the service's texts, the game's and the terminal's own.

Leaving (``quit``, the end of the input, Ctrl-C) keeps the game as it is; :func:`left_games` finds it again
and :func:`resume_table` sits everyone down at it once more.

:mod:`bot.commands.play` (``junkyard play``) and :mod:`bot.commands.demo` (``junkyard demo``) build on this.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import re
import secrets
import select
import shlex
import signal
import sys
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import urlsplit, urlunsplit

from bot import texts
from bot.games import unit_for
from bot.local import Change, LocalChannel
from bot.play.service import Service
from bot.store import ACTIVE, GameRecord, Store
from bot.telling.compose import Message
from bot.telling.outcomes import Accepted, Private, Refusal
from rules.contract import Game
from rules.literal import PERSON_CLOSE, Person, bare, render

HUMAN = "human"
#: made-up user ids: the host of a table without people, and the first local player (seat 1 is 1001, …)
HOST_ID = 1000
FIRST_USER_ID = 1001
#: items in the short list of moves before "… and N more"
SHORT_LIST = 24
#: the terminal's own commands (what each does: ``terminal.cmd.<name>`` of the catalogue; the words that call
#: it in a language: ``terminal.word.<name>``, the first of them the one shown)
COMMANDS: tuple[str, ...] = ("help", "legal", "board", "status", "hand", "log", "quit")
#: short words that call a command in every language
_ALIASES = {"?": "help", "exit": "quit", "q": "quit"}


def command_words(lang: str = texts.DEFAULT) -> dict[str, str]:
    """Every word that calls a terminal command in ``lang`` → the command: its English name, the words of
    the language (``hilfe``, ``züge``, ``ende`` in German) and the short aliases."""
    out = {name: name for name in COMMANDS} | dict(_ALIASES)
    for name in COMMANDS:
        for word in texts.say(f"terminal.word.{name}", lang).split(","):
            if word.strip():
                out[word.strip().lower()] = name
    return out


def command_word(name: str, lang: str = texts.DEFAULT) -> str:
    """The word a terminal command is shown by in ``lang`` (``hilfe`` for ``help`` in German)."""
    return texts.say(f"terminal.word.{name}", lang).split(",")[0].strip() or name


def local_user(index: int) -> int:
    """The made-up user id of the ``index``-th local player (0-based)."""
    return FIRST_USER_ID + index


def new_channel_id() -> int:
    """A channel id for one terminal game. Negative, so it never meets a Discord channel in a shared
    database; random, so a game left open by an earlier run never blocks a new one."""
    return -(secrets.randbits(52) + 1)


# Seats ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """One seat asked for on the command line: a person at the keyboard or a computer of a kind."""

    kind: str
    name: str | None = None

    @property
    def is_human(self) -> bool:
        return self.kind == HUMAN


def parse_seats(spec: str, kinds: Sequence[str]) -> list[SeatSpec]:
    """``"human,smart,random"`` or ``"human:Ann,human:Bob,smart"`` → seats; raises ValueError saying what
    is allowed. ``kinds`` are the computer kinds the game offers."""
    out = []
    for raw in spec.split(","):
        word, _, name = raw.strip().partition(":")
        word = word.strip().lower()
        if word in ("human", "h", "person", "me"):
            out.append(SeatSpec(HUMAN, name.strip() or None))
        elif word in kinds:
            if name.strip():
                raise ValueError(f"a computer seat takes no name: {raw.strip()!r}")
            out.append(SeatSpec(word))
        else:
            raise ValueError(f"{raw.strip()!r} is not a seat: use human (or human:NAME) or a computer kind "
                             f"({', '.join(kinds)}), separated by commas")
    return out


@dataclass(frozen=True, slots=True)
class Opening:
    """How a terminal game begins: its start (or what refused it, or, resumed, where it stands), and the
    notes said before it (options the game ignores, that it was resumed)."""

    outcome: Accepted | Refusal | Message
    notes: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return not isinstance(self.outcome, Refusal)

    @property
    def game_id(self) -> int | None:
        return None if isinstance(self.outcome, Refusal) else self.outcome.game_id


async def open_table(service: Service, channel_id: int, game_key: str, options: Mapping[str, Any],
                     seats: Sequence[SeatSpec], lang: str = texts.DEFAULT) -> tuple[Opening, dict[int, str]]:
    """Open a lobby, seat everyone in order and start the game (in ``lang``). Returns the start (or the first
    refusal) and the names of the local players by user id. The lobby's own news is delivered to nobody: the
    terminal shows the notes of the setup and the start. Computers move through :func:`play_computers`."""
    humans = [i for i, s in enumerate(seats) if s.is_human]
    names: dict[int, str] = {}
    host = local_user(humans[0]) if humans else HOST_ID
    lobby = LocalChannel()
    outcome = await service.new_game(guild_id=None, channel_id=channel_id, user_id=host, user_name="host",
                                     game_key=game_key, options=dict(options), join=False, lang=lang, user_lang=lang)
    if not isinstance(outcome, Accepted):
        return Opening(outcome), names
    opened = await lobby.take(service, outcome)
    notes = tuple(line for change in opened for line in change.message.text.splitlines()[1:] if line.strip())
    for i, seat in enumerate(seats):
        if seat.is_human:
            uid = local_user(i)
            names[uid] = seat.name or texts.say("terminal.player", lang, number=i + 1)
            outcome = await service.join(channel_id, uid, names[uid], lang=lang)
        else:
            outcome = await service.add_computer(channel_id, host, seat.kind, lang=lang)
        if not isinstance(outcome, Accepted):
            return Opening(outcome, notes), names
        await lobby.take(service, outcome)
    return Opening(await service.start(channel_id, host, lang=lang), notes), names


async def left_games(store: Store, game_key: str | None = None) -> list[GameRecord]:
    """The terminal's games still running in ``store`` (of ``game_key`` only, when given), the latest left
    first. A terminal game sits at a negative channel id (see :func:`new_channel_id`)."""
    games = [rec for rec in await store.games.open_games(ACTIVE) if rec.channel_id < 0 and rec.state is not None]
    return sorted((rec for rec in games if game_key is None or rec.game_key == game_key),
                  key=lambda rec: rec.id, reverse=True)


async def resume_table(service: Service, rec: GameRecord) -> tuple[Opening, dict[int, str]]:
    """Sit down again at the running game ``rec``: where it stands (as ``status`` shows it, in the game's
    language) and the names of its local players by user id."""
    names = {seat.user_id: seat.name for seat in rec.seats if not seat.is_computer}
    status = await service.status(rec.channel_id, None, lang=rec.lang)
    return Opening(status, (texts.say("terminal.resumed", rec.lang, game=rec.id, move=rec.version),)), names


async def shown_before(service: Service, game_id: int) -> list[str]:
    """The lines of the turn's message as it was left: the next move edits that message, which repeats these
    lines, which the terminal printed when they happened."""
    latest = await service.store.outbox.latest_delivery(game_id)
    return (await service.message(latest)).text.splitlines() if latest is not None else []


async def play_computers(service: Service, channel_id: int, moves: int = 1) -> Accepted | None:
    """Up to ``moves`` computer moves in one batch (None when no computer is to act)."""
    autoplay = service.autoplay
    budget, autoplay.moves_per_reply = autoplay.moves_per_reply, max(1, moves)
    try:
        return await service.play_computers(channel_id)
    finally:
        autoplay.moves_per_reply = budget


# Words -----------------------------------------------------------------------------------------------

def plain(text: str) -> str:
    """Chat text for a terminal (and the web page): our bold and code marks go, the names people chose and the
    people we speak of (:mod:`rules.literal`) show exactly as typed."""
    return render(text, name=str, ours=_unmarked)


def _unmarked(text: str) -> str:
    """Our own text without its bold and code marks."""
    return text.replace("**", "").replace("`", "")


def seat_label(game: Game, seat: int, lang: str = texts.DEFAULT) -> str:
    """How the game names a seat in a turn header: ``Player 2 (blue)``, ``Player 2 (Moons)``."""
    return str(unit_for(game.key).seat_label(game, seat, lang=lang))


def short_list(game: Game, seat: int, lang: str = texts.DEFAULT) -> list[tuple[str, str]]:
    """The moves worth offering ``seat`` now as (action, hint), as the game lists them (a move only once
    per cell it ends on, say). Empty when the seat may not act."""
    if game.is_over or not game.may_act(seat):
        return []
    return list(unit_for(game.key).short_list(game, seat, lang=lang))


def situation(game: Game, lang: str = texts.DEFAULT) -> str:
    """Where the turn stands, in a few words: the phase and the points to drive, or the roll to move."""
    return str(unit_for(game.key).situation(game, lang=lang))


def expand(game: Game, text: str) -> str:
    """A shorthand typed at the terminal in the game's notation: in a race ``move CELL`` stands for the whole
    move that ends there, and a lone word for the one legal action it can mean. Anything else unchanged."""
    return unit_for(game.key).expand(game, text)


def board_text(game: Game, seat: int, lang: str = texts.DEFAULT) -> str:
    """The game's text map around ``seat`` (empty when the game draws none)."""
    return str(unit_for(game.key).reading.board(game, seat, lang=lang))


def glossary(game: Game, lang: str = texts.DEFAULT) -> list[tuple[str, str]]:
    """The words of the game's move list and what each means, in ``lang``."""
    return [(str(w), str(t)) for w, t in unit_for(game.key).reading.glossary(lang=lang)]


def hand_text(game: Game, seat: int, lang: str = texts.DEFAULT) -> str:
    """What only ``seat`` may know (empty when the game hides nothing)."""
    return str(unit_for(game.key).hand_text(game, seat, lang=lang))


# Standings -------------------------------------------------------------------------------------------


def standings(game: Game, lang: str = texts.DEFAULT) -> list[dict[str, Any]]:
    """Every seat in finishing order (the winners first): ``place, seat`` and the game's columns by their
    heads (``Name``, ``Colour``, ``Flags`` …; in ``lang`` when the game words them; a name as typed). Winners
    share first place; the rest follow in order."""
    table = unit_for(game.key).standings(game, lang=lang)
    won = set(game.winners)
    rows = []
    place = 0
    for i, (seat, cells) in enumerate(table.rows):
        place = 1 if seat in won else max(place + 1, i + 1)
        rows.append({"place": place, "seat": seat,
                     **{h: bare(c) if isinstance(c, str) else c for h, c in zip(table.head, cells, strict=True)}})
    return rows


def format_standings(game: Game, lang: str = texts.DEFAULT) -> str:
    """The standings as a small table, in ``lang``."""
    head = (texts.say("terminal.place", lang), *unit_for(game.key).standings(game, lang=lang).head)
    body = [(str(r["place"]), *(str(r[h]) for h in head[1:])) for r in standings(game, lang)]
    widths = [max(len(x) for x in col) for col in zip(head, *body, strict=True)]
    lines = ["  ".join(x.ljust(w) for x, w in zip(line, widths, strict=True)).rstrip() for line in (head, *body)]
    return "\n".join(lines)


# Pictures --------------------------------------------------------------------------------------------


class PictureWriter:
    """Writes each board picture to ``DIR/move-NNNN.png`` (NNNN: the move number it shows), and its
    description beside it (``move-NNNN.txt``) so it can be read without the picture; after :meth:`for_game`,
    into that game's own folder ``DIR/game-ID/``."""

    def __init__(self, out_dir: str | Path) -> None:
        self.base = Path(out_dir)
        self.dir = self.base
        self.dir.mkdir(parents=True, exist_ok=True)
        self.written: list[Path] = []

    def for_game(self, game_id: int) -> Path:
        """From now on write into ``DIR/game-ID/``, so that one game's pictures never mix with another's
        (a resumed game goes on in its folder). Returns the folder."""
        folder = self.base / f"game-{game_id}"
        if folder != self.dir:
            folder.mkdir(parents=True, exist_ok=True)
            self.dir = folder
        return folder

    def write(self, png: bytes | None, version: int | None, name: str | None = None, description: str = ""
              ) -> Path | None:
        """Write a picture (and its description, when it has one, as a ``.txt`` beside it); its path."""
        if png is None:
            return None
        path = self.dir / (name or f"move-{version or 0:04d}.png")
        path.write_bytes(png)
        if description:
            path.with_suffix(".txt").write_text(bare(description) + "\n", encoding="utf-8")
        self.written.append(path)
        return path

    @property
    def latest(self) -> Path | None:
        return self.written[-1] if self.written else None


# The game loop ---------------------------------------------------------------------------------------


class Terminal:
    """Plays one game of a channel to its end, reading one action per line from ``inp``."""

    def __init__(self, service: Service, channel_id: int, names: Mapping[int, str], pictures: PictureWriter, *,
                 inp: TextIO | None = None, out: TextIO | None = None, pause: float = 0.0,
                 db_path: str | None = None, lang: str = texts.DEFAULT, resume: str = "junkyard play",
                 seen: Sequence[str] = ()) -> None:
        self.service = service
        #: the command that offers to resume the game, as the player would type it (with its ``--db``)
        self.resume = resume
        #: the language of everything shown (the game's)
        self.lang = lang
        self.channel_id = channel_id
        self.names = dict(names)
        self.pictures = pictures
        self.inp = inp if inp is not None else sys.stdin
        self.out = out if out is not None else sys.stdout
        self.pause = pause
        self.db_path = db_path
        self.echo = not _is_tty(self.inp)
        self.game_id: int | None = None
        #: the move the game was at in the last reply
        self.version: int | None = None
        #: command words of the game's language → command
        self.commands = command_words(lang)
        #: hidden notes waiting for their seat's next turn (hotseat)
        self.notes: dict[int, list[str]] = {}
        #: the actions the numbers refer to: the last list shown
        self.numbered: list[str] = []
        #: the seat whose turn header was printed last (None after a computer moved)
        self._last_seat: int | None = None
        #: (seat, move) of the short list shown last, so commands don't print it again
        self._listed: tuple[int, int] | None = None
        #: the short list's how-to was printed once
        self._hinted = False
        #: the words of the move list explained so far (each once, the first time a list holds it)
        self._explained: set[str] = set()
        #: "Player 2 (blue)" by seat
        self.labels: dict[int, str] = {}
        #: the channel the game's records are delivered to
        self.channel = LocalChannel()
        #: the lines of the turn's message shown so far (a reply that edits it repeats them)
        self._turn_lines: set[str] = set()
        #: what Ctrl-C does while the game is played (see :func:`interrupt_at_once`)
        self._ctrl_c = CtrlC()
        #: ``seen``: the lines of the turn's message an earlier run printed (a resumed game), as printed
        self._carried = {ln for line in seen for ln in plain(line).splitlines()}

    def say(self, text: str = "") -> None:
        """Print a line (a name in it as typed, without its marks)."""
        print(bare(text), file=self.out, flush=True)

    def words(self, msg: str, count: int | None = None, **params: Any) -> str:
        """A text of the catalogue in the game's language."""
        return texts.say(msg, self.lang, count=count, **params)

    async def show(self, outcome: Accepted | Refusal | Message, actor: int | None = None,
                   notes: Sequence[str] = ()) -> None:
        """Print what the service said: a refusal's words; else the notes, then each message the game's
        records posted or changed in the channel (:mod:`bot.local`: the one delivery routine), and hidden
        notes for the right eyes only."""
        if isinstance(outcome, Refusal):
            self.say(plain(outcome.text))
            return
        for said in notes:
            self.say(plain(said))
        if outcome.game_id is not None:
            self.game_id = outcome.game_id
            self.pictures.for_game(outcome.game_id)
        private: Sequence[Private] = ()
        if isinstance(outcome, Message):
            changes = [Change(0, outcome, False)]
        else:
            changes, private = await self.channel.take(self.service, outcome), outcome.private
        for change in changes:
            self._show_change(change)
        for note in private:
            if note.seat == actor:
                self._private(note.seat, [note.text])
            else:
                self.notes.setdefault(note.seat, []).append(note.text)

    def _show_change(self, change: Change) -> None:
        """A message posted (its text) or changed (what it shows that was not shown), and where its picture
        went."""
        message = change.message
        if message.version is not None:
            self.version = message.version
        ping = texts.say("your_turn", self.lang, user=Person(0, "")).partition(PERSON_CLOSE)[2]  # after the person
        lines = [ln for ln in plain(message.text).splitlines()
                 if not ln.rstrip().endswith(ping)]
        if not change.edit:
            self._turn_lines, self._carried = set(self._carried), set()
        fresh = [ln for ln in lines if ln not in self._turn_lines]  # an edit of the turn's message: what is new
        self._turn_lines.update(lines)
        text = "\n".join(fresh).strip()
        if text:
            self.say(text)
        path = self.pictures.write(message.png, message.version, description=message.description)
        if path is not None:
            self.say(self.words("terminal.board", path=path))

    async def run(self, first: Opening) -> int:
        """Play from the start reply to the end of the game or of the input. Returns an exit code: 0, or 130
        after Ctrl-C. Leaving early keeps the game as it is (the terminal says how to resume it). One Ctrl-C
        is enough, even while waiting for a line (asyncio's own handler would only cancel the task then)."""
        try:
            with interrupt_at_once() as self._ctrl_c:
                return await self._play(first)
        except KeyboardInterrupt:
            self._left(self.words("terminal.why.interrupted"))
            return 130
        except asyncio.CancelledError:
            self._left(self.words("terminal.why.interrupted"))
            raise

    async def _play(self, first: Opening) -> int:
        await self.show(first.outcome, notes=first.notes)
        if not first.ok:
            return 1
        _, game, _ = await self.service.current(self.channel_id)
        if game is not None:
            self.labels = {s: seat_label(game, s, self.lang) for s in range(len(game.seat_names))}
        while True:
            await self._computers()
            rec, game, _ = await self.service.current(self.channel_id)
            if rec is None or game is None or rec.status != ACTIVE:
                return await self._finished()
            seat = game.to_act
            if seat is None:
                return await self._finished()
            user = rec.seats[seat].user_id
            self._turn_header(rec, game, seat)
            line = self._read(game, seat)
            if line is None:
                return self._left(self.words("terminal.why.end_of_input"))
            if not await self._handle(line, rec, game, seat, user):
                return self._left(self.words("terminal.why.stopped"))

    async def _computers(self) -> None:
        """Let computer seats play while one is to act, one move (and one picture) at a time."""
        while True:
            batch = await play_computers(self.service, self.channel_id)
            if batch is None:
                return
            self._last_seat = None
            await self.show(batch)
            if self.pause:
                await asyncio.sleep(self.pause)

    def _turn_header(self, rec: GameRecord, game: Game, seat: int) -> None:
        if self._listed == (seat, game.ply):
            return  # nothing moved since the list was shown (after help, legal, a refusal…)
        self._listed = (seat, game.ply)
        if self._last_seat != seat:
            self._last_seat = seat
            self.say(self.words("terminal.to_act", seat=seat_label(game, seat, self.lang), move=game.ply))
            self._private(seat, self.notes.pop(seat, []), hand_text(game, seat, self.lang))
        items = short_list(game, seat, self.lang)
        self.numbered = [a for a, _ in items]
        where = situation(game, self.lang)
        msg = "terminal.moves" if self._hinted else "terminal.moves_hint"
        self._hinted = True
        legal, helping = command_word("legal", self.lang), command_word("help", self.lang)
        self.say(self.words(f"{msg}_where", where=where, legal=legal, help=helping) if where
                 else self.words(msg, legal=legal, help=helping))
        self._numbered(items[:SHORT_LIST])
        if len(items) > SHORT_LIST:
            self.say(self.words("terminal.more", count=len(items) - SHORT_LIST, legal=legal))
        self._explain(game, [a for a, _ in items[:SHORT_LIST]])

    def _explain(self, game: Game, actions: Sequence[str]) -> None:
        """The words of the game's glossary the list just shown holds and that were not explained yet."""
        used = {word for action in actions for word in action.split()}
        fresh = [(w, t) for w, t in glossary(game, self.lang) if w in used and w not in self._explained]
        if not fresh:
            return
        self._explained.update(w for w, _ in fresh)
        self.say(self.words("terminal.words_head"))
        for _, meaning in fresh:
            self.say(f"  {meaning}")

    def _help(self, game: Game) -> None:
        """The terminal's commands, and the game's own commands as its description lists them (the same as
        its Discord group): each is typed as the action it makes."""
        self.say(self.words("terminal.help"))
        unit = unit_for(game.key)
        group = unit.commands
        actions = [c for c in group.commands if not c.look] if group is not None else []
        width = max(len(word) for word in [*(command_word(n, self.lang) for n in COMMANDS),
                                           *(c.name for c in actions)])
        for name in COMMANDS:
            self.say(f"  {command_word(name, self.lang):<{width}}  {self.words(f'terminal.cmd.{name}')}")
        words = glossary(game, self.lang)
        if words:
            self.say(self.words("terminal.help_words"))
            for word, meaning in words:
                self.say(f"  {meaning}")
                self._explained.add(word)
        if group is not None:
            own = unit.translations.get(self.lang, {})  # the words Discord shows in this language
            self.say(self.words("terminal.help_actions", group=own.get(group.name, (group.name, ""))[0]))
            for command in actions:
                said = own.get(f"{group.name} {command.name}", ("", command.description))[1]
                self.say(f"  {command.name:<{width}}  {said}")

    def _private(self, seat: int, notes: Sequence[str], hand: str = "") -> None:
        """A block for one seat's eyes: hidden notes (a tile drawn), then its hand when given."""
        body = [*(n for n in notes if n), *([hand] if hand else [])]
        if not body:
            return
        who = self.labels.get(seat, self.words("terminal.seat", number=seat + 1))
        name = who.split(" (")[0]
        self.say(self.words("terminal.hand_head" if hand else "terminal.only_head", who=who, name=name))
        for part in body:
            self.say(plain(part))
        self.say("---")

    def _numbered(self, items: Sequence[tuple[str, str]]) -> None:
        for i, (action, hint) in enumerate(items, 1):
            self.say(f"  {i:>2}. {action}" + (f"   ({hint})" if hint else ""))

    def _read(self, game: Game, seat: int) -> str | None:
        """The next line that says something (None at the end of the input)."""
        while True:
            if not self.echo:
                print(f"{seat_label(game, seat, self.lang)}> ", end="", file=self.out, flush=True)
            with self._ctrl_c.reading():
                line = read_line(self.inp)
            if not line:
                return None
            line = line.strip()
            if self.echo and line:
                self.say(f"> {line}")
            if line and not line.startswith("#"):
                return line

    async def _handle(self, line: str, rec: GameRecord, game: Game, seat: int, user: int) -> bool:
        """Do one line of input; False to stop."""
        word = line.lower()
        command = self.commands.get(word)
        if command == "quit":
            return False
        if command == "help":
            self._help(game)
            return True
        if command == "legal":
            acts = [str(a) for a in game.legal_actions()]
            self.numbered = acts
            self.say(self.words("terminal.every_legal", seat=seat_label(game, seat, self.lang), count=len(acts)))
            self._numbered([(a, "") for a in acts])
            return True
        if command == "board":
            text = board_text(game, seat, self.lang)
            self.say(plain(text) if text else
                     self.words("terminal.no_board", status=command_word("status", self.lang)))
            return True
        if command == "status":  # the whole position in words, as everyone at the table may see it
            self.say(plain(unit_for(game.key).text_board(game, None, lang=self.lang)))
            if self.pictures.latest is not None:
                self.say(self.words("terminal.board", path=self.pictures.latest))
            return True
        if command == "hand":
            text = hand_text(game, seat, self.lang)
            self._private(seat, [] if text else [self.words("nothing_hidden")], text)
            return True
        if command == "log":
            self.say(plain((await self.service.log(self.channel_id, lang=self.lang)).text))
            return True
        if word.isdigit():
            n = int(word)
            if not 1 <= n <= len(self.numbered):
                self.say(self.words("terminal.no_number", number=n, max=len(self.numbered)))
                return True
            line = self.numbered[n - 1]
        action = expand(game, line)
        await self.show(await self.service.act(self.channel_id, user, action, lang=self.lang), actor=seat)
        return True

    async def _record(self) -> GameRecord | None:
        if self.game_id is None:
            return None
        return await self.service.store.games.get_game(self.game_id)

    async def _finished(self) -> int:
        rec = await self._record()
        if rec is None or rec.state is None:
            return 1
        game = await self.service.load(rec)
        self.say(self.words("terminal.final_standings"))
        self.say(format_standings(game, self.lang))
        self._where(rec)
        return 0

    def _left(self, why: str) -> int:
        """Leave a running game as it is (nothing is awaited, so an interruption cannot cut this short):
        say at which move it waits and how to resume it."""
        if self.game_id is not None:
            self.say(self.words("terminal.left", why=why, game=self.game_id, move=self.version or 0,
                                command=self.resume))
            self._db_note()
            if self.pictures.latest is not None:
                self.say(self.words("terminal.pictures", folder=self.pictures.dir, name=self.pictures.latest.name))
        return 0

    def _db_note(self) -> None:
        """After a printed command that names ``$JUNKYARD_DB`` for a database with a password: what to set."""
        note = db_variable_note(self.db_path, self.lang)
        if note is not None:
            self.say(note)

    def _where(self, rec: GameRecord) -> None:
        db = shown_db(self.db_path) if self.db_path else ""
        line = self.words("terminal.stored_in", game=rec.id, db=db) if db \
            else self.words("terminal.stored", game=rec.id)
        if db and unit_for(rec.game_key).has_replay:
            command = f"junkyard replay {rec.id}{db_argument(self.db_path)} --out replay.gif"
            line = self.words("terminal.replay_hint", text=line, command=command)
            self.say(line)
            self._db_note()
        else:
            self.say(line)
        if self.pictures.latest is not None:
            self.say(self.words("terminal.pictures", folder=self.pictures.dir, name=self.pictures.latest.name))


class CtrlC:
    """What one Ctrl-C does inside :func:`interrupt_at_once`. During a blocking read of a line (marked with
    :meth:`reading`) it raises KeyboardInterrupt right there, the only way to end such a read. At any other
    moment it cancels the task that entered, as asyncio's own handler does: an exception raised by a signal
    inside the event loop's machinery (between a result and the future waiting for it, say) can leave the
    loop unable to finish, so none is raised there. A second Ctrl-C raises at once, wherever the program is."""

    def __init__(self, loop: asyncio.AbstractEventLoop | None = None, task: asyncio.Task[Any] | None = None) -> None:
        self.pressed = False
        self._reading = False
        self._loop = loop
        self._task = task
        #: the block was left: a cancellation still on its way is not wanted any more
        self._left = False

    @contextlib.contextmanager
    def reading(self) -> Iterator[None]:
        """Mark a blocking read of a line: Ctrl-C raises KeyboardInterrupt inside it, or at its start when
        it came since the last ``await`` (the cancellation waits for one, which a read does not do)."""
        self._reading = True
        try:
            if self.pressed:
                raise KeyboardInterrupt
            yield
        finally:
            self._reading = False

    def _pressed(self, signum: int, frame: object) -> None:
        if self.pressed or self._reading or self._task is None or self._loop is None:
            self.pressed = True
            raise KeyboardInterrupt
        self.pressed = True
        self._loop.call_soon_threadsafe(self._cancel)  # from the loop itself, waking it if it waits

    def _cancel(self) -> None:
        """Cancel the task, unless it left the block meanwhile (a read it began raised instead)."""
        if self._task is not None and not self._left:
            self._task.cancel()


#: seconds a read from a terminal waits at most between looks for a Ctrl-C
READ_TICK = 0.25


def read_line(inp: TextIO) -> str:
    """One line of ``inp``. From a terminal, the read begins only once a line is there, and the wait looks
    for signals every :data:`READ_TICK` seconds: the kernel may hand Ctrl-C to any thread of the process
    (the store's, the pictures'), and then a read blocked on the main thread would never notice it."""
    try:
        fd = inp.fileno() if inp.isatty() else None
    except (AttributeError, OSError, ValueError):
        fd = None
    while fd is not None and not select.select([fd], [], [], READ_TICK)[0]:
        pass  # Python runs a pending signal's handler between two looks
    return inp.readline()


@contextlib.contextmanager
def interrupt_at_once() -> Iterator[CtrlC]:
    """While inside (in a task, on the main thread), one Ctrl-C leaves: KeyboardInterrupt comes out of the
    block, raised in a read marked with :meth:`CtrlC.reading` or turned from the cancellation of the task
    at its next ``await`` (see :class:`CtrlC`). asyncio's runner would only cancel the task, which a
    blocking ``readline`` does not notice, so a second Ctrl-C was needed. Outside the main thread it changes
    nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield CtrlC()
        return
    try:
        ctrl_c = CtrlC(asyncio.get_running_loop(), asyncio.current_task())
    except RuntimeError:  # no running loop: only reads are interrupted
        ctrl_c = CtrlC()
    before = signal.signal(signal.SIGINT, ctrl_c._pressed)
    try:
        yield ctrl_c
    except asyncio.CancelledError:
        if not ctrl_c.pressed:
            raise
        if ctrl_c._task is not None:
            ctrl_c._task.uncancel()
        raise KeyboardInterrupt from None
    finally:
        ctrl_c._left = True
        signal.signal(signal.SIGINT, before)


def shown_db(db: object) -> str:
    """Where the game is stored, fit to print: a database URL with its password masked (``***``)."""
    text = str(db)
    if "://" not in text:
        return text
    from bot.store.postgres import shown_url  # only for a PostgreSQL URL (it loads the driver)

    return shown_url(text)


#: the environment variable that names the database when ``--db`` does not (:func:`bot.store.default_db_path`)
DB_VARIABLE = "JUNKYARD_DB"


def _has_password(db: str) -> bool:
    return "://" in db and urlsplit(db).password is not None


def db_argument(db: str | None) -> str:
    """`` --db WHERE`` for a command printed to be copied and run: the file or URL as given, quoted for a shell;
    a URL holding a password as ``"$JUNKYARD_DB"``, so the password is never printed. Empty without ``db``."""
    if not db:
        return ""
    if _has_password(db):
        return f' --db "${DB_VARIABLE}"'
    return f" --db {shlex.quote(db)}"


def db_variable_note(db: str | None, lang: str = texts.DEFAULT) -> str | None:
    """The line to print after a command that names ``$JUNKYARD_DB`` (:func:`db_argument`) while the variable
    does not hold that database: set it first (the address shown with its password masked). None otherwise."""
    if not db or not _has_password(db) or os.environ.get(DB_VARIABLE) == db:
        return None
    return texts.say("terminal.db_variable", lang, variable=DB_VARIABLE, db=shown_db(db))


def database_folder(db: str) -> str:
    """The folder of a database's pictures under ``--out``: the file's name without its suffix (the
    database's name for a URL) and a short hash of where it is (the file's absolute path; the URL without its
    password), so two databases never share a folder (``games-1a2b3c4d``) and a game resumed keeps its own."""
    if "://" in db:
        parts = urlsplit(db)
        netloc = parts.netloc.rpartition("@")[2]
        user = parts.username
        where = urlunsplit(parts._replace(netloc=f"{user}@{netloc}" if user else netloc))
        name = parts.path.strip("/") or parts.hostname or "database"
    else:
        where = os.path.abspath(db) if db != ":memory:" else db
        name = Path(db).stem or "database"
    digest = hashlib.sha256(where.encode("utf-8")).hexdigest()[:8]
    return f"{re.sub(r'[^A-Za-z0-9_.-]+', '_', name).strip('._') or 'database'}-{digest}"


async def open_for_play(db: str, out: str) -> tuple[Store, PictureWriter] | str:
    """The store at ``db``, opened, and the folder of its pictures under ``out``; else the one line that says
    why not (a folder that cannot be written, a database that cannot be opened)."""
    from bot.store import CannotOpen, open_store

    try:
        pictures = PictureWriter(Path(out) / database_folder(db))
    except OSError as exc:
        return f"cannot write pictures to {out}: {exc}"
    store = open_store(db)
    try:
        await store.open()
    except CannotOpen as exc:
        return str(exc)
    return store, pictures


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


__all__ = ["COMMANDS", "DB_VARIABLE", "HUMAN", "CtrlC", "Opening", "PictureWriter", "SeatSpec", "Terminal",
           "board_text", "command_word", "command_words", "database_folder", "db_argument", "db_variable_note",
           "expand", "format_standings", "glossary", "hand_text", "interrupt_at_once", "left_games", "local_user",
           "new_channel_id", "open_for_play", "open_table", "parse_seats", "plain", "play_computers", "read_line",
           "resume_table", "seat_label", "short_list", "shown_before", "shown_db", "situation", "standings"]
