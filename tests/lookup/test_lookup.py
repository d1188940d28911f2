"""The rule lookup behind `/rules`: its data files and its exact and fuzzy search."""

from __future__ import annotations

import re

import pytest

from bot import texts
from rules import lookup
from rules.lookup import GAME_PACKAGES, KINDS, MAX_TEXT, RuleEntry, all_games, entries, find, normalize, suggest
from rules.races import catalogue

GAMES = list(GAME_PACKAGES)  # the flagship first

RACES_TILES = {"Turbo Fuel", "Jet Fuel", "Magnet", "Spring", "Acid", "Glue", "Oil", "Time Bomb", "Missile", "Bomb"}
RACES_PARTS = {
    "Grass Tyres", "Mud Tyres", "Saddlebag", "Time Bomb Freezer", "Anti-magnetic Field Generator",
    "Smoke Screen Generator", "Turbo Engine", "Jet Engine", "Bomb Catcher", "Missile Deflector", "Battering Ram",
    "Missile Launcher", "Bomb Launcher",
}
RACES_CREW = {"Pockets", "Tilly", "Tiny", "Gears", "Candy", "Jack", "Professor", "Orlando"}
RACES_SECTIONS = {
    "setup", "object", "team-racing", "improving", "optional-setup", "sequence", "phase-1", "phase-2", "phase-3",
    "phase-4", "phase-5", "phase-6", "reversing", "traps", "bridges", "narrow", "bumping", "bumping-stream",
    "fairness", "junk-tiles", "storage", "pit-stops", "bottle-tops", "damage",
}
PIECEPACK_SECTIONS = {"setup", "turn", "moving", "landing", "trash", "good-stuff", "centre", "carrying", "winning"}


def by_kind(game: str, kind: str) -> list[RuleEntry]:
    return [e for e in entries(game, "en") if e.kind == kind]


# ------------------------------------------------------------------ data files


def test_every_game_with_a_package_has_lookup_data():
    assert all_games() == GAMES
    for game in GAMES:
        assert entries(game), game


@pytest.mark.parametrize("game", GAMES)
def test_ids_titles_and_names_are_unique(game):
    ids = [e.id for e in entries(game)]
    assert len(ids) == len(set(ids))
    for lang in lookup.languages(game):  # twins in two languages may share a name ("Booster", "S5")
        es = entries(game, lang)
        titles = [normalize(e.title) for e in es]
        assert len(titles) == len(set(titles))
        # every title, alias and id leads to exactly one entry, so an exact name never is ambiguous
        owner: dict[str, str] = {}
        for e in es:
            for name in e.names:
                key = normalize(name)
                assert owner.setdefault(key, e.id) == e.id, f"{name!r} names both {owner[key]} and {e.id}"


@pytest.mark.parametrize("game", GAMES)
def test_texts_fit_a_discord_embed_and_kinds_are_known(game):
    for e in entries(game):
        assert e.kind in KINDS
        assert 80 <= len(e.text) <= MAX_TEXT, (e.id, len(e.text))
        assert len(e.title) <= 100, e.id  # a Discord autocomplete choice name


@pytest.mark.parametrize("game", GAMES)
def test_every_see_reference_exists(game):
    ids = {e.id for e in entries(game)}
    for e in entries(game):
        for ref in e.see:
            assert ref in ids, f"{e.id} refers to missing {ref}"
            assert ref != e.id


def test_races_has_every_tile_part_crew_member_and_section():
    assert {e.title for e in by_kind("races", "tile")} == RACES_TILES
    assert len(by_kind("races", "tile")) == 10
    assert {e.title for e in by_kind("races", "part")} == RACES_PARTS
    assert len(by_kind("races", "part")) == 13
    assert {e.title for e in by_kind("races", "crew")} == RACES_CREW
    assert len(by_kind("races", "crew")) == 8
    assert {e.id for e in by_kind("races", "section")} >= RACES_SECTIONS
    assert len(by_kind("races", "howto")) == 1


def test_races_has_rulings_r1_to_r24():
    rulings = by_kind("races", "ruling")
    assert sorted(e.id for e in rulings) == sorted(f"ruling-r{n}" for n in range(1, 25))
    for e in rulings:
        number = e.id.removeprefix("ruling-").upper()
        assert e.title.startswith(number + " ")
        assert f"House ruling {number}:" in e.text


def test_piecepack_has_sections_and_rulings_p1_to_p7():
    assert {e.id for e in by_kind("piecepack", "section")} >= PIECEPACK_SECTIONS
    rulings = by_kind("piecepack", "ruling")
    assert sorted(e.id for e in rulings) == sorted(f"ruling-p{n}" for n in range(1, 8))
    for e in rulings:
        assert f"House ruling {e.id.removeprefix('ruling-').upper()}:" in e.text
    assert len(by_kind("piecepack", "howto")) == 1


@pytest.mark.parametrize("game", GAMES)
def test_cited_house_rulings_exist(game):
    """An entry saying "house ruling R7" (or "house rulings R10, R11") must cite a ruling that has an entry."""
    ids = {e.id for e in entries(game)}
    for e in entries(game):
        for cited in re.findall(r"house rulings? ((?:[RP]\d+(?:,? (?:and )?)?)+)", e.text, flags=re.I):
            for number in re.findall(r"[RP]\d+", cited):
                assert f"ruling-{number.lower()}" in ids, f"{e.id} cites {number}"


# ------------------------------------------------------------------ numbers agree with the catalogue (R10, R11)


def test_part_facts_match_the_races_catalogue_and_the_text():
    """R10/R11: each part entry's pile, cost, card count and locations equal rules/races/data/parts.toml."""
    specs = catalogue.parts().values()
    for e in by_kind("races", "part"):
        mine = [s for s in specs if s.name == e.title or s.name.startswith(e.title + " No.")]
        assert mine, e.title
        assert e.facts["pile"] == mine[0].pile and {s.pile for s in mine} == {mine[0].pile}
        assert {s.cost for s in mine} == {e.facts["cost"]}
        assert sum(s.cards for s in mine) == e.facts["cards"]
        assert sorted({loc for s in mine for loc in s.locations}) == e.facts["locations"]
        assert f"**{e.facts['cost']}** bottle tops" in e.text
        assert f"{e.facts['cards']} cards" in e.text
        assert f"{e.facts['pile']} pile" in e.text
        for loc in e.facts["locations"]:
            assert str(loc) in e.text.split("fits location")[1]


def test_crew_starting_sets_match_the_races_catalogue():
    """Optional setup: both starting sets of each crew member equal rules/races/data/crew.toml."""
    names = {s.id: s.name for s in catalogue.parts().values()}
    crew = {c.name: c for c in catalogue.crew().values()}
    for e in by_kind("races", "crew"):
        sets = e.facts["starting_sets"]
        assert len(sets) == 2
        for mine, theirs in zip(sets, crew[e.title].sets, strict=True):
            assert mine["bottle_tops"] == theirs.bottle_tops
            assert sorted(t.lower().replace(" ", "-") for t in mine["tiles"]) == sorted(theirs.tiles)
            want = sorted((names[pid], loc) for pid, loc in theirs.parts)
            got = sorted(
                (f"Saddlebag No.{p['location']}" if p["part"] == "Saddlebag" else p["part"], p["location"])
                for p in mine["parts"]
            )
            assert got == want, e.title


# ------------------------------------------------------------------ find


def test_find_by_title_alias_and_id_ignores_case_and_punctuation():
    assert find("races", "Oil").id == "tile-oil"
    assert find("races", "oil slick").id == "tile-oil"
    assert find("races", "JET ENGINE").id == "part-jet-engine"
    assert find("races", "jet").id == "part-jet-engine"
    assert find("races", "part-jet-engine").id == "part-jet-engine"
    assert find("races", "phase 3 roll for movement").id == "phase-3"
    assert find("races", "r7").id == "ruling-r7"
    assert find("piecepack", "P5").id == "ruling-p5"
    assert find("piecepack", "center").id == "centre"


def test_find_unknown_name_gives_none_and_unknown_game_raises():
    assert find("races", "hovercraft") is None
    assert find("races", "") is None
    with pytest.raises(KeyError, match="unknown game"):
        find("chess", "oil")


# ------------------------------------------------------------------ suggest


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("text", ["", "e", "a", "the", "zzzz", "phase", "r1", "bomb"])
def test_suggest_never_offers_more_than_25(game, text):
    found = suggest(game, text)
    assert len(found) <= 25
    assert len({e.id for e in found}) == len(found)


def test_suggest_ranks_the_obvious_match_first():
    assert suggest("races", "jet")[0].title in {"Jet Engine", "Jet Fuel"}
    assert {e.title for e in suggest("races", "jet")[:2]} == {"Jet Engine", "Jet Fuel"}
    assert suggest("races", "oil")[0].title == "Oil"
    assert suggest("races", "Oil")[0].title == "Oil"
    assert suggest("races", "magnet")[0].title == "Magnet"
    assert suggest("races", "magent")[0].title == "Magnet"  # a typo still finds it
    assert suggest("races", "time b")[0].title == "Time Bomb"
    assert suggest("races", "r7")[0].id == "ruling-r7"
    assert suggest("races", "phase 3")[0].id == "phase-3"
    assert suggest("races", "missile launch")[0].title == "Missile Launcher"
    assert suggest("races", "profesor")[0].title == "Professor"
    assert {e.title for e in suggest("races", "tyres")[:2]} == {"Grass Tyres", "Mud Tyres"}
    assert suggest("piecepack", "good")[0].id == "good-stuff"
    assert suggest("piecepack", "p7")[0].id == "ruling-p7"


def test_suggest_with_empty_text_lists_howto_then_sections_in_file_order():
    found = suggest("races", "")
    assert len(found) == 25
    assert found[0].kind == "howto"
    sections = [e for e in entries("races", "en") if e.kind == "section"]
    assert found[1:] == sections[:24]


def test_suggest_respects_a_smaller_limit_and_finds_words_in_the_text():
    assert len(suggest("races", "", limit=5)) == 5
    assert suggest("races", "anything", limit=0) == []
    # "stuck" is in no name, only in the texts about mud and glue
    assert {"phase-3", "tile-glue"} <= {e.id for e in suggest("races", "stuck")}


def test_related_lists_the_see_entries_in_order_and_every_kind_has_a_label():
    jet = find("races", "Jet Engine")
    assert [e.id for e in lookup.related("races", jet)] == list(jet.see)
    # each kind is named to players from the catalogue (which has every text in English and German)
    assert {f"rules.kind.{kind}" for kind in KINDS} <= texts.CATALOGUE.ids


def test_entries_returns_a_fresh_list():
    first = entries("races")
    first.clear()
    assert entries("races")


def test_loader_rejects_an_entry_of_unknown_kind():
    with pytest.raises(ValueError, match="kind"):
        lookup._entry("races", {"id": "x", "title": "X", "kind": "trivia", "text": "words"}, "test")
    with pytest.raises(ValueError, match="lacks"):
        lookup._entry("races", {"id": "x", "title": "X", "kind": "tile"}, "test")
