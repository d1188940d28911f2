"""Seat colours that survive colour blindness: every game's seat palette, seen with simulated protanopia,
deuteranopia and tritanopia (Machado et al. 2009, full severity) and with normal vision, keeps every pair
of colours at least :data:`THRESHOLD` apart in CAM02-UCS.

The threshold: Mokrzycki and Tatol's survey of colour differences ("Colour difference ΔE – a survey",
Machine Graphics & Vision 20(4), 2011) puts "the observer notices two different colours" at a ΔE above 5,
and the common classification of colour changes counts a ΔE over 12 as "a different colour"; CAM02-UCS
(Luo, Cui and Li 2006) keeps the scale of CIELAB's ΔE. Karts, cars and pawns are small marks on a busy
board, so we ask for 15: three times the "two colours" bound, above the "different colour" class. Colour is
not the only cue either: each kart and car carries its seat number, each pawn its suit's symbol.
"""

from __future__ import annotations

import pytest

from render.colour_vision import DEFICIENCIES, seat_palettes, smallest_differences

THRESHOLD = 15.0


@pytest.mark.parametrize("game", sorted(seat_palettes()))
def test_every_pair_of_seat_colours_stays_apart_under_each_simulation(game: str) -> None:
    found = smallest_differences(seat_palettes()[game])
    for name, (delta, a, b) in found.items():
        print(f"{game} {name}: smallest CAM02-UCS difference {delta:.1f} ({a} / {b})")
    assert set(found) == {"normal", *DEFICIENCIES}
    too_close = {name: f for name, f in found.items() if f[0] < THRESHOLD}
    assert not too_close, too_close


def test_the_check_sees_a_palette_that_fails() -> None:
    """Red and green as the pictures used to draw them are nearly one colour with deuteranopia."""
    found = smallest_differences({"red": (214, 40, 40), "green": (40, 160, 60), "black": (30, 30, 30)})
    assert found["deuteranopia"][0] < THRESHOLD <= found["normal"][0]
