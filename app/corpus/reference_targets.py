"""Lookup tables from printed names to parsed objects, for resolving cross-references.

The document names its targets loosely: capitals with or without quotes
("“DO X TO”", "DO X TO"), inflected ("SETS UP A LATER ABILITY" for *Set up a
later ability*, "DISCARDS DOWN TO 3" for *Discard down to x cards in hand*),
half of a slash title ("DIFFERENTLY NAMED CARDS" for *Copy of a card /
Differently named cards*). Titles are therefore compared through ``title_key``
(upper case, punctuation dropped, words stemmed) and, failing an exact key,
by word prefix. Cards are looked up by name, with a small-edit-distance
fallback for misspellings the document makes ("Hagglor").
"""
from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field

from app.corpus.model import (
    CardEntry, IndexTerm, Paragraph, ParsedCorpus, PreviousVersion, Ruling, Section, slugify,
)

_STOP = {"A", "AN", "THE", "TWO"}


def _stem(word: str) -> str:
    for suffix in ("ING", "ED", "ES", "S"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def title_key(text: str) -> tuple[str, ...]:
    """Comparable form of a printed title: ``“Do X to”`` == ``DO X TO``; digits become X."""
    text = text.upper().replace("&", " AND ")
    text = re.sub(r"[\"“”'’‘]", "", text)
    words = re.findall(r"[A-Z0-9]+", text)
    return tuple(_stem("X" if w.isdigit() else w) for w in words if w not in _STOP)


def _variants(title: str) -> list[str]:
    """A slash title is referred to by each half: "Copy of a card / Differently named cards"."""
    out = [title]
    # chapter headings are printed "VIII. Index" but referred to as "INDEX"
    out.append(re.sub(r"^[IVX]+\.\s+", "", title))
    # "Each player/Each other player": each phrase of two or more words
    parts = [p.strip() for p in title.split("/")]
    if len(parts) > 1:
        out += [p for p in parts if len(p.split()) >= 2]
    # "Gain to your hand/deck", "... and discard/trash/play": each alternative word
    for t in list(out):
        m = re.search(r"(\w+(?:/\w+)+)", t)
        if m:
            out += [t[: m.start()] + w + t[m.end():] for w in m.group(1).split("/")]
    return out


def _unique(sections: list[Section]) -> list[Section]:
    seen: set[str] = set()
    out = []
    for s in sections:
        if s.slug not in seen:
            seen.add(s.slug)
            out.append(s)
    return out


def edit_distance(a: str, b: str, limit: int = 2) -> int:
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


@dataclass
class Targets:
    """Everything a reference can point at in the Complete Rules, indexed for lookup."""

    sections: list[Section] = field(default_factory=list)
    by_title: dict[tuple[str, ...], list[Section]] = field(default_factory=lambda: defaultdict(list))
    by_slug: dict[str, Section] = field(default_factory=dict)
    paragraphs: dict[str, list[Paragraph]] = field(default_factory=lambda: defaultdict(list))
    cards: dict[str, CardEntry] = field(default_factory=dict)          # slug -> entry
    card_names: dict[str, str] = field(default_factory=dict)           # printed name -> slug
    versions: dict[str, list[PreviousVersion]] = field(default_factory=lambda: defaultdict(list))
    rulings: dict[tuple[str, str | None, int], Ruling] = field(default_factory=dict)
    index_terms: dict[tuple[str, ...], IndexTerm] = field(default_factory=dict)

    @classmethod
    def build(cls, parsed: ParsedCorpus) -> "Targets":
        t = cls()
        for s in parsed.sections:
            if s.doc != "rules":
                continue
            t.sections.append(s)
            t.by_slug[s.slug] = s
            names = _variants(s.title) + [a for alias in s.aliases for a in _variants(alias)]
            keys = {title_key(n) for n in names}
            for k in keys:
                if k:
                    t.by_title[k].append(s)
        for p in parsed.paragraphs:
            if p.section in t.by_slug:
                t.paragraphs[p.section].append(p)
        for c in parsed.cards:
            t.cards[c.slug] = c
            t.card_names.setdefault(c.name.replace("’", "'"), c.slug)
        for v in parsed.previous_versions:
            t.versions[v.card].append(v)
        for r in parsed.rulings:
            if r.number is not None:
                t.rulings.setdefault((r.card, r.version, r.number), r)
        for term in parsed.index_terms:
            t.index_terms.setdefault(title_key(term.term), term)
        return t

    # ---- sections ----------------------------------------------------------

    def find_sections(self, name: str) -> list[Section]:
        """Sections whose title matches ``name`` exactly, else by word prefix either way."""
        key = title_key(name)
        if not key:
            return []
        if key in self.by_title:
            return _unique(self.by_title[key])
        found: list[Section] = []
        for k, secs in self.by_title.items():
            # the printed name is the start of a title ("DIG FOR" -> "Dig for cards")
            # or a title followed by a few printed words ("TRAVELLER UPGRADE").
            if (len(key) >= 2 or len(key[0]) >= 5) and k[: len(key)] == key:
                found += secs
        return _unique(found)

    def numbered_paragraph(self, section: Section, number: int) -> Paragraph | None:
        for p in self.paragraphs.get(section.slug, []):
            if p.number == number:
                return p
        return None

    def labelled_paragraph(self, section: Section, label: str) -> Paragraph | None:
        for p in self.paragraphs.get(section.slug, []):
            if p.label == label:
                return p
        return None

    # ---- cards and rulings -------------------------------------------------

    def card_slug(self, name: str) -> str | None:
        name = name.replace("’", "'")
        slug = self.card_names.get(name)
        if slug is None:
            s = slugify(name)
            slug = s if s in self.cards else None
        return slug

    def misspelled_card(self, name: str) -> str | None:
        """The one card whose name is within edit distance 1 (2 for long names) of ``name``."""
        if len(name) < 5:
            return None
        limit = 1 if len(name) < 8 else 2
        hits = {slug for printed, slug in self.card_names.items()
                if printed[0] == name[0] and edit_distance(printed.lower(), name.lower(), limit) <= limit}
        return hits.pop() if len(hits) == 1 else None

    def version_slug(self, card: str, qualifier: str | None) -> str | None:
        """``('hermit', 'pre-2022')`` -> ``'hermit-pre-2022'`` when that Previous version exists."""
        if not qualifier:
            return None
        for v in self.versions.get(card, []):
            if v.slug.endswith(qualifier):
                return v.slug
        return None

    def ruling(self, card: str, version: str | None, number: int) -> tuple[Ruling | None, bool]:
        """The numbered ruling; second value True when found only in another version of the card.

        Previous versions continue the main entry's numbering, so a number that
        is not in the named version is looked for in the card's other versions.
        """
        r = self.rulings.get((card, version, number))
        if r is not None:
            return r, False
        for v in [None] + [pv.slug for pv in self.versions.get(card, [])]:
            if v != version and (card, v, number) in self.rulings:
                return self.rulings[(card, v, number)], version is not None
        return None, False

    def index_term(self, text: str) -> IndexTerm | None:
        return self.index_terms.get(title_key(text))
