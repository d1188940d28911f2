"""Every player-facing text of Schrottplatz Rally, in English and German, keyed by message id.

Events carry their message id and parameters in ``data["msg"]`` and ``data["params"]``; refusals
(:class:`rules.rally.game.Refusal`) and notation errors (:class:`rules.rally.actions.BadNotation`) carry
them in ``msg`` and ``params``, so a front end can say them again in the player's language with
:func:`say`. Parameters are data (seats, names, supply ids, numbers), never words: :func:`say` words them
in the language asked for:

- ``car`` with ``name`` becomes ``who`` ("Red (Ann)", "Rot (Ann)");
- ``seats`` with ``names`` (every seat's player name) becomes ``cars`` ("Red (Ann) and Blue (Bob)") and
  ``ranking`` ("1. Red (Ann), 2. Blue (Bob)");
- ``item`` (a supply id: ``mechanic``, ``body``, ``engine``, ``fuel``) becomes ``item`` (its noun),
  ``a_item`` (with the indefinite article) and ``no_item`` (negated); ``parts`` (a list of supply ids)
  becomes ``parts`` ("body part + engine part");
- ``range``, ``limit``, ``lever``, ``service``, ``direction`` and ``other`` are looked up in :data:`WORDS`.

A text that counts something has two forms (:data:`PLURALS`: ``one`` and ``other``), chosen by the
parameter :data:`COUNT_BY` names; in the ``other`` form ``item`` is the plural noun. Every form of a
message has the same placeholders in both languages.
"""

from __future__ import annotations

from typing import Any

LANGS = ("en", "de")

#: car colours by seat (avoiding green and yellow, the colours of the rev ranges and curves)
COLOUR_KEYS: tuple[str, ...] = ("red", "blue", "orange", "purple", "white", "black")

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "red": "Red", "blue": "Blue", "orange": "Orange", "purple": "Purple", "white": "White", "black": "Black",
        "green": "green", "yellow": "yellow", "range.red": "red",
        "clockwise": "clockwise", "anticlockwise": "anticlockwise",
        "fuel": "petrol station", "engine": "warehouse", "body": "scrap heap", "mechanic": "workshop",
        "pit": "pit lane",
        "item.fuel": "fuel can", "item.engine": "engine part", "item.body": "body part", "item.mechanic": "mechanic",
        "items.fuel": "fuel cans", "items.engine": "engine parts", "items.body": "body parts",
        "items.mechanic": "mechanics",
        "a.fuel": "a fuel can", "a.engine": "an engine part", "a.body": "a body part", "a.mechanic": "a mechanic",
        "no.fuel": "no fuel can", "no.engine": "no engine part", "no.body": "no body part",
        "no.mechanic": "no mechanic",
        "and": "and",
    },
    "de": {
        "red": "Rot", "blue": "Blau", "orange": "Orange", "purple": "Lila", "white": "Weiß", "black": "Schwarz",
        "green": "grün", "yellow": "gelb", "range.red": "rot",
        "clockwise": "im Uhrzeigersinn", "anticlockwise": "gegen den Uhrzeigersinn",
        "fuel": "Tankstelle", "engine": "Lagerhalle", "body": "Schrotthaufen", "mechanic": "Werkstatt",
        "pit": "Boxengasse",
        "item.fuel": "Benzinkanister", "item.engine": "Motorteil", "item.body": "Karosserieteil",
        "item.mechanic": "Mechaniker",
        "items.fuel": "Benzinkanister", "items.engine": "Motorteile", "items.body": "Karosserieteile",
        "items.mechanic": "Mechaniker",
        "a.fuel": "einen Benzinkanister", "a.engine": "ein Motorteil", "a.body": "ein Karosserieteil",
        "a.mechanic": "einen Mechaniker",
        "no.fuel": "keinen Benzinkanister", "no.engine": "kein Motorteil", "no.body": "kein Karosserieteil",
        "no.mechanic": "keinen Mechaniker",
        "and": "und",
    },
}

_EXPECTED_EN = ("expected `roll green|yellow|red [boost]`, `move <cell>` (such as `move 14b`), `park <spot> "
                "[items]` (such as `park E18.1 e3` or `park pit.2 b3 e5`) or `repair`")
_EXPECTED_DE = ("erwartet wird `roll green|yellow|red [boost]`, `move <Feld>` (etwa `move 14b`), `park <Platz> "
                "[Teile]` (etwa `park E18.1 e3` oder `park pit.2 b3 e5`) oder `repair`")

MESSAGES: dict[str, dict[str, str]] = {
    # names
    "who": {"en": "{who}", "de": "{who}"},
    # setup and rounds
    "grid_roll": {"en": "{who} rolls {die} for the start grid.", "de": "{who} würfelt {die} für die Startaufstellung."},
    "grid_tie": {"en": "{cars} tie on {die} and roll again for their places.",
                 "de": "{cars} haben gleich gewürfelt ({die}) und würfeln ihre Plätze neu aus."},
    "grid": {"en": "Start grid: {ranking}.", "de": "Startaufstellung: {ranking}."},
    "round": {"en": "Round {round} begins.", "de": "Runde {round} beginnt."},
    # the turn
    "shift": {"en": "{who} shifts to {range}.", "de": "{who} schaltet auf {range}."},
    "booster": {"en": "{who} spends a fuel can on the booster ({fuel} left).",
                "de": "{who} opfert einen Benzinkanister für den Booster (noch {fuel})."},
    "roll": {"en": "{who} rolls {die}: gear {gear} ({range}).", "de": "{who} würfelt {die}: Gang {gear} ({range})."},
    "booster_roll": {"en": "{who} rolls the booster die: {die}, gear {gear} ({range}).",
                     "de": "{who} würfelt mit dem Booster: {die}, Gang {gear} ({range})."},
    "misshift": {"en": "Gear {gear} of {who} does not work: mis-shift! No move, the lever goes back to green.",
                 "de": "Gang {gear} von {who} ist nicht funktionstüchtig: verschaltet! Kein Zug, der Hebel geht "
                       "zurück auf grün."},
    "stuck": {"en": "{who} cannot pull out and stays put.", "de": "{who} kommt nicht heraus und bleibt stehen."},
    "booster_lost": {"en": "The booster of {who} is wasted.", "de": "Der Booster von {who} verpufft."},
    "move": {"en": "{who} drives {cells}.", "de": "{who} fährt {cells}."},
    "squeeze": {"en": "A car blocks the exit: {who} pulls in at {cell}, the first free cell past it.",
                "de": "Ein Auto steht vor der Ausfahrt: {who} stellt sich auf {cell}, das erste freie Feld dahinter."},
    "lap": {"en": "{who} completes lap {lap} of {laps}.", "de": "{who} beendet Runde {lap} von {laps}."},
    "halt": {"en": "{who} halts at the stop sign and goes on next round.",
             "de": "{who} hält am Stoppschild und fährt nächste Runde weiter."},
    "park": {"en": "{who} parks at {spot} ({service}).", "de": "{who} parkt auf {spot} ({service})."},
    "take_none": {"en": "{who} gets nothing here: the reserve is empty.",
                  "de": "{who} bekommt hier nichts: der Vorrat ist leer."},
    "take": {"en": "{who} puts {a_item} on gear {gear}.", "de": "{who} setzt {a_item} auf Gang {gear}."},
    "spin": {"en": "{who} takes the {limit} curve at {cell} in {range} and spins!",
             "de": "{who} fährt die {limit}e Kurve bei {cell} auf {range} an und dreht sich!"},
    "loss_roll": {"en": "The damage die shows {die}: {a_item}.",
                  "de": "Der Schadenswürfel zeigt {die}: {a_item}."},
    "accident": {"en": "{who} is boxed in at {cell}: accident!", "de": "{who} ist bei {cell} eingekeilt: Unfall!"},
    "lose": {"en": "{who} loses {a_item} from gear {gear}.", "de": "{who} verliert {a_item} von Gang {gear}."},
    "lose_none": {"en": "{who} has {no_item} to lose.", "de": "{who} hat {no_item} zu verlieren."},
    "forced_park": {"en": "{who} is not roadworthy and is pushed onto {spot} for repairs.",
                    "de": "{who} ist nicht fahrbereit und wird zur Reparatur auf {spot} abgestellt."},
    "forced_stay": {"en": "{who} is not roadworthy and no spot is free: it waits where it is for repairs.",
                    "de": "{who} ist nicht fahrbereit und kein Parkplatz ist frei: es wartet zur Reparatur, wo es "
                          "steht."},
    "repair": {"en": "{who} repairs gear {gear} ({parts}).", "de": "{who} repariert Gang {gear} ({parts})."},
    "repair_wait": {"en": "{who} waits a round to repair gear 2 as well.",
                    "de": "{who} wartet eine Runde, um auch Gang 2 zu reparieren."},
    "repair_due": {"en": "{who} may now repair: roll to drive on, or `repair` to wait for gear 2.",
                   "de": "{who} darf jetzt reparieren: würfeln und weiterfahren oder `repair` und auf Gang 2 warten."},
    # refusals: what is wrong (the service adds what is possible now)
    "game_over": {"en": "The race is over: {who} won.", "de": "Das Rennen ist vorbei: {who} hat gewonnen."},
    "roll_first": {"en": "{who} must roll first.", "de": "{who} muss zuerst würfeln."},
    "no_such_place": {"en": "There is no {cell} on this track.", "de": "{cell} gibt es auf dieser Strecke nicht."},
    "cell_taken": {"en": "{cell} is taken by {other}: a move ends on a free cell.",
                   "de": "Auf {cell} steht {other}: ein Zug endet auf einem freien Feld."},
    "never_back": {"en": "{cell} is behind you: cars never drive back.",
                   "de": "{cell} liegt hinter dir: niemals zurück."},
    "no_repair": {"en": "Only a car pushed off for repairs may `repair`.",
                  "de": "Nur ein zur Reparatur abgestelltes Auto darf `repair`."},
    "repair_nothing": {"en": "Gear 2 works already: there is nothing to wait for.",
                       "de": "Gang 2 funktioniert schon: Warten lohnt nicht."},
    "no_fuel": {"en": "No fuel can on the car: the booster needs one.",
                "de": "Kein Benzinkanister im Auto: der Booster braucht einen."},
    "restart_green": {"en": "Starting off, the lever must be on green, not {range}.",
                      "de": "Beim Anfahren muss der Hebel auf grün stehen, nicht auf {range}."},
    "shift_one_up": {"en": "From {lever} the lever goes up one range at most, so not to {range}.",
                     "de": "Von {lever} aus geht der Hebel höchstens einen Bereich hoch, also nicht auf {range}."},
    "range_broken": {"en": "No gear works in {range}: the lever would fall back to green.",
                     "de": "In {range} ist kein Gang funktionstüchtig: der Hebel fiele auf grün."},
    "use_park": {"en": "{cell} is a parking spot: write `{example}`.",
                 "de": "{cell} ist ein Parkplatz: schreib `{example}`."},
    "not_a_spot": {"en": "{cell} is not a parking spot: write `move {cell}`.",
                   "de": "{cell} ist kein Parkplatz: schreib `move {cell}`."},
    "bad_placement": {"en": "At {spot} you cannot place {placed}. For example: {examples}.",
                      "de": "Auf {spot} kannst du {placed} nicht so platzieren. Zum Beispiel: {examples}."},
    "bad_path": {"en": "The path {path} is not a legal way to {cell}; one is {best}.",
                 "de": "Der Weg {path} führt so nicht nach {cell}; möglich ist {best}."},
    # setup
    "board_range": {"en": "the {range} range needs a working gear at the start (a mechanic, or a body and an "
                          "engine part)",
                    "de": "der Bereich {range} braucht zum Start einen funktionstüchtigen Gang (einen Mechaniker "
                          "oder ein Karosserie- und ein Motorteil)"},
    # pictures
    "p_wins": {"en": "{name} wins!", "de": "{name} gewinnt!"},
    "p_drive": {"en": "{name}: drive {points}", "de": "{name}: {points} fahren"},
    "p_drive_boost": {"en": "{name}: drive {points} (booster next)", "de": "{name}: {points} fahren (dann Booster)"},
    "p_repair": {"en": "{name}: repair or roll", "de": "{name}: reparieren oder würfeln"},
    "p_roll": {"en": "{name}: shift and roll", "de": "{name}: schalten und würfeln"},
    "p_order": {"en": "TURN ORDER", "de": "ZUGREIHENFOLGE"},
    "p_parking": {"en": "PARKING BAR", "de": "PARKLEISTE"},
    "p_lap": {"en": "lap {lap}/{laps} · stops {stops}", "de": "Runde {lap}/{laps} · Stopps {stops}"},
    "p_at": {"en": "at {place}", "de": "auf {place}"},
    "p_repair_note": {"en": "repair", "de": "Reparatur"},
    "p_green": {"en": "starts green", "de": "fährt grün an"},
    "p_parked": {"en": "parked", "de": "geparkt"},
    "p_board": {"en": "{name} · car board", "de": "{name} · Fahrzeugtableau"},
    "p_repair_due": {"en": "repair due", "de": "Reparatur fällig"},
    "p_repair_two": {"en": "may repair gear 2", "de": "darf Gang 2 reparieren"},
    "p_starts_green": {"en": "starts on green", "de": "fährt in Grün an"},
    "p_lever": {"en": "lever", "de": "Hebel"},
    "p_gear": {"en": "gear {gear}", "de": "Gang {gear}"},
    "p_fuel": {"en": "FUEL", "de": "BENZIN"},
    "p_counters": {"en": "COUNTERS", "de": "ZÄHLER"},
    "p_stops": {"en": "stops {value}", "de": "Stopps {value}"},
    "p_lap_counter": {"en": "lap {value}", "de": "Runde {value}"},
    "p_reserve": {"en": "RESERVE", "de": "VORRAT"},
    "p_range": {"en": "{range}", "de": "{range}"},
    # notation errors
    "n_not_text": {"en": "Notation must be text, not {kind}: " + _EXPECTED_EN + ".",
                   "de": "Eine Aktion ist Text, nicht {kind}: " + _EXPECTED_DE + "."},
    "n_empty": {"en": "Empty action: " + _EXPECTED_EN + ".", "de": "Leere Aktion: " + _EXPECTED_DE + "."},
    "n_unknown": {"en": "Unknown action {verb!r}: " + _EXPECTED_EN + ".",
                  "de": "Unbekannte Aktion {verb!r}: " + _EXPECTED_DE + "."},
    "n_roll_range": {"en": "`roll` needs the lever's range: `roll green`, `roll yellow` or `roll red`, and `boost` "
                           "after it to spend a fuel can on the booster.",
                     "de": "`roll` braucht den Bereich des Hebels: `roll green`, `roll yellow` oder `roll red`, und "
                           "`boost` dahinter, um einen Benzinkanister für den Booster zu opfern."},
    "n_move_cell": {"en": "`move` needs a cell after it, such as `move 14b`, `move pit` or `move stop`.",
                    "de": "`move` braucht ein Feld dahinter, etwa `move 14b`, `move pit` oder `move stop`."},
    "n_use_park": {"en": "To drive into a parking spot write `park <spot>`, such as `park F7.1`.",
                   "de": "Auf einen Parkplatz fährst du mit `park <Platz>`, etwa `park F7.1`."},
    "n_not_cell": {"en": "{cell!r} is not a cell: track cells are a row number and a lane a–c (`14b`); the pit "
                         "lane has `pit` (its waiting cell) and `stop`.",
                   "de": "{cell!r} ist kein Feld: Streckenfelder sind Reihe und Spur a–c (`14b`); die Boxengasse "
                         "hat `pit` (ihr Wartefeld) und `stop`."},
    "n_park_spot": {"en": "`park` needs a spot such as `park F7.1` or `park pit.2`, then what to place where (`e3`: "
                          "an engine part on gear 3; `m`, `b`, `e` with gears 1–6).",
                    "de": "`park` braucht einen Platz wie `park F7.1` oder `park pit.2`, dann was wohin kommt (`e3`: "
                          "ein Motorteil auf Gang 3; `m`, `b`, `e` mit Gang 1–6)."},
    "n_not_placement": {"en": "{word!r} is not a placement: write a letter and a gear, such as `e3` (m mechanic, b "
                              "body part, e engine part; gears 1–6).",
                        "de": "{word!r} ist keine Platzierung: Buchstabe und Gang, etwa `e3` (m Mechaniker, b "
                              "Karosserieteil, e Motorteil; Gänge 1–6)."},
    "n_repair_alone": {"en": "`repair` takes nothing after it.", "de": "Hinter `repair` steht nichts."},
    "n_one_action": {"en": "Shifting and rolling are one action: `roll {range}`.",
                     "de": "Schalten und Würfeln sind eine Aktion: `roll {range}`."},
    "n_no_pass": {"en": "There is no `pass`: a car always has a move, and a car that cannot use its roll stays "
                        "where it is by itself. A car forced to park may `repair` to wait a round.",
                  "de": "Es gibt kein `pass`: ein Auto hat immer einen Zug, und wer seinen Wurf nicht nutzen kann, "
                        "bleibt von selbst stehen. Ein abgestelltes Auto darf mit `repair` eine Runde warten."},
    "n_bad_range": {"en": "{range!r} is not a rev range: green, yellow or red.",
                    "de": "{range!r} ist kein Drehzahlbereich: green, yellow oder red."},
    "n_not_action": {"en": "Not a Schrottplatz Rally action: {action}.",
                     "de": "Keine Aktion von Schrottplatz Rally: {action}."},
}

#: texts that count something: per message id and language, the ``one`` and the ``other`` form
PLURALS: dict[str, dict[str, dict[str, str]]] = {
    "take_fuel": {"en": {"one": "{who} takes {count} {item}.", "other": "{who} takes {count} {item}."},
                  "de": {"one": "{who} nimmt {count} {item}.", "other": "{who} nimmt {count} {item}."}},
    "win": {"en": {"one": "{who} completes {laps} lap first and wins the rally!",
                   "other": "{who} completes {laps} laps first and wins the rally!"},
            "de": {"one": "{who} schafft als Erstes {laps} Runde und gewinnt die Rallye!",
                   "other": "{who} schafft als Erstes {laps} Runden und gewinnt die Rallye!"}},
    "move_first": {"en": {"one": "{who} has {points} cell to drive first.",
                          "other": "{who} has {points} cells to drive first."},
                   "de": {"one": "{who} muss erst {points} Feld fahren.",
                          "other": "{who} muss erst {points} Felder fahren."}},
    "must_move": {"en": {"one": "You must use your {points} point: standing still is not allowed.",
                         "other": "You must use your {points} points: standing still is not allowed."},
                  "de": {"one": "Du musst deinen {points} Punkt nutzen: Stehenbleiben gilt nicht.",
                         "other": "Du musst deine {points} Punkte nutzen: Stehenbleiben gilt nicht."}},
    "not_reachable": {
        "en": {"one": "{cell} cannot be reached with exactly {points} point (forward or sideways, at most two lane "
                      "changes, parking may brake).",
               "other": "{cell} cannot be reached with exactly {points} points (forward or sideways, at most two "
                        "lane changes, parking may brake)."},
        "de": {"one": "{cell} ist mit genau {points} Punkt nicht erreichbar (vorwärts oder seitwärts, höchstens "
                      "zwei Spurwechsel, nur zum Parken darf gebremst werden).",
               "other": "{cell} ist mit genau {points} Punkten nicht erreichbar (vorwärts oder seitwärts, "
                        "höchstens zwei Spurwechsel, nur zum Parken darf gebremst werden)."}},
    "board_count": {"en": {"one": "a car starts with {count} {item} on its board, not {have}",
                           "other": "a car starts with {count} {item} on its board, not {have}"},
                    "de": {"one": "ein Auto beginnt mit {count} {item} auf dem Tableau, nicht mit {have}",
                           "other": "ein Auto beginnt mit {count} {item} auf dem Tableau, nicht mit {have}"}},
    "p_header": {"en": {"one": "Round {round} · {laps} lap · {direction}",
                        "other": "Round {round} · {laps} laps · {direction}"},
                 "de": {"one": "Runde {round} · {laps} Runde · {direction}",
                        "other": "Runde {round} · {laps} Runden · {direction}"}},
    "p_gear_die": {"en": {"one": "die {faces} · {gear} cell", "other": "die {faces} · {gear} cells"},
                   "de": {"one": "Würfel {faces} · {gear} Feld", "other": "Würfel {faces} · {gear} Felder"}},
}
#: the parameter whose number chooses the form of each text in :data:`PLURALS`
COUNT_BY: dict[str, str] = {"take_fuel": "count", "win": "laps", "move_first": "points", "must_move": "points",
                            "not_reachable": "points", "board_count": "count", "p_header": "laps",
                            "p_gear_die": "gear"}
PLURAL_FORMS = ("one", "other")

_TRANSLATED = {"range", "limit", "lever", "service", "direction"}


def word(key: str, lang: str = "en") -> str:
    table = WORDS.get(lang, WORDS["en"])
    return table.get(key, WORDS["en"].get(key, key))


def message_ids() -> list[str]:
    """Every message id of the catalogue."""
    return sorted([*MESSAGES, *PLURALS])


def form(count: Any) -> str:
    """``one`` or ``other``: the form of a counted text for ``count`` (the same rule in English and German)."""
    return "one" if count == 1 else "other"


def template(msg: str, lang: str, count: Any = None) -> str:
    """The text of ``msg`` in ``lang``, in the form ``count`` asks for if it counts something."""
    if msg in PLURALS:
        return PLURALS[msg][lang][form(count)]
    return MESSAGES[msg][lang]


def amount(count: int, item: str, lang: str = "en") -> str:
    """``count`` of a supply in words, singular or plural: "1 fuel can", "2 body parts"."""
    return f"{count} {word(('item.' if form(count) == 'one' else 'items.') + item, lang)}"


def _who(car: str, name: Any, lang: str) -> str:
    colour = word(car, lang)
    return colour if str(name).lower() == car.lower() else f"{colour} ({name})"


def _seat_lists(values: dict[str, Any], lang: str) -> None:
    """``seats`` and ``names`` → ``cars`` ("Red (Ann) and Blue (Bob)") and ``ranking`` ("1. Red (Ann), …")."""
    names = list(values.get("names") or [])
    cars = [_who(COLOUR_KEYS[s], names[s] if s < len(names) else COLOUR_KEYS[s], lang) for s in values["seats"]]
    values["cars"] = cars[0] if len(cars) == 1 else ", ".join(cars[:-1]) + f" {word('and', lang)} {cars[-1]}"
    values["ranking"] = ", ".join(f"{i + 1}. {c}" for i, c in enumerate(cars))


def say(msg: str, lang: str = "en", **params: Any) -> str:
    """The text of message ``msg`` in ``lang`` (English if the language is unknown)."""
    lang = lang if lang in LANGS else "en"
    count = params.get(COUNT_BY[msg]) if msg in PLURALS else None
    text = template(msg, lang, count)
    values = dict(params)
    if "car" in values:
        values["who"] = _who(str(values["car"]), values.get("name", values["car"]), lang)
    if isinstance(values.get("seats"), list):
        _seat_lists(values, lang)
    if "other" in values:
        values["other"] = word(values["other"], lang)
    for key in _TRANSLATED:
        if key in values and isinstance(values[key], str) and not msg.startswith("n_"):
            values[key] = word(f"range.{values[key]}", lang) if f"range.{values[key]}" in WORDS[lang] \
                else word(values[key], lang)
    if "item" in values:
        item = values["item"]
        values["a_item"], values["no_item"] = word(f"a.{item}", lang), word(f"no.{item}", lang)
        values["item"] = word(f"{'items' if count is not None and form(count) == 'other' else 'item'}.{item}", lang)
    if isinstance(values.get("parts"), list):
        values["parts"] = " + ".join(word(f"item.{p}", lang) for p in values["parts"])
    return text.format(**values)
