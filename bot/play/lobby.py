"""The lobby, for every front end: a game is opened in a channel, people take and leave seats, the host seats
computers and removes seats, and the game starts or is aborted. A person who leaves a running game hands
their seat to a computer. Each write takes the channel's lock, is checked (a refusal changes nothing) and is
stored with the note the channel reads, one transaction; the first board of a started game, with the
computers' first moves in it, is played by the service's batch of moves nobody presses (:mod:`bot.play.autoplay`,
reached through :class:`Host`)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, Protocol

from bot import texts
from bot.games import playable_keys
from bot.messages import Line, host_of, person_of
from bot.play.autoplay import Autoplay, Writer
from bot.play.seats import Fronts, accepted, lang_of, no_game, note, option_words, seat_line, who
from bot.store import ACTIVE, FINISHED, LOBBY, SEAT_LINK_SCOPE, ChannelBusy, GameRecord, Seat, StaleVersion, Store
from bot.telling import turn_messages
from bot.telling.compose import table_of
from bot.telling.outcomes import Accepted, Refusal, refuse
from rules.contract import Game, SetupError
from rules.literal import Name, Person

Outcome = Accepted | Refusal


class Host(Writer, Protocol):
    """What the lobby asks of the service that holds it besides a write (:class:`~bot.play.autoplay.Writer`):
    the seeds and the computers' kinds, what to do when a game ends, the computers' first moves (its
    :class:`~bot.play.autoplay.Autoplay`) and who takes over a seat that is left."""

    @property
    def seed_source(self) -> Callable[[], int]: ...

    @property
    def driver_kinds(self) -> Callable[[str], list[str]]: ...

    @property
    def on_ended(self) -> Callable[[int, int], None] | None: ...

    @property
    def autoplay(self) -> Autoplay: ...

    def takeover_kind(self, game_key: str) -> str: ...


class Lobby:
    """Opening, seating and starting a channel's game, over a :class:`Store`."""

    def __init__(self, store: Store, *, classes: Callable[[str], type[Game]], fronts: Fronts, host: Host) -> None:
        self.store = store
        self.classes = classes
        self.fronts = fronts
        self.host = host

    @staticmethod
    def _can_manage(rec: GameRecord, user_id: int, can_manage: bool) -> bool:
        return can_manage or rec.host_id == user_id

    def _seats(self, rec: GameRecord, lang: str = texts.DEFAULT) -> str:
        """The seats in order, each with its options in the words of ``lang``."""
        return seat_line(self.fronts, rec, lang)

    @staticmethod
    def _setup_hook(hook: Callable[..., Any], *args: Any, lang: str, own: str) -> Any:
        """A unit's setup check (``setup_options``, ``seat_options``): what it refuses is said in the asker's
        language ``own``, the notes it adds for the channel in the game's ``lang``."""
        checked = hook(*args, lang=own)
        return checked if own == lang else hook(*args, lang=lang)

    async def new_game(self, *, guild_id: int | None, channel_id: int, user_id: int, user_name: str,
                       game_key: str, options: Mapping[str, Any] | None = None, join: bool = True,
                       seat_options: Mapping[str, Any] | None = None, lang: str = "en",
                       user_lang: str | None = None) -> Outcome:
        """Open a lobby in the channel with ``game_key`` and the shared options given (None values dropped).
        ``lang``: the game's public language (the server's), kept for every message everyone sees;
        ``user_lang``: the host's own, for their private notes and refusals."""
        own = user_lang or lang
        try:
            cls = self.classes(game_key)
            front = self.fronts(game_key)
        except KeyError:
            return refuse(texts.say("lobby.no_such_game", own, game=game_key, games=", ".join(playable_keys())))
        raw = {k: v for k, v in (options or {}).items() if v is not None}
        try:
            opts, notes = self._setup_hook(front.setup_options, raw, lang=lang, own=own)
        except (SetupError, ValueError) as exc:
            why = front.refusal(exc, lang=own)
            return refuse(texts.say("lobby.cant_set_up", own, title=cls.title, error=why))
        seats: list[Seat] = []
        if join:
            raw_seat = {k: v for k, v in (seat_options or {}).items() if v is not None}
            try:
                seat_opts, seat_notes = self._setup_hook(front.seat_options, raw_seat, opts, [], lang=lang, own=own)
            except (SetupError, ValueError) as exc:
                return refuse(texts.say("lobby.cant_seat", own, error=front.refusal(exc, lang=own)))
            notes += seat_notes
            seats.append(Seat(user_id, user_name, seat_opts, lang=user_lang))
        opt_text = option_words(self.fronts, game_key, "new", opts, lang) or texts.say("lobby.standard_setup", lang)
        opened = Line(say="lobby.opened", params={"user": Person(user_id, user_name), "title": cls.title,
                                                  "options": opt_text, "low": cls.min_seats, "high": cls.max_seats})
        out = self.host.outgoing([note(opened, *(Line(text=n) for n in notes))])
        async with self.host.lock(channel_id):
            try:
                rec = await self.store.games.create_game(guild_id=guild_id, channel_id=channel_id, game_key=game_key,
                                                         host_id=user_id, setup={"options": opts},
                                                         seed=self.host.seed_source(), seats=seats, lang=lang,
                                                         outgoing=out)
            except ChannelBusy:
                busy = await self.store.games.channel_game(channel_id)
                if busy is None:
                    return refuse(texts.say("lobby.busy", own))
                return refuse(texts.say("lobby.busy_game", own, title=self.classes(busy.game_key).title,
                                        status=texts.status_word(busy.status, own)))
        return accepted(rec, out)

    async def join(self, channel_id: int, user_id: int, user_name: str,
                   seat_options: Mapping[str, Any] | None = None, lang: str | None = None) -> Outcome:
        """Take a seat in the channel's lobby, or change your seat options there. ``lang``: the player's
        language, for their private notes."""
        async with self.host.lock(channel_id):
            rec = await self.store.games.channel_game(channel_id)
            if rec is None:
                return no_game(lang)
            own = lang_of(rec, user_id, lang)
            if rec.status != LOBBY:
                return refuse(texts.say("lobby.started_already", own))
            cls, front = self.classes(rec.game_key), self.fronts(rec.game_key)
            mine = rec.seat_of(user_id)
            others = [s.options for i, s in enumerate(rec.seats) if i != mine]
            if mine is None and len(rec.seats) >= cls.max_seats:
                return refuse(texts.say("lobby.full", own, title=cls.title, max=cls.max_seats))
            raw = {k: v for k, v in (seat_options or {}).items() if v is not None}
            try:
                opts, notes = self._setup_hook(front.seat_options, raw, rec.setup.get("options", {}), others,
                                               lang=rec.lang, own=own)
            except (SetupError, ValueError) as exc:
                return refuse(texts.say("lobby.cant_seat", own, error=front.refusal(exc, lang=own)))
            seats = list(rec.seats)
            if mine is None:
                seats.append(Seat(user_id, user_name, opts, lang=lang))
                said = "lobby.joined"
            else:
                seats[mine] = Seat(user_id, user_name, opts, lang=lang or rec.seats[mine].lang)
                said = "lobby.changed_options"
            line = Line(say=said, params={"user": Person(user_id, user_name), "title": cls.title,
                                          "seats": self._seats(replace(rec, seats=seats), rec.lang)})
            out = self.host.outgoing([note(line, *(Line(text=n) for n in notes))])
            rec = await self.store.games.update_lobby(rec.id, seats=seats, expected_seats=rec.seats, outgoing=out)
        return accepted(rec, out)

    async def leave(self, channel_id: int, user_id: int, lang: str | None = None) -> Outcome:
        """Give up a seat (``lang``: the asker's language, for a refusal)."""
        async with self.host.lock(channel_id):
            rec = await self.store.games.channel_game(channel_id)
            if rec is None:
                return no_game(lang)
            mine = rec.seat_of(user_id)
            if mine is None:
                return refuse(texts.say("lobby.no_seat_here", lang_of(rec, user_id, lang)))
            if rec.status != LOBBY:
                gone = Line(say="lobby.left_game", params={"user": person_of(rec, user_id)})
                return await self._hand_to_computer(rec, mine, gone, lang)
            left = Line(say="lobby.left_lobby", params={"user": person_of(rec, user_id)})
            return await self._remove_seat(rec, mine, left)

    async def _hand_to_computer(self, rec: GameRecord, seat: int, said: Line, lang: str | None = None) -> Outcome:
        """A person leaves a running game: a computer plays their seat on (the turn's message loses their
        buttons when it was their turn). When nobody is left, it ends. ``said`` tells who left; ``lang``: the
        asker's, for a refusal."""
        game = await self.host.load(rec)
        gone = turn_messages.retire(await self.store.outbox.latest_delivery(rec.id)) if game.to_act == seat else None
        retired = [gone] if gone is not None else []
        if all(s.is_computer for i, s in enumerate(rec.seats) if i != seat):
            out = self.host.outgoing([*retired, note(Line(say="lobby.nobody_left", params={"text": said}))])
            await self.store.games.set_status(rec.id, "aborted", from_statuses=(ACTIVE,), outgoing=out)
            self.host.forget(rec.id, drivers=True)
            await self._revoke_link(rec.id, rec.seats[seat].user_id)
            return accepted(rec, out)
        kind = self.host.takeover_kind(rec.game_key)
        old = rec.seats[seat]
        uid = min([-1, *(s.user_id - 1 for s in rec.seats if s.user_id < 0)])
        seats = list(rec.seats)
        seats[seat] = Seat(uid, texts.say("lobby.computer_name", rec.lang, name=old.name), dict(old.options), kind)
        heir = next(s for s in seats if not s.is_computer) if old.user_id == rec.host_id else None
        host = heir.user_id if heir is not None else None
        named = Line(say=f"computer.kind.{kind}")  # its kind in each reader's language
        line = Line(say="lobby.computer_takes_over", params={"text": said, "kind": named, "name": Name(old.name)})
        if host is not None:
            line = Line(say="lobby.new_host", params={"text": line, "host": Person(host, heir.name if heir else "")})
        out = self.host.outgoing([*retired, note(line)])
        waiting = game.to_act == seat and not game.is_over
        try:
            rec = await self.store.games.replace_seats(rec.id, version=rec.version, seats=seats,
                                                       expected_seats=rec.seats, outgoing=out,
                                                       computers_waiting=waiting)
        except StaleVersion:
            return refuse(texts.say("lobby.moved_on", lang or texts.DEFAULT))
        if host is not None:
            await self.store.games.set_host(rec.id, host)
        await self._revoke_link(rec.id, old.user_id)
        self.host._stored(rec, game, out)
        return accepted(rec, out)

    async def _revoke_link(self, game_id: int, user_id: int) -> None:
        """``user_id`` left the game or was removed: their own link to the game's page opens nothing any
        more (:mod:`bot.web.seats`)."""
        if user_id > 0 and await self.store.settings.get_settings(SEAT_LINK_SCOPE, user_id, game_id):
            await self.store.settings.put_settings(SEAT_LINK_SCOPE, user_id, game_id, {})

    async def _remove_seat(self, rec: GameRecord, seat: int, said: Line) -> Outcome:
        await self._revoke_link(rec.id, rec.seats[seat].user_id)
        seats = [s for i, s in enumerate(rec.seats) if i != seat]
        if not seats:
            out = self.host.outgoing([note(Line(say="lobby.empty_closed", params={"text": said}))])
            await self.store.games.set_status(rec.id, "aborted", from_statuses=(LOBBY,), outgoing=out)
            return accepted(rec, out)
        host = None
        if rec.seats[seat].user_id == rec.host_id:
            host = seats[0].user_id
            said = Line(say="lobby.new_host", params={"text": said, "host": Person(host, seats[0].name)})
        line = Line(say="lobby.seats_now", params={"text": said,
                                                   "seats": self._seats(replace(rec, seats=seats), rec.lang)})
        out = self.host.outgoing([note(line)])
        rec = await self.store.games.update_lobby(rec.id, seats=seats, host_id=host, expected_seats=rec.seats,
                                                  outgoing=out)
        return accepted(rec, out)

    async def kick(self, channel_id: int, actor_id: int, target_id: int, *, can_manage: bool = False,
                   lang: str | None = None) -> Outcome:
        """Remove a player (``lang``: the asker's language, for a refusal)."""
        async with self.host.lock(channel_id):
            rec = await self.store.games.channel_game(channel_id)
            if rec is None:
                return no_game(lang)
            own = lang_of(rec, actor_id, lang)
            if not self._can_manage(rec, actor_id, can_manage):
                return refuse(texts.say("lobby.only_host_kick", own, host=host_of(rec, own)))
            seat = rec.seat_of(target_id)
            if seat is None:
                return refuse(texts.say("lobby.no_seat_for", own, user=person_of(rec, target_id, own),
                                        seats=self._seats(rec, own)))
            named = who(rec.seats[seat])
            if rec.status != LOBBY:
                if rec.seats[seat].is_computer:
                    return refuse(texts.say("lobby.computer_cant_leave", own))
                return await self._hand_to_computer(rec, seat, Line(say="lobby.removed_game", params={"who": named}),
                                                    own)
            return await self._remove_seat(rec, seat, Line(say="lobby.removed_lobby", params={"who": named}))

    async def add_computer(self, channel_id: int, user_id: int, kind: str = "random", *,
                           can_manage: bool = False, lang: str | None = None, team: int | None = None) -> Outcome:
        """Seat a computer player of ``kind`` (see :mod:`bot.drivers`) in the lobby (``lang``: the asker's
        language, for a refusal), in ``team`` when given (only where the game races in teams)."""
        async with self.host.lock(channel_id):
            rec = await self.store.games.channel_game(channel_id)
            if rec is None:
                return no_game(lang)
            own = lang_of(rec, user_id, lang)
            if rec.status != LOBBY:
                return refuse(texts.say("lobby.seats_fixed", own))
            if not self._can_manage(rec, user_id, can_manage):
                return refuse(texts.say("lobby.only_host_computer", own, host=host_of(rec, own)))
            cls = self.classes(rec.game_key)
            kinds = self.host.driver_kinds(rec.game_key)
            if kind not in kinds:
                return refuse(texts.say("lobby.no_such_computer", own, kind=kind, title=cls.title,
                                        kinds=", ".join(kinds)))
            if len(rec.seats) >= cls.max_seats:
                return refuse(texts.say("lobby.full", own, title=cls.title, max=cls.max_seats))
            opts: dict[str, Any] = {}
            if team is not None:
                front = self.fronts(rec.game_key)
                try:
                    opts, _ = self._setup_hook(front.seat_options, {"team": team}, rec.setup.get("options", {}),
                                               [s.options for s in rec.seats], lang=rec.lang, own=own)
                except (SetupError, ValueError) as exc:
                    return refuse(texts.say("lobby.cant_seat_computer", own, error=front.refusal(exc, lang=own)))
                if opts.get("team") is None:
                    return refuse(texts.say("lobby.computer_no_teams", own, title=cls.title))
                opts = {"team": opts["team"]}
            number = len(rec.seats) + 1  # the seat it takes: its name matches the number on its badge
            uid = min([-1, *(s.user_id - 1 for s in rec.seats if s.user_id < 0)])
            seat = Seat(uid, texts.say("lobby.computer_seat_name", rec.lang, number=number,
                                         kind=texts.computer_kind(kind, rec.lang)), opts, kind)
            seats = [*rec.seats, seat]
            line = Line(say="lobby.computer_sits", params={"name": seat.name,
                                                           "seats": self._seats(replace(rec, seats=seats), rec.lang)})
            out = self.host.outgoing([note(line)])
            rec = await self.store.games.update_lobby(rec.id, seats=seats, expected_seats=rec.seats, outgoing=out)
        return accepted(rec, out)

    async def kick_seat(self, channel_id: int, actor_id: int, seat_number: int, *, can_manage: bool = False,
                        lang: str | None = None) -> Outcome:
        """Remove seat ``seat_number`` (1-based, as the seat list shows) from the lobby: a person or a computer."""
        rec = await self.store.games.channel_game(channel_id)
        if rec is None:
            return no_game(lang)
        if not 1 <= seat_number <= len(rec.seats):
            own = lang_of(rec, actor_id, lang)
            return refuse(texts.say("lobby.no_such_seat", own, number=seat_number, seats=self._seats(rec, own)))
        return await self.kick(channel_id, actor_id, rec.seats[seat_number - 1].user_id, can_manage=can_manage,
                               lang=lang)

    async def start(self, channel_id: int, user_id: int, *, can_manage: bool = False, lang: str | None = None
                    ) -> Outcome:
        """Start the lobby's game (``lang``: the asker's language, for a refusal)."""
        async with self.host.lock(channel_id):
            rec = await self.store.games.channel_game(channel_id)
            if rec is None:
                return no_game(lang)
            own = lang_of(rec, user_id, lang)
            if rec.status != LOBBY:
                return refuse(texts.say("lobby.running_already", own))
            if not self._can_manage(rec, user_id, can_manage):
                return refuse(texts.say("lobby.only_host_start", own, host=host_of(rec, own)))
            cls, front = self.classes(rec.game_key), self.fronts(rec.game_key)
            if not cls.min_seats <= len(rec.seats) <= cls.max_seats:
                return refuse(texts.say("lobby.seat_count", own, title=cls.title, low=cls.min_seats,
                                        high=cls.max_seats, count=len(rec.seats), seats=self._seats(rec, own)))
            setup = {"seats": [{"name": s.name, **s.options} for s in rec.seats],
                     "options": dict(rec.setup.get("options", {}))}
            try:
                game = await asyncio.to_thread(cls.create, setup, rec.seed)
            except (SetupError, ValueError) as exc:
                return refuse(texts.say("lobby.cant_start", own, title=cls.title, error=front.refusal(exc,
                                                                                                  lang=own)))
            head = Line(say="begins", params={"title": cls.title, "seats": self._seats(rec, rec.lang)})
            table = replace(table_of(rec), setup=setup)
            record = turn_messages.plan_start(game=game, table=table, lines=[head], period=front.period(game),
                                              may_ping=self.host.pingable(rec).__contains__)
            out = self.host.outgoing([record])
            rec = await self.store.games.start_game(rec.id, setup=setup, seats=rec.seats,
                                                    state=await asyncio.to_thread(game.to_dict),
                                                    status=FINISHED if game.is_over else ACTIVE, outgoing=out,
                                                    computers_waiting=await self.host.autoplay.waiting(rec, game))
            self.host.keep(rec, game)
            # a computer to act first plays its turn into the first board, which nobody has seen yet
            rec, game, records, _, played, notes = await self.host.autoplay.batch(rec, game, front, [record], out)
            message = await self.host._draw(records[-1], table_of(rec), front, game)
            self.host._stored(rec, game, out, message, await self.host.autoplay.waiting(rec, game))
            await self.host._end(rec, game)
        return accepted(rec, out, [*self.host._private_notes(rec, front, played), *notes])

    async def abort(self, channel_id: int, user_id: int, *, can_manage: bool = False, lang: str | None = None
                    ) -> Outcome:
        """End the channel's game without a winner (``lang``: the asker's language, for a refusal); the turn's
        message loses its buttons."""
        async with self.host.lock(channel_id):
            rec = await self.store.games.channel_game(channel_id)
            if rec is None:
                return no_game(lang)
            if not self._can_manage(rec, user_id, can_manage):
                return refuse(texts.say("lobby.only_host_abort", lang_of(rec, user_id, lang),
                                       host=host_of(rec, lang_of(rec, user_id, lang))))
            title = self.classes(rec.game_key).title
            gone = turn_messages.retire(await self.store.outbox.latest_delivery(rec.id))
            said = Line(say="lobby.aborted", params={"user": person_of(rec, user_id), "title": title,
                                                     "count": rec.version})
            out = self.host.outgoing([*([gone] if gone is not None else []), note(said)])
            await self.store.games.set_status(rec.id, "aborted", outgoing=out)
            self.host.forget(rec.id, drivers=True)
        if self.host.on_ended is not None:
            self.host.on_ended(rec.id, channel_id)
        return accepted(rec, out)


__all__ = ["Host", "Lobby", "Outcome"]
