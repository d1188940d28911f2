"""Rule lookup: short entries in our own words for every rule, tile, part, crew member and ruling.

Each game keeps its entries in ``rules/<package>/data/lookup.toml`` (a TOML array of ``[[entry]]``
tables). This module loads them and answers the ``/rules`` command and ``junkyard rules``: :func:`find`
for an exact name, :func:`search` and :func:`answer` for a question in plain words, :func:`suggest` for
autocomplete (the same ranking, with the last word taken as unfinished). It is pure: no discord, no I/O
beyond reading package data.

Entries are written in English or German (``lang``). A question is answered from the entries of the
asker's language, with that language's filler words, stemmer and synonyms; a game with no entries in that
language answers from its English ones (or from whatever it has), and a question the asker's entries
cannot answer is tried on the other language's entries, each found entry replaced by its twin in the
asker's language where it has one (``curves`` ↔ ``curves-de``). An entry whose ``lang`` differs from the
asked language is such a fallback: front ends say so.

A question is ranked twice and the two are weighed together (:data:`LEARNED_SHARE`): by reading the entries'
own words (titles, aliases, texts, with the language's stems, synonyms, typos and intents) and by the
phrasings model (:mod:`rules.phrasings`), which compares it with how players ask for each entry (the game's
``data/phrasings-<lang>.toml``, the entries' names and sentences, and the question sets' questions outside their
blind part). An exact name and autocomplete are the first reading's alone.
"""

from __future__ import annotations

import difflib
import math
import re
import tomllib
import unicodedata
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from itertools import pairwise
from typing import Any

import snowballstemmer  # type: ignore[import-untyped]

from rules import catalogue, lookup_questions, phrasings, registry


class _RegisteredPackages(Mapping[str, str]):
    """Game key -> package holding its entries, as the list of games registered them in
    :mod:`rules.registry` (the flagship first); read at each use, so a game registered later is seen."""

    def __getitem__(self, key: str) -> str:
        return registry.lookup_sources()[key][0]

    def __iter__(self) -> Iterator[str]:
        return iter(registry.lookup_sources())

    def __len__(self) -> int:
        return len(registry.lookup_sources())


#: Game key -> package whose ``data/lookup.toml`` holds the entries (see :func:`rules.registry.register_lookup`).
GAME_PACKAGES: Mapping[str, str] = _RegisteredPackages()

#: Kinds of entry, in the order an empty query lists them.
KINDS: tuple[str, ...] = ("howto", "section", "terrain", "tile", "part", "crew", "ruling")

#: The languages entries may be written in: the project's; English is the default and the fallback.
LANGS: tuple[str, ...] = catalogue.LANGS
DEFAULT_LANG = catalogue.DEFAULT

#: A Discord embed description holds 4096 characters; we keep entries far shorter.
MAX_TEXT = 1800

LOOKUP_FILE = ("data", "lookup.toml")
_NON_WORD = re.compile(r"[^0-9a-z]+")


@dataclass(frozen=True)
class RuleEntry:
    """One lookup entry: what players type (title, aliases) and what the bot answers (text), in one
    language (``lang``)."""

    game: str
    id: str
    title: str
    kind: str
    text: str
    aliases: tuple[str, ...] = ()
    see: tuple[str, ...] = ()
    #: Structured data for entries that carry numbers (part costs, crew starting sets).
    facts: dict[str, Any] = field(default_factory=dict, hash=False)
    #: The language of title, aliases and text: "en" or "de".
    lang: str = DEFAULT_LANG
    #: What the board draws for this thing ("tile:oil", "legend:mud", "part:jet-engine"; several joined
    #: by "+"), for the small picture beside the answer (:mod:`render.symbol`); None for rules without one.
    symbol: str | None = None

    @property
    def names(self) -> tuple[str, ...]:
        """Everything a player may type to get this entry exactly: title, aliases, id."""
        return (self.title, *self.aliases, self.id)


_FOLD = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"})


def fold(text: str) -> str:
    """Lower case with umlauts and ß spelt out and other accents dropped: "Würfel" -> "wuerfel", "Straße"
    -> "strasse", "Café" -> "cafe" (so a keyboard without umlauts finds the same words)."""
    spelt = text.lower().translate(_FOLD)
    return "".join(c for c in unicodedata.normalize("NFKD", spelt) if not unicodedata.combining(c))


def normalize(text: str) -> str:
    """Folded (:func:`fold`), punctuation to spaces, single spaces: "Phase 3: Roll" -> "phase 3 roll"."""
    return _NON_WORD.sub(" ", fold(text)).strip()


def _resource(game_key: str, name: str | None = None) -> Traversable:
    """The lookup file of a game, or the file ``name`` beside it, found through the top-level ``rules`` package.

    Resolving from ``rules`` keeps lookups working without importing the game's own package.
    """
    try:
        package = GAME_PACKAGES[game_key]
    except KeyError:
        raise KeyError(f"unknown game {game_key!r}: choose one of {', '.join(sorted(GAME_PACKAGES))}") from None
    top, *rest = package.split(".")
    *folder, file = registry.lookup_sources()[game_key][1]
    return resources.files(top).joinpath(*rest, *folder, name or file)


def _entry(game_key: str, raw: dict[str, Any], where: str) -> RuleEntry:
    missing = [k for k in ("id", "title", "kind", "text") if not raw.get(k)]
    if missing:
        raise ValueError(f"{where}: entry {raw.get('id', '?')!r} lacks {', '.join(missing)}")
    if raw["kind"] not in KINDS:
        raise ValueError(f"{where}: entry {raw['id']!r} has kind {raw['kind']!r}; expected one of {', '.join(KINDS)}")
    unknown = set(raw) - {"id", "title", "kind", "text", "aliases", "see", "facts", "lang", "symbol"}
    if unknown:
        raise ValueError(f"{where}: entry {raw['id']!r} has unknown keys {', '.join(sorted(unknown))}")
    lang = raw.get("lang", DEFAULT_LANG)
    if lang not in LANGS:
        raise ValueError(f"{where}: entry {raw['id']!r} has lang {lang!r}; expected one of {', '.join(LANGS)}")
    return RuleEntry(
        game=game_key,
        id=raw["id"],
        title=raw["title"],
        kind=raw["kind"],
        text=raw["text"].strip(),
        aliases=tuple(raw.get("aliases", ())),
        see=tuple(raw.get("see", ())),
        facts=dict(raw.get("facts", {})),
        lang=lang,
        symbol=raw.get("symbol") or None,
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


def entries(game_key: str, lang: str | None = None) -> list[RuleEntry]:
    """All entries of a game in file order; only those written in ``lang`` when it is given."""
    return [e for e in _load(game_key) if lang is None or e.lang == lang]


def languages(game_key: str) -> list[str]:
    """The languages a game has entries in, in the order of :data:`LANGS`."""
    have = {e.lang for e in _load(game_key)}
    return [lang for lang in LANGS if lang in have]


def pool_language(game_key: str, lang: str | None) -> str:
    """The language whose entries answer an asker of ``lang``: that language when the game has entries in
    it, else English, else the first the game has."""
    have = languages(game_key)
    for candidate in (lang, DEFAULT_LANG, *have):
        if candidate in have:
            return candidate
    return DEFAULT_LANG


def _other_languages(game_key: str, lang: str) -> list[str]:
    return [other for other in languages(game_key) if other != lang]


def twin(game_key: str, entry: RuleEntry, lang: str) -> RuleEntry | None:
    """The same entry written in ``lang`` (``curves`` <-> ``curves-de``), or None when it has no twin."""
    if entry.lang == lang:
        return entry
    base = entry.id.removesuffix(f"-{entry.lang}") if entry.lang != DEFAULT_LANG else entry.id
    wanted = base if lang == DEFAULT_LANG else f"{base}-{lang}"
    found = _by_id(game_key).get(wanted)
    return found if found is not None and found.lang == lang else None


def _in_language(game_key: str, found: list[RuleEntry], lang: str) -> list[RuleEntry]:
    """Entries found in another language, each as its twin in ``lang`` where it has one; no entry twice."""
    out: list[RuleEntry] = []
    for entry in found:
        mine = twin(game_key, entry, lang) or entry
        if mine not in out:
            out.append(mine)
    return out


@cache
def _by_id(game_key: str) -> dict[str, RuleEntry]:
    return {e.id: e for e in _load(game_key)}


@cache
def _index(game_key: str, lang: str) -> dict[str, RuleEntry]:
    index: dict[str, RuleEntry] = {}
    for entry in _load(game_key):
        if entry.lang == lang:
            for name in entry.names:
                index.setdefault(normalize(name), entry)
    return index


def find(game_key: str, text: str, lang: str | None = None) -> RuleEntry | None:
    """The entry whose title, alias or id is ``text`` (case, accents and punctuation ignored), or None.

    Names of the asker's language (:func:`pool_language`) come first; a name of another language gives
    that entry's twin in the asker's language where it has one. Without ``lang``, English names first.
    """
    mine = pool_language(game_key, lang)
    key = normalize(text)
    entry = _index(game_key, mine).get(key)
    if entry is not None:
        return entry
    for other in _other_languages(game_key, mine):
        entry = _index(game_key, other).get(key)
        if entry is not None:
            return twin(game_key, entry, mine) or entry
    return None


def by_id(game_key: str, entry_id: str) -> RuleEntry | None:
    """The entry with id ``entry_id`` (of any language), or None."""
    return _by_id(game_key).get(entry_id)


def related(game_key: str, entry: RuleEntry) -> list[RuleEntry]:
    """The entries ``entry.see`` names, in its order (for a "See also" line)."""
    by_id = _by_id(game_key)
    return [by_id[ref] for ref in entry.see if ref in by_id]


# ------------------------------------------------------------------ ranking questions asked in plain words
#
# A small BM25 ranking over each entry's text, with the title and aliases weighed above the text, after
# dropping filler words and reducing words to a common stem; synonyms and close spellings of unknown
# words count too, a little less than the word itself. What a question asks about (its subject, "can the
# carrier …") weighs more in the names than its other words, and never matches a name in which that
# thing is only acted on ("landing on the carrier").

@dataclass(frozen=True)
class Intent:
    """What a question's wording asks for, beside its topic: "where do I get fuel" asks for a place or a
    service that gives fuel, not for what fuel does. A question shows it by having every word of one of
    its ``cues`` (in that order, as :func:`normalize` writes them); entries using its ``prefer`` words
    then rank a little higher, and the question's words after one of its ``clause`` words (the event of
    "what happens to the treasure **if the carrier is hit**") weigh more. Entries of its ``kinds`` rank
    higher too (:data:`KIND_BOOST`): "do I **still** stop" asks about an edge case, which a ruling settles."""

    name: str
    cues: tuple[tuple[str, ...], ...]
    prefer: tuple[str, ...] = ()
    clause: frozenset[str] = frozenset()
    kinds: frozenset[str] = frozenset()

    def shown_by(self, words: list[str]) -> bool:
        """Whether a question (its words, filler included) shows this intent."""
        for cue in self.cues:
            at = 0
            for word in words:
                if at < len(cue) and word == cue[at]:
                    at += 1
            if at == len(cue):
                return True
        return False


#: Words that hint at what is asked ("how many") without naming a topic (:attr:`Language.weak_words`)
#: count this much of a topic word.
WEAK_WEIGHT = 0.4


#: Weights: a title word counts this much over the BM25 text score, an alias word a little less.
TITLE_WEIGHT = 3.0
ALIAS_WEIGHT = 2.4
#: A house ruling's title describes the rule it settles: its words weigh this much, its whole this share.
RULING_TITLE_WEIGHT = 3.0
RULING_TITLE_SHARE = 1.0
#: A synonym, a close spelling, or the unfinished last word of an autocomplete counts this much of a match.
SYNONYM_WEIGHT = 0.85
TYPO_WEIGHT = 0.85
PREFIX_WEIGHT = 0.95
#: A German verb form read as another form of its word ("schützt" as "schützen") counts this much.
INFLECTION_WEIGHT = 0.95
#: ... and a known word found inside an unknown compound ("Tankstellenbesuch") this much.
PART_WEIGHT = 0.7
#: How much matching a whole name (every word of a title or alias, nothing else) adds.
NAME_BONUS = 12.0
#: ... and how much a question whose words all appear among an entry's names (title and aliases) adds.
UNION_SHARE = 0.5
#: ... and how much each pair of neighbouring question words found side by side in the entry adds.
PHRASE_WEIGHT = 0.7
#: In the names, the word a question is about (its subject, :func:`_subject`) weighs this much more than
#: its other words: "can the carrier land on pawns" asks about the carrier, not about landing.
SUBJECT_WEIGHT = 2.5
#: A question's intent (:class:`Intent`) raises an entry using its preferred words by up to this share, the
#: whole when the entry uses this many of them (a word or two in passing count for little) ...
INTENT_BOOST = 0.4
INTENT_FULL = 4
#: ... and the words of its clause ("what happens if **…**") count this much more than the others.
CLAUSE_WEIGHT = 1.25
#: An entry of a kind the question's intent asks for (:attr:`Intent.kinds`) counts this much more.
KIND_BOOST = 1.1
#: An entry whose title is the question's subject and nothing else counts this much more.
SUBJECT_TITLE_BOOST = 1.15
#: A match found in the other language's entries counts this much of the same match in the asker's own.
CROSS_WEIGHT = 0.8
#: The share of the phrasings model (:mod:`rules.phrasings`) in a question's ranking; the rest is the
#: reading of the entries' own words, each scaled to its best entry.
LEARNED_SHARE = 0.85
#: Rulings retell the sections in detail; between two equal matches the section answers first.
KIND_PRIOR = {"ruling": 0.95, "crew": 0.95}
_BM25_K1 = 1.6
_BM25_B = 0.5
#: Least difflib ratio for an unknown word to count as a misspelling of a known one.
TYPO_RATIO = 0.75


def stem(word: str) -> str:
    """A light English stemmer: enough to make "bumped", "bumping" and "bumps" one word ("bump").

    Plurals, -ing and -ed go, a doubled last consonant is undone (winning → win) and a final e is
    dropped (moving, moves, move → mov). Short words and numbers stay as they are.
    """
    w = word
    if len(w) <= 3 or not w.isalpha():
        return w
    if w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "y"
    if w.endswith("ery") and len(w) > 5:
        w = w[:-1]  # delivery, delivered, deliver
    elif w.endswith("sses"):
        w = w[:-2]
    elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    for suffix in ("ing", "ed"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3 and not w.endswith("eed"):
            w = w[:-len(suffix)]
            if len(w) >= 4 and w[-1] == w[-2] and w[-1] not in "lsz":
                w = w[:-1]
            break
    if w.endswith("e") and len(w) > 3:
        w = w[:-1]
    return w


def inflections_de(word: str) -> tuple[str, ...]:
    """Other forms a German verb form may stand for, when its own stem is unknown: Snowball keeps the
    "-t" and "-st" of "schützt", "dauert", "steht", and the "ge-…-t" of "gerammt", and "würfle" is
    "würfel(e)". Tried in this order, each only as a fallback."""
    w = fold(word)
    if len(w) < 5 or not w.isalpha():
        return ()
    out = []
    if w.startswith("ge") and w.endswith("t") and len(w) >= 7:
        out.append(w[2:-2] if w.endswith("st") else w[2:-1])
    if w.endswith("st"):
        out.append(w[:-2])
    if w.endswith("t"):
        out.append(w[:-1])
        out.append(w[:-1] + "en")
    if w.endswith("le"):
        out.append(w[:-2] + "eln")
    if w.endswith("s") and not w.endswith("ss"):
        out.append(w[:-1])  # the plural of a borrowed word: "Autos", "Boxenstopps"
    return tuple(dict.fromkeys(o for o in out if len(o) >= 3))


def _no_inflections(word: str) -> tuple[str, ...]:
    return ()


@dataclass(frozen=True)
class Language:
    """How questions and entries of one language are read: filler words, word stems, synonyms."""

    code: str
    stop_words: frozenset[str]
    weak_words: frozenset[str]
    synonyms: tuple[tuple[str, ...], ...]
    stem: Callable[[str], str]
    #: German runs words together ("Boxenstopp"): split an unknown word into known parts, with the
    #: linking letters between them ("Boxen|gasse", "Kurven|grenze")
    joins: tuple[str, ...] = ("",)
    #: other forms an unknown word may stand for (:func:`inflections_de`)
    inflections: Callable[[str], tuple[str, ...]] = _no_inflections
    #: a question's words that mean one topic word together ("goes off": "explodes"), as
    #: :func:`normalize` writes them
    phrases: tuple[tuple[str, str], ...] = ()
    #: German verb particles that end a question apart from their verb ("fängt … an")
    particles: frozenset[str] = frozenset()
    #: what finds a question's subject (:func:`_subject`): the question words that may open it ("what",
    #: not "who", which is the subject itself), ...
    interrogatives: frozenset[str] = frozenset()
    #: ... the verbs that come before the subject (English: "can", "does"; German: empty, as any verb
    #: may: "Was macht der Leim?", "Darf der Träger …?"), ...
    auxiliaries: frozenset[str] = frozenset()
    #: ... the words that may open the subject ("the", "my", "two") ...
    determiners: frozenset[str] = frozenset()
    #: ... the articles that may open a question asked as a statement ("the carrier can't …?") ...
    articles: frozenset[str] = frozenset()
    #: ... and the subjects that are the asker or someone, not a topic ("I", "someone")
    persons: frozenset[str] = frozenset()
    #: words after which a name's next topic word is acted on ("carrier" in "landing on the carrier")
    prepositions: frozenset[str] = frozenset()
    #: what a question's wording may ask for beside its topic (:class:`Intent`, from the language's data)
    intents: tuple[Intent, ...] = ()
    #: words that say a question is in this language, and letters that do (each counting twice)
    marks: frozenset[str] = frozenset()
    letters: str = ""


#: a language's stemmer by the name its lookup file gives (``snowball:<name>`` is Snowball's stemmer of that name)
STEMMERS: dict[str, Callable[[str], str]] = {"light-english": stem}
#: a language's other forms of an unknown word, by the name its lookup file gives
INFLECTIONS: dict[str, Callable[[str], tuple[str, ...]]] = {"german": inflections_de}


def _snowball(name: str, stems: Mapping[str, str]) -> Callable[[str], str]:
    """Snowball's stemmer ``name`` over folded words, the words of ``stems`` keeping the stem given there:
    "Kurven" and "Kurve" are "kurv", "würfeln" and "wuerfeln" "wurfel". Words of three letters or fewer and
    words with digits stay as they are."""
    snowball = snowballstemmer.stemmer(name)

    @cache
    def stem_word(word: str) -> str:
        w = fold(word)
        if len(w) <= 3 or not w.isalpha():
            return w
        return stems.get(w) or str(snowball.stemWord(w))

    return stem_word


def _plain(word: str) -> str:
    return fold(word)


def lookup_file(lang: str) -> Traversable:
    """A language's lookup words: ``bot/locale/<lang>.lookup.toml``, beside the language's catalogue."""
    return resources.files("bot").joinpath("locale", f"{lang}.lookup.toml")


def _read_language(code: str) -> Language:
    """How the lookup reads language ``code``, from its lookup file (a language without one is read with
    no filler words, its words only folded)."""
    res = lookup_file(code)
    if not res.is_file():
        return Language(code, frozenset(), frozenset(), (), _plain)
    raw = tomllib.loads(res.read_text(encoding="utf-8"))
    stemmer = str(raw.get("stemmer", ""))
    stems = {str(k): str(v) for k, v in raw.get("stems", {}).items()}
    if stemmer.startswith("snowball:"):
        stem_word = _snowball(stemmer.removeprefix("snowball:"), stems)
    elif stemmer in STEMMERS:
        stem_word = STEMMERS[stemmer]
    else:
        raise ValueError(f"{code}.lookup.toml: unknown stemmer {stemmer!r}")
    intents = tuple(
        Intent(name, tuple(tuple(normalize(cue).split()) for cue in data.get("cues", ())),
               tuple(data.get("prefer", ())), frozenset(normalize(w) for w in data.get("clause", ())),
               frozenset(data.get("kinds", ())))
        for name, data in raw.get("intents", {}).items())

    def words(key: str) -> frozenset[str]:
        return frozenset(raw.get(key, ()))

    return Language(
        code, words("stop_words"), words("weak_words"), tuple(tuple(group) for group in raw.get("synonyms", ())),
        stem_word, joins=tuple(raw.get("joins", ("",))),
        inflections=INFLECTIONS[raw["inflections"]] if "inflections" in raw else _no_inflections,
        phrases=tuple((normalize(phrase), normalize(word)) for phrase, word in raw.get("phrases", ())),
        particles=words("particles"), interrogatives=words("interrogatives"), auxiliaries=words("auxiliaries"),
        determiners=words("determiners"), articles=words("articles"), persons=words("persons"),
        prepositions=words("prepositions"),
        intents=intents, marks=words("marks"), letters=str(raw.get("letters", "")))


#: How each language of :data:`LANGS` is read, from its lookup file (:func:`lookup_file`).
LANGUAGES: dict[str, Language] = {code: _read_language(code) for code in LANGS}


def _phrased(words: list[str], language: Language) -> list[str]:
    """The words of a question with the language's phrases (:attr:`Language.phrases`) as their word."""
    if not language.phrases:
        return words
    text = f" {' '.join(words)} "
    for phrase, word in language.phrases:
        text = text.replace(f" {phrase} ", f" {word} ")
    return text.split()


def _words(text: str) -> list[str]:
    return normalize(text).replace("'", " ").split()


def _content(words: list[str], language: Language = LANGUAGES[DEFAULT_LANG]) -> list[str]:
    """The words that carry the topic; all of them when every word is a filler word."""
    kept = [w for w in words if w not in language.stop_words]
    return kept or words


def _stems(text: str, language: Language = LANGUAGES[DEFAULT_LANG]) -> list[str]:
    return [language.stem(w) for w in _content(_phrased(_words(text), language), language)]


@cache
def _synonyms(lang: str = DEFAULT_LANG) -> dict[str, frozenset[str]]:
    language = LANGUAGES[lang]
    out: dict[str, set[str]] = {}
    for group in language.synonyms:
        stems = {language.stem(w) for word in group for w in _words(word)}
        for s in stems:
            out.setdefault(s, set()).update(stems - {s})
    return {s: frozenset(others) for s, others in out.items()}


# ------------------------------------------------------------------ which language a question is in

def _winner(scores: dict[str, int]) -> str | None:
    """The language of the highest score, if it alone has it (and there were several to choose from)."""
    if len(scores) < 2:
        return None
    best = max(scores.values())
    top = [lang for lang, score in scores.items() if score == best]
    return top[0] if len(top) == 1 else None


def detect_language(text: str, game_key: str | None = None) -> str | None:
    """The language a question is written in, by a vote of the words that mark each language
    (:attr:`Language.marks`; a letter of :attr:`Language.letters` counts twice); None when no language
    leads. With a game, a tie goes to the language whose entries know more of the question's words
    ("Boxengasse" alone is German)."""
    words = _words(text)
    low = text.lower()
    votes = {code: sum(w in language.marks for w in words) + (2 if any(c in low for c in language.letters) else 0)
             for code, language in LANGUAGES.items()}
    found = _winner(votes)
    if found is not None or game_key is None:
        return found
    known = {}
    for lang in languages(game_key):
        index = _ranking_index(game_key, lang)
        language = LANGUAGES[lang]
        known[lang] = sum(language.stem(w) in index.idf for w in _content(words, language))
    return _winner(known)


@dataclass(frozen=True)
class _Doc:
    """One entry, ready to score: its name words, its text words and its exact names."""

    entry: RuleEntry
    position: int
    title: frozenset[str]
    aliases: tuple[frozenset[str], ...]
    alias_words: frozenset[str]
    body: dict[str, int]
    length: int
    names: frozenset[str]
    #: neighbouring topic words in the title, an alias or the text ("null tile", "good stuff")
    pairs: frozenset[tuple[str, str]]
    #: the words of the title, and of each alias, that something is done to (:func:`_objects`)
    title_objects: frozenset[str]
    alias_objects: tuple[frozenset[str], ...]
    #: the words the names only ever have so (:func:`_acted_on`)
    acted_on: frozenset[str]


@dataclass(frozen=True, eq=False)
class _Index:
    language: Language
    docs: tuple[_Doc, ...]
    idf: dict[str, float]
    #: every word seen in a title, alias or text (before stemming): what a misspelling is compared with
    surface: tuple[str, ...]
    average_length: float


def _objects(name: str, language: Language) -> frozenset[str]:
    """The stems of a name's words that something is done to: the first topic word after each
    preposition (the carrier in "landing on the carrier", the Träger in "auf dem Träger landen")."""
    out = set()
    after = False
    for w in _phrased(_words(name), language):
        if w in language.prepositions:
            after = True
        elif after and w not in language.stop_words:
            out.add(language.stem(w))
            after = False
    return frozenset(out)


def _acted_on(names: list[tuple[frozenset[str], frozenset[str]]]) -> frozenset[str]:
    """The words that an entry's names (each as its words and its :func:`_objects`) only ever have as
    something done to, never as what the name is about."""
    objects = frozenset().union(*(o for _, o in names))
    heads = frozenset().union(*(words - o for words, o in names))
    return objects - heads


def _pairs(stems: list[str]) -> set[tuple[str, str]]:
    return set(pairwise(stems))


@cache
def _ranking_index(game_key: str, lang: str = DEFAULT_LANG) -> _Index:
    """The ranking index over a game's entries written in ``lang``, read with that language's rules."""
    language = LANGUAGES[lang]
    mine = [e for e in _load(game_key) if e.lang == lang]
    vocabulary = {language.stem(w) for e in mine for text in (e.title, *e.aliases, e.text)
                  for w in _content(_words(text), language)}
    docs = []
    df: dict[str, int] = {}
    surface: set[str] = set()
    for position, entry in enumerate(mine):
        body_stems = _stems(entry.text, language)
        title = frozenset(_stems(entry.title, language))
        aliases = tuple(frozenset(_stems(a, language)) for a in entry.aliases)
        body: dict[str, int] = {}
        for s in body_stems:
            body[s] = body.get(s, 0) + 1
        for part in _compound_parts(language, _content(_words(entry.text), language), vocabulary):
            body[part] = body.get(part, 0) + 1
        alias_words = frozenset().union(*aliases) if aliases else frozenset()
        # the parts of a German compound name ("Magnetschutz") count as words of the names too
        name_words = [w for name in (entry.title, *entry.aliases) for w in _content(_words(name), language)]
        alias_words |= frozenset(_compound_parts(language, name_words, vocabulary))
        title_objects = _objects(entry.title, language)
        alias_objects = tuple(_objects(a, language) for a in entry.aliases)
        # ... and a name with a compound is also named by its parts: "Bewegungswurf" by "Wurf für die Bewegung"
        split = _split_names(language, (entry.title, *entry.aliases), vocabulary)
        aliases += split
        alias_objects += tuple(frozenset() for _ in split)
        pairs = {pair for text in (entry.title, *entry.aliases) for pair in _pairs(_stems(text, language))}
        pairs.update(_pairs(body_stems))
        docs.append(_Doc(entry, position, title, aliases, alias_words, body, len(body_stems),
                         frozenset(normalize(n) for n in entry.names), frozenset(pairs),
                         title_objects, alias_objects,
                         _acted_on([(title, title_objects), *zip(aliases, alias_objects, strict=True)])))
        for s in set(body) | title | alias_words:
            df[s] = df.get(s, 0) + 1
        for text in (entry.title, *entry.aliases, entry.text):
            surface.update(w for w in _words(text)
                           if w.isalpha() and len(w) >= 3 and w not in language.stop_words)
    n = len(docs)
    idf = {s: math.log(1 + (n - f + 0.5) / (f + 0.5)) for s, f in df.items()}
    average = sum(d.length for d in docs) / n if n else 1.0
    return _Index(language, tuple(docs), idf, tuple(sorted(surface)), average or 1.0)


def _split_names(language: Language, names: tuple[str, ...], vocabulary: set[str]) -> tuple[frozenset[str], ...]:
    """The names that hold a German compound of known parts, each as its words with the compound's parts
    in its place ("Phase 3: Bewegungswurf": "phase", "3", "bewegung", "wurf")."""
    out = []
    for name in names:
        words = _content(_words(name), language)
        parts = [_compound_parts(language, [w], vocabulary) for w in words]
        if any(parts):
            out.append(frozenset(s for w, p in zip(words, parts, strict=True) for s in (p or [language.stem(w)])))
    return tuple(out)


def _compound_parts(language: Language, words: list[str], vocabulary: set[str]) -> list[str]:
    """The stems of the parts of an entry's German compounds, counted as words of the entry too: two
    known words ("Motorteil": "motor" and "teil"), else a known first word of four letters or more and a
    long rest ("Spurwechsel": "spur" and "wechsel"), so "Spur wechseln" finds it."""
    if len(language.joins) == 1:
        return []
    parts = []
    for word in words:
        if len(word) < 7 or not word.isalpha():
            continue
        both, first = [], []
        for cut in range(3, len(word) - 3):
            head, tail = word[:cut], word[cut:]
            for join in language.joins:
                word_head = head[:len(head) - len(join)] if head.endswith(join) else ""
                stem_head = language.stem(word_head)
                if len(word_head) < 3 or stem_head not in vocabulary or word_head in language.stop_words:
                    continue
                if language.stem(tail) in vocabulary:
                    both.append((len(tail), stem_head, language.stem(tail)))
                elif not join and len(word_head) >= 4 and len(tail) >= 6 and stem_head == word_head:
                    first.append((len(head), stem_head, language.stem(tail)))
        best = max(both or first, default=None)
        if best is not None:
            parts += [best[1], best[2]]
    return parts


def _query_terms(index: _Index, text: str, partial: bool, foreign: bool = False,
                 clause: frozenset[str] = frozenset()) -> tuple[list[dict[str, float]], int | None, list[bool]]:
    """For each topic word of the question: the stems it may match and how much each counts.

    ``partial``: the last word may be unfinished (autocomplete), so known words it begins also count.
    ``foreign``: the words are read as another language's (see :func:`_best`): only as they are or
    through a synonym, never as a misspelling, a fragment or a part of a compound.
    A German verb whose particle ends the question ("Wie baue ich das Spiel auf?") is also read whole
    ("aufbauen"). Words no entry knows give no term. Also returns the index of the term that is the
    question's subject (:func:`_subject`), None when it has none or its subject is no known word, and
    for each term whether it comes after one of the ``clause`` words (:attr:`Intent.clause`).
    """
    language = index.language
    raw = _phrased(_words(text), language)
    subject = None if foreign else _subject(raw, language)
    # each topic word with its place in the question (all words when every one is filler, as _content)
    kept = [(i, w) for i, w in enumerate(raw) if w not in language.stop_words] or list(enumerate(raw))
    if foreign:
        partial = False
        pieces = kept
    else:
        pieces = [(i, part) for i, word in kept for part in _split_compound(index, word)]
    words = [w for _, w in pieces]
    particle = raw[-1] if not foreign and raw and raw[-1] in language.particles else None
    terms = []
    for i, word in enumerate(words):
        unfinished = bool(partial and i == len(words) - 1 and raw and word == raw[-1])
        options = _word_options(index, word, unfinished, loose=not foreign)
        if particle is not None and word != particle:
            for s, weight in _word_options(index, particle + word, False, loose=False).items():
                if weight > options.get(s, 0.0):
                    options[s] = weight
        if word in language.weak_words:
            options = {s: weight * WEAK_WEIGHT for s, weight in options.items()}
        terms.append(options)
    opened = next((i for i, w in enumerate(raw) if w in clause), len(raw))
    known = [(options, place == subject, place > opened)
             for options, (place, _) in zip(terms, pieces, strict=True) if options]
    first = next((i for i, (_, is_subject, _) in enumerate(known) if is_subject), None)
    return [options for options, _, _ in known], first, [after for _, _, after in known]


def _subject(words: list[str], language: Language) -> int | None:
    """The place in ``words`` of the first word of a question's subject, when it is a thing: "can the
    **carrier** land on pawns", "what does **glue** do", "darf der **Träger** schlagen", "was macht der
    **Leim**"; None when it is the asker or someone ("can I …", "what happens if …", "who starts …").

    The subject follows an optional question word and a verb: an auxiliary in English ("can", "does");
    any verb in German, where the subject must then open with a determiner ("der", "die"), which is what
    tells the word before it for a verb without a list of verbs. A question asked after a statement ("my
    kart has mud tyres, what does **acid** do") has its subject after its question word.
    """
    found = _subject_at(words, 0, language)
    if found is None:
        found = _stated_subject(words, language)
    if found is None:
        later = next((i for i, w in enumerate(words) if i > 0 and w in language.interrogatives), None)
        if later is not None:
            found = _subject_at(words, later, language)
    return found


def _stated_subject(words: list[str], language: Language) -> int | None:
    """The subject of a question asked as a statement, opened by an article and followed by a verb: "the
    **carrier** can't land on people?", "der **Träger** darf niemanden schlagen?" (an auxiliary must follow
    it where the language lists them); None otherwise."""
    if len(words) < 3 or words[0] not in language.articles:
        return None
    if words[1] in language.stop_words or words[1] in language.persons:
        return None
    if language.auxiliaries and words[2] not in language.auxiliaries:
        return None
    return 1


def _subject_at(words: list[str], start: int, language: Language) -> int | None:
    """:func:`_subject` of the question that begins at ``start``."""
    i = start + 1 if start < len(words) and words[start] in language.interrogatives else start
    if i >= len(words) or words[i] in language.determiners:
        return None
    if language.auxiliaries and words[i] not in language.auxiliaries:
        return None
    i += 1
    if not language.auxiliaries and (i >= len(words) or words[i] not in language.determiners):
        return None
    while i < len(words) and words[i] in language.determiners:
        i += 1
    if i >= len(words) or words[i] in language.stop_words or words[i] in language.persons:
        return None
    return i


def _word_options(index: _Index, word: str, unfinished: bool, loose: bool) -> dict[str, float]:
    """The stems one word of a question may match, and how much each counts: the word itself, its
    synonyms, else another form of it (:attr:`Language.inflections`); an ``unfinished`` word also the
    known words it begins; with ``loose``, an unknown word also the words it is a misspelling of, and a
    German compound its known part."""
    language = index.language
    stem_of = language.stem
    synonyms = _synonyms(language.code)
    options: dict[str, float] = {}

    def add(s: str, weight: float) -> None:
        if s in index.idf and weight > options.get(s, 0.0):
            options[s] = weight

    s = stem_of(word)
    add(s, 1.0)
    for other in synonyms.get(s, ()):
        add(other, SYNONYM_WEIGHT)
    if not options:
        for form in language.inflections(word):
            s = stem_of(form)
            add(s, INFLECTION_WEIGHT)
            for other in synonyms.get(s, ()):
                add(other, INFLECTION_WEIGHT * SYNONYM_WEIGHT)
            if options:
                break
    if unfinished:
        weight = PREFIX_WEIGHT if len(word) >= 3 else PREFIX_WEIGHT / 2
        for known in index.surface:
            if known.startswith(word) and known != word:
                add(stem_of(known), weight)
    if loose and s not in index.idf and word.isalpha() and len(word) >= 4:
        for close in _close_words(index, word):
            ratio = difflib.SequenceMatcher(None, word, close).ratio()
            add(stem_of(close), TYPO_WEIGHT * ratio)
            for other in synonyms.get(stem_of(close), ()):
                add(other, TYPO_WEIGHT * ratio * SYNONYM_WEIGHT)
    if loose and not options and len(language.joins) > 1:
        # a German compound none of whose words is known as a whole ("Tankstellenbesuch"): its known part
        for part in _known_part(index, word):
            add(stem_of(part), PART_WEIGHT)
            for other in synonyms.get(stem_of(part), ()):
                add(other, PART_WEIGHT * SYNONYM_WEIGHT)
    return options


def _close_words(index: _Index, word: str) -> list[str]:
    """The (at most three) words of the entries that ``word`` is most likely a misspelling of."""
    return _close_cached(index, word)


@cache
def _close_cached(index: _Index, word: str) -> list[str]:
    size = len(word)
    # a difflib ratio of at least TYPO_RATIO needs lengths within this much of each other
    candidates = [w for w in index.surface if 2 * min(size, len(w)) / (size + len(w)) >= TYPO_RATIO]
    return difflib.get_close_matches(word, candidates, n=3, cutoff=TYPO_RATIO)


def _known(index: _Index, word: str) -> bool:
    """A word of at least three letters that some entry uses, itself or through a synonym; never a
    preposition, which is no part of a compound's topic ("über|holen")."""
    language = index.language
    if len(word) < 3 or word in language.prepositions:
        return False
    for form in (word, *language.inflections(word)):
        s = language.stem(form)
        if s in index.idf or _synonyms(language.code).get(s, frozenset()) & index.idf.keys():
            return True
    return False


def _split_compound(index: _Index, word: str) -> tuple[str, ...]:
    """A word run together from two known words ("timebomb", "pitstop", "Boxengasse" when only "Box" and
    "Gasse" are known) as those two words; a word known as it is stays whole. German joins its words
    with linking letters ("Boxen" is "Box" + "en"), which are dropped."""
    if len(word) < 6 or not word.isalpha():
        return (word,)
    language = index.language
    if len(language.joins) > 1 and language.stem(word) in index.idf:
        return (word,)
    known = set(index.surface)
    for cut in range(3, len(word) - 2):
        head, tail = word[:cut], word[cut:]
        if len(language.joins) == 1:
            if head in known and tail in known:
                return head, tail
            continue
        if not _known(index, tail):
            continue
        for join in language.joins:
            if head.endswith(join) and _known(index, head[:len(head) - len(join)]):
                return head[:len(head) - len(join)], tail
    return (word,)


def _known_part(index: _Index, word: str) -> tuple[str, ...]:
    """The longest known word a German compound ends with or begins with ("Tankstellenbesuch": the
    "Tankstelle"), at least four letters, never a verb after its particle; nothing when none is known."""
    if len(word) < 7 or not word.isalpha():
        return ()
    for size in range(len(word) - 3, 3, -1):
        tail = word[len(word) - size:]
        # a verb's particle changes its meaning: "einstellen" (set) is no "stellen" (put)
        if _known(index, tail) and word[:len(word) - size] not in index.language.particles:
            return (tail,)
        head = word[:size]
        for join in index.language.joins:
            if head.endswith(join) and _known(index, head[:len(head) - len(join)]):
                return (head[:len(head) - len(join)],)
    return ()


def _name_match(index: _Index, name: frozenset[str], terms: list[dict[str, float]], weights: list[float],
                objects: frozenset[str] = frozenset(), subject: int | None = None) -> float:
    """How well the question and one name cover each other (1.0: the same words, nothing else); rarer
    words count for more, so a shared "kart" matters less than a shared "landing". The question's
    ``subject`` (its index in ``terms``) does not match a word the name has among its ``objects``: a
    question about what the carrier may do is not named by "landing on the carrier"."""
    if not name or not terms:
        return 0.0
    covered: dict[str, float] = {}
    hits = 0.0
    for i, (options, importance) in enumerate(zip(terms, weights, strict=True)):
        best = 0.0
        for s, weight in options.items():
            if s in name and not (i == subject and s in objects):
                covered[s] = max(covered.get(s, 0.0), weight)
                best = max(best, weight)
        hits += best * importance
    name_weight = sum(index.idf.get(s, 0.0) for s in name) or 1.0
    return (sum(w * index.idf.get(s, 0.0) for s, w in covered.items()) / name_weight) * (hits / sum(weights))


def _phrases(index: _Index, doc: _Doc, terms: list[dict[str, float]]) -> float:
    """Two neighbouring words of the question found side by side in the entry: a phrase ("null tile")."""
    total = 0.0
    for first, second in pairwise(terms):
        best = 0.0
        for a, wa in first.items():
            if wa < 0.5:
                continue
            for b, wb in second.items():
                if wb >= 0.5 and (a, b) in doc.pairs:
                    best = max(best, wa * wb * (index.idf[a] + index.idf[b]) / 2)
        total += best
    return total


@dataclass(frozen=True)
class _Question:
    """A question ready to score every entry against: its terms (:func:`_query_terms`), how much each
    weighs in the names (its rarest stem's idf, the subject's :data:`SUBJECT_WEIGHT` times more), the
    index of its subject's term, and every stem it may match."""

    terms: list[dict[str, float]]
    weights: list[float]
    subject: int | None
    stems: frozenset[str]
    #: how much each term counts in the text (:data:`CLAUSE_WEIGHT` for the words of an intent's clause)
    emphasis: list[float]
    #: the stems of the words the question's intents prefer in an entry (:attr:`Intent.prefer`)
    prefer: frozenset[str] = frozenset()
    #: the kinds of entry the question's intents prefer (:attr:`Intent.kinds`)
    kinds: frozenset[str] = frozenset()

    @classmethod
    def read(cls, index: _Index, terms: list[dict[str, float]], subject: int | None,
             clause: list[bool] | None = None, prefer: frozenset[str] = frozenset(),
             kinds: frozenset[str] = frozenset()) -> _Question:
        emphasis = [CLAUSE_WEIGHT if after else 1.0 for after in clause or [False] * len(terms)]
        weights = [max(index.idf[s] * w for s, w in options.items()) * e for options, e in zip(terms, emphasis,
                                                                                             strict=True)]
        if subject is not None:
            weights[subject] *= SUBJECT_WEIGHT
        return cls(terms, weights, subject, frozenset(s for options in terms for s in options), emphasis,
                   prefer & index.idf.keys(), kinds)


def _score(index: _Index, doc: _Doc, question: _Question, query: str) -> float:
    """How well one entry answers a question: BM25 over its text with its names weighed above it, how
    well a name covers the question, its phrases; the question's subject (:func:`_subject`) weighs more
    in the names, and only where a name is about it."""
    terms, weights, subject = question.terms, question.weights, question.subject
    # a ruling is named by its id ("P7"); its title only describes it, as an alias would
    ruling = doc.entry.kind == "ruling"
    title_weight = RULING_TITLE_WEIGHT if ruling else TITLE_WEIGHT
    title_share = RULING_TITLE_SHARE if ruling else 1.0
    total = 0.0
    matched = 0
    norm = _BM25_K1 * (1 - _BM25_B + _BM25_B * doc.length / index.average_length)
    for i, options in enumerate(terms):
        best = 0.0
        for s, weight in options.items():
            field = title_weight if s in doc.title else ALIAS_WEIGHT if s in doc.alias_words else 0.0
            if i == subject and s in doc.acted_on:
                field = 0.0  # the subject is only acted on in the names: not a name of it
            tf = doc.body.get(s, 0)
            text = tf * (_BM25_K1 + 1) / (tf + norm) if tf else 0.0
            best = max(best, weight * index.idf[s] * (field + text))
        if best > 0:
            matched += 1
        total += best * question.emphasis[i]
    if not matched:  # no word matches; an exact name still does (an id such as "curves-de")
        return 100.0 * KIND_PRIOR.get(doc.entry.kind, 1.0) if query in doc.names else 0.0
    total *= (matched / len(terms)) ** 2
    asked = question.stems
    names = max([title_share * _name_match(index, doc.title, terms, weights, doc.title_objects, subject),
                 *(0.9 * _name_match(index, a, terms, weights, o, subject)
                   for a, o in zip(doc.aliases, doc.alias_objects, strict=True) if not a.isdisjoint(asked))])
    union = doc.title | doc.alias_words
    in_names = sum(importance * max((w for s, w in options.items()
                                     if s in union and not (i == subject and s in doc.acted_on)), default=0.0)
                   for i, (options, importance) in enumerate(zip(terms, weights, strict=True)))
    total += NAME_BONUS * (names + UNION_SHARE * in_names / sum(weights))
    total += PHRASE_WEIGHT * _phrases(index, doc, terms)
    if query in doc.names:
        total += 100.0
    if subject is not None and not ruling and doc.title and all(
            terms[subject].get(t, 0.0) == max(terms[subject].values()) for t in doc.title):
        # the entry is named by the question's subject itself, not by a synonym ("what does the oil do")
        total *= SUBJECT_TITLE_BOOST
    if question.prefer:
        # an entry about what the question's intent asks for (a place that gives it, ...)
        found = len(question.prefer & (doc.title | doc.alias_words | doc.body.keys()))
        total *= 1 + INTENT_BOOST * min(1.0, found / INTENT_FULL) ** 2
    if doc.entry.kind in question.kinds:
        total *= KIND_BOOST
    return total * KIND_PRIOR.get(doc.entry.kind, 1.0)


def _ranked(game_key: str, text: str, partial: bool, lang: str, foreign: bool = False
            ) -> list[tuple[float, RuleEntry]]:
    """Every entry of ``lang`` that the question's words match, best first, with its score; ``foreign``:
    the words are another language's question's (see :func:`_query_terms`)."""
    index = _ranking_index(game_key, lang)
    language = index.language
    query = normalize(text)
    intents = [] if foreign else [i for i in language.intents if i.shown_by(_phrased(_words(text), language))]
    clause = frozenset().union(*(i.clause for i in intents))
    terms, subject, after = _query_terms(index, text, partial, foreign, clause)
    if not terms and query not in _index(game_key, lang):
        return []
    prefer = frozenset(language.stem(w) for i in intents for word in i.prefer for w in _words(word))
    kinds = frozenset().union(*(i.kinds for i in intents))
    question = _Question.read(index, terms, subject, after, prefer, kinds)
    scored = []
    for doc in index.docs:
        score = _score(index, doc, question, query)
        if score > 0:
            scored.append((-score, KINDS.index(doc.entry.kind), doc.position, doc.entry))
    scored.sort(key=lambda item: item[:3])
    return [(-item[0], item[3]) for item in scored]


def _foreign_words(game_key: str, text: str, lang: str) -> str:
    """The words of a question in ``lang`` that may be another language's names of things: not filler of
    ``lang``, at least three letters, and unknown to ``lang``'s entries ("Glue" on a German server)."""
    index = _ranking_index(game_key, lang)
    stop = LANGUAGES[lang].stop_words
    return " ".join(w for w in _words(text) if len(w) >= 3 and w not in stop and not _known(index, w))


def _best(game_key: str, text: str, partial: bool, lang: str | None, limit: int) -> list[RuleEntry]:
    """The best entries in the asker's language. A question may use the other language's name of a thing
    ("Glue" on a German server): its words that the asker's entries do not know are also looked up in the
    other language's entries, read with that language's words, and what they find counts for its twin
    in the asker's language, a little less (:data:`CROSS_WEIGHT`) than a match in the asker's own words.
    Words the asker's entries know are never read as the other language's ("die" is German filler, not
    an English die)."""
    mine = pool_language(game_key, lang)
    scores: dict[str, float] = {}
    found: dict[str, RuleEntry] = {}
    for score, entry in _ranked(game_key, text, partial, mine):
        scores[entry.id], found[entry.id] = score, entry
    if not (partial and found):  # autocomplete offers the asker's own names while it has any
        foreign = _foreign_words(game_key, text, mine)
        whole = normalize(text)
        for other in _other_languages(game_key, mine) if foreign else ():
            for score, entry in _ranked(game_key, foreign if foreign != whole else text, False, other,
                                        foreign=True):
                own = twin(game_key, entry, mine) or entry
                scores[own.id] = scores.get(own.id, 0.0) + CROSS_WEIGHT * score
                found[own.id] = own
    if not partial and normalize(text) not in _index(game_key, mine):
        scores = _with_phrasings(game_key, text, mine, scores, found)
    order = _positions(game_key)
    ranked = sorted(found.values(), key=lambda e: (-scores[e.id], KINDS.index(e.kind), order[e.id]))
    return ranked[:limit]


def _phrasings_file(game_key: str, lang: str) -> Traversable:
    """A game's phrasings in ``lang``: ``data/phrasings-<lang>.toml`` beside its entries."""
    return _resource(game_key, f"phrasings-{lang}.toml")


@cache
def phrasings_of(game_key: str, lang: str) -> dict[str, tuple[str, ...]]:
    """A game's phrasings in ``lang`` (entry id -> questions players ask for it); empty without a file."""
    res = _phrasings_file(game_key, lang)
    if not res.is_file():
        return {}
    asked = tomllib.loads(res.read_text(encoding="utf-8"))
    mine = {e.id for e in _load(game_key) if e.lang == lang}
    unknown = set(asked) - mine
    if unknown:
        raise ValueError(f"{game_key} phrasings-{lang}.toml: no {lang} entry {', '.join(sorted(unknown))}")
    return {entry_id: tuple(str(text) for text in texts) for entry_id, texts in asked.items()}


@cache
def _phrasings(game_key: str, lang: str) -> phrasings.Model:
    """The phrasings model of a game's entries in ``lang``. It learns from the game's phrasings, every entry's
    names and sentences, and the questions of the lookup's question sets outside their blind part."""
    language = LANGUAGES[lang]
    mine = [e for e in _load(game_key) if e.lang == lang]
    examples = [(entry_id, text) for entry_id, texts in phrasings_of(game_key, lang).items() for text in texts]
    examples += [(e.id, name) for e in mine for name in (e.title, *e.aliases)]
    examples += [(e.id, line) for e in mine for line in _sentences(e.text)]
    examples += lookup_questions.taught(game_key, lang)
    reader = phrasings.Reader(lambda text: _content(_phrased(_words(text), language), language), language.stem,
                              _synonyms(lang), lambda text: [w for w in _words(text) if w in language.stop_words])
    return phrasings.Model(reader, examples)


def prepare(game_key: str, lang: str) -> None:
    """Build what answering a question of a game in ``lang`` needs, its entries' index and its phrasings model,
    which the first such question would otherwise wait for (the bot does it in a thread when it starts)."""
    _ranking_index(game_key, lang)
    _phrasings(game_key, lang)


_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


def _sentences(text: str) -> list[str]:
    """An entry's text cut into its sentences and list items."""
    return [part for part in _SENTENCE.split(text) if len(part.split()) >= 3]


def _with_phrasings(game_key: str, text: str, lang: str, scores: dict[str, float],
                    found: dict[str, RuleEntry]) -> dict[str, float]:
    """The scores of a question's entries with the phrasings model's weighed in (:data:`LEARNED_SHARE`),
    both scaled to their best; ``found`` gains the entries only the model finds."""
    learned = _phrasings(game_key, lang).scores(text)
    top_read, top_learned = max(scores.values(), default=0.0), max(learned.values(), default=0.0)
    if top_learned <= 0:
        return scores
    entries_by_id = _by_id(game_key)
    out = {}
    for entry_id in scores.keys() | learned.keys():
        found.setdefault(entry_id, entries_by_id[entry_id])
        read = scores.get(entry_id, 0.0) / top_read if top_read > 0 else 0.0
        out[entry_id] = (1 - LEARNED_SHARE) * read + LEARNED_SHARE * learned.get(entry_id, 0.0) / top_learned
    return out


@cache
def _positions(game_key: str) -> dict[str, int]:
    return {e.id: i for i, e in enumerate(_load(game_key))}


def search(game_key: str, question: str, limit: int = 3, lang: str | None = DEFAULT_LANG) -> list[RuleEntry]:
    """The entries that best answer a question asked in plain words, best first, at most ``limit``.

    Filler words are ignored, word forms and synonyms match ("bumped" finds Bumping, "water" the
    stream), misspelt words count as the words they are closest to, and a match in an entry's title or
    aliases weighs more than one in its text. An exact name always comes first. ``lang`` is the asker's
    language: its entries answer, read with its filler words, stemmer and synonyms (see the module).
    """
    if limit <= 0:
        return []
    return _best(game_key, question, False, lang, limit)


def answer(game_key: str, question: str, lang: str | None = DEFAULT_LANG
           ) -> tuple[RuleEntry | None, list[RuleEntry]]:
    """The entry that answers ``question`` and up to two alternatives: an exact name, else the best match.

    An entry whose ``lang`` is not ``lang`` is a fallback: the game has no entry in the asker's language.
    """
    exact = find(game_key, question, lang)
    found = search(game_key, question, limit=3 if exact is None else 4, lang=lang)
    if exact is not None:
        return exact, [e for e in found if e.id != exact.id][:2]
    if not found:
        return None, []
    return found[0], found[1:3]


def suggest(game_key: str, text: str, limit: int = 25, lang: str | None = DEFAULT_LANG) -> list[RuleEntry]:
    """Entries that fit what a player has typed so far, best first, at most ``limit`` (autocomplete).

    The same ranking as :func:`search`, except that the last word may be unfinished ("time b" finds
    Time Bomb). Empty text lists the how-to entries, then the sections, tiles, parts, crew and rulings
    (of the asker's language).
    """
    limit = max(0, min(limit, 25))
    if not normalize(text):
        mine = entries(game_key, pool_language(game_key, lang))
        order = {e.id: i for i, e in enumerate(mine)}
        return sorted(mine, key=lambda e: (KINDS.index(e.kind), order[e.id]))[:limit]
    if limit == 0:
        return []
    return _best(game_key, text, True, lang, limit)


def reply_language(question: str, chosen: str | None = None, fallback: str = DEFAULT_LANG) -> str:
    """The language to answer ``question`` in: the one ``chosen`` (an option, a flag), else the language
    the question is written in by the vote of its filler words (:func:`detect_language`, without a game:
    a lone name such as "Boxengasse" says nothing), else ``fallback`` (the asker's Discord, the default).
    So a German question on an English server is answered in German, and an English one on a German
    server in English."""
    if chosen in LANGS:
        return chosen
    return detect_language(question) or (fallback if fallback in LANGS else DEFAULT_LANG)


def other_name(game_key: str, entry: RuleEntry, question: str) -> str | None:
    """The title of ``entry``'s twin in the other language when the question used that language's name of
    the thing and not the entry's own ("Glue" asked of the German "Leim": "Glue"); else None."""
    other = other_named(game_key, entry, question)
    return other.title if other is not None else None


def other_named(game_key: str, entry: RuleEntry, question: str) -> RuleEntry | None:
    """``entry``'s twin in another language when the question used that language's name of the thing and
    not the entry's own (its ``title`` is the name used, its ``lang`` the language); else None."""
    asked = set(_words(question))
    own = {w for name in (entry.title, *entry.aliases) for w in _words(name)}
    for lang in languages(game_key):
        other = twin(game_key, entry, lang)
        if other is None or other is entry:
            continue
        theirs = {w for name in (other.title, *other.aliases) for w in _words(name)} - own
        language = LANGUAGES[lang]
        if any(w in asked for w in theirs if len(w) >= 3 and w not in language.stop_words):
            return other
    return None
