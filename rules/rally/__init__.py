"""Schrottplatz Rally (rulebook ``schrottplatz-rally.de.txt``, rulings S1–S14).

Importing this package registers the game under the key ``"rally"``.
"""

from rules.rally.actions import Move, Park, Path, Repair, Roll, parse_syntax
from rules.rally.game import RallyGame, Refusal
from rules.rally.track import Track, TrackError, builtin_tracks, find_track, load_track_text

__all__ = [
    "Move",
    "Park",
    "Path",
    "RallyGame",
    "Refusal",
    "Repair",
    "Roll",
    "Track",
    "TrackError",
    "builtin_tracks",
    "find_track",
    "load_track_text",
    "parse_syntax",
]
