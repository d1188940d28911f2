"""The record of finished games, for every game alike: the end of a game (its results stored, the final
standings and the animated replay posted), the channel's history, replays of finished games, players'
and servers' statistics, and a player's running games across servers.

A game's end is written once: :func:`record_end` stores one result row per seat and, in the same
transaction, the delivery record of the end message (standings and replay), which the outbox posts a
moment after the final board. Nothing here knows about Discord or about any one game: places come from
the game unit's standings, pictures from its replay hook.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.games import GameFront
from bot.store import ACTIVE, FINISHED, Delivery, GameRecord, Outgoing, Result
from rules.contract import Game

if TYPE_CHECKING:
    from bot.service import Reply, Service

log = logging.getLogger(__name__)

#: the largest replay posted (Discord's smallest upload limit)
MAX_REPLAY_BYTES = 8_000_000
#: replay sizes tried in turn until the GIF fits (None: the game's own size)
REPLAY_SIZES: tuple[int | None, ...] = (None, 10, 8)
#: seconds after the final board at which the end message falls due (the board goes first)
END_DELAY = 2.0
#: an end left unrecorded by a stop is still announced when it is at most this many seconds old
FRESH_END = 3600.0
#: games listed by ``/game history`` and offered by the replay autocomplete
HISTORY_LIMIT = 10

#: the time now (tests set a fake clock)
clock: Callable[[], float] = time.time

#: A jump link to a game's channel (and its newest board message, when known): (game, message id) → text
Linker = Callable[[GameRecord, int | None], str]


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def span(seconds: float) -> str:
    """A waiting time in words: ``45 min``, ``3 h 20 min``, ``2 d 4 h``."""
    minutes = max(0, int(seconds // 60))
    if minutes < 60:
        return f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    if hours < 24:
        return f"{hours} h {minutes} min" if minutes else f"{hours} h"
    days, hours = divmod(hours, 24)
    return f"{days} d {hours} h" if hours else f"{days} d"


def places(front: GameFront, game: Game) -> list[tuple[int, int]]:
    """(seat, place) in finishing order: the winners share first place, the others follow the standings."""
    won = set(game.winners)
    order = [seat for seat, _ in front.standings(game).rows]
    order += [s for s in range(len(game.seat_names)) if s not in order]
    return [(seat, 1 if seat in won else i + 1) for i, seat in enumerate(order)]


def standings_text(front: GameFront, game: Game, rec: GameRecord) -> str:
    """The final table as lines: place, player, the game's own columns."""
    table = front.standings(game)
    place = dict(places(front, game))
    lines = [f"**{front.title}: final standings** after {rec.version} moves"]
    for seat, cells in table.rows:
        who = rec.seats[seat].name if seat < len(rec.seats) else game.seat_names[seat]
        rest = [f"{h.lower()} {c}" for h, c in zip(table.head[1:], cells[1:], strict=False) if c]
        mark = " 🏆" if seat in game.winners else ""
        lines.append(f"{ordinal(place[seat])} {who}{mark}" + (f" ({', '.join(rest)})" if rest else ""))
    return "\n".join(lines)


# The end of a game -----------------------------------------------------------------------------------


async def record_end(service: Service, rec: GameRecord, game: Game, *, announce: bool = True) -> int | None:
    """Store a finished game's results and (``announce``) its end message, once; the delivery record's id,
    or None when none was written."""
    if rec.status != FINISHED or not game.is_over:
        return None
    front = service.fronts(rec.game_key)
    first = await service.store.actions(rec.id, limit=1)
    started = first[0].at if first else rec.created_at
    rows = [Result(rec.id, seat, rec.seats[seat].user_id, rec.seats[seat].name, place, seat in game.winners,
                   rec.version, rec.game_key, rec.guild_id, rec.channel_id, started, rec.updated_at)
            for seat, place in places(front, game) if seat < len(rec.seats)]
    out = Outgoing({"lines": [standings_text(front, game, rec)], "board": False, "finale": True},
                   due_at=clock() + END_DELAY) if announce else None
    if not await service.store.record_results(rec.id, rows, out):
        return None
    return out.id if out is not None else None


#: finished games read at a time when settling the ends a stop left unrecorded
SETTLE_PAGE = 20


async def settle_ends(service: Service, *, fresh: float = FRESH_END) -> int:
    """Record the ends a stop left unrecorded (the final move was stored, its results not yet); only games
    that ended within ``fresh`` seconds still get their end message, older ones (stored before results
    were kept) only their results. Returns how many games were settled. The games are read a page at a
    time, so thousands of them neither stall the event loop nor sit in memory at once."""
    settled = 0
    tried: set[int] = set()  # games that stay unrecorded after their try come first in every page
    limit = SETTLE_PAGE
    while True:
        rows = await service.store.unrecorded_ends(limit=limit)
        page = [r for r in rows if r.id not in tried]
        if not page:
            if len(rows) < limit:
                return settled
            limit += SETTLE_PAGE
            continue
        limit = len(rows) - len(page) + SETTLE_PAGE
        for rec in page:
            tried.add(rec.id)
            try:
                game = service.classes(rec.game_key).from_dict(rec.state or {})
                await record_end(service, rec, game, announce=clock() - rec.updated_at <= fresh)
            except Exception:  # a game that no longer loads keeps no results; the others go on
                log.exception("game %s: its end could not be recorded", rec.id)
                continue
            settled += 1
            await asyncio.sleep(0)  # let interactions in between


async def finale_reply(service: Service, d: Delivery) -> Reply:
    """The end message of a delivery record: the standings, with the replay when the game draws one."""
    from bot.service import Reply

    text = "\n".join(d.payload.get("lines", []))
    gif, note = None, ""
    if d.game_id is not None:
        rec = await service.store.get_game(d.game_id)
        gif, note = await replay_gif(service, rec)
    return Reply(text + note, png=gif, filename=f"replay-{d.game_id}.gif", game_id=d.game_id, version=d.version,
                 changed=True, delivery=d.id, channel_id=d.channel_id)


async def replay_gif(service: Service, rec: GameRecord) -> tuple[bytes | None, str]:
    """The game's animated replay, smaller until it fits :data:`MAX_REPLAY_BYTES`; and a note when there is
    none to post."""
    front = service.fronts(rec.game_key)
    if not front.has_replay:
        return None, ""
    actions = [a.action for a in await service.store.actions(rec.id)]
    try:
        gif = await asyncio.to_thread(_fitting_gif, front, rec, actions)
    except Exception:  # a replay is a nicety; the record stands without it
        log.exception("the replay of game %s failed", rec.id)
        return None, "\n(The replay could not be drawn.)"
    if gif is None:
        return None, "\n(The replay is too large to post, even drawn small.)"
    return gif, ""


def _fitting_gif(front: GameFront, rec: GameRecord, actions: Sequence[str]) -> bytes | None:
    for size in REPLAY_SIZES:
        made = front.replay(rec.setup, rec.seed, actions, size)
        if made is None:
            return None
        if len(made[0]) <= MAX_REPLAY_BYTES:
            return made[0]
    return None


# History, replays and statistics ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Finished:
    """A finished game as its results tell it."""

    game_id: int
    game_key: str
    finished_at: float
    moves: int
    seats: list[Result]

    @property
    def winners(self) -> list[str]:
        return [r.name for r in self.seats if r.winner]

    def line(self, title: str) -> str:
        players = ", ".join(r.name for r in self.seats)
        won = ", ".join(self.winners) or "nobody"
        return (f"#{self.game_id} · <t:{int(self.finished_at)}:d> · {title} · {players} · won by {won} · "
                f"{self.moves} moves")

    def label(self, title: str) -> str:
        """A line without markup (autocomplete shows plain text)."""
        day = time.strftime("%Y-%m-%d", time.gmtime(self.finished_at))
        return f"#{self.game_id} {day} {title}: {', '.join(r.name for r in self.seats)}, won by " \
               f"{', '.join(self.winners) or 'nobody'}"


def finished(rows: Sequence[Result]) -> list[Finished]:
    """Result rows grouped by game, newest first."""
    games: dict[int, list[Result]] = {}
    for r in rows:
        games.setdefault(r.game_id, []).append(r)
    out = [Finished(gid, rs[0].game_key, rs[0].finished_at, rs[0].moves, sorted(rs, key=lambda r: (r.place, r.seat)))
           for gid, rs in games.items()]
    return sorted(out, key=lambda f: (-f.finished_at, -f.game_id))


def _title(service: Service, key: str) -> str:
    try:
        return service.classes(key).title
    except KeyError:
        return key


async def channel_finished(service: Service, channel_id: int, limit: int = HISTORY_LIMIT) -> list[Finished]:
    return finished(await service.store.results(channel_id=channel_id, limit=limit * 8))[:limit]


async def history(service: Service, channel_id: int, limit: int = HISTORY_LIMIT) -> Reply:
    """The channel's finished games, newest first: date, game, players, winner, moves."""
    from bot.service import Reply

    games = await channel_finished(service, channel_id, limit)
    if not games:
        return Reply("No finished games in this channel yet.", ephemeral=True)
    lines = ["**Finished games in this channel** (newest first; `/game replay` shows one again):"]
    lines += [g.line(_title(service, g.game_key)) for g in games]
    return Reply("\n".join(lines), ephemeral=True)


async def replay_choices(service: Service, channel_id: int, current: str) -> list[tuple[str, str]]:
    """(label, game id) of the channel's finished games matching what was typed."""
    cur = current.strip().lower().lstrip("#")
    out = []
    for g in await channel_finished(service, channel_id, 25):
        label = g.label(_title(service, g.game_key))
        if not cur or cur in label.lower():
            out.append((label[:100], str(g.game_id)))
    return out


async def replay(service: Service, channel_id: int, game_text: str) -> Reply:
    """The replay and final standings of one of the channel's finished games, for everyone."""
    from bot.service import Reply, refuse

    digits = game_text.strip().lstrip("#").split(" ")[0]
    known = await channel_finished(service, channel_id, 25)
    if not digits.isdigit():
        return refuse(f"`{game_text[:40]}` is not a game number; choose one of the channel's finished games "
                      f"(`/game history` lists them).")
    game_id = int(digits)
    rows = await service.store.results(game_id=game_id)
    if not rows or rows[0].channel_id != channel_id:
        numbers = ", ".join(f"#{g.game_id}" for g in known) or "none yet"
        return refuse(f"Game #{game_id} is not a finished game of this channel. Finished here: {numbers}.")
    rec = await service.store.get_game(game_id)
    game = service.classes(rec.game_key).from_dict(rec.state) if rec.state is not None else None
    front = service.fronts(rec.game_key)
    text = standings_text(front, game, rec) if game is not None else f"{front.title} #{game_id}"
    gif, note = await replay_gif(service, rec)
    if gif is None and not note:
        note = f"\n({front.title} has no animated replays.)"
    return Reply(f"Replay of game #{game_id}\n{text}{note}", png=gif, filename=f"replay-{game_id}.gif",
                 game_id=game_id)


def _record_lines(rows: Sequence[Result], service: Service) -> list[str]:
    """One player's record, per game: played, won, average place, best and longest games."""
    lines = []
    by_game: dict[str, list[Result]] = {}
    for r in rows:
        by_game.setdefault(r.game_key, []).append(r)
    for key, rs in sorted(by_game.items()):
        won = sum(r.winner for r in rs)
        avg = sum(r.place for r in rs) / len(rs)
        best = min(rs, key=lambda r: (r.place, r.moves, -r.game_id))
        longest = max(rs, key=lambda r: (r.moves, r.game_id))
        lines.append(f"**{_title(service, key)}**: played {len(rs)}, won {won}, average place {avg:.1f}; best: "
                     f"{ordinal(best.place)} in {best.moves} moves (#{best.game_id}); longest: "
                     f"{longest.moves} moves (#{longest.game_id})")
    return lines


def _server_lines(rows: Sequence[Result], service: Service) -> list[str]:
    """A server's record, per game: games finished, the most wins, the shortest and longest games."""
    lines = []
    by_game: dict[str, list[Finished]] = {}
    for g in finished(rows):
        by_game.setdefault(g.game_key, []).append(g)
    for key, games in sorted(by_game.items()):
        wins: dict[tuple[int, str], int] = {}
        for g in games:
            for r in g.seats:
                if r.winner and r.user_id > 0:
                    wins[(r.user_id, r.name)] = wins.get((r.user_id, r.name), 0) + 1
        shortest = min(games, key=lambda g: (g.moves, g.game_id))
        longest = max(games, key=lambda g: (g.moves, g.game_id))
        top = sorted(wins.items(), key=lambda kv: (-kv[1], kv[0][1]))[:3]
        leaders = ", ".join(f"<@{uid}> {n}" for (uid, _), n in top) or "nobody yet"
        lines.append(f"**{_title(service, key)}**: {len(games)} finished; most wins: {leaders}; shortest: "
                     f"{shortest.moves} moves (#{shortest.game_id}); longest: {longest.moves} moves "
                     f"(#{longest.game_id})")
    return lines


async def stats(service: Service, guild_id: int | None, player_id: int | None, *, asker_id: int) -> Reply:
    """``player_id``'s record per game on this server (everywhere, in a direct message), or the server's
    record when no player is named in a server."""
    from bot.service import Reply

    if player_id is None and guild_id is not None:
        rows = await service.store.results(guild_id=guild_id)
        if not rows:
            return Reply("No finished games on this server yet.", ephemeral=True)
        return Reply("\n".join(["**This server's games**", *_server_lines(rows, service)]), ephemeral=True)
    who = player_id if player_id is not None else asker_id
    rows = await service.store.results(user_id=who, guild_id=guild_id)
    where = "on this server" if guild_id is not None else "on all servers"
    if not rows:
        return Reply(f"<@{who}> has no finished games {'on this server ' if guild_id is not None else ''}yet.",
                     ephemeral=True)
    return Reply("\n".join([f"**<@{who}>'s record {where}**", *_record_lines(rows, service)]), ephemeral=True)


# A player's games across servers ---------------------------------------------------------------------


async def mine(service: Service, user_id: int, link: Linker, *, now: float | None = None) -> Reply:
    """The running games where ``user_id`` has a seat: first those where it is their turn, longest waiting
    first, each with a jump link and how long it has waited; then those waiting on others."""
    from bot.service import Reply, may_act

    now = clock() if now is None else now
    mine_: list[tuple[float, str]] = []
    others: list[tuple[float, str]] = []
    for rec in await service.store.games_of_user(user_id, ACTIVE):
        seat = rec.seat_of(user_id)
        if seat is None or rec.state is None:
            continue
        game = await service.load(rec)
        since = await _turn_since(service, rec, game.to_act)
        posted = await service.store.posted_messages(rec.id, limit=1)
        jump = link(rec, posted[0] if posted else None)
        title = _title(service, rec.game_key)
        if may_act(game, seat):
            mine_.append((since, f"{title} (move {rec.version}): your turn for {span(now - since)} · {jump}"))
        else:
            turn = game.to_act
            who = rec.seats[turn].name if turn is not None and turn < len(rec.seats) else "nobody"
            others.append((since, f"{title} (move {rec.version}): waiting on {who} for {span(now - since)} · {jump}"))
    if not mine_ and not others:
        return Reply("You have no running games. `/game new` opens one in a channel.", ephemeral=True)
    lines = []
    if mine_:
        lines.append("**Your turn:**")
        lines += [f"- {text}" for _, text in sorted(mine_)]
    else:
        lines.append("It is your turn in none of your games.")
    if others:
        lines.append("**Waiting on others:**")
        lines += [f"- {text}" for _, text in sorted(others)]
    return Reply("\n".join(lines), ephemeral=True)


async def _turn_since(service: Service, rec: GameRecord, seat: int | None) -> float:
    """Since when the game has waited for its player to act: the timing's mark of the turn when it is of
    this move, else the last change of the game."""
    mark: Any = None
    try:
        mark = await service.store.turn_mark(rec.id)
    except Exception:  # a store without turn marks
        mark = None
    if mark is not None and mark.version == rec.version and mark.seat == seat:
        return float(mark.started_at)
    return rec.updated_at


__all__ = ["MAX_REPLAY_BYTES", "Finished", "finale_reply", "history", "mine", "record_end", "replay",
           "replay_choices", "stats"]
