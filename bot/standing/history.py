"""The record of finished games, for every game alike: the end of a game (its results stored, the final
standings and the animated replay posted), the channel's history, replays of finished games, players'
and servers' statistics, and a player's running games across servers.

A game's end is written once: :func:`record_end` stores one result row per seat and, in the same
transaction, the delivery record of the end message (standings and replay) and, when the game is a
championship's round, of the championship's table after it (:mod:`bot.standing.series`), which the outbox posts after
the final board (a channel's records reach it in the order they were stored, :mod:`bot.telling.delivery`), before
anything a next game of the channel says. Nothing here knows about Discord or about any one game: places come from
the game unit's standings, pictures from its replay hook.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from bot import texts
from bot.games import GameUnit
from bot.messages import NOTE, Line, Showing
from bot.standing import ladder, series
from bot.standing.ratings import Skill
from bot.store import (
    ACTIVE,
    EVERLASTING,
    FINISHED,
    GameRecord,
    Outgoing,
    PlayerTally,
    Result,
    Season,
    SeasonRunning,
    ServerTally,
    StaleRating,
    StandingsStore,
    Store,
    TurnsStore,
)
from bot.telling.compose import Message, places
from bot.telling.outcomes import Accepted, Refusal
from rules.contract import Game
from rules.literal import Name, Person, listed

log = logging.getLogger(__name__)

#: an end left unrecorded by a stop is still announced when it is at most this many seconds old
FRESH_END = 3600.0
#: games listed by ``/game history`` and offered by the replay autocomplete
HISTORY_LIMIT = 10

#: the time now (tests set a fake clock)
clock: Callable[[], float] = time.time

#: A jump link to a game's channel (and its newest board message, when known): (game, message id) → text
Linker = Callable[[GameRecord, int | None], str]


class Shelf(Protocol):
    """What the records are read through: the store and the game classes by key (the service is one)."""

    @property
    def store(self) -> Store: ...

    @property
    def classes(self) -> Callable[[str], type[Game]]: ...


class Closer(Shelf, Protocol):
    """A shelf that also records an end: the game units and the link to a finished game's page."""

    @property
    def fronts(self) -> Callable[[str], GameUnit[Any]]: ...

    @property
    def page_link(self) -> PageLink | None: ...


class Replayer(Shelf, Protocol):
    """A shelf that also posts a replay: the game units and the delivery records of a message's parts."""

    @property
    def fronts(self) -> Callable[[str], GameUnit[Any]]: ...

    def outgoing(self, records: Sequence[Showing]) -> list[Outgoing]: ...


class Reader(Shelf, Protocol):
    """A shelf that also reads a running game (:meth:`bot.shelf.Service.load`)."""

    async def load(self, rec: GameRecord) -> Game: ...


def ordinal(n: int, lang: str = texts.DEFAULT) -> str:
    """A place in words: "1st", "2nd" ("1.", "2." in German)."""
    return texts.ordinal(n, lang)


def span(seconds: float, lang: str = texts.DEFAULT) -> str:
    """A waiting time in words: ``45 min``, ``3 h 20 min``, ``2 d 4 h``."""
    minutes = max(0, int(seconds // 60))
    if minutes < 60:
        return texts.say("span.min", lang, count=minutes)
    hours, minutes = divmod(minutes, 60)
    if hours < 24:
        return texts.say("span.h_min", lang, hours=hours, minutes=minutes) if minutes \
            else texts.say("span.h", lang, count=hours)
    days, hours = divmod(hours, 24)
    return texts.say("span.d_h", lang, count=days, hours=hours) if hours else texts.say("span.d", lang, count=days)


# The end of a game -----------------------------------------------------------------------------------


#: the address of a game's page on the web, made when asked (``Service.page_link``); None: no page
PageLink = Callable[[GameRecord], Awaitable[str | None]]


def finale(page: str | None = None) -> Showing:
    """The record of a game's end message: the final standings and the animated replay, composed from the
    finished game and its log when it is delivered, and the address of the game's ``page`` when it has one."""
    return Showing(NOTE, picture="replay", finale=True, page=page)


async def record_end(store: Store, front: GameUnit[Any], rec: GameRecord, game: Game, *, announce: bool = True,
                     page: PageLink | None = None) -> int | None:
    """Store a finished game's results, the ratings they make (:mod:`bot.standing.ladder`) and (``announce``) its end
    message with each player's rating change and the game's page when ``page`` gives one, once; the delivery
    record's id, or None when none was written."""
    if rec.status != FINISHED or not game.is_over:
        return None
    address = None
    if announce and page is not None:
        try:
            address = await page(rec)
        except Exception:  # the page is a nicety; the end is recorded without it
            log.exception("game %s: its page link could not be made", rec.id)
    actions = await store.games.actions(rec.id)
    started = actions[0].at if actions else rec.created_at
    timing = ladder.seat_timing(actions, await store.settings.get_settings("game", rec.id))
    rows = [_result(rec, seat, place, seat in game.winners, started, timing.get(seat, ladder.Timing()))
            for seat, place in places(front, game) if seat < len(rec.seats)]
    for _ in range(RATING_TRIES):
        ratings, changes = await ladder.rate_end(store, rows)
        table = await series.round_note(store, rec, rows, changes, championship_page(address)) if announce else None
        end = finale(address)
        said = tuple(Line(say=say, params=params) for say, params in ladder.change_lines(rows, changes))
        if said:
            end = replace(end, lines=said)
        out = _end_outgoing(end, table) if announce else []
        try:
            if not await store.standings.record_results(rec.id, rows, out, ratings, changes):
                await series.finish_if_complete(store, rec.id)  # a stop before it, the last time
                return None
        except StaleRating:  # another game moved a rating meanwhile: rate again from the fresh ones
            continue
        await series.finish_if_complete(store, rec.id)
        return out[0].id if out else None
    log.warning("game %s: its ratings kept moving; its results are stored unrated", rec.id)
    end = finale(address)
    table = await series.round_note(store, rec, rows, page=championship_page(address)) if announce else None
    out = _end_outgoing(end, table) if announce else []
    await store.standings.record_results(rec.id, rows, out)
    await series.finish_if_complete(store, rec.id)
    return out[0].id if out else None


def championship_page(address: str | None) -> str | None:
    """The web page of a round's championship, under the round's own page (``address``; None: no page)."""
    return f"{address}/championship" if address else None


def _end_outgoing(end: Showing, table: Showing | None) -> list[Outgoing]:
    """The delivery records of a game's end: its end message and, after a championship's round, the table."""
    return [Outgoing(shown.to_payload(), shown.kind) for shown in (end, table) if shown is not None]


#: tries at rating a game's end while other games move the same ratings
RATING_TRIES = 5


def _result(rec: GameRecord, seat: int, place: int, won: bool, started: float, timing: ladder.Timing) -> Result:
    """One seat's result row: its place, team, computer kind and how it kept time."""
    s = rec.seats[seat]
    team = s.options.get("team")
    return Result(rec.id, seat, s.user_id, s.name, place, won, rec.version, rec.game_key, rec.guild_id,
                  rec.channel_id, started, rec.updated_at, team=team if isinstance(team, int) else None,
                  driver=s.driver, turns=timing.turns, timed=timing.timed, missed=timing.missed,
                  autopilot=timing.autopilot, think=timing.think)


#: finished games read at a time when settling the ends a stop left unrecorded
SETTLE_PAGE = 20


async def settle_ends(shelf: Closer, *, fresh: float = FRESH_END) -> int:
    """Record the ends a stop left unrecorded (the final move was stored, its results not yet); only games
    that ended within ``fresh`` seconds still get their end message, older ones (stored before results
    were kept) only their results. Returns how many games were settled. The games are read a page at a
    time, so thousands of them neither stall the event loop nor sit in memory at once."""
    settled = 0
    tried: set[int] = set()  # games that stay unrecorded after their try come first in every page
    limit = SETTLE_PAGE
    while True:
        rows = await shelf.store.standings.unrecorded_ends(limit=limit)
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
                game = shelf.classes(rec.game_key).from_dict(rec.state or {})
                await record_end(shelf.store, shelf.fronts(rec.game_key), rec, game,
                                 announce=clock() - rec.updated_at <= fresh, page=shelf.page_link)
            except Exception:  # a game that no longer loads keeps no results; the others go on
                log.exception("game %s: its end could not be recorded", rec.id)
                continue
            settled += 1
            await asyncio.sleep(0)  # let interactions in between


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

    def line(self, title: str, lang: str = texts.DEFAULT) -> str:
        players = listed(r.name for r in self.seats)
        won = listed(self.winners) or texts.say("history.nobody", lang)
        return texts.say("history.line", lang, game=self.game_id, stamp=int(self.finished_at), title=title,
                         players=players, won=won, count=self.moves)

    def label(self, title: str, lang: str = texts.DEFAULT) -> str:
        """A line without markup (autocomplete shows plain text)."""
        day = time.strftime("%Y-%m-%d", time.gmtime(self.finished_at))
        return texts.say("history.label", lang, game=self.game_id, day=day, title=title,
                         players=", ".join(r.name for r in self.seats),
                         won=", ".join(self.winners) or texts.say("history.nobody", lang))


def finished(rows: Sequence[Result]) -> list[Finished]:
    """Result rows grouped by game, newest first."""
    games: dict[int, list[Result]] = {}
    for r in rows:
        games.setdefault(r.game_id, []).append(r)
    out = [Finished(gid, rs[0].game_key, rs[0].finished_at, rs[0].moves, sorted(rs, key=lambda r: (r.place, r.seat)))
           for gid, rs in games.items()]
    return sorted(out, key=lambda f: (-f.finished_at, -f.game_id))


def _title(classes: Callable[[str], type[Game]], key: str) -> str:
    try:
        return classes(key).title
    except KeyError:
        return key


async def channel_finished(standings: StandingsStore, channel_id: int, limit: int = HISTORY_LIMIT) -> list[Finished]:
    return finished(await standings.results(channel_id=channel_id, limit=limit * 8))[:limit]


async def history(shelf: Shelf, channel_id: int, limit: int = HISTORY_LIMIT, *, lang: str = texts.DEFAULT
                  ) -> Message:
    """The channel's finished games, newest first: date, game, players, winner, moves (in the asker's
    ``lang``)."""
    games = await channel_finished(shelf.store.standings, channel_id, limit)
    if not games:
        return Message(texts.say("history.none", lang))
    lines = [texts.say("history.head", lang)]
    lines += [g.line(_title(shelf.classes, g.game_key), lang) for g in games]
    return Message("\n".join(lines))


async def replay_choices(shelf: Shelf, channel_id: int, current: str, lang: str = texts.DEFAULT
                         ) -> list[tuple[str, str]]:
    """(label, game id) of the channel's finished games matching what was typed."""
    cur = current.strip().lower().lstrip("#")
    out = []
    for g in await channel_finished(shelf.store.standings, channel_id, 25):
        label = g.label(_title(shelf.classes, g.game_key), lang)
        if not cur or cur in label.lower():
            out.append((label[:100], str(g.game_id)))
    return out


async def replay(shelf: Replayer, channel_id: int, game_text: str, *, lang: str = texts.DEFAULT
                 ) -> Accepted | Refusal:
    """The replay and final standings of one of the channel's finished games, for everyone (in the game's
    language; a refusal in the asker's ``lang``)."""
    digits = game_text.strip().lstrip("#").split(" ")[0]
    known = await channel_finished(shelf.store.standings, channel_id, 25)
    if not digits.isdigit():
        return Refusal(texts.say("history.not_a_number", lang, text=game_text[:40]))
    game_id = int(digits)
    rows = await shelf.store.standings.results(game_id=game_id) if game_id < 2**63 else []
    if not rows or rows[0].channel_id != channel_id:
        numbers = ", ".join(f"#{g.game_id}" for g in known) or texts.say("history.none_yet", lang)
        return Refusal(texts.say("history.not_here", lang, game=digits[:20], numbers=numbers))
    rec = await shelf.store.games.get_game(game_id)
    front = shelf.fronts(rec.game_key)
    lines = [Line(say="history.replay", params={"game": game_id})]
    record = replace(finale(), lines=tuple(lines))
    if rec.state is None:
        record = replace(record, picture="none", finale=False,
                         lines=(*lines, Line(text=f"{front.title} #{game_id}")))
    out = shelf.outgoing([record])
    await shelf.store.outbox.add_deliveries(game_id, out)
    return Accepted(game_id, tuple(o.id for o in out if o.id is not None))


def _record_lines(tallies: Sequence[PlayerTally], classes: Callable[[str], type[Game]], lang: str = texts.DEFAULT
                 ) -> list[str]:
    """One player's record, per game: played, won, average place, best and longest games."""
    return [texts.say("history.record_line", lang, title=_title(classes, t.game_key), played=t.played, won=t.won,
                      average=texts.decimal(t.average, "0.0", lang), best=ordinal(t.best_place, lang),
                      best_moves=texts.say("history.in_moves", lang, count=t.best_moves), best_game=t.best_game,
                      longest_moves=texts.say("history.moves", lang, count=t.longest_moves),
                      longest_game=t.longest_game)
            for t in sorted(tallies, key=lambda t: t.game_key)]


def _server_lines(tallies: Sequence[ServerTally], classes: Callable[[str], type[Game]], lang: str = texts.DEFAULT
                 ) -> list[str]:
    """A server's record, per game: games finished, the most wins, the shortest and longest games."""
    lines = []
    for t in sorted(tallies, key=lambda t: t.game_key):
        named = [*t.leader_names, *[texts.say("terminal.someone", lang)] * len(t.leaders)]
        leaders = ", ".join(f"{Person(uid, named[i])} {n}" for i, (uid, n) in enumerate(t.leaders)) \
            or texts.say("lobby.nobody_yet", lang)
        lines.append(texts.say("history.server_line", lang, title=_title(classes, t.game_key), count=t.games,
                               leaders=leaders, shortest_moves=texts.say("history.moves", lang, count=t.shortest_moves),
                               shortest_game=t.shortest_game,
                               longest_moves=texts.say("history.moves", lang, count=t.longest_moves),
                               longest_game=t.longest_game))
    return lines


async def stats(shelf: Shelf, guild_id: int | None, player_id: int | None, *, asker_id: int,
                lang: str = texts.DEFAULT, season: int | None = None) -> Message | Refusal:
    """``player_id``'s record per game on this server (everywhere, in a direct message), with their rating
    card and its chart on a server, or the server's ladder and record when no player is named in a server;
    in the asker's ``lang``. ``season``: a past or running season's number (default: the running season,
    else the everlasting one)."""
    chosen: Season | None = None
    if guild_id is not None:
        seasons = await shelf.store.standings.seasons(guild_id)
        if season is not None and season != EVERLASTING:
            chosen = next((s for s in seasons if s.id == season), None)
            if chosen is None:
                known = ", ".join(f"#{s.id}" for s in seasons) or texts.say("ladder.no_seasons", lang)
                return Refusal(texts.say("ladder.no_season", lang, id=season, seasons=known))
        elif season is None:
            chosen = next((s for s in seasons if s.ended_at is None), None)
    season_id = chosen.id if chosen is not None else EVERLASTING
    named = ladder.season_name(chosen, lang)
    if player_id is None and guild_id is not None:
        served = await shelf.store.standings.server_record(guild_id)
        if not served:
            return Message(texts.say("history.server_none", lang))
        top = await server_ladder(shelf, guild_id, season_id, named, lang)
        return Message("\n".join([*top, texts.say("history.server_head", lang),
                                   *_server_lines(served, shelf.classes, lang)]))
    who = player_id if player_id is not None else asker_id
    tallies = await shelf.store.standings.player_record(who, guild_id)
    here = guild_id is not None
    person = Person(who, max(tallies, key=lambda t: t.last_at).name if tallies else texts.say("terminal.someone", lang))
    if not tallies:
        return Message(texts.say("history.player_none_here" if here else "history.player_none", lang, user=person))
    head = texts.say("history.player_head_here" if here else "history.player_head", lang, user=person)
    lines = [head, *_record_lines(tallies, shelf.classes, lang)]
    if guild_id is None:
        return Message("\n".join(lines))
    name = max(tallies, key=lambda t: t.last_at).name
    card, png = await _card(shelf, guild_id, who, season_id, named, name, lang)
    return Message("\n".join(lines + card), png=png, filename="rating.png" if png else "board.png")


async def server_ladder(shelf: Shelf, guild_id: int, season_id: int, named: str, lang: str) -> list[str]:
    """A server's ladder in a season (``named``), per game, as lines."""
    rated = await shelf.store.standings.ladder(guild_id, season_id, ladder.LADDER_SIZE)
    board = ladder.ladder_lines(rated, lambda key: _title(shelf.classes, key), lang, span)
    return [texts.say("ladder.head", lang, season=named), *board] if board \
        else [texts.say("ladder.none", lang, season=named)]


async def _card(shelf: Shelf, guild_id: int, user_id: int, season_id: int, season: str, name: str, lang: str
                ) -> tuple[list[str], bytes | None]:
    """A player's ratings in a season, per game (rating, rank, record, reliability), and the chart of how
    they moved (None when there is nothing to draw)."""
    mine_ = await shelf.store.standings.ratings(guild_id, None, season_id, user_id=user_id)
    if not mine_:
        return [], None
    from render.rating_chart import Series, rating_chart  # drawing a chart is rare: not loaded at start

    lines = [texts.say("ladder.card_head", lang, season=season)]
    series = []
    ranks = await shelf.store.standings.ranks(guild_id, season_id, user_id)
    for r in sorted(mine_, key=lambda r: -r.games):
        rank, of = ranks.get(r.game_key, (1, 1))
        title = _title(shelf.classes, r.game_key)
        kept = ladder.reliability(r, lang, span)
        lines.append(texts.say("ladder.card_line", lang, title=title, rating=Skill(r.mu, r.sigma).shown, rank=rank,
                               of=of, games=r.games, wins=r.wins, on_time=kept["on_time"],
                               average=kept["average"], missed=kept["missed"]))
        moves = await shelf.store.standings.rating_history(guild_id, r.game_key, season_id, user_id,
                                                             limit=ladder.CHART_POINTS)
        if moves:
            values = [Skill(moves[0].mu_before, moves[0].sigma_before).shown,
                      *(Skill(c.mu, c.sigma).shown for c in moves)]
            series.append(Series(title, values))
    plain = texts.say("ladder.chart_everlasting", lang) if season_id == EVERLASTING else next(
        (f"{s.name} (#{s.id})" for s in await shelf.store.standings.seasons(guild_id) if s.id == season_id), "")
    png = rating_chart(series, texts.say("ladder.chart_title", lang, name=name, season=plain),
                       texts.say("ladder.chart_axis", lang)) if series else None
    return lines, png


# Seasons ---------------------------------------------------------------------------------------------

#: what ``/season`` does
SEASON_ACTIONS = ("start", "end", "list", "rebuild")


async def season_command(store: Store, guild_id: int | None, user_id: int, action: str, *, manage: bool,
                         name: str | None = None, season: int | None = None, lang: str = texts.DEFAULT
                         ) -> Message | Refusal:
    """``/season``: the server's managers start and end seasons and rate one again from its results
    (``rebuild``; ``season`` by number, default the running one, else the everlasting one); anyone lists
    them. Answered in the asker's ``lang``."""
    if guild_id is None:
        return Refusal(texts.say("season.server_only", lang))
    if action not in SEASON_ACTIONS:
        return Refusal(texts.say("season.bad_action", lang, action=action[:20]))
    seasons = await store.standings.seasons(guild_id)
    if action == "list":
        if not seasons:
            return Message(texts.say("season.list_none", lang))
        return Message("\n".join([texts.say("season.list_head", lang), *(
            texts.say("season.list_line", lang, id=s.id, season=ladder.season_name(s, lang)) for s in seasons)]))
    if not manage:
        return Refusal(texts.say("season.managers", lang))
    running = next((s for s in seasons if s.ended_at is None), None)
    if action == "start":
        if running is not None:
            return Refusal(texts.say("season.already", lang, name=Name(running.name), id=running.id))
        title = (name or "").strip()[:40] or texts.say("season.default_name", lang, number=len(seasons) + 1)
        try:
            started = await store.standings.start_season(guild_id, title, at=clock(), by=user_id)
        except SeasonRunning:
            return Refusal(texts.say("season.none_running", lang))
        return Message(texts.say("season.started", lang, name=Name(started.name), id=started.id))
    if action == "end":
        ended = await store.standings.end_season(guild_id, at=clock())
        if ended is None:
            return Refusal(texts.say("season.none_running", lang))
        return Message(texts.say("season.ended", lang, name=Name(ended.name), id=ended.id))
    target = running if season is None else next((s for s in seasons if s.id == season), None)
    if season is not None and season != EVERLASTING and target is None:
        known = ", ".join(f"#{s.id}" for s in seasons) or texts.say("ladder.no_seasons", lang)
        return Refusal(texts.say("ladder.no_season", lang, id=season, seasons=known))
    if season == EVERLASTING:
        target = None
    count = await ladder.rebuild(store, guild_id, target.id if target is not None else EVERLASTING)
    return Message(texts.say("season.rebuilt", lang, season=ladder.season_name(target, lang), count=count))


# A player's games across servers ---------------------------------------------------------------------


async def mine(shelf: Reader, user_id: int, link: Linker, *, now: float | None = None,
               lang: str = texts.DEFAULT) -> Message:
    """The running games where ``user_id`` has a seat: first those where it is their turn, longest waiting
    first, each with a jump link and how long it has waited; then those waiting on others."""
    now = clock() if now is None else now
    mine_: list[tuple[float, str]] = []
    others: list[tuple[float, str]] = []
    for rec in await shelf.store.games.games_of_user(user_id, ACTIVE):
        seat = rec.seat_of(user_id)
        if seat is None or rec.state is None:
            continue
        game = await shelf.load(rec)
        since = await _turn_since(shelf.store.turns, rec, game.to_act)
        posted = await shelf.store.outbox.posted_messages(rec.id, limit=1)
        jump = link(rec, posted[0] if posted else None)
        title = _title(shelf.classes, rec.game_key)
        if game.may_act(seat):
            mine_.append((since, texts.say("history.mine_turn", lang, title=title, move=rec.version,
                                           waited=span(now - since, lang), jump=jump)))
        else:
            turn = game.to_act
            who = Name(rec.seats[turn].name) if turn is not None and turn < len(rec.seats) \
                else texts.say("history.nobody", lang)
            others.append((since, texts.say("history.mine_waiting", lang, title=title, move=rec.version, who=who,
                                            waited=span(now - since, lang), jump=jump)))
    if not mine_ and not others:
        return Message(texts.say("history.mine_none", lang))
    lines = []
    if mine_:
        lines.append(texts.say("history.mine_turn_head", lang))
        lines += [f"- {text}" for _, text in sorted(mine_)]
    else:
        lines.append(texts.say("history.mine_no_turn", lang))
    if others:
        lines.append(texts.say("history.mine_waiting_head", lang))
        lines += [f"- {text}" for _, text in sorted(others)]
    return Message("\n".join(lines))


async def _turn_since(turns: TurnsStore, rec: GameRecord, seat: int | None) -> float:
    """Since when the game has waited for its player to act: the timing's mark of the turn when it is of
    this move, else the last change of the game."""
    mark: Any = None
    try:
        mark = await turns.turn_mark(rec.id)
    except Exception:  # a store without turn marks
        mark = None
    if mark is not None and mark.version == rec.version and mark.seat == seat:
        return float(mark.started_at)
    return rec.updated_at


__all__ = ["SEASON_ACTIONS", "Finished", "finale", "history", "mine", "record_end", "replay", "replay_choices",
           "season_command", "settle_ends", "stats"]
