"""Names people choose read exactly as typed everywhere they are shown: season names, players' display names
and the names of track files, on Discord (through the offline discord.py stack: markdown escaped, mentions
broken), at the terminal and on the web page (the very characters), in English and German."""

from __future__ import annotations

import re
import time

import aiohttp
import pytest

from bot import texts
from bot.discord.shown import ZERO_WIDTH, escape_name, shown, shown_embed
from bot.games import unit_for
from bot.messages import Line
from bot.play.service import Service
from bot.standing import history
from bot.terminal import SeatSpec, open_table, plain
from rules.literal import CLOSE, OPEN, Name, Person, bare, listed, mark, render
from rules.races.track import builtin_track_files, load_track_text, register_track
from tests.bot.helpers import ANN, BOB, EVE, answer, started
from tests.bot.test_history import toy_win
from tests.bot.web_helpers import Client, page_of, serving

MANAGE_GUILD = 1 << 5
S1 = "@everyone **S1** <@&1>"
S2 = "<@bob> ||S2||"
PLAIN = "# heading _underscores_ `code` \\o/"
#: a bundled track's file with a name (and alias) of someone's choosing
TRACK = "**Mud** <@&1> _pit_ `x`"
TRACK_TEXT = next(t for t in builtin_track_files().values() if "\nalias A\n" in t)
register_track(load_track_text(re.sub(r"\nname [^\n]*\n", f"\nname {TRACK}\n", TRACK_TEXT)
                               .replace("\nalias A\n", "\nalias NM\n"), "named.track"))


def discord_reads(content: str) -> str:
    """What Discord shows of a text without markup: an escaped character as itself, zero-width spaces unseen."""
    return re.sub(r"\\([^0-9A-Za-z\s])", r"\1", content).replace(ZERO_WIDTH, "")


def live_syntax(content: str) -> list[str]:
    """What in an escaped name Discord would still read as markup or a mention."""
    found = []
    for i, c in enumerate(content):
        escaped = len(content[:i]) - len(content[:i].rstrip("\\"))
        if escaped % 2:
            continue
        if c in "*_~|`" or (c in "#>-" and not content[:i].strip()):
            found.append(c)
        if c in "@<" and content[i + 1:i + 2] != ZERO_WIDTH:
            found.append(c)
    return found


def assert_on_discord(content: str, name: str) -> None:
    """``content`` (as Discord was sent it) shows ``name`` exactly as typed: escaped, no mention left."""
    assert OPEN not in content and CLOSE not in content
    escaped = escape_name(name)
    assert escaped in content, (escaped, content)
    assert discord_reads(escaped) == name and not live_syntax(escaped)
    for raw in ("@everyone", "<@&1>", "<@bob>", "||S2||", "**S1**", "_underscores_", "`code`", "**Mud**"):
        if raw in name:
            assert raw not in content, (raw, content)


def assert_as_typed(text: str, name: str) -> None:
    """A terminal's or the web page's text: the name's very characters, no marks."""
    assert name in text and OPEN not in text and CLOSE not in text, (name, text)


# The typed value -------------------------------------------------------------------------------------


def test_a_name_is_a_marked_span_wherever_it_is_formatted_and_the_name_otherwise():
    name = Name(S1)
    assert str(name) == S1 and name == S1 and f"[{name}]" == f"[{OPEN}{S1}{CLOSE}]"
    assert mark(S1) in texts.say("season.started", "en", name=name, id=1) and listed([S1, "Ann"]) == f"{mark(S1)}, Ann"
    assert mark("Ann") == "Ann" and mark("Rostbogen-Ring") == "Rostbogen-Ring"  # nothing any front would read
    assert render(f"**x** {name} **y**", name=lambda n: n.upper(), ours=lambda t: t.replace("*", "")) == \
        f"x {S1.upper()} y"
    assert bare(texts.say("season.started", "de", name=name, id=1)).count(S1) == 1
    assert render(f"a {OPEN}b", str.upper) == "a B" and bare(f"a{CLOSE}b") == "ab"  # clipped, stray


def test_a_line_stored_as_json_keeps_its_name_a_name():
    line = Line(say="ladder.change", params={"name": Name(S2), "before": 1000, "after": 1010, "delta": "+10"})
    again = Line.from_json(line.to_json())
    assert isinstance(again.params["name"], Name) and again == line
    assert Line.from_json({"say": "x", "params": {"name": S2}}).params["name"] == S2  # an older record


@pytest.mark.parametrize("name", [S1, S2, PLAIN, TRACK, "a*", "\\*", "- list", "> quote", "[x](https://e.x)"])
def test_discord_shows_a_name_as_typed_and_our_markup_around_it(name):
    text = f"**Season {Name(name)}** {Person(ANN, 'ann')}"
    content = shown(text)
    assert content.startswith("**Season ") and content.endswith(f"** <@{ANN}>")
    assert_on_discord(content, name)
    assert discord_reads(content) == f"**Season {name}** <@{ANN}>"
    assert plain(text) == f"Season {name} ann"


def test_an_embed_shows_its_names_as_typed():
    import discord

    embed = shown_embed(discord.Embed(title=f"{Name(S1)}", description=f"**{Name(S2)}**")
                        .add_field(name="who", value=f"{Name(PLAIN)}").set_footer(text=f"{Name(TRACK)}"))
    assert_on_discord(embed.title or "", S1)
    assert_on_discord(embed.description or "", S2)
    assert_on_discord(embed.fields[0].value or "", PLAIN)
    assert_on_discord(embed.footer.text or "", TRACK)


# Seasons on Discord ------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_a_season_s_name_reads_as_typed_in_its_announcement_the_ladder_and_the_list(h, lang):
    for user in (ANN, BOB, EVE):
        h.locales[user] = "de" if lang == "de" else "en-US"
    start = answer(await h.slash(ANN, "season", action="start", name=S1, permissions=MANAGE_GUILD))
    assert_on_discord(start.content, S1)
    again = answer(await h.slash(ANN, "season", action="start", permissions=MANAGE_GUILD))
    assert_on_discord(again.content, S1)
    board = await started(h)
    await toy_win(h, board, ANN, BOB)
    assert_on_discord(answer(await h.slash(EVE, "stats")).content.splitlines()[0], S1)
    assert_on_discord(answer(await h.slash(EVE, "stats", player=ANN)).content, S1)
    assert_on_discord(answer(await h.slash(ANN, "season", action="end", permissions=MANAGE_GUILD)).content, S1)
    answer(await h.slash(ANN, "season", action="start", name=S2, permissions=MANAGE_GUILD))
    listed_ = answer(await h.slash(EVE, "season", action="list")).content
    assert_on_discord(listed_, S1)
    assert_on_discord(listed_, S2)
    rebuilt = answer(await h.slash(ANN, "season", action="rebuild", number=1, permissions=MANAGE_GUILD))
    assert_on_discord(rebuilt.content, S1)
    assert ("Saison" in listed_) == (lang == "de")


# Display names on Discord ----------------------------------------------------------------------------


async def end_message(h) -> str:
    h.bot.outbox.clock = lambda: time.time() + 60
    start = len(h.sent)
    await h.bot.outbox.flush()
    return "\n".join(s.content for s in h.sent[start:] if s.creates_message and s.content)


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_display_names_read_as_typed_in_results_ratings_history_and_the_running_games(h, lang):
    for user in (ANN, BOB, EVE):
        h.locales[user] = "de" if lang == "de" else "en-US"
    h.nicks.update({ANN: PLAIN, BOB: S2})
    board = await started(h)
    mine = answer(await h.slash(BOB, "game mine")).content  # Ann's turn: Bob waits on her
    assert_on_discord(mine, PLAIN)
    await toy_win(h, board, ANN, BOB)
    end = await end_message(h)
    assert_on_discord(end, PLAIN)  # the standings and the rating changes
    assert_on_discord(end, S2)
    change = next(line for line in end.splitlines() if discord_reads(line).startswith(f"{PLAIN}: 1000 → "))
    assert change.startswith("\\# heading")  # a name that opens a line is no heading
    told = answer(await h.slash(EVE, "game history")).content
    assert_on_discord(told, PLAIN)
    assert_on_discord(told, S2)
    choices = await h.autocomplete(EVE, "game replay", "game")
    assert any(PLAIN in c["name"] and S2 in c["name"] for c in choices)  # a choice shows no markup: as typed


async def test_a_computer_that_takes_over_names_the_player_as_typed(h):
    h.nicks.update({BOB: S2})
    await started(h)
    left = answer(await h.slash(BOB, "game leave"))
    notes = "\n".join(s.content for s in h.sent if s.creates_message and s.content)
    assert_on_discord(notes + left.content, S2)


# The terminal and the web page ---------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_the_terminal_shows_names_and_seasons_exactly_as_typed(store, lang):
    service = Service(store, seed_source=lambda: 3)
    said = await history.season_command(service.store, 1, ANN, "start", manage=True, name=S1, lang=lang)
    text = plain(said.text)
    assert_as_typed(text, S1)
    assert text.count("**") == S1.count("**")  # our bold went, the name's stayed
    opening, _names = await open_table(service, -5, "races", {"laps": 1, "track": "NM"},
                                      [SeatSpec("human", S2), SeatSpec("random")], lang=lang)
    assert opening.ok
    setup = unit_for("races").option_words("new", {"track": TRACK, "laps": 1}, lang)  # the lobby's words
    assert_as_typed(plain(setup), TRACK)
    assert_on_discord(shown(setup), TRACK)
    status = await service.status(-5, None, lang=lang)
    for name in (S2, TRACK):
        assert_as_typed(plain(status.text), name)


@pytest.mark.parametrize("lang", ["en", "de"])
async def test_the_web_page_shows_names_and_the_track_exactly_as_typed(store, lang):
    service = Service(store, seed_source=lambda: 3)
    opening, _ = await open_table(service, -6, "races", {"laps": 1, "track": "NM"},
                                  [SeatSpec("human", S2), SeatSpec("human", PLAIN)], lang="en")
    rec = await store.games.get_game(opening.game_id)
    async with serving(store) as (_, base), aiohttp.ClientSession() as session:
        client = Client(session)
        url = await page_of(store, base, rec)
        state = await client.json(url + f"/state.json?lang={lang}")
        _, page, _ = await client.get(url + f"?lang={lang}")
    said = "\n".join(m["text"] for m in state["messages"])  # the start names the seats: mentions read as names
    for name in (S2, PLAIN):
        assert_as_typed(said, name)
        assert_as_typed(state["status_lines"], name)
        assert name in [row["cells"][0] for row in state["standings"]["rows"]]
    assert_as_typed(state["status_lines"], TRACK)
    assert state["turn"] in (texts.say("web.turn", lang, name=S2), texts.say("web.turn", lang, name=PLAIN))
    assert all(OPEN.encode() not in b and CLOSE.encode() not in b for b in client.served) and page

