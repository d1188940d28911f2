"""An animated GIF of a Schrottplatz Rally race: one frame per move, drawn from public views.

``replay_views(setup, seed, actions)`` rebuilds the public views from the setup, seed and action log (the
log is the record of truth) and keeps the view after every action that moved a car, plus the first and
the last. ``replay_gif(views)`` draws each with :func:`render.rally.picture.rally_image`, scales it down
and quantizes every frame to ONE palette (the track's own colours and the live colours, built once), so
the frames share a global colour table.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from PIL import Image

from render.rally.picture import _palette, rally_image
from render.rally.symbols import _LOCK

FRAME_MS = 450
LAST_FRAME_MS = 4000
SCALE = 0.5


def replay_views(setup: Mapping[str, Any], seed: int, actions: Iterable[str]) -> list[dict[str, Any]]:
    """The public view at the start, after every action that moved a car, and at the end."""
    from rules.rally.game import RallyGame

    game = RallyGame.create(dict(setup), int(seed))
    views = [game.view(None)]
    for text in actions:
        events = game.apply(text)
        if any(e.kind in ("move", "forced_park") for e in events) or game.is_over:
            views.append(game.view(None))
    return views


def replay_gif(views: Sequence[Mapping[str, Any]], *, scale: float = SCALE, frame_ms: int = FRAME_MS,
               last_frame_ms: int = LAST_FRAME_MS) -> bytes:
    """GIF bytes of the race in ``views`` (public views, one frame each), looping for ever."""
    if not views:
        raise ValueError("a replay needs at least one view")
    first = views[0]
    with _LOCK:
        palette = _palette(first["track"], first["direction"] == "clockwise", len(first["seats"]))
    frames: list[Image.Image] = []
    for view in views:
        img = rally_image(dict(view))
        if scale != 1.0:
            img = img.resize((round(img.width * scale), round(img.height * scale)), Image.Resampling.BILINEAR)
        frames.append(img.quantize(palette=palette, dither=Image.Dither.NONE))
    durations = [frame_ms] * len(frames)
    durations[-1] = last_frame_ms
    out = io.BytesIO()
    frames[0].save(out, format="GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0,
                   optimize=False, disposal=1)
    return out.getvalue()
