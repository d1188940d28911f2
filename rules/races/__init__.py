"""Junkyard Races: karts race laps round a hex-grid junkyard (the flagship game)."""

from rules.races.engine import Races

__all__ = ["Races"]
