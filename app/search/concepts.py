"""Concept words -> the sections that explain them.

"lose track", "when-gain", "overpay", "Duration", "shuffle", "tie": players
name a rule by its concept. The concepts are the store's own section titles
(rules sections, Common effects, FAQ sections) and the index terms of chapter
VIII, compared as stemmed word sequences, so no list of concepts is kept by
hand and a renamed heading is picked up by the next build.
"""
from __future__ import annotations

import re
from dataclasses import asdict, dataclass

from whoosh.analysis import LowercaseFilter, RegexTokenizer, StemFilter, StopFilter

from app.corpus.text import plain
from app.search.stemming import stem_word
from app.store.db import Store

# Words that say nothing about which rule is meant. Unlike Whoosh's stop list this keeps
# 'when', 'before', 'after' and 'until', which are the timing concepts themselves.
_STOP = frozenset(
    "a an the of to on and or for is it its i you your can do does with what how if my me this that be are "
    "there their they them so at by as from into onto rule rules card cards ability abilities type "
    "happen happens work works".split()
)
_ANALYZER = RegexTokenizer(r"[^\W_]+") | LowercaseFilter() | StopFilter(stoplist=_STOP, minsize=2) | StemFilter(stemfn=stem_word)
_PARENS = re.compile(r"\([^)]*\)")

_CONCEPT_KINDS = ("section", "subsection", "common_effect", "faq_section", "faq_subsection")


@dataclass(frozen=True)
class Concept:
    phrase: str                 # as printed: the section title or index term
    targets: tuple[str, ...]    # store keys (section slugs; 'index:<slug>' for index terms)

    def to_dict(self) -> dict:
        return asdict(self)


def stems(text: str) -> tuple[str, ...]:
    return tuple(t.text for t in _ANALYZER(text))


class ConceptIndex:
    def __init__(self, store: Store):
        self.by_stems: dict[tuple[str, ...], list[tuple[str, str]]] = {}
        # a phrase of three or more words, less its last: players drop the trailing noun
        # ("non-supply cards" for "non-Supply pile", "set-aside" for "set-aside area")
        self.by_prefix: dict[tuple[str, ...], list[tuple[str, str]]] = {}
        rows = store.rows(
            "select slug, title, aliases from sections where kind in (%s) order by ord" % ",".join("?" * len(_CONCEPT_KINDS)),
            _CONCEPT_KINDS,
        ) if store.has_table("sections") else []
        for r in rows:
            for phrase in [plain(r["title"]), *(r.get("aliases") or [])]:
                self._add(phrase, r["slug"])
        if store.has_table("index_terms"):
            for t in store.rows("select slug, term from index_terms order by ord"):
                self._add(plain(t["term"]), f"index:{t['slug']}")
        for key, hits in self.by_stems.items():
            if len(key) >= 3 and key[:-1] not in self.by_stems:
                self.by_prefix.setdefault(key[:-1], []).extend(hits)
        self.max_len = max((len(k) for k in self.by_stems), default=0)

    def _add(self, phrase: str, target: str) -> None:
        key = stems(_PARENS.sub(" ", phrase))
        if key:
            self.by_stems.setdefault(key, []).append((phrase, target))

    def match(self, text: str, specific_only: bool = False) -> list[Concept]:
        """Concepts whose whole stemmed phrase appears, contiguous, in the text; longest first.

        A one-word concept ("trash", "supply") only counts when the question is about little
        else: in "market square trashing from the supply" the words describe a ruling, they
        do not ask for the chapter on trashing. ``specific_only`` (cards were named) keeps
        only multi-word concepts.
        """
        seq = stems(text)[:200]
        single_ok = not specific_only and len(seq) <= 2
        found: dict[str, list[str]] = {}
        used = [False] * len(seq)
        for n in range(min(self.max_len, len(seq)), 0 if single_ok else 1, -1):
            for i in range(len(seq) - n + 1):
                if any(used[i:i + n]):
                    continue
                hits = self.by_stems.get(seq[i:i + n]) or self.by_prefix.get(seq[i:i + n])
                if not hits:
                    continue
                for j in range(i, i + n):
                    used[j] = True
                for phrase, target in hits:
                    found.setdefault(phrase, []).append(target)
        return [Concept(p, tuple(dict.fromkeys(t))) for p, t in found.items()]
