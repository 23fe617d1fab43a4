"""Re-ranking BM25's candidates with a small model over features a person can read.

BM25 already finds the answer among its first few dozen candidates for almost
every question; what it gets wrong is the order (a card's name outweighs the
words of the question, a long FAQ paragraph outweighs the rule it restates). So
each candidate gets a handful of features -- how much of the question's wording
it holds and where (title or text), whether it is a named card's own entry or
ruling, whether it names every card the question names, whether it is the
section a recognised concept points at, its kind, German or English -- and the
order is a learned score of them (scorer.py: a linear term and one small hidden
layer, so features can count in combination). The model is learned by
``bench/train_ranker.py`` from the tuning part of ``bench/relevance_set.yaml`` and
the question tables' training part only, and stored in ``ranker.json`` beside this
module with the feature names, so a change of features without retraining is
refused, not silently mis-scored. Held-out questions are never trained on.
"""
from __future__ import annotations

import math
import re
from bisect import bisect_left
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Sequence, TypeVar

from app.search import scorer
from app.search.embedding import Embedding
from app.search.scorer import Model

WEIGHTS_FILE = Path(__file__).with_name("ranker.json")
T = TypeVar("T")

# Display kinds (documents.py) that get their own feature.
KINDS = ("card", "ruling", "section", "common effect", "FAQ", "rulebook", "German", "index term")

FEATURES = (
    "bm25",            # the query's BM25F score (words, card and concept boosts), over the best candidate's
    "text",            # the BM25F score of the question's own words only, over the best candidate's
    "coverage",        # share of the question's words (idf-weighted) the document holds
    "title",           # share of the question's words in the document's title or section heading
    "first",           # 1 / BM25 rank: how sure the plain ranking was
    "named",           # share of the named cards the document names
    "all_named",       # the document names every card of a question naming two or more
    "own",             # the document is a named card's own (entry, ruling, FAQ, German, rulebook)
    "own_words",       # own document that also matches the question's other words
    "entry_only",      # a named card's Card Reference entry when the question has other words too
    "concept",         # the document is (in) a section a recognised concept names
    "no_card_rules",   # a rules section or common effect for a question that names no card
    "no_card_card",    # a card-bound document for a question that names no card
    "core_rules",      # the essential and basic rules (chapters II-III) for a question that names no card
    "german_doc_en",   # a German passage for an English question
    "german_doc_de",   # a German passage for a German question
    "pointer",         # an index entry that only lists pages
    "old_version",     # a ruling on a previous version of a card
    "paragraph",       # one paragraph rather than a whole section
    "kingdoms",        # an Adventures rulebook kingdom list (names many cards, says no rule)
    "all_coverage",    # share of all the question's words (idf-weighted, common ones too) the document holds
    "rule_words",      # a rule document's score on all the question's words, over the best candidate's
                       # (questions naming no card; rulewords.py)
    "asked",           # how closely one of the questions the document answers (corpus/data/rule-questions)
                       # matches the question asked: idf-weighted overlap of their words over their union
    "embedding",       # the cosine of the question and the document in the vector space the question tables teach,
                       # each question nearer its own passage than the passages beside it (embedding.py)
    *(f"kind:{k}" for k in KINDS),
)

# The Adventures rulebook's recommended kingdoms ("Adventures & Intrigue: ...") name ten cards and no rule.
_KINGDOM_LIST = re.compile(r"^adventures-(?:adventures-|recommended-sets-of-10)")
_ASKS_FOR_KINGDOMS = re.compile(r"\b(?:kingdoms?|recommended|sets?\s+of\s+10|card\s+sets?)\b", re.I)


def is_kingdom_list(key: str) -> bool:
    return _KINGDOM_LIST.match(key) is not None


def asks_for_kingdoms(text: str) -> bool:
    """Only a question about recommended sets wants the rulebook's kingdom lists."""
    return _ASKS_FOR_KINGDOMS.search(text) is not None


def training_inputs() -> str:
    """The digest of what the ranker is trained on: the tuning questions and the question tables. Not the German
    tables: it never asks their questions (bench/table_holdout.py), and they change no English question's features,
    only the word vectors of German questions naming no card (embedding._learn_german)."""
    from app.corpus.rule_questions import GERMAN_PREFIX
    from app.search.model_files import QUESTION_TABLES, inputs_digest

    return inputs_digest([QUESTION_TABLES, QUESTION_TABLES.parents[2] / "bench" / "relevance_set.yaml"],
                         skip=GERMAN_PREFIX)


@lru_cache(maxsize=4)
def load_model(path: Path = WEIGHTS_FILE) -> Model | None:
    """The trained model, or None when there is none (or it belongs to other features: logged)."""
    return scorer.load(path, FEATURES, training_inputs())


@dataclass
class DocInfo:
    """What the features need per document, read once when the engine opens."""

    kind: list[str]
    title_stems: list[frozenset[str]]
    asks: dict[int, tuple[TableQuestion, ...]] = field(default_factory=dict)   # docnum -> the questions it answers
    embedding: Embedding | None = None         # the build's word vectors (None for an index without them)


def term_scores(postings, field: str, term: str, docs: Sequence[int]) -> dict[int, float]:
    """The posting scores of ``term`` for the documents in ``docs`` (binary search in its sorted span)."""
    a, b = postings.slices.get(field, {}).get(term, (0, 0))
    out: dict[int, float] = {}
    if a == b:
        return out
    ids = postings.ids
    for d in docs:
        i = bisect_left(ids, d, a, b)
        if i < b and ids[i] == d:
            out[d] = postings.scores[i]
    return out


def words_score(postings, words: Sequence[str], docs: Sequence[int]) -> dict[int, float]:
    """Each of ``docs``' BM25 score on the question's own words in its text (no name or concept boosts)."""
    out: dict[int, float] = {}
    for t in dict.fromkeys(words):
        for d, sc in term_scores(postings, "text", t, docs).items():
            out[d] = out.get(d, 0.0) + sc
    return out


def features(cands: Sequence[tuple[float, int]], postings, info: DocInfo, *, stems: Sequence[str],
             named: Sequence[str], owner: dict[int, str], card_doc: dict[str, int], concept_keys: set[str],
             german_query: bool, pointers: frozenset[int], words: Sequence[str] = (),
             rule_scores: dict[int, float] | None = None, asked: AskedWords | None = None,
             near: dict[int, float] | None = None) -> list[list[float]]:
    """One feature row per candidate, in the order of FEATURES. ``asked`` is the question's words as
    compared with table questions (the query plan's, so the hits' "Answers" reuse its comparisons);
    and ``near`` the candidates' cosines to the question (embedding.py; the plan's)."""
    docs = [d for _, d in cands]
    all_words = list(dict.fromkeys(words)) or list(stems)
    asked = asked or AskedWords(all_words, IdfWeights(postings))
    per_term = {t: term_scores(postings, "text", t, docs) for t in stems}
    idf = {t: asked.weight(t) for t in stems}
    idf_total = sum(idf.values()) or 1.0
    in_doc = {t: per_term[t] if t in per_term else term_scores(postings, "text", t, docs) for t in all_words}
    all_idf = {t: asked.weight(t) for t in all_words}
    all_total = sum(all_idf.values()) or 1.0
    rule_scores = rule_scores or {}
    best_rule = max((rule_scores.get(d, 0.0) for d in docs), default=0.0) or 1.0
    text = {d: sum(s.get(d, 0.0) for s in per_term.values()) for d in docs}
    best_text = max(text.values(), default=0.0) or 1.0
    best = max((s for s, _ in cands), default=0.0) or 1.0
    wanted = set(named)
    entries = {card_doc.get(s) for s in named}
    stem_set = set(stems)
    closest = _asked(info.asks, docs, asked) if info.asks else {}
    near = near or {}
    rows = []
    for rank, (score, d) in enumerate(cands, start=1):
        key = postings.keys[d]
        kind = info.kind[d]
        cards = set(postings.cards[d])
        covered = sum(idf[t] for t in stems if d in per_term[t]) / idf_total if stems else 0.0
        title = len(stem_set & info.title_stems[d]) / len(stem_set) if stem_set else 0.0
        own = 1.0 if owner.get(d) in wanted else 0.0
        section = key.split("#", 1)[0]
        card_bound = d in owner
        row = [
            score / best,
            text[d] / best_text,
            covered,
            title,
            1.0 / rank,
            len(wanted & cards) / len(wanted) if wanted else 0.0,
            1.0 if len(wanted) >= 2 and wanted <= cards else 0.0,
            own,
            own * covered,
            1.0 if d in entries and stems else 0.0,
            1.0 if key in concept_keys or section in concept_keys else 0.0,
            1.0 if not wanted and kind in ("section", "common effect") else 0.0,
            1.0 if not wanted and card_bound else 0.0,
            1.0 if not wanted and key.startswith(("ii-", "iii-")) else 0.0,
            1.0 if kind == "German" and not german_query else 0.0,
            1.0 if kind == "German" and german_query else 0.0,
            1.0 if d in pointers else 0.0,
            1.0 if "-pre-" in key.split("#", 1)[0] and kind in ("ruling", "card") else 0.0,
            1.0 if "#p" in key else 0.0,
            1.0 if is_kingdom_list(key) else 0.0,
            sum(all_idf[t] for t in all_words if d in in_doc[t]) / all_total if all_words else 0.0,
            rule_scores.get(d, 0.0) / best_rule,
            closest.get(d, 0.0),
            near.get(d, 0.0),
        ]
        row += [1.0 if kind == k else 0.0 for k in KINDS]
        rows.append(row)
    return rows


class IdfWeights:
    """idf of text-field words, computed on first use."""

    def __init__(self, postings):
        self.postings = postings
        self._idf: dict[str, float] = {}

    def __call__(self, t: str) -> float:
        w = self._idf.get(t)
        if w is None:
            p = self.postings
            w = self._idf[t] = math.log(1 + p.doc_count / (1 + p.doc_frequency("text", t)))
        return w


@dataclass(frozen=True)
class TableQuestion:
    """One question of corpus/data/rule-questions, as the ranker compares it: its stems and their total idf."""

    stems: frozenset[str]
    weight: float


def table_question(stems: frozenset[str], weight: IdfWeights) -> TableQuestion:
    return TableQuestion(stems, sum(weight(t) for t in stems))


class AskedWords:
    """The words of the question asked, idf-weighted, compared with table questions.

    The comparison is a weighted Jaccard: shared weight over the weight of the union. Union, not the
    share of the asked words alone: a long table question that happens to hold every word of a short
    query ("buy") is not the same question; idf makes "can I" count less than "coffers". Both totals
    are known in advance, so a comparison walks only the asked words (a few) and not the question's.
    """

    def __init__(self, words: Sequence[str], weight: IdfWeights):
        self.weight = weight
        self.idf = {t: weight(t) for t in dict.fromkeys(words)}
        self.total = sum(self.idf.values())
        self._seen: dict[int, float] = {}     # the ranking and the hits' "Answers" line compare the same questions

    def similarity(self, q: TableQuestion) -> float:
        got = self._seen.get(id(q))
        if got is None:
            stems = q.stems
            shared = sum(w for t, w in self.idf.items() if t in stems)
            got = self._seen[id(q)] = shared / (q.weight + self.total - shared) if shared else 0.0
        return got


def _asked(asks: dict[int, tuple[TableQuestion, ...]], docs: Sequence[int], asked: AskedWords) -> dict[int, float]:
    """Per document, how close its closest table question is to the question asked."""
    if not asked.total:
        return {}
    out = {}
    for d in docs:
        best = max((asked.similarity(q) for q in asks.get(d, ())), default=0.0)
        if best:
            out[d] = best
    return out


def rerank(cands: list[tuple[float, int]], rows: list[list[float]], model: Model) -> list[tuple[float, int]]:
    """Candidates ordered by the model's score (ties keep BM25's order); the score replaces BM25's."""
    scores = model.scores(rows)
    scored = [(float(s), i, d) for i, (s, (_, d)) in enumerate(zip(scores, cands))]
    scored.sort(key=lambda x: (-x[0], x[1]))
    return [(s, d) for s, _, d in scored]


def german_beside_english(ranked: list[tuple[float, int]], kinds: Sequence[str],
                          owner: dict[int, str]) -> list[tuple[float, int]]:
    """For an English question, a German passage never ranks above its card's best English document:
    it moves to just after it (beside the ruling it translates). One without an English document of
    its card in the list keeps its place."""
    out = list(ranked)
    first_english: dict[str, int] = {}
    for i, (_, d) in enumerate(out):
        card = owner.get(d)
        if card is not None and kinds[d] != "German":
            first_english.setdefault(card, i)
    moved = [(i, sd) for i, sd in enumerate(out)
             if kinds[sd[1]] == "German" and first_english.get(owner.get(sd[1]), -1) > i]
    for i, sd in reversed(moved):
        out.pop(i)
    for _, sd in moved:
        at = next(j for j, (_, d) in enumerate(out) if owner.get(d) == owner.get(sd[1]) and kinds[d] != "German")
        out.insert(at + 1, sd)
    return out


def after_current_rule(ranked: list[T], superseded: dict[int, frozenset[int]], doc: Callable[[T], int]) -> list[T]:
    """An out-of-date FAQ passage (corpus/data/faq-superseded.csv) never ranks above a Complete Rules
    passage that overrules it: it moves to just after the last of them in the list. One whose
    overruling passages are not in the list keeps its place (the hit then says it is out of date).
    Applied to the final list, after sections were collapsed into the paragraph they show."""
    if not superseded:
        return ranked
    out = list(ranked)
    for d in [doc(x) for x in ranked if doc(x) in superseded]:
        i = next(j for j, x in enumerate(out) if doc(x) == d)
        later = [j for j, x in enumerate(out) if doc(x) in superseded[d] and j > i]
        if later:
            item = out.pop(i)
            out.insert(later[-1], item)       # the list shifted left by one: this is just after it
    return out


def write_model(model: Model, extra: dict[str, Any], path: Path = WEIGHTS_FILE) -> None:
    scorer.write(model, path, extra)
    load_model.cache_clear()
