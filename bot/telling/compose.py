"""One composer: a record of what must be shown (:class:`~bot.messages.Showing`) becomes a message.

:func:`compose` is pure apart from what it is given: the record, the game as it stood at the record's move,
the table (who sits where), the language and, for the end of a game, its log. Every front uses it: the
answer to an interaction, the outbox, undo, the end of a game, ``/game board``, the terminal and the demo.
It runs in the picture workers (:func:`compose_state` rebuilds the game from its snapshot there), so the
picture is drawn off the event loop, once per record.

A message's text is its lines worded in the language (the newest that fit, after a "…" line), then the game's
status when the record asks for it or the game is over, else a line naming the person to act. Its buttons
are the moves of the person to act; its picture is the close-up, the whole board or the replay the record
names, and the picture carries a description (alt text, :meth:`GameUnit.alt_text`: what happened, whose turn,
the standings) worded from the public view in the message's language, which Discord reads aloud in the
picture's place.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot import texts
from bot.games import GameUnit, game_class, unit_for
from bot.games.unit import ALT_TEXT_CHARS, ButtonSpec
from bot.messages import EDIT, NOTE, POST, Line, Picture, Showing, spoken
from bot.store import GameRecord, Seat
from render import championship
from rules.contract import Event, Game
from rules.literal import Person, listed, mark

log = logging.getLogger(__name__)

#: the most characters of narration one message keeps (Discord allows 2,000 with the rest)
NARRATION_CHARS = 1500
#: the largest replay posted (Discord's smallest upload limit)
MAX_REPLAY_BYTES = 8_000_000
#: replay sizes tried in turn until the GIF fits (None: the game's own size)
REPLAY_SIZES: tuple[int | None, ...] = (None, 10, 8)
#: the action of a turn message's "What did I miss?" (``?recap:<seat>:<since>:<until>``, see :mod:`bot.clock.recap`)
RECAP_ACTION = "?recap"
#: the most buttons a message carries
MOST_BUTTONS = 25


@dataclass(frozen=True, slots=True)
class Table:
    """What a message needs of a game's record: its id, key, move, language, seats, setup and seed."""

    game_id: int
    game_key: str
    version: int
    lang: str
    seats: tuple[Seat, ...]
    setup: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 0

    def named(self, user_id: int, lang: str) -> Person:
        """``user_id`` as a person: named by their seat, else "someone" in ``lang``."""
        name = next((s.name for s in self.seats if s.user_id == user_id and s.name), None)
        return Person(user_id, name or texts.say("terminal.someone", lang))

    def person(self, seat: int | None) -> int | None:
        """The user in ``seat`` when a person sits there (None for a computer or no seat)."""
        if seat is None or not 0 <= seat < len(self.seats) or self.seats[seat].is_computer:
            return None
        return self.seats[seat].user_id


def table_of(rec: GameRecord, version: int | None = None) -> Table:
    """What a message needs of a game's record, at ``version`` (its own by default)."""
    return Table(rec.id, rec.game_key, rec.version if version is None else version, rec.lang, tuple(rec.seats),
                 rec.setup, rec.seed)


@dataclass(frozen=True, slots=True)
class Message:
    """A message as any front shows it: text, a picture (PNG, or a GIF for a replay) and what it shows, the
    buttons of the move it shows (``game_id`` at ``version``), and the one user it pings. ``description``: the
    picture's description in words (alt text, at most :data:`~bot.games.unit.ALT_TEXT_CHARS` characters)."""

    text: str
    png: bytes | None = None
    filename: str = "board.png"
    buttons: tuple[ButtonSpec, ...] = ()
    mention: int | None = None
    game_id: int | None = None
    version: int | None = None
    shows: Picture = "none"
    description: str = ""


@dataclass(frozen=True, slots=True)
class Moved:
    """A move applied: its notation, every event (hidden ones too, for private notes), the new snapshot, the
    narration the log keeps (in the game's language), the records it owes (kind and payload, made in the
    worker) and the newest one's message."""

    action: str
    events: list[Event]
    state: dict[str, Any]
    narration: str
    rows: list[tuple[str, dict[str, Any]]]
    message: Message


# Words -----------------------------------------------------------------------------------------------


def worded_line(line: Line, front: GameUnit[Any] | None, lang: str,
                whole: Mapping[str, Sequence[Event]] | None = None) -> str:
    """One line in ``lang``: its events as the game words them (the move's whole public events where ``whole``,
    the record's moves by their words, holds them: a line keeps only words), else its catalogue text, else as
    stored."""
    if line.events and front is not None:
        events = (whole or {}).get(_said(line.events), line.events)
        told = front.narrate(list(events), lang=lang)
        if told:
            return told
    if line.say:
        params = {k: worded_line(v, front, lang, whole) if isinstance(v, Line) else v
                  for k, v in line.params.items()}
        count: Any = params.pop("count", None)
        return texts.say(line.say, lang, count=count, **params)
    return line.text


#: a computer's move, worded from its events alone: such lines in a row may be told together
BATCHED = "computer_played"


def _said(events: Sequence[Event]) -> str:
    """A move's events as a record's lines keep them (:func:`bot.messages.spoken`), to find the move again."""
    return json.dumps([spoken(e) for e in events], sort_keys=True, default=str)


def worded_lines(lines: Sequence[Line], front: GameUnit[Any] | None, lang: str,
                 moves: Sequence[Sequence[Event]] = ()) -> list[str]:
    """The lines in ``lang``; a computer's moves in a row by the same player are told together by the game
    (:meth:`~bot.games.unit.GameUnit.narrate_moves`: in Races, a kart's drive over several steps is one line),
    from the whole events of those ``moves`` (the record's, :attr:`Showing.moves`: a line keeps only words);
    lines whose moves are not among them keep a line each."""
    out: list[str] = []
    group: list[Line] = []
    whole = {_said(m): m for m in moves}

    def flush() -> None:
        found = [whole.get(_said(g.events)) for g in group]
        told = ""
        if len(group) > 1 and front is not None and all(m is not None for m in found):
            told = front.narrate_moves([m for m in found if m is not None], lang=lang)
        out.extend(told.split("\n") if told else [worded_line(g, front, lang, whole) for g in group])
        group.clear()

    for line in lines:
        if line.say == BATCHED and line.events:
            if group and group[-1].params.get("name") != line.params.get("name"):
                flush()
            group.append(line)
            continue
        flush()
        out.append(worded_line(line, front, lang, whole))
    flush()
    return out


def trimmed(lines: Sequence[str], limit: int = NARRATION_CHARS) -> list[str]:
    """The newest lines that fit in ``limit`` characters, after a "…" line when older ones were left out."""
    kept: list[str] = []
    used = 0
    for line in reversed(lines):
        if kept and used + len(line) + 1 > limit:
            return ["…", *reversed(kept)]
        kept.append(line[-limit:] if not kept and len(line) > limit else line)
        used += len(line) + 1
    return list(reversed(kept))


def places(front: GameUnit[Any], game: Game) -> list[tuple[int, int]]:
    """(seat, place) in finishing order: the winners share first place, the others follow the standings."""
    won = set(game.winners)
    order = [seat for seat, _ in front.standings(game).rows]
    order += [s for s in range(len(game.seat_names)) if s not in order]
    return [(seat, 1 if seat in won else i + 1) for i, seat in enumerate(order)]


def standings_text(front: GameUnit[Any], game: Game, table: Table, lang: str) -> str:
    """The final table as lines: place, player, the game's own columns, in ``lang``."""
    rows = front.standings(game, lang=lang)
    place = dict(places(front, game))
    lines = [texts.say("history.final_standings", lang, title=front.title, count=table.version)]
    for seat, cells in rows.rows:
        who = table.seats[seat].name if seat < len(table.seats) else game.seat_names[seat]
        rest = [f"{h.lower()} {c}" for h, c in zip(rows.head[1:], cells[1:], strict=False) if c]
        won = " 🏆" if seat in game.winners else ""
        lines.append(f"{texts.ordinal(place[seat], lang)} {mark(who)}{won}" + (f" ({', '.join(rest)})" if rest else ""))
    return "\n".join(lines)


def message_text(showing: Showing, front: GameUnit[Any] | None, game: Game | None, table: Table, lang: str) -> str:
    """The words of a message: its lines (the newest that fit), then the game's status or the next to act."""
    text = "\n".join(trimmed(worded_lines(showing.lines, front, lang, showing.moves)))
    if front is None or game is None:
        return text
    if showing.finale:
        page = texts.say("web.page_link", lang, url=showing.page) if showing.page else ""
        return "\n".join(p for p in (text, standings_text(front, game, table, lang), page) if p)
    if showing.kind == NOTE:
        return text
    if game.is_over or showing.describe:
        return f"{text}\n{front.describe(game, None, lang=lang)}"
    if showing.named is not None:
        return f"{text}\n{texts.say('your_turn', lang, user=table.named(showing.named, lang))}"
    return text


def buttons_for(front: GameUnit[Any], game: Game, table: Table, lang: str) -> tuple[ButtonSpec, ...]:
    """The buttons of the person to act (none for a computer, none once the game is over)."""
    seat = game.to_act
    if game.is_over or seat is None or table.person(seat) is None:
        return ()
    return tuple(front.turn_buttons(game, seat, lang=lang))


def recap_button(recap: tuple[int, int, int], lang: str) -> ButtonSpec:
    """The "What did I miss?" button of a turn whose player had been gone (seat, since, until)."""
    seat, since, until = recap
    return ButtonSpec(texts.say("recap.button", lang), f"{RECAP_ACTION}:{seat}:{since}:{until}")


def with_recap(buttons: Sequence[ButtonSpec], recap: tuple[int, int, int] | None, lang: str
               ) -> tuple[ButtonSpec, ...]:
    """A turn message's buttons, with "What did I miss?" last when the record offers it."""
    if recap is None:
        return tuple(buttons)
    return (*buttons[: MOST_BUTTONS - 1], recap_button(recap, lang))


# Pictures --------------------------------------------------------------------------------------------


def picture_of(showing: Showing, front: GameUnit[Any], game: Game, lang: str) -> bytes | None:
    """The close-up or the whole board the record names, drawing the moves the message tells (the public events
    of every one, :attr:`Showing.told`, as its description does); None for none. A picture is a nicety: one
    that fails is logged and left out."""
    try:
        view = game.view(None)
        if showing.picture == "whole":
            return front.board_picture(view, lang=lang, moves=list(showing.told))
        if showing.picture == "close":
            return front.picture(view, list(showing.told), lang=lang)
    except Exception:
        log.exception("drawing %s failed", front.key)
    return None


def description_of(showing: Showing, front: GameUnit[Any], game: Game, lang: str) -> str:
    """The words of the record's picture: the turn's account (the public events of every move the message
    tells, :attr:`Showing.told`), whose turn and the standings, from the public view; a description that fails
    is logged and left out, like a picture."""
    try:
        return front.alt_text(game, list(showing.told), lang=lang,
                              whole=showing.picture == "whole")[:ALT_TEXT_CHARS]
    except Exception:
        log.exception("describing %s's picture failed", front.key)
    return ""


def replay_description(front: GameUnit[Any], game: Game, table: Table, lang: str) -> str:
    """The words of a game's replay: what it shows, and how the game ended."""
    won = listed(table.seats[s].name if s < len(table.seats) else game.seat_names[s] for s in game.winners)
    return texts.say("alt.replay", lang, count=table.version, title=front.title,
                     winners=won or texts.say("move.nobody", lang))[:ALT_TEXT_CHARS]


def replay_of(front: GameUnit[Any], table: Table, actions: Sequence[str], lang: str, *, asked: bool = False
              ) -> tuple[bytes | None, str]:
    """The game's animated replay at the largest size that fits :data:`MAX_REPLAY_BYTES`, and a note (in
    ``lang``) when there is none to show (``asked``: a replay someone asked for says so of a game that draws
    none, too)."""
    if not front.has_replay:
        return None, texts.say("history.no_animation", lang, title=front.title) if asked else ""
    try:
        for size in REPLAY_SIZES:
            made = front.replay(table.setup, table.seed, list(actions), size, lang=lang)
            if made is None:
                return None, ""
            if len(made[0]) <= MAX_REPLAY_BYTES:
                return made[0], ""
    except Exception:  # a replay is a nicety; the record stands without it
        log.exception("the replay of game %s failed", table.game_id)
        return None, texts.say("history.no_replay_drawn", lang)
    return None, texts.say("history.replay_too_large", lang)


def chart_message(showing: Showing, text: str, table: Table, lang: str) -> Message:
    """A championship's table (:attr:`Showing.chart`) drawn beside ``text``, with its description; a table
    that can't be drawn is logged and left out, the words stand alone."""
    try:
        drawn = championship.draw(championship.from_json(showing.chart), lang)
    except Exception:
        log.exception("drawing the championship table of game %s failed", table.game_id)
        return Message(text, game_id=table.game_id, version=table.version)
    return Message(text, drawn.png, "championship.png", game_id=table.game_id, version=table.version,
                   shows="table", description=drawn.description[:ALT_TEXT_CHARS])


# The composer ----------------------------------------------------------------------------------------


def compose(showing: Showing, table: Table, front: GameUnit[Any] | None, game: Game | None, lang: str, *,
            picture: bytes | None = None, actions: Sequence[str] = ()) -> Message:
    """The message of a record, ``game`` standing at the record's move (None: the record is words only, or
    the game can no longer be shown at that move). ``picture``: the close-up already drawn with the move;
    ``actions``: the game's log, for a replay."""
    text = message_text(showing, front, game, table, lang)
    mention = showing.named if showing.ping else None
    if showing.picture == "table":
        return chart_message(showing, text, table, lang)
    if front is None or game is None:
        return Message(text, mention=mention, game_id=table.game_id, version=table.version)
    if showing.picture == "replay":  # the end of a game, or a replay asked for (it has a heading)
        gif, note = replay_of(front, table, actions, lang, asked=bool(showing.lines))
        return Message(text + note, gif, f"replay-{table.game_id}.gif", mention=mention, game_id=table.game_id,
                       version=table.version, shows="replay" if gif is not None else "none",
                       description=replay_description(front, game, table, lang) if gif is not None else "")
    png = picture if picture is not None and showing.picture == "close" else picture_of(showing, front, game, lang)
    buttons = buttons_for(front, game, table, lang) if showing.board and showing.kind in (POST, EDIT) else ()
    if showing.board and showing.kind in (POST, EDIT) and not game.is_over:
        buttons = with_recap(buttons, showing.recap, lang)
    described = description_of(showing, front, game, lang) if png is not None else ""
    return Message(text, png, "board.png", buttons, mention, table.game_id, table.version,
                   showing.picture if png is not None else "none", described)


def compose_state(showing: Showing, table: Table, state: Mapping[str, Any] | None, lang: str,
                  actions: Sequence[str] = ()) -> Message:
    """:func:`compose` from the game's snapshot at the record's move (None: words only), in a worker: the
    game's rules and unit are the registered ones of ``table.game_key``."""
    front = unit_for(table.game_key)
    game = game_class(table.game_key).from_dict(dict(state)) if state is not None else None
    return compose(showing, table, front, game, lang, actions=actions)


__all__ = ["MAX_REPLAY_BYTES", "NARRATION_CHARS", "RECAP_ACTION", "Message", "Moved", "Table", "chart_message",
           "compose",
           "compose_state", "description_of", "message_text", "places", "recap_button", "replay_description",
           "standings_text", "table_of", "trimmed", "with_recap", "worded_line", "worded_lines"]
