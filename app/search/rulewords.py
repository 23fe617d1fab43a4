"""Rule sections scored on every word of a question, common ones included.

To stay fast, the main candidate search drops words found in more than a sixth of all
documents ("card", "hand", "gain", "discard", "play"): across 7,000 documents their
postings are long and they rarely separate one card's ruling from another's. But a
general rules question is mostly such words ("does a card gained to my hand go to my
discard pile"), and among the 1,600 Complete Rules paragraphs and sections they are
selective again. So for a question that names no card, each rule candidate's score on
all the question's words is a re-ranking feature (``rerank.py``), from postings restricted
to rule documents: each term's list is filtered once, on first use, and kept. (Adding the
rule documents best on all words as extra candidates was tried: on the tuning questions it
answered none more in the top three, so it is not done.)
"""
from __future__ import annotations

import threading
from typing import Iterable


# A word in more than this share of the rule documents is skipped.
_MAX_SHARE = 0.3


class RulePostings:
    """The text-field postings of the rule documents only (filtered lazily, per term)."""

    def __init__(self, postings, rule_docs: frozenset[int]):
        self.postings = postings
        self.rule_docs = rule_docs
        self._terms: dict[str, tuple[tuple[int, ...], tuple[float, ...]]] = {}
        self._lock = threading.Lock()
        self.common = len(rule_docs) * _MAX_SHARE

    def _term(self, term: str) -> tuple[tuple[int, ...], tuple[float, ...]]:
        got = self._terms.get(term)
        if got is None:
            a, b = self.postings.slices.get("text", {}).get(term, (0, 0))
            pairs = [(d, s) for d, s in zip(self.postings.ids[a:b], self.postings.scores[a:b]) if d in self.rule_docs]
            got = (tuple(d for d, _ in pairs), tuple(s for _, s in pairs))
            with self._lock:
                self._terms[term] = got
        return got

    def scores(self, stems: Iterable[str]) -> dict[int, float]:
        acc: dict[int, float] = {}
        get = acc.get
        for t in dict.fromkeys(stems):
            ids, scores = self._term(t)
            if len(ids) > self.common:
                continue            # in most rule documents ("card"): separates nothing, costs most
            for d, s in zip(ids, scores):
                acc[d] = get(d, 0.0) + s
        return acc

