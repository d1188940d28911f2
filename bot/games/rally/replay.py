"""An animated GIF of a whole Schrottplatz Rally: one frame per action, each the board picture of
:mod:`render.rally` drawn from the public view after that action, scaled down.

The log is the record of truth: :func:`replay_views` plays the setup, seed and actions again. All frames
share ONE palette, built once from the first frame and the colours of everything drawn on top (cars,
levers, the last move's path), with the helpers of :mod:`render.common`; after the first, a frame keeps
only the box that changed, its unchanged pixels set to the spare transparent entry.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from PIL import Image

from render.common import gif_palette, lighter, mix, write_gif
from render.rally.picture import (
    BLACK,
    CAR_COLOURS,
    LEVER,
    PANEL,
    PANEL_MUTED,
    PANEL_TEXT,
    PATH,
    PATH_EDGE,
    WHITE,
    rally_image,
)
from rules.contract import public_views
from rules.rally.game import RallyGame

#: ``cell_size`` as ``junkyard replay --size`` gives it (8–32); 20 is the board picture's own size
REPLAY_SIZE = 12
FULL_SIZE = 20
FRAME_MS = 420
ROLL_MS = 260  # a frame right after a roll shows the die and the destinations: shorter
LAST_FRAME_MS = 4000


def replay_views(setup: Mapping[str, Any], seed: int, actions: Iterable[str]) -> list[dict[str, Any]]:
    """The public view before the first action and after every action of a logged race."""
    return public_views(RallyGame.create(dict(setup), int(seed)), actions)


def _extra_colours() -> list[tuple[int, int, int]]:
    extra = [WHITE, BLACK, PATH, PATH_EDGE, PANEL, PANEL_TEXT, PANEL_MUTED, *LEVER.values()]
    for c in CAR_COLOURS.values():
        extra += [c, lighter(c, 0.8), mix(c, PANEL, 0.5)]
    return list(dict.fromkeys(extra))


def replay_gif(views: Sequence[Mapping[str, Any]], size: int = REPLAY_SIZE) -> bytes:
    """GIF bytes of the race in ``views`` (public views, one frame each), looping for ever."""
    if not views:
        raise ValueError("a replay needs at least one view")
    scale = min(1.0, max(0.3, size / FULL_SIZE))
    palette: Image.Image | None = None
    frames: list[Image.Image] = []
    durations: list[int] = []
    for view in views:
        img = rally_image(dict(view))
        if scale < 1.0:
            img = img.resize((round(img.width * scale), round(img.height * scale)), Image.Resampling.BILINEAR)
        if palette is None:
            palette = gif_palette(img, _extra_colours())
        frames.append(img.quantize(palette=palette, dither=Image.Dither.NONE))
        durations.append(ROLL_MS if view.get("phase") == "move" else FRAME_MS)
    durations[-1] = LAST_FRAME_MS
    return write_gif(frames, durations)


__all__ = ["REPLAY_SIZE", "replay_gif", "replay_views"]
