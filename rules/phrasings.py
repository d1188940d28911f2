"""How players ask: a nearest-phrasings model for the rule lookup.

Each game keeps, beside its entries, a bank of questions per language (``data/phrasings-<lang>.toml``: an
entry's id -> questions whose answer is that entry), written the way players type them. A question is
compared with every phrasing of its language by the cosine of their feature vectors: word stems, their
synonyms, neighbouring stems and the letter groups of each word (so a typo or a German compound still
shares most of its features). An entry's score is what its nearest phrasings and the centre of all of them
say; :mod:`rules.lookup` weighs it beside its own reading of the entries' texts.

Filler words count too ("where", "get", "wann"): they say what is asked about a topic. The module is pure and
knows nothing of languages: :mod:`rules.lookup` passes the language's words, fillers, stemmer and synonyms.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from itertools import pairwise

Vector = dict[str, float]

#: how much each kind of feature counts against a word stem
FILLER_SHARE = 1.5
SYNONYM_SHARE = 0.5
PAIR_SHARE = 0.6
LETTERS_SHARE = 0.5
#: the lengths of the letter groups of a word ("#glue#": "#gl", "glu", ..., "#glu", ...)
GRAM_SIZES = (3, 4, 5)
#: how the nearest phrasings of an entry count: the nearest, the second, the third
NEAREST = (1.0, 0.5, 0.25)
#: the share of the nearest phrasings in an entry's score; the rest is its centre's
NEAREST_SHARE = 0.6
#: features in more than this share of the phrasings (and more than COMMON_ROWS of them) are left out of the
#: search for the nearest ones (their weight is small and their lists long); they still count towards the centres
COMMON = 0.3
COMMON_ROWS = 100


def _grams(word: str) -> list[str]:
    padded = f"#{word}#"
    return [padded[i:i + n] for n in GRAM_SIZES for i in range(len(padded) - n + 1)]


@dataclass(frozen=True)
class Reader:
    """Turns a text into raw features: ``words`` gives its topic words (folded, fillers dropped), ``stem``
    cuts one to its stem, ``synonyms`` maps a stem to the stems that mean the same, ``fillers`` gives the
    words ``words`` drops ("where", "get": they say what is asked about a topic, not which)."""

    words: Callable[[str], list[str]]
    stem: Callable[[str], str]
    synonyms: Mapping[str, frozenset[str]]
    fillers: Callable[[str], list[str]] = lambda text: []

    def features(self, text: str) -> Vector:
        """The raw weights of a text's features: ``w:`` stems and their synonyms, ``p:`` stem pairs in order,
        ``c:`` letter groups (each word's groups share one word's weight), ``f:`` filler words."""
        out: Vector = {}

        def add(key: str, weight: float) -> None:
            out[key] = out.get(key, 0.0) + weight

        words = self.words(text)
        stems = [self.stem(w) for w in words]
        for s in stems:
            add("w:" + s, 1.0)
            for other in self.synonyms.get(s, ()):
                add("w:" + other, SYNONYM_SHARE)
        for a, b in pairwise(stems):
            add(f"p:{a} {b}", PAIR_SHARE)
        for w in self.fillers(text):
            add("f:" + w, FILLER_SHARE)
        for w in words:
            grams = _grams(w)
            for g in grams:
                add("c:" + g, LETTERS_SHARE / math.sqrt(len(grams)))
        return out


def _unit(vector: Vector) -> Vector:
    norm = math.sqrt(sum(v * v for v in vector.values()))
    return {k: v / norm for k, v in vector.items()} if norm else {}


class Model:
    """The phrasings of one game's entries in one language, ready to compare questions with."""

    def __init__(self, reader: Reader, examples: Iterable[tuple[str, str]]) -> None:
        """``examples``: (entry id, phrasing) pairs; an entry's names may be among them."""
        self.reader = reader
        raw = [(entry, reader.features(text)) for entry, text in examples]
        df: dict[str, int] = {}
        for _, features in raw:
            for key in features:
                df[key] = df.get(key, 0) + 1
        n = len(raw)
        self.idf = {key: math.log((n + 1) / (count + 0.5)) for key, count in df.items()}
        self.entries: list[str] = []
        self.vectors: list[Vector] = []
        postings: dict[str, list[tuple[int, float]]] = {}
        sums: dict[str, Vector] = {}
        for entry, features in raw:
            vector = self._weigh(features)
            if not vector:
                continue
            row = len(self.vectors)
            self.entries.append(entry)
            self.vectors.append(vector)
            for key, value in vector.items():
                postings.setdefault(key, []).append((row, value))
            total = sums.setdefault(entry, {})
            for key, value in vector.items():
                total[key] = total.get(key, 0.0) + value
        self.postings = postings
        crowded = max(COMMON * len(self.vectors), COMMON_ROWS)
        self.common = frozenset(key for key, rows in postings.items() if len(rows) > crowded)
        self.centres = {entry: _unit(total) for entry, total in sums.items()}

    def _weigh(self, features: Vector) -> Vector:
        return _unit({k: (1 + math.log(v) if v >= 1 else v) * self.idf[k]
                      for k, v in features.items() if k in self.idf})

    def scores(self, text: str) -> dict[str, float]:
        """Each entry's likeness to the question, from 0 to 1: its nearest phrasings' and its centre's cosine;
        nothing when no word of the question is a word of a phrasing."""
        question = self._weigh(self.reader.features(text))
        if not any(key.startswith("w:") for key in question):
            return {}  # letter groups alone ("gl") are no question: they only lean a known word's way
        near: dict[int, float] = {}
        for key, value in question.items():
            if key in self.common:
                continue
            for row, weight in self.postings.get(key, ()):
                near[row] = near.get(row, 0.0) + value * weight
        best: dict[str, list[float]] = {}
        for row, similarity in near.items():
            best.setdefault(self.entries[row], []).append(similarity)
        out = {}
        total = sum(NEAREST)
        for entry, found in best.items():
            found.sort(reverse=True)
            nearest = sum(w * s for w, s in zip(NEAREST, found, strict=False)) / total
            centre = sum(value * self.centres[entry].get(key, 0.0) for key, value in question.items())
            out[entry] = NEAREST_SHARE * nearest + (1 - NEAREST_SHARE) * centre
        return out
