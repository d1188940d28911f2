"""An animated GIF of a whole game of Junkyard for a piecepack: one frame per action, drawn from public views.

The log is the record of truth: :func:`replay_views` plays the setup, seed and actions again. Every frame is
the game's picture (:func:`render.piecepack.piecepack_image`: the board with the last move's arrow, who moved
and who is next) at a smaller tile size. All frames share ONE palette, built once from the first frame and the
colours of everything drawn on top (pawns, trash, the good stuff, the arrow); after the first, a frame keeps
only the box that changed (:func:`render.common.write_gif`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from PIL import Image

from render.common import gif_palette, lighter, mix, write_gif
from render.piecepack import (
    GOLD,
    GOLD_EDGE,
    PANEL,
    PANEL_MUTED,
    PANEL_TEXT,
    PATH,
    PATH_EDGE,
    SUIT_COLOURS,
    TILE,
    WHITE,
    piecepack_image,
)
from rules.contract import public_views

#: the tile size of a replay's frames (the posted picture's is 112)
REPLAY_TILE = 72
SMALLEST_TILE = 40
LARGEST_TILE = 112
FRAME_MS = 600
ROLL_MS = 300  # a frame right after a roll shows the die and where the pawn may go: shorter
LAST_FRAME_MS = 4000


def replay_views(setup: Mapping[str, Any], seed: int, actions: Iterable[str]) -> list[dict[str, Any]]:
    """The public view before the first action and after every action of a logged game."""
    from rules.piecepack import PiecepackGame

    return public_views(PiecepackGame.create(dict(setup), int(seed)), actions)


def tile_for(cell_size: int | None) -> int:
    """The tile size for a replay asked for at ``cell_size`` (``junkyard replay --size``, 8–32; None: the
    usual size)."""
    if cell_size is None:
        return REPLAY_TILE
    return max(SMALLEST_TILE, min(LARGEST_TILE, cell_size * 6))


def _extra_colours() -> list[tuple[int, int, int]]:
    extra = [WHITE, GOLD, GOLD_EDGE, PATH, PATH_EDGE, PANEL, PANEL_TEXT, PANEL_MUTED, lighter(GOLD, 0.6)]
    for c in SUIT_COLOURS.values():
        extra += [c, lighter(c, 0.82), mix(c, WHITE, 0.5), mix(c, TILE, 0.5)]
    return list(dict.fromkeys(extra))


def replay_gif(views: Sequence[Mapping[str, Any]], tile: int = REPLAY_TILE, lang: str = "en") -> bytes:
    """GIF bytes of the game in ``views`` (public views, one frame each), looping for ever; words in ``lang``."""
    if not views:
        raise ValueError("a replay needs at least one view")
    palette: Image.Image | None = None
    frames: list[Image.Image] = []
    durations: list[int] = []
    for view in views:
        img = piecepack_image(dict(view), tile, lang)
        if palette is None:
            palette = gif_palette(img, _extra_colours())
        frames.append(img.quantize(palette=palette, dither=Image.Dither.NONE))
        durations.append(ROLL_MS if view.get("phase") == "move" else FRAME_MS)
    durations[-1] = LAST_FRAME_MS
    return write_gif(frames, durations)


__all__ = ["REPLAY_TILE", "replay_gif", "replay_views", "tile_for"]
