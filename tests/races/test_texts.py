"""Junkyard Races in English and German: every text from the catalogue (rules/races/locale), refusals and
narration said again in the player's language, plural forms, and secret narration for its seat alone."""

from __future__ import annotations

import pickle
import re
import string
from pathlib import Path
from typing import Any

import pytest

from rules.catalogue import placeholders
from rules.contract import Event, IllegalAction, NotationError, SetupError, events_for
from rules.hexgrid import Facing
from rules.races import Races, catalogue
from rules.races.state import PHASE_NUMBERS
from rules.races.texts import (
    CATALOGUE,
    WORDS,
    Said,
    event_text,
    narrate,
    prompt_text,
    refusal_text,
    said,
    said_back,
    say,
    secret_text,
)
from rules.races.track import PitColour, Terrain
from rules.races.words import a_an, either, part_name, tile_name
from tests.races.conftest import FAR, position

RULES = Path(__file__).parents[2] / "rules" / "races"
#: a message id named in the rules' code: a quoted dotted id of one of the catalogue's areas
AREAS = "refuse|event|secret|ask|why|where|word|what|place|notation|undo|setup"
ID_IN_CODE = re.compile(rf"""["']((?:{AREAS})\.[a-z_]+)["']""")


def ids_in_code() -> set[str]:
    found: set[str] = set()
    for path in RULES.glob("*.py"):
        found |= set(ID_IN_CODE.findall(path.read_text(encoding="utf-8")))
    return found


def refused(g: Any, action: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        g.apply(action)
    return info.value


# The catalogue ------------------------------------------------------------------------------------


def test_every_id_the_rules_use_is_in_both_languages() -> None:
    """Each message id in rules/races has an English and a German text (a missing one fails here)."""
    used = ids_in_code()
    assert len(used) > 150
    en, de = CATALOGUE.entries("en"), CATALOGUE.entries("de")
    assert sorted(used - set(en)) == [] and sorted(used - set(de)) == []
    assert set(en) == set(de)
    assert all(all(form.strip() for form in de[msg]) for msg in de)
    areas = AREAS.split("|")
    unused = {m for m in en if m.split(".")[0] in areas and m not in used}
    assert unused == {"word.and", "word.none", "word.nothing"}  # asked for by list formats ({cells:none})


def test_german_texts_have_the_english_placeholders_and_plural_forms() -> None:
    en, de = CATALOGUE.entries("en"), CATALOGUE.entries("de")
    for msg, forms in en.items():
        want = placeholders(forms[0])
        assert all(placeholders(f) == want for f in forms + de[msg]), msg
        assert len(forms) == len(de[msg]), msg


def test_every_form_a_text_asks_of_a_word_exists() -> None:
    """``{part:the_acc}`` needs ``part.<id>.the_acc`` for every part, in both languages; likewise for tiles,
    terrain, phases, directions, colours, fuel, Pit Stops and weapons."""
    values = {
        "tile": catalogue.JUNK_KINDS, "part": list(catalogue.parts()), "phase": list(PHASE_NUMBERS),
        "terrain": [t.value for t in Terrain], "facing": [f.name for f in Facing], "fuel": ["white", "red"],
        "pile": [p.value for p in PitColour], "weapon": ["missile", "bomb", "time-bomb"],
        "colour": catalogue.colours(),
    }
    for msg, forms in CATALOGUE.entries("en").items():
        for text in forms + CATALOGUE.entries("de")[msg]:
            for _, field, spec, _ in string.Formatter().parse(text):
                prefix = WORDS.get(field or "")
                if prefix is None:
                    continue
                for value in values[prefix]:
                    wid = f"{prefix}.{value}" + (f".{spec}" if spec else "")
                    assert wid in CATALOGUE.ids, (msg, wid)


def test_english_words_follow_the_english_rules() -> None:
    """The catalogue's English articles are those of rules/races/words.py: "an oil", "a glue", "an Anti-…"."""
    for kind in catalogue.JUNK_KINDS:
        assert tile_name(kind) == kind.replace("-", " ")
        assert say("place.trap", cell="K3", tile=kind) == f"K3 already holds {a_an(tile_name(kind))}"
    for pid, spec in catalogue.parts().items():
        assert part_name(pid) == spec.name and part_name(pid, "en", "a") == a_an(spec.name)
    assert either(["3", "4", "5"], "de") == "3, 4 oder 5" and part_name("jet-engine", "de", "a") == "ein Jet-Triebwerk"


def test_plural_entries_count_in_each_language() -> None:
    """One entry counts 1 and 2 bottle tops, points, tiles, in English and German."""
    who = {"name": "Ann", "colour": "red"}
    tops = {"who": who, "cell": "C7", "cap": 8}
    assert say("event.bottle_tops", "en", count=1, **tops) == "Ann (red) collects 1 bottle top at C7."
    assert say("event.bottle_tops", "en", count=2, **tops) == "Ann (red) collects 2 bottle tops at C7."
    assert say("event.no_way_round", "de", who=who, cell="K4", count=1) == (
        "Kein Weg vorbei: Ann (rot) hält auf K4 und verliert 1 Punkt.")
    assert say("event.no_way_round", "de", who=who, cell="K4", count=2) == (
        "Kein Weg vorbei: Ann (rot) hält auf K4 und verliert 2 Punkte.")
    assert say("refuse.bags_at", "de", count=1, locations=["7"]) == "Deine Satteltasche ist auf Platz 7."
    assert say("refuse.bags_at", "de", count=2, locations=["4", "7"]) == (
        "Deine Satteltaschen sind auf den Plätzen 4, 7.")


# Refusals -----------------------------------------------------------------------------------------


def test_pit_stop_refusal_in_german_counts_the_bottle_tops() -> None:
    """Pit Stops / R11: the price refusal is the same refusal in both languages, counted in each."""
    g = position([{"colour": "red", "cell": "I14", "facing": "SE", "bottle_tops": 4}, FAR])
    exc = refused(g, "buy turbo-engine")
    assert str(exc) == "The Turbo Engine costs 5 bottle tops; you have 4."
    assert exc.msg == "refuse.cost" and refusal_text(exc, "en") == str(exc)
    assert refusal_text(exc, "de") == "Für den Turbomotor brauchst du 5 Kronkorken; du hast 4."


def test_placement_refusal_in_german_names_the_trap_with_its_case() -> None:
    """Phase 1: a cell holding an Oil can't take another trap: the reason is worded in German throughout."""
    g = position([{"colour": "red", "cell": "J3", "facing": "SE", "bags": {"7": ["spring"]}}, FAR], phase="deeds",
                 board={"K3": "oil N"})
    exc = refused(g, "trap spring K3")
    assert refusal_text(exc, "de").startswith("Da geht das nicht hin: K3 hat schon einen Ölfleck. Mögliche Felder: ")
    assert "K3 already holds an oil" in str(exc)


def test_a_refused_step_says_its_movement_reason_in_german() -> None:
    """Phase 5: a wall in the way (the movement rules' reason) is German inside a German refusal."""
    g = position([{"colour": "red", "cell": "D3", "facing": "SE"}, FAR], phase="move", points=1)
    exc = refused(g, "step D2")
    german = refusal_text(exc, "de")
    assert german != str(exc) and "D2" in german and not re.search(r"\b(the|you|can't|kart is)\b", german)


def test_notation_errors_are_german_too() -> None:
    g = position([{"colour": "red", "cell": "J3", "facing": "SE"}, FAR], phase="roll")
    exc = refused(g, "roll 2 xr")
    assert isinstance(exc, NotationError)
    assert refusal_text(exc, "de") == "'xr': erwartet wird eine Zahl für die Würfel (rot), etwa '2r'"
    exc = refused(g, "step Q0")
    assert str(exc) == "'Q0': rows start at 1" and refusal_text(exc, "de") == "'Q0': die Reihen beginnen bei 1"


def test_a_refused_setup_is_german_too() -> None:
    """Setup (R13): a team race with teams of unequal size is refused, worded in either language."""
    seats = [{"name": n, "team": t} for n, t in (("Ann", 0), ("Bob", 0), ("Cid", 0), ("Dee", 1))]
    with pytest.raises(SetupError) as info:
        Races.normalise_setup({"seats": seats, "options": {"teams": True}})
    assert str(info.value) == "team racing needs 2 teams of 3 or 4, or 2 to 4 teams of 2 (R13)"
    assert refusal_text(info.value, "de") == "ein Teamrennen braucht 2 Teams zu 3 oder 4 oder 2 bis 4 Teams zu 2 (R13)"


def test_a_refusal_without_an_id_keeps_its_text() -> None:
    assert refusal_text(IllegalAction("Something odd."), "de") == "Something odd."


# Narration ----------------------------------------------------------------------------------------


def test_a_bump_is_narrated_in_german() -> None:
    """Bumping Other Karts: the stored event words the bump in either language."""
    g = position([{"colour": "red", "cell": "J3", "facing": "SE", "name": "Ann"},
                  {"colour": "blue", "cell": "K4", "facing": "N", "name": "Bob"}], phase="move", points=1)
    events = g.apply("step K4")
    bump = next(e for e in events if e.kind == "bump")
    assert bump.text == "Ann (red) bumps Bob (blue) from K4 to L4."
    assert event_text(bump, "de") == "Ann (rot) rammt Bob (blau) von K4 auf L4."
    lines = narrate(events, "de").splitlines()
    assert lines[:2] == ["Ann (rot) fährt auf K4.", "Ann (rot) rammt Bob (blau) von K4 auf L4."]


def test_glue_and_setting_a_trap_are_narrated_in_german() -> None:
    """Glue: setting it (Phase 1) and driving into it, in German with the tile's article and case."""
    g = position([{"colour": "red", "cell": "J3", "facing": "SE", "name": "Ann", "bags": {"7": ["oil"]}}, FAR],
                 phase="deeds")
    events = g.apply("trap oil K3 NE")
    assert event_text(events[0], "de") == "Ann (rot) legt einen Ölfleck mit Pfeil nach Nordosten auf K3."
    assert events[0].text == "Ann (red) sets an oil pointing NE on K3."
    g = position([{"colour": "red", "cell": "J3", "facing": "SE", "name": "Ann"}, FAR], phase="move", points=4,
                 board={"K3": "glue"})
    assert "Ann (rot) klebt auf K3 im Leim fest." in narrate(g.apply("step K3"), "de")


def test_buying_a_part_is_narrated_in_german() -> None:
    """Pit Stops: a bought part with its indefinite article and the price counted."""
    g = position([{"colour": "red", "cell": "C1", "facing": "SE", "name": "Ann", "bottle_tops": 5}, FAR])
    events = g.apply("buy mud-tyres 3")
    assert events[0].text == "Ann (red) buys a Mud Tyres for 2 bottle tops and fits it at location 3."
    assert event_text(events[0], "de") == "Ann (rot) kauft Schlammreifen für 2 Kronkorken, eingebaut auf Platz 3."


def test_a_lap_is_narrated_in_german() -> None:
    """R4: the flag for a lap, in German."""
    g = position([{"colour": "red", "cell": "E3", "facing": "SE", "name": "Ann", "bridge": True}, FAR], phase="move",
                 points=2)
    lap = next(e for e in g.apply("step F3") if e.kind == "lap")
    assert (lap.text, event_text(lap, "de")) == ("Ann (red) completes lap 1!", "Ann (rot) schafft Runde 1!")


def test_an_event_stored_before_ids_keeps_its_english_text() -> None:
    old = Event.from_dict({"kind": "lap", "text": "Ann (red) completes lap 1!", "seat": 0, "secret": "psst"})
    assert old.secret_data is None and event_text(old, "de") == "Ann (red) completes lap 1!"
    assert secret_text(old, "de") == "psst"


# Hidden information -------------------------------------------------------------------------------


def test_the_secret_of_a_pickup_is_german_for_its_seat_only() -> None:
    """R12: the tile picked up is told to its kart's player alone; the public view of the event has neither
    the secret text nor the secret's parameters."""
    g = position([{"colour": "red", "cell": "J3", "facing": "SE", "name": "Ann"}, FAR], phase="move", points=1,
                 board={"K3": "junk:glue"})
    events = g.apply("step K3")
    pickup = next(e for e in events if e.kind == "pickup")
    assert pickup.secret_data == {"msg": "secret.pickup", "params": {"tile": "glue"}}
    assert "glue" not in repr(pickup.data)
    mine = narrate(events_for(events, 0), "de")
    assert "Ann (rot) sammelt bei K3 ein Schrottplättchen auf. Du hast ein Plättchen aufgesammelt: Leim." in mine
    for viewer in (None, 1):
        seen = events_for(events, viewer)
        assert all(e.secret is None and e.secret_data is None for e in seen)
        assert "Leim" not in narrate(seen, "de") and "glue" not in narrate(seen, "en")
        assert "glue" not in repr([e.to_dict() for e in seen])
    public = g.view(None)["events"]
    assert all("secret_data" not in e and "secret" not in e for e in public) and "glue" not in repr(public)
    assert Event.from_dict(pickup.to_dict()) == pickup


def test_a_tile_passed_to_a_team_mate_is_told_to_the_receiver_alone_in_german() -> None:
    """Team Racing / R12: the receiving team mate reads which tile came; the giver's and the others' views
    of the event say only that a tile was passed."""
    karts = [{"colour": "red", "cell": "J3", "facing": "SE", "name": "Ann", "team": 0, "bags": {"7": ["time-bomb"]}},
             {"colour": "blue", "cell": "K4", "facing": "N", "name": "Bob", "team": 0},
             {"colour": "green", "cell": "B12", "facing": "N", "team": 1},
             {"colour": "yellow", "cell": "L12", "facing": "N", "team": 1}]
    g = position(karts, options={"teams": True}, phase="parts")
    events = g.apply("swap blue give time-bomb")
    assert narrate(events_for(events, 1), "de") == (
        "Ann (rot) gibt Bob (blau) ein Plättchen. Du hast von Ann (rot) ein Plättchen bekommen: Zeitbombe.")
    assert narrate(events_for(events, 1), "en") == (
        "Ann (red) passes a tile to Bob (blue). You received a time bomb tile from Ann (red).")
    for viewer in (None, 0, 2):
        assert narrate(events_for(events, viewer), "de") == "Ann (rot) gibt Bob (blau) ein Plättchen."
        assert "time-bomb" not in repr([e.to_dict() for e in events_for(events, viewer)])


def test_reasons_stored_before_they_had_ids_still_read() -> None:
    """A question saved by an older version keeps its English reason; a stored id is worded again."""
    assert said_back("covered by the Jet Engine", "why.covered") == "covered by the Jet Engine"
    assert said_back(None, "why.covered").msg == "why.covered"
    again = said_back({"msg": "why.covered_by", "params": {"part": "jet-engine"}}, "why.covered")
    assert isinstance(again, Said) and say(again.msg, "de", **again.params) == "verdeckt durch das Jet-Triebwerk"


def test_a_question_is_asked_in_german() -> None:
    """R14: with room in two saddlebags the player is asked which one takes the tile, in their language."""
    g = position([{"colour": "red", "cell": "J3", "facing": "SE", "parts": {"4": "saddlebag-4"}}, FAR],
                 phase="move", points=1, board={"K3": "junk:glue"})
    g.apply("step K3")
    choice = g.view(0)["choice"]
    assert prompt_text(choice, "en") == choice["prompt"] == "Which saddlebag takes the tile from K3?"
    assert prompt_text(choice, "de") == "Welche Satteltasche nimmt das Plättchen von K3?"
    exc = refused(g, "roll 1")
    assert refusal_text(exc, "de") == (
        "Beantworte erst das: Welche Satteltasche nimmt das Plättchen von K3? (wähle 7 / 4)")


def test_reasons_survive_pickling_for_worker_processes() -> None:
    reason = said("place.trap", cell="K3", tile="oil")
    again = pickle.loads(pickle.dumps(reason))
    assert (again, again.msg, again.params) == ("K3 already holds an oil", "place.trap", {"cell": "K3", "tile": "oil"})


def test_the_races_unit_narrates_and_refuses_in_the_language_asked_for() -> None:
    """The bot's race unit words events and refusals from this catalogue (German for a German player)."""
    from bot.games.races import FRONT

    g = position([{"colour": "red", "cell": "J3", "facing": "SE", "name": "Ann"}, FAR], phase="move", points=1,
                 board={"K3": "junk:oil"})
    events = g.apply("step K3")
    assert FRONT.narrate(events, "de").endswith("Du hast ein Plättchen aufgesammelt: Öl.")
    assert FRONT.narrate(events_for(events, 1), "de") == (
        "Ann (rot) fährt 1 Feld von J3 nach K3: K3. Ann (rot) sammelt bei K3 ein Schrottplättchen auf.")
    assert FRONT.refusal(refused(g, "done"), "de").startswith("'done' ist in Phase 3 (Bewegungswurf) nicht erlaubt.")
