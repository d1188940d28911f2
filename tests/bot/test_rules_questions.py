"""``/rules`` answers questions in plain words with the lookup's ranking, and autocompletes with it."""

from __future__ import annotations

from tests.bot.helpers import ANN, only


async def test_a_question_is_answered_with_the_best_entry_and_names_the_next_best(h):
    r = only(await h.slash(ANN, "rules", game="races", topic="can I bump on a bridge"))
    assert r.ephemeral and r.embeds[0]["title"] == "Bumping"
    footer = r.embeds[0]["footer"]["text"]
    assert "bumping" in footer and "Also: " in footer


async def test_a_name_from_autocomplete_answers_that_entry_without_alternatives(h):
    choices = await h.autocomplete(ANN, "rules", "topic", game="races", topic="what does glue do")
    assert choices[0] == {"name": "Glue", "value": "tile-glue"}
    r = only(await h.slash(ANN, "rules", game="races", topic="tile-glue"))
    assert r.embeds[0]["title"] == "Glue" and "Also" not in r.embeds[0]["footer"]["text"]


async def test_autocomplete_ranks_an_unfinished_question(h):
    choices = await h.autocomplete(ANN, "rules", "topic", game="piecepack", topic="can i move diag")
    assert choices[0]["value"] == "carrying"


async def test_a_question_nothing_matches_is_refused_privately(h):
    r = only(await h.slash(ANN, "rules", game="races", topic="zzzz qqqq"))
    assert r.ephemeral and "Nothing in the Junkyard Races rules matches" in r.content
