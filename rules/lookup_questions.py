"""Questions as players ask them, in plain words, and the entry each must find first: the measure of
the rule lookup's ranking, shared by its tests and ``python -m bench lookup``.

Written the way people type into `/rules` or `junkyard rules`: short and long, with filler words,
other word forms, synonyms and typos.
"""

from __future__ import annotations

from rules.lookup import search

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
]


def accuracy(questions: list[tuple[str, str, str]] = QUESTIONS) -> tuple[float, float]:
    """Top-1 and top-3 accuracy of :func:`rules.lookup.search` over ``questions`` (fractions)."""
    top1 = top3 = 0
    for game, question, expected in questions:
        found = [e.id for e in search(game, question, limit=3)]
        top1 += bool(found) and found[0] == expected
        top3 += expected in found
    return top1 / len(questions), top3 / len(questions)
