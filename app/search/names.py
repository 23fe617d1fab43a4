"""Recognising card names inside what a player typed.

Players write "thorne room", "KC", "libraries", "King's Court's" or the German
"Burggraben"; every form has to land on the Card Reference slug. The names
come from the store (``cards``, ``german_names``) and the community
abbreviation table ``corpus/data/abbreviations.csv`` — never from memory.

Matching is longest-first over the query's words: exact (case, accents and
apostrophes ignored), then plural/possessive, German, abbreviation; what is
left is tried fuzzily (optimal string alignment distance, so a swapped pair
of letters is one edit) but only when a phrase contains a word the corpus
does not use, so ordinary words are never "corrected" into cards.
"""
from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path

from rapidfuzz import process
from rapidfuzz.distance import OSA

from app import config
from app.corpus.model import slugify
from app.search.german import GERMAN_WORDS, fold

MAX_NAME_WORDS = 5
MAX_QUERY_WORDS = 60          # longer queries are matched on their first words only
_TOKEN = re.compile(r"[^\W_]+(?:['\u2019\u2018][^\W_]+)*")
# Words a misspelt name never consists of; they are never fuzzily corrected.
_NEVER_FUZZY = {
    "the", "and", "can", "you", "your", "with", "from", "what", "when", "which", "does", "that", "this",
    "have", "play", "card", "cards", "gain", "goes", "first", "then", "into", "onto", "turn",
    # a German question's own words ("meine" is not a misspelt Mine)
    *(_w for w in GERMAN_WORDS for _w in (slugify(w), slugify(fold(w)))),
}
# How exact a match was, best first; exact forms rank before fuzzy ones.
HOW_RANK = {"exact": 0, "plural": 1, "german": 1, "abbreviation": 2, "fuzzy": 3}


@dataclass(frozen=True)
class Recognized:
    slug: str
    name: str                  # Card Reference name
    matched: str               # the words as the player typed them
    how: str                   # exact | plural | german | abbreviation | fuzzy
    distance: int = 0          # edits, for fuzzy matches
    start: int = 0             # character span in the cleaned query
    end: int = 0
    weak: bool = False         # a one-word name that is also an ordinary word ("trade", "gold") typed in lower case

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class _Token:
    norm: str
    raw: str
    start: int
    end: int


def abbreviations_path() -> Path:
    return config.corpus_dir() / "data" / "abbreviations.csv"


def load_abbreviations(path: Path | None = None) -> list[tuple[str, str]]:
    """(abbreviation, card name) rows; a clear error names the file and line of a bad row."""
    path = path or abbreviations_path()
    if not path.exists():
        return []
    rows: list[tuple[str, str]] = []
    with path.open(encoding="utf-8", newline="") as fh:
        reader = csv.reader(fh)
        header = next(reader, None)
        if header != ["abbreviation", "card"]:
            raise ValueError(f"{path}:1: expected header 'abbreviation,card', found {header!r}")
        for line_no, row in enumerate(reader, start=2):
            if not row or not "".join(row).strip():
                continue
            if len(row) != 2 or not row[0].strip() or not row[1].strip():
                raise ValueError(f"{path}:{line_no}: expected 'abbreviation,card', found {row!r}")
            rows.append((row[0].strip(), row[1].strip()))
    return rows


def tokenize(text: str) -> list[_Token]:
    out = []
    for m in _TOKEN.finditer(text):
        raw = m.group()
        # slugify can split a token (e.g. accents folding to dashes); keep the first part's span
        for part in _parts(raw):
            out.append(_Token(part, raw, m.start(), m.end()))
    return out


@lru_cache(maxsize=65536)
def _parts(raw: str) -> tuple[str, ...]:
    return tuple(_norm(raw).split())


def _singular_forms(word: str) -> list[str]:
    forms = []
    if word.endswith("ies") and len(word) > 4:
        forms.append(word[:-3] + "y")
    if word.endswith("es") and len(word) > 3:
        forms.append(word[:-2])
    if word.endswith("s") and len(word) > 2:
        forms.append(word[:-1])
    return forms


class NameIndex:
    """Every name a card is known by, with the lookups the query needs."""

    def __init__(self, cards: Iterable[tuple[str, str]], german: Iterable[tuple[str, str]] = (),
                 abbreviations: Iterable[tuple[str, str]] = (), vocabulary: dict[str, list[int]] | None = None):
        self.names: dict[str, str] = {}               # slug -> Card Reference name
        self.exact: dict[str, str] = {}               # normalised name -> slug
        for slug, name in cards:
            self.names[slug] = name
            self.exact.setdefault(_norm(name), slug)
        self.german: dict[str, str] = {}
        for german_name, slug in german:
            if slug in self.names:
                # as printed, and with its umlauts written out as on a keyboard without them ("Koenigshof")
                for form in (german_name, fold(german_name)):
                    self.german.setdefault(_norm(form), slug)
        self.abbrev: dict[str, list[str]] = {}        # lower-case abbreviation -> slugs
        self.abbrev_case: dict[str, str] = {}         # lower-case -> as written in the table
        for abbr, name in abbreviations:
            slug = self.exact.get(_norm(name))
            if slug is None:
                continue
            self.abbrev.setdefault(abbr.lower(), []).append(slug)
            self.abbrev_case[abbr.lower()] = abbr
        self.vocabulary = vocabulary or {}
        self._first_words = frozenset(k.split(" ", 1)[0] for k in self.exact)
        self._fuzzy_keys = list(self.exact) + [k for k in self.german if k not in self.exact]
        self._fuzzy_slugs = [self.exact.get(k) or self.german[k] for k in self._fuzzy_keys]

    # -- facts about words -----------------------------------------------------
    def one_word_names(self) -> frozenset[str]:
        """The English and German names that are a single word ("village", "burggraben")."""
        return frozenset(key for key in [*self.exact, *self.german] if " " not in key)

    def known_word(self, word: str) -> bool:
        """The corpus, or players' questions in corpus/data/rule-questions ("hurt", "couldn't"), use this
        word: it is not a misspelling. (The questions' counts stay out of ``ordinary_word``: they write
        card names in lower case, "throne room feast", which would make every name look ordinary.)"""
        counts = self.vocabulary.get(word)
        # an index built before the question tables has two counts per word, not three
        return bool(counts and (counts[1] >= 2 or len(counts) > 2 and counts[2] >= 2)) or word in _NEVER_FUZZY

    def _never_misspelt(self, word: str, words: frozenset[str]) -> bool:
        """A word the corpus or the players use (``known_word``), or one of ``words`` (a German question's players'
        words, ``word_forms``), is never read as a misspelt name."""
        return self.known_word(word) or word in words

    def used_word(self, word: str) -> bool:
        """The documents use this word (lower case, accents folded: "zahlt" for "zählt")."""
        return bool(self.vocabulary.get(word))

    def ordinary_word(self, word: str) -> bool:
        """The corpus mostly writes this word in lower case: it is an ordinary word, not only a card name."""
        counts = self.vocabulary.get(word)
        return bool(counts) and counts[0] >= 3 and counts[0] * 2 >= counts[1]

    # -- recognition ----------------------------------------------------------
    def recognize(self, text: str) -> list[Recognized]:
        """Each card named in ``text`` once, by its most exact reading (first span kept)."""
        return dedupe(self.find_all(text))

    def find_all(self, text: str, german_words: frozenset[str] | None = None) -> list[Recognized]:
        """Every span naming a card, repeats included ("throne room a throne room" names it twice),
        so the query can remove every one of them from the words it searches. ``german_words``: the question
        is German, and these are German players' words (``word_forms``), never a misspelt name or a name's
        plural ("kriegen" is no Krieg); a misspelt name is one edit from it at most (``GERMAN_MAX_EDITS``)."""
        tokens = tokenize(text)[:MAX_QUERY_WORDS]
        found: list[Recognized] = []
        covered = [False] * len(tokens)
        i = 0
        while i < len(tokens):
            hit = self._joined(tokens, i, text)
            if hit:
                found.append(hit)
                covered[i] = covered[i + 1] = True
                i += 2
                continue
            for n in range(min(MAX_NAME_WORDS, len(tokens) - i), 0, -1):
                hit = self._exact(tokens[i:i + n], text, german_words)
                if hit:
                    found.extend(hit)
                    for j in range(i, i + n):
                        covered[j] = True
                    i += n
                    break
            if not hit:
                i += 1
        cap = None if german_words is None else GERMAN_MAX_EDITS
        words = german_words or frozenset()
        found = self._misspelt_neighbours(tokens, covered, found, text, cap, words)
        found.extend(self._fuzzy(tokens, covered, text, cap, words))
        found.sort(key=lambda r: r.start)
        return found

    def _joined(self, tokens: list[_Token], i: int, text: str) -> Recognized | None:
        """Two words that are one card name written apart ("watch tower" is Watchtower), when the two
        words are not themselves a name."""
        if i + 1 >= len(tokens):
            return None
        pair = tokens[i:i + 2]
        key = pair[0].norm + pair[1].norm
        slug = self.exact.get(key)
        if slug is None or f"{pair[0].norm} {pair[1].norm}" in self.exact:
            return None
        start, end = pair[0].start, pair[1].end
        return self._rec(slug, text[start:end], "fuzzy", start, end, pair, distance=1)

    def _misspelt_neighbours(self, tokens: list[_Token], covered: list[bool], found: list[Recognized],
                             text: str, cap: int | None = None,
                             words: frozenset[str] = frozenset()) -> list[Recognized]:
        """A misspelt word near a one-word match may belong to a longer name with it ("minning village" is
        Mining Village, not Village; "hoorse traders" is Horse Traders, not Trader; "jak of all trades" is
        Jack of All Trades, not Trade): the longer fuzzy reading replaces it. The words between them are
        words no other name took, and the whole span is at most a name's length."""
        out = list(found)
        for i, tok in enumerate(tokens):
            if covered[i] or len(tok.norm) < 3 or self._never_misspelt(tok.norm, words):
                continue
            for step in (1, -1):
                j = i + step
                while 0 <= j < len(tokens) and not covered[j] and abs(j - i) < MAX_NAME_WORDS - 1:
                    j += step
                if not 0 <= j < len(tokens) or not covered[j]:
                    continue
                near = next((r for r in out if r.start == tokens[j].start and r.end == tokens[j].end), None)
                if near is None or near.how not in ("exact", "plural"):
                    continue
                span = tokens[min(i, j):max(i, j) + 1]
                phrase = " ".join(t.norm for t in span)
                m = process.extractOne(phrase, self._fuzzy_keys, scorer=OSA.distance,
                                       score_cutoff=_max_edits(phrase, cap))
                if m is None or self._fuzzy_slugs[m[2]] == near.slug:
                    continue
                start, end = span[0].start, span[-1].end
                out.remove(near)
                out.append(self._rec(self._fuzzy_slugs[m[2]], text[start:end], "fuzzy", start, end, span,
                                     distance=int(m[1])))
                for k in range(min(i, j), max(i, j) + 1):
                    covered[k] = True
                break
        return out

    def mentions(self, text: str) -> list[str]:
        """Card slugs a corpus text names (exact, capitalised names only: the corpus capitalises card names)."""
        out: list[str] = []
        tokens = tokenize(text)
        i = 0
        while i < len(tokens):
            step = 1
            if tokens[i].raw[:1].isupper() and self._may_start_name(tokens[i].norm):
                for n in range(min(MAX_NAME_WORDS, len(tokens) - i), 0, -1):
                    key = " ".join(t.norm for t in tokens[i:i + n])
                    slug = self.exact.get(key)
                    if slug is None:
                        slug = next((self.exact[f] for f in _phrase_singulars(key) if f in self.exact), None)
                    if slug:
                        out.append(slug)
                        step = n
                        break
            i += step
        return list(dict.fromkeys(out))

    def _may_start_name(self, word: str) -> bool:
        """A name's first word, or (a one-word name in the plural) its singular: a cheap test before
        trying every phrase starting here (``mentions`` reads every passage at each build)."""
        return word in self._first_words or any(f in self._first_words for f in _singular_forms(word))

    def _exact(self, toks: list[_Token], text: str, german_words: frozenset[str] | None = None) -> list[Recognized]:
        key = " ".join(t.norm for t in toks)
        start, end = toks[0].start, toks[-1].end
        typed = text[start:end]
        if key in self.exact:
            slug = self.exact[key]
            return [self._rec(slug, typed, "exact", start, end, toks)]
        for form in _phrase_singulars(key):
            if form in self.exact:
                return [self._rec(self.exact[form], typed, "plural", start, end, toks)]
        if len(key) >= 4 and key + "s" in self.exact:
            # a name in the plural typed in the singular ("horse trader", "jack of all trade", "nomad"):
            # tried after the exact names, so "trader" stays Trader
            return [self._rec(self.exact[key + "s"], typed, "plural", start, end, toks)]
        if key in self.german:
            return [self._rec(self.german[key], typed, "german", start, end, toks)]
        # a German plural only when capitalised, as German writes nouns: "Flüche reichen nicht" is a verb, not Rich
        plurals = (_german_singulars(key) if german_words is not None and key not in german_words
                   and typed[:1].isupper() else [])
        for form in [*_phrase_singulars(key), *plurals]:
            # an English plural the corpus uses is that word, not a German name plus "s" ("Hexes", not Hexe)
            if form in self.german and not (key.endswith("s") and self.known_word(key)):
                return [self._rec(self.german[form], typed, "german", start, end, toks)]
        if len(toks) == 1 and key in self.abbrev:
            written = self.abbrev_case[key]
            # a lower-case ordinary word ("lab" would be fine, "gm" too) only counts when it is not a corpus word
            if typed == written or typed.upper() == typed or not self.known_word(key):
                return [self._rec(s, typed, "abbreviation", start, end, toks) for s in self.abbrev[key]]
        return []

    def _rec(self, slug: str, typed: str, how: str, start: int, end: int, toks: list[_Token],
             distance: int = 0) -> Recognized:
        weak = (len(toks) == 1 and how in ("exact", "plural") and typed[:1].islower()
                and self.ordinary_word(toks[0].norm))
        return Recognized(slug, self.names[slug], typed, how, distance, start, end, weak)

    def _fuzzy(self, tokens: list[_Token], covered: list[bool], text: str, cap: int | None = None,
               words: frozenset[str] = frozenset()) -> list[Recognized]:
        out: list[Recognized] = []
        i = 0
        while i < len(tokens):
            if covered[i]:
                i += 1
                continue
            best: tuple[int, int, str] | None = None     # (distance, -length, slug)
            best_n = 0
            for n in range(min(MAX_NAME_WORDS, len(tokens) - i), 0, -1):
                span = tokens[i:i + n]
                if any(covered[i:i + n]):
                    continue
                if not any(len(t.norm) >= 3 and not self._never_misspelt(t.norm, words) for t in span):
                    continue
                phrase = " ".join(t.norm for t in span)
                limit = _max_edits(phrase, cap)
                if limit == 0:
                    continue
                for form in [phrase, *_phrase_singulars(phrase)]:
                    found = process.extract(form, self._fuzzy_keys, scorer=OSA.distance, score_cutoff=limit, limit=4)
                    if not found:
                        continue
                    _, dist, idx = found[0]
                    tied = [m for m in found if m[1] == dist]
                    if len(form) < SURE_LENGTH and len({self._fuzzy_slugs[m[2]] for m in tied}) > 1:
                        # a short word as near to two names ("baroe": Baron, Barge) names neither, unless it is a
                        # slip of the fingers from one only ("tradr" left a letter out of Trader; Trade has
                        # another letter in its place)
                        slips = {self._fuzzy_slugs[m[2]]: m for m in tied if not slip(form, m[0])}
                        if len(slips) != 1:
                            continue
                        _, dist, idx = next(iter(slips.values()))
                    cand = (int(dist), -n, self._fuzzy_slugs[idx])
                    if best is None or cand < best:
                        best, best_n = cand, n
            if best is None:
                i += 1
                continue
            span = tokens[i:i + best_n]
            start, end = span[0].start, span[-1].end
            out.append(self._rec(best[2], text[start:end], "fuzzy", start, end, span, distance=best[0]))
            for j in range(i, i + best_n):
                covered[j] = True
            i += best_n
        return out


def _norm(name: str) -> str:
    """Lower case, accents and apostrophes gone, words apart; ß is "ss" (slugify would cut the word there:
    "Außenposten" was the two words "au enposten", and "Aussenposten" named no card)."""
    return slugify(name.replace("ß", "ss").replace("ẞ", "SS")).replace("-", " ")


def _phrase_singulars(key: str) -> list[str]:
    head, _, last = key.rpartition(" ")
    return [f"{head} {f}".strip() for f in _singular_forms(last)]


# Below this length a misspelling must be nearer to one name than to any other to count.
SURE_LENGTH = 7


# Edits a misspelt name may be from the name in a German question. German words are long, and a long word two
# letters from a name is mostly another German word: in the German tuning lists "doppelt" read as Paddock and
# "tränken" as Tracker, the only two-edit readings there, both wrong (issue #34, seventh session).
GERMAN_MAX_EDITS = 1
# German plural endings: "Eroberungen" is Eroberung (Conquest), read as the name, not as a misspelling of it
# (capitalised only, as German writes nouns).
_GERMAN_PLURAL_ENDINGS = ("en", "n", "e")


def _max_edits(phrase: str, cap: int | None = None) -> int:
    """Edits tolerated for a phrase of this length: short words are too easy to confuse."""
    n = len(phrase.replace(" ", ""))
    if n < 5:
        return 0            # four letters are offered as suggestions, never corrected (search_empty.py)
    edits = 1 if n < SURE_LENGTH else 2
    return edits if cap is None else min(edits, cap)


def word_forms(phrases: Iterable[str]) -> frozenset[str]:
    """The one-word phrases as name recognition reads a word, with and without their umlauts."""
    return frozenset(t.norm for p in phrases if " " not in p.strip() for form in (p, fold(p))
                     for t in tokenize(form))


def _german_singulars(key: str) -> list[str]:
    """The name a German plural of its last word may stand for ("eroberungen" -> "eroberung")."""
    return [key[:-len(e)] for e in _GERMAN_PLURAL_ENDINGS if key.endswith(e) and len(key) - len(e) >= 5]


def slip(typed: str, meant: str) -> int:
    """0 when ``typed`` is one slip of the fingers from ``meant`` -- a letter left out, one too many, or
    two swapped -- and 1 otherwise (another letter typed in its place, or more than one edit). Between
    two readings as near as each other, the slip is the likelier typo: "theif" is Thief, not "their";
    "staet" is "state", not "start"."""
    if OSA.distance(typed, meant) != 1:
        return 1
    return 0 if len(typed) != len(meant) or sorted(typed) == sorted(meant) else 1


def dedupe(found: list[Recognized]) -> list[Recognized]:
    best: dict[str, Recognized] = {}
    for r in found:
        old = best.get(r.slug)
        if old is None or HOW_RANK[r.how] < HOW_RANK[old.how]:
            best[r.slug] = r
    return sorted(best.values(), key=lambda r: r.start)
