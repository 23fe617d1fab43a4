"""The team's relevance set: recall@3 must stay at or above 0.9 (figures: bench/relevance.py)."""
from __future__ import annotations

from app.search.evaluate import evaluate, load_relevance_set, missing_targets


def test_relevance_set_is_big_enough_and_current(store):
    questions = load_relevance_set()
    assert len(questions) >= 60
    assert {q.category for q in questions} >= {"card", "two-card", "rules", "german", "misspelled"}
    assert missing_targets(store, questions) == []


def test_recall_at_3_at_least_0_9(store):
    scores = evaluate(store, load_relevance_set())
    misses = [(o.question.q, o.rank, o.top) for o in scores.outcomes if o.rank is None or o.rank > 3]
    assert scores.recall_at(3) >= 0.9, misses


def test_mrr_at_least_0_85(store):
    """Recall@3 alone would not notice right answers sliding from first to third place."""
    scores = evaluate(store, load_relevance_set())
    assert scores.mrr() >= 0.85, [(o.question.q, o.rank) for o in scores.outcomes if o.rank != 1]
