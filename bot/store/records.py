"""The records a store keeps and hands out: games and their seats, actions, delivery records, timers, turn
marks and results; the store's refusals; and the facts both backends share (statuses, where a database is,
which shard a server belongs to)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

LOBBY, ACTIVE, FINISHED, ABORTED = "lobby", "active", "finished", "aborted"


STATUSES = (LOBBY, ACTIVE, FINISHED, ABORTED)


OPEN_STATUSES = (LOBBY, ACTIVE)
#: the settings scope of a player's own link to a game's page (owner: the player, target: the game;
#: :mod:`bot.web.seats`): clearing it revokes the link, as leaving the game or being forgotten does
SEAT_LINK_SCOPE = "web.seat"


DEFAULT_DB = "junkyard.db"


def default_db_path() -> str:
    """``JUNKYARD_DB`` from the environment, else ``junkyard.db`` in the working directory."""
    return os.environ.get("JUNKYARD_DB") or DEFAULT_DB


def sqlite_file_problem(path: str) -> str | None:
    """Why the SQLite file ``path`` cannot be opened or made, said in one line (None: nothing found yet)."""
    target = os.path.abspath(path)
    folder = os.path.dirname(target)
    if os.path.isdir(target):
        return f"{path} is a folder, not a database file (name a file in it, such as {os.path.join(path, DEFAULT_DB)})"
    if not os.path.exists(target):
        if not os.path.isdir(folder):
            return f"cannot make the database {path}: the folder {folder} does not exist"
        if not os.access(folder, os.W_OK | os.X_OK):
            return f"cannot make the database {path}: the folder {folder} is not writable"
        return None
    if not os.path.isfile(target):
        return f"{path} is not a regular file, so it cannot be a database"
    if not os.access(target, os.R_OK):
        return f"cannot read the database {path}: permission denied"
    if not os.access(target, os.W_OK):
        return f"cannot write to the database {path}: permission denied (the bot and the terminal store every move)"
    return None


def newer_schema(where: str, found: int, known: int) -> str:
    """The refusal of a database that a newer Junkyard GM has migrated."""
    return (f"the database {where} is at schema {found}, newer than this version of Junkyard GM knows ({known}): "
            "upgrade Junkyard GM to use it")


def is_database_url(where: str) -> bool:
    """Whether ``where`` names a PostgreSQL database (``postgresql://…``, ``postgres://…``) and not a file."""
    return where.startswith(("postgresql://", "postgres://"))


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard a server's games belong to: Discord's rule, ``(guild_id >> 22) % shard_count``; games outside
    any server (the terminal's) belong to shard 0."""
    return ((guild_id or 0) >> 22) % shard_count


class StoreError(Exception):
    """Base class of the store's refusals."""


class StaleVersion(StoreError):
    """A write expected a version (or status) the game no longer has: someone else moved first."""

    def __init__(self, game_id: int, expected: int, actual: int | None, status: str | None = None) -> None:
        self.game_id, self.expected, self.actual, self.status = game_id, expected, actual, status
        where = "is gone" if actual is None else f"is at move {actual}" + (f" ({status})" if status else "")
        super().__init__(f"game {game_id}: expected move {expected}, but the game {where}")


class ChannelBusy(StoreError):
    """The channel already has a game in the lobby or running."""


class GameNotFound(StoreError):
    pass


class CannotOpen(StoreError):
    """The database cannot serve as a store: its message says why in one line, naming the database."""


class StaleRating(StoreError):
    """A rating changed between reading it and writing its successor (another game ended meanwhile)."""


class SeasonRunning(StoreError):
    """The server already has a running season."""


class ChampionshipRunning(StoreError):
    """The channel already has a running championship."""


class InconsistentSnapshot(StoreError):
    """The stored snapshot differs from a replay of the action log."""


#: kinds of delivery record: a message to post (a board, a narration); later kinds (editing a posted
#: message, a reminder due at a time) use the same rows, claimed and fired once
POST = "post"


#: a new state of a message already posted (the turn's message); its payload names the record it follows
EDIT = "edit"


#: the kinds of record that show a turn's message (the others: its retirement, a message beside the turns)
TURN_KINDS = (POST, EDIT)


@dataclass(slots=True)
class Outgoing:
    """A delivery record a write stores in its own transaction: what must reach the channel afterwards.

    The first write that carries it inserts the record and sets ``id``; later writes of the same service
    call carry the same object and update that record (its payload and the game version it shows).
    The writer claims the record for ``lease`` seconds as ``owner``, so no other worker posts it meanwhile.
    """

    payload: dict[str, Any]
    kind: str = POST
    owner: str | None = None
    lease: float = 0.0
    due_at: float | None = None
    id: int | None = None


@dataclass(frozen=True, slots=True)
class Delivery:
    """A delivery record: ``message_id`` is set once the message is posted, so it is never posted twice."""

    id: int
    game_id: int | None
    channel_id: int
    version: int
    kind: str
    payload: dict[str, Any]
    due_at: float
    attempts: int
    claimed_by: str | None
    claimed_until: float | None
    message_id: int | None
    delivered_at: float | None
    created_at: float

    @property
    def delivered(self) -> bool:
        return self.delivered_at is not None


#: a settings row's key: (scope, owner, target)
SettingKey = tuple[str, int, int]


@dataclass(frozen=True, slots=True)
class MoveRead:
    """What a move in a channel reads, read at once (:meth:`Store.read_move`): the channel's open game (None:
    there is none), the game's newest turn record, the ids of the channel's undelivered records, oldest first,
    and the settings rows the move named (``{}`` for a row that is not there)."""

    game: GameRecord | None
    latest: Delivery | None = None
    pending: tuple[int, ...] = ()
    settings: Mapping[SettingKey, dict[str, Any]] = field(default_factory=dict)


def written(out: Outgoing, rec: GameRecord, now: float) -> Delivery:
    """The delivery record ``out`` became in the write that left the game at ``rec`` (its id set by the write),
    as the store holds it: claimed by its writer, not delivered."""
    assert out.id is not None
    return Delivery(id=out.id, game_id=rec.id, channel_id=rec.channel_id, version=rec.version, kind=out.kind,
                    payload=out.payload, due_at=now if out.due_at is None else out.due_at, attempts=0,
                    claimed_by=out.owner, claimed_until=now + out.lease if out.owner is not None else None,
                    message_id=None, delivered_at=None, created_at=now)


@dataclass(slots=True)
class Seat:
    """One seat at a table: who sits there, under which name, with which seat options (colour, team…).

    A computer seat names its ``driver`` kind and has a negative ``user_id`` no real user can have. ``lang``
    is the player's language when they sat down (their notes are worded in it), None when unknown."""

    user_id: int
    name: str
    options: dict[str, Any] = field(default_factory=dict)
    driver: str | None = None
    lang: str | None = None

    @property
    def is_computer(self) -> bool:
        return self.driver is not None

    def to_dict(self) -> dict[str, Any]:
        out = {"user_id": self.user_id, "name": self.name, "options": self.options}
        if self.driver is not None:
            out["driver"] = self.driver
        if self.lang is not None:
            out["lang"] = self.lang
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Seat:
        return cls(int(d["user_id"]), str(d["name"]), dict(d.get("options", {})), d.get("driver"), d.get("lang"))


@dataclass(slots=True)
class GameRecord:
    id: int
    guild_id: int | None
    channel_id: int
    game_key: str
    status: str
    host_id: int
    setup: dict[str, Any]
    seed: int
    seats: list[Seat]
    version: int
    state: dict[str, Any] | None
    created_at: float
    updated_at: float
    #: the public language of the game's messages ("en", "de"), from the server where it was opened
    lang: str = "en"

    def seat_of(self, user_id: int) -> int | None:
        for i, s in enumerate(self.seats):
            if s.user_id == user_id:
                return i
        return None

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES


@dataclass(frozen=True, slots=True)
class ActionRecord:
    game_id: int
    index: int
    seat: int | None
    user_id: int | None
    action: str
    narration: str
    at: float


@dataclass(frozen=True, slots=True)
class Result:
    """One seat's result in a finished game: its place (1 is first), whether it won, and the game's length;
    the seat's team and computer kind (None: none), and how its person kept time: ``turns`` played,
    ``timed`` of them with a measured wait, ``think`` (seconds over those), ``missed`` (a turn limit passed
    or the autopilot played) and ``autopilot`` (turns the autopilot played)."""

    game_id: int
    seat: int
    user_id: int
    name: str
    place: int
    winner: bool
    moves: int
    game_key: str
    guild_id: int | None
    channel_id: int
    started_at: float
    finished_at: float
    team: int | None = None
    driver: str | None = None
    turns: int = 0
    timed: int = 0
    missed: int = 0
    autopilot: int = 0
    think: float = 0.0


#: the season every server has: it never ends and counts every game
EVERLASTING = 0


@dataclass(frozen=True, slots=True)
class Season:
    """A server's season: games finished from ``started_at`` until ``ended_at`` (None: still running) form
    its ladder. Id :data:`EVERLASTING` is the season without bounds every server has."""

    id: int
    guild_id: int
    name: str
    started_at: float
    ended_at: float | None
    started_by: int

    def holds(self, at: float) -> bool:
        """Whether a game finished at ``at`` counts in this season."""
        return self.started_at <= at and (self.ended_at is None or at < self.ended_at)


@dataclass(frozen=True, slots=True)
class Rating:
    """A person's rating in one game on one server in one season, with their record there: games, wins,
    turns, turns with a measured wait (``timed``) and the seconds over them (``think``), missed turns."""

    guild_id: int
    game_key: str
    season_id: int
    user_id: int
    name: str
    mu: float
    sigma: float
    games: int
    wins: int
    turns: int
    timed: int
    missed: int
    think: float
    updated_at: float


@dataclass(frozen=True, slots=True)
class RatingChange:
    """How one finished game moved a person's rating in one season."""

    game_id: int
    season_id: int
    user_id: int
    guild_id: int
    game_key: str
    mu_before: float
    sigma_before: float
    mu: float
    sigma: float
    at: float


@dataclass(frozen=True, slots=True)
class SettingsWrite:
    """A settings row to put in the same transaction as an action (a plan that gave up its first step)."""

    scope: str
    owner: int
    target: int
    data: dict[str, Any]


@dataclass(frozen=True, slots=True)
class NewTimer:
    """A timed event to schedule: what (``kind``), for which seat, when, with what extra data."""

    kind: str
    seat: int | None
    due_at: float
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Timer:
    """A stored timed event of a game at ``version``; ``fired_at`` is set once it has fired (or was dropped)."""

    id: int
    game_id: int
    kind: str
    seat: int | None
    version: int
    due_at: float
    data: dict[str, Any]
    claimed_by: str | None
    claimed_until: float | None
    fired_at: float | None
    created_at: float


@dataclass(frozen=True, slots=True)
class TurnMark:
    """The turn a running game was last seen at: the version, the seat to act and since when it acts."""

    game_id: int
    version: int
    seat: int | None
    started_at: float
    acted_at: float


@dataclass(frozen=True, slots=True)
class ServerTally:
    """A server's record in one game, counted by the store: finished games, the shortest and the longest
    (their moves and ids: fewest moves then the older id, most moves then the newer id) and the people with
    the most wins (``leaders``: (user id, wins), at most three, most wins first; ``leader_names``: the name each
    won under, the first in the alphabet when several)."""

    game_key: str
    games: int
    shortest_moves: int
    shortest_game: int
    longest_moves: int
    longest_game: int
    leaders: tuple[tuple[int, int], ...] = ()
    leader_names: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PlayerTally:
    """A person's record in one game, counted by the store: games played and won, the sum of their places,
    their best game (best place, then fewest moves, then the newest), their longest (most moves, then the
    newest), and the name and time of their newest result."""

    game_key: str
    played: int
    won: int
    places: int
    best_place: int
    best_moves: int
    best_game: int
    longest_moves: int
    longest_game: int
    name: str
    last_at: float

    @property
    def average(self) -> float:
        """The average place."""
        return self.places / self.played if self.played else 0.0


#: a championship's statuses: its rounds are being run, or its host ended it
CHAMPIONSHIP_RUNNING, CHAMPIONSHIP_ENDED = "running", "ended"


@dataclass(frozen=True, slots=True)
class Championship:
    """A series of games of one game in a channel, scored by places: its ``rounds`` (each round's setup
    options, as the lobby takes them), the ``points`` of each place, its ``options`` (``drop_worst``,
    ``lead_bonus``) and its ``status``. Which game is which round the store keeps beside it; the places come
    from the games' results."""

    id: int
    guild_id: int | None
    channel_id: int
    host_id: int
    name: str
    game_key: str
    rounds: tuple[dict[str, Any], ...]
    points: tuple[int, ...]
    options: dict[str, Any]
    status: str
    created_at: float
