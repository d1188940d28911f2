"""Questions as players ask them, in plain words, and the entry each must find first: the measure of
the rule lookup's ranking, shared by its tests and ``python -m bench lookup``.

Written the way people type into `/rules` or `junkyard rules`: short and long, with filler words,
other word forms, synonyms and typos. :data:`QUESTIONS` are asked in English, :data:`GERMAN_QUESTIONS`
in German (by a player whose Discord speaks German) and must find the German entries.
"""

from __future__ import annotations

from rules import registry
from rules.lookup import search

#: Where Schrottplatz Rally keeps its entries (the list of games registers it; :func:`with_rally` does when
#: the game's unit does not, so its questions can be asked on their own).
RALLY_LOOKUP: tuple[str, tuple[str, ...]] = ("rules.rally", ("data", "lookup.toml"))

#: (game, question, the entry id that must come first)
QUESTIONS: list[tuple[str, str, str]] = [
    # ---------------------------------------------------------------- Junkyard Races
    ("races", "what does glue do", "tile-glue"),
    ("races", "can I bump on a bridge", "bumping"),
    ("races", "how many flags to win", "object"),
    ("races", "what happens in the stream", "bumping-stream"),
    ("races", "how many players", "ruling-r13"),
    ("races", "how do I set a trap", "phase-1"),
    ("races", "what does the oil do", "tile-oil"),
    ("races", "how far can a missile go", "tile-missile"),
    ("races", "how do bombs work", "tile-bomb"),
    ("races", "when does a time bomb explode", "tile-time-bomb"),
    ("races", "what happens if I fall in the water", "bumping-stream"),
    ("races", "how do I get out of the creek", "bumping-stream"),
    ("races", "what if someone is parked on the landing point", "bumping-stream"),
    ("races", "can I push another kart", "bumping"),
    ("races", "how much does a jet engine cost", "part-jet-engine"),
    ("races", "what does the turbo engine do", "part-turbo-engine"),
    ("races", "how do I buy parts", "phase-2"),
    ("races", "where can I buy a battering ram", "part-battering-ram"),
    ("races", "how many tiles can I carry", "storage"),
    ("races", "my saddlebag is full, what now?", "storage"),
    ("races", "can I throw away a junk tile I don't want", "storage"),
    ("races", "do I have to pick up every tile I drive over", "ruling-r18"),
    ("races", "what are junk tiles", "junk-tiles"),
    ("races", "how do I get bottle tops", "bottle-tops"),
    ("races", "whats the most bottle tops I can hold", "bottle-tops"),
    ("races", "how do laps count", "ruling-r4"),
    ("races", "can I drive backwards", "reversing"),
    ("races", "how does reversing work", "reversing"),
    ("races", "what happens when my kart gets hit", "damage"),
    ("races", "damage roll", "damage"),
    ("races", "stuck in mud", "phase-3"),
    ("races", "how do mud tyres help", "part-mud-tyres"),
    ("races", "grass tires", "part-grass-tyres"),
    ("races", "how do I jump a broken bridge", "bridges"),
    ("races", "which way can I drive on a bridge", "bridges"),
    ("races", "magnet range", "tile-magnet"),
    ("races", "can a magnet pull me through a wall", "tile-magnet"),
    ("races", "what does the anti magnetic thing do", "part-anti-magnetic-field-generator"),
    ("races", "smoke screen", "part-smoke-screen-generator"),
    ("races", "can i steal a tile from another kart", "part-bomb-catcher"),
    ("races", "missile deflector", "part-missile-deflector"),
    ("races", "what does the freezer do", "part-time-bomb-freezer"),
    ("races", "what is jet fuel for", "tile-jet-fuel"),
    ("races", "how do I refuel", "phase-2"),
    ("races", "white dice", "tile-turbo-fuel"),
    ("races", "what happens if I roll five sixes with the jet engine", "part-jet-engine"),
    ("races", "spring", "tile-spring"),
    ("races", "what does acid do to my tyres", "tile-acid"),
    ("races", "does the time bomb go off if my turn ends stuck in the mud", "ruling-r16"),
    ("races", "what are the phases of a turn", "sequence"),
    ("races", "who goes first", "ruling-r13"),
    ("races", "where does my kart start", "ruling-r15"),
    ("races", "team racing rules", "team-racing"),
    ("races", "can teammates swap tiles", "team-racing"),
    ("races", "do I have to use my whole roll", "ruling-r9"),
    ("races", "can other players see my tiles", "ruling-r12"),
    ("races", "crew starting sets", "optional-setup"),
    ("races", "what does Tiny start with", "crew-tiny"),
    ("races", "where is the red pit stop", "pit-stops"),
    ("races", "how do junk tiles get delivered", "phase-4"),
    ("races", "delivry points", "phase-4"),
    ("races", "bumpng someone into the watter", "bumping-stream"),
    ("races", "timebomb freezr", "part-time-bomb-freezer"),
    ("races", "misile launcher", "part-missile-launcher"),
    ("races", "can I place a bomb on a space that already has a trap", "ruling-r17"),
    ("races", "what's in the box", "supplies"),
    ("races", "how many junk tiles are there", "supplies"),
    ("races", "what can go over a wall", "ruling-r2"),
    ("races", "hex coordinates", "ruling-r1"),
    ("races", "what happens when I drive onto oil", "tile-oil"),
    ("races", "i got bumped onto glue", "tile-glue"),
    ("races", "can i pass someone on a one lane bit of track", "narrow"),
    ("races", "magnit", "tile-magnet"),
    ("races", "what does the professor start with", "crew-professor"),
("races", "what does the battering ram do", "part-battering-ram"),
    ("races", "how do i use a magnet", "tile-magnet"),
    ("races", "can a spring send me backwards", "tile-spring"),
    ("races", "how many laps is a race", "object"),
    ("races", "what if I fall short on a bridge jump", "ruling-r7"),
    ("races", "do white dice count for delivery", "phase-4"),
    ("races", "how much money can I carry", "bottle-tops"),
    ("races", "who is candy", "crew-candy"),
    ("races", "whats the risk with the jet engine", "part-jet-engine"),
    ("races", "smash", "part-missile-deflector"),
    ("races", "snatch a tile", "part-bomb-catcher"),
    ("races", "can I be pulled by a magnet if I have the field generator", "part-anti-magnetic-field-generator"),
    ("races", "what happens when a bomb hits my saddlebag", "damage"),
    ("races", "how do oil arrows work", "tile-oil"),
    ("races", "can I swap parts with my teammate", "team-racing"),
    ("races", "what is the checkered line", "object"),
    ("races", "how do i turn around", "phase-5"),
    ("races", "what does R9 say", "ruling-r9"),
    ("races", "what does smoke screen do against missiles", "part-smoke-screen-generator"),
    ("races", "whats a landing point", "bumping-stream"),
    # ---------------------------------------------------------------- Junkyard (piecepack)
    ("piecepack", "how do I win", "winning"),
    ("piecepack", "what is the good stuff", "good-stuff"),
    ("piecepack", "can I move diagonally", "carrying"),
    ("piecepack", "what happens when I land on someone", "landing"),
    ("piecepack", "how do i get rid of my trash", "trash"),
    ("piecepack", "when can I go into the middle", "centre"),
    ("piecepack", "what if I roll a null", "turn"),
    ("piecepack", "can I jump over other pawns", "ruling-p4"),
    ("piecepack", "how many players", "ruling-p2"),
    ("piecepack", "what if no move fits my roll", "ruling-p3"),
    ("piecepack", "can I stop on someone elses start corner", "moving"),
    ("piecepack", "who gets the treasure when the carrier is landed on", "landing"),
    ("piecepack", "how do you set up", "setup"),
    ("piecepack", "goal of the game", "objective"),
    ("piecepack", "cenetr", "centre"),
    ("piecepack", "what does ace mean on the die", "turn"),
    ("piecepack", "what happens if I roll a 5 but there is no 5 step path", "ruling-p3"),
    ("piecepack", "what is the null tile", "centre"),
    ("piecepack", "how do I pick up the good stuff", "good-stuff"),
    ("piecepack", "can the carrier land on other pawns", "carrying"),
    ("piecepack", "what suits are there", "ruling-p2"),
    ("piecepack", "can i pass through the middle", "centre"),
]


#: (game, question asked in German, the German entry id that must come first)
GERMAN_QUESTIONS: list[tuple[str, str, str]] = [
    # ---------------------------------------------------------------- Schrottplatz Rally
    ("rally", "Was passiert in der Kurve?", "curves-de"),
    ("rally", "Was passiert, wenn ich zu schnell in die Kurve fahre?", "curves-de"),
    ("rally", "was passiert wenn ich mich in der kurfe drehe", "curves-de"),
    ("rally", "Was passiert nach einem Dreher?", "curves-de"),
    ("rally", "Boxengasse", "pit-lane-de"),
    ("rally", "Wie viele Teile bekomme ich in der Boxengasse?", "pit-lane-de"),
    ("rally", "Muss ich am Stoppschild anhalten?", "pit-lane-de"),
    ("rally", "wass pasiert wenn ich in der boxengase bin", "pit-lane-de"),
    ("rally", "Boxenstop", "pit-lane-de"),
    ("rally", "Was ist das schraffierte Feld?", "pit-lane-de"),
    ("rally", "verschaltet", "ruling-s4-de"),
    ("rally", "Was passiert, wenn ich mich verschalte?", "ruling-s4-de"),
    ("rally", "Ich hab mich verschalten, darf ich trotzdem fahren?", "ruling-s4-de"),
    ("rally", "wie viele Runden fahren wir?", "winning-de"),
    ("rally", "Wie gewinne ich?", "winning-de"),
    ("rally", "Wann zählt eine Runde?", "winning-de"),
    ("rally", "Was mache ich bei Gleichstand?", "ruling-s8-de"),
    ("rally", "Was ist der Stoppzähler?", "ruling-s8-de"),
    ("rally", "was bringt die Tankstelle", "services-de"),
    ("rally", "Tankstele", "services-de"),
    ("rally", "Was gibt die Werkstatt?", "services-de"),
    ("rally", "Wo bekomme ich Motorteile?", "services-de"),
    ("rally", "Wo kriege ich ein Karosserieteil her?", "services-de"),
    ("rally", "Wie funktioniert der Booster?", "booster-de"),
    ("rally", "Was bringt mir der Boosterwürfel?", "booster-de"),
    ("rally", "Kann ich den Booster verlieren?", "booster-de"),
    ("rally", "Wie parke ich?", "parking-de"),
    ("rally", "Was ist, wenn der Parkplatz voll ist?", "parking-de"),
    ("rally", "Kann ich parken, wenn ein Auto vor der Einfahrt steht?", "parking-de"),
    ("rally", "Was ist die Parkleiste?", "parking-bar-de"),
    ("rally", "Wer fängt an?", "turn-order-de"),
    ("rally", "Wie funktioniert die Zugreihenfolge?", "turn-order-de"),
    ("rally", "Wer ist vorne, wenn zwei Autos in derselben Reihe stehen?", "turn-order-de"),
    ("rally", "Wie viele Spieler können mitspielen?", "ruling-s9-de"),
    ("rally", "Wie weit darf ich hochschalten?", "ruling-s3-de"),
    ("rally", "Wann muss der Hebel auf grün?", "working-gear-de"),
    ("rally", "Was ist ein funktionierender Gang?", "working-gear-de"),
    ("rally", "Wie viele Gänge hat das Auto?", "ruling-s2-de"),
    ("rally", "Was ist ein Unfall?", "ruling-s5-de"),
    ("rally", "Ich bin eingekeilt und komme nicht weiter", "ruling-s5-de"),
    ("rally", "Mein Auto ist nicht fahrbereit, was jetzt?", "roadworthy-de"),
    ("rally", "Wie repariere ich mein Auto?", "roadworthy-de"),
    ("rally", "Was bekommt jeder Spieler am Anfang?", "equipment-de"),
    ("rally", "Wie baue ich das Spiel auf?", "before-first-round-de"),
    ("rally", "Wie ist die Startaufstellung?", "before-first-round-de"),
    ("rally", "Wie viele Felder fahre ich im gelben Bereich?", "how-far-de"),
    ("rally", "wuerfeln", "how-far-de"),
    ("rally", "Darf ich rückwärts fahren?", "moving-de"),
    ("rally", "Wie oft darf ich die Spur wechseln?", "moving-de"),
    ("rally", "Muss ich alle Punkte nutzen?", "moving-de"),
    ("rally", "Wie läuft ein Zug ab?", "turn-de"),
    ("rally", "Hausregel S5", "ruling-s5-de"),
    ("rally", "Wie frage ich den Bot nach Regeln?", "howto-ask-de"),
]


def with_rally() -> None:
    """Register Schrottplatz Rally's lookup file when the list of games has not (yet) done so."""
    if "rally" not in registry.lookup_sources():
        registry.register_lookup("rally", *RALLY_LOOKUP)


def accuracy(questions: list[tuple[str, str, str]] = QUESTIONS, lang: str = "en") -> tuple[float, float]:
    """Top-1 and top-3 accuracy of :func:`rules.lookup.search` over ``questions`` asked in ``lang``
    (fractions)."""
    top1 = top3 = 0
    for game, question, expected in questions:
        found = [e.id for e in search(game, question, limit=3, lang=lang)]
        top1 += bool(found) and found[0] == expected
        top3 += expected in found
    return top1 / len(questions), top3 / len(questions)
