"""What a game's page shows, as data: composed from the public view and the stored delivery records, with the
composer the channel uses.

:func:`page_state` is the page's whole state in one language: the game's title and status, whose turn it is, the
game's public status text (the composer's words for a message that describes the game, on the game as everyone
sees it), the standings (the unit's table), the replay's steps (each move's public narration and the fingerprint
of the step it leads to: the replay's pictures are addressed by step and fingerprint), and the channel's messages
(:func:`messages`: each public message as its newest delivery record words it, with the move it was written at).
:func:`live_event` is the same with the newest steps and messages only, which a page joins to its copy.

Nothing here but :func:`seat_view` reads a seat's view, a hidden event or a private note: the steps tell the move's
public events (the narration the channel was told), the messages are the delivery records of the channel's public
messages composed by :func:`bot.telling.compose.message_text`, the status is the composer's for no viewer, and the
board is drawn from ``game.view(None)`` (:func:`picture`). :func:`seat_view` is one seat's own part (its hidden
things and its moves), served only on that seat's page.
"""

from __future__ import annotations

import html
import io
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from PIL import Image

from bot import texts
from bot.games import GameUnit
from bot.games.unit import REACH_ACTION
from bot.messages import EDIT, POST, RETIRE, Showing
from bot.store import ACTIVE, FINISHED, LOBBY, Delivery, GameRecord
from bot.telling.compose import Table, message_text, places, table_of
from bot.terminal import plain
from bot.web.timeline import Step, Timeline
from render.common import encode_png
from rules.contract import Game
from rules.literal import bare

#: the most characters of one move's narration on the page
ENTRY_CHARS = 600
#: the most characters of the whole log in one answer (older entries keep their step, their words shortened)
LOG_CHARS = 1_500_000
#: the newest steps and messages a live update carries
TAIL = 20
#: the most characters of one message on the page (Discord's own limit)
MESSAGE_CHARS = 2000
#: the page's languages: the project's
LANGS = texts.LANGS
#: a slot of the page's template: ``{{name}}``
_SLOT = re.compile(r"\{\{(\w+)\}\}")


def choose_lang(asked: str | None, accept: str | None, game_lang: str) -> str:
    """The page's language: the one asked for (``?lang=de``), else the first of ours the browser accepts, else the
    game's."""
    if asked in LANGS:
        return str(asked)
    for part in (accept or "").split(","):
        tag = part.split(";")[0].strip().lower()
        for lang in LANGS:
            if tag == lang or tag.startswith(lang + "-"):
                return lang
    return game_lang if game_lang in LANGS else texts.DEFAULT


def clip(text: str, limit: int = ENTRY_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def narration(step: Step, front: GameUnit[Any], rec: GameRecord, lang: str) -> str:
    """What a move told, as the page shows it in ``lang``: the narration the log kept in the game's language, the
    move's public events worded again in another (the kept narration when they word nothing)."""
    told = step.narration
    if lang != rec.lang and step.events:
        told = front.narrate(list(step.events), lang=lang) or told
    return clip(" ".join(plain(told).split()) or texts.say("web.move_quiet", lang))


#: words of moves already worded, by (step fingerprint, language): a page's log is worded once per move
Memo = dict[tuple[str, str], str]


def entries(timeline: Timeline, front: GameUnit[Any], rec: GameRecord, lang: str, start: int = 1,
            memo: Memo | None = None) -> list[dict[str, Any]]:
    """The replay's steps from move ``start`` on: the move's number, its public words and its step's
    fingerprint."""
    out = []
    for n in range(max(1, start), len(timeline.steps)):
        step = timeline.steps[n]
        text = memo.get((step.fingerprint, lang)) if memo is not None else None
        if text is None:
            text = narration(step, front, rec, lang)
            if memo is not None:
                memo[(step.fingerprint, lang)] = text
        out.append({"n": n, "text": text, "fp": step.fingerprint})
    return out


def message_words(d: Delivery, rec: GameRecord, front: GameUnit[Any], final: Game | None, lang: str) -> str:
    """A delivery record's words as the channel's composer words them in ``lang``: its lines, and for the end of
    the game the final standings (``final``: the finished game); people read as their names."""
    record = Showing.from_payload(d.kind, d.payload)
    game = final if record.finale and final is not None and final.is_over else None
    words_only = replace(record, picture="none", describe=False, named=None, ping=False, page=None,
                         finale=game is not None)
    table = replace(table_of(rec, d.version), lang=lang)
    text = message_text(words_only, front, game, table, lang)
    lines = (" ".join(plain(line).split()) for line in text.splitlines())
    return clip("\n".join(line for line in lines if line), MESSAGE_CHARS)


def messages(records: Sequence[Delivery], rec: GameRecord, front: GameUnit[Any], final: Game | None, lang: str,
             memo: Memo | None = None) -> list[dict[str, Any]]:
    """The channel's public messages of the game, oldest first, each as its newest record words it (a turn's
    message is edited move by move: the page shows its last state): ``id`` the record that posted it, ``at`` the
    record it shows, ``n`` the move it was written at, ``text`` its words. Retirements change no words. ``id`` and
    ``at`` count the game's own records (1, 2, 3 …), never the store's ids, which would tell how much the bot
    said in other games."""
    number = {d.id: n for n, d in enumerate(sorted(records, key=lambda r: r.id), start=1)}
    shown: dict[int, Delivery] = {}
    for d in records:
        if d.kind == RETIRE:
            continue
        first = d.payload.get("first") if d.kind == EDIT else None
        key = first if isinstance(first, int) and first in shown else d.id
        shown[key] = d
    out = []
    for key in sorted(shown):
        d = shown[key]
        known = (f"record {d.id}", lang)
        text = memo.get(known) if memo is not None else None
        if text is None:
            text = message_words(d, rec, front, final, lang)
            if memo is not None and not d.payload.get("finale"):
                memo[known] = text
        if text:
            out.append({"id": number[key], "at": number[d.id], "n": d.version, "text": text})
    return out


def standings(front: GameUnit[Any], game: Game, rec: GameRecord, lang: str) -> dict[str, Any]:
    """The unit's standings as a table: the place, then the unit's columns, the seat named as at the table."""
    rows = front.standings(game, lang=lang)
    place = dict(places(front, game))
    body: list[dict[str, Any]] = []
    for seat, cells in rows.rows:
        name = rec.seats[seat].name if seat < len(rec.seats) else cells[0] if cells else "?"
        body.append({"place": texts.ordinal(place.get(seat, len(body) + 1), lang), "won": seat in game.winners,
                     "cells": [name, *cells[1:]]})
    return {"head": [texts.say("web.place", lang), *rows.head], "rows": body}


def turn_line(game: Game, rec: GameRecord, lang: str) -> str:
    """Whose turn it is, or who won."""
    if game.is_over:
        won = [rec.seats[s].name if s < len(rec.seats) else game.seat_names[s] for s in game.winners]
        return texts.say("web.won", lang, names=", ".join(won) or texts.say("move.nobody", lang))
    seat = game.to_act
    if seat is None:
        return ""
    name = rec.seats[seat].name if seat < len(rec.seats) else game.seat_names[seat]
    return texts.say("web.turn", lang, name=name)


def status_text(front: GameUnit[Any], game: Game, table: Table, lang: str) -> str:
    """The game's public status as the channel's composer words it for a message that describes the game."""
    text = message_text(Showing(POST, describe=True), front, game, table, lang)
    return "\n".join(line for line in (plain(t) for t in text.splitlines()) if line.strip())


def head(rec: GameRecord, front: GameUnit[Any], lang: str) -> dict[str, Any]:
    """What every state of the page starts with: the game, its status and language."""
    return {"title": front.title, "status": rec.status, "status_text": texts.status_word(rec.status, lang),
            "lang": lang, "live": rec.status in (LOBBY, ACTIVE)}


def page_state(rec: GameRecord, timeline: Timeline | None, front: GameUnit[Any], game: Game | None, lang: str,
               memo: Memo | None = None, said: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
    """The page's whole state in ``lang`` (see the module's docstring); ``said``: the channel's messages
    (:func:`messages`)."""
    out = {**head(rec, front, lang), "messages": _shortened(said, "text")}
    if timeline is None or game is None:
        seats = ", ".join(s.name for s in rec.seats) or texts.say("lobby.nobody_yet", lang)
        return {**out, "moves": 0, "turn": texts.say("web.lobby", lang, seats=seats), "status_lines": "",
                "standings": None, "start": None, "log": []}
    log = _shortened(entries(timeline, front, rec, lang, memo=memo), "text")
    return {**out, **_live(rec, timeline, front, game, lang), "log": log}


def _shortened(items: Sequence[dict[str, Any]], key: str) -> list[dict[str, Any]]:
    """``items`` within :data:`LOG_CHARS` of words: an enormous log keeps every entry, the oldest words
    shortened to "…"."""
    out = [dict(item) for item in items]
    total = sum(len(item[key]) for item in out)
    for item in out:
        if total <= LOG_CHARS:
            break
        total -= len(item[key]) - 1
        item[key] = "…"
    return out


def live_event(rec: GameRecord, timeline: Timeline | None, front: GameUnit[Any], game: Game | None, lang: str,
               memo: Memo | None = None, said: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
    """A live update: the page's state with the newest :data:`TAIL` steps and messages only, the fingerprint of
    the step before those steps and the id of the message before those messages (a page whose copy differs
    there fetches the whole state)."""
    first = max(0, len(said) - TAIL)
    told = {"said": list(said[first:]), "said_from": first, "said_before": said[first - 1]["id"] if first else None}
    if timeline is None or game is None:
        return {**page_state(rec, timeline, front, game, lang), **told, "messages": None, "tail": [], "base": None}
    start = max(1, timeline.moves - TAIL + 1)
    return {**head(rec, front, lang), **_live(rec, timeline, front, game, lang), **told,
            "tail": entries(timeline, front, rec, lang, start, memo), "base": timeline.steps[start - 1].fingerprint}


def _live(rec: GameRecord, timeline: Timeline, front: GameUnit[Any], game: Game, lang: str) -> dict[str, Any]:
    table = table_of(rec)
    return {"moves": timeline.moves, "turn": turn_line(game, rec, lang),
            "status_lines": status_text(front, game, table, lang),
            "standings": standings(front, game, rec, lang), "start": timeline.steps[0].fingerprint,
            "over": rec.status == FINISHED}


#: the widths (in pixels) a page may ask a board picture at (``?w=``): a phone's, a tablet's, a wide screen's
WIDTHS = (360, 540, 720, 1080)
#: the two pictures of a step: the whole board, and the close-up the channel is shown (``close``)
WHOLE, CLOSE = "whole", "close"


def has_close_up(front: GameUnit[Any]) -> bool:
    """Whether the game's chat picture is a close-up of the board (its whole board is another picture)."""
    return type(front).board_picture is not GameUnit.board_picture


def picture(front: GameUnit[Any], step: Step, lang: str, kind: str = WHOLE) -> bytes | None:
    """The board at a step, drawn from its public view, in ``lang``: the whole board (``board_picture``), or the
    close-up the channel is shown after that move (the unit's ``picture`` of the step's public events, the whole
    board for a game without one)."""
    if kind == CLOSE and has_close_up(front):
        return front.picture(step.view, list(step.events), lang=lang) or front.board_picture(step.view, lang=lang)
    return front.board_picture(step.view, lang=lang)


def scaled(png: bytes, width: int) -> bytes:
    """``png`` shrunk to ``width`` pixels wide, its proportions kept (itself when it is no wider)."""
    size = png_size(png)
    if size[0] <= width:
        return png
    with Image.open(io.BytesIO(png)) as image:
        small = image.convert("RGB").resize((width, max(1, round(size[1] * width / size[0]))), Image.Resampling.LANCZOS)
    return encode_png(small)


def as_json(data: Any) -> bytes:
    """JSON as served (and as embedded in the page: ``<`` escaped, so no text closes the script element; the
    marks around names, :mod:`rules.literal`, left out where a text reached it without :func:`plain`)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return bare(text).replace("<", "\\u003c").encode("utf-8")


#: the words the page's script needs, by the name it knows them under
SCRIPT_WORDS = ("live", "over", "replay_step", "start_position", "back_to_live", "reconnecting", "play", "pause",
                "board_alt", "no_board", "newest", "seat_wait", "seat_sent", "seat_ways", "seat_no_cell",
                "seat_cancel", "seat_failed", "seat_over", "close_alt", "step_item")


def seat_view(rec: GameRecord, front: GameUnit[Any] | None, game: Game | None, seat: int, step: int, lang: str
              ) -> dict[str, Any]:
    """What a seat's page shows only to that seat, in ``lang``: its hidden things (the unit's ``hand_text``),
    and, when it may act, its moves: the unit's ``buttons`` (the labels and actions Discord offers) and the
    cells of the newest board (step ``step``) it may tap, each with its box in the picture's pixels and the ways
    there (``targets``). ``version``: the game's version those moves belong to (a move sends it back)."""
    out: dict[str, Any] = {"version": rec.version, "step": step, "seat": seat, "to_act": False, "hand": "",
                           "buttons": [], "targets": []}
    if front is None or game is None or rec.status != ACTIVE:
        return out
    hand = (plain(line) for line in front.hand_text(game, seat, lang=lang).splitlines())
    out["hand"] = clip("\n".join(" ".join(line.split()) for line in hand if line.strip()), MESSAGE_CHARS)
    if game.is_over or not game.may_act(seat):
        return out
    out["to_act"] = True
    out["buttons"] = [{"label": plain(b.label), "action": b.action, "style": b.style}
                      for b in front.buttons(game, seat, lang=lang) if b.action != REACH_ACTION]
    out["targets"] = [{"cell": t.cell, "box": list(t.box),
                       "ways": [{"label": w.label, "action": w.action} for w in t.ways]}
                      for t in front.taps.targets(game, seat, lang=lang)]
    return out


def seat_html(name: str, csrf: str, lang: str) -> str:
    """The part of a seat's page only that seat sees, before its script fills it: the heading of its moves, the
    places of its hidden things, its buttons and the ways to a tapped cell, and the link's CSRF token (sent back
    with each move)."""
    say = {key: html.escape(texts.say(f"web.{key}", lang)) for key in ("seat_heading", "seat_hand", "seat_hint")}
    data = as_json({"csrf": csrf}).decode("utf-8")
    return (f'<section id="mine" aria-labelledby="mine-heading">\n'
            f'  <h2 id="mine-heading">{html.escape(texts.say("web.seat_heading_named", lang, name=name))}</h2>\n'
            f'  <p id="seat-note" aria-live="polite"></p>\n'
            f'  <div id="seat-buttons" class="moves" role="group" aria-label="{say["seat_heading"]}"></div>\n'
            f'  <p id="seat-hint" class="hint" hidden>{say["seat_hint"]}</p>\n'
            f'  <div id="seat-cells" class="cells" role="group" aria-label="{say["seat_hint"]}"></div>\n'
            f'  <div id="seat-ways" class="moves" role="group" hidden></div>\n'
            f'  <h3>{say["seat_hand"]}</h3>\n'
            f'  <p id="seat-hand"></p>\n'
            f'</section>\n'
            f'<script type="application/json" id="seat">{data}</script>\n')


def words(lang: str) -> dict[str, str]:
    """The page script's texts in ``lang``, their placeholders (``{n}``, ``{count}``) left for the script."""
    return {name: texts.CATALOGUE.template(f"web.{name}", lang) for name in SCRIPT_WORDS}


@dataclass(frozen=True, slots=True)
class Board:
    """The board a page opens on: its address (``src`` relative to the page, ``url`` absolute, for link
    previews), its size in pixels, its step (0: the start), its close-up's size (None: the game has none), and
    whether a narrow screen opens on the close-up (a seat with a cell to tap opens on the whole board)."""

    src: str
    url: str
    width: int
    height: int
    step: int
    close: tuple[int, int] | None = None
    close_first: bool = True


def png_size(png: bytes) -> tuple[int, int]:
    """The width and height of a PNG picture (from its header)."""
    return int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")


#: how wide the board is shown: the viewer's column on a wide screen (its grid and paddings, page.css), the
#: whole width less the paddings on a narrow one
BOARD_SIZES = "(min-width: 1280px) 724px, (min-width: 900px) calc(60vw - 36px), calc(100vw - 46px)"
#: the widest screen the close-up is shown on (page.css hides its switch above)
CLOSE_MEDIA = "(max-width: 599px)"


def widths(own: int) -> list[int]:
    """The widths a picture ``own`` pixels wide is offered at: each of :data:`WIDTHS` well below its own, and
    its own."""
    return [w for w in WIDTHS if w < own * 0.9] + [own]


def srcset(src: str, own: int) -> str:
    """The ``srcset`` of a picture at ``src`` (its address with its query) ``own`` pixels wide."""
    return ", ".join(f"{src}&w={w} {w}w" if w < own else f"{src} {w}w" for w in widths(own))


def _board_html(board: Board | None, lang: str) -> tuple[str, str]:
    """The board's picture element and its zoom link's address: the whole board's address, its smaller sizes
    and its size in the page (its place kept before it comes, shown without the script), and on a narrow screen
    the close-up the channel is shown, when the game has one; hidden when there is none yet. ``data-whole`` and
    ``data-close`` name the widths offered, for the script's later steps."""
    if board is None:
        alt = html.escape(texts.say("web.no_board", lang))
        return f'<picture><img id="board" alt="{alt}" hidden></picture>', "#"
    alt = texts.say("web.start_position", lang) if board.step == 0 else texts.say("web.board_alt", lang,
                                                                                   n=board.step)
    src = html.escape(board.src)
    whole = " ".join(map(str, widths(board.width)))
    source = ""
    if board.close is not None:
        close_src = board.src.replace(".png?", "-close.png?")
        # a seat with a cell to tap opens on the whole board: its script offers the close-up once that is done
        offered, (w, h) = ((srcset(close_src, board.close[0]), board.close) if board.close_first
                           else (srcset(board.src, board.width), (board.width, board.height)))
        source = (f'<source id="board-close" media="{CLOSE_MEDIA}" srcset="{html.escape(offered)}" '
                  f'sizes="calc(100vw - 46px)" width="{w}" height="{h}" '
                  f'data-close="{" ".join(map(str, widths(board.close[0])))}">')
    image = (f'<img id="board" src="{src}" srcset="{html.escape(srcset(board.src, board.width))}" '
             f'sizes="{BOARD_SIZES}" width="{board.width}" height="{board.height}" alt="{html.escape(alt)}" '
             f'data-whole="{whole}" fetchpriority="high">')
    return f"<picture>{source}{image}</picture>", src


def standings_html(data: Mapping[str, Any] | None) -> str:
    """The standings' rows as the page's script writes them (:func:`standings`), in the page before it runs: the
    head, then a row per seat, each cell after the name named by its column (a phone shows the names)."""
    if not data:
        return ""
    esc = html.escape
    head = "".join(f'<th scope="col">{esc(h)}</th>' for h in data["head"])
    rows = []
    for row in data["rows"]:
        cells = [row["place"], *row["cells"]]
        tds = "".join(f'<td data-label="{esc(data["head"][i])}">{esc(c)}</td>' if 1 < i < len(data["head"])
                      else f"<td>{esc(c)}</td>" for i, c in enumerate(cells))
        won = ' class="won"' if row["won"] else ""
        rows.append(f"<tr{won}>{tds}</tr>")
    return f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody>"


def _social(title: str, description: str, board: Board | None) -> str:
    """The link preview's tags (Open Graph, and the card of the sites that read theirs): the game, its players
    and status, the board's picture."""
    tags = [("property", "og:type", "website"), ("property", "og:title", title),
            ("property", "og:description", description)]
    if board is not None:
        tags += [("property", "og:image", board.url), ("property", "og:image:width", str(board.width)),
                 ("property", "og:image:height", str(board.height))]
    tags += [("name", "twitter:card", "summary_large_image" if board is not None else "summary"),
             ("name", "twitter:title", title), ("name", "twitter:description", description)]
    if board is not None:
        tags.append(("name", "twitter:image", board.url))
    return "".join(f'<meta {kind}="{name}" content="{html.escape(value)}">\n' for kind, name, value in tags)


def document(template: str, title: str, state_json: str, lang: str, token: str, other: Sequence[str],
             extra: Mapping[str, str] | None = None, *, players: Sequence[str] = (), over: bool = False,
             status: str = "", board: Board | None = None, prefix: str = "g") -> str:
    """The page: the template with its words in ``lang``, the state (:func:`as_json` of :func:`page_state`) and
    the script's words embedded as JSON, links to the page in the ``other`` languages, and ``extra`` slots; its
    description names the game and its ``players``, its heading says whether the game is ``over``; its link
    preview names the game, the players and its ``status``, and shows the ``board`` it opens on (also in the
    page itself); ``prefix``: the kind of page (``g`` a game's, ``p`` a seat's), for the language links."""
    say = {key: html.escape(texts.say(f"web.{key}", lang)) for key in
           ("heading_live", "heading_replay", "heading_standings", "heading_log", "first", "back", "forward",
            "last", "slider", "noscript", "footer", "standings_region", "show_whole", "steps")}
    seated = ", ".join(players) or texts.say("lobby.nobody_yet", lang)
    picture, zoom = _board_html(board, lang)
    shown = json.loads(state_json)  # the words the script shows first, in place already: nothing moves
    steps = shown.get("log") or []
    caption = steps[-1]["text"] if steps else texts.say("web.start_position", lang) if shown.get("moves") else ""
    social = _social(title, texts.say("web.share_description", lang, players=seated, status=status), board)
    switch = " · ".join(f'<a href="/{prefix}/{token}?lang={o}" hreflang="{o}" lang="{o}">'
                        f"{html.escape(texts.language_name(o, o))}</a>" for o in other)
    values = {**{f"say_{k}": v for k, v in say.items()}, "lang": lang, "title": html.escape(title),
              "page_title": html.escape(texts.say("web.page_title", lang, title=title)),
              "heading": html.escape(texts.say("web.over" if over else "web.heading_live", lang)),
              "description": html.escape(texts.say("web.description", lang, title=title, players=seated)),
              "social": social, "board": picture, "zoom": zoom,
              "whole": "" if board is not None and board.close is not None else " hidden",
              "status_text": html.escape(shown.get("status_text") or ""), "turn": html.escape(shown.get("turn") or ""),
              "caption": html.escape(caption),
              "standings": standings_html(shown.get("standings")),
              "status_lines": html.escape(shown.get("status_lines") or ""),
              "state": state_json, "words": as_json(words(lang)).decode("utf-8"), "languages": switch, "seat": "",
              **(extra or {})}
    return _SLOT.sub(lambda m: values[m.group(1)], template)  # one pass: no value is read as a slot


__all__ = ["LANGS", "TAIL", "Board", "choose_lang", "document", "entries", "live_event", "message_words", "messages",
           "page_state", "picture", "png_size", "scaled", "seat_html", "seat_view", "standings", "words"]
