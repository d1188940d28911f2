"""What a store offers, split by concern into small interfaces: games and their actions (``store.games``),
the delivery records of public messages (``store.outbox``), turns and timers (``store.turns``), settings
(``store.settings``) and results (``store.standings``). A :class:`Store` holds one of each, opens and closes
the database, narrows its work to some shards and copies its rows. Each backend implements every part over
its own connection (:mod:`bot.store.sqlite`, :mod:`bot.store.postgres`); the contract tests run on both."""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Collection, Mapping, Sequence
from typing import Any, Protocol

from bot.store.records import (
    ACTIVE,
    EVERLASTING,
    OPEN_STATUSES,
    ActionRecord,
    Championship,
    Delivery,
    GameRecord,
    MoveRead,
    NewTimer,
    Outgoing,
    PlayerTally,
    Rating,
    RatingChange,
    Result,
    Season,
    Seat,
    ServerTally,
    SettingKey,
    SettingsWrite,
    Timer,
    TurnMark,
)
from bot.store.sql import COPY_TABLES


class GamesStore(ABC):
    """Games, their seats and snapshots, and their action logs:
    the part of a store that keeps them (``store.games``)."""

    @abstractmethod
    async def create_game(self, *, guild_id: int | None, channel_id: int, game_key: str, host_id: int,
                          setup: dict[str, Any], seed: int, seats: Sequence[Seat] = (), lang: str = "en",
                          outgoing: Sequence[Outgoing] = ()) -> GameRecord:
        """A new game in the lobby, with ``outgoing``'s delivery records; raises :class:`ChannelBusy` if the
        channel has an open game."""

    @abstractmethod
    async def get_game(self, game_id: int) -> GameRecord:
        """Any game by id (finished ones too); raises :class:`GameNotFound`."""

    @abstractmethod
    async def channel_game(self, channel_id: int) -> GameRecord | None:
        """The channel's open game (lobby or running), if any."""

    @abstractmethod
    async def open_games(self, status: str = ACTIVE) -> list[GameRecord]:
        """Every game with ``status`` (default: running), oldest first."""

    @abstractmethod
    async def channel_history(self, channel_id: int, limit: int = 10) -> list[GameRecord]:
        """The channel's games, newest first."""

    @abstractmethod
    async def update_lobby(self, game_id: int, *, seats: Sequence[Seat], setup: dict[str, Any] | None = None,
                           host_id: int | None = None, expected_seats: Sequence[Seat] | None = None,
                           outgoing: Sequence[Outgoing] = ()) -> GameRecord:
        """Change a lobby's seats (and setup or host), with ``outgoing``'s delivery records; raises
        :class:`StaleVersion` if the game left the lobby or, when ``expected_seats`` is given, its seats are no
        longer those."""

    @abstractmethod
    async def set_host(self, game_id: int, host_id: int) -> None:
        """Hand the host role of an open game to ``host_id``."""

    @abstractmethod
    async def replace_seats(self, game_id: int, *, version: int, seats: Sequence[Seat],
                            expected_seats: Sequence[Seat], outgoing: Sequence[Outgoing] = (),
                            computers_waiting: bool = False) -> GameRecord:
        """Change who sits where in a running game at ``version`` (a person handing over to a computer)."""

    @abstractmethod
    async def start_game(self, game_id: int, *, setup: dict[str, Any], seats: Sequence[Seat],
                         state: dict[str, Any], status: str = ACTIVE, outgoing: Sequence[Outgoing] = (),
                         computers_waiting: bool = False) -> GameRecord:
        """Lobby → running with the initial state at version 0; ``seats`` must still be the lobby's seats."""

    @abstractmethod
    async def append_action(self, game_id: int, *, expected_version: int, seat: int | None, user_id: int | None,
                            action: str, state: dict[str, Any], status: str = ACTIVE,
                            narration: str = "", outgoing: Sequence[Outgoing] = (),
                            computers_waiting: bool = False, settings: Sequence[SettingsWrite] = ()) -> GameRecord:
        """Record one action and the new snapshot in one transaction (compare-and-swap on version), with
        ``outgoing``'s delivery records, whether a computer (or a player's plan) is to act next (the resume
        queue), and ``settings`` rows put alongside (all of it, or nothing)."""

    @abstractmethod
    async def set_status(self, game_id: int, status: str, *, from_statuses: Sequence[str] = OPEN_STATUSES,
                         outgoing: Sequence[Outgoing] = ()) -> GameRecord:
        """Change status (abort, finish); raises :class:`StaleVersion` if the game is not in ``from_statuses``."""

    @abstractmethod
    async def take_back(self, game_id: int, *, expected_version: int, count: int, state: dict[str, Any],
                        outgoing: Sequence[Outgoing] = ()) -> GameRecord:
        """Drop the last ``count`` actions of a running game at ``expected_version`` and store ``state``."""

    @abstractmethod
    async def actions(self, game_id: int, since: int = 0, limit: int | None = None) -> list[ActionRecord]:
        """The action log from index ``since`` on, in order."""

    @abstractmethod
    async def games_of_user(self, user_id: int, status: str = ACTIVE) -> list[GameRecord]:
        """The games with ``status`` in which ``user_id`` has a seat, across servers, oldest first."""

    @abstractmethod
    async def waiting_on_computers(self) -> list[tuple[int, int]]:
        """(game id, channel id) of every running game whose next move is a computer's, oldest first."""


class OutboxStore(ABC):
    """The delivery records of public messages, claimed and delivered once:
    the part of a store that keeps them (``store.outbox``)."""

    @abstractmethod
    async def claim_deliveries(self, owner: str, *, now: float, lease: float, limit: int = 50,
                               takeover: bool = False, min_channel_id: int | None = None) -> list[Delivery]:
        """Undelivered records due by ``now`` that nobody holds (or whose hold expired; with ``takeover``,
        held by any other owner too), in order, now held by ``owner`` for ``lease`` seconds."""

    @abstractmethod
    async def claim_delivery(self, delivery_id: int, owner: str, *, now: float, lease: float) -> Delivery | None:
        """Record ``delivery_id`` when it is undelivered, due by ``now`` and nobody holds it (or its hold
        expired), now held by ``owner`` for ``lease`` seconds; None otherwise."""

    @abstractmethod
    async def mark_delivered(self, delivery_id: int, message_id: int | None) -> bool:
        """Record the posted message; False if the record was already delivered (nothing changes then)."""

    @abstractmethod
    async def release_delivery(self, delivery_id: int, *, due_at: float) -> None:
        """Give a record back after a failed attempt, to be tried again from ``due_at``."""

    @abstractmethod
    async def deliveries(self, *, game_id: int | None = None, channel_id: int | None = None,
                         pending: bool = False) -> list[Delivery]:
        """Delivery records (of one game, of one channel; only undelivered ones), in order."""

    @abstractmethod
    async def delivery(self, delivery_id: int) -> Delivery | None:
        """One delivery record by id (None when there is none)."""

    @abstractmethod
    async def latest_delivery(self, game_id: int) -> Delivery | None:
        """A game's newest record of a turn's message, a ``post`` or an ``edit`` (None when it has none)."""

    @abstractmethod
    async def posted_messages(self, game_id: int, *, after_version: int = -1, limit: int = 20) -> list[int]:
        """Ids of the posted messages of a game's delivery records past ``after_version``, newest first."""

    @abstractmethod
    async def add_deliveries(self, game_id: int, outgoing: Sequence[Outgoing]) -> None:
        """Store delivery records of a game that go with no other write (a board someone asked to show)."""


class TurnsStore(ABC):
    """The turn each running game was last seen at, and its timers:
    the part of a store that keeps them (``store.turns``)."""

    @abstractmethod
    async def unmarked_turns(self, limit: int = 100) -> list[GameRecord]:
        """Running games whose turn the timing has not seen yet (no mark, or a mark at another version)."""

    @abstractmethod
    async def turn_mark(self, game_id: int) -> TurnMark | None:
        """Where the timing last saw the game's turn."""

    @abstractmethod
    async def mark_turn(self, game_id: int, *, version: int, seat: int | None, started_at: float,
                        timers: Sequence[NewTimer]) -> None:
        """In one transaction: the game's turn is seen at ``version``; its pending timers are replaced by
        ``timers``."""

    @abstractmethod
    async def claim_timers(self, owner: str, *, now: float, lease: float, limit: int = 50,
                           takeover: bool = False) -> list[Timer]:
        """Pending timers due by ``now`` that nobody holds (``takeover``: also held by another owner), held by
        ``owner`` for ``lease`` seconds."""

    @abstractmethod
    async def next_due(self) -> float | None:
        """The earliest time a pending timer may be claimed (its due time, or the end of its hold when that is
        later); None when none is pending."""

    @abstractmethod
    async def finish_timer(self, timer_id: int, *, then: NewTimer | None = None) -> bool:
        """Mark a timer fired (False if it already was) and schedule ``then`` in the same transaction."""

    @abstractmethod
    async def timers(self, *, game_id: int | None = None, pending: bool = False) -> list[Timer]:
        """Timers (of one game; only pending ones), in order."""


class SettingsStore(ABC):
    """Settings of games, servers and users:
    the part of a store that keeps them (``store.settings``)."""

    @abstractmethod
    async def get_settings(self, scope: str, owner: int, target: int = 0) -> dict[str, Any]:
        """The settings of ``scope`` (game, server, user) for ``owner`` (and ``target``); {} when none."""

    @abstractmethod
    async def settings_of(self, keys: Sequence[tuple[str, int, int]]) -> list[dict[str, Any]]:
        """The settings of each (scope, owner, target) in ``keys``, in their order ({} where none), in one
        read: a move asks for several at once (a player's plan and their choices)."""

    @abstractmethod
    async def put_settings(self, scope: str, owner: int, target: int, data: dict[str, Any]) -> None:
        """Replace the settings of ``scope`` for ``owner`` and ``target``."""

    @abstractmethod
    async def all_settings(self, scope: str) -> list[tuple[int, int, dict[str, Any]]]:
        """Every (owner, target, settings) of ``scope``."""


class StandingsStore(ABC):
    """Finished games' results, the ratings they made (per server, game and season) and the seasons:
    the part of a store that keeps them (``store.standings``)."""

    @abstractmethod
    async def record_results(self, game_id: int, rows: Sequence[Result], outgoing: Sequence[Outgoing] = (),
                             ratings: Sequence[Rating] = (), changes: Sequence[RatingChange] = ()) -> bool:
        """Store a finished game's results (once), with ``outgoing``'s delivery records, the players' new
        ``ratings`` and the ``changes`` that led there, in one transaction. Each rating is a successor: its
        ``games`` is one more than the stored row's (none stored: 1), else nothing is written and
        :class:`StaleRating` is raised (another game moved that rating meanwhile: read again)."""

    @abstractmethod
    async def ratings(self, guild_id: int, game_key: str | None = None, season_id: int = EVERLASTING, *,
                      user_id: int | None = None, limit: int = 1000) -> list[Rating]:
        """A server's ratings in a season (of one game, of one user), best first (the conservative rating)."""

    @abstractmethod
    async def rating_history(self, guild_id: int, game_key: str, season_id: int, user_id: int,
                             limit: int = 500) -> list[RatingChange]:
        """How a person's rating in a game and season moved, oldest game first (the newest ``limit``)."""

    @abstractmethod
    async def game_changes(self, game_id: int) -> list[RatingChange]:
        """The rating changes one finished game made."""

    @abstractmethod
    async def seasons(self, guild_id: int) -> list[Season]:
        """A server's seasons (not the everlasting one), newest first."""

    @abstractmethod
    async def start_season(self, guild_id: int, name: str, *, at: float, by: int) -> Season:
        """Start a season at ``at``; raises :class:`SeasonRunning` when one is running."""

    @abstractmethod
    async def end_season(self, guild_id: int, *, at: float) -> Season | None:
        """End the running season at ``at``; None when none runs."""

    @abstractmethod
    async def replace_ratings(self, guild_id: int, season_id: int, ratings: Sequence[Rating],
                              changes: Sequence[RatingChange]) -> None:
        """Replace a server's ratings and changes of one season (a rebuild from the results), at once."""

    @abstractmethod
    async def results(self, *, game_id: int | None = None, user_id: int | None = None,
                      guild_id: int | None = None, channel_id: int | None = None, limit: int = 10_000
                      ) -> list[Result]:
        """Result rows matching every filter given, newest game first."""

    @abstractmethod
    async def server_record(self, guild_id: int) -> list[ServerTally]:
        """A server's record per game (by game key), counted over all its results."""

    @abstractmethod
    async def player_record(self, user_id: int, guild_id: int | None = None) -> list[PlayerTally]:
        """A person's record per game (by game key) on one server, or everywhere (``guild_id`` None)."""

    @abstractmethod
    async def ladder(self, guild_id: int, season_id: int = EVERLASTING, size: int = 10) -> list[Rating]:
        """The people a server's ladders of a season show: the best ``size`` of each game (computers left
        out), by game key, then best first."""

    @abstractmethod
    async def ranks(self, guild_id: int, season_id: int, user_id: int) -> dict[str, tuple[int, int]]:
        """A person's rank on each game's ladder of a season (computers left out) and how many people it has:
        game key → (rank, of)."""

    @abstractmethod
    async def unrecorded_ends(self, limit: int = 50) -> list[GameRecord]:
        """Finished games whose results are not stored yet (the process stopped in between), oldest first."""


class ChampionshipsStore(ABC):
    """Championships and which game is which of their rounds (the places are the games' results):
    the part of a store that keeps them (``store.championships``)."""

    @abstractmethod
    async def create_championship(self, *, guild_id: int | None, channel_id: int, host_id: int, name: str,
                                  game_key: str, rounds: Sequence[Mapping[str, Any]], points: Sequence[int],
                                  options: Mapping[str, Any]) -> Championship:
        """A new running championship; raises :class:`ChampionshipRunning` when the channel has one."""

    @abstractmethod
    async def championship(self, championship_id: int) -> Championship | None:
        """A championship by id (None: none)."""

    @abstractmethod
    async def running_championship(self, channel_id: int) -> Championship | None:
        """The channel's running championship, if any."""

    @abstractmethod
    async def latest_championship(self, channel_id: int) -> Championship | None:
        """The channel's newest championship, running or ended, if any."""

    @abstractmethod
    async def running_championships(self) -> list[Championship]:
        """Every running championship, the oldest first (the rounds that open on a schedule are looked for
        among them)."""

    @abstractmethod
    async def end_championship(self, championship_id: int) -> bool:
        """Mark a running championship ended; False when it was not running."""

    @abstractmethod
    async def set_round(self, championship_id: int, number: int, game_id: int) -> None:
        """Round ``number`` (1 is the first) is played as ``game_id`` (a round opened again replaces its game)."""

    @abstractmethod
    async def round_games(self, championship_id: int) -> list[tuple[int, int]]:
        """(round number, game id) of every round opened so far, in round order."""

    @abstractmethod
    async def championship_of_game(self, game_id: int) -> tuple[Championship, int] | None:
        """The championship a game is a round of, and the round's number (None: none)."""


class SettingsReader(Protocol):
    """Where settings rows are read from: the store's settings, or rows read ahead with a move."""

    async def get_settings(self, scope: str, owner: int, target: int = 0) -> dict[str, Any]: ...

    async def settings_of(self, keys: Sequence[tuple[str, int, int]]) -> list[dict[str, Any]]: ...


class Reads(Protocol):
    """What a move's helpers read: settings rows and the store's time (a :class:`Store` is one; so are the rows
    a move read ahead, :class:`bot.store.Preread`)."""

    @property
    def settings(self) -> SettingsReader: ...

    def now(self) -> float: ...


class Store(ABC):
    """A database of games: its parts by concern, and what concerns the whole (opening, shards, copying)."""

    games: GamesStore
    outbox: OutboxStore
    turns: TurnsStore
    settings: SettingsStore
    standings: StandingsStore
    championships: ChampionshipsStore
    #: (shard count, the shards served) once :meth:`set_shards` narrowed the store; None serves every game
    _shards: tuple[int, tuple[int, ...]] | None = None
    #: where the times the store writes come from (a backend takes it as its ``clock``)
    _clock: Callable[[], float]

    def now(self) -> float:
        """The store's time in seconds since the epoch: the clock the times of its rows come from."""
        return self._clock()

    async def __aenter__(self) -> Store:
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @abstractmethod
    async def open(self) -> None: ...

    @abstractmethod
    async def close(self) -> None: ...

    async def read_move(self, channel_id: int, keys: Callable[[GameRecord], Sequence[SettingKey]]) -> MoveRead:
        """Everything a move in the channel reads, at once: its open game, the game's newest turn record, the
        channel's undelivered records and the settings rows ``keys(game)`` names. The backends read it in one
        trip; this way, through the parts, serves any other store."""
        game = await self.games.channel_game(channel_id)
        if game is None:
            return MoveRead(None)
        wanted = list(dict.fromkeys(keys(game)))
        rows = await self.settings.settings_of(wanted)
        pending = await self.outbox.deliveries(channel_id=channel_id, pending=True)
        return MoveRead(game, await self.outbox.latest_delivery(game.id), tuple(d.id for d in pending),
                        dict(zip(wanted, rows, strict=True)))

    async def changes(self, watched: Callable[[], Collection[int]], *, every: float = 1.0
                      ) -> AsyncGenerator[Collection[int] | None, None]:
        """What other connections (other processes) changed of the games ``watched()`` names, as they commit:
        the ids of games that may have changed, or None when every watched game is to be read again (at the
        start, and when the store may have missed something). Endless; close it (``contextlib.aclosing``) to
        stop. Writes through this very object may be told too. A backend that cannot tell says None every
        ``every`` seconds (this default); PostgreSQL is told by ``NOTIFY``, SQLite looks every ``every``
        seconds at what changed, reading nothing when nothing was committed."""
        while True:
            await asyncio.sleep(every)
            yield None

    @abstractmethod
    async def schema_version(self) -> int:
        """The number of migrations the open database has had."""

    def set_shards(self, count: int, ids: Sequence[int] | None = None) -> None:
        """Serve only the games of shards ``ids`` out of ``count`` (None: all of them): from now on the
        queries that find work (:meth:`open_games`, :meth:`waiting_on_computers`, :meth:`claim_deliveries`,
        :meth:`claim_timers`, :meth:`unmarked_turns`, :meth:`unrecorded_ends`) return those games only.
        A game's shard is its server's (:func:`shard_of`)."""
        if count < 1:
            raise ValueError(f"a shard count is at least 1, not {count}")
        chosen = tuple(sorted({int(i) for i in ids})) if ids is not None else tuple(range(count))
        if not chosen or chosen[0] < 0 or chosen[-1] >= count:
            raise ValueError(f"shard ids must lie in 0..{count - 1}, not {list(ids or [])}")
        self._shards = None if len(chosen) == count else (int(count), chosen)

    @property
    def shards(self) -> tuple[int, tuple[int, ...]] | None:
        """(shard count, shards served), or None when the store serves every game."""
        return self._shards

    def _shard_sql(self, guild: str) -> str:
        """`` AND …`` keeping rows whose server (the SQL expression ``guild``) is in a served shard; ''."""
        if self._shards is None:
            return ""
        count, ids = self._shards
        return f" AND ((COALESCE({guild}, 0) >> 22) % {count}) IN ({', '.join(str(i) for i in ids)})"

    @staticmethod
    def _guild_of(game_id: str) -> str:
        """The SQL expression of the server of the game whose id is the SQL expression ``game_id``."""
        return f"(SELECT sg.guild_id FROM games sg WHERE sg.id = {game_id})"

    def tables(self) -> list[str]:
        """The tables a copy moves, referenced tables before those referring to them."""
        return list(COPY_TABLES)

    @abstractmethod
    def rows(self, table: str, *, batch: int = 1000) -> AsyncIterator[dict[str, Any]]:
        """Every row of ``table`` as a dict of its columns, in primary key order, read ``batch`` at a time."""

    @abstractmethod
    async def insert_rows(self, table: str, rows: Sequence[dict[str, Any]]) -> int:
        """Insert rows as :meth:`rows` gives them, primary keys kept, in one transaction; later new rows get
        keys past them. Returns how many were inserted."""

    async def rewrite_rows(self, updates: Mapping[str, Sequence[dict[str, Any]]],
                           deletes: Mapping[str, Sequence[dict[str, Any]]]) -> int:
        """In one transaction: set every column of each row in ``updates`` (found by its table's primary key
        in :data:`COPY_TABLES`) to the values given, and delete each row of ``deletes`` (its primary key's
        columns given). For rewrites of a person's data (``junkyard forget``); returns the rows changed."""
        raise NotImplementedError


__all__ = ["ChampionshipsStore", "GamesStore", "OutboxStore", "Reads", "SettingsReader", "SettingsStore",
           "StandingsStore", "Store", "TurnsStore"]
