"""Players' words for the rules' words, learned from the question tables (IBM Model 1).

A player asks "can everyone look at the cards in the trash"; the rule that answers says "open
information ... all players". BM25 sees only the words both share, and a passage's own table
questions help only when one of them is worded like the question typed. But the tables pair some
8,000 players' questions with the passage that answers each, and together they also say which
passage words players ask about in which words: "look" for "open", "topdeck" for "onto", "pick" for
"choose". IBM Model 1 (Brown et al. 1993) learns these chances, t(asked word | passage word), by EM
over the pairs. A candidate is then scored by how likely the question is given its words, each
question word translated from the passage's words and mixed with its chance in the whole collection
(Berger and Lafferty 1999) -- a re-ranking feature (``rerank.py``), not a filter.

The model is learned by ``rulings build`` from the store's own table and written next to the
index, so a bench that removes table rows from a copy of the store (``bench/table_holdout.py``,
``bench/train_ranker.py``) gets a model that never saw them. Measured, see ``bench/train_ranker.py``.
"""
from __future__ import annotations

import json
import logging
import math
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from app.search.model_files import Unusable, read_json

log = logging.getLogger(__name__)

FILE = "translation.json"
FORMAT = 1
# EM rounds: 2 and 8 gave the same held-out figures within 0.006 (table hold-out), 4 is the middle.
ROUNDS = 4
# Translations less likely than this are dropped: they are EM's noise and most of the file.
KEEP = 0.02
# The translated passage's share of a word's chance; the rest is the word's chance in the collection
# (0.3 and 0.9 measured within 0.007 of 0.6 on the table hold-out).
MIX = 0.6
# A file bigger than this is not ours (the real one is a few MB): refused before it is parsed.
MAX_BYTES = 64 * 1024 * 1024
_NULL = ""      # Model 1's empty word: question words no passage word explains ("can", "ever")
_FLOOR = 1e-6


@dataclass
class Translation:
    """t(asked | passage word) and each document's words, for scoring candidates."""

    table: dict[str, dict[str, float]]      # asked word -> {passage word: t}
    collection: dict[str, float]            # word -> its share of all passages' words
    docs: list[tuple[dict[str, int], int] | None]   # by document number: word counts and length

    def scores(self, words: Sequence[str], docs: Iterable[int]) -> dict[int, float]:
        """Each document's mean log-chance per word of the question, its words translated.

        Inverted once per question (passage word -> the question words it translates to), so each
        candidate costs one pass over its distinct words rather than one per question word.
        """
        words = list(dict.fromkeys(words))
        if not words:
            return {}
        by_word: dict[str, list[tuple[int, float]]] = defaultdict(list)
        for i, q in enumerate(words):
            for w, t in self.table.get(q, {}).items():
                by_word[w].append((i, t))
        translated = set(by_word)
        background = [(1 - MIX) * self.collection.get(q, 0.0) + _FLOOR for q in words]
        out: dict[int, float] = {}
        for d in docs:
            got = self.docs[d] if 0 <= d < len(self.docs) else None
            if got is None:
                continue
            counts, length = got
            chance = [0.0] * len(words)
            for w in translated.intersection(counts):      # in C: most of a passage's words translate to none
                c = counts[w]
                for i, t in by_word[w]:
                    chance[i] += t * c
            out[d] = sum(math.log(MIX * p / length + b) for p, b in zip(chance, background)) / len(words)
        return out


def learn(pairs: Sequence[tuple[Sequence[str], Sequence[str]]], rounds: int = ROUNDS) -> dict[str, dict[str, float]]:
    """t(asked | passage word) from (question words, passage words) pairs, by Model 1's EM.

    Each question word is explained by one of its passage's distinct words or by the empty word;
    a round shares each question word among them by the current t, then sets t(q | w) to w's share
    of all that was explained by w.
    """
    data = [(list(dict.fromkeys(q)), [*dict.fromkeys(p), _NULL]) for q, p in pairs if q]
    t: dict[tuple[str, str], float] = {}
    for _ in range(rounds):
        counts: dict[tuple[str, str], float] = defaultdict(float)
        for asked, passage in data:
            for q in asked:
                row = [t.get((q, w), 0.0) for w in passage] if t else [1.0] * len(passage)
                total = sum(row)
                if not total:
                    continue
                for w, v in zip(passage, row):
                    if v:
                        counts[q, w] += v / total
        explained: dict[str, float] = defaultdict(float)
        for (_, w), c in counts.items():
            explained[w] += c
        # the very unlikely are dropped between rounds too: they would be dropped at the end anyway
        t = {qw: v for qw, c in counts.items() if (v := c / explained[qw[1]]) >= KEEP / 10}
    table: dict[str, dict[str, float]] = defaultdict(dict)
    for (q, w), v in t.items():
        if v >= KEEP and w != _NULL:
            table[q][w] = round(v, 5)
    return dict(table)


def write(out_dir: Path, table: dict[str, dict[str, float]], doc_words: Sequence[Sequence[str]]) -> None:
    """The model and every document's words (in document-number order; empty for one not scored)."""
    data = {"format": FORMAT, "table": table, "docs": [" ".join(ws) for ws in doc_words]}
    (Path(out_dir) / FILE).write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")


def load(search_dir: Path, doc_count: int) -> Translation | None:
    """The build's model, or None when the index has none or it is not one this code wrote (the
    feature is then 0 for every candidate: search still works, ranked on the other features). Either
    is logged once per index opened, naming the file and what is wrong, so a broken build is seen."""
    path = Path(search_dir) / FILE
    try:
        table, texts = _read(path, doc_count)
    except Unusable as exc:
        log.warning("%s: %s; searching without the translation feature (rulings build writes it)", path, exc)
        return None
    total: Counter[str] = Counter()
    docs: list[tuple[dict[str, int], int] | None] = []
    for text in texts:
        words = text.split() if isinstance(text, str) else []
        counts = Counter(words)
        total.update(counts)
        docs.append((dict(counts), len(words)) if words else None)
    size = sum(total.values()) or 1
    return Translation(table, {w: c / size for w, c in total.items()}, docs)


def _read(path: Path, doc_count: int) -> tuple[dict[str, dict[str, float]], list]:
    data = read_json(path, MAX_BYTES, "translation model")
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise Unusable("not a translation model of this version")
    table, texts = data.get("table"), data.get("docs")
    if not isinstance(table, dict) or not isinstance(texts, list) or len(texts) != doc_count:
        raise Unusable(f"does not match the index's {doc_count} documents")
    try:
        return {str(q): {str(w): float(t) for w, t in row.items()} for q, row in table.items()}, texts
    except (AttributeError, TypeError, ValueError):
        raise Unusable("malformed table") from None
