"""The German words of the ``/rally`` commands and of the rally's ``/game new`` and ``/game join`` options
(see :attr:`bot.games.unit.GameUnit.translations`). What a player types (``green``, cells, spots) stays as
the notation has it."""

from __future__ import annotations

from collections.abc import Mapping

_BOOST = "Einen Kanister für den Booster ausgeben: ein zweiter Zug nach dem ersten"
_RANGE = "green, yellow oder red: höchstens einen Bereich hoch, beliebig viele runter"

GERMAN: Mapping[str, tuple[str, str]] = {
    "rally": ("rallye", "Fahre dein Auto in der Rallye dieses Kanals"),
    "rally roll": ("würfeln", "Den Hebel stellen und würfeln (Schalten und Würfeln sind eine Aktion)"),
    "rally roll range": ("bereich", f"{_RANGE} (Standard: Hebel bleibt)"),
    "rally roll boost": ("boost", _BOOST),
    "rally shift": ("schalten", "Den Hebel auf einen Bereich schalten und würfeln"),
    "rally shift range": ("bereich", _RANGE),
    "rally shift boost": ("boost", _BOOST),
    "rally boost": ("boost", "Einen Kanister für den Booster ausgeben und würfeln: ein zweiter Zug folgt"),
    "rally boost range": ("bereich", f"{_RANGE} (Standard: Hebel bleibt)"),
    "rally move": ("fahren", "Deinen Wurf zu einem Feld fahren (tippe los für die erlaubten) oder einen Pfad entlang"),
    "rally move to": ("ziel", "Ein Feld wie `14b`, `pit` oder `stop`, oder ein Pfad wie `13a 13b 14b`"),
    "rally park": ("parken", "In eine Parklücke fahren (Parkplatz oder Boxengasse) und legen, was sie gibt"),
    "rally park spot": ("lücke", "Die Lücke, etwa `F7.1` oder `pit.2`; tippe los für die erreichbaren"),
    "rally park items": ("teile", "Was auf welchen Gang kommt, wie `e4` oder `e3 e5` "
                                  "(Standard: was dem Auto am meisten hilft)"),
    "rally repair": ("reparieren", "Zur Reparatur geschoben: Teile von Gang 1 nehmen, einen Durchgang warten, "
                                   "Gang 2 mit reparieren"),
    "rally board": ("brett", "Dein Autobrett: Gänge, Hebel, Treibstoff und Reserve, nur für dich"),
    "new:track": ("strecke", "Strecke oder Spielplan"),
    "new:laps": ("runden", "Runden, 1 bis 5"),
    "new:direction": ("richtung", "Im oder gegen den Uhrzeigersinn"),
    "new:board": ("startbrett", "Startbrett aller Autos, wie `1:M 2:M 3:BE 5:BE`"),
    "join:board": ("startbrett", "Startbrett deines Autos, wie `1:M 3:M 2:BE 5:BE`"),
}
