"""The service's languages, for any game: what only a player sees (refusals, their hidden things, status)
in their own language, what the channel sees in the game's; a game unit written without ``lang`` still
works (in English)."""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from typing import Any

import pytest

from bot.play.service import Service
from rules.contract import Event, Game
from tests.bot.helpers import BOB as BOB_ID
from tests.bot.speaking import Speaking
from tests.bot.toygame import ToyUnit

CHANNEL = 5


class WordedToy(ToyUnit):
    """The toy game with every text marked by the language it was asked in."""

    def narrate(self, events: Sequence[Event], lang: str = "en") -> str:
        return f"[{lang}] " + super().narrate(events)

    def describe(self, game: Game, viewer: int | None, lang: str = "en") -> str:
        return f"[{lang}] " + super().describe(game, viewer)

    def refusal(self, exc: Exception, lang: str = "en") -> str:
        return f"[{lang}] {exc}"


async def table(store: Any, toy_game: Any) -> tuple[Service, WordedToy]:
    front = WordedToy()
    service = Speaking(Service(store, seed_source=lambda: 4, fronts=lambda key: front))
    await service.new_game(guild_id=1, channel_id=CHANNEL, user_id=1, user_name="ann", game_key="toy", lang="de",
                           user_lang="de")
    await service.join(CHANNEL, 2, "bob", lang="en")
    await service.start(CHANNEL, 1)
    return service, front


async def test_a_refusal_is_worded_in_the_players_language(store, toy_game) -> None:
    service, _ = await table(store, toy_game)
    _, game, _ = await service.current(CHANNEL)
    assert game is not None and game.to_act is not None
    mover = game.to_act + 1
    r = await service.act(CHANNEL, mover, "move 3", lang="de")
    assert not r.ok and r.text.startswith("[de] ") and "\nJetzt möglich: roll" in r.text, r.text
    r = await service.act(CHANNEL, mover, "move 3", lang="en")
    assert not r.ok and r.text.startswith("[en] ") and "\nPossible now: roll" in r.text, r.text
    r = await service.act(CHANNEL, 3 - mover, "roll", lang="de")
    assert not r.ok and r.text.startswith("Du bist nicht am Zug:"), r.text


async def test_the_channel_reads_the_games_language_and_each_player_their_own(store, toy_game) -> None:
    """Moves by an English player in a German game: the channel's narration in German; their status in
    English, the German player's in German; hidden cards told to each holder in the language they sat
    down with (or played in)."""
    service, _ = await table(store, toy_game)
    notes: list[tuple[int, str]] = []
    for _ in range(120):
        _, game, _ = await service.current(CHANNEL)
        if game is None or game.is_over:
            break
        user = (game.to_act or 0) + 1
        reply = await service.act(CHANNEL, user, str(game.legal_actions()[0]), lang="en" if user == 2 else None)
        assert reply.ok, reply.text
        assert "[de] " in reply.text and "[en]" not in reply.text, reply.text
        notes += [(n.user_id, n.text) for n in reply.private]
    assert {u for u, _ in notes} == {1, 2}, notes  # each drew a hidden card at some point
    assert all(text.startswith("[de] " if user == 1 else "[en] ") for user, text in notes), notes
    assert (await service.status(CHANNEL, 2, lang="en")).text.startswith("(last game, finished) [en] ")
    assert (await service.status(CHANNEL, 1, lang="de")).text.startswith("(letztes Spiel, beendet) [de] ")
    assert (await service.status(CHANNEL, 2)).text.startswith("(last game, finished) [en] ")  # as Bob sat down
    assert (await service.status(CHANNEL, 3)).text.startswith("(letztes Spiel, beendet) [de] ")  # the game's


# A race through Discord, a German and an English player ------------------------------------------------

#: what the service says to each player privately, by language: (check, start of the text)
PRIVATE = {
    "de": {"out_of_turn": "Du bist nicht am Zug: ", "illegal": "\nJetzt möglich: ", "hand": "Dein Kart (",
           "why": "unbekannte Aktion 'fly'",
           "status": "\nDu kannst: ", "done": "Erledigt: ", "reach": "Wohin du mit diesem Wurf kommst",
           "not_host": "Nur der Gastgeber (<@", "note": "Nur du siehst das: "},
    "en": {"out_of_turn": "It is not your turn: ", "illegal": "\nPossible now: ", "hand": "Your kart (",
           "why": "unknown action 'fly'",
           "status": "\nYou can: ", "done": "Done: ", "reach": "Where you can go with this roll",
           "not_host": "Only the host (<@", "note": "Only you see this: "},
}
NOTES = tuple(words["note"] for words in PRIVATE.values())
#: the checks every player must meet in a race (a hidden thing may not come their way)
EVERY = {"out_of_turn", "illegal", "why", "hand", "status", "done", "reach"}
#: what the channel reads around the race, by the server's language
CHANNEL_WORDS = {
    "de": {"opened": "hat ein Spiel **Junkyard Races** eröffnet",
           "joined": "ist der Lobby von Junkyard Races beigetreten",
           "begins": "**Junkyard Races** beginnt!", "ping": ", du bist dran.", "status": "auf Sump Creek Loop, 1 Runde",
           "standings": "**Junkyard Races: Endstand** nach ", "reach": "Wohin kann ich?",
           # the game's own words: a seat's option, the narration, the end
           "option": "(Farbe rot)", "roll": " würfelt grün ", "end": "Das Rennen ist nach "},
    "en": {"opened": "opened a game of **Junkyard Races**", "joined": "joined the Junkyard Races lobby",
           "begins": "**Junkyard Races** begins!", "ping": ", your turn.", "status": "on Sump Creek Loop, 1 lap",
           "standings": "**Junkyard Races: final standings** after ", "reach": "Where can I go?",
           "option": "(colour red)", "roll": " rolls green ", "end": "The race is over after "},
}


def _text_in(sent: list[Any], where: str) -> str:
    private = [s.content for s in sent if s.ephemeral and s.content]
    assert private, (where, [s.content for s in sent])
    return private[-1]


async def race_in_two_languages(h: Any, server: str) -> tuple[dict[int, set[str]], list[str]]:
    """Ann (Discord in German) and Bob (in English) race one lap on a server whose Discord speaks
    ``server``. Each private answer is checked against its reader's language as it comes; returns which
    checks each player met and what the channel read."""
    from bot.drivers import driver_for
    from bot.games.unit import REACH_ACTION
    from tests.bot.harness import CHANNEL_ID
    from tests.bot.helpers import ANN, BOB, only, public

    h.guild_locale = {"de": "de", "en": "en-US"}[server]
    h.locales.update({ANN: "de", BOB: "en-US"})
    lang = {ANN: "de", BOB: "en"}
    met: dict[int, set[str]] = {ANN: set(), BOB: set()}
    channel: list[str] = []

    def expect(user: int, check: str, text: str) -> None:
        assert PRIVATE[lang[user]][check] in text, (user, check, text)
        met[user].add(check)

    for user, path, options in ((ANN, "game new", {"game": "races", "track": "A", "laps": 1}),
                                (ANN, "game join", {"colour": "red"}), (BOB, "game join", {"colour": "blue"})):
        channel += [s.content for s in public(await h.slash(user, path, **options))]
    expect(BOB, "not_host", _text_in(await h.slash(BOB, "game start"), "start"))
    channel += [s.content for s in public(await h.slash(ANN, "game start"))]
    users = {0: ANN, 1: BOB}
    drivers = {0: driver_for("races", "smart", 11), 1: driver_for("races", "smart", 12)}
    for _ in range(400):
        _, game, _ = await h.bot.service.current(CHANNEL_ID)
        if game is None or game.is_over:
            break
        seat = game.to_act
        mover, other = users[seat], users[1 - seat]
        if {"out_of_turn"} - met[other]:
            expect(other, "out_of_turn", _text_in(await h.slash(other, "game play", action="roll 1"), "out of turn"))
        if {"illegal", "hand", "status"} - met[mover]:
            refused = _text_in(await h.slash(mover, "game play", action="fly away"), "illegal")
            expect(mover, "illegal", refused)  # the service's words
            expect(mover, "why", refused)  # the game's
            expect(mover, "hand", _text_in(await h.slash(mover, "race hand"), "hand"))
            expect(mover, "status", _text_in(await h.slash(mover, "game status"), "status"))
        sent = await h.slash(mover, "game play", action=drivers[seat].choose(game, seat))
        for text in (s.content for s in sent if s.ephemeral and s.content):
            # a hidden thing the move told the mover, or (a turn's message edited) that the move is done
            expect(mover, "note" if text.startswith(NOTES) else "done", text)
        shown = public(sent)
        assert shown, [s.content for s in sent]
        channel += [s.content for s in shown]
        board = shown[-1]
        if "reach" not in met[mover] and any(c.split(":", 3)[3] == REACH_ACTION for c in board.custom_ids):
            assert board.labels[-1] == CHANNEL_WORDS[server]["reach"], board.labels
            expect(mover, "reach", _text_in(await h.press(mover, board, board.labels[-1]), "reach"))
    else:
        raise AssertionError("the race did not end")
    h.bot.outbox.clock = lambda: time.time() + 60  # the final standings follow a moment later
    before = len(h.sent)
    assert await h.bot.outbox.flush() == 1
    channel += [only(public(h.sent[before:])).content]
    return met, channel


def _channel_reads(channel: list[str], server: str) -> None:
    words = CHANNEL_WORDS[server]
    other = CHANNEL_WORDS["en" if server == "de" else "de"]
    said = "\n".join(channel)
    for key in ("opened", "joined", "begins", "ping", "status", "standings", "option", "roll", "end"):
        assert words[key] in said, (key, said[:2000])
        assert other[key] not in said, (key, said[:2000])
    assert all(PRIVATE[lang][check] not in said for lang in PRIVATE for check in ("out_of_turn", "done")), said


async def test_a_race_with_a_german_and_an_english_player_on_a_german_server(h) -> None:
    """Each player's private answers (refusals, hand, status, the reach answer, the confirmation of a move)
    in their own Discord's language; the channel in German, the server's language."""
    met, channel = await race_in_two_languages(h, "de")
    assert all(checks >= EVERY for checks in met.values()) and "not_host" in met[BOB_ID], met
    _channel_reads(channel, "de")


async def test_the_same_race_on_an_english_server_reads_english_in_the_channel(h) -> None:
    met, channel = await race_in_two_languages(h, "en")
    assert all(checks >= EVERY for checks in met.values()) and "not_host" in met[BOB_ID], met
    _channel_reads(channel, "en")


# The server's language -----------------------------------------------------------------------------


async def test_a_server_sets_its_language_and_new_games_take_it(h) -> None:
    """The server's public language defaults to its Discord locale; who may manage channels sets it with
    /game settings, and the next game's channel reads it whatever the asker's Discord speaks."""
    from tests.bot.harness import CHANNEL_ID, MANAGE_CHANNELS, MEMBER_PERMS
    from tests.bot.helpers import ANN, BOB, answer

    h.guild_locale = "en-US"
    h.locales[ANN] = "de"
    shown = answer(await h.slash(ANN, "game settings", scope="server"))
    assert shown.ephemeral and "Sprache in den Kanälen: Englisch" in shown.content, shown.content
    refused = answer(await h.slash(ANN, "game settings", language="de"))  # a member who may not manage channels
    assert refused.ephemeral and "Nur wer Kanäle verwalten darf" in refused.content, refused.content
    refused = answer(await h.slash(BOB, "game settings", scope="game", language="de",
                                 permissions=MEMBER_PERMS | MANAGE_CHANNELS))
    assert refused.ephemeral and "server setting" in refused.content, refused.content
    set_ = answer(await h.slash(BOB, "game settings", language="de", permissions=MEMBER_PERMS | MANAGE_CHANNELS))
    assert set_.ephemeral and "language of the channels: German" in set_.content, set_.content
    opened = answer(await h.slash(BOB, "game new", game="toy"))  # Bob's Discord speaks English
    assert not opened.ephemeral and "hat ein Spiel **Race to Ten** eröffnet" in opened.content, opened.content
    rec = await h.bot.service.store.games.channel_game(CHANNEL_ID)
    assert rec is not None and rec.lang == "de"
    answer(await h.slash(BOB, "game settings", language="en", permissions=MEMBER_PERMS | MANAGE_CHANNELS))
    assert rec.lang == (await h.bot.service.store.games.channel_game(CHANNEL_ID)).lang == "de"  # a game keeps its own


async def test_without_a_setting_a_new_game_reads_the_servers_discord_locale(h) -> None:
    from tests.bot.harness import CHANNEL_ID
    from tests.bot.helpers import ANN, answer

    h.guild_locale = "de"
    opened = answer(await h.slash(ANN, "game new", game="toy"))  # Ann's Discord speaks English
    assert "hat ein Spiel" in opened.content, opened.content
    assert (await h.bot.service.store.games.channel_game(CHANNEL_ID)).lang == "de"


def test_server_settings_check_and_describe_the_language() -> None:
    from bot.clock.settings import GAME_DEFAULTS, BadSetting, check_game_settings, describe_server_settings

    assert check_game_settings({"language": "de"}, server=True) == {"language": "de"}
    with pytest.raises(BadSetting) as bad:
        check_game_settings({"language": "fr"}, server=True)
    assert str(bad.value) == "`language` is en (English) or de (German)."
    assert bad.value.say("de") == "`sprache` ist en (Englisch) oder de (Deutsch)."
    with pytest.raises(BadSetting):
        check_game_settings({"language": "de"})  # a game's own settings have no language
    assert describe_server_settings({**GAME_DEFAULTS, "language": "de"}, "de") == (
        "Erinnerungen: nach 12 Stunden ohne Zug (höchstens 3, solange jemand an der Reihe ist); Zugfrist: keine; "
        "„Was habe ich verpasst?“: "
        "nach 12 Stunden Abwesenheit; Sprache in den Kanälen: Deutsch")


# The service's own texts in German -------------------------------------------------------------------


async def test_lobby_refusals_and_announcements_in_each_language(store, toy_game) -> None:
    """Refusals go to the asker in their language; what the lobby tells the channel, in the game's."""
    service = Speaking(Service(store, seed_source=lambda: 4, fronts=lambda key: WordedToy()))
    assert (await service.join(CHANNEL, 2, "bob", lang="de")).text.startswith("In diesem Kanal läuft kein Spiel.")
    opened = await service.new_game(guild_id=1, channel_id=CHANNEL, user_id=1, user_name="ann", game_key="toy",
                                    lang="de", user_lang="en")
    assert opened.text.startswith("<@1> hat ein Spiel **Race to Ten** eröffnet (Standardaufbau).")
    again = await service.new_game(guild_id=1, channel_id=CHANNEL, user_id=2, user_name="bob", game_key="toy",
                                   lang="de", user_lang="en")
    assert not again.ok and again.text.startswith("This channel already has a game of Race to Ten (lobby).")
    assert (await service.start(CHANNEL, 2, lang="de")).text.startswith("Nur der Gastgeber (<@1>)")
    assert (await service.start(CHANNEL, 1, lang="en")).text.startswith("Race to Ten needs 2–")
    joined = await service.join(CHANNEL, 2, "bob", lang="en")
    assert joined.text == "<@2> ist der Lobby von Race to Ten beigetreten. Am Tisch: 1. <@1>; 2. <@2>."
    computer = await service.add_computer(CHANNEL, 1, "nobody", lang="de")
    assert computer.text.startswith("Für Race to Ten gibt es keinen Computerspieler `nobody`")
    assert (await service.leave(CHANNEL, 3, lang="de")).text == "Du hast keinen Platz im Spiel dieses Kanals."
    left = await service.leave(CHANNEL, 2, lang="en")
    assert left.text == "<@2> hat die Lobby verlassen. Am Tisch: 1. <@1>."
    aborted = await service.abort(CHANNEL, 1)
    assert aborted.text == "<@1> hat das Spiel Race to Ten nach 0 Zügen beendet. Der Kanal ist frei."


async def test_the_log_undo_and_history_answer_in_the_askers_language(store, toy_game) -> None:
    from bot.play import undo
    from bot.standing import history

    service, _ = await table(store, toy_game)
    _, game, _ = await service.current(CHANNEL)
    assert game is not None and game.to_act is not None
    mover = game.to_act + 1
    assert (await service.log(CHANNEL, user_id=3, lang="en")).text == "Race to Ten (active): no moves yet."
    assert (await service.log(CHANNEL, user_id=3, lang="de")).text == "Race to Ten (läuft): noch keine Züge."
    reply = await undo.undo(service, CHANNEL, 3 - mover, 1, lang="de")
    assert reply.text.startswith("Du kannst deine Züge nur zurücknehmen, solange du an der Reihe bist")
    reply = await undo.undo(service, CHANNEL, mover, 99, lang="de")
    assert reply.text == "Du kannst 1 bis 20 Züge auf einmal zurücknehmen."
    none = await history.history(service, CHANNEL + 1, lang="de")
    assert none.text == "In diesem Kanal ist noch kein Spiel zu Ende gegangen."
    mine = await history.mine(service, mover, lambda rec, message: "LINK", lang="de")
    assert mine.text.startswith("**Du bist dran:**\n- Race to Ten (Zug "), mine.text
    assert history.span(2 * 86400 + 3 * 3600, "de") == "2 Tagen 3 Std." and history.span(90, "en") == "1 min"


def test_notices_and_reminders_in_each_language() -> None:
    from bot.clock import notices
    from bot.discord.shown import shown
    from rules.literal import Person

    assert notices.notice_text("Race to Ten", 5, None, "de") == "Du bist dran in **Race to Ten** in <#5>."
    assert shown(notices.reminder_text(Person(7, "Ann"), "Race to Ten", 3 * 3600, 3, "L", dm=False, lang="de")) == (
        "<@7>, eine Erinnerung: dein Zug in **Race to Ten** wartet seit 3 Stunden (letzte Erinnerung, solange du "
        "an der Reihe bist). Das Brett: L")
    assert notices.reminder_text(Person(7, "Ann"), "Race to Ten", 60, 1, None, dm=True) == \
        "a reminder: your turn in **Race to Ten** has waited 1 min."
    with pytest.raises(notices.BadQuietHours) as bad:
        notices.quiet_hours("25:00", "07:00", "UTC")
    assert bad.value.say("de") == "`25:00` ist keine Uhrzeit: schreib sie als HH:MM, z. B. 22:30."


# The terminal ----------------------------------------------------------------------------------------


def test_junkyard_play_in_german(tmp_path, monkeypatch, capsys) -> None:
    """``--lang de``: the service's texts, the terminal's own words and the game's command help in German;
    what is typed stays the notation."""
    from tests.bot.test_terminal import play, stored

    db = tmp_path / "play.db"
    code, out = play(monkeypatch, capsys, ["--game", "rally", "--laps", "1", "--seats", "human,smart", "--seed", "5",
                                           "--lang", "de", "--db", str(db), "--out", str(tmp_path / "out")],
                     ["help", "legal", "fly away", "99", "1", "quit"])
    assert code == 0
    assert "Schrottplatz Rally beginnt! Am Tisch: 1. Spieler 1; 2. Computer 2 (schlau)." in out
    assert "Befehle:" in out and re.search(r"^  züge +jede erlaubte Aktion, nummeriert$", out, re.M)
    assert "Die Aktionen des Spiels (/rallye auf Discord):" in out
    assert "Jede erlaubte Aktion von Spieler 1 (rot) (" in out and "Jetzt möglich: roll green" in out
    assert "=== Spieler 1 (rot) ist am Zug (Zug 0) ===" in out  # the game's seat label
    # its situation
    assert "Durchgang 1: der Hebel steht auf grün (jetzt muss es grün sein): schalten und würfeln." in out
    assert "(Gänge 1 und 2 funktionieren)" in out  # and its hints
    assert "In der letzten Liste gibt es keine Nummer 99" in out
    assert "Verlassen: Spiel 1 wartet bei Zug " in out and "bietet an, es fortzusetzen" in out
    assert "Brettbilder: " in out and "[Brett: " in out
    assert not any(english in out for english in ("Your moves", "begins!", "Possible now", "waits at move"))
    assert stored(db)[0] == "active"  # left as it is, to be resumed


def test_junkyard_demo_in_german(tmp_path, capsys) -> None:
    from bot.cli import main

    out_dir = tmp_path / "demo"
    assert main(["demo", "--game", "rally", "--seats", "2", "--laps", "1", "--seed", "3", "--lang", "de",
                 "--out", str(out_dir)]) == 0
    out = capsys.readouterr().out
    assert "Schrottplatz Rally auf Rostbogen-Ring (A), im Uhrzeigersinn: 2 Computer (schlau), 1 Runde, Startwert 3." \
        in out
    assert "Das Spiel ist nach " in out and "Sieg: " in out and "Der Kanal: " in out and "Wiederholung: " in out
    assert re.search(r"^Platz\s+Name\s+Auto\s+Runden\s+Stopps\s+Wo$", out, re.M), out
    assert (out_dir / "replay.gif").exists() and sorted(out_dir.glob("message-*.png"))


async def test_why_a_move_stays_is_told_in_the_askers_language(h) -> None:
    """A roll can't be taken back (the dice are known): the refusal and the game's reason both in German
    for a German player; the same in English for an English one."""
    from tests.bot.helpers import answer
    from tests.bot.test_undo import choices, races

    first, _ = await races(h)
    await h.slash(first, "game play", action=(await choices(h))[0])
    await h.slash(first, "game play", action="roll 1")
    h.locales[first] = "de"
    reply = answer(await h.slash(first, "game undo"))
    assert reply.ephemeral and reply.content == (
        "Dein letzter Zug, `roll 1`, bleibt. Ein Wurf lässt sich nicht zurücknehmen: die Würfel sind bekannt.")
    h.locales[first] = "en-US"
    assert answer(await h.slash(first, "game undo")).content == (
        "Your last move, `roll 1`, stays. A roll can't be taken back: the dice are known.")


async def test_a_setup_the_game_refuses_is_explained_in_the_askers_language(store) -> None:
    """The game's own reason (too many laps) inside the service's refusal, both in the asker's language."""
    service = Speaking(Service(store, seed_source=lambda: 4))
    refused = await service.new_game(guild_id=1, channel_id=CHANNEL, user_id=1, user_name="ann", game_key="races",
                                     options={"laps": 9}, lang="en", user_lang="de")
    assert not refused.ok and refused.text.startswith("Junkyard Races lässt sich so nicht aufbauen: ")
    assert "Runden" in refused.text and "laps" not in refused.text, refused.text
    refused = await service.new_game(guild_id=1, channel_id=CHANNEL, user_id=1, user_name="ann", game_key="races",
                                     options={"laps": 9}, lang="de", user_lang="en")
    assert refused.text.startswith("Can't set up Junkyard Races: ") and "laps" in refused.text, refused.text


# Notices and reminders through the ticker ------------------------------------------------------------


async def test_a_direct_notice_in_the_players_language_and_the_channels_reminders_in_the_games(db_path) -> None:
    """Bob's Discord speaks German on an English server: his direct-message notice is German; the channel's
    word that a turn limit passed, and the host's question, are English (the game's language)."""
    from tests.bot.harness import DiscordHarness
    from tests.bot.helpers import ANN, BOB, USERS, answer, only
    from tests.bot.test_timing import turn
    from tests.bot.timing_helpers import Clock, channel_posts, dms, later, timed_bot

    clock = Clock()
    async with DiscordHarness(timed_bot(db_path, clock)) as t:
        t.users.update(USERS)
        t.locales[BOB] = "de"
        answer(await t.slash(BOB, "game notify", mode="dm"))
        answer(await t.slash(ANN, "game new", game="toy"))
        answer(await t.slash(BOB, "game join", colour="blue"))
        answer(await t.slash(ANN, "game start"))
        answer(await t.slash(ANN, "game settings", turn_limit=6, reminder=0, on_timeout="ask-host", kick_after=1))
        await turn(t, ANN)
        notice = only(dms(await later(t, clock, 0)))
        assert notice.content.startswith("Du bist dran in **Race to Ten** in <#"), notice.content
        assert "Das Brett: https://discord.com/channels/" in notice.content
        [late] = channel_posts(await later(t, clock, 6))
        assert late.content.startswith(f"<@{BOB}>'s time for this turn (6 h) is up: 1 missed."), late.content
        assert f"<@{ANN}>, Bob has missed 1 turn. `/game kick`" in late.content
