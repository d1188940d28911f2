"""Seeded dice whose whole state is three plain values kept inside the game state.

The generator is PCG32 (O'Neill's permuted congruential generator, XSH-RR output): small, fast, well
tested, and its state is two integers, so a game's JSON carries its dice exactly. Tests may load the
next values with :meth:`Dice.load`; loaded values are used before the generator is touched.
"""

from __future__ import annotations

from collections.abc import Iterable, MutableSequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

_MULT = 6364136223846793005
_MASK64 = (1 << 64) - 1
_MASK32 = (1 << 32) - 1

T = TypeVar("T")


@dataclass(slots=True)
class Dice:
    state: int
    inc: int
    loaded: list[int] = field(default_factory=list)

    @classmethod
    def seeded(cls, seed: int, stream: int = 54) -> Dice:
        d = cls(0, ((stream << 1) | 1) & _MASK64)
        d._next32()
        d.state = (d.state + (seed & _MASK64)) & _MASK64
        d._next32()
        return d

    def _next32(self) -> int:
        old = self.state
        self.state = (old * _MULT + self.inc) & _MASK64
        xorshifted = (((old >> 18) ^ old) >> 27) & _MASK32
        rot = old >> 59
        return ((xorshifted >> rot) | (xorshifted << ((-rot) & 31))) & _MASK32

    def below(self, n: int) -> int:
        """A uniform integer in ``0 .. n-1`` from the generator (never from loaded dice)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        threshold = (-n & _MASK32) % n
        while True:
            x = self._next32()
            if x >= threshold:
                return x % n

    def roll(self, sides: int = 6) -> int:
        """One die, 1..sides; a loaded value is used first."""
        if self.loaded:
            value = self.loaded.pop(0)
            if not 1 <= value <= sides:
                raise ValueError(f"loaded die {value} is not between 1 and {sides}")
            return value
        return self.below(sides) + 1

    def rolls(self, count: int, sides: int = 6) -> list[int]:
        return [self.roll(sides) for _ in range(count)]

    def load(self, values: Iterable[int]) -> None:
        """Test hook: the next rolls return these values in order."""
        self.loaded.extend(int(v) for v in values)

    def choice_index(self, n: int) -> int:
        return self.below(n)

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"state": str(self.state), "inc": str(self.inc)}
        if self.loaded:
            out["loaded"] = list(self.loaded)
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Dice:
        # 64-bit integers travel as strings: JSON readers outside Python lose precision on them.
        return cls(int(d["state"]), int(d["inc"]), [int(v) for v in d.get("loaded", [])])

    def copy(self) -> Dice:
        return Dice(self.state, self.inc, list(self.loaded))
