"""``/championship``: a host names a championship of a racing game in a channel, with its rounds, points
table and options; ``next`` opens each round's game through the lobby (:class:`bot.play.lobby.Lobby`) with the
seats of the round before, ``table`` shows the table any time (its picture and a few words), ``end`` stops
it early: after its last round it ends by itself. The table after each round is
posted with the round's results (:mod:`bot.standing.series`), not here. A refusal is one line and changes
nothing."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot import texts
from bot.games import GameUnit, playable_keys
from bot.messages import Line, Showing
from bot.play.seats import note
from bot.standing import series
from bot.standing.championship import BadPoints, PointsTable
from bot.store import (
    ABORTED,
    FINISHED,
    LOBBY,
    Championship,
    ChampionshipRunning,
    GameRecord,
    Outgoing,
    StaleVersion,
    Store,
)
from bot.telling.compose import Message
from bot.telling.outcomes import Accepted, Refusal, refuse
from rules.contract import SetupError
from rules.literal import Name, Person

#: the most rounds a championship has
MAX_ROUNDS = 12
#: the largest bonus for leading most laps of a round
MAX_BONUS = 100
#: the presets a points table may name
PRESETS = ("f1", "cup", "n")
#: the longest interval of a schedule, in days
MAX_EVERY_DAYS = 60
#: a day, in seconds (the unit of a schedule)
DAY = 86_400.0


class Opener(Protocol):
    """What opens a round's lobby (the service's :class:`~bot.play.lobby.Lobby` is one)."""

    async def new_game(self, *, guild_id: int | None, channel_id: int, user_id: int, user_name: str,
                       game_key: str, options: dict[str, Any] | None = None, join: bool = True,
                       lang: str = "en", user_lang: str | None = None) -> Accepted | Refusal: ...

    async def start(self, channel_id: int, user_id: int, *, can_manage: bool = False, lang: str | None = None
                    ) -> Accepted | Refusal: ...


@dataclass(frozen=True, slots=True)
class Asker:
    """Who asks, where: the channel (and its server), the person, their name and language, the channel's."""

    guild_id: int | None
    channel_id: int
    user_id: int
    user_name: str
    lang: str = texts.DEFAULT
    public_lang: str = texts.DEFAULT


def parse_points(text: str | None, lang: str) -> PointsTable:
    """A points table from its preset name (``f1``, ``cup``, ``n`` for N to 1 of ``N`` given as ``n8``) or the
    host's own list (``10 6 4 3``, commas allowed); :class:`BadPoints` when it can't be used."""
    given = (text or "f1").strip().lower()
    if given in ("f1", "formula1", "formula_one"):
        return PointsTable.formula_one()
    if given == "cup":
        return PointsTable.cup()
    if given.startswith("n") and given[1:].isdigit():
        return PointsTable.n_to_one(int(given[1:]))
    values: list[object] = []
    for word in given.replace(",", " ").split():
        try:
            values.append(int(word))
        except ValueError:
            values.append(word[:12])
    return PointsTable.own(values)


def parse_rounds(text: str, front: GameUnit[Any], teams: bool, lang: str) -> list[dict[str, Any]] | str:
    """Each round's setup options from ``A 2; B 3`` (a track, then its laps if given), checked by the game
    (a track file's name works as at ``/game new``); a refusal's words when one can't be used."""
    parts = [p.strip() for p in text.split(";") if p.strip()]
    if not 1 <= len(parts) <= MAX_ROUNDS:
        return texts.say("championship.bad_rounds", lang, most=MAX_ROUNDS)
    rounds = []
    for number, part in enumerate(parts, start=1):
        words = part.split()
        raw: dict[str, Any] = {"track": " ".join(words)}
        if len(words) > 1 and words[-1].isdigit():
            raw = {"track": " ".join(words[:-1]), "laps": int(words[-1])}
        if teams:
            raw["teams"] = True
        try:
            front.setup_options(raw, lang=lang)
        except (SetupError, ValueError) as exc:
            return texts.say("championship.bad_round", lang, round=number, error=front.refusal(exc, lang=lang))
        rounds.append(raw)
    return rounds


def round_words(setup: dict[str, Any], lang: str) -> str:
    """A round's setup in words of ``lang`` (its track and laps: "track A, 2 laps")."""
    laps = setup.get("laps")
    track = Name(str(setup.get("track", "")))
    if laps:
        return texts.say("championship.round_laps", lang, count=int(laps), track=track)
    return texts.say("championship.round_track", lang, track=track)


class Championships:
    """Championships of a store's channels, their rounds opened through ``opener``."""

    def __init__(self, store: Store, opener: Opener, fronts: Callable[[str], GameUnit[Any]],
                 outgoing: Callable[[Sequence[Showing]], list[Outgoing]]) -> None:
        self.store, self.opener, self.fronts, self.outgoing = store, opener, fronts, outgoing

    async def create(self, who: Asker, *, name: str, game: str, rounds: str, points: str | None = None,
                     drop: int = 0, lead_bonus: int = 0, teams: bool = False, every: int = 0) -> Message | Refusal:
        """A new championship in the channel, ``who`` its host; ``every``: days after a round's end at which the
        next opens by itself (0: the host opens each)."""
        lang = who.lang
        racing = [k for k in playable_keys() if self.fronts(k).racing]
        key = game.strip().lower()
        if key not in racing:
            return refuse(texts.say("championship.not_racing", lang, games=", ".join(racing)))
        front = self.fronts(key)
        try:
            table = parse_points(points, lang)
        except BadPoints as exc:
            return refuse(exc.say(lang))
        setups = parse_rounds(rounds, front, teams, lang)
        if isinstance(setups, str):
            return refuse(setups)
        if not 0 <= drop < len(setups):
            return refuse(texts.say("championship.bad_drop", lang, most=len(setups) - 1))
        if not 0 <= lead_bonus <= MAX_BONUS:
            return refuse(texts.say("championship.bad_bonus", lang, most=MAX_BONUS))
        if not 0 <= every <= MAX_EVERY_DAYS:
            return refuse(texts.say("championship.bad_every", lang, most=MAX_EVERY_DAYS))
        title = name.strip()[:60] or texts.say("championship.default_name", lang)
        running = await self.store.championships.running_championship(who.channel_id)
        if running is not None and await self._complete(running):
            await self.store.championships.end_championship(running.id)
        try:
            champ = await self.store.championships.create_championship(
                guild_id=who.guild_id, channel_id=who.channel_id, host_id=who.user_id, name=title, game_key=key,
                rounds=setups, points=table.points,
                options={"drop_worst": drop, "lead_bonus": lead_bonus, **({"every_days": every} if every else {})})
        except ChampionshipRunning:
            other = await self.store.championships.running_championship(who.channel_id)
            return refuse(texts.say("championship.running_already", lang,
                                    name=Name(other.name if other else title)))
        plan = "\n".join(f"{i}. {round_words(s, who.public_lang)}" for i, s in enumerate(champ.rounds, start=1))
        return Message(texts.say("championship.created", who.public_lang, host=Name(who.user_name),
                                 name=Name(champ.name), title=front.title, count=len(champ.rounds),
                                 points=", ".join(str(p) for p in champ.points), drop=drop) + "\n" + plan
                       + ("\n" + texts.say("championship.every", who.public_lang, count=every) if every else ""))

    async def _complete(self, champ: Championship) -> bool:
        return len(await series.played(self.store, champ)) >= len(champ.rounds)

    async def _hosted(self, who: Asker) -> Championship | Refusal:
        champ = await self.store.championships.running_championship(who.channel_id)
        if champ is None:
            latest = await self.store.championships.latest_championship(who.channel_id)
            if latest is not None and await self._complete(latest):  # it finished by itself
                return refuse(texts.say("championship.all_run", who.lang, name=Name(latest.name),
                                        rounds=len(latest.rounds)))
            return refuse(texts.say("championship.none", who.lang))
        if champ.host_id != who.user_id:
            return refuse(texts.say("championship.not_host", who.lang, name=Name(champ.name)))
        return champ

    async def next_round(self, who: Asker, *, scheduled: bool = False) -> Accepted | Refusal:
        """Open the next round's game: its lobby, seated as the last round finished (people and computers,
        teams kept); the host starts it with ``/game start`` once anyone new has joined. ``scheduled``: opened
        by the championship's schedule, which its note tells the players."""
        champ = await self._hosted(who)
        if isinstance(champ, Refusal):
            return champ
        number, seats_from = 1, None
        for n, game_id in await self.store.championships.round_games(champ.id):
            rec = await self.store.games.get_game(game_id)
            if rec.status == ABORTED:
                number = n
                continue
            if rec.status != FINISHED or not await self.store.standings.results(game_id=game_id):
                return refuse(texts.say("championship.round_running", who.lang, round=n))
            number, seats_from = n + 1, rec
        if number > len(champ.rounds):
            return refuse(texts.say("championship.all_run", who.lang, name=Name(champ.name), rounds=len(champ.rounds)))
        left = await self._unregistered(champ, number)
        if left is not None:  # a stop came between opening this round's lobby and recording it as the round
            opened: Accepted | Refusal = Accepted(left.id)
        else:
            opened = await self.opener.new_game(
                guild_id=who.guild_id, channel_id=who.channel_id, user_id=who.user_id, user_name=who.user_name,
                game_key=champ.game_key, options=dict(champ.rounds[number - 1]), join=seats_from is None,
                lang=who.public_lang, user_lang=who.lang)
        if isinstance(opened, Refusal):
            return opened
        await self.store.championships.set_round(champ.id, number, opened.game_id)
        said = Line(say="championship.round_opened", params={
            "name": Name(champ.name), "round": number, "rounds": len(champ.rounds),
            "setup": round_words(champ.rounds[number - 1], who.public_lang)})
        if scheduled and seats_from is not None:
            people = ", ".join(str(Person(s.user_id, s.name)) for s in seats_from.seats if not s.is_computer)  # named
            said = Line(say="championship.round_by_schedule", params={
                "name": Name(champ.name), "round": number, "rounds": len(champ.rounds), "players": people,
                "setup": round_words(champ.rounds[number - 1], who.public_lang)})
        out = self.outgoing([note(said)])
        if seats_from is None:
            await self.store.outbox.add_deliveries(opened.game_id, out)
            return Accepted(opened.game_id, (*opened.deliveries, *(o.id for o in out if o.id is not None)))
        return await self._seat(opened, seats_from, out)

    async def open_due(self, now: float) -> int:
        """Open and start, with the seats of the round before, every round whose schedule fell due by ``now``
        (``every`` days after the round before ended). What the store holds decides, not memory: a round
        already opened is not opened again, so a restart or a second look repeats nothing, and a lobby a stop
        left (opened, not yet recorded or not yet started) is taken up. Returns how many rounds started."""
        started = 0
        for champ in await self.store.championships.running_championships():
            every = float(champ.options.get("every_days") or 0)
            if every <= 0:
                continue
            waiting = await self.store.games.channel_game(champ.channel_id)
            if waiting is not None and waiting.status != LOBBY:
                continue
            rounds = await self.store.championships.round_games(champ.id)
            ended = [rec for _, g in rounds if (rec := await self.store.games.get_game(g)).status == FINISHED]
            if not ended or len(ended) >= len(champ.rounds) or now < max(r.updated_at for r in ended) + every * DAY:
                continue
            last = ended[-1]
            host = next((s.name for s in last.seats if s.user_id == champ.host_id), champ.name)
            asker = Asker(champ.guild_id, champ.channel_id, champ.host_id, host, last.lang, last.lang)
            if waiting is None or waiting.id not in {g for _, g in rounds}:
                opened = await self.next_round(asker, scheduled=True)
                if isinstance(opened, Refusal):
                    continue
            if isinstance(await self.opener.start(champ.channel_id, champ.host_id, can_manage=True,
                                                  lang=last.lang), Accepted):
                started += 1
        return started

    async def _unregistered(self, champ: Championship, number: int) -> GameRecord | None:
        """The channel's lobby when it is round ``number``'s, opened by ``next`` but not yet recorded as the round
        (the host's empty lobby of the championship's game with the round's setup, of no championship)."""
        rec = await self.store.games.channel_game(champ.channel_id)
        if rec is None or rec.status != LOBBY or rec.game_key != champ.game_key or rec.host_id != champ.host_id:
            return None
        if await self.store.championships.championship_of_game(rec.id) is not None:
            return None
        try:
            wanted, _ = self.fronts(champ.game_key).setup_options(dict(champ.rounds[number - 1]))
        except (SetupError, ValueError):
            return None
        return rec if rec.setup.get("options", {}) == wanted else None

    async def _seat(self, opened: Accepted, before: GameRecord, out: list[Outgoing]) -> Accepted | Refusal:
        """The new round's lobby takes the seats of the round ``before``."""
        try:
            await self.store.games.update_lobby(opened.game_id, seats=before.seats, expected_seats=[], outgoing=out)
        except StaleVersion:  # someone sat down first: they keep their seat, the others join themselves
            await self.store.outbox.add_deliveries(opened.game_id, out)
        return Accepted(opened.game_id, (*opened.deliveries, *(o.id for o in out if o.id is not None)))

    async def table(self, who: Asker) -> Message | Refusal:
        """The table of the channel's championship now (the running one, else the newest, which may have
        finished), in the asker's language: its picture and a few words."""
        champ = await self.store.championships.running_championship(who.channel_id)
        champ = champ or await self.store.championships.latest_championship(who.channel_id)
        if champ is None:
            return refuse(texts.say("championship.none", who.lang))
        rounds = await series.played(self.store, champ)
        leaders = await series.lap_leaders(self.store, champ, rounds)
        ratings = await series.rating_moves(self.store, rounds) if len(rounds) >= len(champ.rounds) else None
        return series.table_message(champ, rounds, who.lang, leaders, ratings)

    async def end(self, who: Asker) -> Message | Refusal:
        """The host ends the championship (its rounds' games stay as they are)."""
        champ = await self._hosted(who)
        if isinstance(champ, Refusal):
            return champ
        open_game = await self.store.games.channel_game(who.channel_id)
        rounds = dict(await self.store.championships.round_games(champ.id))
        if open_game is not None and open_game.id in rounds.values() and open_game.status != LOBBY:
            return refuse(texts.say("championship.round_running", who.lang,
                                    round=next(n for n, g in rounds.items() if g == open_game.id)))
        if not await self.store.championships.end_championship(champ.id):
            return refuse(texts.say("championship.none", who.lang))
        done = len(await series.played(self.store, champ))
        return Message(texts.say("championship.ended", who.public_lang, host=Name(who.user_name),
                                 name=Name(champ.name), done=done, rounds=len(champ.rounds)))


__all__ = ["DAY", "MAX_BONUS", "MAX_EVERY_DAYS", "MAX_ROUNDS", "PRESETS", "Asker", "Championships", "parse_points",
           "parse_rounds", "round_words"]
