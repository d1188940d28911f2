"""The championship table's picture (render/championship): names and points stay inside their cells
whatever people call themselves and however many rounds are run, and every word stays on the picture."""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from render.championship import (
    WIDTH,
    Cell,
    DriverLine,
    Move,
    Table,
    TeamLine,
    ellipsized,
    layout,
    name_font,
    picture,
    points_font,
)
from render.common import recording_text
from rules.literal import bare


@st.composite
def tables(draw: st.DrawFn) -> Table:
    rounds = draw(st.integers(1, 24))
    count = draw(st.integers(1, 20))
    names = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=40)
    drivers = tuple(DriverLine(
        position=i + 1, name=draw(names), points=draw(st.integers(0, 99_999)), wins=draw(st.integers(0, rounds)),
        rounds=tuple(Cell(draw(st.integers(0, 999)), draw(st.sampled_from([None, 1, 2, 17])),
                          dropped=draw(st.booleans()), led=draw(st.booleans())) for _ in range(rounds)),
        move=draw(st.sampled_from(list(Move))), by=draw(st.integers(1, 19)))
        for i in range(count))
    teams = tuple(TeamLine(i + 1, draw(names), draw(st.integers(0, 99_999)), tuple([999] * rounds))
                  for i in range(draw(st.integers(0, 4))))
    return Table(draw(names), rounds, rounds + draw(st.integers(0, 3)), drivers, teams)


@settings(max_examples=40, deadline=None)
@given(tables(), st.sampled_from(["en", "de"]))
def test_no_name_or_points_runs_out_of_its_cell(table: Table, lang: str) -> None:
    """Each name, measured with the font's text length, fits the name cell (cut with an ellipsis when it
    must be); each total fits its column; every word drawn lies on the picture."""
    lay = layout(table.round)
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    for line in (*table.drivers, *table.teams):
        shown = ellipsized(probe, bare(line.name), name_font(), lay.name_w)
        assert probe.textlength(shown, font=name_font()) <= lay.name_w
        assert shown == bare(line.name) or shown.endswith("…")
        assert probe.textlength(str(line.points), font=points_font()) <= WIDTH - lay.points
    with recording_text() as drawn:
        png = picture(table, lang)
    assert Image.open(io.BytesIO(png)).width == WIDTH
    assert all(d.inside for d in drawn), [d.text for d in drawn if not d.inside]
    names = [d for d in drawn if d.at[0] == lay.name]
    assert len(names) >= len(table.drivers) + len(table.teams)
    assert all(d.box[2] <= lay.name + lay.name_w + 1 for d in names), [d.text for d in names]
    rounds = [d for d in drawn if lay.first_round <= d.at[0] < lay.wins]
    assert all(d.box[0] >= lay.name + lay.name_w for d in rounds)


def test_a_long_name_is_cut_with_an_ellipsis_and_a_short_one_is_whole() -> None:
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    long = "Lieselotte von Schrottplatz-Hinterhof der Dritte"
    cut = ellipsized(probe, long, name_font(), 200)
    assert cut.endswith("…") and long.startswith(cut[:-1])
    assert probe.textlength(cut, font=name_font()) <= 200
    assert ellipsized(probe, "Ann", name_font(), 200) == "Ann"


def test_many_rounds_show_the_latest_ones_and_the_names_keep_their_room() -> None:
    """Thirty rounds do not fit the width: the latest ones get a column each, the name cell keeps its least."""
    lay = layout(30)
    assert 0 < lay.shown < 30 and lay.name_w >= 240
    assert layout(1).shown == 1 and layout(10).shown == 10
