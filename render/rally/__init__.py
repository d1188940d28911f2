"""Pictures of Schrottplatz Rally: the lane track with its cars and status strip, a car board, a replay GIF."""

from render.rally.board import car_board_png
from render.rally.picture import CAR_COLOURS, picture, rally_image, rally_png

__all__ = ["CAR_COLOURS", "car_board_png", "picture", "rally_image", "rally_png"]
