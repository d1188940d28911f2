"""Lookup texts are in our own words: no run of words is copied from a rulebook.

The same shingle check as the project's rulebook overlap tool, but over each whole entry (a copied
sentence can't hide behind a line break) and stricter: no run of 8 words may be shared, keeping
the shared wording well under the tool's 10.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from rules.lookup import GAME_PACKAGES, LANGS, entries, phrasings_of

RUN = 8
WORD = re.compile(r"[A-Za-zÄÖÜäöüß0-9']+")  # the overlap tool's notion of a word
REPO = Path(__file__).resolve().parents[2]


#: Where the rulebooks are when $JUNKYARD_RULEBOOKS is not set: ``shared/rulebooks`` beside the checkout
#: (a developer's ``main`` and ``shared`` side by side; CI clones the repository next to a copy of shared/).
BESIDE = REPO.parent / "shared" / "rulebooks"


def rulebook_dir() -> Path | None:
    """The rulebooks: $JUNKYARD_RULEBOOKS, else the shared folder beside the checkout."""
    for candidate in (os.environ.get("JUNKYARD_RULEBOOKS"), BESIDE):
        if candidate and Path(candidate).is_dir() and any(Path(candidate).glob("*.txt")):
            return Path(candidate)
    return None


def words(text: str) -> list[str]:
    return [w.lower() for w in WORD.findall(text)]


def shingles(ws: list[str], n: int) -> set[tuple[str, ...]]:
    return {tuple(ws[i:i + n]) for i in range(len(ws) - n + 1)}


@pytest.fixture(scope="module")
def book() -> set[tuple[str, ...]]:
    folder = rulebook_dir()
    if folder is None:
        if os.environ.get("CI"):
            pytest.fail(f"CI must check the lookup texts: no rulebooks at {BESIDE} and JUNKYARD_RULEBOOKS unset")
        pytest.skip("rulebook texts not available (set JUNKYARD_RULEBOOKS)")
    runs: set[tuple[str, ...]] = set()
    for f in sorted(folder.glob("*.txt")):
        runs |= shingles(words(f.read_text(encoding="utf-8", errors="replace")), RUN)
    return runs


def test_the_check_catches_a_copied_sentence(book):
    """A run lifted from a rulebook is caught (taken at run time, so the sample isn't stored here)."""
    folder = rulebook_dir()
    assert folder is not None
    text = (folder / "junkyard-races.en.txt").read_text(encoding="utf-8")
    lifted = " ".join(words(text)[500:512]).capitalize() + "."
    assert shingles(words(lifted), RUN) & book
    assert not shingles(words("Use every pip of your roll whenever some legal route allows it."), RUN) & book


@pytest.mark.parametrize("game", sorted(GAME_PACKAGES))
def test_no_entry_repeats_a_rulebook_run(book, game):
    copied = {}
    for e in entries(game):
        for field in (e.title, " ".join(e.aliases), e.text):
            shared = shingles(words(field), RUN) & book
            if shared:
                copied[e.id] = sorted(" ".join(run) for run in shared)
    assert not copied, f"entries repeat rulebook wording; rewrite them in our own words: {copied}"


@pytest.mark.parametrize("game", sorted(GAME_PACKAGES))
def test_no_phrasing_repeats_a_rulebook_run(book, game):
    """Players' phrasings (``phrasings-<lang>.toml``) are ours too: none shares a run of words with a rulebook."""
    copied = [text for lang in LANGS for texts in phrasings_of(game, lang).values() for text in texts
              if shingles(words(text), RUN) & book]
    assert not copied


@pytest.mark.parametrize("game", sorted(GAME_PACKAGES))
def test_no_line_of_the_lookup_file_repeats_ten_rulebook_words(book, game):
    """What the overlap tool checks (lines, 10 words), also for comments and facts in the file."""
    package = GAME_PACKAGES[game].replace(".", "/")
    path = REPO / package / "data" / "lookup.toml"
    ten: set[tuple[str, ...]] = set()
    folder = rulebook_dir()
    assert folder is not None
    for f in sorted(folder.glob("*.txt")):
        ten |= shingles(words(f.read_text(encoding="utf-8", errors="replace")), 10)
    bad = [line for line in path.read_text(encoding="utf-8").splitlines() if shingles(words(line), 10) & ten]
    assert not bad


def test_without_the_variable_the_rulebooks_beside_the_checkout_are_used(monkeypatch, tmp_path):
    monkeypatch.delenv("JUNKYARD_RULEBOOKS", raising=False)
    assert rulebook_dir() == (BESIDE if BESIDE.is_dir() and any(BESIDE.glob("*.txt")) else None)
    (tmp_path / "book.txt").write_text("words", encoding="utf-8")
    monkeypatch.setenv("JUNKYARD_RULEBOOKS", str(tmp_path))
    assert rulebook_dir() == tmp_path
    monkeypatch.setenv("JUNKYARD_RULEBOOKS", str(tmp_path / "missing"))
    assert rulebook_dir() == (BESIDE if BESIDE.is_dir() and any(BESIDE.glob("*.txt")) else None)
