"""One account of a turn of Junkyard for a piecepack (DESIGN "One account of a turn"): a listener who hears only
the pictures' descriptions knows where every pawn is.

Whole demo games (four seats, English and German) are followed through the ``message-NNNN.txt`` files alone:
each move (P3) starts where the texts last left that pawn, a pawn landed on (P7) is sent home from the square
the lander reached, and the turn's and the standings' squares agree with where the texts put each pawn.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.cli import main
from bot.games.piecepack import account
from rules.piecepack import texts as pp_texts

SQUARE = r"[a-e][1-5]"


def pattern(msg: str, lang: str, count: int = 1) -> re.Pattern[str]:
    """A catalogue template as a regular expression: squares are squares, anything else is some words."""
    template = pp_texts.CATALOGUE.template(msg, lang, count)
    out, at = "", 0
    for m in re.finditer(r"\{(\w+)(?::\w+)?\}", template):
        out += re.escape(template[at:m.start()])
        name = m.group(1)
        group = SQUARE if name in ("square", "start", "end") else ".+?"
        out += f"(?P<{name}>{group})" if f"(?P<{name}>" not in out else ".+?"
        at = m.end()
    return re.compile(out + re.escape(template[at:]))


def sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!…])\s+", text) if s]


def follow(folder: Path, lang: str) -> tuple[int, int, int]:
    """Follow every pawn through a demo's descriptions; (moves told, pawns sent home, squares checked)."""
    moves = [pattern(m, lang, n) for m in ("alt.move", "alt.move_over") for n in (1, 2)]
    home = pattern("alt.sent_home", lang)
    turn = [pattern(m, lang, n) for m in ("alt.turn_roll", "alt.turn_move") for n in (1, 2)]
    seats = [re.compile(pattern(m, lang, n).pattern) for m in ("alt.seat_carrying", "alt.seat") for n in (1, 2)]
    where: dict[str, str] = {}
    told = sent = checked = 0
    files = sorted(folder.glob("message-*.txt"))
    assert files
    for file in files:
        text = file.read_text(encoding="utf-8")
        assert len(text) <= 1024, file.name
        for sentence in sentences(text):
            if (m := next((m for p in moves if (m := p.fullmatch(sentence))), None)) is not None:
                if m.group("who") in where:
                    assert m.group("start") == where[m.group("who")], (file.name, sentence, where)
                    checked += 1
                where[m.group("who")] = m.group("end")
                told += 1
            elif (m := home.fullmatch(sentence)) is not None:
                if m.group("them") in where:
                    assert m.group("start") == where[m.group("them")], (file.name, sentence, where)
                    checked += 1
                where[m.group("them")] = m.group("end")
                sent += 1
            elif (m := next((m for p in turn if (m := p.search(sentence))), None)) is not None \
                    and m.group("who") in where:
                assert m.group("square") == where[m.group("who")], (file.name, sentence, where)
                checked += 1
            if sentence.startswith(pp_texts.CATALOGUE.template("alt.standings", lang).split("{")[0]):
                for part in sentence.split(": ", 1)[1].rstrip(".").split("; "):
                    m = next((m for p in seats if (m := p.fullmatch(part))), None)
                    if m is not None and m.group("who") in where:
                        assert m.group("square") == where[m.group("who")], (file.name, part, where)
                        checked += 1
    return told, sent, checked


@pytest.mark.parametrize(("seed", "lang"), [(11, "en"), (11, "de"), (29, "en")])
def test_every_pawn_is_followed_through_the_descriptions_alone(tmp_path: Path, capsys, seed: int, lang: str) -> None:
    """A four-seat game in ``lang``: every move (P3) and every pawn sent home (P7) is told from where the
    descriptions last left the pawn, and whose turn it is and the standings put each pawn where it was told."""
    out = tmp_path / "demo"
    assert main(["demo", "--game", "piecepack", "--seats", "4", "--seed", str(seed), "--lang", lang, "--out",
                 str(out)]) == 0
    capsys.readouterr()
    told, sent, checked = follow(out, lang)
    assert told > 20 and sent > 0 and checked > 60


def test_a_landing_tells_the_trash_handed_on_and_the_pawn_sent_home_p7() -> None:
    """P7: Suns on b3 with trash rolls 2 and moves b3-b4-c4 onto Crowns, who carries the good stuff: the account
    tells the move by its squares, the landing, the top piece handed on, the good stuff sent back to the centre
    and Crowns sent home from c4 to its corner e5."""
    events = [
        pp_texts.event("move", "event.move", 0, {"path": ["b3", "b4", "c4"]}, who=pp_texts.seat(0, "Suns"),
                       path="b3-b4-c4"),
        pp_texts.event("land", "event.land", 0, {"square": "c4", "victim": 2}, who=pp_texts.seat(0, "Suns"),
                       them=pp_texts.seat(2, "Crowns"), square="c4"),
        pp_texts.event("gift", "event.gift", 0, {"piece": "SC", "to": 2}, who=pp_texts.seat(0, "Suns"),
                       them=pp_texts.seat(2, "Crowns"), piece=pp_texts.piece("SC")),
        pp_texts.event("return", "event.return", 2, {"square": "c3"}),
        pp_texts.event("home", "event.home", 2, {"square": "e5"}, who=pp_texts.seat(2, "Crowns"), square="e5"),
    ]
    acc = account.account(events)
    assert acc.journeys == {0: ("b3", "c4"), 2: ("c4", "e5")}
    assert account.sentences(acc, "en") == [
        "Suns moves 2 squares from b3 over b4 to c4.", "Suns lands on Crowns on c4 (P7).",
        "Suns hands its top piece of trash, Suns C, to Crowns.",
        "Crowns loses the good stuff: it goes back to the centre, c3 (P7).", "Crowns is sent home from c4 to e5."]
    assert account.sentences(acc, "de") == [
        "Sonnen zieht 2 Felder von b3 über b4 nach c4.", "Sonnen landet auf c4 genau auf Kronen (P7).",
        "Sonnen gibt das oberste Stück Müll, Sonnen C, an Kronen ab.",
        "Kronen verliert das gute Zeug: es kommt zurück in die Mitte, auf c3 (P7).",
        "Kronen muss von c4 zurück nach e5."]
