"""A small ring track made for the picture tests: every board feature once or twice, on 16 × 14 cells.

It loads cleanly, so it doubles as a check that the loader accepts a well-formed file.
"""

RING_TRACK = """\
[track]
name Test Ring
alias T
description A small ring used only by the picture tests.

[map]
#   A   C   E   G   I   K   M   O
#     B   D   F   H   J   L   N   P
1   .   .   .   .   .   .   .   .
      .   .   .   .   .   .   .   .
2   .   G   G   =   =   =   =   =
      =   G   G   =   =   =   =   .
3   .   =   =   =   =   g   =   =
      =   =   =   =   g   =   =   .
4   .   g   =   =   =   g   =   =
      g   =   =   =   g   =   m   .
5   .   =   .   .   .   .   =   m
      =   =   .   .   .   .   m   .
6   .   =   .   .   .   .   =   b
      =   b   .   .   .   .   =   .
7   ~   ~   ~   ~   ~   ~   b   ~
      b   ~   ~   ~   ~   ~   ~   ~
8   ~   ~   ~   ~   ~   ~   b   ~
      b   ~   ~   ~   ~   ~   ~   ~
9   .   =   .   .   .   .   =   b
      =   b   .   .   .   .   =   .
10  .   =   .   .   .   .   =   =
      =   =   .   .   .   .   =   .
11  .   =   m   =   =   =   =   g
      =   =   m   =   =   =   g   .
12  .   =   m   =   =   =   =   =
      =   =   =   =   =   =   g   .
13  .   =   =   R   R   =   =   =
      =   =   =   R   R   =   =   .
14  .   .   .   .   .   .   .   .
      .   .   .   .   .   .   .   .


[walls]
D2/D3 D2/C3 D2/E3 E2/E3 H13/H12 I13/I12

[crossings]
1 landing N10 S columns I-P
2 landing B5 N columns A-H

[bridges]
1a M7  from M6 N6  to M8  red SE SW
1a M8  from M7     to M9  red SE SW
1b O6  from O5 N5  to O7
1b O9  from O8     to O10 N9
2a B8  from B9 C9  to B7  red NW NE
2a B7  from B8     to B6  red NW NE
2b D9  from D10 C10 to D8
2b D6  from D7     to D5

[checkered]
edges G2/H2 G3/H2 G3/H3 G4/H3 G4/H4
start G2 SE G3 SE G4 SE

[delivery]
3 I2 4 K4 5 M3 6 M5 7 O11 8 M10 9 L12 10 J11
11 F12 12 D13 13 B11 14 C10 15 C5 16 B3 17 E3 18 K2

[bottletops]
B7 1 M7 2 O6 3 D6 1
"""
