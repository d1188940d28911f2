"""Where can I go? in words: the description the reach picture carries (read aloud in its place).

It says what the picture shows, for the ear: from where and with how many points, how many cells the kart
can end on and how many more it can only drive through, the farthest end along the track (the fewest steps
left to the next flag), and what lies on the cells it can reach (a face-down tile only as one, never by its
kind), the nearest first, at most :data:`NOTABLE` of them.
"""

from __future__ import annotations

from bot.drivers.races import track_info
from bot.games.races import texts
from bot.games.races.described import kart_name
from bot.games.unit import ALT_TEXT_CHARS, fitted
from rules.hexgrid import Facing, Hex
from rules.races import Races
from rules.races.progress import mode_of
from rules.races.reach import Reach

#: how many things on the reachable cells the description names
NOTABLE = 4


def reach_text(game: Races, found: Reach, seat: int, lang: str) -> str:
    """The reach picture of ``seat`` (the kart to act) in words, in ``lang``, from its view."""
    kart = game.karts[seat]
    info = track_info(game.track)
    mode = mode_of(kart)

    def left(cell: Hex) -> float:
        return min(info.remaining(cell, f, mode) for f in Facing)

    ends = sorted(found.ends, key=lambda c: (left(c), c.label))
    here = kart.cell.label if kart.cell is not None else "?"
    head = texts.say("alt.reach", lang, count=game.turn.points, who=kart_name(kart, lang), cell=here,
                     ends=len(found.ends), passes=len(found.passes))
    far = texts.say("alt.reach_far", lang, cell=ends[0].label) if ends else ""
    board = game.view(seat)["board"]
    things = []
    for cell in sorted(found.cells, key=lambda c: (kart.cell.distance(c) if kart.cell else 0, c.label)):
        tile = board.get(cell.label)
        if tile is None:
            continue
        what = texts.say("alt.face_down", lang) if tile.get("face_down", True) else texts.tile(tile["kind"], lang)
        things.append(texts.say("alt.reach_thing", lang, what=what, cell=cell.label))
    on_way = texts.say("alt.reach_things", lang, things="; ".join(things[:NOTABLE])) if things else ""
    return fitted([head, far, on_way], ALT_TEXT_CHARS, cut=2)


__all__ = ["NOTABLE", "reach_text"]
