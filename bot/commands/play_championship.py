"""``junkyard play --championship NAME``: a championship of a racing game played in the terminal, round after
round, through the same service calls as ``/championship`` (:class:`bot.play.championships.Championships`).

    junkyard play --championship "Spring Cup" --game races --rounds "A 2; B 3" --points f1
    junkyard play --championship "Spring Cup"          play on where it was left (same --db)

A championship's name is its place: the terminal's channel of the championship comes from the name, so the
same name on the same database finds it again (a round left half-played is resumed, the next one opened).
``--rounds``, ``--points``, ``--drop`` and ``--teams`` only matter when it is created. The first person of
``--seats`` hosts it and takes the first seat of the first round; later rounds keep the seats of the round
before. After each round the table is shown as text, after the last the final table.

Exit codes as ``junkyard play``: 0 the championship ended or was left, 1 a failure while running, 2 a usage
mistake (an option, the rounds or the points table it cannot use)."""

from __future__ import annotations

import argparse
import hashlib
import sys

from bot import texts
from bot.commands import FAILED, USAGE
from bot.local import LocalChannel
from bot.play.championships import Asker, round_words
from bot.play.service import Service
from bot.standing import series
from bot.store import ACTIVE, LOBBY, Championship, GameRecord, Store
from bot.telling.outcomes import Accepted, Refusal
from bot.terminal import (
    Opening,
    PictureWriter,
    SeatSpec,
    Terminal,
    db_argument,
    local_user,
    open_for_play,
    plain,
    resume_table,
    shown_before,
)
from rules.literal import Name, bare


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The championship's options of ``junkyard play``."""
    parser.add_argument("--championship", metavar="NAME", default=None,
                        help="play a championship of a racing game, round after round (resumed by its name)")
    parser.add_argument("--rounds", metavar="ROUNDS", default=None,
                        help='the championship\'s rounds: tracks and laps, e.g. "A 2; B 3" (when created)')
    parser.add_argument("--points", metavar="TABLE", default=None,
                        help="points per place: f1, cup, nN (N down to 1) or your own list (default f1)")
    parser.add_argument("--drop", metavar="N", type=int, default=0,
                        help="each driver's N worst rounds do not count (default 0)")


def championship_channel(name: str) -> int:
    """The terminal's channel of the championship called ``name``: negative (never a Discord channel), and
    the same for the same name, so a run finds the championship an earlier one left."""
    digest = hashlib.sha256(f"championship:{name.strip().casefold()}".encode()).digest()
    return -(int.from_bytes(digest[:7], "big") % (1 << 52) + 1)


def _error(message: str, code: int = FAILED) -> int:
    print(f"junkyard play: {message}", file=sys.stderr)
    return code


def _say(text: str) -> None:
    print(bare(plain(text)), flush=True)


async def play(args: argparse.Namespace, seats: list[SeatSpec]) -> int:
    """Open the store and play the championship ``args.championship`` to its end or until the input ends."""
    from bot.store import default_db_path

    humans = [i for i, s in enumerate(seats) if s.is_human]
    if not humans:
        return _error("--championship needs a person among the --seats: the first one hosts it", USAGE)
    db = args.db or default_db_path()
    opened = await open_for_play(db, args.out)
    if isinstance(opened, str):
        return _error(opened)
    store, pictures = opened
    async with store:
        service = Service(store) if args.seed is None else Service(store, seed_source=lambda: args.seed)
        return await _run(args, service, seats, humans[0], db, pictures)


async def _run(args: argparse.Namespace, service: Service, seats: list[SeatSpec], first_human: int, db: str,
               pictures: PictureWriter) -> int:
    lang: str = args.lang
    channel = championship_channel(args.championship)
    host = local_user(first_human)
    asker = Asker(None, channel, host, seats[first_human].name or texts.say("terminal.player", lang,
                                                                              number=first_human + 1), lang, lang)
    store = service.store
    champ = await _championship(args, service, asker)
    if isinstance(champ, int):
        return champ
    again = f"junkyard play --championship {_quoted(champ.name)}{db_argument(args.db)}"
    shown = False
    while True:
        rec = await store.games.channel_game(channel)
        if rec is None:
            opened = await service.championships.next_round(asker)
            if isinstance(opened, Refusal):
                done = await series.played(store, champ)
                if len(done) >= len(champ.rounds):
                    if not shown:  # a run that finds every round over shows the final table again
                        _say(series.table_text(champ, done, lang))
                    return 0
                return _error(plain(opened.text))
            await _quietly(service, channel)
            rec = await store.games.get_game(opened.game_id)
        if rec.status == LOBBY:
            number = await _round_of(store, champ, rec)
            _say("\n" + texts.say("terminal.championship_round", lang, name=Name(champ.name), round=number,
                                  rounds=len(champ.rounds), setup=round_words(champ.rounds[number - 1], lang)))
            seated = await _seat_the_rest(service, rec, seats, host, lang)
            await _quietly(service, channel)
            if isinstance(seated, Refusal):
                return _error(plain(seated.text))
            first, names = Opening(await service.start(channel, host, lang=lang)), {
                s.user_id: s.name for s in (await store.games.get_game(rec.id)).seats if not s.is_computer}
            terminal = Terminal(service, channel, names, pictures, pause=args.pause, db_path=db, lang=lang,
                                resume=again)
        else:
            first, names = await resume_table(service, rec)
            terminal = Terminal(service, channel, names, pictures, pause=args.pause, db_path=db, lang=rec.lang,
                                resume=again, seen=await shown_before(service, rec.id))
        code = await terminal.run(first)
        after = await store.games.get_game(rec.id)
        if code != 0 or after.status == ACTIVE:
            return code  # left: the terminal said how to play on
        if after.status == LOBBY:
            return _error(f"round {await _round_of(store, champ, after)} could not start")
        await _quietly(service, channel)  # the end's records (its standings and the table), shown here as text
        _say("\n" + series.table_text(champ, await series.played(store, champ), lang))
        shown = True


async def _championship(args: argparse.Namespace, service: Service, asker: Asker) -> Championship | int:
    """The championship of the name: the running one, else the last (an ended one shows its final table again),
    else a new one made from the options; an exit code when it cannot be made."""
    found = await service.store.championships.running_championship(asker.channel_id)
    found = found or await service.store.championships.latest_championship(asker.channel_id)
    if found is not None:
        return found
    if not args.rounds:
        return _error(f"--rounds is needed to start the championship {args.championship!r}", USAGE)
    made = await service.championships.create(asker, name=args.championship, game=args.game, rounds=args.rounds,
                                              points=args.points, drop=args.drop, teams=bool(args.teams))
    if isinstance(made, Refusal):
        return _error(plain(made.text), USAGE)
    _say(made.text)
    champ = await service.store.championships.running_championship(asker.channel_id)
    assert champ is not None
    return champ


def _quoted(name: str) -> str:
    import shlex

    return shlex.quote(name)


async def _quietly(service: Service, channel: int) -> None:
    """Deliver what the channel has waiting (a lobby's news, a round's end and its table) to a channel no one
    reads: the terminal shows those in its own words, and each record is delivered once."""
    waiting = await service.store.outbox.deliveries(channel_id=channel, pending=True)
    if waiting:
        await LocalChannel().take(service, Accepted(waiting[0].game_id or 0, tuple(d.id for d in waiting)))


async def _round_of(store: Store, champ: Championship, rec: GameRecord) -> int:
    """The round of the championship the game ``rec`` is."""
    return next((n for n, g in await store.championships.round_games(champ.id) if g == rec.id), 0)


async def _seat_the_rest(service: Service, rec: GameRecord, seats: list[SeatSpec], host: int, lang: str
                         ) -> Accepted | Refusal | None:
    """The first round's lobby holds its host: the other people of ``seats`` join and its computers sit down
    (those already seated by a run that stopped halfway are not seated twice). Later rounds come seated."""
    taken = {s.user_id for s in rec.seats}
    computers = sum(1 for s in rec.seats if s.is_computer)
    done: Accepted | Refusal | None = None
    for i, seat in enumerate(seats):
        uid = local_user(i)
        if seat.is_human:
            if uid in taken:
                continue
            name = seat.name or texts.say("terminal.player", lang, number=i + 1)
            done = await service.join(rec.channel_id, uid, name, lang=lang)
        elif computers:
            computers -= 1
            continue
        else:
            done = await service.add_computer(rec.channel_id, host, seat.kind, lang=lang)
        if isinstance(done, Refusal):
            return done
    return done


__all__ = ["add_arguments", "championship_channel", "play"]
