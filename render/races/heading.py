"""What the heading of a Junkyard Races picture says: whose move the picture draws, and who is next.

Once a turn is over its path stays on the picture while the next kart's turn begins (see
:func:`render.races.live.with_last_move`), so a heading that named only the player to act would put one
player's move under another's name. :func:`heading` gives the lines every picture's heading is made of: the
move drawn and whose it was, then who is next with their phase and dice; one line while the turn drawn is
still going on. Turns are counted in rounds, as players count them (every kart drives once a round), by
:func:`round_number`; the end of a race names its winners.

The close-up's strip (:mod:`render.races.chat`), the status panel (:mod:`render.races.live`) and the
replay's strip (:mod:`render.races.replay`) draw these lines, each in its own size.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from render.races.words import phase_short, phase_title, say

MOVED, NEXT, NOW, ASKED, OVER = "moved", "next", "now", "asked", "over"


@dataclass(frozen=True)
class HeadLine:
    """One line of a heading: what it says (``kind``: the turn drawn was another kart's and is over
    (:data:`MOVED`), who is next after it (:data:`NEXT`), the turn going on (:data:`NOW`), a question asked of
    another player (:data:`ASKED`), the end of the race (:data:`OVER`)); the kart it is about (seat, colour,
    player's name; for the end, the first winner); its words; its round and phase; and for the player to act
    the dice of the turn, their total and the points left to drive."""

    kind: str
    seat: int | None
    colour: str
    name: str
    words: str
    number: int = 0
    phase: str = ""
    dice: tuple[tuple[str, int], ...] = ()
    total: int = 0
    to_go: str = ""

    @property
    def over(self) -> bool:
        return self.kind == OVER


def round_number(view: Mapping[str, Any], number: int | None = None) -> int:
    """The round a turn belongs to (1, 2, …): the engine numbers every kart's turn, a round has one each."""
    karts = max(1, len(view.get("karts") or ()))
    n = int(number if number is not None else (view.get("turn") or {}).get("number", 1))
    return (max(1, n) - 1) // karts + 1


def rounds_played(view: Mapping[str, Any]) -> int:
    """How many rounds the race has lasted so far (the round of the turn now or just ended)."""
    return round_number(view)


def drawn_turn(view: Mapping[str, Any], last_turn: Mapping[str, Any] | None = None) -> Mapping[str, Any] | None:
    """The finished turn whose path the picture draws, when it is not the turn going on (None otherwise). A view
    drawing the moves a message tells (:func:`render.races.live.with_told`) draws another kart's turn when no
    drive it draws is the turn's own kart's: the last kart that drove, whose turn came as many turns back as it
    sits seats back."""
    turn = view.get("turn") or {}
    told = view.get("told")
    if told is not None:
        drove = [p.get("seat") for p in told.get("paths") or ()]
        if not drove or turn.get("seat") in drove or turn.get("seat") is None:
            return None
        karts = max(1, len(view.get("karts") or ()))
        back = (int(turn["seat"]) - int(drove[-1])) % karts
        return {"seat": drove[-1], "number": int(turn.get("number", 1)) - back}
    if turn.get("path") or turn.get("marks"):
        return None
    last = last_turn or view.get("last_turn")
    if last and (last.get("path") or last.get("marks")) and last.get("seat") != turn.get("seat"):
        return last
    return None


def _kart(view: Mapping[str, Any], seat: Any) -> Mapping[str, Any]:
    for k in view.get("karts") or ():
        if k.get("seat") == seat:
            return dict(k)
    return {}


def heading(view: Mapping[str, Any], lang: str = "en", last_turn: Mapping[str, Any] | None = None,
            phase_words: str = "short") -> list[HeadLine]:
    """The heading's lines for ``view`` in ``lang``: who moved (the turn drawn) and who is next, or who won.
    ``phase_words`` is ``short`` (``roll``) or ``title`` (``Phase 3: roll``)."""
    karts = list(view.get("karts") or ())
    winners = list(view.get("winners") or ())
    if winners:
        names = " & ".join(k["name"] for k in karts if k["seat"] in winners)
        first = _kart(view, winners[0])
        return [HeadLine(OVER, winners[0], first.get("colour", ""), names,
                         say("strip.over", lang, count=rounds_played(view), names=names), rounds_played(view))]
    turn = view.get("turn") or {}
    phase = str(view.get("phase", ""))
    phase_word = (phase_title if phase_words == "title" else phase_short)(phase, lang)
    seat = turn.get("seat")
    me = _kart(view, seat)
    name = str(me.get("name", ""))
    rolled = tuple((c, int(v)) for c in ("green", "white", "red") for v in (turn.get("dice") or {}).get(c, ()))
    to_go = ""
    if phase == "move":
        to_go = say("strip.to_go_reversing" if turn.get("reversing") else "strip.to_go", lang,
                    count=int(turn.get("points", 0)))
    lines = []
    done = drawn_turn(view, last_turn)
    number = round_number(view)
    total = int(turn.get("total", 0))
    if done is not None:
        mover = _kart(view, done.get("seat"))
        then = round_number(view, done.get("number"))
        lines.append(HeadLine(MOVED, done.get("seat"), mover.get("colour", ""), str(mover.get("name", "")),
                              say("strip.moved", lang, name=mover.get("name", ""), number=then), then))
        lines.append(HeadLine(NEXT, seat, me.get("colour", ""), name,
                              say("strip.next", lang, name=name, number=number, phase=phase_word), number,
                              phase_word, rolled, total, to_go))
    else:
        lines.append(HeadLine(NOW, seat, me.get("colour", ""), name,
                              say("strip.head", lang, name=name, number=number, phase=phase_word), number,
                              phase_word, rolled, total, to_go))
    to_act = view.get("to_act")
    if to_act is not None and to_act != seat:  # a question for another player (R14)
        other = _kart(view, to_act)
        lines.append(HeadLine(ASKED, to_act, other.get("colour", ""), str(other.get("name", "")),
                              say("strip.asked", lang, name=other.get("name", "")), number))
    return lines


__all__ = ["ASKED", "MOVED", "NEXT", "NOW", "OVER", "HeadLine", "drawn_turn", "heading", "round_number",
           "rounds_played"]
