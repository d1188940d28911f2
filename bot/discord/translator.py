"""German names and descriptions of every slash command, through discord.py's translator: Discord shows
them to users whose client speaks German, and the bot still receives the English names.

Words are looked up by where they sit, not by their English text: a command's or group's qualified name
(``"game new"``), an option's command plus its name (``"game new game"``), a fixed choice's ``"=value"``.
The generic commands' words are in :data:`GERMAN` here; each game's own group words come from its unit
(:attr:`~bot.games.unit.GameUnit.translations`), as do the words of the options a game adds to
``/game new`` and ``/game join`` (``"new:laps"``, ``"join:colour"``).

Names keep German letters (``würfeln``): Discord accepts any lower-case letter in a localised name.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands

from bot import games

LANGUAGE = "de"
LOCALE = discord.Locale.german

#: the commands that take the options games add: their qualified name → the prefix of those options' paths
SETUP_COMMANDS = {"game new": "new", "game join": "join"}

_CALLED = "(Gastgeber oder Moderation)"

#: the generic commands: path → (German name, German description)
GERMAN: Mapping[str, tuple[str, str]] = {
    "game": ("spiel", "Das Spiel dieses Kanals eröffnen, beitreten, verwalten"),
    "game leave": ("verlassen", "Platz aufgeben (im laufenden Spiel übernimmt ein Computer)"),
    "game start": ("starten", "Das Spiel starten (Gastgeber)"),
    "game play": ("ziehen", "Eine Aktion in der Notation des Spiels spielen"),
    "game play action": ("aktion", "Z. B. `roll`; tippe los für die erlaubten"),
    "game status": ("stand", "Das Brett, wer am Zug ist und was du tun kannst"),
    "game log": ("verlauf", "Die letzten Züge, nur für dich (deine vollständig)"),
    "game log moves": ("züge", "Wie viele Züge (1–100, Standard 20)"),
    "game abort": ("abbrechen", f"Das Spiel ohne Sieger beenden {_CALLED}"),
    "game kick": ("entfernen", f"Spieler entfernen; ein Computer übernimmt {_CALLED}"),
    "game kick player": ("spieler", "Wer entfernt wird"),
    "game kick seat": ("platz", "Oder die Nummer des Platzes (wie in der Platzliste)"),
    "game computer": ("computer", f"Einen Computerspieler setzen {_CALLED}"),
    "game computer kind": ("art", "Wie er spielt (Standard: random)"),
    "game new": ("neu", "Ein neues Spiel in diesem Kanal eröffnen"),
    "game new game": ("spiel", "Welches Spiel"),
    "game new play": ("mitspielen", "Selbst einen Platz nehmen (Standard: ja)"),
    "game new thread": ("thread", "In einem neuen Thread dieses Kanals spielen (Standard: nein)"),
    "game join": ("beitreten", "Platz nehmen (noch einmal: Optionen ändern)"),
    "game notify": ("benachrichtigung", "Wie du erfährst, dass du dran bist"),
    "game notify mode": ("art", "Kanal: Erwähnung; Direktnachricht: mit Link; aus: nichts"),
    "game notify this_game": ("nur_dieses_spiel", "Nur dieses Spiel (Standard: alle deine Spiele)"),
    "=channel": ("Kanal", ""),
    "=dm": ("Direktnachricht", ""),
    "=off": ("aus", ""),
    "game quiet": ("ruhezeiten", "Ruhezeiten: Pings warten bis zu ihrem Ende"),
    "game quiet start": ("von", "Ab (HH:MM)"),
    "game quiet end": ("bis", "Bis (HH:MM)"),
    "game quiet timezone": ("zeitzone", "Deine Zeitzone, z. B. Europe/Berlin"),
    "game quiet clear": ("löschen", "Deine Ruhezeiten entfernen"),
    "game away": ("abwesend", "Autopilot: ein Computer spielt deine Züge"),
    "game away days": ("tage", "Tage (Standard: bis /spiel zurück)"),
    "game away everywhere": ("überall", "In allen deinen Spielen (Standard: nur in diesem)"),
    "game back": ("zurück", "Deine Plätze vom Autopiloten nehmen"),
    "game plan": ("plan", "Aktionen vormerken (privat): der Reihe nach, wenn du an der Reihe bist"),
    "game plan add": ("hinzu", "Aktionen in der Notation des Spiels, getrennt durch ;"),
    "game plan standing": ("dauerauftrag", "Ein fertiger Planeintrag"),
    "game plan clear": ("leeren", "Deinen Plan zuerst leeren"),
    "game forget": ("vergessen", "Löschen, was der Bot über dich speichert (fragt vorher; endgültig)"),
    "game recap": ("verpasst", "Was du seit deinem letzten Zug verpasst hast (nur für dich)"),
    "game recap replay": ("abspielen", "Mit einer Wiederholung genau dieser Züge"),
    "game settings recap_after": ("verpasst_nach", "Stunden Abwesenheit bis „Was habe ich verpasst?“ (0: nie; "
                                                   "Standard 12)"),
    "game auto": ("auto", "Ob Züge ohne Entscheidung sich selbst spielen"),
    "game auto mode": ("modus", "an oder aus"),
    "game auto everywhere": ("überall", "In allen deinen Spielen (Standard: nur in diesem)"),
    "=on": ("an", ""),
    "game settings": ("einstellungen", "Erinnerungen und Zugfristen des Spiels oder Servers"),
    "game settings scope": ("bereich", "Spiel: dieses (Gastgeber); Server: für neue Spiele (Kanäle verwalten)"),
    "=game": ("Spiel", ""),
    "=server": ("Server", ""),
    "game settings reminder": ("erinnerung", "Stunden ohne Zug bis zur Erinnerung (0: aus; Standard 12)"),
    "game settings turn_limit": ("zugfrist", "Stunden pro Zug (0: keine Frist, der Standard)"),
    "game settings on_timeout": ("bei_fristende", "Bei Fristende: Autopilot spielt oder Gastgeber wird gefragt"),
    "game settings language": ("sprache", "Sprache der Kanäle des Servers (Bereich Server; Standard: die von "
                                          "Discord)"),
    "=autopilot": ("Autopilot", ""),
    "=ask-host": ("Gastgeber fragen", ""),
    "game settings kick_after": ("entfernen_nach", "Verpasste Züge, bis der Gastgeber gefragt wird, ob er "
                                                   "entfernt"),
    "game board": ("brett", "Das ganze Brett: für den Kanal oder nur für dich"),
    "game board private": ("privat", "Nur du siehst es (Standard: der Kanal)"),
    "game board text": ("text", "Die ganze Stellung in Worten, nur für dich (z. B. Screenreader)"),
    "game undo": ("zurücknehmen", "Deine letzten Züge zurücknehmen, solange du an der Reihe bist und "
                                  "nichts Neues bekannt ist"),
    "game undo moves": ("züge", "Wie viele Züge (1–20, Standard 1)"),
    "game mine": ("meine", "Deine laufenden Spiele überall, wo du dran bist zuerst (auch in DMs)"),
    "game history": ("chronik", "Beendete Spiele dieses Kanals: Datum, Spieler, Sieger, Züge"),
    "game replay": ("wiederholung", "Wiederholung und Endstand eines beendeten Spiels posten"),
    "game replay game": ("spiel", "Tippe los: die beendeten Spiele des Kanals"),
    "game link": ("link", "Die Webseite des Spiels teilen (Brett live, Züge, Wiederholung)"),
    "game link revoke": ("widerrufen", f"Den Link widerrufen {_CALLED}"),
    "rules": ("regeln", "Eine Regel, ein Plättchen, ein Teil oder eine Entscheidung nachschlagen"),
    "rules topic": ("thema", "Was du nachschlagen willst (tippe los für Vorschläge)"),
    "rules game": ("spiel", "Welches Spiel (Standard: das dieses Kanals)"),
    "rules share": ("teilen", "Für alle posten (Standard: nur für dich)"),
    "rules language": ("sprache", "In dieser Sprache antworten (Standard: die deines Discord)"),
    "=en": ("Englisch", ""),
    "=de": ("Deutsch", ""),
    "stats": ("statistik", "Die Bilanz eines Spielers pro Spiel, oder die dieses Servers (ohne Spieler)"),
    "stats player": ("spieler", "Wessen Bilanz (Standard: die des Servers; in einer Direktnachricht deine)"),
    "stats season": ("saison", "Die Rangliste welcher Saison (ihre Nummer, 0 ist die ewige; Standard: die "
                               "laufende)"),
    "season": ("saison", "Die Saisons dieses Servers: beginnen, beenden, auflisten oder neu werten"),
    "season action": ("aktion", "beginnen, beenden, neu werten (Server-Verwaltung) oder auflisten"),
    "season name": ("name", "Der Name der neuen Saison (beginnen)"),
    "season number": ("nummer", "Welche Saison neu werten (ihre Nummer; 0 ist die ewige; Standard: die laufende)"),
    "=start": ("beginnen", ""),
    "=end": ("beenden", ""),
    "=list": ("auflisten", ""),
    "=rebuild": ("neu werten", ""),
}


def german_words() -> dict[str, tuple[str, str]]:
    """Every path's German words: the generic table and each game's. A path two tables give differently
    (two games wording a shared ``/game new`` option apart) is an error."""
    out = dict(GERMAN)
    for unit in games.units():
        for path, words in unit.translations.get(LANGUAGE, {}).items():
            if out.setdefault(path, words) != words:
                raise ValueError(f"{unit.key} words {path!r} as {words!r}, another table as {out[path]!r}")
    return out


def option_word(command: str, name: str, lang: str) -> str:
    """An option of ``command`` (``game log``) as ``lang``'s Discord names it (``züge`` for ``moves``); the
    English name in a language the tables do not cover."""
    if lang != LANGUAGE:
        return name
    words = german_words()
    setup = SETUP_COMMANDS.get(command)
    found = words.get(f"{command} {name}") or (words.get(f"{setup}:{name}") if setup else None)
    return found[0] if found else name


def path_of(location: app_commands.TranslationContextLocation, data: Any) -> str | None:
    """Where a translated string sits, as a table path (None for what the tables do not cover)."""
    where = app_commands.TranslationContextLocation
    if location in (where.command_name, where.command_description, where.group_name, where.group_description):
        return str(data.qualified_name)
    if location in (where.parameter_name, where.parameter_description):
        command = data.command.qualified_name
        if command in SETUP_COMMANDS and f"{command} {data.name}" not in GERMAN:
            return f"{SETUP_COMMANDS[command]}:{data.name}"
        return f"{command} {data.name}"
    if location is where.choice_name:
        return f"={data.value}"
    return None


class JunkyardTranslator(app_commands.Translator):
    """German names and descriptions of the commands, options and choices (other languages: Discord shows
    the English ones)."""

    def __init__(self) -> None:
        self.words = german_words()
        #: which games offer each ``/game new`` and ``/game join`` option, by path
        self.offered = {f"{prefix}:{name}": games.offered_by(offers)
                        for prefix, offered in (("new", games.new_options()), ("join", games.join_options()))
                        for name, offers in offered.items()}

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        if locale is not LOCALE:
            return None
        return self.german(context.location, context.data)

    def german(self, location: app_commands.TranslationContextLocation, data: Any) -> str | None:
        """The German text at ``location`` of ``data`` (a command, group, parameter or choice), or None."""
        path = path_of(location, data)
        words = self.words.get(path) if path is not None else None
        if words is None:
            return None
        name, description = words
        if location.name.endswith("_description"):
            if path in self.offered:  # a game's option of /game new or /game join says which games read it
                description = f"{description} ({self.offered[path]})"
            return description[:100]
        return name


def readme_table(commands: list[dict[str, Any]]) -> str:
    """The README's table of German command names, from the payload ``junkyard sync`` sends (one row per
    command a player types: ``/game new`` → ``/spiel neu``)."""
    rows = ["| English | Deutsch |", "|---|---|"]

    def walk(item: dict[str, Any], english: str, german: str) -> None:
        english = f"{english} {item['name']}".strip()
        german = f"{german} {(item.get('name_localizations') or {}).get(LOCALE.value, item['name'])}".strip()
        subs = [o for o in item.get("options", []) if o["type"] in (1, 2)]  # subcommands and their groups
        if not subs:
            rows.append(f"| `/{english}` | `/{german}` |")
        for sub in subs:
            walk(sub, english, german)

    for command in commands:
        walk(command, "", "")
    return "\n".join(rows) + "\n"
