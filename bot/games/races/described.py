"""Junkyard Races in words: the description every posted picture carries (read aloud in its place) and the
text board a player asks for.

A picture's description (:func:`alt_text`) comes from the public view and the public events only, so it
never names a face-down tile. It says, in this order: why the whole track is shown (a new lap, for the whole
board), what happened over every move the message tells (the turn's account, :mod:`bot.games.races.account`:
a drive once, by its real start, end and length, then every bump, throw, fall, lap and pick-up), who is to
act and what they can do, and the standings in one sentence (the leader, then every other kart's gap in
cells round the race, or in flags when it is a lap or more behind). It is written to be heard as well as
read, and a number never follows another number without a word between them. Discord keeps 1,024
characters: when a busy turn does not fit, the rest (rolls, deliveries) gives way first, then gains and
losses, then laps ("…" says so); a move of a kart is never left out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.drivers.races import progress, track_info
from bot.games import telling
from bot.games.races import account, table, texts
from bot.games.races.moves import prompt, tiles_text
from rules.contract import Event, Game
from rules.hexgrid import Facing, parse_label
from rules.literal import Name
from rules.races.state import Kart


def kart_name(kart: Kart | Mapping[str, Any], lang: str) -> str:
    """A kart as the picture names it: the player, its colour and the number on it (``Ann (red, 1)``)."""
    seat, name, colour = ((kart.seat, kart.name, kart.colour) if isinstance(kart, Kart)
                          else (kart["seat"], kart["name"], kart["colour"]))
    return texts.say("alt.kart", lang, name=Name(name), colour=texts.colour(colour, lang), number=seat + 1)


def turn_sentence(game: Any, lang: str) -> str:
    """Who is to act and what they can do now (who won, once the race is over)."""
    if game.is_over:
        won = ", ".join(kart_name(game.karts[s], lang) for s in game.winners) or texts.say("describe.nobody", lang)
        return texts.say("alt.over", lang, winners=won)
    seat = game.to_act
    if seat is None:
        return ""
    what = prompt(game, lang).rstrip(".") if game.view(None).get("choice") else table.situation(game, lang)
    kart = game.karts[seat]
    return texts.say("alt.turn" if kart.cell is not None else "alt.turn_off", lang, who=kart_name(kart, lang),
                     cell=kart.cell.label if kart.cell is not None else "", what=what.rstrip("."))


def standings_sentence(game: Any) -> list[tuple[str, dict[str, Any]]]:
    """The standings as catalogue ids and parameters: the leader first, then each kart's gap to it."""
    info = track_info(game.track)
    order = sorted(game.karts, key=lambda k: (k.seat not in game.winners, -k.flags, -progress(info, k), k.seat))
    lead = order[0]
    rest: list[tuple[str, dict[str, Any]]] = []
    for k in order[1:]:
        gap = progress(info, lead) - progress(info, k)
        if k.cell is None:
            rest.append(("alt.not_entered", {"kart": k}))
        elif lead.flags > k.flags and gap >= info.lap:  # a lap or more behind: counted in flags
            rest.append(("alt.flags_behind", {"kart": k, "count": lead.flags - k.flags}))
        else:  # as many flags (or fewer, less than a lap back): counted in cells, never "0 behind"
            cells = max(0, round(gap))
            rest.append(("alt.cells_behind" if cells else "alt.level", {"kart": k, "count": cells}))
    # a kart leads only when no other is level with it (the same flags, the same cell round the race)
    shared = lead.cell is not None and any(msg == "alt.level" for msg, _ in rest)
    first = "alt.shares_lead" if shared else "alt.leads" if lead.cell is not None else "alt.leads_off"
    return [(first, {"kart": lead, "count": lead.flags, "laps": game.laps,
                     "cell": lead.cell.label if lead.cell else ""}), *rest]


def standings_text(game: Any, lang: str) -> str:
    """The standings in one sentence, in ``lang``."""
    parts = []
    for msg, params in standings_sentence(game):
        words = {**params, "kart": kart_name(params["kart"], lang)}
        count = words.pop("count", None)
        parts.append(texts.say(msg, lang, count=count, **words))
    return texts.say("alt.standings", lang, lead=parts[0], rest="; ".join(parts[1:])) if parts[1:] \
        else texts.say("alt.standings_alone", lang, lead=parts[0])


def one_line(text: str) -> str:
    """Lines of narration as one paragraph (a line without a closing mark gets a full stop)."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    return " ".join(ln if ln[-1] in ".!?…:" else f"{ln}." for ln in lines)


def told(events: Sequence[Event], lang: str, most: int = account.REST) -> str:
    """The turn's account (:mod:`bot.games.races.account`) in one paragraph: every move, a drive by its ends;
    ``most``: the heaviest weight told (moves are always told)."""
    return " ".join(account.sentences(account.account(events), lang, most))


def whole_sentence(game: Any, lang: str) -> str:
    """Why the whole track is shown: the leader has started a new lap."""
    info = track_info(game.track)
    lead = max(game.karts, key=lambda k: (k.flags, progress(info, k) if k.cell is not None else -1, -k.seat))
    return texts.say("alt.whole", lang, kart=kart_name(lead, lang), lap=min(lead.flags + 1, game.laps),
                     laps=game.laps)


def alt_text(game: Game, events: Sequence[Event], lang: str, *, whole: bool = False) -> str:
    """The description of a picture of the race at ``game`` (see the module's docstring): ``events`` are the
    public events of every move the message tells; ``whole``: the picture is the whole track a new lap brought,
    which the description says first."""
    g: Any = game
    head = whole_sentence(g, lang) if whole and not g.is_over else ""
    status = [turn_sentence(g, lang), standings_text(g, lang)]
    return telling.described(head, lambda most: told(events, lang, most) if events else "", status,
                             (account.REST, account.GAIN, account.LAP, account.MOVE))


def _next_to(game: Any, view: Mapping[str, Any], kart: Mapping[str, Any], lang: str) -> str:
    """What lies on the cells around a kart: other karts and tiles (a face-down tile only as one)."""
    if not kart.get("cell"):
        return ""
    here = parse_label(kart["cell"])
    karts = {k["cell"]: k for k in view["karts"] if k.get("cell") and k["seat"] != kart["seat"]}
    found = []
    for facing in Facing:
        cell = here.neighbour(facing).label
        things = []
        if cell in karts:
            things.append(kart_name(karts[cell], lang))
        tile = view["board"].get(cell)
        if tile is not None:
            things.append(texts.say("alt.face_down", lang) if tile.get("face_down", True)
                          else texts.tile(tile["kind"], lang))
        if things:
            found.append(texts.say("alt.around_cell", lang, facing=texts.facing(facing.name, lang), cell=cell,
                                   things=", ".join(things)))
    return "; ".join(found) or texts.say("alt.around_nothing", lang)


def text_board(game: Game, viewer: int | None, lang: str, title: str) -> str:
    """The whole race in words for ``viewer``: the track and laps, then per kart its cell and facing,
    flags, bottle tops, parts and tiles (the viewer's own by name, the others' counted) and what lies next
    to it; then who is to act and the standings."""
    g: Any = game
    view = game.view(viewer)
    lines = [texts.say("describe.head_teams" if view.get("teams") else "describe.head", lang, count=view["laps"],
                       title=title, track=Name(view["track"]), ply=view["ply"])]
    for k in view["karts"]:
        where = texts.say("describe.where", lang, cell=k["cell"], facing=texts.facing(k.get("facing", "?"), lang)) \
            if k.get("cell") else texts.say("describe.not_entered", lang)
        parts = ", ".join(texts.part(p, lang) for _, p in sorted((k.get("parts") or {}).items(),
                                                                  key=lambda kv: int(kv[0])))
        tiles = tiles_text(k, lang) if k["seat"] == viewer else texts.say(
            "describe.tiles", lang, count=sum(len(t) for t in (k.get("bags") or {}).values()))
        lines.append(texts.say("alt.board_kart", lang, kart=kart_name(k, lang), where=where, flags=k.get("flags", 0),
                               laps=view["laps"],
                               tops=texts.say("describe.bottle_tops", lang, count=k.get("bottle_tops", 0)),
                               parts=parts or texts.say("hand.no_parts", lang), tiles=tiles,
                               around=_next_to(g, view, k, lang)))
    lines += [turn_sentence(g, lang), standings_text(g, lang)]
    return "\n".join(line for line in lines if line)


__all__ = ["alt_text", "kart_name", "standings_text", "text_board", "turn_sentence"]
