"""Seat colours under colour-vision deficiencies: every game's seat palette, and the smallest difference
between two of its colours as someone with protanopia, deuteranopia or tritanopia sees them.

The simulation is Machado, Oliveira and Fernandes (2009) at full severity, the difference the Euclidean
distance in CAM02-UCS (Luo, Cui and Li 2006), both as the ``colorspacious`` library computes them (a test
and benchmark dependency: only :func:`smallest_differences` needs it). Colour is never the only cue: every
kart and car carries its seat number and every pawn its suit's symbol.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping

from render.common import Colour

#: the simulated deficiencies, by the names the library gives them (at severity 100: the full "-opia")
DEFICIENCIES: Mapping[str, str] = {"protanopia": "protanomaly", "deuteranopia": "deuteranomaly",
                                   "tritanopia": "tritanomaly"}


def seat_palettes() -> dict[str, dict[str, Colour]]:
    """Every game's seat colours by name, as the pictures draw them."""
    from render.piecepack import SUIT_COLOURS
    from render.rally.symbols import CAR_COLOURS
    from rules.races import catalogue

    return {"races": dict(catalogue.supply().colours), "rally": dict(CAR_COLOURS), "piecepack": dict(SUIT_COLOURS)}


def smallest_differences(palette: Mapping[str, Colour]) -> dict[str, tuple[float, str, str]]:
    """Per deficiency (and ``normal`` vision): the smallest CAM02-UCS difference between two colours of the
    palette as seen with it, and that pair."""
    import numpy as np
    from colorspacious import cspace_convert  # type: ignore[import-untyped]

    out: dict[str, tuple[float, str, str]] = {}
    for name, kind in {"normal": "", **DEFICIENCIES}.items():
        seen = {}
        for key, rgb in palette.items():
            colour = np.array(rgb, dtype=float) / 255.0
            if kind:
                space = {"name": "sRGB1+CVD", "cvd_type": kind, "severity": 100}
                colour = np.clip(cspace_convert(colour, space, "sRGB1"), 0.0, 1.0)
            seen[key] = cspace_convert(colour, "sRGB1", "CAM02-UCS")
        out[name] = min((float(np.linalg.norm(seen[a] - seen[b])), a, b) for a, b in itertools.combinations(seen, 2))
    return out


__all__ = ["DEFICIENCIES", "seat_palettes", "smallest_differences"]
