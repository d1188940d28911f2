"""What the Junkyard Races front ends read off the legal actions: steps by their relative word, whole moves
by their end cell (furthest round the race first), names of parts and crew, a kart's tiles as text (in the
language asked for)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.drivers.races import mode_of, track_info
from bot.games.races import texts
from rules.catalogue import LANGS
from rules.contract import Game
from rules.races import actions as act
from rules.races import catalogue
from rules.races.state import PRINTED_BAG

log = logging.getLogger(__name__)

RELATIVE = {-1: "left", 0: "straight", 1: "right"}
FACINGS = ("N", "NE", "SE", "S", "SW", "NW")


def legal(game: Game | None, seat: int | None) -> list[Any]:
    """The legal actions of ``seat`` now; empty when it is not theirs to act."""
    if game is None or seat is None or game.is_over or not game.may_act(seat):
        return []
    return list(game.legal_actions())


def step_word(game: Any, step: act.Step) -> str | None:
    """``left``/``straight``/``right`` for a legal step to a neighbouring cell, if it is one of those."""
    kart = game.karts[game.turn.seat]
    if kart.cell is None or step.cell is None:
        return None
    for turn, word in RELATIVE.items():
        if game.turn.reversing:
            target = kart.cell.neighbour(kart.facing.opposite.turn(-turn))
        else:
            target = kart.cell.neighbour(kart.facing.turn(turn))
        if target == step.cell:
            return word
    return None


def destinations(game: Any, actions: Sequence[Any]) -> dict[str, act.Move]:
    """End cell → whole move (a path spending every point), from the legal actions, furthest round the
    race first (so the few that fit on buttons are the useful ones). A move that leaves junk tiles where
    they lie (R18) is the same destination: the plain move stands for it."""
    out: dict[str, act.Move] = {}
    for a in actions:
        if isinstance(a, act.Move) and a.cells and not a.leave:
            out.setdefault(a.cells[-1].label, a)
    if len(out) < 2:
        return out
    try:
        ahead = ahead_of(game)
        ranked = sorted(out.items(), key=lambda kv: (-ahead(kv[1].cells)[0], kv[0]))
    except Exception:  # progress is a nicety: fall back to the engine's order
        log.exception("ranking destinations failed")
        return out
    return dict(ranked)


def ahead_of(game: Any) -> Callable[[Sequence[Any]], tuple[float, int]]:
    """For a path of the kart to act: how far round the race it ends (larger is further on) and the flags
    it takes on the way. Bumps and traps are not foreseen: this only orders lists."""
    info = track_info(game.track)
    kart = game.karts[game.turn.seat]
    #: the paths to rank share their first steps: a tree of where the kart stands (cell, facing, mode, flags)
    #: after each prefix walked, so each prefix is walked once
    root: tuple[tuple[Any, Any, Any, int], dict[Any, Any]] = ((kart.cell, kart.facing, mode_of(kart), 0), {})

    def ahead(cells: Sequence[Any]) -> tuple[float, int]:
        at, kids = root
        for nxt in cells:
            node = kids.get(nxt)
            if node is None:
                cell, facing, mode, flags = at
                if cell is not None:
                    step, mode, scored = info.moved(cell, nxt, mode)
                    facing = facing if step is None else step  # (Facing.N is 0: no truth test)
                    flags += scored
                node = kids[nxt] = ((nxt, facing, mode, flags), {})
            at, kids = node
        cell, facing, mode, flags = at
        return flags * info.lap - info.remaining(cell, facing, mode), flags

    return ahead


def choice_label(kind: str, option: str, lang: str = "en") -> str:
    """A button label for an answer to a pending choice, in ``lang`` (the option itself is notation)."""
    if kind == "bag":
        return texts.say("button.bag", lang, option=option)
    if kind == "ram" and option.isdigit():
        return texts.say("button.ram", lang, count=int(option))
    if kind == "snatch":
        return texts.say("button.snatch", lang, option=option)
    if kind == "facing":
        return texts.facing(option, lang)
    return option


def prompt(game: Any, lang: str = "en") -> str:
    """The pending question (R14) in ``lang``: the rules' question when the choice names it, else (a choice
    stored before questions had ids) its English prompt, or in another language the question of its kind."""
    choice = game.choice
    if choice is None:
        return ""
    context = choice.context or {}
    asked = texts.rules_text(context.get("ask"), lang)
    if asked is not None:
        return asked
    if texts.lang_of(lang) == "en":
        return str(choice.prompt)
    if choice.kind == "enter":
        return texts.say("prompt.enter", lang)
    if choice.kind == "ram" and context.get("target"):
        return texts.say("prompt.ram", lang, cell=context["target"])
    if choice.kind == "bag" and "tile" in context:
        return texts.say("prompt.bag_covered", lang, count=1 + len(context.get("queue") or ()), bag=PRINTED_BAG)
    if choice.kind == "bag":
        return texts.say("prompt.bag", lang)
    if choice.kind == "facing":
        seat = context.get("seat", choice.seat)
        if seat == choice.seat:
            return texts.say("prompt.spring", lang)
        kart = game.karts[seat]
        return texts.say("prompt.magnet", lang, colour=texts.colour(kart.colour, lang), cell=kart.cell.label)
    return texts.say("prompt.other", lang)


def part_name(pid: str, lang: str = "en") -> str:
    """A part's name in ``lang`` (its id when there is no such part)."""
    return texts.part(pid, lang) if pid in catalogue.parts() else pid


def resolve_part(text: str) -> str | None:
    """A part id from its id or its name in any language, in any case, with spaces or hyphens."""
    want = "-".join(text.lower().replace("_", " ").split())
    for pid in catalogue.parts():
        names = {pid, *("-".join(texts.part(pid, lang).lower().split()) for lang in LANGS)}
        if want in names:
            return pid
    return None


def resolve_crew(text: str) -> str | None:
    want = " ".join(text.lower().replace("-", " ").split())
    for cid, member in catalogue.crew().items():
        if want in (cid.lower().replace("-", " "), member.name.lower()):
            return cid
    return None


def tiles_text(kart: Mapping[str, Any], lang: str = "en") -> str:
    """A kart's saddlebag tiles as its owner sees them (``+`` marks a tile kept face up), in ``lang``."""
    bags = kart.get("bags") or {}
    parts = []
    for loc, tiles in sorted(bags.items(), key=lambda kv: int(kv[0])):
        if tiles:
            shown = ", ".join(texts.say("tiles.face_up", lang, tile=texts.tile(t.removesuffix("+"), lang))
                              if t.endswith("+") else texts.tile(t, lang) for t in tiles)
            parts.append(texts.say("tiles.bag", lang, bag=loc, tiles=shown))
    return "; ".join(parts) or texts.say("tiles.none", lang)


def hand_text(game: Game, seat: int, lang: str = "en") -> str:
    """Everything only ``seat`` may know about its kart: tiles, parts, bottle tops, fuel dice, in ``lang``."""
    kart = game.view(seat)["karts"][seat]
    parts = ", ".join(f"{loc}: {part_name(p, lang)}" for loc, p in sorted((kart.get("parts") or {}).items(),
                                                                            key=lambda kv: int(kv[0])))
    fuel = kart.get("fuel") or {}
    return texts.say("hand.text", lang, colour=texts.colour(kart["colour"], lang), tiles=tiles_text(kart, lang),
                     parts=parts or texts.say("hand.no_parts", lang), tops=kart.get("bottle_tops", 0),
                     white=fuel.get("white", 0), red=fuel.get("red", 0))
