"""People the bot speaks of are :class:`rules.literal.Person` spans in our texts, and each front shows them its
way: Discord's content and embeds mention them (a computer's or unknown id reads as the escaped name), fields
without markup, the terminal and the web page show the name as typed; chosen names (``Name``) work beside them."""

from __future__ import annotations

import discord

from bot import texts
from bot.discord.shown import ZERO_WIDTH, shown, shown_embed
from bot.discord.shown import plain as discord_plain
from bot.messages import Line
from bot.terminal import plain
from rules.literal import CLOSE, OPEN, PERSON_CLOSE, PERSON_OPEN, PERSON_SEP, Name, Person, bare, pieces, render

ANN = Person(4242, "A*nn <@1>")


def test_a_person_formats_as_a_span_of_id_and_name_in_f_strings_format_and_the_catalogue() -> None:
    span = f"{PERSON_OPEN}4242{PERSON_SEP}A*nn <@1>{PERSON_CLOSE}"
    template = "{user}"
    assert f"{ANN}" == template.format(user=ANN) == str(ANN) == span
    assert texts.say("lobby.left_game", "en", user=ANN) == f"{span} left the game."
    assert texts.say("lobby.left_game", "de", user=ANN) == f"{span} hat das Spiel verlassen."
    assert str(Person(1, f"x{PERSON_CLOSE}{OPEN}y")) == f"{PERSON_OPEN}1{PERSON_SEP}xy{PERSON_CLOSE}"  # no marks


def test_pieces_tell_our_words_names_and_people_apart_and_bare_gives_names() -> None:
    text = f"{ANN} and {Name('**B**')} and {Person(-1, 'Computer 1')}."
    assert list(pieces(text)) == [(ANN, "person"), (" and ", "text"), ("**B**", "name"), (" and ", "text"),
                                  (Person(-1, "Computer 1"), "person"), (".", "text")]
    assert bare(text) == "A*nn <@1> and **B** and Computer 1."
    assert render(text, name=lambda n: f"[{n}]", person=lambda p: f"#{p.user_id}") == "#4242 and [**B**] and #-1."
    assert list(pieces(f"x {str(ANN)[:5]}")) == [("x ", "text")]  # clipped before the name: dropped
    assert bare(str(ANN)[:-3]) == "A*nn <@"  # clipped inside the name: the name so far


def test_discord_mentions_a_person_and_names_a_computer_or_unknown_id_escaped() -> None:
    text = f"**{ANN}** joined; {Person(-3, 'Bot_1')} and {Person(0, '@here')} too."
    assert shown(text) == f"**<@4242>** joined; Bot\\_1 and @{ZERO_WIDTH}here too."
    assert discord_plain(text) == "**A*nn <@1>** joined; Bot_1 and @here too."
    embed = shown_embed(discord.Embed(title=str(ANN), description=f"{ANN} leads"))
    assert embed.title == "<@4242>" and embed.description == "<@4242> leads"
    assert OPEN not in shown(text) and CLOSE not in shown(text) and PERSON_OPEN not in shown(text)


def test_the_terminal_and_the_web_page_show_the_person_s_name_as_typed() -> None:
    assert plain(f"**{ANN}** played `roll`.") == "A*nn <@1> played roll."


def test_a_line_keeps_its_person_parameter_through_its_stored_form() -> None:
    line = Line(say="lobby.left_game", params={"user": ANN})
    stored = line.to_json()
    assert stored["params"] == {"user": {"person": [4242, "A*nn <@1>"]}}
    assert Line.from_json(stored).params["user"] == ANN
