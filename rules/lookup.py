"""Rule lookup: short entries in our own words for every rule, tile, part, crew member and ruling.

Each game keeps its entries in ``rules/<package>/data/lookup.toml`` (a TOML array of ``[[entry]]``
tables). This module loads them and answers the ``/rules`` command: :func:`find` for an exact name,
:func:`suggest` for autocomplete. It is pure: no discord, no I/O beyond reading package data.
"""

from __future__ import annotations

import difflib
import re
import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

#: Game key -> package whose ``data/lookup.toml`` holds the entries.
GAME_PACKAGES: dict[str, str] = {
    "races": "rules.races",
    "piecepack": "rules.piecepack",
}

#: Kinds of entry, in the order an empty query lists them.
KINDS: tuple[str, ...] = ("howto", "section", "tile", "part", "crew", "ruling")

#: How each kind is named to players (for a footer or a heading).
KIND_LABELS: dict[str, str] = {
    "howto": "How to",
    "section": "Rule",
    "tile": "Junk tile",
    "part": "Part card",
    "crew": "Race-Kart Crew",
    "ruling": "House ruling",
}

#: A Discord embed description holds 4096 characters; we keep entries far shorter.
MAX_TEXT = 1800

LOOKUP_FILE = ("data", "lookup.toml")
#: Least difflib ratio for a name to count as a misspelling of the query.
SIMILAR = 0.72
_NON_WORD = re.compile(r"[^0-9a-z]+")


@dataclass(frozen=True)
class RuleEntry:
    """One lookup entry: what players type (title, aliases) and what the bot answers (text)."""

    game: str
    id: str
    title: str
    kind: str
    text: str
    aliases: tuple[str, ...] = ()
    see: tuple[str, ...] = ()
    #: Structured data for entries that carry numbers (part costs, crew starting sets).
    facts: dict[str, Any] = field(default_factory=dict, hash=False)

    @property
    def names(self) -> tuple[str, ...]:
        """Everything a player may type to get this entry exactly: title, aliases, id."""
        return (self.title, *self.aliases, self.id)


def normalize(text: str) -> str:
    """Lower case, punctuation to spaces, single spaces: "Phase 3: Roll" -> "phase 3 roll"."""
    return _NON_WORD.sub(" ", text.lower()).strip()


def _resource(game_key: str):
    """The lookup file of a game, found through the top-level ``rules`` package.

    Resolving from ``rules`` keeps lookups working without importing the game's own package.
    """
    try:
        package = GAME_PACKAGES[game_key]
    except KeyError:
        raise KeyError(f"unknown game {game_key!r}: choose one of {', '.join(sorted(GAME_PACKAGES))}") from None
    top, *rest = package.split(".")
    return resources.files(top).joinpath(*rest, *LOOKUP_FILE)


def _entry(game_key: str, raw: dict[str, Any], where: str) -> RuleEntry:
    missing = [k for k in ("id", "title", "kind", "text") if not raw.get(k)]
    if missing:
        raise ValueError(f"{where}: entry {raw.get('id', '?')!r} lacks {', '.join(missing)}")
    if raw["kind"] not in KINDS:
        raise ValueError(f"{where}: entry {raw['id']!r} has kind {raw['kind']!r}; expected one of {', '.join(KINDS)}")
    unknown = set(raw) - {"id", "title", "kind", "text", "aliases", "see", "facts"}
    if unknown:
        raise ValueError(f"{where}: entry {raw['id']!r} has unknown keys {', '.join(sorted(unknown))}")
    return RuleEntry(
        game=game_key,
        id=raw["id"],
        title=raw["title"],
        kind=raw["kind"],
        text=raw["text"].strip(),
        aliases=tuple(raw.get("aliases", ())),
        see=tuple(raw.get("see", ())),
        facts=dict(raw.get("facts", {})),
    )


@cache
def _load(game_key: str) -> tuple[RuleEntry, ...]:
    res = _resource(game_key)
    data = tomllib.loads(res.read_text(encoding="utf-8"))
    where = f"{GAME_PACKAGES[game_key]}/{'/'.join(LOOKUP_FILE)}"
    return tuple(_entry(game_key, raw, where) for raw in data.get("entry", []))


def all_games() -> list[str]:
    """Game keys that have lookup data, the flagship first (the order of GAME_PACKAGES)."""
    return [key for key in GAME_PACKAGES if _resource(key).is_file()]


def entries(game_key: str) -> list[RuleEntry]:
    """All entries of a game, in file order."""
    return list(_load(game_key))


@cache
def _index(game_key: str) -> dict[str, RuleEntry]:
    index: dict[str, RuleEntry] = {}
    for entry in _load(game_key):
        for name in entry.names:
            index.setdefault(normalize(name), entry)
    return index


def find(game_key: str, text: str) -> RuleEntry | None:
    """The entry whose title, alias or id is ``text`` (case and punctuation ignored), or None."""
    return _index(game_key).get(normalize(text))


def related(game_key: str, entry: RuleEntry) -> list[RuleEntry]:
    """The entries ``entry.see`` names, in its order (for a "See also" line)."""
    by_id = {e.id: e for e in _load(game_key)}
    return [by_id[ref] for ref in entry.see if ref in by_id]


def _kind_order(entry: RuleEntry) -> int:
    return KINDS.index(entry.kind)


@dataclass(frozen=True)
class _Names:
    """An entry's names and text words, normalized once for searching."""

    entry: RuleEntry
    title: str
    aliases: tuple[str, ...]
    id: str
    text_words: frozenset[str]
    #: names and their words of three letters or more: what a misspelling is compared with
    spellings: tuple[str, ...]

    @property
    def keys(self) -> tuple[str, ...]:
        return (self.title, *self.aliases)


def _names(entry: RuleEntry) -> _Names:
    title = normalize(entry.title)
    aliases = tuple(normalize(a) for a in entry.aliases)
    keys = (title, *aliases)
    words = {w for key in keys for w in key.split() if len(w) >= 3} - set(keys)
    return _Names(entry, title, aliases, normalize(entry.id), frozenset(normalize(entry.text).split()),
                  (*keys, *sorted(words)))


@cache
def _search_index(game_key: str) -> tuple[_Names, ...]:
    return tuple(_names(e) for e in _load(game_key))


def _covers(names: tuple[str, ...], words: list[str]) -> bool:
    """True when every typed word starts some word of these names."""
    name_words = [w for name in names for w in name.split()]
    return all(any(nw.startswith(w) for nw in name_words) for w in words)


def _similarity(query: str, candidates: tuple[str, ...]) -> float:
    """The best difflib ratio between the query and a name or one of its longer words."""
    matcher = difflib.SequenceMatcher(None, "", query)  # difflib caches facts about the second sequence
    best = 0.0
    for candidate in candidates:
        matcher.set_seq1(candidate)
        if matcher.real_quick_ratio() >= SIMILAR and matcher.quick_ratio() >= SIMILAR:
            best = max(best, matcher.ratio())
    return best


def _rank(names: _Names, query: str, words: list[str]) -> tuple[int, float] | None:
    """(tier, -score) for a matching entry, lower is better; None when it does not match at all."""
    if query in names.keys or query == names.id:
        return 0, 0.0
    if names.title.startswith(query):
        return 1, 0.0
    if _covers((names.title,), words):
        return 2, 0.0
    if any(alias.startswith(query) for alias in names.aliases) or _covers(names.aliases, words):
        return 3, 0.0
    if any(query in key for key in names.keys):
        return 4, 0.0
    best = _similarity(query, names.spellings)
    if best >= SIMILAR:
        return 5, -best
    text = names.text_words
    if all(w in text or (len(w) >= 4 and any(t.startswith(w) for t in text)) for w in words):
        return 6, 0.0
    return None


def suggest(game_key: str, text: str, limit: int = 25) -> list[RuleEntry]:
    """Entries that fit what a player has typed so far, best first, at most ``limit``.

    Whole names first, then titles that start with the text, titles whose words start with each typed
    word, the same for aliases, names containing the text, close spellings, and last entries whose text
    mentions every typed word.
    Empty text lists the how-to entries, then the sections, tiles, parts, crew and rulings.
    """
    all_entries = _load(game_key)
    limit = max(0, min(limit, 25))
    query = normalize(text)
    if not query:
        order = {e.id: i for i, e in enumerate(all_entries)}
        return sorted(all_entries, key=lambda e: (_kind_order(e), order[e.id]))[:limit]
    words = query.split()
    ranked = []
    for position, names in enumerate(_search_index(game_key)):
        rank = _rank(names, query, words)
        if rank is not None:
            ranked.append((rank, _kind_order(names.entry), position, names.entry))
    ranked.sort(key=lambda item: item[:3])
    return [item[3] for item in ranked[:limit]]
