"""``/rules`` answers questions in plain words with the lookup's ranking, and autocompletes with it, in the
language of the user's Discord (the interaction's ``locale``) or the one chosen with ``language``."""

from __future__ import annotations

from typing import Any

import pytest

from rules import registry
from rules.lookup_questions import RALLY_LOOKUP
from tests.bot.harness import MEMBER_PERMS, DiscordHarness, Sent
from tests.bot.helpers import ANN, answer, only


async def test_a_question_is_answered_with_the_best_entry_and_names_the_next_best(h: DiscordHarness) -> None:
    r = answer(await h.slash(ANN, "rules", game="races", topic="can I bump on a bridge"))
    assert r.ephemeral and r.embeds[0]["title"] == "Bumping"
    footer = r.embeds[0]["footer"]["text"]
    assert footer.startswith("Junkyard Races · Rule ·") and "Also: " in footer and "bumping" not in footer


async def test_a_name_from_autocomplete_answers_that_entry_without_alternatives(h: DiscordHarness) -> None:
    choices = await h.autocomplete(ANN, "rules", "topic", game="races", topic="what does glue do")
    assert choices[0] == {"name": "Glue", "value": "tile-glue"}
    r = answer(await h.slash(ANN, "rules", game="races", topic="tile-glue"))
    assert r.embeds[0]["title"] == "Glue" and "Also" not in r.embeds[0]["footer"]["text"]


async def test_autocomplete_ranks_an_unfinished_question(h: DiscordHarness) -> None:
    choices = await h.autocomplete(ANN, "rules", "topic", game="piecepack", topic="can i move diag")
    assert choices[0]["value"] == "carrying"


async def test_a_question_nothing_matches_is_refused_privately(h: DiscordHarness) -> None:
    r = answer(await h.slash(ANN, "rules", game="races", topic="zzzz qqqq"))
    assert r.ephemeral and "Nothing in the Junkyard Races rules matches" in r.content


# ------------------------------------------------------------------ the user's language


@pytest.fixture
def rally_lookup(monkeypatch: pytest.MonkeyPatch) -> str:
    """Schrottplatz Rally's lookup file registered for one test, when the list of games has not done so."""
    if "rally" not in registry.lookup_sources():
        monkeypatch.setitem(registry._LOOKUPS, "rally", RALLY_LOOKUP)
    return "rally"


def _as(h: DiscordHarness, itype: int, user_id: int, locale: str, path: str, options: dict[str, Any],
        focused: str | None = None) -> dict[str, Any]:
    """An interaction payload from a user whose Discord speaks ``locale`` (Discord's ``locale`` field)."""
    payload = h._base(itype, user_id, permissions=MEMBER_PERMS, channel_id=None)
    payload["locale"] = locale
    payload["data"] = h._command_data(path, options, focused)
    return payload


async def ask(h: DiscordHarness, locale: str, **options: Any) -> Sent:
    return only(await h._dispatch(_as(h, 2, ANN, locale, "rules", options)))


async def test_a_german_discord_user_is_answered_from_the_german_entries(h: DiscordHarness,
                                                                         rally_lookup: str) -> None:
    r = await ask(h, "de", game=rally_lookup, topic="Was passiert, wenn ich zu schnell in die Kurve fahre?")
    embed = r.embeds[0]
    assert r.ephemeral and embed["title"] == "Kurven" and "Kurvenreihen" in embed["description"]
    footer = embed["footer"]["text"]
    assert footer.startswith("Schrottplatz Rally · Regel ·") and "Auch: " in footer and "curves" not in footer
    r = await ask(h, "de", game=rally_lookup, topic="verschaltet")
    assert r.embeds[0]["title"] == "S4 Verschaltet"


async def test_an_english_discord_user_is_answered_from_the_english_entries(h: DiscordHarness,
                                                                            rally_lookup: str) -> None:
    for locale in ("en-US", "en-GB", "fr"):
        r = await ask(h, locale, game=rally_lookup, topic="what happens if I drive into a bend too fast")
        assert r.embeds[0]["title"] == "Curves", locale
        footer = r.embeds[0]["footer"]["text"]
        assert footer.startswith("Schrottplatz Rally · Rule ·") and "Also: " in footer and "curves" not in footer
    # a German word the English entries lack: the English twin of the German entry that knows it
    r = await ask(h, "en-US", game=rally_lookup, topic="Boxengasse")
    assert r.embeds[0]["title"] == "Pit lane (in German: Boxengasse)"


async def test_the_language_option_overrides_the_discord_locale(h: DiscordHarness, rally_lookup: str) -> None:
    r = await ask(h, "de", game=rally_lookup, topic="curves", language="en")
    assert r.embeds[0]["title"] == "Curves"
    r = await ask(h, "en-US", game=rally_lookup, topic="Kurve", language="de")
    assert r.embeds[0]["title"] == "Kurven"


async def test_a_german_user_of_every_game_reads_german(h: DiscordHarness) -> None:
    for game, topic, title in (("races", "darf ich auf einer Brücke rammen", "Rammen"),
                               ("piecepack", "darf ich diagonal ziehen", "Das gute Zeug tragen"),
                               ("rally", "Was passiert in der Kurve?", "Kurven")):
        r = await ask(h, "de", game=game, topic=topic)
        assert r.embeds[0]["title"] == title, game
        assert "Noch nicht auf Deutsch" not in r.embeds[0]["footer"]["text"]


async def test_a_german_user_is_refused_in_german(h: DiscordHarness) -> None:
    r = await ask(h, "de", game="races", topic="zzzz qqqq")
    assert r.ephemeral and "Nichts in den Regeln von Junkyard Races passt zu `zzzz qqqq`" in r.content


async def test_autocomplete_offers_the_users_language(h: DiscordHarness, rally_lookup: str) -> None:
    async def choices(locale: str, topic: str) -> list[dict[str, Any]]:
        sent = await h._dispatch(_as(h, 4, ANN, locale, "rules", {"game": rally_lookup, "topic": topic}, "topic"))
        return only([s for s in sent if s.response_type == 8]).choices

    german = await choices("de", "Kurv")
    assert german[0] == {"name": "Kurven", "value": "curves-de"}
    assert all(c["value"].endswith("-de") for c in german)
    english = await choices("en-US", "curv")
    assert english[0] == {"name": "Curves", "value": "curves"}
    assert not any(c["value"].endswith("-de") for c in english)


# ------------------------------------------------------------------ the question's language, the other name


async def test_a_german_question_on_an_english_discord_is_answered_in_german(h: DiscordHarness) -> None:
    r = await ask(h, "en-US", game="races", topic="was passiert wenn ich auf Öl fahre")
    embed = r.embeds[0]
    assert embed["title"] == "Öl" and "rutscht" in embed["description"]
    assert "Not written" not in embed["footer"]["text"] and "Schrottplättchen ·" in embed["footer"]["text"]


async def test_an_english_question_on_a_german_discord_is_answered_in_english(h: DiscordHarness) -> None:
    r = await ask(h, "de", game="races", topic="what happens when I drive onto oil")
    assert r.embeds[0]["title"] == "Oil" and "Junk tile ·" in r.embeds[0]["footer"]["text"]


async def test_the_other_languages_name_is_said_when_the_asker_used_it(h: DiscordHarness) -> None:
    r = await ask(h, "de", game="races", topic="Glue")
    assert r.embeds[0]["title"] == "Leim (englisch: Glue)"
    r = await ask(h, "en-US", game="races", topic="Leim")
    assert r.embeds[0]["title"] == "Glue (in German: Leim)"
    r = await ask(h, "en-US", game="races", topic="Glue")
    assert r.embeds[0]["title"] == "Glue"


# ------------------------------------------------------------------ related entries as buttons, the symbol


async def test_related_entries_are_buttons_that_answer_privately_in_the_askers_language(h: DiscordHarness) -> None:
    r = await ask(h, "de", game="races", topic="Leim")
    assert r.custom_ids == ["jyrule:races:de:traps-de", "jyrule:races:de:phase-3-de", "jyrule:races:de:bumping-de"]
    assert [b["label"] for b in r.buttons()] == ["Fallen beim Fahren", "Phase 3: Bewegungswurf", "Rammen"]
    pressed = answer(await h.press(ANN, r, "Rammen"))
    assert pressed.ephemeral and pressed.embeds[0]["title"] == "Rammen"
    assert "jyrule:races:de:bumping-stream-de" in pressed.custom_ids  # its own related entries, again buttons


async def test_a_related_entry_button_sent_before_a_restart_still_answers(h: DiscordHarness) -> None:
    """The button's custom id carries the game, the language and the entry: with the views of the answer
    gone (as after a restart), the dynamic item registered at start-up reads it back and answers."""
    r = await ask(h, "en-US", game="races", topic="what does glue do")
    h.bot._connection._view_store._views.clear()  # what a restart forgets
    pressed = answer(await h.press(ANN, r, "Traps while moving"))
    assert pressed.ephemeral and pressed.embeds[0]["title"] == "Traps while moving"
    assert r.message is not None
    gone = dict(r.message, components=[{"type": 1, "components": [
        {"type": 2, "style": 2, "label": "Gone", "custom_id": "jyrule:races:en:no-such-entry"}]}])
    refused = answer(await h.press(ANN, gone, "Gone"))
    assert refused.ephemeral and "not there any more" in refused.content


async def test_a_tile_part_or_terrain_shows_its_symbol_beside_the_answer(h: DiscordHarness) -> None:
    for topic in ("oil", "mud"):
        r = await ask(h, "en-US", game="races", topic=topic)
        assert r.png and r.png.startswith(b"\x89PNG"), topic
        assert r.embeds[0]["thumbnail"]["url"] == "attachment://symbol.png", topic
    # a part's name plate is wide: it goes under the text at its size, where it can be read
    for locale, topic in (("en-US", "jet engine"), ("de", "Jet-Triebwerk")):
        r = await ask(h, locale, game="races", topic=topic)
        assert r.png and r.embeds[0]["image"]["url"] == "attachment://symbol.png", topic
        assert "thumbnail" not in r.embeds[0], topic
    r = await ask(h, "en-US", game="races", topic="what are the phases of a turn")
    assert r.embeds[0]["title"] == "Sequence of play" and not r.files  # a rule without a thing has no symbol
