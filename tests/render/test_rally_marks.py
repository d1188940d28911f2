"""Schrottplatz Rally's board: no symbol covers a label, no label another, and a spot's words stay in the spot.

The marks are where the board draws its labels and symbols (:mod:`render.rally.marks`); the last test reads
the drawn board itself to see that the words really are where the marks say.
"""

from __future__ import annotations

import importlib
import itertools

import pytest
from PIL import Image, ImageDraw

from render.common import recording_text
from render.rally.layout import layout_for
from render.rally.marks import ICON, LABEL, overlaps, point_in_convex, spot_words, track_marks
from rules.rally import find_track

TRACKS = [(key, clockwise) for key in ("A", "B") for clockwise in (True, False)]


@pytest.mark.parametrize(("key", "clockwise"), TRACKS)
def test_no_symbol_covers_any_label(key: str, clockwise: bool) -> None:
    """Every label's box against every symbol's outline (S1's car parks, pit lane, arch and road signs)."""
    marks = track_marks(find_track(key).key, clockwise)
    labels = [m for m in marks if m.kind == LABEL]
    icons = [m for m in marks if m.kind == ICON]
    assert {m.what for m in labels} >= {"row", "area", "pit_spot", "arch", "pit"}
    assert {m.what for m in icons} >= {"badge", "spot", "stop", "post"}
    covered = [(label.text, icon.what, icon.text) for label in labels for icon in icons
               if overlaps(label.outline, icon.outline) and not (label.what == "pit" and icon.what == "pit_road")]
    assert covered == []


@pytest.mark.parametrize(("key", "clockwise"), TRACKS)
def test_labels_do_not_run_into_each_other_or_off_the_board(key: str, clockwise: bool) -> None:
    track = find_track(key)
    lay = layout_for(track)
    labels = [m for m in track_marks(track.key, clockwise) if m.kind == LABEL]
    assert sorted(m.text for m in labels if m.what == "row") == sorted(str(r.number) for r in track.rows)
    clash = [(a.text, b.text) for a, b in itertools.combinations(labels, 2) if overlaps(a.outline, b.outline)]
    assert clash == []
    for m in labels:
        assert all(0 <= x <= lay.width and 0 <= y <= lay.height for x, y in m.outline), m.text


@pytest.mark.parametrize("key", ["A", "B"])
def test_every_spots_words_stay_inside_the_spot(key: str) -> None:
    """"P" and the least number of players fit the spot however the row runs (beside a vertical straight the
    spot lies flat on the picture)."""
    track = find_track(key)
    lay = layout_for(track)
    boxes = [(box, least) for a in track.areas
             for box, least in zip(lay.spot_boxes(a.row, a.side, len(a.spots)), a.spots, strict=True)]
    boxes += [(lay.spot_boxes(r, track.pit.side, 1, depth=1)[0], least) for r, least in track.pit.spots]
    measure = ImageDraw.Draw(Image.new("L", (1, 1)))
    for box, least in boxes:
        words = spot_words(box, least)
        assert "".join(words.lines) == f"P{least}"
        for x0, y0, x1, y1 in words.boxes:
            assert all(point_in_convex(p, box) for p in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))), (box, words)
    assert measure is not None


@pytest.mark.parametrize(("key", "clockwise"), TRACKS)
def test_no_word_drawn_on_the_board_is_under_a_symbol(key: str, clockwise: bool) -> None:
    """The words the board really draws (car-park names such as B51 whole, row numbers, the pit spots' names)
    against every symbol's outline; a symbol's own words ("STOP", a spot's "P2") are inside it by design."""
    track = find_track(key)
    board = importlib.import_module("render.rally.picture")
    board._base.cache_clear()
    with recording_text() as drawn:
        board._base(track.key, clockwise, 6)
    icons = [m for m in track_marks(track.key, clockwise) if m.kind == ICON]
    lay = layout_for(track)
    covered, spilt = [], []
    for text in drawn:
        x0, y0, x1, y1 = text.box
        if x0 >= lay.width:
            continue  # the panel
        box = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
        mid = ((x0 + x1) / 2, (y0 + y1) / 2)
        own = [i for i in icons if point_in_convex(mid, i.outline) and _its_own(i.what, text.text)]
        for icon in own:
            if icon.what == "spot" and not all(point_in_convex(p, icon.outline) for p in box):
                spilt.append((text.text, icon.text))
        if not own:
            covered += [(text.text, i.what, i.text) for i in icons if overlaps(box, i.outline)]
    assert covered == []
    assert spilt == []  # a spot's number stays inside its box
    names = {a.id for a in track.areas}
    assert names <= {t.text for t in drawn}


def _its_own(what: str, text: str) -> bool:
    """Whether ``text`` is the symbol ``what``'s own words: the stop sign's, a road sign's, a spot's, the pit
    road's name."""
    return {"stop": text == "STOP", "sign": text == "!", "pit_road": text == "pit",
            "spot": text[:1] in "P0123456789"}.get(what, False)
