"""The chat's narration of a computer's batch reads the turn's account (DESIGN "One account of a turn"): in
Junkyard Races a kart's drive over several steps (R3) is one line, by its start, end and every cell, with what
it brought about on the same line; nothing the old lines (one per step) told is lost.

Six-kart races of smart drivers are played; each run of moves by one seat is told both ways, in English and
German.
"""

from __future__ import annotations

import pytest

from bot.drivers import driver_for
from bot.games.races import account
from bot.games.races.unit import GAME
from bot.messages import Line
from bot.telling.compose import worded_lines
from rules.contract import Event, events_for
from rules.races import Races
from rules.races import texts as race_texts


def runs(seed: int) -> list[tuple[list[str | None], list[list[Event]]]]:
    """A six-kart race (track A, two laps) as runs of moves by one seat: each kart's cell before the run, and the
    public events of every move in it."""
    seats = [{"name": f"P{i + 1}", "options": {}} for i in range(6)]
    game = Races.create({"seats": seats, "options": {"track": "A", "laps": 2}}, seed=seed)
    drivers = {s: driver_for("races", "smart", seed + s) for s in range(6)}
    out: list[tuple[list[str | None], list[list[Event]]]] = []
    last = None
    while not game.is_over and game.ply < 3000:
        seat = game.to_act
        assert seat is not None
        if seat != last:
            out.append(([k.cell.label if k.cell else None for k in game.karts], []))
            last = seat
        out[-1][1].append(events_for(game.apply(drivers[seat].choose(game, seat)), None))
    return out


@pytest.fixture(scope="module")
def race() -> list[tuple[list[str | None], list[list[Event]]]]:
    return runs(3) + runs(4)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_batch_tells_every_event_the_old_lines_told(race, lang: str) -> None:  # type: ignore[no-untyped-def]
    """R3: every event of a run of moves is still told (a bump, a tile, bottle tops, a flag, a lap, a roll, a
    delivery in its own words), and every cell a step drove over is in its drive's line."""
    drives = 0
    for _before, moves in race:
        new = GAME.narrate_moves(moves, lang)
        for e in (e for m in moves for e in m):
            if e.kind == "drive":
                line = next((ln for ln in new.split("\n") if all(c in ln for c in e.data["path"])), None)
                assert line is not None, (e.data, new)
                continue
            text = race_texts.event_text(e, lang)
            assert text in new, (text, new)
        drives += sum(t.event.kind == "drive" for t in account.of_moves(moves).told)
    assert drives > 50


def test_a_drive_over_several_steps_is_one_line_from_its_real_start(race) -> None:  # type: ignore[no-untyped-def]
    """R3: a kart's steps in a row are one line, from the cell the kart stood on before the run to the cell it
    reached, with every cell in order, however many steps the old lines gave it."""
    kart = race_texts.say
    several = 0
    for before, moves in race:
        steps = [e for m in moves for e in m if e.kind == "drive"]
        if len(steps) < 2 or len({e.seat for e in steps}) != 1 or any(e.kind == "bump" for m in moves for e in m) \
                or any(e.data.get("msg") == "event.back_up" for e in steps):
            continue
        seat = steps[0].seat
        assert seat is not None
        lines = GAME.narrate_moves(moves, "en").split("\n")
        who = steps[0].data["params"]["who"]
        name = kart("kart", "en", name=who["name"], colour=who["colour"])
        told = [ln for ln in lines if ln.startswith(f"{name} drives ")]
        cells = [c for e in steps for c in e.data["path"]]
        assert len(told) == 1, lines
        start = f" from {before[seat]} " if before[seat] else " "
        assert told[0].startswith(f"{name} drives {len(cells)} cells{start}to {cells[-1]}: {', '.join(cells)}."), \
            told[0]
        several += 1
    assert several > 8


def test_the_chat_tells_a_computers_steps_together_and_a_persons_apart(race) -> None:  # type: ignore[no-untyped-def]
    """The message's lines: a computer's moves in a row are told together, one line per drive, from the record's
    moves; a person's moves keep a line each, each from its move's whole events as the record keeps them, and so do
    lines whose moves the record does not hold."""
    _before, moves = next((b, m) for b, m in race if sum(any(e.kind == "drive" for e in mv) for mv in m) > 2)
    batch = [Line(say="computer_played", params={"name": "Bot", "action": "step"}, events=tuple(m)) for m in moves]
    person = [Line(say="played", params={"name": "Ann", "action": "step"}, events=tuple(m)) for m in moves]
    together = worded_lines(batch, GAME, "en", moves)
    apart = worded_lines(person, GAME, "en", moves)
    assert together == GAME.narrate_moves(moves, "en").split("\n")
    assert apart == [GAME.narrate(list(m), "en") for m in moves]
    assert sum(" drives " in ln for ln in together) < sum(" drives " in ln for ln in apart)
    # as a record keeps them (words only) the lines find their moves among the record's, and read the same
    stored = [Line.from_json(line.to_json()) for line in batch]
    assert worded_lines(stored, GAME, "en", moves) == together
    assert worded_lines([Line.from_json(line.to_json()) for line in person], GAME, "en", moves) == apart
    # lines whose moves the record does not hold keep a line each, told from the words they kept
    assert worded_lines(stored, GAME, "en") == [GAME.narrate(list(line.events), "en") for line in stored]
