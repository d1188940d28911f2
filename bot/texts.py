"""The service's own words in English and German: the few texts a player sees around a move (a refusal's
"Possible now", whose turn it is, a stale button), keyed by a stable message id with the same placeholders
in both languages. A game's own words come from its unit (which takes ``lang``).

:func:`say` words an id in a language; :func:`language` turns a Discord locale (or any locale text) into
``"de"`` or ``"en"``.
"""

from __future__ import annotations

from typing import Any

#: the languages a text may be asked for; English is the fallback
LANGS = ("en", "de")
DEFAULT = "en"

TEXTS: dict[str, dict[str, str]] = {
    "possible_now": {
        "en": "{reason}\nPossible now: {legal}",
        "de": "{reason}\nJetzt möglich: {legal}",
    },
    "you_can": {
        "en": "You can: {legal}",
        "de": "Du kannst: {legal}",
    },
    "not_your_turn": {
        "en": "It is not your turn: {who} is to act.",
        "de": "Du bist nicht am Zug: {who} ist dran.",
    },
    "no_seat": {
        "en": "You have no seat in this game. Players: {seats}.",
        "de": "Du hast keinen Platz in diesem Spiel. Am Tisch: {seats}.",
    },
    "not_started": {
        "en": "The game hasn't started yet. Seats: {seats}. The host starts it with `/game start`.",
        "de": "Das Spiel hat noch nicht begonnen. Am Tisch: {seats}. Wer es eröffnet hat, startet es mit "
              "`/game start`.",
    },
    "stale_button": {
        "en": "That button is from move {old}; the game is at move {now} now. Use the newest message or "
              "`/game status`.",
        "de": "Dieser Knopf stammt von Zug {old}; das Spiel ist jetzt bei Zug {now}. Nimm die neueste Nachricht "
              "oder `/game status`.",
    },
    "computer_to_move": {
        "en": "{who} is still to move; its moves follow in a moment.",
        "de": "{who} ist noch am Zug; seine Züge folgen gleich.",
    },
    "apply_failed": {
        "en": "Something went wrong applying that move; nothing changed. Try `/game status`.",
        "de": "Beim Ausführen dieses Zugs ging etwas schief; nichts wurde geändert. Versuch `/game status`.",
    },
    "played": {
        "en": "**{name}** played `{action}`.",
        "de": "**{name}** spielte `{action}`.",
    },
    "computer_played": {
        "en": "{name} played `{action}`.",
        "de": "{name} spielte `{action}`.",
    },
    "refused": {
        "en": "{reason} Nothing was changed.",
        "de": "{reason} Es wurde nichts geändert.",
    },
    "nothing_hidden": {
        "en": "Nothing is hidden in this game.",
        "de": "In diesem Spiel ist nichts verdeckt.",
    },
    "edited": {
        "en": "Done: the turn's message in the channel shows it.",
        "de": "Erledigt: Die Nachricht dieses Zugs im Kanal zeigt es.",
    },
    "begins": {
        "en": "**{title}** begins! Seats: {seats}.",
        "de": "**{title}** beginnt! Am Tisch: {seats}.",
    },
    "your_turn": {
        "en": "<@{user}>, your turn.",
        "de": "<@{user}>, du bist dran.",
    },
    "last_game": {
        "en": "(last game, {status})",
        "de": "(letztes Spiel, {status})",
    },
    "status_finished": {"en": "finished", "de": "beendet"},
    "status_aborted": {"en": "aborted", "de": "abgebrochen"},
    "reach": {
        "en": "Where can I go?",
        "de": "Wohin kann ich?",
    },
}


def language(locale: object) -> str:
    """``"de"`` for a German locale (``de``, ``de-AT``…; a ``discord.Locale`` or text), else ``"en"``."""
    value = str(getattr(locale, "value", locale) or "").lower().replace("_", "-")
    return "de" if value == "de" or value.startswith("de-") else DEFAULT


def status_word(status: str, lang: str = DEFAULT) -> str:
    """A game's status (``finished``, ``aborted``) in ``lang``; an unknown one as it is."""
    msg = f"status_{status}"
    return say(msg, lang) if msg in TEXTS else status


def say(msg: str, lang: str = DEFAULT, **params: Any) -> str:
    """Message ``msg`` in ``lang`` (English when that language has none) with its placeholders filled."""
    texts = TEXTS[msg]
    return texts.get(lang, texts[DEFAULT]).format(**params)


__all__ = ["DEFAULT", "LANGS", "TEXTS", "language", "say", "status_word"]
