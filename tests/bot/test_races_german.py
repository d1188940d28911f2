"""The Junkyard Races front in German: the status, the hand, buttons, the terminal's lists and the /race
commands' refusals and choices, on positions set up in the position format (rules/races/NOTATION.md).

Notation stays as typed in every language: a German button plays exactly the action its English twin
plays, and that action is legal.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from bot.games.races.commands import RACE_COMMANDS, ac_move, ac_step
from bot.games.races.moves import prompt
from bot.games.races.texts import CATALOGUE
from bot.games.races.unit import GAME
from bot.games.unit import Ask, Refusal
from rules.catalogue import placeholders
from rules.contract import SetupError
from rules.races.engine import Races

ANN = {"name": "Ann", "colour": "red", "cell": "T9", "facing": "S", "flags": 1, "bottle_tops": 3,
       "parts": {"4": "saddlebag-4", "6": "turbo-engine"}, "fuel": {"white": 2}, "bags": {"7": ["oil", "glue+"]}}
BOB = {"name": "Bob", "colour": "blue", "cell": "J9", "facing": "SE"}


def race(**rest: Any) -> Races:
    """Ann (red, Turbo Engine with two white dice, a spare saddlebag at 4) and Bob on the Sump Creek Loop."""
    return Races.from_position({"track": "A", "karts": [ANN, BOB], "turn": "red", **rest})


def test_the_status_in_german_names_track_laps_karts_turn_and_the_own_tiles() -> None:
    game = race(phase="roll", options={"laps": 2})
    assert GAME.describe(game, 0, "de").splitlines() == [
        "**Junkyard Races** auf Sump Creek Loop, 2 Runden, Zug 0.",
        "Ann (rot): auf T9 mit Blick nach Süden, 1/2 Flaggen, 3 Kronkorken, 2 Teile, 2 Plättchen",
        "Bob (blau): auf J9 mit Blick nach Südosten, 0/2 Flaggen, 0 Kronkorken, 0 Teile, 0 Plättchen",
        "Ann ist dran, Phase: Würfeln.",
        "Deine Plättchen: Tasche 7: Öl, Leim (aufgedeckt).",
        "Befehle dafür: `/rennen rückwärts`, `/rennen würfeln`.",
    ]
    assert GAME.describe(game, None, "de").splitlines()[-1] == "Ann ist dran, Phase: Würfeln."
    english = GAME.describe(game, 0, "en").splitlines()
    assert english[1] == "Ann (red): T9 facing S, 1/2 flags, 3 bottle tops, 2 parts, 2 tiles"
    assert english[-1] == "Commands for it: `/race reverse`, `/race roll`."


def test_the_status_counts_in_german_one_point_one_lap() -> None:
    game = race(phase="move", points=1, options={"laps": 1})
    lines = GAME.describe(game, None, "de").splitlines()
    assert lines[0] == "**Junkyard Races** auf Sump Creek Loop, 1 Runde, Zug 0."
    assert lines[-1] == "Ann ist dran, Phase: Fahren, 1 Punkt zum Fahren."
    assert GAME.describe(game, None, "en").splitlines()[-1] == "Ann to act, phase: move, 1 point to drive."


def test_the_hand_in_german_names_tiles_and_parts_as_the_rules_do() -> None:
    assert GAME.hand_text(race(phase="roll"), 0, "de") == (
        "Dein Kart (rot). Plättchen: Tasche 7: Öl, Leim (aufgedeckt).\n"
        "Teile: 4: Satteltasche Nr. 4, 6: Turbomotor. Kronkorken: 3. Treibstoffwürfel: 2 weiß, 0 rot.")
    assert GAME.hand_text(race(phase="roll"), 1, "de").startswith("Dein Kart (blau). Plättchen: keine.\n"
                                                                 "Teile: keine.")


def _picked_up() -> Races:
    """R14: Ann drives onto a face-down junk tile with room in two saddlebags: which takes it?"""
    game = race(phase="move", points=1, board={"T10": "junk:oil"})
    game.apply("step T10")
    assert game.choice is not None and game.choice.kind == "bag"
    return game


POSITIONS = {
    "roll with fuel dice": lambda: race(phase="roll"),
    "a step onto a junk tile (R18)": lambda: race(phase="move", points=1, board={"T10": "junk:oil"}),
    "whole moves": lambda: race(phase="move", points=3),
    "reversing": lambda: race(phase="move", points=2, reversing=True),
    "which saddlebag (R14)": _picked_up,
}
#: English words a German label must not hold
ENGLISH = re.compile(r"\b(Roll|white|red|Reverse|Back|Done|Stop|left|straight|right|leave|Bag|Push|Tile)\b")


@pytest.mark.parametrize("situation", list(POSITIONS))
def test_german_buttons_play_the_same_legal_actions_as_the_english_ones(situation: str) -> None:
    game = POSITIONS[situation]()
    english, german = GAME.buttons(game, 0, "en"), GAME.buttons(game, 0, "de")
    assert english, situation
    assert [(b.action, b.style) for b in german] == [(b.action, b.style) for b in english]
    legal = {str(a) for a in game.legal_actions()}
    ways = [["step", w] for w in ("left", "straight", "right")]
    relative = {b.action for b in german if b.action.split()[:2] in ways}
    assert {b.action for b in german} - relative <= legal  # a relative step names a listed step by its way
    worded = [(e.label, g.label) for e, g in zip(english, german, strict=True) if not e.label.startswith("→")]
    assert worded and all(e != g for e, g in worded)
    assert not [g for _, g in worded if ENGLISH.search(g)]
    for button in german:  # pressing a German button plays its action
        again = POSITIONS[situation]()
        before = again.ply
        again.apply(button.action)
        assert again.ply == before + 1


def test_german_button_labels_for_a_pending_choice() -> None:
    game = _picked_up()
    assert [(b.label, b.action) for b in GAME.buttons(game, 0, "de")] == [("Tasche 7", "choose 7"),
                                                                          ("Tasche 4", "choose 4")]
    lines = GAME.describe(game, 0, "de").splitlines()
    assert lines[3] == f"Ann muss wählen: {prompt(game, 'de')} (7 / 4)"
    assert "Satteltasche" in prompt(game, "de") and not ENGLISH.search(prompt(game, "de"))


def test_the_terminals_lists_in_german() -> None:
    game = race(phase="move", points=1, board={"T10": "junk:oil"})
    assert GAME.situation(game, "de") == "1 Punkt zum Fahren"
    assert ("step straight leave", "T10, das Schrottplättchen bleibt liegen") in GAME.short_list(game, 0, "de")
    assert GAME.situation(race(phase="roll"), "de") == "Phase 3: würfeln oder rückwärts fahren"
    standings = GAME.standings(game, "de")
    assert standings.head == ("Name", "Farbe", "Flaggen", "Kronkorken")
    assert standings.rows[0] == (0, ("Ann", "rot", "1/5", "3"))
    line, _ = GAME.progress(game, "de")
    assert line.startswith("Zug    0  rot [") and " blau [" in line
    assert GAME.table_title(game, "Ann, Bob", "de") == "Junkyard Races auf Sump Creek Loop: Ann, Bob, 5 Runden"
    assert GAME.seat_label(game, 1, "de") == "Bob (blau)" and GAME.seat_label(game, 1) == "Bob (blue)"


def _play(command: str, ask: Ask) -> str:
    play = RACE_COMMANDS.command(command).play
    assert play is not None
    return play(ask)


def test_race_commands_refuse_in_the_askers_language_with_its_option_names() -> None:
    game = race(phase="roll")
    ask = Ask(game=game, seat=0, values={"location": "12"}, lang="de")
    with pytest.raises(Refusal, match=r"^`platz` ist eine Zahl von 2 bis 9\.$"):
        _play("return", ask)
    ask = Ask(game=game, seat=0, values={"location": "12"}, lang="en")
    with pytest.raises(Refusal, match=r"^`location` is a number from 2 to 9\.$"):
        _play("return", ask)
    ask = Ask(game=game, seat=0, values={"to": "7F"}, lang="de")
    with pytest.raises(Refusal, match=r"^`ziel`: '7F' ist kein Feld dieser Strecke\. Nenne Felder wie `F7`"):
        _play("move", ask)


def test_setting_up_a_race_refuses_and_notes_in_german() -> None:
    with pytest.raises(SetupError, match=r"^ein Rennen dauert 1 bis 5 Runden, nicht 9$"):
        GAME.setup_options({"laps": 9}, "de")
    with pytest.raises(SetupError, match=r"^'pink' ist keine Kartfarbe; wähle aus red, blue"):
        GAME.seat_options({"colour": "pink"}, {"track": "Sump Creek Loop"}, [], "de")
    with pytest.raises(SetupError, match=r"^red ist schon vergeben; frei sind: blue, "):
        GAME.seat_options({"colour": "red"}, {"track": "Sump Creek Loop"}, [{"colour": "red"}], "de")
    seat, notes = GAME.seat_options({"colour": "blue", "team": 2}, {"track": "Sump Creek Loop"}, [], "de")
    assert seat == {"colour": "blue"}
    assert notes == ["`team` zählt nur im Teamrennen (`/spiel neu teams:True`); ignoriert."]
    _, notes = GAME.seat_options({"team": 2}, {"track": "Sump Creek Loop"}, [])
    assert notes == ["`team` only counts in team racing (`/game new teams:True`); ignored."]


def test_autocomplete_names_are_german_and_values_stay_notation() -> None:
    game = race(phase="move", points=1, board={"T10": "junk:oil"})
    legal = list(game.legal_actions())
    steps = ac_step(Ask(game=game, seat=0, legal_of=lambda: legal, lang="de"))
    assert ("geradeaus (T10)", "straight") in steps and ("T10 (geradeaus)", "T10") in steps
    game = race(phase="move", points=3)
    legal = list(game.legal_actions())
    moves = ac_move(Ask(game=game, seat=0, legal_of=lambda: legal, lang="de"))
    assert moves and all(" (über " in name for name, _ in moves)


def test_a_german_race_status_holds_no_english_words() -> None:
    """Every seat's status, hand and buttons through a random race, all in German."""
    rng = random.Random(7)
    game = Races.create({"seats": [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}], "options": {"track": "B"}}, 7)
    english = re.compile(r"\b(facing|flags|bottle tops?|to act|to choose|Your|Commands|points? to drive|tiles?|"
                         r"parts?|bag|face up|none|Roll|Reverse|Done|Stop here|Back|leave)\b")
    for _ in range(120):
        if game.is_over:
            break
        for seat in range(3):
            texts = [GAME.describe(game, seat, "de"), GAME.hand_text(game, seat, "de"),
                     *(b.label for b in GAME.buttons(game, seat, "de")), GAME.situation(game, "de")]
            found = [m.group(0) for t in texts for m in english.finditer(t)]
            assert not found, (found, texts)
        game.apply(str(rng.choice(game.legal_actions())))


def test_every_front_text_has_german_with_the_same_placeholders_and_plural_forms() -> None:
    english, german = CATALOGUE.entries("en"), CATALOGUE.entries("de")
    assert set(german) == set(english)
    for msg, forms in english.items():
        assert all(german[msg]) and len(german[msg]) == len(forms), msg
        for en, de in zip(forms, german[msg], strict=True):
            assert placeholders(de) == placeholders(en), msg
