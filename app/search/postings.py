"""Per-term BM25F scores worked out once per build, so a query only adds numbers up.

The index never changes after ``rulings build`` and is small (about 6,500
documents), so every posting's score is fixed: it depends on the term's idf,
the document's term frequency and field length, never on the query. Whoosh
recomputes it per query inside a tree of union/intersection matchers, and that
machinery was ~88% of a query's time. Here the scores come from Whoosh's own
BM25F (same statistics, same formula, same weighting object) at build time and
are written next to the segment as two flat arrays; ``top`` then ranks a query
of boosted terms exactly as ``Searcher.search`` would (score descending, lower
document number first on ties), which ``tests/test_search_index.py`` checks
against Whoosh on the real index.

Files: ``postings.json`` (terms -> slices, per-document key and cards) and
``postings.bin`` (document numbers as int32, then scores as float64). Neither
is pickled, so reading them runs no code.

A query's scores are added up in numpy, over the two arrays as they are (no copy): one vector
addition per term instead of a dictionary update per posting, a third of a query's time before.
The additions happen in the same order as a per-posting sum would, so the scores are the same
numbers to the last bit.
"""
from __future__ import annotations

import json
import sys
from array import array
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

import numpy as np
from whoosh import scoring
from whoosh.query import And, Or, Term

JSON_FILE = "postings.json"
BIN_FILE = "postings.bin"
FORMAT = 1
# The fields queries use. 'kind' is never queried, so it is not tabled.
SCORED_FIELDS = ("text", "cards", "parent", "key")
# BM25F, except that a document naming many cards is not penalised for it in the cards field.
WEIGHTING = scoring.BM25F(cards_B=0.0)


class PostingsError(ValueError):
    """The postings files are missing pieces or do not match the index they sit beside."""


@dataclass
class Postings:
    """Scores per (field, term) plus what re-ranking needs per document, without stored-field reads."""

    slices: dict[str, dict[str, tuple[int, int]]]    # field -> term -> [start, end) into ids/scores
    ids: array                                       # document numbers, 'i'
    scores: array                                    # BM25F score of each posting, 'd'
    keys: list[str]                                  # document number -> store key
    cards: list[tuple[str, ...]]                     # document number -> card slugs the text names
    _groups: dict[frozenset[int], np.ndarray] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._id_array = np.frombuffer(self.ids, dtype=np.int32) if len(self.ids) else np.zeros(0, np.int32)
        self._score_array = np.frombuffer(self.scores, dtype=np.float64) if len(self.scores) else np.zeros(0)

    @property
    def doc_count(self) -> int:
        return len(self.keys)

    def doc_frequency(self, field: str, term: str) -> int:
        span = self.slices.get(field, {}).get(term)
        return span[1] - span[0] if span else 0

    def top(self, query: Any, limit: int) -> list[tuple[float, int]]:
        """(score, docnum) of the best ``limit`` matches of an ``Or``/``And``/``Term`` query.

        Only what ``query._build_query`` produces is supported (terms with boosts, an OR of them,
        an AND of unboosted terms inside it); anything else raises TypeError instead of
        silently scoring differently from Whoosh.
        """
        acc, matched = self._scores(query)
        return self._best(acc, matched, limit)

    def top_with(self, query: Any, limit: int, group: frozenset[int], group_limit: int) -> list[tuple[float, int]]:
        """``top``, plus the best ``group_limit`` matches among ``group`` that it left out (one pass
        over the postings): a kind of document that rarely wins on BM25 alone still gets candidates."""
        acc, matched = self._scores(query)
        best = self._best(acc, matched, limit)
        if group_limit <= 0:
            return best
        rest = matched & self._group_mask(group)
        rest[[d for _, d in best]] = False
        return sorted(best + self._best(acc, rest, group_limit), key=lambda sd: (-sd[0], sd[1]))

    def scored(self, query: Any, docs: Sequence[int]) -> list[tuple[float, int]]:
        """``docs`` with their scores for ``query`` (0 where no clause matches), in the order given."""
        acc, _ = self._scores(query)
        return [(float(acc[d]), d) for d in docs]

    def _group_mask(self, group: frozenset[int]) -> np.ndarray:
        mask = self._groups.get(group)
        if mask is None:
            mask = np.zeros(self.doc_count, dtype=bool)
            mask[[d for d in group if 0 <= d < self.doc_count]] = True
            self._groups[group] = mask
        return mask

    @staticmethod
    def _best(acc: np.ndarray, matched: np.ndarray, limit: int) -> list[tuple[float, int]]:
        """The ``limit`` best matched documents, score descending, lower document number first on ties."""
        docs = np.flatnonzero(matched)
        scores = acc[docs]
        if len(docs) > limit > 0:
            # the limit-th best score bounds the answer; only documents at or above it are sorted
            floor = np.partition(scores, len(scores) - limit)[len(scores) - limit]
            keep = scores >= floor
            docs, scores = docs[keep], scores[keep]
        order = np.lexsort((docs, -scores))[:max(limit, 0)]
        return list(zip(scores[order].tolist(), docs[order].tolist()))

    def _scores(self, query: Any) -> tuple[np.ndarray, np.ndarray]:
        """Every document's summed score and whether any clause matched it."""
        acc = np.zeros(self.doc_count)
        matched = np.zeros(self.doc_count, dtype=bool)
        for sub in (query.subqueries if isinstance(query, Or) else [query]):
            if isinstance(sub, Term):
                self._add_term(acc, matched, sub.fieldname, sub.text, sub.boost)
            elif isinstance(sub, And):
                self._add_all(acc, matched, sub)
            else:
                raise TypeError(f"postings cannot score {type(sub).__name__} clauses")
        if isinstance(query, Or) and query.boost != 1.0:
            acc *= query.boost
        return acc, matched

    def _span(self, field: str, term: str) -> tuple[int, int]:
        return self.slices.get(field, {}).get(term, (0, 0))

    def _add_term(self, acc: np.ndarray, matched: np.ndarray, field: str, term: str, boost: float) -> None:
        a, b = self._span(field, term)
        if a == b:
            return
        docs = self._id_array[a:b]         # a term's postings name each document once
        acc[docs] += self._score_array[a:b] * boost      # times 1.0 is exact: unboosted sums are unchanged
        matched[docs] = True

    def _add_all(self, acc: np.ndarray, matched: np.ndarray, query: And) -> None:
        spans = []
        for t in query.subqueries:
            if not isinstance(t, Term) or t.boost != 1.0:
                raise TypeError("postings score AND clauses of plain terms only")
            spans.append(self._span(t.fieldname, t.text))
        if not spans:
            return
        common = self._id_array[spans[0][0]:spans[0][1]]
        for a, b in spans[1:]:
            common = np.intersect1d(common, self._id_array[a:b], assume_unique=True)
        total = np.zeros(len(common))
        for a, b in spans:          # postings are in document order: each document's place by bisection
            total += self._score_array[a:b][np.searchsorted(self._id_array[a:b], common)]
        acc[common] += total * query.boost
        matched[common] = True


def compute(searcher) -> Postings:
    """Score every posting of the queried fields with ``WEIGHTING``, as Whoosh's matchers would.

    The postings are read one by one; the scores are worked out per field in numpy, with
    ``scoring.bm25``'s operations in its order, so each is the same number to the last bit."""
    reader = searcher.reader()
    n = reader.doc_count_all()
    schema = searcher.schema
    slices: dict[str, dict[str, tuple[int, int]]] = {}
    ids, scores = array("i"), array("d")
    for field in SCORED_FIELDS:
        slices[field] = {}
        scorable = schema[field].scorable
        weights, idfs, counts = array("d"), array("d"), []
        first = len(ids)
        for term in reader.field_terms(field):
            start = len(ids)
            m = searcher.postings(field, term)
            active, doc, weight, step = m.is_active, m.id, m.weight, m.next
            while active():
                ids.append(doc())
                weights.append(weight())
                step()
            slices[field][term] = (start, len(ids))
            if scorable:
                idfs.append(WEIGHTING.scorer(searcher, field, term).idf)
                counts.append(len(ids) - start)
        if not scorable:
            scores.extend(weights)
            continue
        scorer_b, k1 = WEIGHTING._field_B.get(field, WEIGHTING.B), WEIGHTING.K1
        avgfl = searcher.avg_field_length(field) or 1
        # the same (lossily encoded) lengths BM25FScorer reads through searcher.doc_field_length
        lengths = np.array([searcher.doc_field_length(d, field, 1) for d in range(n)], dtype=np.float64)
        tf = np.frombuffer(weights, dtype=np.float64)
        fl = lengths[np.frombuffer(ids, dtype=np.int32)[first:]]
        idf = np.repeat(np.frombuffer(idfs, dtype=np.float64), counts)
        scores.frombytes((idf * ((tf * (k1 + 1)) / (tf + k1 * ((1 - scorer_b) + scorer_b * fl / avgfl)))).tobytes())
    keys, cards = [""] * n, [()] * n
    for d, f in reader.iter_docs():
        keys[d] = f.get("key", "")
        cards[d] = tuple(c for c in (f.get("cards") or "").split(",") if c)
    return Postings(slices, ids, scores, keys, cards)


def write(postings: Postings, out_dir: Path) -> None:
    out_dir = Path(out_dir)
    header = {"format": FORMAT, "postings": len(postings.ids), "slices": postings.slices,
              "keys": postings.keys, "cards": [",".join(c) for c in postings.cards]}
    ids, scores = array("i", postings.ids), array("d", postings.scores)
    if sys.byteorder != "little":
        ids.byteswap()
        scores.byteswap()
    (out_dir / BIN_FILE).write_bytes(ids.tobytes() + scores.tobytes())
    (out_dir / JSON_FILE).write_text(json.dumps(header, ensure_ascii=False, separators=(",", ":")),
                                     encoding="utf-8")


def exists(search_dir: Path) -> bool:
    return (Path(search_dir) / JSON_FILE).exists() and (Path(search_dir) / BIN_FILE).exists()


def load(search_dir: Path, doc_count: int) -> Postings:
    """Read the build's postings; PostingsError names the file and what is wrong with it."""
    jpath, bpath = Path(search_dir) / JSON_FILE, Path(search_dir) / BIN_FILE
    try:
        header = json.loads(jpath.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise PostingsError(f"{jpath}: cannot read postings header: {exc}") from exc
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise PostingsError(f"{jpath}: unknown postings format {header.get('format') if isinstance(header, dict) else header!r}")
    n = header.get("postings")
    try:
        raw = bpath.read_bytes()
    except OSError as exc:
        raise PostingsError(f"{bpath}: cannot read postings: {exc}") from exc
    if not isinstance(n, int) or len(raw) != n * 12:
        raise PostingsError(f"{bpath}: expected {n} postings (12 bytes each), found {len(raw)} bytes")
    ids, scores = array("i"), array("d")
    if ids.itemsize != 4 or scores.itemsize != 8:
        raise PostingsError(f"{bpath}: this platform's int/double sizes do not match the file")
    ids.frombytes(raw[: n * 4])
    scores.frombytes(raw[n * 4:])
    if sys.byteorder != "little":
        ids.byteswap()
        scores.byteswap()
    keys = header.get("keys") or []
    if len(keys) != doc_count:
        raise PostingsError(f"{jpath}: written for {len(keys)} documents, the index has {doc_count}")
    try:
        slices = {f: {t: (int(s[0]), int(s[1])) for t, s in terms.items()} for f, terms in header["slices"].items()}
        cards = [tuple(c for c in s.split(",") if c) for s in header["cards"]]
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise PostingsError(f"{jpath}: malformed postings header ({type(exc).__name__}: {exc})") from exc
    if len(cards) != doc_count or any(not 0 <= a <= b <= n for terms in slices.values() for a, b in terms.values()):
        raise PostingsError(f"{jpath}: postings header does not match {bpath.name}")
    return Postings(slices, ids, scores, keys, cards)
