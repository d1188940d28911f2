"""Listening to the pictures' descriptions: how long the busiest ones take to say, how fast, and whether a
machine hears back what was said.

For each game's busiest turn (an 8-seat race, a 6-car rally, a 4-player piecepack game, played by smart
computers; the position whose English description is longest, and the same position in German) the
description is spoken by espeak-ng into a WAV (voice ``en-us`` or ``de``), and the figures are its spoken
length (``listen_<game>_<lang>_s``), its pace in words a minute (``_wpm``) and what espeak reads badly in it
(``_flags``: fractions, compass letters, codes, symbols it skips or names, numbers that run together;
found in the text and checked against espeak's phonemes, ``espeak-ng -x``). The English WAV is transcribed
again by pocketsphinx (its US English model) with a small language model of the game's words, made from
the descriptions of another game of the same kind; ``_wer`` is the word error rate against the text as
spoken (numbers in words). No offline German model ships with any package we can install, so German has
no word error rate: its checks are the flags and the pace.

The tools are for this benchmark only, not the product's dependencies::

    apt-get install -y espeak-ng          # Debian's package
    pip install pocketsphinx              # PyPI; ships the US English model

``python -m bench listen`` prints the figures; ``python -m bench.listen`` also prints each description,
its flags with espeak's phonemes, and the transcript.
"""

from __future__ import annotations

import collections
import importlib
import itertools
import math
import re
import shutil
import subprocess
import sys
import tempfile
import warnings
import wave
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.registry import Figures, benchmark
from bot.texts import DEFAULT, LANGS

#: the languages heard: every language of the catalogues (espeak-ng names its voices by language code)
VOICES = {lang: "en-us" if lang == DEFAULT else lang for lang in LANGS}  # pocketsphinx's model is US English
#: the games, their seats and options; the seed of the game heard and of the one the words are learnt from
GAMES: dict[str, tuple[int, dict[str, Any]]] = {
    "races": (8, {"track": "A", "laps": 2}), "rally": (6, {}), "piecepack": (4, {})}
HEARD_SEED, LEARNT_SEED = 5, 11
MOVE_CAP = 1500
RATE = 16_000  # what the recogniser's model was trained on

_ONES = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
         "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen")
_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")

#: what espeak reads badly, found in the text: (name, pattern); a bracket or two numbers in a row is a
#: finding only when espeak makes no pause there (:data:`PAUSED`)
RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("fraction", re.compile(r"\d+\s*/\s*\d+")),
    ("compass letters", re.compile(r"\b(?:N|NE|E|SE|S|SW|W|NW|NO|O|SO)\b")),
    ("code", re.compile(r"\b[A-Z]{2}\b")),
    ("dot in a word", re.compile(r"\b[A-Za-z]+\.[A-Za-z0-9]+")),
    ("symbol", re.compile(r"[·•→←✓✗#*_|~^<>=+@&%`]")),
    ("parenthesis", re.compile(r"\w+\s*[()\[\]]\s*\w+")),
    ("numbers run together", re.compile(r"\d+[)\],]?\s+[(\[]?\d+")),
    ("abbreviation", re.compile(r"\b(?:e\.g|i\.e|etc|No|Nr|z\.B|bzw|ca)\.")),
)
PAUSED = {"parenthesis", "numbers run together"}


@dataclass(frozen=True)
class Heard:
    """One description spoken and heard back."""

    game: str
    lang: str
    text: str
    seconds: float
    words: int
    flags: tuple[str, ...]
    transcript: str | None  # None: no recogniser for the language
    wer: float | None

    @property
    def wpm(self) -> float:
        return self.words / self.seconds * 60 if self.seconds else 0.0


def number_words(n: int) -> str:
    """``n`` (below 1,000) in English words, as espeak says it."""
    if n < 20:
        return _ONES[n]
    if n < 100:
        return _TENS[n // 10] + ("" if n % 10 == 0 else " " + _ONES[n % 10])
    if n < 1000:
        return _ONES[n // 100] + " hundred" + ("" if n % 100 == 0 else " " + number_words(n % 100))
    return " ".join(_ONES[int(d)] for d in str(n))


def spoken_words(text: str, lang: str) -> list[str]:
    """The words of ``text`` as they are said: lower case, English numbers in words (``K9`` → ``k nine``),
    punctuation dropped; a German number counts as one word."""
    low = text.lower()
    if lang == "en":
        low = re.sub(r"\d+", lambda m: f" {number_words(int(m.group()))} ", low)
    else:
        low = re.sub(r"(\d+)", r" \1 ", low)
    return re.sub(r"[^\w' ]", " ", low).replace("_", " ").split()


def _espeak(lang: str, *args: str) -> str:
    done = subprocess.run(["espeak-ng", "-v", VOICES[lang], *args], check=True, capture_output=True, text=True)
    return done.stdout


def phonemes(text: str, lang: str) -> str:
    """What espeak-ng says for ``text``, in its phoneme mnemonics (``espeak-ng -q -x``)."""
    return " ".join(_espeak(lang, "-q", "-x", text).split())


def flags(text: str, lang: str) -> tuple[str, ...]:
    """What espeak reads badly in ``text``: each finding as ``name: "text" [phonemes]``, once each."""
    found: dict[str, str] = {}
    for name, pattern in RULES:
        for m in pattern.finditer(text):
            key = f"{name}: {m.group()!r}"
            if key in found:
                continue
            said = phonemes(m.group(), lang)
            if name not in PAUSED or "_:" not in said:
                found[key] = f"{key} [{said or 'silent'}]"
    return tuple(found.values())


def synthesize(text: str, lang: str, path: Path) -> float:
    """Speak ``text`` into the WAV ``path``; its length in seconds."""
    _espeak(lang, "-w", str(path), text)
    with wave.open(str(path)) as w:
        frames: int = w.getnframes()
        rate: int = w.getframerate()
    return frames / rate


def _samples_16k(path: Path) -> bytes:
    """The WAV's 16-bit mono samples at the recogniser's rate."""
    with wave.open(str(path)) as w:
        raw, rate, width = w.readframes(w.getnframes()), w.getframerate(), w.getsampwidth()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        import audioop

        return audioop.ratecv(raw, width, 1, rate, RATE, None)[0] if rate != RATE else raw


def language_model(texts: Sequence[str], known: Any, path: Path, discount: float = 0.5) -> None:
    """An ARPA bigram model of the sentences of ``texts`` (words the recogniser's dictionary ``known``
    has), with absolute discounting and add-one unigrams, written to ``path``."""
    uni: collections.Counter[str] = collections.Counter()
    bi: collections.Counter[tuple[str, str]] = collections.Counter()
    for text in texts:
        for sentence in re.split(r"[.!?:;]\s", text):
            words = ["<s>", *(w for w in spoken_words(sentence, "en") if known(w)), "</s>"]
            if len(words) > 2:
                uni.update(words)
                bi.update(itertools.pairwise(words))
    total = sum(uni.values()) + len(uni)
    p_uni = {w: (c + 1) / total for w, c in uni.items()}
    after: dict[str, list[tuple[str, int]]] = collections.defaultdict(list)
    for (v, w), c in bi.items():
        after[v].append((w, c))
    seen = {v: sum(c for _, c in ws) for v, ws in after.items()}
    backoff = {v: (discount * len(ws) / seen[v]) / max(1e-9, 1 - sum(p_uni[w] for w, _ in ws))
               for v, ws in after.items()}
    lines = ["\\data\\", f"ngram 1={len(uni)}", f"ngram 2={len(bi)}", "", "\\1-grams:"]
    lines += [f"{-99 if w == '<s>' else math.log10(p_uni[w]):.4f} {w} {math.log10(backoff.get(w, 1.0)):.4f}"
              for w in sorted(uni)]
    lines += ["", "\\2-grams:"]
    lines += [f"{math.log10((c - discount) / seen[v]):.4f} {v} {w}" for (v, w), c in sorted(bi.items())]
    path.write_text("\n".join([*lines, "", "\\end\\", ""]))


def word_error_rate(said: Sequence[str], heard: Sequence[str]) -> float:
    """(substitutions + deletions + insertions) / words said: the edit distance over words."""
    row = list(range(len(heard) + 1))
    for i, s in enumerate(said, 1):
        prev, row[0] = row[0], i
        for j, h in enumerate(heard, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (s != h))
    return row[-1] / max(1, len(said))


def transcribe(path: Path, model: Path) -> str:
    """What pocketsphinx hears in the WAV ``path`` with the language model ``model``."""
    sphinx: Any = importlib.import_module("pocketsphinx")
    sphinx.set_loglevel("FATAL")
    decoder = sphinx.Decoder(samprate=RATE, lm=str(model))
    decoder.start_utt()
    decoder.process_raw(_samples_16k(path), full_utt=True)
    decoder.end_utt()
    hyp = decoder.hyp()
    return str(hyp.hypstr) if hyp is not None else ""


def descriptions(game_key: str, seed: int) -> Iterator[tuple[Any, list[Any]]]:
    """Every position of a game played by smart computers, with the events its picture shows."""
    from bot.drivers import driver_for
    from bot.games import unit_for
    from rules.contract import Event

    seats, options = GAMES[game_key]
    unit = unit_for(game_key)
    game = unit.rules.create({"seats": [{"name": f"Player {i + 1}", "options": {}} for i in range(seats)],
                              "options": options}, seed=seed)
    drivers = {s: driver_for(game_key, "smart", seed + s) for s in range(seats)}
    while not game.is_over and game.ply < MOVE_CAP:
        seat = game.to_act
        assert seat is not None
        game.apply(drivers[seat].choose(game, seat))
        yield game, [Event.from_dict(e) for e in game.view(None)["events"]]


def busiest(game_key: str) -> tuple[dict[str, str], list[str]]:
    """The busiest turn's description in each language (the longest English one), and the English
    descriptions of another game of the same kind (to learn its words from)."""
    from bot.games import unit_for

    unit = unit_for(game_key)
    best: dict[str, str] = {"en": ""}
    for game, events in descriptions(game_key, HEARD_SEED):
        said = unit.alt_text(game, events, lang="en")
        if len(said) > len(best["en"]):
            best = {lang: unit.alt_text(game, events, lang=lang) for lang in VOICES}
    learnt = [unit.alt_text(game, events, lang="en") for game, events in descriptions(game_key, LEARNT_SEED)]
    return best, learnt


def listen(game_key: str, folder: Path) -> list[Heard]:
    """Speak the busiest turn of ``game_key`` in each language and hear it back (English)."""
    sphinx: Any = importlib.import_module("pocketsphinx")
    best, learnt = busiest(game_key)
    model = folder / f"{game_key}.arpa"
    known = sphinx.Decoder(samprate=RATE).lookup_word
    language_model(learnt, known, model)
    out = []
    for lang, text in best.items():
        wav = folder / f"{game_key}-{lang}.wav"
        seconds = synthesize(text, lang, wav)
        said = spoken_words(text, lang)
        heard = transcribe(wav, model) if lang == "en" else None
        wer = word_error_rate(said, heard.split()) if heard is not None else None
        out.append(Heard(game_key, lang, text, seconds, len(said), flags(text, lang), heard, wer))
    return out


def missing_tools() -> str | None:
    """What is not installed, with how to install it; None when both tools are there."""
    if shutil.which("espeak-ng") is None:
        return "espeak-ng is not installed (apt-get install -y espeak-ng)"
    try:
        importlib.import_module("pocketsphinx")
    except ImportError:
        return "pocketsphinx is not installed (pip install pocketsphinx)"
    return None


def heard_all(folder: Path) -> list[Heard]:
    missing = missing_tools()
    if missing:
        raise RuntimeError(missing)
    return [h for key in GAMES for h in listen(key, folder)]


@benchmark("listen")
def listen_figures() -> Figures:
    out: Figures = {}
    with tempfile.TemporaryDirectory() as tmp:
        for h in heard_all(Path(tmp)):
            name = f"listen_{h.game}_{h.lang}"
            out.update({f"{name}_chars": len(h.text), f"{name}_s": round(h.seconds, 1),
                        f"{name}_wpm": round(h.wpm), f"{name}_flags": len(h.flags)})
            out[f"{name}_wer"] = round(h.wer, 2) if h.wer is not None else "no offline German model"
    return out


def main(argv: Sequence[str]) -> int:
    """Print every description with its figures, flags and transcript; the WAVs go to ``argv[0]`` (a
    folder) when given."""
    folder = Path(argv[0]) if argv else Path(tempfile.mkdtemp(prefix="listen-"))
    folder.mkdir(parents=True, exist_ok=True)
    for h in heard_all(folder):
        wer = f"{h.wer:.0%}" if h.wer is not None else "n/a (no offline German model)"
        print(f"== {h.game} {h.lang}: {len(h.text)} chars, {h.seconds:.1f} s, {h.wpm:.0f} wpm, WER {wer}")
        print(h.text)
        for flag in h.flags:
            print("  flag", flag)
        if h.transcript is not None:
            print("  heard:", h.transcript)
        print()
    print(f"WAVs in {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
