"""What every game promises at every moment, checked from outside: the game contract's invariants.

Each function returns the problems it finds as sentences (an empty list when all is well), so a
property test can assert the list is empty and a long soak can print what went wrong with its seed.
A game's own invariants (``rules.<game>.invariants``) add their facts to :func:`contract_problems`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from rules.contract import Game, IllegalAction


def contract_problems(game: Game) -> list[str]:
    """Someone is to act exactly while the game runs and has a legal action; the state survives JSON."""
    problems: list[str] = []
    if game.is_over:
        if game.to_act is not None:
            problems.append(f"the game is over but seat {game.to_act} is to act")
        if game.legal_actions():
            problems.append("the game is over but actions are still listed as legal")
        if not game.winners:
            problems.append("the game is over without a winner")
    else:
        if game.to_act is None:
            problems.append("nobody is to act but the game is not over")
        elif not game.legal_actions():
            problems.append(f"seat {game.to_act} is to act but has no legal action")
        if game.winners:
            problems.append(f"the game runs but names winners {game.winners}")
    data = game.to_dict()
    again = type(game).from_dict(json.loads(json.dumps(data)))
    if again.to_dict() != data:
        problems.append("the state does not survive a round trip through JSON")
    return problems


def event_leaks(view: dict[str, Any], viewer: int | None) -> list[str]:
    """Events in ``view`` that show ``viewer`` another seat's secret narration or private event."""
    who = "the public" if viewer is None else f"seat {viewer}"
    out: list[str] = []
    for event in view.get("events", []):
        if event.get("seat") == viewer and viewer is not None:
            continue
        if "secret" in event:
            out.append(f"{who} reads another seat's secret: {event}")
        if event.get("private"):
            out.append(f"{who} sees another seat's private event: {event}")
    return out


def refusal_problems(game: Game, text: str) -> tuple[bool, list[str]]:
    """Apply ``text``, which may well be illegal: (whether the game took it, what went wrong).

    A refused action must raise :class:`IllegalAction` and leave the state exactly as it was."""
    before = game.to_dict()
    try:
        game.apply(text)
    except IllegalAction:
        if game.to_dict() != before:
            return False, [f"the refused action {text!r} changed the game"]
        return False, []
    except Exception as exc:  # anything but IllegalAction is a fault to report
        return False, [f"the action {text!r} raised {exc!r} instead of IllegalAction"]
    return True, []


def replay_problems(game: Game, setup: dict[str, Any], seed: int, log: Sequence[str]) -> list[str]:
    """A new game from ``setup`` and ``seed`` that plays ``log`` must reach exactly ``game``'s state, and so
    must one loaded from its JSON before every action, as a stored game is played from its snapshot."""
    problems: list[str] = []
    for stored in (False, True):
        replay = type(game).create(setup, seed)
        how = "loaded from its snapshot before every action" if stored else "played straight through"
        try:
            for text in log:
                if stored:
                    replay = type(game).from_dict(json.loads(json.dumps(replay.to_dict())))
                replay.apply(text)
        except IllegalAction as exc:
            problems.append(f"the replay ({how}) refused {text!r}: {exc}")
            continue
        if replay.to_dict() != game.to_dict():
            problems.append(f"the replay of the action log ({how}) does not reproduce the final state")
    return problems
