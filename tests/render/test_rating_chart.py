"""The rating chart (render/rating_chart.py): its legend stays inside the picture however many games a
player has rated, taking a second row when the names need it, and the plot moves down to make room."""

from __future__ import annotations

import io

from PIL import Image

from render.rating_chart import BACKGROUND, HEIGHT, WIDTH, Series, rating_chart

NAMES = ("Junkyard Races", "Schrottplatz Rally", "Junkyard for a piecepack")


def picture(names: tuple[str, ...]) -> Image.Image:
    series = [Series(n, [1000, 1010 + 7 * i, 1020 - 5 * i]) for i, n in enumerate(names)]
    return Image.open(io.BytesIO(rating_chart(series, "Wertung von Ann, ewige Wertung", "gewertete Spiele"))
                      ).convert("RGB")


def inked_rows(img: Image.Image, x0: int, x1: int) -> list[int]:
    """The rows with anything but the background between columns x0 and x1."""
    return [y for y in range(img.height) if any(far(img.getpixel((x, y)), BACKGROUND) for x in range(x0, x1, 2))]


def far(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    """Whether two colours differ more than the picture's compression does."""
    return sum(abs(p - q) for p, q in zip(a, b, strict=False)) > 30


def swatch(img: Image.Image, colour: tuple[int, int, int]) -> list[int]:
    """The rows of the legend's column of swatches in ``colour``."""
    return [y for y in range(150) if not far(img.getpixel((112, y)), colour)]


def test_a_legend_of_three_games_wraps_and_nothing_runs_off_the_right_edge():
    img = picture(NAMES)
    assert img.size == (WIDTH, HEIGHT)
    assert [y for y in inked_rows(img, WIDTH - 12, WIDTH) if y < 120] == []  # nothing cut off at the edge
    # the third game's colour swatch sits on a second row, below the first game's
    first, third = swatch(img, (203, 75, 22)), swatch(img, (133, 153, 0))
    assert first and third and min(third) > max(first)


def test_one_game_keeps_its_legend_on_one_row_with_the_plot_close_below():
    img = picture(NAMES[:1])
    rows = swatch(img, (203, 75, 22))
    assert rows and max(rows) < 70
