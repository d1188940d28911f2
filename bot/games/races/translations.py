"""The German words of the ``/race`` commands and of the race's ``/game new`` and ``/game join`` options
(see :attr:`bot.games.unit.GameUnit.translations`). Notation a player types (``oil``, ``left``, cell
labels) stays as it is: only the names and descriptions of commands and options are German."""

from __future__ import annotations

from collections.abc import Mapping

_SET_ON = "Das Feld neben deinem Kart, auf das es kommt"
_TARGET = "Die Farbe eines Karts oder das Feld eines Plättchens"
_NEAR = "Die Farbe eines benachbarten Karts"
_LEAVE = "Verdeckte Schrottplättchen auf dem Weg liegen lassen (Standard: aufsammeln)"
_TILE = "Die Art des Plättchens"

GERMAN: Mapping[str, tuple[str, str]] = {
    "race": ("rennen", "Fahre dein Kart im Rennen dieses Kanals"),
    "race roll": ("würfeln", "Phase 3: grüne Würfel werfen, dazu weiße (Turbo) oder rote (Jet) Treibstoffwürfel"),
    "race roll green": ("grün", "Grüne Würfel, 1 bis 3"),
    "race roll white": ("weiß", "Weiße Turbo-Treibstoffwürfel (0 bis 3)"),
    "race roll red": ("rot", "Rote Jet-Treibstoffwürfel (0 bis 3)"),
    "race reverse": ("rückwärts", "Phase 3: 1 bis 3 Felder rückwärts fahren statt zu würfeln"),
    "race move": ("fahren", "Mit dem ganzen Wurf zu einem Feld fahren oder einen Pfad aus Feldern entlang"),
    "race move to": ("ziel", "Ein Zielfeld (tippe los für die erlaubten) oder ein Pfad wie `F7 G7 H8`"),
    "race move leave": ("liegen_lassen", _LEAVE),
    "race step": ("schritt", "Phase 5: ein Feld fahren: links, geradeaus, rechts oder auf ein Feld"),
    "race step way": ("richtung", "left, straight, right oder ein Feld; tippe los für die erlaubten"),
    "race step leave": ("liegen_lassen", _LEAVE),
    "race done": ("fertig", "Phase 1 oder 2 beenden oder das Rückwärtsfahren beenden"),
    "race hand": ("hand", "Deine Kartkarte und die Plättchen in deinen Satteltaschen, nur für dich"),
    "race buy": ("kaufen", "Phase 2 im Boxenstopp: ein Teil kaufen und einbauen"),
    "race buy part": ("teil", "Das Teil; tippe los für die, die du hier kaufen kannst"),
    "race buy location": ("platz", "Wo es eingebaut wird (2 bis 9), wenn es an mehrere Stellen passt"),
    "race return": ("zurückgeben", "Phase 2 im Boxenstopp: das Teil an einem Platz zurückgeben"),
    "race return location": ("platz", "Der Platz (2 bis 9) des Teils"),
    "race refuel": ("tanken", "Phase 2: ein Treibstoffplättchen gegen Treibstoffwürfel tauschen"),
    "race refuel fuel": ("treibstoff", "Weiß (Turbo-Treibstoff) oder rot (Jet-Treibstoff)"),
    "=white": ("weiß (Turbo)", ""),
    "=red": ("rot (Jet)", ""),
    "race trap": ("falle", "Phase 1: eine Falle aus deinen Satteltaschen neben dein Kart legen"),
    "race trap tile": ("plättchen", "glue, oil, acid, spring oder time-bomb (Leim, Öl, Säure, Feder, Zeitbombe)"),
    "race trap cell": ("feld", "Das Feld, auf das sie kommt"),
    "race trap arrow": ("pfeil", "Nur bei Öl: wohin sein Pfeil zeigt"),
    "race magnet": ("magnet", "Phase 1: einen Magneten neben dich legen und ein Kart darauf ziehen"),
    "race magnet cell": ("feld", _SET_ON),
    "race magnet target": ("ziel", _TARGET),
    "race missile": ("rakete", "Phase 1: eine Rakete auf ein Kart oder ein Plättchen abfeuern"),
    "race missile cell": ("feld", _SET_ON),
    "race missile target": ("ziel", _TARGET),
    "race bomb": ("bombe", "Phase 1: eine Bombe geradeaus auf ein Kart oder ein Plättchen rollen"),
    "race bomb cell": ("feld", _SET_ON),
    "race bomb target": ("ziel", _TARGET),
    "race snatch": ("schnappen", "Phase 1, Bombenfänger: einem benachbarten Kart ein Plättchen zu nehmen versuchen"),
    "race snatch target": ("ziel", _NEAR),
    "race smash": ("zertrümmern", "Phase 1, Raketenabwehr: ein Teil eines benachbarten Karts zu zertrümmern versuchen"),
    "race smash target": ("ziel", _NEAR),
    "race swap": ("tauschen", "Phase 2, Teamrennen: ein Plättchen oder ein Teil geben oder nehmen"),
    "race swap what": ("was", "Wie `blue give oil` oder `blue take part 3`; tippe los für die erlaubten"),
    "race choose": ("wählen", "Die Frage beantworten, die das Rennen dir stellt"),
    "race choose option": ("antwort", "Deine Antwort; tippe los für die Möglichkeiten"),
    "race bag": ("umpacken", "Ein Plättchen von einer Satteltasche in eine andere legen"),
    "race bag move": ("plättchen", "Plättchen, von, nach: wie `oil 7 4`; tippe los für die erlaubten"),
    "race show": ("zeigen", "Ein Plättchen von dir für alle sichtbar aufdecken"),
    "race show tile": ("plättchen", _TILE),
    "race hide": ("verdecken", "Ein aufgedecktes Plättchen wieder umdrehen"),
    "race hide tile": ("plättchen", _TILE),
    "new:track": ("strecke", "Strecke oder Spielplan"),
    "new:teams": ("teams", "Teamrennen"),
    "new:crew": ("crew", "Mit Crew-Charakteren und Startsets"),
    "new:laps": ("runden", "Runden, 1 bis 5"),
    "join:colour": ("farbe", "Deine Farbe"),
    "join:team": ("team", "Deine Teamnummer"),
    "join:character": ("charakter", "Dein Crew-Charakter"),
    "join:set": ("startset", "Dein Crew-Startset"),
}
