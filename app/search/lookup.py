"""Card name lookup, the way Scryfall's /cards/named and /cards/autocomplete work.

One card for a name a player typed -- exactly (any case, apostrophe or accent;
the German name; a community abbreviation that means one card) or fuzzily (a
unique start of a name, then the closest name by edit distance) -- and the names
that complete what has been typed so far, for the search box's typeahead. Every
name comes from the same ``NameIndex`` search uses (store ``cards`` and
``german_names``, ``corpus/data/abbreviations.csv``), so the lookup accepts what
search accepts.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA

from app.search.names import NameIndex, _norm, _phrase_singulars

MAX_NAME_CHARS = 100
MAX_SUGGESTIONS = 20
# Typeahead for a sentence: the cards it names (how search recognised them), no guesses. A typo is looked
# for in at most this many words (card names have at most four).
_NAMED = frozenset({"exact", "german", "abbreviation", "plural"})
_TYPO_WORDS = 4


@dataclass(frozen=True)
class NameHit:
    slug: str
    name: str          # the Card Reference name
    how: str           # exact | german | abbreviation | prefix | fuzzy
    matched: str       # the name form that matched (the German name, the abbreviation, ...)

    def to_dict(self) -> dict:
        out = asdict(self)
        out["url"] = f"/cards/{self.slug}"
        out["api_url"] = f"/api/cards/{self.slug}"
        return out


class CardLookup:
    """Exact, fuzzy and prefix lookups over every name a card is known by."""

    def __init__(self, names: NameIndex):
        self.names = names
        # (normalised form, slug, how, form as shown), English names first
        self.forms: list[tuple[str, str, str, str]] = []
        for key, slug in names.exact.items():
            self.forms.append((key, slug, "exact", names.names[slug]))
        for key, slug in names.german.items():
            if key not in names.exact:
                self.forms.append((key, slug, "german", key.title()))
        for abbr, slugs in names.abbrev.items():
            if len(slugs) == 1 and abbr not in names.exact:
                self.forms.append((abbr, slugs[0], "abbreviation", names.abbrev_case[abbr]))
        self._keys = [f[0] for f in self.forms]
        # full names (English and German) for typo matching; abbreviations are too short to correct
        self._full_index = [i for i, f in enumerate(self.forms) if f[2] != "abbreviation"]
        self._full = [self._keys[i] for i in self._full_index]

    def _hit(self, i: int, how: str | None = None) -> NameHit:
        key, slug, kind, shown = self.forms[i]
        return NameHit(slug, self.names.names[slug], how or kind, shown)

    def exact(self, text: str) -> NameHit | None:
        """The card this exact name (English, German or an unambiguous abbreviation) means, or None."""
        key = _norm(text or "")
        if not key or len(text) > MAX_NAME_CHARS:
            return None
        for form in (key, *_phrase_singulars(key)):
            slug = self.names.exact.get(form)
            if slug:
                return NameHit(slug, self.names.names[slug], "exact", self.names.names[slug])
        for form in (key, *_phrase_singulars(key)):
            slug = self.names.german.get(form)
            if slug:
                return NameHit(slug, self.names.names[slug], "german", text.strip())
        abbr = key.replace(" ", "")
        slugs = self.names.abbrev.get(abbr, [])
        if len(slugs) == 1:
            return NameHit(slugs[0], self.names.names[slugs[0]], "abbreviation", self.names.abbrev_case[abbr])
        return None

    def sole_start(self, text: str) -> NameHit | None:
        """The one card whose name starts with what was typed ("throne" -> Throne Room), else None.

        No typo guessing: the search page offers it as "the card X?" beside results that
        recognised no card, so a player who typed the start of a name is one tap from it."""
        key = _norm(text or "")
        if len(key) < 4 or len(text) > MAX_NAME_CHARS:
            return None
        return self._only_start(key)

    def _only_start(self, key: str) -> NameHit | None:
        """The card whose names start with ``key``, when exactly one card's do."""
        starts = {self.forms[i][1]: i for i in self._prefixed(key)}
        return self._hit(next(iter(starts.values())), "prefix") if len(starts) == 1 else None

    def fuzzy(self, text: str) -> NameHit | None:
        """Exact first; then a start of a name that only one card has; then the closest name."""
        hit = self.exact(text)
        if hit is not None:
            return hit
        key = _norm(text or "")
        if len(key) < 2 or len(text) > MAX_NAME_CHARS:
            return None
        started = self._only_start(key)
        if started is not None:
            return started
        if len(key) < 4:
            return None         # "wv" is one edit from "fv": too short to guess
        limit = 1 if len(key) < 8 else 2 if len(key) < 14 else 3
        m = process.extractOne(key, self._full, scorer=OSA.distance, score_cutoff=limit)
        if m is not None:
            return self._hit(self._full_index[m[2]], "fuzzy")
        return None

    def autocomplete(self, text: str, n: int = 10) -> list[NameHit]:
        """Names completing what was typed: names starting with it, then names with a word starting
        with it, then (for a typo) the closest names; each card once, shortest names first."""
        key = _norm(text or "")
        n = max(1, min(MAX_SUGGESTIONS, n))
        if not key or len(text) > MAX_NAME_CHARS:
            return []
        out: dict[str, NameHit] = {}

        def add(indices, how=None):
            for i in sorted(indices, key=lambda i: (len(self.forms[i][3]), self.forms[i][3])):
                slug = self.forms[i][1]
                if slug not in out and len(out) < n:
                    out[slug] = self._hit(i, how)

        add(self._prefixed(key))
        if len(out) < n:
            add([i for i, k in enumerate(self._keys) if f" {key}" in f" {k}" and not k.startswith(key)])
        words = len(key.split())
        if not out and words > 1:
            # a sentence ("moat vs witch, who wins"): the cards it names, as search recognises them, and
            # never a name that only shares some letters with the sentence
            for c in self.names.find_all(text):
                if not c.weak and c.how in _NAMED and c.slug not in out and len(out) < n:
                    how = "exact" if c.how == "plural" else c.how      # "villages": the name, in the plural
                    out[c.slug] = NameHit(c.slug, self.names.names[c.slug], how, c.matched)
        if not out and len(key) >= 3 and words <= _TYPO_WORDS:
            # nothing starts that way: a typo ("thorne", "libary"); closest names by edit ratio
            for _, _score, i in process.extract(key, self._full, scorer=fuzz.ratio, limit=n * 2, score_cutoff=60):
                add([self._full_index[i]], "fuzzy")
            if not out and words == 1:
                # one word typed inside a longer name ("chamelon" for Way of the Chameleon)
                for _, _score, i in process.extract(key, self._full, scorer=fuzz.partial_ratio, limit=n,
                                                    score_cutoff=80):
                    add([self._full_index[i]], "fuzzy")
        return list(out.values())

    def _prefixed(self, key: str) -> list[int]:
        return [i for i, k in enumerate(self._keys) if k.startswith(key)]


def lookup_for(names: NameIndex) -> CardLookup:
    """One lookup per name index (an engine's index lives as long as its build)."""
    found = getattr(names, "_card_lookup", None)
    if found is None:
        found = CardLookup(names)
        names._card_lookup = found       # type: ignore[attr-defined]
    return found
