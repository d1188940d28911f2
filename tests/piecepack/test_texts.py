"""Junkyard (piecepack) in English and German: the catalogue is complete, refusals and narration of real
positions read in German, stored events stay language-free data, and German buttons still play legal
actions."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bot.games.piecepack.unit import GAME, destination_choices
from bot.games.unit import Ask
from render.piecepack import panel_texts, piecepack_image
from rules.catalogue import placeholders
from rules.contract import Event, IllegalAction
from rules.piecepack import PiecepackGame, texts
from tests.piecepack.conftest import pos

ROOT = Path(__file__).resolve().parents[2]
#: every module that words piecepack texts
SOURCES = [*sorted((ROOT / "rules" / "piecepack").glob("*.py")), ROOT / "render" / "piecepack.py",
           *sorted((ROOT / "bot" / "games" / "piecepack").glob("*.py"))]
#: ids the wording functions build from data (a suit, a face), not written out in the code
BUILT = re.compile(r"(suit|face|a_face)\.\d")


def refused(game: PiecepackGame, action: str) -> IllegalAction:
    before = game.to_dict()
    with pytest.raises(IllegalAction) as info:
        game.apply(action)
    assert game.to_dict() == before
    return info.value


# The catalogue -----------------------------------------------------------------------------------------


def test_every_id_has_english_and_german_with_the_same_placeholders() -> None:
    en, de = texts.CATALOGUE.entries("en"), texts.CATALOGUE.entries("de")
    assert set(de) == set(en)
    for msg, forms in en.items():
        assert len(de[msg]) == len(forms), msg
        wanted = placeholders(forms[0])
        assert all(f and placeholders(f) == wanted for f in (*forms, *de[msg])), msg


def test_every_id_the_code_uses_is_in_the_catalogue_and_every_entry_is_used() -> None:
    code = "\n".join(p.read_text(encoding="utf-8") for p in SOURCES)
    areas = "event|refuse|notation|status|button|choice|picture|legal|seat|terminal|standings|progress|alt"
    used = set(re.findall(rf"\"((?:{areas})\.[a-z_]+)\"", code))
    assert used and used <= texts.CATALOGUE.ids, used - texts.CATALOGUE.ids
    unused = {m for m in texts.CATALOGUE.ids - used if not BUILT.fullmatch(m) and m != "piece"}
    assert not unused


def test_counted_texts_are_plural_entries_in_both_languages() -> None:
    """A count picks the form by each language's header: 1 Schritt, 2 Schritten."""
    assert texts.say("event.pass_blocked", "de", who=texts.seat(0, "Ann"), next=texts.seat(1, "Bob"), count=1) == (
        "Sonnen (Ann) kann nicht ziehen (kein Weg mit genau 1 Schritt ist frei); Monde (Bob) würfelt als Nächstes.")
    assert "exactly 3 steps is open" in texts.say("event.pass_blocked", "en", who=texts.seat(0, "Ann"),
                                                  next=texts.seat(1, "Bob"), count=3)


# Refusals of real positions ----------------------------------------------------------------------------


def test_german_refusal_of_another_players_corner_p4() -> None:
    """P4: a corner of another player may be passed over, never ended on; the refusal names the owner."""
    exc = refused(pos(players=3, pawns={"Suns": "a3"}, phase="move", roll=2), "move a5")
    assert str(exc) == ("a5 is Moons' start corner: you may pass over it but not stop there (P4). "
                        "Legal: move to a1, b2, b4.")
    assert GAME.refusal(exc, "de") == ("a5 ist die Startecke der Monde: darüber ziehen darfst du, dort stehen "
                                       "bleiben nicht (P4). Möglich: Zug nach a1, b2, b4.")


@pytest.mark.parametrize(("trash", "german"), [(["SA"], "1 Müllpyramide"), (["SA", "SB"], "2 Müllpyramiden")])
def test_german_refusal_of_the_centre_with_trash_counts_pieces_4c_p5(trash: list[str], german: str) -> None:
    """§4.C, P5: only a pawn without trash may enter the centre; the refusal counts the pieces in German."""
    exc = refused(pos(pawns={"Suns": "c1"}, trash={"Suns": trash}, phase="move", roll=2), "move c3")
    assert GAME.refusal(exc, "de") == (f"Du trägst noch {german}: nur eine Figur ohne Müll darf in die Mitte "
                                       "(§4.C, P5). Möglich: Zug nach a1, e1, b2, d2.")


@pytest.mark.parametrize(("roll", "german", "english"), [(1, "1 Schritt", "1 step"), (2, "2 Schritten", "2 steps")])
def test_german_refusal_of_an_unreachable_square_p3(roll: int, german: str, english: str) -> None:
    """P3: a move is exactly the roll; one step and two steps are counted in each language's plural."""
    exc = refused(pos(pawns={"Suns": "a1"}, phase="move", roll=roll), "move e4")
    assert str(exc).startswith(f"No path of exactly {english} from a1 ends on e4 (P3).")
    assert GAME.refusal(exc, "de").startswith(f"Kein Weg mit genau {german} führt von a1 nach e4 (P3). Möglich:")


def test_german_refusal_of_the_carrier_passing_over_a_pawn_p6() -> None:
    """P6: the carrier may not pass over other pawns."""
    exc = refused(pos(pawns={"Suns": "b2", "Moons": "b3"}, good="Suns", trash={"Suns": []}, phase="move", roll=2),
                  "move b2-b3-b4")
    assert GAME.refusal(exc, "de").startswith("Mit dem guten Zeug darfst du auf b3 nicht über Monde hinwegziehen "
                                              "(P6). Möglich: Zug nach a1, b1, c1, d1,")


def test_german_refusal_before_the_roll_and_of_bad_notation() -> None:
    g = pos(players=["Ann", "Bob"])
    assert GAME.refusal(refused(g, "move a2"), "de") == "Sonnen (Ann) muss zuerst würfeln (`roll`)."
    assert GAME.refusal(refused(g, "move f9"), "de") == (
        "'f9' ist kein Feld: Felder gehen von a1 bis e5 (Spalten a–e, Reihen 1–5).")
    assert GAME.refusal(refused(g, "pass"), "de").startswith("Es gibt kein `pass`:")


def test_every_refusal_in_play_carries_an_id_and_reads_in_german() -> None:
    """Whatever a player types in any phase, the refusal has a catalogue id, its English text is the
    catalogue's, and it reads differently in German."""
    typed = ["move e4", "move a1-a2", "move a1-b2", "move c3", "move a5", "move e5", "roll", "move b1-b1",
             "m a1 a2 a3 a2", "move", "jump", "", "roll 3", "move z9", "e1"]
    game = PiecepackGame.create({"seats": [{"name": n} for n in ("Ann", "Bob", "Cy")], "options": {}}, 5)
    seen = set()
    for _ in range(60):
        for text in typed:
            probe = PiecepackGame.from_dict(game.to_dict())
            try:
                probe.apply(text)
            except IllegalAction as exc:
                assert exc.msg in texts.CATALOGUE.ids, (text, str(exc))
                assert texts.say(exc.msg, "en", **exc.params) == str(exc)
                assert GAME.refusal(exc, "de") != str(exc)
                seen.add(exc.msg)
        game.apply(str(game.legal_actions()[0]))
        if game.is_over:
            break
    assert len(seen) >= 8


# Narration ---------------------------------------------------------------------------------------------


def test_german_narration_of_landing_on_a_pawn_4b_p7() -> None:
    """§4.B, P7: the README's worked turn, told in German: the lander hands on its top trash piece and the
    landed-on pawn goes home."""
    g = pos(players=["Ann", "Bob"], pawns={"Suns": "b1", "Moons": "b3"}, load=[2])
    assert GAME.narrate(g.apply("roll"), "de") == "Sonnen (Ann) würfelt eine 2."
    assert GAME.narrate(g.apply("move b3"), "de") == (
        "Sonnen (Ann) zieht 2 Felder von b1 über b2 nach b3. Sonnen (Ann) landet auf b3 genau auf Monde (Bob) "
        "(P7). Sonnen (Ann) gibt das oberste Stück Müll, Sonnen C, an Monde (Bob) ab. "
        "Monde (Bob) muss von b3 zurück nach e5.")


def test_german_narration_of_stealing_the_good_stuff_4d_p7() -> None:
    """§4.D, P7: a lander without trash steals the good stuff from the carrier."""
    g = pos(players=["Ann", "Bob"], pawns={"Suns": "b2", "Moons": "c2"}, good="Moons",
            trash={"Suns": [], "Moons": []}, load=[1])
    assert GAME.narrate(g.apply("roll"), "de") == "Sonnen (Ann) würfelt ein Ass."
    assert GAME.narrate(g.apply("move c2"), "de") == (
        "Sonnen (Ann) zieht 1 Feld von b2 nach c2. Sonnen (Ann) landet auf c2 genau auf Monde (Bob) (P7). "
        "Sonnen (Ann), ohne Müll, schnappt Monde (Bob) das gute Zeug weg (P7). Monde (Bob) muss von c2 zurück "
        "nach e5.")


def test_german_narration_of_a_null_passing_the_turn_p3() -> None:
    """P3: a Null means no move; players named after their suits read the German suit."""
    g = pos(load=[0])
    assert GAME.narrate(g.apply("roll"), "de") == (
        "Sonnen würfelt eine Null. Sonnen kann nicht ziehen (eine Null heißt: kein Zug); Monde würfelt als Nächstes.")


def test_stored_events_are_language_free_and_old_ones_keep_their_text() -> None:
    """An event read back from JSON is worded in German from its id and data; its parameters hold seat
    numbers, names, squares and piece codes, no words; an event stored before ids keeps its text."""
    g = pos(players=["Ann", "Bob"], pawns={"Suns": "b1", "Moons": "b3"}, load=[2])
    g.apply("roll")
    stored = [Event.from_dict(json.loads(json.dumps(e.to_dict()))) for e in g.apply("move b3")]
    assert all(texts.event_text(e, "en") == e.text for e in stored)
    params = json.dumps([e.data["params"] for e in stored])
    assert not re.search(r"Suns|Moons|Sonnen|Monde|hands|goes", params)
    assert GAME.narrate(stored[-1:], "de") == "Monde (Bob) muss zurück auf e5."
    old = Event("home", "Moons (Bob) goes back to e5.", 1, {"square": "e5"})
    assert GAME.narrate([old], "de") == old.text


# Buttons, choices, status and picture ------------------------------------------------------------------


def test_german_buttons_play_legal_actions() -> None:
    g = pos(players=["Ann", "Bob"], pawns={"Suns": "b1", "Moons": "b3"}, load=[2])
    [roll] = GAME.buttons(g, 0, "de")
    assert roll.label == "Würfeln" and roll.action in {str(a) for a in g.legal_actions()}
    g.apply(roll.action)
    buttons = GAME.buttons(g, 0, "de")
    legal = {str(a) for a in g.legal_actions()}
    assert [b.label for b in buttons] == ["→ d1", "→ a2", "→ c2", "→ b3"]
    assert all(b.action in legal for b in buttons)
    for b in buttons:
        probe = PiecepackGame.from_dict(g.to_dict())
        probe.apply(b.action)
        assert probe.pawns[0] == b.label.removeprefix("→ ")
    choices = destination_choices(Ask(game=g, seat=0, current="c", lang="de"))
    assert choices == [("c2 (über b1-b2-c2)", "c2")]


def test_german_status_text() -> None:
    g = pos(players=["Ann", "Bob"], pawns={"Suns": "b1"}, trash={"Suns": []})
    assert GAME.describe(g, None, "de").splitlines() == [
        "Junkyard (Piecepack), Zug 0: Ann ist am Zug.",
        "Sonnen (Ann) auf b1 (Startecke a1): kein Müll",
        "Monde (Bob) auf e5 (Startecke e5): MA MB MC",
        "Das gute Zeug liegt in der Mitte (c3).",
    ]
    g = pos(pawns={"Suns": "b1", "Moons": "c4"}, good="Moons", trash={"Suns": ["SA", "MA"], "Moons": []},
            to_act="Moons", ply=7)
    assert GAME.describe(g, None, "de").splitlines() == [
        "Junkyard (Piecepack), Zug 7: Monde ist am Zug.",
        "Sonnen auf b1 (Startecke a1): SA MA",
        "Monde auf c4 (Startecke e5): kein Müll, trägt das gute Zeug",
    ]


def test_german_picture_words() -> None:
    g = pos(players=["Ann", "Bob"], pawns={"Suns": "b1", "Moons": "b3"}, load=[2])
    g.apply("roll")
    view = g.view(None)
    assert panel_texts(view, "de") == ["JUNKYARD", "Ann zieht 2 Felder", "Ann hat eine 2 gewürfelt",
                                       "Ann · Sonnen", "Müll 3", "Bob · Monde", "Müll 3", "gutes Zeug in der Mitte"]
    assert panel_texts(view, "en")[1:3] == ["Ann to move 2 steps", "Ann rolled 2"]
    german, english = piecepack_image(view, lang="de"), piecepack_image(view)
    assert german.size == english.size and german.tobytes() != english.tobytes()


def test_german_terminal_words_standings_and_progress() -> None:
    """The terminal and the demo in German: seat labels, the short list, the situation, the final table
    (the winner first, §5) and the progress line."""
    g = pos(players=["Ann", "Bob"], pawns={"Suns": "b1", "Moons": "c3"}, good="Moons",
            trash={"Suns": ["SA", "MA"], "Moons": []}, to_act="Moons", phase="move", roll=2)
    assert [GAME.seat_label(g, s, "de") for s in (0, 1)] == ["Ann (Sonnen)", "Bob (Monde)"]
    assert GAME.situation(g, "de") == "Du hast 2 gewürfelt: zieh genau so weit"
    assert ("move e5", "Pfad c3-d4-e5") in GAME.short_list(g, 1, "de")
    g.apply("move e5")
    assert g.is_over and g.winners == [1]
    table = GAME.standings(g, "de")
    assert table.head == ("Name", "Farbe", "Müll", "Gutes Zeug")
    assert table.rows == [(1, ("Bob", "Monde", "keiner", "trägt es")), (0, ("Ann", "Sonnen", "SA MA", ""))]
    assert GAME.progress(g, "de")[0] == "Zug    1  Sonnen: 2 Müll  Monde: 0 Müll, trägt"
