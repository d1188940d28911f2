"""The board picture per built-in track: drawing it, encoding it (and each zlib level), its size, and a
live frame (copy, 8 karts and 30 tiles, encode with the board's fixed palette)."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from bench.registry import Figures, benchmark, median_ms
from render.common import encode_png, to_palette
from render.races import board
from rules.races.track import builtin_tracks

KART_COLOURS = ((214, 40, 40), (40, 90, 220), (40, 170, 70), (240, 210, 40),
                (245, 140, 30), (140, 60, 190), (245, 245, 245), (20, 20, 20))


def _frame(base: board.BoardBase) -> bytes:
    """A live frame: copy the board, draw 8 karts and 30 tiles, encode with the board's palette."""
    img = base.image.copy()
    draw = ImageDraw.Draw(img)
    cells = sorted(base.track.track_cells)
    size = base.geometry.cell_size
    for i, cell in enumerate(cells[:38]):
        x, y = base.geometry.centre(cell)
        r = size * 0.4
        if i < 8:
            draw.ellipse([x - r, y - r, x + r, y + r], fill=KART_COLOURS[i], outline=(0, 0, 0), width=2)
        else:
            draw.rectangle([x - r, y - r, x + r, y + r], fill=(90, 70, 50), outline=(0, 0, 0))
    return base.encode(img, KART_COLOURS)


@benchmark("render_board")
def render_board() -> Figures:
    figures: Figures = {}
    for track in sorted(builtin_tracks().values(), key=lambda t: t.alias):
        key = f"track_{track.alias}"
        base = board.board_base(track)
        geo = base.geometry
        figures[f"{key}.pixels"] = f"{geo.width}x{geo.height} (cell {geo.cell_size})"
        figures[f"{key}.draw_ms"] = median_ms(lambda t=track, g=geo: board._draw_board(t, g), repeat=3, warmup=0)
        figures[f"{key}.encode_ms"] = median_ms(lambda img=base.image: encode_png(img))
        figures[f"{key}.png_bytes"] = len(encode_png(base.image))
        figures[f"{key}.quantize_ms"] = median_ms(lambda img=base.image: to_palette(img))
        figures[f"{key}.copy_ms"] = median_ms(lambda img=base.image: img.copy(), repeat=11)
        base.palette(KART_COLOURS)
        figures[f"{key}.frame_ms"] = median_ms(lambda b=base: _frame(b))
        figures[f"{key}.frame_bytes"] = len(_frame(base))
        palette = to_palette(base.image)
        for level in (1, 3, 6):
            def save(level: int = level, palette: Image.Image = palette) -> int:
                buf = io.BytesIO()
                palette.save(buf, format="PNG", compress_level=level)
                return len(buf.getvalue())

            figures[f"{key}.zlib{level}_ms"] = median_ms(save, repeat=5)
            figures[f"{key}.zlib{level}_bytes"] = save()
    if not figures:
        figures["tracks"] = 0
    return figures
