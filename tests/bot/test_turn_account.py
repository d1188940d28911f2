"""One account of a turn (DESIGN "One account of a turn"): the picture's description tells every move a message
covers, so a listener who hears only the descriptions knows where every piece is.

The first tests play whole demo races (six seats, English and German) and follow every kart through the
``message-NNNN.txt`` files alone: each move's stated start is where the texts last left that kart, and the
turn's and the standings' cells agree. The second holds each turn's account against the trail its picture
draws (the view's ``turn``, through the same :func:`render.races.live.with_last_move` the picture uses).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.cli import main
from bot.drivers import driver_for
from bot.games.races import account
from bot.games.races import texts as front_texts
from render.races.live import with_last_move
from rules.contract import events_for
from rules.races import Races
from rules.races import texts as race_texts

CELL = r"[A-Z]+[0-9]+"
#: the sentences that move a kart: id -> (catalogue, the parameter naming the kart moved, start, end)
MOVES: dict[str, tuple[str, str, str | None, str]] = {
    "alt.drive": ("front", "who", "start", "end"),
    "alt.drive_to": ("front", "who", None, "end"),
    "alt.back_up": ("front", "who", "start", "end"),
    "alt.back_up_to": ("front", "who", None, "end"),
    "event.bump": ("rules", "victim", "cell", "to"),
    "event.magnet": ("rules", "victim", "frm", "cell"),
    "event.spring": ("rules", "who", "cell", "to"),
    "event.oil": ("rules", "who", "cell", "to"),
    "event.enter": ("rules", "who", None, "cell"),
    "event.fall": ("rules", "who", None, "cell"),
    "event.landing": ("rules", "who", None, "cell"),
}


def pattern(template: str) -> re.Pattern[str]:
    """A catalogue template as a regular expression: cells are cells, anything else is some words."""
    out, at = "", 0
    for m in re.finditer(r"\{(\w+)(?::\w+)?\}", template):
        out += re.escape(template[at:m.start()])
        name = m.group(1)
        group = CELL if name in ("cell", "to", "frm", "start", "end") else ".+?"
        out += f"(?P<{name}>{group})" if f"(?P<{name}>" not in out else ".+?"
        at = m.end()
    return re.compile(out + re.escape(template[at:]))


def templates(lang: str) -> list[tuple[str, re.Pattern[str]]]:
    out = []
    for msg, (where, *_rest) in MOVES.items():
        catalogue = front_texts.CATALOGUE if where == "front" else race_texts.CATALOGUE
        for count in (1, 2):
            out.append((msg, pattern(catalogue.template(msg, lang, count))))
    return out


def colour_of(kart: str) -> str:
    """A kart's colour: the first word of its last brackets ("Ann (red)", "Ann (red, kart 1)")."""
    found = re.findall(r"\(([^()]+)\)", kart)
    assert found, kart
    return found[-1].split(",")[0].strip()


def sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!…])\s+", text) if s]


def follow(folder: Path, lang: str) -> tuple[int, int]:
    """Follow every kart through the descriptions of a demo's messages; (moves told, cells checked)."""
    moves = templates(lang)
    turn = pattern(front_texts.CATALOGUE.template("alt.turn", lang))
    lead = pattern(front_texts.CATALOGUE.template("alt.leads", lang, 1))
    shared = pattern(front_texts.CATALOGUE.template("alt.shares_lead", lang, 1))
    where: dict[str, str | None] = {}
    told = checked = 0
    files = sorted(folder.glob("message-*.txt"))
    assert files
    for file in files:
        text = file.read_text(encoding="utf-8")
        if file.name.endswith("-whole.txt"):  # a whole board says which lap brought it, then what happened
            whole = front_texts.CATALOGUE.template("alt.whole", lang)
            assert text.startswith(whole.split("{")[0]), (file.name, text)
        for sentence in sentences(text):
            for msg, pat in moves:
                m = pat.fullmatch(sentence)
                if m is None:
                    continue
                _, piece, start, end = MOVES[msg]
                kart = colour_of(m.group(piece))
                if msg == "event.enter":
                    assert where.get(kart) is None, (file.name, sentence, where.get(kart))
                elif start is not None and kart in where:
                    assert m.group(start) == where[kart], (file.name, sentence, where[kart])
                    checked += 1
                where[kart] = m.group(end)
                told += 1
                break
            else:
                for pat in (turn, lead, shared):
                    m = pat.search(sentence)
                    if m is not None and colour_of(m.group("who" if pat is turn else "kart")) in where:
                        kart = colour_of(m.group("who" if pat is turn else "kart"))
                        assert m.group("cell") == where[kart], (file.name, sentence, where[kart])
                        checked += 1
    return told, checked


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_kart_is_followed_through_the_descriptions_alone(tmp_path: Path, capsys, lang: str) -> None:
    """A six-seat race of two laps in ``lang``: every drive, bump, fall and climb a message's picture shows is
    told from where the descriptions last left the kart, and the standings put the karts where they were told."""
    out = tmp_path / "demo"
    assert main(["demo", "--seats", "6", "--laps", "2", "--seed", "413757266", "--lang", lang, "--out",
                 str(out)]) == 0
    capsys.readouterr()
    told, checked = follow(out, lang)
    assert told > 60 and checked > 100
    assert all(len(f.read_text(encoding="utf-8")) <= 1024 for f in out.glob("message-*.txt"))


def test_the_reported_race_tells_a_whole_drive_by_its_real_start_and_length(tmp_path: Path, capsys) -> None:
    """The race of seed 413757266: green's first drive is told once, from the cell it lined up on, by its
    length, and the bump that ended it follows; red's lap drive is one drive that completes the lap."""
    out = tmp_path / "demo"
    assert main(["demo", "--seed", "413757266", "--out", str(out)]) == 0
    capsys.readouterr()
    second = (out / "message-0002.txt").read_text(encoding="utf-8")
    assert "(green) lines up on I10." in second
    assert "(green) drives 7 cells from I10 to P7. Computer 3 (smart) (green) bumps Computer 2 (smart) (blue) " \
           "from P7 to Q7." in second
    assert "drives 1 cell" not in second
    twelfth = (out / "message-0012.txt").read_text(encoding="utf-8")
    assert "(red) drives 13 cells from Q17 to K9." in twelfth and "(red) completes lap 1!" in twelfth
    whole = sorted(out.glob("message-*-whole.txt"))[0].read_text(encoding="utf-8")
    assert whole.startswith("The whole track: ") and " leads into lap 2 of 5." in whole


def test_each_turns_account_draws_the_cells_the_turn_drove() -> None:
    """Every move of a six-seat race: the trail the account draws for the turn's moves so far (its drives, as
    :func:`account.trail` gives them to the picture) is the turn's own kart's path as the rules kept it, cell
    for cell, and starts where its move started; every kart that moved ends on its cell."""
    seats = [{"name": f"P{i + 1}", "options": {}} for i in range(6)]
    game = Races.create({"seats": seats, "options": {"track": "A", "laps": 2}}, seed=7)
    drivers = {s: driver_for("races", "smart", 7 + s) for s in range(6)}
    turn: list = []
    number = None
    checked = 0
    while not game.is_over and game.ply < 4000:
        seat = game.to_act
        assert seat is not None
        view = game.view(None)
        if view["turn"]["number"] != number:
            turn, number = [], view["turn"]["number"]
        turn += events_for(game.apply(drivers[seat].choose(game, seat)), None)
        view = game.view(None)
        kept = view["last_turn"] if view["turn"]["number"] != number else view["turn"]
        told = account.account(turn)
        paths = [p for p in account.trail(told, turn)["paths"] if p["seat"] == kept["seat"]]
        assert [c for p in paths for c in p["path"]] == kept["path"], (game.ply, paths, kept["path"])
        if paths:
            assert paths[0]["move_from"] == kept["move_from"], (game.ply, paths, kept)
            checked += 1
        for kart_seat, (_, end) in told.journeys.items():
            cell = game.karts[kart_seat].cell
            assert cell is not None and end == cell.label, (game.ply, kart_seat, end, cell)
    assert checked > 50


def drawn_and_told(monkeypatch: pytest.MonkeyPatch, args: list[str], tmp_path: Path) -> list[tuple[dict, str]]:
    """Every Races message a demo composes: the trail its picture draws (what the view handed to the drawing
    holds) and its description."""
    from bot.games.races import unit as races_unit

    drawn: list[dict] = []
    pairs: list[tuple[dict, str]] = []
    for name in ("chat_png", "board_chat_png"):
        real = getattr(races_unit, name)

        def spy(view, *a, _real=real, **kw):  # type: ignore[no-untyped-def]
            drawn.append(dict(with_last_move(view).get("told") or {"paths": [], "marks": []}))
            return _real(view, *a, **kw)

        monkeypatch.setattr(races_unit, name, spy)
    real_alt = races_unit.RacesUnit.alt_text

    def alt(self, game, events, *, lang, whole=False):  # type: ignore[no-untyped-def]
        text = real_alt(self, game, events, lang=lang, whole=whole)
        pairs.append((drawn.pop(), text))
        return text

    monkeypatch.setattr(races_unit.RacesUnit, "alt_text", alt)
    assert main([*args, "--out", str(tmp_path / "demo")]) == 0
    assert not drawn
    return pairs


def drives_told(text: str, lang: str) -> list[tuple[str | None, str, int]]:
    """The drives a description tells, in order: (start, end, cells)."""
    found = []
    for sentence in sentences(text):
        for msg, pat in templates(lang):
            m = pat.fullmatch(sentence)
            if m is not None:
                if msg.startswith("alt."):
                    start = m.group("start") if "start" in pat.groupindex else None
                    found.append((start, m.group("end"), int(m.group("count"))))
                break
    return found


@pytest.mark.parametrize(("args", "lang"), [
    (["demo", "--seats", "6", "--laps", "2", "--seed", "413757266"], "en"),
    (["demo", "--seats", "8", "--laps", "1", "--seed", "5", "--lang", "de"], "de")])
def test_every_messages_picture_draws_the_drives_its_description_tells(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys, args: list[str], lang: str) -> None:
    """Every message of whole demo races, the close-ups and the whole tracks: the picture draws one line per
    drive the description tells, from the same start to the same end over as many cells, and nothing else."""
    pairs = drawn_and_told(monkeypatch, args, tmp_path)
    capsys.readouterr()
    for told, text in pairs:
        drawn = [(p["move_from"], p["path"][-1], len(p["path"])) for p in told["paths"]]
        assert drawn == drives_told(text, lang), (text, told)
    assert sum(bool(told["paths"]) for told, _ in pairs) > 25


def composed_trail(monkeypatch: pytest.MonkeyPatch, game: Races, moves: list) -> tuple[dict, str]:
    """The trail a close-up of ``game`` draws for a message telling ``moves`` (each a move's public events), and
    its description, as the composer makes them."""
    from bot.games.races import unit as races_unit
    from bot.messages import Showing
    from bot.telling.compose import Table, compose

    drawn: list[dict] = []
    real = races_unit.chat_png

    def spy(view, *a, **kw):  # type: ignore[no-untyped-def]
        drawn.append(dict(with_last_move(view).get("told") or {}))
        return real(view, *a, **kw)

    monkeypatch.setattr(races_unit, "chat_png", spy)
    record = Showing(picture="close", events=tuple(moves[-1]), moves=tuple(tuple(m) for m in moves))
    message = compose(record, Table(1, "races", game.ply, "en", ()), races_unit.GAME, game, "en")
    assert message.png is not None and len(drawn) == 1
    return drawn[0], message.description


def test_a_turn_yet_to_drive_draws_no_trail_of_the_turn_before(monkeypatch: pytest.MonkeyPatch) -> None:
    """R3 (a turn's roll comes before its drive): a message that tells only the new turn's roll draws no trail,
    although the rules still keep the turn before's path for pictures that tell nothing (its description tells no
    drive either); the same view with the drive's move told draws that drive."""
    seats = [{"name": f"P{i + 1}", "options": {}} for i in range(4)]
    game = Races.create({"seats": seats, "options": {"track": "A", "laps": 1}}, seed=3)
    drivers = {s: driver_for("races", "smart", 3 + s) for s in range(4)}
    moves: list = []
    while game.ply < 400:
        seat = game.to_act
        assert seat is not None
        moves.append(events_for(game.apply(drivers[seat].choose(game, seat)), None))
        view = game.view(None)
        if (view["phase"] == "move" and not view["turn"]["path"] and (view["last_turn"] or {}).get("path")
                and any(e.kind == "roll" for e in moves[-1])):
            break
    else:
        pytest.fail("no turn rolled after a drive")
    told, text = composed_trail(monkeypatch, game, [moves[-1]])
    assert told["paths"] == [] and drives_told(text, "en") == []
    drive = next(m for m in reversed(moves[:-1]) if any(e.kind == "drive" for e in m))
    told, text = composed_trail(monkeypatch, game, [drive, moves[-1]])
    assert [p["path"][-1] for p in told["paths"]] == [end for _, end, _ in drives_told(text, "en")] != []


def test_a_drive_before_a_turn_lost_at_once_is_drawn_r8(monkeypatch: pytest.MonkeyPatch) -> None:
    """R8: in the eight-seat race of seed 5 (track A) black's last step ends its turn and red's turn is lost at
    once; the message telling that step draws it (the drive to R13), not the lost turn that the rules now keep as
    the turn before."""
    seats = [{"name": f"P{i + 1}", "options": {}} for i in range(8)]
    game = Races.create({"seats": seats, "options": {"track": "A", "laps": 2}}, seed=5)
    drivers = {s: driver_for("races", "smart", 5 + s) for s in range(8)}
    while not game.is_over and game.ply < 4000:
        seat = game.to_act
        assert seat is not None
        events = events_for(game.apply(drivers[seat].choose(game, seat)), None)
        if any(e.kind == "turn-lost" for e in events) and any(e.kind == "drive" for e in events):
            break
    else:
        pytest.fail("no turn lost at once after a drive")
    assert not (game.view(None)["last_turn"] or {}).get("path")
    told, text = composed_trail(monkeypatch, game, [events])
    drawn = [(p["move_from"], p["path"][-1], len(p["path"])) for p in told["paths"]]
    assert drawn == drives_told(text, "en") and drawn[-1][1] == "R13"


def test_a_drive_is_told_even_when_the_next_kart_loses_its_turn_at_once_r8() -> None:
    """R8: a kart whose Landing Point is taken loses its turn as soon as it begins. In this eight-seat race
    (seed 5, track A) black's last step bumps purple and ends black's turn, and red's turn is lost at once: the
    step is still told (a drive to R13), so every kart moved by a move ends, in the account, on its cell."""
    seats = [{"name": f"P{i + 1}", "options": {}} for i in range(8)]
    game = Races.create({"seats": seats, "options": {"track": "A", "laps": 2}}, seed=5)
    drivers = {s: driver_for("races", "smart", 5 + s) for s in range(8)}
    lost = 0
    while not game.is_over and game.ply < 4000:
        seat = game.to_act
        assert seat is not None
        before = [k.cell for k in game.karts]
        events = events_for(game.apply(drivers[seat].choose(game, seat)), None)
        lost += any(e.kind == "turn-lost" for e in events)
        ends = {s: end for s, (_, end) in account.account(events).journeys.items()}
        for k in game.karts:
            if k.cell is not None and k.cell != before[k.seat]:
                assert ends.get(k.seat) == k.cell.label, (game.ply, k.seat, before[k.seat], k.cell)
    assert lost


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_rally_car_is_followed_through_the_descriptions_alone(tmp_path: Path, capsys, lang: str) -> None:
    """A rally of three cars in ``lang`` (S3: a car drives as far as its gear says): every drive is told from the
    place the descriptions last left the car, a booster turn as one drive from the turn's start, a drive out of a
    spot from the spot the car parked on (S10, S11)."""
    from rules.rally import texts as rally_texts

    out = tmp_path / "demo"
    assert main(["demo", "--game", "rally", "--seed", "413757266", "--lang", lang, "--out", str(out)]) == 0
    capsys.readouterr()

    def rx(msg: str, n: int) -> re.Pattern[str]:
        return re.compile(pattern(rally_texts.CATALOGUE.template(msg, lang, n)).pattern.replace(CELL, ".+?"))

    # every sentence that moves a car: a drive (a booster's too, and pulling out behind a car: S11), a drive that
    # parks (S10: a pit spot too), a car pushed onto a spot for repairs (S6)
    # (the booster's sentences first: a plain drive's end would take in their last words)
    moving = [rx(msg, n) for msg in ("alt_move_boost", "alt_pull_out_boost", "alt_move_boost_park", "alt_move",
                                     "alt_pull_out", "alt_move_park", "alt_pushed", "alt_park")
              for n in (1, 2)]
    where: dict[str, str] = {}
    checked = boosted = 0
    for file in sorted(out.glob("message-*.txt")):
        for sentence in sentences(file.read_text(encoding="utf-8")):
            found = next((m for p in moving if (m := p.fullmatch(sentence))), None)
            if found is None:
                continue
            car = found.group("who").split()[0]
            names = found.groupdict()
            if names.get("start") is not None and car in where:
                assert names["start"] == where[car], (file.name, sentence, where[car])
                checked += 1
                boosted += names.get("via") is not None
            where[car] = names.get("end") or names["spot"]
    assert checked > 30 and boosted > 3
