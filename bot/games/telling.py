"""What the games' accounts of a turn share: an account's sentences up to a weight, and a picture's description
that says less about what matters less until it fits, never leaving out a move.

Each game's account (``bot/games/<game>/account.py``) weighs what it tells, from its moves (weight 0, always
told) to the rest (its highest weight); these helpers know nothing of any game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Protocol, TypeVar

from bot.games.unit import ALT_TEXT_CHARS, fitted


class Weighed(Protocol):
    """A sentence of an account: how much it matters (0: a move, never left out)."""

    @property
    def weight(self) -> int: ...


class Seated(Weighed, Protocol):
    """A sentence of an account that may name the seat whose piece it tells of (None: no seat's)."""

    @property
    def seat(self) -> int | None: ...


T = TypeVar("T", bound=Weighed)
S = TypeVar("S", bound=Seated)


def sentences(told: Iterable[T], word: Callable[[T], str], most: int) -> list[str]:
    """The sentences of weight ``most`` or less, in order, each worded by ``word`` and ending with a stop; a
    sentence repeated at once is said once."""
    out: list[str] = []
    for t in told:
        if t.weight > most:
            continue
        line = word(t).strip()
        if line and (not out or out[-1] != line):
            out.append(line if line[-1] in ".!?…:" else f"{line}.")
    return out


def lines(told: Iterable[S], word: Callable[[S], str]) -> list[str]:
    """The chat's lines of an account: every sentence, each worded by ``word``, one line for each run of
    sentences of the same seat (a sentence of no seat's on a line of its own), each sentence of a line of several
    ending with a stop; a sentence repeated at once is said once."""
    out: list[tuple[int | None, list[str]]] = []
    for t in told:
        line = word(t).strip()
        if not line or (out and out[-1][1][-1] == line):
            continue
        if out and t.seat is not None and out[-1][0] == t.seat:
            out[-1][1].append(line)
        else:
            out.append((t.seat, [line]))
    return [" ".join(w if w[-1] in ".!?…:" else f"{w}." for w in words) if len(words) > 1 else words[0]
            for _, words in out]


def described(head: str, told: Callable[[int], str], status: Sequence[str], weights: Sequence[int],
              limit: int = ALT_TEXT_CHARS) -> str:
    """A description: ``head``, what ``told(most)`` says of the turn, then ``status``; when that runs past
    ``limit``, the turn is told again up to each of ``weights`` in turn (from all of it down to its moves, "…"
    saying something was left out), and a description still too long gives up the last of ``status`` (the
    standings) sentence by sentence."""
    said = ""
    for most in weights:
        said = told(most)
        if most != weights[0] and said:
            said = f"{said} …"
        text = " ".join(p for p in (head, said, *status) if p)
        if len(text) <= limit:
            return text
    return fitted([head, said, *status], limit, cut=1 + len(status))


__all__ = ["Seated", "Weighed", "described", "lines", "sentences"]
