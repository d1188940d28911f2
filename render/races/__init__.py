"""Pictures of Junkyard Races: the static board of a track (``board``) and layers drawn on top of it."""

from render.races.board import BoardBase, BoardGeometry, board_base, board_image, geometry_for, track_png

__all__ = ["BoardBase", "BoardGeometry", "board_base", "board_image", "geometry_for", "track_png"]
