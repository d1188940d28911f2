"""Junkyard Races playable at the terminal without a picture: the ``board`` command's text map (the kart's
reach, R9, with what lies on every cell), the move list's hints (length, final facing, what a path drives
over) and its words explained once, and a standings sentence that never contradicts itself. Situations are
stated in the position format on the Proving Ground (track ``T``)."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from bot.games.races.board_words import MAX_COLUMNS, board_text
from bot.games.races.described import standings_sentence, standings_text
from bot.games.races.moves import destinations
from bot.games.races.table import short_list
from rules.races import Races
from rules.races.reach import reach
from tests.races.conftest import FAR, position

RED = {"colour": "red", "cell": "J3", "facing": "SE"}
GREEN_ON_K4 = {"colour": "green", "cell": "K4", "facing": "N"}


def _lines(text: str) -> dict[str, str]:
    """The list after the map: cell label -> what it says about the cell."""
    out = {}
    for line in text.splitlines():
        m = re.fullmatch(r"([A-Z]+\d+): (.+)", line)
        if m:
            out[m.group(1)] = m.group(2)
    return out


def _plain(text: str) -> set[str]:
    """The cells the list names as plain tarmac (the line may wrap)."""
    _, _, rest = text.partition("Plain tarmac: ")
    return set(rest.split())


def test_r9_board_shows_the_kart_and_every_cell_of_its_reach_with_what_is_on_it() -> None:
    """R9 (the whole roll): red on J3 facing SE with 4 points; a face-down tile on K3, a Glue trap on L3, green
    on K4. The map and the list name every cell the reach finds, the kart first, each with what lies there."""
    g = position([RED, GREEN_ON_K4, FAR], phase="move", points=4,
                 board={"K3": "junk", "L3": "glue"})
    text = board_text(g, 0)
    said, plain = _lines(text), _plain(text)
    cells = {c.label for c in reach(g).cells} | {"J3"}
    assert cells == set(said) | plain
    assert text.splitlines()[0].startswith("Around your kart on J3 facing SE: 10 cells you can reach with 4")
    assert said["J3"] == "your kart facing SE"
    assert said["K3"].startswith("a face-down tile")
    assert said["L3"].startswith("glue trap")
    assert said["K4"].startswith("Player 2 (green, kart 2) facing N")
    assert "drive through only" in said["K3"] and "drive through only" not in said["L3"]
    assert "Karts: 1 = you, Player 1 (red), 2 = Player 2 (green)." in text
    grid = [ln for ln in text.splitlines() if re.search(r"[A-Z]+\d+:\S", ln)]
    assert {"J3:1", "K3:?", "L3:!", "K4:2"} <= {tok for ln in grid for tok in ln.split()}
    assert all(len(ln) <= 80 for ln in text.splitlines()[1:])


def test_r12_board_never_names_a_face_down_tile() -> None:
    """R12: a face-down Magnet on K3 is 'a face-down tile' on the map and in the list."""
    g = position([RED, FAR], phase="move", points=3, board={"K3": "junk:magnet"})
    text = board_text(g, 0)
    assert "K3: a face-down tile" in text and "magnet" not in text.lower()


def test_board_before_the_roll_names_ground_pit_stops_line_and_bridges() -> None:
    """Phase 3, before the roll: the cells within three of the kart. Red on E5 facing S, by the bridge E6
    (with its exit arrows), the checkered line E4|F4 (R4) and grass; German words for the same."""
    g = position([{"colour": "red", "cell": "E5", "facing": "S"}, FAR], phase="roll")
    said = _lines(board_text(g, 0))
    assert said["E5"].startswith("your kart facing S")
    assert "bridge, leave it towards" in said["E6"]
    assert "checkered line ahead on its NE, SE side" in said["E4"]
    assert "checkered line behind, on its" in said["F4"]
    assert "grass" in said["H3"]
    g = position([{"colour": "red", "cell": "D2", "facing": "SE"}, FAR], phase="roll")
    said = _lines(board_text(g, 0))
    assert "green Pit Stop" in said["C1"] or "red Pit Stop" in said["C1"]
    german = board_text(g, 0, "de")
    assert german.startswith("Um dein Kart auf D2 mit Blick nach Südosten: ")
    assert "Boxenstopp" in german and "Ziellinie" in german


def test_the_map_fits_an_80_column_terminal_with_a_long_roll() -> None:
    """R9 with 12 points: the reach is wider than the map; the map keeps the kart and says that it is cut,
    and the list still names every cell."""
    g = position([RED, FAR], phase="move", points=12)
    text = board_text(g, 0)
    assert all(len(ln) <= 80 for ln in text.splitlines()[1:])
    cells = {c.label for c in reach(g).cells} | {"J3"}
    assert cells == set(_lines(text)) | _plain(text)
    columns = {re.match(r"[A-Z]+", tok).group(0) for ln in text.splitlines() for tok in ln.split()
               if re.fullmatch(r"[A-Z]+\d+:\S+", tok)}
    assert len(columns) <= MAX_COLUMNS and "J" in columns


def _moves(game: Any) -> list[tuple[str, str]]:
    return [(a, h) for a, h in short_list(game) if a.startswith("move ")]


def test_r9_move_hints_give_the_paths_length_and_the_facing_the_game_leaves() -> None:
    """R9: red on J3 facing SE with 5 points: each listed whole move says its length (the cells of its path)
    and the facing the kart has after the game plays it."""
    start = {"karts": [RED, FAR], "track": "T", "phase": "move", "points": 5}
    g = Races.from_position(start)
    moves = _moves(g)
    assert len(moves) >= 3
    whole = destinations(g, g.legal_actions())
    for action, hint in moves:
        m = re.match(r"(\d+) cells, ends facing (NE|NW|SE|SW|N|S)\b", hint)
        assert m, hint
        move = whole[action.split()[1]]
        assert int(m.group(1)) == len(move.cells)
        played = Races.from_position(start)
        played.apply(str(move))
        assert played.karts[0].cell.label == action.split()[1]
        assert played.karts[0].facing.name == m.group(2), (action, hint)


def test_r18_hints_say_a_tile_on_the_path_and_a_kart_a_step_bumps() -> None:
    """R18 and bumping: with a face-down tile on K3 and green on K4, a move through K3 says so, one that
    avoids it does not; the straight step onto K4 says it bumps green."""
    g = position([RED, GREEN_ON_K4, FAR], phase="move", points=4, board={"K3": "junk"})
    whole = destinations(g, g.legal_actions())
    for action, hint in _moves(g):
        through = any(c.label == "K3" for c in whole[action.split()[1]].cells)
        assert ("a face-down tile on K3" in hint) == through, (action, hint)
    steps = dict(short_list(g))
    assert steps["step straight"] == "K4, bumps green"
    assert steps["step left"] == "K3, a face-down tile"


def test_a_kart_in_the_stream_is_counted_in_cells_while_nobody_has_a_flag() -> None:
    """R4 and the stream: red on E6 and blue in the stream on E7, nobody with a flag; blue is more than a
    lap's cells behind by the racing line, yet no flag behind."""
    g = position([{"colour": "red", "cell": "E6", "facing": "N"}, {"colour": "blue", "cell": "E7", "facing": "N"}],
                 phase="roll")
    text = standings_text(g, "en")
    assert "flag behind" not in text and re.search(r"Player 2 \(blue, kart 2\) is \d+ cells behind", text)
    assert "Flagge zurück" not in standings_text(g, "de")


def test_level_karts_share_the_front_and_nobody_leads() -> None:
    """R15: red on D5 and blue on the start cell D3, as far round the race as each other: no kart 'leads'."""
    g = position([{"colour": "red", "cell": "D5", "facing": "NE"},
                  {"colour": "blue", "cell": "D3", "facing": "SE", "armed": False}], phase="roll")
    assert [msg for msg, _ in standings_sentence(g)] == ["alt.shares_lead", "alt.level"]
    text = standings_text(g, "en")
    assert "leads" not in text and "behind" not in text and "level at the front" in text
    assert "führt" not in standings_text(g, "de")


def test_a_lead_is_said_only_with_a_lead() -> None:
    """A kart ahead of the other leads; the other is behind in cells (the same flags)."""
    g = position([{"colour": "red", "cell": "E4", "facing": "N"},
                  {"colour": "blue", "cell": "D3", "facing": "SE", "armed": False}], phase="roll")
    assert [msg for msg, _ in standings_sentence(g)] == ["alt.leads", "alt.cells_behind"]


def _play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path, lines: list[str],
          lang: str = "en") -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    assert main(["play", "--track", "T", "--laps", "1", "--seats", "human,smart", "--seed", "5", "--lang", lang,
                 "--db", str(tmp_path / "play.db"), "--out", str(tmp_path / "out")]) == 0
    return capsys.readouterr().out


def test_the_board_command_and_its_german_names(monkeypatch, capsys, tmp_path) -> None:
    """R15: at the start the board shows the start cells; later, rolled, the kart's reach. ``brett`` and
    ``karte`` call it in German."""
    out = _play(monkeypatch, capsys, tmp_path, ["board", "1", "board", "roll 3", "board", "quit"])
    assert "Around your kart, not on the track yet (the start cells): " in out
    assert "Around your kart on D2 facing SE: 7 cells within 3 steps." in out \
        or re.search(r"Around your kart on D\d facing SE: \d+ cells within 3 steps\.", out)
    assert re.search(r"Around your kart on D\d facing SE: \d+ cells you can reach with \d+ points\.", out)
    out = _play(monkeypatch, capsys, tmp_path / "de", ["brett", "karte", "quit"], lang="de")
    assert out.count("Um dein Kart, noch nicht auf der Strecke (die Startfelder): ") == 2


def test_the_move_lists_words_are_explained_once_and_in_help(monkeypatch, capsys, tmp_path) -> None:
    """``roll 1/2/3`` is explained the first time the list shows a roll, ``done`` once though two lists show it;
    ``help`` lists every word (``leave``, R18, among them) and the ``board`` command."""
    out = _play(monkeypatch, capsys, tmp_path, ["1", "roll 1", *["1"] * 4, "quit"])
    assert out.count("roll 1/2/3: throw 1, 2 or 3 green dice") == out.count("move CELL: the whole drive") == 1
    assert out.count(". done\n") >= 2  # reversing from the Pit Stop, two lists offer done (R: Reversing)
    assert out.count("done: end the phase") == 1
    out = _play(monkeypatch, capsys, tmp_path / "help", ["help", "quit"])
    after = out.split("Commands:")[1]
    assert "roll 1/2/3: throw 1, 2 or 3 green dice" in after
    assert "leave: drive onto a face-down junk tile and leave it lying" in after
    assert re.search(r"^  board +a small text map around your kart", after, re.M)


def test_a_hint_says_when_a_move_ends_on_grass() -> None:
    """Phase 3 after a move: starting on grass the kart may roll one green die only, so a move that ends on
    grass says so; red on F3 facing NE with 3 points, grass on G2, H2 and H3 of the Proving Ground."""
    g = position([{"colour": "red", "cell": "F3", "facing": "NE"}, FAR], phase="move", points=3)
    whole = destinations(g, g.legal_actions())
    grass = {"G2", "H2", "H3"}
    hints = _moves(g)
    assert any(a.split()[1] in grass for a, _ in hints)
    for action, hint in hints:
        assert ("ends on grass" in hint) == (action.split()[1] in grass), (action, hint)
        assert whole[action.split()[1]].cells[-1].label == action.split()[1]
