"""Pictures of Junkyard Races.

- ``geometry``: where cells, the map, the title bar and the side panel sit on a picture;
- ``symbols``: colours, ground textures and the symbols drawn on cells (arrows, spanner, bottle cap …);
- ``legend``: the legend panel;
- ``board``: the static board of a track, cached per track and size, on which live layers draw;
- ``pieces``: karts, tiles and traps, dice, flags and the marks of the last move;
- ``live``: the live board of a view (``board_png``) with the "where can I go" overlay;
- ``chat``: the pictures for a chat column: the close-up of a turn, the whole board, "where can I go";
- ``heading``: what a picture's heading says: who moved, who is next, the round, the winner;
- ``key``: the key of every symbol the whole board draws;
- ``card``: one player's Kart Card (``kart_card_png``);
- ``replay``: an animated GIF of a whole race (``replay_gif``, ``replay_views``);
- ``words``: the words on the pictures in English or German (``locale/``); every picture takes ``lang``.
"""

from render.races.board import BoardBase, board_base, board_image, track_png
from render.races.geometry import BoardGeometry, facing_angle, geometry_for

__all__ = ["BoardBase", "BoardGeometry", "board_base", "board_image", "facing_angle", "geometry_for", "track_png"]
