"""The terminal front end: play any game in a text terminal through the same :class:`~bot.service.Service`
and store as Discord.

Local players get made-up user ids (see :func:`local_user`); computer seats are seated with
:meth:`Service.add_computer`. Everything a player types is the game's own notation, handed to
:meth:`Service.act` exactly as ``/game play`` does; the terminal only adds conveniences a keyboard wants:
numbers that pick from the last list shown, ``move CELL`` for a whole Junkyard Races move, and the extra
commands in :data:`COMMANDS`. Several people may share one keyboard (hotseat): a player's hidden things are
printed only when that player is to act.

:mod:`bot.commands.play` (``junkyard play``) and :mod:`bot.commands.demo` (``junkyard demo``) build on this.
"""

from __future__ import annotations

import asyncio
import re
import secrets
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from bot.service import Reply, Service, may_act
from bot.store import ACTIVE, GameRecord
from rules.contract import Game

HUMAN = "human"
#: made-up user ids: the host of a table without people, and the first local player (seat 1 is 1001, …)
HOST_ID = 1000
FIRST_USER_ID = 1001
#: items in the short list of moves before "… and N more"
SHORT_LIST = 24
COMMANDS: dict[str, str] = {
    "help": "this help",
    "legal": "every legal action, numbered",
    "status": "the standings and whose turn it is",
    "hand": "your hidden things again (tiles, parts, fuel)",
    "log": "the last moves",
    "quit": "stop the game (it stays in the database, marked aborted)",
}


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


async def open_table(service: Service, channel_id: int, game_key: str, options: Mapping[str, Any],
                     seats: Sequence[SeatSpec]) -> tuple[Reply, dict[int, str]]:
    """Open a lobby, seat everyone in order and start the game. Returns the reply of the start (or the
    first refusal) and the names of the local players by user id. From here on the service plays no
    computer moves inside a person's reply: :meth:`Service.play_computers` plays them (see
    :func:`play_computers`)."""
    humans = [i for i, s in enumerate(seats) if s.is_human]
    names: dict[int, str] = {}
    host = local_user(humans[0]) if humans else HOST_ID
    reply = await service.new_game(guild_id=None, channel_id=channel_id, user_id=host, user_name="host",
                                   game_key=game_key, options=dict(options), join=False)
    notes = [line for line in reply.text.splitlines()[1:] if line.strip()]
    if not reply.ok:
        return reply, names
    for i, seat in enumerate(seats):
        if seat.is_human:
            uid = local_user(i)
            names[uid] = seat.name or f"Player {i + 1}"
            reply = await service.join(channel_id, uid, names[uid])
        else:
            reply = await service.add_computer(channel_id, host, seat.kind)
        if not reply.ok:
            return reply, names
    # computers move later, through Service.play_computers, so every move gets its own reply and picture
    service.computer_moves_per_reply = 0
    reply = await service.start(channel_id, host)
    if notes and reply.ok:
        reply.text = "\n".join([*notes, reply.text])
    return reply, names


async def play_computers(service: Service, channel_id: int, moves: int = 1) -> Reply | None:
    """Up to ``moves`` computer moves in one reply (None when no computer is to act)."""
    service.computer_moves_per_reply = max(1, moves)
    try:
        return await service.play_computers(channel_id)
    finally:
        service.computer_moves_per_reply = 0


# Words -----------------------------------------------------------------------------------------------

_MENTION = re.compile(r"<@(-?\d+)>")


def plain(text: str, names: Mapping[int, str]) -> str:
    """Chat text for a terminal: mentions become names, bold and code marks go."""
    text = _MENTION.sub(lambda m: names.get(int(m.group(1)), "someone"), text)
    return text.replace("**", "").replace("`", "")


def seat_label(game: Game, seat: int) -> str:
    """``Player 2 (blue)`` in a race, ``Player 2 (Moons)`` in the piecepack game, else the name."""
    name = game.seat_names[seat]
    karts = getattr(game, "karts", None)
    if karts is not None and 0 <= seat < len(karts):
        return f"{name} ({karts[seat].colour})"
    label = getattr(game, "label", None)
    if callable(label) and game.key == "piecepack":
        suit = str(label(seat)).split(" (")[0]
        return f"{name} ({suit})" if suit != name else name
    return name


def short_list(game: Game, seat: int) -> list[tuple[str, str]]:
    """The moves worth offering ``seat`` now as (action, hint): every kind of action, but a move only once
    per cell it ends on. Empty when the seat may not act."""
    if game.is_over or not may_act(game, seat):
        return []
    if game.key == "races":
        return _race_list(game)
    if game.key == "piecepack":
        dests = getattr(game, "destinations", lambda: {})()
        if dests:
            return [(f"move {sq}", f"path {str(m).removeprefix('move ')}") for sq, m in dests.items()]
    return [(str(a), "") for a in game.legal_actions()]


def _race_list(game: Any) -> list[tuple[str, str]]:
    from bot.games.races import destinations, step_word
    from rules.races import actions as act

    acts = list(game.legal_actions())
    out: list[tuple[str, str]] = []
    steps = [a for a in acts if isinstance(a, act.Step)]
    for a in acts:
        if isinstance(a, act.Choose):
            prompt = game.choice.prompt if game.choice is not None else ""
            out.append((str(a), prompt))
        elif not isinstance(a, act.Step | act.Move):
            out.append((str(a), ""))
    for a in steps:
        word = step_word(game, a)
        cell = a.cell.label if a.cell is not None else ""
        out.append((f"step {word}", cell) if word else (str(a), ""))
    ahead = _race_ahead(game)
    moves = sorted(((ahead(m), m) for m in destinations(game, acts).values() if len(m.cells) > 1),
                   key=lambda vm: vm[0], reverse=True)
    for (_, flags), move in moves:
        hint = f"via {' '.join(c.label for c in move.cells[:-1])}" + (", takes a flag" if flags else "")
        out.append((f"move {move.cells[-1].label}", hint))
    # Done is offered last: ending early is rarely the plan
    out.sort(key=lambda item: item[0] == "done")
    return out


def _race_ahead(game: Any) -> Any:
    """For a whole move of the kart to act: how far round the race it ends (larger is further) and the
    flags it takes on the way. Bumps and traps are not foreseen: this only orders a list."""
    from bot.drivers.races import mode_of, track_info

    info = track_info(game.track)
    kart = game.karts[game.turn.seat]

    def ahead(move: Any) -> tuple[float, int]:
        cell, facing, mode, flags = kart.cell, kart.facing, mode_of(kart), 0
        for nxt in move.cells:
            if cell is not None:
                step = cell.facing_to(nxt)
                facing = facing if step is None else step  # (Facing.N is 0: no truth test)
                mode, scored = info.step_mode(cell, nxt, mode)
                flags += scored
            cell = nxt
        return flags * info.lap - info.remaining(cell, facing, mode), flags

    return ahead


def situation(game: Game) -> str:
    """Where the turn stands, in a few words: the phase and the points to drive, or the roll to move."""
    view = game.view(None)
    if game.key == "races":
        turn = view.get("turn") or {}
        if view.get("choice"):
            return str(view["choice"]["prompt"]).rstrip(".")
        if view["phase"] == "move" and turn.get("reversing"):
            return "Reversing"
        if view["phase"] == "move":
            dice = turn.get("dice") or {}
            rolled = " ".join(f"{colour} {', '.join(map(str, faces))}" for colour, faces in dice.items() if faces)
            points = turn.get("points", 0)
            return f"Rolled {rolled}: {points} point{'s' if points != 1 else ''} to drive" if rolled else \
                f"{points} points to drive"
        return {"roll": "Phase 3: roll or reverse", "deeds": "Phase 1: traps, weapons, gadgets",
                "parts": "Phase 2: parts and fuel"}.get(view["phase"], f"Phase: {view['phase']}")
    if game.key == "piecepack" and view.get("phase") == "move":
        return f"You rolled {view['roll']}: move exactly that far"
    return ""


def expand(game: Game, text: str) -> str:
    """Terminal shorthands in the game's notation. In a race: ``move CELL`` stands for the whole move that
    ends there (as ``/race move`` does), and a lone word for the one legal ``choose``, ``step`` or whole move
    it can mean (``E10`` at the start, ``left`` while driving, ``NE`` when a facing is asked)."""
    if game.key != "races":
        return text
    from bot.games.races import destinations

    words = text.split()
    acts = game.legal_actions()
    if len(words) == 2 and words[0].lower() in ("move", "m"):
        move = destinations(game, acts).get(words[1].upper())
        return str(move) if move is not None else text
    if len(words) != 1:
        return text
    legal = {str(a).lower(): str(a) for a in acts}
    for candidate in (f"choose {text}", f"step {text}"):
        if candidate.lower() in legal:
            return legal[candidate.lower()]
    if text.lower() in ("left", "straight", "right", "l", "s", "r"):
        return f"step {text}"
    move = destinations(game, acts).get(text.upper())
    return str(move) if move is not None else text


def hand_text(game: Game, seat: int) -> str:
    """What only ``seat`` may know (empty when the game hides nothing)."""
    if game.key != "races":
        return ""
    from bot.games.races import part_name, tiles_text

    kart = game.view(seat)["karts"][seat]
    parts = ", ".join(f"{loc}: {part_name(p)}" for loc, p in sorted((kart.get("parts") or {}).items(),
                                                                      key=lambda kv: int(kv[0])))
    fuel = kart.get("fuel") or {}
    return (f"Tiles: {tiles_text(kart)}.\nParts: {parts or 'none'}. Bottle tops: {kart.get('bottle_tops', 0)}. "
            f"Fuel dice: {fuel.get('white', 0)} white, {fuel.get('red', 0)} red.")


# Standings -------------------------------------------------------------------------------------------


def standings(game: Game) -> list[dict[str, Any]]:
    """Every seat in finishing order (the winners first), with what counts in its game:
    ``place, seat, name`` and ``colour, flags, laps, bottle_tops`` (races) or ``suit, trash, carrying``
    (piecepack)."""
    won = set(game.winners)
    if game.key == "races":
        from bot.drivers.races import progress, track_info

        g: Any = game
        info = track_info(g.track)
        order = sorted(g.karts, key=lambda k: (k.seat not in won, -k.flags, -progress(info, k), k.seat))
        rows = [{"seat": k.seat, "name": k.name, "colour": k.colour, "flags": k.flags, "laps": g.laps,
                 "bottle_tops": k.bottle_tops} for k in order]
    elif game.key == "piecepack":
        seats = game.view(None)["seats"]
        order = sorted(seats, key=lambda s: (s["seat"] not in won, not s["carrying"], len(s["trash"]), s["seat"]))
        rows = [{"seat": s["seat"], "name": s["name"], "suit": s["suit"], "trash": list(s["trash"]),
                 "carrying": s["carrying"]} for s in order]
    else:
        order = sorted(range(len(game.seat_names)), key=lambda s: (s not in won, s))
        rows = [{"seat": s, "name": game.seat_names[s]} for s in order]
    place = 0
    for i, row in enumerate(rows):
        # winners share first place; the rest follow in order
        place = 1 if row["seat"] in won else max(place + 1, i + 1)
        row["place"] = place
    return rows


def format_standings(game: Game) -> str:
    """The standings as a small table."""
    rows = standings(game)
    if game.key == "races":
        head = ("Place", "Name", "Colour", "Flags", "Bottle tops")
        body = [(str(r["place"]), r["name"], r["colour"], f"{r['flags']}/{r['laps']}", str(r["bottle_tops"]))
                for r in rows]
    elif game.key == "piecepack":
        head = ("Place", "Name", "Suit", "Trash", "Good stuff")
        body = [(str(r["place"]), r["name"], r["suit"], " ".join(r["trash"]) or "none",
                 "carrying" if r["carrying"] else "") for r in rows]
    else:
        head = ("Place", "Name")
        body = [(str(r["place"]), r["name"]) for r in rows]
    widths = [max(len(x) for x in col) for col in zip(head, *body, strict=True)]
    lines = ["  ".join(x.ljust(w) for x, w in zip(line, widths, strict=True)).rstrip() for line in (head, *body)]
    return "\n".join(lines)


# Pictures --------------------------------------------------------------------------------------------


class PictureWriter:
    """Writes each board picture to ``DIR/move-NNNN.png`` (NNNN: the move number it shows)."""

    def __init__(self, out_dir: str | Path) -> None:
        self.dir = Path(out_dir)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.written: list[Path] = []

    def write(self, png: bytes | None, version: int | None, name: str | None = None) -> Path | None:
        if png is None:
            return None
        path = self.dir / (name or f"move-{version or 0:04d}.png")
        path.write_bytes(png)
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
                 db_path: str | None = None) -> None:
        self.service = service
        self.channel_id = channel_id
        self.names = dict(names)
        self.pictures = pictures
        self.inp = inp if inp is not None else sys.stdin
        self.out = out if out is not None else sys.stdout
        self.pause = pause
        self.db_path = db_path
        self.echo = not _is_tty(self.inp)
        self.game_id: int | None = None
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
        #: "Player 2 (blue)" by seat
        self.labels: dict[int, str] = {}

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def show(self, reply: Reply, actor: int | None = None) -> None:
        """Print a reply: its text, where its picture went, and hidden notes for the right eyes only."""
        if reply.game_id is not None:
            self.game_id = reply.game_id
        lines = [ln for ln in plain(reply.text, self.names).splitlines() if not ln.rstrip().endswith(", your turn.")]
        text = "\n".join(lines).strip()
        if text:
            self.say(text)
        path = self.pictures.write(reply.png, reply.version)
        if path is not None:
            self.say(f"  [board: {path}]")
        for note in reply.private:
            if note.seat == actor:
                self._private(note.seat, [note.text])
            else:
                self.notes.setdefault(note.seat, []).append(note.text)

    async def run(self, first: Reply) -> int:
        """Play from the start reply to the end of the game or of the input. Returns an exit code.
        Interrupted (Ctrl-C), the game is marked aborted before the interruption goes on."""
        try:
            return await self._play(first)
        except (KeyboardInterrupt, asyncio.CancelledError):
            await self._stop("Interrupted")
            raise

    async def _play(self, first: Reply) -> int:
        self.show(first)
        if not first.ok:
            return 1
        _, game, _ = await self.service.current(self.channel_id)
        if game is not None:
            self.labels = {s: seat_label(game, s) for s in range(len(game.seat_names))}
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
                return await self._stop("End of input")
            if not await self._handle(line, rec, game, seat, user):
                return await self._stop("Stopped")

    async def _computers(self) -> None:
        """Let computer seats play while one is to act, one move (and one picture) at a time."""
        while True:
            reply = await play_computers(self.service, self.channel_id)
            if reply is None:
                return
            self._last_seat = None
            self.show(reply)
            if self.pause:
                await asyncio.sleep(self.pause)

    def _turn_header(self, rec: GameRecord, game: Game, seat: int) -> None:
        if self._listed == (seat, game.ply):
            return  # nothing moved since the list was shown (after help, legal, a refusal…)
        self._listed = (seat, game.ply)
        if self._last_seat != seat:
            self._last_seat = seat
            self.say(f"\n=== {seat_label(game, seat)} to act (move {game.ply}) ===")
            self._private(seat, self.notes.pop(seat, []), hand_text(game, seat))
        items = short_list(game, seat)
        self.numbered = [a for a, _ in items]
        where = situation(game)
        if self._hinted:
            self.say(f"{where}. Your moves:" if where else "Your moves:")
        else:
            self._hinted = True
            self.say((f"{where}. " if where else "") +
                     "Your moves (type one, or its number; 'legal' lists every one, 'help' the commands):")
        self._numbered(items[:SHORT_LIST])
        if len(items) > SHORT_LIST:
            self.say(f"   … and {len(items) - SHORT_LIST} more: type 'legal'")

    def _private(self, seat: int, notes: Sequence[str], hand: str = "") -> None:
        """A block for one seat's eyes: hidden notes (a tile drawn), then its hand when given."""
        body = [*(n for n in notes if n), *([hand] if hand else [])]
        if not body:
            return
        who = self.labels.get(seat, f"Seat {seat + 1}")
        name = who.split(" (")[0]
        self.say(f"--- {who}: your hand (only for {name}'s eyes) ---" if hand else
                 f"--- {who}: only for {name}'s eyes ---")
        for part in body:
            self.say(plain(part, self.names))
        self.say("---")

    def _numbered(self, items: Sequence[tuple[str, str]]) -> None:
        for i, (action, hint) in enumerate(items, 1):
            self.say(f"  {i:>2}. {action}" + (f"   ({hint})" if hint else ""))

    def _read(self, game: Game, seat: int) -> str | None:
        """The next line that says something (None at the end of the input)."""
        while True:
            if not self.echo:
                print(f"{seat_label(game, seat)}> ", end="", file=self.out, flush=True)
            line = self.inp.readline()
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
        if word in ("quit", "exit", "q"):
            return False
        if word in ("help", "?"):
            self.say("Type an action in the game's notation (like the list shows), or the number of one in the "
                     "last list. Commands:")
            for name, what in COMMANDS.items():
                self.say(f"  {name:<7} {what}")
            return True
        if word == "legal":
            acts = [str(a) for a in game.legal_actions()]
            self.numbered = acts
            self.say(f"Every legal action of {seat_label(game, seat)} ({len(acts)}):")
            self._numbered([(a, "") for a in acts])
            return True
        if word == "status":
            reply = await self.service.status(self.channel_id, None)
            self.say(plain(reply.text, self.names))
            if self.pictures.latest is not None:
                self.say(f"  [board: {self.pictures.latest}]")
            return True
        if word == "hand":
            text = hand_text(game, seat)
            self._private(seat, [] if text else ["Nothing is hidden in this game."], text)
            return True
        if word == "log":
            self.say(plain((await self.service.log(self.channel_id)).text, self.names))
            return True
        if word.isdigit():
            n = int(word)
            if not 1 <= n <= len(self.numbered):
                self.say(f"There is no number {n} in the last list (1–{len(self.numbered)}).")
                return True
            line = self.numbered[n - 1]
        action = expand(game, line)
        reply = await self.service.act(self.channel_id, user, action)
        if not reply.ok:
            self.say(plain(reply.text, self.names))
            return True
        self.show(reply, actor=seat)
        return True

    async def _record(self) -> GameRecord | None:
        if self.game_id is None:
            return None
        return await self.service.store.get_game(self.game_id)

    async def _finished(self) -> int:
        rec = await self._record()
        if rec is None or rec.state is None:
            return 1
        game = await self.service.load(rec)
        self.say("\n=== Final standings ===")
        self.say(format_standings(game))
        self._where(rec)
        return 0

    async def _stop(self, why: str) -> int:
        """Leave a running game: it is marked aborted and stays in the database."""
        rec = await self._record()
        if rec is not None and rec.is_open:
            await self.service.abort(self.channel_id, rec.host_id)
            self.say(f"\n{why}: the game stops after {rec.version} moves (kept as aborted).")
            self._where(rec)
        return 0

    def _where(self, rec: GameRecord) -> None:
        db = f" in {self.db_path}" if self.db_path else ""
        line = f"Game {rec.id} is stored{db}."
        if rec.game_key == "races" and self.db_path:
            line += f" Its replay: junkyard replay {rec.id} --db {self.db_path} --out race.gif"
        self.say(line)
        if self.pictures.latest is not None:
            self.say(f"Board pictures: {self.pictures.dir}/ (last: {self.pictures.latest.name})")


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


__all__ = ["COMMANDS", "HUMAN", "PictureWriter", "SeatSpec", "Terminal", "expand", "format_standings", "hand_text",
           "local_user", "new_channel_id", "open_table", "parse_seats", "plain", "play_computers", "seat_label",
           "short_list", "situation", "standings"]
